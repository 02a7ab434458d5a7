//! Replays the `square` and `fen` fuzz targets' committed inputs through the same checks as
//! the fuzzer (fuzz/checks/), without libfuzzer, as fuzz/replay.rs says. The `interchange`,
//! `state` and `checkpoint` targets' inputs are replayed by magic-gen/tests/fuzz_corpus.rs.

#![cfg(not(miri))]

use perft as chess;
#[path = "../fuzz/checks/fen.rs"]
mod fen;
#[path = "../fuzz/checks/square.rs"]
mod square;

#[path = "../fuzz/replay.rs"]
mod replay;

use replay::replay;

/// The fuzz folder, whose committed inputs these tests replay.
const FUZZ: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/fuzz");

#[test]
fn square_fuzz_corpus_and_crashes_replay_cleanly() {
    replay(FUZZ, "square", square::check);
}

#[test]
fn fen_fuzz_corpus_and_crashes_replay_cleanly() {
    replay(FUZZ, "fen", fen::check);
}
