//! Fuzz target `gltf`: see `clipscope_fuzz::checks::gltf`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| clipscope_fuzz::checks::gltf(data));
