//! A legal move generator and perft on the `magic_bitboards` attack tables: the
//! end-to-end check of the tables (tests/perft.rs, against the published counts), and
//! what the perft benchmark (benches/perft.rs) and the `fen` fuzz target run.
//!
//! ```
//! let board = perft::Board::startpos();
//! assert_eq!(perft::perft(&board, 3), 8902);
//! ```

pub mod attacks;
pub mod board;
pub mod fen;
pub mod movegen;

pub use attacks::{CrateLevel, Sliders};
pub use board::{Board, Move};
pub use fen::{parse as parse_fen, FenError};
pub use movegen::{divide, legal_moves, legal_moves_with, perft, perft_with};
