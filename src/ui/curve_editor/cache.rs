//! Envelopes and value ranges kept between frames, so a frame where nothing changed does not
//! resample a single curve.
//!
//! Two layers: envelopes (plot coordinates, keyed by a fingerprint of the track's data — times,
//! values, tangents, interpolation —, the channel, the visible time range and the number of
//! pixel columns) and, on top, the tessellated line of each curve (keyed by its envelope plus
//! everything that places it on screen: value range, plot rect, normalization, colour, pixel
//! density). A steady frame — hovering, playing back — reuses both, so it neither resamples nor
//! re-tessellates a curve; zooming the value axis only re-tessellates. The fingerprint is a fast hash over the track's arrays, computed at most once
//! per track per frame, so edits made in place (a key dragged by a model operation keeps the same
//! allocation) are seen at once. Entries not used during a frame are dropped at the start of the
//! next one. Every layer is a hash map, so a frame showing thousands of curves looks each one up
//! in constant time.

use std::collections::HashMap;
use std::sync::Arc;

use egui::Mesh;

use clipscope_core::model::{Track, Values};
use clipscope_editor::envelope::{self, Channel};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct EnvelopeKey {
    fingerprint: u64,
    channel: Channel,
    t0: u64,
    t1: u64,
    columns: usize,
}

struct EnvelopeEntry {
    points: Vec<[f64; 2]>,
    used: bool,
}

/// Everything besides the envelope that decides a curve's tessellated line, as bits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(super) struct LineKey {
    /// Value range of the plot (`f64::to_bits`).
    pub(super) values: [u64; 2],
    /// The plot rect (`f32::to_bits`).
    pub(super) rect: [u32; 4],
    /// Normalization offset and scale (`f64::to_bits`).
    pub(super) map: [u64; 2],
    /// Line colour (RGBA).
    pub(super) colour: [u8; 4],
    /// Pixels per point and feathering (`f32::to_bits`).
    pub(super) pixels: [u32; 2],
}

struct LineEntry {
    mesh: Arc<Mesh>,
    used: bool,
}

struct EulerEntry {
    angles: Arc<Vec<[f64; 3]>>,
    used: bool,
}

struct RangeEntry {
    range: Option<(f64, f64)>,
    used: bool,
}

/// The curve editor's cache of decimated curves and value ranges.
#[derive(Default)]
pub(super) struct EnvelopeCache {
    envelopes: HashMap<EnvelopeKey, EnvelopeEntry>,
    lines: HashMap<(EnvelopeKey, LineKey), LineEntry>,
    ranges: HashMap<(u64, Channel), RangeEntry>,
    euler: HashMap<u64, EulerEntry>,
    /// This frame's fingerprints, by track address.
    fingerprints: HashMap<usize, u64>,
    /// How many envelopes were computed (cache misses), ever.
    builds: u64,
}

impl EnvelopeCache {
    /// Starts a frame: forgets entries the previous frame did not use and the fingerprints.
    pub(super) fn begin_frame(&mut self) {
        self.envelopes
            .retain(|_, e| std::mem::replace(&mut e.used, false));
        self.lines
            .retain(|_, e| std::mem::replace(&mut e.used, false));
        self.ranges
            .retain(|_, e| std::mem::replace(&mut e.used, false));
        self.euler
            .retain(|_, e| std::mem::replace(&mut e.used, false));
        self.fingerprints.clear();
    }

    /// How many envelopes have been computed so far.
    pub(super) fn builds(&self) -> u64 {
        self.builds
    }

    fn fingerprint(&mut self, track: &Track) -> u64 {
        let address = track as *const Track as usize;
        *self
            .fingerprints
            .entry(address)
            .or_insert_with(|| fingerprint(track))
    }

    /// The envelope for `key` (marked used), computed when not cached.
    fn envelope_entry(&mut self, key: EnvelopeKey, track: &Track) -> &mut EnvelopeEntry {
        let builds = &mut self.builds;
        let entry = self.envelopes.entry(key).or_insert_with(|| {
            *builds += 1;
            let t0 = f64::from_bits(key.t0);
            let t1 = f64::from_bits(key.t1);
            EnvelopeEntry {
                points: envelope::envelope(track, key.channel, t0, t1, key.columns),
                used: false,
            }
        });
        entry.used = true;
        entry
    }

    fn envelope_key(
        &mut self,
        track: &Track,
        channel: Channel,
        t0: f64,
        t1: f64,
        columns: usize,
    ) -> EnvelopeKey {
        EnvelopeKey {
            fingerprint: self.fingerprint(track),
            channel,
            t0: t0.to_bits(),
            t1: t1.to_bits(),
            columns,
        }
    }

    /// The [`envelope`](envelope::envelope) of `channel` of `track` over `[t0, t1]` on `columns`
    /// columns, computed only when not cached.
    #[cfg(test)]
    pub(super) fn envelope(
        &mut self,
        track: &Track,
        channel: Channel,
        t0: f64,
        t1: f64,
        columns: usize,
    ) -> &[[f64; 2]] {
        let key = self.envelope_key(track, channel, t0, t1, columns);
        &self.envelope_entry(key, track).points
    }

    /// The tessellated line of a curve: cached under its envelope (`track`, `channel`,
    /// `[t0, t1]`, `columns`) and `line`; on a miss, `build` turns the envelope's points into a
    /// mesh (given empty).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn line(
        &mut self,
        track: &Track,
        channel: Channel,
        t0: f64,
        t1: f64,
        columns: usize,
        line: LineKey,
        build: impl FnOnce(&[[f64; 2]], &mut Mesh),
    ) -> Arc<Mesh> {
        let key = self.envelope_key(track, channel, t0, t1, columns);
        self.envelope_entry(key, track);
        let envelopes = &self.envelopes;
        let entry = self.lines.entry((key, line)).or_insert_with(|| {
            let mut mesh = Mesh::default();
            build(&envelopes[&key].points, &mut mesh);
            LineEntry {
                mesh: Arc::new(mesh),
                used: false,
            }
        });
        entry.used = true;
        entry.mesh.clone()
    }

    /// The continuous Euler angles of every key of a quaternion track
    /// ([`euler_keys`](envelope::euler_keys)), cached.
    pub(super) fn euler_keys(&mut self, track: &Track) -> Arc<Vec<[f64; 3]>> {
        let key = self.fingerprint(track);
        let entry = self.euler.entry(key).or_insert_with(|| EulerEntry {
            angles: Arc::new(envelope::euler_keys(track)),
            used: false,
        });
        entry.used = true;
        entry.angles.clone()
    }

    /// The [`value_range`](envelope::value_range) of `channel` of `track`, cached.
    pub(super) fn value_range(&mut self, track: &Track, channel: Channel) -> Option<(f64, f64)> {
        let key = (self.fingerprint(track), channel);
        let entry = self.ranges.entry(key).or_insert_with(|| RangeEntry {
            range: envelope::value_range(track, channel),
            used: false,
        });
        entry.used = true;
        entry.range
    }
}

/// A 64-bit hash of everything that shapes a track's curve. Four independent lanes keep the
/// multiply chains short (about a nanosecond per key of a 4-component track).
pub(super) fn fingerprint(track: &Track) -> u64 {
    let mut h = Lanes::new();
    h.word(track.len() as u64);
    h.word(track.interpolation.code() as u64);
    h.word(track.kind as u64);
    h.floats(&track.times);
    match &track.values {
        Values::Numbers(v) => h.floats(v),
        Values::Bools(v) => {
            for chunk in v.chunks(64) {
                let bits = chunk
                    .iter()
                    .enumerate()
                    .fold(0u64, |acc, (i, &b)| acc | ((b as u64) << i));
                h.word(bits);
            }
        }
        Values::Strings(v) => h.word(v.len() as u64),
    }
    match &track.tangents {
        Some(t) => {
            h.word(1);
            h.floats(&t.in_tangents);
            h.floats(&t.out_tangents);
        }
        None => h.word(0),
    }
    h.finish()
}

const K: u64 = 0x9E37_79B9_7F4A_7C15;

struct Lanes {
    lanes: [u64; 4],
    count: u64,
}

impl Lanes {
    fn new() -> Lanes {
        Lanes {
            lanes: [1, 2, 3, 4],
            count: 0,
        }
    }

    #[inline]
    fn mix(lane: u64, word: u64) -> u64 {
        (lane ^ word).wrapping_mul(K).rotate_left(29)
    }

    fn word(&mut self, w: u64) {
        self.lanes[0] = Self::mix(self.lanes[0], w);
        self.count += 1;
    }

    fn floats(&mut self, v: &[f32]) {
        self.word(v.len() as u64);
        let mut chunks = v.chunks_exact(8);
        for c in &mut chunks {
            let w = |i: usize| (c[i].to_bits() as u64) | ((c[i + 1].to_bits() as u64) << 32);
            self.lanes[0] = Self::mix(self.lanes[0], w(0));
            self.lanes[1] = Self::mix(self.lanes[1], w(2));
            self.lanes[2] = Self::mix(self.lanes[2], w(4));
            self.lanes[3] = Self::mix(self.lanes[3], w(6));
        }
        for &x in chunks.remainder() {
            self.word(x.to_bits() as u64);
        }
    }

    fn finish(&self) -> u64 {
        let mut h = self.count.wrapping_mul(K);
        for (i, &l) in self.lanes.iter().enumerate() {
            h = Self::mix(h, l.rotate_left(i as u32 * 16));
        }
        h ^ (h >> 32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clipscope_core::model::{Interpolation, TrackKind};

    #[test]
    fn fingerprint_sees_every_value_and_the_interpolation() {
        let times: Vec<f32> = (0..37).map(|k| k as f32).collect();
        let values: Vec<f32> = (0..37 * 3).map(|k| k as f32 * 0.5).collect();
        let track = Track::numeric(".p", TrackKind::Vector, times, values);
        let base = fingerprint(&track);
        assert_eq!(base, fingerprint(&track.clone()));
        for i in [0, 7, 8, 63, 110] {
            let mut t = track.clone();
            t.values.as_numbers_mut().unwrap()[i] += 1.0;
            assert_ne!(fingerprint(&t), base, "value {i}");
        }
        let mut t = track.clone();
        t.times[36] = 40.0;
        assert_ne!(fingerprint(&t), base);
        let mut t = track.clone();
        t.interpolation = Interpolation::Discrete;
        assert_ne!(fingerprint(&t), base);
    }

    #[test]
    fn unchanged_frames_reuse_envelopes() {
        let track = Track::numeric(".x", TrackKind::Number, vec![0.0, 1.0], vec![0.0, 1.0]);
        let mut cache = EnvelopeCache::default();
        for frame in 0..3 {
            cache.begin_frame();
            let n = cache
                .envelope(&track, Channel::Component(0), 0.0, 1.0, 100)
                .len();
            assert!(n > 0);
            assert_eq!(cache.builds(), 1, "frame {frame}");
        }
        cache.begin_frame();
        cache.envelope(&track, Channel::Component(0), 0.0, 2.0, 100);
        assert_eq!(cache.builds(), 2);
        // The unused entry goes after one frame; asking for it again rebuilds it.
        cache.begin_frame();
        cache.begin_frame();
        cache.envelope(&track, Channel::Component(0), 0.0, 1.0, 100);
        assert_eq!(cache.builds(), 3);
    }
}
