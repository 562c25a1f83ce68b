//! 2D vector pictures ([`Picture`]: a Lottie composition's artwork at one moment) rasterised
//! on the CPU with linebender's `vello_cpu` (sparse strips, analytic anti-aliasing), into
//! straight-alpha RGBA8 images: `clipscope render --view front` of a Lottie file and the
//! viewport's texture of it. Why vello_cpu rather than tessellating with lyon or vello's GPU
//! compute: docs/ARCHITECTURE.md ("Lottie artwork").
//!
//! Groups are vello layers: their opacity, and one alpha mask that is the product of their
//! mask paths (added, subtracted, intersected, each with its opacity, inverted or not) and
//! their matte (alpha or luma, inverted or not), each rendered at the image's size first.

use std::sync::Arc;

use clipscope_core::model::picture::{
    self, Affine, Cap, FillRule, Group, Join, Mask, MaskMode, MatteMode, Node, Paint, Path,
    Picture, Segment,
};
use vello_cpu::color::{AlphaColor, Srgb};
use vello_cpu::kurbo::{self, BezPath};
use vello_cpu::peniko::{self, Fill as KFill, Gradient};
use vello_cpu::{Pixmap, RenderContext, Resources};

/// The largest side rendered, in pixels (vello_cpu's sizes are `u16`).
pub const MAX_SIDE: u32 = 16_384;

/// `picture` drawn into a `width` × `height` image, `view` mapping the picture's pixels to the
/// image's: straight (not premultiplied) RGBA8, row by row, transparent where nothing is
/// drawn. Sizes are clamped to 1..=[`MAX_SIDE`].
pub fn rasterise(picture: &Picture, width: u32, height: u32, view: &Affine) -> Vec<u8> {
    let mut r = Rasteriser::default();
    r.draw(picture, width, height, view);
    r.target
        .take()
        .map(|t| {
            t.take_unpremultiplied()
                .into_iter()
                .flat_map(|p| [p.r, p.g, p.b, p.a])
                .collect()
        })
        .unwrap_or_default()
}

/// `picture` as premultiplied RGBA8 (what a texture upload wants), like [`rasterise`].
pub fn rasterise_premultiplied(
    picture: &Picture,
    width: u32,
    height: u32,
    view: &Affine,
) -> Vec<u8> {
    Rasteriser::default()
        .premultiplied(picture, width, height, view)
        .to_vec()
}

/// A rasteriser for one picture after another (the viewport's, one per frame while a key is
/// dragged): it keeps vello_cpu's context, the image it renders into and the premultiplied
/// pixels of the pictures' images between calls, so a frame allocates and converts nothing
/// that the last one already had.
#[derive(Default)]
pub struct Rasteriser {
    ctx: Option<RenderContext>,
    target: Option<Pixmap>,
    resources: Option<Resources>,
    images: Images,
}

impl std::fmt::Debug for Rasteriser {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Rasteriser")
            .field(
                "size",
                &self.target.as_ref().map(|t| (t.width(), t.height())),
            )
            .field("images", &self.images.kept.len())
            .finish()
    }
}

impl Rasteriser {
    /// `picture` drawn like [`rasterise_premultiplied`]: premultiplied RGBA8, row by row, held
    /// by the rasteriser until the next call.
    pub fn premultiplied(
        &mut self,
        picture: &Picture,
        width: u32,
        height: u32,
        view: &Affine,
    ) -> &[u8] {
        self.draw(picture, width, height, view);
        self.target
            .as_ref()
            .map_or(&[][..], |t| t.data_as_u8_slice())
    }

    /// Renders `picture` into `self.target`, reusing what it can.
    fn draw(&mut self, picture: &Picture, width: u32, height: u32, view: &Affine) {
        let (w, h) = (side(width), side(height));
        let ctx = match &mut self.ctx {
            Some(ctx) if (ctx.width(), ctx.height()) == (w, h) => {
                ctx.reset();
                ctx
            }
            slot => slot.insert(RenderContext::new(w, h)),
        };
        let target = match &mut self.target {
            Some(t) if (t.width(), t.height()) == (w, h) => t,
            slot => slot.insert(Pixmap::new(w, h)),
        };
        self.images.start();
        draw_nodes(ctx, &picture.nodes, view, w, h, &mut self.images);
        self.images.finish();
        ctx.flush();
        ctx.render(target, self.resources.get_or_insert_with(Resources::new));
    }
}

/// The premultiplied pixmaps of the pictures' images, by their pixels' address and opacity
/// (each entry holds the pixels, so the address is not reused while it is kept); what a frame
/// did not draw goes at its end.
#[derive(Default)]
struct Images {
    kept: std::collections::HashMap<(usize, u64), KeptImage>,
}

/// An image's pixels, their premultiplied pixmap, and whether this frame drew it.
type KeptImage = (Arc<Vec<u8>>, Arc<Pixmap>, bool);

impl Images {
    /// A frame starts: nothing is used yet.
    fn start(&mut self) {
        for e in self.kept.values_mut() {
            e.2 = false;
        }
    }

    /// A frame ends: what it did not use goes.
    fn finish(&mut self) {
        self.kept.retain(|_, e| e.2);
    }

    /// The pixmap of `img`, made once.
    fn pixmap(&mut self, img: &picture::ImageNode) -> Option<Arc<Pixmap>> {
        let key = (Arc::as_ptr(&img.rgba) as usize, img.opacity.to_bits());
        if let Some(e) = self.kept.get_mut(&key) {
            e.2 = true;
            return Some(e.1.clone());
        }
        let pixmap = Arc::new(image_pixmap(&img.rgba, img.width, img.height, img.opacity)?);
        self.kept
            .insert(key, (img.rgba.clone(), pixmap.clone(), true));
        Some(pixmap)
    }
}

/// The view that maps the picture's `width` × `height` onto an image of `w` × `h`, scaled
/// to fit and centred.
pub fn fit_view(picture: &Picture, w: u32, h: u32) -> Affine {
    if picture.width <= 0.0 || picture.height <= 0.0 {
        return picture::IDENTITY;
    }
    let k = (f64::from(w) / picture.width).min(f64::from(h) / picture.height);
    let (dx, dy) = (
        (f64::from(w) - picture.width * k) / 2.0,
        (f64::from(h) - picture.height * k) / 2.0,
    );
    [k, 0.0, 0.0, k, dx, dy]
}

fn side(v: u32) -> u16 {
    v.clamp(1, MAX_SIDE) as u16
}

/// Paints `nodes` in order.
fn draw_nodes(
    ctx: &mut RenderContext,
    nodes: &[Node],
    view: &Affine,
    w: u16,
    h: u16,
    images: &mut Images,
) {
    for node in nodes {
        match node {
            Node::Fill(f) => {
                ctx.set_transform(affine(&picture::multiply(view, &f.transform)));
                ctx.set_fill_rule(match f.rule {
                    FillRule::NonZero => KFill::NonZero,
                    FillRule::EvenOdd => KFill::EvenOdd,
                });
                ctx.set_paint(paint(&f.paint, f.opacity));
                ctx.fill_path(&bez(&f.path));
            }
            Node::Stroke(s) => {
                let mut stroke = kurbo::Stroke::new(s.width)
                    .with_caps(match s.cap {
                        Cap::Butt => kurbo::Cap::Butt,
                        Cap::Round => kurbo::Cap::Round,
                        Cap::Square => kurbo::Cap::Square,
                    })
                    .with_join(match s.join {
                        Join::Miter => kurbo::Join::Miter,
                        Join::Round => kurbo::Join::Round,
                        Join::Bevel => kurbo::Join::Bevel,
                    })
                    .with_miter_limit(s.miter_limit);
                if !s.dashes.is_empty() {
                    stroke = stroke.with_dashes(s.dash_offset, s.dashes.iter().copied());
                }
                ctx.set_transform(affine(&picture::multiply(view, &s.transform)));
                ctx.set_stroke(stroke);
                ctx.set_paint(paint(&s.paint, s.opacity));
                ctx.stroke_path(&bez(&s.path));
            }
            Node::Image(img) => {
                let Some(pixmap) = images.pixmap(img) else {
                    continue;
                };
                ctx.set_transform(affine(&picture::multiply(view, &img.transform)));
                ctx.set_paint(vello_cpu::Image {
                    image: vello_cpu::ImageSource::Pixmap(pixmap),
                    sampler: peniko::ImageSampler::default(),
                });
                ctx.fill_rect(&kurbo::Rect::new(
                    0.0,
                    0.0,
                    f64::from(img.width),
                    f64::from(img.height),
                ));
            }
            Node::Group(g) => draw_group(ctx, g, view, w, h, images),
        }
    }
}

/// A group as a layer with its opacity and mask.
fn draw_group(
    ctx: &mut RenderContext,
    g: &Group,
    view: &Affine,
    w: u16,
    h: u16,
    images: &mut Images,
) {
    if g.opacity <= 0.0 {
        return;
    }
    // A plain group paints like its nodes: no layer needed.
    if g.opacity >= 1.0 && g.masks.is_empty() && g.matte.is_none() {
        draw_nodes(ctx, &g.nodes, view, w, h, images);
        return;
    }
    let mut alpha: Option<Vec<u8>> = None;
    // Opaque added masks are one clip path (vello clips sparsely); the others an alpha mask
    // drawn at full size.
    let clip = clip_path(&g.masks, view);
    if clip.is_none() && !g.masks.is_empty() {
        alpha = Some(mask_alpha(&g.masks, view, w, h));
    }
    if let Some((matte, mode)) = &g.matte {
        let m = matte_alpha(matte, *mode, view, w, h, images);
        alpha = Some(match alpha {
            Some(a) => a.iter().zip(&m).map(|(x, y)| mul(*x, *y)).collect(),
            None => m,
        });
    }
    let mask = alpha.map(|a| vello_cpu::Mask::from_parts(a, w, h));
    let opacity = (g.opacity < 1.0).then_some(g.opacity as f32);
    ctx.set_transform(kurbo::Affine::IDENTITY);
    ctx.push_layer(clip.as_ref(), None, opacity, mask, None);
    draw_nodes(ctx, &g.nodes, view, w, h, images);
    ctx.pop_layer();
}

/// The union of `masks` as one path in the image's space, when every mask adds its area at
/// full opacity (the common case: the layer shows inside its mask paths).
fn clip_path(masks: &[Mask], view: &Affine) -> Option<BezPath> {
    let simple = |m: &Mask| m.mode == MaskMode::Add && !m.inverted && m.opacity >= 0.999;
    if masks.is_empty() || !masks.iter().all(simple) {
        return None;
    }
    let mut out = BezPath::new();
    for m in masks {
        let to = affine(&picture::multiply(view, &m.transform));
        out.extend((to * bez(&m.path)).elements().iter().copied());
    }
    Some(out)
}

/// `a · b / 255`.
fn mul(a: u8, b: u8) -> u8 {
    ((u16::from(a) * u16::from(b) + 127) / 255) as u8
}

/// The combined coverage of `masks` (lottie-web: a first subtract or intersect starts from
/// everything).
fn mask_alpha(masks: &[Mask], view: &Affine, w: u16, h: u16) -> Vec<u8> {
    let n = usize::from(w) * usize::from(h);
    let start = match masks[0].mode {
        MaskMode::Add => 0.0,
        MaskMode::Subtract | MaskMode::Intersect => 1.0,
    };
    let mut acc = vec![start; n];
    for m in masks {
        let cov = coverage(&m.path, &picture::multiply(view, &m.transform), w, h);
        for (a, c) in acc.iter_mut().zip(cov) {
            let mut c = f32::from(c) / 255.0;
            if m.inverted {
                c = 1.0 - c;
            }
            c *= m.opacity as f32;
            *a = match m.mode {
                MaskMode::Add => *a + c - *a * c,
                MaskMode::Subtract => *a * (1.0 - c),
                MaskMode::Intersect => *a * c,
            };
        }
    }
    acc.into_iter()
        .map(|a| (a.clamp(0.0, 1.0) * 255.0).round() as u8)
        .collect()
}

/// The anti-aliased coverage of `path` (transformed by `m`), one byte per pixel.
fn coverage(path: &Path, m: &Affine, w: u16, h: u16) -> Vec<u8> {
    let mut ctx = RenderContext::new(w, h);
    ctx.set_transform(affine(m));
    ctx.set_paint(AlphaColor::<Srgb>::new([1.0, 1.0, 1.0, 1.0]));
    ctx.fill_path(&bez(path));
    let mut target = Pixmap::new(w, h);
    ctx.flush();
    ctx.render(&mut target, &mut Resources::new());
    target.data().iter().map(|p| p.a).collect()
}

/// What of a matted group shows, from its matte drawn at full size.
fn matte_alpha(
    matte: &Group,
    mode: MatteMode,
    view: &Affine,
    w: u16,
    h: u16,
    images: &mut Images,
) -> Vec<u8> {
    let mut ctx = RenderContext::new(w, h);
    draw_group(&mut ctx, matte, view, w, h, images);
    let mut target = Pixmap::new(w, h);
    ctx.flush();
    ctx.render(&mut target, &mut Resources::new());
    target
        .data()
        .iter()
        .map(|p| {
            // Premultiplied luma is luma × alpha.
            let luma = || {
                (0.2126 * f32::from(p.r) + 0.7152 * f32::from(p.g) + 0.0722 * f32::from(p.b))
                    .round()
                    .clamp(0.0, 255.0) as u8
            };
            match mode {
                MatteMode::Alpha => p.a,
                MatteMode::InvertedAlpha => 255 - p.a,
                MatteMode::Luma => luma(),
                MatteMode::InvertedLuma => 255 - luma(),
            }
        })
        .collect()
}

/// A premultiplied pixmap of straight RGBA8 pixels faded by `opacity`.
fn image_pixmap(rgba: &[u8], width: u32, height: u32, opacity: f64) -> Option<Pixmap> {
    let (w, h) = (u16::try_from(width).ok()?, u16::try_from(height).ok()?);
    if rgba.len() != usize::from(w) * usize::from(h) * 4 {
        return None;
    }
    let k = opacity.clamp(0.0, 1.0) as f32;
    let data = rgba
        .chunks_exact(4)
        .map(|p| {
            let a = f32::from(p[3]) / 255.0 * k;
            let c = |v: u8| (f32::from(v) * a).round() as u8;
            vello_cpu::color::PremulRgba8 {
                r: c(p[0]),
                g: c(p[1]),
                b: c(p[2]),
                a: (a * 255.0).round() as u8,
            }
        })
        .collect();
    Some(Pixmap::from_parts(data, w, h))
}

/// A picture paint, faded by `opacity`, as vello's.
fn paint(p: &Paint, opacity: f64) -> vello_cpu::PaintType {
    let colour = |c: &[f64; 4]| {
        AlphaColor::<Srgb>::new([
            c[0] as f32,
            c[1] as f32,
            c[2] as f32,
            (c[3] * opacity).clamp(0.0, 1.0) as f32,
        ])
    };
    let stops = |stops: &[(f64, [f64; 4])]| -> Vec<peniko::ColorStop> {
        stops
            .iter()
            .map(|(o, c)| (*o as f32, colour(c)).into())
            .collect()
    };
    // Colours interpolated apart from their opacity, as lottie-web draws a gradient with
    // opacity stops (a colour gradient under an opacity mask) and After Effects shows it.
    let straight = peniko::InterpolationAlphaSpace::Unpremultiplied;
    match p {
        Paint::Solid(c) => colour(c).into(),
        Paint::Linear {
            start,
            end,
            stops: s,
        } => Gradient::new_linear((start[0], start[1]), (end[0], end[1]))
            .with_stops(stops(s).as_slice())
            .with_interpolation_alpha_space(straight)
            .into(),
        Paint::Radial {
            centre,
            radius,
            focus,
            stops: s,
        } => Gradient::new_two_point_radial(
            (focus[0], focus[1]),
            0.0,
            (centre[0], centre[1]),
            *radius as f32,
        )
        .with_stops(stops(s).as_slice())
        .with_interpolation_alpha_space(straight)
        .into(),
    }
}

/// A picture affine as kurbo's.
fn affine(m: &Affine) -> kurbo::Affine {
    kurbo::Affine::new(*m)
}

/// A picture path as kurbo's.
fn bez(p: &Path) -> BezPath {
    let mut out = BezPath::new();
    for s in &p.segments {
        match *s {
            Segment::Move(a) => out.move_to((a[0], a[1])),
            Segment::Line(a) => out.line_to((a[0], a[1])),
            Segment::Cubic(a, b, c) => out.curve_to((a[0], a[1]), (b[0], b[1]), (c[0], c[1])),
            Segment::Close => out.close_path(),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use clipscope_core::model::picture::Fill;

    fn square(paint: Paint) -> Picture {
        Picture {
            width: 10.0,
            height: 10.0,
            nodes: vec![Node::Fill(Fill {
                path: Path {
                    segments: vec![
                        Segment::Move([2.0, 2.0]),
                        Segment::Line([8.0, 2.0]),
                        Segment::Line([8.0, 8.0]),
                        Segment::Line([2.0, 8.0]),
                        Segment::Close,
                    ],
                },
                transform: picture::IDENTITY,
                paint,
                opacity: 1.0,
                rule: FillRule::NonZero,
            })],
        }
    }

    #[test]
    fn a_square_covers_its_pixels_exactly() {
        let img = rasterise(
            &square(Paint::Solid([1.0, 0.0, 0.0, 1.0])),
            10,
            10,
            &picture::IDENTITY,
        );
        let at = |x: usize, y: usize| &img[(y * 10 + x) * 4..(y * 10 + x) * 4 + 4];
        assert_eq!(at(5, 5), [255, 0, 0, 255]);
        assert_eq!(at(1, 1), [0, 0, 0, 0]);
        assert_eq!(at(2, 2), [255, 0, 0, 255]);
        assert_eq!(at(8, 8)[3], 0);
    }

    #[test]
    fn a_rasteriser_reused_draws_each_picture_as_a_fresh_one() {
        // A 2 × 1 image (red, blue) drawn 3× at (1, 1).
        let image = Node::Image(picture::ImageNode {
            rgba: Arc::new(vec![255, 0, 0, 255, 0, 0, 255, 255]),
            width: 2,
            height: 1,
            transform: [3.0, 0.0, 0.0, 3.0, 1.0, 1.0],
            opacity: 1.0,
        });
        let with_image = Picture {
            width: 10.0,
            height: 10.0,
            nodes: vec![image],
        };
        let pictures = [
            square(Paint::Solid([1.0, 0.0, 0.0, 1.0])),
            with_image.clone(),
            square(Paint::Solid([0.0, 1.0, 0.0, 0.5])),
            with_image,
        ];
        let mut r = Rasteriser::default();
        for (i, p) in pictures.iter().enumerate() {
            let fresh = rasterise_premultiplied(p, 10, 10, &picture::IDENTITY);
            assert_eq!(
                r.premultiplied(p, 10, 10, &picture::IDENTITY),
                fresh.as_slice(),
                "picture {i}"
            );
        }
        // Another size is a new image.
        assert_eq!(
            r.premultiplied(&pictures[0], 4, 3, &picture::IDENTITY)
                .len(),
            48
        );
        let img = rasterise(&pictures[1], 10, 10, &picture::IDENTITY);
        let at = |x: usize, y: usize| &img[(y * 10 + x) * 4..(y * 10 + x) * 4 + 4];
        assert_eq!(at(2, 2), [255, 0, 0, 255], "the image's left pixel");
        assert_eq!(at(5, 2), [0, 0, 255, 255], "its right pixel");
        assert_eq!(at(5, 6)[3], 0, "below it");
    }

    #[test]
    fn masks_and_opacity_apply() {
        let mut p = square(Paint::Solid([0.0, 0.0, 1.0, 1.0]));
        let nodes = std::mem::take(&mut p.nodes);
        let mut g = Group::of(nodes);
        g.opacity = 0.5;
        g.masks.push(Mask {
            path: Path {
                segments: vec![
                    Segment::Move([0.0, 0.0]),
                    Segment::Line([5.0, 0.0]),
                    Segment::Line([5.0, 10.0]),
                    Segment::Line([0.0, 10.0]),
                    Segment::Close,
                ],
            },
            transform: picture::IDENTITY,
            mode: MaskMode::Subtract,
            opacity: 1.0,
            inverted: false,
        });
        p.nodes.push(Node::Group(g));
        let img = rasterise(&p, 10, 10, &picture::IDENTITY);
        let alpha = |x: usize, y: usize| img[(y * 10 + x) * 4 + 3];
        assert_eq!(alpha(3, 5), 0, "subtracted");
        assert!((i32::from(alpha(6, 5)) - 128).abs() <= 1, "{}", alpha(6, 5));
    }
}
