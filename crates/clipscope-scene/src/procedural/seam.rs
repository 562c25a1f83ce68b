//! The loop-seam check: does every channel come back to where it started at the end of a
//! cycle?
//!
//! A cycle's formulas see the master phase wrapped to 0…2π, so a baked clip's first and last
//! keys are always equal; what can still go wrong is a formula that is not 2π-periodic
//! (`t / 2`, `sin(t * 1.5)`), which jumps where the phase wraps. The check evaluates every
//! channel just before the wrap and at the wrap and reports each one that jumps.

use super::Cycle;

/// How far a channel may move across the seam before it counts as a jump (file units or
/// radians). A smooth channel moves about its slope × 1e-9 there.
pub const SEAM_TOLERANCE: f64 = 1e-4;

/// The phase just before the wrap, as a fraction of 2π short of it.
const BEFORE_WRAP: f64 = 1e-9;

/// A channel that jumps at the loop seam.
#[derive(Debug, Clone, PartialEq)]
pub struct SeamJump {
    /// The channel, `legR.position.x`.
    pub channel: String,
    /// Its value just before the end of the cycle.
    pub before: f64,
    /// Its value at the start of the cycle.
    pub after: f64,
}

impl SeamJump {
    /// A one-line description for logs and the command line.
    pub fn describe(&self) -> String {
        format!(
            "{} jumps from {:.4} to {:.4} at the loop seam",
            self.channel, self.before, self.after
        )
    }
}

impl Cycle {
    /// The channels that jump where the cycle loops, with `values`; empty for a seamless cycle.
    /// A formula that fails to evaluate is reported by [`Cycle::evaluate`], not here.
    pub fn seam_jumps(&self, values: &[f64]) -> Vec<SeamJump> {
        let tau = std::f64::consts::TAU;
        let (mut before, mut after) = (Vec::new(), Vec::new());
        if self
            .evaluate(values, tau * (1.0 - BEFORE_WRAP), &mut before)
            .is_err()
            || self.evaluate(values, 0.0, &mut after).is_err()
        {
            return Vec::new();
        }
        self.channels
            .iter()
            .zip(before.iter().zip(&after))
            .filter(|(_, (b, a))| {
                // NaN on either side counts as a jump too.
                (*b - *a).abs().partial_cmp(&SEAM_TOLERANCE) != Some(std::cmp::Ordering::Less)
                    && *b != *a
            })
            .map(|(c, (&before, &after))| SeamJump {
                channel: c.key(),
                before,
                after,
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cycle(formula: &str) -> Cycle {
        let text = format!(
            r#"{{"name": "c", "rig": "BlockHero",
                "parameters": [{{"name": "speed", "default": 1, "min": 0.5, "max": 2}}],
                "channels": {{"torso.position.y": "8", "head.position.x": "{formula}"}}}}"#
        );
        Cycle::from_json(text.as_bytes(), "c.json").unwrap()
    }

    #[test]
    fn periodic_formulas_are_seamless() {
        for f in [
            "sin(t)",
            "max(0, -sin(t) * 4)",
            "if(t < pi, cos(2 * t + pi / 2), 0)",
        ] {
            assert!(cycle(f).seam_jumps(&[1.0]).is_empty(), "{f}");
        }
    }

    #[test]
    fn a_formula_that_does_not_come_back_is_reported() {
        let jumps = cycle("t / 2").seam_jumps(&[1.0]);
        assert_eq!(jumps.len(), 1);
        assert_eq!(jumps[0].channel, "head.position.x");
        assert!((jumps[0].before - std::f64::consts::PI).abs() < 1e-6);
        assert_eq!(jumps[0].after, 0.0);
        assert!(jumps[0].describe().contains("jumps from 3.1416 to 0.0000"));
        assert_eq!(cycle("cos(1.5 * t)").seam_jumps(&[1.0]).len(), 1);
    }
}
