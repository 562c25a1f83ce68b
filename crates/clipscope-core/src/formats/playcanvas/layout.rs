//! What a PlayCanvas file holds beyond the model's tracks, kept so that writing an unchanged
//! document gives the file back: field order, unknown fields at every level, which channels a
//! node kept in `defaults`, nodes without keys, and the text of every number.
//!
//! Numbers are kept by value: a node remembers, for each position, rotation, scale and time it
//! read, the `f32` bits the model got and the file's text. A writer that meets those exact bits
//! again writes the file's text, so an unmodified key comes back as written, Euler angles
//! included (the engine's inverse would give another, equivalent triple for `|ey| > 90°`). An
//! edited value has other bits and is written fresh.

use std::collections::HashMap;

use serde_json::value::RawValue;

/// A field of an object, in file order: one the writer fills from the model, or one it does not
/// know, kept verbatim.
#[derive(Debug, Clone)]
pub(crate) enum Slot {
    /// A field the format defines (`name`, `defaults`, `p`, …).
    Known(&'static str),
    /// Any other field, verbatim.
    Extra(String, Box<RawValue>),
}

impl Slot {
    /// The field's name.
    pub(crate) fn name(&self) -> &str {
        match self {
            Slot::Known(name) => name,
            Slot::Extra(name, _) => name,
        }
    }
}

/// What a number array of the file looked like: each number's value (as `JSON.parse` reads it)
/// and its text.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Numbers(pub Vec<(f64, Box<str>)>);

/// Which model value a [`Numbers`] was read into: channel (0 position, 1 rotation, 2 scale,
/// 3 time), the bits of the key time it was on ([`DEFAULTS`] for a node's `defaults`), and the
/// value's `f32` bits (a position or scale uses three, a time one, the rest are 0). The time
/// matters: two keys can hold Euler angles whose texts differ in the last digit yet give the
/// same `f32` quaternion.
pub(crate) type ValueKey = (u8, u32, [u32; 4]);

/// The "time" of a node's `defaults` in a [`ValueKey`] (a NaN pattern no key time has).
pub(crate) const DEFAULTS: u32 = u32::MAX;

/// The `ValueKey` of a key time.
pub(crate) fn time_key(t: f32) -> ValueKey {
    (3, t.to_bits(), [t.to_bits(), 0, 0, 0])
}

/// The `ValueKey` of a channel value (3 or 4 numbers) on the key at time `at`, or in
/// `defaults` (`None`).
pub(crate) fn value_key(channel: usize, at: Option<f32>, values: &[f32]) -> ValueKey {
    let mut bits = [0u32; 4];
    for (b, v) in bits.iter_mut().zip(values) {
        *b = v.to_bits();
    }
    (channel as u8, at.map_or(DEFAULTS, f32::to_bits), bits)
}

/// Unknown fields of one key, verbatim and in order.
pub(crate) type KeyFields = Vec<(String, Box<RawValue>)>;

/// One node of the file as read.
#[derive(Debug, Clone)]
pub(crate) struct NodeLayout {
    /// The node's name.
    pub name: String,
    /// The node's fields in order (`name`, `defaults`, `keys` and unknown ones).
    pub fields: Vec<Slot>,
    /// The fields of `defaults` in order (`p`, `r`, `s` and unknown ones).
    pub defaults: Vec<Slot>,
    /// Which channels (position, rotation, scale) came from `defaults`.
    pub defaulted: [bool; 3],
    /// Unknown key fields (a defaulted channel's ignored per-key value among them), by key time
    /// bits, one entry per key at that time in order (`None` for keys that had none).
    pub key_fields: HashMap<u32, Vec<Option<KeyFields>>>,
    /// The text of every number array and time read, by the model value it became.
    pub texts: HashMap<ValueKey, Numbers>,
    /// The whole node, verbatim, when it had no keys (it gives no track, so it is written back
    /// as it was).
    pub empty: Option<Box<RawValue>>,
}

impl NodeLayout {
    /// The unknown fields of the `occurrence`-th key at time `t`, if any.
    pub(crate) fn key_fields(&self, t: f32, occurrence: usize) -> Option<&KeyFields> {
        self.key_fields
            .get(&t.to_bits())
            .and_then(|v| v.get(occurrence))
            .and_then(Option::as_ref)
    }

    /// How many unknown fields the node, its defaults and its keys hold.
    fn unknown_fields(&self) -> usize {
        let extra = |s: &Slot| matches!(s, Slot::Extra(..));
        self.fields.iter().filter(|s| extra(s)).count()
            + self.defaults.iter().filter(|s| extra(s)).count()
            + self
                .key_fields
                .values()
                .flatten()
                .flatten()
                .map(Vec::len)
                .sum::<usize>()
    }
}

/// How a PlayCanvas file was laid out, kept in the [`Document`](crate::formats::Document).
#[derive(Debug, Clone)]
pub(crate) struct PlayCanvasLayout {
    /// The top-level fields in order: `Known("animation")` and the others verbatim.
    pub top: Vec<Slot>,
    /// The names of the animation object's fields in order; unknown ones are in the clip's
    /// extras.
    pub animation: Vec<String>,
    /// The duration as written, if the file had one.
    pub duration: Option<(f64, Box<str>)>,
    /// The nodes, in file order.
    pub nodes: Vec<NodeLayout>,
    /// What came before the top-level object (byte order mark, whitespace).
    pub lead: String,
    /// What came after it (whitespace).
    pub trail: String,
}

impl PlayCanvasLayout {
    /// What writing the document in another format leaves behind: other top-level fields,
    /// unknown node, defaults and key fields, and nodes without keys. One line each.
    pub(crate) fn losses(&self) -> Vec<String> {
        let mut lost = Vec::new();
        let others: Vec<&str> = self
            .top
            .iter()
            .filter(|s| matches!(s, Slot::Extra(..)))
            .map(Slot::name)
            .collect();
        if !others.is_empty() {
            lost.push(format!(
                "the other top-level fields of the playcanvas file ({})",
                others.join(", ")
            ));
        }
        let unknown: usize = self.nodes.iter().map(NodeLayout::unknown_fields).sum();
        if unknown > 0 {
            lost.push(format!(
                "{unknown} unknown field(s) of PlayCanvas nodes, defaults and keys"
            ));
        }
        let empty: Vec<&str> = self
            .nodes
            .iter()
            .filter(|n| n.empty.is_some())
            .map(|n| n.name.as_str())
            .collect();
        if !empty.is_empty() {
            lost.push(format!(
                "{} PlayCanvas node(s) without keys ({})",
                empty.len(),
                empty.join(", ")
            ));
        }
        lost
    }
}
