//! Fancy magics: `((occ & mask) * magic) >> shift`, index bits chosen per square, each
//! square's range packed back to back in one table (Kannan's layout, the one Stockfish used).

use crate::tables::{Magic, FANCY_BISHOP, FANCY_ROOK, FANCY_TABLE};
use crate::Square;

/// The name of this backend.
pub const NAME: &str = "fancy";

/// Bytes of attack table this backend links in (magics not counted).
pub const TABLE_BYTES: usize = crate::tables::FANCY_TABLE_BYTES;

#[inline(always)]
fn lookup(m: &Magic, occupied: u64) -> u64 {
    let hash = (occupied & m.mask).wrapping_mul(m.magic) >> m.shift;
    let i = m.offset as usize + hash as usize;
    debug_assert!(i < FANCY_TABLE.0.len());
    // SAFETY: `occupied & m.mask` is a subset of the square's relevant mask, and build.rs
    // verified every such subset (magic_gen::verify): each lands on a slot of the table, whose
    // length is one past the largest slot reached. `m` comes from the same verified set.
    // Benchmark (README, "unsafe"): 9% faster independent queen lookups than `[]`.
    *unsafe { FANCY_TABLE.0.get_unchecked(i) }
}

/// Returns the squares a rook on `sq` attacks given the `occupied` squares (any bits:
/// those off the rook's lines are ignored). The first blocker on each ray is included.
#[inline]
pub fn rook_attacks(sq: Square, occupied: u64) -> u64 {
    lookup(&FANCY_ROOK[sq.index()], occupied)
}

/// Returns the squares a bishop on `sq` attacks given the `occupied` squares.
#[inline]
pub fn bishop_attacks(sq: Square, occupied: u64) -> u64 {
    lookup(&FANCY_BISHOP[sq.index()], occupied)
}

/// Returns the squares a queen on `sq` attacks given the `occupied` squares.
#[inline]
pub fn queen_attacks(sq: Square, occupied: u64) -> u64 {
    rook_attacks(sq, occupied) | bishop_attacks(sq, occupied)
}

#[doc(hidden)]
/// The raw attack table, for the crate's tests.
pub fn raw_table() -> &'static [u64] {
    &FANCY_TABLE.0
}
