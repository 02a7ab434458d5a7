//! The perft example's FEN parser on arbitrary text: `Err`, never a panic. An accepted
//! position must print back to a FEN that parses to the same board, and move generation
//! on it (perft 2, divide 1) must not panic: the parser promises that every position it
//! accepts fits the generator's fixed-size move list.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../examples/perft/mod.rs"]
mod chess;

fuzz_target!(|data: &[u8]| {
    let Ok(s) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(board) = chess::parse_fen(s) {
        let fen = board.to_fen();
        let again = chess::parse_fen(&fen).expect("printed FEN parses");
        assert_eq!(again.to_fen(), fen);
        let _ = chess::legal_moves(&board);
        let _ = chess::perft(&board, 2);
    }
});
