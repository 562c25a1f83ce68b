//! One composition's layers: what each draws (shapes, a solid, a precomposition), its masks,
//! its track matte, its time, and how a composition is drawn at a frame (the last layer at
//! the bottom, each layer a group faded by its own opacity — opacity is not inherited through
//! `parent`, as in lottie-web — masked by its masks and matted by the layer above it when it
//! has `tt`).

use super::Art;
use super::draw::Painter;
use super::items::{Item, decode_items};
use super::prop::{PathProp, Prop};
use crate::formats::json::path::field;
use crate::formats::json::{JsonKind, js_number};
use crate::formats::lottie::matrix::LayerTable;
use crate::formats::lottie::schema::{Fields as _, Node as JsonNode};
use crate::model::Clip;
use crate::model::interpolant::Sampler;
use crate::model::picture::{
    self, Affine, Fill, FillRule, Group, Mask, MaskMode, MatteMode, Node, Paint, Path,
};

/// The deepest nesting of precompositions drawn (a file whose precompositions show each
/// other stops there).
const MAX_DEPTH: usize = 16;

/// The most layers drawn for one picture: precompositions that show themselves several times
/// over would otherwise multiply without end.
pub(crate) const MAX_LAYERS: usize = 100_000;

/// What a layer draws.
#[derive(Debug, Clone)]
pub(crate) enum Content {
    /// Shape items.
    Shapes(Vec<Item>),
    /// A solid: colour and size.
    Solid([f64; 3], [f64; 2]),
    /// A precomposition: asset id, its time remap, and the layer's size (`w`, `h`: what
    /// shows of it, when given).
    Precomp(String, Option<Prop>, Option<[f64; 2]>),
    /// An image: the asset id, and the JSON path of the layer's `refId`.
    Image(String, String),
    /// Nothing (null layers, and kinds not drawn).
    Nothing,
}

/// One mask.
#[derive(Debug, Clone)]
pub(crate) struct MaskDef {
    mode: MaskMode,
    path: PathProp,
    opacity: Prop,
    inverted: bool,
}

/// One layer of a composition, ready to draw.
#[derive(Debug, Clone)]
pub(crate) struct LayerArt {
    pub(super) content: Content,
    masks: Vec<MaskDef>,
    /// `tt`: matted by the layer above, or by the layer `tp` names.
    matte: Option<MatteMode>,
    /// The index of the layer `tp` names (files from Bodymovin 5.12 on), resolved after reading.
    matte_source: Option<usize>,
    /// `ind` and `tp`, to resolve `matte_source`.
    ind: Option<f64>,
    tp: Option<f64>,
    /// `td`: this layer is the matte of the one below and is not drawn itself.
    is_matte: bool,
    hidden: bool,
    ip: f64,
    op: f64,
    st: f64,
    sr: f64,
}

/// Reads a `layers` array.
pub(crate) fn read_layers(node: &JsonNode<'_>, notes: &mut Vec<(String, String)>) -> Vec<LayerArt> {
    let Ok(list) = node.array("layers") else {
        return Vec::new();
    };
    let mut layers: Vec<LayerArt> = list.iter().map(|n| read_layer(n, notes)).collect();
    let by_ind: std::collections::HashMap<u64, usize> = layers
        .iter()
        .enumerate()
        .filter_map(|(i, l)| Some(((l.ind? + 0.0).to_bits(), i)))
        .collect();
    for l in &mut layers {
        l.matte_source =
            l.tp.and_then(|tp| by_ind.get(&(tp + 0.0).to_bits()).copied());
    }
    layers
}

/// Reads one layer; what it cannot draw goes to `notes`.
fn read_layer(node: &JsonNode<'_>, notes: &mut Vec<(String, String)>) -> LayerArt {
    let mut art = LayerArt {
        content: Content::Nothing,
        masks: Vec::new(),
        matte: None,
        matte_source: None,
        ind: None,
        tp: None,
        is_matte: false,
        hidden: false,
        ip: f64::NEG_INFINITY,
        op: f64::INFINITY,
        st: 0.0,
        sr: 1.0,
    };
    let Ok(obj) = node.object() else {
        return art;
    };
    // Numbers as lottie-web reads them: a number written as text is that number (the reader
    // lists it, `lottie-lenient-layer`).
    let num = |k: &str| match obj.get_some(k) {
        Some(n) if n.kind() == JsonKind::String => n.string().ok().as_deref().and_then(js_number),
        _ => obj.number(k).ok().flatten(),
    };
    let path = &node.path;
    art.hidden = obj.flag("hd");
    // lottie-web's `isInRange` compares the frame with `ip` and `op`: without either the
    // comparison is false and the layer is never drawn (its transform still parents others).
    match (num("ip"), num("op")) {
        (Some(ip), Some(op)) => (art.ip, art.op) = (ip, op),
        _ => (art.ip, art.op) = (f64::INFINITY, f64::NEG_INFINITY),
    }
    art.st = num("st").unwrap_or(0.0);
    art.sr = num("sr").filter(|s| *s != 0.0).unwrap_or(1.0);
    art.is_matte = obj.flag("td");
    art.ind = num("ind");
    art.tp = num("tp");
    art.matte = match num("tt") {
        Some(1.0) => Some(MatteMode::Alpha),
        Some(2.0) => Some(MatteMode::InvertedAlpha),
        Some(3.0) => Some(MatteMode::Luma),
        Some(4.0) => Some(MatteMode::InvertedLuma),
        _ => None,
    };
    if num("bm").is_some_and(|b| b != 0.0) {
        notes.push((
            field(path, "bm"),
            "blend modes other than normal are drawn as normal".into(),
        ));
    }
    if obj.get_some("ef").is_some_and(|e| e.len() > 0) {
        notes.push((field(path, "ef"), "effects are not drawn".into()));
    }
    if obj.get_some("sy").is_some_and(|e| e.len() > 0) {
        notes.push((field(path, "sy"), "layer styles are not drawn".into()));
    }
    art.content = match num("ty") {
        Some(0.0) => {
            let id = obj.get_some("refId").map(|n| {
                n.string()
                    .unwrap_or_else(|_| n.raw.get().trim().to_string())
            });
            let tm = match obj.get_some("tm") {
                Some(tm) => match Prop::decode(&tm, false) {
                    Ok(p) => Some(p),
                    Err(e) => {
                        notes.push((e.path, format!("time remap not read: {}", e.reason)));
                        None
                    }
                },
                None => None,
            };
            let size = match (num("w"), num("h")) {
                (Some(w), Some(h)) if w > 0.0 && h > 0.0 => Some([w, h]),
                _ => None,
            };
            id.map_or(Content::Nothing, |id| Content::Precomp(id, tm, size))
        }
        Some(1.0) => {
            let colour = obj
                .text("sc")
                .and_then(|s| parse_hex(&s))
                .unwrap_or([0.0; 3]);
            Content::Solid(colour, [num("sw").unwrap_or(0.0), num("sh").unwrap_or(0.0)])
        }
        Some(2.0) => {
            let id = obj.get_some("refId").map(|n| {
                n.string()
                    .unwrap_or_else(|_| n.raw.get().trim().to_string())
            });
            Content::Image(id.unwrap_or_default(), field(path, "refId"))
        }
        Some(4.0) => {
            let items = obj
                .get_some("shapes")
                .map(|s| decode_items(&s))
                .unwrap_or_default();
            note_skipped(&items, notes);
            Content::Shapes(items)
        }
        Some(5.0) => {
            notes.push((field(path, "t"), "text layers are not drawn".into()));
            Content::Nothing
        }
        _ => Content::Nothing,
    };
    if let Some(masks) = obj.get_some("masksProperties")
        && let Ok(list) = masks.array("masks")
    {
        for m in list {
            match read_mask(&m) {
                Ok(Some(def)) => art.masks.push(def),
                Ok(None) => {}
                Err((p, why)) => notes.push((p, why)),
            }
        }
    }
    art
}

/// Lists the items of `items` that are not drawn.
fn note_skipped(items: &[Item], notes: &mut Vec<(String, String)>) {
    for item in items {
        match item {
            Item::Skipped(path, why) => notes.push((path.clone(), why.clone())),
            Item::Group(inner, _) => note_skipped(inner, notes),
            _ => {}
        }
    }
}

/// One mask object; `None` for mode `n` (none).
fn read_mask(node: &JsonNode<'_>) -> Result<Option<MaskDef>, (String, String)> {
    let err = |e: crate::formats::lottie::schema::Located| (e.path, e.reason);
    let obj = node.object().map_err(err)?;
    let mode = match obj.text("mode").as_deref() {
        Some("n") => return Ok(None),
        Some("s") => MaskMode::Subtract,
        Some("i") => MaskMode::Intersect,
        Some("a") | None => MaskMode::Add,
        Some(other) => {
            return Err((
                field(&node.path, "mode"),
                format!("mask mode \"{other}\" is not drawn"),
            ));
        }
    };
    let path = PathProp::decode(&obj.require_as("pt", "mask path").map_err(err)?).map_err(err)?;
    Ok(Some(MaskDef {
        mode,
        path,
        opacity: Prop::field_or(&obj, "o", false, &[100.0]).map_err(err)?,
        inverted: obj.flag("inv"),
    }))
}

/// `#rrggbb` as RGB in 0..=1.
fn parse_hex(s: &str) -> Option<[f64; 3]> {
    let h = s.trim().strip_prefix('#')?;
    if h.len() < 6 {
        return None;
    }
    let c = |i: usize| {
        u8::from_str_radix(h.get(i..i + 2)?, 16)
            .ok()
            .map(|v| f64::from(v) / 255.0)
    };
    Some([c(0)?, c(2)?, c(4)?])
}

/// One composition being drawn: which, with which clip moving its layers.
pub(crate) struct CompView<'v> {
    /// Its index in [`Art::comps`].
    pub comp: usize,
    /// The clip whose tracks move its layers.
    pub clip: &'v Clip,
    /// That clip's layer table.
    pub table: &'v LayerTable,
    /// The frame at clip time 0.
    pub start: f64,
    /// Frames per second.
    pub fr: f64,
}

/// A drawing in progress.
pub(crate) struct Drawing<'a> {
    pub art: &'a Art,
    /// How deep in precompositions it is.
    pub depth: usize,
    /// Layers it may still draw ([`MAX_LAYERS`] to start with).
    pub budget: usize,
}

impl Drawing<'_> {
    /// The nodes of composition `view` at `frame`, `to_picture` mapping its space to the
    /// picture.
    pub(crate) fn comp(
        &mut self,
        view: &CompView<'_>,
        frame: f64,
        to_picture: &Affine,
    ) -> Vec<Node> {
        let Some(layers) = self.art.comps.get(view.comp) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for i in (0..layers.len()).rev() {
            let layer = &layers[i];
            if layer.is_matte || !visible(layer, frame) {
                continue;
            }
            let Some(mut group) = self.layer(view, i, frame, to_picture) else {
                continue;
            };
            if let Some(mode) = layer.matte {
                let source = layer
                    .matte_source
                    .or_else(|| i.checked_sub(1))
                    .filter(|&j| visible(&layers[j], frame))
                    .and_then(|j| self.layer(view, j, frame, to_picture))
                    .unwrap_or_else(|| Group::of(Vec::new()));
                group.matte = Some((Box::new(source), mode));
            }
            out.push(Node::Group(group));
        }
        out
    }

    /// Layer `i` of `view` at `frame` as a group, or `None` when it draws nothing.
    fn layer(
        &mut self,
        view: &CompView<'_>,
        i: usize,
        frame: f64,
        to_picture: &Affine,
    ) -> Option<Group> {
        let layer = &self.art.comps[view.comp][i];
        if layer.hidden || self.budget == 0 {
            return None;
        }
        self.budget -= 1;
        let time = (frame - view.start) / view.fr;
        let world = if i < view.table.layers.len() {
            picture::multiply(to_picture, &view.table.world(view.clip, i, time))
        } else {
            *to_picture
        };
        let opacity = view
            .table
            .layers
            .get(i)
            .and_then(|l| view.table.track(view.clip, &format!("{}.opacity", l.name)))
            .map_or(100.0, |t| {
                let mut v = vec![0.0; t.value_size()];
                Sampler::new(t).evaluate_f64(time, &mut v);
                v.first().copied().unwrap_or(100.0)
            });
        let mut nodes = Vec::new();
        match &layer.content {
            Content::Shapes(items) => Painter {
                frame,
                colour_scale: self.art.colour_scale,
            }
            .paint(items, &world, &mut nodes),
            Content::Solid(c, [w, h]) => nodes.push(Node::Fill(Fill {
                path: Path::rect(*w, *h),
                transform: world,
                paint: Paint::Solid([c[0], c[1], c[2], 1.0]),
                opacity: 1.0,
                rule: FillRule::NonZero,
            })),
            Content::Precomp(id, tm, size) => {
                if self.depth < MAX_DEPTH
                    && let Some(&comp) = self.art.by_asset.get(id)
                    && let Some((clip, table)) = self.art.clips.get(comp)
                {
                    let inner = match tm {
                        Some(tm) => tm.scalar(frame) * self.art.fr,
                        None => (frame - layer.st) / layer.sr,
                    };
                    let fr = clip.layers.as_ref().map_or(self.art.fr, |l| l.fps);
                    let view = CompView {
                        comp,
                        clip,
                        table,
                        start: 0.0,
                        fr: if fr > 0.0 { fr } else { self.art.fr },
                    };
                    self.depth += 1;
                    nodes = self.comp(&view, inner, &world);
                    self.depth -= 1;
                    // What shows of a precomposition is the layer's rectangle.
                    if let Some([w, h]) = size
                        && !nodes.is_empty()
                    {
                        let mut clip = Group::of(std::mem::take(&mut nodes));
                        clip.masks.push(Mask {
                            path: Path::rect(*w, *h),
                            transform: world,
                            mode: MaskMode::Add,
                            opacity: 1.0,
                            inverted: false,
                        });
                        nodes.push(Node::Group(clip));
                    }
                }
            }
            Content::Image(id, _) => {
                if let Some(Ok(asset)) = self.art.images.get(id) {
                    nodes = super::image::draw(asset, &world);
                }
            }
            Content::Nothing => {}
        }
        if nodes.is_empty() {
            return None;
        }
        let masks = layer
            .masks
            .iter()
            .map(|m| Mask {
                path: vertices_path(&m.path, frame),
                transform: world,
                mode: m.mode,
                opacity: (m.opacity.scalar(frame) / 100.0).clamp(0.0, 1.0),
                inverted: m.inverted,
            })
            .collect();
        Some(Group {
            opacity: (opacity / 100.0).clamp(0.0, 1.0),
            masks,
            matte: None,
            nodes,
        })
    }
}

/// Whether `layer` shows at `frame` (`ip <= frame < op`).
fn visible(layer: &LayerArt, frame: f64) -> bool {
    layer.ip <= frame && frame < layer.op
}

/// A path property at `frame` as a picture path.
fn vertices_path(p: &PathProp, frame: f64) -> Path {
    let c = super::geometry::Contour {
        vertices: p.at(frame),
        closed: p.closed,
    };
    super::geometry::to_picture(&super::geometry::bez(&c))
}
