//! Polishing the search's best try: its tolerances loosened evenly, past the budget where a
//! mend ([`WorldSearch::mend`]) brings the pose back within it, while the tries get cheaper.

use super::{Attempt, RESCALE_MAX, WorldSearch, within};
use crate::model::ops::reduce::ReduceOptions;
use crate::model::ops::reduce::world::WorldError;

/// Tries after the search that scale the best try's tolerances evenly.
const POLISH_ROUNDS: usize = 4;

/// The least step (over the largest scale that kept the budget) worth a polishing try.
const POLISH_FROM: f64 = 1.02;

/// How much the polish loosens the best try at least (mending where that overshoots): on the
/// benchmark's 60 s take 1.06 / 1.15 / 1.25 / 1.4 made 62.8 / 58.9 / 58.7 / 59.2 KB at 1 cm.
const POLISH_PUSH: f64 = 1.25;

/// How far past the budget a try may stray to be mended rather than tried again (a mend that
/// fails costs about two tries' poses; on the benchmark's 60 s take 1.1 / 1.3 / 1.5 / 2.0 made
/// 63.4 / 61.5 / 58.7 / 58.7 KB at 1 cm).
pub(super) const MEND_REACH: f64 = 1.5;

impl WorldSearch<'_> {
    /// `best` (a try within the budget) or a cheaper one within it: every tolerance scaled
    /// evenly by the room `best` leaves, or by [`POLISH_PUSH`] at least, mended where that
    /// overshoots; then further while tries keep the budget, halfway back (geometrically)
    /// after one that does not, for [`POLISH_ROUNDS`] tries at most. (Done on a key grid,
    /// whose bytes it was measured on.)
    pub(super) fn polish(
        &self,
        best: Attempt,
        options: &ReduceOptions,
        budget: f64,
        angle_budget: Option<f64>,
    ) -> Attempt {
        let mut b = best;
        let room = |e: &WorldError| {
            let mut r = budget / e.distance.max(f64::MIN_POSITIVE);
            if let Some(a) = angle_budget {
                r = r.min(a / e.angle.max(f64::MIN_POSITIVE));
            }
            r.min(RESCALE_MAX)
        };
        // Scales of the first best's tolerances: the largest that kept the budget (after a
        // mend) and the smallest that did not.
        let first = b.tolerances.clone();
        let step = room(&b.error).max(POLISH_PUSH);
        let (mut kept, mut failed) = (1.0, None::<f64>);
        for _ in 0..POLISH_ROUNDS {
            let scale = failed.map_or(kept * step, |f| (kept * f).sqrt());
            if scale < kept * POLISH_FROM {
                break;
            }
            let tolerances: Vec<f64> = first.iter().map(|t| t * scale).collect();
            let t0 = std::time::Instant::now();
            let attempt = self.attempt(&tolerances, (budget, angle_budget));
            options.trace.line(format_args!(
                "polish ×{scale:.3} {:?}: error {:.5}, keys {}",
                t0.elapsed(),
                attempt.error.distance,
                attempt.keys()
            ));
            match self.within_or_mended(attempt, budget, angle_budget, options) {
                Some(a) if self.cost(&a) < self.cost(&b) => {
                    kept = scale;
                    b = a;
                }
                _ => failed = Some(scale),
            }
        }
        b
    }

    /// `attempt` when it keeps the budget, else mended ([`WorldSearch::mend`]) on a key grid
    /// when it overshoots by [`MEND_REACH`] at most.
    pub(super) fn within_or_mended(
        &self,
        attempt: Attempt,
        budget: f64,
        angle_budget: Option<f64>,
        options: &ReduceOptions,
    ) -> Option<Attempt> {
        if within(&attempt.error, budget, angle_budget) {
            return Some(attempt);
        }
        let reach = |limit: f64| limit * MEND_REACH;
        if self.key_grid.is_none()
            || !within(&attempt.error, reach(budget), angle_budget.map(reach))
        {
            return None;
        }
        let (t0, keys) = (std::time::Instant::now(), attempt.keys());
        let mended = self.mend(attempt, budget, angle_budget);
        options.trace.line(format_args!(
            "  mend {:?}: {}",
            t0.elapsed(),
            match &mended {
                Some(m) => format!(
                    "error {:.5}, keys {} (+{})",
                    m.error.distance,
                    m.keys(),
                    m.keys() - keys
                ),
                None => "failed".to_string(),
            }
        ));
        mended
    }
}
