//! The format registry: every file format clipscope knows, in one table ([`FORMATS`]). Each
//! entry names the format (short name, description, extensions, what a file holds), says where
//! content detection asks for it ([`FormatSpec::detect_rank`]), lists the facts rules depend on
//! ([`FormatSpec::properties`]) and the format's own rules ([`FormatSpec::rules`]), and points at
//! the format module's [`Codec`], which reads, lints and writes it.
//!
//! Every list of formats is derived from the table: [`Format::ALL`] (menu order, the table's),
//! the detection order, the order the formats' own rules are listed in and the extensions a
//! folder search or a file dialog looks for ([`clip_extensions`]). Everything outside this file
//! and the format modules asks the registry (through [`Format`]'s methods and the functions of
//! [`formats`](super)) instead of matching on the format. Adding a format is one module with a
//! [`Codec`] (and its rules) plus one [`Format`] variant and one [`FormatSpec`] entry here (see
//! `docs/ARCHITECTURE.md`, "A file format").

use std::sync::LazyLock;

use super::codec::Codec;
use super::property::Property;
use super::rule::Rule;
use super::{gltf, lottie, playcanvas, playcanvas_anim, threejs, threejs_legacy};

/// The file formats clipscope reads and writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// three.js JSON: `AnimationClip.toJSON` clips, arrays of them, or ObjectLoader files.
    ThreeJs,
    /// Legacy three.js JSON (model format 3): `bones` with `hierarchy` animations, or morph-target
    /// models such as the horse.
    ThreeJsLegacy,
    /// Lottie / Bodymovin JSON: layer transforms of each composition as clips.
    Lottie,
    /// PlayCanvas animation JSON (versions 3 and 4): nodes with Euler-degree keys.
    PlayCanvas,
    /// PlayCanvas anim clip JSON (the anim system's asset): inputs, outputs and curves.
    PlayCanvasAnim,
    /// glTF 2.0 JSON (`.gltf`), buffers embedded as base64 `data:` URIs when written.
    Gltf,
    /// Binary glTF 2.0 (`.glb`).
    Glb,
}

/// One registry entry: what clipscope knows about a format and the codec that handles it.
pub struct FormatSpec {
    /// The format.
    pub format: Format,
    /// The short name used on the command line and in reports (`threejs`).
    pub name: &'static str,
    /// A human-readable name for menus ("three.js AnimationClip JSON").
    pub description: &'static str,
    /// File extensions, without the dot; the first is the one files are written with.
    pub extensions: &'static [&'static str],
    /// Formats of one family store the same file in different containers (`.gltf` and `.glb`):
    /// converting between them keeps the file's layout.
    pub family: &'static str,
    /// A file holds a single clip, so a document with more is written one file per clip.
    pub holds_one_clip: bool,
    /// The writer has a second layout, chosen with
    /// [`WriteOptions::serialized`](super::WriteOptions::serialized): its label in the export
    /// dialog.
    pub serialized_layout: Option<&'static str>,
    /// The curves the format stores exactly (what a reduction may fit).
    pub curves: Curves,
    /// The unit lengths are in (`metre` for glTF, `pixel` for Lottie; three.js and PlayCanvas
    /// files do not say: clipscope takes metres unless told otherwise).
    pub length_unit: LengthUnit,
    /// Properties measured in units of their own (Lottie's degrees and percent), by property
    /// name; every other property is a 3D transform or a plain number.
    pub property_units: &'static [(&'static str, PropertyUnit)],
    /// Where content detection asks the format's codec: lower ranks first. Formats of one
    /// family share their codec (which tells them apart) and their rank; the format with the
    /// highest rank is the default, whose codec takes every file no other one claims.
    pub detect_rank: u8,
    /// The facts about the format that decide which clip rules apply to its files (rules say
    /// which they need instead of naming formats).
    pub properties: &'static [Property],
    /// The format's own rules (its raw-file rules and its reader's findings), kept in the
    /// format's module beside the code that emits them; formats of one family list the same.
    pub rules: &'static [Rule],
    /// Reads, lints and writes the format.
    pub(crate) codec: &'static dyn Codec,
}

/// The curves a format stores exactly.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Curves {
    /// Straight segments (slerp for rotations) and steps only.
    Linear,
    /// Cubic bezier (Hermite) segments too: three.js's bezier tracks, PlayCanvas's cubic curves.
    Bezier,
    /// Cubic Hermite segments whose interpolated quaternions the player scales back to unit
    /// length: glTF's CUBICSPLINE as three.js's GLTFLoader plays it.
    UnitHermite,
    /// Cubic segments eased between their two key values (Lottie): a component whose two keys
    /// are equal cannot bend between them.
    Eased,
}

/// The unit a format's lengths are in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LengthUnit {
    /// The format says metres (glTF).
    Metre,
    /// The format says pixels (Lottie).
    Pixel,
    /// The format does not say (three.js, PlayCanvas, legacy three.js): metres unless the user
    /// says otherwise.
    Unspecified,
}

/// What a property of a format with units of its own measures.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PropertyUnit {
    /// A length, in the format's length unit.
    Length,
    /// An angle in degrees.
    Degrees,
    /// A percentage.
    Percent,
}

/// Lottie's transform properties and their units.
const LOTTIE_UNITS: &[(&str, PropertyUnit)] = &[
    ("position", PropertyUnit::Length),
    ("anchor", PropertyUnit::Length),
    ("rotation", PropertyUnit::Degrees),
    ("rotationX", PropertyUnit::Degrees),
    ("rotationY", PropertyUnit::Degrees),
    ("rotationZ", PropertyUnit::Degrees),
    ("orientation", PropertyUnit::Degrees),
    ("skew", PropertyUnit::Degrees),
    ("skewAxis", PropertyUnit::Degrees),
    ("scale", PropertyUnit::Percent),
    ("opacity", PropertyUnit::Percent),
];

/// Every format, in menu order: the one table every list of formats is derived from.
pub static FORMATS: &[FormatSpec] = TABLE;

/// The registry's table (a constant, so that [`Format::ALL`] can be derived from it).
const TABLE: &[FormatSpec] = &[
    FormatSpec {
        format: Format::ThreeJs,
        name: "threejs",
        family: "threejs",
        description: "three.js AnimationClip JSON",
        extensions: &["json"],
        holds_one_clip: false,
        serialized_layout: None,
        curves: Curves::Bezier,
        length_unit: LengthUnit::Unspecified,
        property_units: &[],
        detect_rank: 5,
        properties: &[Property::KeysExact, Property::ThreeJsTrackNames],
        rules: threejs::RULES,
        codec: &threejs::CODEC,
    },
    FormatSpec {
        format: Format::ThreeJsLegacy,
        name: "threejs-legacy",
        family: "threejs-legacy",
        description: "legacy three.js JSON (model format 3)",
        extensions: &["json"],
        holds_one_clip: false,
        serialized_layout: Some("serialized (flat arrays per bone)"),
        curves: Curves::Linear,
        length_unit: LengthUnit::Unspecified,
        property_units: &[],
        detect_rank: 2,
        properties: &[Property::ThreeJsTrackNames],
        rules: &[],
        codec: &threejs_legacy::CODEC,
    },
    FormatSpec {
        format: Format::PlayCanvas,
        name: "playcanvas",
        family: "playcanvas",
        description: "PlayCanvas animation JSON",
        extensions: &["json"],
        holds_one_clip: true,
        serialized_layout: None,
        curves: Curves::Linear,
        length_unit: LengthUnit::Unspecified,
        property_units: &[],
        detect_rank: 3,
        properties: &[],
        rules: playcanvas::RULES,
        codec: &playcanvas::CODEC,
    },
    FormatSpec {
        format: Format::PlayCanvasAnim,
        name: "playcanvas-anim",
        family: "playcanvas-anim",
        description: "PlayCanvas anim clip JSON",
        extensions: &["json"],
        holds_one_clip: true,
        serialized_layout: None,
        curves: Curves::Bezier,
        length_unit: LengthUnit::Unspecified,
        property_units: &[],
        detect_rank: 4,
        properties: &[Property::KeysExact],
        rules: playcanvas_anim::RULES,
        codec: &playcanvas_anim::CODEC,
    },
    FormatSpec {
        format: Format::Lottie,
        name: "lottie",
        family: "lottie",
        description: "Lottie / Bodymovin JSON",
        extensions: &["json"],
        holds_one_clip: false,
        serialized_layout: None,
        curves: Curves::Eased,
        length_unit: LengthUnit::Pixel,
        property_units: LOTTIE_UNITS,
        detect_rank: 1,
        properties: &[Property::LayerTimeline],
        rules: lottie::RULES,
        codec: &lottie::CODEC,
    },
    FormatSpec {
        format: Format::Gltf,
        name: "gltf",
        family: "gltf",
        description: "glTF 2.0 (.gltf, embedded buffers)",
        extensions: &["gltf"],
        holds_one_clip: false,
        serialized_layout: None,
        curves: Curves::UnitHermite,
        length_unit: LengthUnit::Metre,
        property_units: &[],
        detect_rank: 0,
        properties: &[Property::KeysExact, Property::ChecksOwnKeys],
        rules: gltf::RULES,
        codec: &gltf::CODEC,
    },
    FormatSpec {
        format: Format::Glb,
        name: "glb",
        family: "gltf",
        description: "binary glTF 2.0 (.glb)",
        extensions: &["glb"],
        holds_one_clip: false,
        serialized_layout: None,
        curves: Curves::UnitHermite,
        length_unit: LengthUnit::Metre,
        property_units: &[],
        detect_rank: 0,
        properties: &[Property::KeysExact, Property::ChecksOwnKeys],
        rules: gltf::RULES,
        codec: &gltf::CODEC,
    },
];

/// The formats in the order content detection asks their codecs, one per family, by
/// [`FormatSpec::detect_rank`]: the most specific first (glTF's magic or top-level keys,
/// Lottie's composition fields, legacy model metadata, PlayCanvas's `animation` wrapper, an anim
/// clip's curves); the last, three.js JSON, takes everything else.
pub(crate) fn detection_order() -> &'static [&'static FormatSpec] {
    static ORDER: LazyLock<Vec<&'static FormatSpec>> = LazyLock::new(|| {
        let mut order: Vec<&'static FormatSpec> = FORMATS
            .iter()
            .enumerate()
            .filter(|(i, s)| FORMATS[..*i].iter().all(|o| o.family != s.family))
            .map(|(_, s)| s)
            .collect();
        order.sort_by_key(|s| s.detect_rank);
        order
    });
    &ORDER
}

/// The default format's entry: the last in detection order, whose codec reads every file no
/// other codec claims.
fn default_spec() -> &'static FormatSpec {
    detection_order()
        .last()
        .expect("the registry has formats (a unit test checks)")
}

/// The order the formats' own rules are listed in (one entry per family): the default format's
/// first, its reader's findings following the reading rules, then the others in detection
/// order.
pub(crate) fn rule_order() -> Vec<&'static FormatSpec> {
    let default = default_spec();
    std::iter::once(default)
        .chain(
            detection_order()
                .iter()
                .copied()
                .filter(|s| !std::ptr::eq(*s, default)),
        )
        .collect()
}

/// The file extensions of every format, each once, in menu order (`json`, `gltf`, `glb`): what a
/// folder search and the file dialogs look for.
pub fn clip_extensions() -> &'static [&'static str] {
    static EXTENSIONS: LazyLock<Vec<&'static str>> = LazyLock::new(|| {
        let mut all: Vec<&'static str> = Vec::new();
        for ext in FORMATS.iter().flat_map(|s| s.extensions) {
            if !all.contains(ext) {
                all.push(ext);
            }
        }
        all
    });
    &EXTENSIONS
}

/// Whether `ext` (without the dot, any case) is the extension of some format's files.
pub fn is_clip_extension(ext: &str) -> bool {
    clip_extensions()
        .iter()
        .any(|e| e.eq_ignore_ascii_case(ext))
}

/// The formats of `table`, in its order (for [`Format::ALL`], computed when compiling).
const fn formats_of<const N: usize>(table: &[FormatSpec]) -> [Format; N] {
    let mut out = [Format::ThreeJs; N];
    let mut i = 0;
    while i < N {
        out[i] = table[i].format;
        i += 1;
    }
    out
}

/// The registry entry of `format`.
pub fn spec(format: Format) -> &'static FormatSpec {
    FORMATS
        .iter()
        .find(|s| s.format == format)
        .expect("every format has a registry entry (a unit test checks)")
}

/// The format of `bytes` by content, and the codec that reads it.
pub(crate) fn detect(bytes: &[u8]) -> (Format, &'static dyn Codec) {
    detection_order()
        .iter()
        .find_map(|spec| spec.codec.detect(bytes).map(|f| (f, spec.codec)))
        .unwrap_or_else(|| {
            let default = default_spec();
            (default.format, default.codec)
        })
}

impl Format {
    /// Every format clipscope writes, in menu order (the registry table's order).
    pub const ALL: &[Format] = &formats_of::<{ TABLE.len() }>(TABLE);

    /// The format's registry entry.
    pub fn spec(self) -> &'static FormatSpec {
        spec(self)
    }

    /// A human-readable name for menus ("three.js AnimationClip JSON").
    pub fn description(self) -> &'static str {
        self.spec().description
    }

    /// The short name used on the command line and in reports (`threejs`).
    pub fn name(self) -> &'static str {
        self.spec().name
    }

    /// The usual file extension of the format, without the dot (`json`).
    pub fn extension(self) -> &'static str {
        self.spec().extensions[0]
    }

    /// Whether a file of this format holds a single clip (PlayCanvas animation JSON), so a
    /// document with more is written one file per clip.
    pub fn holds_one_clip(self) -> bool {
        self.spec().holds_one_clip
    }

    /// The format with short name `name` (see [`Format::name`]), if any.
    pub fn from_name(name: &str) -> Option<Format> {
        FORMATS.iter().find(|s| s.name == name).map(|s| s.format)
    }

    /// The one format whose files have extension `ext` (case-insensitive, without the dot),
    /// if only one has it (`glb`, `gltf`; `json` is shared, so content decides).
    pub fn from_extension(ext: &str) -> Option<Format> {
        let mut found = FORMATS
            .iter()
            .filter(|s| s.extensions.iter().any(|e| e.eq_ignore_ascii_case(ext)));
        match (found.next(), found.next()) {
            (Some(one), None) => Some(one.format),
            _ => None,
        }
    }

    /// Whether a file of this format and one of `other` are the same file in different
    /// containers (`.gltf` and `.glb`), or the same format.
    pub fn same_family(self, other: Format) -> bool {
        self.spec().family == other.spec().family
    }

    /// The codec that reads and writes this format.
    pub(crate) fn codec(self) -> &'static dyn Codec {
        self.spec().codec
    }
}

impl std::fmt::Display for Format {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_format_has_exactly_one_entry() {
        for &f in Format::ALL {
            assert_eq!(FORMATS.iter().filter(|s| s.format == f).count(), 1, "{f}");
            assert_eq!(spec(f).format, f);
            assert_eq!(Format::from_name(f.name()), Some(f));
        }
        let menu_order: Vec<Format> = FORMATS.iter().map(|s| s.format).collect();
        assert_eq!(menu_order, Format::ALL, "ALL lists the table in its order");
    }

    #[test]
    fn the_derived_orders_are_the_ones_clipscope_always_had() {
        use Format::*;
        assert_eq!(
            Format::ALL,
            [
                ThreeJs,
                ThreeJsLegacy,
                PlayCanvas,
                PlayCanvasAnim,
                Lottie,
                Gltf,
                Glb
            ]
        );
        let names = |specs: &[&FormatSpec]| specs.iter().map(|s| s.name).collect::<Vec<_>>();
        assert_eq!(
            names(detection_order()),
            [
                "gltf",
                "lottie",
                "threejs-legacy",
                "playcanvas",
                "playcanvas-anim",
                "threejs"
            ]
        );
        assert_eq!(default_spec().format, ThreeJs);
        assert_eq!(
            names(&rule_order()),
            [
                "threejs",
                "gltf",
                "lottie",
                "threejs-legacy",
                "playcanvas",
                "playcanvas-anim"
            ]
        );
        assert_eq!(clip_extensions(), ["json", "gltf", "glb"]);
        assert!(is_clip_extension("GLB") && !is_clip_extension("txt"));
    }

    /// What adding a format costs: no code of the workspace outside the registry and the
    /// format's own module names a format (rule applicability, extension lists, detection and
    /// menu order all come from the table), except the default format, in which new documents
    /// are made. So a new format is its module, its `Format` variant and `FormatSpec` entry
    /// here, the module's `pub mod` line and its tests.
    #[test]
    fn a_format_is_named_only_by_its_module_and_the_registry() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let mut files = clipscope_test_support::rust_sources(&root.join("src"));
        files.extend(clipscope_test_support::rust_sources(&root.join("crates")));
        let default = default_spec().format;
        let mut scanned = 0;
        for file in &files {
            let path = file.to_string_lossy().replace('\\', "/");
            if path.ends_with("formats/registry.rs") || path.contains("/tests/") {
                continue;
            }
            let text = std::fs::read_to_string(file).unwrap_or_default();
            let code = text.split("#[cfg(test)]").next().unwrap_or("");
            scanned += 1;
            for spec in FORMATS.iter().filter(|s| s.format != default) {
                let own = format!("/formats/{}/", spec.family.replace('-', "_"));
                let named = format!("Format::{:?}", spec.format);
                let elsewhere = code
                    .lines()
                    .filter(|l| !l.trim_start().starts_with("//"))
                    .any(|l| {
                        l.match_indices(&named).any(|(i, _)| {
                            !l[i + named.len()..].starts_with(|c: char| c.is_alphanumeric())
                        })
                    });
                assert!(
                    !elsewhere || path.contains(&own),
                    "{path} names {named}: only the registry and {own} may"
                );
            }
        }
        assert!(
            scanned > 100,
            "only {scanned} files scanned: the scan is broken"
        );
    }

    #[test]
    fn formats_of_one_family_share_their_detection_rank() {
        for a in FORMATS.iter() {
            for b in FORMATS.iter().filter(|b| b.family == a.family) {
                assert_eq!(a.detect_rank, b.detect_rank, "{} and {}", a.name, b.name);
            }
        }
        let last = default_spec();
        assert!(
            FORMATS
                .iter()
                .all(|s| s.family == last.family || s.detect_rank < last.detect_rank),
            "the default format is asked last"
        );
        // The default codec claims whatever is left.
        assert_eq!(last.codec.detect(b"not json"), Some(last.format));
    }

    #[test]
    fn extensions_decide_only_where_unique() {
        assert_eq!(Format::from_extension("glb"), Some(Format::Glb));
        assert_eq!(Format::from_extension("GLTF"), Some(Format::Gltf));
        assert_eq!(Format::from_extension("json"), None);
        assert_eq!(Format::from_extension("txt"), None);
    }

    /// A small document every format can hold: one clip moving one node.
    fn sample() -> crate::formats::Document {
        use crate::model::{Clip, Track, TrackKind};
        let position = Track::numeric(
            "box.position",
            TrackKind::Vector,
            vec![0.0, 0.5, 1.0],
            vec![0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 2.0, 4.0, 6.0],
        );
        crate::formats::Document::new(
            Format::ThreeJs,
            vec![Clip::new("move", 1.0, vec![position])],
        )
    }

    #[test]
    fn every_format_round_trips_through_the_registry() {
        use crate::formats::{WriteOptions, read_bytes, write_bytes};
        for &f in Format::ALL {
            let doc = sample().converted_to(f);
            let bytes = write_bytes(&doc, &WriteOptions::default());
            assert_eq!(detect(&bytes).0, f, "{f} is detected by content");
            let back = read_bytes(&bytes, std::path::Path::new("x"))
                .unwrap_or_else(|e| panic!("{f}: {e}"));
            assert_eq!(back.format, f);
            assert_eq!(back.clips.len(), 1, "{f}");
        }
    }

    #[test]
    fn every_reader_reports_progress_and_honours_cancel() {
        use std::sync::Arc;

        use crate::formats::codec::Input;
        use crate::formats::{
            LoadProgress, ReadOptions, WriteOptions, read_bytes_with, write_bytes,
        };
        for &f in Format::ALL {
            let bytes = write_bytes(&sample().converted_to(f), &WriteOptions::default());
            let file = std::path::Path::new("x");
            // A read that runs to the end reports all of the file.
            let progress = Arc::new(LoadProgress::new());
            let opts = ReadOptions::default().with_progress(progress.clone());
            read_bytes_with(&bytes, file, &opts).unwrap_or_else(|e| panic!("{f}: {e}"));
            assert_eq!(progress.fraction(), 1.0, "{f}");
            // The reader itself stops when cancelled (not only the registry before it starts).
            let cancelled = LoadProgress::new();
            cancelled.cancel();
            let input = Input {
                bytes: &bytes,
                file,
                options: &opts,
                progress: &cancelled,
                detached_bin: None,
            };
            let e = f.codec().read(&input).expect_err("a cancelled read fails");
            assert!(e.is_cancelled(), "{f}: {e}");
            assert_eq!(e.to_string(), "x: cancelled");
        }
    }

    #[test]
    fn detection_falls_back_to_threejs() {
        assert_eq!(detect(b"{\"tracks\":[]}").0, Format::ThreeJs);
        assert_eq!(detect(b"glTF\x02\0\0\0").0, Format::Glb);
        assert_eq!(detect(b"not json").0, Format::ThreeJs);
    }
}
