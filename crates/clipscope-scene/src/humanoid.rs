//! Humanoids from names: a clip with no skeleton anywhere whose node names follow a humanoid
//! convention plays on a figure built from those names.
//!
//! Each node name is split into words (separators, camelCase, digits), its side taken from
//! `L`/`R`, `_l`/`_r`, `.L`/`.R`, `Left`/`Right`, and the rest matched against the words of 3ds
//! Max Biped (`Bip01 Pelvis`, `PB L Thigh`), Mixamo (`mixamorig:LeftUpLeg`), Unreal (`pelvis`,
//! `spine_01`, `thigh_l`), Blender/Rigify (`thigh.L`), generic names (`upper_leg_l`, `leg_r`,
//! `spine3`) and the Hero's (`upperLeg.L`) to give it a [`Role`]. The hierarchy comes from the
//! roles (pelvis → spine chain → neck → head; clavicle → upper arm → forearm → hand → fingers
//! from the top of the spine; thigh → calf → foot → toe from the pelvis), with Biped's own
//! habits (thighs under the first spine bone, clavicles under the neck). A node above the
//! pelvis (`PB`, `Bip01`, `root`) stays above it.
//!
//! Each joint sits where the clip's first position key puts it; joints without position keys
//! get human proportions, scaled to the clip's units by the nodes that have them. Nodes whose
//! position keys put them far from any parent, and feet or hands keyed off their chain
//! parent's axes (IK controls), hang from the top; a shin whose foot is such a control ends at
//! an unanimated ankle part. Thighs (or upper arms without clavicles) keyed at one and the same
//! offset hang from sided hip (shoulder) bones the clip lacks: pivot parts whose quarter turn
//! brings the ankles onto their feet (hangs the arms at their sides). A scaled node keeps its
//! first scale key at rest, so bones are sized for the body as it plays. Nodes no
//! role fits (`PB HeadNub`, a prop) stay visible as small blocks under the matched node whose
//! name they extend, else the matched node listed before them. The figure is turned so its head
//! is up (a Z-up take stands) and lifted onto the ground at the clip's first frame.

use std::collections::HashMap;

use glam::{Quat, Vec3};

use super::rig::Origin;
use super::skeleton_rig::draw_bones_preferring;
use super::{Part, Rig, animated_nodes, names, parse_hex_colour};
use clipscope_core::model::Clip;
use clipscope_core::model::binding::parse_track_name;

/// The name of the rig built from names.
pub const HUMANOID: &str = "Humanoid";

/// A side of the body.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Side {
    /// The figure's left.
    Left,
    /// The figure's right.
    Right,
}

/// What a node is in a human body.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Role {
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
pub fn words(name: &str) -> Vec<String> {
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
pub fn roles(nodes: &[String]) -> Vec<Option<Role>> {
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
fn is_humanoid(roles: &[Option<Role>]) -> bool {
    let any = |f: fn(&Role) -> bool| roles.iter().flatten().any(f);
    any(|r| matches!(r, Role::Pelvis | Role::Spine(_)))
        && any(|r| matches!(r, Role::Thigh(_) | Role::Calf(_) | Role::Foot(_)))
        && any(|r| matches!(r, Role::Head | Role::Neck(_) | Role::UpperArm(_)))
}

/// Human proportions, metres: a role's rest offset from its parent's joint in a T-pose
/// (y up, the figure's left at +x, facing +z).
fn proportion(role: Role) -> Vec3 {
    let side = |s: Side| if s == Side::Left { 1.0 } else { -1.0 };
    match role {
        Role::Root => Vec3::ZERO,
        Role::Pelvis => Vec3::new(0.0, 0.95, 0.0),
        Role::Spine(_) => Vec3::new(0.0, 0.14, 0.0),
        Role::Neck(_) => Vec3::new(0.0, 0.1, 0.0),
        Role::Head => Vec3::new(0.0, 0.1, 0.0),
        Role::Clavicle(s) => Vec3::new(side(s) * 0.03, 0.08, 0.0),
        Role::UpperArm(s) => Vec3::new(side(s) * 0.15, 0.0, 0.0),
        Role::Forearm(s) => Vec3::new(side(s) * 0.28, 0.0, 0.0),
        Role::Hand(s) => Vec3::new(side(s) * 0.26, 0.0, 0.0),
        Role::Finger(s, _, 0) => Vec3::new(side(s) * 0.09, 0.0, 0.0),
        Role::Finger(s, _, _) => Vec3::new(side(s) * 0.035, 0.0, 0.0),
        Role::Thigh(s) => Vec3::new(side(s) * 0.09, -0.05, 0.0),
        Role::Calf(_) => Vec3::new(0.0, -0.44, 0.0),
        Role::Foot(_) => Vec3::new(0.0, -0.43, 0.0),
        Role::Toe(_) => Vec3::new(0.0, -0.05, 0.13),
    }
}

/// The body colours, sRGB: centre, left, right, unmatched.
const CENTRE: &str = "#e8a15c";
const LEFT: &str = "#5fa8d3";
const RIGHT: &str = "#e07a5f";
const OTHER: &str = "#b58fd6";

/// The side a role is on.
fn side_of(role: Role) -> Option<Side> {
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

/// The first keys of each node's `position` and `quaternion` tracks.
fn first_keys(clip: &Clip) -> HashMap<String, (Option<Vec3>, Option<Quat>)> {
    let mut out: HashMap<String, (Option<Vec3>, Option<Quat>)> = HashMap::new();
    for track in &clip.tracks {
        let Ok(path) = parse_track_name(&track.name) else {
            continue;
        };
        if path.property_index.is_some() {
            continue;
        }
        let property = path.property_name.clone();
        let Some(node) = path.animated_node() else {
            continue;
        };
        let Some(v) = track.values.as_numbers() else {
            continue;
        };
        let entry = out.entry(node).or_default();
        match (property.as_str(), v) {
            ("position", [x, y, z, ..]) => {
                let p = Vec3::new(*x, *y, *z);
                if p.is_finite() {
                    entry.0 = Some(p);
                }
            }
            ("quaternion", [x, y, z, w, ..]) => {
                let q = Quat::from_xyzw(*x, *y, *z, *w);
                if q.is_finite() && q.length() > 1e-6 {
                    entry.1 = Some(q.normalize());
                }
            }
            _ => {}
        }
    }
    out
}

/// The first key of each node's `scale` track, where it is finite, not zero and not 1.
fn first_scales(clip: &Clip) -> HashMap<String, Vec3> {
    let mut out = HashMap::new();
    for track in &clip.tracks {
        let Ok(path) = parse_track_name(&track.name) else {
            continue;
        };
        if path.property_name != "scale" || path.property_index.is_some() {
            continue;
        }
        let (Some(node), Some([x, y, z, ..])) = (path.animated_node(), track.values.as_numbers())
        else {
            continue;
        };
        let s = Vec3::new(*x, *y, *z);
        if s.is_finite() && s.abs().min_element() > 1e-9 && s != Vec3::ONE {
            out.insert(node, s);
        }
    }
    out
}

impl Rig {
    /// The humanoid `clip`'s node names describe (see the module docs), or `None` when they
    /// follow no humanoid convention.
    pub fn humanoid(clip: &Clip) -> Option<Rig> {
        let nodes = animated_nodes(clip);
        let roles = roles(&nodes);
        if !is_humanoid(&roles) {
            return None;
        }
        Some(build(clip, &nodes, &roles))
    }
}

/// Builds the humanoid rig of `nodes` with `roles` (see the module docs).
fn build(clip: &Clip, nodes: &[String], roles: &[Option<Role>]) -> Rig {
    let biped = nodes.iter().any(|n| {
        let n = format!(" {n} ");
        n.contains(" L ") || n.contains(" R ")
    });
    let by_role: HashMap<Role, usize> = roles
        .iter()
        .enumerate()
        .filter_map(|(i, r)| r.map(|r| (r, i)))
        .collect();
    let find = |r: Role| by_role.get(&r).copied();
    let root = find(Role::Root);
    let pelvis = find(Role::Pelvis);
    // The numbered links of a chain (spine1, spine2, …), lowest first.
    let chain = |link: fn(&Role) -> Option<u32>| {
        let mut links: Vec<(u32, usize)> = roles
            .iter()
            .enumerate()
            .filter_map(|(i, r)| r.as_ref().and_then(link).map(|k| (k, i)))
            .collect();
        links.sort_unstable();
        links
    };
    let spines = chain(|r| match r {
        Role::Spine(k) => Some(*k),
        _ => None,
    });
    let necks = chain(|r| match r {
        Role::Neck(k) => Some(*k),
        _ => None,
    });
    let first_spine = spines.first().map(|s| s.1);
    let top_spine = spines.last().map(|s| s.1);
    let top_neck = necks.last().map(|s| s.1);
    let hips = pelvis.or(first_spine).or(root);
    let chest = top_spine.or(hips);

    // Parents by role.
    let n = nodes.len();
    let mut parent: Vec<Option<usize>> = vec![None; n];
    for (i, role) in roles.iter().enumerate() {
        let Some(role) = *role else { continue };
        let or = |options: &[Option<usize>]| options.iter().flatten().next().copied();
        parent[i] = match role {
            Role::Root => None,
            Role::Pelvis => root,
            Role::Spine(_) => {
                let k = spines.iter().position(|s| s.1 == i).unwrap_or(0);
                if k == 0 {
                    or(&[pelvis, root])
                } else {
                    Some(spines[k - 1].1)
                }
            }
            Role::Neck(_) => {
                let k = necks.iter().position(|s| s.1 == i).unwrap_or(0);
                if k == 0 { chest } else { Some(necks[k - 1].1) }
            }
            Role::Head => or(&[top_neck, chest]),
            Role::Clavicle(_) if biped => or(&[top_neck, chest]),
            Role::Clavicle(_) => chest,
            Role::UpperArm(s) => or(&[find(Role::Clavicle(s)), chest]),
            Role::Forearm(s) => or(&[find(Role::UpperArm(s)), find(Role::Clavicle(s)), chest]),
            Role::Hand(s) => or(&[
                find(Role::Forearm(s)),
                find(Role::UpperArm(s)),
                find(Role::Clavicle(s)),
                chest,
            ]),
            Role::Finger(s, f, j) => {
                let before = (0..j).rev().find_map(|k| find(Role::Finger(s, f, k)));
                or(&[before, find(Role::Hand(s)), find(Role::Forearm(s)), chest])
            }
            Role::Thigh(_) if biped => or(&[pelvis, first_spine, root]),
            Role::Thigh(_) => hips,
            Role::Calf(s) => or(&[find(Role::Thigh(s)), hips]),
            Role::Foot(s) => or(&[find(Role::Calf(s)), find(Role::Thigh(s)), hips]),
            Role::Toe(s) => or(&[
                find(Role::Foot(s)),
                find(Role::Calf(s)),
                find(Role::Thigh(s)),
                hips,
            ]),
        };
    }
    // Unmatched nodes: under the matched node whose name they extend (the longest), else the
    // matched node listed before them.
    for i in 0..n {
        if roles[i].is_some() {
            continue;
        }
        let extends = (0..n)
            .filter(|&j| j != i && roles[j].is_some() && nodes[i].starts_with(nodes[j].as_str()))
            .max_by_key(|&j| nodes[j].len());
        parent[i] = extends.or_else(|| (0..i).rev().find(|&j| roles[j].is_some()));
    }

    // Rest transforms: the clip's first keys, else proportions in its units.
    let keys = first_keys(clip);
    let key = |i: usize| keys.get(&nodes[i]).copied().unwrap_or((None, None));
    // A foot or hand whose position key runs off its chain parent's axes is a control (an IK
    // target, in the space above the body), not the next bone of that limb: it hangs from the
    // top.
    let mut loose = vec![false; n];
    for i in 0..n {
        let (Some(role), Some(p)) = (roles[i], key(i).0) else {
            continue;
        };
        let chain = parent[i]
            .and_then(|q| roles[q])
            .is_some_and(|q| continues(q, role));
        if chain && matches!(role, Role::Foot(_) | Role::Hand(_)) && off_axis(p) {
            loose[i] = true;
            parent[i] = root;
        }
    }
    let mut ratios: Vec<f32> = (0..n)
        .filter_map(|i| {
            let role = roles[i]?;
            let length = proportion(role).length();
            let p = key(i).0?;
            (!loose[i] && parent[i].is_some() && length > 0.0 && p.length() > 1e-6)
                .then(|| p.length() / length)
        })
        .collect();
    ratios.sort_by(f32::total_cmp);
    let unit = ratios.get(ratios.len() / 2).copied().unwrap_or(1.0);
    // Position keys far beyond any bone of the body: a control hanging from the top.
    let mut lengths: Vec<f32> = (0..n)
        .filter(|&i| parent[i].is_some() && !loose[i])
        .filter_map(|i| key(i).0.map(Vec3::length))
        .filter(|l| *l > 1e-6)
        .collect();
    lengths.sort_by(f32::total_cmp);
    let far = lengths.get(lengths.len() / 2).copied().unwrap_or(f32::MAX) * 4.0;
    for i in 0..n {
        let far_off = !matches!(roles[i], Some(Role::Root | Role::Pelvis))
            && key(i).0.is_some_and(|p| p.length() > far);
        if far_off {
            loose[i] = true;
            parent[i] = root;
        }
    }

    // Parts in tree order, under the upright group.
    let mut order: Vec<usize> = Vec::with_capacity(n);
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut tops = Vec::new();
    for (i, p) in parent.iter().enumerate() {
        match *p {
            Some(p) if p != i => children[p].push(i),
            _ => tops.push(i),
        }
    }
    let mut stack: Vec<usize> = tops.iter().rev().copied().collect();
    let mut seen = vec![false; n];
    while let Some(i) = stack.pop() {
        if std::mem::replace(&mut seen[i], true) {
            continue;
        }
        order.push(i);
        stack.extend(children[i].iter().rev());
    }
    // Anything left in a cycle (not possible from roles, kept for safety) hangs from the top.
    for (i, was) in seen.iter().enumerate() {
        if !was {
            order.push(i);
            parent[i] = None;
        }
    }
    let mut group_name = String::from("(upright)");
    while nodes.contains(&group_name) {
        group_name.push('_');
    }
    let scales = first_scales(clip);
    let mut index = vec![0usize; n];
    let mut parts = vec![Part::new(group_name, None, Vec3::ZERO, [1.0; 3])];
    for &i in &order {
        index[i] = parts.len();
        let colour = match roles[i] {
            None => OTHER,
            Some(role) => match side_of(role) {
                Some(Side::Left) => LEFT,
                Some(Side::Right) => RIGHT,
                None => CENTRE,
            },
        };
        let mut part = Part::new(
            nodes[i].clone(),
            Some(parent[i].map_or(0, |p| index[p])),
            Vec3::ZERO,
            parse_hex_colour(colour).unwrap_or([1.0; 3]),
        );
        let (position, rotation) = key(i);
        part.position = position.unwrap_or_else(|| match roles[i] {
            Some(role) => proportion(role) * unit,
            None => Vec3::new(0.0, 0.05 * unit, 0.0),
        });
        part.rotation = rotation.unwrap_or(Quat::IDENTITY);
        // A scaled node (PlayCanvas's Playbot root at 0.01) keeps its scale at rest, so bones
        // are sized for the body as it plays.
        if let Some(&scale) = scales.get(&nodes[i]) {
            part.scale = scale;
        }
        parts.push(part);
    }
    // Legs whose feet are loose controls: an unanimated ankle at the end of each shin (the shin
    // as long as the thigh), and, where both thighs have the same position key (their real
    // parents are sided hip bones the clip lacks), a hip pivot turned so the ankles reach the
    // feet.
    let legs: Vec<(Side, usize, usize, usize)> = [Side::Left, Side::Right]
        .into_iter()
        .filter_map(|s| {
            let f = find(Role::Foot(s)).filter(|&f| loose[f])?;
            Some((s, find(Role::Thigh(s))?, find(Role::Calf(s))?, f))
        })
        .collect();
    // Both limbs of a pair with the same position key: their real parents are sided bones the
    // clip lacks (hip or shoulder bones), whose turns are unknown.
    let same_offset = |a: Option<usize>, b: Option<usize>| match (a, b) {
        (Some(a), Some(b)) => {
            parent[a] == parent[b]
                && matches!((key(a).0, key(b).0), (Some(p), Some(q))
                    if p.length() > 1e-6 && p.distance(q) < p.length() * 1e-3)
        }
        _ => false,
    };
    let hidden_hips = legs.len() == 2 && same_offset(Some(legs[0].1), Some(legs[1].1));
    let upper_arm = |s: Side| find(Role::UpperArm(s)).filter(|_| find(Role::Clavicle(s)).is_none());
    let hidden_shoulders = same_offset(upper_arm(Side::Left), upper_arm(Side::Right));
    let fresh = |base: String| {
        let mut name = base;
        while nodes.contains(&name) {
            name.push('_');
        }
        name
    };
    // (side, node below, pivot part), the hips first.
    let mut below: Vec<(Side, usize, bool)> = Vec::new();
    if hidden_hips {
        below.extend(legs.iter().map(|l| (l.0, l.1, true)));
    }
    if hidden_shoulders {
        below.extend(
            [Side::Left, Side::Right]
                .into_iter()
                .filter_map(|s| Some((s, upper_arm(s)?, false))),
        );
    }
    let mut pivots: Vec<(Side, usize, bool)> = Vec::new();
    if !below.is_empty() {
        let mut remap = vec![0usize; parts.len()];
        let mut with_pivots = Vec::with_capacity(parts.len() + below.len());
        for (k, mut part) in parts.into_iter().enumerate() {
            part.parent = part.parent.map(|p| remap[p]);
            if let Some(&(side, _, hip)) = below.iter().find(|l| index[l.1] == k) {
                let what = if hip { "hip" } else { "shoulder" };
                let name = fresh(format!("({what} {})", side_word(side)));
                let colour = part.colour;
                with_pivots.push(Part::new(name, part.parent, Vec3::ZERO, colour));
                pivots.push((side, with_pivots.len() - 1, hip));
                part.parent = Some(with_pivots.len() - 1);
            }
            remap[k] = with_pivots.len();
            with_pivots.push(part);
        }
        parts = with_pivots;
        for x in &mut index {
            *x = remap[*x];
        }
    }
    let mut ankles: Vec<(Side, usize)> = Vec::new();
    for &(side, _, calf, _) in &legs {
        let Some(shin) = key(calf).0.filter(|p| p.length() > 1e-6) else {
            continue;
        };
        let name = fresh(format!("(ankle {})", side_word(side)));
        let colour = parts[index[calf]].colour;
        let mut ankle = Part::new(name, Some(index[calf]), Vec3::ZERO, colour);
        ankle.position = shin;
        parts.push(ankle);
        ankles.push((side, parts.len() - 1));
    }
    let mut rig_name = HUMANOID.to_string();
    while nodes.contains(&rig_name) {
        rig_name.push('_');
    }
    let mut rig = Rig {
        name: rig_name,
        parts,
        morph_targets: Vec::new(),
        origin: Origin::Names,
        joint_size: 0.0,
    };
    // Each pivot takes the quarter turn that brings its ankle onto its loose foot, or hangs
    // its arm down (away from the head).
    let part_of = |r: Role| find(r).map(|i| index[i]);
    let (hip_part, head_part) = (
        hips.map(|i| index[i]),
        part_of(Role::Head)
            .or(top_neck.map(|i| index[i]))
            .or(top_spine.map(|i| index[i])),
    );
    // The hips first: the shoulders' sides come from the thighs.
    pivots.sort_by_key(|p| !p.2);
    for &(side, pivot, hip) in &pivots {
        if hip {
            let ankle = ankles.iter().find(|a| a.0 == side).map(|a| a.1);
            let foot = legs.iter().find(|l| l.0 == side).map(|l| index[l.3]);
            if let (Some(ankle), Some(foot)) = (ankle, foot) {
                turn_pivot(&mut rig, clip, pivot, |j| j[ankle].distance(j[foot]));
            }
        } else if let (Some(h), Some(top)) = (hip_part, head_part) {
            let ends: Vec<usize> = [Role::Forearm(side), Role::Hand(side)]
                .into_iter()
                .filter_map(part_of)
                .collect();
            // The shoulder joint on its own side (from the right thigh to the left).
            let arm = part_of(Role::UpperArm(side));
            let thighs = (
                part_of(Role::Thigh(Side::Left)),
                part_of(Role::Thigh(Side::Right)),
            );
            let outward = if side == Side::Left { 1.0 } else { -1.0 };
            turn_pivot(&mut rig, clip, pivot, |j| {
                let up = (j[top] - j[h]).normalize_or_zero();
                let hang: f32 = ends.iter().map(|&e| (j[e] - j[pivot]).dot(up)).sum();
                let side_way = match (arm, thighs) {
                    (Some(a), (Some(l), Some(r))) => {
                        (j[a] - j[pivot]).dot((j[l] - j[r]).normalize_or_zero()) * outward
                    }
                    _ => 0.0,
                };
                // On the wrong side is worse than any hang.
                hang + if side_way < 0.0 { 1e3 } else { 0.0 }
            });
        }
    }
    // Bones run along the body's central chain and down the limbs.
    let central = |r: Option<Role>| {
        matches!(
            r,
            Some(Role::Pelvis | Role::Spine(_) | Role::Neck(_) | Role::Head)
        )
    };
    let mut prefer: Vec<Option<usize>> = vec![None; rig.parts.len()];
    for &i in &order {
        if central(roles[i])
            && let Some(&c) = children[i].iter().find(|&&c| central(roles[c]))
        {
            prefer[index[i]] = Some(index[c]);
        }
    }
    draw_bones_preferring(&mut rig, &prefer);
    // The upright group is a pivot only.
    rig.parts[0].tip = None;
    rig.parts[0].size = Vec3::ZERO;
    rig.parts[0].offset = Vec3::ZERO;
    for &i in &order {
        let k = index[i];
        let part = &mut rig.parts[k];
        match roles[i] {
            // The node above the body: a pivot, not a bone.
            Some(Role::Root) => {
                part.tip = None;
                part.size = Vec3::ZERO;
            }
            // The head: a block, as deep as it is high.
            Some(Role::Head) => {
                let along = part
                    .position
                    .try_normalize()
                    .map_or(Vec3::Y, |d| part.rotation.inverse() * d);
                let mut scale = 1.0;
                let mut at = Some(k);
                while let Some(a) = at {
                    scale *= rig.parts[a].scale.abs().max_element();
                    at = rig.parts[a].parent;
                }
                let along = children[i]
                    .iter()
                    .find_map(|&c| rig_position(&nodes[c], &keys))
                    .and_then(Vec3::try_normalize)
                    .unwrap_or(along);
                // In the head's own (scaled) space.
                let edge = rig.joint_size * 6.0 / scale.max(1e-9);
                let part = &mut rig.parts[k];
                part.tip = None;
                part.size = Vec3::splat(edge);
                part.offset = along * edge * 0.5;
            }
            _ => {}
        }
    }
    // The ankles are points, not bones.
    for &(_, a) in &ankles {
        rig.parts[a].tip = None;
        rig.parts[a].size = Vec3::ZERO;
        rig.parts[a].offset = Vec3::ZERO;
    }
    // Stand it up: head up, lowest joint on the ground, at the clip's first frame.
    let joints = rig.joints(&rig.rest_pose());
    let at = |r: Role| find(r).map(|i| joints[index[i]]);
    let top = at(Role::Head)
        .or_else(|| top_neck.map(|i| joints[index[i]]))
        .or_else(|| top_spine.map(|i| joints[index[i]]));
    let feet: Vec<Vec3> = [Side::Left, Side::Right]
        .into_iter()
        .filter_map(|s| {
            at(Role::Foot(s))
                .or_else(|| at(Role::Calf(s)))
                .or_else(|| at(Role::Thigh(s)))
        })
        .collect();
    let bottom = if feet.is_empty() {
        hips.map(|i| joints[index[i]])
    } else {
        Some(feet.iter().sum::<Vec3>() / feet.len() as f32)
    };
    let turn = match (top, bottom) {
        (Some(t), Some(b)) => upright(t - b),
        _ => Quat::IDENTITY,
    };
    rig.parts[0].rotation = turn;
    // The lowest joint over the whole clip (sampled) touches the ground.
    let lowest = lowest_joint(&rig, clip);
    rig.parts[0].position = Vec3::new(0.0, if lowest.is_finite() { -lowest } else { 0.0 }, 0.0);
    rig
}

/// Whether `child` continues the chain of `parent` (the bone from `parent`'s joint runs to
/// `child`'s), rather than branching off it.
fn continues(parent: Role, child: Role) -> bool {
    match (parent, child) {
        (Role::Thigh(a), Role::Calf(b))
        | (Role::Calf(a), Role::Foot(b))
        | (Role::Foot(a), Role::Toe(b))
        | (Role::Clavicle(a), Role::UpperArm(b))
        | (Role::UpperArm(a), Role::Forearm(b))
        | (Role::Forearm(a), Role::Hand(b)) => a == b,
        _ => false,
    }
}

/// Whether a bone offset runs off its parent's axes (its second largest component is over a
/// third of its largest), as the offset between two bones of one limb does not.
fn off_axis(p: Vec3) -> bool {
    let mut c = p.abs().to_array();
    c.sort_by(f32::total_cmp);
    c[2] > 1e-6 && c[1] > c[2] / 3.0
}

/// "L" or "R".
fn side_word(side: Side) -> &'static str {
    match side {
        Side::Left => "L",
        Side::Right => "R",
    }
}

/// How many moments of a clip [`turn_pivot`] looks at.
const PIVOT_SAMPLES: u32 = 6;

/// Turns part `pivot` of `rig` to the quarter-turn rotation (one of 24) with the least `cost`
/// of the joints, summed over [`PIVOT_SAMPLES`] moments of `clip`.
fn turn_pivot(rig: &mut Rig, clip: &Clip, pivot: usize, cost: impl Fn(&[Vec3]) -> f32) {
    let axes = [
        Vec3::X,
        Vec3::NEG_X,
        Vec3::Y,
        Vec3::NEG_Y,
        Vec3::Z,
        Vec3::NEG_Z,
    ];
    let clip = std::sync::Arc::new(clip.clone());
    let mut best = (f32::INFINITY, Quat::IDENTITY);
    for &a in &axes {
        for &b in axes.iter().filter(|&&b| a.dot(b) == 0.0) {
            let turn = Quat::from_mat3(&glam::Mat3::from_cols(a, b, a.cross(b)));
            rig.parts[pivot].rotation = turn;
            let mut player = super::Player::new(clip.clone(), rig.clone());
            let mut total = 0.0;
            for k in 0..PIVOT_SAMPLES {
                let t = clip.duration.max(0.0) * f64::from(k) / f64::from(PIVOT_SAMPLES);
                let joints = rig.joints(player.pose_at(t));
                if joints.len() == rig.parts.len() {
                    total += cost(&joints);
                }
            }
            if total < best.0 {
                best = (total, turn);
            }
        }
    }
    rig.parts[pivot].rotation = best.1;
}

/// How many moments of a clip [`lowest_joint`] looks at.
const GROUND_SAMPLES: u32 = 24;

/// The lowest world y of any joint but the rig's first part (its pivot group) while `clip`
/// plays on `rig`, over [`GROUND_SAMPLES`] moments.
fn lowest_joint(rig: &Rig, clip: &Clip) -> f32 {
    let mut player = super::Player::new(std::sync::Arc::new(clip.clone()), rig.clone());
    let mut lowest = f32::INFINITY;
    for k in 0..=GROUND_SAMPLES {
        let t = clip.duration.max(0.0) * f64::from(k) / f64::from(GROUND_SAMPLES);
        let joints = rig.joints(player.pose_at(t));
        for j in joints.iter().skip(1) {
            if j.y.is_finite() {
                lowest = lowest.min(j.y);
            }
        }
    }
    lowest
}

/// The first position key of node `name`.
fn rig_position(name: &str, keys: &HashMap<String, (Option<Vec3>, Option<Quat>)>) -> Option<Vec3> {
    keys.get(name).and_then(|k| k.0)
}

/// The turn that brings the axis nearest to `up` (±x, ±y or ±z) onto +y.
fn upright(up: Vec3) -> Quat {
    let axes = [
        Vec3::X,
        Vec3::NEG_X,
        Vec3::Y,
        Vec3::NEG_Y,
        Vec3::Z,
        Vec3::NEG_Z,
    ];
    let axis = axes
        .into_iter()
        .max_by(|a, b| a.dot(up).total_cmp(&b.dot(up)))
        .unwrap_or(Vec3::Y);
    if axis == Vec3::NEG_Y {
        // Upside down: half a turn about z (from_rotation_arc picks any axis).
        return Quat::from_rotation_z(std::f32::consts::PI);
    }
    Quat::from_rotation_arc(axis, Vec3::Y)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clipscope_core::model::{Track, TrackKind};

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

    /// A clip rotating each of `names` (no positions).
    fn rotations(names: &[&str]) -> Clip {
        let tracks = names
            .iter()
            .map(|n| {
                Track::numeric(
                    format!("{n}.quaternion"),
                    TrackKind::Quaternion,
                    vec![0.0],
                    vec![0.0, 0.0, 0.0, 1.0],
                )
            })
            .collect();
        Clip::new("c", 1.0, tracks)
    }

    /// The world position of the joint of node `name`.
    fn joint(rig: &Rig, name: &str) -> Vec3 {
        rig.joints(&rig.rest_pose())[rig.part_index(name).unwrap()]
    }

    #[test]
    fn a_mixamo_take_without_positions_stands_in_proportion() {
        let clip = rotations(&[
            "mixamorigHips",
            "mixamorigSpine",
            "mixamorigSpine1",
            "mixamorigNeck",
            "mixamorigHead",
            "mixamorigLeftShoulder",
            "mixamorigLeftArm",
            "mixamorigLeftForeArm",
            "mixamorigLeftHand",
            "mixamorigLeftUpLeg",
            "mixamorigLeftLeg",
            "mixamorigLeftFoot",
            "mixamorigRightUpLeg",
            "mixamorigRightLeg",
            "mixamorigRightFoot",
            "mixamorigHeadTop_End",
        ]);
        let rig = Rig::humanoid(&clip).unwrap();
        assert_eq!(rig.origin, Origin::Names);
        assert!(Rig::new(rig.name.clone(), rig.parts.clone(), vec![]).is_ok());
        let head = joint(&rig, "mixamorigHead");
        let hips = joint(&rig, "mixamorigHips");
        let foot = joint(&rig, "mixamorigLeftFoot");
        let hand = joint(&rig, "mixamorigLeftHand");
        assert!(head.y > hips.y && hips.y > foot.y, "{head} {hips} {foot}");
        assert!(foot.y.abs() < 0.1, "feet on the ground: {foot}");
        assert!((1.3..1.9).contains(&head.y), "{head}");
        assert!(hand.x > 0.5, "the left arm reaches out to +x: {hand}");
        // The unmatched end hangs from the head.
        let end = &rig.parts[rig.part_index("mixamorigHeadTop_End").unwrap()];
        assert_eq!(rig.parts[end.parent.unwrap()].name, "mixamorigHead");
        // Not a humanoid: a tail and a prop.
        assert!(Rig::humanoid(&rotations(&["tail", "prop", "head"])).is_none());
    }

    #[test]
    fn a_z_up_take_in_centimetres_stands_up() {
        // Hips 95 cm up z, legs down to z = 0, head above: positions in the take.
        let mut clip = Clip::new("c", 1.0, vec![]);
        for (name, p) in [
            ("Hips", [0.0, 0.0, 95.0]),
            ("Spine", [0.0, 0.0, 20.0]),
            ("Head", [0.0, 0.0, 50.0]),
            ("thigh_l", [9.0, 0.0, -5.0]),
            ("calf_l", [0.0, 0.0, -45.0]),
            ("foot_l", [0.0, 0.0, -45.0]),
        ] {
            clip.tracks.push(Track::numeric(
                format!("{name}.position"),
                TrackKind::Vector,
                vec![0.0],
                p.to_vec(),
            ));
        }
        let rig = Rig::humanoid(&clip).unwrap();
        let (head, hips, foot) = (
            joint(&rig, "Head"),
            joint(&rig, "Hips"),
            joint(&rig, "foot_l"),
        );
        assert!(foot.y.abs() < 1e-3, "{foot}");
        assert!((hips.y - 95.0).abs() < 1e-3, "{hips}");
        assert!((head.y - 165.0).abs() < 1e-3, "{head}");
    }
}

#[cfg(test)]
mod sample_tests {
    use std::sync::Arc;

    use super::*;
    use crate::{Figure, Player};

    /// Plays `file`'s first clip on the humanoid of its names and checks, at several times,
    /// that the pelvis is above both feet, the head above everything but its own end, and the
    /// feet near the ground; returns the share of bound tracks.
    fn stands(file: &str, pelvis: &str, head: &str, feet: [&str; 2]) -> Option<f32> {
        let path = clipscope_test_support::sample_data(file)?;
        let doc = clipscope_core::formats::read_file(&path).unwrap();
        let clip = Arc::new(doc.clips[0].clone());
        let rig = Rig::humanoid(&clip).expect("a humanoid");
        let mut player = Player::on(clip.clone(), Figure::Rig(rig.clone()));
        let part = |n: &str| rig.part_index(n).unwrap_or_else(|| panic!("no part {n}"));
        for step in 0..=8 {
            let t = clip.duration * f64::from(step) / 8.0;
            let joints = rig.joints(player.pose_at(t));
            let (p, h) = (joints[part(pelvis)], joints[part(head)]);
            let height = h.y - joints[part(feet[0])].y.min(joints[part(feet[1])].y);
            let lower = joints[part(feet[0])].y.min(joints[part(feet[1])].y);
            assert!(
                p.y > lower + height * 0.3,
                "{file} t={t}: pelvis {p} over the feet"
            );
            assert!(
                lower < height * 0.2,
                "{file} t={t}: both feet off the ground"
            );
            // Joints and bones are sized for the body as it plays (a scaled root included).
            assert!(
                rig.joint_size < height * 0.05,
                "{file}: joints of {} on a body {height} high",
                rig.joint_size
            );
            for foot in feet {
                let f = joints[part(foot)];
                assert!(
                    p.y > f.y + height * 0.05,
                    "{file} t={t}: pelvis {p} over {foot} {f}"
                );
            }
            assert!(
                h.y > p.y + height * 0.2,
                "{file} t={t}: head {h} over pelvis {p}"
            );
            for (i, j) in joints.iter().enumerate() {
                let name = &rig.parts[i].name;
                let own = name.starts_with(head) || name.contains("Nub");
                assert!(
                    own || j.y <= h.y + height * 0.2,
                    "{file} t={t}: {name} {j} over head {h}"
                );
            }
        }
        let unbound = player.unbound_tracks().len();
        Some(1.0 - unbound as f32 / clip.tracks.len() as f32)
    }

    #[test]
    fn playbot_stands_on_its_names() {
        for file in [
            "playcanvas/playbot-run.json",
            "playcanvas/playbot-idle.json",
            "playcanvas/Playbot_animation.json",
        ] {
            let Some(bound) = stands(file, "PB Pelvis", "PB Head", ["PB L Foot", "PB R Foot"])
            else {
                return;
            };
            assert_eq!(bound, 1.0, "{file}");
        }
    }

    /// The walkcycle's feet are IK controls and its thighs and upper arms hang from sided bones
    /// the clip lacks: at every sampled time each leg runs down from hip to knee to ankle, the
    /// ankle reaches its foot, and each arm hangs on its own side, below its shoulder.
    #[test]
    fn the_walkcycle_walks_on_its_legs() {
        let Some(path) = clipscope_test_support::sample_data("playcanvas/walkcycle_animation.json")
        else {
            return;
        };
        let doc = clipscope_core::formats::read_file(&path).unwrap();
        let clip = Arc::new(doc.clips[0].clone());
        let rig = Rig::humanoid(&clip).expect("a humanoid");
        let mut player = Player::on(clip.clone(), Figure::Rig(rig.clone()));
        let part = |n: &str| rig.part_index(n).unwrap_or_else(|| panic!("no part {n}"));
        for step in 0..=8 {
            let t = clip.duration * f64::from(step) / 8.0;
            let j = rig.joints(player.pose_at(t));
            let lateral = j[part("upper_leg_l")] - j[part("upper_leg_r")];
            for (s, out) in [("l", 1.0), ("r", -1.0)] {
                let [hip, knee, ankle, foot] = [
                    &format!("upper_leg_{s}"),
                    &format!("lower_leg_{s}"),
                    &format!("(ankle {})", s.to_uppercase()),
                    &format!("leg_{s}"),
                ]
                .map(|n| j[part(n)]);
                let leg = hip.distance(knee) + knee.distance(ankle);
                assert!(
                    knee.y < hip.y - leg * 0.2,
                    "t={t} {s}: knee {knee} under hip {hip}"
                );
                assert!(
                    ankle.y < knee.y - leg * 0.2,
                    "t={t} {s}: ankle {ankle} under knee"
                );
                let ratio = hip.distance(knee) / knee.distance(ankle);
                assert!((0.7..1.4).contains(&ratio), "t={t} {s}: thigh/shin {ratio}");
                assert!(
                    ankle.distance(foot) < leg * 0.3,
                    "t={t} {s}: ankle {ankle} far from its foot {foot}"
                );
                let (shoulder, hand) = (
                    j[part(&format!("upper_arm_{s}"))],
                    j[part(&format!("hand_{s}"))],
                );
                assert!(
                    hand.y < shoulder.y - leg * 0.2,
                    "t={t} {s}: hand {hand} hangs"
                );
                let chest = j[part("spine5")];
                assert!(
                    (shoulder - chest).dot(lateral) * out > 0.0,
                    "t={t} {s}: side"
                );
            }
        }
    }

    #[test]
    fn the_walkcycle_stands_on_its_names() {
        let Some(bound) = stands(
            "playcanvas/walkcycle_animation.json",
            "spine1",
            "head",
            ["leg_l", "leg_r"],
        ) else {
            return;
        };
        assert_eq!(bound, 1.0);
    }
}
