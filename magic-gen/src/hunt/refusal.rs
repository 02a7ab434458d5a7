//! The options a run refuses, by what is wrong with them ([`Refusal`]), worded once for
//! every command that takes them with the flags that give them (as the settings'
//! own checks are, `PackSettings::check`): each a bad argument, never a failure of the run.

use std::fmt;

use crate::index::Variant;
use crate::pack::PackSettings;

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
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::PlainBits => f.write_str(
                "plain magics have fixed bits (12 rook, 9 bishop): --bits and --bits-under \
                 are for fancy, black and white",
            ),
            Refusal::OneShift(variant) => write!(
                f,
                "{variant} sets have one shift per square: --also-fixed-shift is for black \
                 and white"
            ),
            Refusal::NoBits => f.write_str(
                "--piece, --square and --also-fixed-shift go with --bits or --bits-under: give \
                 one of them",
            ),
            Refusal::NoOp {
                flag,
                variant,
                shards: false,
            } => write!(
                f,
                "{flag} does nothing in a {variant} search: {variant} keeps the first valid \
                 magic of each square and lays its ranges out by their bits; pools, climbs \
                 and packing are for black and white"
            ),
            Refusal::NoOp { flag, variant, .. } => write!(
                f,
                "{flag} does nothing to {variant} shards: pools and packing are for black and \
                 white"
            ),
            Refusal::NoFile(keeps) => write!(
                f,
                "--checkpoint says how often the {} file is saved: give --state FILE (or \
                 --resume FILE), or leave it out",
                keeps.name()
            ),
            Refusal::OneMagic => f.write_str(
                "--short-spans chooses among each square's pool members, and `pack` has one \
                 magic per square unless --also gives others: give it to `search` or `merge`, \
                 or add --also FILE",
            ),
            Refusal::Exact(flag) => f.write_str(&PackSettings::not_overlay(flag)),
        }
    }
}
