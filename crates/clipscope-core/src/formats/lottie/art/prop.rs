//! Animated shape properties: numbers and paths, evaluated with lottie-web's keyframe and
//! easing code ([`Keys`]), the same that makes the layer transforms match lottie-web.
//!
//! A path value `{i, o, v, c}` is flattened into numbers (per vertex: `v`, `i`, `o`, each x and
//! y) so its keyframes interpolate component by component with one eased progress, as
//! lottie-web's `ShapeProperty.interpolateShape` does.

use super::super::easing::Easing;
use super::super::schema::{Handle, Located, Node, Numbers as _, Obj, PropValue, Property};
use super::super::value::{Key, Keys, PropKind, SegmentEase, segment_ease};
use crate::formats::json::JsonKind;
use crate::formats::json::path::{field, index};

/// A property's value at any frame.
#[derive(Debug, Clone)]
pub(crate) struct Prop(Keys);

impl Prop {
    /// A value that never changes.
    pub(crate) fn fixed(value: Vec<f64>) -> Prop {
        Prop(Keys {
            dims: value.len(),
            keys: vec![Key {
                t: 0.0,
                value,
                hold: false,
                ease: SegmentEase::Shared(Easing::linear()),
                path: None,
            }],
            orientation: false,
        })
    }

    /// Decodes the animatable property `node` (a number, an array or keyframes); `vector`
    /// properties may have motion paths.
    pub(crate) fn decode(node: &Node<'_>, vector: bool) -> Result<Prop, Located> {
        let property = Property::decode(node.object()?)?;
        let k_path = field(&node.path, "k");
        match property.value {
            PropValue::Static { values, .. } => Ok(Prop::fixed(values)),
            PropValue::Keyed(frames) => {
                let kind = if vector {
                    PropKind::Vector
                } else {
                    PropKind::Scalar
                };
                Keys::decode(&frames, kind, &k_path).map(Prop)
            }
        }
    }

    /// Field `name` of `obj` as a property, or `default` when it is absent.
    pub(crate) fn field_or(
        obj: &Obj<'_>,
        name: &str,
        vector: bool,
        default: &[f64],
    ) -> Result<Prop, Located> {
        match obj.get_some(name) {
            Some(n) => Prop::decode(&n, vector),
            None => Ok(Prop::fixed(default.to_vec())),
        }
    }

    /// The value at `frame` (of the composition holding the layer).
    pub(crate) fn at(&self, frame: f64) -> Vec<f64> {
        let mut out = vec![0.0; self.0.dims];
        self.0.value_at(frame, &mut out);
        out
    }

    /// Component 0 at `frame`.
    pub(crate) fn scalar(&self, frame: f64) -> f64 {
        self.at(frame).first().copied().unwrap_or(0.0)
    }

    /// Components 0 and 1 at `frame` (`0` for missing ones).
    pub(crate) fn pair(&self, frame: f64) -> [f64; 2] {
        let v = self.at(frame);
        [
            v.first().copied().unwrap_or(0.0),
            v.get(1).copied().unwrap_or(0.0),
        ]
    }
}

/// A path property (`ks` of an `sh` item, `pt` of a mask).
#[derive(Debug, Clone)]
pub(crate) struct PathProp {
    /// The flattened vertices.
    pub values: Prop,
    /// Whether the path is closed.
    pub closed: bool,
}

/// One path's vertices: `(vertex, in tangent, out tangent)`, tangents relative to the vertex.
pub(crate) type Vertices = Vec<[[f64; 2]; 3]>;

impl PathProp {
    /// Decodes a path property object `{a, k}`.
    pub(crate) fn decode(node: &Node<'_>) -> Result<PathProp, Located> {
        let obj = node.object()?;
        let k = obj.require_as("k", "path")?;
        match k.kind() {
            JsonKind::Object => {
                let (values, closed) = flatten(&k)?;
                Ok(PathProp {
                    values: Prop::fixed(values),
                    closed,
                })
            }
            JsonKind::Array => {
                let frames = k.array("an array of keyframes")?;
                if frames.is_empty() {
                    return Err(Located::new(&k.path, "no keyframes"));
                }
                // Some exporters write the static path as a one-element array.
                if frames[0].kind() == JsonKind::Object
                    && frames[0].object()?.get_some("v").is_some()
                {
                    let (values, closed) = flatten(&frames[0])?;
                    return Ok(PathProp {
                        values: Prop::fixed(values),
                        closed,
                    });
                }
                path_keys(&frames, &k.path)
            }
            _ => Err(k.wrong("a path or keyframes")),
        }
    }

    /// The vertices at `frame`.
    pub(crate) fn at(&self, frame: f64) -> Vertices {
        let v = self.values.at(frame);
        v.chunks_exact(6)
            .map(|c| [[c[0], c[1]], [c[2], c[3]], [c[4], c[5]]])
            .collect()
    }
}

/// Keyframes whose values are paths (`s: [{i, o, v, c}]`, or the path object itself).
fn path_keys(frames: &[Node<'_>], k_path: &str) -> Result<PathProp, Located> {
    let n = frames.len();
    let mut keys = Vec::with_capacity(n);
    let mut closed = false;
    let mut dims = None;
    let mut prev_end: Option<Vec<f64>> = None;
    for (i, node) in frames.iter().enumerate() {
        let obj = node.object()?;
        let t = obj.require_as("t", "keyframe time")?.f32_safe()?;
        let value_of = |name: &str| -> Result<Option<(Vec<f64>, bool)>, Located> {
            let Some(s) = obj.get_some(name) else {
                return Ok(None);
            };
            let path = match s.kind() {
                JsonKind::Array => s
                    .array("a path")?
                    .into_iter()
                    .next()
                    .ok_or_else(|| Located::new(&s.path, "an empty path list"))?,
                _ => s,
            };
            flatten(&path).map(Some)
        };
        let value = match (value_of("s")?, prev_end.take()) {
            (Some((v, c)), _) => {
                if i == 0 {
                    closed = c;
                }
                v
            }
            (None, Some(end)) if i + 1 == n => end,
            (None, _) if i + 1 == n && i > 0 => keys
                .last()
                .map(|k: &Key| k.value.clone())
                .unwrap_or_default(),
            (None, _) => {
                return Err(Located::new(
                    field(&index(k_path, i), "s"),
                    "missing keyframe value \"s\"",
                ));
            }
        };
        prev_end = value_of("e")?.map(|(v, _)| v);
        let d = *dims.get_or_insert(value.len());
        if value.len() != d {
            return Err(Located::new(
                field(&index(k_path, i), "s"),
                "the path has a different number of vertices than the first keyframe",
            ));
        }
        let handle = |name: &str| -> Result<Option<Handle>, Located> {
            obj.get_some(name).map(|h| Handle::decode(&h)).transpose()
        };
        let (o, ih) = (handle("o")?, handle("i")?);
        // lottie-web eases a path with one curve: scalar handles, or the first entry.
        let ease = segment_ease(o.as_ref(), ih.as_ref(), 1, true);
        let hold = match obj.get_some("h") {
            Some(h) if h.kind() == JsonKind::Number => h.f64()? == 1.0,
            _ => false,
        };
        if let Some(last) = keys.last()
            && t < last.t
        {
            return Err(Located::new(
                field(&index(k_path, i), "t"),
                "keyframe times must not go back",
            ));
        }
        keys.push(Key {
            t,
            value,
            hold,
            ease,
            path: None,
        });
    }
    Ok(PathProp {
        values: Prop(Keys {
            dims: dims.unwrap_or(0),
            keys,
            orientation: false,
        }),
        closed,
    })
}

/// A path object `{i, o, v, c}` as numbers, and whether it is closed.
fn flatten(node: &Node<'_>) -> Result<(Vec<f64>, bool), Located> {
    let obj = node.object_as("a path object {i, o, v, c}")?;
    let list = |name: &str| -> Result<Vec<[f64; 2]>, Located> {
        let Some(n) = obj.get_some(name) else {
            return Ok(Vec::new());
        };
        n.array("an array of points")?
            .iter()
            .map(|p| {
                let v = p.numbers()?;
                Ok([
                    v.first().copied().unwrap_or(0.0),
                    v.get(1).copied().unwrap_or(0.0),
                ])
            })
            .collect()
    };
    let (v, i, o) = (list("v")?, list("i")?, list("o")?);
    let closed = match obj.get_some("c") {
        Some(c) if c.kind() == JsonKind::Bool => c.raw.get().trim() == "true",
        Some(c) if c.kind() == JsonKind::Number => c.f64()? != 0.0,
        _ => false,
    };
    let mut out = Vec::with_capacity(v.len() * 6);
    for (k, p) in v.iter().enumerate() {
        let a = i.get(k).copied().unwrap_or([0.0; 2]);
        let b = o.get(k).copied().unwrap_or([0.0; 2]);
        out.extend_from_slice(&[p[0], p[1], a[0], a[1], b[0], b[1]]);
    }
    Ok((out, closed))
}
