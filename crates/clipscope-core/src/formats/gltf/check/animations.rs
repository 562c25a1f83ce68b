//! Animations, their samplers and channels: required properties, references, values, the
//! `KHR_animation_pointer` extension, duplicate targets, what a channel may animate on its node,
//! and the format, count and data of the accessors each sampler uses.

use std::collections::{HashMap, HashSet};

use serde_json::{Map, Value};

use super::accessors::{
    Data, FLOAT, bounds, count_of, decoded, float_or_normalized_small, format_of, normalized,
    note_data, stride, type_of,
};
use super::{Checked, Doc, empty, index, undefined, unresolved};
use crate::formats::gltf::pointer::{self, EXTENSION};
use crate::model::Problem;

/// The paths a plain channel may have.
const NODE_PATHS: [&str; 4] = ["translation", "rotation", "scale", "weights"];

/// How far a rotation's length may be from 1 (the validator's tolerance for unit quaternions).
const UNIT_TOLERANCE: f64 = 0.0005;

/// What a sampler gave the channels that use it.
#[derive(Debug, Default)]
struct Sampler {
    /// The channels using it can be read.
    usable: bool,
    /// Its input accessor, when it resolves.
    input: Option<usize>,
    /// Its output accessor, when it resolves.
    output: Option<usize>,
    /// `CUBICSPLINE` (three output elements per key).
    cubic: bool,
    /// The input's element count.
    keys: u64,
}

/// What a channel animates.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Target {
    /// A node's translation, rotation, scale or weights.
    Node(usize, &'static str),
    /// Anything else a `KHR_animation_pointer` pointer names.
    Pointer(String),
}

/// The state shared by the checks of one file's animations.
struct Animations<'d, 'a> {
    /// The document.
    doc: &'d Doc<'a>,
    /// What was found.
    out: &'d mut Checked,
    /// Accessors whose min/max were compared already.
    bounded: HashSet<usize>,
    /// Buffers already reported as unavailable.
    unavailable: HashSet<usize>,
}

/// Checks every animation of `doc`.
pub(super) fn check(doc: &Doc<'_>, out: &mut Checked) {
    let mut state = Animations {
        doc,
        out,
        bounded: HashSet::new(),
        unavailable: HashSet::new(),
    };
    for (a, animation) in doc.list("animations").iter().enumerate() {
        if let Some(animation) = animation.as_object() {
            state.animation(a, animation);
        }
    }
}

/// `KHR_animation_pointer` inside `object.extensions`, where the extension does not belong.
fn misplaced_pointer(object: &Map<String, Value>, at: &str) -> Option<Problem> {
    let ext = object.get("extensions")?.as_object()?;
    ext.contains_key(EXTENSION).then(|| {
        Problem::error(
            "gltf-extension-misplaced",
            format!(
                "{at}/extensions/{EXTENSION}: unexpected location for this extension (it extends a channel's target)"
            ),
        )
    })
}

impl Animations<'_, '_> {
    /// Records a finding of animation `a`.
    fn push(&mut self, a: usize, p: Problem) {
        self.out.problems.push(p.in_clip(a));
    }

    /// Checks animation `a`.
    fn animation(&mut self, a: usize, animation: &Map<String, Value>) {
        let at = format!("/animations/{a}");
        if let Some(p) = misplaced_pointer(animation, &at) {
            self.push(a, p);
        }
        let mut lists = Vec::new();
        for key in ["channels", "samplers"] {
            match animation.get(key) {
                None => self.push(a, undefined(&at, key)),
                Some(Value::Array(list)) if list.is_empty() => {
                    self.push(a, empty(&format!("{at}/{key}")));
                }
                _ => {}
            }
            lists.push(
                animation
                    .get(key)
                    .and_then(Value::as_array)
                    .map_or(&[][..], Vec::as_slice),
            );
        }
        let (channels, samplers) = (lists[0], lists[1]);
        let samplers: Vec<Sampler> = samplers
            .iter()
            .enumerate()
            .map(|(s, v)| self.sampler(a, s, v))
            .collect();
        let mut first_with: HashMap<Target, usize> = HashMap::new();
        for (c, channel) in channels.iter().enumerate() {
            let readable = channel
                .as_object()
                .is_some_and(|ch| self.channel(a, c, ch, &samplers, &mut first_with));
            if !readable {
                self.out.skip_channels.insert((a, c));
            }
        }
    }

    /// Checks sampler `s` of animation `a`.
    fn sampler(&mut self, a: usize, s: usize, value: &Value) -> Sampler {
        let at = format!("/animations/{a}/samplers/{s}");
        let mut info = Sampler {
            usable: true,
            ..Sampler::default()
        };
        let Some(sampler) = value.as_object() else {
            info.usable = false;
            return info;
        };
        if let Some(p) = misplaced_pointer(sampler, &at) {
            self.push(a, p);
        }
        match sampler.get("interpolation") {
            None => {}
            Some(Value::String(i)) if matches!(i.as_str(), "LINEAR" | "STEP" | "CUBICSPLINE") => {
                info.cubic = i == "CUBICSPLINE";
            }
            Some(other) => {
                info.usable = false;
                self.push(
                    a,
                    Problem::warning(
                        "gltf-unknown-value",
                        format!(
                            "{at}/interpolation: invalid value {other}; valid values are LINEAR, STEP and CUBICSPLINE (the channels using it are not read)"
                        ),
                    ),
                );
            }
        }
        let accessors = self.doc.list("accessors");
        for key in ["input", "output"] {
            let Some(v) = sampler.get(key) else {
                info.usable = false;
                self.push(a, undefined(&at, key));
                continue;
            };
            match index(Some(v)).filter(|&i| i < accessors.len()) {
                Some(i) if key == "input" => info.input = Some(i),
                Some(i) => info.output = Some(i),
                None => {
                    info.usable = false;
                    self.push(
                        a,
                        unresolved(&format!("{at}/{key}"), "accessor", v, accessors.len()),
                    );
                }
            }
        }
        if let Some(i) = info.input
            && let Some(accessor) = accessors[i].as_object()
        {
            self.input(a, &at, i, accessor, &mut info);
        }
        if let Some(i) = info.output
            && let Some(accessor) = accessors[i].as_object()
        {
            let ap = format!("{at}/output");
            self.stride(a, &ap, i, accessor);
            if !self.data(a, &ap, i, accessor, true) {
                info.usable = false;
            }
        }
        info
    }

    /// Reports a strided buffer view under accessor `i`, which `at` refers to.
    fn stride(&mut self, a: usize, at: &str, i: usize, accessor: &Map<String, Value>) {
        if let Some((view, stride)) = stride(self.doc, accessor) {
            self.push(
                a,
                Problem::error(
                    "gltf-sampler-byte-stride",
                    format!(
                        "{at}: accessor {i} sits in bufferViews[{view}], whose byteStride is {stride}; animation sampler data must be tightly packed"
                    ),
                ),
            );
        }
    }

    /// Notes where accessor `i` keeps its data, checks its bounds when it has data (and
    /// `bounded` asks: data in a format its use does not allow means nothing), and says whether
    /// the data can be read (reporting a buffer that cannot be loaded).
    fn data(
        &mut self,
        a: usize,
        at: &str,
        i: usize,
        accessor: &Map<String, Value>,
        bounded: bool,
    ) -> bool {
        match note_data(self.doc, i, accessor, self.out) {
            Data::Unavailable(b) => {
                if self.unavailable.insert(b) {
                    let why = self.doc.missing[b]
                        .as_ref()
                        .map(|e| e.reason.clone())
                        .unwrap_or_default();
                    self.push(
                        a,
                        Problem::warning(
                            "gltf-buffer-unavailable",
                            format!(
                                "/buffers/{b}: {why}; the animation data in it ({at} and any other) is not read or checked"
                            ),
                        ),
                    );
                }
                false
            }
            Data::Stored => {
                if bounded
                    && self.bounded.insert(i)
                    && let Some(data) = decoded(self.doc, i, accessor)
                    && let Some(message) = bounds(i, accessor, &data)
                {
                    self.push(a, Problem::error("gltf-accessor-bounds", message));
                }
                true
            }
            Data::Zeros | Data::Broken => true,
        }
    }

    /// Checks input accessor `i` of the sampler at `at`.
    fn input(
        &mut self,
        a: usize,
        at: &str,
        i: usize,
        accessor: &Map<String, Value>,
        info: &mut Sampler,
    ) {
        let ip = format!("{at}/input");
        info.keys = count_of(accessor);
        let format_ok = type_of(accessor) == "SCALAR"
            && super::accessors::component_of(accessor) == FLOAT
            && !normalized(accessor);
        if !format_ok {
            info.usable = false;
            self.push(
                a,
                Problem::error(
                    "gltf-sampler-input-format",
                    format!(
                        "{ip}: accessor {i} is {}; key times must be {{SCALAR, FLOAT}}",
                        format_of(accessor)
                    ),
                ),
            );
        }
        if !accessor.contains_key("min") || !accessor.contains_key("max") {
            self.push(
                a,
                Problem::error(
                    "gltf-sampler-input-without-bounds",
                    format!("{ip}: accessor {i} has no min and max; glTF requires them on animation inputs"),
                ),
            );
        }
        self.stride(a, &ip, i, accessor);
        if info.cubic && info.keys < 2 {
            self.push(
                a,
                Problem::error(
                    "gltf-sampler-too-few-keys",
                    format!(
                        "{ip}: a CUBICSPLINE sampler needs at least 2 keys; accessor {i} has {}",
                        info.keys
                    ),
                ),
            );
        }
        if !self.data(a, &ip, i, accessor, format_ok) {
            info.usable = false;
            return;
        }
        if !info.usable {
            return;
        }
        let Some(times) = decoded(self.doc, i, accessor) else {
            return;
        };
        let times = times.values;
        let negative: Vec<usize> = (0..times.len()).filter(|&k| times[k] < 0.0).collect();
        if let Some(&k) = negative.first() {
            self.push(
                a,
                Problem::error(
                    "gltf-sampler-input-negative",
                    format!(
                        "{ip}: key time {k} is negative ({}){}",
                        times[k],
                        more(negative.len(), "negative times")
                    ),
                ),
            );
        }
        let falling: Vec<usize> = (1..times.len())
            .filter(|&k| times[k] <= times[k - 1])
            .collect();
        if let Some(&k) = falling.first() {
            self.push(
                a,
                Problem::error(
                    "gltf-sampler-input-not-increasing",
                    format!(
                        "{ip}: key time {k} ({} s) does not come after key time {} ({} s); glTF requires strictly increasing times{}",
                        times[k],
                        k - 1,
                        times[k - 1],
                        more(falling.len(), "such times")
                    ),
                ),
            );
        }
    }

    /// Checks channel `c` of animation `a`; says whether it can be read.
    fn channel(
        &mut self,
        a: usize,
        c: usize,
        channel: &Map<String, Value>,
        samplers: &[Sampler],
        first_with: &mut HashMap<Target, usize>,
    ) -> bool {
        let at = format!("/animations/{a}/channels/{c}");
        let mut readable = true;
        if let Some(p) = misplaced_pointer(channel, &at) {
            self.push(a, p);
        }
        let sampler = match channel.get("sampler") {
            None => {
                self.push(a, undefined(&at, "sampler"));
                None
            }
            Some(v) => match index(Some(v)).and_then(|s| samplers.get(s)) {
                Some(s) => Some(s),
                None => {
                    self.push(
                        a,
                        unresolved(&format!("{at}/sampler"), "sampler", v, samplers.len()),
                    );
                    None
                }
            },
        };
        let target = match channel.get("target").and_then(Value::as_object) {
            None => {
                self.push(a, undefined(&at, "target"));
                None
            }
            Some(t) => self.target(a, &at, t),
        };
        let (Some(sampler), Some(target)) = (sampler, target) else {
            return false;
        };
        if !sampler.usable {
            readable = false;
        }
        match first_with.get(&target) {
            Some(&first) => self.push(
                a,
                Problem::error(
                    "gltf-duplicate-targets",
                    format!(
                        "/animations/{a}/channels/{first}/target: channel {first} has the same target as channel {c} ({})",
                        describe(&target)
                    ),
                ),
            ),
            None => {
                first_with.insert(target.clone(), c);
            }
        }
        if let Target::Node(node, path) = target {
            readable &= self.node_rules(a, &at, node, path);
            readable &= self.output(a, &at, node, path, sampler);
        }
        readable
    }

    /// What the target at `at/target` animates, reporting what is wrong with it; `None` when
    /// the channel cannot be read.
    fn target(&mut self, a: usize, at: &str, target: &Map<String, Value>) -> Option<Target> {
        let tp = format!("{at}/target");
        let nodes = self.doc.list("nodes").len();
        let path = match target.get("path") {
            None => {
                self.push(a, undefined(&tp, "path"));
                return None;
            }
            Some(Value::String(p)) => p.as_str(),
            Some(other) => {
                self.push(a, unknown_path(&tp, &other.to_string(), self.declared()));
                return None;
            }
        };
        let ext = pointer::of_target(target);
        let ep = format!("{tp}/extensions/{EXTENSION}");
        let mut pointer = None;
        if let Some(ext) = ext {
            if !pointer::is_pointer_path(path) {
                self.push(
                    a,
                    Problem::error(
                        "gltf-pointer-path",
                        format!("{ep}: this extension requires the channel's target path to be 'pointer'; found '{path}'"),
                    ),
                );
            }
            if target.contains_key("node") {
                self.push(
                    a,
                    Problem::error(
                        "gltf-pointer-with-node",
                        format!("{ep}: this extension requires the channel's target node to be undefined"),
                    ),
                );
            }
            match ext {
                None => self.push(a, undefined(&ep, "pointer")),
                Some(p) if !pointer::is_valid(p) => {
                    self.push(
                        a,
                        Problem::error(
                            "gltf-pointer-syntax",
                            format!(
                                "{ep}/pointer: '{p}' is not a JSON pointer (it must start with / and write ~ and / in names as ~0 and ~1)"
                            ),
                        ),
                    );
                }
                Some(p) => pointer = Some(p),
            }
        }
        if pointer::is_pointer_path(path) {
            if !self.declared() {
                self.push(
                    a,
                    Problem::warning(
                        "gltf-extension-not-declared",
                        format!("{tp}/path: 'pointer' needs {EXTENSION} in extensionsUsed, which does not list it"),
                    ),
                );
            }
            // Without the extension object the target is undefined and glTF ignores the
            // channel (misplaced or undeclared extensions are reported above).
            let p = pointer?;
            return match pointer::node_target(p) {
                Some((node, _)) if node >= nodes => {
                    self.push(
                        a,
                        unresolved(&format!("{ep}/pointer"), "node", &Value::from(node), nodes),
                    );
                    None
                }
                Some((node, path)) => Some(Target::Node(node, path)),
                None => Some(Target::Pointer(p.to_string())),
            };
        }
        let Some(&path) = NODE_PATHS.iter().find(|&&p| p == path) else {
            self.push(a, unknown_path(&tp, &format!("'{path}'"), self.declared()));
            return None;
        };
        if ext.is_some() {
            // A node path with the extension: what it animates is ambiguous (reported above).
            return None;
        }
        match target.get("node") {
            // glTF says such a channel is ignored (an extension may give its target).
            None => None,
            Some(v) => match index(Some(v)).filter(|&n| n < nodes) {
                Some(n) => Some(Target::Node(n, path)),
                None => {
                    self.push(a, unresolved(&format!("{tp}/node"), "node", v, nodes));
                    None
                }
            },
        }
    }

    /// Whether the file lists `KHR_animation_pointer` in `extensionsUsed`.
    fn declared(&self) -> bool {
        self.doc
            .list("extensionsUsed")
            .iter()
            .any(|e| e.as_str() == Some(EXTENSION))
    }

    /// The morph target count of `node`'s mesh: `None` without a mesh.
    fn morph_targets(&self, node: &Map<String, Value>) -> Option<usize> {
        let mesh = self.doc.item("meshes", index(node.get("mesh"))?)?;
        let primitives = mesh.get("primitives")?.as_array()?;
        Some(
            primitives
                .iter()
                .map(|p| {
                    p.get("targets")
                        .and_then(Value::as_array)
                        .map_or(0, Vec::len)
                })
                .max()
                .unwrap_or(0),
        )
    }

    /// What `path` may animate on `node`; says whether the channel can still be read.
    fn node_rules(&mut self, a: usize, at: &str, n: usize, path: &str) -> bool {
        let Some(node) = self.doc.item("nodes", n) else {
            return true;
        };
        let tp = format!("{at}/target");
        let trs = path != "weights";
        if trs && node.contains_key("matrix") {
            self.push(
                a,
                Problem::error(
                    "gltf-target-node-matrix",
                    format!("{tp}: the channel animates the {path} of node {n}, which has a matrix; an animated node needs translation, rotation and scale instead"),
                ),
            );
        }
        if trs && node.contains_key("skin") {
            self.push(
                a,
                Problem::warning(
                    "gltf-skinned-node-animated",
                    format!("{tp}/path: node {n} has a skinned mesh, which its animated {path} does not move"),
                ),
            );
        }
        if !trs {
            match self.morph_targets(node) {
                Some(0) => {
                    self.push(
                        a,
                        Problem::error(
                            "gltf-weights-without-morph-targets",
                            format!("{tp}: a weights channel on node {n}, whose mesh has no morph targets"),
                        ),
                    );
                    return false;
                }
                None => self.push(
                    a,
                    Problem::error(
                        "gltf-weights-without-morph-targets",
                        format!("{tp}: a weights channel on node {n}, which has no mesh"),
                    ),
                ),
                Some(_) => {}
            }
        }
        true
    }

    /// Checks the format, count and data of the output a channel on `path` of node `n` reads;
    /// says whether the channel can be read.
    fn output(&mut self, a: usize, at: &str, n: usize, path: &str, sampler: &Sampler) -> bool {
        let (Some(o), Some(_)) = (sampler.output, sampler.input) else {
            return false;
        };
        let Some(accessor) = self.doc.item("accessors", o) else {
            return false;
        };
        let sp = format!("{at}/sampler");
        let (want_type, float_only) = match path {
            "translation" | "scale" => ("VEC3", true),
            "rotation" => ("VEC4", false),
            _ => ("SCALAR", false),
        };
        let format_ok = type_of(accessor) == want_type
            && if float_only {
                super::accessors::component_of(accessor) == FLOAT && !normalized(accessor)
            } else {
                float_or_normalized_small(accessor)
            };
        if !format_ok {
            let allowed = if float_only {
                format!("{{{want_type}, FLOAT}}")
            } else {
                format!(
                    "{{{want_type}, FLOAT}} or a normalized BYTE, UNSIGNED_BYTE, SHORT or UNSIGNED_SHORT"
                )
            };
            self.push(
                a,
                Problem::error(
                    "gltf-sampler-output-format",
                    format!(
                        "{sp}: the output accessor {o} is {}, which a {path} channel cannot take (it takes {allowed})",
                        format_of(accessor)
                    ),
                ),
            );
            return false;
        }
        let per_key = if sampler.cubic { 3 } else { 1 };
        let targets = if path == "weights" {
            match self
                .doc
                .item("nodes", n)
                .and_then(|node| self.morph_targets(node))
            {
                Some(t) if t > 0 => Some(t as u64),
                _ => None,
            }
        } else {
            Some(1)
        };
        if let Some(targets) = targets {
            let expected = sampler.keys * per_key * targets;
            let count = count_of(accessor);
            if count != expected {
                let cubic = if sampler.cubic {
                    " × 3 (CUBICSPLINE)"
                } else {
                    ""
                };
                let morphs = if path == "weights" {
                    format!(" × {targets} morph targets")
                } else {
                    String::new()
                };
                self.push(
                    a,
                    Problem::error(
                        "gltf-sampler-output-count",
                        format!(
                            "{sp}: the output accessor {o} has {count} elements where {} keys{cubic}{morphs} need {expected}",
                            sampler.keys
                        ),
                    ),
                );
                return false;
            }
        }
        if path == "rotation"
            && let Some(data) = decoded(self.doc, o, accessor)
        {
            let bad: Vec<(usize, f64)> = data
                .values
                .chunks_exact(4)
                .enumerate()
                .filter(|(e, _)| !sampler.cubic || e % 3 == 1)
                .map(|(e, q)| {
                    (
                        e,
                        q.iter().map(|&c| c as f64 * c as f64).sum::<f64>().sqrt(),
                    )
                })
                .filter(|&(_, len)| (len - 1.0).abs() > UNIT_TOLERANCE)
                .collect();
            if let Some(&(e, len)) = bad.first() {
                let key = if sampler.cubic { e / 3 } else { e };
                self.push(
                    a,
                    Problem::error(
                        "gltf-non-unit-quaternion",
                        format!(
                            "{sp}: the rotation of key {key} (output elements at indices {}..{}) has length {len}, not 1{}",
                            e * 4,
                            e * 4 + 3,
                            more(bad.len(), "rotations off unit length")
                        ),
                    ),
                );
            }
        }
        true
    }
}

/// The warning for a channel path glTF does not define.
fn unknown_path(tp: &str, found: &str, declared: bool) -> Problem {
    let pointer = if declared { ", pointer" } else { "" };
    Problem::warning(
        "gltf-unknown-value",
        format!(
            "{tp}/path: invalid value {found}; valid values are translation, rotation, scale, weights{pointer} (the channel is not read)"
        ),
    )
}

/// A target as a message shows it.
fn describe(target: &Target) -> String {
    match target {
        Target::Node(n, path) => format!("the {path} of node {n}"),
        Target::Pointer(p) => format!("pointer {p}"),
    }
}

/// `" (N more …)"` for something found `count` times, or `""` when found once.
fn more(count: usize, what: &str) -> String {
    if count > 1 {
        format!(" ({} more {what})", count - 1)
    } else {
        String::new()
    }
}
