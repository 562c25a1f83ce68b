//! `clipscope render FILE [--clip NAME] [--rig NAME] [--time T | --times T1,T2,...] [--size WxH]
//! [--camera eye=X,Y,Z,target=X,Y,Z,fov=DEG] [--transparent] [--bones] -o OUT.png`: draws
//! frames of a clip without a window, with the viewport's renderer, and writes PNGs.
//!
//! The clip plays on the figure the viewport would choose (see `scene::Figure::for_clip`), or
//! on the one `--rig` names or reads from a file; a file with meshes shows its model, deformed
//! by its skins and morph targets (`--bones` draws the skeleton over it).
//!
//! One time writes `OUT.png`; `--times` writes a numbered sequence next to it
//! (`OUT_000.png`, `OUT_001.png`, …). Every frame of a sequence uses the same camera: framed on
//! everything the clip does at the requested times, so the frames line up, or the fixed
//! `--camera` (a perspective camera in the file's world units, the aspect from `--size`), so
//! renders from other viewers through the same camera can be compared. `--transparent` draws
//! the figure alone (no backdrop, ground, grid, shadows or fog; alpha is coverage). Files are
//! written atomically. A build without the `gui` feature has no renderer and exits with
//! status 2.

mod camera;
mod frames;

pub use camera::{CameraSpec, parse_camera};

use clipscope_core::formats::ReadOptions;
use std::path::PathBuf;

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
    /// three.js, …), `model` (the file's meshes on its skeleton); default: chosen from the clip
    /// (the file's own model; a model next to the clip file that binds most of its nodes).
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
    /// Frame size in pixels.
    #[arg(long, value_name = "WxH", default_value = "960x540", value_parser = frames::parse_size)]
    pub size: (u32, u32),
    /// Where to write the PNG (with `--times`, the pattern for the numbered files).
    #[arg(short = 'o', long = "output", value_name = "OUT")]
    pub output: PathBuf,
}

/// Renders the requested frames and writes them, printing one line per file.
#[cfg(feature = "gui")]
pub fn run(args: Args, read: &ReadOptions) -> Outcome {
    use std::process::ExitCode;

    use std::sync::Arc;

    use clipscope_render::{Bounds, Camera, Frame, Headless};
    use clipscope_scene::{Figure, FigureFrame, Player};

    let doc = super::output::read(&args.file, read)?;
    let clip = match &args.clip {
        Some(name) => doc.clips.iter().find(|c| &c.name == name).ok_or_else(|| {
            let names: Vec<&str> = doc.clips.iter().map(|c| c.name.as_str()).collect();
            format!(
                "{}: no clip named {name:?} (clips: {})",
                args.file.display(),
                names.join(", ")
            )
        })?,
        None => doc
            .clips
            .first()
            .ok_or_else(|| format!("{}: the file has no clips", args.file.display()))?,
    };
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
    let cast = super::figure::Cast::new(&doc, &args.file, args.rig.as_deref())?;
    let figure = Figure::for_clip(clip, cast.source(&doc, clip), cast.choice.as_deref())
        .map_err(|e| format!("--rig: {e}"))?;
    let mut player = Player::on(Arc::new(clip.clone()), figure.clone());
    let poses: Vec<FigureFrame> = times
        .iter()
        .map(|&t| {
            let mut frame = FigureFrame::default();
            player.frame_at(t, &mut frame);
            frame
        })
        .collect();
    let (width, height) = args.size;
    let mut camera = Camera::default();
    let front = match args.view.as_deref() {
        Some(view) => view == "front",
        None => matches!(figure, Figure::Layers(_)),
    };
    if front {
        (camera.yaw, camera.pitch, camera.orthographic) = (0.0, 0.0, true);
    }
    let frame_of = |posed| {
        let frame = Frame::of(&figure, posed);
        if args.bones {
            frame.with_bones(posed)
        } else {
            frame
        }
    };
    if let Some(spec) = args.camera {
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
    headless.renderer(width, height).transparent = args.transparent;
    if let Some(model) = &doc.model {
        for note in &model.notes {
            eprintln!("render: {}: {note}", args.file.display());
        }
    }
    for (i, ((posed, path), t)) in poses.iter().zip(&paths).zip(&times).enumerate() {
        let image = headless.render(&frame_of(posed), &camera, width, height)?;
        if i == 0 {
            for note in headless.renderer(width, height).texture_notes() {
                eprintln!("render: {}: {note}", args.file.display());
            }
        }
        frames::write_png(path, &image)?;
        println!(
            "render: {} ({width}×{height}, clip {:?} on {} at {t} s)",
            path.display(),
            clip.name,
            figure.name()
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// Without the `gui` feature there is no renderer: always an error (exit status 2).
#[cfg(not(feature = "gui"))]
pub fn run(_args: Args, _read: &ReadOptions) -> Outcome {
    Err("this build has no renderer (build with the default `gui` feature)".to_string())
}
