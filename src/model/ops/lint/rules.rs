//! The catalogue of rule codes: what each finds and how bad it is by default. SARIF reports,
//! config checking and the GUI's filters read it.

use crate::model::Severity;

/// One rule: its stable code, its default severity and a one-line summary.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rule {
    /// The kebab-case code findings carry.
    pub code: &'static str,
    /// The severity a finding has unless config overrides it.
    pub severity: Severity,
    /// What the rule finds, in one sentence.
    pub summary: &'static str,
}

const fn rule_of(code: &'static str, severity: Severity, summary: &'static str) -> Rule {
    Rule {
        code,
        severity,
        summary,
    }
}

use Severity::{Error, Warning};

/// Every rule clipscope reports, three.js's errors first.
pub const RULES: &[Rule] = &[
    rule_of(
        "parse",
        Error,
        "The file cannot be read (three.js's parse would throw).",
    ),
    rule_of("empty-track", Error, "A track has no keys."),
    rule_of(
        "invalid-value-size",
        Error,
        "The value count is not a whole multiple of the key count.",
    ),
    rule_of("time-not-a-number", Error, "A key time is NaN."),
    rule_of(
        "unsorted-times",
        Error,
        "A key comes before the key before it.",
    ),
    rule_of("value-not-a-number", Error, "A numeric value is NaN."),
    rule_of(
        "unsupported-interpolation",
        Warning,
        "The interpolation is not available for the track's kind.",
    ),
    rule_of(
        "duplicate-times",
        Warning,
        "Two neighbouring keys share a time.",
    ),
    rule_of("negative-time", Warning, "A key is at a negative time."),
    rule_of(
        "bezier-without-tangents",
        Warning,
        "A bezier track has no tangents.",
    ),
    rule_of(
        "tangent-length",
        Warning,
        "The tangent arrays do not match the keys.",
    ),
    rule_of(
        "non-unit-quaternion",
        Warning,
        "A quaternion key is not unit length.",
    ),
    rule_of(
        "quaternion-flip",
        Warning,
        "Neighbouring quaternion keys lie in opposite hemispheres (dot < 0).",
    ),
    rule_of(
        "duration-shorter-than-keys",
        Warning,
        "Keys lie beyond the clip's duration (trim would cut them).",
    ),
    rule_of(
        "duration-longer-than-keys",
        Warning,
        "The clip lasts much longer than its last key.",
    ),
    rule_of("empty-clip", Warning, "The clip has no tracks."),
    rule_of(
        "duplicate-track",
        Warning,
        "Two tracks of a clip animate the same property.",
    ),
    rule_of(
        "redundant-keys",
        Warning,
        "Keys that optimize would remove losslessly.",
    ),
    rule_of(
        "constant-track",
        Warning,
        "Every key of the track holds the same value.",
    ),
    rule_of("loop-seam", Warning, "A loop's first and last pose differ."),
    rule_of(
        "unparsable-track-name",
        Warning,
        "The track name does not fit three.js's track-name grammar.",
    ),
    rule_of(
        "unbound-track",
        Warning,
        "The track animates a node the rig does not have.",
    ),
    rule_of(
        "bezier-fold",
        Warning,
        "A bezier handle's time goes backwards, so the curve folds over itself.",
    ),
    rule_of(
        "non-finite-value",
        Warning,
        "A time, value or tangent is infinite (or a tangent is NaN).",
    ),
    rule_of(
        "lottie-empty-range",
        Warning,
        "A Lottie composition or layer has ip >= op.",
    ),
    rule_of(
        "lottie-key-outside-layer",
        Warning,
        "A Lottie keyframe lies outside its layer's in/out points.",
    ),
    rule_of(
        "lottie-missing-parent",
        Warning,
        "A Lottie layer's parent index names no layer.",
    ),
    rule_of(
        "gltf-sampler-input-not-increasing",
        Warning,
        "A glTF sampler's input times do not strictly increase.",
    ),
    rule_of(
        "gltf-accessor-bounds",
        Warning,
        "A glTF accessor's min/max do not match its data.",
    ),
    rule_of(
        "playcanvas-ignored-channel",
        Warning,
        "A PlayCanvas node keys a channel its defaults override (the engine ignores the keys).",
    ),
];

/// The rule with `code`, if clipscope has one.
pub fn rule(code: &str) -> Option<&'static Rule> {
    RULES.iter().find(|r| r.code == code)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_unique_kebab_case() {
        for (i, r) in RULES.iter().enumerate() {
            assert!(r.code.chars().all(|c| c.is_ascii_lowercase() || c == '-'));
            assert!(RULES[..i].iter().all(|o| o.code != r.code), "{}", r.code);
        }
        assert_eq!(rule("loop-seam").unwrap().severity, Warning);
        assert!(rule("nope").is_none());
    }
}
