//! Selecting keys of the shown tracks: every key, the keys in the same column (at the times of
//! the selected keys), or the keys inside the play range. Hidden components are left out.

use std::collections::BTreeSet;

use clipscope_core::model::Clip;
use clipscope_editor::KeyRef;

use crate::ui::selection::Selection;

use super::super::ClipscopeApp;

impl ClipscopeApp {
    /// Selects every shown component of every key of the shown tracks.
    pub(super) fn select_all_keys(&mut self) {
        let Some((_, clip)) = self.selected_clip() else {
            return;
        };
        self.selection.keys = shown_keys(&self.selection, clip, |_| true);
    }

    /// Selects the keys of the shown tracks at the times of the selected keys, or at the
    /// playhead when none is selected (Blender's column select).
    pub(super) fn select_column(&mut self) {
        let Some((_, clip)) = self.selected_clip() else {
            return;
        };
        let mut times: Vec<f32> = self
            .selection
            .keys
            .iter()
            .filter_map(|k| clip.tracks.get(k.track)?.times.get(k.key).copied())
            .collect();
        if times.is_empty() {
            times.push(self.playhead() as f32);
        }
        times.sort_by(f32::total_cmp);
        times.dedup();
        let near = |t: f32| {
            let i = times.partition_point(|&x| x < t - 1e-5);
            times.get(i).is_some_and(|&x| (x - t).abs() <= 1e-5)
        };
        self.selection.keys = shown_keys(&self.selection, clip, near);
    }

    /// Selects every shown component of the keys of the shown tracks inside the play range (the
    /// whole clip without one).
    pub(super) fn select_in_play_range(&mut self) {
        let Some((_, clip)) = self.selected_clip() else {
            return;
        };
        let (lo, hi) = self.transport.bounds(clip.duration);
        let inside = |t: f32| {
            let t = t as f64;
            t >= lo - 1e-6 && t <= hi + 1e-6
        };
        self.selection.keys = shown_keys(&self.selection, clip, inside);
    }
}

/// Every shown component of the keys of `sel`'s shown tracks of `clip` whose time passes
/// `keep`.
fn shown_keys(sel: &Selection, clip: &Clip, keep: impl Fn(f32) -> bool) -> BTreeSet<KeyRef> {
    let mut keys = BTreeSet::new();
    for &t in &sel.tracks {
        let Some(tr) = clip.tracks.get(t) else {
            continue;
        };
        let comps: Vec<usize> = (0..tr.value_size().max(1))
            .filter(|&c| !sel.hidden.contains(&(t, c)))
            .collect();
        for (key, &time) in tr.times.iter().enumerate() {
            if keep(time) {
                keys.extend(comps.iter().map(|&component| KeyRef {
                    track: t,
                    key,
                    component,
                }));
            }
        }
    }
    keys
}
