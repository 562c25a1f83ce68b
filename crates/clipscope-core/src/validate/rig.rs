//! `--rig FILE` (or `rig` in `clipscope.toml`): the node names clips must bind to
//! (`unbound-track`). FILE is a clipscope rig (`assets/rigs/hero.json`: the rig's name and its
//! parts) or any file clipscope reads: its skeleton's bones, else the nodes its clips animate.

use std::path::Path;

use crate::formats::rig_file::RigFile;
use crate::formats::{self, ReadOptions};
use crate::model::binding::animated_nodes;

/// The node names of the rig or model at `path` (read with `read`); a one-line error when it
/// cannot be read.
pub fn rig_nodes(path: &Path, read: &ReadOptions) -> Result<Vec<String>, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    if let Ok(rig) = RigFile::parse(&bytes, path) {
        return Ok(rig.node_names());
    }
    let doc = formats::read_bytes_with(&bytes, path, read).map_err(|e| format!("--rig: {e}"))?;
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
