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

use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::geometry::Piece;
use crate::index::Variant;
use crate::set::{Entry, MagicSet};

/// One candidate magic of one square and the indices (before the offset) it uses.
#[derive(Clone, Debug)]
pub(crate) struct Pattern {
    pub(crate) magic: u64,
    /// The lowest used index.
    first: usize,
    /// Used indices relative to `first`, as a bitset.
    words: Vec<u64>,
    /// Positions of the set bits of `words[0]`.
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

    /// Returns the pattern of `magic` from its used indices (any order, duplicates allowed).
    pub(crate) fn new(magic: u64, used: impl IntoIterator<Item = u32>) -> Pattern {
        let mut idx: Vec<usize> = used.into_iter().map(|i| i as usize).collect();
        idx.sort_unstable();
        idx.dedup();
        let first = idx.first().copied().unwrap_or(0);
        let end = idx.last().map_or(0, |l| l + 1);
        let mut words = vec![0u64; (end - first).div_ceil(64).max(1)];
        for &i in &idx {
            words[(i - first) / 64] |= 1 << ((i - first) % 64);
        }
        let head = (0..64).filter(|b| words[0] >> b & 1 != 0).collect();
        Pattern {
            magic,
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

    /// Returns the 64 slots starting at slot `x` as bits (slots past the end are free).
    fn window(&self, x: usize) -> u64 {
        let (w, r) = (x / 64, x % 64);
        let lo = self.taken.get(w).copied().unwrap_or(0);
        if r == 0 {
            return lo;
        }
        let hi = self.taken.get(w + 1).copied().unwrap_or(0);
        (lo >> r) | (hi << (64 - r))
    }

    /// Returns true if `p`'s slots after its first word are free with its first used index at `s`.
    fn rest_fits(&self, p: &Pattern, s: usize) -> bool {
        p.words
            .iter()
            .enumerate()
            .skip(1)
            .all(|(w, &bits)| bits & self.window(s + 64 * w) == 0)
    }

    /// Returns the lowest start (the slot its first used index lands on) at which `p`
    /// fits, no lower than `lowest`.
    fn first_fit(&self, p: &Pattern, lowest: usize) -> usize {
        let mut base = lowest & !63;
        loop {
            // Bit j of `free`: slots s + b are free for every set bit b of the first word.
            let mut free = !0u64;
            for &b in &p.head {
                free &= !self.window(base + b as usize);
                if free == 0 {
                    break;
                }
            }
            while free != 0 {
                let s = base + free.trailing_zeros() as usize;
                free &= free - 1;
                if s >= lowest && self.rest_fits(p, s) {
                    return s;
                }
            }
            base += 64;
        }
    }

    /// Frees the slots `p` takes at start `s` (placed there before).
    fn remove(&mut self, p: &Pattern, s: usize) {
        for (w, &bits) in p.words.iter().enumerate() {
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
        for (w, &bits) in p.words.iter().enumerate() {
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

/// Temperatures of the packing annealing, in table slots, at the first and the last move.
const PACK_HOT: f64 = 300.0;
const PACK_COLD: f64 = 0.5;

/// Improves `layout` by simulated annealing for `iterations` moves and returns the best
/// layout met. The search is over the placing order and the pool members, never over
/// offsets: every square goes to its lowest fitting start, so a layout is decided by an
/// order and a choice of members. A move swaps two squares in the order, moves one to
/// another place, or gives one square another pool member; only the squares from the
/// first changed place on are placed again. It is kept by the Metropolis rule on the table
/// length. On the published 87,988-entry magics, 100,000 moves pack 87,750 entries, where
/// taking squares out and putting them back at their lowest fit stalled near 95,900.
fn anneal(layout: &mut Layout, seed: u64, iterations: u64) -> Vec<Option<(usize, usize)>> {
    let n = layout.order.len();
    let mut best = (layout.len(), layout.choices());
    if n < 2 {
        return best.1;
    }
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut below = |k: usize| (rng.next_u64() % k as u64) as usize;
    let mut current = layout.len();
    let cool = (PACK_COLD / PACK_HOT).powf(1.0 / iterations.max(1) as f64);
    let mut temperature = PACK_HOT;
    for _ in 0..iterations {
        temperature *= cool;
        let (kind, i, j) = (below(4), below(n), below(n));
        let sq = layout.order[i];
        let pool_len = layout.pools[sq].len();
        let from = if kind >= 2 && pool_len > 1 {
            i
        } else {
            i.min(j)
        };
        if from == i.max(j) && !(kind >= 2 && pool_len > 1) {
            // Swapping or moving a square onto itself changes nothing.
            continue;
        }
        let saved = (
            layout.order.clone(),
            layout.member[sq],
            layout.start[from..].to_vec(),
            layout.end[from..].to_vec(),
        );
        layout.clear_from(from);
        match kind {
            0 => layout.order.swap(i, j),
            1 => {
                let moved = layout.order.remove(i);
                layout.order.insert(j, moved);
            }
            _ if pool_len > 1 => {
                let old = layout.member[sq];
                layout.member[sq] = (old + 1 + below(pool_len - 1)) % pool_len;
            }
            _ => layout.order.swap(i, j),
        }
        layout.place_from(from);
        let len = layout.len();
        let u = (below(1 << 53) as f64) / (1u64 << 53) as f64;
        if len <= current || u < (-((len - current) as f64) / temperature).exp() {
            current = len;
            if len < best.0 {
                best = (len, layout.choices());
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
    best.1
}
/// How the packer lays out a fixed-shift table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Packing {
    /// Seeds the annealing.
    pub(crate) seed: u64,
    /// Moves of layout annealing after the greedy pass.
    pub(crate) iterations: u64,
    /// Let ranges start before the table wherever every index stays at 0 or above.
    pub(crate) negative_offsets: bool,
}

/// Packs one pool per piece and square (rook a1..h8, then bishop a1..h8), whose patterns
/// have `bits[i]` index bits, into a set of `variant`: a greedy pass (squares by longest
/// shortest extent, each at the lowest fitting place of the pool member that grows the
/// table least), then `packing.iterations` moves of annealing the order and the members. The result depends only on the
/// pools and `packing`.
pub(crate) fn pack(
    variant: Variant,
    pools: &[Vec<Pattern>],
    bits: &[u8],
    packing: Packing,
) -> MagicSet {
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
    let (greedy, _) = pack_in_order(pools, &order, packing.negative_offsets);
    let member = greedy.iter().map(|&(k, _)| k).collect();
    // Placing the greedy members in the greedy order at their first fits is the greedy
    // layout again, so annealing starts from it and never ends longer.
    let mut layout = Layout::new(pools, order, member, packing.negative_offsets);
    let best = anneal(&mut layout, packing.seed, packing.iterations);
    let mut set = MagicSet::new(variant);
    for (i, c) in best.iter().enumerate() {
        let piece = Piece::ALL[i / 64];
        if let Some((k, start)) = *c {
            let p = &pools[i][k];
            *set.entry_mut(piece, (i % 64) as u8) = Entry {
                magic: p.magic,
                bits: bits[i],
                offset: start as i64 - p.first as i64,
            };
        }
    }
    set
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_interleave_in_each_others_gaps() {
        let pools = vec![
            vec![Pattern::new(1, [0, 2, 4, 6])],
            vec![Pattern::new(2, [0, 2])],
        ];
        let (choice, len) = pack_in_order(&pools, &[0, 1], false);
        assert_eq!(len, 7);
        assert_eq!(choice[1].1, 1);
    }

    #[test]
    fn the_pool_member_that_grows_the_table_least_wins() {
        let pools = vec![
            vec![Pattern::new(1, [0, 1, 2, 3])],
            vec![Pattern::new(2, [0, 1, 2]), Pattern::new(3, [5])],
        ];
        let (choice, len) = pack_in_order(&pools, &[0, 1], false);
        // [5] fits at offset 0 (start 5), ending at 6; [0, 1, 2] would end at 7.
        assert_eq!((choice[1], len), ((1, 5), 6));
    }

    #[test]
    fn fitting_agrees_with_a_slot_by_slot_check() {
        // A dense, irregular table and patterns spanning several words.
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        let mut table = Table::new();
        let mut taken = vec![false; 2000];
        for _ in 0..40 {
            let slots: Vec<u32> = (0..30).map(|_| (rng.next_u64() % 300) as u32 + 3).collect();
            let p = Pattern::new(0, slots.clone());
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
                        Pattern::new(sq * 8 + k, slots)
                    })
                    .collect()
            })
            .collect()
    }

    #[test]
    fn removing_a_pattern_frees_exactly_its_slots() {
        let mut table = Table::new();
        let a = Pattern::new(1, [1, 5, 70, 130]);
        let b = Pattern::new(2, [0, 2, 64]);
        table.place(&a, 3);
        let before = table.taken.clone();
        table.place(&b, 0);
        table.remove(&b, 0);
        assert_eq!(table.taken[..before.len()], before[..]);
        assert!(table.taken[before.len()..].iter().all(|&w| w == 0));
    }

    /// Packs `pools` (12 index bits each) with `iterations` annealing moves.
    fn packed(pools: &[Vec<Pattern>], iterations: u64, negative_offsets: bool) -> MagicSet {
        let packing = Packing {
            seed: 9,
            iterations,
            negative_offsets,
        };
        pack(Variant::Black, pools, &[12; 24], packing)
    }

    #[test]
    fn annealing_is_deterministic_and_never_longer_than_greedy() {
        let pools = random_pools(5);
        let greedy = packed(&pools, 0, false);
        let annealed = packed(&pools, 2000, false);
        assert_eq!(annealed, packed(&pools, 2000, false));
        let len = |set: &MagicSet| {
            (0..pools.len())
                .map(|i| {
                    let e = set.entries[i / 64][i % 64];
                    let p = pools[i].iter().find(|p| p.magic == e.magic).unwrap();
                    (e.offset + p.end as i64) as usize
                })
                .max()
                .unwrap()
        };
        assert!(
            len(&annealed) < len(&greedy),
            "{} {}",
            len(&annealed),
            len(&greedy)
        );
        // The chosen patterns never share a slot.
        let mut taken = vec![false; len(&annealed)];
        for (i, pool) in pools.iter().enumerate() {
            let e = annealed.entries[i / 64][i % 64];
            let p = pool.iter().find(|p| p.magic == e.magic).unwrap();
            for (w, &bits) in p.words.iter().enumerate() {
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
    fn negative_offsets_let_a_range_start_before_the_table() {
        // Hashes from 100 up: with offsets from 0 the table has 100 empty slots first.
        let pools = vec![
            vec![Pattern::new(1, [100, 101, 103])],
            vec![Pattern::new(2, [200, 202])],
        ];
        let (choice, len) = pack_in_order(&pools, &[0, 1], false);
        assert_eq!((choice, len), (vec![(0, 100), (0, 200)], 203));
        let (choice, len) = pack_in_order(&pools, &[0, 1], true);
        // The second interleaves into the first's hole at 2: starts at 2, ends at 5.
        assert_eq!((choice, len), (vec![(0, 0), (0, 2)], 5));
        let packing = |negative_offsets| Packing {
            seed: 9,
            iterations: 0,
            negative_offsets,
        };
        let set = pack(Variant::Black, &pools, &[12; 2], packing(true));
        assert_eq!(set.entries[0][0].offset, -100);
        assert_eq!(set.entries[0][1].offset, -198);
        let set = pack(Variant::Black, &pools, &[12; 2], packing(false));
        assert!(set.entries[0][..2].iter().all(|e| e.offset >= 0));
    }
}
