//! What changed between two versions of a file's clips, format-neutral: the semantic diff
//! behind `clipscope diff`, the git diff driver, the review page and the editor's compare view.
//!
//! [`diff_clips`] pairs the clips of the old and the new version ([`matching`]: by name, then
//! renamed clips by content), and for each pair reports the duration, blend mode and markers
//! that changed and every track that did ([`track`]): added, removed or renamed (by content),
//! keys added, removed and moved ([`keys`]), an interpolation change, and the largest change of
//! the curve a player shows, with its time, in the units a person reads ([`Measure`]: degrees
//! for rotations, the file's units for positions). With a skeleton, each joint's change in
//! world space through the hierarchy is measured too ([`joints`]). Unchanged clips and tracks
//! are counted, not listed.
//!
//! Changes no larger than [`DiffOptions::tolerance`] (in the unit they are reported in) and key
//! times no further apart than [`DiffOptions::time_tolerance`] are float noise, not changes; so
//! are rotations by less than [`measure::ROTATION_RESOLUTION`] (what `f32` quaternions resolve),
//! whatever the tolerance.
//! Every step is linear in the keys: clips, tracks, joints and markers are paired through maps,
//! keys by one merge of the two sorted time lists, curves sampled once at the merged times.

mod clip;
mod joints;
mod keys;
mod matching;
mod measure;
mod track;

use serde::Serialize;

pub use measure::{Measure, ROTATION_RESOLUTION};

use crate::model::{BlendMode, Clip, Interpolation, Skeleton, TrackKind};

/// What counts as a change, and how each property's values are measured.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct DiffOptions {
    /// The largest change that is float noise, in the unit it is reported in (degrees for
    /// rotations, the file's units for positions, the value itself for other numbers); also
    /// the noise of a clip's duration and of marker times, in seconds.
    pub tolerance: f64,
    /// Key times at most this many seconds apart are the same key.
    pub time_tolerance: f64,
    /// Properties a format measures in units of its own (Lottie's `rotation` in degrees,
    /// `position` in pixels, `scale` in percent), by property name.
    pub property_measures: Vec<(String, Measure)>,
}

/// A value before and after.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Change<T> {
    /// In the old version.
    pub old: T,
    /// In the new version.
    pub new: T,
}

/// Whether a clip, a track or a marker is new, gone or changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Only in the new version.
    Added,
    /// Only in the old version.
    Removed,
    /// In both, different.
    Changed,
}

/// The changes between the clips of two versions of a file.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Diff {
    /// One entry per clip that differs: changed and renamed clips in the new version's order,
    /// then added clips, then removed ones in the old version's order.
    pub clips: Vec<ClipDiff>,
    /// How many clips are the same in both versions.
    pub unchanged_clips: usize,
}

impl Diff {
    /// True when the two versions hold the same clips (within the tolerances).
    pub fn is_identical(&self) -> bool {
        self.clips.is_empty()
    }

    /// Names `symbol` (`m`, `px`) as the unit of every length change.
    pub fn set_length_unit(&mut self, symbol: &str) {
        for track in self.clips.iter_mut().flat_map(|c| c.tracks.iter_mut()) {
            if track.measure.is_length() {
                track.unit = Some(symbol.to_string());
            }
        }
    }
}

/// How one clip changed.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ClipDiff {
    /// Added, removed or changed.
    pub status: Status,
    /// The clip's name (the new name when it was renamed).
    pub name: String,
    /// The old name, when the clip was renamed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub renamed_from: Option<String>,
    /// The clip's index in the old and in the new file.
    pub index: Change<Option<usize>>,
    /// Seconds, when the duration changed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub duration: Option<Change<f64>>,
    /// When the blend mode changed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub blend_mode: Option<Change<BlendModeName>>,
    /// Markers added, removed or moved (matched by name).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub markers: Vec<MarkerChange>,
    /// Whether the clip's other user data changed (what clipscope does not interpret).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub user_data: bool,
    /// Tracks and keys in the old and the new version.
    pub counts: Change<Counts>,
    /// The tracks that differ, in the new version's order, removed ones after.
    pub tracks: Vec<TrackDiff>,
    /// How many tracks are the same in both versions.
    pub unchanged_tracks: usize,
    /// The joints of the skeleton whose world position or rotation changed, largest first
    /// (empty without a skeleton).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub joints: Vec<JointChange>,
}

/// A blend mode as reports name it (`normal`, `additive`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BlendModeName(pub BlendMode);

impl Serialize for BlendModeName {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.0.name())
    }
}

/// How many tracks and keys a clip has.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct Counts {
    /// Tracks.
    pub tracks: usize,
    /// Keys over all tracks.
    pub keys: usize,
}

/// A marker added, removed or moved.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MarkerChange {
    /// Added, removed or changed (moved).
    pub status: Status,
    /// The marker's name.
    pub name: String,
    /// Its time in the old version (seconds).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub old_time: Option<f64>,
    /// Its time in the new version (seconds).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub new_time: Option<f64>,
}

/// How one track changed.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TrackDiff {
    /// Added, removed or changed.
    pub status: Status,
    /// The track's name (the new name when it was renamed).
    pub name: String,
    /// The old name, when the same keys now animate another property.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub renamed_from: Option<String>,
    /// The track's index in the old and in the new clip.
    pub index: Change<Option<usize>>,
    /// The value type (the new one; see `kind_change`).
    pub kind: TrackKindName,
    /// When the value type changed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kind_change: Option<Change<TrackKindName>>,
    /// How the values are measured (and so the unit of `largest`).
    pub measure: Measure,
    /// The unit of `largest` (`°`, `%`, `×`, or the file's length unit, which
    /// [`crate::formats::diff_documents`] fills in); `None` for plain numbers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unit: Option<String>,
    /// Keys in the old and the new version.
    pub keys: Change<usize>,
    /// The first and last key time (seconds) of the old and the new version, when it has keys.
    pub range: Change<Option<(f32, f32)>>,
    /// When the interpolation changed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub interpolation: Option<Change<InterpolationName>>,
    /// When the number of values per key changed (no values are compared then).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value_size: Option<Change<usize>>,
    /// Times of the keys only the new version has.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub keys_added: Vec<f32>,
    /// Times of the keys only the old version has.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub keys_removed: Vec<f32>,
    /// Keys whose time changed: old time, new time.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub keys_moved: Vec<(f32, f32)>,
    /// Seconds every key moved by, when all of them moved together (then `keys_added`,
    /// `keys_removed` and `keys_moved` are empty).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub keys_shifted: Option<f64>,
    /// The largest change of the played curve, when the values changed beyond the tolerance.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub largest: Option<ValueChange>,
}

/// A track kind as reports name it (`quaternion`, `vector`, …).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TrackKindName(pub TrackKind);

impl Serialize for TrackKindName {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.0.type_name())
    }
}

/// An interpolation as reports name it (`linear`, `bezier`, …).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InterpolationName(pub Interpolation);

impl Serialize for InterpolationName {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.0.name())
    }
}

/// The largest change of a track's played values.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ValueChange {
    /// How much, in the unit of the track's [`Measure`] (degrees for rotations); for bool and
    /// string tracks, how many sampled times differ.
    pub amount: f64,
    /// When (seconds; a key time of either version or a time between two).
    pub time: f32,
    /// The old version's value then.
    pub old: SampledValue,
    /// The new version's value then.
    pub new: SampledValue,
}

/// A track's value at one time.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum SampledValue {
    /// Numbers (one per component, as a player holds them: `f32`).
    Numbers(Vec<f32>),
    /// A flag.
    Bool(bool),
    /// Text.
    Text(String),
}

/// How one joint of the skeleton moved in world space.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct JointChange {
    /// The joint's name.
    pub name: String,
    /// The largest distance its world position moved, in the file's units.
    pub distance: f64,
    /// When (seconds).
    pub distance_time: f32,
    /// The largest angle its world rotation turned, in degrees.
    pub angle: f64,
    /// When (seconds).
    pub angle_time: f32,
}

/// The skeletons the clips play on, for the world-space measure: each version's own (a file
/// with a skeleton), or one for both (`--skeleton`); a version without one uses the other's.
#[derive(Debug, Clone, Copy, Default)]
pub struct Skeletons<'a> {
    /// The old version's skeleton.
    pub old: Option<&'a Skeleton>,
    /// The new version's skeleton.
    pub new: Option<&'a Skeleton>,
}

/// What changed from the clips `old` to the clips `new` (see the module docs).
pub fn diff_clips(old: &[Clip], new: &[Clip], skeletons: Skeletons, options: &DiffOptions) -> Diff {
    let skeletons = Skeletons {
        old: skeletons.old.or(skeletons.new),
        new: skeletons.new.or(skeletons.old),
    };
    let pairs = matching::pair_clips(old, new, |a, b| {
        let mut renamed = old[a].clone();
        renamed.name = new[b].name.clone();
        clip::diff_pair((a, &renamed), (b, &new[b]), Skeletons::default(), options).is_none()
    });
    let mut diff = Diff::default();
    for pair in pairs {
        match pair {
            matching::ClipPair::Both(a, b) => {
                match clip::diff_pair((a, &old[a]), (b, &new[b]), skeletons, options) {
                    Some(d) => diff.clips.push(d),
                    None => diff.unchanged_clips += 1,
                }
            }
            matching::ClipPair::Added(b) => diff.clips.push(clip::alone(Status::Added, b, &new[b])),
            matching::ClipPair::Removed(a) => {
                diff.clips.push(clip::alone(Status::Removed, a, &old[a]))
            }
        }
    }
    diff
}
