//! Fuzz target `round_trip`: see `clipscope_fuzz::checks::round_trip`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| clipscope_fuzz::checks::round_trip(data));
