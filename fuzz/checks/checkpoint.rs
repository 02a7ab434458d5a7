//! What the `checkpoint` fuzz target checks on one input, shared with the regression test
//! that replays the corpus and every crash (magic-gen/tests/fuzz_corpus.rs): the pack
//! checkpoint reader (`PackCheckpoint::parse_file`, what `pack --resume` reads after a
//! crash) returns `Err`, never panics; a checkpoint it accepts writes back to text that reads
//! back equal, and resuming the packing of the published black set from it (the set the
//! seeds were saved from, so their pools match and a damaged place or member is what gets
//! tried) either packs a verified set or refuses, never panics.

use magic_gen::hunt::{Hooks, Hunt};
use magic_gen::pack::PackCheckpoint;
use magic_gen::search::Limits;
use magic_gen::{read_set_stream, verify};

/// The set the seeds' checkpoints pack (magic-gen/tests/data/published-black-87988.txt).
const SET: &[u8] = include_bytes!("../../magic-gen/tests/data/published-black-87988.txt");

/// Moves a resume may have left: more would make an input slow, not test more.
const MOST_MOVES_LEFT: u64 = 64;

pub fn check(data: &[u8]) {
    let Ok(packings) = PackCheckpoint::parse_file("fuzz.pack", data) else {
        return;
    };
    let text = PackCheckpoint::file_text(&packings);
    let again = PackCheckpoint::parse_file("again.pack", text.as_bytes())
        .expect("a written checkpoint reads back");
    assert_eq!(again, packings);
    let limits = Limits {
        pack: packings[0].settings,
        ..Limits::default()
    };
    let left: u64 = packings
        .iter()
        .map(|p| p.settings.iterations - p.moves)
        .sum();
    if left > MOST_MOVES_LEFT {
        return;
    }
    let (set, _, _) =
        read_set_stream("published-black-87988.txt", SET).expect("the seeds' set reads");
    let report = verify(&set).expect("the seeds' set verifies").report;
    let hunt = Hunt::repack(&set, &report, &limits).resuming(&packings);
    // The hunt verifies its packing before it compares it with the input: a packing that
    // fails is its internal error, a checkpoint that does not fit is refused.
    match hunt.run(Hooks::default()) {
        Ok(out) => assert!(
            verify(&out.set).is_ok(),
            "a resumed packing gave a set that fails verification"
        ),
        Err(e) => assert!(
            !e.to_string().starts_with("internal"),
            "a resumed packing gave a set that fails verification: {e}"
        ),
    }
}
