//! Fuzz target `config_toml`: see `clipscope_fuzz::checks::config_toml`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| clipscope_fuzz::checks::config_toml(data));
