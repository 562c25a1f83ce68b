//! Fuzz target `threejs`: see `clipscope_fuzz::checks::threejs`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| clipscope_fuzz::checks::threejs(data));
