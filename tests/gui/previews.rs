//! Animated previews (`clipscope render FILE -o preview.gif` / `.apng`) and the review page's
//! previews, decoded with the `image` crate's own GIF and APNG decoders (which composite each
//! frame's patch over the canvas as a browser does): the frame count and each frame's display
//! time follow the clip's length and the frame rate, every frame shows the pose a still render
//! at its time shows, identical frames are merged into longer ones, and a preview stays small.
//!
//! These need a GPU adapter (Mesa's lavapipe in CI): `SKIPPED` without one, a failure under
//! `CLIPSCOPE_REQUIRE_GPU=1`.

use std::io::Cursor;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use image::codecs::gif::GifDecoder;
use image::codecs::png::PngDecoder;
use image::{AnimationDecoder, RgbaImage};

use crate::common::gpu::require_gpu;

fn clipscope(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_clipscope"))
        .args(args)
        .output()
        .expect("run clipscope")
}

fn ok(o: Output) -> Output {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    o
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// A one-second clip whose crate slides and turns over the first `moving` seconds and then
/// holds still.
fn slide(dir: &Path, moving: f64) -> PathBuf {
    let path = dir.join("slide.json");
    std::fs::write(
        &path,
        format!(
            r#"{{"name":"slide","duration":1,"tracks":[
            {{"name":"crate.position","type":"vector","times":[0,{moving}],"values":[0,0,0, 1.5,0,0]}},
            {{"name":"crate.quaternion","type":"quaternion","times":[0,{moving}],
             "values":[0,0,0,1, 0,0.7071068,0,0.7071068]}},
            {{"name":"other.position","type":"vector","times":[0],"values":[0,0,0]}}
        ]}}"#
        ),
    )
    .unwrap();
    path
}

/// The frames of an animated file as displayed (full canvas) with their display times in
/// milliseconds.
fn decode(bytes: &[u8], gif: bool) -> Vec<(RgbaImage, f64)> {
    let frames = if gif {
        GifDecoder::new(Cursor::new(bytes))
            .unwrap()
            .into_frames()
            .collect_frames()
            .unwrap()
    } else {
        let decoder = PngDecoder::new(Cursor::new(bytes)).unwrap();
        assert!(decoder.is_apng().unwrap(), "an animated PNG");
        decoder
            .apng()
            .unwrap()
            .into_frames()
            .collect_frames()
            .unwrap()
    };
    frames
        .into_iter()
        .map(|f| {
            let (n, d) = f.delay().numer_denom_ms();
            let ms = n as f64 / d as f64;
            (f.into_buffer(), ms)
        })
        .collect()
}

/// Still PNG renders of `file` at `times`, `size` pixels.
fn stills(dir: &Path, file: &Path, times: &[f64], size: &str) -> Vec<RgbaImage> {
    let list: Vec<String> = times.iter().map(|t| t.to_string()).collect();
    let out = dir.join("still.png");
    ok(clipscope(&[
        "render",
        s(file),
        "--times",
        &list.join(","),
        "--size",
        size,
        "-o",
        s(&out),
    ]));
    (0..times.len())
        .map(|k| {
            image::open(dir.join(format!("still_{k:03}.png")))
                .unwrap()
                .to_rgba8()
        })
        .collect()
}

/// The share of pixels that differ clearly between two images of one size.
fn changed_share(a: &RgbaImage, b: &RgbaImage) -> f64 {
    assert_eq!(a.dimensions(), b.dimensions());
    let changed = a
        .pixels()
        .zip(b.pixels())
        .filter(|(p, q)| {
            p.0[..3]
                .iter()
                .zip(&q.0[..3])
                .any(|(x, y)| x.abs_diff(*y) > 40)
        })
        .count();
    changed as f64 / (a.width() * a.height()) as f64
}

/// Checks that each frame shows the pose the still render at its start time shows (up to the
/// 255-colour palette) and that consecutive distinct poses differ.
fn frames_show_the_stills(frames: &[(RgbaImage, f64)], stills: &[RgbaImage]) {
    for (k, ((frame, _), still)) in frames.iter().zip(stills).enumerate() {
        let share = changed_share(frame, still);
        assert!(
            share < 0.01,
            "frame {k}: {:.2}% of the pixels differ from the still render",
            share * 100.0
        );
    }
}

#[test]
fn a_gif_has_one_frame_per_step_at_the_asked_rate_and_shows_each_pose() {
    if require_gpu().is_none() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let clip = slide(dir.path(), 1.0);
    let out = dir.path().join("slide.gif");
    let o = ok(clipscope(&[
        "render",
        s(&clip),
        "--fps",
        "10",
        "--size",
        "160x120",
        "-o",
        s(&out),
    ]));
    let said = String::from_utf8_lossy(&o.stdout);
    assert!(said.contains("160×120, 10 frames at 10 fps"), "{said}");
    let bytes = std::fs::read(&out).unwrap();
    assert!(bytes.starts_with(b"GIF89a"));
    let frames = decode(&bytes, true);
    assert_eq!(frames.len(), 10);
    for (frame, ms) in &frames {
        assert_eq!(frame.dimensions(), (160, 120));
        assert_eq!(*ms, 100.0);
    }
    let times: Vec<f64> = (0..10).map(|k| k as f64 / 10.0).collect();
    frames_show_the_stills(&frames, &stills(dir.path(), &clip, &times, "160x120"));
    assert!(
        changed_share(&frames[0].0, &frames[5].0) > 0.005,
        "the crate moves"
    );
    // It loops forever (NETSCAPE2.0 application extension with 0 repeats).
    assert!(
        bytes
            .windows(15)
            .any(|w| w == b"NETSCAPE2.0\x03\x01\x00\x00"),
        "loops"
    );
}

#[test]
fn gif_delays_carry_their_rounding_so_the_loop_lasts_the_clip() {
    if require_gpu().is_none() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let clip = slide(dir.path(), 1.0);
    let out = dir.path().join("slide.gif");
    // 30 fps is 3⅓ hundredths a frame: delays of 3 and 4 hundredths adding up to one second.
    ok(clipscope(&[
        "render",
        s(&clip),
        "--fps",
        "30",
        "--size",
        "96x72",
        "-o",
        s(&out),
    ]));
    let frames = decode(&std::fs::read(&out).unwrap(), true);
    assert_eq!(frames.len(), 30);
    assert!(frames.iter().all(|(_, ms)| *ms == 30.0 || *ms == 40.0));
    assert_eq!(frames.iter().map(|(_, ms)| ms).sum::<f64>(), 1000.0);
    // A GIF plays at most 50 fps: faster asks are slowed to it.
    ok(clipscope(&[
        "render",
        s(&clip),
        "--fps",
        "120",
        "--size",
        "96x72",
        "-o",
        s(&out),
    ]));
    let frames = decode(&std::fs::read(&out).unwrap(), true);
    assert_eq!(frames.len(), 50);
    assert!(frames.iter().all(|(_, ms)| *ms == 20.0));
}

#[test]
fn an_apng_keeps_exact_frame_times_and_merges_held_poses() {
    if require_gpu().is_none() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    // The crate moves for half the clip and then holds still.
    let clip = slide(dir.path(), 0.5);
    let out = dir.path().join("slide.apng");
    ok(clipscope(&[
        "render",
        s(&clip),
        "--fps",
        "24",
        "--size",
        "160x120",
        "-o",
        s(&out),
    ]));
    let bytes = std::fs::read(&out).unwrap();
    assert!(bytes.starts_with(b"\x89PNG"));
    let frames = decode(&bytes, false);
    // Frames 0..=12 move (12/24 s is where it stops); the 11 frames after hold that pose and
    // are one long frame.
    assert_eq!(
        frames.len(),
        13,
        "{:?}",
        frames.iter().map(|f| f.1).collect::<Vec<_>>()
    );
    for (_, ms) in &frames[..12] {
        assert!((ms - 1000.0 / 24.0).abs() < 1e-9, "{ms}");
    }
    assert!(
        (frames[12].1 - 12.0 * 1000.0 / 24.0).abs() < 1e-9,
        "{}",
        frames[12].1
    );
    let total: f64 = frames.iter().map(|f| f.1).sum();
    assert!((total - 1000.0).abs() < 1e-9, "{total}");
    let times: Vec<f64> = (0..13).map(|k| k as f64 / 24.0).collect();
    frames_show_the_stills(&frames, &stills(dir.path(), &clip, &times, "160x120"));
}

#[test]
fn a_preview_of_a_walk_is_sized_for_a_pull_request_comment() {
    if require_gpu().is_none() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let walk = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/demo/walk.json");
    let out = dir.path().join("walk.gif");
    let o = ok(clipscope(&["render", walk, "-o", s(&out)]));
    let said = String::from_utf8_lossy(&o.stdout);
    // The demo walk is baked at 30 keys a second: that is the rate it is drawn at, at the
    // default 480×270.
    assert!(said.contains("480×270, 30 frames at 30 fps"), "{said}");
    let bytes = std::fs::read(&out).unwrap();
    let frames = decode(&bytes, true);
    assert_eq!(frames.len(), 30);
    let seconds = frames.iter().map(|f| f.1).sum::<f64>() / 1000.0;
    assert_eq!(seconds, 1.0);
    assert!(
        (bytes.len() as f64) < 300_000.0 * seconds,
        "{} bytes for {seconds} s",
        bytes.len()
    );
    // WebP and still-image options are refused in one line.
    for args in [
        vec!["render", walk, "-o", "x.webp"],
        vec!["render", walk, "--time", "0.5", "-o", s(&out)],
    ] {
        let o = clipscope(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert_eq!(String::from_utf8_lossy(&o.stderr).lines().count(), 1);
    }
}

#[test]
fn the_review_page_shows_both_versions_moving_side_by_side() {
    if require_gpu().is_none() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let old = slide(dir.path(), 1.0);
    let old_copy = dir.path().join("old.json");
    std::fs::rename(&old, &old_copy).unwrap();
    let new = slide(dir.path(), 0.5);
    let page = dir.path().join("review.html");
    let o = clipscope(&["diff", s(&old_copy), s(&new), "--html", s(&page)]);
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let html = std::fs::read_to_string(&page).unwrap();
    let prefix = "src=\"data:image/gif;base64,";
    let previews: Vec<&str> = html
        .match_indices(prefix)
        .map(|(at, _)| {
            let rest = &html[at + prefix.len()..];
            &rest[..rest.find('"').unwrap()]
        })
        .collect();
    assert_eq!(previews.len(), 2, "one preview per version");
    let decoded: Vec<Vec<(RgbaImage, f64)>> = previews
        .iter()
        .map(|b64| {
            use base64::Engine;
            let bytes = base64::engine::general_purpose::STANDARD
                .decode(b64)
                .unwrap();
            decode(&bytes, true)
        })
        .collect();
    for frames in &decoded {
        assert_eq!(frames.iter().map(|f| f.1).sum::<f64>(), 1000.0);
    }
    // At the end the old crate has slid all the way and the new one has too, but half-way the
    // new one is already there: the middle frames differ.
    let mid = |f: &Vec<(RgbaImage, f64)>| {
        let mut t = 0.0;
        f.iter()
            .find(|(_, ms)| {
                t += ms;
                t > 600.0
            })
            .unwrap()
            .0
            .clone()
    };
    assert!(changed_share(&mid(&decoded[0]), &mid(&decoded[1])) > 0.002);
    assert!(html.contains("class=\"old\"") && html.contains("class=\"new\""));
    for outside in ["http:", "https:", "<script", "<link", "url("] {
        assert!(!html.contains(outside), "the page refers to {outside:?}");
    }
}
