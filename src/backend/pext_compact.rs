//! Compact PEXT: the PEXT index into small tables. Rook entries are `u16`, each an attack
//! set packed to the bits of the square's empty-board attacks and expanded again with PDEP
//! (200 KiB instead of 800); bishop entries stay `u64` (41 KiB; no PDEP on their path).
//! Both pieces' parameters of a square share one 64-byte record, so a queen reads one
//! cache line of them. Compiled only for x86_64 targets with BMI2.

use core::arch::x86_64::{_pdep_u64, _pext_u64};

use crate::backend::{Entries, Table};
use crate::tables::Aligned;
use crate::Square;

/// One square's compact PEXT parameters, for both pieces.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
pub(crate) struct CompactPextSquare {
    /// The rook's relevant occupancy mask, whose bits `pext` packs into the index.
    pub rook_mask: u64,
    /// The rook's empty-board attacks, whose bits `pdep` spreads an entry over.
    pub rook_rays: u64,
    /// The bishop's relevant occupancy mask.
    pub bishop_mask: u64,
    /// [`ROOK_ATTACKS`] from the start of the rook's `2^popcount(rook_mask)` range to the
    /// end: an address, so the load adds the index (src/backend/black.rs says why).
    pub rook_range: &'static [u16],
    /// [`BISHOP_ATTACKS`] from the start of the bishop's range to the end.
    pub bishop_range: &'static [u64],
}

// SQUARES: [CompactPextSquare; 64]; ROOK_ATTACKS: the packed rook attack sets;
// BISHOP_ATTACKS: the bishop attack sets (written by build.rs).
include!(concat!(env!("OUT_DIR"), "/pext_compact.rs"));

/// Returns the squares a rook on `sq` attacks given the `occupied` squares (any bits:
/// those off the rook's lines are ignored). The first blocker on each ray is included.
#[inline]
pub fn rook_attacks(sq: Square, occupied: u64) -> u64 {
    let m = &SQUARES[sq.index()];
    // SAFETY: this module is compiled only for targets with `bmi2` (as in `pext`), so every
    // CPU the binary is built for executes `pext`.
    let i = unsafe { _pext_u64(occupied, m.rook_mask) } as usize;
    // SAFETY: `pext` packs the bits of the mask, so `i < 2^popcount(mask)`, and build.rs
    // laid out every square's range inside the table, in square order from the verified
    // PEXT layout (tests/backends.rs compares every slot with magic-gen's fill), so `i` is
    // below the length of `rook_range`, the table from the range's start on.
    // The hint removes the bounds check of the read below: docs/benchmarks.md, "Unchecked
    // reads".
    unsafe { core::hint::assert_unchecked(i < m.rook_range.len()) };
    let packed = m.rook_range[i];
    // SAFETY: as above, for `pdep`.
    unsafe { _pdep_u64(u64::from(packed), m.rook_rays) }
}

/// Returns the squares a bishop on `sq` attacks given the `occupied` squares.
#[inline]
pub fn bishop_attacks(sq: Square, occupied: u64) -> u64 {
    let m = &SQUARES[sq.index()];
    // SAFETY: as in `rook_attacks`.
    let i = unsafe { _pext_u64(occupied, m.bishop_mask) } as usize;
    // SAFETY: as in `rook_attacks`, for the bishop's range in its own table.
    unsafe { core::hint::assert_unchecked(i < m.bishop_range.len()) };
    m.bishop_range[i]
}

backend_common! {
    name: "pext_compact",
    table_bytes: ROOK_ATTACKS_BYTES + BISHOP_ATTACKS_BYTES,
    tables: [
        || Table {
            name: "ROOK_ATTACKS",
            entries: Entries::U16(&ROOK_ATTACKS.0),
            written_checksum: ROOK_ATTACKS_CHECKSUM,
        },
        || Table {
            name: "BISHOP_ATTACKS",
            entries: Entries::U64(&BISHOP_ATTACKS.0),
            written_checksum: BISHOP_ATTACKS_CHECKSUM,
        },
    ],
}
