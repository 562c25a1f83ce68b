//! One clip being played by a mixer (three.js `AnimationAction`): its time, speed, weight,
//! loop mode, fades and warps, and the per-frame update that samples the clip and hands the
//! values to the property mixers.
//!
//! An [`AnimationAction`] lives inside its [`Mixer`](super::Mixer) and is addressed by an
//! [`ActionId`]; the methods that need the mixer (play, stop, fades, warps, cross-fades) are on
//! [`ActionMut`](super::ActionMut). The fields three.js exposes as plain properties (`time`,
//! `time_scale`, `weight`, `loop_mode`, `repetitions`, `paused`, `enabled`, …) are public here
//! too; the ones three.js keeps private are read through accessors.
//!
//! The update follows `AnimationAction._update` statement by statement: start time, then
//! `_updateTimeScale` (warp), `_updateTime` (looping, endings, events), `_updateWeight` (fade),
//! and finally sampling every track into its property mixer with normal or additive
//! accumulation. Numbers stay `f64` except where three.js stores `f32` (the fade and warp ramps).

use std::sync::Arc;

use super::{ControlInterpolant, LoopMode, MixerEvent, PropertyMixer};
use crate::model::interpolant::{CubicEnding, Sampler, SamplerState};
use crate::model::{BlendMode, Clip};

/// Identifies an [`AnimationAction`] within its mixer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ActionId(pub(crate) usize);

/// What the mixer hands every action in one update (`_update`'s arguments).
#[derive(Debug, Clone, Copy)]
pub(crate) struct MixerStep {
    /// The new mixer time.
    pub(crate) time: f64,
    /// The mixer-scaled time step.
    pub(crate) delta: f64,
    /// `Math.sign(delta)`.
    pub(crate) direction: f64,
    /// The accumulator this update fills (0 or 1).
    pub(crate) accu_index: usize,
}

/// The playback state of one clip in a mixer (three.js `AnimationAction`).
#[derive(Debug, Clone)]
pub struct AnimationAction {
    pub(crate) clip: Arc<Clip>,
    /// How this action's values combine with others' (defaults to the clip's blend mode).
    pub blend_mode: BlendMode,
    /// The local time in the clip, in seconds.
    pub time: f64,
    /// Speed factor; negative plays backwards, 0 pauses.
    pub time_scale: f64,
    /// Blend weight.
    pub weight: f64,
    /// What happens at the end of the clip.
    pub loop_mode: LoopMode,
    /// How many times the clip plays with [`LoopMode::Repeat`] or [`LoopMode::PingPong`]
    /// (`f64::INFINITY` by default).
    pub repetitions: f64,
    /// A paused action keeps its time (and still contributes its weight).
    pub paused: bool,
    /// A disabled action contributes nothing.
    pub enabled: bool,
    /// When finished, hold the last frame (pause) instead of disabling the action.
    pub clamp_when_finished: bool,
    /// Smooth tracks get a zero slope at the start of the first loop (otherwise zero curvature).
    pub zero_slope_at_start: bool,
    /// Smooth tracks get a zero slope at the end of the last loop (otherwise zero curvature).
    pub zero_slope_at_end: bool,
    pub(crate) loop_count: f64,
    pub(crate) start_time: Option<f64>,
    pub(crate) effective_time_scale: f64,
    pub(crate) effective_weight: f64,
    pub(crate) weight_interpolant: Option<ControlInterpolant>,
    pub(crate) time_scale_interpolant: Option<ControlInterpolant>,
    pub(crate) restore_time_scale: Option<f64>,
    /// The shared interpolant settings (`endingStart`, `endingEnd`).
    pub(crate) endings: (CubicEnding, CubicEnding),
    /// One detached sampler per track.
    pub(crate) samplers: Vec<SamplerState>,
    /// The property mixer (binding slot in the mixer) of each track.
    pub(crate) bindings: Vec<usize>,
    /// Position in the mixer's action list (`_cacheIndex`); `None` once uncached.
    pub(crate) cache_index: Option<usize>,
}

impl AnimationAction {
    /// A new, inactive action for `clip` with three.js's defaults.
    pub(crate) fn new(clip: Arc<Clip>, blend_mode: BlendMode) -> AnimationAction {
        let samplers = clip
            .tracks
            .iter()
            .map(|t| Sampler::new(t).into_state())
            .collect();
        AnimationAction {
            clip,
            blend_mode,
            time: 0.0,
            time_scale: 1.0,
            weight: 1.0,
            loop_mode: LoopMode::Repeat,
            repetitions: f64::INFINITY,
            paused: false,
            enabled: true,
            clamp_when_finished: false,
            zero_slope_at_start: true,
            zero_slope_at_end: true,
            loop_count: -1.0,
            start_time: None,
            effective_time_scale: 1.0,
            effective_weight: 1.0,
            weight_interpolant: None,
            time_scale_interpolant: None,
            restore_time_scale: None,
            endings: (CubicEnding::ZeroCurvature, CubicEnding::ZeroCurvature),
            samplers,
            bindings: Vec::new(),
            cache_index: None,
        }
    }

    /// The clip this action plays.
    pub fn clip(&self) -> &Arc<Clip> {
        &self.clip
    }

    /// The weight of the last update (0 when disabled), including any fade.
    pub fn effective_weight(&self) -> f64 {
        self.effective_weight
    }

    /// The time scale of the last update (0 when paused), including any warp.
    pub fn effective_time_scale(&self) -> f64 {
        self.effective_time_scale
    }

    /// Completed loops (three.js `_loopCount`; -1 before the first update).
    pub fn loop_count(&self) -> f64 {
        self.loop_count
    }

    /// The mixer time at which a scheduled action starts
    /// ([`ActionMut::start_at`](super::ActionMut::start_at)); `None` once started.
    pub fn start_time(&self) -> Option<f64> {
        self.start_time
    }

    /// The active fade, if any.
    pub fn fade_ramp(&self) -> Option<&ControlInterpolant> {
        self.weight_interpolant.as_ref()
    }

    /// The active warp, if any.
    pub fn warp_ramp(&self) -> Option<&ControlInterpolant> {
        self.time_scale_interpolant.as_ref()
    }

    /// The time scale a cross-fade warp restores when it ends.
    pub fn restore_time_scale(&self) -> Option<f64> {
        self.restore_time_scale
    }

    /// The cubic endings smooth tracks currently use (start, end).
    pub fn endings(&self) -> (CubicEnding, CubicEnding) {
        self.endings
    }

    /// three.js `reset()` without the fades and warps (the mixer returns those).
    pub(crate) fn reset_state(&mut self) {
        self.paused = false;
        self.enabled = true;
        self.time = 0.0;
        self.loop_count = -1.0;
        self.start_time = None;
        self.weight_interpolant = None;
        self.time_scale_interpolant = None;
        self.restore_time_scale = None;
    }

    /// `AnimationAction._update(time, deltaTime, timeDirection, accuIndex)`.
    pub(crate) fn update(
        &mut self,
        id: ActionId,
        step: MixerStep,
        mixers: &mut [PropertyMixer],
        events: &mut Vec<MixerEvent>,
    ) {
        let MixerStep {
            time,
            delta,
            direction,
            accu_index,
        } = step;
        if !self.enabled {
            self.update_weight(time);
            return;
        }
        let mut delta = delta;
        if let Some(start) = self.start_time {
            let running = (time - start) * direction;
            if running < 0.0 || direction == 0.0 {
                delta = 0.0;
            } else {
                self.start_time = None;
                delta = direction * running;
            }
        }
        delta *= self.update_time_scale(time);
        let clip_time = self.update_time(id, delta, events);
        let weight = self.update_weight(time);
        if weight > 0.0 {
            let additive = self.blend_mode == BlendMode::Additive;
            let (start, end) = self.endings;
            let tracks = &self.clip.tracks;
            for ((sampler, track), &b) in self.samplers.iter_mut().zip(tracks).zip(&self.bindings) {
                if track.muted {
                    // clipscope's own: a muted track adds nothing, so its property falls back
                    // to the rest pose (or to what other actions give it).
                    continue;
                }
                let mixer = &mut mixers[b];
                sampler.set_endings(start, end);
                sampler.evaluate_f64(track, clip_time, mixer.buffer_mut());
                if additive {
                    mixer.accumulate_additive(weight);
                } else {
                    mixer.accumulate(accu_index, weight);
                }
            }
        }
    }

    /// `_updateWeight(time)`: the weight times the fade, ending the fade after its end time.
    pub(crate) fn update_weight(&mut self, time: f64) -> f64 {
        let mut weight = 0.0;
        if self.enabled {
            weight = self.weight;
            if let Some(fade) = self.weight_interpolant {
                let value = fade.evaluate(time) as f64;
                weight *= value;
                if time > fade.end_time() {
                    self.weight_interpolant = None;
                    if value == 0.0 {
                        self.enabled = false;
                    }
                }
            }
        }
        self.effective_weight = weight;
        weight
    }

    /// `_updateTimeScale(time)`: the time scale times the warp; at the end of a warp the action
    /// pauses (scale 0) or keeps the restored or warped scale.
    pub(crate) fn update_time_scale(&mut self, time: f64) -> f64 {
        let mut time_scale = 0.0;
        if !self.paused {
            time_scale = self.time_scale;
            if let Some(warp) = self.time_scale_interpolant {
                let value = warp.evaluate(time) as f64;
                time_scale *= value;
                if time > warp.end_time() {
                    if time_scale == 0.0 {
                        self.paused = true;
                    } else {
                        if let Some(restore) = self.restore_time_scale {
                            time_scale = restore;
                        }
                        self.time_scale = time_scale;
                    }
                    self.time_scale_interpolant = None;
                    self.restore_time_scale = None;
                }
            }
        }
        self.effective_time_scale = time_scale;
        time_scale
    }

    /// `_updateTime(deltaTime)`: advances the local time, loops, finishes, and returns the time
    /// to sample the clip at.
    fn update_time(&mut self, id: ActionId, delta: f64, events: &mut Vec<MixerEvent>) -> f64 {
        let duration = self.clip.duration;
        let mut time = self.time + delta;
        let mut loop_count = self.loop_count;
        let ping_pong = self.loop_mode == LoopMode::PingPong;

        if delta == 0.0 {
            if loop_count == -1.0 {
                return time;
            }
            return if ping_pong && is_odd(loop_count) {
                duration - time
            } else {
                time
            };
        }

        if self.loop_mode == LoopMode::Once {
            if loop_count == -1.0 {
                self.loop_count = 0.0;
                self.set_endings(true, true, false);
            }
            if time >= duration {
                time = duration;
            } else if time < 0.0 {
                time = 0.0;
            } else {
                self.time = time;
                return time;
            }
            self.finish();
            self.time = time;
            events.push(MixerEvent::Finished {
                action: id,
                direction: if delta < 0.0 { -1 } else { 1 },
            });
            return time;
        }

        if loop_count == -1.0 {
            if delta >= 0.0 {
                loop_count = 0.0;
                self.set_endings(true, self.repetitions == 0.0, ping_pong);
            } else {
                // Crossing zero backwards counts as a repetition, so the count stays -1.
                self.set_endings(self.repetitions == 0.0, true, ping_pong);
            }
        }

        if time >= duration || time < 0.0 {
            let loop_delta = (time / duration).floor();
            time -= duration * loop_delta;
            loop_count += loop_delta.abs();
            let pending = self.repetitions - loop_count;
            if pending <= 0.0 {
                self.finish();
                time = if delta > 0.0 { duration } else { 0.0 };
                self.time = time;
                events.push(MixerEvent::Finished {
                    action: id,
                    direction: if delta > 0.0 { 1 } else { -1 },
                });
            } else {
                if pending == 1.0 {
                    let at_start = delta < 0.0;
                    self.set_endings(at_start, !at_start, ping_pong);
                } else {
                    self.set_endings(false, false, ping_pong);
                }
                self.loop_count = loop_count;
                self.time = time;
                events.push(MixerEvent::Loop {
                    action: id,
                    loop_delta,
                });
            }
        } else {
            self.loop_count = loop_count;
            self.time = time;
        }

        if ping_pong && is_odd(loop_count) {
            duration - time
        } else {
            time
        }
    }

    /// Stops at the end of the last loop: pause when clamping, else disable.
    fn finish(&mut self) {
        if self.clamp_when_finished {
            self.paused = true;
        } else {
            self.enabled = false;
        }
    }

    /// `_setEndings(atStart, atEnd, pingPong)`.
    fn set_endings(&mut self, at_start: bool, at_end: bool, ping_pong: bool) {
        if ping_pong {
            self.endings = (CubicEnding::ZeroSlope, CubicEnding::ZeroSlope);
            return;
        }
        let ending = |at: bool, zero_slope: bool| match (at, zero_slope) {
            (true, true) => CubicEnding::ZeroSlope,
            (true, false) => CubicEnding::ZeroCurvature,
            (false, _) => CubicEnding::WrapAround,
        };
        self.endings = (
            ending(at_start, self.zero_slope_at_start),
            ending(at_end, self.zero_slope_at_end),
        );
    }
}

/// JavaScript's `(n & 1) === 1`: the parity of `ToInt32(n)` (infinities and NaN are even).
fn is_odd(n: f64) -> bool {
    n.is_finite() && (n.trunc() % 2.0).abs() == 1.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::playback::test_support::{mixer, number_clip, rotation_x, smooth_clip, x};
    use crate::playback::{Mixer, MixerEvent};

    /// three.js's AnimationAction.tests.js fixture: `.rotation[x]` 0 → 360 over 1000.
    fn animation() -> (Mixer, ActionId) {
        let mut m = mixer();
        let clip = number_clip(
            "clip1",
            ".rotation[x]",
            &[0.0, 1000.0],
            &[0.0, 360.0],
            1000.0,
        );
        let a = m.clip_action(&clip);
        (m, a)
    }

    /// Two actions, the second on `.rotation[y]`.
    fn two_animations() -> (Mixer, ActionId, ActionId) {
        let (mut m, a) = animation();
        let clip2 = number_clip(
            "clip2",
            ".rotation[y]",
            &[0.0, 1000.0],
            &[0.0, 360.0],
            1000.0,
        );
        let b = m.clip_action(&clip2);
        (m, a, b)
    }

    #[test]
    fn defaults_and_reset() {
        let (mut m, a) = animation();
        let act = m.action(a);
        assert_eq!((act.time, act.time_scale, act.weight), (0.0, 1.0, 1.0));
        assert_eq!(act.loop_mode, LoopMode::Repeat);
        assert_eq!(act.repetitions, f64::INFINITY);
        assert_eq!(act.loop_count(), -1.0);
        assert!(act.enabled && !act.paused && !act.clamp_when_finished);
        assert!(act.zero_slope_at_start && act.zero_slope_at_end);
        let mut h = m.action_mut(a);
        h.paused = true;
        h.enabled = false;
        h.time = 5.0;
        h.start_at(3.0).fade_in(1.0).warp(1.0, 2.0, 1.0);
        h.reset();
        assert!(!h.paused && h.enabled && h.time == 0.0);
        assert_eq!((h.loop_count(), h.start_time()), (-1.0, None));
        assert!(h.fade_ramp().is_none() && h.warp_ramp().is_none());
    }

    #[test]
    fn is_running_and_is_scheduled() {
        let (mut m, a) = animation();
        assert!(!m.action_mut(a).is_running());
        assert!(!m.action_mut(a).is_scheduled());
        m.action_mut(a).play();
        assert!(m.action_mut(a).is_running());
        assert!(m.action_mut(a).is_scheduled());
        m.update(1.0);
        assert!(m.action_mut(a).is_scheduled());
        m.action_mut(a).stop();
        assert!(!m.action_mut(a).is_running());
        assert!(!m.action_mut(a).is_scheduled());
        m.action_mut(a).play().paused = true;
        assert!(!m.action_mut(a).is_running());
        m.action_mut(a).paused = false;
        m.action_mut(a).enabled = false;
        assert!(!m.action_mut(a).is_running());
        m.action_mut(a).enabled = true;
        assert!(m.action_mut(a).is_running());
    }

    #[test]
    fn start_at() {
        let (mut m, a) = animation();
        m.action_mut(a).start_at(2.0).play();
        assert!(!m.action_mut(a).is_running() && m.action_mut(a).is_scheduled());
        m.update(1.0);
        assert!(!m.action_mut(a).is_running() && m.action_mut(a).is_scheduled());
        m.update(1.0);
        assert!(m.action_mut(a).is_running() && m.action_mut(a).is_scheduled());
        m.action_mut(a).stop();
        assert!(!m.action_mut(a).is_running() && !m.action_mut(a).is_scheduled());
    }

    #[test]
    fn loop_once() {
        let (mut m, a) = animation();
        m.action_mut(a)
            .set_loop(LoopMode::Once, f64::INFINITY)
            .play();
        m.update(500.0);
        assert!(m.action_mut(a).is_running());
        m.update(500.0);
        assert!(!m.action_mut(a).is_running());
        m.update(500.0);
        assert!(!m.action_mut(a).is_running());
    }

    #[test]
    fn loop_repeat_and_ping_pong_with_three_repetitions() {
        for (mode, expect) in [
            (LoopMode::Repeat, [270.0, 270.0, 270.0, 0.0]),
            (LoopMode::PingPong, [270.0, 90.0, 270.0, 0.0]),
        ] {
            let (mut m, a) = animation();
            m.action_mut(a).set_loop(mode, 3.0).play();
            m.update(750.0);
            assert_eq!(rotation_x(&m), expect[0], "{mode:?}");
            for e in &expect[1..3] {
                m.update(1000.0);
                assert_eq!(rotation_x(&m), *e, "{mode:?}");
                assert!(m.action_mut(a).is_running());
            }
            m.update(1000.0);
            assert_eq!(rotation_x(&m), expect[3], "{mode:?}");
            assert!(!m.action_mut(a).is_running());
        }
    }

    #[test]
    fn effective_weight() {
        let (mut m, a) = animation();
        assert_eq!(m.action(a).effective_weight(), 1.0);
        m.action_mut(a).set_effective_weight(0.3);
        assert_eq!(m.action(a).effective_weight(), 0.3);
        m.action_mut(a).enabled = false;
        m.action_mut(a).set_effective_weight(0.5);
        assert_eq!(m.action(a).effective_weight(), 0.0);
        m.action_mut(a).enabled = true;
        m.action_mut(a).set_effective_weight(0.5).play();
        m.update(500.0);
        assert_eq!(rotation_x(&m), 90.0);
        m.update(1000.0);
        assert_eq!(rotation_x(&m), 90.0);
    }

    #[test]
    fn fade_in_and_fade_out() {
        for (fade_in, expect) in [
            (true, [1.0, 0.25, 0.5, 0.75, 1.0]),
            (false, [1.0, 0.75, 0.5, 0.25, 0.0]),
        ] {
            let (mut m, a) = animation();
            if fade_in {
                m.action_mut(a).fade_in(1000.0).play();
            } else {
                m.action_mut(a).fade_out(1000.0).play();
            }
            assert_eq!(m.action(a).effective_weight(), expect[0]);
            for (step, e) in [250.0, 250.0, 250.0, 500.0].iter().zip(&expect[1..]) {
                m.update(*step);
                assert_eq!(m.action(a).effective_weight(), *e);
            }
        }
    }

    #[test]
    fn cross_fade_from_and_to() {
        for to in [false, true] {
            let (mut m, a, b) = two_animations();
            if to {
                m.action_mut(b).cross_fade_to(a, 1000.0, false);
            } else {
                m.action_mut(a).cross_fade_from(b, 1000.0, false);
            }
            m.action_mut(a).play();
            m.action_mut(b).play();
            let weights = |m: &Mixer| {
                (
                    m.action(a).effective_weight(),
                    m.action(b).effective_weight(),
                )
            };
            assert_eq!(weights(&m), (1.0, 1.0));
            for (step, e) in [
                (250.0, (0.25, 0.75)),
                (250.0, (0.5, 0.5)),
                (250.0, (0.75, 0.25)),
                (500.0, (1.0, 0.0)),
            ] {
                m.update(step);
                assert_eq!(weights(&m), e);
            }
            assert!(!m.action(b).enabled);
        }
    }

    #[test]
    fn start_at_when_already_executed_once() {
        let mut m = mixer();
        let clip = number_clip("clip1", ".rotation[x]", &[0.0, 750.0], &[0.0, 270.0], 750.0);
        let a = m.clip_action(&clip);
        m.action_mut(a)
            .set_loop(LoopMode::Once, f64::INFINITY)
            .clamp_when_finished = true;
        m.action_mut(a).play();
        let steps = [
            250.0, 250.0, 250.0, 2000.0, 250.0, 250.0, 250.0, 1.0, 1000.0, 1000.0, 250.0, 250.0,
        ];
        let expect = [
            90.0, 180.0, 270.0, 270.0, 180.0, 90.0, 0.0, 0.0, 0.0, 0.0, 90.0, 180.0,
        ];
        for (step, e) in steps.iter().zip(expect) {
            for event in m.update(*step) {
                // The test's `finished` listener, run after the update.
                if let MixerEvent::Finished { action, .. } = event {
                    let time = m.time;
                    let mut h = m.action_mut(action);
                    h.time_scale *= -1.0;
                    h.paused = false;
                    h.start_at(time + 2000.0).play();
                }
            }
            assert_eq!(rotation_x(&m), e, "after {step}");
        }
    }

    /// Duration 1, `.x` 0 → 10.
    fn unit() -> (Mixer, ActionId) {
        let mut m = mixer();
        let clip = number_clip("unit", ".x", &[0.0, 1.0], &[0.0, 10.0], 1.0);
        let a = m.clip_action(&clip);
        (m, a)
    }

    #[test]
    fn loop_once_trace() {
        for clamp in [false, true] {
            let (mut m, a) = unit();
            m.action_mut(a)
                .set_loop(LoopMode::Once, f64::INFINITY)
                .clamp_when_finished = clamp;
            m.action_mut(a).play();
            assert!(m.update(0.4).is_empty());
            assert_eq!((m.action(a).time, x(&m)), (0.4, 4.0));
            assert!(m.update(0.4).is_empty());
            assert_eq!((m.action(a).time, x(&m)), (0.8, 8.0));
            let events = m.update(0.4);
            assert_eq!(
                events,
                [MixerEvent::Finished {
                    action: a,
                    direction: 1
                }]
            );
            assert_eq!(m.time, 0.4 + 0.4 + 0.4);
            assert_eq!(m.action(a).time, 1.0);
            if clamp {
                assert!(m.action(a).paused && m.action(a).enabled);
                assert_eq!(x(&m), 10.0);
            } else {
                assert!(!m.action(a).enabled);
                assert_eq!(x(&m), 0.0);
            }
        }
    }

    #[test]
    fn loop_repeat_two_repetitions_trace() {
        let (mut m, a) = unit();
        m.action_mut(a).set_loop(LoopMode::Repeat, 2.0).play();
        let mut all = Vec::new();
        for i in 0..5 {
            for e in m.update(0.4) {
                all.push((i, e));
            }
        }
        assert_eq!(
            all,
            [
                (
                    2,
                    MixerEvent::Loop {
                        action: a,
                        loop_delta: 1.0
                    }
                ),
                (
                    4,
                    MixerEvent::Finished {
                        action: a,
                        direction: 1
                    }
                ),
            ]
        );
        assert_eq!(m.action(a).loop_count(), 1.0, "not stored when finishing");
        assert_eq!(m.action(a).time, 1.0);
    }

    #[test]
    fn ping_pong_three_repetitions_trace() {
        let (mut m, a) = unit();
        m.action_mut(a).set_loop(LoopMode::PingPong, 3.0).play();
        for (step, e) in [(0.75, 7.5), (1.0, 2.5), (1.0, 7.5), (1.0, 0.0)] {
            m.update(step);
            assert_eq!(x(&m), e);
        }
        assert!(!m.action(a).enabled);
    }

    #[test]
    fn reverse_repeat_trace() {
        let (mut m, a) = unit();
        m.action_mut(a).time_scale = -1.0;
        m.action_mut(a).play();
        let mut loops = 0;
        for (step, t) in [(0.25, 0.75), (0.5, 0.25), (0.5, 0.75)] {
            for e in m.update(step) {
                assert_eq!(
                    e,
                    MixerEvent::Loop {
                        action: a,
                        loop_delta: -1.0
                    }
                );
                loops += 1;
            }
            assert_eq!(m.action(a).time, t);
        }
        assert_eq!(loops, 2);
    }

    #[test]
    fn one_big_step_loops_twice() {
        let (mut m, a) = unit();
        m.action_mut(a).set_loop(LoopMode::Repeat, 3.0).play();
        assert_eq!(
            m.update(2.5),
            [MixerEvent::Loop {
                action: a,
                loop_delta: 2.0
            }]
        );
        assert_eq!(m.action(a).time, 0.5);
        assert_eq!(m.action(a).loop_count(), 2.0);
    }

    #[test]
    fn zero_repetitions_finish_at_the_first_wrap() {
        let (mut m, a) = unit();
        m.action_mut(a).set_loop(LoopMode::Repeat, 0.0).play();
        assert!(m.update(0.5).is_empty());
        assert_eq!(
            m.update(0.5),
            [MixerEvent::Finished {
                action: a,
                direction: 1
            }]
        );
    }

    #[test]
    fn fade_golden_values() {
        let (mut m, a) = unit();
        m.action_mut(a).fade_in(0.3).play();
        for w in [
            0.3333333134651184,
            0.6666666269302368,
            0.9999999403953552,
            1.0,
        ] {
            m.update(0.1);
            assert_eq!(m.action(a).effective_weight(), w);
        }
        assert!(m.action(a).fade_ramp().is_none());

        let (mut m, a) = unit();
        m.action_mut(a).play();
        m.update(0.1);
        m.action_mut(a).fade_out(0.3);
        for w in [
            0.6666666865348816,
            0.3333333432674408,
            1.9868213740892315e-8,
            0.0,
        ] {
            m.update(0.1);
            assert_eq!(m.action(a).effective_weight(), w);
        }
        assert!(!m.action(a).enabled);
    }

    #[test]
    fn warp_and_halt_golden_values() {
        let (mut m, a) = unit();
        m.action_mut(a).play().warp(1.0, 2.0, 1.0);
        for s in [1.25, 1.5, 1.75, 2.0] {
            m.update(0.25);
            assert_eq!(m.action(a).effective_time_scale(), s);
            assert_eq!(m.action(a).time_scale, 1.0);
        }
        m.update(0.25);
        assert_eq!(m.action(a).effective_time_scale(), 2.0);
        assert_eq!(m.action(a).time_scale, 2.0);
        assert!(m.action(a).warp_ramp().is_none());

        let (mut m, a) = unit();
        m.action_mut(a).play().halt(0.5);
        for s in [0.5, 0.0] {
            m.update(0.25);
            assert_eq!(m.action(a).effective_time_scale(), s);
            assert!(!m.action(a).paused);
        }
        m.update(0.25);
        assert!(m.action(a).paused);
        assert_eq!(m.action(a).effective_time_scale(), 0.0);
    }

    #[test]
    fn warped_cross_fade_restores_the_time_scales() {
        let mut m = mixer();
        let short = number_clip("short", ".x", &[0.0, 1.0], &[0.0, 10.0], 1.0);
        let long = number_clip("long", ".rotation[x]", &[0.0, 2.0], &[0.0, 10.0], 2.0);
        let a = m.clip_action(&short);
        let b = m.clip_action(&long);
        m.action_mut(b).time_scale = 0.5;
        m.action_mut(a).play();
        m.action_mut(b).play();
        m.action_mut(b).cross_fade_from(a, 1.0, true);
        // `a` (duration 1) warps from 1 to 1/2, `b` (duration 2) from 2/1 to 1, each relative to
        // its own time scale (1 and 0.5) and stored in f32.
        assert_eq!(m.action(a).warp_ramp().unwrap().values, [1.0, 0.5]);
        assert_eq!(m.action(b).warp_ramp().unwrap().values, [4.0, 2.0]);
        assert_eq!(m.action(a).restore_time_scale(), Some(1.0));
        assert_eq!(m.action(b).restore_time_scale(), Some(0.5));
        m.update(0.5);
        assert_eq!(m.action(a).effective_time_scale(), 0.75);
        assert_eq!(m.action(b).effective_time_scale(), 1.5);
        m.update(0.5);
        m.update(0.5);
        assert_eq!(m.action(b).time_scale, 0.5, "restored");
        assert_eq!(m.action(b).effective_time_scale(), 0.5);
        assert!(!m.action(a).enabled);
    }

    #[test]
    fn endings_follow_the_loop_mode() {
        use CubicEnding::*;
        let (mut m, a) = unit();
        m.action_mut(a)
            .set_loop(LoopMode::Once, f64::INFINITY)
            .play();
        m.update(0.1);
        assert_eq!(m.action(a).endings(), (ZeroSlope, ZeroSlope));
        let (mut m, a) = unit();
        m.action_mut(a).play();
        m.update(0.1);
        assert_eq!(m.action(a).endings(), (ZeroSlope, WrapAround));
        m.update(1.0);
        assert_eq!(m.action(a).endings(), (WrapAround, WrapAround));
        let (mut m, a) = unit();
        m.action_mut(a).set_loop(LoopMode::Repeat, 2.0).play();
        m.update(1.1);
        assert_eq!(m.action(a).endings(), (WrapAround, ZeroSlope), "last round");
        let (mut m, a) = unit();
        m.action_mut(a).zero_slope_at_start = false;
        m.action_mut(a).play();
        m.update(0.1);
        assert_eq!(m.action(a).endings(), (ZeroCurvature, WrapAround));
        let (mut m, a) = unit();
        m.action_mut(a)
            .set_loop(LoopMode::PingPong, f64::INFINITY)
            .play();
        m.update(0.1);
        assert_eq!(m.action(a).endings(), (ZeroSlope, ZeroSlope));
    }

    #[test]
    fn smooth_track_uses_zero_slope_endings_when_playing_once() {
        // Two keys 0 → 1 with zero-slope endings: 0.1328125 at 0.25 and 0.4375 at 0.5 (§4).
        let mut m = mixer();
        let clip = smooth_clip(".x", &[0.0, 1.0], &[0.0, 1.0], 1.0);
        let a = m.clip_action(&clip);
        m.action_mut(a)
            .set_loop(LoopMode::Once, f64::INFINITY)
            .play();
        m.update(0.25);
        assert_eq!(x(&m), 0.1328125);
        m.update(0.25);
        assert_eq!(x(&m), 0.4375);
    }
}
