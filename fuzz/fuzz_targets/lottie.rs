//! Fuzz target `lottie`: see `clipscope_fuzz::checks::lottie`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| clipscope_fuzz::checks::lottie(data));
