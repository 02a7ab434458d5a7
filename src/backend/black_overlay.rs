//! Black magics over an overlay table: black's index (`black_magic.rs`) into a table
//! whose slots hold the OR of the attacks of every square that uses them, read through
//! the square's attacks on an empty board. Two squares share a slot
//! wherever they agree on the squares both can attack (bishops of opposite colours
//! always do), which packs the committed magics about a quarter shorter than `black`.
//!
//! A queen masks its rook and bishop entries each before the OR: a rook slot may hold
//! bits on the same square's diagonals, put there by the squares it shares with.

use crate::backend::black_magic::{entry, BlackMagic, BISHOP_SHIFT, ROOK_SHIFT};
use crate::backend::{Entries, Table};
use crate::tables::Aligned;
use crate::Square;

// ROOK, BISHOP: [BlackMagic; 64]; ATTACKS: the ORed attack sets (written by build.rs).
include!(concat!(env!("OUT_DIR"), "/black_overlay.rs"));

/// Returns the squares a rook on `sq` attacks given the `occupied` squares (any bits:
/// those off the rook's lines are ignored). The first blocker on each ray is included.
#[inline]
pub const fn rook_attacks(sq: Square, occupied: u64) -> u64 {
    entry(&ROOK[sq.index()], occupied, ROOK_SHIFT) & crate::rook_rays(sq)
}

/// Returns the squares a bishop on `sq` attacks given the `occupied` squares.
#[inline]
pub const fn bishop_attacks(sq: Square, occupied: u64) -> u64 {
    entry(&BISHOP[sq.index()], occupied, BISHOP_SHIFT) & crate::bishop_rays(sq)
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
