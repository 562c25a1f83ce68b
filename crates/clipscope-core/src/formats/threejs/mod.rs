//! three.js JSON: `AnimationClip.toJSON` clips, arrays of clips, and ObjectLoader object/scene
//! files with a top-level `animations` array (spec §3, §5), and io_three 4.3 object files whose
//! morph animations sit in the geometries ([`geometry_clips`]) or whose clips sit on the
//! objects they move ([`object_clips`]).
//!
//! Split like linebender's velato: [`schema`] mirrors the file (borrowing the text), [`read`]
//! converts it into model clips with three.js's parsing rules, and [`write`](mod@write) turns clips back
//! into the same shape (three.js `toJSON` key order, other top-level fields verbatim);
//! [`codec`] is its entry in the format registry, and [`rules`] holds the registry entries of the
//! reader's findings.

pub(crate) mod codec;
pub(crate) mod geometry_clips;
pub(crate) mod object_clips;
pub(crate) mod object_tree;
pub(crate) mod read;
pub(crate) mod rules;
pub(crate) mod schema;
pub(crate) mod write;

pub(crate) use codec::CODEC;
pub(crate) use rules::RULES;
pub(crate) use schema::Layout;

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    use crate::formats::{Format, read_file};
    use crate::model::{BlendMode, Interpolation, TrackKind};
    use clipscope_test_support::{sample_data, sample_data_root};

    fn data(name: &str) -> PathBuf {
        sample_data_root().join("threejs").join(name)
    }

    #[test]
    fn scene_animation_keys_at_29_fps() {
        if sample_data("threejs").is_none() {
            return;
        }
        let doc = read_file(&data("scene-animation.json")).unwrap();
        assert_eq!(doc.format, Format::ThreeJs);
        assert_eq!(doc.clips.len(), 1);
        let clip = &doc.clips[0];
        assert_eq!(clip.name, "default");
        assert_eq!(clip.uuid, None);
        let s = |frame: f32| (frame as f64 * (1.0 / 29.0)) as f32;
        let summary: Vec<_> = clip
            .tracks
            .iter()
            .map(|t| (t.name.as_str(), t.kind, t.len()))
            .collect();
        assert_eq!(summary.len(), 9);
        assert_eq!(summary[0], ("cylinder001.position", TrackKind::Vector, 140));
        assert_eq!(
            summary[2],
            ("cylinder001.quaternion", TrackKind::Quaternion, 140)
        );
        assert_eq!(summary[3], ("cylinder002.position", TrackKind::Vector, 137));
        assert_eq!(
            summary[8],
            ("cylinder003.quaternion", TrackKind::Quaternion, 5)
        );
        let first = &clip.tracks[0];
        assert_eq!(first.times[0].to_bits(), s(5.0).to_bits());
        assert_eq!(first.times[1].to_bits(), s(6.0).to_bits());
        assert_eq!(
            first.values.as_numbers().unwrap()[..3],
            [0.0, 38.7012, -1.71412]
        );
        assert_eq!(first.interpolation, Interpolation::Linear);
        assert_eq!(clip.tracks[6].times[0], 0.0);
        assert_eq!(clip.tracks[6].values.as_numbers().unwrap()[0], -2e-6);
        // No duration in the file: reset from the scaled times (frame 145).
        assert_eq!(clip.duration, s(145.0) as f64);
    }

    #[test]
    fn butterfly_object_files() {
        if sample_data("threejs").is_none() {
            return;
        }
        for name in [
            "tri12-butterfly-object-1.json",
            "tri12-butterfly-object-2.json",
        ] {
            let doc = read_file(&data(name)).unwrap();
            assert_eq!(doc.clips.len(), 1, "{name}");
            let clip = &doc.clips[0];
            assert_eq!(clip.name, "flap");
            assert_eq!(clip.duration, 1.0);
            assert_eq!(
                clip.uuid.as_deref(),
                Some("024eb45e-f782-443b-9fde-522a2897b585")
            );
            assert_eq!(clip.blend_mode, BlendMode::Normal);
            let t = &clip.tracks[0];
            assert_eq!(t.name, ".morphTargetInfluences[0]");
            assert_eq!(t.times, [0.0, 0.25, 0.5, 0.75, 1.0]);
            assert_eq!(t.values.as_numbers().unwrap(), [0.0, 0.3, 0.5, 0.15, 0.0]);
        }
    }

    #[test]
    fn legacy_files_go_to_the_legacy_reader_and_object_files_stay_here() {
        if sample_data("threejs").is_none() {
            return;
        }
        let doc = read_file(&data("simple-skinned.json")).unwrap();
        assert_eq!(doc.format, Format::ThreeJsLegacy);
        let doc = read_file(&data("blend-animation.json")).unwrap();
        assert_eq!(doc.format, Format::ThreeJs);
        assert_eq!(doc.clips.len(), 1, "the geometry-level clip");
        for name in ["flamingo.json", "horse.json", "parrot.json", "stork.json"] {
            let doc = read_file(&data(name)).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(doc.format, Format::ThreeJsLegacy, "{name}");
        }
        let e = read_file(Path::new("/nonexistent/x.json"))
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("/nonexistent/x.json: cannot read file: "),
            "{e}"
        );
    }
}
