//! The text report: per file a verdict line, then one indented line per finding naming the
//! rule, the place (clip, track, key, time) and what is wrong; a summary line at the end.

use std::fmt::Write as _;

use clipscope_core::model::Severity;
use clipscope_core::validate::Run;

/// The text report of `run`.
pub fn to_text(run: &Run) -> String {
    let mut out = String::new();
    let (mut errors, mut warnings, mut suppressed) = (0, 0, 0);
    for r in &run.reports {
        let (e, w) = (r.errors(), r.warnings());
        errors += e;
        warnings += w;
        suppressed += r.suppressed;
        let verdict = match (e, w) {
            (0, 0) => "ok".to_string(),
            _ => format!("{e} error(s), {w} warning(s)"),
        };
        let _ = writeln!(out, "{}: {verdict}", r.path);
        for f in &r.problems {
            let p = &f.problem;
            let mut place = String::new();
            if let Some(c) = p.clip {
                let name = f.clip_name.as_deref().unwrap_or("");
                let _ = write!(place, "clip {c} \"{name}\"");
            }
            if let Some(t) = p.track {
                let _ = write!(place, " track {t}");
                if let Some(name) = &f.track_name {
                    let _ = write!(place, " \"{name}\"");
                }
            }
            if let Some(k) = p.key {
                let _ = write!(place, " key {k}");
            }
            if let Some(time) = p.time {
                let _ = write!(place, " at {time} s");
            }
            let sev = match p.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
            };
            let place = place.trim();
            let sep = if place.is_empty() { "" } else { ": " };
            let _ = writeln!(out, "  {sev:<7} {:<26} {place}{sep}{}", p.code, p.message);
        }
    }
    let _ = write!(
        out,
        "{} file(s): {errors} error(s), {warnings} warning(s)",
        run.reports.len()
    );
    if suppressed > 0 {
        let _ = write!(out, ", {suppressed} suppressed by the baseline");
    }
    out.push('\n');
    out
}
