//! Plays actions on a pose (three.js `AnimationMixer`).
//!
//! The mixer owns the [`Pose`] it animates, the [`AnimationAction`]s (addressed by [`ActionId`])
//! and one [`PropertyMixer`] per distinct track name. Like three.js it keeps the active actions
//! and bindings at the front of its lists, maintained by swaps on activation and deactivation,
//! so the order in which actions accumulate (which matters for rounding and for slerp) is
//! three.js's order. [`Mixer::update`] runs `AnimationMixer.update`: scale the step, advance
//! the mixer time, flip the accumulator index, update every active action in list order, then
//! apply every active binding to the pose.
//!
//! Differences from three.js, all because there is no scene graph: the mixer has exactly one
//! root (its pose), so `clipAction`'s optional root and `uncacheRoot` do not exist; clips are
//! identified by uuid, or, for clips without one, by the `Arc` that holds them; clips cannot be
//! looked up by name; events are returned from `update` instead of being dispatched to
//! listeners, so a listener's reaction happens after the update rather than during it; and the
//! fade/warp ramps are not pooled (a pooled ramp's cached index never changes a result).

use std::collections::HashMap;
use std::sync::Arc;

use super::action::MixerStep;
use super::{
    ActionId, AnimationAction, BindError, ControlInterpolant, LoopMode, MixKind, MixerEvent, Pose,
    PropertyBinding, PropertyMixer,
};
use crate::model::{BlendMode, Clip, TrackKind};

/// A track that binds to no property of the pose, with the reason.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnboundTrack {
    /// The track name.
    pub track: String,
    /// Why it did not bind.
    pub reason: BindError,
}

/// The actions of one clip (three.js `_actionsByClip[clipUuid]`).
#[derive(Debug, Clone, Default)]
struct ClipActions {
    known: Vec<ActionId>,
    by_root: Option<ActionId>,
}

/// Bookkeeping of one property mixer.
#[derive(Debug, Clone)]
struct BindingSlot {
    track_name: String,
    error: Option<BindError>,
    /// Position in `binding_order` (`_cacheIndex`); `None` once removed.
    cache_index: Option<usize>,
}

/// Counts of cached and active objects (three.js `mixer.stats`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct MixerStats {
    /// Cached actions.
    pub actions_total: usize,
    /// Active (playing or scheduled) actions.
    pub actions_in_use: usize,
    /// Cached property mixers.
    pub bindings_total: usize,
    /// Property mixers used by active actions.
    pub bindings_in_use: usize,
}

/// Plays clips on a [`Pose`] (three.js `AnimationMixer`).
#[derive(Debug, Clone)]
pub struct Mixer {
    pose: Pose,
    /// The global mixer time in seconds.
    pub time: f64,
    /// Global speed factor applied to every update.
    pub time_scale: f64,
    accu_index: usize,
    actions: Vec<AnimationAction>,
    action_order: Vec<ActionId>,
    n_active_actions: usize,
    actions_by_clip: HashMap<String, ClipActions>,
    mixers: Vec<PropertyMixer>,
    slots: Vec<BindingSlot>,
    binding_order: Vec<usize>,
    n_active_bindings: usize,
    bindings_by_name: HashMap<String, usize>,
}

impl Mixer {
    /// A mixer animating `pose`.
    pub fn new(pose: Pose) -> Mixer {
        Mixer {
            pose,
            time: 0.0,
            time_scale: 1.0,
            accu_index: 0,
            actions: Vec::new(),
            action_order: Vec::new(),
            n_active_actions: 0,
            actions_by_clip: HashMap::new(),
            mixers: Vec::new(),
            slots: Vec::new(),
            binding_order: Vec::new(),
            n_active_bindings: 0,
            bindings_by_name: HashMap::new(),
        }
    }

    /// The animated pose.
    pub fn pose(&self) -> &Pose {
        &self.pose
    }

    /// The pose for direct edits (like setting an object's property outside the mixer).
    pub fn pose_mut(&mut self) -> &mut Pose {
        &mut self.pose
    }

    /// Consumes the mixer and returns its pose.
    pub fn into_pose(self) -> Pose {
        self.pose
    }

    /// Gives action `id` the clip `clip` in place of its own, returning the one it had. `clip`
    /// must hold the same tracks (names, kinds, order) with only their keys changed: the
    /// bindings stay, and the samplers of the `changed` tracks start afresh (a track's
    /// interpolation may have changed). What an edit of a few tracks costs the viewport,
    /// instead of a new action bound from scratch.
    pub fn swap_clip(
        &mut self,
        id: ActionId,
        clip: Arc<Clip>,
        changed: &std::collections::BTreeSet<usize>,
    ) -> Arc<Clip> {
        let action = &mut self.actions[id.0];
        for &t in changed {
            if let (Some(track), Some(state)) = (clip.tracks.get(t), action.samplers.get_mut(t)) {
                *state = crate::model::interpolant::Sampler::new(track).into_state();
            }
        }
        std::mem::replace(&mut action.clip, clip)
    }

    /// The action for `clip` with the clip's blend mode, created (inactive) if needed (three.js
    /// `clipAction(clip)`).
    pub fn clip_action(&mut self, clip: &Arc<Clip>) -> ActionId {
        self.clip_action_with(clip, clip.blend_mode)
    }

    /// The action for `clip` with `blend_mode` (three.js `clipAction(clip, root, blendMode)`):
    /// the cached action when its blend mode matches, otherwise a new one that becomes the
    /// clip's action.
    pub fn clip_action_with(&mut self, clip: &Arc<Clip>, blend_mode: BlendMode) -> ActionId {
        let key = clip_key(clip);
        if let Some(existing) = self.actions_by_clip.get(&key).and_then(|e| e.by_root)
            && self.actions[existing.0].blend_mode == blend_mode
        {
            return existing;
        }
        let id = ActionId(self.actions.len());
        self.actions
            .push(AnimationAction::new(Arc::clone(clip), blend_mode));
        self.bind_action(id);
        self.add_inactive_action(id, key);
        id
    }

    /// The clip's cached action, whatever its blend mode (three.js `existingAction`).
    pub fn existing_action(&self, clip: &Arc<Clip>) -> Option<ActionId> {
        self.actions_by_clip.get(&clip_key(clip))?.by_root
    }

    /// The action `id`.
    pub fn action(&self, id: ActionId) -> &AnimationAction {
        &self.actions[id.0]
    }

    /// The action `id`, with the methods that need the mixer (play, fades, warps, …); its
    /// fields are reachable through `Deref`.
    pub fn action_mut(&mut self, id: ActionId) -> ActionMut<'_> {
        ActionMut { mixer: self, id }
    }

    /// The active actions in accumulation order.
    pub fn active_actions(&self) -> &[ActionId] {
        &self.action_order[..self.n_active_actions]
    }

    /// Whether `id` is active (playing or scheduled).
    pub fn is_active(&self, id: ActionId) -> bool {
        self.actions[id.0]
            .cache_index
            .is_some_and(|i| i < self.n_active_actions)
    }

    /// The property mixer of track `track_name`, if one is cached.
    pub fn property_mixer(&self, track_name: &str) -> Option<&PropertyMixer> {
        self.bindings_by_name
            .get(track_name)
            .map(|&i| &self.mixers[i])
    }

    /// Every cached track that binds to nothing, in binding order.
    pub fn unbound_tracks(&self) -> Vec<UnboundTrack> {
        self.binding_order
            .iter()
            .filter_map(|&i| {
                let slot = &self.slots[i];
                slot.error.as_ref().map(|e| UnboundTrack {
                    track: slot.track_name.clone(),
                    reason: e.clone(),
                })
            })
            .collect()
    }

    /// How many actions and bindings are cached and in use.
    pub fn stats(&self) -> MixerStats {
        MixerStats {
            actions_total: self.action_order.len(),
            actions_in_use: self.n_active_actions,
            bindings_total: self.binding_order.len(),
            bindings_in_use: self.n_active_bindings,
        }
    }

    /// Advances by `delta` seconds (three.js `update`): the actions update in order, then the
    /// bindings write the blended values to the pose. Returns the events of the update.
    pub fn update(&mut self, delta: f64) -> Vec<MixerEvent> {
        let delta = delta * self.time_scale;
        self.time += delta;
        self.accu_index ^= 1;
        let accu_index = self.accu_index;
        let step = MixerStep {
            time: self.time,
            delta,
            direction: js_sign(delta),
            accu_index,
        };
        let mut events = Vec::new();
        let n = self.n_active_actions;
        for i in 0..n {
            let id = self.action_order[i];
            self.actions[id.0].update(id, step, &mut self.mixers, &mut events);
        }
        let m = self.n_active_bindings;
        for i in 0..m {
            let b = self.binding_order[i];
            self.mixers[b].apply(accu_index, &mut self.pose);
        }
        events
    }

    /// Jumps to `time` (three.js `setTime`): zeroes the mixer time and every cached action's
    /// time, then updates by `time`.
    pub fn set_time(&mut self, time: f64) -> Vec<MixerEvent> {
        self.time = 0.0;
        for &id in &self.action_order {
            self.actions[id.0].time = 0.0;
        }
        self.update(time)
    }

    /// Stops every active action, last first (three.js `stopAllAction`); properties return to
    /// their original values.
    pub fn stop_all_action(&mut self) {
        for i in (0..self.n_active_actions).rev() {
            let id = self.action_order[i];
            self.action_mut(id).stop();
        }
    }

    /// Forgets every action of `clip` and the bindings only they used (three.js `uncacheClip`).
    /// Their ids stay valid: playing one again binds it again.
    pub fn uncache_clip(&mut self, clip: &Arc<Clip>) {
        let Some(entry) = self.actions_by_clip.remove(&clip_key(clip)) else {
            return;
        };
        for id in entry.known {
            self.deactivate_action(id);
            self.remove_from_action_order(id);
            self.remove_inactive_bindings_for_action(id);
        }
    }

    /// Forgets the clip's cached action (three.js `uncacheAction`).
    pub fn uncache_action(&mut self, clip: &Arc<Clip>) {
        let Some(id) = self.existing_action(clip) else {
            return;
        };
        self.deactivate_action(id);
        let key = clip_key(clip);
        self.remove_from_action_order(id);
        if let Some(entry) = self.actions_by_clip.get_mut(&key) {
            if let Some(pos) = entry.known.iter().position(|&a| a == id) {
                entry.known.swap_remove(pos);
            }
            entry.by_root = None;
            if entry.known.is_empty() {
                self.actions_by_clip.remove(&key);
            }
        }
        self.remove_inactive_bindings_for_action(id);
    }

    /// Removes inactive action `id` from the action list by moving the last one into its place.
    fn remove_from_action_order(&mut self, id: ActionId) {
        let Some(index) = self.actions[id.0].cache_index.take() else {
            return;
        };
        let moved = self.action_order.pop().unwrap_or(id);
        if moved != id {
            self.action_order[index] = moved;
            self.actions[moved.0].cache_index = Some(index);
        }
    }

    /// `_removeInactiveBindingsForAction`.
    fn remove_inactive_bindings_for_action(&mut self, id: ActionId) {
        for j in 0..self.actions[id.0].bindings.len() {
            let b = self.actions[id.0].bindings[j];
            self.mixers[b].reference_count -= 1;
            if self.mixers[b].reference_count == 0 {
                self.remove_inactive_binding(b);
            }
        }
    }

    /// `_removeInactiveBinding`.
    fn remove_inactive_binding(&mut self, b: usize) {
        let Some(index) = self.slots[b].cache_index.take() else {
            return;
        };
        let last = self.binding_order.len() - 1;
        let moved = self.binding_order[last];
        self.binding_order[index] = moved;
        self.binding_order.pop();
        if moved != b {
            self.slots[moved].cache_index = Some(index);
        }
        self.bindings_by_name.remove(&self.slots[b].track_name);
    }

    /// `_bindAction`: one property mixer per track name, shared between tracks and actions.
    fn bind_action(&mut self, id: ActionId) {
        let clip = Arc::clone(&self.actions[id.0].clip);
        let existing = std::mem::take(&mut self.actions[id.0].bindings);
        let mut bindings = Vec::with_capacity(clip.tracks.len());
        for (i, track) in clip.tracks.iter().enumerate() {
            if let Some(&b) = self.bindings_by_name.get(&track.name) {
                self.mixers[b].reference_count += 1;
                bindings.push(b);
                continue;
            }
            if let Some(&b) = existing.get(i) {
                // A binding kept by an uncached action: make sure the cache knows it again.
                if self.slots[b].cache_index.is_none() {
                    self.mixers[b].reference_count += 1;
                    self.add_inactive_binding(b);
                }
                bindings.push(b);
                continue;
            }
            let (binding, error) = match track.kind {
                TrackKind::String => (None, Some(BindError::StringTrack)),
                _ => match PropertyBinding::bind(&self.pose, &track.name) {
                    Ok(b) => (Some(b), None),
                    Err(e) => (None, Some(e)),
                },
            };
            let b = self.mixers.len();
            let mut mixer =
                PropertyMixer::new(binding, MixKind::for_kind(track.kind), track.value_size());
            mixer.reference_count += 1;
            self.mixers.push(mixer);
            self.slots.push(BindingSlot {
                track_name: track.name.clone(),
                error,
                cache_index: None,
            });
            self.add_inactive_binding(b);
            bindings.push(b);
        }
        self.actions[id.0].bindings = bindings;
    }

    /// `_addInactiveBinding`.
    fn add_inactive_binding(&mut self, b: usize) {
        self.slots[b].cache_index = Some(self.binding_order.len());
        self.binding_order.push(b);
        self.bindings_by_name
            .insert(self.slots[b].track_name.clone(), b);
    }

    /// `_addInactiveAction`.
    fn add_inactive_action(&mut self, id: ActionId, key: String) {
        let entry = self.actions_by_clip.entry(key).or_default();
        if !entry.known.contains(&id) {
            entry.known.push(id);
        }
        entry.by_root = Some(id);
        self.actions[id.0].cache_index = Some(self.action_order.len());
        self.action_order.push(id);
    }

    /// `_activateAction`: binds again if uncached, saves the original state of bindings that
    /// become used, and moves the action to the active part of the list.
    fn activate_action(&mut self, id: ActionId) {
        if self.is_active(id) {
            return;
        }
        if self.actions[id.0].cache_index.is_none() {
            let key = clip_key(&self.actions[id.0].clip);
            self.bind_action(id);
            self.add_inactive_action(id, key);
        }
        for j in 0..self.actions[id.0].bindings.len() {
            let b = self.actions[id.0].bindings[j];
            let was = self.mixers[b].use_count;
            self.mixers[b].use_count += 1;
            if was == 0 {
                self.lend_binding(b);
                self.mixers[b].save_original_state(&self.pose);
            }
        }
        // _lendAction
        let prev = self.actions[id.0].cache_index.unwrap_or(0);
        let last_active = self.n_active_actions;
        self.n_active_actions += 1;
        self.swap_actions(prev, last_active);
    }

    /// `_deactivateAction`: restores bindings no other active action uses and moves the action
    /// to the inactive part of the list.
    fn deactivate_action(&mut self, id: ActionId) {
        if !self.is_active(id) {
            return;
        }
        for j in 0..self.actions[id.0].bindings.len() {
            let b = self.actions[id.0].bindings[j];
            self.mixers[b].use_count -= 1;
            if self.mixers[b].use_count == 0 {
                self.mixers[b].restore_original_state(&mut self.pose);
                self.take_back_binding(b);
            }
        }
        // _takeBackAction
        let prev = self.actions[id.0].cache_index.unwrap_or(0);
        self.n_active_actions -= 1;
        let first_inactive = self.n_active_actions;
        self.swap_actions(prev, first_inactive);
    }

    /// Swaps positions `a` and `b` of the action list, updating both cache indices.
    fn swap_actions(&mut self, a: usize, b: usize) {
        self.action_order.swap(a, b);
        let (x, y) = (self.action_order[a], self.action_order[b]);
        self.actions[x.0].cache_index = Some(a);
        self.actions[y.0].cache_index = Some(b);
    }

    /// `_lendBinding`.
    fn lend_binding(&mut self, b: usize) {
        let prev = self.slots[b].cache_index.unwrap_or(0);
        let last_active = self.n_active_bindings;
        self.n_active_bindings += 1;
        self.swap_bindings(prev, last_active);
    }

    /// `_takeBackBinding`.
    fn take_back_binding(&mut self, b: usize) {
        let prev = self.slots[b].cache_index.unwrap_or(0);
        self.n_active_bindings -= 1;
        let first_inactive = self.n_active_bindings;
        self.swap_bindings(prev, first_inactive);
    }

    /// Swaps positions `a` and `b` of the binding list, updating both cache indices.
    fn swap_bindings(&mut self, a: usize, b: usize) {
        self.binding_order.swap(a, b);
        let (x, y) = (self.binding_order[a], self.binding_order[b]);
        self.slots[x].cache_index = Some(a);
        self.slots[y].cache_index = Some(b);
    }
}

/// An action together with its mixer: three.js's `AnimationAction` methods that reach into the
/// mixer (activation, fades and warps read the mixer time). Dereferences to the
/// [`AnimationAction`].
pub struct ActionMut<'m> {
    mixer: &'m mut Mixer,
    id: ActionId,
}

impl std::ops::Deref for ActionMut<'_> {
    type Target = AnimationAction;
    fn deref(&self) -> &AnimationAction {
        &self.mixer.actions[self.id.0]
    }
}

impl std::ops::DerefMut for ActionMut<'_> {
    fn deref_mut(&mut self) -> &mut AnimationAction {
        &mut self.mixer.actions[self.id.0]
    }
}

impl ActionMut<'_> {
    /// The action's id.
    pub fn id(&self) -> ActionId {
        self.id
    }

    /// Starts playing (three.js `play`): activates the action in the mixer.
    pub fn play(&mut self) -> &mut Self {
        self.mixer.activate_action(self.id);
        self
    }

    /// Deactivates the action and [resets](ActionMut::reset) it (three.js `stop`).
    pub fn stop(&mut self) -> &mut Self {
        self.mixer.deactivate_action(self.id);
        self.reset()
    }

    /// Unpauses, enables, rewinds to 0, clears the loop count and start time, and stops fading
    /// and warping (three.js `reset`).
    pub fn reset(&mut self) -> &mut Self {
        self.reset_state();
        self
    }

    /// Enabled, not paused, non-zero time scale, not waiting for a start time, and active
    /// (three.js `isRunning`).
    pub fn is_running(&self) -> bool {
        self.enabled
            && !self.paused
            && self.time_scale != 0.0
            && self.start_time.is_none()
            && self.mixer.is_active(self.id)
    }

    /// Active in the mixer (three.js `isScheduled`).
    pub fn is_scheduled(&self) -> bool {
        self.mixer.is_active(self.id)
    }

    /// Delays the start until the mixer time reaches `time` (three.js `startAt`).
    pub fn start_at(&mut self, time: f64) -> &mut Self {
        self.start_time = Some(time);
        self
    }

    /// Sets the loop mode and repetitions (three.js `setLoop`).
    pub fn set_loop(&mut self, mode: LoopMode, repetitions: f64) -> &mut Self {
        self.loop_mode = mode;
        self.repetitions = repetitions;
        self
    }

    /// Sets the weight, stopping any fade (three.js `setEffectiveWeight`).
    pub fn set_effective_weight(&mut self, weight: f64) -> &mut Self {
        self.weight = weight;
        self.effective_weight = if self.enabled { weight } else { 0.0 };
        self.stop_fading()
    }

    /// Ramps the weight factor from 0 to 1 over `duration` seconds of mixer time.
    pub fn fade_in(&mut self, duration: f64) -> &mut Self {
        self.schedule_fading(duration, 0.0, 1.0)
    }

    /// Ramps the weight factor from 1 to 0 over `duration`; the action is disabled at the end.
    pub fn fade_out(&mut self, duration: f64) -> &mut Self {
        self.schedule_fading(duration, 1.0, 0.0)
    }

    /// Fades `other` out and this action in over `duration`; with `warp`, also warps both time
    /// scales so the clip speeds meet, restoring the original scales at the end
    /// (three.js `crossFadeFrom`).
    pub fn cross_fade_from(&mut self, other: ActionId, duration: f64, warp: bool) -> &mut Self {
        self.mixer.action_mut(other).fade_out(duration);
        self.fade_in(duration);
        if warp {
            let fade_in_duration = self.clip.duration;
            let fade_out_duration = self.mixer.actions[other.0].clip.duration;
            let start_end_ratio = fade_out_duration / fade_in_duration;
            let end_start_ratio = fade_in_duration / fade_out_duration;
            {
                let mut out = self.mixer.action_mut(other);
                out.restore_time_scale = Some(out.time_scale);
            }
            self.restore_time_scale = Some(self.time_scale);
            self.mixer
                .action_mut(other)
                .warp(1.0, start_end_ratio, duration);
            self.warp(end_start_ratio, 1.0, duration);
        }
        self
    }

    /// Fades this action out and `other` in (three.js `crossFadeTo`).
    pub fn cross_fade_to(&mut self, other: ActionId, duration: f64, warp: bool) -> &mut Self {
        let id = self.id;
        self.mixer
            .action_mut(other)
            .cross_fade_from(id, duration, warp);
        self
    }

    /// Stops the fade, keeping the weight (three.js `stopFading`).
    pub fn stop_fading(&mut self) -> &mut Self {
        self.weight_interpolant = None;
        self
    }

    /// Sets the time scale, stopping any warp (three.js `setEffectiveTimeScale`).
    pub fn set_effective_time_scale(&mut self, time_scale: f64) -> &mut Self {
        self.time_scale = time_scale;
        self.effective_time_scale = if self.paused { 0.0 } else { time_scale };
        self.stop_warping()
    }

    /// Sets the time scale so that one loop takes `duration` seconds (three.js `setDuration`).
    pub fn set_duration(&mut self, duration: f64) -> &mut Self {
        self.time_scale = self.clip.duration / duration;
        self.stop_warping()
    }

    /// Copies `other`'s time and time scale (three.js `syncWith`).
    pub fn sync_with(&mut self, other: ActionId) -> &mut Self {
        let (time, time_scale) = {
            let o = &self.mixer.actions[other.0];
            (o.time, o.time_scale)
        };
        self.time = time;
        self.time_scale = time_scale;
        self.stop_warping()
    }

    /// Slows down to a stop over `duration` (three.js `halt`).
    pub fn halt(&mut self, duration: f64) -> &mut Self {
        let from = self.effective_time_scale;
        self.warp(from, 0.0, duration)
    }

    /// Ramps the time scale from `start` to `end` over `duration` (three.js `warp`; the ramp
    /// holds factors of the current time scale, in f32).
    pub fn warp(&mut self, start: f64, end: f64, duration: f64) -> &mut Self {
        let now = self.mixer.time;
        let time_scale = self.time_scale;
        self.time_scale_interpolant = Some(ControlInterpolant::new(
            now,
            duration,
            start / time_scale,
            end / time_scale,
        ));
        self
    }

    /// Stops the warp and forgets the time scale to restore (three.js `stopWarping`).
    pub fn stop_warping(&mut self) -> &mut Self {
        self.time_scale_interpolant = None;
        self.restore_time_scale = None;
        self
    }

    /// `_scheduleFading(duration, weightNow, weightThen)`.
    fn schedule_fading(&mut self, duration: f64, from: f64, to: f64) -> &mut Self {
        let now = self.mixer.time;
        self.weight_interpolant = Some(ControlInterpolant::new(now, duration, from, to));
        self
    }
}

/// The key of a clip in the action cache: its uuid, or the address of its `Arc`.
fn clip_key(clip: &Arc<Clip>) -> String {
    match &clip.uuid {
        Some(uuid) => uuid.clone(),
        None => format!("\u{0}{:p}", Arc::as_ptr(clip)),
    }
}

/// JavaScript's `Math.sign`: -1, -0, 0, 1 or NaN.
fn js_sign(x: f64) -> f64 {
    if x > 0.0 {
        1.0
    } else if x < 0.0 {
        -1.0
    } else {
        x
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Track;
    use crate::playback::test_support::{angle_y, mixer, number_clip, quaternion_y, x};

    fn vector_clip(name: &str, track: &str, from: f32, to: f32) -> Arc<Clip> {
        let values = vec![from, from, from, to, to, to];
        let track = Track::numeric(track, TrackKind::Vector, vec![0.0, 1.0], values);
        Arc::new(Clip::new(name, 1.0, vec![track]))
    }

    #[test]
    fn time_scale_setters_follow_three_js() {
        let mut m = mixer();
        // x runs from 0 to 10 over the clip's one second.
        let ramp = number_clip("ramp", ".x", &[0.0, 1.0], &[0.0, 10.0], 1.0);
        let a = m.clip_action(&ramp);
        // setDuration(0.5): one loop in half a second, so time runs twice as fast.
        m.action_mut(a).play().set_duration(0.5);
        assert_eq!(m.action(a).time_scale, 2.0);
        m.update(0.1);
        assert_eq!(m.action(a).time, 0.2);
        assert!((x(&m) - 2.0).abs() < 1e-12, "{}", x(&m));
        // setEffectiveTimeScale stops a warp and takes effect at once.
        m.action_mut(a)
            .warp(2.0, 0.0, 1.0)
            .set_effective_time_scale(1.0);
        assert!(m.action(a).time_scale_interpolant.is_none());
        assert_eq!(m.action(a).effective_time_scale, 1.0);
        m.update(0.1);
        assert!((m.action(a).time - 0.3).abs() < 1e-12);
        // On a paused action it sets the scale but the effective scale stays 0.
        m.action_mut(a).paused = true;
        m.action_mut(a).set_effective_time_scale(3.0);
        assert_eq!(
            (m.action(a).time_scale, m.action(a).effective_time_scale),
            (3.0, 0.0)
        );
        // syncWith copies the other action's time and time scale, and stops its own warp.
        let other = number_clip("other", ".x", &[0.0, 1.0], &[0.0, 1.0], 1.0);
        let b = m.clip_action(&other);
        m.action_mut(b).warp(1.0, 2.0, 1.0).sync_with(a);
        assert_eq!(m.action(b).time, m.action(a).time);
        assert_eq!(m.action(b).time_scale, 3.0);
        assert!(m.action(b).time_scale_interpolant.is_none());
    }

    #[test]
    fn a_muted_track_leaves_its_property_at_rest() {
        let mut m = mixer();
        let mut clip = (*number_clip("x", ".x", &[0.0], &[7.0], 1.0)).clone();
        clip.tracks[0].muted = true;
        let a = m.clip_action(&Arc::new(clip));
        m.action_mut(a).play();
        m.update(0.1);
        assert_eq!(x(&m), 0.0);
    }

    #[test]
    fn into_pose_hands_over_the_mixed_values() {
        let mut m = mixer();
        let clip = number_clip("x", ".x", &[0.0], &[7.0], 1.0);
        let a = m.clip_action(&clip);
        m.action_mut(a).play();
        m.update(0.1);
        let pose = m.into_pose();
        assert_eq!(pose.value("root", "x"), Some(&[7.0][..]));
    }

    #[test]
    fn accumulation_order_follows_three_js_swaps() {
        let mut m = mixer();
        let clips: Vec<_> = ["A", "B", "C"]
            .iter()
            .map(|n| number_clip(n, ".x", &[0.0], &[0.0], 1.0))
            .collect();
        let [a, b, c] = [0, 1, 2].map(|i| m.clip_action(&clips[i]));
        m.action_mut(c).play();
        m.action_mut(a).play();
        m.action_mut(b).play();
        assert_eq!(m.active_actions(), [c, a, b]);
        m.action_mut(c).stop();
        assert_eq!(m.active_actions(), [b, a]);
        m.action_mut(c).play();
        assert_eq!(m.active_actions(), [b, a, c]);
    }

    #[test]
    fn stop_all_action_restores_the_original_values() {
        let mut m = mixer();
        let scale = vector_clip("scale", ".scale", 2.0, 1.0);
        let position = vector_clip("position", ".position", 0.0, 1.0);
        let s = m.clip_action(&scale);
        let p = m.clip_action(&position);
        m.action_mut(s).play();
        m.action_mut(p).play();
        m.update(0.1);
        assert_ne!(m.pose().value("root", "position").unwrap(), [0.0; 3]);
        m.stop_all_action();
        assert!(!m.action_mut(s).is_running() && !m.action_mut(p).is_running());
        assert_eq!(m.pose().value("root", "position").unwrap(), [0.0; 3]);
        assert_eq!(m.pose().value("root", "scale").unwrap(), [1.0; 3]);
    }

    #[test]
    fn same_name_tracks_share_one_property_mixer() {
        let mut m = mixer();
        let t0 = Track::numeric(".x", TrackKind::Number, vec![0.0], vec![0.0]);
        let t1 = Track::numeric(".x", TrackKind::Number, vec![0.0], vec![10.0]);
        let clip = Arc::new(Clip::new("twice", 1.0, vec![t0, t1]));
        let a = m.clip_action(&clip);
        m.action_mut(a).play();
        m.update(0.1);
        assert_eq!(x(&m), 5.0);
        assert_eq!(m.property_mixer(".x").unwrap().reference_count, 2);
        assert_eq!(m.stats().bindings_total, 1);
    }

    #[test]
    fn additive_quaternion_on_top_of_a_base_pose() {
        let mut m = mixer();
        let q = quaternion_y(90.0).map(|v| v as f32);
        let track = |name| Track::numeric(name, TrackKind::Quaternion, vec![0.0], q.to_vec());
        let base = Arc::new(Clip::new("base", 1.0, vec![track(".quaternion")]));
        let mut additive = Clip::new("add", 1.0, vec![track(".quaternion")]);
        additive.blend_mode = BlendMode::Additive;
        let additive = Arc::new(additive);
        let b = m.clip_action(&base);
        let a = m.clip_action(&additive);
        assert_eq!(m.action(a).blend_mode, BlendMode::Additive);
        m.action_mut(b).play();
        m.action_mut(a).play().set_effective_weight(0.5);
        m.update(0.1);
        let angle = angle_y(m.pose().value("root", "quaternion").unwrap());
        assert!((angle - 135.0).abs() < 1e-4, "{angle}");
    }

    #[test]
    fn additive_numbers_add_weighted_values() {
        let mut m = mixer();
        let base = number_clip("base", ".x", &[0.0], &[10.0], 1.0);
        let mut add = Clip::new("add", 1.0, base.tracks.clone());
        add.blend_mode = BlendMode::Additive;
        let add = Arc::new(add);
        let b = m.clip_action(&base);
        let a = m.clip_action(&add);
        m.action_mut(b).play();
        m.action_mut(a).play().set_effective_weight(0.5);
        m.update(0.1);
        assert_eq!(x(&m), 15.0);
    }

    #[test]
    fn unbound_tracks_are_reported() {
        let mut m = mixer();
        let tracks = vec![
            Track::numeric(".x", TrackKind::Number, vec![0.0], vec![1.0]),
            Track::numeric("ghost.position", TrackKind::Vector, vec![0.0], vec![0.0; 3]),
            Track::numeric(".opacity", TrackKind::Number, vec![0.0], vec![1.0]),
            Track::new(
                ".name",
                TrackKind::String,
                vec![0.0],
                crate::model::Values::Strings(vec!["a".into()]),
            ),
        ];
        let clip = Arc::new(Clip::new("mixed", 1.0, tracks));
        let a = m.clip_action(&clip);
        let unbound = m.unbound_tracks();
        let names: Vec<&str> = unbound.iter().map(|u| u.track.as_str()).collect();
        assert_eq!(names, ["ghost.position", ".opacity", ".name"]);
        assert_eq!(unbound[0].reason, BindError::NoSuchNode("ghost".into()));
        assert_eq!(unbound[2].reason, BindError::StringTrack);
        // Unbound tracks do no harm: the bound one still plays.
        m.action_mut(a).play();
        m.update(0.1);
        assert_eq!(x(&m), 1.0);
    }

    #[test]
    fn clip_action_and_existing_action() {
        let mut m = mixer();
        let clip = number_clip("c", ".x", &[0.0, 1.0], &[0.0, 1.0], 1.0);
        let a = m.clip_action(&clip);
        assert_eq!(m.clip_action(&clip), a);
        assert_eq!(m.existing_action(&clip), Some(a));
        // Another blend mode makes a new action, which becomes the clip's action.
        let b = m.clip_action_with(&clip, BlendMode::Additive);
        assert_ne!(a, b);
        assert_eq!(m.existing_action(&clip), Some(b));
        assert_eq!(m.stats().actions_total, 2);
        assert_eq!(m.stats().bindings_total, 1);
        let other = number_clip("c", ".x", &[0.0], &[0.0], 1.0);
        assert_eq!(m.existing_action(&other), None);
    }

    #[test]
    fn first_update_uses_accumulator_one_and_time_scale_applies() {
        let mut m = mixer();
        let clip = number_clip("c", ".x", &[0.0, 1.0], &[0.0, 10.0], 1.0);
        let a = m.clip_action(&clip);
        m.action_mut(a).play();
        m.time_scale = 2.0;
        m.update(0.25);
        assert_eq!(m.time, 0.5);
        assert_eq!(x(&m), 5.0);
        assert_eq!(m.property_mixer(".x").unwrap().region(2), [5.0]);
    }

    #[test]
    fn bindings_follow_a_pose_whose_layout_changes() {
        let mut m = mixer();
        let clip = number_clip("c", ".x", &[0.0, 1.0], &[0.0, 10.0], 1.0);
        let a = m.clip_action(&clip);
        m.action_mut(a).play();
        m.update(0.5);
        assert_eq!(x(&m), 5.0);
        // A property defined before `x` moves it along in the flat values; the mixer finds it.
        let before = m.pose().slot("root", "x").unwrap();
        m.pose_mut().define("root", "x", &[0.0]);
        m.pose_mut()
            .define("root", "position", &[0.0, 0.0, 0.0, 0.0]);
        assert_eq!(m.pose().slot("root", "x"), Some(before));
        m.update(0.1);
        assert_eq!(x(&m), 6.0);
        // A whole new pose in another order.
        let mut other = Pose::new("root");
        other
            .define("root", "y", &[0.0, 0.0, 0.0])
            .define("root", "x", &[0.0]);
        let old = std::mem::replace(m.pose_mut(), other);
        assert_ne!(m.pose().layout_id(), old.layout_id());
        m.update(0.1);
        assert_eq!(x(&m), 7.0);
        assert_eq!(m.pose().value("root", "y"), Some(&[0.0; 3][..]));
    }

    #[test]
    fn set_time_rewinds_every_action_and_updates() {
        let mut m = mixer();
        let clip = number_clip("c", ".x", &[0.0, 1.0], &[0.0, 10.0], 1.0);
        let a = m.clip_action(&clip);
        m.action_mut(a).play();
        m.update(0.7);
        m.set_time(0.25);
        assert_eq!((m.time, m.action(a).time, x(&m)), (0.25, 0.25, 2.5));
    }

    #[test]
    fn uncache_clip_and_action() {
        let mut m = mixer();
        let clip = number_clip("c", ".x", &[0.0, 1.0], &[0.0, 10.0], 1.0);
        let other = number_clip("d", ".rotation[x]", &[0.0], &[3.0], 1.0);
        let a = m.clip_action(&clip);
        let o = m.clip_action(&other);
        m.action_mut(a).play();
        m.update(0.5);
        assert_eq!(x(&m), 5.0);
        m.uncache_clip(&clip);
        assert_eq!(x(&m), 0.0, "restored when deactivated");
        assert_eq!(m.existing_action(&clip), None);
        assert_eq!(m.stats().actions_total, 1);
        assert_eq!(m.stats().bindings_total, 1);
        assert!(m.property_mixer(".x").is_none());
        // The id stays usable: playing binds again (uncaching does not rewind).
        m.action_mut(a).play();
        m.update(0.1);
        assert_eq!(x(&m), 6.0);
        assert_eq!(m.existing_action(&clip), Some(a));
        assert_eq!(m.stats().actions_total, 2);

        m.uncache_action(&other);
        assert_eq!(m.existing_action(&other), None);
        assert_eq!(m.stats().actions_total, 1);
        assert!(m.property_mixer(".rotation[x]").is_none());
        assert!(m.is_active(a));
        let _ = o;
    }
}
