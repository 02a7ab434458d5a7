//! Plain magics: `((occ & mask) * magic) >> (64 - 12 or 9)`, one array of 4096 (rook) or
//! 512 (bishop) entries per square (Hansen's original layout). The largest tables, but the
//! index is bounded by the shift alone, so a lookup has no bounds check and no offset load.

use crate::tables::{PLAIN_BISHOP, PLAIN_BISHOP_TABLE, PLAIN_ROOK, PLAIN_ROOK_TABLE};
use crate::Square;

/// The name of this backend.
pub const NAME: &str = "plain";

/// Bytes of attack table this backend links in (magics not counted).
pub const TABLE_BYTES: usize =
    crate::tables::PLAIN_ROOK_TABLE_BYTES + crate::tables::PLAIN_BISHOP_TABLE_BYTES;

/// Returns the squares a rook on `sq` attacks given the `occupied` squares (any bits:
/// those off the rook's lines are ignored). The first blocker on each ray is included.
#[inline]
pub fn rook_attacks(sq: Square, occupied: u64) -> u64 {
    let m = &PLAIN_ROOK[sq.index()];
    let hash = (occupied & m.mask).wrapping_mul(m.magic) >> (64 - 12);
    PLAIN_ROOK_TABLE.0[sq.index()][hash as usize]
}

/// Returns the squares a bishop on `sq` attacks given the `occupied` squares.
#[inline]
pub fn bishop_attacks(sq: Square, occupied: u64) -> u64 {
    let m = &PLAIN_BISHOP[sq.index()];
    let hash = (occupied & m.mask).wrapping_mul(m.magic) >> (64 - 9);
    PLAIN_BISHOP_TABLE.0[sq.index()][hash as usize]
}

/// Returns the squares a queen on `sq` attacks given the `occupied` squares.
#[inline]
pub fn queen_attacks(sq: Square, occupied: u64) -> u64 {
    rook_attacks(sq, occupied) | bishop_attacks(sq, occupied)
}

#[doc(hidden)]
/// The raw attack tables (rook arrays, then bishop arrays), for the crate's tests.
pub fn raw_tables() -> (&'static [[u64; 4096]; 64], &'static [[u64; 512]; 64]) {
    (&PLAIN_ROOK_TABLE.0, &PLAIN_BISHOP_TABLE.0)
}
