//! Packing fixed-shift ranges into one shared table.
//!
//! Each square brings a pool of valid magics, each with the indices its occupancies use
//! (a pattern with gaps). The packer places squares one at a time, widest first; for each
//! it tries every magic of the pool at its lowest fitting offset and keeps the one that
//! grows the table least (then the one with fewer used slots, leaving more room for later
//! squares). Patterns interleave in each other's gaps; slots are not shared
//! across squares (equal attack sets of different squares are rare). A fixed number of
//! annealing moves then changes the placing order and the pool members, every square
//! still at its lowest fit, keeping the shortest table met. Positions are starts (where a
//! pattern's first used index lands); the offset is the start minus that index, negative
//! only where negative offsets are on.
//!
//! Fitting is bit-parallel: 64 candidate offsets are tested at once against the pattern's
//! first 64 slots, and only survivors are checked in full.
//!
//! The annealer between two moves ([`Annealer`]) is what a checkpoint saves
//! (`pack_state.rs`), so a run stopped and resumed any number of times makes the moves of
//! an uninterrupted one and ends with the same set.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::geometry::Piece;
use crate::index::Variant;
use crate::set::{Entry, MagicSet};

use super::climb::{cooling, metropolis};
use super::pack_state::{pool_name, PackCheckpoint, PackMismatch, PackSquare};

/// One candidate magic of one square, its index bits and the indices (before the offset)
/// it uses. A square's pool may mix bits (a per-square shift that may also take the fixed
/// 12/9), so the bits go with the magic.
#[derive(Clone, Debug)]
pub(crate) struct Pattern {
    pub(crate) magic: u64,
    pub(crate) bits: u8,
    /// The lowest used index.
    first: usize,
    /// Used indices relative to `first`, as the 64-slot words that hold any: (word index,
    /// bits), the fullest first (ties: the lower index). The fit test screens 64 starts at
    /// once against the first, the anchor, then checks the others. A white pattern is its
    /// lone slot 0, mostly empty words, then its run, so its anchor is in the run.
    words: Vec<(usize, u64)>,
    /// Positions of the set bits of the anchor, in bit-reversed order: neighbouring bits
    /// take windows one slot apart, which screen out nearly the same starts, so the screen
    /// reaches no free start sooner with the far ones first.
    head: Vec<u32>,
    /// Number of used indices.
    pub(crate) used: usize,
    /// One past the highest used index.
    end: usize,
}

impl Pattern {
    /// Returns the slots from its first used index to one past its last.
    fn extent(&self) -> usize {
        self.end - self.first
    }

    /// Returns the lowest start this pattern may take: 0 where offsets may be negative
    /// (every index still at 0 or above), else its first index (offset 0).
    fn lowest_start(&self, negative_offsets: bool) -> usize {
        if negative_offsets {
            0
        } else {
            self.first
        }
    }

    /// Returns the pattern of `magic` with `bits` index bits from its used indices (any
    /// order, duplicates allowed).
    pub(crate) fn new(magic: u64, bits: u8, used: impl IntoIterator<Item = u32>) -> Pattern {
        let mut idx: Vec<usize> = used.into_iter().map(|i| i as usize).collect();
        idx.sort_unstable();
        idx.dedup();
        let first = idx.first().copied().unwrap_or(0);
        let end = idx.last().map_or(0, |l| l + 1);
        let mut dense = vec![0u64; (end - first).div_ceil(64).max(1)];
        for &i in &idx {
            dense[(i - first) / 64] |= 1 << ((i - first) % 64);
        }
        // Word 0 stays when the pattern is empty, so there is always an anchor.
        let mut words: Vec<(usize, u64)> = (0..dense.len())
            .filter(|&w| w == 0 || dense[w] != 0)
            .map(|w| (w, dense[w]))
            .collect();
        words.sort_by_key(|&(w, bits)| (core::cmp::Reverse(bits.count_ones()), w));
        let anchor = words[0].1;
        let mut head: Vec<u32> = (0..64).filter(|b| anchor >> b & 1 != 0).collect();
        head.sort_by_key(|b| b.reverse_bits());
        Pattern {
            magic,
            bits,
            first,
            words,
            head,
            used: idx.len(),
            end,
        }
    }
}

/// The slots in use so far, as a bitset.
struct Table {
    taken: Vec<u64>,
    len: usize,
}

impl Table {
    fn new() -> Table {
        Table {
            taken: Vec::new(),
            len: 0,
        }
    }

    /// Returns table words `w` and `w + 1` as one number, `w` in the low half (slots past
    /// the end are free).
    fn two_words(&self, w: usize) -> u128 {
        let word = |i: usize| self.taken.get(i).copied().unwrap_or(0) as u128;
        word(w) | word(w + 1) << 64
    }

    /// Returns the 64 slots starting at slot `x` as bits (slots past the end are free).
    /// Not through [`Table::two_words`]: with a u128 shift here, 300 moves of packing the
    /// published sets took 8% more instructions.
    fn window(&self, x: usize) -> u64 {
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
    fn rest_fits(&self, p: &Pattern, s: usize) -> bool {
        p.words[1..]
            .iter()
            .all(|&(w, bits)| bits & self.window(s + 64 * w) == 0)
    }

    /// Returns the lowest start (the slot its first used index lands on) at which `p`
    /// fits, no lower than `lowest`.
    fn first_fit(&self, p: &Pattern, lowest: usize) -> usize {
        // Past the end of the table every slot is free, so a start is always found.
        self.first_fit_below(p, lowest, usize::MAX)
            .unwrap_or(usize::MAX)
    }

    /// Returns the lowest start in `lowest..limit` at which `p` fits, if any.
    fn first_fit_below(&self, p: &Pattern, lowest: usize, limit: usize) -> Option<usize> {
        let mut base = lowest & !63;
        while base < limit {
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
    fn remove(&mut self, p: &Pattern, s: usize) {
        for &(w, bits) in &p.words {
            let x = s + 64 * w;
            let (i, r) = (x / 64, x % 64);
            self.taken[i] &= !(bits << r);
            if r != 0 {
                self.taken[i + 1] &= !(bits >> (64 - r));
            }
        }
    }

    /// Takes the slots of `p` at start `s`.
    fn place(&mut self, p: &Pattern, s: usize) {
        let end = s + p.extent();
        if end.div_ceil(64) + 1 > self.taken.len() {
            self.taken.resize(end.div_ceil(64) + 1, 0);
        }
        for &(w, bits) in &p.words {
            let x = s + 64 * w;
            let (i, r) = (x / 64, x % 64);
            self.taken[i] |= bits << r;
            if r != 0 {
                self.taken[i + 1] |= bits >> (64 - r);
            }
        }
        self.len = self.len.max(end);
    }
}

/// Packs squares in `order` (indices into `pools`), returning each square's chosen pattern
/// and offset and the table length.
fn pack_in_order(
    pools: &[Vec<Pattern>],
    order: &[usize],
    negative_offsets: bool,
) -> (Vec<(usize, usize)>, usize) {
    let mut table = Table::new();
    let mut choice = vec![(0usize, 0usize); pools.len()];
    for &sq in order {
        let mut best: Option<((usize, usize, usize), usize)> = None;
        for (k, p) in pools[sq].iter().enumerate() {
            let start = table.first_fit(p, p.lowest_start(negative_offsets));
            let end = table.len.max(start + p.extent());
            // Least growth first; then fewer used slots (more room for later squares).
            let cost = (end, p.used, start);
            if best.is_none_or(|(c, _)| cost < c) {
                best = Some((cost, k));
            }
        }
        if let Some(((_, _, start), k)) = best {
            table.place(&pools[sq][k], start);
            choice[sq] = (k, start);
        }
    }
    (choice, table.len)
}

/// A packing being improved: the order squares are placed in, each square's pool member,
/// and where first fit put each one. The order and the members decide the layout; the
/// starts follow from them.
struct Layout<'a> {
    pools: &'a [Vec<Pattern>],
    /// Whether a range may start before the table (see [`Pattern::lowest_start`]).
    negative_offsets: bool,
    /// Squares (indices into `pools`) in placing order.
    order: Vec<usize>,
    /// Per square: the pool member it uses.
    member: Vec<usize>,
    /// Per place in `order`: the start first fit gave it, and its end.
    start: Vec<usize>,
    end: Vec<usize>,
    table: Table,
}

impl<'a> Layout<'a> {
    /// Returns the layout of placing `order` with `member`s, each at its first fit.
    fn new(
        pools: &'a [Vec<Pattern>],
        order: Vec<usize>,
        member: Vec<usize>,
        negative_offsets: bool,
    ) -> Layout<'a> {
        let n = order.len();
        let mut layout = Layout {
            pools,
            negative_offsets,
            order,
            member,
            start: vec![0; n],
            end: vec![0; n],
            table: Table::new(),
        };
        layout.place_from(0);
        layout
    }

    /// Returns the pattern placed `at` in the order.
    fn pattern(&self, at: usize) -> &'a Pattern {
        let sq = self.order[at];
        &self.pools[sq][self.member[sq]]
    }

    /// Places the squares from `from` on in order, each at its lowest fitting start.
    fn place_from(&mut self, from: usize) {
        for at in from..self.order.len() {
            let p = self.pattern(at);
            let s = self
                .table
                .first_fit(p, p.lowest_start(self.negative_offsets));
            self.table.place(p, s);
            self.start[at] = s;
            self.end[at] = s + p.extent();
        }
    }

    /// Places the squares from `from` on in order, each at its lowest fitting start, as
    /// [`Layout::place_from`] does, knowing where they were `before` one move changed the
    /// order or a member from `from` on. A square's first fit can only differ from its
    /// old one at starts whose span meets a stretch where the table under it differs from
    /// the old table under it (the spans of squares that moved, came or went): every other
    /// start below its old one still collides, and its old one still fits unless it meets
    /// one. So only starts below the old one that meet a changed stretch are tried, and the
    /// old start is kept if none fits. On the published 87,988-entry magics, 1,000 moves
    /// took 0.39x the instructions, and every result is the same.
    fn place_from_known(&mut self, from: usize, before: &Before) {
        let mut windows = Vec::new();
        for at in from..self.order.len() {
            let x = self.order[at];
            let p = self.pattern(at);
            let lowest = p.lowest_start(self.negative_offsets);
            let s = if before.changed == Some(x) {
                self.table.first_fit(p, lowest)
            } else {
                // Starts that meet a changed stretch, in order, overlapping ones joined.
                windows.clear();
                self.changed_stretches(from, at, before, |lo, hi| {
                    windows.push((lowest.max((lo + 1).saturating_sub(p.extent())), hi));
                });
                windows.sort_unstable();
                let old = before.start[x];
                let mut s = old;
                let mut w = 0;
                while w < windows.len() && windows[w].0 <= old {
                    let (lo, mut hi) = windows[w];
                    while w + 1 < windows.len() && windows[w + 1].0 <= hi {
                        w += 1;
                        hi = hi.max(windows[w].1);
                    }
                    w += 1;
                    if old < hi {
                        // The old start may collide now: fit from here up.
                        s = self.table.first_fit(p, lo);
                        break;
                    }
                    if let Some(fit) = self.table.first_fit_below(p, lo, hi) {
                        s = fit;
                        break;
                    }
                }
                s
            };
            self.table.place(p, s);
            self.start[at] = s;
            self.end[at] = s + p.extent();
        }
    }

    /// Calls `stretch(lo, hi)` for the span of every square that is in the table under the
    /// square placed `at` (the squares before it, `from..at` placed already) and not in
    /// the table under it `before` the move, or the other way round, or in both at other
    /// starts or with another member (both spans then): together they hold every slot
    /// where the two tables differ.
    fn changed_stretches(
        &self,
        from: usize,
        at: usize,
        before: &Before,
        mut stretch: impl FnMut(usize, usize),
    ) {
        let x = self.order[at];
        for (k, &y) in self.order.iter().enumerate().skip(from) {
            let was_under = before.place[y] < before.place[x];
            let is_under = k < at;
            let same = was_under
                && is_under
                && before.start[y] == self.start[k]
                && before.changed != Some(y);
            if same || y == x {
                continue;
            }
            if was_under {
                stretch(before.start[y], before.end[y]);
            }
            if is_under {
                stretch(self.start[k], self.end[k]);
            }
        }
    }

    /// Gives each square, in placing order, the pool member of the shortest extent that
    /// keeps the table no longer (ties: fewer used slots), every square still at its first
    /// fit. The length decides the packing; among equal lengths, a range with fewer holes
    /// puts its square's lookups on fewer cache lines (annealed on length alone, the
    /// 86,905-entry black set had bishop f7 at 18 slots over 84; its pool had 18 over 24).
    fn shorten_spans(&mut self) {
        let mut len = self.len();
        for at in 0..self.order.len() {
            let sq = self.order[at];
            let pool = &self.pools[sq];
            let kept = self.member[sq];
            let mut shorter: Vec<usize> = (0..pool.len())
                .filter(|&k| pool[k].extent() < pool[kept].extent())
                .collect();
            shorter.sort_by_key(|&k| (pool[k].extent(), pool[k].used, k));
            let mut fitted = false;
            for k in shorter {
                self.clear_from(at);
                self.member[sq] = k;
                self.place_from(at);
                if self.len() <= len {
                    // Refitting the squares after it may even shorten the table.
                    len = self.len();
                    fitted = true;
                    break;
                }
            }
            if !fitted && self.member[sq] != kept {
                self.clear_from(at);
                self.member[sq] = kept;
                self.place_from(at);
            }
        }
    }

    /// Takes the squares from `from` on out of the table.
    fn clear_from(&mut self, from: usize) {
        for at in from..self.order.len() {
            self.table.remove(self.pattern(at), self.start[at]);
        }
    }

    /// Returns one past the last slot any square uses: the table length.
    fn len(&self) -> usize {
        self.end.iter().copied().max().unwrap_or(0)
    }

    /// Returns per square (pool member, start), `None` for squares without a pool.
    fn choices(&self) -> Vec<Option<(usize, usize)>> {
        let mut out = vec![None; self.pools.len()];
        for (at, &sq) in self.order.iter().enumerate() {
            out[sq] = Some((self.member[sq], self.start[at]));
        }
        out
    }
}

/// Where the squares from some place in the order on were before a move: per square (an
/// index into the pools), its place in the order, its start and end, and the square whose
/// pool member the move changed, if any.
struct Before {
    place: Vec<usize>,
    start: Vec<usize>,
    end: Vec<usize>,
    changed: Option<usize>,
}

/// Temperatures of the packing annealing, in table slots, at the first and the last move.
const PACK_HOT: f64 = 300.0;
const PACK_COLD: f64 = 0.5;

/// The annealing's random stream, counting its draws: the generator does not expose its
/// state, so a checkpoint saves the count and a resume draws that many again (a few
/// milliseconds per million moves).
struct Draws {
    rng: Xoshiro256PlusPlus,
    drawn: u64,
}

impl Draws {
    /// Returns the stream of `seed` after `drawn` draws.
    fn new(seed: u64, drawn: u64) -> Draws {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        for _ in 0..drawn {
            rng.next_u64();
        }
        Draws { rng, drawn }
    }

    /// Returns the next number below `k` (as the packer has always drawn it: a remainder).
    /// A move draws three numbers (what kind of move, two places), one more for another
    /// pool member, and one more to accept a longer table: [`DRAWS_PER_MOVE`].
    fn below(&mut self, k: usize) -> usize {
        self.drawn += 1;
        (self.rng.next_u64() % k as u64) as usize
    }
}

/// The fewest and the most numbers one annealing move draws (see [`Draws::below`]).
const DRAWS_PER_MOVE: (u64, u64) = (3, 5);

/// Counters of a packing run, for a progress bar.
#[derive(Debug, Default)]
pub struct PackProgress {
    /// Annealing moves made (a resumed run starts at its checkpoint's).
    pub moves: AtomicU64,
    /// Moves of the whole run: 0 until the annealing starts.
    pub total: AtomicU64,
    /// Table length of the best layout met so far.
    pub best: AtomicUsize,
}

/// How often to save a packing, and the function that saves a checkpoint.
pub type SavePack<'a> = (Duration, &'a mut dyn FnMut(&PackCheckpoint));

/// What a packing run reports and saves on the way. None of it changes the result, except
/// that `stop` ends the run early.
#[derive(Default)]
pub struct PackHooks<'a> {
    /// Counters to keep up to date.
    pub progress: Option<&'a PackProgress>,
    /// Set to stop after the current move: the best layout met so far is the result, and
    /// the checkpoint returned with it resumes the run.
    pub stop: Option<&'a AtomicBool>,
    /// How often to save, and the function that saves a checkpoint.
    pub checkpoint: Option<SavePack<'a>>,
}

/// The annealer between two moves: the layout, the random stream, the move count, the
/// temperature and the best layout met. A move depends on nothing else, so a
/// [`PackCheckpoint`] of these resumes to exactly the moves an uninterrupted run makes.
struct Annealer<'a> {
    layout: Layout<'a>,
    rng: Draws,
    /// Moves made, and of the whole run.
    moves: u64,
    iterations: u64,
    /// The temperature is multiplied by `cool` at each move: an uninterrupted run's
    /// schedule, which a checkpoint saves bit for bit rather than computing it again.
    temperature: f64,
    cool: f64,
    /// Table length of the current layout, and what a move is judged by (see
    /// [`Annealer::energy`]).
    current: usize,
    energy: f64,
    /// Weight of the mean end in the energy ([`Packing::spread`]).
    spread: f64,
    /// The best layout met: its length, placing order and members.
    best_len: usize,
    best_order: Vec<usize>,
    best_member: Vec<usize>,
}

impl<'a> Annealer<'a> {
    /// Returns an annealer about to make the first of `iterations` moves from `layout`,
    /// judging them with `spread` (see [`Annealer::energy`]).
    fn new(layout: Layout<'a>, seed: u64, iterations: u64, spread: f64) -> Annealer<'a> {
        let len = layout.len();
        Annealer {
            energy: Annealer::energy(&layout, spread),
            spread,
            rng: Draws::new(seed, 0),
            moves: 0,
            iterations,
            temperature: PACK_HOT,
            cool: cooling(PACK_HOT, PACK_COLD, iterations),
            current: len,
            best_len: len,
            best_order: layout.order.clone(),
            best_member: layout.member.clone(),
            layout,
        }
    }

    /// Returns what a move is judged by: the table length of `layout`, plus `spread` times
    /// the mean end of its squares' ranges. With length alone most moves change nothing
    /// (only the last range decides it); the mean end also sees a move that lowers ranges
    /// below the last one, which makes room for the tail. Computed afresh from the layout,
    /// so a resumed run judges bit for bit as an uninterrupted one; with `spread` 0 it is
    /// the length.
    fn energy(layout: &Layout, spread: f64) -> f64 {
        let ends: usize = layout.end.iter().sum();
        layout.len() as f64 + spread * (ends as f64 / layout.end.len().max(1) as f64)
    }

    /// Returns true once the run has made all its moves (or has fewer than two squares,
    /// where no move changes anything).
    fn finished(&self) -> bool {
        self.moves >= self.iterations || self.layout.order.len() < 2
    }

    /// Makes one move: swaps two squares in the order, moves one to another place, or
    /// gives one square another pool member, keeping it by the Metropolis rule on the
    /// energy ([`Annealer::energy`]). Only the squares from the first changed place on are
    /// placed again.
    fn step(&mut self) {
        self.moves += 1;
        self.temperature *= self.cool;
        let layout = &mut self.layout;
        let rng = &mut self.rng;
        let n = layout.order.len();
        let (kind, i, j) = (rng.below(4), rng.below(n), rng.below(n));
        let sq = layout.order[i];
        let pool_len = layout.pools[sq].len();
        let from = if kind >= 2 && pool_len > 1 {
            i
        } else {
            i.min(j)
        };
        if from == i.max(j) && !(kind >= 2 && pool_len > 1) {
            // Swapping or moving a square onto itself changes nothing.
            return;
        }
        let saved = (
            layout.order.clone(),
            layout.member[sq],
            layout.start[from..].to_vec(),
            layout.end[from..].to_vec(),
        );
        let squares = layout.pools.len();
        let mut before = Before {
            place: vec![usize::MAX; squares],
            start: vec![0; squares],
            end: vec![0; squares],
            changed: (kind >= 2 && pool_len > 1).then_some(sq),
        };
        for at in from..n {
            let y = layout.order[at];
            (before.place[y], before.start[y], before.end[y]) =
                (at, layout.start[at], layout.end[at]);
        }
        layout.clear_from(from);
        match kind {
            0 => layout.order.swap(i, j),
            1 => {
                let moved = layout.order.remove(i);
                layout.order.insert(j, moved);
            }
            _ if pool_len > 1 => {
                let old = layout.member[sq];
                layout.member[sq] = (old + 1 + rng.below(pool_len - 1)) % pool_len;
            }
            _ => layout.order.swap(i, j),
        }
        layout.place_from_known(from, &before);
        let len = layout.len();
        let energy = Annealer::energy(layout, self.spread);
        let rise = energy - self.energy;
        let u = (rng.below(1 << 53) as f64) / (1u64 << 53) as f64;
        if metropolis(rise, self.temperature, u) {
            self.current = len;
            self.energy = energy;
            if len < self.best_len {
                self.best_len = len;
                self.best_order.clone_from(&layout.order);
                self.best_member.clone_from(&layout.member);
            }
        } else {
            layout.clear_from(from);
            layout.order = saved.0;
            layout.member[sq] = saved.1;
            layout.start[from..].copy_from_slice(&saved.2);
            layout.end[from..].copy_from_slice(&saved.3);
            for at in from..n {
                layout.table.place(layout.pattern(at), layout.start[at]);
            }
        }
    }

    /// Returns the best layout met.
    fn best_layout(&self) -> Layout<'a> {
        let l = &self.layout;
        Layout::new(
            l.pools,
            self.best_order.clone(),
            self.best_member.clone(),
            l.negative_offsets,
        )
    }

    /// Returns the checkpoint of the annealer as it stands, in the packing `key`.
    fn checkpoint(&self, key: &PackKey) -> PackCheckpoint {
        let place_of = |order: &[usize]| {
            let mut place = vec![0; self.layout.pools.len()];
            for (at, &sq) in order.iter().enumerate() {
                place[sq] = at;
            }
            place
        };
        let (place, best_place) = (place_of(&self.layout.order), place_of(&self.best_order));
        let mut squares: Vec<usize> = self.layout.order.clone();
        squares.sort_unstable();
        PackCheckpoint {
            seed: key.seed,
            iterations: key.iterations,
            negative_offsets: key.negative_offsets,
            spread: key.spread,
            pools: key.pools,
            moves: self.moves,
            draws: self.rng.drawn,
            temperature: self.temperature.to_bits(),
            cool: self.cool.to_bits(),
            length: self.current,
            best_length: self.best_len,
            squares: squares
                .into_iter()
                .map(|sq| PackSquare {
                    square: sq,
                    place: place[sq],
                    member: self.layout.member[sq],
                    best_place: best_place[sq],
                    best_member: self.best_member[sq],
                })
                .collect(),
        }
    }

    /// Returns the annealer `checkpoint` saved, for `pools` packed as `key` says.
    /// Refuses a checkpoint of another packing, one whose places are not each square's
    /// own, or one whose layouts do not give its lengths.
    fn resume(
        pools: &'a [Vec<Pattern>],
        key: &PackKey,
        checkpoint: &PackCheckpoint,
    ) -> Result<Annealer<'a>, PackMismatch> {
        key.check(checkpoint)?;
        let (fewest, most) = DRAWS_PER_MOVE;
        let moves = checkpoint.moves;
        let drawn = fewest.saturating_mul(moves)..=most.saturating_mul(moves);
        if !drawn.contains(&checkpoint.draws) {
            // Also what keeps a damaged count from drawing for hours.
            return Err(PackMismatch {
                line: "pack-progress".into(),
                message: format!(
                    "{} draws in {moves} moves, where each move draws {fewest} to {most}: an \
                     edited or damaged checkpoint",
                    checkpoint.draws
                ),
            });
        }
        let n = checkpoint.squares.len();
        let (mut placed, mut best_placed) = (vec![false; n], vec![false; n]);
        let (mut order, mut best_order) = (vec![0; n], vec![0; n]);
        let (mut member, mut best_member) = (vec![0; pools.len()], vec![0; pools.len()]);
        let mut with_pool = (0..pools.len()).filter(|&i| !pools[i].is_empty());
        for s in &checkpoint.squares {
            let at_square = |message: String| PackMismatch {
                line: format!("pack-square {}", pool_name(s.square)),
                message,
            };
            // Same digest, so the same pools: only an edited file gets here.
            if with_pool.next() != Some(s.square) {
                return Err(at_square(format!(
                    "{} is not the next square with a pool",
                    pool_name(s.square)
                )));
            }
            let len = pools[s.square].len();
            if s.member.max(s.best_member) >= len {
                return Err(at_square(format!(
                    "member {} is past the square's pool of {len}",
                    s.member.max(s.best_member)
                )));
            }
            for (what, place, taken) in [
                ("place", s.place, &mut placed),
                ("best-place", s.best_place, &mut best_placed),
            ] {
                match taken.get_mut(place) {
                    Some(t) if !*t => *t = true,
                    Some(_) => return Err(at_square(format!("{what} {place} is taken twice"))),
                    None => {
                        return Err(at_square(format!(
                            "{what} {place} is past the last place, {}",
                            n - 1
                        )))
                    }
                }
            }
            order[s.place] = s.square;
            best_order[s.best_place] = s.square;
            member[s.square] = s.member;
            best_member[s.square] = s.best_member;
        }
        let negative_offsets = checkpoint.negative_offsets;
        let layout = Layout::new(pools, order, member, negative_offsets);
        let best = Layout::new(
            pools,
            best_order.clone(),
            best_member.clone(),
            negative_offsets,
        );
        for (what, saved, laid_out) in [
            ("length", checkpoint.length, layout.len()),
            ("best", checkpoint.best_length, best.len()),
        ] {
            if saved != laid_out {
                return Err(PackMismatch {
                    line: "pack-progress".into(),
                    message: format!(
                        "{what} {saved}, where its layout packs {laid_out} entries: an edited \
                         or damaged checkpoint"
                    ),
                });
            }
        }
        Ok(Annealer {
            energy: Annealer::energy(&layout, key.spread),
            spread: key.spread,
            layout,
            rng: Draws::new(checkpoint.seed, checkpoint.draws),
            moves: checkpoint.moves,
            iterations: checkpoint.iterations,
            temperature: f64::from_bits(checkpoint.temperature),
            cool: f64::from_bits(checkpoint.cool),
            current: checkpoint.length,
            best_len: checkpoint.best_length,
            best_order,
            best_member,
        })
    }
}

/// What a checkpoint's `pack` line must say to resume a packing: its seed, moves in all,
/// offsets and spread, and the digest and count of its pools.
struct PackKey {
    seed: u64,
    iterations: u64,
    negative_offsets: bool,
    spread: f64,
    pools: u64,
    squares: usize,
}

impl PackKey {
    /// Refuses a checkpoint of another packing, saying what differs.
    fn check(&self, checkpoint: &PackCheckpoint) -> Result<(), PackMismatch> {
        let offsets = |on: bool| if on { "with" } else { "without" };
        let differs = if checkpoint.pools != self.pools || checkpoint.squares.len() != self.squares
        {
            format!(
                "the checkpoint packs other magics (pools digest {:#018x}, where these pools \
                 give {:#018x}): it belongs to another set or state",
                checkpoint.pools, self.pools
            )
        } else if checkpoint.iterations != self.iterations {
            format!(
                "the checkpoint is of a {}-move packing, this run asks for {}: give \
                 --pack-iterations {} to finish it",
                checkpoint.iterations, self.iterations, checkpoint.iterations
            )
        } else if checkpoint.seed != self.seed {
            format!(
                "the checkpoint is of a packing seeded {}, this run's seed is {}: give the \
                 seed it was saved with (`pack --seed`, `search --pack-seed`)",
                checkpoint.seed, self.seed
            )
        } else if checkpoint.negative_offsets != self.negative_offsets {
            format!(
                "the checkpoint packs {} --negative-offsets, this run {} them",
                offsets(checkpoint.negative_offsets),
                offsets(self.negative_offsets)
            )
        } else if checkpoint.spread != self.spread {
            format!(
                "the checkpoint is of a packing with --pack-spread {}, this run asks for {}",
                checkpoint.spread, self.spread
            )
        } else {
            return Ok(());
        };
        Err(PackMismatch {
            line: "pack".into(),
            message: differs,
        })
    }
}

/// Makes the annealer's moves until its run is done or `hooks.stop` is set, keeping
/// `hooks.progress` up to date and handing a checkpoint to `hooks.checkpoint` at its
/// intervals. On the published 87,988-entry magics, 100,000 moves pack 87,750 entries,
/// where taking squares out and putting them back at their lowest fit stalled near 95,900.
fn anneal(annealer: &mut Annealer, key: &PackKey, hooks: &mut PackHooks) {
    let report = |a: &Annealer| {
        if let Some(p) = hooks.progress {
            p.moves.store(a.moves, Ordering::Relaxed);
            p.best.store(a.best_len, Ordering::Relaxed);
        }
    };
    report(annealer);
    if let Some(p) = hooks.progress {
        p.total.store(annealer.iterations, Ordering::Relaxed);
    }
    let stopped = || hooks.stop.is_some_and(|s| s.load(Ordering::Relaxed));
    let mut last = Instant::now();
    while !annealer.finished() && !stopped() {
        annealer.step();
        report(annealer);
        if let Some((every, save)) = &mut hooks.checkpoint {
            if last.elapsed() >= *every {
                save(&annealer.checkpoint(key));
                last = Instant::now();
            }
        }
    }
}

/// Parses a packing spread (`--pack-spread`: the weight of the mean end of the ranges
/// beside the table length when the annealing judges a move): a number in 0..=1000.
pub fn parse_spread(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if (0.0..=1000.0).contains(&x) => Ok(x),
        _ => Err(format!("spread '{s}' is not a number in 0..=1000")),
    }
}

/// How the packer lays out a fixed-shift table.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Packing {
    /// Seeds the annealing.
    pub(crate) seed: u64,
    /// Moves of layout annealing after the greedy pass.
    pub(crate) iterations: u64,
    /// Let ranges start before the table wherever every index stays at 0 or above.
    pub(crate) negative_offsets: bool,
    /// Weight of the mean end of the ranges beside the table length when the annealing
    /// judges a move ([`Annealer::energy`]); 0 judges by length alone.
    pub(crate) spread: f64,
    /// After annealing, give squares shorter-span pool members where the table grows no
    /// longer ([`Layout::shorten_spans`]).
    pub(crate) short_spans: bool,
}

/// Returns the digest of what decides the patterns of `pools`: the variant, and per pool
/// the index bits of its first member, the pool size and every magic, each followed by its
/// bits where they differ from the first member's (FNV-1a over their bytes). A pool of one
/// shift digests as it did before pools could mix shifts, so older checkpoints still resume.
fn pools_digest(variant: Variant, pools: &[Vec<Pattern>]) -> u64 {
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    let mut add = |bytes: &[u8]| {
        for &b in bytes {
            hash = (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    };
    add(variant.to_string().as_bytes());
    for pool in pools {
        let b = pool.first().map_or(0, |p| p.bits);
        add(&[b]);
        add(&(pool.len() as u64).to_le_bytes());
        for p in pool {
            add(&p.magic.to_le_bytes());
            if p.bits != b {
                add(&[p.bits]);
            }
        }
    }
    hash
}

/// Packs one pool per piece and square (rook a1..h8, then bishop a1..h8) into a set of
/// `variant`, each square taking the bits of the member chosen: a greedy pass (squares by longest
/// shortest extent, each at the lowest fitting place of the pool member that grows the
/// table least), then `packing.iterations` moves of annealing the order and the members,
/// or the moves left after `resume`, a checkpoint of the same packing. Returns the set of
/// the best layout met and the checkpoint after the last move made (fewer than asked if
/// `hooks.stop` was set). The result depends only on the pools and `packing`, never on
/// where a run was stopped and resumed.
pub(crate) fn pack(
    variant: Variant,
    pools: &[Vec<Pattern>],
    packing: Packing,
    resume: Option<&PackCheckpoint>,
    hooks: &mut PackHooks,
) -> Result<(MagicSet, PackCheckpoint), PackMismatch> {
    // Longest shortest extent first (first-fit decreasing); ties by square, for a
    // deterministic order. On the published magics this start packs 94,672 entries against
    // 100,471 for most used slots first.
    let mut order: Vec<usize> = (0..pools.len()).filter(|&i| !pools[i].is_empty()).collect();
    order.sort_by_key(|&i| {
        (
            core::cmp::Reverse(pools[i].iter().map(|p| p.extent()).min()),
            i,
        )
    });
    let key = PackKey {
        seed: packing.seed,
        iterations: packing.iterations,
        negative_offsets: packing.negative_offsets,
        spread: packing.spread,
        pools: pools_digest(variant, pools),
        squares: order.len(),
    };
    let mut annealer = match resume {
        Some(checkpoint) => Annealer::resume(pools, &key, checkpoint)?,
        None => {
            let (greedy, _) = pack_in_order(pools, &order, packing.negative_offsets);
            let member = greedy.iter().map(|&(k, _)| k).collect();
            // Placing the greedy members in the greedy order at their first fits is the
            // greedy layout again, so annealing starts from it and never ends longer.
            let layout = Layout::new(pools, order, member, packing.negative_offsets);
            Annealer::new(layout, packing.seed, packing.iterations, packing.spread)
        }
    };
    anneal(&mut annealer, &key, hooks);
    let mut best = annealer.best_layout();
    if packing.short_spans {
        best.shorten_spans();
    }
    let mut set = MagicSet::new(variant);
    for (i, c) in best.choices().iter().enumerate() {
        let piece = Piece::ALL[i / 64];
        if let Some((k, start)) = *c {
            let p = &pools[i][k];
            *set.entry_mut(piece, (i % 64) as u8) = Entry {
                magic: p.magic,
                bits: p.bits,
                offset: start as i64 - p.first as i64,
            };
        }
    }
    Ok((set, annealer.checkpoint(&key)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::assemble::pattern;
    use crate::search::table::SquareData;
    use crate::{parse_interchange, MagicSet};

    /// Returns the pattern and start of every square of the packed `set`, rook a1 first.
    fn layout_of(set: &MagicSet) -> Vec<(Pattern, usize)> {
        (0..128)
            .map(|i| {
                let (piece, sq) = (Piece::ALL[i / 64], (i % 64) as u8);
                let e = set.entries[piece.index()][sq as usize];
                let data = SquareData::new(piece, sq, set.variant.is_black());
                let p = pattern(&data, e.magic, e.bits, set.variant);
                let start = (e.offset + p.first as i64) as usize;
                (p, start)
            })
            .collect()
    }

    /// Returns how many squares of `layout` no placing order puts at their own starts, each
    /// at its lowest fit: 0 if the layout is one the annealer can reach. A square can go
    /// next once its start is its lowest fit among those placed; placing it never takes
    /// that from another (no slot is shared, and starts below only fill up), so taking any
    /// such square first finds an order whenever there is one.
    fn unreachable(layout: &[(Pattern, usize)]) -> usize {
        let mut table = Table::new();
        let mut left: Vec<&(Pattern, usize)> = layout.iter().collect();
        while let Some(i) = left
            .iter()
            .position(|(p, start)| table.first_fit(p, p.first) == *start)
        {
            let (p, start) = left.remove(i);
            table.place(p, *start);
        }
        left.len()
    }

    #[test]
    fn the_published_white_layout_is_one_the_annealer_can_reach_and_the_black_one_is_not() {
        let set = |text: &str| parse_interchange("published", text.as_bytes()).unwrap();
        let white = set(include_str!("../../tests/data/published-white-88772.txt"));
        let black = set(include_str!("../../tests/data/published-black-87988.txt"));
        // White: the record lies in the annealer's space of orders, which it does not find
        // (1,000,000 moves pack these magics to 91,081 entries).
        assert_eq!(unreachable(&layout_of(&white)), 0);
        // Black: most squares sit above their lowest fit in any order, and the annealer
        // packs these magics shorter than the record (87,750 after 100,000 moves).
        assert_eq!(unreachable(&layout_of(&black)), 115);
    }

    #[test]
    fn patterns_interleave_in_each_others_gaps() {
        let pools = vec![
            vec![Pattern::new(1, 12, [0, 2, 4, 6])],
            vec![Pattern::new(2, 12, [0, 2])],
        ];
        let (choice, len) = pack_in_order(&pools, &[0, 1], false);
        assert_eq!(len, 7);
        assert_eq!(choice[1].1, 1);
    }

    #[test]
    fn the_pool_member_that_grows_the_table_least_wins() {
        let pools = vec![
            vec![Pattern::new(1, 12, [0, 1, 2, 3])],
            vec![Pattern::new(2, 12, [0, 1, 2]), Pattern::new(3, 12, [5])],
        ];
        let (choice, len) = pack_in_order(&pools, &[0, 1], false);
        // [5] fits at offset 0 (start 5), ending at 6; [0, 1, 2] would end at 7.
        assert_eq!((choice[1], len), ((1, 5), 6));
    }

    #[test]
    fn fitting_agrees_with_a_slot_by_slot_check() {
        // A dense, irregular table and patterns spanning several words; every other one
        // a lone slot and a dense tail 250 slots on (white's empty occupancy at index 0),
        // which the fit screens by a word other than its first.
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        let mut table = Table::new();
        let mut taken = vec![false; 2000];
        for n in 0..40 {
            let slots: Vec<u32> = if n % 2 == 0 {
                (0..30).map(|_| (rng.next_u64() % 300) as u32 + 3).collect()
            } else {
                let tail = (0..30).map(|_| (rng.next_u64() % 40) as u32 + 253);
                std::iter::once(3).chain(tail).collect()
            };
            let p = Pattern::new(0, 12, slots.clone());
            if n % 2 == 1 {
                assert!(p.words[0].0 > 0);
            }
            let offset = table.first_fit(&p, p.first) - p.first;
            // Slot by slot: the first offset with all used slots free.
            let expected = (0..)
                .find(|&o| {
                    slots
                        .iter()
                        .all(|&i| !taken.get(o + i as usize).copied().unwrap_or(false))
                })
                .unwrap();
            assert_eq!(offset, expected);
            table.place(&p, offset + p.first);
            for &i in &slots {
                if offset + i as usize >= taken.len() {
                    taken.resize(offset + i as usize + 1, false);
                }
                taken[offset + i as usize] = true;
            }
        }
    }

    /// Random pools of combs: runs of used slots with holes between them, the shape that
    /// interleaves (and whose greedy order leaves room to gain).
    fn random_pools(seed: u64) -> Vec<Vec<Pattern>> {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        (0..24)
            .map(|sq| {
                (0..3)
                    .map(|k| {
                        let (run, hole) = (1 + rng.next_u64() % 6, 1 + rng.next_u64() % 6);
                        let teeth = 2 + rng.next_u64() % 8;
                        let slots = (0..teeth)
                            .flat_map(|t| (0..run).map(move |r| (t * (run + hole) + r) as u32));
                        Pattern::new(sq * 8 + k, 12, slots)
                    })
                    .collect()
            })
            .collect()
    }

    #[test]
    fn the_digest_sees_each_members_bits_and_keeps_one_shift_pools_as_before() {
        let pools = random_pools(3);
        // Before pools could mix shifts: the variant, then per pool its bits, its size and
        // every magic.
        let mut old = 0xcbf2_9ce4_8422_2325u64;
        for b in *b"black" {
            old = (old ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
        for pool in &pools {
            let mut bytes = vec![12u8];
            bytes.extend((pool.len() as u64).to_le_bytes());
            bytes.extend(pool.iter().flat_map(|p| p.magic.to_le_bytes()));
            for b in bytes {
                old = (old ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
            }
        }
        assert_eq!(pools_digest(Variant::Black, &pools), old);
        // One member at other bits is another packing, whichever member it is.
        let mut digests = vec![old];
        for k in 0..3 {
            let mut mixed = pools.clone();
            mixed[4][k].bits = 10;
            digests.push(pools_digest(Variant::Black, &mixed));
        }
        digests.sort_unstable();
        digests.dedup();
        assert_eq!(digests.len(), 4);
    }

    #[test]
    fn every_move_leaves_each_square_at_its_first_fit() {
        // Moves place squares knowing where they were; a layout built from scratch for the
        // same order and members must agree after every one, kept or undone.
        for (seed, negative_offsets) in [(5, false), (6, true), (7, false)] {
            let pools = random_pools(seed);
            let order: Vec<usize> = (0..pools.len()).collect();
            let layout = Layout::new(&pools, order, vec![0; pools.len()], negative_offsets);
            let mut annealer = Annealer::new(layout, seed, 3000, 0.0);
            let mut changed = 0;
            while !annealer.finished() {
                let old = annealer.layout.start.clone();
                annealer.step();
                let l = &annealer.layout;
                let fresh =
                    Layout::new(&pools, l.order.clone(), l.member.clone(), negative_offsets);
                assert_eq!(l.start, fresh.start, "seed {seed}, move {}", annealer.moves);
                assert_eq!(l.end, fresh.end);
                // The same slots taken (an undone move may leave zero words at the end).
                let trimmed =
                    |t: &[u64]| t[..t.iter().rposition(|&w| w != 0).map_or(0, |i| i + 1)].to_vec();
                assert_eq!(trimmed(&l.table.taken), trimmed(&fresh.table.taken));
                changed += usize::from(l.start != old);
            }
            assert!(changed > 100, "only {changed} moves changed the layout");
        }
    }

    #[test]
    fn the_mean_end_sees_moves_that_leave_the_length_as_it_is() {
        // A run of 100 and two of 10: both orders end at 120, but with the short ones
        // first the ranges end lower on the mean (50 against 110).
        let pools = vec![
            vec![Pattern::new(1, 12, 0..100)],
            vec![Pattern::new(2, 12, 0..10)],
            vec![Pattern::new(3, 12, 0..10)],
        ];
        let layout = |order: Vec<usize>| Layout::new(&pools, order, vec![0; 3], false);
        let (long_first, short_first) = (layout(vec![0, 1, 2]), layout(vec![1, 2, 0]));
        assert_eq!((long_first.len(), short_first.len()), (120, 120));
        for (spread, long, short) in [(0.0, 120.0, 120.0), (0.5, 175.0, 145.0)] {
            assert_eq!(Annealer::energy(&long_first, spread), long);
            assert_eq!(Annealer::energy(&short_first, spread), short);
        }
    }

    #[test]
    fn removing_a_pattern_frees_exactly_its_slots() {
        let mut table = Table::new();
        let a = Pattern::new(1, 12, [1, 5, 70, 130]);
        let b = Pattern::new(2, 12, [0, 2, 64]);
        table.place(&a, 3);
        let before = table.taken.clone();
        table.place(&b, 0);
        table.remove(&b, 0);
        assert_eq!(table.taken[..before.len()], before[..]);
        assert!(table.taken[before.len()..].iter().all(|&w| w == 0));
    }

    /// Returns the packing of `iterations` moves seeded 9.
    fn packing(iterations: u64, negative_offsets: bool) -> Packing {
        Packing {
            seed: 9,
            iterations,
            negative_offsets,
            spread: 0.0,
            short_spans: false,
        }
    }

    /// Packs `pools` (12 index bits each) as `packing` says, going on from `resume`, and
    /// returns the set and every checkpoint, one after each move.
    fn packed_from(
        pools: &[Vec<Pattern>],
        packing: Packing,
        resume: Option<&PackCheckpoint>,
        stop: &AtomicBool,
    ) -> Result<(MagicSet, Vec<PackCheckpoint>), PackMismatch> {
        let mut saved = Vec::new();
        let mut save = |c: &PackCheckpoint| saved.push(c.clone());
        let mut hooks = PackHooks {
            progress: None,
            stop: Some(stop),
            checkpoint: Some((Duration::ZERO, &mut save)),
        };
        let (set, end) = pack(Variant::Black, pools, packing, resume, &mut hooks)?;
        // The last checkpoint is the one returned.
        assert!(saved.last().is_none_or(|last| *last == end));
        saved.insert(0, end);
        let end = saved.remove(0);
        if saved.last() != Some(&end) {
            saved.push(end);
        }
        Ok((set, saved))
    }

    /// Packs `pools` (12 index bits each) with `iterations` annealing moves.
    fn packed(pools: &[Vec<Pattern>], iterations: u64, negative_offsets: bool) -> MagicSet {
        let stop = AtomicBool::new(false);
        let packing = packing(iterations, negative_offsets);
        packed_from(pools, packing, None, &stop).unwrap().0
    }

    #[test]
    fn annealing_is_deterministic_and_never_longer_than_greedy() {
        let pools = random_pools(5);
        let greedy = packed(&pools, 0, false);
        let annealed = packed(&pools, 2000, false);
        assert_eq!(annealed, packed(&pools, 2000, false));
        let len = |set: &MagicSet| table_len(&pools, set);
        assert!(
            len(&annealed) < len(&greedy),
            "{} {}",
            len(&annealed),
            len(&greedy)
        );
        assert_no_slot_shared(&pools, &annealed);
    }

    /// Returns the pool member `set` gives square `i` of `pools`.
    fn member<'p>(pools: &'p [Vec<Pattern>], set: &MagicSet, i: usize) -> &'p Pattern {
        let e = set.entries[i / 64][i % 64];
        pools[i].iter().find(|p| p.magic == e.magic).unwrap()
    }

    /// Returns the table length of `set`, packed from `pools`.
    fn table_len(pools: &[Vec<Pattern>], set: &MagicSet) -> usize {
        (0..pools.len())
            .map(|i| {
                (set.entries[i / 64][i % 64].offset + member(pools, set, i).end as i64) as usize
            })
            .max()
            .unwrap()
    }

    /// Panics if two squares of `set` take the same slot.
    fn assert_no_slot_shared(pools: &[Vec<Pattern>], set: &MagicSet) {
        let mut taken = vec![false; table_len(pools, set)];
        for i in 0..pools.len() {
            let (e, p) = (set.entries[i / 64][i % 64], member(pools, set, i));
            for &(w, bits) in &p.words {
                for b in 0..64 {
                    if bits >> b & 1 != 0 {
                        let slot = (e.offset + (p.first + 64 * w + b) as i64) as usize;
                        assert!(!taken[slot], "slot {slot} taken twice");
                        taken[slot] = true;
                    }
                }
            }
        }
    }

    #[test]
    fn short_spans_keep_the_length_and_take_shorter_members_where_they_fit() {
        // Square 0 leaves a hole of 16 slots; square 1 fills it with a comb of 8 slots over
        // 15 or a run of 8. Both keep the table at 32 and use 8 slots, so the packer takes
        // the first member, the comb; short spans take the run.
        let hole = Pattern::new(1, 12, (0..8).chain(24..32));
        let comb = Pattern::new(2, 12, (0..8).map(|k| 2 * k));
        let run = Pattern::new(3, 12, 0..8);
        let pools = vec![vec![hole], vec![comb, run]];
        let stop = AtomicBool::new(false);
        let short = Packing {
            short_spans: true,
            ..packing(0, false)
        };
        let plain = packed_from(&pools, packing(0, false), None, &stop)
            .unwrap()
            .0;
        let shortened = packed_from(&pools, short, None, &stop).unwrap().0;
        assert_eq!(
            (plain.entries[0][1].magic, plain.entries[0][1].offset),
            (2, 8)
        );
        assert_eq!(
            (
                shortened.entries[0][1].magic,
                shortened.entries[0][1].offset
            ),
            (3, 8)
        );
        assert_eq!(table_len(&pools, &shortened), 32);
        // Only a strictly shorter member replaces one. Square 0 leaves slots 8, 9 and 11 up
        // free; of two members of square 1 with 4 slots of span and 3 used, the second fits
        // lower (8, against 9 for the first), so the packer takes it, and short spans keep
        // it although the first still fits within the length.
        let pools = vec![
            vec![Pattern::new(1, 12, (0..8).chain([10]).chain(24..32))],
            vec![
                Pattern::new(4, 12, [0, 2, 3]),
                Pattern::new(5, 12, [0, 1, 3]),
            ],
        ];
        let shortened = packed_from(&pools, short, None, &stop).unwrap().0;
        assert_eq!(
            (
                shortened.entries[0][1].magic,
                shortened.entries[0][1].offset
            ),
            (5, 8)
        );
        // On random pools with a run offered beside each comb, after annealing: no longer
        // table (refitting may shorten it), no longer spans, no slot shared.
        for seed in [11, 12, 13] {
            let mut pools = random_pools(seed);
            for pool in &mut pools {
                let used = pool[0].used as u32;
                pool.push(Pattern::new(7, 12, 0..used));
            }
            let plain = packed_from(&pools, packing(300, false), None, &stop)
                .unwrap()
                .0;
            let short = Packing {
                short_spans: true,
                ..packing(300, false)
            };
            let shortened = packed_from(&pools, short, None, &stop).unwrap().0;
            let spans = |set: &MagicSet| -> usize {
                (0..pools.len())
                    .map(|i| member(&pools, set, i).extent())
                    .sum()
            };
            assert!(table_len(&pools, &shortened) <= table_len(&pools, &plain));
            assert!(spans(&shortened) <= spans(&plain), "seed {seed}");
            assert_no_slot_shared(&pools, &shortened);
        }
    }

    #[test]
    fn negative_offsets_let_a_range_start_before_the_table() {
        // Hashes from 100 up: with offsets from 0 the table has 100 empty slots first.
        let pools = vec![
            vec![Pattern::new(1, 12, [100, 101, 103])],
            vec![Pattern::new(2, 12, [200, 202])],
        ];
        let (choice, len) = pack_in_order(&pools, &[0, 1], false);
        assert_eq!((choice, len), (vec![(0, 100), (0, 200)], 203));
        let (choice, len) = pack_in_order(&pools, &[0, 1], true);
        // The second interleaves into the first's hole at 2: starts at 2, ends at 5.
        assert_eq!((choice, len), (vec![(0, 0), (0, 2)], 5));
        let set = packed(&pools, 0, true);
        assert_eq!(set.entries[0][0].offset, -100);
        assert_eq!(set.entries[0][1].offset, -198);
        let set = packed(&pools, 0, false);
        assert!(set.entries[0][..2].iter().all(|e| e.offset >= 0));
    }

    /// Returns `c` written to a checkpoint file and read back.
    fn through_text(c: &PackCheckpoint) -> PackCheckpoint {
        PackCheckpoint::parse_file("p.pack", c.to_file_text().as_bytes()).unwrap()
    }

    #[test]
    fn a_packing_resumed_from_any_checkpoint_ends_as_an_uninterrupted_one() {
        const MOVES: u64 = 2000;
        let mut by_length = None;
        for (negative_offsets, spread) in [(false, 0.0), (true, 0.0), (false, 0.03)] {
            let pools = random_pools(5);
            let packing = Packing {
                spread,
                ..packing(MOVES, negative_offsets)
            };
            let go = AtomicBool::new(false);
            let (whole, every) = packed_from(&pools, packing, None, &go).unwrap();
            // The spread changes which moves are kept.
            if !negative_offsets {
                match &by_length {
                    None => by_length = every.last().cloned(),
                    Some(other) => assert_ne!(other.squares, every.last().unwrap().squares),
                }
            }
            assert_eq!(every.len(), MOVES as usize);
            assert!(every
                .iter()
                .enumerate()
                .all(|(k, c)| c.moves == k as u64 + 1));
            // Stopped before its first move: the checkpoint of move 0.
            let halt = AtomicBool::new(true);
            let (greedy, at_zero) = packed_from(&pools, packing, None, &halt).unwrap();
            assert_eq!(greedy, packed(&pools, 0, negative_offsets));
            assert_eq!((at_zero.len(), at_zero[0].moves), (1, 0));
            let mut from = vec![&at_zero[0]];
            from.extend([1, 2, 3, 17, 300, MOVES - 1, MOVES].map(|k| &every[k as usize - 1]));
            for c in from {
                let k = c.moves as usize;
                let (set, rest) = packed_from(&pools, packing, Some(&through_text(c)), &go)
                    .unwrap_or_else(|e| panic!("resume at move {k}: {e}"));
                assert_eq!(set, whole, "resumed at move {k}");
                // Each move after it is the uninterrupted run's, down to the random draws
                // and the temperature's bits.
                if k < MOVES as usize {
                    assert_eq!(rest[..], every[k..], "resumed at move {k}");
                } else {
                    assert_eq!(rest, [every[k - 1].clone()]);
                }
            }
        }
    }

    #[test]
    fn a_checkpoint_of_another_packing_is_refused_at_its_line() {
        let pools = random_pools(5);
        let go = AtomicBool::new(false);
        let (_, every) = packed_from(&pools, packing(50, false), None, &go).unwrap();
        let c = &every[20];
        let refused = |pools: &[Vec<Pattern>], packing: Packing, c: &PackCheckpoint| {
            packed_from(pools, packing, Some(c), &go).unwrap_err()
        };
        let e = refused(&pools, packing(60, false), c);
        assert_eq!(e.line, "pack");
        assert!(e.message.contains("give --pack-iterations 50"), "{e}");
        let e = refused(
            &pools,
            Packing {
                seed: 3,
                ..packing(50, false)
            },
            c,
        );
        assert!(e.message.contains("seeded 9, this run's seed is 3"), "{e}");
        let e = refused(&pools, packing(50, true), c);
        assert!(e.message.contains("without --negative-offsets"), "{e}");
        let spread = Packing {
            spread: 0.03,
            ..packing(50, false)
        };
        let e = refused(&pools, spread, c);
        assert_eq!(e.line, "pack");
        assert!(
            e.message
                .contains("with --pack-spread 0, this run asks for 0.03"),
            "{e}"
        );
        let mut other = pools.clone();
        other[3][1].magic ^= 1 << 40;
        let e = refused(&other, packing(50, false), c);
        assert!(e.message.contains("other magics"), "{e}");
        let mut fewer = pools.clone();
        fewer[3].pop();
        assert!(refused(&fewer, packing(50, false), c)
            .message
            .contains("other magics"));
        // Edited lines: a member past its pool, a place taken twice, a wrong length.
        let edit = |f: &dyn Fn(&mut PackCheckpoint)| {
            let mut c = c.clone();
            f(&mut c);
            refused(&pools, packing(50, false), &c)
        };
        let e = edit(&|c| c.squares[4].member = 3);
        assert_eq!(e.line, "pack-square rook e1");
        assert!(
            e.message
                .contains("member 3 is past the square's pool of 3"),
            "{e}"
        );
        let e = edit(&|c| c.squares[5].best_place = c.squares[6].best_place);
        assert_eq!(e.line, "pack-square rook g1");
        assert!(e.message.contains("taken twice"), "{e}");
        let e = edit(&|c| c.squares[0].place = 24);
        assert!(
            e.message.contains("place 24 is past the last place, 23"),
            "{e}"
        );
        let e = edit(&|c| c.length += 1);
        assert_eq!(e.line, "pack-progress");
        assert!(e.message.contains("where its layout packs"), "{e}");
        let e = edit(&|c| c.draws = u64::MAX);
        assert_eq!(e.line, "pack-progress");
        assert!(
            e.message
                .contains("draws in 21 moves, where each move draws 3 to 5"),
            "{e}"
        );
        // The counts of every checkpoint are within the bounds.
        assert!(every
            .iter()
            .all(|c| (3 * c.moves..=5 * c.moves).contains(&c.draws)));
    }

    #[test]
    fn a_damaged_checkpoint_file_says_what_is_wrong_and_where() {
        let pools = random_pools(5);
        let go = AtomicBool::new(false);
        let (_, every) = packed_from(&pools, packing(50, false), None, &go).unwrap();
        let text = every[20].to_file_text();
        let error = |text: &str| {
            PackCheckpoint::parse_file("p.pack", text.as_bytes())
                .unwrap_err()
                .to_string()
        };
        // Cut after the line of rook c2: 13 of its 24 squares are gone.
        let cut = text.find("pack-square rook c2").unwrap();
        let cut = cut + text[cut..].find('\n').unwrap() + 1;
        assert_eq!(
            error(&text[..cut]),
            "p.pack: 13 of the pack checkpoint's 24 squares are missing (after rook c2): a \
             truncated file?"
        );
        let two_lines = text.lines().take(3).collect::<Vec<_>>().join("\n");
        assert!(
            error(&two_lines).contains("24 of the pack checkpoint's 24 squares are missing"),
            "{}",
            error(&two_lines)
        );
        let one_line = text.lines().next().unwrap();
        assert!(error(one_line).contains("'pack' line is missing"));
        let says = |edit: (&str, &str), start: &str| {
            let e = error(&text.replacen(edit.0, edit.1, 1));
            assert!(e.starts_with(start), "{e}");
        };
        says(
            ("temperature 0x", "temperature 0xq"),
            "p.pack:3: temperature '0xq",
        );
        says(
            ("pack-square rook b1", "pack-square rook b9"),
            "p.pack:5: unknown square 'b9'",
        );
        says(
            ("moves 21", "moves 51"),
            "p.pack:3: 51 moves made, past the run's 50",
        );
        says(
            ("spread 0", "spread -1"),
            "p.pack:2: spread '-1' is not a number in 0..=1000",
        );
        // Written before the spread existed: a packing by length alone.
        let older = text.replacen(" spread 0", "", 1);
        assert_ne!(older, text);
        assert_eq!(
            PackCheckpoint::parse_file("p.pack", older.as_bytes()).unwrap(),
            every[20]
        );
        let state = "magic-gen-state 1\nvariant black\n";
        assert!(error(state).contains("this is a search state"));
        assert_eq!(through_text(&every[20]), every[20]);
    }
}
