//! Black magics over an overlay table: black's index (`black_magic.rs`) into a table
//! whose slots hold the OR of the attacks of every square that uses them. A rook reads
//! its slot through its attacks on an empty board, and shares a slot wherever it agrees
//! with the other users on the squares both can see; a bishop shares one only with users
//! that want there what it wants, so it reads its slot as it is, with black's loads
//! (variant `black-rook-overlay`). The committed magics pack about a quarter shorter than
//! `black`.
//!
//! A queen masks its rook entry before the OR: a rook slot may hold bits on the same
//! square's diagonals, put there by the squares it shares with.

use crate::backend::black_magic::{index, BISHOP_SHIFT, ROOK_SHIFT};
use crate::backend::{Entries, Table};
use crate::tables::Aligned;
use crate::Square;

/// One square's black magic over the overlay table, with the rays its entries are read
/// through: 32 bytes, as black's record, so the rays cost no load of their own.
#[derive(Clone, Copy)]
pub(crate) struct OverlayMagic {
    /// The complement of the relevant occupancy mask ([`index`]).
    pub not_mask: u64,
    /// The multiplier that hashes every key to a slot holding its attacks.
    pub magic: u64,
    /// What a rook's entry is read through: its attacks on an empty board (a bishop's
    /// record holds every square, and its lookup reads no rays).
    pub rays: u64,
    /// The first slot of the square's range in the table.
    pub range: RangeStart,
}

/// The address of a square's first slot in the overlay table. An address rather than a
/// slice: the slice's length would take the place of the rays and make the record 40
/// bytes, and an offset costs an `add` on the lookup's critical path.
#[derive(Clone, Copy)]
pub(crate) struct RangeStart(pub *const u64);

// SAFETY: the address points into `ATTACKS`, a static that is never written, so sharing it
// between threads shares only reads.
unsafe impl Sync for RangeStart {}

// ROOK, BISHOP: [OverlayMagic; 64]; ATTACKS: the ORed attack sets (written by build.rs).
include!(concat!(env!("OUT_DIR"), "/black_overlay.rs"));

/// Returns the entry of `m`'s range that `occupied` hashes to, as the table holds it.
#[inline(always)]
const fn entry(m: &OverlayMagic, occupied: u64, shift: u32) -> u64 {
    let i = index(occupied, m.not_mask, m.magic, shift);
    // The bound the read below relies on, checked in debug builds (the tests' profile).
    // SAFETY: `range` was taken from `ATTACKS.0.as_ptr()` by an offset inside the table.
    debug_assert!(unsafe { m.range.0.offset_from(ATTACKS.0.as_ptr()) } as usize + i < ATTACKS.0.len());
    // SAFETY: `occupied | m.not_mask` equals `(occupied & relevant) | !relevant`, one of the
    // keys build.rs verified for this square by the overlay rule (magic_gen::verify, every
    // subset of the relevant mask): each lands on a slot of `ATTACKS`, whose length is one
    // past the largest slot reached, so `range + i` lies inside the table; and `range`
    // was taken from the table's own address (`ATTACKS.0.as_ptr()`), so the read may reach
    // any of its slots. tests/backends.rs forms every key of every square with this
    // backend compiled (the debug check above), and Miri runs tests/unsafe_paths.rs.
    unsafe { *m.range.0.add(i) }
}

/// Returns the squares a rook on `sq` attacks given the `occupied` squares (any bits:
/// those off the rook's lines are ignored). The first blocker on each ray is included.
#[inline]
pub const fn rook_attacks(sq: Square, occupied: u64) -> u64 {
    let m = &ROOK[sq.index()];
    entry(m, occupied, ROOK_SHIFT) & m.rays
}

/// Returns the squares a bishop on `sq` attacks given the `occupied` squares.
#[inline]
pub const fn bishop_attacks(sq: Square, occupied: u64) -> u64 {
    entry(&BISHOP[sq.index()], occupied, BISHOP_SHIFT)
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
