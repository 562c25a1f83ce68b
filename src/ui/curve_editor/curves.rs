//! The curves the panel shows: which track and channel each draws, in which colour, where its
//! keys and handles sit on screen, and whether the current view lets the user edit it.

use std::collections::BTreeSet;
use std::ops::Range;

use egui::Color32;
use egui_plot::PlotTransform;

use crate::ui::style::component_colour;
use clipscope_core::model::ops::HandleSide;
use clipscope_core::model::{Clip, Interpolation, Track, TrackKind};
use clipscope_editor::KeyRef;
use clipscope_editor::envelope::{self, Channel};

use super::CurveRef;

/// Keys are drawn as markers only when there are fewer than one per this many points of width.
pub(super) const MIN_KEY_SPACING: f32 = 3.0;

/// At most this many handle pairs are drawn (and hit-tested) per frame.
pub(super) const MAX_HANDLES: usize = 256;

/// How displayed values relate to track values: `shown = (value - offset) * scale`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct ValueMap {
    offset: f64,
    scale: f64,
}

impl ValueMap {
    /// Values as they are.
    pub(super) const IDENTITY: ValueMap = ValueMap {
        offset: 0.0,
        scale: 1.0,
    };

    /// The map that puts `[lo, hi]` onto `[-1, 1]` (a flat curve is centred on 0).
    pub(super) fn normalizing(lo: f64, hi: f64) -> ValueMap {
        let half = (hi - lo) / 2.0;
        ValueMap {
            offset: (lo + hi) / 2.0,
            scale: if half > 0.0 && half.is_finite() {
                1.0 / half
            } else {
                1.0
            },
        }
    }

    /// Offset and scale as bits (a cache key).
    pub(super) fn bits(self) -> [u64; 2] {
        [self.offset.to_bits(), self.scale.to_bits()]
    }

    /// The displayed value of a track value.
    #[inline]
    pub(super) fn show(self, value: f64) -> f64 {
        (value - self.offset) * self.scale
    }
}

/// One drawn curve: a channel of a track of the clip.
pub(super) struct Curve<'a> {
    /// What the caller asked for.
    pub(super) source: CurveRef,
    /// The track.
    pub(super) track: &'a Track,
    /// The number drawn (a component, or an Euler angle of a quaternion).
    pub(super) channel: Channel,
    /// Line and key colour.
    pub(super) colour: Color32,
    /// Whether keys and handles of this curve can be dragged in the current view.
    pub(super) editable: bool,
    /// Track values to displayed values (normalization).
    pub(super) map: ValueMap,
    /// For an Euler curve, every key's continuous angles (radians; from the editor's cache,
    /// see [`envelope::euler_keys`]), so the key markers sit on the continuous line.
    pub(super) euler: Option<std::sync::Arc<Vec<[f64; 3]>>>,
}

impl<'a> Curve<'a> {
    /// The curve for `source`, or `None` when the clip has no such track or component (or the
    /// component is a quaternion's w while quaternions are shown as Euler angles).
    pub(super) fn resolve(
        clip: &'a Clip,
        source: CurveRef,
        euler: bool,
        normalize: bool,
    ) -> Option<Curve<'a>> {
        let track = clip.tracks.get(source.track)?;
        let as_euler = euler && track.kind == TrackKind::Quaternion;
        let channel = if as_euler {
            if source.component >= 3 {
                return None;
            }
            Channel::Euler(source.component)
        } else {
            Channel::Component(source.component)
        };
        if !channel.is_valid_for(track) {
            return None;
        }
        Some(Curve {
            source,
            track,
            channel,
            colour: component_colour(track, source.component),
            editable: !as_euler && !normalize,
            map: ValueMap::IDENTITY,
            euler: None,
        })
    }

    /// The selection entry for key `key` of this curve.
    pub(super) fn key_ref(&self, key: usize) -> KeyRef {
        KeyRef {
            track: self.source.track,
            key,
            component: self.source.component,
        }
    }

    /// Whether `key` belongs to this curve.
    pub(super) fn owns(&self, key: &KeyRef) -> bool {
        key.track == self.source.track && key.component == self.source.component
    }

    /// Key `k` as a displayed `[time, value]` point.
    pub(super) fn key_point(&self, k: usize) -> Option<[f64; 2]> {
        let t = *self.track.times.get(k)? as f64;
        let v = match (self.channel, &self.euler) {
            (Channel::Euler(axis), Some(angles)) => angles.get(k)?.get(axis)?.to_degrees(),
            _ => envelope::key_value(self.track, self.channel, k)?,
        };
        Some([t, self.map.show(v)])
    }

    /// The keys whose times lie in `[t0, t1]` (a binary search; times are ascending).
    pub(super) fn keys_in(&self, t0: f64, t1: f64) -> Range<usize> {
        let times = &self.track.times;
        let a = times.partition_point(|&t| (t as f64) < t0);
        let b = times.partition_point(|&t| (t as f64) <= t1);
        a..b.max(a)
    }

    /// Whether every key in view gets a marker (keys are no denser than one per
    /// [`MIN_KEY_SPACING`] points); otherwise only selected keys are drawn.
    pub(super) fn markers_shown(&self, tf: &PlotTransform) -> bool {
        let b = tf.bounds();
        let keys = self.keys_in(b.min()[0], b.max()[0]).len();
        keys as f32 * MIN_KEY_SPACING <= tf.frame().width()
    }

    /// The selected keys of this curve whose times lie in `[t0, t1]`, in key order.
    pub(super) fn selected_in<'s>(
        &self,
        selected: &'s BTreeSet<KeyRef>,
        t0: f64,
        t1: f64,
    ) -> impl Iterator<Item = usize> + 's {
        let range = self.keys_in(t0, t1);
        let (track, component) = (self.source.track, self.source.component);
        let lo = KeyRef {
            track,
            key: range.start,
            component: 0,
        };
        let hi = KeyRef {
            track,
            key: range.end,
            component: 0,
        };
        selected
            .range(lo..hi)
            .filter(move |r| r.component == component)
            .map(|r| r.key)
    }

    /// Whether the curve shows bezier handles: an editable bezier track whose tangent arrays
    /// cover every key.
    pub(super) fn has_handles(&self) -> bool {
        let Channel::Component(_) = self.channel else {
            return false;
        };
        let needed = self.track.len() * self.track.value_size() * 2;
        self.editable
            && Track::resolve_interpolation(self.track.kind, Some(self.track.interpolation))
                == Interpolation::Bezier
            && self
                .track
                .tangents
                .as_ref()
                .is_some_and(|t| t.in_tangents.len() >= needed && t.out_tangents.len() >= needed)
    }

    /// The `[time, value]` of one handle of key `k` (track values; handle curves are never
    /// normalized because they are only shown while editable).
    pub(super) fn handle(&self, k: usize, side: HandleSide) -> Option<[f64; 2]> {
        let Channel::Component(c) = self.channel else {
            return None;
        };
        let tangents = self.track.tangents.as_ref()?;
        let array = match side {
            HandleSide::In => &tangents.in_tangents,
            HandleSide::Out => &tangents.out_tangents,
        };
        let i = k * self.track.value_size() * 2 + c * 2;
        let (t, v) = (*array.get(i)?, *array.get(i + 1)?);
        (t.is_finite() && v.is_finite()).then_some([t as f64, v as f64])
    }

    /// The selected keys whose handles are shown: those within a margin around the view, at
    /// most [`MAX_HANDLES`].
    pub(super) fn handle_keys<'s>(
        &self,
        selected: &'s BTreeSet<KeyRef>,
        tf: &PlotTransform,
    ) -> impl Iterator<Item = usize> + 's {
        let b = tf.bounds();
        let margin = (b.max()[0] - b.min()[0]) * 0.5;
        let keys: Box<dyn Iterator<Item = usize> + 's> = if self.has_handles() {
            Box::new(self.selected_in(selected, b.min()[0] - margin, b.max()[0] + margin))
        } else {
            Box::new(std::iter::empty())
        };
        keys.take(MAX_HANDLES)
    }
}
