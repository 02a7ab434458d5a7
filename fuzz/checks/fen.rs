//! What the `fen` fuzz target checks on one input, shared with the regression test
//! (tests/fuzz_corpus.rs). The includer provides the `perft` crate as
//! `crate::chess`. The FEN parser returns `Err`, never panics; an accepted position prints
//! back to a FEN that parses to the same board, and move generation on it (legal moves,
//! perft 2) does not panic: the parser promises that every position it accepts fits the
//! generator's fixed-size move list.

use crate::chess;

pub fn check(data: &[u8]) {
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
}
