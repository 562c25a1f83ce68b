//! A Lottie composition as the viewport shows it (front-on, in a flat view, by default): the
//! composition as an upright card standing on the ground, and each layer in front of it in
//! stacking order, moved, turned, scaled, skewed and faded by the layer's own transform (with
//! its parents): a layer whose size the file gives (a solid's `sw`/`sh`, a precomp layer's
//! `w`/`h`, a shape layer's static rectangles, ellipses and paths) as a rectangle of that size
//! (a solid in its own colour), any other as a small tile at its anchor point.
//!
//! With the document's [`Artwork`] ([`LayerFigure::with_artwork`]) the viewport shows the
//! composition's art instead ([`LayerFigure::picture`]: shapes, solids, precompositions, masks
//! and mattes, the layers moved by the clip's own tracks, so edits show at once) over the card,
//! and the tiles only in the 3D view. The 2D maths is the format's own ([`clipscope_core::formats::lottie::world_matrix`]),
//! so what plays is what lottie-web computes.

use std::sync::Arc;

use clipscope_core::formats::lottie::LayerTable;
use clipscope_core::model::Clip;
use clipscope_core::model::picture::{Artwork, Picture};
use glam::{Mat4, Vec3, Vec4};

use super::{BoxInstance, palette_colour, parse_hex_colour};

/// World units across the composition's larger side.
const COMPOSITION_SPAN: f64 = 2.0;
/// A layer tile's side, as a share of the composition's larger side.
const TILE_SHARE: f64 = 0.08;
/// The composition card's colour (linear), a warm off-white.
const CARD: [f32; 3] = [0.83, 0.8, 0.74];

/// A composition's layers, played from a clip read from Lottie.
#[derive(Debug, Clone)]
pub struct LayerFigure {
    clip: Arc<Clip>,
    /// The layers, with maps from names to layers and tracks (built once, used every frame).
    table: LayerTable,
    /// Composition width and height in px.
    size: [f64; 2],
    /// Composition frame at clip time 0, and frames per second.
    ip: f64,
    fr: f64,
    /// What draws the composition's art, when the document has it.
    artwork: Option<Arc<dyn Artwork>>,
}

impl LayerFigure {
    /// The figure for `clip`, if it was read from Lottie (it has [`Clip::layers`]).
    pub fn for_clip(clip: Arc<Clip>) -> Option<LayerFigure> {
        let layers = clip.layers.clone()?;
        let table = LayerTable::new(&clip);
        if table.layers.is_empty() {
            return None;
        }
        let fr = Some(layers.fps).filter(|f| *f > 0.0).unwrap_or(30.0);
        let ip = layers.start_frame();
        let size = match layers.size() {
            Some([w, h]) if w > 0.0 && h > 0.0 => [w, h],
            // A precomp records no size: the span of its layers' positions at the start.
            _ => span_of_layers(&clip, &table),
        };
        Some(LayerFigure {
            clip,
            table,
            size,
            ip,
            fr,
            artwork: None,
        })
    }

    /// The figure drawing its composition's art with `artwork` (the document's).
    pub fn with_artwork(mut self, artwork: Option<Arc<dyn Artwork>>) -> LayerFigure {
        self.artwork = artwork;
        self
    }

    /// Whether the figure draws its composition's art.
    pub fn has_art(&self) -> bool {
        self.artwork.is_some()
    }

    /// The composition's art at clip time `time` (its pixels, y down), when the figure has
    /// artwork; the layers move by the figure's clip.
    pub fn picture(&self, time: f64) -> Option<Picture> {
        self.artwork.as_ref()?.picture(&self.clip, time)
    }

    /// The composition's size in px.
    pub fn size(&self) -> [f64; 2] {
        self.size
    }

    /// The world corners of the composition card's front face: its top-left and bottom-right
    /// (composition pixels `(0, 0)` and `(w, h)`), where the viewport lays the art.
    pub fn card_corners(&self) -> [Vec3; 2] {
        let [w, h] = self.size;
        let k = COMPOSITION_SPAN / w.max(h);
        let to_world =
            |x: f64, y: f64| Vec3::new((k * (x - w / 2.0)) as f32, (k * (h - y)) as f32, 0.0);
        [to_world(0.0, 0.0), to_world(w, h)]
    }

    /// The card and one tile per layer shown at clip time `time`, appended to `out` (the card
    /// first: a front-on view with the art keeps just the card and lays
    /// [`LayerFigure::picture`] over it).
    pub fn instances(&self, time: f64, out: &mut Vec<BoxInstance>) {
        let [w, h] = self.size;
        let k = COMPOSITION_SPAN / w.max(h);
        let to_world =
            |x: f64, y: f64| Vec3::new((k * (x - w / 2.0)) as f32, (k * (h - y)) as f32, 0.0);
        let n = self.table.layers.len();
        let depth = (k * w.max(h) * 0.012) as f32;
        // The composition card, just behind the layers.
        let centre = to_world(w / 2.0, h / 2.0);
        out.push(BoxInstance {
            transform: Mat4::from_scale_rotation_translation(
                Vec3::new((k * w) as f32, (k * h) as f32, depth),
                glam::Quat::IDENTITY,
                centre - Vec3::Z * depth,
            ),
            colour: CARD,
            taper: 0.0,
        });
        let frame = self.ip + time * self.fr;
        let tile = TILE_SHARE * w.max(h);
        for (i, layer) in self.table.layers.iter().enumerate() {
            let visible =
                layer.ip.is_none_or(|ip| frame >= ip) && layer.op.is_none_or(|op| frame < op);
            if !visible {
                continue;
            }
            let m = self.table.world(&self.clip, i, time);
            let z = depth * 0.5 + depth * 1.5 * (n - i) as f32;
            // A layer of known size is its content rectangle (0,0)–(w,h) in layer space; any
            // other layer a small tile at its anchor point.
            let extent = layer
                .size
                .map(|[lw, lh]| [0.0, 0.0, lw, lh])
                .or_else(|| layer.bounds());
            let (origin, sx, sy) = match extent {
                Some([x0, y0, x1, y1]) => {
                    let (cx, cy) = ((x0 + x1) / 2.0, (y0 + y1) / 2.0);
                    let at = [m[0] * cx + m[2] * cy + m[4], m[1] * cx + m[3] * cy + m[5]];
                    (to_world(at[0], at[1]), x1 - x0, y1 - y0)
                }
                None => {
                    let anchor = self.value(&format!("{}.anchor", layer.name), time, [0.0, 0.0]);
                    let at = [
                        m[0] * anchor[0] + m[2] * anchor[1] + m[4],
                        m[1] * anchor[0] + m[3] * anchor[1] + m[5],
                    ];
                    (to_world(at[0], at[1]), tile, tile)
                }
            };
            let x_axis = Vec4::new((k * sx * m[0]) as f32, (-k * sx * m[1]) as f32, 0.0, 0.0);
            let y_axis = Vec4::new((k * sy * m[2]) as f32, (-k * sy * m[3]) as f32, 0.0, 0.0);
            let transform = Mat4::from_cols(
                x_axis,
                y_axis,
                Vec4::new(0.0, 0.0, depth, 0.0),
                (origin + Vec3::Z * z).extend(1.0),
            );
            let opacity = self.value(&format!("{}.opacity", layer.name), time, [100.0, 0.0])[0];
            let a = (opacity / 100.0).clamp(0.0, 1.0) as f32;
            if a < 0.01 {
                continue;
            }
            let c = layer
                .solid_colour
                .as_deref()
                .and_then(parse_hex_colour)
                .unwrap_or_else(|| palette_colour(i));
            let colour = [0, 1, 2].map(|j| CARD[j] + (c[j] - CARD[j]) * a);
            out.push(BoxInstance {
                transform,
                colour,
                taper: 0.0,
            });
        }
    }

    /// The value of track `name` at `time` (its first two components), or `default`.
    fn value(&self, name: &str, time: f64, default: [f64; 2]) -> [f64; 2] {
        let Some(track) = self.table.track(&self.clip, name) else {
            return default;
        };
        let mut out = vec![0.0; track.value_size()];
        clipscope_core::model::interpolant::Sampler::new(track).evaluate_f64(time, &mut out);
        [
            out.first().copied().unwrap_or(default[0]),
            out.get(1).copied().unwrap_or(default[1]),
        ]
    }
}

/// The extent of the layers' world positions at time 0 (at least 1 px each way), for
/// compositions that record no size.
fn span_of_layers(clip: &Clip, table: &LayerTable) -> [f64; 2] {
    let mut max = [1.0f64, 1.0f64];
    for i in 0..table.layers.len() {
        let m = table.world(clip, i, 0.0);
        max[0] = max[0].max(m[4].abs() * 2.0);
        max[1] = max[1].max(m[5].abs() * 2.0);
    }
    max
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The figure of a shared Lottie sample file, or `None` (skipped) without the sample data.
    fn figure(file: &str) -> Option<LayerFigure> {
        let path = clipscope_test_support::sample_data(&format!("lottie/{file}"))?;
        let doc = clipscope_core::formats::read_file(&path).unwrap();
        Some(LayerFigure::for_clip(Arc::new(doc.clips[0].clone())).expect("a Lottie clip"))
    }

    #[test]
    fn the_card_and_a_tile_per_visible_layer() {
        let Some(f) = figure("transform.json") else {
            return;
        };
        let mut out = Vec::new();
        f.instances(0.0, &mut out);
        assert_eq!(out.len(), 1 + 3);
        // The card stands on the ground, 2 units across its larger side.
        let card = &out[0];
        let scale = card.transform.to_scale_rotation_translation().0;
        assert!((scale.x.max(scale.y) - 2.0).abs() < 1e-5, "{scale}");
        let (min_y, _) = (card.transform.w_axis.y - scale.y / 2.0, ());
        assert!(min_y.abs() < 1e-5);
    }

    #[test]
    fn shape_layers_and_solids_have_their_real_size_and_colour() {
        let Some(f) = figure("transform.json") else {
            return;
        };
        let mut out = Vec::new();
        f.instances(0.0, &mut out);
        // The layers' own shapes: a 32 px ellipse marking the anchor, then two 320 px
        // rectangles (2 world units across the 512 px composition).
        let widths: Vec<f32> = out[1..]
            .iter()
            .map(|b| b.transform.x_axis.truncate().length())
            .collect();
        assert!((widths[0] - 32.0 * 2.0 / 512.0).abs() < 1e-3, "{widths:?}");
        assert!(widths[1..].iter().all(|w| *w > 0.5), "{widths:?}");
        let Some(dalek) = figure("dalek.json") else {
            return;
        };
        let mut out = Vec::new();
        dalek.instances(1.0, &mut out);
        let black = out
            .iter()
            .any(|b| b.colour.iter().all(|c| *c < 0.01) && b.transform.x_axis.length() > 0.2);
        assert!(black, "dalek's black solid at its size");
    }

    #[test]
    fn tiles_move_with_the_clip() {
        let Some(f) = figure("starfish.json") else {
            return;
        };
        let (mut a, mut b) = (Vec::new(), Vec::new());
        f.instances(0.0, &mut a);
        f.instances(0.5, &mut b);
        assert_ne!(a, b);
    }

    #[test]
    fn clips_not_from_lottie_have_no_layer_figure() {
        let clip = Arc::new(Clip::new("c", 1.0, vec![]));
        assert!(LayerFigure::for_clip(clip).is_none());
    }
}
