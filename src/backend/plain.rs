//! Plain magics: `((occ & mask) * magic) >> (64 - 12 or 9)`, one array of 4096 (rook) or
//! 512 (bishop) entries per square (Hansen's original layout). The largest tables, but the
//! index is bounded by the shift alone, so a lookup has no bounds check and no offset load.

use crate::backend::{Entries, Table};
use crate::tables::Aligned;
use crate::Square;

/// One square's plain magic: its range is the square's own array, so no offset.
#[derive(Clone, Copy)]
pub(crate) struct PlainMagic {
    /// The relevant occupancy mask: the squares whose occupancy can change the attacks.
    pub mask: u64,
    /// The multiplier that hashes every subset of `mask` into the square's array.
    pub magic: u64,
}

impl PlainMagic {
    /// Returns the index into the square's array (below `2^bits`, by the shift).
    #[inline(always)]
    const fn index(&self, occupied: u64, bits: u32) -> usize {
        ((occupied & self.mask).wrapping_mul(self.magic) >> (64 - bits)) as usize
    }
}

// ROOK, BISHOP: [PlainMagic; 64]; ROOK_ATTACKS: [[u64; 4096]; 64] and BISHOP_ATTACKS:
// [[u64; 512]; 64], the attack sets (written by build.rs).
include!(concat!(env!("OUT_DIR"), "/plain.rs"));

/// Returns the squares a rook on `sq` attacks given the `occupied` squares (any bits:
/// those off the rook's lines are ignored). The first blocker on each ray is included.
#[inline]
pub const fn rook_attacks(sq: Square, occupied: u64) -> u64 {
    ROOK_ATTACKS.0[sq.index()][ROOK[sq.index()].index(occupied, 12)]
}

/// Returns the squares a bishop on `sq` attacks given the `occupied` squares.
#[inline]
pub const fn bishop_attacks(sq: Square, occupied: u64) -> u64 {
    BISHOP_ATTACKS.0[sq.index()][BISHOP[sq.index()].index(occupied, 9)]
}

backend_common! {
    const,
    name: "plain",
    table_bytes: ROOK_ATTACKS_BYTES + BISHOP_ATTACKS_BYTES,
    tables: [
        || Table {
            name: "ROOK_ATTACKS",
            entries: Entries::U64(ROOK_ATTACKS.0.as_flattened()),
            written_checksum: ROOK_ATTACKS_CHECKSUM,
        },
        || Table {
            name: "BISHOP_ATTACKS",
            entries: Entries::U64(BISHOP_ATTACKS.0.as_flattened()),
            written_checksum: BISHOP_ATTACKS_CHECKSUM,
        },
    ],
}
