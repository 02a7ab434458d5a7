//! magic-gen: search, verify and emit magic-bitboard sets.
//!
//! The core (geometry, index functions, verification, table fill, reading and writing
//! sets) has no dependencies, so the runtime crate's `build.rs` uses it with
//! `default-features = false`. The search (feature `search`) and the command-line tool
//! (feature `cli`) sit on top.
//!
//! The core's sets, geometry, verification, and the reading and writing of set files are
//! reached from the crate root (`magic_gen::verify`, `magic_gen::read_set_file`); what a
//! set file holds beside its set (the header's provenance, where each entry was read) is in
//! [`set_file`]. A hunt runs through [`hunt::Hunt`], a list of typed stages; its parts are
//! modules: [`search`] the options, the scan's state and its progress, [`pack`] the
//! packing's settings and checkpoints. [`measure`]: each square's slots used and the free
//! slots at its range's ends, of a set or a hunt's pools, and two compared. Private to the
//! crate: `io`, every file read or written (sets in the core; states and checkpoints with
//! the search), `annealing`, the rule the scan's clump climb and the packer share, and
//! `settings`, each setting declared once for the options, the files and the messages.
//! `cli` (feature `cli`, left out of these docs) is the command-line tool the `magic-gen`
//! binary runs: inside the crate, so what only the commands use stays private to it. The
//! details of an error or of how a hunt ended (an entry's fault, a collision, a setting a
//! checkpoint differs in, where a stop cut a hunt) are read through the values that hold
//! them, not named.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod geometry;
mod index;
mod picture;
mod set;
mod verify;

mod io;
pub mod measure;
pub mod set_file;

pub use geometry::{
    empty_board_attacks, parse_square, relevant_mask, slow_attacks, square_name, subsets, Piece,
    SetSquare,
};
pub use index::{pdep, pext, table_index, Variant};
pub use set::{Entry, MagicSet};
pub use verify::{verify, Failure, Report, Verified};

pub use io::{
    read_set_file, read_set_stream, render_set_file, set_from_magics, write_interchange, Magic,
    ReadError,
};
#[cfg(feature = "search")]
mod annealing;
#[cfg(feature = "cli")]
#[doc(hidden)]
pub mod cli;
#[cfg(feature = "search")]
pub mod hunt;
#[cfg(feature = "search")]
mod occupancy;
#[cfg(feature = "search")]
pub mod pack;
#[cfg(feature = "search")]
mod polish;
#[cfg(feature = "search")]
pub mod search;
#[cfg(feature = "search")]
pub(crate) mod settings;
#[cfg(feature = "search")]
mod stages;
#[cfg(feature = "search")]
mod threads;

#[cfg(all(test, feature = "search"))]
mod tests;
