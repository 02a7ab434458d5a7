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
    empty_board_attacks, parse_square, relevant_mask, slow_attacks, square_name, subsets, Piece,
};
pub use index::{pdep, pext, Variant};
pub use set::{Entry, MagicSet};
pub use verify::{verify, Collision, Failure, Report, Verified};
pub mod emit;
pub mod interchange;

pub use emit::{emit_rust, set_from_magics, Magic, Provenance};
pub use interchange::{parse_interchange, read_set_file, write_interchange, ReadError};
#[cfg(feature = "search")]
pub mod search;
