//! Per-square measures of a set or of a hunt's pools, and the comparison of two: each
//! square's slots used, and where its slots sit in its range of 2^bits entries (the free
//! slots at the range's ends, which the packer can give to other squares). What
//! `magic-gen stats` prints, and how docs/results/per-square.md judges our magics against
//! published ones: the magic decides how many slots a square writes; the packer can only
//! interleave what the magics leave free. Each measure renders its own table
//! ([`PerSquare::set_tables`], [`PerSquare::compare`]'s `Display`, [`Pools::best_table`]).
//!
//! ```
//! use magic_gen::measure::PerSquare;
//! use magic_gen::MagicSet;
//!
//! let pext = PerSquare::of_set(&MagicSet::pext())?;
//! // A perfect index uses every slot of every range: nothing free at the ends.
//! assert_eq!(pext.total_used(), 107_648);
//! let table = pext.compare(&pext)?.to_string();
//! assert!(table.starts_with("per square: slots used by ours and theirs"));
//! assert!(table.contains("\nrook   a1       4096   4096     +0      0      0      0      0\n"));
//! assert!(table.contains("squares where ours uses no more slots than theirs: 128 of 128"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod board;
#[cfg(feature = "search")]
mod pools;
mod squares;
mod tables;
#[cfg(test)]
mod tests;

#[cfg(feature = "search")]
pub use pools::Pools;
#[cfg(any(test, feature = "cli"))]
pub(crate) use squares::MeasureError;
pub use squares::PerSquare;
