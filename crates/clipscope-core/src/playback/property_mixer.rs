//! Weighted blending of everything the active actions write to one property (three.js
//! `PropertyMixer`).
//!
//! The buffer holds regions of `value_size` numbers: `[incoming | accu0 | accu1 | orig | add |
//! work]` (`work` only for quaternions). Each action's sampler writes its value into
//! `incoming`; [`accumulate`](PropertyMixer::accumulate) folds it into one of the two
//! accumulators as a running weighted average,
//! [`accumulate_additive`](PropertyMixer::accumulate_additive) folds additive actions into `add`, and
//! [`apply`](PropertyMixer::apply) fills up missing weight from the original value, adds the
//! additive part and writes the result to the pose, but only when it differs from the other
//! accumulator (JavaScript `!==`, so NaN is always written). The mixer alternates between the
//! two accumulators from one update to the next.
//!
//! Numbers, vectors and colors lerp; quaternions slerp (the first four components only, with
//! [`slerp_flat`]); bool and string values select (take the incoming value when its share of
//! the weight is at least one half). All arithmetic is `f64` in three.js's order.

use std::ops::Range;

use super::property_binding::{read_slot, write_slot};
use super::{Pose, PropertyBinding};
use crate::model::TrackKind;
use crate::model::interpolant::{multiply_quaternions_flat, slerp_flat};

/// How values of a property are blended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MixKind {
    /// Linear blend (`_lerp` / `_lerpAdditive`): numbers, vectors, colors.
    Lerp,
    /// Spherical blend of the first quaternion (`_slerp` / `_slerpAdditive`).
    Slerp,
    /// Pick one value or the other (`_select`): bools and strings.
    Select,
}

impl MixKind {
    /// The blend three.js's `PropertyMixer` picks for a track's `ValueTypeName`.
    pub fn for_kind(kind: TrackKind) -> MixKind {
        match kind {
            TrackKind::Quaternion => MixKind::Slerp,
            TrackKind::Bool | TrackKind::String => MixKind::Select,
            _ => MixKind::Lerp,
        }
    }
}

/// Copies `n` numbers of `buffer` from `from` to `to` (regions do not overlap), without a call
/// to `memmove` for the usual sizes.
///
/// The source is usually the incoming region a sampler has just written one number at a time;
/// reading it back with wider (vector) loads than those stores defeats the CPU's
/// store-to-load forwarding and stalls, so the small sizes read one number at a time too.
#[inline(always)]
fn copy_region(buffer: &mut [f64], from: usize, to: usize, n: usize) {
    fn copy<const N: usize>(buffer: &mut [f64], from: usize, to: usize) {
        let source = &buffer[from..from + N];
        let v: [f64; N] = std::array::from_fn(|i| {
            // SAFETY: a read through a reference to an initialised, aligned `f64`. Volatile only
            // keeps the compiler from merging the reads into one vector load.
            unsafe { std::ptr::read_volatile(&source[i]) }
        });
        buffer[to..to + N].copy_from_slice(&v);
    }
    match n {
        1 => copy::<1>(buffer, from, to),
        2 => copy::<2>(buffer, from, to),
        3 => copy::<3>(buffer, from, to),
        4 => copy::<4>(buffer, from, to),
        _ => buffer.copy_within(from..from + n, to),
    }
}

/// Region index of the original (rest) value.
const ORIG: usize = 3;
/// Region index of the additive accumulator.
const ADD: usize = 4;
/// Region index of the quaternion work area.
const WORK: usize = 5;

/// Blends the values the active actions produce for one bound property.
#[derive(Debug, Clone)]
pub struct PropertyMixer {
    /// Boxed: read only when the pose's layout changes, so it stays out of the way of the
    /// fields every update reads.
    binding: Option<Box<PropertyBinding>>,
    /// The binding's [slot](PropertyBinding::slot) in the pose with layout `slot_layout` (empty
    /// when it has none), so that applying does not look the property up by name.
    slot: Range<usize>,
    /// The [`Pose::layout_id`] `slot` was found in (0: none yet; ids start at 1).
    slot_layout: u64,
    value_size: usize,
    kind: MixKind,
    buffer: Vec<f64>,
    /// The sum of the normal weights accumulated since the last apply.
    pub cumulative_weight: f64,
    /// The sum of the additive weights accumulated since the last apply.
    pub cumulative_weight_additive: f64,
    /// How many active actions use this property.
    pub use_count: usize,
    /// How many cached actions refer to this property.
    pub reference_count: usize,
}

impl PropertyMixer {
    /// A mixer for a property bound by `binding` (`None`: a track that binds to nothing, whose
    /// reads and writes do nothing), blended as `kind`, with `value_size` values.
    pub fn new(binding: Option<PropertyBinding>, kind: MixKind, value_size: usize) -> Self {
        let regions = if kind == MixKind::Slerp { 6 } else { 5 };
        PropertyMixer {
            binding: binding.map(Box::new),
            slot: 0..0,
            slot_layout: 0,
            value_size,
            kind,
            buffer: vec![0.0; regions * value_size],
            cumulative_weight: 0.0,
            cumulative_weight_additive: 0.0,
            use_count: 0,
            reference_count: 0,
        }
    }

    /// The bound property, if the track bound to one.
    pub fn binding(&self) -> Option<&PropertyBinding> {
        self.binding.as_deref()
    }

    /// Values per region.
    pub fn value_size(&self) -> usize {
        self.value_size
    }

    /// How values are blended.
    pub fn kind(&self) -> MixKind {
        self.kind
    }

    /// The whole buffer (all regions).
    pub fn buffer(&self) -> &[f64] {
        &self.buffer
    }

    /// The whole buffer for writing; samplers write the incoming value at its start, as three.js
    /// interpolants write into `resultBuffer`.
    pub fn buffer_mut(&mut self) -> &mut [f64] {
        &mut self.buffer
    }

    /// Region `k` (0 incoming, 1 accu0, 2 accu1, 3 original, 4 additive, 5 work).
    pub fn region(&self, k: usize) -> &[f64] {
        &self.buffer[k * self.value_size..(k + 1) * self.value_size]
    }

    /// Adds the incoming value to accumulator `accu_index` (0 or 1) with `weight` (three.js
    /// `accumulate`): the first contribution is copied unscaled, later ones are blended in by
    /// `weight / cumulative weight`.
    #[inline]
    pub fn accumulate(&mut self, accu_index: usize, weight: f64) {
        let stride = self.value_size;
        let offset = accu_index * stride + stride;
        let mut current = self.cumulative_weight;
        if current == 0.0 {
            copy_region(&mut self.buffer, 0, offset, stride);
            current = weight;
        } else {
            current += weight;
            let mix = weight / current;
            self.mix(offset, 0, mix);
        }
        self.cumulative_weight = current;
    }

    /// Adds the incoming value to the additive accumulator with `weight` (three.js
    /// `accumulateAdditive`), starting from the identity after each apply.
    pub fn accumulate_additive(&mut self, weight: f64) {
        let offset = self.value_size * ADD;
        if self.cumulative_weight_additive == 0.0 {
            self.set_identity();
        }
        self.mix_additive(offset, 0, weight);
        self.cumulative_weight_additive += weight;
    }

    /// Finishes accumulator `accu_index` and writes it to the pose when it changed (three.js
    /// `apply`). Returns whether it wrote. Both cumulative weights are reset.
    #[inline]
    pub fn apply(&mut self, accu_index: usize, pose: &mut Pose) -> bool {
        let stride = self.value_size;
        let offset = accu_index * stride + stride;
        let weight = self.cumulative_weight;
        let weight_additive = self.cumulative_weight_additive;
        self.cumulative_weight = 0.0;
        self.cumulative_weight_additive = 0.0;
        if weight < 1.0 {
            self.mix(offset, stride * ORIG, 1.0 - weight);
        }
        if weight_additive > 0.0 {
            self.mix_additive(offset, ADD * stride, 1.0);
        }
        // JavaScript `!==`: NaN differs from everything.
        let (accu0, accu1) = self.buffer[stride..3 * stride].split_at(stride);
        let changed = accu0.iter().zip(accu1).any(|(a, b)| a != b);
        if changed && let Some(slot) = self.slot(pose) {
            write_slot(pose, slot, &self.buffer, offset);
        }
        changed
    }

    /// Reads the property's current value as the original and resets the accumulators (three.js
    /// `saveOriginalState`).
    pub fn save_original_state(&mut self, pose: &Pose) {
        let stride = self.value_size;
        let orig = stride * ORIG;
        if let Some(slot) = self.slot(pose) {
            read_slot(pose, slot, &mut self.buffer, orig);
        }
        for i in stride..orig {
            self.buffer[i] = self.buffer[orig + (i % stride)];
        }
        self.set_identity();
        self.cumulative_weight = 0.0;
        self.cumulative_weight_additive = 0.0;
    }

    /// Writes the original value back to the pose (three.js `restoreOriginalState`).
    pub fn restore_original_state(&self, pose: &mut Pose) {
        if let Some(binding) = &self.binding {
            binding.set_value(pose, &self.buffer, self.value_size * ORIG);
        }
    }

    /// The binding's slot in `pose` (`None` without a binding), found by name only when the
    /// pose's layout is not the one last seen.
    #[inline]
    fn slot(&mut self, pose: &Pose) -> Option<Range<usize>> {
        let binding = self.binding.as_deref()?;
        let layout = pose.layout_id();
        if self.slot_layout != layout {
            self.slot = binding.slot(pose).unwrap_or(0..0);
            self.slot_layout = layout;
        }
        Some(self.slot.clone())
    }

    /// Sets the additive region to the identity: zeros, the unit quaternion, or (select) the
    /// original value.
    fn set_identity(&mut self) {
        let stride = self.value_size;
        let start = ADD * stride;
        match self.kind {
            MixKind::Select => self
                .buffer
                .copy_within(ORIG * stride..(ORIG + 1) * stride, start),
            MixKind::Lerp | MixKind::Slerp => {
                self.buffer[start..start + stride].fill(0.0);
                if self.kind == MixKind::Slerp {
                    self.write_quaternion_component(start + 3, 1.0);
                }
            }
        }
    }

    /// `_mixBufferRegion(buffer, dst, src, t, stride)`.
    #[inline(never)]
    fn mix(&mut self, dst: usize, src: usize, t: f64) {
        let stride = self.value_size;
        match self.kind {
            MixKind::Lerp => {
                let s = 1.0 - t;
                for i in 0..stride {
                    let j = dst + i;
                    self.buffer[j] = self.buffer[j] * s + self.buffer[src + i] * t;
                }
            }
            MixKind::Slerp => {
                let q = slerp_flat(self.quaternion(dst), self.quaternion(src), t);
                self.write_quaternion(dst, q);
            }
            MixKind::Select => self.select(dst, src, t),
        }
    }

    /// `_mixBufferRegionAdditive(buffer, dst, src, t, stride)`.
    #[inline(never)]
    fn mix_additive(&mut self, dst: usize, src: usize, t: f64) {
        let stride = self.value_size;
        match self.kind {
            MixKind::Lerp => {
                for i in 0..stride {
                    let j = dst + i;
                    self.buffer[j] += self.buffer[src + i] * t;
                }
            }
            MixKind::Slerp => {
                let work = WORK * stride;
                let product = multiply_quaternions_flat(self.quaternion(dst), self.quaternion(src));
                self.write_quaternion(work, product);
                let q = slerp_flat(self.quaternion(dst), self.quaternion(work), t);
                self.write_quaternion(dst, q);
            }
            MixKind::Select => self.select(dst, src, t),
        }
    }

    /// `_select`: copy `src` over `dst` when `t >= 0.5`.
    fn select(&mut self, dst: usize, src: usize, t: f64) {
        if t >= 0.5 {
            let stride = self.value_size;
            self.buffer.copy_within(src..src + stride, dst);
        }
    }

    /// Writes a quaternion at `offset` (what falls past the end of the buffer is dropped, like
    /// writes past the end of a `Float64Array`).
    fn write_quaternion(&mut self, offset: usize, q: [f64; 4]) {
        for (i, v) in q.into_iter().enumerate() {
            self.write_quaternion_component(offset + i, v);
        }
    }

    /// Writes one number if `index` is inside the buffer.
    fn write_quaternion_component(&mut self, index: usize, value: f64) {
        if let Some(d) = self.buffer.get_mut(index) {
            *d = value;
        }
    }

    /// The four numbers at `offset` (NaN past the end, like `undefined`).
    fn quaternion(&self, offset: usize) -> [f64; 4] {
        std::array::from_fn(|i| self.buffer.get(offset + i).copied().unwrap_or(f64::NAN))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::playback::test_support::{angle_y, quaternion_y};

    /// A mixer bound to root property `p` (rest `rest`) of a fresh pose, original state saved.
    fn setup(kind: MixKind, rest: &[f64]) -> (PropertyMixer, Pose) {
        let mut pose = Pose::new("root");
        pose.define("root", "p", rest);
        let binding = PropertyBinding::bind(&pose, ".p").unwrap();
        let mut mixer = PropertyMixer::new(Some(binding), kind, rest.len());
        mixer.save_original_state(&pose);
        (mixer, pose)
    }

    fn incoming(mixer: &mut PropertyMixer, values: &[f64]) {
        mixer.buffer_mut()[..values.len()].copy_from_slice(values);
    }

    fn value(pose: &Pose) -> Vec<f64> {
        pose.value("root", "p").unwrap().to_vec()
    }

    #[test]
    fn instancing() {
        let m = PropertyMixer::new(None, MixKind::Lerp, 3);
        assert_eq!(m.value_size(), 3);
        assert_eq!(m.buffer().len(), 15);
        assert_eq!(
            (m.cumulative_weight, m.cumulative_weight_additive),
            (0.0, 0.0)
        );
        assert_eq!((m.use_count, m.reference_count), (0, 0));
        assert_eq!(
            PropertyMixer::new(None, MixKind::Slerp, 4).buffer().len(),
            24
        );
        assert_eq!(
            PropertyMixer::new(None, MixKind::Select, 1).buffer().len(),
            5
        );
        assert_eq!(MixKind::for_kind(TrackKind::Color), MixKind::Lerp);
        assert_eq!(MixKind::for_kind(TrackKind::Quaternion), MixKind::Slerp);
        assert_eq!(MixKind::for_kind(TrackKind::Bool), MixKind::Select);
    }

    #[test]
    fn save_and_restore_original_state() {
        let (m, mut pose) = setup(MixKind::Lerp, &[1.0, 2.0, 3.0]);
        for k in 1..=3 {
            assert_eq!(m.region(k), &[1.0, 2.0, 3.0]);
        }
        assert_eq!(m.region(4), &[0.0, 0.0, 0.0]);
        let (q, _) = setup(MixKind::Slerp, &[0.1, 0.2, 0.3, 0.9]);
        assert_eq!(q.region(4), &[0.0, 0.0, 0.0, 1.0]);
        let (b, _) = setup(MixKind::Select, &[1.0]);
        assert_eq!(b.region(4), &[1.0]);
        assert_eq!(
            (m.cumulative_weight, m.cumulative_weight_additive),
            (0.0, 0.0)
        );
        pose.set_value("root", "p", &[7.0, 7.0, 7.0]);
        m.restore_original_state(&mut pose);
        assert_eq!(value(&pose), [1.0, 2.0, 3.0]);
    }

    #[test]
    fn accumulate() {
        let (mut m, _) = setup(MixKind::Lerp, &[0.0]);
        incoming(&mut m, &[8.0]);
        m.accumulate(0, 0.25);
        assert_eq!((m.region(1)[0], m.cumulative_weight), (8.0, 0.25));
        let (mut m, _) = setup(MixKind::Lerp, &[0.0]);
        incoming(&mut m, &[10.0]);
        m.accumulate(0, 1.0);
        incoming(&mut m, &[20.0]);
        m.accumulate(0, 1.0);
        assert_eq!(m.region(1)[0], 15.0);
        let (mut m, _) = setup(MixKind::Lerp, &[0.0]);
        incoming(&mut m, &[0.0]);
        m.accumulate(0, 3.0);
        incoming(&mut m, &[100.0]);
        m.accumulate(0, 1.0);
        assert_eq!(m.region(1)[0], 25.0);
        // accu1 leaves accu0 alone.
        let (mut m, _) = setup(MixKind::Lerp, &[5.0]);
        incoming(&mut m, &[9.0]);
        m.accumulate(1, 1.0);
        assert_eq!((m.region(1)[0], m.region(2)[0]), (5.0, 9.0));
        // bool: the incoming value wins iff its share is at least one half.
        for (w2, expect) in [(1.0, 1.0), (0.9, 0.0)] {
            let (mut m, _) = setup(MixKind::Select, &[0.0]);
            incoming(&mut m, &[0.0]);
            m.accumulate(0, 1.0);
            incoming(&mut m, &[1.0]);
            m.accumulate(0, w2);
            assert_eq!(m.region(1)[0], expect);
        }
    }

    #[test]
    fn accumulate_additive() {
        let (mut m, mut pose) = setup(MixKind::Lerp, &[0.0, 0.0, 0.0]);
        incoming(&mut m, &[10.0, 10.0, 10.0]);
        m.accumulate_additive(0.5);
        assert_eq!(m.region(4), &[5.0, 5.0, 5.0]);
        m.accumulate_additive(0.5);
        assert_eq!(m.region(4), &[10.0, 10.0, 10.0]);
        assert_eq!(m.cumulative_weight_additive, 1.0);
        m.apply(0, &mut pose);
        incoming(&mut m, &[2.0, 2.0, 2.0]);
        m.accumulate_additive(1.0);
        assert_eq!(m.region(4), &[2.0, 2.0, 2.0], "reset after apply");
    }

    #[test]
    fn apply() {
        let (mut m, mut pose) = setup(MixKind::Lerp, &[0.0, 0.0, 0.0]);
        incoming(&mut m, &[10.0, 20.0, 30.0]);
        m.accumulate(0, 1.0);
        assert!(m.apply(0, &mut pose));
        assert_eq!(value(&pose), [10.0, 20.0, 30.0]);

        let (mut m, mut pose) = setup(MixKind::Lerp, &[0.0, 0.0, 0.0]);
        incoming(&mut m, &[10.0, 20.0, 30.0]);
        m.accumulate(0, 0.25);
        m.apply(0, &mut pose);
        assert_eq!(value(&pose), [2.5, 5.0, 7.5]);
        assert_eq!(
            (m.cumulative_weight, m.cumulative_weight_additive),
            (0.0, 0.0)
        );

        let (mut m, mut pose) = setup(MixKind::Lerp, &[0.0]);
        incoming(&mut m, &[10.0]);
        m.accumulate(0, 1.0);
        m.accumulate_additive(0.5);
        m.apply(0, &mut pose);
        assert_eq!(value(&pose), [15.0]);

        // Unchanged (accu0 === accu1): no write.
        let (mut m, mut pose) = setup(MixKind::Lerp, &[1.0, 2.0]);
        incoming(&mut m, &[1.0, 2.0]);
        m.accumulate(0, 1.0);
        pose.set_value("root", "p", &[9.0, 9.0]);
        assert!(!m.apply(0, &mut pose));
        assert_eq!(value(&pose), [9.0, 9.0]);
        // One differing component writes.
        incoming(&mut m, &[1.0, 3.0]);
        m.accumulate(0, 1.0);
        assert!(m.apply(0, &mut pose));
        assert_eq!(value(&pose), [1.0, 3.0]);
        // apply(1) reads accu1.
        incoming(&mut m, &[4.0, 4.0]);
        m.accumulate(1, 1.0);
        assert!(m.apply(1, &mut pose));
        assert_eq!(value(&pose), [4.0, 4.0]);
        // NaN always differs.
        incoming(&mut m, &[f64::NAN, 4.0]);
        m.accumulate(1, 1.0);
        assert!(m.apply(1, &mut pose));
        m.accumulate(0, 1.0);
        assert!(m.apply(0, &mut pose));
    }

    #[test]
    fn normal_blend_examples_from_the_spec() {
        // Weights 0.3 and 0.2 on 5 and 20 against an original 100 give 55.5.
        let (mut m, mut pose) = setup(MixKind::Lerp, &[100.0]);
        incoming(&mut m, &[5.0]);
        m.accumulate(1, 0.3);
        incoming(&mut m, &[20.0]);
        m.accumulate(1, 0.2);
        m.apply(1, &mut pose);
        assert_eq!(value(&pose), [55.5]);
        // Weights above one normalize: 1 and 1 on 5 and 20 give 12.5.
        incoming(&mut m, &[5.0]);
        m.accumulate(0, 1.0);
        incoming(&mut m, &[20.0]);
        m.accumulate(0, 1.0);
        m.apply(0, &mut pose);
        assert_eq!(value(&pose), [12.5]);
    }

    fn close(a: f64, b: f64) {
        assert!((a - b).abs() < 1e-4, "{a} vs {b}");
    }

    #[test]
    fn quaternions() {
        let identity = quaternion_y(0.0);
        let q90 = quaternion_y(90.0);
        let run = |weights: &[(f64, [f64; 4])], additive: &[(f64, [f64; 4])], orig: [f64; 4]| {
            let (mut m, mut pose) = setup(MixKind::Slerp, &orig);
            for (w, q) in weights {
                incoming(&mut m, q);
                m.accumulate(0, *w);
            }
            for (w, q) in additive {
                incoming(&mut m, q);
                m.accumulate_additive(*w);
            }
            m.apply(0, &mut pose);
            angle_y(&value(&pose))
        };
        close(run(&[(1.0, identity), (1.0, q90)], &[], identity), 45.0);
        close(
            run(&[(3.0, identity), (1.0, quaternion_y(80.0))], &[], identity),
            20.0,
        );
        close(run(&[], &[(0.5, q90)], identity), 45.0);
        close(run(&[], &[(1.0, quaternion_y(60.0))], identity), 60.0);
        close(run(&[(1.0, q90)], &[(0.5, q90)], identity), 135.0);
        close(run(&[(0.5, q90)], &[], identity), 45.0);

        let (mut m, _) = setup(MixKind::Slerp, &identity);
        assert_eq!(m.region(5), &[0.0; 4]);
        incoming(&mut m, &q90);
        m.accumulate_additive(0.5);
        close(angle_y(m.region(5)), 90.0);
    }
}
