//! The two set readers (interchange text and emitted Rust) on arbitrary bytes: they must
//! return `Err`, never panic, and whatever they accept must go through `verify` (and the
//! writers) without panicking either.
#![no_main]

use libfuzzer_sys::fuzz_target;
use magic_gen::{emit, parse_interchange, verify, write_interchange};

fuzz_target!(|data: &[u8]| {
    if let Ok(set) = parse_interchange("fuzz.txt", data) {
        check(&set);
    }
    if let Ok((set, _provenance)) = emit::parse_emitted("fuzz.rs", data) {
        check(&set);
    }
});

fn check(set: &magic_gen::MagicSet) {
    // What was read must be written back to the same set.
    let text = write_interchange(set, &[]);
    let again = parse_interchange("again.txt", text.as_bytes()).expect("written set reads back");
    assert_eq!(&again, set);
    if let Ok(verified) = verify(set) {
        let rust = emit::emit_rust(set, &verified.report, &Default::default());
        let (back, _) =
            emit::parse_emitted("again.rs", rust.as_bytes()).expect("emitted set reads back");
        assert_eq!(&back, set);
    }
}
