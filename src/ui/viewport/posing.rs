//! What the viewport does with a posed frame besides drawing it, without egui: tinting the
//! bones of the tracks shown in the curve editor, the bounds of a clip's whole motion that
//! the camera frames, and whether the take travels.

use std::collections::{BTreeSet, HashSet};

use clipscope_core::model::Clip;
use clipscope_render::{Bounds, Frame};
use clipscope_scene::{BoxInstance, Figure, FigureFrame, Player, Rig};

/// How many moments of a clip [`motion_bounds`] poses.
const FRAMING_SAMPLES: u32 = 24;

/// The bounds of everything `player`'s figure does over the clip (`duration` seconds, sampled
/// at [`FRAMING_SAMPLES`] moments), with the ground under a figure near it (y = 0) included, so
/// framing shows the whole motion and where it touches the ground.
pub(super) fn motion_bounds(player: &mut Player, duration: f64) -> Option<Bounds> {
    let mut scratch = FigureFrame::default();
    let mut bounds: Option<Bounds> = None;
    for k in 0..=FRAMING_SAMPLES {
        let t = duration.max(0.0) * f64::from(k) / f64::from(FRAMING_SAMPLES);
        player.frame_at(t, &mut scratch);
        if let Some(b) = Frame::framing_bounds(player.figure(), &scratch) {
            bounds = Some(bounds.map_or(b, |a| a.union(b)));
        }
    }
    // A figure near the ground (within its own height) is shown with where it meets it.
    grounded(player.figure(), bounds)
}

/// How many times the figure's size a take's path must span to count as travelling.
const TRAVEL_FACTOR: f32 = 3.0;

/// Whether a take whose whole motion spans `motion` travels: its path over the ground is more
/// than [`TRAVEL_FACTOR`] times the size of the figure (`figure`, its bounds at one moment), so
/// framing the whole path would leave the figure a speck.
pub(super) fn travels(motion: Bounds, figure: Bounds) -> bool {
    let span = motion.max - motion.min;
    let path = span.x.max(span.z);
    let size = (figure.max - figure.min).max_element().max(1e-4);
    path > TRAVEL_FACTOR * size
}

/// A cube figure's bounds at one moment with the ground under it (as [`motion_bounds`] does),
/// so framing it shows where it stands.
pub(super) fn grounded(figure: &Figure, bounds: Option<Bounds>) -> Option<Bounds> {
    let mut bounds = bounds?;
    let height = bounds.max.y - bounds.min.y;
    if matches!(figure, Figure::Rig(_)) && bounds.min.y > 0.0 && bounds.min.y <= height {
        bounds.min.y = 0.0;
    }
    Some(bounds)
}

/// The colour highlighted bones lean toward, linear RGB.
const HIGHLIGHT: [f32; 3] = [1.0, 0.78, 0.12];

/// Tints the boxes (and joints) of the parts that `selected` tracks of `clip` animate.
pub(super) fn highlight(
    rig: &Rig,
    clip: &Clip,
    selected: &BTreeSet<usize>,
    boxes: &mut [BoxInstance],
) {
    if selected.is_empty() {
        return;
    }
    let nodes: HashSet<String> = selected
        .iter()
        .filter_map(|&t| clip.tracks.get(t))
        .filter_map(|t| clipscope_core::model::binding::parse_track_name(&t.name).ok())
        .filter_map(|p| p.animated_node())
        .collect();
    for (i, b) in boxes.iter_mut().enumerate() {
        let Some(part) = rig.part_of_box(i) else {
            continue;
        };
        if nodes.contains(&rig.parts[part].name) {
            for (c, h) in b.colour.iter_mut().zip(HIGHLIGHT) {
                *c = *c * 0.35 + h * 0.65;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clipscope_core::{assets, formats};
    use glam::Vec3;
    use std::path::Path;
    use std::sync::Arc;

    /// The demo walk playing on the Hero.
    fn walk() -> (Clip, Player) {
        let doc = formats::read_bytes(assets::DEMO_CLIPS, Path::new(assets::DEMO_NAME)).unwrap();
        let clip = doc.clips[0].clone();
        let hero = Rig::builtin("Hero").unwrap().bound_to(&clip);
        let player = Player::on(Arc::new(clip.clone()), Figure::Rig(hero));
        (clip, player)
    }

    #[test]
    fn only_the_bones_of_the_selected_tracks_are_tinted() {
        let (clip, mut player) = walk();
        let mut frame = FigureFrame::default();
        player.frame_at(0.25, &mut frame);
        let plain = frame.boxes.clone();
        let rig = player.rig().unwrap();
        let head = clip
            .tracks
            .iter()
            .position(|t| t.name == ".bones[head].quaternion")
            .unwrap();
        highlight(rig, &clip, &BTreeSet::from([head]), &mut frame.boxes);
        let head_part = rig.part_index("head").unwrap();
        for (i, (lit, was)) in frame.boxes.iter().zip(&plain).enumerate() {
            let of_head = rig.part_of_box(i) == Some(head_part);
            assert_eq!(lit.colour != was.colour, of_head, "box {i}");
        }
        // Nothing selected: nothing tinted.
        let mut untouched = plain.clone();
        highlight(rig, &clip, &BTreeSet::new(), &mut untouched);
        assert_eq!(untouched, plain);
    }

    #[test]
    fn motion_bounds_hold_every_moment_and_the_ground_below() {
        let (clip, mut player) = walk();
        let bounds = motion_bounds(&mut player, clip.duration).unwrap();
        let mut frame = FigureFrame::default();
        for t in [0.0, clip.duration * 0.25, clip.duration] {
            player.frame_at(t, &mut frame);
            let now = Frame::of(player.figure(), &frame).bounds().unwrap();
            assert!(bounds.min.cmple(now.min + 1e-5).all(), "{t}");
            assert!(bounds.max.cmpge(now.max - 1e-5).all(), "{t}");
        }
        assert!(bounds.min.y <= 0.0);
    }

    #[test]
    fn a_path_several_times_the_figure_travels() {
        let figure = Bounds::new(Vec3::new(-0.3, 0.0, -0.2), Vec3::new(0.3, 1.8, 0.2));
        let stay = Bounds::new(Vec3::new(-0.5, 0.0, -0.5), Vec3::new(0.5, 1.9, 0.6));
        let walk = Bounds::new(Vec3::new(-0.3, 0.0, -0.2), Vec3::new(0.3, 1.8, 40.0));
        assert!(!travels(stay, figure));
        assert!(travels(walk, figure));
    }
}
