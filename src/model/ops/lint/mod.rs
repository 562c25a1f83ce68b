//! `lint`: clipscope's studio checks on top of three.js's `validate()`.
//!
//! [`Clip::lint`] returns everything [`Clip::validate`] finds plus the rule families below, one
//! per file. Every rule has a stable kebab-case code listed in [`RULES`] with its default
//! severity; the new rules are warnings because three.js plays such clips (errors stay exactly
//! what three.js rejects). Tolerances and the loop decision come from [`LintSettings`], which the
//! CLI fills from `clipscope.toml`.
//!
//! * `quaternion`: `non-unit-quaternion` (configurable tolerance), `quaternion-flip`;
//! * `timing`: `duration-longer-than-keys` (besides the existing `duration-shorter-than-keys`
//!   and `negative-time`);
//! * `redundancy`: `redundant-keys`, `constant-track`;
//! * `loop_seam`: `loop-seam`;
//! * `names`: `unparsable-track-name`, `unbound-track`;
//! * `curves`: `bezier-fold`, `non-finite-value`.

mod curves;
mod loop_seam;
mod names;
mod quaternion;
mod redundancy;
mod rules;
mod settings;
mod timing;

pub use loop_seam::is_loop_name;
pub use rules::{RULES, Rule, rule};
pub use settings::LintSettings;

use crate::model::{Clip, Problem};

impl Clip {
    /// [`Clip::validate`] plus every lint rule ([`Clip::lint_rules`]), with track indices and
    /// times set (the clip index is left for the caller).
    pub fn lint(&self, settings: &LintSettings) -> Vec<Problem> {
        let mut problems: Vec<Problem> = self
            .validate()
            .into_iter()
            .filter(|p| p.code != "non-unit-quaternion")
            .collect();
        problems.extend(self.lint_rules(settings));
        for p in &mut problems {
            if p.time.is_none()
                && let (Some(t), Some(k)) = (p.track, p.key)
                && let Some(&time) = self.tracks.get(t).and_then(|t| t.times.get(k))
            {
                p.time = Some(Problem::key_time(time));
            }
        }
        problems
    }

    /// Only the rules [`Clip::validate`] does not check, plus `non-unit-quaternion` with the
    /// configured tolerance (so callers drop validate's own `non-unit-quaternion`).
    pub fn lint_rules(&self, settings: &LintSettings) -> Vec<Problem> {
        let mut problems = Vec::new();
        timing::check(self, settings, &mut problems);
        names::check(self, settings, &mut problems);
        loop_seam::check(self, settings, &mut problems);
        for (j, track) in self.tracks.iter().enumerate() {
            let mut found = Vec::new();
            quaternion::check(track, settings, &mut found);
            redundancy::check(track, &mut found);
            curves::check(track, &mut found);
            problems.extend(found.into_iter().map(|p| p.in_track(j)));
        }
        problems
    }
}
