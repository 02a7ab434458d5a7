//! Black magics: `((occ | !mask) * magic) >> (64 - 12 or 9)`, a fixed shift per piece and
//! square ranges overlapping in one table (Annuss's scheme, the densest multiply layout).
//! The index is `black_magic.rs`'s.

use crate::backend::black_magic::{entry, BlackMagic, BISHOP_SHIFT, ROOK_SHIFT};
use crate::backend::{Entries, Table};
use crate::tables::Aligned;
use crate::Square;

// ROOK, BISHOP: [BlackMagic; 64]; ATTACKS: the attack sets (written by build.rs).
include!(concat!(env!("OUT_DIR"), "/black.rs"));

/// Returns the squares a rook on `sq` attacks given the `occupied` squares (any bits:
/// those off the rook's lines are ignored). The first blocker on each ray is included.
#[inline]
pub const fn rook_attacks(sq: Square, occupied: u64) -> u64 {
    entry(&ROOK[sq.index()], occupied, ROOK_SHIFT)
}

/// Returns the squares a bishop on `sq` attacks given the `occupied` squares.
#[inline]
pub const fn bishop_attacks(sq: Square, occupied: u64) -> u64 {
    entry(&BISHOP[sq.index()], occupied, BISHOP_SHIFT)
}

backend_common! {
    const,
    name: "black",
    table_bytes: ATTACKS_BYTES,
    tables: [|| Table {
        name: "ATTACKS",
        entries: Entries::U64(&ATTACKS.0),
        written_checksum: ATTACKS_CHECKSUM,
    }],
}
