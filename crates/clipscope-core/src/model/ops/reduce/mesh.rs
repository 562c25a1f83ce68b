//! The error where the mesh is: every vertex of every mesh of the file's [`Model`], posed
//! exactly like three.js poses it (morph targets, then linear blend skinning with each joint's
//! world matrix times its inverse bind matrix; a mesh that is not skinned follows its node's
//! world matrix), for the original and a candidate, at every sample.
//!
//! The search measures shell points whose radii come from the mesh ([`shell_radii`]), which
//! is fast; the final measure ([`MeshProbe::compare`]) poses every vertex, so the reported error
//! is the one a player shows, and a reduction whose vertices stray too far is redone tighter.

use std::collections::HashMap;

use glam::{DAffine3, DMat4, DVec3, Mat4};
use rayon::prelude::*;

use super::channel::sample_numbers;
use super::tree::Tree;
use super::world::{NodeInput, PerNode, Pose, lane_groups};
use crate::model::{Clip, MAX_INFLUENCES, Model, Track};

/// One primitive of one mesh instance, ready to pose.
#[derive(Debug, Clone)]
struct Part {
    /// The mesh's name (else its node's), for the report.
    name: String,
    /// Base positions in the mesh's space.
    positions: Vec<DVec3>,
    /// Per vertex: up to eight (joint slot, weight) pairs; empty for a mesh that is not skinned.
    influences: Vec<[(u16, f64); MAX_INFLUENCES]>,
    /// Per joint slot: where its world matrix comes from and its inverse bind matrix.
    joints: Vec<(Place, DAffine3)>,
    /// Where the node's world matrix comes from (a mesh that is not skinned).
    node: Place,
    /// Morph target offsets, one list per target.
    targets: Vec<Vec<DVec3>>,
    /// Per target: the original weight at every sample, or its fixed default.
    weights: Vec<Weight>,
}

/// Where a node's world matrix comes from.
#[derive(Debug, Clone, Copy)]
enum Place {
    /// A node of the tree (posed by the clip).
    Tree(usize),
    /// A node the clip does not move: its rest world matrix.
    Fixed(DAffine3),
}

/// A morph target's weight.
#[derive(Debug, Clone)]
enum Weight {
    /// Never animated.
    Fixed(f64),
    /// Animated by the track of this name; the original's value at every sample.
    Track(String, Vec<f32>),
}

/// Every vertex of a model, posed against the tree.
#[derive(Debug, Clone)]
pub(crate) struct MeshProbe {
    parts: Vec<Part>,
}

/// The largest error of the nodes' origins and of the vertices.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(crate) struct MeshError {
    /// The largest distance a node's origin moved, its node and sample.
    pub node: (f64, Option<(usize, usize)>),
    /// The largest distance a vertex moved: its part, vertex and sample.
    pub vertex: (f64, Option<(usize, usize, usize)>),
}

impl MeshProbe {
    /// The probe of `model`'s meshes posed by `tree` (nodes matched by name) at `times`, with
    /// the morph weights `clip` animates; `None` when the model draws no vertex.
    pub fn new(model: &Model, tree: &Tree, clip: &Clip, times: &[f64]) -> Option<MeshProbe> {
        let rest = model.rest_world();
        let place = |node: usize| match model.nodes.get(node).and_then(|n| tree.index.get(&n.name))
        {
            Some(&j) => Place::Tree(j),
            None => Place::Fixed(affine(rest.get(node).copied().unwrap_or(Mat4::IDENTITY))),
        };
        let tracks: HashMap<&str, &Track> =
            clip.tracks.iter().map(|t| (t.name.as_str(), t)).collect();
        let mut parts = Vec::new();
        for instance in model.instances() {
            let node = &model.nodes[instance.node];
            let mesh = &model.meshes[instance.mesh];
            let skin = instance.skin.map(|s| &model.skins[s]);
            for primitive in &mesh.primitives {
                if primitive.positions.is_empty() {
                    continue;
                }
                let skinned = skin.is_some() && primitive.is_skinned();
                let joints = match skin {
                    Some(skin) if skinned => skin
                        .joints
                        .iter()
                        .enumerate()
                        .map(|(k, &j)| {
                            let ibm = skin
                                .inverse_bind_matrices
                                .get(k)
                                .copied()
                                .unwrap_or(Mat4::IDENTITY);
                            (place(j), affine(ibm))
                        })
                        .collect(),
                    _ => Vec::new(),
                };
                let influences = if skinned {
                    primitive
                        .joints
                        .iter()
                        .zip(&primitive.weights)
                        .map(|(js, ws)| std::array::from_fn(|k| (js[k], ws[k] as f64)))
                        .collect()
                } else {
                    Vec::new()
                };
                let weights = (0..primitive.targets.len())
                    .map(|k| {
                        let default = node
                            .weights
                            .get(k)
                            .or(mesh.weights.get(k))
                            .copied()
                            .unwrap_or(0.0) as f64;
                        let labels = [Some(k.to_string()), mesh.target_names.get(k).cloned()];
                        labels
                            .into_iter()
                            .flatten()
                            .map(|l| format!("{}.morphTargetInfluences[{l}]", node.name))
                            .find_map(|name| {
                                let track = tracks.get(name.as_str())?;
                                Some(Weight::Track(name, sample_numbers(track, times, 1)))
                            })
                            .unwrap_or(Weight::Fixed(default))
                    })
                    .collect();
                parts.push(Part {
                    name: if mesh.name.is_empty() {
                        node.name.clone()
                    } else {
                        mesh.name.clone()
                    },
                    positions: primitive.positions.iter().map(|p| vec3(*p)).collect(),
                    influences,
                    joints,
                    node: place(instance.node),
                    targets: primitive
                        .targets
                        .iter()
                        .map(|t| t.positions.iter().map(|p| vec3(*p)).collect())
                        .collect(),
                    weights,
                });
            }
        }
        (!parts.is_empty()).then_some(MeshProbe { parts })
    }

    /// The number of vertices posed.
    pub fn vertex_count(&self) -> usize {
        self.parts.iter().map(|p| p.positions.len()).sum()
    }

    /// The name of part `p` (its mesh).
    pub fn part_name(&self, p: usize) -> &str {
        &self.parts[p].name
    }

    /// How far the candidate (`inputs`, its morph weight tracks in `candidate`) moves every
    /// node's origin and every vertex from where the original (`original`) puts them, over
    /// the `times` samples; also the largest origin error of each node.
    pub fn compare(
        &self,
        tree: &Tree,
        original: &[NodeInput],
        inputs: &[NodeInput],
        candidate: &Clip,
        times: &[f64],
    ) -> (MeshError, PerNode) {
        let tracks: HashMap<&str, &Track> = candidate
            .tracks
            .iter()
            .map(|t| (t.name.as_str(), t))
            .collect();
        // The candidate's morph weights at every sample, per part and target.
        let weights: Vec<Vec<Option<Vec<f32>>>> = self
            .parts
            .iter()
            .map(|part| {
                part.weights
                    .iter()
                    .map(|w| match w {
                        Weight::Fixed(_) => None,
                        Weight::Track(name, _) => Some(tracks.get(name.as_str()).map_or_else(
                            || vec![0.0; times.len()],
                            |t| sample_numbers(t, times, 1),
                        )),
                    })
                    .collect()
            })
            .collect();
        const CHUNK: usize = 64;
        let n = tree.len();
        let chunks = times.len().div_ceil(CHUNK);
        let partial: Vec<(MeshError, PerNode)> = (0..chunks)
            .into_par_iter()
            .map(|chunk| {
                let (mut a, mut b) = (Pose::new(tree), Pose::new(tree));
                let mut out = MeshError::default();
                let mut per_node = vec![(0.0, 0.0); n];
                let mut scratch = (Vec::new(), Vec::new());
                let end = ((chunk + 1) * CHUNK).min(times.len());
                for (group, count) in lane_groups(chunk * CHUNK..end) {
                    a.solve_lanes(tree, original, group, false);
                    b.solve_lanes(tree, inputs, group, false);
                    for (lane, &s) in group[..count].iter().enumerate() {
                        let time = times[s];
                        for (j, slot) in per_node.iter_mut().enumerate() {
                            if !tree.seen(j, time) {
                                continue;
                            }
                            let d = a
                                .world(lane, j)
                                .translation
                                .distance(b.world(lane, j).translation);
                            slot.0 = f64::max(slot.0, d);
                            if d > out.node.0 {
                                out.node = (d, Some((j, s)));
                            }
                        }
                        for (p, part) in self.parts.iter().enumerate() {
                            let posed = (&a, &b, lane, s);
                            let (d, v) = part.largest(posed, &weights[p], &mut scratch);
                            if d > out.vertex.0 {
                                out.vertex = (d, Some((p, v, s)));
                            }
                        }
                    }
                }
                (out, per_node)
            })
            .collect();
        let mut out = MeshError::default();
        let mut per_node = vec![(0.0, 0.0); n];
        for (e, pn) in partial {
            if e.node.0 > out.node.0 {
                out.node = e.node;
            }
            if e.vertex.0 > out.vertex.0 {
                out.vertex = e.vertex;
            }
            for (a, b) in per_node.iter_mut().zip(pn) {
                a.0 = f64::max(a.0, b.0);
            }
        }
        (out, per_node)
    }
}

impl Part {
    /// The largest distance between this part's vertices posed by `a` (original weights) and
    /// by `b` (`candidate` weights where animated) in lane `lane`, at sample `s`, and its
    /// vertex.
    fn largest(
        &self,
        (a, b, lane, s): (&Pose, &Pose, usize, usize),
        candidate: &[Option<Vec<f32>>],
        scratch: &mut (Vec<DAffine3>, Vec<DAffine3>),
    ) -> (f64, usize) {
        let world = |pose: &Pose, place: Place| match place {
            Place::Tree(j) => pose.world(lane, j),
            Place::Fixed(m) => m,
        };
        let (ka, kb) = scratch;
        ka.clear();
        kb.clear();
        if self.influences.is_empty() {
            ka.push(world(a, self.node));
            kb.push(world(b, self.node));
        } else {
            for &(place, ibm) in &self.joints {
                ka.push(world(a, place) * ibm);
                kb.push(world(b, place) * ibm);
            }
        }
        let wa: Vec<f64> = self
            .weights
            .iter()
            .map(|w| match w {
                Weight::Fixed(v) => *v,
                Weight::Track(_, v) => f64::from(v[s]),
            })
            .collect();
        let wb: Vec<f64> = wa
            .iter()
            .zip(candidate)
            .map(|(&o, c)| c.as_ref().map_or(o, |c| f64::from(c[s])))
            .collect();
        let mut best = (0.0, 0);
        for (v, base) in self.positions.iter().enumerate() {
            let (mut va, mut vb) = (*base, *base);
            for (t, target) in self.targets.iter().enumerate() {
                if let Some(d) = target.get(v) {
                    va += *d * wa[t];
                    vb += *d * wb[t];
                }
            }
            let (pa, pb) = if self.influences.is_empty() {
                (ka[0].transform_point3(va), kb[0].transform_point3(vb))
            } else {
                let mut pa = DVec3::ZERO;
                let mut pb = DVec3::ZERO;
                for &(slot, w) in &self.influences[v] {
                    if w == 0.0 {
                        continue;
                    }
                    if let (Some(ma), Some(mb)) = (ka.get(slot as usize), kb.get(slot as usize)) {
                        pa += ma.transform_point3(va) * w;
                        pb += mb.transform_point3(vb) * w;
                    }
                }
                (pa, pb)
            };
            let d = pa.distance(pb);
            let d = if d.is_nan() { f64::INFINITY } else { d };
            if d > best.0 {
                best = (d, v);
            }
        }
        best
    }
}

/// Each tree node's shell radius from the mesh, in its local units (see the module docs of
/// [`tree`](super::tree)): for a skin joint the farthest vertex it moves, weighted by how much;
/// for a node drawing a mesh that is not skinned the farthest vertex of it; 0 for every other
/// node (it carries no geometry). `None` when the model draws no vertex.
pub(crate) fn shell_radii(model: &Model, tree: &Tree) -> Option<Vec<f64>> {
    if model.vertex_count() == 0 {
        return None;
    }
    let rest = model.rest_world();
    let mut radii = vec![0.0f64; tree.len()];
    let stretch = |node: usize| {
        let m = rest.get(node).copied().unwrap_or(Mat4::IDENTITY);
        [m.x_axis, m.y_axis, m.z_axis]
            .iter()
            .map(|a| a.truncate().length() as f64)
            .fold(0.0, f64::max)
            .max(1e-12)
    };
    for joint in model.rest_influences(0.0) {
        let Some(&j) = tree.index.get(&model.nodes[joint.node].name) else {
            continue;
        };
        let origin = vec3(joint.joint);
        let reach = joint
            .vertices
            .iter()
            .map(|(p, w)| *w as f64 * vec3(*p).distance(origin))
            .fold(0.0, f64::max);
        radii[j] = radii[j].max(reach / stretch(joint.node));
    }
    for instance in model.instances().filter(|i| i.skin.is_none()) {
        let Some(&j) = tree.index.get(&model.nodes[instance.node].name) else {
            continue;
        };
        let reach = model.meshes[instance.mesh]
            .primitives
            .iter()
            .flat_map(|p| &p.positions)
            .map(|p| vec3(*p).length())
            .fold(0.0, f64::max);
        radii[j] = radii[j].max(reach);
    }
    Some(radii)
}

/// A glam `Mat4` as an f64 affine map.
fn affine(m: Mat4) -> DAffine3 {
    DAffine3::from_mat4(DMat4::from_cols_array(&m.to_cols_array().map(f64::from)))
}

/// An f32 point as an f64 vector.
fn vec3(p: [f32; 3]) -> DVec3 {
    DVec3::new(p[0] as f64, p[1] as f64, p[2] as f64)
}
