//! Lossy key reduction with a guaranteed error ([`reduce_clip`]), measured where an artist
//! sees it: in world space, at the end of every chain.
//!
//! The guarantee: at every key time of the clip and every midpoint between two, every joint's
//! world position and the points one axis length (3 cm in metres) along its local axes move by
//! at most [`ReduceOptions::max_error`] from where the original clip puts them, and with
//! [`ReduceOptions::max_angle`] every joint's world rotation turns by at most that angle. The
//! hierarchy comes from a skeleton; tracks of nodes outside it (or every track, without one)
//! are bounded the same way in their own local space. Morph weights and other numbers get
//! absolute tolerances of their own, and properties with their own units (Lottie's pixels,
//! degrees and percent) the tolerance the caller names for them.
//!
//! How:
//! 1. Every numeric track becomes a [`Channel`]: its keys and the original
//!    curve sampled at the clip's sample times.
//! 2. A skeleton's transform channels get a first share of the budget each: the budget over
//!    the square root of the number of animated channels on the longest chain (as if errors
//!    down a chain added like independent ones), turned into each channel's own units by how
//!    far what it moves reaches (a rotation near the root swings everything below it: its angle
//!    tolerance is the share divided by that lever; a translation's is the share divided by how
//!    much its parent stretches space).
//! 3. Then a search ([`search`]): fit every channel ([`fit`]), measure the whole pose against
//!    the original ([`world`]), and scale each channel's tolerance by the room its subtree had
//!    (loosen where the joints below stayed well within the budget, tighten where they went
//!    over), until a try lands just under the budget. On a long take the first tries run on its
//!    beginning only (a pilot), so the full take is usually fitted once, and on the key grid
//!    each track only on the grid the last pilot found cheapest. The best try within the
//!    budget wins; if none is, every share halves until one is.
//! 4. A fitted track never keeps more keys than three.js's lossless `optimize` would; discrete,
//!    bool and string tracks get that lossless pass only.
//!
//! For a packed file the caller may say how the file stores a track
//! ([`ReduceOptions::stored`]: every fitted track is rounded so before it is measured, so the
//! packing's error is inside the bound) and put the candidate keys on a grid of seconds
//! ([`ReduceOptions::key_grid`], whose times a codec stores in a few bits; a joint track the grid
//! cannot follow is fitted on a grid four times finer, or kept whole).

mod channel;
mod cost;
mod fit;
mod grid_keys;
mod layer;
mod mesh;
mod outcome;
mod plan;
pub(crate) mod property;
mod search;
mod stored;
mod trace;
pub(crate) mod tree;
pub(crate) mod world;

use std::collections::HashMap;
use std::sync::Arc;

use rayon::prelude::*;

pub use channel::{Metric, Number, rotation_angle};
pub use fit::CurveFit;
pub use stored::Stored;
pub use trace::Trace;
pub use tree::{BONE_FRACTION, PointKind};
pub use world::WorldError;

use channel::Channel;
use grid_keys::GridKeys;
use mesh::MeshProbe;
use outcome::{Outcome, fit_channel, lossless, lossless_of};
use plan::{Plan, Role};
use search::WorldSearch;

use crate::model::{Clip, Model, Skeleton, Track, Values};

/// How much a reduction may change and what curves it may use.
#[derive(Debug, Clone, PartialEq)]
pub struct ReduceOptions {
    /// The largest distance any measured point may move, in the clip's length unit.
    pub max_error: f64,
    /// The largest angle any joint's world rotation may turn, in radians, if bounded.
    pub max_angle: Option<f64>,
    /// How far along each joint's local axes the measured points sit, in the clip's length unit
    /// (0.03 for metres).
    pub axis_length: f64,
    /// The curves the target format holds.
    pub curves: CurveFit,
    /// The player scales a cubic track's interpolated quaternions back to unit length (glTF in
    /// three.js: its CUBICSPLINE interpolant normalizes), so the measure does too; linear and
    /// step tracks and rest rotations are composed as they are, unit or not, as three.js's
    /// slerp and `Matrix4.compose` do.
    pub unit_rotations: bool,
    /// The largest change of a morph target weight (`morphTargetInfluences`).
    pub weight_error: f64,
    /// The largest change of any other number (opacity, colours, …).
    pub number_error: f64,
    /// Properties measured in their own units with their own tolerance (Lottie's `position`
    /// in pixels, `rotation` in degrees, …).
    pub property_errors: Vec<PropertyTolerance>,
    /// Where the reducer reports its steps and their times (nowhere by default).
    pub trace: Trace,
    /// Keep the position keys of auto-oriented layers (only the lossless optimize): lottie-web
    /// turns such a layer along the direction of each segment, which a fitted curve rarely
    /// keeps (a linear key every frame turns it a little at every key). What a reduction that
    /// cannot keep the headings within the budget tries before giving up.
    pub keep_headings: bool,
    /// The clip times the viewer sees, in seconds, both ends of each window included
    /// ([`shown_windows`](crate::model::shown_windows): a composition between its in and out
    /// points, a precomposition where a layer shows it); `None`: all of them. Errors are
    /// measured there only.
    pub shown: Option<Vec<crate::model::Window>>,
    /// Put the keys of straight-segment tracks on a grid of this many seconds (a power of two,
    /// such as 1/32) instead of at the original key times: a key codec that stores times as
    /// integer steps (meshopt's exponential filter) then stores each in a few bits. The keys
    /// take the values the original plays at the grid times, and the error is still measured
    /// against the original at its own sample times. `None`: the original key times.
    pub key_grid: Option<f64>,
    /// How the file being written stores a track (its key times and values as a reader will
    /// read them back), when it rounds them: every fitted track is passed through it before it
    /// is measured, so the search bounds what the file plays, rounding included.
    pub stored: Option<Stored>,
}

/// The tolerance of a property a format measures in units of its own.
#[derive(Debug, Clone, PartialEq)]
pub struct PropertyTolerance {
    /// The property's name (`position`, `rotation`, …).
    pub property: String,
    /// The largest change, in the property's units.
    pub tolerance: f64,
    /// How a change is measured: [`Metric::Translation`] for a length (which then counts
    /// towards the clip's reported distance), [`Metric::Absolute`] for anything else.
    pub metric: Metric,
}

impl Default for ReduceOptions {
    fn default() -> ReduceOptions {
        ReduceOptions {
            max_error: 0.01,
            max_angle: None,
            axis_length: 0.03,
            curves: CurveFit::Linear,
            unit_rotations: false,
            weight_error: 0.001,
            number_error: 0.001,
            property_errors: Vec::new(),
            trace: Trace::default(),
            keep_headings: false,
            shown: None,
            key_grid: None,
            stored: None,
        }
    }
}

/// How a track's error is bounded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bound {
    /// Through the skeleton, in world space.
    World,
    /// In the track's own space (no skeleton, or a node outside it).
    Local,
    /// By an absolute tolerance in the track's units (weights, numbers, named properties).
    Absolute,
    /// Not reduced: only three.js's lossless optimize (discrete, bool and string tracks, and
    /// curves the target format cannot draw within the tolerance).
    Lossless,
}

/// What happened to one track.
#[derive(Debug, Clone, PartialEq)]
pub struct TrackReduction {
    /// The track's name.
    pub name: String,
    /// Keys before.
    pub keys_before: usize,
    /// Keys after.
    pub keys_after: usize,
    /// The largest error of the reduced track against the original at the sample times, in
    /// its metric's units (see [`TrackReduction::metric`]); for a skeleton's joint, how far
    /// the joint's points move in the world; 0 for lossless tracks.
    pub error: f64,
    /// How the error is measured (distance, angle in radians, relative scale, absolute value).
    pub metric: Metric,
    /// How the track's error is bounded.
    pub bound: Bound,
    /// The track's own tolerance, in its metric's units, when it has one (local and absolute
    /// bounds; world-bounded tracks share the clip's budget instead).
    pub tolerance: Option<f64>,
}

/// What a reduction did and how far the result is from the original.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ReduceReport {
    /// Keys over all tracks before.
    pub keys_before: usize,
    /// Keys over all tracks after.
    pub keys_after: usize,
    /// The largest distance a measured point moved (world space where a skeleton bounds the
    /// clip, else the largest local effect on the axis points).
    pub max_error: f64,
    /// The largest angle a rotation turned, in radians.
    pub max_angle: f64,
    /// Where and when the largest distance is (a node measured through the tree; a track
    /// bounded on its own reports only its name).
    pub worst: Option<Worst>,
    /// True when the transforms were measured through a tree of nodes (a skeleton, or a
    /// composition's layers).
    pub world: bool,
    /// True when the tree's nodes are 3D nodes whose world rotations were measured (a
    /// composition's layers have none).
    pub world_angles: bool,
    /// Every node of the tree, in its order, with its measured error (when measured through
    /// one).
    pub nodes: Vec<NodeError>,
    /// How many mesh vertices were posed and measured at every sample (0 without a mesh).
    pub vertices: usize,
    /// Every track, in clip order.
    pub tracks: Vec<TrackReduction>,
}

/// How far one node's measured points moved.
#[derive(Debug, Clone, PartialEq)]
pub struct NodeError {
    /// The node's name (bone, layer).
    pub name: String,
    /// The largest distance any of its measured points moved.
    pub error: f64,
    /// The largest angle its world rotation turned, in radians (3D nodes).
    pub angle: f64,
    /// The radius of its shell points, in its local units, if it has any.
    pub shell: Option<f64>,
}

impl ReduceReport {
    /// Whether any rotation was measured (through a skeleton, or a rotation track on its own),
    /// so [`ReduceReport::max_angle`] means something.
    pub fn measures_angles(&self) -> bool {
        self.world_angles || self.tracks.iter().any(|t| t.metric == Metric::Rotation)
    }

    /// Whether the measured errors keep `options`' budgets: the distance and angle, and every
    /// track with a tolerance of its own within it.
    pub fn within(&self, options: &ReduceOptions) -> bool {
        self.max_error <= options.max_error
            && options
                .max_angle
                .is_none_or(|a| self.max_angle <= a || !self.world_angles)
            && self
                .tracks
                .iter()
                .all(|t| t.tolerance.is_none_or(|tol| t.error <= tol))
    }
}

/// Where the largest error of a reduction is.
#[derive(Debug, Clone, PartialEq)]
pub struct Worst {
    /// The node (bone, layer) or, for a track bounded on its own, the track.
    pub node: String,
    /// Which of the node's measured points (`None` for a track bounded on its own).
    pub point: Option<PointKind>,
    /// The clip time, in seconds, when known.
    pub time: Option<f64>,
}

impl Worst {
    /// Where, in words: `HeadTop_End`, `LeftHand's shell point 0.125 along y`, `Solid's
    /// bottom right corner`, or the track's name.
    pub fn place(&self) -> String {
        match self.point {
            None | Some(PointKind::Origin) => self.node.clone(),
            Some(PointKind::Shell { axis, radius }) => format!(
                "{}'s shell point {} along {}",
                self.node,
                short(radius),
                ["x", "y", "z"][axis.min(2)]
            ),
            Some(PointKind::Vertex(v)) => format!("vertex {v} of {}", self.node),
            Some(PointKind::Corner(k)) => format!(
                "{}'s {} corner",
                self.node,
                ["top left", "top right", "bottom right", "bottom left"][k.min(3)]
            ),
            Some(PointKind::Outline(k)) => format!("{}'s outline point {k}", self.node),
        }
    }
}

/// A length with at most four decimals and no trailing zeros (`0.125`, `18`).
fn short(x: f64) -> String {
    let text = format!("{x:.4}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// A reduced clip and its report.
#[derive(Debug, Clone)]
pub struct Reduced {
    /// The clip with fewer keys.
    pub clip: Clip,
    /// What changed.
    pub report: ReduceReport,
}

/// A clip prepared for reduction: its tracks sorted into roles and its channels sampled once
/// (the original pose is posed from them beside each candidate), so that it can be reduced and
/// any candidate (the reduction as written and read back, say) measured against it without
/// doing that again.
pub struct Reducer<'c> {
    /// The original clip.
    clip: &'c Clip,
    /// How much may change.
    options: ReduceOptions,
    /// Roles and sample times.
    plan: Plan,
    /// The skeleton channels' search, when the clip has any.
    world: Option<WorldSearch<'c>>,
    /// Every vertex of the model the clip plays on, when it has a mesh.
    probe: Option<MeshProbe>,
}

impl<'c> Reducer<'c> {
    /// Prepares `clip`, played on `skeleton` (if known), for reduction within `options`.
    pub fn new(
        clip: &'c Clip,
        skeleton: Option<&Skeleton>,
        options: &ReduceOptions,
    ) -> Reducer<'c> {
        Reducer::with_model(clip, skeleton, None, options)
    }

    /// Whether the clip moves an auto-oriented layer, whose heading follows its position (see
    /// [`ReduceOptions::keep_headings`]).
    pub fn has_headings(&self) -> bool {
        self.plan.has_headings()
    }

    /// Prepares `clip`, played on `skeleton` and deforming `model`'s meshes (if known), for
    /// reduction within `options`: the shells come from the vertices each joint moves, morph
    /// weights get the tolerance their targets' largest offsets allow, and every vertex is
    /// measured ([`Reducer::measure`]).
    pub fn with_model(
        clip: &'c Clip,
        skeleton: Option<&Skeleton>,
        model: Option<&Model>,
        options: &ReduceOptions,
    ) -> Reducer<'c> {
        let t0 = std::time::Instant::now();
        let plan = Plan::new(clip, skeleton, model, options);
        options.trace.line(format_args!("  planned"));
        let probe = match (model, &plan.tree) {
            (Some(model), Some(tree)) => MeshProbe::new(model, tree, clip, &plan.sample_times),
            _ => None,
        };
        let world = plan.tree.as_ref().and_then(|h| {
            let joint_tracks: Vec<usize> = (0..clip.tracks.len())
                .filter(|&i| matches!(plan.roles[i], Role::Joint { .. }))
                .collect();
            (!joint_tracks.is_empty()).then(|| {
                WorldSearch::new(
                    clip,
                    h.clone(),
                    &plan.roles,
                    &joint_tracks,
                    &plan.sample_times,
                    options,
                )
            })
        });
        options
            .trace
            .line(format_args!("prepared {:?}", t0.elapsed()));
        Reducer {
            clip,
            options: options.clone(),
            plan,
            world,
            probe,
        }
    }

    /// Reduces the clip (see the module docs) with every budget scaled by `scale` (1 for the
    /// options' own). The report's errors are the fits' own evaluation; [`Reducer::measure`]
    /// measures with the model's interpolants.
    pub fn reduce(&mut self, scale: f64) -> Reduced {
        let t0 = std::time::Instant::now();
        if let Some(world) = &mut self.world {
            world.restore(self.clip);
        }
        let options = ReduceOptions {
            max_error: self.options.max_error * scale,
            max_angle: self.options.max_angle.map(|a| a * scale),
            ..self.options.clone()
        };
        let clip = self.clip;
        // Tracks with a fixed tolerance (and lossless ones) are done once.
        let mut results: Vec<Option<Outcome>> = clip
            .tracks
            .par_iter()
            .zip(self.plan.roles.par_iter())
            .map(|(track, role)| match *role {
                Role::Lossless => Some(Outcome::lossless(track)),
                Role::Exact => Some(Outcome::exact(track)),
                Role::Fixed {
                    metric, tolerance, ..
                } => Some(fit_fixed(
                    track,
                    metric,
                    tolerance * scale,
                    &self.plan.sample_times,
                    &options,
                )),
                Role::Joint { .. } => None,
            })
            .collect();
        let mut world_error = None;
        if let Some(world) = &self.world {
            let (outcomes, error, per_joint) = world.search(&options);
            for (&i, found) in world.tracks.iter().zip(outcomes) {
                results[i] = Some(found);
            }
            world_error = Some((error, per_joint));
        }
        let outcomes: Vec<Outcome> = clip
            .tracks
            .iter()
            .zip(results)
            .map(|(t, r)| r.unwrap_or_else(|| Outcome::lossless(t)))
            .collect();
        let report = self
            .plan
            .report(clip, &outcomes, world_error.as_ref(), &options);
        let out = clip.with_tracks(outcomes.into_iter().map(|o| o.track).collect());
        options
            .trace
            .line(format_args!("reduced {:?}", t0.elapsed()));
        Reduced { clip: out, report }
    }

    /// Lets go of what only [`Reducer::reduce`] reads (each joint track's keys on its grid
    /// and on the other grids: on the 10-minute take 11 MB), keeping what
    /// [`Reducer::measure`] needs, so that writing the reduction can reuse the memory. A later
    /// `reduce` makes them again, and reduces exactly as without this.
    pub fn release_fits(&mut self) {
        if let Some(world) = &mut self.world {
            world.release_fits();
        }
    }

    /// How far `candidate` (a reduction of the clip: its tracks are matched by name, as a file
    /// written and read back has them) strays from the original, measured with the model's own
    /// interpolants as the reduction bounds it. A numeric track the candidate lacks counts as
    /// an infinite error.
    pub fn measure(&self, candidate: &Clip) -> ReduceReport {
        let t0 = std::time::Instant::now();
        let by_name: HashMap<&str, &Track> = candidate
            .tracks
            .iter()
            .map(|t| (t.name.as_str(), t))
            .collect();
        let lossless_keys = self
            .world
            .as_ref()
            .map(WorldSearch::lossless_keys)
            .unwrap_or_default();
        let outcomes: Vec<Outcome> = self
            .clip
            .tracks
            .par_iter()
            .zip(self.plan.roles.par_iter())
            .enumerate()
            .map(|(i, (track, role))| {
                let Some(found) = by_name.get(track.name.as_str()) else {
                    let missing = track.kind.is_numeric() && !track.is_empty();
                    return Outcome {
                        track: Track::new(
                            track.name.clone(),
                            track.kind,
                            Vec::new(),
                            Values::Numbers(Vec::new()),
                        ),
                        error: if missing { f64::INFINITY } else { 0.0 },
                        lossy: missing,
                        sampled: None,
                    };
                };
                let error = match *role {
                    Role::Lossless => 0.0,
                    // Kept exactly: measured as a number like any changed track.
                    Role::Exact => {
                        Channel::new(track, Metric::Absolute, self.plan.sample_times.clone())
                            .map_or(0.0, |c| c.error_of(found))
                    }
                    Role::Fixed { metric, .. } => {
                        Channel::new(track, metric, self.plan.sample_times.clone())
                            .map_or(0.0, |c| c.error_of(found))
                    }
                    // Joint tracks are measured through the world below.
                    Role::Joint { .. } => 0.0,
                };
                // A joint track's lossless optimize is the search's kept track.
                let lossless_len = match (role, lossless_keys.get(&i)) {
                    (Role::Joint { exact: false, .. }, Some(&keys)) => keys,
                    _ => lossless_of(track).len(),
                };
                let lossy = error > 0.0 || found.len() != lossless_len;
                Outcome {
                    track: (*found).clone(),
                    error,
                    lossy,
                    sampled: None,
                }
            })
            .collect();
        let joint_tracks = |world: &WorldSearch| -> Vec<&Track> {
            world.tracks.iter().map(|&i| &outcomes[i].track).collect()
        };
        let world_error = self
            .world
            .as_ref()
            .map(|world| world.measure(&joint_tracks(world)));
        let mut report =
            self.plan
                .report(self.clip, &outcomes, world_error.as_ref(), &self.options);
        if let (Some(probe), Some(tree)) = (&self.probe, &self.plan.tree) {
            // Where the viewer looks: every node's origin and every vertex, posed.
            let (mesh, per_node) = match &self.world {
                Some(world) => world.compare_mesh(probe, &joint_tracks(world), candidate),
                None => probe.compare(tree, &[], &[], candidate, &self.plan.sample_times),
            };
            let time = |s: usize| self.plan.sample_times.get(s).copied();
            report.vertices = probe.vertex_count();
            report.max_error = mesh.node.0.max(mesh.vertex.0);
            report.worst = if mesh.vertex.0 >= mesh.node.0 {
                mesh.vertex.1.map(|(p, v, s)| Worst {
                    node: probe.part_name(p).to_string(),
                    point: Some(PointKind::Vertex(v)),
                    time: time(s),
                })
            } else {
                mesh.node.1.map(|(j, s)| Worst {
                    node: tree.names[j].clone(),
                    point: Some(PointKind::Origin),
                    time: time(s),
                })
            };
            for (node, (error, _)) in report.nodes.iter_mut().zip(per_node) {
                node.error = error;
            }
        }
        self.options
            .trace
            .line(format_args!("measured {:?}", t0.elapsed()));
        report
    }
}

/// `track` fitted within `tolerance` in `metric` at `times`: on the key grid when `options`
/// ask for one, on its own keys where the grid cannot follow it within the tolerance.
fn fit_fixed(
    track: &Track,
    metric: Metric,
    tolerance: f64,
    times: &Arc<Vec<f64>>,
    options: &ReduceOptions,
) -> Outcome {
    let kept = lossless_of(track);
    let fit = |c: &Channel| {
        fit_channel(
            c,
            &kept,
            tolerance,
            options.curves,
            true,
            options.stored.as_ref(),
        )
    };
    match Channel::keys_for(track, metric, times.clone(), options, &GridKeys::default()) {
        Some(channel) => match fit(&channel) {
            o if !o.lossy && options.key_grid.is_some() => {
                Channel::new(track, metric, times.clone()).map_or(o, |c| fit(&c))
            }
            o => o,
        },
        None => Outcome::lossless(track),
    }
}

/// Reduces `clip` within `options` (see the module docs); `skeleton` is the hierarchy its
/// tracks' nodes hang in, if known. The result is measured with the model's own interpolants
/// (the report's errors are that measure); if rounding tipped it over a budget the reduction
/// is redone with tighter budgets, and as a last resort the clip is only losslessly optimized.
pub fn reduce_clip(clip: &Clip, skeleton: Option<&Skeleton>, options: &ReduceOptions) -> Reduced {
    reduce_clip_on(clip, skeleton, None, options)
}

/// [`reduce_clip`] for a clip that deforms `model`'s meshes: bounded and measured at every
/// vertex too (see [`Reducer::with_model`]).
pub fn reduce_clip_on(
    clip: &Clip,
    skeleton: Option<&Skeleton>,
    model: Option<&Model>,
    options: &ReduceOptions,
) -> Reduced {
    let mut reducer = Reducer::with_model(clip, skeleton, model, options);
    let mut found = None;
    for scale in SCALES {
        let mut reduced = reducer.reduce(scale);
        let exact = reducer.measure(&reduced.clip);
        if exact.within(options) {
            reduced.report = exact;
            found = Some(reduced);
            break;
        }
    }
    // Auto-oriented layers turn along every segment of their paths, which a fit may not keep
    // (the search then keeps whole channels): try again with their positions kept, and take
    // whichever keeps fewer keys.
    if !options.keep_headings && reducer.plan.has_headings() {
        let kept = ReduceOptions {
            keep_headings: true,
            ..options.clone()
        };
        let other = reduce_clip_on(clip, skeleton, model, &kept);
        let fewer = found
            .as_ref()
            .is_none_or(|f| other.report.keys_after < f.report.keys_after);
        if other.report.within(options) && fewer {
            found = Some(other);
        }
    }
    found.unwrap_or_else(|| {
        let kept = lossless_clip(clip);
        let report = reducer.measure(&kept);
        Reduced { clip: kept, report }
    })
}

/// The budget scales a reduction tries in turn when the exact measure (every vertex, the
/// file's own interpolants) finds a try over the budget.
pub const SCALES: [f64; 4] = [1.0, 0.8, 0.6, 0.4];

/// `clip` without the keys that change nothing: three.js's lossless optimize on its linear and
/// step tracks (smooth and bezier tracks are kept as they are). What a reduction falls back to.
pub fn lossless_clip(clip: &Clip) -> Clip {
    clip.with_tracks(clip.tracks.iter().map(lossless).collect())
}
