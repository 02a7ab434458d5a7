//! A set file beyond its set, for programs that read or write one: what its header records
//! of how the set was made ([`Provenance`], its commands as [`Step`]s, each recorded from
//! the [`Argument`]s of a run, a command line that does not read as a [`StepError`], the
//! [`Credit`]s of other authors' magics and their [`Squares`]), a set read with its header
//! ([`CreditedSet`]), where each entry was read ([`EntryLines`]), and which of the hunt's
//! files a reader was given in place of a set ([`HuntFile`]).

pub use crate::io::{
    Argument, Credit, CreditedSet, EntryLines, HuntFile, Provenance, Squares, Step, StepError,
};
