//! A file as it was at a git revision: `clipscope open FILE --against REV` and the compare
//! view's "Compare with revision…" read the other version through `git show REV:./NAME`, run in
//! the file's folder.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Another version of a file: its bytes and how to name it.
#[derive(Debug, Clone)]
pub struct OtherVersion {
    /// The file's contents in that version.
    pub bytes: Vec<u8>,
    /// A name for reports and titles (`walk.json @ HEAD~1`, or the other file's path).
    pub label: String,
    /// The path to read it as (the file itself for a revision, so relative references such
    /// as glTF buffers resolve beside it; the other file for a file).
    pub path: PathBuf,
}

/// The version `against` names of `file`: an existing file, else a git revision (`HEAD`,
/// `main`, `HEAD~2`, a commit) of `file` in its repository.
pub fn read(file: &Path, against: &str) -> Result<OtherVersion, String> {
    let other = Path::new(against);
    if other.is_file() {
        let bytes = std::fs::read(other).map_err(|e| format!("{}: {e}", other.display()))?;
        return Ok(OtherVersion {
            bytes,
            label: other.display().to_string(),
            path: other.to_path_buf(),
        });
    }
    let name = file
        .file_name()
        .ok_or_else(|| format!("{}: not a file name", file.display()))?;
    let folder = file
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let spec = format!("{against}:./{}", name.to_string_lossy());
    let output = Command::new("git")
        .arg("-C")
        .arg(folder)
        .args(["show", "--no-textconv", &spec])
        .output()
        .map_err(|e| format!("cannot run git: {e}"))?;
    if !output.status.success() {
        let reason = String::from_utf8_lossy(&output.stderr);
        let reason = reason.lines().next().unwrap_or("git show failed").trim();
        return Err(format!(
            "{against:?} is neither a file nor a git revision of {}: {reason}",
            file.display()
        ));
    }
    Ok(OtherVersion {
        bytes: output.stdout,
        label: format!("{} @ {against}", name.to_string_lossy()),
        path: file.to_path_buf(),
    })
}
