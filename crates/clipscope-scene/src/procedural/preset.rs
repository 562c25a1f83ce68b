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

use std::fmt;
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
    pub fn values_for(&self, cycle: &Cycle) -> Result<Vec<f64>, PresetError> {
        if self.cycle != cycle.id {
            return Err(PresetError::OtherCycle {
                preset: self.cycle.clone(),
                cycle: cycle.id.clone(),
            });
        }
        let mut values = cycle.defaults();
        for (name, value) in &self.parameters {
            let v = value.as_f64().ok_or_else(|| PresetError::NotANumber {
                name: name.clone(),
                value: value.to_string(),
            })?;
            set(cycle, &mut values, name, v).map_err(|source| PresetError::Parameter {
                name: name.clone(),
                source,
            })?;
        }
        Ok(values)
    }
}

/// Sets parameter `name` of `cycle` to `value` in `values`, refusing unknown names and values
/// outside the parameter's range.
pub fn set(
    cycle: &Cycle,
    values: &mut [f64],
    name: &str,
    value: f64,
) -> Result<(), ParameterError> {
    let i = cycle
        .parameter(name)
        .ok_or_else(|| ParameterError::Unknown {
            cycle: cycle.id.clone(),
            name: name.to_string(),
            known: cycle.parameters.iter().map(|p| p.name.clone()).collect(),
        })?;
    let p = &cycle.parameters[i];
    if !(p.min..=p.max).contains(&value) {
        return Err(ParameterError::OutOfRange {
            name: name.to_string(),
            value,
            min: p.min,
            max: p.max,
        });
    }
    values[i] = value;
    Ok(())
}

/// Applies a `name=value` setting (the command line's `--set amp=6`).
pub fn set_from_text(
    cycle: &Cycle,
    values: &mut [f64],
    setting: &str,
) -> Result<(), ParameterError> {
    let (name, value) = setting
        .split_once('=')
        .ok_or_else(|| ParameterError::NotNameValue {
            setting: setting.to_string(),
        })?;
    let value: f64 = value
        .trim()
        .parse()
        .map_err(|source| ParameterError::NotANumber {
            setting: setting.to_string(),
            value: value.trim().to_string(),
            source,
        })?;
    set(cycle, values, name.trim(), value)
}

/// Why a parameter value cannot be set. Its [`Display`](fmt::Display) is one sentence.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum ParameterError {
    /// The cycle has no parameter of that name.
    Unknown {
        /// The cycle's id.
        cycle: String,
        /// The name asked for.
        name: String,
        /// The cycle's parameters.
        known: Vec<String>,
    },
    /// The value is outside the parameter's range.
    OutOfRange {
        /// The parameter.
        name: String,
        /// The value asked for.
        value: f64,
        /// The range's lower end.
        min: f64,
        /// The range's upper end.
        max: f64,
    },
    /// A setting without `=`.
    NotNameValue {
        /// The setting as given.
        setting: String,
    },
    /// A setting whose value is not a number.
    NotANumber {
        /// The setting as given.
        setting: String,
        /// Its value.
        value: String,
        /// Why it is not a number.
        source: std::num::ParseFloatError,
    },
}

impl fmt::Display for ParameterError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParameterError::Unknown { cycle, name, known } => write!(
                f,
                "{cycle} has no parameter {name:?} (it has {})",
                known.join(", ")
            ),
            ParameterError::OutOfRange {
                name,
                value,
                min,
                max,
            } => write!(f, "{name} = {value} is outside its range {min} to {max}"),
            ParameterError::NotNameValue { setting } => {
                write!(f, "{setting:?}: expected NAME=VALUE")
            }
            ParameterError::NotANumber { setting, value, .. } => {
                write!(f, "{setting:?}: {value:?} is not a number")
            }
        }
    }
}

impl std::error::Error for ParameterError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ParameterError::NotANumber { source, .. } => Some(source),
            _ => None,
        }
    }
}

/// Why a preset's values do not fit a cycle. Its [`Display`](fmt::Display) is one line,
/// starting with the preset's JSON path (`parameters.amp: …`).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum PresetError {
    /// The preset is for another cycle.
    OtherCycle {
        /// The preset's cycle id.
        preset: String,
        /// The id of the cycle it was given.
        cycle: String,
    },
    /// A parameter's value is not a number.
    NotANumber {
        /// The parameter.
        name: String,
        /// The value, as JSON.
        value: String,
    },
    /// A parameter cannot be set to its value.
    Parameter {
        /// The parameter.
        name: String,
        /// Why.
        source: ParameterError,
    },
}

impl fmt::Display for PresetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PresetError::OtherCycle { preset, cycle } => {
                write!(f, "cycle: this preset is for {preset:?}, not {cycle:?}")
            }
            PresetError::NotANumber { name, value } => {
                write!(f, "parameters.{name}: expected a number, not {value}")
            }
            PresetError::Parameter { name, source } => write!(f, "parameters.{name}: {source}"),
        }
    }
}

impl std::error::Error for PresetError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            PresetError::Parameter { source, .. } => Some(source),
            _ => None,
        }
    }
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
        assert_eq!(
            e.to_string(),
            "parameters.amp: expected a number, not \"big\""
        );
        let e = read(r#"{"cycle":"hero-run","parameters":{"amp":99}}"#)
            .unwrap()
            .values_for(c)
            .unwrap_err();
        assert!(matches!(e, PresetError::Parameter { .. }));
        assert!(std::error::Error::source(&e).is_some());
        assert_eq!(
            e.to_string(),
            "parameters.amp: amp = 99 is outside its range 0 to 10"
        );
        let e = read(r#"{"cycle":"dog-trot","parameters":{}}"#)
            .unwrap()
            .values_for(c)
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "cycle: this preset is for \"dog-trot\", not \"hero-run\""
        );
        let e = read(r#"{"cycle":"hero-run","parameters":{"ampl":1}}"#)
            .unwrap()
            .values_for(c)
            .unwrap_err();
        assert!(
            e.to_string()
                .starts_with("parameters.ampl: hero-run has no parameter \"ampl\" (it has speed, "),
            "{e}"
        );
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
        assert_eq!(
            set_from_text(c, &mut v, "amp").unwrap_err().to_string(),
            "\"amp\": expected NAME=VALUE"
        );
        assert_eq!(
            set_from_text(c, &mut v, "amp= x ").unwrap_err().to_string(),
            "\"amp= x \": \"x\" is not a number"
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
