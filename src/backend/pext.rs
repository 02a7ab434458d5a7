//! PEXT: `pext(occ, mask)` (BMI2) is a perfect index; the ranges of all squares lie back
//! to back in one table of `u64` entries. Compiled only for x86_64 targets with BMI2.

use core::arch::x86_64::_pext_u64;

use crate::backend::{Entries, Table};
use crate::tables::Aligned;
use crate::Square;

/// One square's PEXT index parameters.
#[derive(Clone, Copy)]
pub(crate) struct PextSquare {
    /// The relevant occupancy mask, whose bits `pext` packs into the index.
    pub mask: u64,
    /// [`ATTACKS`] from the start of the square's `2^popcount(mask)` range to the end: an
    /// address, so the load adds the index (src/backend/black.rs says why).
    pub range: &'static [u64],
}

impl PextSquare {
    /// Returns the slot of [`PextSquare::range`] that holds the attacks for `occupied`.
    #[inline(always)]
    fn index(&self, occupied: u64) -> usize {
        // SAFETY: this module is compiled only for targets with `bmi2` (build.rs sets
        // `mb_pext` from CARGO_CFG_TARGET_FEATURE; src/backend/mod.rs stops the build if this
        // compiler pass disagrees), so every CPU the binary is built for executes `pext`.
        unsafe { _pext_u64(occupied, self.mask) as usize }
    }
}

// ROOK, BISHOP: [PextSquare; 64]; ATTACKS: the attack sets (written by build.rs).
include!(concat!(env!("OUT_DIR"), "/pext.rs"));

#[inline(always)]
fn lookup(m: &PextSquare, occupied: u64) -> u64 {
    let i = m.index(occupied);
    // SAFETY: `pext` packs the bits of the mask, so `i < 2^popcount(mask)`, and build.rs
    // laid out every square's `2^popcount` range inside the table (magic_gen::verify of
    // `MagicSet::pext()`, whose last range ends the table), so `i` is below the length of
    // the square's range, the table from its offset on.
    // The hint removes the bounds check of the read below (in release builds; debug builds
    // keep it): docs/benchmarks.md, "Unchecked reads".
    unsafe { core::hint::assert_unchecked(i < m.range.len()) };
    m.range[i]
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
    name: "pext",
    table_bytes: ATTACKS_BYTES,
    tables: [|| Table {
        name: "ATTACKS",
        entries: Entries::U64(&ATTACKS.0),
        written_checksum: ATTACKS_CHECKSUM,
    }],
}
