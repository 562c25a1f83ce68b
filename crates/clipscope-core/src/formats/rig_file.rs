//! The clipscope rig file (`assets/rigs/*.json`) as serde sees it: a named tree of parts, each a
//! box with a colour and a rest transform. The scene builds figures from it
//! (`clipscope_scene::Rig::from_json`); the validation engine takes the node names a `--rig`
//! file declares.
//!
//! ```json
//! {
//!   "name": "Hero",
//!   "morphTargets": ["blink"],
//!   "parts": [
//!     { "name": "hips", "size": [0.44, 0.2, 0.26], "colour": "#4f6d8f", "position": [0, 0.95, 0] }
//!   ]
//! }
//! ```

use std::path::Path;

use serde::Deserialize;

use super::json::path::{offset_of, path_at};
use super::{ReadError, ReadErrorKind};

/// A rig file as written.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RigFile {
    /// The rig's name.
    pub name: String,
    /// Morph-target names on the root.
    #[serde(default, rename = "morphTargets")]
    pub morph_targets: Vec<String>,
    /// The parts, in any order.
    pub parts: Vec<PartFile>,
}

/// One part as written.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PartFile {
    /// The part's node name.
    pub name: String,
    /// The parent part's name.
    #[serde(default)]
    pub parent: Option<String>,
    /// The box size.
    pub size: [f32; 3],
    /// sRGB hex colour, `#rrggbb`.
    #[serde(alias = "color")]
    pub colour: String,
    /// Box centre relative to the pivot.
    #[serde(default)]
    pub offset: [f32; 3],
    /// Pivot relative to the parent's pivot.
    #[serde(default)]
    pub position: [f32; 3],
    /// Quaternion `[x, y, z, w]` or Euler degrees `[x, y, z]`.
    #[serde(default)]
    pub rotation: Option<Vec<f32>>,
    /// Rest scale.
    #[serde(default = "unit_scale")]
    pub scale: [f32; 3],
}

/// The default scale.
fn unit_scale() -> [f32; 3] {
    [1.0; 3]
}

impl RigFile {
    /// Parses a rig file's JSON (`file` names it in errors): a one-line error with the JSON
    /// path of the first thing that does not fit the schema.
    pub fn parse(bytes: &[u8], file: &Path) -> Result<RigFile, ReadError> {
        serde_json::from_slice(bytes).map_err(|e| {
            let offset = offset_of(bytes, e.line(), e.column()) + usize::from(e.is_eof());
            let mut reason = e.to_string();
            if let Some(cut) = reason.rfind(" at line ") {
                reason.truncate(cut);
            }
            let mut path = path_at(bytes, offset);
            if reason.starts_with("missing field") {
                // Reported at the end of the object, after its last key: name the object.
                path.truncate(path.rfind('.').unwrap_or(0));
            }
            ReadError::new(ReadErrorKind::of_json(&e), file, path, reason)
        })
    }

    /// The node names the rig declares: its root (the rig's name), then every part.
    pub fn node_names(&self) -> Vec<String> {
        let mut names = vec![self.name.clone()];
        names.extend(self.parts.iter().map(|p| p.name.clone()));
        names
    }
}
