//! Fuzz target `baseline`: see `clipscope_fuzz::checks::baseline`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| clipscope_fuzz::checks::baseline(data));
