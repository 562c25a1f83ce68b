//! A serde mirror of the parts of a Lottie file clipscope reads, borrowed from the input text.
//!
//! serde scans the text once into objects whose values stay raw ([`RawFields`](crate::formats::json::RawFields)); the typed
//! mirror ([`Composition`], [`Layer`], [`Transform`], [`Property`], [`Keyframe`]) is then decoded
//! from those leaves with the JSON path of each one at hand, so an error names the exact place
//! (`layers[0].ks.p.k[1].s`). Every node also knows its byte range in the file ([`Node::span`]),
//! which the writer uses to replace just the properties that were edited and leave every other
//! byte of the file (shapes, masks, assets, unknown fields, formatting) as it was.
//!
//! Decoding follows lottie-web's tolerance where it is harmless (`[v]` for scalars, `o`/`i`
//! handle components as numbers or arrays, missing `st`/`sr`; a layer `ty` that is no number, and
//! `ind`, `parent`, `ip`, `op` and keyframe times written as text, noted in the layer's
//! `accepted`) and stops with an error where lottie-web would throw or produce NaN. A bare number
//! for a keyframe value is read as `[v]` though lottie-web cannot evaluate it (`validate` warns,
//! `lottie-unplayable-keyframe`).

use serde::Deserialize;
use serde_json::value::RawValue;

use crate::formats::json::path::field;
use crate::formats::json::{JsonKind, Key};
use crate::model;

pub(crate) use crate::formats::json::{Located, Node, Obj};

/// How Lottie reads numbers: finite only, values and times within `f32` range (they end up in
/// the model's `f32` arrays), and a bare number where lottie-web accepts `[v]`.
pub(crate) trait Numbers {
    /// The value as a finite number (`f64`, like `JSON.parse`).
    fn f64(&self) -> Result<f64, Located>;
    /// The value as a number that also fits an `f32`.
    fn f32_safe(&self) -> Result<f64, Located>;
    /// An array of numbers (each fitting an `f32`), or one bare number read as `[v]`.
    fn numbers(&self) -> Result<Vec<f64>, Located>;
}

impl Numbers for Node<'_> {
    fn f64(&self) -> Result<f64, Located> {
        if self.kind() != JsonKind::Number {
            return Err(self.wrong("a number"));
        }
        match serde_json::from_str::<f64>(self.raw.get()) {
            Ok(v) if v.is_finite() => Ok(v),
            _ => Err(Located::new(
                &self.path,
                format!("number {} is out of range", self.raw.get().trim()),
            )),
        }
    }

    fn f32_safe(&self) -> Result<f64, Located> {
        let v = self.f64()?;
        if (v as f32).is_infinite() {
            return Err(self.out_of_range(32));
        }
        Ok(v)
    }

    fn numbers(&self) -> Result<Vec<f64>, Located> {
        match self.kind() {
            JsonKind::Number => Ok(vec![self.f32_safe()?]),
            JsonKind::Array => self
                .array("an array of numbers")?
                .iter()
                .map(|n| match n.kind() {
                    JsonKind::Number => n.f32_safe(),
                    _ => Err(n.wrong("a number")),
                })
                .collect(),
            _ => Err(self.wrong("an array of numbers")),
        }
    }
}

/// Lottie's optional fields: numbers, informative names and 0/1 flags.
pub(crate) trait Fields {
    /// Optional number field `name`.
    fn number(&self, name: &str) -> Result<Option<f64>, Located>;
    /// Optional string field `name`; other JSON types read as absent (names are informative).
    fn text(&self, name: &str) -> Option<String>;
    /// True when field `name` is the number 1 or `true` (Lottie's 0/1 flags).
    fn flag(&self, name: &str) -> bool;
}

impl Fields for Obj<'_> {
    fn number(&self, name: &str) -> Result<Option<f64>, Located> {
        self.get_some(name).map(|n| n.f64()).transpose()
    }

    fn text(&self, name: &str) -> Option<String> {
        self.get_some(name).and_then(|n| n.string().ok())
    }

    fn flag(&self, name: &str) -> bool {
        match self.get_some(name) {
            Some(n) if n.kind() == JsonKind::Number => n.f64().is_ok_and(|v| v == 1.0),
            Some(n) if n.kind() == JsonKind::Bool => n.raw.get().trim() == "true",
            _ => false,
        }
    }
}

/// The whole file: a composition object (spec A1).
#[derive(Debug)]
pub(crate) struct Composition<'a> {
    /// The top-level object.
    pub obj: Obj<'a>,
    /// Bodymovin version `v`, when present.
    pub version: Option<String>,
    /// Frames per second `fr` (positive).
    pub fr: f64,
    /// First frame `ip`.
    pub ip: f64,
    /// End frame `op` (exclusive).
    pub op: f64,
    /// Name `nm`, when present.
    pub name: Option<String>,
    /// The root composition's layers.
    pub layers: Vec<Layer<'a>>,
    /// Precomposition assets (assets with `layers`), in file order.
    pub precomps: Vec<Precomp<'a>>,
}

/// A precomposition asset: `{id, nm?, fr?, layers}`.
#[derive(Debug)]
pub(crate) struct Precomp<'a> {
    /// The asset object.
    pub obj: Obj<'a>,
    /// Its `id` (a string, or a number written as text).
    pub id: String,
    /// Its `nm`, when present.
    pub name: Option<String>,
    /// Its own frame rate, when given.
    pub fr: Option<f64>,
    /// Its layers.
    pub layers: Vec<Layer<'a>>,
}

/// One layer (spec A2): what clipscope reads of it.
#[derive(Debug)]
pub(crate) struct Layer<'a> {
    /// What the clip records of it ([`model::Layer`]): `ty`, `ind`, `parent`, `nm`, in/out
    /// points, `st`, `sr` (1 when missing or 0, like lottie-web), `ao`, `ddd`, `refId`, whether
    /// it has a time remap `tm`, its content's size (a solid's `sw`/`sh`, a precomp layer's
    /// `w`/`h`, read leniently: a malformed size is no size), a solid's colour `sc` and a shape
    /// layer's extent (the union of its static rectangles, ellipses and paths, group transforms
    /// not applied). Its `name`, the track-name prefix, is left empty: the reader gives it.
    pub record: model::Layer,
    /// Its transform `ks`, when present.
    pub transform: Option<Transform<'a>>,
    /// Fields read leniently the way lottie-web reads them (see [`Layer::decode`]).
    pub accepted: Vec<crate::formats::Accepted>,
}

/// The transform properties of a layer (spec A3), in clipscope's order.
#[derive(Debug)]
pub(crate) struct Transform<'a> {
    /// `(key, property)` for each present key of [`TRANSFORM_KEYS`].
    pub props: Vec<(&'static str, TransformProp<'a>)>,
}

/// The transform keys clipscope reads, in track order.
pub(crate) const TRANSFORM_KEYS: [&str; 11] =
    ["a", "p", "s", "r", "rx", "ry", "rz", "or", "o", "sk", "sa"];

/// One transform property: a plain animatable property, or a position split into components.
#[derive(Debug)]
pub(crate) enum TransformProp<'a> {
    /// `{a, k, …}`.
    Plain(Property<'a>),
    /// `{"s": true, "x": {…}, "y": {…}, "z"?: {…}}`: `(component name, property)` each.
    Split(Vec<(&'static str, Property<'a>)>),
}

/// An animatable property `{a, k, ix, x, …}` (spec A4).
#[derive(Debug)]
pub(crate) struct Property<'a> {
    /// The property object.
    pub obj: Obj<'a>,
    /// Its value.
    pub value: PropValue<'a>,
}

/// A property's value, by the shape of `k` (lottie-web ignores `a`).
#[derive(Debug)]
pub(crate) enum PropValue<'a> {
    /// A number (`number` true) or an array of numbers.
    Static {
        /// The components.
        values: Vec<f64>,
        /// Whether `k` was a bare number.
        number: bool,
    },
    /// An array of keyframes.
    Keyed(Vec<Keyframe<'a>>),
}

/// One keyframe (spec A5).
#[derive(Debug)]
pub(crate) struct Keyframe<'a> {
    /// The keyframe object.
    pub obj: Obj<'a>,
    /// Frame `t`.
    pub t: f64,
    /// Value `s`, when present (old files leave it off the last key).
    pub s: Option<Vec<f64>>,
    /// Old files' segment end value `e`.
    pub e: Option<Vec<f64>>,
    /// Out easing handle `o`.
    pub o: Option<Handle>,
    /// In easing handle `i`.
    pub i: Option<Handle>,
    /// Hold key (`h` is 1).
    pub hold: bool,
    /// Spatial out tangent `to` (relative), when present and not null.
    pub to: Option<Vec<f64>>,
    /// Spatial in tangent `ti` (relative).
    pub ti: Option<Vec<f64>>,
    /// Whether `t` was written as text (`"10"`), which lottie-web's comparisons and arithmetic
    /// read as the number it spells.
    pub t_text: bool,
}

/// An easing handle `{x, y}`: each a number or one number per dimension.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Handle {
    /// The time coordinates.
    pub x: Vec<f64>,
    /// The progress coordinates.
    pub y: Vec<f64>,
    /// Whether `x` was an array (lottie-web then uses one curve per dimension).
    pub per_dimension: bool,
}

impl Handle {
    /// `(x, y)` for dimension `d`, falling back to entry 0 when the arrays are shorter (like
    /// lottie-web's `o.x[i] === undefined ? o.x[0] : o.x[i]`).
    pub(crate) fn at(&self, d: usize) -> (f64, f64) {
        let pick = |v: &[f64]| v.get(d).or(v.first()).copied().unwrap_or(0.0);
        (pick(&self.x), pick(&self.y))
    }
}

/// Parses `bytes` into the top-level object's fields; `Ok(Err(kind))` when the file is valid JSON
/// but not an object.
pub(crate) fn parse_top(bytes: &[u8]) -> Result<Result<Obj<'_>, JsonKind>, serde_json::Error> {
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let raw: &RawValue = Deserialize::deserialize(&mut de)?;
    de.end()?;
    let node = Node::new(raw, "");
    match node.kind() {
        JsonKind::Object => Ok(node.object().map_err(|_| JsonKind::Object)),
        kind => Ok(Err(kind)),
    }
}

impl<'a> Composition<'a> {
    /// Decodes the top-level object `obj` (spec A1).
    pub(crate) fn decode(obj: Obj<'a>) -> Result<Composition<'a>, Located> {
        let fr_node = obj.require_as("fr", "frame rate")?;
        let fr = fr_node.f64()?;
        if fr <= 0.0 {
            return Err(Located::new(
                &fr_node.path,
                format!("the frame rate must be a positive number, not {fr}"),
            ));
        }
        let ip = obj.require_as("ip", "first frame")?.f64()?;
        let op_node = obj.require_as("op", "end frame")?;
        let op = op_node.f64()?;
        if op < ip {
            return Err(Located::new(
                &op_node.path,
                format!("the end frame {op} is before the first frame {ip}"),
            ));
        }
        let layers = decode_layers(&obj.require_as("layers", "layer list")?)?;
        let mut precomps = Vec::new();
        if let Some(assets) = obj.get_some("assets") {
            for asset in assets.array("an array of assets")? {
                let a = asset.object()?;
                let Some(layers) = a.get_some("layers") else {
                    continue;
                };
                let id = match a.get_some("id") {
                    Some(n) if n.kind() == JsonKind::String => n.string()?,
                    Some(n) => n.raw.get().trim().to_string(),
                    None => String::new(),
                };
                let fr = match a.number("fr")? {
                    Some(v) if v > 0.0 => Some(v),
                    _ => None,
                };
                precomps.push(Precomp {
                    id,
                    name: a.text("nm"),
                    fr,
                    layers: decode_layers(&layers)?,
                    obj: a,
                });
            }
        }
        Ok(Composition {
            version: obj.text("v"),
            fr,
            ip,
            op,
            name: obj.text("nm"),
            layers,
            precomps,
            obj,
        })
    }
}

/// Decodes a `layers` array.
fn decode_layers<'a>(node: &Node<'a>) -> Result<Vec<Layer<'a>>, Located> {
    node.array("an array of layers")?
        .iter()
        .map(|n| Layer::decode(n.object()?))
        .collect()
}

/// A layer's number field `name` as lottie-web compares it: a number, or a decimal written as
/// text, which is compared as the number it spells (loose equality for `ind`/`parent`, `<` for
/// `ip`/`op`); the text noted in `accepted` with `why`.
fn loose_number(
    obj: &Obj<'_>,
    name: &str,
    why: &str,
    accepted: &mut Vec<crate::formats::Accepted>,
) -> Result<Option<f64>, Located> {
    match obj.get_some(name) {
        Some(n) if n.kind() == JsonKind::String => {
            let Some(v) = n
                .string()
                .ok()
                .as_deref()
                .and_then(crate::formats::json::js_number)
            else {
                return Err(n.wrong("a number"));
            };
            accepted.push(crate::formats::Accepted::new(
                &n.path,
                format!("written as text; {why}"),
            ));
            Ok(Some(v))
        }
        _ => obj.number(name),
    }
}

/// How lottie-web reads a layer's `ind` or `parent` written as text.
const LOOSE_INDEX: &str = "lottie-web matches layers by loose equality (`ind == parent`), \
                           which compares it as the number it spells";

/// How lottie-web reads a layer's `ip` or `op` written as text.
const LOOSE_RANGE: &str =
    "lottie-web compares the frame with it (`ip <= frame < op`) as the number it spells";

/// A layer's type `ty`: a number, or for any other JSON value 3 (null layer), as lottie-web's
/// `createItem` switch (strict cases, default `createNull`) makes it; that is noted in
/// `accepted`.
fn layer_type(obj: &Obj<'_>, accepted: &mut Vec<crate::formats::Accepted>) -> Option<f64> {
    let n = obj.get_some("ty")?;
    if n.kind() == JsonKind::Number {
        return n.f64().ok();
    }
    accepted.push(crate::formats::Accepted::new(
        &n.path,
        format!(
            "the layer type {} is no number; lottie-web's createItem makes such a layer a null \
             layer (its transform plays, it draws nothing), and so does clipscope",
            n.raw.get().trim()
        ),
    ));
    Some(3.0)
}

impl<'a> Layer<'a> {
    /// Decodes one layer object. As lottie-web reads them: a `ty` that is no number makes a null
    /// layer ([`layer_type`]); `ind` and `parent` written as text are the numbers they spell
    /// ([`loose_number`]).
    fn decode(obj: Obj<'a>) -> Result<Layer<'a>, Located> {
        let mut accepted = Vec::new();
        let sr = match obj.number("sr")? {
            Some(v) if v != 0.0 => v,
            _ => 1.0,
        };
        let ref_id = match obj.get_some("refId") {
            Some(n) if n.kind() == JsonKind::String => Some(n.string()?),
            Some(n) => Some(n.raw.get().trim().to_string()),
            None => None,
        };
        let transform = match obj.get_some("ks") {
            Some(ks) => Some(Transform::decode(ks.object()?)?),
            None => None,
        };
        let record = model::Layer {
            name: String::new(),
            nm: obj.text("nm"),
            ind: loose_number(&obj, "ind", LOOSE_INDEX, &mut accepted)?,
            ty: layer_type(&obj, &mut accepted),
            parent: loose_number(&obj, "parent", LOOSE_INDEX, &mut accepted)?,
            ip: loose_number(&obj, "ip", LOOSE_RANGE, &mut accepted)?,
            op: loose_number(&obj, "op", LOOSE_RANGE, &mut accepted)?,
            st: obj.number("st")?.unwrap_or(0.0),
            sr,
            auto_orient: obj.flag("ao"),
            ddd: obj.flag("ddd"),
            ref_id,
            time_remap: obj.get_some("tm").is_some(),
            size: size_of(&obj),
            solid_colour: obj.text("sc"),
            outline: obj
                .get_some("shapes")
                .and_then(|n| serde_json::from_str::<serde_json::Value>(n.raw.get()).ok())
                .map_or_else(Vec::new, |shapes| super::outline::shape_outline(&shapes)),
            // Filled in by the reader, which sees each transform property.
            expressions: Vec::new(),
        };
        if let Some(t) = &transform {
            accepted.extend(t.text_times());
        }
        Ok(Layer {
            record,
            transform,
            accepted,
        })
    }
}

/// A layer's content size: `sw`/`sh` (solids), else `w`/`h` (precomp layers), when both are
/// positive finite numbers.
fn size_of(obj: &Obj<'_>) -> Option<[f64; 2]> {
    let pair = |w: &str, h: &str| {
        let w = obj.number(w).ok().flatten()?;
        let h = obj.number(h).ok().flatten()?;
        (w.is_finite() && h.is_finite() && w > 0.0 && h > 0.0).then_some([w, h])
    };
    pair("sw", "sh").or_else(|| pair("w", "h"))
}

impl<'a> Transform<'a> {
    /// A note for each keyframe whose time `t` is written as text (read as the number).
    fn text_times(&self) -> Vec<crate::formats::Accepted> {
        let props = self.props.iter().flat_map(|(_, p)| match p {
            TransformProp::Plain(p) => vec![p],
            TransformProp::Split(parts) => parts.iter().map(|(_, p)| p).collect(),
        });
        props
            .flat_map(|p| match &p.value {
                PropValue::Keyed(keys) => keys.iter().filter(|k| k.t_text).collect(),
                PropValue::Static { .. } => Vec::new(),
            })
            .map(|k| {
                crate::formats::Accepted::new(
                    field(&k.obj.path, "t"),
                    "the keyframe time written as text; lottie-web's comparisons and arithmetic \
                     read it as the number it spells",
                )
            })
            .collect()
    }

    /// Decodes a `ks` object: every key of [`TRANSFORM_KEYS`] that is present.
    fn decode(obj: Obj<'a>) -> Result<Transform<'a>, Located> {
        let mut props = Vec::new();
        for key in TRANSFORM_KEYS {
            let Some(node) = obj.get_some(key) else {
                continue;
            };
            let prop_obj = node.object()?;
            // lottie-web: `if (data.p && data.p.s)` splits the position.
            let split = key == "p"
                && prop_obj
                    .get_some("s")
                    .is_some_and(|s| !matches!(s.raw.get().trim(), "false" | "0" | "\"\""));
            if split {
                let mut parts = Vec::new();
                for axis in ["x", "y", "z"] {
                    if let Some(n) = prop_obj.get_some(axis) {
                        parts.push((axis, Property::decode(n.object()?)?));
                    }
                }
                props.push((key, TransformProp::Split(parts)));
            } else {
                props.push((key, TransformProp::Plain(Property::decode(prop_obj)?)));
            }
        }
        Ok(Transform { props })
    }
}

impl<'a> Property<'a> {
    /// Decodes an animatable property object by the shape of its `k` (spec A4).
    pub(crate) fn decode(obj: Obj<'a>) -> Result<Property<'a>, Located> {
        let k = obj.require_as("k", "value")?;
        const WHAT: &str = "a number, an array of numbers or an array of keyframes";
        let value = match k.kind() {
            JsonKind::Number => PropValue::Static {
                values: vec![k.f32_safe()?],
                number: true,
            },
            JsonKind::Array => {
                let elems = k.array(WHAT)?;
                match elems.first().map(Node::kind) {
                    None => return Err(Located::new(&k.path, "the value is an empty array")),
                    Some(JsonKind::Object) => PropValue::Keyed(
                        elems
                            .into_iter()
                            .map(|n| Keyframe::decode(n.object()?))
                            .collect::<Result<_, _>>()?,
                    ),
                    Some(JsonKind::Number) => PropValue::Static {
                        values: k.numbers()?,
                        number: false,
                    },
                    Some(_) => return Err(elems[0].wrong("a number or a keyframe object")),
                }
            }
            _ => return Err(k.wrong(WHAT)),
        };
        Ok(Property { obj, value })
    }
}

impl<'a> Keyframe<'a> {
    /// Decodes one keyframe object (spec A5).
    fn decode(obj: Obj<'a>) -> Result<Keyframe<'a>, Located> {
        let t_node = obj.require_as("t", "keyframe time")?;
        let (t, t_text) = match t_node.kind() {
            JsonKind::String => {
                let v = t_node
                    .string()
                    .ok()
                    .as_deref()
                    .and_then(crate::formats::json::js_number)
                    .filter(|v| !(*v as f32).is_infinite())
                    .ok_or_else(|| t_node.wrong("a number"))?;
                (v, true)
            }
            _ => (t_node.f32_safe()?, false),
        };
        let vector = |name: &str| obj.get_some(name).map(|n| n.numbers()).transpose();
        Ok(Keyframe {
            t,
            t_text,
            s: vector("s")?,
            e: vector("e")?,
            o: obj.get_some("o").map(|n| Handle::decode(&n)).transpose()?,
            i: obj.get_some("i").map(|n| Handle::decode(&n)).transpose()?,
            hold: match obj.get_some("h") {
                Some(n) if n.kind() == JsonKind::Number => n.f64()? == 1.0,
                _ => false,
            },
            to: vector("to")?,
            ti: vector("ti")?,
            obj,
        })
    }
}

impl Handle {
    /// Decodes `{x, y}`, each a number or an array of numbers.
    pub(crate) fn decode(node: &Node<'_>) -> Result<Handle, Located> {
        let obj = node.object()?;
        let x = obj.require_as("x", "handle coordinate")?;
        let y = obj.require_as("y", "handle coordinate")?;
        Ok(Handle {
            per_dimension: x.kind() == JsonKind::Array,
            x: x.numbers()?,
            y: y.numbers()?,
        })
    }
}

/// Whether `bytes` look like a Lottie file: a top-level object with the composition keys `fr`,
/// `ip` and `op`, or with `layers` and any one of them or `v`. Decided from the keys as they come,
/// so a truncated Lottie file is still recognised (and then reported by the Lottie reader).
/// three.js files (clips, arrays of clips, ObjectLoader scenes, legacy models) have none of these.
pub(crate) fn detect(bytes: &[u8]) -> bool {
    use std::cell::Cell;
    use std::fmt;

    use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, Visitor};

    struct Seed<'c>(&'c Cell<bool>);
    impl<'de> DeserializeSeed<'de> for Seed<'_> {
        type Value = ();
        fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
            d.deserialize_any(self)
        }
    }
    impl<'de> Visitor<'de> for Seed<'_> {
        type Value = ();
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("a JSON object")
        }
        fn visit_seq<A: de::SeqAccess<'de>>(self, _: A) -> Result<(), A::Error> {
            Ok(())
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
            let (mut fr, mut ip, mut op, mut v, mut layers) = (false, false, false, false, false);
            while let Some(key) = map.next_key::<Key<'de>>()? {
                match &*key.0 {
                    "fr" => fr = true,
                    "ip" => ip = true,
                    "op" => op = true,
                    "v" => v = true,
                    "layers" => layers = true,
                    _ => {}
                }
                if (fr && ip && op) || (layers && (fr || ip || op || v)) {
                    self.0.set(true);
                    return Err(de::Error::custom("decided"));
                }
                map.next_value::<IgnoredAny>()?;
            }
            Ok(())
        }
    }
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let verdict = Cell::new(false);
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let _ = Seed(&verdict).deserialize(&mut de);
    verdict.get()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detects_lottie_but_not_threejs() {
        assert!(detect(
            br#"{"v":"5.7.4","fr":30,"ip":0,"op":60,"layers":[]}"#
        ));
        assert!(detect(br#"{"fr":30,"ip":0,"op":60}"#));
        assert!(detect(
            br#"{"v":"5.7.4","fr":30,"ip":0,"op":60,"layers":[{"ks":"#
        ));
        assert!(detect(b"\xEF\xBB\xBF{\"layers\":[],\"v\":\"4.0\"}"));
        assert!(!detect(br#"{"name":"c","duration":1,"tracks":[]}"#));
        assert!(!detect(br#"[{"name":"c","tracks":[]}]"#));
        assert!(!detect(
            br#"{"metadata":{"formatVersion":3},"bones":[],"layers":1}"#
        ));
        assert!(!detect(br#"{"object":{"layers":1},"animations":[]}"#));
        assert!(!detect(b""));
    }

    #[test]
    fn spans_point_into_the_file() {
        let text = br#"{ "fr" : 30 , "layers": [ {"nm":"a"} ] }"#;
        let top = parse_top(text).unwrap().unwrap();
        let fr = top.get("fr").unwrap();
        assert_eq!(&text[fr.span(text)], b"30");
        let layers = top.get("layers").unwrap().array("layers").unwrap();
        assert_eq!(&text[layers[0].span(text)], br#"{"nm":"a"}"#);
        assert_eq!(layers[0].path, "layers[0]");
    }

    #[test]
    fn keyframe_errors_name_the_path() {
        let text = br#"{"k":[{"t":0,"s":[1,2]},{"t":5,"s":"x"}]}"#;
        let top = parse_top(text).unwrap().unwrap();
        let e = Property::decode(top).unwrap_err();
        assert_eq!(e.path, "k[1].s");
        assert_eq!(e.reason, "expected an array of numbers, found a string");
        let text = br#"{"k":[{"t":0,"s":[1],"o":{"x":[0.1,"a"],"y":0}}]}"#;
        let e = Property::decode(parse_top(text).unwrap().unwrap()).unwrap_err();
        assert_eq!(e.path, "k[0].o.x[1]");
    }
}
