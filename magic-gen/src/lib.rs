//! magic-gen: search, verify and emit magic-bitboard sets.
//!
//! The core (geometry, index functions, verification, table fill, reading and writing
//! sets) has no dependencies, so the runtime crate's `build.rs` uses it with
//! `default-features = false`. The search (feature `search`) and the command-line tool
//! (feature `cli`) sit on top.

#![forbid(unsafe_code)]

pub mod geometry;
pub mod index;
pub mod set;
pub mod verify;

pub use geometry::{
    empty_board_attacks, parse_square, relevant_bits, relevant_mask, slow_attacks, square_name,
    subsets, Piece,
};
pub use index::{pdep, pext, Variant};
pub use set::{Entry, MagicSet};
pub use verify::{verify, Collision, Failure, Report, Verified};
mod format;

pub use format::{
    emit_rust, magic_of, parse_emitted, parse_interchange, read_set_file, render_set_file,
    set_from_magics, write_interchange, Magic, Provenance, ReadError, MAX_FILE_BYTES,
};
#[cfg(feature = "search")]
pub mod search;
