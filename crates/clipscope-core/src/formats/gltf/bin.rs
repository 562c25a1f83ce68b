//! Building binary data for writing: one buffer, one buffer view per accessor, every view
//! starting on a 4-byte boundary, and `min`/`max` on every accessor.
//!
//! Animation data gets views without `byteStride` or `target` (glTF allows a stride only on
//! vertex attribute views); vertex positions get `ARRAY_BUFFER` views and indices
//! `ELEMENT_ARRAY_BUFFER` views. `min`/`max` are the exact `f32` extremes written as the
//! shortest decimal that reads back to the same `f64`, so validators comparing them with the
//! data see equal numbers.

use gltf_json::accessor::{ComponentType, GenericComponentType, Type};
use gltf_json::buffer::{Target, View};
use gltf_json::validation::{Checked, USize64};
use gltf_json::{Accessor, Index};
use std::borrow::Cow;

use rayon::prelude::*;
use serde_json::Value;

/// Accessors and views appended to a document, their bytes going into one buffer.
#[derive(Debug)]
pub(crate) struct Bin {
    /// The buffer's bytes so far (this builder's part starts at `start`).
    pub data: Vec<u8>,
    /// The buffer the views point into.
    buffer: u32,
    /// The new views, as JSON.
    pub views: Vec<Value>,
    /// The new accessors, as JSON.
    pub accessors: Vec<Value>,
    /// How many views and accessors the document has before these.
    view_base: usize,
    accessor_base: usize,
}

impl Bin {
    /// A builder appending to `data` (the existing bytes of buffer `buffer`), numbering its
    /// views and accessors after `view_base` and `accessor_base` existing ones.
    pub(crate) fn new(data: Vec<u8>, buffer: u32, view_base: usize, accessor_base: usize) -> Bin {
        Bin {
            data,
            buffer,
            views: Vec::new(),
            accessors: Vec::new(),
            view_base,
            accessor_base,
        }
    }

    /// Appends `bytes` as a new view (aligned to 4 bytes) and returns its index.
    fn view(&mut self, bytes: &[u8], target: Option<Target>) -> usize {
        while !self.data.len().is_multiple_of(4) {
            self.data.push(0);
        }
        let view = self.record_view(self.data.len(), bytes.len(), target);
        self.data.extend_from_slice(bytes);
        view
    }

    /// Records a view of the `length` bytes at `offset` of the buffer and returns its index.
    fn record_view(&mut self, offset: usize, length: usize, target: Option<Target>) -> usize {
        let view = View {
            buffer: Index::new(self.buffer),
            byte_length: USize64(length as u64),
            byte_offset: Some(USize64(offset as u64)),
            byte_stride: None,
            name: None,
            target: target.map(Checked::Valid),
            extensions: None,
            extras: Default::default(),
        };
        self.views
            .push(serde_json::to_value(view).unwrap_or(Value::Null));
        self.view_base + self.views.len() - 1
    }

    /// Appends an accessor of `values` (`f32`, `type_` elements) with min and max; returns its
    /// index. `target` is the view's target (vertex attributes).
    pub(crate) fn floats(&mut self, values: &[f32], type_: Type, target: Option<Target>) -> u32 {
        self.append(Floats::new(values, type_), target)
    }

    /// Appends an accessor of `floats`, made ready already ([`Floats::new`]); returns its
    /// index. `target` is the view's target (vertex attributes).
    pub(crate) fn append(&mut self, floats: Floats<'_>, target: Option<Target>) -> u32 {
        let bytes = le_bytes(&floats.values);
        let view = self.view(&bytes, target);
        self.float_accessor(view, floats)
    }

    /// Records the accessor of `floats` over the whole of `view`.
    fn float_accessor(&mut self, view: usize, floats: Floats<'_>) -> u32 {
        let Floats {
            count,
            type_,
            min,
            max,
            ..
        } = floats;
        self.accessor(view, count, ComponentType::F32, type_, min, max)
    }

    /// Appends an accessor of each of `all` in order, as [`Bin::append`] does one by one
    /// (views without a target), and returns their indices. The bytes go straight from the
    /// values into room made for all of them at once, written on the worker threads: a long
    /// take's megabytes are neither copied twice nor faulted in on one thread.
    pub(crate) fn append_all(&mut self, all: Vec<Floats<'_>>) -> Vec<u32> {
        while !self.data.len().is_multiple_of(4) {
            self.data.push(0);
        }
        let start = self.data.len();
        let total: usize = all.iter().map(Floats::len).sum();
        self.data.reserve(total);
        // Each accessor's room, one after another (`f32` views stay 4-byte aligned).
        let mut rooms = Vec::with_capacity(all.len());
        let mut rest = &mut self.data.spare_capacity_mut()[..total];
        for floats in &all {
            let (room, after) = rest.split_at_mut(floats.len());
            rooms.push(room);
            rest = after;
        }
        rooms.into_par_iter().zip(&all).for_each(|(room, floats)| {
            for (out, v) in room.chunks_exact_mut(4).zip(floats.values.iter()) {
                out.write_copy_of_slice(&v.to_le_bytes());
            }
        });
        // SAFETY: the `total` bytes after `start` were reserved above and each was written
        // (every room holds its values' bytes, and the rooms cover them all).
        unsafe { self.data.set_len(start + total) };
        let mut offset = start;
        all.into_iter()
            .map(|floats| {
                let view = self.record_view(offset, floats.len(), None);
                offset += floats.len();
                self.float_accessor(view, floats)
            })
            .collect()
    }

    /// Appends triangle indices (`UNSIGNED_SHORT` when they fit, else `UNSIGNED_INT`); returns
    /// the accessor index.
    pub(crate) fn indices(&mut self, indices: &[u32]) -> u32 {
        let max = indices.iter().copied().max().unwrap_or(0);
        let min = indices.iter().copied().min().unwrap_or(0);
        let (bytes, ct): (Vec<u8>, _) = if max < u16::MAX as u32 {
            (
                indices
                    .iter()
                    .flat_map(|&i| (i as u16).to_le_bytes())
                    .collect(),
                ComponentType::U16,
            )
        } else {
            (
                indices.iter().flat_map(|i| i.to_le_bytes()).collect(),
                ComponentType::U32,
            )
        };
        let view = self.view(&bytes, Some(Target::ElementArrayBuffer));
        self.accessor(
            view,
            indices.len(),
            ct,
            Type::Scalar,
            Value::from(vec![min]),
            Value::from(vec![max]),
        )
    }

    /// Records an accessor over a whole view.
    fn accessor(
        &mut self,
        view: usize,
        count: usize,
        ct: ComponentType,
        type_: Type,
        min: Value,
        max: Value,
    ) -> u32 {
        let accessor = Accessor {
            buffer_view: Some(Index::new(view as u32)),
            byte_offset: None,
            count: USize64(count as u64),
            component_type: Checked::Valid(GenericComponentType(ct)),
            extensions: None,
            extras: Default::default(),
            type_: Checked::Valid(type_),
            min: Some(min),
            max: Some(max),
            name: None,
            normalized: false,
            sparse: None,
        };
        self.accessors
            .push(serde_json::to_value(accessor).unwrap_or(Value::Null));
        (self.accessor_base + self.accessors.len() - 1) as u32
    }
}

/// An accessor of `f32` values made ready to append ([`Bin::append`], [`Bin::append_all`]):
/// its values, element count, type and extremes, which a writer can work out for many
/// accessors at once on the worker threads and append in order after.
#[derive(Debug)]
pub(crate) struct Floats<'v> {
    /// The values (borrowed where the writer has them already).
    values: Cow<'v, [f32]>,
    /// The number of elements.
    count: usize,
    /// The element type.
    type_: Type,
    /// Per-component minimum, as JSON.
    min: Value,
    /// Per-component maximum, as JSON.
    max: Value,
}

impl<'v> Floats<'v> {
    /// The number of bytes the values take.
    pub(crate) fn len(&self) -> usize {
        self.values.len() * 4
    }

    /// `values` as `type_` elements, ready to append.
    pub(crate) fn new(values: impl Into<Cow<'v, [f32]>>, type_: Type) -> Floats<'v> {
        let values = values.into();
        let n = type_.multiplicity();
        let (min, max) = min_max(&values, n);
        Floats {
            count: values.len() / n,
            values,
            type_,
            min,
            max,
        }
    }
}

/// `values` as little-endian bytes, as a buffer stores `f32`s: one pass that writes four bytes
/// at a time into a buffer of the exact size (a byte-by-byte `flat_map` costs several times
/// more on a long take's megabytes).
pub(crate) fn le_bytes(values: &[f32]) -> Vec<u8> {
    let mut bytes = vec![0u8; values.len() * 4];
    for (out, v) in bytes.chunks_exact_mut(4).zip(values) {
        out.copy_from_slice(&v.to_le_bytes());
    }
    bytes
}

/// Per-component minimum and maximum of `values` (`n` per element) as JSON arrays.
fn min_max(values: &[f32], n: usize) -> (Value, Value) {
    let (min, max) = match n {
        1 => fixed::<1>(values),
        3 => fixed::<3>(values),
        4 => fixed::<4>(values),
        _ => {
            let mut min = vec![f32::INFINITY; n];
            let mut max = vec![f32::NEG_INFINITY; n];
            for element in values.chunks_exact(n) {
                for (c, &v) in element.iter().enumerate() {
                    min[c] = min[c].min(v);
                    max[c] = max[c].max(v);
                }
            }
            (min, max)
        }
    };
    let json = |v: Vec<f32>| Value::from(v.into_iter().map(|x| x as f64).collect::<Vec<f64>>());
    (json(min), json(max))
}

/// [`min_max`] of `N` components per element, in arrays the compiler keeps in registers
/// (the common widths: times, vectors, quaternions).
fn fixed<const N: usize>(values: &[f32]) -> (Vec<f32>, Vec<f32>) {
    let mut min = [f32::INFINITY; N];
    let mut max = [f32::NEG_INFINITY; N];
    for element in values.chunks_exact(N) {
        for c in 0..N {
            min[c] = min[c].min(element[c]);
            max[c] = max[c].max(element[c]);
        }
    }
    (min.to_vec(), max.to_vec())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn min_max_of_every_width_is_the_plain_fold() {
        let values: Vec<f32> = (0..60)
            .map(|k| match k % 11 {
                3 => f32::NAN,
                5 => -0.0,
                _ => (k as f32 * 0.37).sin() * 10.0,
            })
            .collect();
        for n in 1..=6 {
            let mut want = (vec![f32::INFINITY; n], vec![f32::NEG_INFINITY; n]);
            for element in values.chunks_exact(n) {
                for (c, &v) in element.iter().enumerate() {
                    want.0[c] = want.0[c].min(v);
                    want.1[c] = want.1[c].max(v);
                }
            }
            let json = |v: &[f32]| Value::from(v.iter().map(|&x| x as f64).collect::<Vec<_>>());
            assert_eq!(min_max(&values, n), (json(&want.0), json(&want.1)), "{n}");
        }
    }

    #[test]
    fn aligned_views_and_exact_min_max() {
        let mut bin = Bin::new(vec![1, 2], 0, 3, 5);
        let a = bin.floats(&[0.1, -2.0, 3.0, 0.5], Type::Vec2, None);
        assert_eq!(a, 5);
        assert_eq!(bin.data.len(), 4 + 16);
        assert_eq!(bin.views[0]["byteOffset"], 4);
        assert_eq!(bin.views[0]["byteLength"], 16);
        assert!(bin.views[0].get("byteStride").is_none());
        let acc = &bin.accessors[0];
        assert_eq!(acc["bufferView"], 3);
        assert_eq!(acc["componentType"], 5126);
        assert_eq!(acc["type"], "VEC2");
        assert_eq!(acc["count"], 2);
        assert_eq!(acc["min"][0].as_f64(), Some(0.1f32 as f64));
        assert_eq!(acc["max"], serde_json::json!([3.0, 0.5]));
        let i = bin.indices(&[0, 1, 2]);
        assert_eq!(i, 6);
        assert_eq!(bin.accessors[1]["componentType"], 5123);
        assert_eq!(bin.views[1]["target"], 34963);
        assert_eq!(bin.data.len(), 26);
    }

    #[test]
    fn appended_all_at_once_as_one_by_one() {
        let lists: Vec<(Vec<f32>, Type)> = vec![
            ((0..1000).map(|k| k as f32 / 30.0).collect(), Type::Scalar),
            (
                (0..4000).map(|k| (k as f32 * 0.01).sin()).collect(),
                Type::Vec4,
            ),
            (vec![], Type::Scalar),
            (vec![1.5, -0.0, f32::MAX], Type::Vec3),
        ];
        // After a buffer whose bytes end off the 4-byte grid.
        let mut one = Bin::new(vec![7; 6], 0, 2, 1);
        let mut all = Bin::new(vec![7; 6], 0, 2, 1);
        let singly: Vec<u32> = lists
            .iter()
            .map(|(v, t)| one.append(Floats::new(v.as_slice(), *t), None))
            .collect();
        let at_once = all.append_all(
            lists
                .iter()
                .map(|(v, t)| Floats::new(v.as_slice(), *t))
                .collect(),
        );
        assert_eq!(at_once, singly);
        assert_eq!(all.data, one.data);
        assert_eq!(all.views, one.views);
        assert_eq!(all.accessors, one.accessors);
        assert_eq!(&all.data[12..16], &(1.0f32 / 30.0).to_le_bytes());
    }
}
