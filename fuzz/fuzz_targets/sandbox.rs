#![no_main]
//! See `clack_fuzz::sandbox`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| clack_fuzz::sandbox::run(data));
