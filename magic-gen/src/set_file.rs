//! A set file beyond its set, for programs that read or write one: what its header records
//! of how the set was made ([`Provenance`], its commands as [`Step`]s, the [`Credit`]s of
//! other authors' magics and their [`Squares`]), and where each entry was read
//! ([`EntryLines`]).

pub use crate::io::{Credit, EntryLines, Provenance, Squares, Step};
