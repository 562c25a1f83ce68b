//! A Lottie composition drawn as its art (issue 26): what one editor frame costs while a key of
//! `dalek.json` (1920×1080, 46 layers, masks, precomps) is dragged. The drag makes a new
//! player for a Lottie clip, so each frame builds the layer figure on the edited clip, evaluates
//! the picture at the playhead and rasterises it with vello_cpu at the viewport's card size.
//!
//! * `lottie_art/picture` — the composition's picture at one time (layers moved by the clip);
//! * `lottie_art/rasterise_960x540` — that picture rasterised at a typical viewport card size;
//! * `lottie_art/rasterise_960x540_kept` — the same with the viewport's kept
//!   [`Rasteriser`](clipscope_render::Rasteriser) (context, image and image pixels reused);
//! * `lottie_art/drag_key_frame` — one drag step: the key moved in the clip, the artwork bound
//!   to the document's clips, the figure made again, the picture evaluated and rasterised at
//!   960×540 by the kept rasteriser (target: the editor's 4 ms frame);
//! * `lottie_art/rasterise_1920x1080` — the composition 1:1 (what `render --size 1920x1080`
//!   rasterises before converting to straight alpha).
//!
//! Needs the shared sample data (`../shared/data` or `CLIPSCOPE_DATA`); without it the bench
//! prints a line and measures nothing. Run with `cargo bench --bench lottie_art`.
#![allow(clippy::unwrap_used)] // test and bench code: a panic is the failure message

use std::hint::black_box;
use std::sync::Arc;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};

use clipscope_core::formats;
use clipscope_scene::LayerFigure;

fn lottie_art(c: &mut Criterion) {
    let Some(path) = clipscope_test_support::sample_data("lottie/dalek.json") else {
        eprintln!(
            "lottie_art: no sample data (../shared/data/lottie/dalek.json), nothing measured"
        );
        return;
    };
    let doc = formats::read_file(&path).unwrap();
    let artwork = doc.artwork().unwrap();
    let clip = doc.clips[0].clone();
    let time = 3.0;
    let figure = LayerFigure::for_clip(Arc::new(clip.clone()))
        .unwrap()
        .with_artwork(Some(artwork.clone()));
    let picture = figure.picture(time).unwrap();
    let (w, h) = (960, 540);
    let view = clipscope_render::fit_view(&picture, w, h);
    let mut g = c.benchmark_group("lottie_art");
    g.sample_size(20).measurement_time(Duration::from_secs(4));
    g.bench_function("picture", |b| b.iter(|| black_box(figure.picture(time))));
    g.bench_function("rasterise_960x540", |b| {
        b.iter(|| {
            black_box(clipscope_render::rasterise_premultiplied(
                &picture, w, h, &view,
            ))
        })
    });
    let mut kept = clipscope_render::Rasteriser::default();
    g.bench_function("rasterise_960x540_kept", |b| {
        b.iter(|| black_box(kept.premultiplied(&picture, w, h, &view).len()))
    });
    // The first keyed track with two keys or more: its second key is dragged.
    let track = clip
        .tracks
        .iter()
        .position(|t| t.len() >= 2 && t.values.as_numbers().is_some())
        .unwrap();
    let mut step = 0.0f32;
    let mut clips = doc.clips.clone();
    g.bench_function("drag_key_frame", |b| {
        b.iter(|| {
            step += 0.5;
            // The edit, in the document's clip; the viewport then makes a new player on a
            // copy, its artwork bound to the document's clips (precomps by their own clips).
            let size = clips[0].tracks[track].value_size();
            let values = clips[0].tracks[track].values.as_numbers_mut().unwrap();
            values[size] += step;
            let art = artwork
                .with_clips(&clips)
                .unwrap_or_else(|| artwork.clone());
            let figure = LayerFigure::for_clip(Arc::new(clips[0].clone()))
                .unwrap()
                .with_artwork(Some(art));
            let picture = figure.picture(time).unwrap();
            black_box(kept.premultiplied(&picture, w, h, &view).len())
        })
    });
    let full = clipscope_render::fit_view(&picture, 1920, 1080);
    g.bench_function("rasterise_1920x1080", |b| {
        b.iter(|| {
            black_box(clipscope_render::rasterise_premultiplied(
                &picture, 1920, 1080, &full,
            ))
        })
    });
    g.finish();
}

criterion_group!(benches, lottie_art);
criterion_main!(benches);
