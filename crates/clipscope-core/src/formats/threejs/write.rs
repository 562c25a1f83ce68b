//! Writing model clips as three.js JSON, in the shape the document was read in.
//!
//! Clips use `AnimationClip.toJSON`'s key order `{name, duration, tracks, uuid, blendMode,
//! userData}` and tracks `KeyframeTrack.toJSON`'s `{name, times, values, [interpolation],
//! [settings], type}`, each followed by the fields the reader kept as extras. `userData` is a
//! JSON string like three.js writes it, `fps` is never written (times are already in seconds),
//! and an object file gets its `animations` replaced while every other top-level field is copied
//! byte for byte. Numbers go through [`number`](crate::formats::json::number); numeric arrays are
//! written straight into the output buffer, tracks of big documents on several threads.

use std::collections::BTreeMap;
use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;

use serde_json::value::RawValue;

use super::schema::Layout;
use crate::formats::json::number::{write_f64, write_u64};
use crate::formats::json::{Out, write_str};
use crate::formats::{Document, WriteOptions};
use crate::model::{Clip, Track};

/// Documents with more keys than this write their tracks in parallel.
const PARALLEL_KEYS: usize = 50_000;

/// The whole document as three.js JSON.
pub(crate) fn write(doc: &Document, opts: &WriteOptions) -> Vec<u8> {
    let out = Out::new(opts, 0, capacity(doc));
    let pieces = write_document(out, doc, opts).unwrap_or_default();
    if pieces.len() == 1 {
        return pieces.into_iter().next().unwrap_or_default();
    }
    pieces.concat()
}

/// Writes the whole document as three.js JSON to `to`, piece by piece as the pieces are
/// finished (large documents are written track by track in parallel, so writing overlaps
/// serializing and the text is never held in memory twice).
pub(crate) fn write_to(
    doc: &Document,
    opts: &WriteOptions,
    to: &mut dyn Write,
) -> std::io::Result<()> {
    let out = Out::streaming(opts, capacity(doc), to);
    write_document(out, doc, opts).map(|_| ())
}

/// Whether a document is big enough to write its tracks in parallel.
fn is_large(doc: &Document) -> bool {
    doc.clips.iter().map(Clip::key_count).sum::<usize>() > PARALLEL_KEYS
}

/// A first buffer size: the whole text for small documents, the clip headers for large ones.
fn capacity(doc: &Document) -> usize {
    if is_large(doc) {
        4096
    } else {
        doc.clips.iter().map(Clip::key_count).sum::<usize>() * 12 + 256
    }
}

/// Writes the document into `out` and finishes it.
fn write_document(
    mut out: Out<'_>,
    doc: &Document,
    opts: &WriteOptions,
) -> std::io::Result<Vec<Vec<u8>>> {
    let parallel = is_large(doc);
    let natural = if doc.clips.len() == 1 {
        Layout::Clip
    } else {
        Layout::Array
    };
    let layout = match doc.source::<Layout>() {
        Some(Layout::Clip) if doc.clips.len() != 1 => &Layout::Array,
        Some(layout) => layout,
        None => &natural,
    };
    match layout {
        Layout::Clip => {
            if let Some(clip) = doc.clips.first() {
                write_clip(&mut out, clip, opts, parallel);
            }
        }
        Layout::Array => write_clip_array(&mut out, &doc.clips, opts, parallel),
        Layout::Scene {
            fields,
            animations_at,
            geometry_clips,
            object_clips,
        } => {
            // Unedited geometry-level and per-object clips stay where they were; edited ones
            // are written as a top-level `animations` array and taken out of the geometries
            // and objects.
            let embedded = geometry_clips.len() + object_clips.len();
            let in_place = kept_in_place(doc).is_some();
            let strip = |key: &str, strip: fn(&RawValue) -> Option<Box<RawValue>>| {
                (embedded > 0 && !in_place)
                    .then(|| fields.iter().find(|(k, _)| k == key))
                    .flatten()
                    .and_then(|(_, v)| strip(v))
            };
            let geometries = strip("geometries", super::geometry_clips::strip);
            let object = strip("object", super::object_clips::strip);
            out.open(b'{');
            let at = match animations_at {
                Some(i) => Some(*i),
                None if !doc.clips.is_empty() && !in_place => Some(fields.len()),
                None => None,
            };
            for i in 0..=fields.len() {
                if at == Some(i) {
                    out.key("animations");
                    write_clip_array(&mut out, &doc.clips, opts, parallel);
                }
                if let Some((k, v)) = fields.get(i) {
                    out.key(k);
                    match (&geometries, &object) {
                        (Some(s), _) if k == "geometries" => out.raw(s),
                        (_, Some(s)) if k == "object" => out.raw(s),
                        _ => out.raw(v),
                    }
                }
            }
            out.close(b'}');
        }
    }
    if opts.pretty {
        out.buf.push(b'\n');
    }
    out.finish()
}

/// `[clip, clip, …]`.
fn write_clip_array(out: &mut Out, clips: &[Clip], opts: &WriteOptions, parallel: bool) {
    out.open(b'[');
    for clip in clips {
        out.next();
        write_clip(out, clip, opts, parallel);
    }
    out.close(b']');
}

/// Serializes `tracks` on worker threads that take the next track in file order, and hands the
/// finished pieces to `out` in order as soon as they are ready, so the writer streams while
/// the workers keep serializing.
fn write_in_parallel(
    out: &mut Out<'_>,
    tracks: &[Track],
    write_one: impl Fn((usize, &Track)) -> Vec<u8> + Sync,
) {
    let next = AtomicUsize::new(0);
    let (sender, receiver) = mpsc::channel::<(usize, Vec<u8>)>();
    let workers = std::thread::available_parallelism()
        .map_or(2, usize::from)
        .min(tracks.len());
    std::thread::scope(|scope| {
        for _ in 0..workers {
            let sender = sender.clone();
            let (next, write_one) = (&next, &write_one);
            scope.spawn(move || {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(track) = tracks.get(i) else { break };
                    if sender.send((i, write_one((i, track)))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(sender);
        let mut waiting: BTreeMap<usize, Vec<u8>> = BTreeMap::new();
        let mut wanted = 0;
        for (i, piece) in receiver {
            waiting.insert(i, piece);
            while let Some(piece) = waiting.remove(&wanted) {
                out.part(piece);
                wanted += 1;
            }
        }
    });
}

/// One clip in `AnimationClip.toJSON` order, then its extras.
fn write_clip(out: &mut Out, clip: &Clip, opts: &WriteOptions, parallel: bool) {
    out.open(b'{');
    out.key("name");
    write_str(&mut out.buf, &clip.name);
    out.key("duration");
    write_f64(&mut out.buf, clip.duration, opts.precision);
    out.key("tracks");
    out.open(b'[');
    let depth = out.depth();
    let write_one = |(i, track): (usize, &Track)| {
        let mut o = Out::new(
            opts,
            depth,
            track.times.len() * (1 + track.value_size()) * 12 + 64,
        );
        o.set_first(i == 0); // the comma before every track but the first
        o.next();
        write_track(&mut o, track);
        o.buf
    };
    if parallel && clip.tracks.len() > 1 {
        write_in_parallel(out, &clip.tracks, write_one);
        out.set_first(clip.tracks.is_empty());
    } else {
        for track in &clip.tracks {
            out.next();
            write_track(out, track);
        }
    }
    out.close(b']');
    if let Some(uuid) = &clip.uuid {
        out.key("uuid");
        write_str(&mut out.buf, uuid);
    }
    out.key("blendMode");
    write_u64(&mut out.buf, clip.blend_mode.code() as u64);
    out.key("userData");
    let user_data =
        serde_json::to_string(&clip.user_data_with_layers()).unwrap_or_else(|_| "{}".to_string());
    write_str(&mut out.buf, &user_data);
    out.extras(
        &clip.extras,
        &[
            "name",
            "duration",
            "tracks",
            "uuid",
            "blendMode",
            "userData",
            "fps",
        ],
    );
    out.close(b'}');
}

/// One track in `KeyframeTrack.toJSON` order, then its extras.
fn write_track(out: &mut Out, track: &Track) {
    out.open(b'{');
    out.key("name");
    write_str(&mut out.buf, &track.name);
    out.key("times");
    out.f32_array(&track.times);
    out.key("values");
    out.values(&track.values);
    if track.interpolation != track.kind.default_interpolation() {
        out.key("interpolation");
        write_u64(&mut out.buf, track.interpolation.code() as u64);
    }
    if let Some(tangents) = &track.tangents {
        out.key("settings");
        out.open(b'{');
        out.key("inTangents");
        out.f32_array(&tangents.in_tangents);
        out.key("outTangents");
        out.f32_array(&tangents.out_tangents);
        out.close(b'}');
    }
    out.key("type");
    write_str(&mut out.buf, track.kind.type_name());
    let settings_written = track.tangents.is_some();
    out.extras(
        &track.extras,
        if settings_written {
            &[
                "name",
                "times",
                "values",
                "interpolation",
                "settings",
                "type",
                "keys",
            ]
        } else {
            &["name", "times", "values", "interpolation", "type", "keys"]
        },
    );
    out.close(b'}');
}

/// When `doc` is an io_three 4.3 object file whose geometry-level and per-object clips are
/// written back where they were (unedited), how many of its clips are each: `(geometry,
/// object)`, in that order at the start of `doc.clips`.
pub(crate) fn kept_in_place(doc: &Document) -> Option<(usize, usize)> {
    let Some(Layout::Scene {
        geometry_clips,
        object_clips,
        ..
    }) = doc.source::<Layout>()
    else {
        return None;
    };
    let embedded = geometry_clips.len() + object_clips.len();
    (embedded > 0
        && doc.clips.len() == embedded
        && doc.clips[..geometry_clips.len()] == geometry_clips[..]
        && doc.clips[geometry_clips.len()..] == object_clips[..])
        .then_some((geometry_clips.len(), object_clips.len()))
}

#[cfg(test)]
mod tests {
    use serde_json::value::RawValue;

    use std::path::{Path, PathBuf};

    use super::*;
    use crate::formats::{Format, read_bytes, read_file, write_bytes, write_file};
    use crate::model::{BlendMode, Interpolation, Tangents, TrackKind, Values};
    use clipscope_test_support::{sample_data, sample_data_root};

    fn data(name: &str) -> PathBuf {
        sample_data_root().join("threejs").join(name)
    }

    fn text(doc: &Document, opts: &WriteOptions) -> String {
        String::from_utf8(write_bytes(doc, opts)).unwrap()
    }

    fn reread(doc: &Document, opts: &WriteOptions) -> Document {
        read_bytes(&write_bytes(doc, opts), Path::new("out.json")).unwrap_or_else(|e| panic!("{e}"))
    }

    const SPEC_CLIP: &str = r#"{"name":"c","duration":3,"tracks":[{"name":".x","times":[0,2],"values":[0,1],"type":"number"},{"name":".p","times":[0.5,3],"values":[0,0,0,1,1,1],"type":"vector"}],"uuid":"0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f9","blendMode":2500,"userData":"{}"}"#;

    #[test]
    fn spec_clip_is_written_back_byte_for_byte() {
        let doc = read_bytes(SPEC_CLIP.as_bytes(), Path::new("c.json")).unwrap();
        assert_eq!(text(&doc, &WriteOptions::default()), SPEC_CLIP);
    }

    #[test]
    fn tojson_key_order_interpolation_settings_and_kinds() {
        let mut smooth = Track::numeric(".s", TrackKind::Number, vec![0.0, 0.1], vec![1.0, -0.0]);
        smooth.interpolation = Interpolation::Smooth;
        let mut bez = Track::numeric(
            ".material.opacity",
            TrackKind::Number,
            vec![0.0, 1.0],
            vec![0.0, 10.0],
        );
        bez.interpolation = Interpolation::Bezier;
        bez.tangents = Some(Tangents {
            in_tangents: vec![0.0, 0.0, -0.25, -8.0],
            out_tangents: vec![0.25, 8.0, 0.0, 0.0],
            modes: Vec::new(),
        });
        let flags = Track::new(
            ".visible",
            TrackKind::Bool,
            vec![0.0, 1.0],
            Values::Bools(vec![true, false]),
        );
        let names = Track::new(
            ".name",
            TrackKind::String,
            vec![0.0],
            Values::Strings(vec!["a\"b\n".into()]),
        );
        let mut clip = Clip::new("k", -1.0, vec![smooth, bez, flags, names]);
        clip.uuid = None;
        clip.blend_mode = BlendMode::Additive;
        clip.user_data = serde_json::json!({"a": "x"});
        let doc = Document::new(Format::ThreeJs, vec![clip]);
        assert_eq!(
            text(&doc, &WriteOptions::default()),
            concat!(
                r#"{"name":"k","duration":1,"tracks":["#,
                r#"{"name":".s","times":[0,0.1],"values":[1,-0],"interpolation":2302,"type":"number"},"#,
                r#"{"name":".material.opacity","times":[0,1],"values":[0,10],"interpolation":2303,"#,
                r#""settings":{"inTangents":[0,0,-0.25,-8],"outTangents":[0.25,8,0,0]},"type":"number"},"#,
                r#"{"name":".visible","times":[0,1],"values":[true,false],"type":"bool"},"#,
                r#"{"name":".name","times":[0],"values":["a\"b\n"],"type":"string"}],"#,
                r#""blendMode":2501,"userData":"{\"a\":\"x\"}"}"#
            )
        );
        let back = reread(&doc, &WriteOptions::default());
        assert_eq!(back.clips, doc.clips);
    }

    #[test]
    fn pretty_indents_objects_and_keeps_numeric_arrays_on_one_line() {
        let doc = read_bytes(SPEC_CLIP.as_bytes(), Path::new("c.json")).unwrap();
        let opts = WriteOptions {
            pretty: true,
            precision: None,
            serialized: false,
            ..Default::default()
        };
        let expected = r#"{
  "name": "c",
  "duration": 3,
  "tracks": [
    {
      "name": ".x",
      "times": [0, 2],
      "values": [0, 1],
      "type": "number"
    },
    {
      "name": ".p",
      "times": [0.5, 3],
      "values": [0, 0, 0, 1, 1, 1],
      "type": "vector"
    }
  ],
  "uuid": "0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f9",
  "blendMode": 2500,
  "userData": "{}"
}
"#;
        assert_eq!(text(&doc, &opts), expected);
        assert_eq!(reread(&doc, &opts).clips, doc.clips);
        let empty = Document::new(Format::ThreeJs, vec![]);
        assert_eq!(text(&empty, &opts), "[]\n");
        assert_eq!(text(&empty, &WriteOptions::default()), "[]");
    }

    #[test]
    fn precision_rounds_numbers() {
        let doc = read_bytes(
            br#"[{"name":"p","duration":1.23456789,"tracks":[{"name":".x","times":[0,0.333333343],"values":[1.23456,2],"type":"number"}]}]"#,
            Path::new("p.json"),
        )
        .unwrap();
        let opts = WriteOptions {
            precision: Some(3),
            pretty: false,
            serialized: false,
            ..Default::default()
        };
        let out = text(&doc, &opts);
        assert!(out.starts_with(r#"[{"name":"p","duration":1.235,"tracks":[{"name":".x","times":[0,0.333],"values":[1.235,2],"#), "{out}");
    }

    #[test]
    fn real_files_round_trip_and_keep_other_fields_verbatim() {
        if sample_data("threejs").is_none() {
            return;
        }
        for name in [
            "scene-animation.json",
            "tri12-butterfly-object-1.json",
            "tri12-butterfly-object-2.json",
            "blend-animation.json",
        ] {
            let path = data(name);
            let doc = read_file(&path).unwrap_or_else(|e| panic!("{e}"));
            let original = std::fs::read(&path).unwrap();
            for opts in [
                WriteOptions::default(),
                WriteOptions {
                    pretty: true,
                    precision: None,
                    serialized: false,
                    ..Default::default()
                },
            ] {
                let out = write_bytes(&doc, &opts);
                let back = read_bytes(&out, &path).unwrap_or_else(|e| panic!("{name}: {e}"));
                assert_eq!(back.clips, doc.clips, "{name}");
                // Every top-level field but `animations` is byte-identical, in the same order.
                let keys = |bytes: &[u8]| -> Vec<String> {
                    let map: serde_json::Map<String, serde_json::Value> =
                        serde_json::from_slice(bytes).unwrap();
                    map.keys().cloned().collect()
                };
                assert_eq!(keys(&original), keys(&out), "{name}");
                let raw_a: std::collections::HashMap<String, &RawValue> =
                    serde_json::from_slice(&original).unwrap();
                let raw_b: std::collections::HashMap<String, &RawValue> =
                    serde_json::from_slice(&out).unwrap();
                for (k, v) in &raw_a {
                    if k != "animations" {
                        assert_eq!(v.get(), raw_b[k].get(), "{name}: {k}");
                    }
                }
            }
        }
    }

    #[test]
    fn output_is_smaller_than_full_double_output() {
        if sample_data("threejs").is_none() {
            return;
        }
        let doc = read_file(&data("scene-animation.json")).unwrap();
        let ours = write_bytes(&doc, &WriteOptions::default());
        // three.js writes each f32 widened to a double: `0.10000000149011612`.
        let mut value: serde_json::Value = serde_json::from_slice(&ours).unwrap();
        for clip in value["animations"].as_array_mut().unwrap() {
            for track in clip["tracks"].as_array_mut().unwrap() {
                for key in ["times", "values"] {
                    for n in track[key].as_array_mut().unwrap() {
                        let x = n.as_f64().unwrap() as f32 as f64;
                        *n = serde_json::Value::from(x);
                    }
                }
            }
        }
        let full = serde_json::to_vec(&value).unwrap();
        assert!(
            ours.len() * 10 < full.len() * 9,
            "{} vs {}",
            ours.len(),
            full.len()
        );
    }

    #[test]
    fn write_file_is_atomic_and_leaves_the_input_alone() {
        if sample_data("threejs").is_none() {
            return;
        }
        let dir = tempfile::tempdir().unwrap();
        let input = data("tri12-butterfly-object-1.json");
        let before = std::fs::read(&input).unwrap();
        let doc = read_file(&input).unwrap();
        let out = dir.path().join("out.json");
        std::fs::write(&out, b"old").unwrap();
        write_file(&doc, &out, &WriteOptions::default()).unwrap();
        assert_eq!(read_file(&out).unwrap().clips, doc.clips);
        assert_eq!(std::fs::read(&input).unwrap(), before);
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn big_documents_write_tracks_in_parallel_identically() {
        let tracks: Vec<Track> = (0..8)
            .map(|i| {
                let n = 10_000;
                let times = (0..n).map(|k| k as f32 / 30.0).collect();
                let values = (0..n * 3)
                    .map(|k| (k as f32 * 0.37 + i as f32).sin())
                    .collect();
                Track::numeric(format!("j{i}.position"), TrackKind::Vector, times, values)
            })
            .collect();
        let doc = Document::new(Format::ThreeJs, vec![Clip::new("big", -1.0, tracks)]);
        for pretty in [false, true] {
            let opts = WriteOptions {
                pretty,
                precision: None,
                serialized: false,
                ..Default::default()
            };
            let parallel = write_bytes(&doc, &opts);
            let mut serial = Out::new(&opts, 0, 0);
            write_clip(&mut serial, &doc.clips[0], &opts, false);
            if pretty {
                serial.buf.push(b'\n');
            }
            assert_eq!(parallel, serial.buf);
            assert_eq!(reread(&doc, &opts).clips, doc.clips);
        }
    }
}
