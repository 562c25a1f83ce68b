//! How a reduction treats a clip: the sample times every error is measured at, and for each
//! track whether it is a skeleton joint's transform (bounded through the world search), a
//! track with a tolerance of its own (local transforms, weights, numbers, named properties) or
//! one that only gets the lossless optimize.

use std::sync::Arc;

use std::collections::{HashMap, HashSet};

use super::channel::Metric;
use super::mesh::shell_radii;
use super::outcome::Outcome;
use super::property::Property;
use super::tree::{Local, PointKind, Tree};
use super::world::{PerNode, WorldError};
use super::{Bound, NodeError, ReduceOptions, ReduceReport, TrackReduction, Worst};
use crate::model::binding::parse_track_name;
use crate::model::{Clip, Interpolation, Model, Skeleton, Track, Window};

/// How one track is treated.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Role {
    /// Lossless optimize only.
    Lossless,
    /// Fitted once with a fixed tolerance in its own units.
    Fixed {
        metric: Metric,
        tolerance: f64,
        bound: Bound,
    },
    /// A transform of a skeleton joint, its tolerance found through the world search (or, when
    /// it cannot be fitted — steps, one key — kept as it is but still measured; `exact`: every
    /// key kept, not even the lossless optimize, as for a property an expression drives).
    Joint {
        joint: usize,
        property: Property,
        fit: bool,
        exact: bool,
    },
    /// Kept exactly, every key (an expression may read the keys themselves).
    Exact,
}

/// What a reduction of one clip works with: the nodes it is measured through, the sample
/// times and how each track is treated.
pub(crate) struct Plan {
    /// The nodes, when a skeleton or the clip's layers say how they hang together.
    pub tree: Option<Tree>,
    /// Every key time of the clip and every midpoint between two.
    pub sample_times: Arc<Vec<f64>>,
    /// How each track is treated.
    pub roles: Vec<Role>,
}

impl Plan {
    /// The plan for `clip` played on `skeleton` (else on its own layers, if it has any),
    /// deforming `model`'s meshes if known.
    pub fn new(
        clip: &Clip,
        skeleton: Option<&Skeleton>,
        model: Option<&Model>,
        options: &ReduceOptions,
    ) -> Plan {
        let tree = match (skeleton, &clip.layers) {
            (Some(skeleton), _) => {
                let moved: HashSet<String> = clip
                    .tracks
                    .iter()
                    .filter(|t| t.kind.is_numeric() && t.len() > 1)
                    .filter_map(|t| parse_track_name(&t.name).ok()?.animated_node())
                    .collect();
                Some(Tree::from_skeleton(
                    skeleton,
                    |name| moved.contains(name),
                    options.axis_length,
                ))
            }
            (None, Some(layers)) => {
                let mut tree = Tree::from_layers(layers);
                let anchors: HashMap<&str, &Track> = clip
                    .tracks
                    .iter()
                    .filter_map(|t| Some((t.name.strip_suffix(".anchor")?, t)))
                    .collect();
                tree.anchor_empty_nodes(|name| first_value(anchors.get(name)?));
                Some(tree)
            }
            (None, None) => None,
        };
        let mut tree = tree;
        if let Some(tree) = &mut tree {
            tree.unit_rotations = options.unit_rotations;
            // With a mesh, the shells are the geometry each node carries.
            if let Some(radii) = model.and_then(|m| shell_radii(m, tree)) {
                for (j, r) in radii.into_iter().enumerate() {
                    tree.set_shell(j, r);
                }
            }
        }
        let weights = model
            .map(|m| morph_tolerances(m, options))
            .unwrap_or_default();
        // Properties an expression drives: the expression may read their keys.
        let exact: HashSet<String> = clip
            .layers
            .iter()
            .flat_map(|l| &l.layers)
            .flat_map(|l| l.expressions.iter().map(|e| format!("{}.{e}", l.name)))
            .collect();
        let roles = clip
            .tracks
            .iter()
            .map(|t| {
                if exact.contains(&t.name) {
                    return match role(t, tree.as_ref(), options) {
                        Role::Joint {
                            joint, property, ..
                        } => Role::Joint {
                            joint,
                            property,
                            fit: false,
                            exact: true,
                        },
                        _ => Role::Exact,
                    };
                }
                match (role(t, tree.as_ref(), options), weights.get(&t.name)) {
                    (Role::Fixed { metric, bound, .. }, Some(&tolerance)) => Role::Fixed {
                        metric,
                        tolerance,
                        bound,
                    },
                    (role, _) => role,
                }
            })
            .collect();
        let times = match &options.shown {
            Some(windows) => shown_sample_times(clip, windows),
            None => sample_times(clip),
        };
        Plan {
            tree,
            sample_times: Arc::new(times),
            roles,
        }
    }

    /// Whether any track moves an auto-oriented layer (whose heading follows its position).
    pub fn has_headings(&self) -> bool {
        let Some(tree) = &self.tree else {
            return false;
        };
        self.roles.iter().any(|r| match *r {
            Role::Joint { joint, .. } => matches!(
                tree.local[joint],
                Local::Layer {
                    auto_orient: true,
                    ..
                }
            ),
            _ => false,
        })
    }

    /// The report of `outcomes` (one per track of `clip`) with the nodes' measured error,
    /// overall and per node (distance, angle).
    pub fn report(
        &self,
        clip: &Clip,
        outcomes: &[Outcome],
        world_error: Option<&(WorldError, PerNode)>,
        options: &ReduceOptions,
    ) -> ReduceReport {
        let mut report = ReduceReport::default();
        let mut per_node: &[(f64, f64)] = &[];
        if let (Some(tree), Some((error, nodes))) = (&self.tree, world_error) {
            per_node = nodes;
            report.world = true;
            report.world_angles = tree.local.iter().any(|l| matches!(l, Local::Trs { .. }));
            report.max_error = error.distance;
            report.max_angle = error.angle;
            report.worst = error.worst.map(|(j, s, p)| Worst {
                node: tree.names[j].clone(),
                point: tree.kinds[j].get(p).copied(),
                time: self.sample_times.get(s).copied(),
            });
            report.nodes = tree
                .names
                .iter()
                .enumerate()
                .map(|(j, name)| NodeError {
                    name: name.clone(),
                    error: nodes.get(j).map_or(0.0, |e| e.0),
                    angle: nodes.get(j).map_or(0.0, |e| e.1),
                    shell: tree.kinds[j].iter().find_map(|k| match k {
                        PointKind::Shell { radius, .. } => Some(*radius),
                        _ => None,
                    }),
                })
                .collect();
        }
        for ((track, outcome), role) in clip.tracks.iter().zip(outcomes).zip(&self.roles) {
            let (metric, bound, tolerance) = match *role {
                Role::Lossless | Role::Exact => (Metric::Absolute, Bound::Lossless, None),
                Role::Fixed {
                    metric,
                    bound,
                    tolerance,
                } => (metric, bound, Some(tolerance)),
                // A node's tracks report how far the node's points move in the world.
                Role::Joint { .. } => (Metric::Translation, Bound::World, None),
            };
            let bound = if outcome.lossy {
                bound
            } else {
                Bound::Lossless
            };
            let error = match *role {
                Role::Joint { joint, .. } if outcome.lossy => {
                    per_node.get(joint).map_or(outcome.error, |j| j.0)
                }
                _ => outcome.error,
            };
            if bound == Bound::Local {
                // Tracks outside a skeleton are measured by their effect on their own points.
                let effect = match metric {
                    Metric::Translation => error,
                    Metric::Rotation | Metric::Scale => error * options.axis_length,
                    Metric::Absolute => 0.0,
                };
                if effect > report.max_error {
                    report.max_error = effect;
                    report.worst = Some(Worst {
                        node: track.name.clone(),
                        point: None,
                        time: None,
                    });
                }
                if metric == Metric::Rotation {
                    report.max_angle = report.max_angle.max(error);
                }
            }
            report.keys_before += track.len();
            report.keys_after += outcome.track.len();
            report.tracks.push(TrackReduction {
                name: track.name.clone(),
                keys_before: track.len(),
                keys_after: outcome.track.len(),
                error,
                metric,
                bound,
                tolerance,
            });
        }
        report
    }
}

/// The clip's sample times: every key time of its numeric tracks and every midpoint between
/// two neighbouring ones, ascending.
pub(crate) fn sample_times(clip: &Clip) -> Vec<f64> {
    // Baked clips key every track at the same times: take each distinct list once (comparing
    // with the first few distinct ones only, so many different lists stay linear).
    let mut distinct: Vec<&[f32]> = Vec::new();
    let mut times: Vec<f64> = Vec::new();
    for track in clip.tracks.iter().filter(|t| t.kind.is_numeric()) {
        let list = track.times.as_slice();
        if distinct.contains(&list) {
            continue;
        }
        if distinct.len() < 8 {
            distinct.push(list);
        }
        times.extend(list.iter().map(|&x| x as f64).filter(|t| t.is_finite()));
    }
    if !times.is_sorted() {
        times.sort_by(f64::total_cmp);
    }
    times.dedup();
    let mut out = Vec::with_capacity(times.len() * 2);
    for (k, &t) in times.iter().enumerate() {
        if k > 0 {
            out.push(times[k - 1] + (t - times[k - 1]) / 2.0);
        }
        out.push(t);
    }
    out
}

/// [`sample_times`] where the viewer sees the clip: the key times inside `windows` (clip
/// seconds, both ends included), each window's ends, and the midpoint between every two of
/// them in one window (as a player that shows the composition only there is sampled when keys
/// outside are clamped to the window's ends).
pub(crate) fn shown_sample_times(clip: &Clip, windows: &[Window]) -> Vec<f64> {
    let inside = |t: f64| windows.iter().position(|&(a, b)| t >= a && t <= b);
    let mut times: Vec<(f64, usize)> = sample_times(clip)
        .into_iter()
        .filter_map(|t| Some((t, inside(t)?)))
        .collect();
    for (w, &(a, b)) in windows.iter().enumerate() {
        times.extend([a, b].into_iter().filter(|t| t.is_finite()).map(|t| (t, w)));
    }
    times.sort_by(|x, y| x.0.total_cmp(&y.0));
    times.dedup_by(|x, y| x.0 == y.0);
    let mut out = Vec::with_capacity(times.len() * 2);
    for (k, &(t, w)) in times.iter().enumerate() {
        if k > 0 && times[k - 1].1 == w {
            out.push(times[k - 1].0 + (t - times[k - 1].0) / 2.0);
        }
        out.push(t);
    }
    out
}

/// How `track` is reduced.
fn role(track: &Track, tree: Option<&Tree>, options: &ReduceOptions) -> Role {
    let numeric = track.kind.is_numeric()
        && !track.is_empty()
        && track
            .values
            .as_numbers()
            .is_some_and(|v| v.len() % track.len() == 0);
    let reducible = numeric
        && track.interpolation != Interpolation::Discrete
        && track.len() > 1
        && track.times.windows(2).all(|w| w[0] < w[1]);
    let path = match parse_track_name(&track.name) {
        Ok(path) if numeric => path,
        Ok(_) => return Role::Lossless,
        Err(_) if reducible => {
            return fixed(Metric::Absolute, options.number_error, Bound::Absolute);
        }
        Err(_) => return Role::Lossless,
    };
    let value_size = track.value_size();
    // A node's transform always takes part in the world measure (a step or one-key track
    // still moves the nodes below it), fitted or not.
    if let Some(tree) = tree
        && let Some(node) = path.clone().animated_node()
        && let Some(&joint) = tree.index.get(&node)
        && let Some(property) = Property::of(
            tree.local[joint],
            &path.property_name,
            path.property_index.as_deref(),
            value_size,
        )
    {
        let heading = matches!(
            tree.local[joint],
            Local::Layer {
                auto_orient: true,
                ..
            }
        ) && matches!(
            property,
            Property::LayerPosition | Property::PositionX | Property::PositionY
        );
        return Role::Joint {
            joint,
            property,
            fit: reducible && !(heading && options.keep_headings),
            exact: false,
        };
    }
    let own_units = options
        .property_errors
        .iter()
        .find(|p| p.property == path.property_name);
    let property = match (path.property_name.as_str(), value_size) {
        _ if own_units.is_some() => None,
        ("position", 3) => Some(Property::Position),
        ("quaternion", 4) => Some(Property::Quaternion),
        ("rotation", 3) => Some(Property::Euler),
        ("scale", 3) => Some(Property::Scale),
        _ => None,
    };
    if !reducible {
        return Role::Lossless;
    }
    if let Some(own) = own_units {
        // A length in the format's unit is the clip's distance; other units stand alone.
        let bound = if own.metric == Metric::Translation {
            Bound::Local
        } else {
            Bound::Absolute
        };
        return fixed(own.metric, own.tolerance, bound);
    }
    if path.property_name == "morphTargetInfluences" {
        return fixed(Metric::Absolute, options.weight_error, Bound::Absolute);
    }
    let Some(property) = property else {
        return fixed(Metric::Absolute, options.number_error, Bound::Absolute);
    };
    // Local space: the node's own origin and axis points.
    let axis = options.axis_length.max(f64::MIN_POSITIVE);
    let angle = (options.max_error / axis).min(options.max_angle.unwrap_or(f64::INFINITY));
    match property {
        Property::Position => fixed(Metric::Translation, options.max_error, Bound::Local),
        Property::Quaternion => fixed(Metric::Rotation, angle, Bound::Local),
        Property::Euler => fixed(Metric::Absolute, angle / 2.0, Bound::Local),
        _ => fixed(Metric::Scale, options.max_error / axis, Bound::Local),
    }
}

/// The tolerance of every morph weight track of `model`'s meshes
/// (`NODE.morphTargetInfluences[T]`, by index and by target name): the weight change that
/// moves the target's farthest-moving vertex by half the budget, shared among the mesh's
/// targets as if their errors added like independent ones (the vertices are measured exactly
/// at the end).
fn morph_tolerances(model: &Model, options: &ReduceOptions) -> HashMap<String, f64> {
    let mut out = HashMap::new();
    let rest = model.rest_world();
    for instance in model.instances() {
        let node = &model.nodes[instance.node];
        let mesh = &model.meshes[instance.mesh];
        let stretch = if instance.skin.is_some() {
            1.0
        } else {
            let m = rest[instance.node];
            [m.x_axis, m.y_axis, m.z_axis]
                .iter()
                .map(|a| a.truncate().length() as f64)
                .fold(0.0, f64::max)
        };
        let targets = mesh.target_names.len().max(
            mesh.primitives
                .iter()
                .map(|p| p.targets.len())
                .max()
                .unwrap_or(0),
        );
        for k in 0..targets {
            let reach = mesh
                .primitives
                .iter()
                .filter_map(|p| p.targets.get(k))
                .flat_map(|t| &t.positions)
                .map(|d| (d[0] as f64).hypot(d[1] as f64).hypot(d[2] as f64))
                .fold(0.0, f64::max)
                * stretch;
            if reach <= 0.0 || !reach.is_finite() {
                continue;
            }
            let tolerance = 0.5 * options.max_error / reach / (targets as f64).sqrt();
            let labels = [Some(k.to_string()), mesh.target_names.get(k).cloned()];
            for label in labels.into_iter().flatten() {
                out.insert(
                    format!("{}.morphTargetInfluences[{label}]", node.name),
                    tolerance,
                );
            }
        }
    }
    out
}

/// The first value of a 2D or 3D point track, z 0 when it has none.
fn first_value(track: &Track) -> Option<[f64; 3]> {
    let size = track.value_size();
    let v = track.values.as_numbers()?;
    (size >= 2 && v.len() >= size).then(|| {
        [
            v[0] as f64,
            v[1] as f64,
            if size > 2 { v[2] as f64 } else { 0.0 },
        ]
    })
}

/// A role with a fixed tolerance.
fn fixed(metric: Metric, tolerance: f64, bound: Bound) -> Role {
    Role::Fixed {
        metric,
        tolerance,
        bound,
    }
}
