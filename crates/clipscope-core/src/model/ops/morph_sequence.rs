//! Morph-target sequences: clips that blend through numbered morph targets one frame each.
//!
//! three.js's `AnimationClip.CreateFromMorphTargetSequence` gives target `i` of `n` a number
//! track on `.morphTargetInfluences[name]` that is 1 at frame `i` and 0 at the neighbouring
//! frames (wrapping around), optionally closing the loop with an extra key at frame `n`, then
//! scales frames to seconds with `1 / fps` (rounded to f32). `CreateClipsFromMorphTargetSequences`
//! groups target names like `walk_001, walk_002, run_001` by their prefix first.

use crate::model::{Clip, Track, TrackKind};

/// A clip that steps through `target_names` at `fps` frames per second (three.js
/// `AnimationClip.CreateFromMorphTargetSequence`). Unless `no_loop`, tracks with a key at frame
/// 0 get one more key at frame `n` so the clip loops seamlessly. The duration is the last key.
pub fn create_from_morph_target_sequence(
    name: impl Into<String>,
    target_names: &[String],
    fps: f64,
    no_loop: bool,
) -> Clip {
    let n = target_names.len();
    let mut tracks = Vec::with_capacity(n);
    for (i, target) in target_names.iter().enumerate() {
        let frames = [(i + n - 1) % n, i, (i + 1) % n];
        let weights = [0.0f32, 1.0, 0.0];
        // getKeyframeOrder: a stable sort of the indices by time.
        let mut order = [0usize, 1, 2];
        order.sort_by_key(|&k| frames[k]);
        let mut times: Vec<f32> = order.iter().map(|&k| frames[k] as f32).collect();
        let mut values: Vec<f32> = order.iter().map(|&k| weights[k]).collect();
        if !no_loop && times[0] == 0.0 {
            times.push(n as f32);
            values.push(values[0]);
        }
        let mut track = Track::numeric(
            format!(".morphTargetInfluences[{target}]"),
            TrackKind::Number,
            times,
            values,
        );
        track.scale(1.0 / fps);
        tracks.push(track);
    }
    Clip::new(name, -1.0, tracks)
}

/// One clip per group of numbered morph targets (three.js
/// `AnimationClip.CreateClipsFromMorphTargetSequences`): names are grouped by
/// [`morph_sequence_prefix`], groups come out in order of first appearance, and names without
/// a number are ignored.
pub fn create_clips_from_morph_target_sequences(
    target_names: &[String],
    fps: f64,
    no_loop: bool,
) -> Vec<Clip> {
    let mut groups: Vec<(&str, Vec<String>)> = Vec::new();
    let mut index: std::collections::HashMap<&str, usize> = Default::default();
    for name in target_names {
        let Some(prefix) = morph_sequence_prefix(name) else {
            continue;
        };
        match index.get(prefix) {
            Some(&g) => groups[g].1.push(name.clone()),
            None => {
                index.insert(prefix, groups.len());
                groups.push((prefix, vec![name.clone()]));
            }
        }
    }
    groups
        .into_iter()
        .map(|(prefix, members)| create_from_morph_target_sequence(prefix, &members, fps, no_loop))
        .collect()
}

/// The group name of a numbered morph target, as three.js's `/^([\w-]*?)([\d]+)$/` finds it:
/// the name must consist of ASCII letters, digits, `_` and `-` and end in a digit; the group is
/// everything before the trailing digits (possibly empty). `None` when the name does not match.
pub fn morph_sequence_prefix(name: &str) -> Option<&str> {
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
    if !name.ends_with(|c: char| c.is_ascii_digit()) || !name.chars().all(word) {
        return None;
    }
    Some(name.trim_end_matches(|c: char| c.is_ascii_digit()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    fn values(t: &Track) -> Vec<f32> {
        t.values.as_numbers().unwrap().to_vec()
    }

    #[test]
    fn three_targets_at_10_fps() {
        let clip = create_from_morph_target_sequence("seq", &names(&["a", "b", "c"]), 10.0, false);
        assert_eq!(clip.name, "seq");
        assert_eq!(clip.duration, 0.30000001192092896);
        let expect_times = vec![0.0, 0.1, 0.2, 0.3];
        for t in &clip.tracks {
            assert_eq!(t.times, expect_times);
        }
        assert_eq!(clip.tracks[0].name, ".morphTargetInfluences[a]");
        assert_eq!(clip.tracks[2].name, ".morphTargetInfluences[c]");
        assert_eq!(values(&clip.tracks[0]), vec![1.0, 0.0, 0.0, 1.0]);
        assert_eq!(values(&clip.tracks[1]), vec![0.0, 1.0, 0.0, 0.0]);
        assert_eq!(values(&clip.tracks[2]), vec![0.0, 0.0, 1.0, 0.0]);
    }

    #[test]
    fn no_loop() {
        let clip = create_from_morph_target_sequence("seq", &names(&["a", "b", "c"]), 10.0, true);
        assert_eq!(clip.duration, 0.2f32 as f64);
        assert!(clip.tracks.iter().all(|t| t.len() == 3));
    }

    #[test]
    fn one_target() {
        let clip = create_from_morph_target_sequence("one", &names(&["a"]), 10.0, false);
        assert_eq!(clip.tracks[0].times, vec![0.0, 0.0, 0.0, 0.1]);
        assert_eq!(values(&clip.tracks[0]), vec![0.0, 1.0, 0.0, 0.0]);
    }

    #[test]
    fn two_targets_at_1_fps() {
        let clip = create_from_morph_target_sequence("two", &names(&["p", "q"]), 1.0, false);
        assert_eq!(clip.tracks[0].times, vec![0.0, 1.0, 1.0, 2.0]);
        assert_eq!(values(&clip.tracks[0]), vec![1.0, 0.0, 0.0, 1.0]);
        assert_eq!(clip.tracks[1].times, vec![0.0, 0.0, 1.0, 2.0]);
        assert_eq!(values(&clip.tracks[1]), vec![0.0, 0.0, 1.0, 0.0]);
        assert_eq!(clip.duration, 2.0);
    }

    #[test]
    fn no_targets() {
        let clip = create_from_morph_target_sequence("none", &[], 30.0, false);
        assert!(clip.tracks.is_empty());
        assert_eq!(clip.duration, 0.0);
    }

    #[test]
    fn prefixes() {
        assert_eq!(morph_sequence_prefix("Walk_001"), Some("Walk_"));
        assert_eq!(morph_sequence_prefix("crdeath0059"), Some("crdeath"));
        assert_eq!(
            morph_sequence_prefix("flamingo_flyA_003"),
            Some("flamingo_flyA_")
        );
        assert_eq!(morph_sequence_prefix("007"), Some(""));
        assert_eq!(morph_sequence_prefix("bad.1"), None);
        assert_eq!(morph_sequence_prefix("walk"), None);
        assert_eq!(morph_sequence_prefix(""), None);
        assert_eq!(morph_sequence_prefix("a-b1"), Some("a-b"));
        assert_eq!(morph_sequence_prefix("x2y3"), Some("x2y"));
        assert_eq!(morph_sequence_prefix("é1"), None);
        assert_eq!(morph_sequence_prefix("a١"), None);
    }

    #[test]
    fn grouping_in_first_appearance_order() {
        let list = names(&[
            "run_1", "walk_1", "bad.1", "run_2", "007", "walk_2", "run_3", "plain",
        ]);
        let clips = create_clips_from_morph_target_sequences(&list, 30.0, false);
        let summary: Vec<(&str, Vec<&str>)> = clips
            .iter()
            .map(|c| {
                (
                    c.name.as_str(),
                    c.tracks.iter().map(|t| t.name.as_str()).collect(),
                )
            })
            .collect();
        assert_eq!(
            summary,
            vec![
                (
                    "run_",
                    vec![
                        ".morphTargetInfluences[run_1]",
                        ".morphTargetInfluences[run_2]",
                        ".morphTargetInfluences[run_3]"
                    ]
                ),
                (
                    "walk_",
                    vec![
                        ".morphTargetInfluences[walk_1]",
                        ".morphTargetInfluences[walk_2]"
                    ]
                ),
                ("", vec![".morphTargetInfluences[007]"]),
            ]
        );
        assert_eq!(clips[0].duration, (3.0f64 * (1.0 / 30.0)) as f32 as f64);
    }
}
