//! `lint`: clipscope's studio checks on top of three.js's `validate()`.
//!
//! [`Clip::lint`] returns everything [`Clip::validate`] finds plus the rule families below, one
//! per file. Every rule has a stable kebab-case code, registered with its default severity,
//! formats and explanation in the rule registry (`crate::validate::rules`); the new rules are
//! warnings because three.js plays such clips (errors stay exactly what three.js rejects).
//! Tolerances, the loop decision and the rules that are off come from [`LintSettings`], which
//! the validation engine fills from `clipscope.toml` and the file's format.
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
mod settings;
mod timing;

pub use loop_seam::is_loop_name;
pub use settings::LintSettings;

use crate::model::{Clip, Problem};

impl Clip {
    /// [`Clip::validate`] plus every lint rule ([`Clip::lint_rules`]), with track indices and
    /// times set (the clip index is left for the caller).
    pub fn lint(&self, settings: &LintSettings) -> Vec<Problem> {
        let mut problems: Vec<Problem> = self
            .validate()
            .into_iter()
            .filter(|p| p.code != "non-unit-quaternion" && settings.checks(&p.code))
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
    /// configured tolerance (so callers drop validate's own `non-unit-quaternion`). Rules in
    /// [`LintSettings::off`] are not run.
    pub fn lint_rules(&self, settings: &LintSettings) -> Vec<Problem> {
        let mut problems = Vec::new();
        timing::check(self, settings, &mut problems);
        names::check(self, settings, &mut problems);
        loop_seam::check(self, settings, &mut problems);
        for (j, track) in self.tracks.iter().enumerate() {
            let mut found = Vec::new();
            quaternion::check(track, settings, &mut found);
            redundancy::check(track, settings, &mut found);
            curves::check(track, &mut found);
            problems.extend(found.into_iter().map(|p| p.in_track(j)));
        }
        problems.retain(|p| settings.checks(&p.code));
        problems
    }
}
