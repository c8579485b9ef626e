#![no_main]
//! See `clack_fuzz::rules`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| clack_fuzz::rules::run(data));
