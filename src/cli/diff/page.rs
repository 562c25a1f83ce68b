//! `clipscope diff OLD NEW --html review.html`: the review page, one self-contained HTML file
//! (styles inline, previews as data URLs, plots as inline SVG; no script and no network
//! reference) that a CI job uploads for each changed clip file of a pull request.
//!
//! It holds the change summary (the text report's lines, by clip), both versions' animated
//! previews side by side for each changed clip (rendered headless like `render -o .gif`; left
//! out with a note where there is no GPU adapter or with `--no-previews`), each changed track's
//! curves old against new ([`super::plot`]), and both versions' validation findings (the same
//! check as `clipscope validate`, with the `clipscope.toml` found above each file).

use std::fmt::Write as _;

use clipscope_core::formats::ReadOptions;
use clipscope_core::model::ops::diff::{ClipDiff, Diff, Status};
use clipscope_core::validate::check_open_document;

use super::text::{self, track_line};
use super::{Version, plot};
use crate::cli::output::escape_markup;

/// Clips that get animated previews, at most (the page stays a few megabytes at worst).
const MAX_PREVIEW_CLIPS: usize = 6;
/// Tracks plotted, at most.
const MAX_PLOTS: usize = 40;
/// Findings listed per version, at most.
const MAX_FINDINGS: usize = 200;
/// The previews' frame size.
#[cfg(feature = "gui")]
const PREVIEW_SIZE: (u32, u32) = (400, 225);

/// What the page shows beyond the diff.
#[derive(Debug, Clone)]
pub struct PageOptions<'a> {
    /// Draw animated previews.
    pub previews: bool,
    /// What the previews play on (`--rig`).
    pub rig: Option<&'a str>,
    /// The tolerance the diff was made with.
    pub tolerance: f64,
}

/// The page comparing `old` and `new`.
pub fn build(
    old: &Version,
    new: &Version,
    diff: &Diff,
    options: &PageOptions,
    read: &ReadOptions,
) -> String {
    let mut body = String::new();
    let summary = text::report(old, new, diff);
    let _ = write!(
        body,
        "<h1>{} → {}</h1><p class=\"verdict {}\">{}</p>",
        escape_markup(&old.label),
        escape_markup(&new.label),
        if diff.is_identical() {
            "same"
        } else {
            "changed"
        },
        escape_markup(&verdict(diff)),
    );
    let _ = write!(
        body,
        "<h2>Changes</h2><pre class=\"summary\">{}</pre>",
        escape_markup(&summary)
    );
    previews(&mut body, old, new, diff, options);
    curves(&mut body, old, new, diff);
    let _ = write!(body, "<h2>Validation</h2><div class=\"pair\">");
    for version in [old, new] {
        findings(&mut body, version, read);
    }
    body.push_str("</div>");
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"generator\" content=\"clipscope {}\">\
         <title>clipscope review: {}</title><style>{STYLE}</style></head>\
         <body>{body}<footer>Made by clipscope {} (clipscope diff --html). Tolerance {}.</footer>\
         </body></html>\n",
        env!("CARGO_PKG_VERSION"),
        escape_markup(&new.label),
        env!("CARGO_PKG_VERSION"),
        options.tolerance,
    )
}

/// One line saying how much changed.
fn verdict(diff: &Diff) -> String {
    if diff.is_identical() {
        return "No changes: both versions hold the same clips.".into();
    }
    let tracks: usize = diff.clips.iter().map(|c| c.tracks.len()).sum();
    format!(
        "{} clip(s) changed, {} track(s) changed, {} clip(s) unchanged.",
        diff.clips.len(),
        tracks,
        diff.unchanged_clips
    )
}

/// The previews section: both versions of each changed clip, side by side.
fn previews(body: &mut String, old: &Version, new: &Version, diff: &Diff, options: &PageOptions) {
    if diff.clips.is_empty() || !options.previews {
        return;
    }
    body.push_str("<h2>Motion</h2>");
    let mut failure: Option<String> = None;
    for clip in diff.clips.iter().take(MAX_PREVIEW_CLIPS) {
        let _ = write!(
            body,
            "<h3>{}</h3><div class=\"pair\">",
            escape_markup(&clip_title(clip))
        );
        for (version, index, side) in [(old, clip.index.old, "old"), (new, clip.index.new, "new")] {
            let _ = write!(body, "<figure class=\"{side}\">");
            match (index, &failure) {
                (None, _) => {
                    let _ = write!(body, "<div class=\"none\">not in the {side} version</div>");
                }
                (Some(_), Some(reason)) => {
                    let _ = write!(body, "<div class=\"none\">{}</div>", escape_markup(reason));
                }
                (Some(i), None) => match preview(version, i, options) {
                    Ok(url) => {
                        let _ = write!(body, "<img src=\"{url}\" alt=\"{side} version\">");
                    }
                    Err(reason) => {
                        let _ = write!(
                            body,
                            "<div class=\"none\">no preview: {}</div>",
                            escape_markup(&reason)
                        );
                        eprintln!("diff: no preview for the review page: {reason}");
                        failure = Some(format!("no preview: {reason}"));
                    }
                },
            }
            let _ = write!(
                body,
                "<figcaption>{} ({side})</figcaption></figure>",
                escape_markup(&version.label)
            );
        }
        body.push_str("</div>");
    }
    if diff.clips.len() > MAX_PREVIEW_CLIPS {
        let _ = write!(
            body,
            "<p class=\"note\">{} more changed clip(s) without previews.</p>",
            diff.clips.len() - MAX_PREVIEW_CLIPS
        );
    }
}

/// A clip's heading: its name, with its old name or status.
fn clip_title(clip: &ClipDiff) -> String {
    match (clip.status, &clip.renamed_from) {
        (Status::Added, _) => format!("clip {:?} (added)", clip.name),
        (Status::Removed, _) => format!("clip {:?} (removed)", clip.name),
        (_, Some(old)) => format!("clip {:?} (renamed from {old:?})", clip.name),
        _ => format!("clip {:?}", clip.name),
    }
}

/// Clip `index` of `version` as an animated GIF data URL.
#[cfg(feature = "gui")]
fn preview(version: &Version, index: usize, options: &PageOptions) -> Result<String, String> {
    use base64::Engine;

    use crate::cli::render::{Shot, animate, animation::Kind};

    let doc = version.doc.as_ref().ok_or("the version does not exist")?;
    let clip = doc.clips.get(index).ok_or("no such clip")?;
    let shot = Shot {
        doc,
        file: &version.path,
        clip,
        rig: options.rig,
        view: None,
        size: PREVIEW_SIZE,
        camera: None,
        transparent: false,
        bones: false,
    };
    let (bytes, ..) = animate(&shot, Kind::Gif, None)?;
    Ok(format!(
        "data:{};base64,{}",
        Kind::Gif.mime(),
        base64::engine::general_purpose::STANDARD.encode(bytes)
    ))
}

/// Without the `gui` feature there is no renderer.
#[cfg(not(feature = "gui"))]
fn preview(_version: &Version, _index: usize, _options: &PageOptions) -> Result<String, String> {
    Err("this build has no renderer (built without the `gui` feature)".into())
}

/// The curves section: each changed numeric track, old against new.
fn curves(body: &mut String, old: &Version, new: &Version, diff: &Diff) {
    let mut plotted = 0usize;
    let mut skipped = 0usize;
    let mut section = String::new();
    for clip in &diff.clips {
        let old_clip = clip.index.old.and_then(|i| old.clips().get(i));
        let new_clip = clip.index.new.and_then(|i| new.clips().get(i));
        for t in &clip.tracks {
            let a = old_clip.zip(t.index.old).and_then(|(c, i)| c.tracks.get(i));
            let b = new_clip.zip(t.index.new).and_then(|(c, i)| c.tracks.get(i));
            if !a.or(b).is_some_and(|t| t.kind.is_numeric()) {
                continue;
            }
            if plotted == MAX_PLOTS {
                skipped += 1;
                continue;
            }
            plotted += 1;
            let end = [old_clip, new_clip]
                .into_iter()
                .flatten()
                .map(|c| c.duration)
                .chain(
                    [a, b]
                        .into_iter()
                        .flatten()
                        .filter_map(|t| t.end_time().map(f64::from)),
                )
                .filter(|d| d.is_finite())
                .fold(0.0, f64::max);
            let _ = write!(
                section,
                "<div class=\"track\"><h4>{} <small>{}</small></h4>{}</div>",
                escape_markup(&t.name),
                escape_markup(&format!("clip {:?} · {}", clip.name, track_line(t))),
                plot::svg(a, b, 0.0, end, t.largest.as_ref().map(|c| c.time as f64)),
            );
        }
    }
    if plotted == 0 {
        return;
    }
    let _ = write!(
        body,
        "<h2>Curves</h2><p class=\"legend\"><span class=\"old\">dashed: old</span> \
         <span class=\"new\">solid: new</span> · x red, y green, z blue, w violet · the line \
         marks the largest change</p>{section}"
    );
    if skipped > 0 {
        let _ = write!(
            body,
            "<p class=\"note\">{skipped} more changed track(s) not plotted.</p>"
        );
    }
}

/// One version's validation findings.
fn findings(body: &mut String, version: &Version, read: &ReadOptions) {
    let _ = write!(body, "<section><h3>{}</h3>", escape_markup(&version.label));
    let Some(doc) = &version.doc else {
        body.push_str("<p class=\"none\">not in this version</p></section>");
        return;
    };
    let check = check_open_document(doc, false, read);
    let report = &check.report;
    let _ = write!(
        body,
        "<p>{} error(s), {} warning(s)</p><ul class=\"findings\">",
        report.errors(),
        report.warnings()
    );
    for f in report.problems.iter().take(MAX_FINDINGS) {
        let p = &f.problem;
        let place = [f.clip_name.as_deref(), f.track_name.as_deref()]
            .into_iter()
            .flatten()
            .collect::<Vec<_>>()
            .join(" · ");
        let _ = write!(
            body,
            "<li class=\"{}\"><code>{}</code> {} <small>{}</small></li>",
            if p.severity == clipscope_core::model::Severity::Error {
                "error"
            } else {
                "warning"
            },
            escape_markup(&p.code),
            escape_markup(&p.message),
            escape_markup(&place)
        );
    }
    body.push_str("</ul>");
    if report.problems.len() > MAX_FINDINGS {
        let _ = write!(
            body,
            "<p class=\"note\">{} more finding(s).</p>",
            report.problems.len() - MAX_FINDINGS
        );
    }
    body.push_str("</section>");
}

/// The page's styles (system fonts only: nothing is fetched).
const STYLE: &str = "body{font:14px/1.45 system-ui,sans-serif;margin:24px auto;max-width:1200px;\
padding:0 16px;color:#222;background:#fbfaf8}h1{font-size:20px;word-break:break-all}\
h2{font-size:17px;margin-top:28px;border-bottom:1px solid #ddd}h3{font-size:15px}\
h4{font-size:13px;margin:10px 0 2px;font-family:ui-monospace,monospace}h4 small{font-weight:normal;\
color:#666}pre.summary{background:#fff;border:1px solid #ddd;padding:10px;overflow-x:auto;\
font-size:12.5px}.verdict.changed{color:#a04000}.verdict.same{color:#2a7a2a}\
.pair{display:flex;gap:16px;flex-wrap:wrap}.pair>figure,.pair>section{flex:1;min-width:320px;\
margin:0;background:#fff;border:1px solid #ddd;padding:8px}figure img{max-width:100%;\
display:block}figcaption{font-size:12px;color:#555;word-break:break-all}\
.none{color:#888;font-style:italic;padding:40px 0;text-align:center}\
svg.plot{background:#fff;border:1px solid #e4e4e4;max-width:100%;height:auto}\
.legend{font-size:12px;color:#555}\
ul.findings{padding-left:18px;font-size:12.5px}li.error code{color:#b00020}\
li.warning code{color:#9a6700}.note{color:#666;font-size:12px}footer{margin-top:32px;\
color:#888;font-size:11px}";
