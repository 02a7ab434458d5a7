//! Replays a fuzz target's committed inputs through its check (`checks/<target>.rs`),
//! without libfuzzer: the seeds (`seeds/<target>/`: hand-made, or files of small real
//! runs), the minimised corpus the fuzzer found (`corpus/<target>/`) and every crash it ever
//! found (`artifacts/<target>/`, committed as regression inputs). Shared by the regression
//! tests of both crates (tests/fuzz_corpus.rs, magic-gen/tests/fuzz_corpus.rs), which
//! include it by path, as they include the checks.

use std::fs;
use std::path::Path;

/// Runs `check` on every committed input of fuzz target `target` under `fuzz` (this
/// folder); fails if there is none.
pub fn replay(fuzz: impl AsRef<Path>, target: &str, check: fn(&[u8])) {
    let fuzz = fuzz.as_ref();
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
