//! Fancy magics: `((occ & mask) * magic) >> shift`, index bits chosen per square, each
//! square's range packed back to back in one table (Kannan's layout, the one Stockfish used).

use crate::backend::{Entries, Table};
use crate::tables::Aligned;
use crate::Square;

/// One square's fancy magic.
#[derive(Clone, Copy)]
pub(crate) struct FancyMagic {
    /// The relevant occupancy mask: the squares whose occupancy can change the attacks.
    pub mask: u64,
    /// The multiplier that hashes every subset of `mask` to a distinct slot or a slot
    /// holding the same attacks.
    pub magic: u64,
    /// [`ATTACKS`] from the square's offset to the end: an address, so the load adds the
    /// hash (src/backend/black.rs says why).
    pub range: &'static [u64],
    /// `64 - index bits`.
    pub shift: u32,
}

impl FancyMagic {
    /// Returns the slot of [`FancyMagic::range`] that holds the attacks for `occupied`.
    #[inline(always)]
    const fn index(&self, occupied: u64) -> usize {
        ((occupied & self.mask).wrapping_mul(self.magic) >> self.shift) as usize
    }
}

// ROOK, BISHOP: [FancyMagic; 64]; ATTACKS: the attack sets (written by build.rs).
include!(concat!(env!("OUT_DIR"), "/fancy.rs"));

#[inline(always)]
const fn lookup(m: &FancyMagic, occupied: u64) -> u64 {
    let i = m.index(occupied);
    // SAFETY: `occupied & m.mask` is a subset of the square's relevant mask, and build.rs
    // verified every such subset (magic_gen::verify): each lands on a slot of the table, whose
    // length is one past the largest slot reached, so `i` is below the length of the square's
    // range, the table from its offset on. `m` comes from the same verified set.
    // The hint removes the bounds check of the read below (in release builds; debug builds
    // keep it): docs/benchmarks.md, "Unchecked reads".
    unsafe { core::hint::assert_unchecked(i < m.range.len()) };
    m.range[i]
}

/// Returns the squares a rook on `sq` attacks given the `occupied` squares (any bits:
/// those off the rook's lines are ignored). The first blocker on each ray is included.
#[inline]
pub const fn rook_attacks(sq: Square, occupied: u64) -> u64 {
    lookup(&ROOK[sq.index()], occupied)
}

/// Returns the squares a bishop on `sq` attacks given the `occupied` squares.
#[inline]
pub const fn bishop_attacks(sq: Square, occupied: u64) -> u64 {
    lookup(&BISHOP[sq.index()], occupied)
}

backend_common! {
    const,
    name: "fancy",
    table_bytes: ATTACKS_BYTES,
    tables: [|| Table {
        name: "ATTACKS",
        entries: Entries::U64(&ATTACKS.0),
        written_checksum: ATTACKS_CHECKSUM,
    }],
}
