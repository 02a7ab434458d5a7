//! The options a run refuses, by what is wrong with them ([`Refusal`]): each a bad
//! argument, never a failure of the run, which the command line words with the flags that
//! gave them.

use crate::index::Variant;

use super::cut::Keeps;

/// An option, or a choice of options, that would do nothing or cannot be in the run asked
/// for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Refusal {
    /// Fewer index bits asked of a plain search, whose bits are fixed.
    PlainBits,
    /// The fixed shift asked as well of a variant with one shift per square.
    OneShift(Variant),
    /// Squares chosen (a piece, a square, the fixed shift as well) with no bits asked of
    /// them.
    NoBits,
    /// An option (its flag) that does nothing to a search of `variant`, or to its shards
    /// merged (`shards`).
    NoOp {
        /// The option's flag.
        flag: String,
        /// The variant searched.
        variant: Variant,
        /// Whether the run merges shards rather than searches.
        shards: bool,
    },
    /// How often the file a run keeps is saved, given with no such file.
    NoFile(Keeps),
    /// A choice among each square's pool members asked of a repack with one magic per
    /// square.
    OneMagic,
    /// An option (its flag) of the exact packing given to an overlay packing.
    Exact(&'static str),
    /// Finishing settings that cannot be in the run, as their own check says why.
    Unfit(String),
}
