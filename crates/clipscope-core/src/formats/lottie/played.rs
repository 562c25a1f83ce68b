//! How lottie-web plays what clipscope writes as Lottie. A file read from Lottie and written
//! back plays as its reader reads it (the default read-back). A composition clipscope composed
//! for another document ([`compose`](super::compose)) is read back too, and each layer property
//! is mapped back into its source track's units, the inverse of the documented mapping
//! (`p = (x · 100 + 256, −y · 100 + 256)` px for a layer without parent, rotation the twist about
//! the view axis in degrees, scale and opacity in percent), so `convert` measures what the
//! mapping keeps: a z position, rotations about x and y and a z scale show as deviations.

use super::LottieSource;
use super::compose::{Channel, HEIGHT, PIXELS_PER_UNIT, WIDTH, plan};
use crate::formats::fidelity::{Curve, Played, Unmap, readback};
use crate::formats::{Document, Format, ReadOptions, WriteOptions};
use crate::model::binding::sanitize_node_name;

/// How each track of `doc` plays in lottie-web once written with `opts`.
pub(crate) fn played(doc: &Document, opts: &WriteOptions) -> Vec<Played> {
    if doc.source::<LottieSource>().is_some() {
        let mut played = readback::played(doc, opts);
        for p in &mut played {
            if let Some(clip) = doc.clips.get(p.clip)
                && let Some(track) = clip.tracks.get(p.track)
                && driven_by_expression(clip, &track.name)
            {
                p.note = Some(EXPRESSION_NOTE.to_string());
            }
        }
        return played;
    }
    let Some(clip) = doc.clips.first() else {
        return Vec::new();
    };
    let bytes = super::write::write(doc, opts);
    let Ok(back) = crate::formats::read_bytes_as(
        Format::Lottie,
        &bytes,
        std::path::Path::new("written.json"),
        &ReadOptions::default(),
    ) else {
        return Vec::new();
    };
    let Some(main) = back.clips.first() else {
        return Vec::new();
    };
    let layers = plan(doc, clip);
    // The reader's layer names: sanitized, `#<ind>` where several share one (ind = place + 1).
    let base: Vec<String> = layers
        .iter()
        .map(|l| {
            let n = sanitize_node_name(&l.name);
            if n.is_empty() { "layer".to_string() } else { n }
        })
        .collect();
    let mut count = std::collections::HashMap::new();
    for b in &base {
        *count.entry(b.as_str()).or_insert(0usize) += 1;
    }
    let mut by_name = std::collections::HashMap::with_capacity(main.tracks.len());
    for (i, t) in main.tracks.iter().enumerate() {
        by_name.entry(t.name.as_str()).or_insert(i);
    }
    let mut out = Vec::new();
    for (l, layer) in layers.iter().enumerate() {
        let prefix = if count[base[l].as_str()] > 1 {
            format!("{}#{}", base[l], l + 1)
        } else {
            base[l].clone()
        };
        for &(channel, track) in &layer.tracks {
            let (property, unmap) = match channel {
                Channel::Position => (
                    "position",
                    Unmap::Position {
                        per_unit: PIXELS_PER_UNIT,
                        center: if layer.parent.is_none() {
                            [WIDTH / 2.0, HEIGHT / 2.0]
                        } else {
                            [0.0, 0.0]
                        },
                    },
                ),
                Channel::Rotation => ("rotation", Unmap::TwistDegrees),
                Channel::Scale => ("scale", Unmap::Percent),
                Channel::Opacity => ("opacity", Unmap::Percent),
            };
            let name = format!("{prefix}.{property}");
            let Some(&i) = by_name.get(name.as_str()) else {
                continue;
            };
            let back_track = main.tracks[i].clone();
            let added = back_track.len().saturating_sub(clip.tracks[track].len());
            out.push(Played {
                clip: 0,
                track,
                target: format!("layer '{}' {property}", layer.name),
                curve: Curve::Mapped {
                    track: back_track,
                    unmap,
                },
                added,
                note: None,
            });
        }
    }
    out
}

/// The note on a track lottie-web plays through an expression.
pub(crate) const EXPRESSION_NOTE: &str = "driven by an expression (x): lottie-web plays what the \
     expression computes from the keys, which clipscope does not evaluate; measured on the keys";

/// Whether track `name` of `clip` is a layer property with an expression (`x`).
pub(crate) fn driven_by_expression(clip: &crate::model::Clip, name: &str) -> bool {
    clip.layers.as_ref().is_some_and(|layers| {
        layers.layers.iter().any(|l| {
            name.strip_prefix(l.name.as_str())
                .and_then(|rest| rest.strip_prefix('.'))
                .is_some_and(|property| l.expressions.iter().any(|e| e == property))
        })
    })
}

#[cfg(test)]
mod tests {
    use crate::formats::{Document, Format, WriteOptions, fidelity};
    use crate::model::{Clip, Track, TrackKind};

    /// A property with an expression plays what lottie-web's expression makes of its keys:
    /// written back, the report says its deviation is measured on the keys; converted, the
    /// expression is a loss that names it.
    #[test]
    fn expression_driven_properties_are_reported() {
        let json = br#"{"v":"5.7.0","fr":30,"ip":0,"op":30,"w":100,"h":100,"layers":[
            {"ty":3,"ind":1,"nm":"Bounce","ip":0,"op":30,"st":0,"ks":{
              "p":{"a":1,"x":"var $bm_rt = value;","k":[{"t":0,"s":[0,0,0],
                "i":{"x":0.5,"y":0.5},"o":{"x":0.5,"y":0.5}},{"t":30,"s":[50,0,0]}]},
              "o":{"a":0,"k":100}}}]}"#;
        let doc = crate::formats::read_bytes(json, std::path::Path::new("b.json")).unwrap();
        let f = fidelity(&doc, &WriteOptions::default(), &[]);
        let note = |name: &str| {
            f.tracks
                .iter()
                .find(|t| t.track == name)
                .and_then(|t| t.note.clone())
        };
        assert!(
            note("Bounce.position").is_some_and(|n| n.contains("expression")),
            "{f:?}"
        );
        assert_eq!(note("Bounce.opacity"), None);
        let lost = crate::formats::conversion_losses(&doc, Format::Gltf);
        assert!(
            lost.iter()
                .any(|l| l.contains("expressions (x) of 1 property (Bounce.position)")),
            "{lost:?}"
        );
    }

    #[test]
    fn composed_layers_are_measured_in_the_sources_units() {
        let h = 30f32.to_radians() / 2.0;
        let tracks = vec![
            Track::numeric(
                "Arm.position",
                TrackKind::Vector,
                vec![0.0, 1.0],
                vec![0.0, 0.0, 0.0, 1.0, -0.5, 0.25],
            ),
            Track::numeric(
                "Arm.quaternion",
                TrackKind::Quaternion,
                vec![0.0, 1.0],
                vec![0.0, 0.0, 0.0, 1.0, 0.0, 0.0, h.sin(), h.cos()],
            ),
            Track::numeric(
                "Arm.scale",
                TrackKind::Vector,
                vec![0.0],
                vec![2.0, 3.0, 1.0],
            ),
        ];
        let doc = Document::new(Format::ThreeJs, vec![Clip::new("c", 1.0, tracks)]);
        let lottie = doc.converted_to(Format::Lottie);
        let f = fidelity(&lottie, &WriteOptions::default(), &[]);
        assert_eq!(f.tracks.len(), 3);
        // The position's x and y come back; its z (0.25 at the end) is what Lottie drops.
        let p = &f.tracks[0];
        assert_eq!(p.target.as_deref(), Some("layer 'Arm' position"));
        assert!((p.deviation - 0.25).abs() < 1e-6 && p.at == 1.0, "{p:?}");
        // A turn about z and a 2D scale are kept.
        assert!(f.tracks[1].deviation < 1e-3, "{:?}", f.tracks[1]);
        assert!(f.tracks[2].deviation < 1e-6, "{:?}", f.tracks[2]);
    }
}
