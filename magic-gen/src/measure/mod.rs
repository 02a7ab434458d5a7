//! Per-square measures of a set or of a hunt's pools, and the comparison of two: each
//! square's slots used, and where its slots sit in its range of 2^bits entries (the free
//! slots at the range's ends, which the packer can give to other squares). What
//! `magic-gen stats` prints, and how docs/results/per-square.md judges our magics against
//! published ones: the magic decides how many slots a square writes; the packer can only
//! interleave what the magics leave free.
//!
//! ```
//! use magic_gen::measure::{compare, PerSquare};
//! use magic_gen::{MagicSet, Piece};
//!
//! let pext = PerSquare::of_set(&MagicSet::pext())?;
//! // A perfect index uses every slot of every range: nothing free at the ends.
//! let a1 = pext.get(Piece::Rook, 0).unwrap().range;
//! assert_eq!((a1.used, a1.lead, a1.tail), (4096, 0, 0));
//! assert_eq!(pext.total_used(), 107_648);
//! let tally = compare(&pext, &pext)?.tally;
//! assert_eq!((tally.no_more, tally.more), (128, 0));
//! # Ok::<(), magic_gen::measure::MeasureError>(())
//! ```

#[cfg(feature = "search")]
mod pools;
mod squares;
#[cfg(test)]
mod tests;

#[cfg(feature = "search")]
pub use pools::{PoolMember, Pools};
pub use squares::{compare, Comparison, MeasureError, Measured, PerSquare, RangeUse, Row, Tally};
