//! Packing fixed-shift ranges into one shared table.
//!
//! Each square brings a pool of valid magics, each with the indices its occupancies use
//! (a pattern with gaps). The packer places squares one at a time, largest first; for each
//! it tries every magic of the pool at its lowest fitting offset and keeps the one that
//! grows the table least (then the one with fewer used slots, leaving more room for later
//! squares). Patterns interleave in each other's gaps; slots are not shared
//! across squares (equal attack sets of different squares are rare). With a time budget it
//! repeats with perturbed square orders and keeps the shortest table.
//!
//! Fitting is bit-parallel: 64 candidate offsets are tested at once against the pattern's
//! first 64 slots, and only survivors are checked in full.

use std::time::Instant;

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

    /// Returns the lowest offset at which `p` fits.
    fn first_fit(&self, p: &Pattern) -> usize {
        // `s` is where the pattern's first used index lands; the offset `s - first` may not
        // be negative.
        let mut base = p.first & !63;
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
                if s >= p.first && self.rest_fits(p, s) {
                    return s - p.first;
                }
            }
            base += 64;
        }
    }

    fn place(&mut self, p: &Pattern, offset: usize) {
        let end = offset + p.end;
        if end.div_ceil(64) + 1 > self.taken.len() {
            self.taken.resize(end.div_ceil(64) + 1, 0);
        }
        let s = offset + p.first;
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
fn pack_in_order(pools: &[Vec<Pattern>], order: &[usize]) -> (Vec<(usize, usize)>, usize) {
    let mut table = Table::new();
    let mut choice = vec![(0usize, 0usize); pools.len()];
    for &sq in order {
        let mut best: Option<((usize, usize, usize), usize)> = None;
        for (k, p) in pools[sq].iter().enumerate() {
            let offset = table.first_fit(p);
            let end = table.len.max(offset + p.end);
            // Least growth first; then fewer used slots (more room for later squares).
            let cost = (end, p.used, offset);
            if best.is_none_or(|(c, _)| cost < c) {
                best = Some((cost, k));
            }
        }
        if let Some(((_, _, offset), k)) = best {
            table.place(&pools[sq][k], offset);
            choice[sq] = (k, offset);
        }
    }
    (choice, table.len)
}

/// Packs one pool per piece and square (rook a1..h8, then bishop a1..h8) into a set of
/// `variant`. Without a deadline one greedy pass runs; with one, perturbed orders are
/// tried until it passes (seeded by `seed`) and the shortest table is kept.
pub(crate) fn pack(
    variant: Variant,
    pools: &[Vec<Pattern>],
    seed: u64,
    deadline: Option<Instant>,
) -> MagicSet {
    // Most used slots first; ties by square for a deterministic order.
    let mut order: Vec<usize> = (0..pools.len()).filter(|&i| !pools[i].is_empty()).collect();
    order.sort_by_key(|&i| (core::cmp::Reverse(pools[i].iter().map(|p| p.used).min()), i));
    let (mut best, mut best_len) = pack_in_order(pools, &order);
    if let Some(deadline) = deadline {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut current = order.clone();
        while Instant::now() < deadline {
            let mut trial = current.clone();
            // Swap a few neighbours: the greedy order matters most among similar sizes.
            for _ in 0..1 + rng.next_u64() % 4 {
                let i = (rng.next_u64() % (trial.len() as u64 - 1)) as usize;
                trial.swap(i, i + 1);
            }
            let (choice, len) = pack_in_order(pools, &trial);
            if len <= best_len {
                best = choice;
                best_len = len;
                current = trial;
            }
        }
    }
    let mut set = MagicSet::new(variant);
    for (i, &(k, offset)) in best.iter().enumerate() {
        let piece = Piece::ALL[i / 64];
        let bits = piece.fixed_bits();
        if let Some(p) = pools[i].get(k) {
            *set.entry_mut(piece, (i % 64) as u8) = Entry {
                magic: p.magic,
                bits,
                offset: offset as u32,
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
        let (choice, len) = pack_in_order(&pools, &[0, 1]);
        assert_eq!(len, 7);
        assert_eq!(choice[1].1, 1);
    }

    #[test]
    fn the_pool_member_that_grows_the_table_least_wins() {
        let pools = vec![
            vec![Pattern::new(1, [0, 1, 2, 3])],
            vec![Pattern::new(2, [0, 1, 2]), Pattern::new(3, [5])],
        ];
        let (choice, len) = pack_in_order(&pools, &[0, 1]);
        // [5] fits at offset 0 (slot 5), ending at 6; [0, 1, 2] would end at 7.
        assert_eq!((choice[1], len), ((1, 0), 6));
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
            let offset = table.first_fit(&p);
            // Slot by slot: the first offset with all used slots free.
            let expected = (0..)
                .find(|&o| {
                    slots
                        .iter()
                        .all(|&i| !taken.get(o + i as usize).copied().unwrap_or(false))
                })
                .unwrap();
            assert_eq!(offset, expected);
            table.place(&p, offset);
            for &i in &slots {
                if offset + i as usize >= taken.len() {
                    taken.resize(offset + i as usize + 1, false);
                }
                taken[offset + i as usize] = true;
            }
        }
    }
}
