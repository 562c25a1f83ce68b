//! One clip playing on one rig: the mixer, its action, and the boxes of any moment.
//!
//! The editor's transport owns the time (scrubbing, loop modes, speed), so the player does not
//! advance time itself: [`Player::pose_at`] puts the action at the requested time and lets the
//! mixer apply it, exactly as three.js would sample the clip there (the action plays once and
//! clamps, so the clip's last moment shows its last pose rather than wrapping to the first).

use std::sync::Arc;

use crate::model::Clip;
use crate::playback::{ActionId, LoopMode, Mixer, Pose, UnboundTrack};

use super::{BoxInstance, Rig, pick_rig};

/// A clip bound to a rig through a three.js-exact mixer.
pub struct Player {
    rig: Rig,
    mixer: Mixer,
    action: ActionId,
}

impl Player {
    /// `clip` playing on `rig`.
    pub fn new(clip: Arc<Clip>, rig: Rig) -> Player {
        let mut mixer = Mixer::new(rig.rest_pose());
        let action = mixer.clip_action(&clip);
        {
            let mut a = mixer.action_mut(action);
            a.loop_mode = LoopMode::Once;
            a.clamp_when_finished = true;
            a.play();
        }
        Player { rig, mixer, action }
    }

    /// `clip` playing on the built-in rig it matches, or on a proxy rig made for it.
    pub fn for_clip(clip: Arc<Clip>) -> Player {
        let rig = pick_rig(&clip, Rig::builtins());
        Player::new(clip, rig)
    }

    /// The rig the clip plays on.
    pub fn rig(&self) -> &Rig {
        &self.rig
    }

    /// The clip's tracks that bind to nothing on this rig (listed in the UI, not dropped).
    pub fn unbound_tracks(&self) -> Vec<UnboundTrack> {
        self.mixer.unbound_tracks()
    }

    /// The rig's pose with the clip applied at `time` seconds.
    pub fn pose_at(&mut self, time: f64) -> &Pose {
        {
            let mut a = self.mixer.action_mut(self.action);
            a.time = time;
            a.paused = false;
            a.enabled = true;
        }
        self.mixer.update(0.0);
        self.mixer.pose()
    }

    /// The boxes of the rig posed at `time`, written into `out` (cleared first).
    pub fn instances_at(&mut self, time: f64, out: &mut Vec<BoxInstance>) {
        self.pose_at(time);
        out.clear();
        self.rig.instances(self.mixer.pose(), out);
    }
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
    use crate::assets;
    use std::path::Path;

    fn walk() -> Arc<Clip> {
        let doc = crate::formats::read_bytes(assets::DEMO_CLIPS, Path::new("walk.json")).unwrap();
        Arc::new(doc.clips[0].clone())
    }

    #[test]
    fn the_demo_walk_plays_on_the_hero() {
        let mut player = Player::for_clip(walk());
        assert_eq!(player.rig().name, "Hero");
        assert!(
            player.unbound_tracks().is_empty(),
            "{:?}",
            player.unbound_tracks()
        );
        let (mut a, mut b) = (Vec::new(), Vec::new());
        player.instances_at(0.25, &mut a);
        player.instances_at(0.75, &mut b);
        assert_eq!(a.len(), player.rig().parts.len());
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
        let key = crate::playback::PropertyKey::new("upperLeg.L", "quaternion");
        let end = pose_end.property(&key).unwrap().value.to_vec();
        let almost = pose_almost.property(&key).unwrap().value.to_vec();
        for (x, y) in end.iter().zip(&almost) {
            assert!((x - y).abs() < 1e-2, "{end:?} vs {almost:?}");
        }
    }
}
