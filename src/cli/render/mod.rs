//! `clipscope render FILE [--clip NAME] [--rig NAME] [--time T | --times T1,T2,...] [--size WxH]
//! [--camera eye=X,Y,Z,target=X,Y,Z,fov=DEG] [--transparent] [--bones] -o OUT.png`: draws
//! frames of a clip without a window, with the viewport's renderer, and writes PNGs; `-o OUT.gif`
//! (or `.apng`) writes the whole clip as a looping animation.
//!
//! The clip plays on the figure the viewport would choose (see `scene::Figure::for_clip`), or
//! on the one `--rig` names or reads from a file; a file with meshes shows its model, deformed
//! by its skins and morph targets (`--bones` draws the skeleton over it).
//!
//! One time writes `OUT.png`; `--times` writes a numbered sequence next to it
//! (`OUT_000.png`, `OUT_001.png`, …). An animation is drawn at the clip's frame rate or `--fps`
//! ([`animation`]). Every frame of a sequence or an animation uses the same camera: framed on
//! everything the clip does at the drawn times, so the frames line up, or the fixed `--camera`
//! (a perspective camera in the file's world units, the aspect from `--size`), so renders from
//! other viewers through the same camera can be compared. `--transparent` draws the figure alone
//! (no backdrop, ground, grid, shadows or fog; alpha is coverage). Files are written
//! atomically. A Lottie composition seen front-on is drawn as its art on the CPU ([`art`]:
//! shapes, solids, precompositions, masks, mattes), `--size` equal to the composition's size
//! mapping its pixels 1:1. A build without the `gui` feature has no renderer and exits with status 2.

#[cfg(feature = "gui")]
pub mod animation;
#[cfg(feature = "gui")]
mod art;
mod camera;
mod frames;

pub use camera::{CameraSpec, parse_camera};

use clipscope_core::formats::{Document, ReadOptions};
use clipscope_core::model::Clip;
use std::path::{Path, PathBuf};

use super::Outcome;

/// Arguments of `render`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The clip file to play.
    pub file: PathBuf,
    /// The clip to play (default: the file's first clip).
    #[arg(long, value_name = "NAME")]
    pub clip: Option<String>,
    /// What the clip plays on: a built-in rig (`hero`, `dog`), `proxy` (one box per bone),
    /// `names` (a humanoid from the clip's node names), `skeleton` (the file's own), `mesh` (the
    /// file's morph mesh), or a file: a rig file or any model with a skeleton (glTF, legacy
    /// three.js, …); default: chosen from the clip (a model next to the clip file that binds
    /// most of its nodes is used).
    #[arg(long, value_name = "NAME")]
    pub rig: Option<String>,
    /// The time to draw, in seconds (default 0).
    #[arg(
        long,
        value_name = "T",
        allow_hyphen_values = true,
        conflicts_with = "times"
    )]
    pub time: Option<f64>,
    /// Comma-separated times: writes one numbered PNG per time.
    #[arg(
        long,
        value_name = "T1,T2,...",
        value_delimiter = ',',
        allow_hyphen_values = true,
        num_args = 1
    )]
    pub times: Vec<f64>,
    /// How to look at the figure: `front` (flat and front-on, the default for a Lottie
    /// composition) or `3d` (a three-quarter perspective view, the default otherwise).
    #[arg(long, value_name = "VIEW", value_parser = ["front", "3d"])]
    pub view: Option<String>,
    /// A fixed perspective camera, `eye=X,Y,Z,target=X,Y,Z,fov=DEG`: in the file's world
    /// units, +Y up, vertical field of view in degrees (default 50), aspect from `--size`
    /// (default: framed on the clip's motion).
    #[arg(long, value_name = "eye=X,Y,Z,target=X,Y,Z,fov=DEG", value_parser = parse_camera, allow_hyphen_values = true, conflicts_with = "view")]
    pub camera: Option<CameraSpec>,
    /// Draw the figure alone on a transparent background: no backdrop, ground, grid, shadows
    /// or fog (alpha is the figure's coverage).
    #[arg(long)]
    pub transparent: bool,
    /// Draw a model's bones over its mesh (x-ray).
    #[arg(long)]
    pub bones: bool,
    /// Frame size in pixels (default 960x540 for a PNG, 480x270 for an animation).
    #[arg(long, value_name = "WxH", value_parser = frames::parse_size)]
    pub size: Option<(u32, u32)>,
    /// Frames per second of an animation (`.gif`, `.apng`); default: the rate the file states,
    /// else the one its keys are spaced at, else 30. A GIF plays at most 50.
    #[arg(long, value_name = "FPS", value_parser = super::output::parse_fps)]
    pub fps: Option<f64>,
    /// Where to write the PNG (with `--times`, the pattern for the numbered files), or the
    /// animation (`.gif`, `.apng`).
    #[arg(short = 'o', long = "output", value_name = "OUT")]
    pub output: PathBuf,
}

/// What to draw: a clip of a document, on a figure, seen from a view, at a size.
pub struct Shot<'a> {
    /// The document the clip is in.
    pub doc: &'a Document,
    /// The document's file (for the companion model and the figure's file name).
    pub file: &'a Path,
    /// The clip.
    pub clip: &'a Clip,
    /// `--rig`.
    pub rig: Option<&'a str>,
    /// `--view`.
    pub view: Option<&'a str>,
    /// Frame size in pixels.
    pub size: (u32, u32),
    /// `--camera`: a fixed camera instead of one framed on the motion.
    pub camera: Option<CameraSpec>,
    /// `--transparent`: the figure alone, alpha is coverage.
    pub transparent: bool,
    /// `--bones`: a model's bones drawn over its mesh.
    pub bones: bool,
}

/// The clip of `doc` named `name`, or its first clip.
pub fn pick_clip<'a>(
    doc: &'a Document,
    file: &Path,
    name: Option<&str>,
) -> Result<&'a Clip, String> {
    match name {
        Some(name) => doc.clips.iter().find(|c| c.name == name).ok_or_else(|| {
            let names: Vec<&str> = doc.clips.iter().map(|c| c.name.as_str()).collect();
            format!(
                "{}: no clip named {name:?} (clips: {})",
                file.display(),
                names.join(", ")
            )
        }),
        None => doc
            .clips
            .first()
            .ok_or_else(|| format!("{}: the file has no clips", file.display())),
    }
}

/// Renders the requested frames and writes them, printing one line per file.
#[cfg(feature = "gui")]
pub fn run(args: Args, read: &ReadOptions) -> Outcome {
    use std::process::ExitCode;

    let doc = super::output::read(&args.file, read)?;
    let clip = pick_clip(&doc, &args.file, args.clip.as_deref())?;
    let animated = animation::Kind::of(&args.output)?;
    let shot = Shot {
        doc: &doc,
        file: &args.file,
        clip,
        rig: args.rig.as_deref(),
        view: args.view.as_deref(),
        size: args.size.unwrap_or(match animated {
            Some(_) => animation::DEFAULT_SIZE,
            None => (960, 540),
        }),
        camera: args.camera,
        transparent: args.transparent,
        bones: args.bones,
    };
    let (width, height) = shot.size;
    if let Some(kind) = animated {
        if args.time.is_some() || !args.times.is_empty() {
            return Err("--time and --times draw PNGs; an animation plays the whole clip".into());
        }
        let (bytes, frames, fps, figure) = animate(&shot, kind, args.fps)?;
        clipscope_core::formats::write_atomic(&args.output, &bytes)
            .map_err(|e| format!("{}: cannot write: {e}", args.output.display()))?;
        println!(
            "render: {} ({width}×{height}, {frames} frames at {} fps, {} bytes, clip {:?} on {figure})",
            args.output.display(),
            (fps * 1000.0).round() / 1000.0,
            clipscope_core::text::thousands(bytes.len()),
            clip.name,
        );
        return Ok(ExitCode::SUCCESS);
    }
    let times = if args.times.is_empty() {
        vec![args.time.unwrap_or(0.0)]
    } else {
        args.times.clone()
    };
    if let Some(bad) = times.iter().find(|t| !t.is_finite()) {
        return Err(format!("--time: {bad} is not a finite number of seconds"));
    }
    let paths = if args.times.is_empty() {
        vec![args.output.clone()]
    } else {
        frames::numbered_paths(&args.output, times.len())
    };
    let (images, figure) = draw(&shot, &times, false)?;
    for ((image, path), t) in images.iter().zip(&paths).zip(&times) {
        frames::write_png(path, image)?;
        println!(
            "render: {} ({width}×{height}, clip {:?} on {figure} at {t} s)",
            path.display(),
            clip.name,
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// The animation of `shot`'s whole clip as `kind` at `fps` (default: the clip's rate): the
/// file's bytes, its frame count, the rate drawn at and the figure's name.
#[cfg(feature = "gui")]
pub fn animate(
    shot: &Shot,
    kind: animation::Kind,
    fps: Option<f64>,
) -> Result<(Vec<u8>, usize, f64, String), String> {
    let fps = kind.playable_fps(animation::clip_fps(shot.clip, fps));
    let (times, fps) = animation::frame_times(shot.clip.duration, fps);
    let (images, figure) = draw(shot, &times, true)?;
    let bytes = kind.encode(&images, fps)?;
    Ok((bytes, images.len(), fps, figure))
}

/// `shot` drawn at `times`, with one camera framed on all of them, and the figure's name;
/// `steady` holds the ground, grid and shadows still over the frames (an animation).
#[cfg(feature = "gui")]
pub fn draw(
    shot: &Shot,
    times: &[f64],
    steady: bool,
) -> Result<(Vec<image::RgbaImage>, String), String> {
    use std::sync::Arc;

    use clipscope_render::{Bounds, Camera, Frame, Headless};
    use clipscope_scene::{Figure, FigureFrame, Player};

    let cast = super::figure::Cast::new(shot.doc, shot.file, shot.rig)?;
    let figure = Figure::for_clip(
        shot.clip,
        cast.source(shot.doc, shot.clip),
        cast.choice.as_deref(),
    )
    .map_err(|e| format!("--rig: {e}"))?;
    let mut player = Player::on(Arc::new(shot.clip.clone()), figure.clone());
    let poses: Vec<FigureFrame> = times
        .iter()
        .map(|&t| {
            let mut frame = FigureFrame::default();
            player.frame_at(t, &mut frame);
            frame
        })
        .collect();
    let (width, height) = shot.size;
    let mut camera = Camera::default();
    let front = match shot.view {
        Some(view) => view == "front",
        None => matches!(figure, Figure::Layers(_)),
    };
    if front {
        (camera.yaw, camera.pitch, camera.orthographic) = (0.0, 0.0, true);
    }
    if front
        && shot.camera.is_none()
        && let Figure::Layers(layers) = &figure
        && layers.has_art()
        && !shot.bones
    {
        let images = art::frames(layers, times, shot.size, shot.transparent)?;
        return Ok((images, figure.name().to_string()));
    }
    let frame_of = |posed| {
        let frame = Frame::of(&figure, posed);
        if shot.bones {
            frame.with_bones(posed)
        } else {
            frame
        }
    };
    if let Some(spec) = shot.camera {
        camera = Camera::looking(spec.eye.into(), spec.target.into(), spec.fov.to_radians())
            .ok_or(
                "--camera: the eye must differ from the target and not look straight up or down",
            )?;
    } else if let Some(bounds) = poses
        .iter()
        .filter_map(|p| Frame::framing_bounds(&figure, p))
        .reduce(Bounds::union)
    {
        camera.frame_aspect(bounds, width as f32 / height as f32);
    }
    let mut headless = Headless::new()?;
    let renderer = headless.renderer(width, height);
    renderer.transparent = shot.transparent;
    if steady {
        renderer.stage = poses
            .iter()
            .filter_map(|p| frame_of(p).bounds())
            .reduce(Bounds::union);
    }
    if let Some(model) = &shot.doc.model {
        for note in &model.notes {
            eprintln!("render: {}: {note}", shot.file.display());
        }
    }
    let mut images = Vec::with_capacity(poses.len());
    for posed in &poses {
        images.push(headless.render(&frame_of(posed), &camera, width, height)?);
        if images.len() == 1 {
            for note in headless.renderer(width, height).texture_notes() {
                eprintln!("render: {}: {note}", shot.file.display());
            }
        }
    }
    Ok((images, figure.name().to_string()))
}

/// Without the `gui` feature there is no renderer: always an error (exit status 2).
#[cfg(not(feature = "gui"))]
pub fn run(_args: Args, _read: &ReadOptions) -> Outcome {
    Err("this build has no renderer (build with the default `gui` feature)".to_string())
}
