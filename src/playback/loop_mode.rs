//! How an action continues past the end of its clip (three.js `LoopOnce`, `LoopRepeat`,
//! `LoopPingPong`).

/// The loop mode of an action.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LoopMode {
    /// `LoopOnce` (2200): play once and finish.
    Once,
    /// `LoopRepeat` (2201): start over from the beginning, `repetitions` times; the default.
    #[default]
    Repeat,
    /// `LoopPingPong` (2202): play forwards, then backwards, and so on.
    PingPong,
}

impl LoopMode {
    /// The three.js constant.
    pub fn code(self) -> u32 {
        match self {
            LoopMode::Once => 2200,
            LoopMode::Repeat => 2201,
            LoopMode::PingPong => 2202,
        }
    }
}
