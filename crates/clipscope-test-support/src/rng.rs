//! One seeded random generator for the fuzz-style tests: deterministic, no extra crate.

/// xorshift64 (shifts 13, 7, 17): the same seed gives the same numbers on every machine.
pub struct Rng(u64);

impl Rng {
    /// A generator starting from `seed` (zero, which xorshift never leaves, is replaced).
    pub fn new(seed: u64) -> Rng {
        Rng(if seed == 0 {
            0x9E37_79B9_7F4A_7C15
        } else {
            seed
        })
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let mut s = self.0;
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        self.0 = s;
        s
    }

    /// A number in `[0, 1)` from the top 24 bits of [`Rng::next_u64`].
    pub fn unit_f32(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32
    }
}
