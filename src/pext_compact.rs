//! Compact PEXT: the PEXT index into a table of `u16` entries, each an attack set packed
//! to the bits of the square's empty-board attacks and expanded again with PDEP. A quarter
//! of the `pext` table (about 210 KiB), so more of it stays in cache; one `pdep` more per
//! lookup. Present only when the target has `bmi2`.

use core::arch::x86_64::{_pdep_u64, _pext_u64};

use crate::tables::{Magic, PEXT_COMPACT_BISHOP, PEXT_COMPACT_ROOK, PEXT_COMPACT_TABLE};
use crate::Square;

/// The name of this backend.
pub const NAME: &str = "pext_compact";

/// Bytes of attack table this backend links in (masks not counted).
pub const TABLE_BYTES: usize = crate::tables::PEXT_COMPACT_TABLE_BYTES;

/// `m.magic` holds the empty-board attacks of the square.
#[inline(always)]
fn lookup(m: &Magic, occupied: u64) -> u64 {
    // SAFETY: this module is compiled only with `target_feature = "bmi2"` (see lib.rs), so
    // every CPU the binary is built for executes `pext`.
    let index = unsafe { _pext_u64(occupied, m.mask) };
    let i = m.offset as usize + index as usize;
    debug_assert!(i < PEXT_COMPACT_TABLE.0.len());
    // SAFETY: as in the `pext` backend: `index < 2^popcount(mask)`, and every square's
    // range lies inside the table (same layout, verified by build.rs).
    let packed = *unsafe { PEXT_COMPACT_TABLE.0.get_unchecked(i) };
    // SAFETY: as above, for `pdep`.
    unsafe { _pdep_u64(u64::from(packed), m.magic) }
}

/// Returns the squares a rook on `sq` attacks given the `occupied` squares (any bits:
/// those off the rook's lines are ignored). The first blocker on each ray is included.
#[inline]
pub fn rook_attacks(sq: Square, occupied: u64) -> u64 {
    lookup(&PEXT_COMPACT_ROOK[sq.index()], occupied)
}

/// Returns the squares a bishop on `sq` attacks given the `occupied` squares.
#[inline]
pub fn bishop_attacks(sq: Square, occupied: u64) -> u64 {
    lookup(&PEXT_COMPACT_BISHOP[sq.index()], occupied)
}

/// Returns the squares a queen on `sq` attacks given the `occupied` squares.
#[inline]
pub fn queen_attacks(sq: Square, occupied: u64) -> u64 {
    rook_attacks(sq, occupied) | bishop_attacks(sq, occupied)
}

#[doc(hidden)]
/// The raw compact table, for the crate's tests.
pub fn raw_table() -> &'static [u16] {
    &PEXT_COMPACT_TABLE.0
}
