//! Replays the `square` and `fen` fuzz targets' committed inputs through the same checks as
//! the fuzzer (fuzz/checks/), without libfuzzer: the hand-made seeds (`fuzz/seeds/<target>/`),
//! the minimised corpus the fuzzer found (`fuzz/corpus/<target>/`) and every crash it ever
//! found (`fuzz/artifacts/<target>/`, committed as regression inputs). The `interchange` target's
//! inputs are replayed by magic-gen/tests/fuzz_corpus.rs.

#![cfg(not(miri))]

use perft as chess;
#[path = "../fuzz/checks/fen.rs"]
mod fen;
#[path = "../fuzz/checks/square.rs"]
mod square;

use std::fs;
use std::path::Path;

fn replay(target: &str, check: fn(&[u8])) {
    let fuzz = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz");
    let mut n = 0;
    for dir in ["seeds", "corpus", "artifacts"] {
        let Ok(entries) = fs::read_dir(fuzz.join(dir).join(target)) else {
            continue;
        };
        for entry in entries {
            let path = entry.unwrap().path();
            let data = fs::read(&path).unwrap();
            println!("{}", path.display());
            check(&data);
            n += 1;
        }
    }
    assert!(n > 0, "no committed {target} fuzz inputs");
}

#[test]
fn square_fuzz_corpus_and_crashes_replay_cleanly() {
    replay("square", square::check);
}

#[test]
fn fen_fuzz_corpus_and_crashes_replay_cleanly() {
    replay("fen", fen::check);
}
