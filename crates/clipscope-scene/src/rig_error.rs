//! Why a rig is refused: what [`Rig::new`](crate::Rig::new) and the rig file reader
//! ([`Rig::from_rig_file`](crate::Rig::from_rig_file)) find wrong, each naming its culprit by the
//! JSON path a rig file would have (`parts[3].parent`).

use std::fmt;

use glam::Vec3;

/// A rig that cannot be built. Its [`Display`](fmt::Display) is one line, `path: reason`
/// (`parts[3].parent: no part named "hip"`); [`path`](RigError::path) and
/// [`reason`](RigError::reason) give the two halves (a rig file's read error names the file
/// before them).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum RigError {
    /// The rig has no name.
    NoName,
    /// The rig has no parts.
    NoParts,
    /// A part has an empty name.
    EmptyPartName {
        /// The part's index.
        part: usize,
    },
    /// A part has the rig's own name (the name of the pose's root node).
    OwnName {
        /// The part's index.
        part: usize,
        /// The name.
        name: String,
    },
    /// A part has the name of another part.
    DuplicateName {
        /// The index of the later part.
        part: usize,
        /// The name.
        name: String,
        /// The index of the first part with the name, when it is reported.
        first: Option<usize>,
    },
    /// A part's parent names no part.
    UnknownParent {
        /// The part's index.
        part: usize,
        /// The parent's name.
        parent: String,
    },
    /// A part is its own ancestor.
    ParentCycle {
        /// The part's index.
        part: usize,
        /// The names round the cycle, the part's first and last.
        cycle: Vec<String>,
    },
    /// A part's parent index does not come before the part.
    ParentAfter {
        /// The part's index.
        part: usize,
        /// The parent's index.
        parent: usize,
    },
    /// A part's tip (the child its bone points to) is not one of its children.
    TipNotChild {
        /// The part's index.
        part: usize,
        /// The tip's index.
        tip: usize,
    },
    /// A vector of a part (`offset`, `position`, …) is not finite.
    NotFinite {
        /// The part's index.
        part: usize,
        /// The field's name.
        field: &'static str,
    },
    /// A part's size is neither positive nor all zero (a group).
    Size {
        /// The part's index.
        part: usize,
        /// The size.
        size: Vec3,
    },
    /// A part's colour is not an sRGB hex colour.
    Colour {
        /// The part's index.
        part: usize,
        /// The colour as written.
        colour: String,
    },
    /// A part's rotation quaternion is zero or not finite.
    NotAQuaternion {
        /// The part's index.
        part: usize,
    },
    /// A part's rotation is neither a quaternion nor finite Euler angles.
    RotationShape {
        /// The part's index.
        part: usize,
    },
}

impl RigError {
    /// Where the culprit sits, as a rig file's JSON path: `name`, `parts` or `parts[3].parent`.
    pub fn path(&self) -> String {
        let field = |part: &usize, field: &str| format!("parts[{part}].{field}");
        match self {
            RigError::NoName => "name".into(),
            RigError::NoParts => "parts".into(),
            RigError::EmptyPartName { part }
            | RigError::OwnName { part, .. }
            | RigError::DuplicateName { part, .. } => field(part, "name"),
            RigError::UnknownParent { part, .. }
            | RigError::ParentCycle { part, .. }
            | RigError::ParentAfter { part, .. } => field(part, "parent"),
            RigError::TipNotChild { part, .. } => field(part, "tip"),
            RigError::NotFinite { part, field: f } => field(part, f),
            RigError::Size { part, .. } => field(part, "size"),
            RigError::Colour { part, .. } => field(part, "colour"),
            RigError::NotAQuaternion { part } | RigError::RotationShape { part } => {
                field(part, "rotation")
            }
        }
    }

    /// What is wrong, without the path: `no part named "hip"`.
    pub fn reason(&self) -> String {
        match self {
            RigError::NoName => "the rig has no name".into(),
            RigError::NoParts => "the rig has no parts".into(),
            RigError::EmptyPartName { .. } => "empty part name".into(),
            RigError::OwnName { name, .. } => {
                format!("{name:?} is the rig's own name (its root node)")
            }
            RigError::DuplicateName {
                name, first: None, ..
            } => format!("duplicate part name {name:?}"),
            RigError::DuplicateName {
                name,
                first: Some(first),
                ..
            } => format!("duplicate part name {name:?} (also parts[{first}])"),
            RigError::UnknownParent { parent, .. } => format!("no part named {parent:?}"),
            RigError::ParentCycle { cycle, .. } => format!("parent cycle {}", cycle.join(" → ")),
            RigError::ParentAfter { parent, .. } => {
                format!("parent {parent} does not come before the part")
            }
            RigError::TipNotChild { tip, .. } => format!("part {tip} is not a child of the part"),
            RigError::NotFinite { .. } => "not a finite number".into(),
            RigError::Size { size, .. } => format!("sizes must be positive, got {size}"),
            RigError::Colour { colour, .. } => {
                format!("{colour:?} is not an sRGB hex colour like \"#e8a15c\"")
            }
            RigError::NotAQuaternion { .. } => "not a rotation quaternion".into(),
            RigError::RotationShape { .. } => {
                "expected a quaternion [x, y, z, w] or Euler degrees [x, y, z]".into()
            }
        }
    }
}

impl fmt::Display for RigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path(), self.reason())
    }
}

impl std::error::Error for RigError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn path_and_reason_make_one_line() {
        let e = RigError::ParentCycle {
            part: 2,
            cycle: vec!["a".into(), "b".into(), "a".into()],
        };
        assert_eq!(e.path(), "parts[2].parent");
        assert_eq!(e.to_string(), "parts[2].parent: parent cycle a → b → a");
        let e = RigError::NotFinite {
            part: 0,
            field: "scale",
        };
        assert_eq!(e.to_string(), "parts[0].scale: not a finite number");
        assert_eq!(RigError::NoName.to_string(), "name: the rig has no name");
    }
}
