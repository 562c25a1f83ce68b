//! The shape items of a shape layer (`shapes`, group `it` lists), typed: groups with their
//! transforms, the geometry (`sh`, `rc`, `el`, `sr`), the styles (`fl`, `st`, `gf`, `gs`) and
//! the modifiers (`tm`, `rd`, `rp`). An item clipscope does not draw (offset paths, twist,
//! pucker…; merge paths, which lottie-web ignores too) or cannot read is kept as [`Item::Skipped`] with its JSON path and
//! why, so the artwork lists it instead of dropping it silently.

use super::prop::{PathProp, Prop};
use crate::formats::json::JsonKind;
use crate::formats::json::path::{field, index};
use crate::formats::lottie::schema::{Fields as _, Located, Node, Numbers as _, Obj};
use crate::model::picture::{Cap, FillRule, Join};

/// One shape item.
#[derive(Debug, Clone)]
pub(crate) enum Item {
    /// A group `gr`: its items (without the transform) and its transform `tr`.
    Group(Vec<Item>, Box<ShapeTransform>),
    /// Geometry.
    Shape(Geometry),
    /// A solid fill `fl` or gradient fill `gf`.
    Fill(FillStyle),
    /// A stroke `st` or gradient stroke `gs`.
    Stroke(Box<StrokeStyle>),
    /// Trim paths `tm`.
    Trim(Trim),
    /// Rounded corners `rd`: the radius.
    Round(Prop),
    /// A repeater `rp`.
    Repeater(Box<Repeater>),
    /// Something not drawn: its JSON path and why.
    Skipped(String, String),
}

/// A group's or a layer's 2D transform (`a`, `p`, `s`, `r`, `o`, `sk`, `sa`).
#[derive(Debug, Clone)]
pub(crate) struct ShapeTransform {
    pub anchor: Prop,
    pub position: Prop,
    pub scale: Prop,
    pub rotation: Prop,
    pub opacity: Prop,
    pub skew: Prop,
    pub skew_axis: Prop,
}

/// Path geometry.
#[derive(Debug, Clone)]
pub(crate) enum Geometry {
    /// `sh`.
    Path(PathProp),
    /// `rc`: position, size, roundness; reversed (`d` other than 1 or 2, as lottie-web).
    Rect(Prop, Prop, Prop, bool),
    /// `el`: position, size; reversed.
    Ellipse(Prop, Prop, bool),
    /// `sr`.
    Star(Box<Star>),
}

/// A polystar `sr`.
#[derive(Debug, Clone)]
pub(crate) struct Star {
    pub polygon: bool,
    pub position: Prop,
    pub points: Prop,
    pub rotation: Prop,
    pub outer_radius: Prop,
    pub outer_roundness: Prop,
    pub inner_radius: Prop,
    pub inner_roundness: Prop,
    pub reversed: bool,
}

/// A gradient `g` with its geometry.
#[derive(Debug, Clone)]
pub(crate) struct Gradient {
    /// 1 linear, 2 radial.
    pub radial: bool,
    pub start: Prop,
    pub end: Prop,
    pub highlight_length: Prop,
    pub highlight_angle: Prop,
    /// Number of colour stops.
    pub count: usize,
    /// `[offset, r, g, b]…` then `[offset, alpha]…`.
    pub stops: Prop,
}

/// Solid colour or gradient.
#[derive(Debug, Clone)]
pub(crate) enum Colour {
    /// `c`.
    Solid(Prop),
    /// `gf`/`gs`.
    Gradient(Box<Gradient>),
}

/// A fill.
#[derive(Debug, Clone)]
pub(crate) struct FillStyle {
    pub colour: Colour,
    pub opacity: Prop,
    pub rule: FillRule,
}

/// A stroke.
#[derive(Debug, Clone)]
pub(crate) struct StrokeStyle {
    pub colour: Colour,
    pub opacity: Prop,
    pub width: Prop,
    pub cap: Cap,
    pub join: Join,
    pub miter: f64,
    /// Dash entries: `d`/`g` lengths, and the offset `o`.
    pub dashes: Vec<Prop>,
    pub dash_offset: Option<Prop>,
}

/// Trim paths.
#[derive(Debug, Clone)]
pub(crate) struct Trim {
    pub start: Prop,
    pub end: Prop,
    pub offset: Prop,
    /// `m` 2: each shape trimmed on its own.
    pub individually: bool,
}

/// A repeater.
#[derive(Debug, Clone)]
pub(crate) struct Repeater {
    pub copies: Prop,
    pub offset: Prop,
    /// `m` 2: above (later copies on top).
    pub above: bool,
    pub transform: ShapeTransform,
    pub start_opacity: Prop,
    pub end_opacity: Prop,
}

/// Decodes a `shapes` or `it` array; items that cannot be read become [`Item::Skipped`].
pub(crate) fn decode_items(node: &Node<'_>) -> Vec<Item> {
    let Ok(list) = node.array("an array of shape items") else {
        return vec![Item::Skipped(
            node.path.clone(),
            "not an array of shape items".into(),
        )];
    };
    list.iter()
        .filter_map(|n| match decode_item(n) {
            Ok(item) => item,
            Err(e) => Some(Item::Skipped(e.path, e.reason)),
        })
        .collect()
}

/// One item; `None` for hidden items (`hd`) and group transforms handled by the group.
fn decode_item(node: &Node<'_>) -> Result<Option<Item>, Located> {
    let obj = node.object()?;
    if obj.flag("hd") {
        return Ok(None);
    }
    let ty = obj.text("ty").unwrap_or_default();
    // Shapes' direction (`d` 3: reversed); a stroke's `d` is its dash list.
    let direction = obj.get_some("d").and_then(|d| d.f64().ok());
    let reversed = direction == Some(3.0);
    let item = match ty.as_str() {
        "gr" => {
            let items = obj.get_some("it");
            let mut transform = None;
            let mut inner = Vec::new();
            if let Some(items) = items {
                for n in items.array("an array of shape items")? {
                    let o = n.object()?;
                    if o.text("ty").as_deref() == Some("tr") {
                        transform = Some(ShapeTransform::decode(&o)?);
                    } else {
                        match decode_item(&n) {
                            Ok(Some(i)) => inner.push(i),
                            Ok(None) => {}
                            Err(e) => inner.push(Item::Skipped(e.path, e.reason)),
                        }
                    }
                }
            }
            let transform = match transform {
                Some(t) => t,
                None => ShapeTransform::identity(),
            };
            Item::Group(inner, Box::new(transform))
        }
        "sh" => {
            let mut path = PathProp::decode(&obj.require_as("ks", "path")?)?;
            // Files before Bodymovin 4.4.18 say whether a path closes on the item.
            if let Some(c) = obj.get_some("closed") {
                path.closed = matches!(c.raw.get().trim(), "true" | "1");
            }
            Item::Shape(Geometry::Path(path))
        }
        "rc" => Item::Shape(Geometry::Rect(
            Prop::field_or(&obj, "p", true, &[0.0, 0.0])?,
            Prop::field_or(&obj, "s", true, &[0.0, 0.0])?,
            Prop::field_or(&obj, "r", false, &[0.0])?,
            // lottie-web's `convertRectToPath` runs clockwise for `d` 1 or 2 only: a rectangle
            // without `d` runs the other way (where its dashes and trims start and go).
            !matches!(direction, Some(d) if d == 1.0 || d == 2.0),
        )),
        "el" => Item::Shape(Geometry::Ellipse(
            Prop::field_or(&obj, "p", true, &[0.0, 0.0])?,
            Prop::field_or(&obj, "s", true, &[0.0, 0.0])?,
            reversed,
        )),
        "sr" => Item::Shape(Geometry::Star(Box::new(Star {
            // lottie-web draws a star for `sy` 1 and a polygon otherwise.
            polygon: obj.number("sy")? != Some(1.0),
            position: Prop::field_or(&obj, "p", true, &[0.0, 0.0])?,
            points: Prop::field_or(&obj, "pt", false, &[5.0])?,
            rotation: Prop::field_or(&obj, "r", false, &[0.0])?,
            outer_radius: Prop::field_or(&obj, "or", false, &[0.0])?,
            outer_roundness: Prop::field_or(&obj, "os", false, &[0.0])?,
            inner_radius: Prop::field_or(&obj, "ir", false, &[0.0])?,
            inner_roundness: Prop::field_or(&obj, "is", false, &[0.0])?,
            reversed,
        }))),
        "fl" | "gf" => Item::Fill(FillStyle {
            colour: colour(&obj, ty == "gf")?,
            opacity: Prop::field_or(&obj, "o", false, &[100.0])?,
            rule: if obj.number("r")? == Some(2.0) {
                FillRule::EvenOdd
            } else {
                FillRule::NonZero
            },
        }),
        "st" | "gs" => Item::Stroke(Box::new(stroke(&obj, ty == "gs")?)),
        "tm" => Item::Trim(Trim {
            start: Prop::field_or(&obj, "s", false, &[0.0])?,
            end: Prop::field_or(&obj, "e", false, &[100.0])?,
            offset: Prop::field_or(&obj, "o", false, &[0.0])?,
            individually: obj.number("m")? == Some(2.0),
        }),
        "rd" => Item::Round(Prop::field_or(&obj, "r", false, &[0.0])?),
        "rp" => {
            let tr = obj.require_as("tr", "repeater transform")?.object()?;
            Item::Repeater(Box::new(Repeater {
                copies: Prop::field_or(&obj, "c", false, &[1.0])?,
                offset: Prop::field_or(&obj, "o", false, &[0.0])?,
                above: obj.number("m")? == Some(2.0),
                transform: ShapeTransform::decode(&tr)?,
                start_opacity: Prop::field_or(&tr, "so", false, &[100.0])?,
                end_opacity: Prop::field_or(&tr, "eo", false, &[100.0])?,
            }))
        }
        "tr" => return Ok(None),
        "mm" => {
            return Ok(Some(Item::Skipped(
                field(&node.path, "ty"),
                merge_paths_note(obj.number("mm").ok().flatten()),
            )));
        }
        other => {
            let what = match other {
                "op" => "offset paths are not drawn",
                "pb" => "pucker/bloat is not drawn",
                "tw" => "twist is not drawn",
                "zz" => "zig zag is not drawn",
                "no" => "no-style item",
                _ => "a shape item of an unknown kind is not drawn",
            };
            return Ok(Some(Item::Skipped(
                field(&node.path, "ty"),
                format!("{what} (\"{other}\")"),
            )));
        }
    };
    Ok(Some(item))
}

/// What is done with merge paths (`mm`) of mode `mode`: what lottie-web, the reference player,
/// does (its renderers skip the item, and so does rlottie), and what After Effects would do.
fn merge_paths_note(mode: Option<f64>) -> String {
    let ae = match mode {
        Some(1.0) | None => "merges them into one path".to_string(),
        Some(2.0) => "adds them into one path (union)".to_string(),
        Some(3.0) => "subtracts the later paths from the first".to_string(),
        Some(4.0) => "keeps only their intersection".to_string(),
        Some(5.0) => "keeps only where they do not overlap".to_string(),
        Some(m) => format!("applies merge mode {m}"),
    };
    let mode = mode.map_or(String::new(), |m| format!(", mode {m}"));
    format!(
        "merge paths (\"mm\"{mode}) are ignored, as lottie-web and rlottie ignore them: the \
         paths before them are filled and stroked as they are; After Effects {ae}"
    )
}

/// A fill's or stroke's colour: `c`, or a gradient (`g`, `s`, `e`, `t`, `h`, `a`).
fn colour(obj: &Obj<'_>, gradient: bool) -> Result<Colour, Located> {
    if !gradient {
        return Ok(Colour::Solid(Prop::field_or(
            obj,
            "c",
            false,
            &[0.0, 0.0, 0.0, 1.0],
        )?));
    }
    let g = obj.require_as("g", "gradient")?.object()?;
    let count = g.number("p")?.unwrap_or(0.0).max(0.0) as usize;
    Ok(Colour::Gradient(Box::new(Gradient {
        radial: obj.number("t")? == Some(2.0),
        start: Prop::field_or(obj, "s", true, &[0.0, 0.0])?,
        end: Prop::field_or(obj, "e", true, &[0.0, 0.0])?,
        highlight_length: Prop::field_or(obj, "h", false, &[0.0])?,
        highlight_angle: Prop::field_or(obj, "a", false, &[0.0])?,
        count,
        stops: Prop::decode(&g.require_as("k", "gradient stops")?, false)?,
    })))
}

/// A stroke `st` / `gs`.
fn stroke(obj: &Obj<'_>, gradient: bool) -> Result<StrokeStyle, Located> {
    let cap = match obj.number("lc")? {
        Some(2.0) => Cap::Round,
        Some(3.0) => Cap::Square,
        _ => Cap::Butt,
    };
    let join = match obj.number("lj")? {
        Some(2.0) => Join::Round,
        Some(3.0) => Join::Bevel,
        _ => Join::Miter,
    };
    let miter = match obj.get_some("ml") {
        Some(n) if n.kind() == JsonKind::Number => n.f64()?,
        _ => match obj.get_some("ml2") {
            Some(n) => Prop::decode(&n, false)?.scalar(0.0),
            None => 4.0,
        },
    };
    let mut dashes = Vec::new();
    let mut dash_offset = None;
    if let Some(d) = obj.get_some("d") {
        for (i, entry) in d.array("an array of dashes")?.iter().enumerate() {
            let e = entry.object()?;
            let value = match e.get_some("v") {
                Some(v) => Prop::decode(&v, false)?,
                None => {
                    return Err(Located::new(
                        field(&index(&d.path, i), "v"),
                        "a dash without a length",
                    ));
                }
            };
            match e.text("n").as_deref() {
                Some("o") => dash_offset = Some(value),
                _ => dashes.push(value),
            }
        }
    }
    Ok(StrokeStyle {
        colour: colour(obj, gradient)?,
        opacity: Prop::field_or(obj, "o", false, &[100.0])?,
        width: Prop::field_or(obj, "w", false, &[1.0])?,
        cap,
        join,
        miter,
        dashes,
        dash_offset,
    })
}

impl ShapeTransform {
    /// No transform.
    pub(crate) fn identity() -> ShapeTransform {
        ShapeTransform {
            anchor: Prop::fixed(vec![0.0, 0.0]),
            position: Prop::fixed(vec![0.0, 0.0]),
            scale: Prop::fixed(vec![100.0, 100.0]),
            rotation: Prop::fixed(vec![0.0]),
            opacity: Prop::fixed(vec![100.0]),
            skew: Prop::fixed(vec![0.0]),
            skew_axis: Prop::fixed(vec![0.0]),
        }
    }

    /// Decodes a transform object (`tr` item or layer `ks`); absent properties take the
    /// identity.
    pub(crate) fn decode(obj: &Obj<'_>) -> Result<ShapeTransform, Located> {
        Ok(ShapeTransform {
            anchor: Prop::field_or(obj, "a", true, &[0.0, 0.0])?,
            position: match obj.get_some("p") {
                Some(p) if p.object()?.get_some("x").is_some() => split_position(&p)?,
                Some(p) => Prop::decode(&p, true)?,
                None => Prop::fixed(vec![0.0, 0.0]),
            },
            scale: Prop::field_or(obj, "s", true, &[100.0, 100.0])?,
            rotation: Prop::field_or(obj, "r", false, &[0.0])?,
            opacity: Prop::field_or(obj, "o", false, &[100.0])?,
            skew: Prop::field_or(obj, "sk", false, &[0.0])?,
            skew_axis: Prop::field_or(obj, "sa", false, &[0.0])?,
        })
    }

    /// The matrix at `frame` (lottie-web's transform order) and the opacity (0..=1).
    pub(crate) fn at(&self, frame: f64) -> ([f64; 6], f64) {
        use crate::formats::lottie::matrix::{Transform2D, local_matrix};
        let t = Transform2D {
            anchor: self.anchor.pair(frame),
            position: self.position.pair(frame),
            scale: self.scale.pair(frame),
            rotation: self.rotation.scalar(frame),
            skew: self.skew.scalar(frame),
            skew_axis: self.skew_axis.scalar(frame),
        };
        (
            local_matrix(&t),
            (self.opacity.scalar(frame) / 100.0).clamp(0.0, 1.0),
        )
    }
}

/// A split position `{s: true, x, y}` read as its x only when y is missing, else as the first
/// keys of each (shape groups rarely split; the layer's own split position comes from tracks).
fn split_position(node: &Node<'_>) -> Result<Prop, Located> {
    let obj = node.object()?;
    let x = Prop::field_or(&obj, "x", false, &[0.0])?;
    let y = Prop::field_or(&obj, "y", false, &[0.0])?;
    Ok(Prop::fixed(vec![x.scalar(0.0), y.scalar(0.0)]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::lottie::schema::parse_top;

    /// The shape items of `{"shapes": [shapes]}`.
    fn items(shapes: &str) -> Vec<Item> {
        let text = format!(r#"{{"shapes": [{shapes}]}}"#);
        let top = parse_top(text.as_bytes()).unwrap().unwrap();
        decode_items(&top.get_some("shapes").unwrap())
    }

    #[test]
    fn directions_and_polystar_kinds_are_read_as_lottie_web_reads_them() {
        let rect = |d: &str| {
            let i = items(&format!(
                r#"{{"ty": "rc"{d}, "p": {{"k": [0, 0]}}, "s": {{"k": [4, 2]}}, "r": {{"k": 0}}}}"#
            ));
            match &i[..] {
                [Item::Shape(Geometry::Rect(_, _, _, reversed))] => *reversed,
                other => panic!("{other:?}"),
            }
        };
        // `convertRectToPath`: clockwise for `d` 1 or 2 only.
        assert_eq!(
            [
                rect(""),
                rect(r#", "d": 1"#),
                rect(r#", "d": 2"#),
                rect(r#", "d": 3"#)
            ],
            [true, false, false, true]
        );
        let polygon = |sy: &str| {
            let i = items(&format!(
                r#"{{"ty": "sr"{sy}, "pt": {{"k": 5}}, "or": {{"k": 10}}}}"#
            ));
            match &i[..] {
                [Item::Shape(Geometry::Star(s))] => s.polygon,
                other => panic!("{other:?}"),
            }
        };
        // `StarShapeProperty`: a star for `sy` 1, a polygon otherwise.
        assert_eq!(
            [
                polygon(r#", "sy": 1"#),
                polygon(r#", "sy": 2"#),
                polygon("")
            ],
            [false, true, true]
        );
    }
}
