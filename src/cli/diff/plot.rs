//! The review page's curve plots: one changed track's curves, old against new, as inline SVG.
//! Each component (x, y, z, w) gets a strip of its own scaled to its own range, so a small
//! change of one component stays visible beside large ones; the old curve is dashed and faded,
//! the new one solid, and a line marks the largest change. Every style is an attribute, so the
//! picture looks the same wherever it is shown.

use std::fmt::Write as _;

use clipscope_core::model::Track;
use clipscope_core::model::interpolant::Sampler;

/// Plot width in SVG units.
const WIDTH: f64 = 560.0;
/// One component's strip height.
const STRIP: f64 = 54.0;
/// Margins: left for the value labels, bottom for the time labels.
const LEFT: f64 = 58.0;
const RIGHT: f64 = 8.0;
const BOTTOM: f64 = 16.0;
const GAP: f64 = 6.0;
/// Samples per curve.
const SAMPLES: usize = 240;
/// The components' names and colours.
const COMPONENTS: [(&str, &str); 4] = [
    ("x", "#d1453b"),
    ("y", "#3d9a3d"),
    ("z", "#3b6fd1"),
    ("w", "#8a6bb8"),
];

/// The SVG of `old` against `new` (either may be missing) over `[start, end]` seconds, with a
/// marker at `mark` (the largest change).
pub fn svg(
    old: Option<&Track>,
    new: Option<&Track>,
    start: f64,
    end: f64,
    mark: Option<f64>,
) -> String {
    let end = if end > start { end } else { start + 1.0 };
    let old_s = old.and_then(|t| samples(t, start, end));
    let new_s = new.and_then(|t| samples(t, start, end));
    let strips = old_s.iter().chain(&new_s).map(Vec::len).max().unwrap_or(0);
    let height = GAP + strips as f64 * (STRIP + GAP) + BOTTOM;
    let inner = WIDTH - LEFT - RIGHT;
    let x = |t: f64| LEFT + (t - start) / (end - start) * inner;
    let mut out = format!(
        "<svg viewBox=\"0 0 {WIDTH} {height}\" width=\"{WIDTH}\" height=\"{height}\" class=\"plot\">"
    );
    for (c, &(name, colour)) in COMPONENTS.iter().enumerate().take(strips) {
        let top = GAP + c as f64 * (STRIP + GAP);
        let values = || {
            [&old_s, &new_s]
                .into_iter()
                .flatten()
                .filter_map(move |s| s.get(c))
                .flatten()
                .copied()
                .filter(|v| v.is_finite())
        };
        let lo = values().fold(f64::INFINITY, f64::min);
        let hi = values().fold(f64::NEG_INFINITY, f64::max);
        let (lo, hi) = match (lo.is_finite(), hi - lo) {
            (false, _) => (0.0, 1.0),
            (true, span) if span < 1e-9 => (lo - 0.5, hi + 0.5),
            _ => (lo, hi),
        };
        let pad = (hi - lo) * 0.1;
        let y = |v: f64| top + (hi + pad - v) / (hi - lo + 2.0 * pad) * STRIP;
        let _ = write!(
            out,
            "<rect x=\"{LEFT}\" y=\"{top}\" width=\"{inner}\" height=\"{STRIP}\" fill=\"#fcfcfc\" \
             stroke=\"#e8e8e8\"/><text x=\"10\" y=\"{:.1}\" font-size=\"12\" fill=\"{colour}\" \
             font-weight=\"bold\">{name}</text>",
            top + STRIP / 2.0 + 4.0
        );
        for v in [hi, lo] {
            let _ = write!(
                out,
                "<text x=\"{}\" y=\"{:.1}\" font-size=\"10\" fill=\"#777\" text-anchor=\"end\">{}</text>",
                LEFT - 4.0,
                y(v) + 3.0,
                super::text::amount(v)
            );
        }
        for (series, style) in [
            (
                &old_s,
                "stroke-width=\"1.5\" stroke-dasharray=\"4 3\" opacity=\"0.55\" class=\"old\"",
            ),
            (&new_s, "stroke-width=\"1.5\" class=\"new\""),
        ] {
            let Some(values) = series.as_ref().and_then(|s| s.get(c)) else {
                continue;
            };
            let mut d = String::new();
            for (k, v) in values.iter().enumerate() {
                let t = start + (end - start) * k as f64 / (SAMPLES - 1) as f64;
                if v.is_finite() {
                    let step = if d.is_empty() { "M" } else { " L" };
                    let _ = write!(d, "{step}{:.1},{:.1}", x(t), y(*v));
                }
            }
            let _ = write!(
                out,
                "<path d=\"{d}\" fill=\"none\" stroke=\"{colour}\" {style}/>"
            );
        }
    }
    let bottom = height - BOTTOM;
    if let Some(m) = mark.filter(|m| (start..=end).contains(m)) {
        let _ = write!(
            out,
            "<line x1=\"{0:.1}\" x2=\"{0:.1}\" y1=\"{GAP}\" y2=\"{bottom}\" stroke=\"#e0a000\" \
             stroke-dasharray=\"2 2\" class=\"mark\"/>",
            x(m)
        );
    }
    for (t, anchor) in [(start, "start"), (end, "end")] {
        let _ = write!(
            out,
            "<text x=\"{:.1}\" y=\"{}\" font-size=\"10\" fill=\"#777\" text-anchor=\"{anchor}\">{} s</text>",
            x(t),
            height - 4.0,
            super::text::seconds(t)
        );
    }
    out.push_str("</svg>");
    out
}

/// The track sampled at [`SAMPLES`] times over `[start, end]`, one list per component (at most
/// four); `None` for a track without numbers.
fn samples(track: &Track, start: f64, end: f64) -> Option<Vec<Vec<f64>>> {
    track.values.as_numbers()?;
    let size = track.value_size();
    if size == 0 {
        return None;
    }
    let shown = size.min(COMPONENTS.len());
    let mut sampler = Sampler::new(track);
    let mut value = vec![0.0; size];
    let mut out = vec![Vec::with_capacity(SAMPLES); shown];
    for k in 0..SAMPLES {
        let t = start + (end - start) * k as f64 / (SAMPLES - 1) as f64;
        sampler.evaluate_f64(t, &mut value);
        for (c, list) in out.iter_mut().enumerate() {
            list.push(value[c]);
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clipscope_core::model::TrackKind;

    #[test]
    fn both_versions_are_drawn_with_the_change_marked() {
        let a = Track::numeric(
            "a.position",
            TrackKind::Vector,
            vec![0.0, 1.0],
            vec![0.0; 6],
        );
        let mut b = a.clone();
        b.values = clipscope_core::model::Values::Numbers(vec![0.0, 0.0, 0.0, 1.0, 0.0, 0.0]);
        let s = svg(Some(&a), Some(&b), 0.0, 1.0, Some(1.0));
        assert_eq!(s.matches("class=\"old\"").count(), 3);
        assert_eq!(s.matches("class=\"new\"").count(), 3);
        assert!(s.contains("class=\"mark\""));
        let only_new = svg(None, Some(&b), 0.0, 1.0, None);
        assert!(!only_new.contains("class=\"old\""));
    }
}
