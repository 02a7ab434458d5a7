//! What the `interchange` fuzz target checks on one input, shared with the regression test
//! that replays the corpus and every crash (magic-gen/tests/fuzz_corpus.rs): the set reader
//! (emitted Rust where the input has a `pub const VARIANT` line, else interchange text)
//! returns `Err`, never panics, and a set it accepts goes through `verify` and the writers,
//! and reads back unchanged.

use std::path::Path;

use magic_gen::{read_set_stream, render_set_file, verify, write_interchange, MagicSet};

pub fn check(data: &[u8]) {
    if let Ok((set, _, _)) = read_set_stream("fuzz", data) {
        check_set(&set);
    }
}

fn check_set(set: &MagicSet) {
    let text = write_interchange(set, &[]);
    let (again, _, _) =
        read_set_stream("again.txt", text.as_bytes()).expect("written set reads back");
    assert_eq!(&again, set);
    if let Ok(verified) = verify(set) {
        let rust = render_set_file(
            Path::new("again.rs"),
            set,
            &verified.report,
            &Default::default(),
        );
        let (back, _, _) =
            read_set_stream("again.rs", rust.as_bytes()).expect("emitted set reads back");
        assert_eq!(&back, set);
    }
}
