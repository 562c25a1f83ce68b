//! Baselines: adopting `validate` on a repository that already has findings.
//!
//! `--baseline FILE --update-baseline` writes every current finding to FILE; later runs with
//! `--baseline FILE` suppress the findings listed there, so only new ones are reported (and
//! fail). An entry is what stays stable while a file is edited elsewhere: the path relative to
//! the config root, the rule code, the clip and track *names* and the key index, never the
//! message (whose numbers change). Entries are sorted, so the file diffs cleanly.

use std::collections::BTreeSet;
use std::fmt;
use std::path::{Path, PathBuf};

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
    pub fn read_or_empty(path: &Path) -> Result<Baseline, BaselineError> {
        match std::fs::read(path) {
            Ok(bytes) => {
                serde_json::from_slice(&bytes).map_err(|source| BaselineError::NotABaseline {
                    path: path.to_path_buf(),
                    source,
                })
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Baseline::new([])),
            Err(source) => Err(BaselineError::Read {
                path: path.to_path_buf(),
                source,
            }),
        }
    }

    /// Writes the baseline to `path` atomically, pretty printed with one entry per line block.
    pub fn write(&self, path: &Path) -> Result<(), BaselineError> {
        let mut text = serde_json::to_string_pretty(self).map_err(BaselineError::Serialize)?;
        text.push('\n');
        crate::formats::atomic::write_atomic(path, text.as_bytes()).map_err(|source| {
            BaselineError::Write {
                path: path.to_path_buf(),
                source,
            }
        })
    }

    /// Whether `entry` is a known finding.
    pub fn contains(&self, entry: &Entry) -> bool {
        self.findings.contains(entry)
    }
}

/// Why a baseline could not be read or written (exit status 2). Its
/// [`Display`](fmt::Display) is one line naming the file.
#[derive(Debug)]
#[non_exhaustive]
pub enum BaselineError {
    /// The file exists but could not be read.
    Read {
        /// The file.
        path: PathBuf,
        /// What the file system said.
        source: std::io::Error,
    },
    /// The file is not a baseline.
    NotABaseline {
        /// The file.
        path: PathBuf,
        /// What the JSON reader said.
        source: serde_json::Error,
    },
    /// The baseline could not be turned into JSON.
    Serialize(serde_json::Error),
    /// The file could not be written.
    Write {
        /// The file.
        path: PathBuf,
        /// What the file system said.
        source: std::io::Error,
    },
}

impl fmt::Display for BaselineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BaselineError::Read { path, source } => write!(f, "{}: {source}", path.display()),
            BaselineError::NotABaseline { path, source } => {
                write!(f, "{}: not a clipscope baseline: {source}", path.display())
            }
            BaselineError::Serialize(e) => e.fmt(f),
            BaselineError::Write { path, source } => {
                write!(f, "{}: cannot write: {source}", path.display())
            }
        }
    }
}

impl std::error::Error for BaselineError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            BaselineError::Read { source, .. } | BaselineError::Write { source, .. } => {
                Some(source)
            }
            BaselineError::NotABaseline { source, .. } | BaselineError::Serialize(source) => {
                Some(source)
            }
        }
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
        let e = Baseline::read_or_empty(&path).unwrap_err();
        assert!(matches!(e, BaselineError::NotABaseline { .. }), "{e:?}");
        assert!(
            e.to_string()
                .contains("baseline.json: not a clipscope baseline: "),
            "{e}"
        );
        let e = Baseline::new([])
            .write(&dir.path().join("no/such/folder/b.json"))
            .unwrap_err();
        assert!(e.to_string().contains(": cannot write: "), "{e}");
    }
}
