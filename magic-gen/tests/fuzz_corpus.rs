//! Replays the committed inputs of magic-gen's fuzz targets (`interchange`, and with the
//! search: `state`, `checkpoint`) through the same checks as the fuzzer (fuzz/checks/),
//! without libfuzzer, as fuzz/replay.rs says.

#[path = "../../fuzz/checks/interchange.rs"]
mod interchange;

#[cfg(feature = "search")]
#[path = "../../fuzz/checks/checkpoint.rs"]
mod checkpoint;
#[cfg(feature = "search")]
#[path = "../../fuzz/checks/state.rs"]
mod state;

#[path = "../../fuzz/replay.rs"]
mod replay;

use replay::replay;

/// The fuzz folder, whose committed inputs these tests replay.
const FUZZ: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../fuzz");

#[test]
fn interchange_fuzz_corpus_and_crashes_replay_cleanly() {
    replay(FUZZ, "interchange", interchange::check);
}

#[cfg(feature = "search")]
#[test]
fn state_fuzz_corpus_and_crashes_replay_cleanly() {
    replay(FUZZ, "state", state::check);
}

#[cfg(feature = "search")]
#[test]
fn checkpoint_fuzz_corpus_and_crashes_replay_cleanly() {
    replay(FUZZ, "checkpoint", checkpoint::check);
}
