//! The architecture's rules, checked on the source (docs/ARCHITECTURE.md, "Crates and layers"):
//!
//! - no import cycles: inside every module of every crate, no two child modules depend on each
//!   other, directly or around a loop (a child using its parent's items, and a parent declaring
//!   and re-exporting its children, is the normal shape and not a cycle);
//! - one concept per file: no source file over 900 lines before its tests, no function outside
//!   tests over 150 lines;
//! - the core crate depends on no GUI or terminal crate.
#![allow(clippy::unwrap_used)] // test code: a panic is the failure message

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use clipscope_test_support::rust_sources;

/// The workspace root (two folders above this crate).
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The source folders of the workspace's crates: the app's `src/` and each `crates/*/src/`.
fn crate_sources() -> Vec<PathBuf> {
    let mut dirs = vec![root().join("src")];
    let mut crates: Vec<PathBuf> = std::fs::read_dir(root().join("crates"))
        .unwrap()
        .flatten()
        .map(|e| e.path().join("src"))
        .filter(|p| p.is_dir())
        .collect();
    crates.sort();
    dirs.extend(crates);
    dirs
}

/// A module path inside a crate (`["formats", "gltf"]`; empty for the crate root).
type ModPath = Vec<String>;

/// The module a source file defines, from its path below the crate's `src/`.
fn module_of(src: &Path, file: &Path) -> ModPath {
    let rel = file.strip_prefix(src).unwrap().with_extension("");
    let mut parts: ModPath = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("lib" | "main" | "mod")
    ) {
        parts.pop();
    }
    parts
}

/// The text of a file before its `#[cfg(test)]` module.
fn before_tests(text: &str) -> &str {
    match text.find("\n#[cfg(test)]") {
        Some(at) => &text[..at],
        None => text,
    }
}

/// `text` without `//` comments (doc links name modules without depending on them).
fn without_comments(text: &str) -> String {
    text.lines()
        .map(|line| match line.find("//") {
            Some(at) => &line[..at],
            None => line,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every path starting with `crate`, `super` or `self` in `code`, with `use` groups expanded
/// (`crate::a::{b, c::d}` gives `crate::a::b` and `crate::a::c::d`), as segments.
fn paths_in(code: &str) -> Vec<Vec<String>> {
    let bytes = code.as_bytes();
    let mut out = Vec::new();
    let is_ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let mut i = 0;
    while i < bytes.len() {
        let starts = ["crate", "super", "self"]
            .into_iter()
            .find(|w| bytes[i..].starts_with(w.as_bytes()) && (i == 0 || !is_ident(bytes[i - 1])));
        let Some(word) = starts else {
            i += 1;
            continue;
        };
        let mut j = i + word.len();
        if j < bytes.len() && is_ident(bytes[j]) {
            i = j;
            continue;
        }
        let mut head = vec![word.to_string()];
        loop {
            if bytes[j..].starts_with(b"::{") {
                let open = j + 3;
                let mut depth = 1;
                let mut k = open;
                while k < bytes.len() && depth > 0 {
                    match bytes[k] {
                        b'{' => depth += 1,
                        b'}' => depth -= 1,
                        _ => {}
                    }
                    k += 1;
                }
                for part in split_top_level(&code[open..k.saturating_sub(1)]) {
                    let part = part.split('{').next().unwrap_or("");
                    let mut path = head.clone();
                    path.extend(
                        part.split("::")
                            .map(|s| s.split_whitespace().next().unwrap_or("").to_string())
                            .filter(|s| !s.is_empty() && s != "self" && s != "*"),
                    );
                    out.push(path);
                }
                j = k;
                break;
            } else if bytes[j..].starts_with(b"::") {
                let start = j + 2;
                let mut k = start;
                while k < bytes.len() && is_ident(bytes[k]) {
                    k += 1;
                }
                if k == start {
                    out.push(head.clone());
                    break;
                }
                head.push(code[start..k].to_string());
                j = k;
            } else {
                out.push(head.clone());
                break;
            }
        }
        i = j.max(i + 1);
    }
    out
}

/// The comma-separated parts of a `use` group, splitting only outside nested braces.
fn split_top_level(group: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let mut depth = 0;
    let mut start = 0;
    for (i, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(group[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(group[start..].trim());
    parts
}

/// The deepest module of the crate that `path`, written in module `from`, names.
fn resolve(from: &ModPath, path: &[String], modules: &BTreeSet<ModPath>) -> ModPath {
    let (mut at, rest): (ModPath, &[String]) = match path[0].as_str() {
        "crate" => (Vec::new(), &path[1..]),
        "self" => (from.clone(), &path[1..]),
        _ => {
            let mut at = from.clone();
            let mut rest = path;
            while rest.first().is_some_and(|s| s == "super") {
                at.pop();
                rest = &rest[1..];
            }
            (at, rest)
        }
    };
    for segment in rest {
        let mut next = at.clone();
        next.push(segment.clone());
        if !modules.contains(&next) {
            break;
        }
        at = next;
    }
    at
}

/// Whether the module `child`, declared in `parent_text`, is declared under `#[cfg(test)]`.
fn declared_for_tests(parent_text: &str, child: &str) -> bool {
    let lines: Vec<&str> = parent_text.lines().collect();
    lines.iter().enumerate().any(|(i, line)| {
        let line = line.trim();
        let declares = line
            .trim_start_matches("pub(crate) ")
            .trim_start_matches("pub(super) ")
            .trim_start_matches("pub ")
            == format!("mod {child};");
        declares && i > 0 && lines[i - 1].trim() == "#[cfg(test)]"
    })
}

/// The cycles among sibling modules of the crate whose sources are in `src`, each as the
/// parent module and the children on the cycle.
fn sibling_cycles(src: &Path) -> Vec<String> {
    let mut files: BTreeMap<ModPath, PathBuf> = rust_sources(src)
        .into_iter()
        .map(|f| (module_of(src, &f), f))
        .collect();
    let texts: HashMap<ModPath, String> = files
        .iter()
        .map(|(m, f)| (m.clone(), std::fs::read_to_string(f).unwrap()))
        .collect();
    // Test-only modules do not count.
    let test_only: Vec<ModPath> = files
        .keys()
        .filter(|m| {
            !m.is_empty()
                && texts
                    .get(&m[..m.len() - 1])
                    .is_some_and(|parent| declared_for_tests(parent, m.last().unwrap()))
        })
        .cloned()
        .collect();
    files.retain(|m, _| !test_only.iter().any(|t| m.starts_with(t)));
    let modules: BTreeSet<ModPath> = files.keys().cloned().collect();
    let mut deps: BTreeMap<ModPath, BTreeSet<ModPath>> = BTreeMap::new();
    for module in &modules {
        let code = without_comments(before_tests(&texts[module]));
        for path in paths_in(&code) {
            let target = resolve(module, &path, &modules);
            if &target != module {
                deps.entry(module.clone()).or_default().insert(target);
            }
        }
    }
    let mut cycles = Vec::new();
    for parent in &modules {
        let child_of = |m: &ModPath| -> Option<ModPath> {
            (m.len() > parent.len() && m.starts_with(parent)).then(|| m[..=parent.len()].to_vec())
        };
        let mut edges: BTreeMap<ModPath, BTreeSet<ModPath>> = BTreeMap::new();
        for (from, targets) in &deps {
            let Some(a) = child_of(from) else { continue };
            for target in targets {
                if let Some(b) = child_of(target)
                    && a != b
                {
                    edges.entry(a.clone()).or_default().insert(b);
                }
            }
        }
        for component in strongly_connected(&edges) {
            if component.len() > 1 {
                let names: Vec<String> = component.iter().map(|m| m.join("::")).collect();
                cycles.push(format!(
                    "{}: in {}: {}",
                    src.display(),
                    if parent.is_empty() {
                        "the crate root".to_string()
                    } else {
                        parent.join("::")
                    },
                    names.join(" ↔ ")
                ));
            }
        }
    }
    cycles
}

/// Tarjan's strongly connected components of `edges`.
fn strongly_connected(edges: &BTreeMap<ModPath, BTreeSet<ModPath>>) -> Vec<Vec<ModPath>> {
    struct State<'e> {
        edges: &'e BTreeMap<ModPath, BTreeSet<ModPath>>,
        index: HashMap<ModPath, usize>,
        low: HashMap<ModPath, usize>,
        stack: Vec<ModPath>,
        on_stack: BTreeSet<ModPath>,
        out: Vec<Vec<ModPath>>,
    }
    fn visit(v: &ModPath, s: &mut State) {
        let n = s.index.len();
        s.index.insert(v.clone(), n);
        s.low.insert(v.clone(), n);
        s.stack.push(v.clone());
        s.on_stack.insert(v.clone());
        for w in s.edges.get(v).into_iter().flatten() {
            if !s.index.contains_key(w) {
                visit(w, s);
                let low = s.low[v].min(s.low[w]);
                s.low.insert(v.clone(), low);
            } else if s.on_stack.contains(w) {
                let low = s.low[v].min(s.index[w]);
                s.low.insert(v.clone(), low);
            }
        }
        if s.low[v] == s.index[v] {
            let mut component = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on_stack.remove(&w);
                let done = &w == v;
                component.push(w);
                if done {
                    break;
                }
            }
            s.out.push(component);
        }
    }
    let mut state = State {
        edges,
        index: HashMap::new(),
        low: HashMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        out: Vec::new(),
    };
    let nodes: Vec<ModPath> = edges.keys().cloned().collect();
    for v in &nodes {
        if !state.index.contains_key(v) {
            visit(v, &mut state);
        }
    }
    state.out
}

#[test]
fn no_import_cycles_between_sibling_modules() {
    let cycles: Vec<String> = crate_sources()
        .iter()
        .flat_map(|s| sibling_cycles(s))
        .collect();
    assert!(
        cycles.is_empty(),
        "modules that depend on each other (move what both need below them):\n{}",
        cycles.join("\n")
    );
}

#[test]
fn the_cycle_finder_finds_a_cycle() {
    let dir = std::env::temp_dir().join(format!("clipscope-arch-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("a")).unwrap();
    std::fs::write(dir.join("lib.rs"), "mod a;\nmod b;\nmod c;\n").unwrap();
    std::fs::write(
        dir.join("a/mod.rs"),
        "use crate::b::{x, y::z};\nmod inner;\n",
    )
    .unwrap();
    std::fs::write(dir.join("a/inner.rs"), "use super::super::c::Thing;\n").unwrap();
    std::fs::write(dir.join("b.rs"), "pub fn x() {}\n").unwrap();
    // c uses a (through a comment and a test module too, which do not count)...
    std::fs::write(
        dir.join("c.rs"),
        "// crate::b::x\nfn f() { crate::a::g(); }\n#[cfg(test)]\nmod tests { use crate::b::x; }\n",
    )
    .unwrap();
    let cycles = sibling_cycles(&dir);
    assert_eq!(cycles.len(), 1, "{cycles:?}");
    assert!(cycles[0].contains("the crate root"), "{cycles:?}");
    assert!(
        cycles[0].contains('a') && cycles[0].contains('c'),
        "{cycles:?}"
    );
    // ... and without that call there is none.
    std::fs::write(dir.join("c.rs"), "fn f() {}\n").unwrap();
    assert!(sibling_cycles(&dir).is_empty());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The longest function of `code` (text before the tests) over `limit` lines, as
/// `(name, first line, lines)`: a `fn` line and the line closing it at the same indentation.
fn long_functions(code: &str, limit: usize) -> Vec<(String, usize, usize)> {
    let lines: Vec<&str> = code.lines().collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let trimmed = line.trim_start();
        let indent = &line[..line.len() - trimmed.len()];
        let signature = trimmed
            .trim_start_matches("pub(crate) ")
            .trim_start_matches("pub(super) ")
            .trim_start_matches("pub ")
            .trim_start_matches("const ")
            .trim_start_matches("unsafe ");
        let Some(rest) = signature.strip_prefix("fn ") else {
            continue;
        };
        if line.trim_end().ends_with(';') {
            continue;
        }
        let name: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        let close = format!("{indent}}}");
        if let Some(end) = lines[i + 1..].iter().position(|l| l.trim_end() == close) {
            let length = end + 2;
            if length > limit {
                out.push((name, i + 1, length));
            }
        }
    }
    out
}

#[test]
fn files_and_functions_stay_small() {
    let mut problems = Vec::new();
    for src in crate_sources() {
        for file in rust_sources(&src) {
            let text = std::fs::read_to_string(&file).unwrap();
            let code = before_tests(&text);
            let lines = code.lines().count();
            if lines > 900 {
                problems.push(format!(
                    "{}: {lines} lines before its tests (at most 900: split it by concept)",
                    file.display()
                ));
            }
            for (name, line, length) in long_functions(code, 150) {
                problems.push(format!(
                    "{}:{line}: fn {name} runs {length} lines (at most 150)",
                    file.display()
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_length_check_measures_functions() {
    let code = "fn short() {\n    1\n}\n\nimpl X {\n    pub fn long() {\n        a();\n        b();\n    }\n}\n";
    assert_eq!(long_functions(code, 3), vec![("long".to_string(), 6, 4)]);
    assert!(long_functions(code, 4).is_empty());
}

#[test]
fn the_core_crate_has_no_gui_or_terminal_dependency() {
    let manifest =
        std::fs::read_to_string(root().join("crates/clipscope-core/Cargo.toml")).unwrap();
    let dependencies = manifest
        .split("\n[")
        .find(|section| section.starts_with("dependencies]"))
        .unwrap();
    for forbidden in [
        "clap",
        "indicatif",
        "eframe",
        "egui",
        "wgpu",
        "rfd",
        "notify",
        "winit",
    ] {
        assert!(
            !dependencies
                .lines()
                .any(|l| l.split(['.', ' ', '=']).next() == Some(forbidden)),
            "clipscope-core depends on {forbidden}"
        );
    }
}
