//! A layer's 2D transform matrix from its tracks (spec A3), with parenting.
//!
//! The reader records each composition's layers on its clip ([`Clip::layers`]: name, `ind`,
//! `parent`, in/out points, `st`, `sr`, `ao`, `ddd`, …), which three.js JSON and glTF carry as
//! `userData`, so they survive a round trip; [`layers`] gives them. [`local_matrix`] is
//! lottie-web's transform in column-vector form, y down, angles clockwise on screen:
//!
//! ```text
//! M = T(p) · R(r + θao) · R(−sa) · ShX(−tan sk) · R(sa) · S(sx/100, sy/100) · T(−a)
//! ```
//!
//! and [`world_matrix`] multiplies the parents in: `World(L) = World(parent) · M(L)`. Opacity is
//! not inherited (lottie-web multiplies matrices only). 3D layers are flattened: `rotationZ`
//! stands in for the rotation and `rotationX/Y`, `orientation` and every z are ignored.

use std::collections::{HashMap, HashSet};

use crate::model::interpolant::Sampler;
use crate::model::{Clip, Layer, Track};

/// A 2D affine matrix `(a, b, c, d, e, f)`: `x' = a·x + c·y + e`, `y' = b·x + d·y + f` (the CSS /
/// canvas layout).
pub type Matrix = [f64; 6];

/// The layers recorded in `clip` ([`Clip::layers`]; none for clips not read from Lottie).
pub fn layers(clip: &Clip) -> &[Layer] {
    clip.layers.as_deref().map_or(&[], |l| &l.layers)
}

/// The transform values of a 2D layer at one moment, in the file's units.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Transform2D {
    /// Anchor point (px).
    pub anchor: [f64; 2],
    /// Position (px).
    pub position: [f64; 2],
    /// Scale (percent).
    pub scale: [f64; 2],
    /// Rotation (degrees, clockwise on screen), auto-orientation included.
    pub rotation: f64,
    /// Skew (degrees).
    pub skew: f64,
    /// Skew axis (degrees).
    pub skew_axis: f64,
}

impl Default for Transform2D {
    fn default() -> Transform2D {
        Transform2D {
            anchor: [0.0; 2],
            position: [0.0; 2],
            scale: [100.0; 2],
            rotation: 0.0,
            skew: 0.0,
            skew_axis: 0.0,
        }
    }
}

/// `p · q` for affine matrices (the picture model's product: the same layout).
pub use crate::model::picture::multiply;

/// The rotation by `deg` degrees (clockwise on a y-down screen).
fn rotation(deg: f64) -> Matrix {
    let (s, c) = deg.to_radians().sin_cos();
    [c, s, -s, c, 0.0, 0.0]
}

/// A layer's local matrix (spec A3).
pub fn local_matrix(t: &Transform2D) -> Matrix {
    let translate = |x: f64, y: f64| [1.0, 0.0, 0.0, 1.0, x, y];
    let mut m = translate(t.position[0], t.position[1]);
    m = multiply(&m, &rotation(t.rotation));
    if t.skew != 0.0 {
        let shear = [1.0, 0.0, -t.skew.to_radians().tan(), 1.0, 0.0, 0.0];
        m = multiply(&m, &rotation(-t.skew_axis));
        m = multiply(&m, &shear);
        m = multiply(&m, &rotation(t.skew_axis));
    }
    m = multiply(
        &m,
        &[t.scale[0] / 100.0, 0.0, 0.0, t.scale[1] / 100.0, 0.0, 0.0],
    );
    multiply(&m, &translate(-t.anchor[0], -t.anchor[1]))
}

/// The world matrix of the layer whose track prefix is `layer` in `clip` at clip time `time`
/// (seconds): its local matrix times its parents'. `None` when the clip records no such layer.
/// A parent chain that loops stops at the first repeat. Builds a [`LayerTable`]: callers that
/// ask for many layers (every frame of the viewport) keep one instead.
pub fn world_matrix(clip: &Clip, layer: &str, time: f64) -> Option<Matrix> {
    let table = LayerTable::new(clip);
    let index = table.index_of(layer)?;
    Some(table.world(clip, index, time))
}

/// A clip's layers with maps from layer name, layer `ind` and track name, so the world
/// matrices of every layer cost one lookup per track and parent (not a search of the layers
/// and tracks per layer, which is quadratic in the layer count).
#[derive(Debug, Clone, Default)]
pub struct LayerTable {
    /// The layers, in the clip's order ([`layers`]).
    pub layers: Vec<Layer>,
    by_name: HashMap<String, usize>,
    by_ind: HashMap<u64, usize>,
    tracks: HashMap<String, usize>,
    /// Frames per second of the composition (30 when the clip records none).
    pub fr: f64,
}

impl LayerTable {
    /// The table of `clip`'s layers (empty for clips not read from Lottie).
    pub fn new(clip: &Clip) -> LayerTable {
        let layers = layers(clip).to_vec();
        let mut by_name = HashMap::with_capacity(layers.len());
        let mut by_ind = HashMap::with_capacity(layers.len());
        for (i, l) in layers.iter().enumerate() {
            by_name.entry(l.name.clone()).or_insert(i);
            if let Some(ind) = l.ind.filter(|i| !i.is_nan()) {
                by_ind.entry(ind_key(ind)).or_insert(i);
            }
        }
        let mut tracks = HashMap::with_capacity(clip.tracks.len());
        for (i, t) in clip.tracks.iter().enumerate() {
            tracks.entry(t.name.clone()).or_insert(i);
        }
        let fr = clip.layers.as_ref().map_or(30.0, |l| l.fps);
        LayerTable {
            layers,
            by_name,
            by_ind,
            tracks,
            fr,
        }
    }

    /// The index of the layer whose track prefix is `name`.
    pub fn index_of(&self, name: &str) -> Option<usize> {
        self.by_name.get(name).copied()
    }

    /// The first track of `clip` (the clip this table was made for) called `name`.
    pub fn track<'c>(&self, clip: &'c Clip, name: &str) -> Option<&'c Track> {
        clip.tracks.get(*self.tracks.get(name)?)
    }

    /// The world matrix of layer `index` at clip time `time` (see [`world_matrix`]).
    pub fn world(&self, clip: &Clip, index: usize, time: f64) -> Matrix {
        let find = |name: &str| self.track(clip, name);
        let transform = |i: usize| transform_with(&self.layers[i], time, self.fr, &find);
        let mut index = index;
        let mut world = local_matrix(&transform(index));
        let mut seen = HashSet::from([index]);
        while let Some(parent) = self.layers[index].parent {
            let Some(&p) = self.by_ind.get(&ind_key(parent)) else {
                break;
            };
            if !seen.insert(p) {
                break;
            }
            world = multiply(&local_matrix(&transform(p)), &world);
            index = p;
        }
        world
    }
}

/// A layer index as a map key: numbers equal as `f64`s (0 and -0) give the same key.
fn ind_key(ind: f64) -> u64 {
    (ind + 0.0).to_bits()
}

/// The transform of `layer` at `time`, with its tracks found by `find` (by track name; missing
/// ones take the defaults).
fn transform_with<'c>(
    layer: &Layer,
    time: f64,
    fr: f64,
    find: &dyn Fn(&str) -> Option<&'c Track>,
) -> Transform2D {
    let value = |property: &str, time: f64| -> Option<Vec<f64>> {
        let name = format!("{}.{property}", layer.name);
        let track = find(&name)?;
        let mut out = vec![0.0; track.value_size()];
        Sampler::new(track).evaluate_f64(time, &mut out);
        Some(out)
    };
    let pair = |v: Option<Vec<f64>>, default: f64| -> [f64; 2] {
        match v {
            Some(v) => [
                v.first().copied().unwrap_or(default),
                v.get(1).copied().unwrap_or(default),
            ],
            None => [default; 2],
        }
    };
    let scalar = |property: &str| value(property, time).and_then(|v| v.first().copied());
    let position_at = |time: f64| -> [f64; 2] {
        match value("position", time) {
            Some(v) => pair(Some(v), 0.0),
            None => [
                value("position[x]", time).map_or(0.0, |v| v[0]),
                value("position[y]", time).map_or(0.0, |v| v[0]),
            ],
        }
    };
    let mut t = Transform2D {
        anchor: pair(value("anchor", time), 0.0),
        position: position_at(time),
        scale: pair(value("scale", time), 100.0),
        rotation: if layer.ddd {
            scalar("rotationZ").unwrap_or(0.0)
        } else {
            scalar("rotation").unwrap_or(0.0)
        },
        skew: scalar("skew").unwrap_or(0.0),
        skew_axis: scalar("skewAxis").unwrap_or(0.0),
    };
    if layer.auto_orient {
        t.rotation += auto_orientation(layer, time, fr, find, &position_at);
    }
    t
}

/// lottie-web's auto-orient angle (degrees): the direction of the position's motion, from a
/// 0.01-frame backward difference (forward at or before the first key, 0.05 frames back at or
/// after the last).
fn auto_orientation<'c>(
    layer: &Layer,
    time: f64,
    fr: f64,
    find: &dyn Fn(&str) -> Option<&'c Track>,
    position_at: &impl Fn(f64) -> [f64; 2],
) -> f64 {
    let track = ["position", "position[x]"]
        .iter()
        .find_map(|p| find(&format!("{}.{p}", layer.name)));
    let Some(track) = track.filter(|t| t.len() > 1) else {
        return 0.0;
    };
    let first = track.times[0] as f64;
    let last = track.times[track.len() - 1] as f64;
    let (v1, v2) = if time <= first {
        (position_at(first + 0.01 / fr), position_at(first))
    } else if time >= last {
        (position_at(last), position_at(last - 0.05 / fr))
    } else {
        (position_at(time), position_at(time - 0.01 / fr))
    };
    (v1[1] - v2[1]).atan2(v1[0] - v2[0]).to_degrees()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn near(m: Matrix, want: [f64; 6]) {
        for (a, b) in m.iter().zip(want) {
            assert!((a - b).abs() < 1e-5, "{m:?} vs {want:?}");
        }
    }

    /// Spec A10's matrices (lottie-web `TransformProperty`).
    #[test]
    fn reference_matrices() {
        let t = Transform2D {
            anchor: [10.0, 20.0],
            position: [100.0, 50.0],
            scale: [200.0, 50.0],
            rotation: 30.0,
            skew: 20.0,
            skew_axis: 45.0,
        };
        near(
            local_matrix(&t),
            [1.234858, 1.133222, -0.374298, 0.466318, 95.137383, 29.34141],
        );
        let t = Transform2D {
            position: [100.0, 50.0],
            rotation: 90.0,
            ..Transform2D::default()
        };
        near(local_matrix(&t), [0.0, 1.0, -1.0, 0.0, 100.0, 50.0]);
        let t = Transform2D {
            skew: 30.0,
            ..Transform2D::default()
        };
        assert!((local_matrix(&t)[2] + 0.57735).abs() < 1e-5);
    }
}
