//! Model figures: chosen for files with meshes, posed like the core's CPU reference, bounded,
//! morphing, and carried by rigs read from files.

use std::sync::Arc;

use glam::Vec3;

use crate::{Figure, FigureFrame, FigureSource, Player, Rig, figure};
use clipscope_core::formats::{Document, read_file};
use clipscope_core::model::Model;

fn shared(name: &str) -> Option<Document> {
    clipscope_test_support::sample_data(name).map(|p| read_file(&p).unwrap())
}

fn source<'a>(doc: &'a Document, name: &'a str) -> FigureSource<'a> {
    FigureSource {
        mesh: doc.mesh.as_ref(),
        model: doc.model.as_ref(),
        skeleton: doc.skeleton.as_ref(),
        file_name: Some(name),
        ..FigureSource::default()
    }
}

/// The posed vertices the core's reference computes from a frame's node matrices and weights.
fn reference(model: &Model, frame: &FigureFrame) -> Vec<Vec<[f32; 3]>> {
    let weights = frame.weights.clone();
    let mut at = 0;
    let mut per_node = vec![Vec::new(); model.nodes.len()];
    for i in model.instances() {
        let n = model.meshes[i.mesh].target_names.len();
        per_node[i.node] = weights[at..at + n].to_vec();
        at += n;
    }
    model
        .posed(&frame.nodes, |n| &per_node[n])
        .into_iter()
        .map(|p| p.positions)
        .collect()
}

/// The same vertices skinned with the frame's palettes, as the GPU does.
fn palette_skinned(model: &Model, frame: &FigureFrame) -> Vec<Vec<[f32; 3]>> {
    let mut out = Vec::new();
    let mut palette = 0;
    let mut weights = 0;
    for i in model.instances() {
        let joints = i.skin.map_or(0, |s| model.skins[s].joints.len());
        let mesh = &model.meshes[i.mesh];
        let w = &frame.weights[weights..weights + mesh.target_names.len()];
        for p in &mesh.primitives {
            let m = &frame.joints[palette..palette + joints + 1];
            out.push(
                p.morphed(w)
                    .iter()
                    .enumerate()
                    .map(|(v, pos)| {
                        let pos = Vec3::from(*pos);
                        if i.skin.is_some() && p.is_skinned() {
                            let mut sum = Vec3::ZERO;
                            for k in 0..8 {
                                sum += m[usize::from(p.joints[v][k])].transform_point3(pos)
                                    * p.weights[v][k];
                            }
                            sum.to_array()
                        } else {
                            m[joints].transform_point3(pos).to_array()
                        }
                    })
                    .collect(),
            );
        }
        palette += joints + 1;
        weights += mesh.target_names.len();
    }
    out
}

fn close(a: &[Vec<[f32; 3]>], b: &[Vec<[f32; 3]>]) -> bool {
    a.len() == b.len()
        && a.iter().zip(b).all(|(a, b)| {
            a.len() == b.len()
                && a.iter()
                    .zip(b)
                    .all(|(p, q)| Vec3::from(*p).abs_diff_eq(Vec3::from(*q), 1e-5))
        })
}

#[test]
fn simple_skin_plays_on_its_model_and_bends() {
    let Some(doc) = shared("gltf/SimpleSkin.gltf") else {
        return;
    };
    let clip = &doc.clips[0];
    let figure = Figure::for_clip(clip, source(&doc, "SimpleSkin.gltf"), None).unwrap();
    let Figure::Model(model_figure) = &figure else {
        panic!("{}", figure.name());
    };
    assert_eq!(figure.name(), "SimpleSkin.gltf");
    assert_eq!(
        figure.rig().unwrap().parts.len(),
        2,
        "the bones stay pickable"
    );
    let model = doc.model.as_ref().unwrap();
    let mut player = Player::on(Arc::new(clip.clone()), figure.clone());
    assert!(player.unbound_tracks().is_empty());
    let mut rest = FigureFrame::default();
    player.frame_at(0.0, &mut rest);
    let mut bent = FigureFrame::default();
    player.frame_at(2.0, &mut bent);
    assert_eq!(bent.joints.len(), 3, "two joints, then the node");
    assert!(!bent.boxes.is_empty(), "the bones are posed too");
    let (a, b) = (reference(model, &rest), reference(model, &bent));
    assert!(close(&a, &palette_skinned(model, &rest)));
    assert!(close(&b, &palette_skinned(model, &bent)));
    // The top of the strip swings; the bottom stays.
    let moved = a[0]
        .iter()
        .zip(&b[0])
        .map(|(p, q)| Vec3::from(*p).distance(Vec3::from(*q)))
        .fold(0.0, f32::max);
    assert!(moved > 0.3, "{moved}");
    assert_eq!(a[0][0], b[0][0]);
    // The bounds hold every posed vertex.
    let (lo, hi) = model_figure.bounds(&bent).unwrap();
    for p in &b[0] {
        let p = Vec3::from(*p);
        assert!(
            p.cmpge(lo - 1e-5).all() && p.cmple(hi + 1e-5).all(),
            "{p} {lo} {hi}"
        );
    }
    // Choosing by name: the bones alone, or the model.
    let src = source(&doc, "SimpleSkin.gltf");
    let bones = Figure::for_clip(clip, src, Some(figure::SKELETON)).unwrap();
    assert!(matches!(bones, Figure::Rig(_)));
    let again = Figure::for_clip(clip, src, Some("model")).unwrap();
    assert!(matches!(again, Figure::Model(_)));
    let err = Figure::for_clip(clip, FigureSource::default(), Some("model")).unwrap_err();
    assert_eq!(err.to_string(), "this file has no meshes to draw");
}

#[test]
fn the_legacy_skinned_model_plays_and_a_picked_file_brings_its_mesh() {
    let Some(doc) = shared("threejs/simple-skinned.json") else {
        return;
    };
    let clip = &doc.clips[0];
    let src = source(&doc, "simple-skinned.json");
    let figure = Figure::for_clip(clip, src, None).unwrap();
    assert!(matches!(figure, Figure::Model(_)), "{}", figure.name());
    let model = doc.model.as_ref().unwrap();
    let Figure::Model(model_figure) = &figure else {
        unreachable!()
    };
    let model_figure = model_figure.clone();
    let mut player = Player::on(Arc::new(clip.clone()), figure);
    assert!(player.unbound_tracks().is_empty());
    for t in [0.0, 0.2, 0.4] {
        let mut frame = FigureFrame::default();
        player.frame_at(t, &mut frame);
        let posed = reference(model, &frame);
        assert!(close(&posed, &palette_skinned(model, &frame)));
        // The bounds hold every posed vertex; the exact ones touch them, and are tighter.
        let (lo, hi) = model_figure.bounds(&frame).unwrap();
        let (elo, ehi) = model_figure.exact_bounds(&frame).unwrap();
        let (mut plo, mut phi) = (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY));
        for p in posed.iter().flatten() {
            let p = Vec3::from(*p);
            assert!(
                p.cmpge(lo - 1e-4).all() && p.cmple(hi + 1e-4).all(),
                "at {t} s: {p} outside {lo} {hi}"
            );
            (plo, phi) = (plo.min(p), phi.max(p));
        }
        assert!(elo.abs_diff_eq(plo, 1e-5) && ehi.abs_diff_eq(phi, 1e-5));
        assert!((ehi - elo).length() <= (hi - lo).length() + 1e-5);
    }
    // The same file picked as a figure for a clip of another file shows its mesh.
    let path = clipscope_test_support::sample_data("threejs/simple-skinned.json").unwrap();
    let rig = Rig::from_file(&path).unwrap();
    assert!(rig.model.is_some());
    let others = [rig];
    let other = FigureSource {
        others: &others,
        ..FigureSource::default()
    };
    let picked = Figure::for_clip(clip, other, Some("simple-skinned.json")).unwrap();
    assert!(matches!(picked, Figure::Model(_)));
}

#[test]
fn morphs_without_a_skeleton_pose_by_weights() {
    let Some(doc) = shared("gltf/SimpleMorph.gltf") else {
        return;
    };
    let clip = &doc.clips[0];
    let figure = Figure::for_clip(clip, source(&doc, "SimpleMorph.gltf"), None).unwrap();
    assert!(matches!(figure, Figure::Model(_)), "{}", figure.name());
    let mut player = Player::on(Arc::new(clip.clone()), figure);
    assert!(
        player.unbound_tracks().is_empty(),
        "{:?}",
        player.unbound_tracks()
    );
    let mut frame = FigureFrame::default();
    player.frame_at(1.0, &mut frame);
    assert_eq!(frame.weights.len(), 2);
    assert!(
        frame.weights.iter().any(|&w| w > 0.0),
        "{:?}",
        frame.weights
    );
    let model = doc.model.as_ref().unwrap();
    assert!(close(
        &reference(model, &frame),
        &palette_skinned(model, &frame)
    ));
    assert!(frame.boxes.is_empty(), "no skeleton, no bones");
}
