//! Fuzz target `threejs_legacy`: see `clipscope_fuzz::checks::threejs_legacy`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| clipscope_fuzz::checks::threejs_legacy(data));
