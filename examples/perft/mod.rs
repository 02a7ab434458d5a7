//! A legal move generator and perft on the `magic_bitboards` attack tables.
//!
//! Shared by `examples/perft.rs`, `tests/perft.rs` and `benches/perft.rs` through
//! `#[path = ".../perft/mod.rs"] mod chess;`; each includer uses a different subset.
#![allow(dead_code, unused_imports)]

pub mod attacks;
pub mod board;
pub mod fen;
pub mod movegen;

pub use board::{Board, Move};
pub use fen::{parse as parse_fen, FenError};
pub use movegen::{divide, legal_moves, perft};
