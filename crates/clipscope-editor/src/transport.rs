//! Playback state: the playhead time, play/pause, loop mode, speed and the frame grid.
//!
//! [`Transport`] is plain data without any GUI: the app advances it once per frame with the
//! elapsed wall-clock time, the timeline panel draws and scrubs it, and keyboard shortcuts call
//! its stepping and key-navigation methods. Times are seconds in clip time.

/// Time tolerance (seconds) below which two times count as the same instant: key navigation
/// skips keys this close to the playhead, and frame snapping absorbs float noise.
pub(crate) const TIME_EPSILON: f64 = 1e-6;

/// What playback does at the ends of the clip: the same loop modes as the mixer's actions
/// (once stops at the end, or at the start when the speed is negative; repeat wraps; ping-pong
/// bounces).
pub use clipscope_core::playback::LoopMode;

/// The playhead and how it moves.
#[derive(Debug, Clone, PartialEq)]
pub struct Transport {
    /// Playhead time (seconds), within `[0, duration]` of the clip being played.
    pub time: f64,
    /// Whether [`advance`](Transport::advance) moves the playhead.
    pub playing: bool,
    /// What happens at the ends of the clip.
    pub loop_mode: LoopMode,
    /// Playback rate: 1 is real time, 0.5 half speed, negative plays backwards.
    pub speed: f64,
    /// Frames per second of the frame grid used for stepping, snapping and the frame readout.
    pub fps: f64,
    /// The play range `(start, end)` in seconds, if one is set: playback loops, bounces or stops
    /// inside it, and frame stepping, start and end stay inside it (see
    /// [`bounds`](Transport::bounds)).
    pub range: Option<(f64, f64)>,
    /// +1 or −1: the current leg of a ping-pong (multiplies `speed`); +1 otherwise.
    direction: f64,
}

impl Default for Transport {
    fn default() -> Self {
        Transport {
            time: 0.0,
            playing: false,
            loop_mode: LoopMode::Repeat,
            speed: 1.0,
            fps: 30.0,
            range: None,
            direction: 1.0,
        }
    }
}

impl Transport {
    /// The part of `[0, duration]` the playhead moves in: the play range clipped to the clip,
    /// or the whole clip without a range (or with one that has no length inside the clip).
    pub fn bounds(&self, duration: f64) -> (f64, f64) {
        let duration = sanitize_duration(duration);
        match self.range {
            Some((a, b)) if a.is_finite() && b.is_finite() => {
                let (lo, hi) = (a.min(b).clamp(0.0, duration), a.max(b).clamp(0.0, duration));
                if hi > lo { (lo, hi) } else { (0.0, duration) }
            }
            _ => (0.0, duration),
        }
    }

    /// Sets the play range to `[start, end]` (in either order); a range without length clears
    /// it. The playhead moves into it.
    pub fn set_range(&mut self, start: f64, end: f64) {
        let (lo, hi) = (start.min(end), start.max(end));
        self.range = (hi > lo && lo.is_finite() && hi.is_finite()).then_some((lo, hi));
        if let Some((lo, hi)) = self.range {
            self.time = self.time.clamp(lo, hi);
        }
    }

    /// Moves the playhead by `dt_seconds` of wall-clock time at [`speed`](Transport::speed)
    /// when playing, applying the loop mode at the ends of the [`bounds`](Transport::bounds)
    /// (the play range, else `[0, duration]`). A clip without duration keeps the playhead at 0.
    pub fn advance(&mut self, dt_seconds: f64, duration: f64) {
        if !self.playing {
            return;
        }
        let (lo, hi) = self.bounds(duration);
        self.time = if self.time.is_finite() {
            self.time.clamp(lo, hi) - lo
        } else {
            0.0
        };
        self.advance_within(dt_seconds, hi - lo);
        self.time += lo;
    }

    /// [`advance`](Transport::advance) over `[0, duration]`.
    fn advance_within(&mut self, dt_seconds: f64, duration: f64) {
        let duration = sanitize_duration(duration);
        if duration == 0.0 {
            self.time = 0.0;
            return;
        }
        if !dt_seconds.is_finite() || !self.speed.is_finite() {
            return;
        }
        if self.loop_mode != LoopMode::PingPong {
            self.direction = 1.0;
        }
        self.time = if self.time.is_finite() {
            self.time.clamp(0.0, duration)
        } else {
            0.0
        };
        let target = self.time + dt_seconds * self.speed;
        match self.loop_mode {
            LoopMode::Once => {
                if self.speed > 0.0 && target >= duration {
                    self.time = duration;
                    self.playing = false;
                } else if self.speed < 0.0 && target <= 0.0 {
                    self.time = 0.0;
                    self.playing = false;
                } else {
                    self.time = target.clamp(0.0, duration);
                }
            }
            LoopMode::Repeat => {
                let wrapped = target.rem_euclid(duration);
                // `rem_euclid` of a tiny negative number can round up to `duration` itself.
                self.time = if wrapped < duration { wrapped } else { 0.0 };
            }
            LoopMode::PingPong => {
                // Unfold the bounce into one coordinate that moves steadily at `speed`: over a
                // period of 2·duration it runs 0 → d on the forward leg and d → 2d on the return
                // leg, where the playhead goes back from d to 0.
                let period = 2.0 * duration;
                let unfolded = if self.direction >= 0.0 {
                    self.time
                } else {
                    period - self.time
                };
                let phase = (unfolded + dt_seconds * self.speed).rem_euclid(period);
                if phase <= duration {
                    self.time = phase;
                    self.direction = 1.0;
                } else {
                    self.time = period - phase;
                    self.direction = -1.0;
                }
            }
        }
    }

    /// Starts or pauses playback. Pressing play at the end of a [`LoopMode::Once`] clip (or at
    /// its start when the speed is negative) starts again from the other end.
    pub fn toggle_play(&mut self, duration: f64) {
        if self.playing {
            self.playing = false;
            return;
        }
        let (lo, hi) = self.bounds(duration);
        if self.loop_mode == LoopMode::Once {
            if self.speed >= 0.0 && self.time >= hi - TIME_EPSILON {
                self.time = lo;
            } else if self.speed < 0.0 && self.time <= lo + TIME_EPSILON {
                self.time = hi;
            }
        }
        self.playing = true;
    }

    /// Moves the playhead `n` frames (negative: backwards) on the frame grid of
    /// [`fps`](Transport::fps): from a time between frames the first step lands on the
    /// neighbouring grid frame. The result is clamped to the [`bounds`](Transport::bounds).
    pub fn step_frames(&mut self, n: i64, duration: f64) {
        let (lo, hi) = self.bounds(duration);
        if self.fps <= 0.0 || !self.fps.is_finite() {
            return;
        }
        let frame = self.time * self.fps;
        let nearest = frame.round();
        // On the grid (within float noise) start from that frame; otherwise the floor (going
        // forwards) or ceiling (going backwards) so one step reaches the next grid frame.
        let base = if (frame - nearest).abs() < TIME_EPSILON * self.fps.max(1.0) {
            nearest
        } else if n >= 0 {
            frame.floor()
        } else {
            frame.ceil()
        };
        let target = (base + n as f64) / self.fps;
        self.time = target.clamp(lo, hi);
    }

    /// Puts the playhead at the start of the play range, or of the clip.
    pub fn go_start(&mut self) {
        self.time = self.range.map_or(0.0, |(lo, _)| lo.max(0.0));
    }

    /// Puts the playhead at the end of the play range, or of the clip.
    pub fn go_end(&mut self, duration: f64) {
        self.time = self.bounds(duration).1;
    }

    /// The first key time strictly after the playhead (by more than `TIME_EPSILON`), if any.
    pub fn next_key(&self, key_times: impl Iterator<Item = f32>) -> Option<f64> {
        key_times
            .map(f64::from)
            .filter(|t| t.is_finite() && *t > self.time + TIME_EPSILON)
            .min_by(f64::total_cmp)
    }

    /// The last key time strictly before the playhead (by more than `TIME_EPSILON`), if any.
    pub fn prev_key(&self, key_times: impl Iterator<Item = f32>) -> Option<f64> {
        key_times
            .map(f64::from)
            .filter(|t| t.is_finite() && *t < self.time - TIME_EPSILON)
            .max_by(f64::total_cmp)
    }

    /// The playhead position in frames (`time · fps`), fractional between grid frames.
    pub fn frame(&self) -> f64 {
        self.time * self.fps
    }

    /// Whether the playhead currently moves backwards in clip time (negative speed, or the
    /// return leg of a ping-pong).
    pub fn moving_backwards(&self) -> bool {
        self.speed * self.direction < 0.0
    }

    /// Snaps `time` to the nearest frame of the frame grid (unchanged when `fps` is not
    /// positive).
    pub fn snap_to_frame(&self, time: f64) -> f64 {
        if self.fps > 0.0 && self.fps.is_finite() {
            (time * self.fps).round() / self.fps
        } else {
            time
        }
    }
}

/// A duration usable for playback: negative or non-finite durations count as 0.
fn sanitize_duration(duration: f64) -> f64 {
    if duration.is_finite() && duration > 0.0 {
        duration
    } else {
        0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    fn playing(loop_mode: LoopMode, time: f64, speed: f64) -> Transport {
        Transport {
            time,
            playing: true,
            loop_mode,
            speed,
            ..Transport::default()
        }
    }

    #[test]
    fn default_is_paused_at_zero_repeating_at_real_time_and_30_fps() {
        let t = Transport::default();
        assert_eq!(t.time, 0.0);
        assert!(!t.playing);
        assert_eq!(t.loop_mode, LoopMode::Repeat);
        assert_eq!(t.speed, 1.0);
        assert_eq!(t.fps, 30.0);
        assert!(!t.moving_backwards());
    }

    #[test]
    fn loop_mode_names_and_order() {
        let names: Vec<_> = LoopMode::ALL.iter().map(|m| m.name()).collect();
        assert_eq!(names, ["once", "repeat", "ping-pong"]);
        assert_eq!(LoopMode::default(), LoopMode::Repeat);
    }

    #[test]
    fn paused_transport_does_not_move() {
        let mut t = Transport {
            time: 0.3,
            ..Transport::default()
        };
        t.advance(0.5, 1.0);
        assert_eq!(t.time, 0.3);
    }

    #[test]
    fn advance_plays_at_speed() {
        let mut t = playing(LoopMode::Repeat, 0.1, 2.0);
        t.advance(0.1, 1.0);
        assert!(close(t.time, 0.3));
        t.speed = 0.5;
        t.advance(0.2, 1.0);
        assert!(close(t.time, 0.4));
    }

    #[test]
    fn repeat_wraps_forwards_and_backwards() {
        let mut t = playing(LoopMode::Repeat, 0.9, 1.0);
        t.advance(0.25, 1.0);
        assert!(close(t.time, 0.15), "{}", t.time);
        assert!(t.playing);
        // Several periods in one step.
        t.advance(3.5, 1.0);
        assert!(close(t.time, 0.65), "{}", t.time);
        // Backwards through 0 comes in at the end.
        let mut t = playing(LoopMode::Repeat, 0.1, -1.0);
        t.advance(0.3, 1.0);
        assert!(close(t.time, 0.8), "{}", t.time);
        assert!(t.playing);
    }

    #[test]
    fn repeat_backwards_by_a_hair_stays_inside_the_clip() {
        let mut t = playing(LoopMode::Repeat, 0.0, -1.0);
        t.advance(1e-18, 1.0);
        assert!(t.time >= 0.0 && t.time < 1.0, "{}", t.time);
    }

    #[test]
    fn repeat_reaching_the_end_exactly_wraps_to_start() {
        let mut t = playing(LoopMode::Repeat, 0.5, 1.0);
        t.advance(0.5, 1.0);
        assert!(close(t.time, 0.0), "{}", t.time);
    }

    #[test]
    fn once_stops_and_clamps_at_the_end() {
        let mut t = playing(LoopMode::Once, 0.8, 1.0);
        t.advance(0.1, 1.0);
        assert!(close(t.time, 0.9));
        assert!(t.playing);
        t.advance(0.5, 1.0);
        assert_eq!(t.time, 1.0);
        assert!(!t.playing);
    }

    #[test]
    fn once_with_negative_speed_stops_at_zero() {
        let mut t = playing(LoopMode::Once, 0.3, -2.0);
        assert!(t.moving_backwards());
        t.advance(0.1, 1.0);
        assert!(close(t.time, 0.1));
        t.advance(0.1, 1.0);
        assert_eq!(t.time, 0.0);
        assert!(!t.playing);
    }

    #[test]
    fn once_with_negative_speed_at_the_end_plays_backwards() {
        let mut t = playing(LoopMode::Once, 1.0, -1.0);
        t.advance(0.25, 1.0);
        assert!(close(t.time, 0.75));
        assert!(t.playing);
    }

    #[test]
    fn ping_pong_bounces_at_the_end_and_comes_back() {
        let mut t = playing(LoopMode::PingPong, 0.9, 1.0);
        t.advance(0.3, 1.0);
        assert!(close(t.time, 0.8), "{}", t.time);
        assert!(t.moving_backwards());
        t.advance(0.5, 1.0);
        assert!(close(t.time, 0.3), "{}", t.time);
        assert!(t.moving_backwards());
        // Bounce at the start: forwards again.
        t.advance(0.5, 1.0);
        assert!(close(t.time, 0.2), "{}", t.time);
        assert!(!t.moving_backwards());
        assert!(t.playing);
    }

    #[test]
    fn ping_pong_over_several_bounces_in_one_step() {
        // 0.5 + 2.7 unfolded = 3.2 → phase 1.2 of a 2 s period → return leg at 0.8.
        let mut t = playing(LoopMode::PingPong, 0.5, 1.0);
        t.advance(2.7, 1.0);
        assert!(close(t.time, 0.8), "{}", t.time);
        assert!(t.moving_backwards());
    }

    #[test]
    fn ping_pong_with_negative_speed_bounces_at_zero() {
        let mut t = playing(LoopMode::PingPong, 0.2, -1.0);
        assert!(t.moving_backwards());
        t.advance(0.5, 1.0);
        assert!(close(t.time, 0.3), "{}", t.time);
        assert!(!t.moving_backwards(), "time now grows");
        t.advance(0.2, 1.0);
        assert!(close(t.time, 0.5), "{}", t.time);
    }

    #[test]
    fn ping_pong_keeps_its_leg_across_pause() {
        let mut t = playing(LoopMode::PingPong, 0.9, 1.0);
        t.advance(0.2, 1.0);
        assert!(close(t.time, 0.9));
        t.toggle_play(1.0);
        t.toggle_play(1.0);
        t.advance(0.1, 1.0);
        assert!(close(t.time, 0.8), "still on the return leg: {}", t.time);
    }

    #[test]
    fn switching_away_from_ping_pong_plays_forwards_again() {
        let mut t = playing(LoopMode::PingPong, 0.9, 1.0);
        t.advance(0.2, 1.0);
        assert!(t.moving_backwards());
        t.loop_mode = LoopMode::Repeat;
        t.advance(0.05, 1.0);
        assert!(close(t.time, 0.95), "{}", t.time);
        assert!(!t.moving_backwards());
    }

    #[test]
    fn zero_or_invalid_duration_stays_at_zero() {
        for mode in LoopMode::ALL {
            for duration in [0.0, -1.0, f64::NAN, f64::INFINITY] {
                let mut t = playing(mode, 0.0, 1.0);
                t.advance(0.5, duration);
                assert_eq!(t.time, 0.0, "{mode:?} {duration}");
            }
        }
    }

    #[test]
    fn a_playhead_past_a_shortened_clip_is_pulled_back() {
        let mut t = playing(LoopMode::Once, 3.0, -1.0);
        t.advance(0.25, 1.0);
        assert!(close(t.time, 0.75), "{}", t.time);
    }

    #[test]
    fn toggle_play_pauses_and_resumes_in_place() {
        let mut t = Transport {
            time: 0.4,
            ..Transport::default()
        };
        t.toggle_play(1.0);
        assert!(t.playing);
        t.toggle_play(1.0);
        assert!(!t.playing);
        assert_eq!(t.time, 0.4);
    }

    #[test]
    fn play_at_the_end_of_a_once_clip_restarts() {
        let mut t = playing(LoopMode::Once, 0.9, 1.0);
        t.advance(1.0, 1.0);
        assert!(!t.playing);
        t.toggle_play(1.0);
        assert!(t.playing);
        assert_eq!(t.time, 0.0);
        // Backwards: restarts from the end.
        let mut t = Transport {
            time: 0.0,
            loop_mode: LoopMode::Once,
            speed: -1.0,
            ..Transport::default()
        };
        t.toggle_play(1.0);
        assert_eq!(t.time, 1.0);
        // Repeat mode at the end stays put (it wraps on its own).
        let mut t = Transport {
            time: 1.0,
            ..Transport::default()
        };
        t.toggle_play(1.0);
        assert_eq!(t.time, 1.0);
    }

    #[test]
    fn step_frames_moves_on_the_frame_grid() {
        let mut t = Transport::default();
        t.step_frames(1, 1.0);
        assert!(close(t.time, 1.0 / 30.0));
        t.step_frames(10, 1.0);
        assert!(close(t.time, 11.0 / 30.0));
        assert!(close(t.frame(), 11.0));
        t.step_frames(-3, 1.0);
        assert!(close(t.frame(), 8.0));
    }

    #[test]
    fn step_frames_from_between_frames_lands_on_the_neighbour() {
        // 0.05 s at 30 fps is frame 1.5.
        let mut t = Transport {
            time: 0.05,
            ..Transport::default()
        };
        t.step_frames(1, 1.0);
        assert!(close(t.frame(), 2.0), "{}", t.frame());
        t.time = 0.05;
        t.step_frames(-1, 1.0);
        assert!(close(t.frame(), 1.0), "{}", t.frame());
        t.time = 0.05;
        t.step_frames(0, 1.0);
        assert!(close(t.frame(), 1.0), "zero steps floors onto the grid");
    }

    #[test]
    fn step_frames_absorbs_float_noise() {
        // 0.1 s is 3 frames at 30 fps, but 0.1 * 30 is 3.0000000000000004.
        let mut t = Transport {
            time: 0.1,
            ..Transport::default()
        };
        t.step_frames(-1, 1.0);
        assert!(close(t.frame(), 2.0), "{}", t.frame());
        t.time = 0.1 - 1e-12;
        t.step_frames(1, 1.0);
        assert!(close(t.frame(), 4.0), "{}", t.frame());
    }

    #[test]
    fn step_frames_clamps_to_the_clip() {
        let mut t = Transport::default();
        t.step_frames(-5, 1.0);
        assert_eq!(t.time, 0.0);
        t.step_frames(1000, 1.0);
        assert_eq!(t.time, 1.0);
        // The last grid frame may be before a duration off the grid.
        t.go_end(0.63);
        t.step_frames(-1, 0.63);
        assert!(close(t.frame(), 18.0), "{}", t.frame());
        t.step_frames(1, 0.63);
        assert!(close(t.time, 0.63), "clamped to the duration: {}", t.time);
    }

    #[test]
    fn step_frames_at_other_frame_rates() {
        let mut t = Transport {
            fps: 24.0,
            ..Transport::default()
        };
        t.step_frames(6, 2.0);
        assert!(close(t.time, 0.25));
        t.fps = 0.0;
        t.step_frames(1, 2.0);
        assert!(close(t.time, 0.25), "no grid: no stepping");
    }

    #[test]
    fn go_start_and_end() {
        let mut t = Transport {
            time: 0.5,
            ..Transport::default()
        };
        t.go_end(2.0);
        assert_eq!(t.time, 2.0);
        t.go_start();
        assert_eq!(t.time, 0.0);
        t.go_end(-1.0);
        assert_eq!(t.time, 0.0);
    }

    #[test]
    fn next_and_previous_key_are_strict() {
        let keys = [0.0_f32, 0.25, 0.5, 0.5, 1.0];
        let mut t = Transport {
            time: 0.5,
            ..Transport::default()
        };
        assert_eq!(t.next_key(keys.iter().copied()), Some(1.0));
        assert_eq!(t.prev_key(keys.iter().copied()), Some(0.25));
        // Within the epsilon counts as on the key.
        t.time = 0.25 + 1e-9;
        assert_eq!(t.prev_key(keys.iter().copied()), Some(0.0));
        assert_eq!(t.next_key(keys.iter().copied()), Some(0.5));
        t.time = 1.0;
        assert_eq!(t.next_key(keys.iter().copied()), None);
        t.time = 0.0;
        assert_eq!(t.prev_key(keys.iter().copied()), None);
    }

    #[test]
    fn key_navigation_handles_unsorted_merged_rows_and_f32_times() {
        // Keys of several tracks chained together, not sorted, one of them NaN.
        let keys = [0.6_f32, 0.1, f32::NAN, 0.4, 0.9];
        let t = Transport {
            time: 0.45,
            ..Transport::default()
        };
        assert_eq!(t.next_key(keys.iter().copied()), Some(f64::from(0.6_f32)));
        assert_eq!(t.prev_key(keys.iter().copied()), Some(f64::from(0.4_f32)));
        // Jumping to an f32 key and asking again moves on instead of sticking.
        let t = Transport {
            time: f64::from(0.6_f32),
            ..Transport::default()
        };
        assert_eq!(t.next_key(keys.iter().copied()), Some(f64::from(0.9_f32)));
        assert_eq!(t.next_key(std::iter::empty()), None);
    }

    #[test]
    fn snap_to_frame_rounds_to_the_nearest_frame() {
        let t = Transport::default();
        assert!(close(t.snap_to_frame(0.049), 1.0 / 30.0));
        assert!(close(t.snap_to_frame(0.051), 2.0 / 30.0));
        let t = Transport {
            fps: 0.0,
            ..Transport::default()
        };
        assert_eq!(t.snap_to_frame(0.049), 0.049);
    }

    #[test]
    fn a_play_range_keeps_playback_and_stepping_inside_it() {
        let mut t = playing(LoopMode::Repeat, 0.0, 1.0);
        t.set_range(0.75, 0.25);
        assert_eq!(t.range, Some((0.25, 0.75)));
        assert_eq!(t.time, 0.25, "the playhead moves into the range");
        t.advance(0.3, 2.0);
        assert!(close(t.time, 0.55));
        t.advance(0.3, 2.0);
        assert!(close(t.time, 0.35), "wraps at the range's end: {}", t.time);
        t.loop_mode = LoopMode::Once;
        t.advance(1.0, 2.0);
        assert_eq!((t.time, t.playing), (0.75, false));
        t.toggle_play(2.0);
        assert_eq!(t.time, 0.25, "play again from the range's start");
        t.playing = false;
        t.step_frames(100, 2.0);
        assert_eq!(t.time, 0.75);
        t.step_frames(-100, 2.0);
        assert_eq!(t.time, 0.25);
        t.go_end(2.0);
        assert_eq!(t.time, 0.75);
        t.go_start();
        assert_eq!(t.time, 0.25);
        // A range past the clip is clipped to it; one with no length inside means the clip.
        t.range = Some((1.5, 9.0));
        assert_eq!(t.bounds(2.0), (1.5, 2.0));
        t.range = Some((5.0, 9.0));
        assert_eq!(t.bounds(2.0), (0.0, 2.0));
        t.set_range(1.0, 1.0);
        assert_eq!(t.range, None);
    }
}
