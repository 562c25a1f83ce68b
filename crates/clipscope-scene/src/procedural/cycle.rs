//! A [`Cycle`]: named parameters and one formula per animated channel of a rig's parts, all
//! driven by one master phase `t` that runs from 0 to 2π per cycle.

use std::fmt;
use std::path::Path;
use std::sync::OnceLock;

use super::expression::{BUILT_IN_NAMES, Expression, ExpressionError, Variables};
use super::schema::CycleFile;
use crate::Rig;
use clipscope_core::formats::json::path::{field, index, syntax_error};
use clipscope_core::formats::{ReadError, ReadErrorKind};

/// The parameter every cycle has: its rate in cycles per second.
pub const SPEED: &str = "speed";

/// The cycle files compiled into the program.
const BUILTIN_FILES: &[(&str, &[u8])] = &[
    (
        "cycles/hero-run.json",
        include_bytes!("../../../../assets/cycles/hero-run.json"),
    ),
    (
        "cycles/hero-walk.json",
        include_bytes!("../../../../assets/cycles/hero-walk.json"),
    ),
    (
        "cycles/dog-trot.json",
        include_bytes!("../../../../assets/cycles/dog-trot.json"),
    ),
];

/// One slider of a cycle.
#[derive(Debug, Clone, PartialEq)]
pub struct Parameter {
    /// The name formulas use (`amp`).
    pub name: String,
    /// The slider's label (`Amplitude`).
    pub label: String,
    /// The value a reset returns to.
    pub default: f64,
    /// The slider's lower end.
    pub min: f64,
    /// The slider's upper end.
    pub max: f64,
    /// The unit shown after the value, possibly empty.
    pub unit: String,
    /// What the parameter does.
    pub help: String,
}

/// Which transform property of a part a channel drives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Property {
    /// The pivot's position relative to the parent (the node's `position`).
    Position,
    /// Euler angles in radians, three.js's default `XYZ` order (baked as the node's
    /// `quaternion`).
    Rotation,
    /// The node's `scale`.
    Scale,
}

impl Property {
    /// The name in channel keys (`position`, `rotation`, `scale`).
    pub fn name(self) -> &'static str {
        match self {
            Property::Position => "position",
            Property::Rotation => "rotation",
            Property::Scale => "scale",
        }
    }

    /// The three.js property a baked track animates (`position`, `quaternion`, `scale`).
    pub fn track_property(self) -> &'static str {
        match self {
            Property::Rotation => "quaternion",
            other => other.name(),
        }
    }

    fn parse(name: &str) -> Option<Property> {
        [Property::Position, Property::Rotation, Property::Scale]
            .into_iter()
            .find(|p| p.name() == name)
    }
}

/// One animated component of one part: `legR.position.x = cos(t) * amp`.
#[derive(Debug, Clone, PartialEq)]
pub struct Channel {
    /// The part's name in the rig.
    pub part: String,
    /// Position, rotation or scale.
    pub property: Property,
    /// 0, 1, 2 for x, y, z.
    pub axis: usize,
    /// The formula.
    pub formula: Expression,
}

impl Channel {
    /// The channel's key, `legR.position.x`.
    pub fn key(&self) -> String {
        format!(
            "{}.{}.{}",
            self.part,
            self.property.name(),
            ["x", "y", "z"][self.axis]
        )
    }
}

/// A procedural cycle: parameters, and formulas for the channels it animates on its rig.
#[derive(Debug, Clone, PartialEq)]
pub struct Cycle {
    /// A short id (the file's stem, `hero-run`), for the command line.
    pub id: String,
    /// The name shown in pickers (`Hero run`).
    pub name: String,
    /// The name of the built-in rig it moves.
    pub rig: String,
    /// What the cycle is.
    pub description: String,
    /// The sliders, in the file's order.
    pub parameters: Vec<Parameter>,
    /// The animated channels, in the file's order.
    pub channels: Vec<Channel>,
    /// The names formulas are evaluated with: `t`, `pi`, `tau`, then the parameters.
    names: Vec<String>,
    /// Index of the [`SPEED`] parameter.
    speed: usize,
}

impl Cycle {
    /// Reads and checks a cycle file; the error names the file, the JSON path and the reason,
    /// e.g. `run.json: channels["legR.position.x"]: "cos(t) * ampl": unknown name "ampl" …`.
    pub fn from_json(bytes: &[u8], file: impl AsRef<Path>) -> Result<Cycle, ReadError> {
        let file = file.as_ref();
        let schema: CycleFile = serde_json::from_slice(bytes).map_err(|e| {
            let (path, reason) = syntax_error(bytes, &e);
            let reason = match reason.rfind(" at line ") {
                Some(cut) => reason[..cut].to_string(),
                None => reason,
            };
            ReadError::new(ReadErrorKind::of_json(&e), file, path, reason)
        })?;
        let id = file
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or("cycle")
            .to_string();
        Cycle::from_schema(schema, id)
            .map_err(|(path, reason)| ReadError::schema(file, path, reason))
    }

    /// Checks a parsed file; errors are `(json path, reason)`.
    fn from_schema(file: CycleFile, id: String) -> Result<Cycle, (String, String)> {
        if file.name.trim().is_empty() {
            return Err(("name".into(), "the cycle has no name".into()));
        }
        let rig = Rig::builtin(&file.rig).ok_or_else(|| {
            let names: Vec<&str> = Rig::builtins().iter().map(|r| r.name.as_str()).collect();
            (
                "rig".to_string(),
                format!(
                    "no built-in rig named {:?} (choose from {})",
                    file.rig,
                    names.join(", ")
                ),
            )
        })?;
        let mut names: Vec<String> = BUILT_IN_NAMES.iter().map(|n| n.to_string()).collect();
        let mut parameters = Vec::new();
        for (i, p) in file.parameters.into_iter().enumerate() {
            let at = |what: &str| field(&index("parameters", i), what);
            if !is_identifier(&p.name) {
                return Err((
                    at("name"),
                    format!(
                        "{:?} is not a name formulas can use (letters, digits, _)",
                        p.name
                    ),
                ));
            }
            if names.contains(&p.name) {
                let why = if BUILT_IN_NAMES.contains(&p.name.as_str()) {
                    "is built in"
                } else {
                    "is used twice"
                };
                return Err((at("name"), format!("{:?} {why}", p.name)));
            }
            if !(p.min.is_finite() && p.max.is_finite() && p.min < p.max) {
                return Err((
                    at("max"),
                    format!("the range {} to {} is empty or not finite", p.min, p.max),
                ));
            }
            if !(p.min..=p.max).contains(&p.default) {
                return Err((
                    at("default"),
                    format!("{} is outside {} to {}", p.default, p.min, p.max),
                ));
            }
            if p.name == SPEED && p.min <= 0.0 {
                return Err((
                    at("min"),
                    "speed (cycles per second) must stay above 0".into(),
                ));
            }
            names.push(p.name.clone());
            parameters.push(Parameter {
                label: p.label.unwrap_or_else(|| p.name.clone()),
                name: p.name,
                default: p.default,
                min: p.min,
                max: p.max,
                unit: p.unit,
                help: p.help,
            });
        }
        let speed = parameters
            .iter()
            .position(|p| p.name == SPEED)
            .ok_or_else(|| {
                (
                    "parameters".to_string(),
                    "a cycle needs a \"speed\" parameter (cycles per second)".to_string(),
                )
            })?;
        let mut channels = Vec::new();
        for (key, value) in &file.channels {
            let at = format!("channels[{key:?}]");
            let (part, property, axis) = parse_key(key).ok_or_else(|| {
                (
                    at.clone(),
                    "expected <part>.<position|rotation|scale>.<x|y|z>".to_string(),
                )
            })?;
            if rig.part_index(part).is_none() {
                return Err((at, format!("the {} rig has no part {part:?}", rig.name)));
            }
            let text = value.as_str().ok_or_else(|| {
                (
                    at.clone(),
                    format!("expected a formula (text), not {value}"),
                )
            })?;
            let formula =
                Expression::parse(text, &names).map_err(|e| (at.clone(), e.to_string()))?;
            channels.push(Channel {
                part: part.to_string(),
                property,
                axis,
                formula,
            });
        }
        if channels.is_empty() {
            return Err(("channels".into(), "the cycle animates nothing".into()));
        }
        let cycle = Cycle {
            id,
            name: file.name,
            rig: rig.name.clone(),
            description: file.description,
            parameters,
            channels,
            names,
            speed,
        };
        // Type errors (`if(t, …)`) show up on evaluation: try each formula round the cycle.
        let defaults = cycle.defaults();
        let mut out = Vec::new();
        for k in 0..8 {
            let phase = std::f64::consts::TAU * k as f64 / 8.0;
            if let Err((channel, e)) = cycle.evaluate_channels(&defaults, phase, &mut out) {
                return Err((
                    format!("channels[{:?}]", cycle.channels[channel].key()),
                    e.to_string(),
                ));
            }
        }
        Ok(cycle)
    }

    /// The cycles compiled into the program (Hero run and walk, Dog trot), read once.
    pub fn builtins() -> &'static [Cycle] {
        static BUILTINS: OnceLock<Vec<Cycle>> = OnceLock::new();
        BUILTINS.get_or_init(|| {
            BUILTIN_FILES
                .iter()
                .map(|(file, bytes)| {
                    Cycle::from_json(bytes, file).unwrap_or_else(|e| panic!("built-in cycle: {e}"))
                })
                .collect()
        })
    }

    /// The built-in cycle with id or name `name` (any case): `hero-run` or `Hero run`.
    pub fn builtin(name: &str) -> Option<&'static Cycle> {
        Cycle::builtins()
            .iter()
            .find(|c| c.id.eq_ignore_ascii_case(name) || c.name.eq_ignore_ascii_case(name))
    }

    /// The rig the cycle moves (checked when the cycle was read).
    pub fn rig(&self) -> &'static Rig {
        Rig::builtin(&self.rig).expect("a cycle's rig is checked when it is read")
    }

    /// Every parameter at its default.
    pub fn defaults(&self) -> Vec<f64> {
        self.parameters.iter().map(|p| p.default).collect()
    }

    /// The index of the parameter called `name`.
    pub fn parameter(&self, name: &str) -> Option<usize> {
        self.parameters.iter().position(|p| p.name == name)
    }

    /// The index of the speed parameter.
    pub fn speed_index(&self) -> usize {
        self.speed
    }

    /// Cycles per second with these parameter values.
    pub fn rate(&self, values: &[f64]) -> f64 {
        values.get(self.speed).copied().unwrap_or(1.0)
    }

    /// Seconds per cycle with these parameter values.
    pub fn period(&self, values: &[f64]) -> f64 {
        1.0 / self.rate(values)
    }

    /// The formulas that read parameter `index`, as `part.property.axis = formula` lines (the
    /// speed parameter reads none: it sets the rate).
    pub fn formulas_using(&self, index: usize) -> Vec<String> {
        let name_index = BUILT_IN_NAMES.len() + index;
        self.channels
            .iter()
            .filter(|c| c.formula.reads(name_index))
            .map(|c| format!("{} = {}", c.key(), c.formula.text()))
            .collect()
    }

    /// Every channel's value at master phase `phase` (radians, 0 to 2π), in channel order,
    /// written into `out`. Fails (naming the channel) only when a formula has a type error.
    pub fn evaluate(
        &self,
        values: &[f64],
        phase: f64,
        out: &mut Vec<f64>,
    ) -> Result<(), CycleError> {
        self.evaluate_channels(values, phase, out)
            .map_err(|(c, source)| CycleError::Channel {
                channel: self.channels[c].key(),
                source: Box::new(source),
            })
    }

    fn evaluate_channels(
        &self,
        values: &[f64],
        phase: f64,
        out: &mut Vec<f64>,
    ) -> Result<(), (usize, ExpressionError)> {
        let mut bound = Vec::with_capacity(self.names.len());
        bound.extend([phase, std::f64::consts::PI, std::f64::consts::TAU]);
        bound.extend(
            self.parameters
                .iter()
                .enumerate()
                .map(|(i, p)| values.get(i).copied().unwrap_or(p.default)),
        );
        let variables = Variables::new(&self.names, &bound);
        out.clear();
        for (i, channel) in self.channels.iter().enumerate() {
            out.push(
                channel
                    .formula
                    .evaluate_in(&variables)
                    .map_err(|e| (i, e))?,
            );
        }
        Ok(())
    }
}

/// The most cycles a bake accepts.
pub(super) const MAX_CYCLES: u32 = 1000;
/// The most frames per second a bake accepts.
pub(super) const MAX_FPS: f64 = 1000.0;

/// Why a cycle could not be evaluated or baked. Its [`Display`](fmt::Display) is one sentence.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum CycleError {
    /// A channel's formula failed to evaluate (a type error such as `if(t, 1, 2)`).
    Channel {
        /// The channel's key, `legR.position.x`.
        channel: String,
        /// Why the formula failed.
        source: Box<ExpressionError>,
    },
    /// The bake's frame rate is not above 0 and at most 1000.
    Fps(f64),
    /// The bake's cycle count is not 1 to 1000.
    Cycles(u32),
    /// The speed parameter is not above 0 cycles per second.
    Speed(f64),
}

impl fmt::Display for CycleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CycleError::Channel { channel, source } => write!(f, "{channel}: {source}"),
            CycleError::Fps(fps) => {
                write!(f, "fps must be above 0 and at most {MAX_FPS}, not {fps}")
            }
            CycleError::Cycles(cycles) => {
                write!(f, "cycles must be 1 to {MAX_CYCLES}, not {cycles}")
            }
            CycleError::Speed(rate) => {
                write!(f, "speed must be above 0 cycles per second, not {rate}")
            }
        }
    }
}

impl std::error::Error for CycleError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            CycleError::Channel { source, .. } => Some(source.as_ref()),
            _ => None,
        }
    }
}

/// Splits `legR.position.x` (or `ear.L.rotation.z`) into part, property and axis.
fn parse_key(key: &str) -> Option<(&str, Property, usize)> {
    let (rest, axis) = key.rsplit_once('.')?;
    let (part, property) = rest.rsplit_once('.')?;
    let axis = ["x", "y", "z"].iter().position(|a| *a == axis)?;
    let property = Property::parse(property)?;
    (!part.is_empty()).then_some((part, property, axis))
}

/// Whether `name` can be read by a formula: a letter or `_`, then letters, digits or `_`.
fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = r#"{
      "name": "Bob", "rig": "BlockHero",
      "parameters": [
        {"name": "speed", "default": 1, "min": 0.1, "max": 3},
        {"name": "amp", "label": "Amplitude", "default": 2, "min": 0, "max": 4}
      ],
      "channels": {"torso.position.y": "8 + sin(t) * amp", "head.rotation.x": "cos(t) * 0.1"}
    }"#;

    fn read(text: &str) -> Result<Cycle, String> {
        Cycle::from_json(text.as_bytes(), "bob.json").map_err(|e| e.to_string())
    }

    #[test]
    fn reads_a_cycle() {
        let c = read(GOOD).unwrap();
        assert_eq!(c.id, "bob");
        assert_eq!(c.rig().name, "BlockHero");
        assert_eq!(c.defaults(), [1.0, 2.0]);
        assert_eq!(c.parameters[1].label, "Amplitude");
        assert_eq!(c.parameters[0].label, "speed");
        assert_eq!(c.channels[0].key(), "torso.position.y");
        assert_eq!(c.channels[1].property, Property::Rotation);
        assert_eq!(c.formulas_using(1), ["torso.position.y = 8 + sin(t) * amp"]);
        assert_eq!(c.period(&[0.5, 2.0]), 2.0);
        let mut out = Vec::new();
        c.evaluate(&[1.0, 3.0], std::f64::consts::FRAC_PI_2, &mut out)
            .unwrap();
        assert_eq!(out[0], 11.0);
    }

    #[test]
    fn bad_files_say_where_and_why() {
        let cases = [
            (
                GOOD.replace("sin(t) * amp", "sin(t) * ampl"),
                "bob.json: channels[\"torso.position.y\"]: \"8 + sin(t) * ampl\": unknown name \"ampl\"",
            ),
            (
                GOOD.replace("torso.position.y", "tail.position.y"),
                "bob.json: channels[\"tail.position.y\"]: the BlockHero rig has no part \"tail\"",
            ),
            (
                GOOD.replace("torso.position.y", "torso.pos.y"),
                "bob.json: channels[\"torso.pos.y\"]: expected <part>.<position|rotation|scale>.<x|y|z>",
            ),
            (
                GOOD.replace("\"BlockHero\"", "\"Dragon\""),
                "bob.json: rig: no built-in rig named \"Dragon\"",
            ),
            (
                GOOD.replace("\"default\": 2", "\"default\": 9"),
                "bob.json: parameters[1].default: 9 is outside 0 to 4",
            ),
            (
                GOOD.replace("\"name\": \"amp\"", "\"name\": \"pi\""),
                "bob.json: parameters[1].name: \"pi\" is built in",
            ),
            (
                GOOD.replace("\"name\": \"speed\"", "\"name\": \"rate\""),
                "bob.json: parameters: a cycle needs a \"speed\" parameter",
            ),
            (
                GOOD.replace("cos(t) * 0.1", "if(t, 1, 2)"),
                "bob.json: channels[\"head.rotation.x\"]: \"if(t, 1, 2)\":",
            ),
            (
                GOOD.replace("cos(t) * 0.1\"", "cos(t) * 0.1\",}"),
                "bob.json: channels",
            ),
        ];
        for (text, expected) in cases {
            let e = read(&text).unwrap_err();
            assert!(e.starts_with(expected), "{e}\n  expected {expected}");
            assert!(!e.contains('\n'), "one line: {e}");
        }
    }

    #[test]
    fn builtins_load_and_name_their_rigs() {
        let ids: Vec<&str> = Cycle::builtins().iter().map(|c| c.id.as_str()).collect();
        assert_eq!(ids, ["hero-run", "hero-walk", "dog-trot"]);
        assert_eq!(Cycle::builtin("Hero run").unwrap().id, "hero-run");
        assert_eq!(Cycle::builtin("DOG-TROT").unwrap().rig, "Dog");
        assert!(Cycle::builtin("moonwalk").is_none());
        for c in Cycle::builtins() {
            assert!(c.parameter(SPEED).is_some());
            for p in &c.parameters {
                assert!(!p.help.is_empty(), "{}: {} has no help", c.id, p.name);
            }
        }
    }
}
