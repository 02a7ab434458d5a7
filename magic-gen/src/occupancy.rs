//! One square's occupancies keyed for a variant's multiply, with their attacks
//! ([`SquareData`]), and the slots a magic gives them ([`used_slots`]): what the scan's
//! slot table, the pools' patterns and the overlay packer all hash.

use crate::geometry::{relevant_mask, slow_attacks, subsets, Piece};
use crate::index::{magic_hash, Variant};

/// One square's occupancies and their attacks, in the order the search tries them.
pub(crate) struct SquareData {
    /// The relevant mask.
    pub(crate) mask: u64,
    /// The key multiplied by the magic ([`Variant::key`]).
    pub(crate) keys: Vec<u64>,
    /// The attack set of each key.
    pub(crate) attacks: Vec<u64>,
    /// Each occupancy's attack set as a small id (a square has at most 144 distinct sets),
    /// so the search's slot table stays 4 bytes a slot and fits in L1.
    pub(crate) attack_ids: Vec<u8>,
}

impl SquareData {
    /// Returns the occupancies of `piece` on `sq` with their attacks, keyed for `variant`.
    pub(crate) fn new(piece: Piece, sq: u8, variant: Variant) -> SquareData {
        let mask = relevant_mask(piece, sq);
        let bits = mask.count_ones() as usize;
        // Fewest blockers first: those occupancies have the longest, most distinct attack
        // sets and collide first, so bad candidates fail early (about 2x faster than the
        // carry-rippler order). A counting sort: the binomial(bits, k) occupancies with k
        // blockers start where those with fewer end, each group in carry-rippler order.
        let mut next = [0usize; 13];
        let (mut at, mut group) = (0, 1);
        for (k, start) in next.iter_mut().enumerate().take(bits + 1) {
            *start = at;
            at += group;
            group = group * (bits - k) / (k + 1);
        }
        let mut keys = vec![0; 1 << bits];
        let mut attacks = vec![0; 1 << bits];
        for occ in subsets(mask) {
            let slot = &mut next[occ.count_ones() as usize];
            keys[*slot] = variant.key(occ, mask);
            attacks[*slot] = slow_attacks(piece, sq, occ);
            *slot += 1;
        }
        let attack_ids = attack_ids(&attacks);
        SquareData {
            mask,
            keys,
            attacks,
            attack_ids,
        }
    }
}

/// Returns each attack set's id: equal ids for equal sets, numbered by first appearance.
/// A square has at most 144 distinct sets (a rook on d4: 3 x 4 x 3 x 4 ray lengths), so an
/// open-addressing table of 256 sets finds each in a probe or two: the sort this replaced
/// took a third of the time of building a square.
fn attack_ids(attacks: &[u64]) -> Vec<u8> {
    // Every attack set is non-empty, so 0 marks a free place.
    let mut sets = [0u64; 256];
    let mut ids = [0u8; 256];
    let mut distinct = 0u8;
    attacks
        .iter()
        .map(|&a| {
            let mut h = (a.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 56) as usize;
            // A square has at most 144 distinct attack sets (rook d4), so some place of
            // the 256 is free or holds `a`: the probes end.
            for _ in 0..256 {
                if sets[h] == 0 {
                    sets[h] = a;
                    ids[h] = distinct;
                    distinct += 1;
                }
                if sets[h] == a {
                    return ids[h];
                }
                h = (h + 1) & 255;
            }
            unreachable!("more than 256 distinct attack sets on one square")
        })
        .collect()
}

impl SquareData {
    /// Returns the `(key, attack id)` pairs the slot table takes, in checking order: the
    /// empty occupancy first, whose attack set no other occupancy has (a blocker hides at
    /// least the edge square behind it).
    pub(crate) fn entries(&self) -> Vec<(u64, u8)> {
        self.keys
            .iter()
            .copied()
            .zip(self.attack_ids.iter().copied())
            .collect()
    }
}

/// Returns the indices (before the offset) that `magic` gives `data`'s occupancies, paired
/// with their attacks, sorted by index and without duplicates.
pub(crate) fn used_slots(data: &SquareData, magic: u64, bits: u8) -> Vec<(u32, u64)> {
    let mut used: Vec<(u32, u64)> = data
        .keys
        .iter()
        .zip(&data.attacks)
        .map(|(&key, &attacks)| {
            // The key is the variant's already: no mask to apply again.
            (
                magic_hash(false, key, u64::MAX, magic, bits) as u32,
                attacks,
            )
        })
        .collect();
    used.sort_unstable();
    used.dedup();
    used
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attack_sets_get_one_id_each_numbered_as_first_met() {
        // Sets that share a probe's start (the same top byte of the product) and others.
        let sets: Vec<u64> = (1..=300u64).map(|k| k % 97 + 1).collect();
        let ids = attack_ids(&sets);
        let mut first: Vec<u64> = Vec::new();
        for (&a, &id) in sets.iter().zip(&ids) {
            match first.iter().position(|&f| f == a) {
                Some(at) => assert_eq!(usize::from(id), at, "set {a}"),
                None => {
                    assert_eq!(usize::from(id), first.len(), "set {a}");
                    first.push(a);
                }
            }
        }
        // The rook on a1: as many ids as distinct attack sets (49).
        let data = SquareData::new(crate::Piece::Rook, 0, Variant::Fancy);
        let distinct = data
            .attack_ids
            .iter()
            .max()
            .map_or(0, |&m| usize::from(m) + 1);
        assert_eq!(distinct, 49);
    }
}
