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
    /// Every loop mode, in menu order.
    pub const ALL: [LoopMode; 3] = [LoopMode::Once, LoopMode::Repeat, LoopMode::PingPong];

    /// The name shown in menus: `once`, `repeat` or `ping-pong`.
    pub fn name(self) -> &'static str {
        match self {
            LoopMode::Once => "once",
            LoopMode::Repeat => "repeat",
            LoopMode::PingPong => "ping-pong",
        }
    }

    /// The three.js constant.
    pub fn code(self) -> u32 {
        match self {
            LoopMode::Once => 2200,
            LoopMode::Repeat => 2201,
            LoopMode::PingPong => 2202,
        }
    }
}
