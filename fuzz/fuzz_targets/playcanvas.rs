//! Fuzz target `playcanvas`: see `clipscope_fuzz::checks::playcanvas`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| clipscope_fuzz::checks::playcanvas(data));
