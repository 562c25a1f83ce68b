//! The registry entries of the raw-file rules of PlayCanvas animation files
//! ([`lint`](super::lint)).

use crate::formats::rule::{Applies, Rule};
use crate::model::Severity::Warning;

/// The PlayCanvas animation rules.
pub(crate) const RULES: &[Rule] = &[Rule {
    code: "playcanvas-ignored-channel",
    severity: Warning,
    formats: Applies::Own,
    replaced_by: None,
    summary: "A PlayCanvas node keys a channel its defaults override (the engine ignores the keys).",
    fix: "Remove the channel from defaults (to play the keys) or from the keys (to keep the default).",
    explanation: "The engine's parser takes a channel listed in a node's defaults for every key and never reads the keyed values, so the keys in the file are dead.",
}];
