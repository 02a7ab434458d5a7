//! The table being packed, as a bitset of taken slots, and the first-fit search: the
//! lowest start where a pattern's used slots all land on free ones.

use super::pattern::Pattern;

/// The slots in use so far, as a bitset, with the free slots of each two neighbouring words
/// beside it.
#[derive(Clone)]
pub(crate) struct Table {
    pub(super) taken: Vec<u64>,
    /// Per word `i`: the free slots of words `i` and `i + 1` (at most 127: no pattern word
    /// needs more than 64, and a byte of 127 plus 128 never carries), and 127 for
    /// [`PAIR_PAD`] words past the end, so that the tests load slots that are always there.
    /// A pattern word of `c` used slots lands in two table words, so a block of 64 starts
    /// where those two have fewer than `c` free slots between them holds no fit; most
    /// blocks are ruled out by this alone.
    pub(super) pair: Vec<u8>,
    pub(super) len: usize,
}

/// Entries of [`Table::pair`] past the last table word: a pattern's words reach 63 words
/// past its start, and the room tests read 8 entries at a time from there.
const PAIR_PAD: usize = 72;

/// The [`Table::pair`] entry of two free words, capped so that the room tests' byte sums
/// stay within a byte.
const FREE_PAIR: u8 = 127;

/// The top bit of every byte: where the room tests' byte sums say "enough room".
const TOPS: u64 = 0x8080_8080_8080_8080;

impl Table {
    pub(crate) fn new() -> Table {
        Table {
            taken: Vec::new(),
            pair: vec![FREE_PAIR; PAIR_PAD],
            len: 0,
        }
    }

    /// Applies `op` to each table word under `p` at start `s` with the pattern's bits there,
    /// then counts the free slots of the words it changed, and of each word before one, in
    /// pairs ([`Table::place`] keeps every word it touches and one more in the table).
    /// Word after word through a dense pattern; only its non-empty words for a sparse one
    /// (a white pattern is mostly empty words between slot 0 and its run).
    fn write(&mut self, p: &Pattern, s: usize, op: impl Fn(&mut u64, u64)) {
        let (i, r) = (s / 64, s % 64);
        let n = p.dense.len();
        if 3 * p.words.len() < n {
            for &(w, bits) in &p.words {
                op(&mut self.taken[i + w], bits << r);
                if r != 0 {
                    op(&mut self.taken[i + w + 1], bits >> (64 - r));
                }
                self.pair_up((i + w).saturating_sub(1), i + w + 1);
            }
            return;
        }
        let under = &mut self.taken[i..=i + n];
        for (w, &bits) in p.dense.iter().enumerate() {
            op(&mut under[w], bits << r);
            if r != 0 {
                op(&mut under[w + 1], bits >> (64 - r));
            }
        }
        self.pair_up(i.saturating_sub(1), i + n);
    }

    /// Counts the free slots of words `lo..=hi + 1` again, in pairs: [`Table::pair`]
    /// `lo..=hi`. Each word counted once (with no popcount instruction in the default
    /// target, counting is most of placing and removing).
    fn pair_up(&mut self, lo: usize, hi: usize) {
        let mut free = self.taken[lo].count_zeros();
        let words = &self.taken[lo + 1..=hi + 1];
        for (pair, word) in self.pair[lo..=hi].iter_mut().zip(words) {
            let next = word.count_zeros();
            *pair = ((free + next) as u8).min(FREE_PAIR);
            free = next;
        }
    }

    /// Takes every slot out, keeping the memory.
    pub(super) fn empty(&mut self) {
        self.taken.clear();
        self.pair.clear();
        self.pair.resize(PAIR_PAD, FREE_PAIR);
        self.len = 0;
    }

    /// Returns the eight [`Table::pair`] entries from `at` as the bytes of one number.
    fn eight_pairs(&self, at: usize) -> u64 {
        let eight: [u8; 8] = self.pair[at..at + 8].try_into().expect("eight bytes");
        u64::from_le_bytes(eight)
    }

    /// Returns false if no start in `64 * k..64 * k + 64` can fit `p`: some word of it has
    /// more used slots than the two table words under it have free ones, and then leaves
    /// in `*tight` that word (its position in the pattern). Eight words a step
    /// ([`Pattern::room`]), the chunk at `*hint` first, where the last block failed: the
    /// busy stretch that failed it is likely under the next block too.
    fn room(&self, p: &Pattern, k: usize, hint: &mut usize, tight: &mut usize) -> bool {
        // Top bits of the words in chunk `j` without room.
        let short = |j: usize| !self.eight_pairs(k + 8 * j).wrapping_add(p.room[j]) & TOPS;
        let failed = |j: usize, bits: u64, tight: &mut usize| {
            *tight = 8 * j + (bits.trailing_zeros() / 8) as usize;
        };
        let first = short(*hint);
        if first != 0 {
            failed(*hint, first, tight);
            return false;
        }
        for j in 0..p.room.len() {
            let bits = if j == *hint { 0 } else { short(j) };
            if bits != 0 {
                *hint = j;
                failed(j, bits, tight);
                return false;
            }
        }
        true
    }

    /// Returns the first block `k'` from `k` on, at most the table's word count, where
    /// both pattern words `a` and `b` (positions in the pattern) have room in the two table
    /// words under them: eight blocks a step, as bytes of one number. Most blocks a refit
    /// meets fail here, and two adds and masks per eight of them are their whole cost; a
    /// block that passes the anchor mostly fails on the word that failed the last one.
    fn next_room(&self, mut k: usize, p: &Pattern, a: usize, b: usize) -> usize {
        let end = self.taken.len();
        // A byte f (at most 127) plus 128 - c (at most 128, `c` the word's used slots)
        // sets its top bit exactly when f >= c, and never carries into the next byte.
        let (need_a, need_b) = (p.need[a], p.need[b]);
        while k < end {
            let hit = self.eight_pairs(k + a).wrapping_add(need_a)
                & self.eight_pairs(k + b).wrapping_add(need_b)
                & TOPS;
            if hit != 0 {
                // Past the end every block has room: the first of them is `end`.
                return (k + (hit.trailing_zeros() / 8) as usize).min(end);
            }
            k += 8;
        }
        end
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
    /// index at `s`, testing word `*hint` first and leaving there the word that failed: a
    /// start close to the last one meets the same busy slots with the same word. Inlined
    /// into the fit search, which calls it for most starts it tests (a call cost about a
    /// tenth of the instructions of a packing move).
    #[inline(always)]
    pub(super) fn rest_fits(&self, p: &Pattern, s: usize, hint: &mut usize) -> bool {
        let clear = |i: usize| {
            let (w, bits) = p.words[i];
            bits & self.window(s + 64 * w) == 0
        };
        if !clear(*hint) {
            return false;
        }
        for i in 1..p.words.len() {
            if i != *hint && !clear(i) {
                *hint = i;
                return false;
            }
        }
        true
    }

    /// Returns true if `p` fits with its first used index at `s`: [`Table::rest_fits`] with
    /// its hint on the anchor tests the anchor first, then every other word.
    pub(super) fn fits_at(&self, p: &Pattern, s: usize) -> bool {
        self.rest_fits(p, s, &mut 0)
    }

    /// Returns the lowest start (the slot its first used index lands on) at which `p`
    /// fits, no lower than `lowest`.
    pub(crate) fn first_fit(&self, p: &Pattern, lowest: usize) -> usize {
        // Past the end of the table every slot is free, so a start is always found.
        self.first_fit_below(p, lowest, usize::MAX)
            .unwrap_or(usize::MAX)
    }

    /// Returns the lowest start in `lowest..limit` at which `p` fits, if any.
    pub(crate) fn first_fit_below(
        &self,
        p: &Pattern,
        lowest: usize,
        limit: usize,
    ) -> Option<usize> {
        let anchor = p.words[0].0;
        // Where the last block's room test and the last start's word test failed, and the
        // word (a position in the pattern) that failed the last room test.
        let (mut chunk, mut word, mut tight) = (0, 1.min(p.words.len() - 1), anchor);
        let mut base = lowest & !63;
        while base < limit {
            base = 64 * self.next_room(base / 64, p, anchor, tight);
            if base >= limit {
                return None;
            }
            if base >= 64 * self.taken.len() {
                // Every slot from here on is free.
                return Some(base.max(lowest)).filter(|&s| s < limit);
            }
            if !self.room(p, base / 64, &mut chunk, &mut tight) {
                base += 64;
                continue;
            }
            // Bit j of `free`: with start s = base + j, the anchor word fits; then also
            // the word that failed the last start's test.
            let mut free = screen(self.two_words(base / 64 + anchor), p.bits_of(0), !0);
            if free != 0 && word != 0 {
                let two = self.two_words(base / 64 + p.words[word].0);
                free = screen(two, p.bits_of(word), free);
            }
            while free != 0 {
                let s = base + free.trailing_zeros() as usize;
                free &= free - 1;
                if s >= limit {
                    return None;
                }
                if s >= lowest && self.rest_fits(p, s, &mut word) {
                    return Some(s);
                }
            }
            base += 64;
        }
        None
    }

    /// Frees the slots `p` takes at start `s` (placed there before).
    pub(crate) fn remove(&mut self, p: &Pattern, s: usize) {
        self.write(p, s, |t, bits| *t &= !bits);
    }

    /// Takes the slots of `p` at start `s`.
    pub(crate) fn place(&mut self, p: &Pattern, s: usize) {
        let end = s + p.extent();
        // One word past the end, and past every word `write` touches and counts.
        let words = (end.div_ceil(64) + 1).max(s / 64 + p.dense.len() + 2);
        if words > self.taken.len() {
            self.taken.resize(words, 0);
            self.pair.resize(self.taken.len() + PAIR_PAD, FREE_PAIR);
        }
        self.write(p, s, |t, bits| *t |= bits);
        self.len = self.len.max(end);
    }
}

/// Returns the bits j of `free` where a word with set `bits` (positions below 64) fits at
/// slot j of the 128 slots in `two`, low word first: both the word's offset in its pattern
/// and the block's first start are whole words, so each window is one funnel shift. Four
/// bits a step, stopping once no start is left.
fn screen(two: u128, bits: &[u8], mut free: u64) -> u64 {
    for four in bits.chunks_exact(4) {
        let taken = |b: u8| (two >> (b & 63)) as u64;
        free &= !(taken(four[0]) | taken(four[1]) | taken(four[2]) | taken(four[3]));
        if free == 0 {
            break;
        }
    }
    free
}
