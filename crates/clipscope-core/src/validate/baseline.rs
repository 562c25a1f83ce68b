//! Baselines: adopting `validate` on a repository that already has findings.
//!
//! `--baseline FILE --update-baseline` writes every current finding to FILE; later runs with
//! `--baseline FILE` suppress the findings listed there, so only new ones are reported (and
//! fail). An entry is what stays stable while a file is edited elsewhere: the path relative to
//! the config root, the rule code, the clip and track *names* and the key index, never the
//! message (whose numbers change). Entries are sorted, so the file diffs cleanly.

use std::collections::BTreeSet;
use std::path::Path;

use serde::{Deserialize, Serialize};

/// One known finding.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Entry {
    /// The file, relative to the config root, with forward slashes.
    pub path: String,
    /// The rule code.
    pub code: String,
    /// The clip's name, if the finding belongs to a clip.
    pub clip: Option<String>,
    /// The track's name, if the finding belongs to a track.
    pub track: Option<String>,
    /// The key index, if the finding belongs to a key.
    pub key: Option<usize>,
}

/// The baseline file: a version and the sorted entries.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Baseline {
    /// Format version, 1.
    pub version: u32,
    /// Known findings, sorted and without repeats.
    pub findings: BTreeSet<Entry>,
}

impl Baseline {
    /// A baseline holding `entries`.
    pub fn new(entries: impl IntoIterator<Item = Entry>) -> Baseline {
        Baseline {
            version: 1,
            findings: entries.into_iter().collect(),
        }
    }

    /// Reads FILE, or an empty baseline when it does not exist yet.
    pub fn read_or_empty(path: &Path) -> Result<Baseline, String> {
        match std::fs::read(path) {
            Ok(bytes) => serde_json::from_slice(&bytes)
                .map_err(|e| format!("{}: not a clipscope baseline: {e}", path.display())),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Baseline::new([])),
            Err(e) => Err(format!("{}: {e}", path.display())),
        }
    }

    /// Writes the baseline to `path` atomically, pretty printed with one entry per line block.
    pub fn write(&self, path: &Path) -> Result<(), String> {
        let mut text = serde_json::to_string_pretty(self).map_err(|e| e.to_string())?;
        text.push('\n');
        crate::formats::atomic::write_atomic(path, text.as_bytes())
            .map_err(|e| format!("{}: cannot write: {e}", path.display()))
    }

    /// Whether `entry` is a known finding.
    pub fn contains(&self, entry: &Entry) -> bool {
        self.findings.contains(entry)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_sorted_and_missing_is_empty() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("baseline.json");
        assert!(Baseline::read_or_empty(&path).unwrap().findings.is_empty());
        let e = |p: &str| Entry {
            path: p.into(),
            code: "loop-seam".into(),
            clip: Some("walk".into()),
            track: None,
            key: Some(3),
        };
        Baseline::new([e("b.json"), e("a.json"), e("a.json")])
            .write(&path)
            .unwrap();
        let back = Baseline::read_or_empty(&path).unwrap();
        assert_eq!(back.findings.len(), 2);
        assert!(back.contains(&e("a.json")));
        assert!(!back.contains(&e("c.json")));
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.find("a.json").unwrap() < text.find("b.json").unwrap());
        std::fs::write(&path, "nope").unwrap();
        assert!(
            Baseline::read_or_empty(&path)
                .unwrap_err()
                .contains("baseline.json")
        );
    }
}
