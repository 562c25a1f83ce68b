//! The compare view's ghost: another version of the shown clip posed at the same time on the
//! same figure, its boxes pale blue and a little smaller than the current figure's, so where
//! the two versions agree the ghost hides inside the figure and where they differ it shows.

use std::sync::Arc;

use clipscope_scene::{BoxInstance, Player};
use glam::Mat4;

use super::Subject;

/// What the ghost boxes are tinted toward (linear RGB).
const TINT: [f32; 3] = [0.45, 0.7, 1.0];
/// How much of the tint a ghost box takes.
const TINT_SHARE: f32 = 0.8;
/// A ghost box's size relative to the figure's box (so identical poses hide the ghost).
const SHRINK: f32 = 0.92;

/// The ghost's player and this frame's boxes.
#[derive(Default)]
pub struct Ghost {
    /// The other version playing on a copy of the figure, and what it was made for: the
    /// version's key and the stage's player count (a new figure makes a new ghost).
    player: Option<((u64, u64), Player)>,
    /// The ghost's boxes this frame (empty without a ghost).
    pub boxes: Vec<BoxInstance>,
}

impl Ghost {
    /// Poses `subject`'s ghost clip at `time` on the figure `shown` plays on; no boxes without
    /// a ghost clip or a shown figure (and none for a morph mesh).
    pub fn pose(&mut self, subject: Subject<'_>, shown: Option<(&Player, u64)>, time: f64) {
        self.boxes.clear();
        let (Some((key, clip)), Some((figure, made))) = (subject.ghost, shown) else {
            self.player = None;
            return;
        };
        let wanted = (key, made);
        if self.player.as_ref().is_none_or(|(k, _)| *k != wanted) {
            let player = Player::on(Arc::new(clip.clone()), figure.figure().clone());
            self.player = Some((wanted, player));
        }
        if let Some((_, player)) = &mut self.player {
            player.instances_at(time, &mut self.boxes);
        }
        for b in &mut self.boxes {
            b.transform *= Mat4::from_scale(glam::Vec3::splat(SHRINK));
            for (c, t) in b.colour.iter_mut().zip(TINT) {
                *c += (t - *c) * TINT_SHARE;
            }
        }
    }
}
