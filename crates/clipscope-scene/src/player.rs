//! One clip playing on one figure: the mixer, its action, an optional second clip blended in,
//! and the frame of any moment.
//!
//! The editor's transport owns the time (scrubbing, loop modes, speed), so the player does not
//! advance time itself: [`Player::pose_at`] puts the actions at the requested time and lets the
//! mixer apply them, exactly as three.js would sample the clips there (each action plays once
//! and clamps, so the clip's last moment shows its last pose rather than wrapping to the first).
//!
//! A second clip ([`Layer`]) shows blending: cross-faded with the first (weights `1 − w` and
//! `w`), or added on top of it as an additive clip (weights 1 and `w`; a clip stored as a
//! normal clip is made additive against its first frame first, as three.js's additive-blending
//! example does). The second clip runs in step with the first: its time is the first clip's
//! time scaled by the ratio of their durations, like three.js's `syncWith` plus warping.

use std::sync::Arc;

use clipscope_core::model::ops::make_clip_additive;
use clipscope_core::model::{BlendMode, Clip};
use clipscope_core::playback::{ActionId, LoopMode, Mixer, Pose, UnboundTrack};

use super::{BoxInstance, Figure, FigureFrame, Rig, pick_rig};

/// How a second clip joins the first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LayerMode {
    /// Blend between the clips: the first at weight `1 − w`, the second at `w`.
    #[default]
    CrossFade,
    /// Add the second clip's motion on top of the first at weight `w`.
    Additive,
}

/// A second clip blended with the player's clip.
#[derive(Debug, Clone)]
pub struct Layer {
    /// The clip as given.
    pub clip: Arc<Clip>,
    /// How it joins the first clip.
    pub mode: LayerMode,
    /// Its weight, 0–1.
    pub weight: f64,
}

/// A clip bound to a figure through a three.js-exact mixer.
pub struct Player {
    figure: Figure,
    clip: Arc<Clip>,
    mixer: Mixer,
    action: ActionId,
    layer: Option<(Layer, ActionId)>,
}

impl Player {
    /// `clip` playing on `rig`.
    pub fn new(clip: Arc<Clip>, rig: Rig) -> Player {
        Player::on(clip, Figure::Rig(rig))
    }

    /// `clip` playing on `figure`.
    pub fn on(clip: Arc<Clip>, figure: Figure) -> Player {
        let mut mixer = Mixer::new(figure.rest_pose());
        let action = start(&mut mixer, &clip, BlendMode::Normal);
        Player {
            figure,
            clip,
            mixer,
            action,
            layer: None,
        }
    }

    /// `clip` playing on the built-in rig it matches, or on a proxy rig made for it.
    pub fn for_clip(clip: Arc<Clip>) -> Player {
        let rig = pick_rig(&clip, Rig::builtins());
        Player::new(clip, rig)
    }

    /// What the clip plays on.
    pub fn figure(&self) -> &Figure {
        &self.figure
    }

    /// The rig the clip plays on, when it plays on a rig or a model's skeleton.
    pub fn rig(&self) -> Option<&Rig> {
        self.figure.rig()
    }

    /// The second clip, if one is blended in.
    pub fn layer(&self) -> Option<&Layer> {
        self.layer.as_ref().map(|(l, _)| l)
    }

    /// Blends `layer` in (or removes the second clip with `None`). Changing only the weight
    /// keeps the mixer; a new clip or mode rebuilds it.
    pub fn set_layer(&mut self, layer: Option<Layer>) {
        let same = match (&self.layer, &layer) {
            (Some((old, _)), Some(new)) => {
                Arc::ptr_eq(&old.clip, &new.clip) && old.mode == new.mode
            }
            (None, None) => true,
            _ => false,
        };
        if same {
            if let (Some((old, _)), Some(new)) = (&mut self.layer, layer) {
                old.weight = new.weight;
            }
            return;
        }
        let mut mixer = Mixer::new(self.figure.rest_pose());
        self.action = start(&mut mixer, &self.clip, BlendMode::Normal);
        self.layer = layer.map(|layer| {
            let id = match layer.mode {
                LayerMode::CrossFade => start(&mut mixer, &layer.clip, BlendMode::Normal),
                LayerMode::Additive => {
                    let clip = if layer.clip.blend_mode == BlendMode::Additive {
                        layer.clip.clone()
                    } else {
                        let mut additive = (*layer.clip).clone();
                        make_clip_additive(&mut additive, 0.0, None, 30.0);
                        Arc::new(additive)
                    };
                    start(&mut mixer, &clip, BlendMode::Additive)
                }
            };
            (layer, id)
        });
        self.mixer = mixer;
    }

    /// The clip's tracks that bind to nothing on this figure (listed in the UI, not dropped),
    /// the second clip's included.
    pub fn unbound_tracks(&self) -> Vec<UnboundTrack> {
        match self.figure {
            // Layers read every transform track of their clip themselves.
            Figure::Layers(_) => Vec::new(),
            _ => self.mixer.unbound_tracks(),
        }
    }

    /// Follows an edit of the `changed` tracks of the clip (now `source`), copying only those
    /// tracks and keeping every binding; false (nothing changed) when the edit did more than
    /// change keys (tracks renamed, added or removed, the duration or blend mode changed), a
    /// second clip is blended in or the figure reads the clip itself (Lottie layers): then the
    /// player must be made again.
    pub fn update_tracks(
        &mut self,
        source: &Clip,
        changed: &std::collections::BTreeSet<usize>,
    ) -> bool {
        let own = &self.clip;
        let same = self.layer.is_none()
            && !matches!(self.figure, Figure::Layers(_))
            && source.tracks.len() == own.tracks.len()
            && source.duration == own.duration
            && source.blend_mode == own.blend_mode
            && changed.iter().all(|&t| {
                t < own.tracks.len()
                    && source.tracks[t].name == own.tracks[t].name
                    && source.tracks[t].kind == own.tracks[t].kind
                    && source.tracks[t].value_size() == own.tracks[t].value_size()
            });
        if !same {
            return false;
        }
        if changed.is_empty() {
            return true;
        }
        // Take the clip from the action and drop the player's handle, so the clip is ours
        // alone and its tracks change in place.
        let placeholder = Arc::new(Clip::new(String::new(), 0.0, Vec::new()));
        let mut clip = self.mixer.swap_clip(
            self.action,
            placeholder.clone(),
            &std::collections::BTreeSet::new(),
        );
        self.clip = placeholder;
        {
            let clip = Arc::make_mut(&mut clip);
            for &t in changed {
                clip.tracks[t].clone_from(&source.tracks[t]);
            }
        }
        self.mixer.swap_clip(self.action, clip.clone(), changed);
        self.clip = clip;
        true
    }

    /// What the clip plays on and how much of it binds (the second clip left out).
    pub fn report(&self) -> super::FigureReport {
        let own: std::collections::HashSet<&str> =
            self.clip.tracks.iter().map(|t| t.name.as_str()).collect();
        let unbound: Vec<String> = self
            .unbound_tracks()
            .into_iter()
            .filter(|u| own.contains(u.track.as_str()))
            .map(|u| u.track)
            .collect();
        let (source, file) = self.figure.origin();
        let tracks = self.clip.tracks.len();
        super::FigureReport {
            name: self.figure.name().to_string(),
            source,
            file: file.map(str::to_string),
            bound: tracks.saturating_sub(unbound.len()),
            tracks,
            unbound,
            mesh: self.figure.mesh_report(),
        }
    }

    /// The figure's pose with the clips applied at `time` seconds.
    pub fn pose_at(&mut self, time: f64) -> &Pose {
        let base_weight = match &self.layer {
            Some((layer, _)) if layer.mode == LayerMode::CrossFade => 1.0 - layer.weight,
            _ => 1.0,
        };
        place(&mut self.mixer, self.action, time, base_weight);
        if let Some((layer, id)) = &self.layer {
            let other = layer.clip.duration;
            let t = if self.clip.duration > 0.0 && other > 0.0 {
                time / self.clip.duration * other
            } else {
                time
            };
            place(&mut self.mixer, *id, t, layer.weight);
        }
        self.mixer.update(0.0);
        self.mixer.pose()
    }

    /// The figure posed at `time`, written into `out`.
    pub fn frame_at(&mut self, time: f64, out: &mut FigureFrame) {
        self.pose_at(time);
        self.figure.frame(self.mixer.pose(), time, out);
    }

    /// The boxes of the figure posed at `time`, written into `out` (cleared first; empty for a
    /// morph mesh, a model's bones).
    pub fn instances_at(&mut self, time: f64, out: &mut Vec<BoxInstance>) {
        self.pose_at(time);
        out.clear();
        match &self.figure {
            Figure::Rig(rig) => rig.instances(self.mixer.pose(), out),
            Figure::Layers(layers) => layers.instances(time, out),
            Figure::Model(model) => {
                let mut frame = FigureFrame::default();
                model.frame(self.mixer.pose(), &mut frame);
                out.append(&mut frame.boxes);
            }
            Figure::Mesh(_) => {}
        }
    }
}

/// Adds an action for `clip` that plays once and clamps, and starts it.
fn start(mixer: &mut Mixer, clip: &Arc<Clip>, blend_mode: BlendMode) -> ActionId {
    let id = mixer.clip_action_with(clip, blend_mode);
    let mut a = mixer.action_mut(id);
    a.loop_mode = LoopMode::Once;
    a.clamp_when_finished = true;
    a.play();
    id
}

/// Puts action `id` at `time` with `weight`, running.
fn place(mixer: &mut Mixer, id: ActionId, time: f64, weight: f64) {
    let mut a = mixer.action_mut(id);
    a.time = time;
    a.paused = false;
    a.enabled = true;
    a.weight = weight;
}

/// The boxes of `clip` posed at `time` seconds on the rig it matches: one frame for
/// `clipscope render`, without keeping a player.
pub fn posed_instances(clip: &Clip, time: f64) -> Vec<BoxInstance> {
    let mut out = Vec::new();
    Player::for_clip(Arc::new(clip.clone())).instances_at(time, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use clipscope_core::assets;
    use clipscope_core::playback::PropertyKey;
    use std::path::Path;

    fn demo() -> Vec<Arc<Clip>> {
        let doc = clipscope_core::formats::read_bytes(assets::DEMO_CLIPS, Path::new("walk.json"))
            .unwrap();
        doc.clips.into_iter().map(Arc::new).collect()
    }

    fn walk() -> Arc<Clip> {
        demo().remove(0)
    }

    fn value(pose: &Pose, node: &str, property: &str) -> Vec<f64> {
        pose.property(&PropertyKey::new(node, property))
            .unwrap()
            .value
            .to_vec()
    }

    #[test]
    fn the_demo_walk_plays_on_the_hero() {
        let mut player = Player::for_clip(walk());
        assert_eq!(player.figure().name(), "Hero");
        assert!(
            player.unbound_tracks().is_empty(),
            "{:?}",
            player.unbound_tracks()
        );
        let (mut a, mut b) = (Vec::new(), Vec::new());
        player.instances_at(0.25, &mut a);
        player.instances_at(0.75, &mut b);
        assert_eq!(a.len(), player.rig().unwrap().parts.len());
        assert_ne!(a, b, "the walk moves the character");
        // Scrubbing back gives the same frame again.
        let mut again = Vec::new();
        player.instances_at(0.25, &mut again);
        assert_eq!(a, again);
    }

    #[test]
    fn the_end_of_the_clip_shows_the_last_pose_not_the_first() {
        let clip = walk();
        let mut player = Player::for_clip(clip.clone());
        let pose_end = player.pose_at(clip.duration).clone();
        let pose_almost = player.pose_at(clip.duration - 1e-4).clone();
        let end = value(&pose_end, "upperLeg.L", "quaternion");
        let almost = value(&pose_almost, "upperLeg.L", "quaternion");
        for (x, y) in end.iter().zip(&almost) {
            assert!((x - y).abs() < 1e-2, "{end:?} vs {almost:?}");
        }
    }

    /// A clip moving the Hero's root up by `height` over one second.
    fn rise(name: &str, height: f32) -> Arc<Clip> {
        use clipscope_core::model::{Track, TrackKind};
        Arc::new(Clip::new(
            name,
            -1.0,
            vec![Track::numeric(
                "Hero.position",
                TrackKind::Vector,
                vec![0.0, 1.0],
                vec![0.0, 0.0, 0.0, 0.0, height, 0.0],
            )],
        ))
    }

    #[test]
    fn following_an_edit_of_some_tracks_poses_like_a_new_player() {
        let clip = walk();
        let mut player = Player::for_clip(clip.clone());
        let mut edited = (*clip).clone();
        let t = edited
            .tracks
            .iter()
            .position(|t| t.name.contains("upperLeg.L"))
            .unwrap();
        for v in edited.tracks[t].values.as_numbers_mut().unwrap().iter_mut() {
            *v += 0.2;
        }
        let changed = [t].into();
        assert!(player.update_tracks(&edited, &changed));
        let edited = Arc::new(edited);
        let mut fresh = Player::for_clip(edited.clone());
        for time in [0.1, 0.37, 0.8] {
            let (mut a, mut b) = (Vec::new(), Vec::new());
            player.instances_at(time, &mut a);
            fresh.instances_at(time, &mut b);
            assert_eq!(a, b, "at {time}");
        }
        // A renamed track is more than keys: the player must be made again.
        let mut renamed = (*edited).clone();
        renamed.tracks[t].name = ".bones[tail].quaternion".into();
        assert!(!player.update_tracks(&renamed, &changed));
    }

    #[test]
    fn cross_fade_blends_by_weight() {
        let hero = Rig::builtin("hero").unwrap().clone();
        let mut player = Player::new(rise("low", 1.0), hero);
        let layer = |w| Layer {
            clip: rise("high", 3.0),
            mode: LayerMode::CrossFade,
            weight: w,
        };
        assert_eq!(value(player.pose_at(1.0), "Hero", "position")[1], 1.0);
        let high = rise("high", 3.0);
        player.set_layer(Some(Layer {
            clip: high.clone(),
            ..layer(0.25)
        }));
        assert_eq!(value(player.pose_at(1.0), "Hero", "position")[1], 1.5);
        player.set_layer(Some(Layer {
            clip: high,
            ..layer(1.0)
        }));
        assert_eq!(value(player.pose_at(1.0), "Hero", "position")[1], 3.0);
        player.set_layer(None);
        assert_eq!(value(player.pose_at(1.0), "Hero", "position")[1], 1.0);
    }

    #[test]
    fn additive_layers_add_motion_on_top() {
        let hero = Rig::builtin("hero").unwrap().clone();
        let mut player = Player::new(rise("low", 1.0), hero);
        // A normal clip is made additive against its first frame: +2 at t=1, times 0.5.
        player.set_layer(Some(Layer {
            clip: rise("hop", 2.0),
            mode: LayerMode::Additive,
            weight: 0.5,
        }));
        assert_eq!(value(player.pose_at(1.0), "Hero", "position")[1], 2.0);
        assert_eq!(value(player.pose_at(0.0), "Hero", "position")[1], 0.0);
    }

    #[test]
    fn the_second_clip_runs_in_step() {
        let hero = Rig::builtin("hero").unwrap().clone();
        let mut player = Player::new(rise("low", 0.0), hero);
        let mut slow = (*rise("slow", 4.0)).clone();
        slow.tracks[0].times[1] = 2.0;
        slow.duration = 2.0;
        player.set_layer(Some(Layer {
            clip: Arc::new(slow),
            mode: LayerMode::CrossFade,
            weight: 1.0,
        }));
        // Halfway through the first clip is halfway through the second.
        assert_eq!(value(player.pose_at(0.5), "Hero", "position")[1], 2.0);
    }
}
