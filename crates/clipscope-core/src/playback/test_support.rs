//! Helpers shared by the playback unit tests: small clips and poses.

use std::sync::Arc;

use super::{Mixer, Pose};
use crate::model::{Clip, Interpolation, Track, TrackKind};

/// A clip of `duration` seconds with one linear number track.
pub(crate) fn number_clip(
    name: &str,
    track: &str,
    times: &[f32],
    values: &[f32],
    duration: f64,
) -> Arc<Clip> {
    let track = Track::numeric(track, TrackKind::Number, times.to_vec(), values.to_vec());
    Arc::new(Clip::new(name, duration, vec![track]))
}

/// A clip with one smooth number track.
pub(crate) fn smooth_clip(track: &str, times: &[f32], values: &[f32], duration: f64) -> Arc<Clip> {
    let mut track = Track::numeric(track, TrackKind::Number, times.to_vec(), values.to_vec());
    track.interpolation = Interpolation::Smooth;
    Arc::new(Clip::new("smooth", duration, vec![track]))
}

/// A mixer on a pose whose root `root` has `x` = 0, `rotation` = (0,0,0), `position` = (0,0,0),
/// `scale` = (1,1,1) and `quaternion` = identity.
pub(crate) fn mixer() -> Mixer {
    let mut pose = Pose::new("root");
    pose.define("root", "x", &[0.0])
        .define("root", "rotation", &[0.0, 0.0, 0.0])
        .define("root", "position", &[0.0, 0.0, 0.0])
        .define("root", "scale", &[1.0, 1.0, 1.0])
        .define("root", "quaternion", &[0.0, 0.0, 0.0, 1.0]);
    Mixer::new(pose)
}

/// The root's `x`.
pub(crate) fn x(mixer: &Mixer) -> f64 {
    mixer.pose().value("root", "x").unwrap()[0]
}

/// The root's `rotation.x`.
pub(crate) fn rotation_x(mixer: &Mixer) -> f64 {
    mixer.pose().value("root", "rotation").unwrap()[0]
}

/// A rotation of `degrees` about Y as (x, y, z, w).
pub(crate) fn quaternion_y(degrees: f64) -> [f64; 4] {
    let half = degrees.to_radians() / 2.0;
    [0.0, half.sin(), 0.0, half.cos()]
}

/// The angle about Y of a quaternion, in degrees.
pub(crate) fn angle_y(q: &[f64]) -> f64 {
    2.0 * q[1].atan2(q[3]).to_degrees()
}
