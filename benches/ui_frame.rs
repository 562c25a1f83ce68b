//! Cost of one UI frame of the curve editor on the benchmark take (23 joints × 6214 frames, see
//! `support/big_clip.rs`): an `egui::Context` pass with a `CentralPanel` showing the curve editor
//! with 10 curves (the root's position x/y/z, rotation x/y/z/w and scale x/y/z) on a 1600×1000
//! screen, plus `Context::tessellate`, the CPU work of a frame before the GPU gets it.
//!
//! * `curve_editor/steady` — the same view every frame (envelopes come from the cache);
//! * `curve_editor/panning` — the view moves every frame, so every curve is resampled;
//! * `curve_editor/normalized_steady`, `normalized_panning` — the same with Normalize on, so
//!   every curve spans the plot's height (the most line to draw);
//! * `curve_editor/zoomed_keys` — a 12-second view where keys get markers (~360 per curve),
//!   panning so caches miss;
//! * `curve_editor/selected_handles` — a bezier copy of the take, zoomed, with 400 keys
//!   selected (markers and handles drawn), steady view.
//!
//! * `editor/*` — the whole editor window (`ClipscopeApp::show`: menu, clip list, track tree,
//!   inspector, curve editor, timeline with a dopesheet row per shown track, status bar) with
//!   the take loaded and 10 tracks shown (33 curves), on a steady view, while playing (the
//!   playhead moves every frame), and while the curve view pans (every curve resampled).
//!
//! * `editor/drag_key` — one frame of dragging a key on the take: the `MoveKeys` edit (one
//!   gesture, so one undo step) applied to the workspace, then the whole editor's frame, whose
//!   viewport re-poses the take on its figure (the player follows the edited track only).
//!
//! * `editor/skinned_character_playing` — the whole editor playing the 49,920-vertex, 60-joint
//!   skinned character of `support/character.rs` on its model: the viewport poses the joints
//!   and hands the renderer their palettes (the vertices are skinned on the GPU, which this CPU
//!   figure leaves out; `benches/skinning.rs` measures the GPU frame).
//!
//! The budget is 4 ms of CPU per frame of the whole editor. Run with `cargo bench --bench ui_frame`.
//! A good part of each figure is page faults on the frame's fresh vertex buffers (glibc hands
//! large freed blocks back to the kernel); `GLIBC_TUNABLES=glibc.malloc.mmap_threshold=33554432:
//! glibc.malloc.trim_threshold=268435456` shows the cost without them.
#![allow(clippy::unwrap_used)] // test and bench code: a panic is the failure message

#[path = "support/big_clip.rs"]
mod big_clip;
#[path = "support/character.rs"]
mod character;

use std::collections::BTreeSet;
use std::hint::black_box;
use std::path::Path;

use criterion::{Criterion, criterion_group, criterion_main};
use egui_plot::PlotBounds;

use clipscope::ui::ClipscopeApp;
use clipscope::ui::curve_editor::{self, CurveEditor, CurveRef};
use clipscope::ui::outbox::Outbox;
use clipscope_core::formats;
use clipscope_core::model::{Clip, Interpolation, Tangents};
use clipscope_editor::{ClipId, Edit, KeyRef};

const SCREEN: egui::Vec2 = egui::vec2(1600.0, 1000.0);

/// A context, the panel state and what the panel shows.
struct Bench {
    ctx: egui::Context,
    ed: CurveEditor,
    clip: Clip,
    curves: Vec<CurveRef>,
    selected: BTreeSet<KeyRef>,
    time: f64,
}

impl Bench {
    fn new(clip: Clip) -> Bench {
        let curves = (0..3)
            .map(|c| (0, c))
            .chain((0..4).map(|c| (1, c)))
            .chain((0..3).map(|c| (2, c)))
            .map(|(track, component)| CurveRef { track, component })
            .collect();
        let ctx = egui::Context::default();
        ctx.set_theme(egui::Theme::Dark);
        Bench {
            ctx,
            ed: CurveEditor::new(),
            clip,
            curves,
            selected: BTreeSet::new(),
            time: 0.0,
        }
    }

    /// One frame: the egui pass and tessellation. Returns the number of vertices.
    fn frame(&mut self) -> usize {
        self.time += 1.0 / 60.0;
        let input = egui::RawInput {
            screen_rect: Some(egui::Rect::from_min_size(egui::Pos2::ZERO, SCREEN)),
            time: Some(self.time),
            ..Default::default()
        };
        let Bench {
            ctx,
            ed,
            clip,
            curves,
            selected,
            ..
        } = self;
        let mut out = ctx.run_ui(input, |ui| {
            egui::CentralPanel::default().show(ui, |ui| {
                let mut out = Outbox::default();
                curve_editor::show(
                    ui,
                    ed,
                    ClipId { doc: 0, clip: 0 },
                    clip,
                    curves,
                    selected,
                    42.0,
                    &mut out,
                );
                black_box(out);
            });
        });
        out.textures_delta.clear();
        let primitives = ctx.tessellate(std::mem::take(&mut out.shapes), out.pixels_per_point);
        primitives
            .iter()
            .map(|p| match &p.primitive {
                egui::epaint::Primitive::Mesh(m) => m.vertices.len(),
                egui::epaint::Primitive::Callback(_) => 0,
            })
            .sum()
    }

    /// Shows `[t0, t1]` with the current value range.
    fn show_time(&mut self, t0: f64, t1: f64) {
        let b = self.ed.view_bounds().expect("shown once");
        self.ed
            .set_view_bounds(PlotBounds::from_min_max([t0, b.min()[1]], [t1, b.max()[1]]));
    }
}

/// The take with every track turned into a bezier track with flat-ish handles a third of the
/// way to the neighbouring keys.
fn bezier_copy(clip: &Clip) -> Clip {
    let mut clip = clip.clone();
    for track in &mut clip.tracks {
        let vs = track.value_size();
        let n = track.len();
        let values = track.values.as_numbers().expect("numeric").to_vec();
        let mut tin = Vec::with_capacity(n * vs * 2);
        let mut tout = Vec::with_capacity(n * vs * 2);
        for k in 0..n {
            let t = track.times[k];
            let before = track.times[k.saturating_sub(1)];
            let after = track.times[(k + 1).min(n - 1)];
            for c in 0..vs {
                let v = values[k * vs + c];
                tin.extend([t - (t - before) / 3.0, v]);
                tout.extend([t + (after - t) / 3.0, v]);
            }
        }
        track.interpolation = Interpolation::Bezier;
        track.tangents = Some(Tangents {
            in_tangents: tin,
            out_tangents: tout,
            modes: Vec::new(),
        });
    }
    clip
}

fn frames(c: &mut Criterion) {
    let json = big_clip::json();
    let doc = formats::read_bytes(json.as_bytes(), Path::new("mocap_take_01.json"))
        .expect("readable clip");
    let clip = doc.clips.into_iter().next().expect("one clip");

    let mut group = c.benchmark_group("curve_editor");
    group.sample_size(50);

    let mut bench = Bench::new(clip.clone());
    let vertices = bench.frame();
    eprintln!("steady view: {vertices} vertices per frame");
    group.bench_function("steady", |b| b.iter(|| bench.frame()));

    let mut bench = Bench::new(clip.clone());
    bench.frame();
    let duration = clip.duration;
    let mut shift = 0.0;
    group.bench_function("panning", |b| {
        b.iter(|| {
            shift = (shift + 0.37) % 20.0;
            bench.show_time(shift - 3.0, duration - 20.0 + shift);
            bench.frame()
        })
    });

    // Normalized: every curve fills the plot's height, the most line to draw.
    let mut bench = Bench::new(clip.clone());
    bench.ed.normalize = true;
    bench.frame();
    eprintln!("normalized view: {} vertices per frame", bench.frame());
    group.bench_function("normalized_steady", |b| b.iter(|| bench.frame()));
    let mut shift = 0.0;
    group.bench_function("normalized_panning", |b| {
        b.iter(|| {
            shift = (shift + 0.37) % 20.0;
            bench.show_time(shift - 3.0, duration - 20.0 + shift);
            bench.frame()
        })
    });

    let mut bench = Bench::new(clip.clone());
    bench.frame();
    bench.show_time(100.0, 112.0);
    eprintln!("12 s view: {} vertices per frame", bench.frame());
    let mut shift = 0.0;
    group.bench_function("zoomed_keys", |b| {
        b.iter(|| {
            shift = (shift + 0.013) % 2.0;
            bench.show_time(100.0 + shift, 112.0 + shift);
            bench.frame()
        })
    });

    let mut bench = Bench::new(bezier_copy(&clip));
    bench.frame();
    bench.show_time(100.0, 112.0);
    for curve in bench.curves.clone() {
        for key in (3000..3360).step_by(9) {
            bench.selected.insert(KeyRef {
                track: curve.track,
                key,
                component: curve.component,
            });
        }
    }
    eprintln!(
        "bezier, {} keys selected: {} vertices per frame",
        bench.selected.len(),
        bench.frame()
    );
    group.bench_function("selected_handles", |b| b.iter(|| bench.frame()));
    group.finish();
}

/// One frame of the whole editor: the egui pass and tessellation.
fn editor_frame(ctx: &egui::Context, app: &mut ClipscopeApp, time: &mut f64) -> usize {
    *time += 1.0 / 60.0;
    let input = egui::RawInput {
        screen_rect: Some(egui::Rect::from_min_size(egui::Pos2::ZERO, SCREEN)),
        time: Some(*time),
        predicted_dt: 1.0 / 60.0,
        ..Default::default()
    };
    let mut out = ctx.run_ui(input, |ui| app.show(ui));
    out.textures_delta.clear();
    let primitives = ctx.tessellate(std::mem::take(&mut out.shapes), out.pixels_per_point);
    primitives.len()
}

/// The editor with the take open and its first 10 tracks shown.
fn editor_with(clip: &Clip) -> (egui::Context, ClipscopeApp) {
    let mut app = ClipscopeApp::empty();
    let doc = formats::Document::new(formats::Format::ThreeJs, vec![clip.clone()]);
    app.ws.add(doc);
    let id = ClipId { doc: 0, clip: 0 };
    app.selection
        .select_clip(id, app.ws.clip(id).expect("the take"));
    app.selection.tracks = (0..10).collect();
    let ctx = egui::Context::default();
    (ctx, app)
}

fn whole_editor(c: &mut Criterion) {
    let json = big_clip::json();
    let doc = formats::read_bytes(json.as_bytes(), Path::new("mocap_take_01.json"))
        .expect("readable clip");
    let clip = doc.clips.into_iter().next().expect("one clip");
    let mut group = c.benchmark_group("editor");
    group.sample_size(50);

    let (ctx, mut app) = editor_with(&clip);
    let mut time = 0.0;
    for _ in 0..3 {
        editor_frame(&ctx, &mut app, &mut time);
    }
    group.bench_function("steady", |b| {
        b.iter(|| editor_frame(&ctx, &mut app, &mut time))
    });

    app.transport.playing = true;
    group.bench_function("playing", |b| {
        b.iter(|| editor_frame(&ctx, &mut app, &mut time))
    });
    app.transport.playing = false;

    let duration = clip.duration;
    let mut shift = 0.0;
    group.bench_function("panning", |b| {
        b.iter(|| {
            shift = (shift + 0.37) % 20.0;
            let bounds = app.curves.view_bounds().expect("shown once");
            app.curves.set_view_bounds(PlotBounds::from_min_max(
                [shift - 3.0, bounds.min()[1]],
                [duration - 20.0 + shift, bounds.max()[1]],
            ));
            editor_frame(&ctx, &mut app, &mut time)
        })
    });
    group.finish();
}

/// The whole editor playing the benchmark skinned character on its model.
fn skinned_character(c: &mut Criterion) {
    let bytes = character::gltf(&character::bench_spec());
    let doc = formats::read_bytes(&bytes, Path::new("character.gltf")).expect("readable glTF");
    let mut app = ClipscopeApp::empty();
    app.ws.add(doc);
    let id = ClipId { doc: 0, clip: 0 };
    app.selection
        .select_clip(id, app.ws.clip(id).expect("the take"));
    let ctx = egui::Context::default();
    let mut group = c.benchmark_group("editor");
    group.sample_size(50);
    let mut time = 0.0;
    for _ in 0..3 {
        editor_frame(&ctx, &mut app, &mut time);
    }
    assert!(
        matches!(
            app.viewport.player().map(clipscope_scene::Player::figure),
            Some(clipscope_scene::Figure::Model(_))
        ),
        "the take plays on the character's model"
    );
    app.transport.playing = true;
    group.bench_function("skinned_character_playing", |b| {
        b.iter(|| editor_frame(&ctx, &mut app, &mut time))
    });
    group.finish();
}

/// One frame of dragging a key: a `MoveKeys` edit of one gesture applied to the workspace (one
/// key of the root's quaternion, up and down by turns), then the whole editor's frame, whose
/// viewport poses the take on its figure at the playhead.
fn dragging(c: &mut Criterion) {
    let json = big_clip::json();
    let doc = formats::read_bytes(json.as_bytes(), Path::new("mocap_take_01.json"))
        .expect("readable clip");
    let clip = doc.clips.into_iter().next().expect("one clip");
    let mut group = c.benchmark_group("editor");
    group.sample_size(50);
    let (ctx, mut app) = editor_with(&clip);
    app.transport.time = 10.0;
    let mut time = 0.0;
    for _ in 0..3 {
        editor_frame(&ctx, &mut app, &mut time);
    }
    let id = ClipId { doc: 0, clip: 0 };
    let mut up = true;
    group.bench_function("drag_key", |b| {
        b.iter(|| {
            up = !up;
            app.ws
                .apply(Edit::MoveKeys {
                    clip: id,
                    keys: vec![KeyRef {
                        track: 1,
                        key: 300,
                        component: 0,
                    }],
                    dt: 0.0,
                    dv: if up { 0.01 } else { -0.01 },
                    gesture: Some(7),
                })
                .expect("the edit fits");
            editor_frame(&ctx, &mut app, &mut time)
        })
    });
    assert!(
        app.viewport.player().is_some(),
        "the viewport poses the take"
    );
    group.finish();
}

criterion_group!(benches, frames, whole_editor, dragging, skinned_character);
criterion_main!(benches);
