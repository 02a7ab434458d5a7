//! Black magics over an overlay table: black's index, `((occ | !mask) * magic) >> (64 - 12
//! or 9)`, into a table whose slots hold the OR of the attacks of every square that uses
//! them, read through the square's attacks on an empty board. Two squares share a slot
//! wherever they agree on the squares both can attack (bishops of opposite colours
//! always do), which packs the committed magics about a quarter shorter than `black`.
//!
//! A queen masks its rook and bishop entries each before the OR: a rook slot may hold
//! bits on the same square's diagonals, put there by the squares it shares with.

use crate::backend::{Entries, Table};
use crate::tables::Aligned;
use crate::Square;

/// One square's black magic over the overlay table.
#[derive(Clone, Copy)]
pub(crate) struct OverlayMagic {
    /// The complement of the relevant occupancy mask (as in `black`).
    pub not_mask: u64,
    /// The multiplier that hashes every key to a slot whose entry, masked, is its attacks.
    pub magic: u64,
    /// [`ATTACKS`] from the square's offset to the end (an address, as in `black`).
    pub range: &'static [u64],
}

/// `64 - index bits` for rooks (12) and bishops (9).
const ROOK_SHIFT: u32 = 64 - 12;
const BISHOP_SHIFT: u32 = 64 - 9;

// ROOK, BISHOP: [OverlayMagic; 64]; ATTACKS: the ORed attack sets (written by build.rs).
include!(concat!(env!("OUT_DIR"), "/black_overlay.rs"));

/// Returns the entry of `m`'s table for `occupied`, read through `rays`, the square's
/// attacks on an empty board (the crate's ray tables: a record of 32 bytes, two to a
/// cache line, as `black`'s).
#[inline(always)]
const fn lookup(m: &OverlayMagic, occupied: u64, shift: u32, rays: u64) -> u64 {
    let i = ((occupied | m.not_mask).wrapping_mul(m.magic) >> shift) as usize;
    // SAFETY: `occupied | m.not_mask` equals `(occupied & relevant) | !relevant`, one of the
    // keys build.rs verified for this square (magic_gen::verify by the overlay rule, every
    // subset of the relevant mask, 12 or 9 bits as fixed here): each lands on a slot of the
    // table, whose length is one past the largest slot reached, so `i` is below the length
    // of the square's range. `m` comes from the same verified set. Bounds exercised by
    // tests/backends.rs (every square, every relevant occupancy, every backend).
    unsafe { core::hint::assert_unchecked(i < m.range.len()) };
    m.range[i] & rays
}

/// Returns the squares a rook on `sq` attacks given the `occupied` squares (any bits:
/// those off the rook's lines are ignored). The first blocker on each ray is included.
#[inline]
pub const fn rook_attacks(sq: Square, occupied: u64) -> u64 {
    lookup(&ROOK[sq.index()], occupied, ROOK_SHIFT, crate::rook_rays(sq))
}

/// Returns the squares a bishop on `sq` attacks given the `occupied` squares.
#[inline]
pub const fn bishop_attacks(sq: Square, occupied: u64) -> u64 {
    lookup(&BISHOP[sq.index()], occupied, BISHOP_SHIFT, crate::bishop_rays(sq))
}

backend_common! {
    const,
    name: "black_overlay",
    table_bytes: ATTACKS_BYTES,
    tables: [|| Table {
        name: "ATTACKS",
        entries: Entries::U64(&ATTACKS.0),
        written_checksum: ATTACKS_CHECKSUM,
    }],
}
