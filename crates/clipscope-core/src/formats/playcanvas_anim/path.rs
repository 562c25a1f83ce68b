//! A curve's `path`: where in the entity hierarchy a curve's values go, as the anim system's
//! binder reads it. Written either as a string, `ENTITY/COMPONENT/PROPERTY` with the entity
//! path's names joined by `.` (`AnimBinder.encode`; `\` escapes `.`, `/` and itself, as
//! `AnimBinder.splitPath` reads them), or as an object `{"entityPath": [...], "component",
//! "propertyPath": [...]}`.
//!
//! On the entity (component `entity`, or `graph` for a model's node) `localPosition`,
//! `localRotation`, `localEulerAngles` (degrees, the engine's `setLocalEulerAngles`) and
//! `localScale` are the node's transform: clipscope reads them as `NODE.position`,
//! `NODE.quaternion` and `NODE.scale` tracks, `NODE` the last name of the entity path. Any other
//! property (a light's `color`, a camera's `fov`, a material's `opacity`) becomes a track named
//! by the path string itself.

use std::fmt;

use serde_json::Value;

use crate::model::binding::sanitize_node_name;

/// Why a curve's `path` names no place in the entity hierarchy.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum PathError {
    /// A string path without its three parts: the string.
    NotThreeParts(String),
    /// An object path without this field (`entityPath`, `component`, `propertyPath`).
    Missing(&'static str),
    /// An object path whose list field holds something other than strings.
    NonString(&'static str),
    /// Neither a string nor an object: the value as JSON text.
    WrongType(String),
}

impl fmt::Display for PathError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PathError::NotThreeParts(text) => {
                write!(f, "{text:?} is not ENTITY/COMPONENT/PROPERTY")
            }
            PathError::Missing(key) => write!(f, "missing {key}"),
            PathError::NonString(key) => write!(f, "{key} holds a non-string"),
            PathError::WrongType(value) => {
                write!(f, "a curve path is a string or an object, not {value}")
            }
        }
    }
}

impl std::error::Error for PathError {}

/// Where a curve goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Locator {
    /// The entity's path from the root (`["RootNode", "Hips"]`).
    pub entity: Vec<String>,
    /// The component (`entity`, `graph`, `light`, …).
    pub component: String,
    /// The property's path in the component (`["localPosition"]`, `["color"]`).
    pub property: Vec<String>,
}

/// A node transform property.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Transform {
    /// `localPosition`.
    Position,
    /// `localRotation` (quaternion).
    Rotation,
    /// `localEulerAngles` (degrees).
    Euler,
    /// `localScale`.
    Scale,
}

impl Transform {
    /// The engine's property name.
    pub(crate) fn property(self) -> &'static str {
        match self {
            Transform::Position => "localPosition",
            Transform::Rotation => "localRotation",
            Transform::Euler => "localEulerAngles",
            Transform::Scale => "localScale",
        }
    }

    /// The model's property name of the track.
    pub(crate) fn track_property(self) -> &'static str {
        match self {
            Transform::Position => "position",
            Transform::Rotation | Transform::Euler => "quaternion",
            Transform::Scale => "scale",
        }
    }

    /// The values per key in the file.
    pub(crate) fn components(self) -> usize {
        match self {
            Transform::Rotation => 4,
            _ => 3,
        }
    }
}

/// Splits `text` at unescaped `sep`, resolving `\sep` and `\\` (`AnimBinder.splitPath`).
fn split(text: &str, sep: char) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some(n) if n == '\\' || n == sep => current.push(n),
                Some(n) => {
                    current.push('\\');
                    current.push(n);
                }
                None => current.push('\\'),
            }
        } else if c == sep {
            out.push(std::mem::take(&mut current));
        } else {
            current.push(c);
        }
    }
    if !current.is_empty() {
        out.push(current);
    }
    out
}

/// `parts` joined by `sep`, escaping `\` and `sep` (`AnimBinder.joinPath`).
fn join(parts: &[String], sep: char) -> String {
    parts
        .iter()
        .map(|p| p.replace('\\', "\\\\").replace(sep, &format!("\\{sep}")))
        .collect::<Vec<_>>()
        .join(&sep.to_string())
}

impl Locator {
    /// The locator of a curve's `path` value, or why it is none.
    pub(crate) fn parse(path: &Value) -> Result<Locator, PathError> {
        match path {
            Value::String(text) => {
                let parts = split(text, '/');
                if parts.len() < 3 {
                    return Err(PathError::NotThreeParts(text.clone()));
                }
                Ok(Locator {
                    entity: split(&parts[0], '.'),
                    component: parts[1].clone(),
                    property: parts[2..].to_vec(),
                })
            }
            Value::Object(o) => {
                let list = |key: &'static str| -> Result<Vec<String>, PathError> {
                    match o.get(key) {
                        Some(Value::String(s)) => Ok(vec![s.clone()]),
                        Some(Value::Array(a)) => a
                            .iter()
                            .map(|v| {
                                v.as_str()
                                    .map(str::to_string)
                                    .ok_or(PathError::NonString(key))
                            })
                            .collect(),
                        _ => Err(PathError::Missing(key)),
                    }
                };
                let component = o
                    .get("component")
                    .and_then(Value::as_str)
                    .ok_or(PathError::Missing("component"))?
                    .to_string();
                Ok(Locator {
                    entity: list("entityPath")?,
                    component,
                    property: list("propertyPath")?,
                })
            }
            other => Err(PathError::WrongType(other.to_string())),
        }
    }

    /// The string form (`AnimBinder.encode` with `joinPath`'s escapes).
    pub(crate) fn encode(&self) -> String {
        format!(
            "{}/{}/{}",
            join(&self.entity, '.'),
            self.component,
            join(&self.property, '/')
        )
    }

    /// The node transform this locator drives, if it is one.
    pub(crate) fn transform_of(&self) -> Option<Transform> {
        if !matches!(self.component.as_str(), "entity" | "graph") {
            return None;
        }
        match self.property.as_slice() {
            [p] => match p.as_str() {
                "localPosition" => Some(Transform::Position),
                "localRotation" => Some(Transform::Rotation),
                "localEulerAngles" => Some(Transform::Euler),
                "localScale" => Some(Transform::Scale),
                _ => None,
            },
            _ => None,
        }
    }

    /// The name of the track this locator gives: `NODE.position` for a transform, else the
    /// path string itself.
    pub(crate) fn track_name(&self) -> String {
        match self.transform_of() {
            Some(t) => format!(
                "{}.{}",
                sanitize_node_name(self.entity.last().map_or("", String::as_str)),
                t.track_property()
            ),
            None => self.encode(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn strings_and_objects() {
        let l = Locator::parse(&json!("RootNode.Hips/graph/localPosition")).unwrap();
        assert_eq!(l.entity, ["RootNode", "Hips"]);
        assert_eq!(l.component, "graph");
        assert_eq!(l.transform_of(), Some(Transform::Position));
        assert_eq!(l.track_name(), "Hips.position");
        let escaped = Locator::parse(&json!(r"a\.b.c/entity/localEulerAngles")).unwrap();
        assert_eq!(escaped.entity, ["a.b", "c"]);
        assert_eq!(escaped.encode(), r"a\.b.c/entity/localEulerAngles");
        assert_eq!(escaped.track_name(), "c.quaternion");
        let light = Locator::parse(
            &json!({"entityPath":["Scene","Spot"],"component":"light","propertyPath":["color"]}),
        )
        .unwrap();
        assert_eq!(light.transform_of(), None);
        assert_eq!(light.track_name(), "Scene.Spot/light/color");
        assert_eq!(
            Locator::parse(&json!("a/entity")).unwrap_err().to_string(),
            "\"a/entity\" is not ENTITY/COMPONENT/PROPERTY"
        );
        assert_eq!(
            Locator::parse(&json!(3)).unwrap_err().to_string(),
            "a curve path is a string or an object, not 3"
        );
        assert_eq!(
            Locator::parse(&json!({"entityPath": [1], "component": "light"})),
            Err(PathError::NonString("entityPath"))
        );
        assert_eq!(
            Locator::parse(&json!({"entityPath": "a"})),
            Err(PathError::Missing("component"))
        );
        let fresh = Locator {
            entity: vec!["Arm".into()],
            component: "entity".into(),
            property: vec![Transform::Scale.property().into()],
        };
        assert_eq!(fresh.encode(), "Arm/entity/localScale");
        assert_eq!(Locator::parse(&json!(fresh.encode())).unwrap(), fresh);
    }
}
