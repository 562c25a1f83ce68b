//! The cycle file format (`assets/cycles/*.json`), as written.
//!
//! ```json
//! {
//!   "name": "Hero run",
//!   "rig": "BlockHero",
//!   "description": "The seed's hand-written run cycle.",
//!   "parameters": [
//!     { "name": "speed", "label": "Speed", "default": 1.25, "min": 0.1, "max": 4,
//!       "unit": "cycles/s", "help": "Strides per second." },
//!     { "name": "amp", "label": "Amplitude", "default": 4, "min": 0, "max": 10 }
//!   ],
//!   "channels": {
//!     "legR.position.x": "cos(t) * amp",
//!     "legR.position.y": "max(0, -sin(t) * amp)"
//!   }
//! }
//! ```
//!
//! `rig` names a built-in rig. Every cycle has a parameter called `speed`, in cycles per
//! second. A channel is `<part>.<position|rotation|scale>.<x|y|z>` (part names may contain dots;
//! rotations are Euler angles in radians, three.js's default `XYZ` order) and its value a
//! formula of the master phase `t` (0 to 2π over one cycle) and the parameters
//! ([`Expression`](super::Expression)). Channels a cycle leaves out keep the part's rest value.

use serde::Deserialize;

/// A cycle file as written.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CycleFile {
    /// The name shown in pickers, e.g. `Hero run`.
    pub name: String,
    /// The built-in rig the cycle moves.
    pub rig: String,
    /// What the cycle is, for tooltips.
    #[serde(default)]
    pub description: String,
    /// The sliders.
    pub parameters: Vec<ParameterFile>,
    /// `part.property.axis` → formula, in the file's order.
    pub channels: serde_json::Map<String, serde_json::Value>,
}

/// One parameter as written.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ParameterFile {
    /// The name formulas use (`amp`).
    pub name: String,
    /// The slider's label (defaults to the name).
    #[serde(default)]
    pub label: Option<String>,
    /// The value a reset returns to.
    pub default: f64,
    /// The slider's lower end.
    pub min: f64,
    /// The slider's upper end.
    pub max: f64,
    /// The unit shown after the value (`cycles/s`, `rad`).
    #[serde(default)]
    pub unit: String,
    /// What the parameter does, for the tooltip.
    #[serde(default)]
    pub help: String,
}
