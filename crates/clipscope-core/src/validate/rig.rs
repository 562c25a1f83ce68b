//! `--rig FILE` (or `rig` in `clipscope.toml`): the node names clips must bind to
//! (`unbound-track`). FILE is a clipscope rig (`assets/rigs/hero.json`: the rig's name and its
//! parts) or any file clipscope reads: its skeleton's bones, else the nodes its clips animate.

use std::fmt;
use std::path::{Path, PathBuf};

use crate::formats::rig_file::RigFile;
use crate::formats::{self, ReadError, ReadOptions};
use crate::model::binding::animated_nodes;

/// The node names of the rig or model at `path` (read with `read`); a one-line error when it
/// cannot be read.
pub fn rig_nodes(path: &Path, read: &ReadOptions) -> Result<Vec<String>, RigNodesError> {
    let bytes = std::fs::read(path).map_err(|source| RigNodesError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    if let Ok(rig) = RigFile::parse(&bytes, path) {
        return Ok(rig.node_names());
    }
    let doc = formats::read_bytes_with(&bytes, path, read).map_err(RigNodesError::Read)?;
    let mut names: Vec<String> = match &doc.skeleton {
        Some(skeleton) => skeleton.bones.iter().map(|b| b.name.clone()).collect(),
        None => Vec::new(),
    };
    for clip in &doc.clips {
        for node in animated_nodes(clip) {
            if !names.contains(&node) {
                names.push(node);
            }
        }
    }
    Ok(names)
}

/// Why the rig's node names could not be read (exit status 2). Its [`Display`](fmt::Display)
/// is one line naming the file.
#[derive(Debug)]
#[non_exhaustive]
pub enum RigNodesError {
    /// The file could not be read.
    Io {
        /// The file.
        path: PathBuf,
        /// What the file system said.
        source: std::io::Error,
    },
    /// The file is neither a rig file nor a file clipscope reads.
    Read(ReadError),
}

impl fmt::Display for RigNodesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RigNodesError::Io { path, source } => write!(f, "{}: {source}", path.display()),
            RigNodesError::Read(e) => write!(f, "--rig: {e}"),
        }
    }
}

impl std::error::Error for RigNodesError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            RigNodesError::Io { source, .. } => Some(source),
            RigNodesError::Read(e) => Some(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rig_files_give_their_names_and_bad_files_say_why() {
        let dir = tempfile::tempdir().unwrap();
        let rig = dir.path().join("r.json");
        std::fs::write(
            &rig,
            r##"{"name": "R", "parts": [{"name": "hips", "size": [1, 1, 1], "colour": "#ffffff"}]}"##,
        )
        .unwrap();
        let read = ReadOptions::default();
        assert_eq!(rig_nodes(&rig, &read).unwrap(), ["R", "hips"]);
        let e = rig_nodes(&dir.path().join("none.json"), &read).unwrap_err();
        assert!(matches!(e, RigNodesError::Io { .. }), "{e:?}");
        assert!(e.to_string().contains("none.json: "), "{e}");
        let bad = dir.path().join("bad.json");
        std::fs::write(&bad, "[1, 2").unwrap();
        let e = rig_nodes(&bad, &read).unwrap_err();
        assert!(e.to_string().starts_with("--rig: "), "{e}");
        assert!(std::error::Error::source(&e).is_some());
    }
}
