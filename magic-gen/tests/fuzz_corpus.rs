//! Replays the committed inputs of magic-gen's fuzz targets (`interchange`, and with the
//! search: `state`, `checkpoint`) through the same checks as the fuzzer (fuzz/checks/),
//! without libfuzzer: the seeds (`fuzz/seeds/<target>/`: hand-made, or files of small real
//! runs), the minimised corpus the fuzzer found (`fuzz/corpus/<target>/`) and every crash it
//! ever found (`fuzz/artifacts/<target>/`, committed as regression inputs).

#[path = "../../fuzz/checks/interchange.rs"]
mod interchange;

#[cfg(feature = "search")]
#[path = "../../fuzz/checks/checkpoint.rs"]
mod checkpoint;
#[cfg(feature = "search")]
#[path = "../../fuzz/checks/state.rs"]
mod state;

use std::fs;
use std::path::Path;

/// Runs `check` on every committed input of fuzz target `target`; fails if there is none.
fn replay(target: &str, check: fn(&[u8])) {
    let fuzz = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz");
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
    assert!(
        n > 0,
        "no committed fuzz inputs of {target} found under {}",
        fuzz.display()
    );
}

#[test]
fn interchange_fuzz_corpus_and_crashes_replay_cleanly() {
    replay("interchange", interchange::check);
}

#[cfg(feature = "search")]
#[test]
fn state_fuzz_corpus_and_crashes_replay_cleanly() {
    replay("state", state::check);
}

#[cfg(feature = "search")]
#[test]
fn checkpoint_fuzz_corpus_and_crashes_replay_cleanly() {
    replay("checkpoint", checkpoint::check);
}
