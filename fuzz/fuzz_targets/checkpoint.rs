//! The pack checkpoint reader on arbitrary bytes; see `checks/checkpoint.rs`.
#![no_main]

#[path = "../checks/checkpoint.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::check(data));
