//! Why a command failed, as its exit code says: a bad argument exits 2, as clap's own
//! usage errors do; anything else (a file that cannot be read or written, a set that does
//! not verify, a run that fails) exits 1. The options the library refuses
//! ([`Refusal`]) are bad arguments, worded here with the flags that gave them.

use std::fmt;
use std::process::ExitCode;

use crate::hunt::refusal::Refusal;
use crate::io::OutputsError;
use crate::pack::PackSettings;

/// An argument a command refuses, worded: one that breaks a rule of the arguments (an
/// option that does nothing in the mode chosen, a budget that tries nothing, index bits a
/// square cannot have), or that the file it goes with cannot take (a budget below the
/// resumed state's).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadArgument(pub String);

impl fmt::Display for BadArgument {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Why a command failed, worded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Failure {
    /// A bad argument ([`BadArgument`]): exit code 2.
    BadArgument(String),
    /// Anything else: exit code 1.
    Failed(String),
}

impl Failure {
    /// The exit code of a bad argument, as clap's usage errors have it.
    pub const BAD_ARGUMENT: u8 = 2;

    /// Returns the exit code the command ends with.
    pub fn exit_code(&self) -> ExitCode {
        match self {
            Failure::BadArgument(_) => ExitCode::from(Failure::BAD_ARGUMENT),
            Failure::Failed(_) => ExitCode::FAILURE,
        }
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::BadArgument(what) | Failure::Failed(what) => f.write_str(what),
        }
    }
}

impl From<String> for Failure {
    fn from(what: String) -> Failure {
        Failure::Failed(what)
    }
}

impl From<BadArgument> for Failure {
    fn from(bad: BadArgument) -> Failure {
        Failure::BadArgument(bad.0)
    }
}

impl From<Refusal> for BadArgument {
    fn from(refusal: Refusal) -> BadArgument {
        BadArgument(refusal.to_string())
    }
}

impl From<Refusal> for Failure {
    fn from(refusal: Refusal) -> Failure {
        BadArgument::from(refusal).into()
    }
}

impl<L: fmt::Display> From<OutputsError<L>> for Failure {
    fn from(e: OutputsError<L>) -> Failure {
        Failure::Failed(e.to_string())
    }
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
            Refusal::Unfit(why) => f.write_str(why),
        }
    }
}
