//! Naming: a node name split into words, its side and the [`Role`] the words give it in a human
//! body, after the conventions of 3ds Max Biped, Mixamo, Unreal, Blender/Rigify, generic names
//! and the Hero's (see the [module docs](super)).

use crate::names;

/// A side of the body.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Side {
    /// The figure's left.
    Left,
    /// The figure's right.
    Right,
}

/// What a node is in a human body.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Role {
    /// A node above the pelvis (`root`, `Bip01`, PlayCanvas's `PB`).
    Root,
    /// Pelvis or hips.
    Pelvis,
    /// A spine bone, with its place in the chain (chest after numbered spines).
    Spine(u32),
    /// A neck bone, with its place in the chain.
    Neck(u32),
    /// The head.
    Head,
    /// Clavicle or shoulder.
    Clavicle(Side),
    /// Upper arm.
    UpperArm(Side),
    /// Forearm.
    Forearm(Side),
    /// Hand.
    Hand(Side),
    /// A finger joint: finger number, joint number.
    Finger(Side, u32, u32),
    /// Thigh.
    Thigh(Side),
    /// Calf (shin).
    Calf(Side),
    /// Foot.
    Foot(Side),
    /// Toe.
    Toe(Side),
}

/// The words of a node name, lower case: namespaces dropped, split at separators, camelCase
/// humps and digit runs (`mixamorig:LeftHandIndex1` → `left hand index 1`).
pub(crate) fn words(name: &str) -> Vec<String> {
    let name = name.rsplit(':').next().unwrap_or(name);
    let name = match name.get(..9) {
        Some(ns) if ns.eq_ignore_ascii_case("mixamorig") && name.len() > 9 => {
            name[9..].trim_start_matches(|c: char| c.is_ascii_digit())
        }
        _ => name,
    };
    let mut out: Vec<String> = Vec::new();
    let mut word = String::new();
    let mut previous: Option<char> = None;
    for c in name.chars() {
        if !c.is_alphanumeric() {
            if !word.is_empty() {
                out.push(std::mem::take(&mut word));
            }
            previous = None;
            continue;
        }
        let split = match previous {
            Some(p) => {
                (p.is_lowercase() && c.is_uppercase()) || (p.is_ascii_digit() != c.is_ascii_digit())
            }
            None => false,
        };
        if split && !word.is_empty() {
            out.push(std::mem::take(&mut word));
        }
        word.extend(c.to_lowercase());
        previous = Some(c);
    }
    if !word.is_empty() {
        out.push(word);
    }
    out
}

/// A name's side and the words that are left once it and any numbers are taken out, with the
/// numbers.
fn parse(name: &str) -> (Option<Side>, String, Vec<String>) {
    let mut side = None;
    let mut body = String::new();
    let mut numbers = Vec::new();
    for w in words(name) {
        match w.as_str() {
            "l" | "left" if side.is_none() => side = Some(Side::Left),
            "r" | "right" if side.is_none() => side = Some(Side::Right),
            w if w.chars().all(|c| c.is_ascii_digit()) => numbers.push(w.to_string()),
            w => body.push_str(w),
        }
    }
    (side, body, numbers)
}

/// The role a name has on its own (`leg` is decided later, against the other names), or `None`.
fn role_of(name: &str, biped_fingers: bool) -> Option<RoleGuess> {
    let (side, body, numbers) = parse(name);
    let index = numbers
        .first()
        .and_then(|n| n.parse::<u32>().ok())
        .unwrap_or(0);
    let sided = |r: fn(Side) -> Role| side.map(|s| RoleGuess::Sure(r(s)));
    if body.ends_with("nub") || body.ends_with("end") || body.ends_with("top") {
        return None;
    }
    let finger_words = [
        "finger", "thumb", "index", "middle", "ring", "pinky", "little",
    ];
    let finger_word = finger_words
        .iter()
        .position(|w| body.ends_with(w) && (body == *w || body.starts_with("hand")));
    match body.as_str() {
        "" | "root" | "armature" | "reference" | "bip" | "rig" | "skeleton" => {
            Some(RoleGuess::Sure(Role::Root))
        }
        "pelvis" | "hips" | "hip" if side.is_none() => Some(RoleGuess::Sure(Role::Pelvis)),
        "spine" | "torso" | "abdomen" | "back" if side.is_none() => {
            Some(RoleGuess::Sure(Role::Spine(index)))
        }
        "chest" if side.is_none() => Some(RoleGuess::Sure(Role::Spine(100 + index))),
        "upperchest" if side.is_none() => Some(RoleGuess::Sure(Role::Spine(200 + index))),
        "neck" if side.is_none() => Some(RoleGuess::Sure(Role::Neck(index))),
        "head" if side.is_none() => Some(RoleGuess::Sure(Role::Head)),
        "clavicle" | "shoulder" | "collar" | "collarbone" => sided(Role::Clavicle),
        "upperarm" | "arm" | "uparm" | "armupper" => sided(Role::UpperArm),
        "forearm" | "lowerarm" | "armlower" | "elbow" => sided(Role::Forearm),
        "hand" | "wrist" | "palm" => sided(Role::Hand),
        "thigh" | "upleg" | "upperleg" | "legupper" => sided(Role::Thigh),
        "calf" | "lowerleg" | "leglower" | "shin" | "knee" => sided(Role::Calf),
        "leg" => side.map(RoleGuess::Leg),
        "foot" | "ankle" => sided(Role::Foot),
        "toe" | "toebase" | "toes" | "ball" => sided(Role::Toe),
        _ => {
            let (s, f) = (side?, finger_word?);
            let (finger, joint) = if f == 0 && biped_fingers {
                // Biped: `Finger0` is the thumb's first joint, `Finger01` its second.
                let digits = numbers.first().map_or("0", String::as_str);
                let finger = digits[..1].parse().unwrap_or(0);
                let joint = digits[1..].parse().unwrap_or(0);
                (finger, joint)
            } else if f == 0 {
                (0, index)
            } else {
                (f as u32, index)
            };
            Some(RoleGuess::Sure(Role::Finger(s, finger, joint)))
        }
    }
}

/// A role, or `leg`, which is the calf next to a thigh word and the foot next to both.
#[derive(Debug, Clone, Copy)]
enum RoleGuess {
    Sure(Role),
    Leg(Side),
}

/// The roles of `nodes`: one per node, `None` where no role fits or the role is taken by a node
/// listed before.
pub(crate) fn roles(nodes: &[String]) -> Vec<Option<Role>> {
    let prefix = names::common_prefix(nodes.iter().map(String::as_str));
    let stripped: Vec<&str> = nodes.iter().map(|n| names::strip(n, &prefix)).collect();
    let biped_fingers = stripped.iter().any(|n| {
        let (_, body, numbers) = parse(n);
        body == "finger" && numbers.first().is_some_and(|d| d.len() >= 2)
    });
    let stem = prefix.trim_end_matches(|c: char| !c.is_alphanumeric());
    let guesses: Vec<Option<RoleGuess>> = nodes
        .iter()
        .zip(&stripped)
        .map(|(n, s)| {
            if !stem.is_empty() && n == stem {
                Some(RoleGuess::Sure(Role::Root))
            } else {
                role_of(s, biped_fingers)
            }
        })
        .collect();
    let has = |want: Role| {
        guesses
            .iter()
            .any(|g| matches!(g, Some(RoleGuess::Sure(r)) if *r == want))
    };
    let mut taken = std::collections::HashSet::new();
    guesses
        .iter()
        .map(|g| {
            let role = match (*g)? {
                RoleGuess::Sure(r) => r,
                RoleGuess::Leg(s) if !has(Role::Calf(s)) => Role::Calf(s),
                RoleGuess::Leg(s) if !has(Role::Foot(s)) => Role::Foot(s),
                RoleGuess::Leg(_) => return None,
            };
            taken.insert(role).then_some(role)
        })
        .collect()
}

/// Whether `roles` make a humanoid: a pelvis or spine, a leg and a head, neck or arm.
pub(super) fn is_humanoid(roles: &[Option<Role>]) -> bool {
    let any = |f: fn(&Role) -> bool| roles.iter().flatten().any(f);
    any(|r| matches!(r, Role::Pelvis | Role::Spine(_)))
        && any(|r| matches!(r, Role::Thigh(_) | Role::Calf(_) | Role::Foot(_)))
        && any(|r| matches!(r, Role::Head | Role::Neck(_) | Role::UpperArm(_)))
}

/// The side a role is on.
pub(super) fn side_of(role: Role) -> Option<Side> {
    match role {
        Role::Clavicle(s)
        | Role::UpperArm(s)
        | Role::Forearm(s)
        | Role::Hand(s)
        | Role::Finger(s, _, _)
        | Role::Thigh(s)
        | Role::Calf(s)
        | Role::Foot(s)
        | Role::Toe(s) => Some(s),
        _ => None,
    }
}

/// "L" or "R".
pub(super) fn side_word(side: Side) -> &'static str {
    match side {
        Side::Left => "L",
        Side::Right => "R",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(names: &[&str]) -> Vec<String> {
        names.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn words_of_names() {
        assert_eq!(
            words("mixamorig:LeftHandIndex1"),
            ["left", "hand", "index", "1"]
        );
        assert_eq!(words("mixamorigLeftUpLeg"), ["left", "up", "leg"]);
        assert_eq!(words("PB L Finger01"), ["pb", "l", "finger", "01"]);
        assert_eq!(words("thigh.L"), ["thigh", "l"]);
        assert_eq!(words("spine_01"), ["spine", "01"]);
        assert_eq!(words("upperLeg.R"), ["upper", "leg", "r"]);
    }

    /// The roles of `names`, unwrapped.
    fn roles_of(names: &[&str]) -> Vec<Option<Role>> {
        roles(&strings(names))
    }

    use Role::*;
    use Side::*;

    #[test]
    fn conventions() {
        // Biped, with PlayCanvas's prefix, and Max's own.
        assert_eq!(
            roles_of(&[
                "PB",
                "PB Pelvis",
                "PB L Thigh",
                "PB R Calf",
                "PB L Finger01",
                "PB HeadNub"
            ]),
            [
                Some(Root),
                Some(Pelvis),
                Some(Thigh(Left)),
                Some(Calf(Right)),
                Some(Finger(Left, 0, 1)),
                None
            ]
        );
        assert_eq!(
            roles_of(&[
                "Bip01 Pelvis",
                "Bip01 Spine1",
                "Bip01 R Clavicle",
                "Bip01 L Toe0"
            ]),
            [
                Some(Pelvis),
                Some(Spine(1)),
                Some(Clavicle(Right)),
                Some(Toe(Left))
            ]
        );
        // Mixamo, as exported and as three.js sanitises it.
        assert_eq!(
            roles_of(&[
                "mixamorig:Hips",
                "mixamorigLeftUpLeg",
                "mixamorig:LeftLeg",
                "mixamorig:RightShoulder",
                "mixamorig:RightArm",
                "mixamorig:RightForeArm",
                "mixamorig:LeftHandIndex2",
                "mixamorig:HeadTop_End",
            ]),
            [
                Some(Pelvis),
                Some(Thigh(Left)),
                Some(Calf(Left)),
                Some(Clavicle(Right)),
                Some(UpperArm(Right)),
                Some(Forearm(Right)),
                Some(Finger(Left, 2, 2)),
                None
            ]
        );
        // Unreal.
        assert_eq!(
            roles_of(&[
                "root", "pelvis", "spine_01", "thigh_l", "calf_r", "ball_l", "neck_01"
            ]),
            [
                Some(Root),
                Some(Pelvis),
                Some(Spine(1)),
                Some(Thigh(Left)),
                Some(Calf(Right)),
                Some(Toe(Left)),
                Some(Neck(1))
            ]
        );
        // Rigify and the Hero.
        assert_eq!(
            roles_of(&[
                "thigh.L",
                "shin.R",
                "upper_arm.L",
                "forearm.R",
                "upperLeg.L",
                "lowerLeg.L"
            ]),
            [
                Some(Thigh(Left)),
                Some(Calf(Right)),
                Some(UpperArm(Left)),
                Some(Forearm(Right)),
                None, // a second left thigh
                Some(Calf(Left)),
            ]
        );
        // Generic: `leg` is the calf beside a thigh, the foot beside thigh and calf.
        assert_eq!(
            roles_of(&[
                "upper_leg_l",
                "leg_l",
                "upper_leg_r",
                "lower_leg_r",
                "leg_r",
                "hand_r"
            ]),
            [
                Some(Thigh(Left)),
                Some(Calf(Left)),
                Some(Thigh(Right)),
                Some(Calf(Right)),
                Some(Foot(Right)),
                Some(Hand(Right))
            ]
        );
    }
}
