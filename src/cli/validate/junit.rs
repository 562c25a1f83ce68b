//! `--format junit`: the run as JUnit XML, which every CI shows as a test report. Each file is a
//! testsuite; each clip is a testcase (a file without clips, or a finding outside any clip, gets
//! a testcase named after the file) with one `<failure>` per error; warnings go to the
//! testcase's `<system-out>`.

use std::fmt::Write as _;

use clipscope_core::model::Severity;
use clipscope_core::validate::{FileReport, Run};

use crate::cli::output::escape_markup;

/// The testcases of one file: `(name, clip index)`.
fn cases(report: &FileReport) -> Vec<(String, Option<usize>)> {
    let mut cases: Vec<(String, Option<usize>)> = Vec::new();
    if report.clip_names.is_empty() || report.problems.iter().any(|f| f.problem.clip.is_none()) {
        cases.push((report.relative.clone(), None));
    }
    for (i, name) in report.clip_names.iter().enumerate() {
        cases.push((format!("clip {i} \"{name}\""), Some(i)));
    }
    cases
}

/// The JUnit XML of `run`.
pub fn to_junit(run: &Run) -> String {
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let total: usize = run.reports.iter().map(|r| cases(r).len()).sum();
    let failures: usize = run.reports.iter().map(|r| r.errors()).sum();
    let _ = writeln!(
        out,
        "<testsuites name=\"clipscope validate\" tests=\"{total}\" failures=\"{failures}\">"
    );
    for report in &run.reports {
        let cases = cases(report);
        let _ = writeln!(
            out,
            "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\">",
            escape_markup(&report.relative),
            cases.len(),
            report.errors()
        );
        for (name, clip) in cases {
            let _ = writeln!(
                out,
                "    <testcase classname=\"{}\" name=\"{}\">",
                escape_markup(&report.relative),
                escape_markup(&name)
            );
            let mine: Vec<_> = report
                .problems
                .iter()
                .filter(|f| f.problem.clip == clip)
                .collect();
            let mut warnings = String::new();
            for f in mine {
                let p = &f.problem;
                let place = match (&f.track_name, p.key) {
                    (Some(t), Some(k)) => format!("track \"{t}\" key {k}: "),
                    (Some(t), None) => format!("track \"{t}\": "),
                    (None, Some(k)) => format!("key {k}: "),
                    (None, None) => String::new(),
                };
                if p.severity == Severity::Error {
                    let _ = writeln!(
                        out,
                        "      <failure type=\"{}\" message=\"{}\"/>",
                        escape_markup(&p.code),
                        escape_markup(&format!("{place}{}", p.message))
                    );
                } else {
                    let _ = writeln!(warnings, "warning {}: {place}{}", p.code, p.message);
                }
            }
            if !warnings.is_empty() {
                let _ = writeln!(
                    out,
                    "      <system-out>{}</system-out>",
                    escape_markup(&warnings)
                );
            }
            out.push_str("    </testcase>\n");
        }
        out.push_str("  </testsuite>\n");
    }
    out.push_str("</testsuites>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::escape_markup;

    #[test]
    fn escapes_the_five_characters() {
        assert_eq!(
            escape_markup(r#"<a & 'b' "c">"#),
            "&lt;a &amp; &apos;b&apos; &quot;c&quot;&gt;"
        );
    }
}
