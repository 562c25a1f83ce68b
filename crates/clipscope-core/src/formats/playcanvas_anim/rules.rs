//! The registry entries of the raw-file rules of PlayCanvas anim clips ([`lint`](super::lint)).

use crate::formats::rule::{Applies, Rule};
use crate::model::Severity::Warning;

/// The anim clip rules.
pub(crate) const RULES: &[Rule] = &[Rule {
    code: "playcanvas-quaternion-flip",
    severity: Warning,
    formats: Applies::Own,
    replaced_by: None,
    summary: "Neighbouring keys of an anim clip's localRotation curve lie in opposite hemispheres, so the engine turns the long way round.",
    fix: "Negate the key so each key lies in the hemisphere of the one before it.",
    explanation: "The anim system interpolates curves component by component (AnimCache), which for quaternions a and b with a·b < 0 passes through the far side of the rotation; three.js's slerp, which clipscope previews with, takes the short way, so the preview does not show it.",
}];
