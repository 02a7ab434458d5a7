//! The slot table of the inner loop: one square's occupancies keyed for the multiply
//! ([`SquareData`]), and a table cleared in O(1) per candidate ([`EpochTable`]) that tests,
//! counts or measures a candidate's collisions.

use std::ops::ControlFlow;

use crate::geometry::{relevant_mask, slow_attacks, subsets, Piece};
use crate::index::magic_hash;

/// One square's occupancies and their attacks, in the order the search tries them.
pub(crate) struct SquareData {
    /// The relevant mask.
    pub(crate) mask: u64,
    /// The key multiplied by the magic: `occ` (white) or `occ | !mask` (black).
    pub(crate) keys: Vec<u64>,
    /// The attack set of each key.
    pub(crate) attacks: Vec<u64>,
    /// Each occupancy's attack set as a small id (a square has at most 144 distinct sets),
    /// so the search's slot table stays 4 bytes a slot and fits in L1.
    pub(crate) attack_ids: Vec<u8>,
}

impl SquareData {
    /// Returns the occupancies of `piece` on `sq` with their attacks, keyed for `black` or not.
    pub(crate) fn new(piece: Piece, sq: u8, black: bool) -> SquareData {
        let mask = relevant_mask(piece, sq);
        let mut keys = Vec::with_capacity(1 << mask.count_ones());
        let mut attacks = Vec::with_capacity(keys.capacity());
        for occ in subsets(mask) {
            keys.push(if black { occ | !mask } else { occ });
            attacks.push(slow_attacks(piece, sq, occ));
        }
        // Fewest blockers first: those occupancies have the longest, most distinct attack
        // sets and collide first, so bad candidates fail early (about 2x faster than the
        // carry-rippler order).
        let mut order: Vec<usize> = (0..keys.len()).collect();
        order.sort_by_key(|&i| (keys[i] & mask).count_ones());
        let keys = order.iter().map(|&i| keys[i]).collect();
        let attacks: Vec<u64> = order.iter().map(|&i| attacks[i]).collect();
        let mut distinct: Vec<u64> = attacks.clone();
        distinct.sort_unstable();
        distinct.dedup();
        let attack_ids = attacks
            .iter()
            .map(|a| distinct.binary_search(a).map_or(0, |i| i as u8))
            .collect();
        SquareData {
            mask,
            keys,
            attacks,
            attack_ids,
        }
    }
}

impl SquareData {
    /// Returns the `(key, attack id)` pairs the slot table takes, in checking order.
    pub(crate) fn entries(&self) -> Vec<(u64, u8)> {
        self.keys
            .iter()
            .copied()
            .zip(self.attack_ids.iter().copied())
            .collect()
    }
}

/// A slot table cleared in O(1) between candidates by bumping an epoch stamp.
pub(crate) struct EpochTable {
    /// `epoch << 8 | attack id`: a slot belongs to the current candidate only if its
    /// epoch matches.
    slots: Vec<u32>,
    epoch: u32,
}

impl EpochTable {
    /// Returns a table of `2^bits` slots.
    pub(crate) fn new(bits: u8) -> EpochTable {
        EpochTable {
            slots: vec![0; 1 << bits],
            epoch: 0,
        }
    }

    /// Starts a new candidate: returns its stamp (`epoch << 8`), clearing the slots only
    /// when the 24-bit epoch wraps.
    fn next_stamp(&mut self) -> u32 {
        self.epoch += 1;
        if self.epoch == 1 << 24 {
            self.slots.fill(0);
            self.epoch = 1;
        }
        self.epoch << 8
    }

    /// Hashes every `(key, attack id)` of `entries` under `magic` into this table for a new
    /// candidate and calls `visit` with each entry's position, its slot and what the slot
    /// test found there; stops early when `visit` breaks. The one place the slot test lives:
    /// a slot is free unless stamped by this candidate, and a stamped slot holding the same
    /// attack id is a constructive collision.
    #[inline(always)]
    fn place_all<B>(
        &mut self,
        entries: &[(u64, u8)],
        magic: u64,
        bits: u8,
        mut visit: impl FnMut(usize, usize, Placed) -> ControlFlow<B>,
    ) -> ControlFlow<B> {
        let stamp = self.next_stamp();
        let shift = 64 - bits as u32;
        // A local slice keeps its length in a register across the stores; the shift already
        // bounds the index, and the mask lets the compiler drop the bounds check.
        let slots = self.slots.as_mut_slice();
        let last = slots.len() - 1;
        for (k, &(key, id)) in entries.iter().enumerate() {
            let i = (key.wrapping_mul(magic) >> shift) as usize & last;
            let slot = &mut slots[i];
            let placed = if *slot & !0xff != stamp {
                *slot = stamp | id as u32;
                Placed::Free
            } else if *slot == stamp | id as u32 {
                Placed::Shared
            } else {
                Placed::Collision
            };
            visit(k, i, placed)?;
        }
        ControlFlow::Continue(())
    }

    /// Returns true if `magic` maps every `(key, attack id)` of `entries` without a
    /// destructive collision. On a collision it moves the occupancy that collided one step
    /// forward: occupancies that collide often drift to the front, so bad candidates fail
    /// sooner. The order never changes which candidate passes, only how fast others fail.
    #[inline]
    pub(crate) fn accepts(&mut self, entries: &mut [(u64, u8)], magic: u64, bits: u8) -> bool {
        let flow = self.place_all(entries, magic, bits, |k, _, placed| match placed {
            Placed::Collision => ControlFlow::Break(k),
            _ => ControlFlow::Continue(()),
        });
        match flow {
            ControlFlow::Continue(()) => true,
            ControlFlow::Break(k) => {
                entries.swap(k, k.saturating_sub(1));
                false
            }
        }
    }

    /// Returns how many of `entries` collide destructively under `magic`: the fitness a
    /// reduced-bit climb minimises (0 means valid).
    #[inline]
    pub(crate) fn conflicts(&mut self, entries: &[(u64, u8)], magic: u64, bits: u8) -> u32 {
        let mut bad = 0;
        let _ = self.place_all::<()>(entries, magic, bits, |_, _, placed| {
            if placed == Placed::Collision {
                bad += 1;
            }
            ControlFlow::Continue(())
        });
        bad
    }

    /// Returns (used slots, span) of a valid `magic`, or `None` on a destructive collision:
    /// what a density climb minimises for fixed-shift tables.
    #[inline]
    pub(crate) fn measure(
        &mut self,
        entries: &[(u64, u8)],
        magic: u64,
        bits: u8,
    ) -> Option<(u32, u32)> {
        let (mut lo, mut hi, mut used) = (usize::MAX, 0, 0);
        let flow = self.place_all(entries, magic, bits, |_, i, placed| match placed {
            Placed::Free => {
                used += 1;
                lo = lo.min(i);
                hi = hi.max(i);
                ControlFlow::Continue(())
            }
            Placed::Shared => ControlFlow::Continue(()),
            Placed::Collision => ControlFlow::Break(()),
        });
        flow.is_continue()
            .then(|| (used, (hi + 1).saturating_sub(lo) as u32))
    }
}

/// What the slot test found for one key of a candidate.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Placed {
    /// The slot was free: the key now holds it.
    Free,
    /// The slot holds the same attack set: a constructive collision.
    Shared,
    /// The slot holds another attack set: the candidate fails here.
    Collision,
}

/// Returns the indices (before the offset) that `magic` gives `data`'s occupancies, paired
/// with their attacks, sorted by index and without duplicates.
pub(crate) fn used_slots(data: &SquareData, magic: u64, bits: u8, black: bool) -> Vec<(u32, u64)> {
    let mut used: Vec<(u32, u64)> = data
        .keys
        .iter()
        .zip(&data.attacks)
        .map(|(&key, &attacks)| {
            (
                magic_hash(black, key, data.mask, magic, bits) as u32,
                attacks,
            )
        })
        .collect();
    used.sort_unstable();
    used.dedup();
    used
}
