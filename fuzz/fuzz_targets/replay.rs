#![no_main]
//! See `clack_fuzz::replay`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| clack_fuzz::replay::run(data));
