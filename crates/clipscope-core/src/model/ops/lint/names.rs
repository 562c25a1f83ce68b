//! Name rules: track names three.js's grammar cannot parse (`unparsable-track-name`; the
//! binding would throw at play time) and, given a rig, tracks that animate a node the rig does
//! not have (`unbound-track`). A track addresses the bone of `.bones[name]…`, else the node of
//! `name.property`; root tracks (`.position`) always bind. Duplicate tracks are `validate`'s
//! `duplicate-track`.

use std::collections::HashSet;

use super::LintSettings;
use crate::model::binding::parse_track_name;
use crate::model::{Clip, Problem};

/// Adds the name findings of `clip`.
pub(super) fn check(clip: &Clip, settings: &LintSettings, out: &mut Vec<Problem>) {
    // The rig's nodes as a set: one lookup per track, not a search of the rig.
    let rig: Option<HashSet<&str>> = settings
        .rig_nodes
        .as_ref()
        .map(|nodes| nodes.iter().map(String::as_str).collect());
    for (j, track) in clip.tracks.iter().enumerate() {
        let path = match parse_track_name(&track.name) {
            Ok(path) => path,
            Err(reason) => {
                let reason = reason.to_string();
                out.push(Problem::warning("unparsable-track-name", reason).in_track(j));
                continue;
            }
        };
        let Some(nodes) = &rig else {
            continue;
        };
        let Some(node) = path.animated_node() else {
            continue;
        };
        if !nodes.contains(node.as_str()) {
            out.push(
                Problem::warning(
                    "unbound-track",
                    format!(
                        "track \"{}\" animates node \"{node}\", which the rig does not have",
                        track.name
                    ),
                )
                .in_track(j),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Track, TrackKind};

    fn clip(names: &[&str]) -> Clip {
        let tracks = names
            .iter()
            .map(|n| Track::numeric(*n, TrackKind::Number, vec![0.0], vec![0.0]))
            .collect();
        Clip::new("c", 1.0, tracks)
    }

    #[test]
    fn unparsable_names_warn() {
        let mut out = Vec::new();
        check(
            &clip(&["a.b[", "hips.position"]),
            &LintSettings::default(),
            &mut out,
        );
        assert_eq!(out.len(), 1);
        assert_eq!(
            (out[0].code.as_str(), out[0].track),
            ("unparsable-track-name", Some(0))
        );
    }

    #[test]
    fn unbound_tracks_need_a_rig() {
        let c = clip(&["hips.position", ".bones[tail].quaternion", ".position"]);
        let mut out = Vec::new();
        check(&c, &LintSettings::default(), &mut out);
        assert!(out.is_empty());
        let rig = LintSettings {
            rig_nodes: Some(vec!["hips".into()]),
            ..LintSettings::default()
        };
        check(&c, &rig, &mut out);
        assert_eq!(out.len(), 1);
        assert_eq!(
            (out[0].code.as_str(), out[0].track),
            ("unbound-track", Some(1))
        );
    }
}
