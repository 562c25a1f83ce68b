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
//!
//! The build runs in stages, one file each: `roles` (names to roles), `body` (where each role
//! is, the first keys), `hierarchy` (parents from roles, tree order), `ik` (controls and
//! ankles), `rest` (the parts at rest, the unit of the clip), `pivots` (missing hip and shoulder
//! bones), `bones` (the look) and `grounding` (head up, feet on the ground).

mod body;
mod bones;
mod first_keys;
mod grounding;
mod hierarchy;
mod ik;
mod pivots;
mod rest;
mod roles;

use glam::Vec3;

use crate::{Origin, Rig, animated_nodes};
use body::Body;
use clipscope_core::model::Clip;
use roles::{Role, is_humanoid, roles};

/// The name of the rig built from names.
pub(crate) const HUMANOID: &str = "Humanoid";

/// The six axis directions, the candidates for up and for a pivot's quarter turns.
const AXES: [Vec3; 6] = [
    Vec3::X,
    Vec3::NEG_X,
    Vec3::Y,
    Vec3::NEG_Y,
    Vec3::Z,
    Vec3::NEG_Z,
];

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

/// Builds the humanoid rig of `nodes` with `roles` (see the module docs), stage by stage.
fn build(clip: &Clip, nodes: &[String], roles: &[Option<Role>]) -> Rig {
    let body = Body::new(clip, nodes, roles);
    // The hierarchy from the roles, with controls hanging from the top.
    let mut parent = hierarchy::parents(&body);
    let mut loose = ik::limb_controls(&body, &mut parent);
    let unit = rest::unit(&body, &parent, &loose);
    ik::far_controls(&body, &mut parent, &mut loose);
    let tree = hierarchy::Tree::new(&mut parent);
    // The parts at rest, with the pivots and ankles the clip lacks.
    let mut draft = rest::parts(clip, &body, &parent, &tree.order, unit);
    let legs = ik::loose_legs(&body, &loose);
    let pivots = pivots::insert(&body, &parent, &legs, &mut draft);
    let ankles = ik::ankles(&body, &legs, &mut draft);
    let mut rig = Rig {
        name: body.fresh_name(HUMANOID.to_string()),
        parts: draft.parts,
        morph_targets: Vec::new(),
        origin: Origin::Names,
        joint_size: 0.0,
        model: None,
    };
    let index = draft.index;
    pivots::turn(&mut rig, clip, &body, &index, pivots, &legs, &ankles);
    bones::draw(&mut rig, &body, &tree, &index, &ankles);
    grounding::stand(&mut rig, clip, &body, &index);
    rig
}

#[cfg(test)]
mod tests {
    use super::*;
    use clipscope_core::model::{Track, TrackKind};

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
