//! What glTF cannot store but can carry, adapted before planning: keys before time 0 (Lottie
//! precomps) cut at 0 after an exact sample there, 2-component positions and scales padded to
//! 3, and repeated key times (jumps) separated by one `f32` step, since glTF times strictly
//! increase. Each kind of change is one note for `convert`'s summary.

use super::super::target::{Property, target};
use crate::formats::{Document, adapt};
use crate::model::{Clip, Track, TrackKind};

/// The clips of `doc` with what glTF cannot store but can carry adapted, when anything needed
/// it: keys before time 0 cut at 0 (after an exact sample there; see
/// [`crop_negative`](adapt::crop_negative)) and 2-component positions and scales padded to 3
/// (z = 0, scale z = 1). With one note per kind of change.
pub(super) fn adapt_clips(doc: &Document) -> (Option<Vec<Clip>>, Vec<String>) {
    let needs = |track: &Track| {
        target(track).is_ok_and(|t| {
            (matches!(t.property, Property::Translation | Property::Scale)
                && track.kind == TrackKind::Vector
                && track.value_size() == 2)
                || track.times.iter().any(|&t| t < 0.0)
                || track.times.windows(2).any(|w| w[0] == w[1])
        })
    };
    if !doc.clips.iter().flat_map(|c| &c.tracks).any(needs) {
        return (None, Vec::new());
    }
    let mut cropped = Vec::new();
    let mut padded = Vec::new();
    let mut repeated = Vec::new();
    let mut clips = doc.clips.clone();
    for clip in &mut clips {
        let fps = adapt::source_fps(clip);
        for track in &mut clip.tracks {
            let Ok(t) = target(track) else {
                continue;
            };
            let flat = matches!(t.property, Property::Translation | Property::Scale)
                && track.kind == TrackKind::Vector
                && !track.is_empty()
                && track.value_size() == 2
                && track.values.len() == track.len() * 2;
            if flat {
                let z = if t.property == Property::Scale {
                    1.0
                } else {
                    0.0
                };
                *track = adapt::pad_to_3(track, z);
                padded.push(track.name.clone());
            }
            if track.times.windows(2).all(|w| w[0] <= w[1])
                && let Some(c) = adapt::crop_negative(track, fps)
            {
                cropped.push(track.name.clone());
                *track = c;
            }
            if let Some(c) = adapt::separate_repeated(track) {
                repeated.push(track.name.clone());
                *track = c;
            }
        }
    }
    let mut notes = Vec::new();
    let list = |names: &[String]| {
        let shown: Vec<&str> = names.iter().take(4).map(String::as_str).collect();
        format!(
            "{}{}",
            shown.join(", "),
            if names.len() > 4 { ", …" } else { "" }
        )
    };
    if !cropped.is_empty() {
        notes.push(format!(
            "the keys before time 0 of {} track(s) ({}): glTF times start at 0, so they are \
             cut at 0 with an exact sample there",
            cropped.len(),
            list(&cropped)
        ));
    }
    if !padded.is_empty() {
        notes.push(format!(
            "2-component values of {} position/scale track(s) ({}), padded to 3 (z = 0, \
             scale z = 1)",
            padded.len(),
            list(&padded)
        ));
    }
    if !repeated.is_empty() {
        notes.push(format!(
            "the repeated key times (jumps) of {} track(s) ({}): glTF times strictly increase, \
             so the key before each jump moves back by one f32 step",
            repeated.len(),
            list(&repeated)
        ));
    }
    let changed = !cropped.is_empty() || !padded.is_empty() || !repeated.is_empty();
    (changed.then_some(clips), notes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_what_needs_it_is_adapted_and_noted() {
        let fine = Track::numeric(
            "a.position",
            TrackKind::Vector,
            vec![0.0, 1.0],
            vec![0.0; 6],
        );
        let doc = Document::new(
            crate::formats::Format::Gltf,
            vec![Clip::new("c", 1.0, vec![fine])],
        );
        assert_eq!(adapt_clips(&doc), (None, Vec::new()));
        let flat = Track::numeric("a.scale", TrackKind::Vector, vec![0.0, 1.0], vec![1.0; 4]);
        let early = Track::numeric(
            "b.position",
            TrackKind::Vector,
            vec![-1.0, 1.0],
            vec![0.0; 6],
        );
        let doc = Document::new(
            crate::formats::Format::Gltf,
            vec![Clip::new("c", 1.0, vec![flat, early])],
        );
        let (clips, notes) = adapt_clips(&doc);
        let clips = clips.expect("adapted");
        assert_eq!(clips[0].tracks[0].value_size(), 3);
        assert_eq!(clips[0].tracks[1].times[0], 0.0);
        assert_eq!(notes.len(), 2, "{notes:?}");
        assert!(notes[0].starts_with("the keys before time 0 of 1 track(s) (b.position)"));
        assert!(notes[1].starts_with("2-component values of 1 position/scale track(s) (a.scale)"));
    }
}
