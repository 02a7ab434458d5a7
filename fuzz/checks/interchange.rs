//! What the `interchange` fuzz target checks on one input, shared with the regression test
//! that replays the corpus and every crash (magic-gen/tests/fuzz_corpus.rs): the two set
//! readers (interchange text and emitted Rust) return `Err`, never panic, and a set either
//! accepts goes through `verify` and the writers, and reads back unchanged.

use magic_gen::{emit_rust, parse_emitted, parse_interchange, verify, write_interchange, MagicSet};

pub fn check(data: &[u8]) {
    if let Ok(set) = parse_interchange("fuzz.txt", data) {
        check_set(&set);
    }
    if let Ok((set, _provenance)) = parse_emitted("fuzz.rs", data) {
        check_set(&set);
    }
}

fn check_set(set: &MagicSet) {
    let text = write_interchange(set, &[]);
    let again = parse_interchange("again.txt", text.as_bytes()).expect("written set reads back");
    assert_eq!(&again, set);
    if let Ok(verified) = verify(set) {
        let rust = emit_rust(set, &verified.report, &Default::default());
        let (back, _) = parse_emitted("again.rs", rust.as_bytes()).expect("emitted set reads back");
        assert_eq!(&back, set);
    }
}
