#![no_main]
//! See `clack_fuzz::convert`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| clack_fuzz::convert::run(data));
