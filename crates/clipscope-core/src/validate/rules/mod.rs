//! The rule registry: every code a reader or a rule can put on a finding, once, with its
//! default severity, where it applies, a one-line summary, a one-line fix hint and a longer
//! explanation.
//!
//! Everything that names rules reads this table: config checking (`clipscope.toml` may only
//! name registered codes), the engine (a rule that does not apply to a file's format is not
//! run there, see [`Applies`]), SARIF's `rules`, the JSON report's `rules`, `clipscope validate
//! --list-rules` and `--explain CODE`, the editor's filters and the rule table of `docs/rules.md`
//! ([`markdown_table`], printed by `clipscope validate --list-rules --format markdown`; a test
//! fails when the file is stale). A test also proves that every code the source can emit is
//! registered.
//!
//! The catalogue is split by where findings come from: [`model`] (three.js's own checks and
//! clipscope's rules on clips, any format, each saying which format [`Property`] it needs),
//! [`reading`] (what every reader reports while reading), and each format's own rules, kept in
//! the format's module beside the code that emits them and reached through the format registry
//! ([`FormatSpec::rules`](crate::formats::FormatSpec::rules)).

#[cfg(test)]
mod applicability;
#[cfg(test)]
mod coverage;
mod model;
mod reading;

use std::collections::HashMap;
use std::sync::LazyLock;

use serde::Serialize;

use crate::formats::Format;
pub use crate::formats::{Applies, Property, Rule};
use crate::model::Severity;

/// The registry entry as the JSON report and `--list-rules --format json` write it.
#[derive(Debug, Serialize)]
pub struct RuleJson {
    /// See [`Rule::code`].
    pub code: &'static str,
    /// See [`Rule::severity`].
    pub severity: Severity,
    /// The short names of the formats the rule applies to.
    pub formats: Vec<&'static str>,
    /// See [`Rule::summary`].
    pub summary: &'static str,
    /// See [`Rule::fix`].
    pub fix: &'static str,
    /// See [`Rule::explanation`].
    pub explanation: &'static str,
}

impl Rule {
    /// The entry as JSON.
    pub fn to_json(&self) -> RuleJson {
        RuleJson {
            code: self.code,
            severity: self.severity,
            formats: self.format_names(),
            summary: self.summary,
            fix: self.fix,
            explanation: self.explanation,
        }
    }
}

/// Every rule: three.js's errors and the clip rules first, then what readers report, then each
/// format's own rules (in the registry's rule order).
pub fn rules() -> &'static [Rule] {
    static ALL: LazyLock<Vec<Rule>> = LazyLock::new(|| {
        model::RULES
            .iter()
            .chain(reading::RULES)
            .chain(crate::formats::applicability::own_rules())
            .copied()
            .collect()
    });
    &ALL
}

/// The index of every code in [`rules`].
fn index() -> &'static HashMap<&'static str, usize> {
    static INDEX: LazyLock<HashMap<&'static str, usize>> = LazyLock::new(|| {
        rules()
            .iter()
            .enumerate()
            .map(|(i, r)| (r.code, i))
            .collect()
    });
    &INDEX
}

/// The rule with `code`, if it is registered.
pub fn rule(code: &str) -> Option<&'static Rule> {
    index().get(code).map(|&i| &rules()[i])
}

/// The position of `code` in [`rules`] (SARIF's `ruleIndex`).
pub fn rule_index(code: &str) -> Option<usize> {
    index().get(code).copied()
}

/// Whether the rule `code` applies to files of `format` (an unregistered code applies
/// everywhere, so nothing is ever hidden by a missing entry).
pub fn applies(code: &str, format: Format) -> bool {
    rule(code).is_none_or(|r| r.applies_to(format))
}

/// The codes of the rules that do not apply to `format`.
pub fn not_for(format: Format) -> impl Iterator<Item = &'static str> {
    rules()
        .iter()
        .filter(move |r| !r.applies_to(format))
        .map(|r| r.code)
}

/// The codes of the rules that do not apply to a document of `format` checked in memory,
/// where the format's raw-file rules cannot run: [`not_for`] but the rules those raw-file
/// rules stand in for ([`Rule::replaced_by`]).
pub fn not_for_in_memory(format: Format) -> impl Iterator<Item = &'static str> {
    rules()
        .iter()
        .filter(move |r| {
            let replaced = r
                .replaced_by
                .and_then(rule)
                .is_some_and(|by| by.applies_to(format));
            !r.applies_to(format) && !replaced
        })
        .map(|r| r.code)
}

/// The rule table of `docs/rules.md` and `clipscope validate --list-rules --format markdown`: one
/// row per rule with its code, default severity, formats, summary and fix hint.
pub fn markdown_table() -> String {
    let mut out =
        String::from("| code | default | formats | finds | fix |\n|---|---|---|---|---|\n");
    for r in rules() {
        let severity = match r.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        out.push_str(&format!(
            "| `{}` | {severity} | {} | {} | {} |\n",
            r.code,
            r.describe_formats(),
            r.summary.replace('|', "\\|"),
            r.fix.replace('|', "\\|"),
        ));
    }
    out
}

/// The `--explain CODE` text: the code, its severity and formats, then the summary, the
/// explanation and the fix, wrapped for a terminal.
pub fn explain(r: &Rule) -> String {
    let severity = match r.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
    };
    format!(
        "{} ({severity} by default; {})\n\n{}\n\n{}\n\nFix: {}\n",
        r.code,
        r.describe_formats(),
        wrap(r.summary, 96),
        wrap(r.explanation, 96),
        r.fix
    )
}

/// `text` with lines broken at spaces so that none is longer than `width` (unless a word is).
fn wrap(text: &str, width: usize) -> String {
    let mut out = String::new();
    let mut line = 0;
    for word in text.split_whitespace() {
        if line > 0 && line + 1 + word.len() > width {
            out.push('\n');
            line = 0;
        } else if line > 0 {
            out.push(' ');
            line += 1;
        }
        out.push_str(word);
        line += word.len();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_unique_kebab_case_with_every_text() {
        for (i, r) in rules().iter().enumerate() {
            assert!(
                r.code
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'),
                "{}",
                r.code
            );
            assert!(rules()[..i].iter().all(|o| o.code != r.code), "{}", r.code);
            for (what, text) in [
                ("summary", r.summary),
                ("fix", r.fix),
                ("explanation", r.explanation),
            ] {
                assert!(!text.trim().is_empty(), "{} has no {what}", r.code);
                assert!(!text.contains('\n'), "{}: {what} is one paragraph", r.code);
            }
            assert!(
                Format::ALL.iter().any(|&f| r.applies_to(f)),
                "{} applies to no format",
                r.code
            );
            assert_eq!(rule(r.code), Some(r));
            assert_eq!(rule_index(r.code), Some(i));
            if let Some(by) = r.replaced_by {
                let by = rule(by).unwrap_or_else(|| panic!("{}: {by} is no rule", r.code));
                assert!(
                    Format::ALL
                        .iter()
                        .any(|&f| !r.applies_to(f) && by.applies_to(f)),
                    "{} is replaced by {} in no format it is off for",
                    r.code,
                    by.code
                );
            }
        }
        assert_eq!(
            rule("loop-seam").map(|r| r.severity),
            Some(Severity::Warning)
        );
        assert!(rule("nope").is_none());
    }

    #[test]
    fn format_lists() {
        let lottie_off = rule("duration-longer-than-keys").unwrap();
        assert!(!lottie_off.applies_to(Format::Lottie));
        assert!(lottie_off.applies_to(Format::ThreeJs));
        assert!(!applies("duration-longer-than-keys", Format::Lottie));
        assert!(applies("not-registered", Format::Lottie));
        assert!(not_for(Format::Lottie).any(|c| c == "duration-longer-than-keys"));
        assert!(not_for(Format::Gltf).any(|c| c == "unsorted-times"));
        assert!(!not_for_in_memory(Format::Gltf).any(|c| c == "unsorted-times"));
        assert!(not_for_in_memory(Format::Lottie).any(|c| c == "duplicate-times"));
        assert_eq!(
            rule("gltf-empty-entity").unwrap().describe_formats(),
            "gltf, glb"
        );
        assert_eq!(
            rule("loop-seam").unwrap().describe_formats(),
            "every format"
        );
    }

    #[test]
    fn explanation_is_wrapped_and_names_the_fix() {
        let text = explain(rule("loop-seam").unwrap());
        assert!(text.starts_with("loop-seam (warning by default; every format)\n"));
        assert!(text.contains("\nFix: "));
        assert!(text.lines().all(|l| l.len() <= 96 || !l.contains(' ')));
        let table = markdown_table();
        assert_eq!(table.lines().count(), rules().len() + 2);
        assert!(table.contains("| `loop-seam` | warning | every format |"));
    }

    /// `docs/rules.md` holds the registry's table between its `rules:` markers. When it does not,
    /// the fresh file is written to `target/rules.md` and the failure says how to regenerate it.
    #[test]
    fn docs_rules_md_is_the_registry() {
        let page = include_str!("../../../../../docs/rules.md");
        let start = "<!-- rules:start -->\n";
        let end = "<!-- rules:end -->";
        let from = page
            .find(start)
            .expect("docs/rules.md has the rules:start marker")
            + start.len();
        let to = page[from..]
            .find(end)
            .expect("docs/rules.md has the rules:end marker")
            + from;
        let expected = markdown_table();
        if page[from..to] != expected {
            let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .ancestors()
                .nth(2)
                .expect("the workspace root");
            let out = root.join("target/rules.md");
            let _ = std::fs::create_dir_all(root.join("target"));
            let _ = std::fs::write(&out, format!("{}{expected}{}", &page[..from], &page[to..]));
            panic!(
                "docs/rules.md is not the registry's rule table: put the output of \
                 `cargo run -p clipscope --no-default-features -- validate --list-rules --format \
                 markdown` between its rules: markers, or copy {} (the page with the fresh table) \
                 over it",
                out.display()
            );
        }
    }
}
