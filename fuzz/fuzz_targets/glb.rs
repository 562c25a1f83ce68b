//! Fuzz target `glb`: see `clipscope_fuzz::checks::glb`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| clipscope_fuzz::checks::glb(data));
