//! What one pool member wants of an overlay table: the attacks at each used index, and
//! the rays its lookups read through.

use crate::geometry::SetSquare;
use crate::occupancy::{used_slots, SquareData};

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
    /// What the square's lookups read through ([`crate::Variant::reads_through`]).
    pub(super) rays: u64,
    /// The square (its index in the pools), which tells a slot's users apart: two may read
    /// through the same squares.
    pub(super) square: usize,
    /// The order a fit test reads the slots in (places in `slots`): the attacks with the
    /// most squares first, which have the most to agree on and clash most often.
    pub(super) check: Vec<u32>,
}

impl Wants {
    /// Returns what `magic` with `bits` index bits wants of the table for `square`, whose
    /// occupancies `data` holds keyed for the overlay's index (black or fancy) and whose
    /// lookups read through `rays`; `None` if two of its occupancies with different
    /// attacks share an index (a magic that does not verify).
    pub(crate) fn of(
        data: &SquareData,
        (square, rays): (SetSquare, u64),
        magic: u64,
        bits: u8,
    ) -> Option<Wants> {
        Wants::of_slots((square, rays), (magic, bits), used_slots(data, magic, bits))
    }

    /// Returns what the index of `magic` and `bits` wants of the table for `square`, from
    /// its used `slots` (index, attacks) in index order; `None` if two attack sets share an
    /// index.
    pub(super) fn of_slots(
        (square, rays): (SetSquare, u64),
        (magic, bits): (u64, u8),
        mut slots: Vec<(u32, u64)>,
    ) -> Option<Wants> {
        if slots.windows(2).any(|w| w[0].0 == w[1].0) {
            return None;
        }
        let first = slots[0].0;
        let extent = (slots[slots.len() - 1].0 - first + 1) as usize;
        for slot in &mut slots {
            slot.0 -= first;
        }
        let mut check: Vec<u32> = (0..slots.len() as u32).collect();
        check.sort_by_key(|&s| core::cmp::Reverse(slots[s as usize].1.count_ones()));
        Some(Wants {
            check,
            magic,
            bits,
            slots,
            first: first as usize,
            extent,
            rays,
            square: square.index(),
        })
    }
}
