//! Parameter values as data: presets saved to and loaded from JSON, `name=value` settings from
//! the command line, and "randomize within ranges".
//!
//! A preset file names its cycle and the values it sets, by parameter name:
//!
//! ```json
//! { "cycle": "hero-run", "parameters": { "speed": 1.25, "amp": 5.5 } }
//! ```
//!
//! Parameters a preset leaves out keep their defaults; a value outside its slider's range, an
//! unknown name or a preset of another cycle is refused with a sentence saying which.

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::Cycle;
use clipscope_core::formats::json::path::syntax_error;
use clipscope_core::formats::{ReadError, ReadErrorKind};

/// Saved parameter values of one cycle.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Preset {
    /// The cycle's id (`hero-run`).
    pub cycle: String,
    /// Parameter name → value, in the cycle's order when saved.
    pub parameters: serde_json::Map<String, serde_json::Value>,
}

impl Preset {
    /// The preset holding `values` of `cycle`.
    pub fn of(cycle: &Cycle, values: &[f64]) -> Preset {
        Preset {
            cycle: cycle.id.clone(),
            parameters: cycle
                .parameters
                .iter()
                .zip(values)
                .map(|(p, v)| (p.name.clone(), serde_json::json!(v)))
                .collect(),
        }
    }

    /// The preset as pretty JSON text, ending in a newline.
    pub fn to_json(&self) -> String {
        let mut text = serde_json::to_string_pretty(self).expect("a preset serializes");
        text.push('\n');
        text
    }

    /// Reads a preset file; the error names the file, the JSON path and the reason.
    pub fn from_json(bytes: &[u8], file: impl AsRef<Path>) -> Result<Preset, ReadError> {
        serde_json::from_slice(bytes).map_err(|e| {
            let (path, reason) = syntax_error(bytes, &e);
            let reason = match reason.rfind(" at line ") {
                Some(cut) => reason[..cut].to_string(),
                None => reason,
            };
            ReadError::new(ReadErrorKind::of_json(&e), file.as_ref(), path, reason)
        })
    }

    /// The values this preset gives `cycle` (defaults where it is silent), checked.
    pub fn values_for(&self, cycle: &Cycle) -> Result<Vec<f64>, String> {
        if self.cycle != cycle.id {
            return Err(format!(
                "cycle: this preset is for {:?}, not {:?}",
                self.cycle, cycle.id
            ));
        }
        let mut values = cycle.defaults();
        for (name, value) in &self.parameters {
            let v = value
                .as_f64()
                .ok_or_else(|| format!("parameters.{name}: expected a number, not {value}"))?;
            set(cycle, &mut values, name, v).map_err(|e| format!("parameters.{name}: {e}"))?;
        }
        Ok(values)
    }
}

/// Sets parameter `name` of `cycle` to `value` in `values`, refusing unknown names and values
/// outside the parameter's range.
pub fn set(cycle: &Cycle, values: &mut [f64], name: &str, value: f64) -> Result<(), String> {
    let i = cycle.parameter(name).ok_or_else(|| {
        let names: Vec<&str> = cycle.parameters.iter().map(|p| p.name.as_str()).collect();
        format!(
            "{} has no parameter {name:?} (it has {})",
            cycle.id,
            names.join(", ")
        )
    })?;
    let p = &cycle.parameters[i];
    if !(p.min..=p.max).contains(&value) {
        return Err(format!(
            "{name} = {value} is outside its range {} to {}",
            p.min, p.max
        ));
    }
    values[i] = value;
    Ok(())
}

/// Applies a `name=value` setting (the command line's `--set amp=6`).
pub fn set_from_text(cycle: &Cycle, values: &mut [f64], setting: &str) -> Result<(), String> {
    let (name, value) = setting
        .split_once('=')
        .ok_or_else(|| format!("{setting:?}: expected NAME=VALUE"))?;
    let value: f64 = value
        .trim()
        .parse()
        .map_err(|_| format!("{setting:?}: {:?} is not a number", value.trim()))?;
    set(cycle, values, name.trim(), value)
}

/// New values for every parameter but the speed, drawn uniformly from each range (the speed
/// stays, so the rate the artist chose does not jump). `seed` picks the draw.
pub fn randomize(cycle: &Cycle, values: &[f64], seed: u64) -> Vec<f64> {
    let mut state = seed;
    cycle
        .parameters
        .iter()
        .enumerate()
        .map(|(i, p)| {
            if i == cycle.speed_index() {
                values.get(i).copied().unwrap_or(p.default)
            } else {
                p.min + (p.max - p.min) * unit_random(&mut state)
            }
        })
        .collect()
}

/// SplitMix64: a uniform draw in [0, 1) from `state`, advancing it.
fn unit_random(state: &mut u64) -> f64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    (z >> 11) as f64 / (1u64 << 53) as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run() -> &'static Cycle {
        Cycle::builtin("hero-run").unwrap()
    }

    #[test]
    fn presets_round_trip() {
        let c = run();
        let mut v = c.defaults();
        set(c, &mut v, "amp", 6.5).unwrap();
        let text = Preset::of(c, &v).to_json();
        assert!(text.contains("\"cycle\": \"hero-run\""));
        let back = Preset::from_json(text.as_bytes(), "p.json").unwrap();
        assert_eq!(back.values_for(c).unwrap(), v);
        // Silent parameters keep their defaults.
        let partial = Preset::from_json(br#"{"cycle":"hero-run","parameters":{"amp":2}}"#, "p")
            .unwrap()
            .values_for(c)
            .unwrap();
        assert_eq!(partial[c.parameter("amp").unwrap()], 2.0);
        assert_eq!(
            partial[c.speed_index()],
            c.parameters[c.speed_index()].default
        );
    }

    #[test]
    fn bad_presets_say_why() {
        let c = run();
        let read = |t: &str| Preset::from_json(t.as_bytes(), "p.json");
        let e = read(r#"{"cycle":"hero-run","parameters":{"amp":"big"}}"#)
            .unwrap()
            .values_for(c)
            .unwrap_err();
        assert_eq!(e, "parameters.amp: expected a number, not \"big\"");
        let e = read(r#"{"cycle":"hero-run","parameters":{"amp":99}}"#)
            .unwrap()
            .values_for(c)
            .unwrap_err();
        assert!(e.contains("amp = 99 is outside its range 0 to 10"), "{e}");
        let e = read(r#"{"cycle":"dog-trot","parameters":{}}"#)
            .unwrap()
            .values_for(c)
            .unwrap_err();
        assert!(e.contains("this preset is for \"dog-trot\""), "{e}");
        let e = read(r#"{"cycle":"hero-run","parameters":{"ampl":1}}"#)
            .unwrap()
            .values_for(c)
            .unwrap_err();
        assert!(e.contains("has no parameter \"ampl\""), "{e}");
        let e = read(r#"{"cycle":"hero-run","params":{}}"#)
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("p.json: "), "{e}");
        assert!(read("{\"cycle\":").is_err());
    }

    #[test]
    fn settings_from_text() {
        let c = run();
        let mut v = c.defaults();
        set_from_text(c, &mut v, "amp=7").unwrap();
        assert_eq!(v[c.parameter("amp").unwrap()], 7.0);
        assert!(
            set_from_text(c, &mut v, "amp")
                .unwrap_err()
                .contains("NAME=VALUE")
        );
        assert!(
            set_from_text(c, &mut v, "amp=x")
                .unwrap_err()
                .contains("not a number")
        );
    }

    #[test]
    fn randomize_stays_in_range_and_keeps_the_speed() {
        let c = run();
        let v = c.defaults();
        let a = randomize(c, &v, 1);
        let b = randomize(c, &v, 2);
        assert_ne!(a, b);
        assert_eq!(a, randomize(c, &v, 1), "a seed picks one draw");
        assert_eq!(a[c.speed_index()], v[c.speed_index()]);
        for (x, p) in a.iter().zip(&c.parameters) {
            assert!((p.min..=p.max).contains(x));
        }
    }
}
