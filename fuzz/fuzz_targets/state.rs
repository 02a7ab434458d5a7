//! The search state reader on arbitrary bytes; see `checks/state.rs`.
#![no_main]

#[path = "../checks/state.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::check(data));
