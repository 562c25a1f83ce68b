//! Fuzz target `cycle`: see `clipscope_fuzz::checks::cycle`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| clipscope_fuzz::checks::cycle(data));
