#![no_main]
//! See `clack_fuzz::store`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| clack_fuzz::store::run(data));
