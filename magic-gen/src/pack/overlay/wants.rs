//! What one pool member wants of an overlay table: the attacks at each used index, and
//! the rays its lookups read through.

use crate::geometry::{empty_board_attacks, relevant_mask, slow_attacks, subsets, SetSquare};
use crate::index::magic_hash;

/// One pool member as the overlay packer sees it: the attacks each of its used indices
/// wants, and the rays its lookups read through.
#[derive(Clone, Debug)]
pub(crate) struct Wants {
    /// The member's magic.
    pub(super) magic: u64,
    /// Its index bits.
    pub(super) bits: u8,
    /// (index relative to the lowest used one, attacks), by index.
    pub(super) slots: Vec<(u32, u64)>,
    /// The lowest used index.
    pub(super) first: usize,
    /// One past the highest used index, relative to `first`.
    pub(super) extent: usize,
    /// The square's empty-board attacks.
    pub(super) rays: u64,
}

impl Wants {
    /// Returns what `magic` with `bits` index bits wants of the table for `square`, as a
    /// black magic if `black`, else a fancy one; `None` if two of its occupancies with
    /// different attacks share an index (a magic that does not verify).
    pub(crate) fn of(black: bool, square: SetSquare, magic: u64, bits: u8) -> Option<Wants> {
        let SetSquare { piece, square: sq } = square;
        let mask = relevant_mask(piece, sq);
        let mut slots: Vec<(u32, u64)> = subsets(mask)
            .map(|occ| {
                let index = magic_hash(black, occ, mask, magic, bits) as u32;
                (index, slow_attacks(piece, sq, occ))
            })
            .collect();
        slots.sort_unstable();
        slots.dedup();
        if slots.windows(2).any(|w| w[0].0 == w[1].0) {
            return None;
        }
        let first = slots[0].0;
        let extent = (slots[slots.len() - 1].0 - first + 1) as usize;
        for slot in &mut slots {
            slot.0 -= first;
        }
        Some(Wants {
            magic,
            bits,
            slots,
            first: first as usize,
            extent,
            rays: empty_board_attacks(piece, sq),
        })
    }
}
