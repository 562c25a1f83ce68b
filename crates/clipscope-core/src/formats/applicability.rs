//! Which formats a rule applies to: the registry's answer for a [`Rule`]'s [`Applies`], from
//! each format's [`Property`](super::Property) list and its own rules, and every format's own rules in the order
//! the rule registry lists them.

use super::registry::{Format, rule_order};
use super::rule::{Applies, Rule};

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
    rule_order().into_iter().flat_map(|spec| spec.rules.iter())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::property::Property;
    use crate::formats::registry::FORMATS;
    use crate::model::Severity;

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
