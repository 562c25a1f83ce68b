//! Fuzz target `packed`: see `clipscope_fuzz::checks::packed`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| clipscope_fuzz::checks::packed(data));
