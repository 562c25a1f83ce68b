//! The knobs of [`Clip::lint`](crate::model::Clip::lint): tolerances, the loop decision, the
//! node names of a rig to bind against and the rules that are off.

use std::collections::BTreeSet;

use crate::model::ops::QUATERNION_LENGTH_TOLERANCE;

/// Tolerances and context for the lint rules; [`Default`] gives the built-in values.
#[derive(Debug, Clone, PartialEq)]
pub struct LintSettings {
    /// How far a quaternion's length may stray from 1 (`non-unit-quaternion`).
    pub quaternion_tolerance: f64,
    /// The largest per-component difference between a loop's first and last pose (`loop-seam`).
    pub loop_tolerance: f64,
    /// How much longer than its last key a clip may be, as a fraction of the last key's time,
    /// before `duration-longer-than-keys` (one 30 fps frame is always allowed on top).
    pub duration_slack: f64,
    /// Whether the clips are loops: `Some` forces the decision (config), `None` decides by name
    /// with [`loop_names`](Self::loop_names).
    pub is_loop: Option<bool>,
    /// Words that mark a clip as a loop when its name contains one as a word (`Walk_Cycle`).
    pub loop_names: Vec<String>,
    /// The node names of the rig clips must bind to (`unbound-track`); `None` skips the rule.
    pub rig_nodes: Option<Vec<String>>,
    /// Codes of the rules not to run (turned off in config, or not meant for the file's
    /// format); [`Clip::fix`](crate::model::Clip::fix) does not apply their fixes either.
    pub off: BTreeSet<String>,
}

impl LintSettings {
    /// Whether the rule `code` runs.
    pub fn checks(&self, code: &str) -> bool {
        !self.off.contains(code)
    }
}

impl Default for LintSettings {
    fn default() -> LintSettings {
        LintSettings {
            quaternion_tolerance: QUATERNION_LENGTH_TOLERANCE,
            loop_tolerance: 1e-3,
            duration_slack: 0.1,
            is_loop: None,
            loop_names: ["loop", "cycle", "walk", "run"].map(String::from).to_vec(),
            rig_nodes: None,
            off: BTreeSet::new(),
        }
    }
}
