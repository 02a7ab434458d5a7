//! Replays the `interchange` fuzz target's committed inputs through the same checks as the
//! fuzzer (fuzz/checks/interchange.rs), without libfuzzer: the hand-made seeds
//! (`fuzz/seeds/interchange/`), the minimised corpus the fuzzer found
//! (`fuzz/corpus/interchange/`) and every crash it ever found (`fuzz/artifacts/interchange/`,
//! committed as regression inputs).

#[path = "../../fuzz/checks/interchange.rs"]
mod checks;

use std::fs;
use std::path::Path;

#[test]
fn interchange_fuzz_corpus_and_crashes_replay_cleanly() {
    let fuzz = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz");
    let mut n = 0;
    for dir in ["seeds", "corpus", "artifacts"] {
        let Ok(entries) = fs::read_dir(fuzz.join(dir).join("interchange")) else {
            continue;
        };
        for entry in entries {
            let path = entry.unwrap().path();
            let data = fs::read(&path).unwrap();
            println!("{}", path.display());
            checks::check(&data);
            n += 1;
        }
    }
    assert!(
        n > 0,
        "no committed fuzz inputs found under {}",
        fuzz.display()
    );
}
