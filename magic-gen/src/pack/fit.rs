//! The table being packed, as a bitset of taken slots, and the first-fit search: the
//! lowest start where a pattern's used slots all land on free ones.

use super::pattern::Pattern;

/// The slots in use so far, as a bitset, with the free slots of each word beside it.
pub(crate) struct Table {
    pub(super) taken: Vec<u64>,
    /// Per word of `taken`: its free slots. A pattern word of `c` used slots lands in two
    /// table words, so a block of 64 starts where those two have fewer than `c` free slots
    /// between them holds no fit; most blocks are ruled out by this alone.
    pub(super) free: Vec<u8>,
    /// Per word `i`: the free slots of words `i` and `i + 1`, and 128 for the words past
    /// the end that a pattern of 64 words from the last table word reaches, so that the
    /// test is one load of a slot that is always there.
    pub(super) pair: Vec<u8>,
    pub(super) len: usize,
}

impl Table {
    pub(crate) fn new() -> Table {
        Table {
            taken: Vec::new(),
            free: Vec::new(),
            pair: vec![128; 66],
            len: 0,
        }
    }

    /// Sets [`Table::pair`] around word `i`, whose free count changed.
    fn pair_up(&mut self, i: usize) {
        let f = |j: usize| self.free.get(j).copied().unwrap_or(64);
        if i > 0 {
            self.pair[i - 1] = f(i - 1) + f(i);
        }
        self.pair[i] = f(i) + f(i + 1);
    }

    /// Returns false if no start in `64 * k..64 * k + 64` can fit `p`: some word of it has
    /// more used slots than the two table words under it have free ones.
    fn room(&self, p: &Pattern, k: usize) -> bool {
        p.words
            .iter()
            .zip(&p.counts)
            .all(|(&(w, _), &c)| self.pair.get(k + w).is_none_or(|&f| f >= c))
    }

    /// Returns table words `w` and `w + 1` as one number, `w` in the low half (slots past
    /// the end are free).
    pub(super) fn two_words(&self, w: usize) -> u128 {
        let word = |i: usize| self.taken.get(i).copied().unwrap_or(0) as u128;
        word(w) | word(w + 1) << 64
    }

    /// Returns the 64 slots starting at slot `x` as bits (slots past the end are free).
    /// Not through [`Table::two_words`]: with a u128 shift here, 300 moves of packing the
    /// published sets took 8% more instructions.
    pub(super) fn window(&self, x: usize) -> u64 {
        let (w, r) = (x / 64, x % 64);
        let lo = self.taken.get(w).copied().unwrap_or(0);
        if r == 0 {
            return lo;
        }
        let hi = self.taken.get(w + 1).copied().unwrap_or(0);
        (lo >> r) | (hi << (64 - r))
    }

    /// Returns true if `p`'s slots outside its anchor word are free with its first used
    /// index at `s`.
    pub(super) fn rest_fits(&self, p: &Pattern, s: usize) -> bool {
        p.words[1..]
            .iter()
            .all(|&(w, bits)| bits & self.window(s + 64 * w) == 0)
    }

    /// Returns the lowest start (the slot its first used index lands on) at which `p`
    /// fits, no lower than `lowest`.
    pub(crate) fn first_fit(&self, p: &Pattern, lowest: usize) -> usize {
        // Past the end of the table every slot is free, so a start is always found.
        self.first_fit_below(p, lowest, usize::MAX)
            .unwrap_or(usize::MAX)
    }

    /// Returns the lowest start in `lowest..limit` at which `p` fits, if any.
    pub(super) fn first_fit_below(
        &self,
        p: &Pattern,
        lowest: usize,
        limit: usize,
    ) -> Option<usize> {
        let mut base = lowest & !63;
        while base < limit {
            if base >= 64 * self.taken.len() {
                // Every slot from here on is free.
                return Some(base.max(lowest)).filter(|&s| s < limit);
            }
            if !self.room(p, base / 64) {
                base += 64;
                continue;
            }
            // Bit j of `free`: with start s = base + j, slots s + b are free for every set
            // bit b of the anchor word.
            // `base` and the anchor's offset are whole words, so every window the screen
            // takes lies in the two table words from `at` on.
            let two = self.two_words(base / 64 + p.words[0].0);
            let mut free = !0u64;
            for &b in &p.head {
                free &= !((two >> b) as u64);
                if free == 0 {
                    break;
                }
            }
            while free != 0 {
                let s = base + free.trailing_zeros() as usize;
                free &= free - 1;
                if s >= limit {
                    return None;
                }
                if s >= lowest && self.rest_fits(p, s) {
                    return Some(s);
                }
            }
            base += 64;
        }
        None
    }

    /// Frees the slots `p` takes at start `s` (placed there before).
    pub(super) fn remove(&mut self, p: &Pattern, s: usize) {
        for (&(w, bits), &c) in p.words.iter().zip(&p.counts) {
            let x = s + 64 * w;
            let (i, r) = (x / 64, x % 64);
            self.taken[i] &= !(bits << r);
            let low = (bits << r).count_ones() as u8;
            self.free[i] += low;
            if r != 0 {
                self.taken[i + 1] &= !(bits >> (64 - r));
                self.free[i + 1] += c - low;
                self.pair_up(i + 1);
            }
            self.pair_up(i);
        }
    }

    /// Takes the slots of `p` at start `s`.
    pub(crate) fn place(&mut self, p: &Pattern, s: usize) {
        let end = s + p.extent();
        if end.div_ceil(64) + 1 > self.taken.len() {
            self.taken.resize(end.div_ceil(64) + 1, 0);
            self.free.resize(self.taken.len(), 64);
            self.pair.resize(self.taken.len() + 66, 128);
        }
        for (&(w, bits), &c) in p.words.iter().zip(&p.counts) {
            let x = s + 64 * w;
            let (i, r) = (x / 64, x % 64);
            self.taken[i] |= bits << r;
            let low = (bits << r).count_ones() as u8;
            self.free[i] -= low;
            if r != 0 {
                self.taken[i + 1] |= bits >> (64 - r);
                self.free[i + 1] -= c - low;
                self.pair_up(i + 1);
            }
            self.pair_up(i);
        }
        self.len = self.len.max(end);
    }
}
