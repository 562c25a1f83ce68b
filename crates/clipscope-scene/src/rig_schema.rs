//! Reading the rig file format (`assets/rigs/*.json`, its schema [`RigFile`] in
//! `clipscope_core::formats::RigFile`) into a [`Rig`].
//!
//! ```json
//! {
//!   "name": "Hero",
//!   "morphTargets": ["blink"],
//!   "parts": [
//!     { "name": "hips", "size": [0.44, 0.2, 0.26], "colour": "#4f6d8f", "position": [0, 0.95, 0] },
//!     { "name": "upperLeg.L", "parent": "hips", "size": [0.17, 0.44, 0.19], "colour": "#4f6d8f",
//!       "position": [0.12, -0.08, 0], "offset": [0, -0.22, 0] }
//!   ]
//! }
//! ```
//!
//! Per part: `name`; `parent` (a part name; none hangs the part from the rig's root); `size`
//! (positive, or `[0, 0, 0]` for a pivot without a box that only groups its children); `colour` (or `color`, an sRGB hex `#rrggbb`); and, optional, `offset` (box centre
//! from the pivot, default 0), `position` (pivot from the parent's pivot, default 0), `rotation`
//! (a quaternion `[x, y, z, w]`, or Euler angles `[x, y, z]` in degrees applied in three.js's
//! default `XYZ` order; default none) and `scale` (default 1). Parts may be listed in any order.
//! Reading checks the file and reports the first problem on one line naming the file and the
//! JSON path: `hero.json: parts[3].parent: no part named "hip"`.

use std::collections::HashMap;
use std::path::Path;

use glam::{EulerRot, Quat, Vec3};

use super::rig::parents_first;
use super::{Part, Rig, RigError};
use clipscope_core::formats::ReadError;
use clipscope_core::formats::{PartFile, RigFile};

/// Parses `#rrggbb` (sRGB) into linear RGB.
pub fn parse_hex_colour(text: &str) -> Option<[f32; 3]> {
    let hex = text.strip_prefix('#')?;
    if hex.len() != 6 || !hex.is_ascii() {
        return None;
    }
    let channel = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).ok();
    let (r, g, b) = (channel(0)?, channel(2)?, channel(4)?);
    Some([srgb_to_linear(r), srgb_to_linear(g), srgb_to_linear(b)])
}

/// One sRGB byte to linear 0–1 (the sRGB transfer function, as three.js's
/// `SRGBToLinear`).
fn srgb_to_linear(c: u8) -> f32 {
    let c = f32::from(c) / 255.0;
    if c < 0.04045 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}

impl Rig {
    /// Reads a rig file (`file` names it in errors).
    pub fn from_json(bytes: &[u8], file: impl AsRef<Path>) -> Result<Rig, ReadError> {
        let file = file.as_ref();
        Rig::from_rig_file(RigFile::parse(bytes, file)?)
            .map_err(|e| ReadError::schema(file, e.path(), e.reason()))
    }

    /// Checks a parsed rig file and builds the rig, parents first; the error names the JSON
    /// path of the culprit ([`RigError::path`]).
    pub fn from_rig_file(schema: RigFile) -> Result<Rig, RigError> {
        let index = check_names(&schema)?;
        let parent = parents(&schema, &index)?;
        let order = parents_first(&parent);
        let mut new_index = vec![0; schema.parts.len()];
        for (n, &k) in order.iter().enumerate() {
            new_index[k] = n;
        }
        let mut parts = Vec::with_capacity(schema.parts.len());
        for &i in &order {
            let mut part = part_of(i, &schema.parts[i])?;
            part.parent = parent[i].map(|q| new_index[q]);
            parts.push(part);
        }
        Ok(Rig {
            name: schema.name,
            parts,
            morph_targets: schema.morph_targets,
            origin: super::rig::Origin::BuiltIn,
            joint_size: 0.0,
            model: None,
        })
    }
}

/// Checks the rig's name and its parts' names (present, not the rig's, unique); returns the
/// index of each part by name.
fn check_names(schema: &RigFile) -> Result<HashMap<&str, usize>, RigError> {
    if schema.name.is_empty() {
        return Err(RigError::NoName);
    }
    if schema.parts.is_empty() {
        return Err(RigError::NoParts);
    }
    let mut index: HashMap<&str, usize> = HashMap::new();
    for (i, p) in schema.parts.iter().enumerate() {
        if p.name.is_empty() {
            return Err(RigError::EmptyPartName { part: i });
        }
        if p.name == schema.name {
            return Err(RigError::OwnName {
                part: i,
                name: p.name.clone(),
            });
        }
        if let Some(first) = index.insert(&p.name, i) {
            return Err(RigError::DuplicateName {
                part: i,
                name: p.name.clone(),
                first: Some(first),
            });
        }
    }
    Ok(index)
}

/// The parent of each part (by `index`, the parts by name), checked: every parent named is a
/// part, and no part is its own ancestor.
fn parents(schema: &RigFile, index: &HashMap<&str, usize>) -> Result<Vec<Option<usize>>, RigError> {
    let mut parent = Vec::with_capacity(schema.parts.len());
    for (i, p) in schema.parts.iter().enumerate() {
        parent.push(match &p.parent {
            None => None,
            Some(name) => match index.get(name.as_str()) {
                Some(&j) => Some(j),
                None => {
                    return Err(RigError::UnknownParent {
                        part: i,
                        parent: name.clone(),
                    });
                }
            },
        });
    }
    for i in 0..schema.parts.len() {
        let mut chain = vec![i];
        let mut at = i;
        while let Some(p) = parent[at] {
            if p == i {
                let cycle = chain
                    .iter()
                    .chain([&i])
                    .map(|&k| schema.parts[k].name.clone())
                    .collect();
                return Err(RigError::ParentCycle { part: i, cycle });
            }
            if chain.len() > schema.parts.len() {
                break; // a cycle above this part, reported for a part on it
            }
            chain.push(p);
            at = p;
        }
    }
    Ok(parent)
}

/// Part `i` of a rig file, checked, without its parent: finite vectors, a positive (or all
/// zero) size, an sRGB colour and a rotation.
fn part_of(i: usize, p: &PartFile) -> Result<Part, RigError> {
    let vector = |field: &'static str, v: [f32; 3]| {
        let v = Vec3::from(v);
        if v.is_finite() {
            Ok(v)
        } else {
            Err(RigError::NotFinite { part: i, field })
        }
    };
    let size = vector("size", p.size)?;
    // All zero: a pivot without a box (a group, like the seed Hero's `body`).
    if !(size.cmpgt(Vec3::ZERO).all() || size == Vec3::ZERO) {
        return Err(RigError::Size { part: i, size });
    }
    let colour = parse_hex_colour(&p.colour).ok_or_else(|| RigError::Colour {
        part: i,
        colour: p.colour.clone(),
    })?;
    let rotation = rotation(i, p.rotation.as_deref())?;
    Ok(Part {
        name: p.name.clone(),
        parent: None,
        size,
        colour,
        offset: vector("offset", p.offset)?,
        position: vector("position", p.position)?,
        rotation,
        scale: vector("scale", p.scale)?,
        tip: None,
    })
}

/// Part `i`'s rotation: none, a quaternion `[x, y, z, w]` (normalized) or Euler degrees
/// `[x, y, z]` in three.js's default `XYZ` order.
fn rotation(i: usize, rotation: Option<&[f32]>) -> Result<Quat, RigError> {
    match rotation {
        None => Ok(Quat::IDENTITY),
        Some(&[x, y, z]) if [x, y, z].iter().all(|v| v.is_finite()) => Ok(Quat::from_euler(
            EulerRot::XYZ,
            x.to_radians(),
            y.to_radians(),
            z.to_radians(),
        )),
        Some(&[x, y, z, w]) => {
            let q = Quat::from_xyzw(x, y, z, w);
            if !(q.is_finite() && q.length() > 1e-6) {
                return Err(RigError::NotAQuaternion { part: i });
            }
            Ok(q.normalize())
        }
        Some(_) => Err(RigError::RotationShape { part: i }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Result<Rig, String> {
        Rig::from_json(text.as_bytes(), "t.json").map_err(|e| e.to_string())
    }

    const PART: &str = r##""size": [1, 1, 1], "colour": "#ffffff""##;

    #[test]
    fn reads_parts_parents_first() {
        let rig = read(&format!(
            r##"{{"name": "r", "parts": [
                {{"name": "hand", "parent": "arm", {PART}, "rotation": [90, 0, 0]}},
                {{"name": "arm", "parent": "body", {PART}, "position": [1, 2, 3], "scale": [2, 2, 2]}},
                {{"name": "body", "size": [1, 2, 3], "color": "#ff8000", "offset": [0, 1, 0],
                  "rotation": [0, 0, 0, 2]}}
            ]}}"##
        ))
        .unwrap();
        let names: Vec<&str> = rig.parts.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["body", "arm", "hand"]);
        let parents: Vec<Option<usize>> = rig.parts.iter().map(|p| p.parent).collect();
        assert_eq!(parents, [None, Some(0), Some(1)]);
        let body = &rig.parts[0];
        assert_eq!(body.size, Vec3::new(1.0, 2.0, 3.0));
        assert_eq!(body.offset, Vec3::Y);
        assert_eq!(body.rotation, Quat::IDENTITY);
        assert_eq!(body.colour[0], 1.0);
        assert!(
            (body.colour[1] - 0.2158605).abs() < 1e-6,
            "{:?}",
            body.colour
        );
        assert_eq!(body.colour[2], 0.0);
        assert_eq!(rig.parts[1].position, Vec3::new(1.0, 2.0, 3.0));
        assert_eq!(rig.parts[1].scale, Vec3::splat(2.0));
        let q = rig.parts[2].rotation;
        assert!(q.abs_diff_eq(Quat::from_rotation_x(90f32.to_radians()), 1e-6));
        assert!(Rig::new(rig.name.clone(), rig.parts.clone(), vec![]).is_ok());
    }

    #[test]
    fn euler_order_is_three_js_xyz() {
        // three.js's XYZ order makes the matrix Rx · Ry · Rz.
        let (x, y, z) = (0.3f32, -0.7f32, 1.1f32);
        let q = Quat::from_euler(EulerRot::XYZ, x, y, z);
        let expected =
            Quat::from_rotation_x(x) * Quat::from_rotation_y(y) * Quat::from_rotation_z(z);
        assert!(q.abs_diff_eq(expected, 1e-6));
    }

    #[test]
    fn schema_errors_name_file_and_path() {
        let cases = [
            (
                format!(r#"{{"name": "r", "parts": [{{"name": "a", {PART}}}, {{"name": "b", "parent": "c", {PART}}}]}}"#),
                r#"t.json: parts[1].parent: no part named "c""#,
            ),
            (
                format!(r#"{{"name": "r", "parts": [{{"name": "a", {PART}}}, {{"name": "a", {PART}}}]}}"#),
                r#"t.json: parts[1].name: duplicate part name "a" (also parts[0])"#,
            ),
            (
                format!(r#"{{"name": "r", "parts": [{{"name": "a", "parent": "b", {PART}}}, {{"name": "b", "parent": "a", {PART}}}]}}"#),
                "t.json: parts[0].parent: parent cycle a → b → a",
            ),
            (
                format!(r#"{{"name": "r", "parts": [{{"name": "a", "parent": "a", {PART}}}]}}"#),
                "t.json: parts[0].parent: parent cycle a → a",
            ),
            (
                r##"{"name": "r", "parts": [{"name": "a", "size": [1, 0, 1], "colour": "#fff000"}]}"##.into(),
                "t.json: parts[0].size: sizes must be positive, got [1, 0, 1]",
            ),
            (
                r##"{"name": "r", "parts": [{"name": "a", "size": [1, 1, 1], "colour": "orange"}]}"##.into(),
                r##"t.json: parts[0].colour: "orange" is not an sRGB hex colour like "#e8a15c""##,
            ),
            (
                format!(r#"{{"name": "r", "parts": [{{"name": "a", {PART}, "rotation": [1, 2]}}]}}"#),
                "t.json: parts[0].rotation: expected a quaternion [x, y, z, w] or Euler degrees [x, y, z]",
            ),
            (
                r##"{"name": "r", "parts": [{"name": "a", "size": [1, 1], "colour": "#ffffff"}]}"##.into(),
                "t.json: parts[0].size[1]: invalid length 2, expected an array of length 3",
            ),
            (
                r##"{"name": "r", "parts": [{"name": "a", "colour": "#ffffff"}]}"##.into(),
                "t.json: parts[0]: missing field `size`",
            ),
            (
                format!(r#"{{"name": "r", "parts": [{{"name": "a", {PART}, "pivot": [0, 0, 0]}}]}}"#),
                "t.json: parts[0].pivot: unknown field `pivot`, expected one of `name`, `parent`, `size`, `color`, `colour`, `offset`, `position`, `rotation`, `scale`",
            ),
            (
                format!(r#"{{"name": "r", "parts": [{{"name": "r", {PART}}}]}}"#),
                r#"t.json: parts[0].name: "r" is the rig's own name (its root node)"#,
            ),
            (r#"{"name": "r", "parts": []}"#.into(), "t.json: parts: the rig has no parts"),
            (r#"{"name": "r", "parts": [{"#.into(), "t.json: parts[0]: EOF while parsing an object"),
        ];
        for (text, expected) in cases {
            assert_eq!(read(&text).unwrap_err(), expected, "{text}");
        }
    }
}
