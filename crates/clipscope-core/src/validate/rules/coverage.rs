//! Proof that the registry covers every code: statically, every kebab-case string literal in
//! the code that emits findings (readers, format rules, model rules, the engine) is a registered
//! code or one of a few named non-codes; dynamically, every finding the engine reports on the
//! sample files and on bad input carries a registered code with the registered severity.

use std::path::{Path, PathBuf};

use super::{rule, rules};
use crate::formats::Format;
use crate::validate::config::FileSettings;
use crate::validate::engine::check_bytes;

/// Kebab-case literals in emitting code that are not rule codes.
fn not_a_code(literal: &str) -> bool {
    // Format names (the registry's short names) and a tangent mode name.
    Format::ALL.iter().any(|f| f.name() == literal) || literal == "auto-clamped"
}

/// The kebab-case string literals (`"a-b"`, lowercase words joined by `-`) of `text`, outside
/// comments, attributes and its `#[cfg(test)]` part.
fn kebab_literals(text: &str) -> Vec<String> {
    let code = text.split("#[cfg(test)]").next().unwrap_or("");
    let mut out = Vec::new();
    for line in code.lines() {
        let line = line.trim_start();
        if line.starts_with("//") || line.starts_with("#[") {
            continue;
        }
        // Alternating outside / inside string literals; a `//` outside ends the code.
        let mut parts = line.split('"');
        if parts.next().is_some_and(|outside| outside.contains("//")) {
            continue;
        }
        while let (Some(inside), Some(outside)) = (parts.next(), parts.next()) {
            let comment = outside.contains("//");
            let kebab = inside.contains('-')
                && inside.split('-').all(|w| {
                    !w.is_empty()
                        && w.chars()
                            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
                });
            if kebab {
                out.push(inside.to_string());
            }
            if comment {
                break;
            }
        }
    }
    out
}

#[test]
fn every_code_in_the_source_is_registered() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let files: Vec<PathBuf> = ["model", "formats", "validate"]
        .iter()
        .flat_map(|dir| clipscope_test_support::rust_sources(&root.join(dir)))
        .collect();
    let mut found = 0;
    for file in files.iter().filter(|f| !f.ends_with("rules/coverage.rs")) {
        let text = std::fs::read_to_string(file).unwrap();
        for literal in kebab_literals(&text) {
            if not_a_code(&literal) {
                continue;
            }
            found += 1;
            assert!(
                rule(&literal).is_some(),
                "{}: \"{literal}\" is emitted but not in the rule registry",
                file.display()
            );
        }
    }
    assert!(found > 40, "only {found} codes found: the scan is broken");
    // The reader codes that once were missing from the list.
    for code in [
        "unknown-blend-mode",
        "number-out-of-range",
        "invalid-tangent-size",
    ] {
        assert!(rule(code).is_some(), "{code}");
    }
}

#[test]
fn the_literal_scan_skips_comments_attributes_and_tests() {
    let text = "let a = \"loop-seam\"; // \"not-this\"\n#[serde(rename_all = \"kebab-case\")]\n\
                f(\"x\", \"empty-clip\", \"Not-Code\", \"-\");\n#[cfg(test)]\n\"late-one\"";
    assert_eq!(kebab_literals(text), ["loop-seam", "empty-clip"]);
}

/// Checks every finding on `bytes` (the contents of `path`) against the registry.
fn check_registered(bytes: &[u8], path: &Path, seen: &mut Vec<String>) {
    let report = check_bytes(bytes, path, &FileSettings::default(), &Default::default());
    for f in &report.problems {
        let code = &f.problem.code;
        let Some(r) = rule(code) else {
            panic!("{}: {code} is not registered", path.display());
        };
        assert_eq!(
            r.severity,
            f.problem.severity,
            "{}: {code} is reported with another severity than registered",
            path.display()
        );
        if let Some(format) = report.format.and_then(Format::from_name) {
            assert!(
                r.applies_to(format),
                "{}: {code} on {format}",
                path.display()
            );
        }
        seen.push(code.clone());
    }
}

#[test]
fn every_finding_on_the_samples_is_registered_with_its_severity() {
    let Some(root) = clipscope_test_support::sample_data("") else {
        return;
    };
    let mut files = Vec::new();
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                walk(&path, out);
            } else if path
                .extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| crate::formats::clip_extensions().contains(&e))
                && !path.to_string_lossy().ends_with(".report.json")
            {
                out.push(path);
            }
        }
    }
    walk(&root, &mut files);
    let mut seen = Vec::new();
    for file in &files {
        let bytes = std::fs::read(file).unwrap();
        check_registered(&bytes, file, &mut seen);
    }
    // Bad input of every kind the three.js reader reports.
    for (name, text) in [
        ("blend.json", r#"{"name":"c","blendMode":7,"tracks":[]}"#),
        (
            "range.json",
            r#"{"name":"c","tracks":[{"name":".p","type":"number","times":[0],"values":[1e39]}]}"#,
        ),
        (
            "nan.json",
            r#"{"name":"c","tracks":[{"name":".p","type":"number","times":["x"],"values":["y"]}]}"#,
        ),
    ] {
        check_registered(text.as_bytes(), Path::new(name), &mut seen);
    }
    seen.sort();
    seen.dedup();
    assert!(seen.len() > 10, "{seen:?}");
    assert!(rules().len() > seen.len());
}
