//! Compact PEXT: the PEXT index into a table of `u16` entries, each an attack set packed
//! to the bits of the square's empty-board attacks and expanded again with PDEP. A quarter
//! of the `pext` table (about 210 KiB), so more of it stays in cache; one `pdep` more per
//! lookup. Compiled only for x86_64 targets with BMI2.

use core::arch::x86_64::{_pdep_u64, _pext_u64};

use crate::backend::{Entries, Table};
use crate::tables::Aligned;
use crate::Square;

/// One square's compact PEXT parameters.
#[derive(Clone, Copy)]
pub(crate) struct CompactPextSquare {
    /// The relevant occupancy mask, whose bits `pext` packs into the index.
    pub mask: u64,
    /// The empty-board attacks, whose bits `pdep` spreads an entry over: kept here, beside
    /// the mask, so a lookup touches one cache line of records.
    pub rays: u64,
    /// Start of the square's `2^popcount(mask)` range in [`ATTACKS`].
    pub offset: u32,
}

// ROOK, BISHOP: [CompactPextSquare; 64]; ATTACKS: the packed attack sets (build.rs).
include!(concat!(env!("OUT_DIR"), "/pext_compact.rs"));

#[inline(always)]
fn lookup(m: &CompactPextSquare, occupied: u64) -> u64 {
    // SAFETY: this module is compiled only for targets with `bmi2` (as in `pext`), so every
    // CPU the binary is built for executes `pext`.
    let i = m.offset as usize + unsafe { _pext_u64(occupied, m.mask) } as usize;
    // SAFETY: as in the `pext` backend: `i - offset < 2^popcount(mask)`, and every square's
    // range lies inside the table (same layout, verified by build.rs). The hint removes
    // the bounds check of the read below: docs/benchmarks.md, "Unchecked reads".
    unsafe { core::hint::assert_unchecked(i < ATTACKS.0.len()) };
    let packed = ATTACKS.0[i];
    // SAFETY: as above, for `pdep`.
    unsafe { _pdep_u64(u64::from(packed), m.rays) }
}

/// Returns the squares a rook on `sq` attacks given the `occupied` squares (any bits:
/// those off the rook's lines are ignored). The first blocker on each ray is included.
#[inline]
pub fn rook_attacks(sq: Square, occupied: u64) -> u64 {
    lookup(&ROOK[sq.index()], occupied)
}

/// Returns the squares a bishop on `sq` attacks given the `occupied` squares.
#[inline]
pub fn bishop_attacks(sq: Square, occupied: u64) -> u64 {
    lookup(&BISHOP[sq.index()], occupied)
}

backend_common! {
    name: "pext_compact",
    table_bytes: ATTACKS_BYTES,
    tables: [|| Table {
        name: "ATTACKS",
        entries: Entries::U16(&ATTACKS.0),
        written_checksum: ATTACKS_CHECKSUM,
    }],
}
