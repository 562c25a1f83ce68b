//! A rule as the rule registry lists it: its code, default severity, where it applies, a
//! one-line summary and fix, and an explanation.
//!
//! The type lives with the formats (below the validation engine) because each format module
//! keeps the registry entries of its own rules beside the code that emits them and lists them
//! in its [`FormatSpec::rules`](super::FormatSpec::rules); the engine's registry
//! (`validate::rules`) collects them with the rules on clips, which say where they apply through
//! the format's [`Property`] list instead of naming formats.

use super::property::Property;
use super::registry::Format;
use crate::model::Severity;

/// Where a rule applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Applies {
    /// In every format.
    Always,
    /// In the formats that have this property.
    When(Property),
    /// In the formats that have none of these properties.
    Unless(&'static [Property]),
    /// In the formats whose registry entry lists the rule among its own
    /// ([`FormatSpec::rules`](super::FormatSpec::rules)): a format's raw-file rules and its
    /// reader's findings.
    Own,
}

/// One registered rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rule {
    /// The stable kebab-case code findings carry (`loop-seam`).
    pub code: &'static str,
    /// The severity a finding has unless config sets another.
    pub severity: Severity,
    /// The formats whose files the rule checks.
    pub formats: Applies,
    /// The raw-file rule that reports the same thing in the formats this rule leaves out
    /// (glTF's sampler rules for three.js's time checks, say): where raw-file rules cannot run
    /// (a document checked in memory), this rule runs instead.
    pub replaced_by: Option<&'static str>,
    /// What the rule finds, in one sentence.
    pub summary: &'static str,
    /// How to make the finding go away, in one line.
    pub fix: &'static str,
    /// Why it matters and what exactly is checked, in a few sentences.
    pub explanation: &'static str,
}

impl Rule {
    /// Whether the rule checks files of `format`.
    pub fn applies_to(&self, format: Format) -> bool {
        let spec = format.spec();
        match self.formats {
            Applies::Always => true,
            Applies::When(property) => spec.properties.contains(&property),
            Applies::Unless(properties) => !properties.iter().any(|p| spec.properties.contains(p)),
            Applies::Own => spec.rules.iter().any(|r| r.code == self.code),
        }
    }

    /// The short names of the formats the rule applies to, in menu order.
    pub fn format_names(&self) -> Vec<&'static str> {
        Format::ALL
            .iter()
            .filter(|&&f| self.applies_to(f))
            .map(|f| f.name())
            .collect()
    }

    /// Where the rule applies, for people: `every format`, or the formats' short names in menu
    /// order (`gltf, glb`).
    pub fn describe_formats(&self) -> String {
        match self.formats {
            Applies::Always => "every format".to_string(),
            _ => self.format_names().join(", "),
        }
    }
}

/// Every format's own rules ([`FormatSpec::rules`](super::FormatSpec::rules)), each once: the
/// default format's first (its reader's findings, listed with the reading rules), then the other
/// formats' in detection order, one list per family (`.gltf` and `.glb` share theirs).
pub(crate) fn own_rules() -> impl Iterator<Item = &'static Rule> {
    super::registry::rule_order()
        .into_iter()
        .flat_map(|spec| spec.rules.iter())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::registry::FORMATS;

    #[test]
    fn formats_of_one_family_own_the_same_rules() {
        for a in FORMATS.iter() {
            for b in FORMATS.iter().filter(|b| b.family == a.family) {
                assert_eq!(a.rules, b.rules, "{} and {}", a.name, b.name);
            }
        }
    }

    #[test]
    fn applicability_follows_the_properties() {
        const RULE: Rule = Rule {
            code: "x",
            severity: Severity::Warning,
            formats: Applies::When(Property::KeysExact),
            replaced_by: None,
            summary: "",
            fix: "",
            explanation: "",
        };
        assert!(RULE.applies_to(Format::ThreeJs));
        assert!(!RULE.applies_to(Format::Lottie));
        let unless = Rule {
            formats: Applies::Unless(&[Property::LayerTimeline, Property::ChecksOwnKeys]),
            ..RULE
        };
        assert_eq!(
            unless.format_names().join(" "),
            "threejs threejs-legacy playcanvas playcanvas-anim"
        );
        let always = Rule {
            formats: Applies::Always,
            ..RULE
        };
        assert_eq!(always.describe_formats(), "every format");
        // A rule no format lists as its own applies nowhere.
        let own = Rule {
            formats: Applies::Own,
            ..RULE
        };
        assert!(own.format_names().is_empty());
    }
}
