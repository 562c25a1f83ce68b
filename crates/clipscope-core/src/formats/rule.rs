//! A rule as the rule registry lists it: its code, default severity, where it applies, a
//! one-line summary and fix, and an explanation.
//!
//! The type lives with the formats (below the validation engine) because each format module
//! keeps the registry entries of its own rules beside the code that emits them and lists them
//! in its [`FormatSpec::rules`](super::FormatSpec::rules); the engine's registry
//! (`validate::rules`) collects them with the rules on clips, which say where they apply through
//! the format's [`Property`] list instead of naming formats. Which formats that makes is the
//! registry's answer (`applicability`).

use super::property::Property;
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
