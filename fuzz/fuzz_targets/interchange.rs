//! The two set readers (interchange text and emitted Rust) on arbitrary bytes; see
//! `checks/interchange.rs`.
#![no_main]

#[path = "../checks/interchange.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::check(data));
