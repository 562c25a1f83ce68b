//! The default way to learn how a destination plays a written file: read it back with the
//! format's own reader, where that reader reads the file as the destination's player plays it
//! (three.js JSON, glTF as three.js loads it), and find each source track again by name.
//!
//! A track may come back under another name: a bone's `.bones[X].p` as node `X`'s `X.p` (or the
//! other way round), node names sanitized for glTF, a root morph track on the mesh's node.

use std::collections::HashMap;
use std::path::Path;

use super::{Curve, Played};
use crate::formats::{Document, WriteOptions};
use crate::model::binding::sanitize_node_name;

/// Reads `doc` back as its format's writer writes it with `opts`, each source track matched by
/// name.
pub(crate) fn played(doc: &Document, opts: &WriteOptions) -> Vec<Played> {
    if crate::formats::check_writable(doc).is_err() {
        return Vec::new();
    }
    let bytes = crate::formats::write_bytes(doc, opts);
    let file = Path::new("written").with_extension(doc.format.extension());
    let Ok(back) = crate::formats::read_bytes_as(
        doc.format,
        &bytes,
        &file,
        &crate::formats::ReadOptions::default(),
    ) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (c, clip) in doc.clips.iter().enumerate() {
        let other = back.clips.iter().find(|o| o.name == clip.name).or_else(|| {
            back.clips
                .get(c)
                .filter(|_| back.clips.len() == doc.clips.len())
        });
        let Some(other) = other else {
            continue;
        };
        let mut by_name: HashMap<&str, usize> = HashMap::with_capacity(other.tracks.len());
        for (i, t) in other.tracks.iter().enumerate() {
            by_name.entry(t.name.as_str()).or_insert(i);
        }
        for (j, track) in clip.tracks.iter().enumerate() {
            if track.values.as_numbers().is_none() || track.is_empty() {
                continue;
            }
            let found = aliases(&track.name)
                .iter()
                .find_map(|n| by_name.get(n.as_str()).copied())
                .or_else(|| {
                    // A root morph track comes back on the mesh's node in glTF.
                    track
                        .name
                        .starts_with(".morphTargetInfluences")
                        .then(|| {
                            other
                                .tracks
                                .iter()
                                .position(|t| t.name.ends_with(&track.name))
                        })
                        .flatten()
                });
            let Some(i) = found else {
                continue;
            };
            let back_track = &other.tracks[i];
            if back_track.values.as_numbers().is_none() {
                continue;
            }
            out.push(Played {
                clip: c,
                track: j,
                target: back_track.name.clone(),
                curve: Curve::Model(back_track.clone()),
                added: back_track.len().saturating_sub(track.len()),
                note: None,
            });
        }
    }
    out
}

/// The names `name` may have after a conversion: itself, `.bones[X].p` ↔ `X.p`, and node names
/// sanitized as glTF writers and three.js do.
pub fn aliases(name: &str) -> Vec<String> {
    let mut out = vec![name.to_string()];
    if let Some(rest) = name.strip_prefix(".bones[")
        && let Some((bone, prop)) = rest.rsplit_once("].")
    {
        out.push(format!("{bone}.{prop}"));
        out.push(format!("{}.{prop}", sanitize_node_name(bone)));
    } else if let Some((node, prop)) = name.rsplit_once('.')
        && !node.is_empty()
        && !node.contains(['[', ']'])
    {
        out.push(format!(".bones[{node}].{prop}"));
        out.push(format!("{}.{prop}", sanitize_node_name(node)));
    }
    out
}
