//! When each composition of a layered document is on screen: the main composition from its
//! in point to its out point, a precomposition wherever a layer that shows it is in range
//! while its own composition is shown (through the layer's start time and stretch, nested
//! precompositions in turn). A reduction measures only there: a key the viewer never sees
//! changes nothing they see.

use std::collections::HashMap;

use super::{Clip, Composition, Layers};

/// A time window of a clip, in its seconds, both ends included.
pub type Window = (f64, f64);

/// How deep precompositions nest at most before the rest counts as always shown.
const MAX_DEPTH: usize = 16;

/// The most windows a composition collects before it counts as always shown.
const MAX_WINDOWS: usize = 512;

/// For each of `clips`, the windows of its own time (seconds) in which it is on screen:
/// `None` where it is not a composition or not known (shown throughout), an empty list for a
/// precomposition no shown layer shows. A precomposition shown through a time-remapped layer
/// counts as shown throughout.
pub fn shown_windows(clips: &[Clip]) -> Vec<Option<Vec<Window>>> {
    let layers: Vec<Option<&Layers>> = clips.iter().map(|c| c.layers.as_deref()).collect();
    let by_asset: HashMap<&str, usize> = layers
        .iter()
        .enumerate()
        .filter_map(|(i, l)| match &(*l)?.composition {
            Composition::Precomp { asset } => Some((asset.as_str(), i)),
            Composition::Main { .. } => None,
        })
        .collect();
    // Windows in each composition's own frames; the main ones first, then precompositions
    // from the layers that show them, level by level.
    let mut frames: Vec<Option<Vec<Window>>> = layers
        .iter()
        .map(|l| match l.map(|l| &l.composition) {
            Some(Composition::Main {
                start_frame,
                end_frame: Some(end),
                ..
            }) if end >= start_frame => Some(vec![(*start_frame, *end)]),
            Some(Composition::Precomp { .. }) => Some(Vec::new()),
            _ => None,
        })
        .collect();
    let mut always = vec![false; clips.len()];
    let mains: Vec<usize> = (0..clips.len())
        .filter(|&i| {
            !matches!(
                layers[i].map(|l| &l.composition),
                Some(Composition::Precomp { .. })
            )
        })
        .collect();
    let mut level: Vec<(usize, Option<Vec<Window>>)> =
        mains.iter().map(|&i| (i, frames[i].clone())).collect();
    for _ in 0..MAX_DEPTH {
        let mut next = Vec::new();
        for (c, windows) in level {
            let Some(list) = layers[c] else {
                continue;
            };
            for layer in &list.layers {
                let Some(&x) = layer.ref_id.as_deref().and_then(|id| by_asset.get(id)) else {
                    continue;
                };
                let mapped = match &windows {
                    Some(w) if !layer.time_remap && layer.sr > 0.0 && layer.sr.is_finite() => {
                        let from = layer.ip.unwrap_or(f64::NEG_INFINITY);
                        let to = layer.op.unwrap_or(f64::INFINITY);
                        let inner: Vec<Window> = w
                            .iter()
                            .filter_map(|&(a, b)| {
                                let (a, b) = (a.max(from), b.min(to));
                                (a <= b)
                                    .then(|| ((a - layer.st) / layer.sr, (b - layer.st) / layer.sr))
                            })
                            .collect();
                        Some(inner)
                    }
                    _ => None,
                };
                match (&mapped, &mut frames[x]) {
                    // (A file whose compositions show each other in a loop adds windows at
                    // every level: past a few hundred, shown throughout.)
                    (Some(m), Some(list)) if !always[x] && list.len() < MAX_WINDOWS => {
                        list.extend(m)
                    }
                    _ => {
                        always[x] = true;
                        frames[x] = None;
                    }
                }
                if mapped.as_ref().is_none_or(|m| !m.is_empty()) {
                    next.push((x, mapped));
                }
            }
        }
        if next.is_empty() {
            break;
        }
        level = next;
    }
    // Frames to clip seconds, windows sorted and merged.
    frames
        .into_iter()
        .zip(&layers)
        .map(|(windows, l)| {
            let (l, mut windows) = (l.as_ref()?, windows?);
            let fps = if l.fps > 0.0 && l.fps.is_finite() {
                l.fps
            } else {
                30.0
            };
            let start = l.start_frame();
            windows.retain(|w| w.0.is_finite() || w.1.is_finite());
            windows.sort_by(|a, b| a.0.total_cmp(&b.0));
            let mut merged: Vec<Window> = Vec::with_capacity(windows.len());
            for (a, b) in windows {
                let w = ((a - start) / fps, (b - start) / fps);
                match merged.last_mut() {
                    Some(last) if w.0 <= last.1 => last.1 = last.1.max(w.1),
                    _ => merged.push(w),
                }
            }
            Some(merged)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::model::Layer;

    fn clip(composition: Composition, layers: Vec<Layer>) -> Clip {
        let mut clip = Clip::new("c", -1.0, Vec::new());
        clip.layers = Some(Arc::new(Layers {
            fps: 10.0,
            composition,
            layers,
        }));
        clip
    }

    fn showing(asset: &str, ip: f64, op: f64, st: f64, sr: f64) -> Layer {
        Layer {
            name: format!("shows {asset}"),
            ty: Some(0.0),
            ref_id: Some(asset.into()),
            ip: Some(ip),
            op: Some(op),
            st,
            sr,
            ..Layer::default()
        }
    }

    #[test]
    fn precompositions_are_shown_where_their_layers_are_in_the_shown_range() {
        let main = clip(
            Composition::Main {
                version: None,
                start_frame: 10.0,
                end_frame: Some(30.0),
                width: None,
                height: None,
            },
            vec![
                showing("a", 15.0, 60.0, 2.0, 2.0),
                showing("b", 40.0, 50.0, 0.0, 1.0),
            ],
        );
        let a = clip(
            Composition::Precomp { asset: "a".into() },
            vec![showing("c", 0.0, 100.0, 1.0, 1.0)],
        );
        let b = clip(Composition::Precomp { asset: "b".into() }, Vec::new());
        let c = clip(Composition::Precomp { asset: "c".into() }, Vec::new());
        let plain = Clip::new("plain", -1.0, Vec::new());
        let w = shown_windows(&[main, a, b, c, plain]);
        // The main composition: frames 10 to 30 from its in point.
        assert_eq!(w[0], Some(vec![(0.0, 2.0)]));
        // a: root frames 15 to 30, mapped through start 2 and stretch 2: its frames 6.5 to 14.
        assert_eq!(w[1], Some(vec![(0.65, 1.4)]));
        // b's layer is in range only after the main composition ends: never shown.
        assert_eq!(w[2], Some(Vec::new()));
        // c, nested in a one frame late.
        assert_eq!(w[3], Some(vec![(0.55, 1.3)]));
        assert_eq!(w[4], None);
    }
}
