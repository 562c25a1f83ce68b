//! PlayCanvas's raw-file rules (`formats::playcanvas::lint` for animation files,
//! `formats::playcanvas_anim::lint` for anim clips).

use super::{Formats, Rule};
use crate::formats::Format;
use crate::model::Severity::Warning;

/// The PlayCanvas rules.
pub(super) const RULES: &[Rule] = &[
    Rule {
        code: "playcanvas-ignored-channel",
        severity: Warning,
        formats: Formats::Only(&[Format::PlayCanvas]),
        replaced_by: None,
        summary: "A PlayCanvas node keys a channel its defaults override (the engine ignores the keys).",
        fix: "Remove the channel from defaults (to play the keys) or from the keys (to keep the default).",
        explanation: "The engine's parser takes a channel listed in a node's defaults for every key and never reads the keyed values, so the keys in the file are dead.",
    },
    Rule {
        code: "playcanvas-quaternion-flip",
        severity: Warning,
        formats: Formats::Only(&[Format::PlayCanvasAnim]),
        replaced_by: None,
        summary: "Neighbouring keys of an anim clip's localRotation curve lie in opposite hemispheres, so the engine turns the long way round.",
        fix: "Negate the key so each key lies in the hemisphere of the one before it.",
        explanation: "The anim system interpolates curves component by component (AnimCache), which for quaternions a and b with a·b < 0 passes through the far side of the rotation; three.js's slerp, which clipscope previews with, takes the short way, so the preview does not show it.",
    },
];
