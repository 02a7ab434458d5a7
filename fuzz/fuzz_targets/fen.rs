//! The `perft` crate's FEN parser and move generator on arbitrary text; see `checks/fen.rs`.
#![no_main]

#[path = "../checks/fen.rs"]
mod checks;
use perft as chess;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::check(data));
