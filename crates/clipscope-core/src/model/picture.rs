//! A 2D vector picture: what a layered 2D format's artwork looks like at one moment, in the
//! format's own pixels (y down), ready for a vector renderer.
//!
//! A [`Picture`] is a tree of [`Node`]s painted in order (later on top): filled and stroked
//! cubic [`Path`]s with solid or gradient [`Paint`], and [`Group`]s that fade, mask and matte
//! what they hold. Each drawn path carries the affine transform from its own space to the
//! picture, so a stroke's width scales with its shape. An [`Artwork`] is what makes pictures:
//! a reader (Lottie's) gives a [`Document`](crate::formats::Document) one, and the viewport and
//! `clipscope render` ask it for the picture of a clip at a time, with the clip's tracks (edited
//! or not) moving the layers.

use super::Clip;

/// A 2D affine matrix `(a, b, c, d, e, f)`: `x' = a·x + c·y + e`, `y' = b·x + d·y + f`.
pub type Affine = [f64; 6];

/// The identity [`Affine`].
pub const IDENTITY: Affine = [1.0, 0.0, 0.0, 1.0, 0.0, 0.0];

/// `p · q` (apply `q` first).
pub fn multiply(p: &Affine, q: &Affine) -> Affine {
    [
        p[0] * q[0] + p[2] * q[1],
        p[1] * q[0] + p[3] * q[1],
        p[0] * q[2] + p[2] * q[3],
        p[1] * q[2] + p[3] * q[3],
        p[0] * q[4] + p[2] * q[5] + p[4],
        p[1] * q[4] + p[3] * q[5] + p[5],
    ]
}

/// `m` applied to the point `(x, y)`.
pub fn apply(m: &Affine, x: f64, y: f64) -> [f64; 2] {
    [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]]
}

/// The picture of a composition at one moment.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Picture {
    /// Width in the format's pixels.
    pub width: f64,
    /// Height in the format's pixels.
    pub height: f64,
    /// What is painted, bottom first.
    pub nodes: Vec<Node>,
}

/// One painted thing.
#[derive(Debug, Clone, PartialEq)]
pub enum Node {
    /// A filled path.
    Fill(Fill),
    /// A stroked path.
    Stroke(Stroke),
    /// An image.
    Image(ImageNode),
    /// A group painted as one layer.
    Group(Group),
}

/// A cubic path: subpaths of move, line and cubic segments.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Path {
    /// The segments in order.
    pub segments: Vec<Segment>,
}

impl Path {
    /// The closed rectangle `(0, 0)`–`(w, h)`: a solid's or an image's box.
    pub fn rect(w: f64, h: f64) -> Path {
        Path {
            segments: vec![
                Segment::Move([0.0, 0.0]),
                Segment::Line([w, 0.0]),
                Segment::Line([w, h]),
                Segment::Line([0.0, h]),
                Segment::Close,
            ],
        }
    }
}

/// One path segment.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Segment {
    /// Start a subpath.
    Move([f64; 2]),
    /// A straight line.
    Line([f64; 2]),
    /// A cubic Bézier: two control points and the end.
    Cubic([f64; 2], [f64; 2], [f64; 2]),
    /// Close the subpath.
    Close,
}

impl Path {
    /// True when the path has no segments.
    pub fn is_empty(&self) -> bool {
        self.segments.is_empty()
    }

    /// The path with `m` applied to every point.
    pub fn transformed(&self, m: &Affine) -> Path {
        let t = |p: [f64; 2]| apply(m, p[0], p[1]);
        Path {
            segments: self
                .segments
                .iter()
                .map(|s| match *s {
                    Segment::Move(p) => Segment::Move(t(p)),
                    Segment::Line(p) => Segment::Line(t(p)),
                    Segment::Cubic(a, b, p) => Segment::Cubic(t(a), t(b), t(p)),
                    Segment::Close => Segment::Close,
                })
                .collect(),
        }
    }
}

/// How a fill decides what is inside.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum FillRule {
    /// Non-zero winding.
    #[default]
    NonZero,
    /// Even-odd.
    EvenOdd,
}

/// A colour stop of a gradient: offset in 0..=1 and straight RGBA in 0..=1.
pub type Stop = (f64, [f64; 4]);

/// What a path is painted with.
#[derive(Debug, Clone, PartialEq)]
pub enum Paint {
    /// One straight RGBA colour (0..=1).
    Solid([f64; 4]),
    /// A linear gradient from `start` to `end` (in the path's space).
    Linear {
        /// Where offset 0 is.
        start: [f64; 2],
        /// Where offset 1 is.
        end: [f64; 2],
        /// The stops, by offset.
        stops: Vec<Stop>,
    },
    /// A radial gradient around `centre` out to `radius`, its offset 0 at `focus`.
    Radial {
        /// The centre of the outer circle.
        centre: [f64; 2],
        /// The outer circle's radius.
        radius: f64,
        /// Where offset 0 is (the highlight).
        focus: [f64; 2],
        /// The stops, by offset.
        stops: Vec<Stop>,
    },
}

/// A filled path.
#[derive(Debug, Clone, PartialEq)]
pub struct Fill {
    /// The outline.
    pub path: Path,
    /// From the path's space to the picture's.
    pub transform: Affine,
    /// The paint.
    pub paint: Paint,
    /// Extra opacity (0..=1) over the paint's.
    pub opacity: f64,
    /// Inside test.
    pub rule: FillRule,
}

/// How a stroke ends an open subpath.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Cap {
    /// Flat at the end point.
    #[default]
    Butt,
    /// A half disc.
    Round,
    /// A half square.
    Square,
}

/// How a stroke turns a corner.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Join {
    /// Pointed, up to the miter limit.
    #[default]
    Miter,
    /// Rounded.
    Round,
    /// Cut off.
    Bevel,
}

/// A stroked path.
#[derive(Debug, Clone, PartialEq)]
pub struct Stroke {
    /// The centre line.
    pub path: Path,
    /// From the path's space to the picture's (it scales the width too).
    pub transform: Affine,
    /// The paint.
    pub paint: Paint,
    /// Extra opacity (0..=1) over the paint's.
    pub opacity: f64,
    /// Width in the path's space.
    pub width: f64,
    /// Line ends.
    pub cap: Cap,
    /// Corners.
    pub join: Join,
    /// Miter limit (a ratio of the width).
    pub miter_limit: f64,
    /// Dash and gap lengths (empty: solid).
    pub dashes: Vec<f64>,
    /// Where the dash pattern starts.
    pub dash_offset: f64,
}

/// An image drawn at its own size, `(0, 0)` to `(width, height)` in its space.
#[derive(Debug, Clone, PartialEq)]
pub struct ImageNode {
    /// Straight RGBA8 pixels, row by row.
    pub rgba: std::sync::Arc<Vec<u8>>,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// From the image's space to the picture's.
    pub transform: Affine,
    /// Opacity (0..=1).
    pub opacity: f64,
}

/// How one mask path combines with the masks before it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MaskMode {
    /// Adds its area.
    Add,
    /// Takes its area away.
    Subtract,
    /// Keeps only its area.
    Intersect,
}

/// One mask path of a group.
#[derive(Debug, Clone, PartialEq)]
pub struct Mask {
    /// The outline.
    pub path: Path,
    /// From the path's space to the picture's.
    pub transform: Affine,
    /// How it combines.
    pub mode: MaskMode,
    /// Its opacity (0..=1).
    pub opacity: f64,
    /// Whether its outside counts instead of its inside.
    pub inverted: bool,
}

/// How a matte's pixels decide what of a group shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MatteMode {
    /// Where the matte is opaque.
    Alpha,
    /// Where the matte is transparent.
    InvertedAlpha,
    /// Where the matte is bright.
    Luma,
    /// Where the matte is dark.
    InvertedLuma,
}

/// Nodes painted together, then faded, masked and matted as one.
#[derive(Debug, Clone, PartialEq)]
pub struct Group {
    /// Opacity (0..=1).
    pub opacity: f64,
    /// Mask paths, combined in order (none: everything shows).
    pub masks: Vec<Mask>,
    /// A matte and how it applies.
    pub matte: Option<(Box<Group>, MatteMode)>,
    /// What it holds, bottom first.
    pub nodes: Vec<Node>,
}

impl Group {
    /// A plain group of `nodes`.
    pub fn of(nodes: Vec<Node>) -> Group {
        Group {
            opacity: 1.0,
            masks: Vec::new(),
            matte: None,
            nodes,
        }
    }
}

/// Something that draws a document's compositions: given one of the document's clips (with
/// its tracks as they are now, edited or not) and a time in seconds on it, the picture.
pub trait Artwork: std::fmt::Debug + Send + Sync {
    /// The picture of the composition `clip` animates at clip time `time`; `None` when the
    /// clip is not one of the artwork's compositions.
    fn picture(&self, clip: &Clip, time: f64) -> Option<Picture>;

    /// The artwork drawing the compositions nested in the one asked for (precompositions) by
    /// `clips`, the document's clips as they are now (edited or not), rather than by the clips
    /// it was made with; `None` when those are the same (or the artwork nests none).
    fn with_clips(&self, clips: &[Clip]) -> Option<std::sync::Arc<dyn Artwork>> {
        let _ = clips;
        None
    }
}
