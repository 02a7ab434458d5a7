//! `Square` conversions on arbitrary input; see `checks/square.rs`.
#![no_main]

#[path = "../checks/square.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::check(data));
