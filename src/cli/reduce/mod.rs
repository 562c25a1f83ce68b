//! `clipscope reduce FILE -o OUT --max-error E`: lossy key reduction with a guaranteed error,
//! measured in world space through the skeleton (see [`clipscope_core::model::ops::reduce`]).
//!
//! The result is written in the input's format, with the curves that format holds (bezier in
//! three.js JSON, CUBICSPLINE in glTF, eased keys in Lottie, straight segments elsewhere). The
//! guarantee is checked on the file as written: the output is serialized, read back and
//! measured against the original before anything touches the disk; if the format changed the
//! curves on the way (a glTF weights channel it had to bake, say), the reduction is redone with
//! straight segments, and failing that the clips are only losslessly optimized.

mod packing;

use clipscope_core::formats::ReadOptions;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use serde_json::{Value, json};

use super::Outcome;
use super::output::{self, OutputArgs, thousands};
use clipscope_core::formats::Budget;
use clipscope_core::formats::{self, Document, LengthUnit};
use clipscope_core::model::ops::reduce::{
    Bound, CurveFit, Metric, PointKind, ReduceOptions, ReduceReport, Reducer, SCALES, Trace, Worst,
    lossless_clip,
};
use clipscope_core::model::{Model, Skeleton, shown_windows};
use clipscope_scene::Rig;
use packing::{Sizes, fewer_digits, rotation_bits, smallest};

/// A length unit a file may be in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Unit {
    /// Metres.
    M,
    /// Centimetres.
    Cm,
    /// Millimetres.
    Mm,
    /// Inches.
    In,
    /// Feet.
    Ft,
}

impl Unit {
    /// Metres per unit.
    fn metres(self) -> f64 {
        match self {
            Unit::M => 1.0,
            Unit::Cm => 0.01,
            Unit::Mm => 0.001,
            Unit::In => 0.0254,
            Unit::Ft => 0.3048,
        }
    }

    /// The unit's symbol.
    fn symbol(self) -> &'static str {
        match self {
            Unit::M => "m",
            Unit::Cm => "cm",
            Unit::Mm => "mm",
            Unit::In => "in",
            Unit::Ft => "ft",
        }
    }
}

/// Arguments of `reduce`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The clip file to reduce (any format clipscope reads; written back in the same format).
    pub file: PathBuf,
    /// The largest distance anything the viewer sees may move from where the original puts
    /// it, at every key time and every midpoint between two: every node of the hierarchy (end
    /// bones and static leaves included) and the shell points that stand for the geometry
    /// around each joint (its farthest child, or half a leaf bone); in Lottie the corners of
    /// every layer's content in composition space, through its parents. In the file's length
    /// unit: metres for glTF, composition pixels for Lottie, and for three.js, legacy three.js
    /// and PlayCanvas files (which do not say) the unit given by --unit.
    #[arg(long, value_name = "E", value_parser = parse_positive)]
    pub max_error: f64,
    /// The largest angle any joint's world rotation may turn, in degrees.
    #[arg(long, value_name = "DEG", value_parser = parse_positive)]
    pub max_angle: Option<f64>,
    /// The hierarchy the clip's nodes hang in, when the file has none of its own: any model
    /// file clipscope reads (glTF, legacy three.js with bones, …) or a rig JSON. Without a
    /// hierarchy the bound applies to each track in its own local space.
    #[arg(long, value_name = "FILE")]
    pub skeleton: Option<PathBuf>,
    /// The length unit of three.js, legacy three.js and PlayCanvas files, which do not say
    /// (sets the 3 cm shell radius of a joint with nothing to measure it by).
    #[arg(long, value_enum, default_value = "m")]
    pub unit: Unit,
    /// The largest change of a morph target weight.
    #[arg(long, value_name = "W", default_value_t = 0.001, value_parser = parse_positive)]
    pub weight_error: f64,
    /// The largest change of any other number (opacity, colours, …).
    #[arg(long, value_name = "N", default_value_t = 0.001, value_parser = parse_positive)]
    pub number_error: f64,
    /// Lottie: the largest change of an angle measured on its own, in degrees (a layer the clip
    /// does not describe; layer transforms are bounded in composition pixels by --max-error).
    #[arg(long, value_name = "DEG", default_value_t = 0.1, value_parser = parse_positive)]
    pub degree_error: f64,
    /// Lottie: the largest change of a percentage measured on its own (opacity; the scale of a
    /// layer the clip does not describe).
    #[arg(long, value_name = "P", default_value_t = 0.5, value_parser = parse_positive)]
    pub percent_error: f64,
    /// Straight segments only, even where the format holds curves.
    #[arg(long)]
    pub linear: bool,
    /// Print the report as JSON: `{"keys_before", "keys_after", "max_error", "max_angle_deg",
    /// "worst": {"node", "time"}, …}`.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub output: OutputArgs,
}

/// Where the reducer's steps go: stderr with their times when `CLIPSCOPE_TRACE` is set (for
/// profiling), else nowhere.
fn stderr_trace() -> Trace {
    if std::env::var_os("CLIPSCOPE_TRACE").is_none() {
        return Trace::default();
    }
    Trace::to(|ms, line| eprintln!("reduce [{ms:>7.1} ms]: {line}"))
}

/// A number above 0.
fn parse_positive(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 => Ok(v),
        _ => Err(format!("{text:?} is not a number above 0")),
    }
}

/// Reduces every clip, checks the written form and writes it, printing the report.
pub fn run(args: Args, read: &ReadOptions) -> Outcome {
    let trace = stderr_trace();
    trace.line(format_args!("cli: start"));
    let doc = args.output.read_for_output(&args.file, read)?;
    trace.line(format_args!("cli: read"));
    let skeleton = match &args.skeleton {
        Some(path) => Some(read_skeleton(path, read)?),
        None => doc.skeleton.clone(),
    };
    let spec = doc.format.spec();
    let unit_name = match spec.length_unit {
        LengthUnit::Unspecified => args.unit.symbol(),
        _ => spec.length_symbol(),
    };
    let budget = Budget {
        max_error: args.max_error,
        max_angle_deg: args.max_angle,
        metres_per_unit: args.unit.metres(),
        weight_error: args.weight_error,
        number_error: args.number_error,
        degree_error: args.degree_error,
        percent_error: args.percent_error,
        linear: args.linear,
    };
    let target = Target {
        skeleton: skeleton.as_ref(),
        model: doc.model.as_deref(),
        out: &args.output.output,
        write: packed_write(args.output.write_options(), args.max_error),
        clips: None,
    };
    let (attempt, note) = reduce_document(&target, &doc, &budget, trace)?;
    if !attempt.within {
        return Err(format!(
            "{}: the reduced clips, written as {}, are off by more than the budget ({}){}",
            args.output.output.display(),
            doc.format.name(),
            describe_error(&attempt.reports, unit_name),
            why_off(&doc, &args)
        ));
    }
    let written = write_bytes(&attempt.bytes, &args.output.output)?;
    let sizes = Sizes {
        before: std::fs::metadata(&args.file).map_or(0, |m| m.len()),
        after: written,
        storage: formats::track_storage(&attempt.bytes)
            .into_iter()
            .map(|s| ((s.clip.clone(), s.track.clone()), s))
            .collect(),
    };
    if args.json {
        println!(
            "{}",
            to_json(&attempt.reports, &attempt.doc, unit_name, &args, &sizes)
        );
    } else {
        print!(
            "{}",
            to_text(&attempt.reports, &attempt.doc, unit_name, &args, &sizes)
        );
    }
    if let Some(note) = note {
        eprintln!("clipscope: reduce: {note}");
    }
    output::release((doc, attempt));
    Ok(ExitCode::SUCCESS)
}

/// What may keep a reduction of `doc` off the budget once written, for its error line: the
/// rounding `--precision` asks for, else what the format changes in the tracks whatever their
/// keys (quaternions normalized, say), else nothing known.
fn why_off(doc: &Document, args: &Args) -> String {
    if let Some(n) = args.output.precision {
        return format!("; --precision {n} may be rounding them");
    }
    // A track's own line reads "clip 'NAME' track 'NAME': what changes" (the file-wide ones,
    // such as re-encoded samplers, say nothing of a track's values).
    let changed: Vec<String> = formats::conversion_losses(doc, doc.format)
        .into_iter()
        .filter(|line| line.starts_with("clip '"))
        .collect();
    match changed.first() {
        Some(first) => format!(
            "; writing {} changes the source itself ({first}{}): convert the file first, and \
             reduce what it writes",
            doc.format.name(),
            if changed.len() > 1 { "; …" } else { "" }
        ),
        None => String::new(),
    }
}

/// Reduces the clips `target` names (every clip when it names none) of `doc` within `budget`
/// as `clipscope reduce` does, shared with the editor's Reduce… window so both make the same
/// file: the format's curves (straight segments on the 1/32 s key grid under `--meshopt`),
/// every fitted track measured as the packing stores it, the written file read back and
/// measured (tighter while over the budget), straight segments when the format changed the
/// curves, only the lossless optimize when nothing else keeps the budget, then the smallest
/// writer choice that does. Also returns a note for people when the reduction fell back.
/// Whether the result keeps the budget is in [`Attempt::within`].
pub fn reduce_document(
    target: &Target<'_>,
    doc: &Document,
    budget: &Budget,
    trace: Trace,
) -> Result<(Attempt, Option<String>), String> {
    let mut options = doc.format.spec().reduce_options(budget);
    options.trace = trace;
    if target.write.packing.meshopt {
        // A quantized key of a straight segment takes a third of a curve's bytes (no tangents),
        // which the codec then shrinks further: packed files keep more keys, in fewer bytes.
        // Their keys sit on a grid of 1/32 s, whose times the codec stores in a few bits each.
        options.curves = CurveFit::Linear;
        options.key_grid = Some(KEY_GRID);
    }
    // The search measures every fitted track as the file will store it: the packing's
    // rounding is inside the bound it keeps, not found over it after writing.
    options.stored =
        formats::packed_storage(doc.format, &target.write.packing, doc.skeleton.as_ref());
    let mut target = *target;
    let mut attempt = target.attempt(doc, &options, Pass::Fit)?;
    // Each rotation is rounded by its own node's reach, so down a long chain of joints the
    // roundings alone can add up past the budget, which no fit then keeps: round finer (one
    // more bit per rotation, half the filters' error) until a fit keeps the budget.
    for _ in 0..ROUNDING_RETRIES {
        if attempt.within || !finer_rounding(&mut target.write.packing) {
            break;
        }
        options.stored =
            formats::packed_storage(doc.format, &target.write.packing, doc.skeleton.as_ref());
        options.trace.line(format_args!(
            "cli: finer rounding {:?}",
            target.write.packing
        ));
        attempt = target.attempt(doc, &options, Pass::Fit)?;
    }
    let mut note = None;
    if !attempt.within && options.curves != CurveFit::Linear {
        let linear = ReduceOptions {
            curves: CurveFit::Linear,
            ..options.clone()
        };
        attempt = target.attempt(doc, &linear, Pass::Fit)?;
        note = Some(format!(
            "{} does not keep the fitted curves as they are; used straight segments",
            doc.format.description()
        ));
    }
    // Only a composition with auto-oriented layers can need it (no reducer is prepared to ask).
    let headings = doc
        .clips
        .iter()
        .flat_map(|c| c.layers.iter().flat_map(|l| &l.layers))
        .any(|l| l.auto_orient);
    if headings {
        // Auto-oriented layers turn along every segment of their paths, which a fit may not
        // keep (the search then keeps whole channels): try again with their positions kept,
        // and take whichever keeps fewer keys.
        let headings = ReduceOptions {
            keep_headings: true,
            ..options.clone()
        };
        let kept = target.attempt(doc, &headings, Pass::Fit)?;
        let keys = |a: &Attempt| a.reports.iter().map(|r| r.1.keys_after).sum::<usize>();
        if kept.within && (!attempt.within || keys(&kept) < keys(&attempt)) {
            attempt = kept;
            note = None;
        }
    }
    if !attempt.within {
        attempt = target.attempt(doc, &options, Pass::Lossless)?;
        note = Some(format!(
            "{} does not keep the reduced curves within the budget; only the lossless optimize \
             was applied",
            doc.format.description()
        ));
    }
    if attempt.within && target.write.packing.any() {
        attempt = smallest(&target, doc, &options, attempt)?;
    } else if attempt.within {
        attempt = fewer_digits(&target, doc, &options, attempt)?;
    }
    Ok((attempt, note))
}

/// One reduction of a document, as it would be written and read back.
pub struct Attempt {
    /// The reduced document.
    pub doc: Document,
    /// Its bytes in the output format.
    pub bytes: Vec<u8>,
    /// Each reduced clip's name and report (in the document's order), measured on what the
    /// bytes read back as.
    pub reports: Vec<(String, ReduceReport)>,
    /// Whether every reduced clip keeps the budget.
    pub within: bool,
}

/// Where a reduction goes: the hierarchy it is measured in, the output file and how it is
/// written.
#[derive(Clone, Copy)]
pub struct Target<'a> {
    /// The hierarchy, if any.
    pub skeleton: Option<&'a Skeleton>,
    /// The model whose meshes the clips deform, if any.
    pub model: Option<&'a Model>,
    /// The output path (named in errors; its extension does not change the format).
    pub out: &'a Path,
    /// How the output is written.
    pub write: formats::WriteOptions,
    /// The indices of the clips to reduce (`None`: every clip); the others are written as
    /// they are and not measured.
    pub clips: Option<&'a [usize]>,
}

/// What an attempt does to the clips.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Pass {
    /// Reduce within the budget (tighter and tighter while the file as written is over it).
    Fit,
    /// Only three.js's lossless optimize.
    Lossless,
}

impl Target<'_> {
    /// Reduces every clip of `doc` (or only optimizes it), serializes the result and measures
    /// what it reads back as; a reduction whose written form is over the budget (every vertex
    /// measured, the file's own curves) is redone with tighter budgets.
    fn attempt(
        &self,
        doc: &Document,
        options: &ReduceOptions,
        pass: Pass,
    ) -> Result<Attempt, String> {
        // Each clip measured where the viewer sees it (a composition between its in and out
        // points, a precomposition where a layer shows it).
        let windows = shown_windows(&doc.clips);
        let mut chosen = vec![self.clips.is_none(); doc.clips.len()];
        for &c in self.clips.unwrap_or_default() {
            if let Some(on) = chosen.get_mut(c) {
                *on = true;
            }
        }
        let mut reducers: Vec<Option<Reducer>> = doc
            .clips
            .iter()
            .zip(windows)
            .zip(chosen)
            .map(|((clip, shown), on)| {
                let options = ReduceOptions {
                    shown,
                    ..options.clone()
                };
                on.then(|| Reducer::with_model(clip, self.skeleton, self.model, &options))
            })
            .collect();
        let scales: &[f64] = match pass {
            Pass::Fit if self.write.packing.any() => &PACKED_SCALES,
            Pass::Fit => &SCALES,
            Pass::Lossless => &[0.0],
        };
        let mut last = None;
        for &scale in scales {
            let attempt = self.attempt_at(doc, options, &mut reducers, scale)?;
            if attempt.within {
                return Ok(attempt);
            }
            last = Some(attempt);
        }
        Ok(last.expect("at least one scale"))
    }

    /// One attempt with every budget scaled by `scale` (0: only the lossless optimize).
    fn attempt_at(
        &self,
        doc: &Document,
        options: &ReduceOptions,
        reducers: &mut [Option<Reducer>],
        scale: f64,
    ) -> Result<Attempt, String> {
        let t0 = std::time::Instant::now();
        let clips = doc
            .clips
            .iter()
            .zip(reducers.iter_mut())
            .map(|(clip, reducer)| match reducer {
                Some(reducer) if scale > 0.0 => {
                    let reduced = reducer.reduce(scale).clip;
                    // The file is written next: what only fitting reads makes room for it
                    // (a try at a smaller budget makes it again).
                    reducer.release_fits();
                    reduced
                }
                Some(_) => lossless_clip(clip),
                None => clip.clone(),
            })
            .collect();
        let reduced = doc.with_clips(clips);
        options
            .trace
            .line(format_args!("cli: reduced in {:?}", t0.elapsed()));
        let bytes = formats::write_bytes_checked(&reduced, &self.write)
            .map_err(|e| format!("{}: {e}", self.out.display()))?;
        options.trace.line(format_args!("cli: written"));
        let back = formats::read_bytes(&bytes, self.out)
            .map_err(|e| format!("the reduced file does not read back: {e}"))?;
        options.trace.line(format_args!("cli: read back"));
        let mut reports = Vec::with_capacity(doc.clips.len());
        let mut within = back.clips.len() == doc.clips.len();
        for ((original, written), reducer) in doc.clips.iter().zip(&back.clips).zip(reducers) {
            let Some(reducer) = reducer else {
                continue;
            };
            let report = reducer.measure(written);
            within &= report.within(options);
            reports.push((original.name.clone(), report));
        }
        options.trace.line(format_args!("cli: measured"));
        Ok(Attempt {
            doc: reduced,
            bytes,
            reports,
            within,
        })
    }
}

/// The writer options of a reduction at `max_error` from `write` (the output arguments', or the
/// editor's packing): the exponential filter of `--meshopt` allowed a twentieth of the budget
/// on translations, key times moved by what a joint at a unit per second covers in 2% of it,
/// and each rotation's quaternion bits from the budget and how far its node reaches (the
/// written file is measured whole, so what the packing adds counts in the budget).
pub fn packed_write(mut write: formats::WriteOptions, max_error: f64) -> formats::WriteOptions {
    write.packing.float_error = max_error * FLOAT_SHARE;
    write.packing.time_error = max_error * TIME_SHARE;
    if write.packing.meshopt {
        write.packing.rotation_bits = rotation_bits(max_error);
        write.packing.rotation_error = max_error * ROTATION_REACH_SHARE;
    }
    write
}

/// How many times a packed reduction that no fit keeps within the budget is tried again with
/// finer rounding ([`finer_rounding`]).
const ROUNDING_RETRIES: usize = 4;

/// Halves what `packing` may round by (quaternions by reach get one more bit, the exponential
/// filter half the error); `false` when it already rounds nothing it could round less.
fn finer_rounding(packing: &mut formats::Packing) -> bool {
    if !packing.any() || packing.rotation_error <= 0.0 && packing.float_error <= 0.0 {
        return false;
    }
    packing.rotation_error *= 0.5;
    packing.float_error *= 0.5;
    packing.time_error *= 0.5;
    if packing.rotation_bits > 0 {
        packing.rotation_bits = (packing.rotation_bits + 1).min(16);
    }
    true
}

/// The share of the budget a quaternion's rounding may move the farthest point its node
/// carries by (each rotation track's bits from its node's reach). On the benchmark's 60 s take
/// 0.2 / 0.3 / 0.4 made 73.3 / 70.8 / 69.5 KB at 1 cm, 46.9 / 48.9 / 57.1 KB at 2 cm and
/// 27.0 / 27.6 / 28.0 KB at 5 cm.
const ROTATION_REACH_SHARE: f64 = 0.3;

/// The budget scales a packed reduction tries: the packing adds error of its own, so a fit at
/// the whole budget may land just over it, and a small step back keeps most of its savings.
const PACKED_SCALES: [f64; 7] = [1.0, 0.95, 0.9, 0.8, 0.7, 0.6, 0.4];

/// The key grid of a compressed reduction, in seconds: a power of two, so that meshopt's
/// exponential filter stores key times as whole steps whose low byte is always zero.
const KEY_GRID: f64 = 1.0 / 32.0;

/// The share of the budget the exponential filter may use on a translation or scale.
const FLOAT_SHARE: f64 = 0.05;

/// Seconds a key time may move through the exponential filter per unit of budget: a joint
/// moving 1 unit per second strays by 2% of the budget.
const TIME_SHARE: f64 = 0.02;

/// Writes an attempt's bytes to `out` atomically (its document was checked writable when the
/// attempt was made, [`Target::attempt_at`]); returns the size.
fn write_bytes(bytes: &[u8], out: &Path) -> Result<u64, String> {
    formats::write_atomic(out, bytes)
        .map_err(|e| format!("{}: cannot write: {e}", out.display()))?;
    Ok(bytes.len() as u64)
}

/// The hierarchy in `path`: a rig JSON, or any file clipscope reads that has a skeleton.
pub(super) fn read_skeleton(path: &Path, read: &ReadOptions) -> Result<Skeleton, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    if let Ok(rig) = Rig::from_json(&bytes, path) {
        return Ok(rig.skeleton());
    }
    let doc =
        formats::read_bytes_with(&bytes, path, read).map_err(|e| format!("--skeleton: {e}"))?;
    doc.skeleton.ok_or_else(|| {
        format!(
            "--skeleton: {}: the file has no bone hierarchy (a glTF file, a legacy three.js \
             model with bones, or a rig JSON has one)",
            path.display()
        )
    })
}

/// Keys before and after, over every clip.
fn totals(reports: &[(String, ReduceReport)]) -> (usize, usize) {
    reports.iter().fold((0, 0), |(b, a), (_, r)| {
        (b + r.keys_before, a + r.keys_after)
    })
}

/// The clip report with the largest distance.
fn worst(reports: &[(String, ReduceReport)]) -> Option<&(String, ReduceReport)> {
    reports
        .iter()
        .max_by(|a, b| a.1.max_error.total_cmp(&b.1.max_error))
}

/// The largest error of any clip, in words.
fn describe_error(reports: &[(String, ReduceReport)], unit: &str) -> String {
    match worst(reports) {
        Some((name, r)) => format!(
            "{} {unit}, {:.3}° in clip \"{name}\"{}",
            number(r.max_error),
            r.max_angle.to_degrees(),
            r.worst
                .as_ref()
                .map(|w| match w.time {
                    Some(t) => format!(" at {}, {t:.3} s", w.place()),
                    None => format!(" in {}", w.place()),
                })
                .unwrap_or_default()
        ),
        None => "no clips".to_string(),
    }
}

/// A length for the report: enough digits to tell millimetres in metres.
fn number(x: f64) -> String {
    if x == 0.0 {
        "0".to_string()
    } else if x.abs() >= 100.0 {
        format!("{x:.1}")
    } else {
        format!("{x:.4}")
    }
}

/// The text report.
fn to_text(
    reports: &[(String, ReduceReport)],
    doc: &Document,
    unit: &str,
    args: &Args,
    sizes: &Sizes,
) -> String {
    let (before, after) = totals(reports);
    let percent = if before > 0 {
        100.0 * after as f64 / before as f64
    } else {
        100.0
    };
    let mut out = format!(
        "reduce: {} → {} keys ({percent:.1}%) in {} clip(s); wrote {} ({} bytes)\n",
        thousands(before),
        thousands(after),
        reports.len(),
        args.output.output.display(),
        thousands(sizes.after as usize)
    );
    out.push_str(&format!(
        "  bytes {} → {} ({:.1}%)\n",
        thousands(sizes.before as usize),
        thousands(sizes.after as usize),
        100.0 * sizes.after as f64 / sizes.before.max(1) as f64
    ));
    for (how, tracks, bytes) in sizes.groups() {
        out.push_str(&format!(
            "    {tracks} track(s) {how}: {} bytes of values\n",
            thousands(bytes)
        ));
    }
    let (inputs, times) = sizes.times();
    if inputs > 0 {
        out.push_str(&format!(
            "    key times: {} bytes in {inputs} accessor(s)\n",
            thousands(times)
        ));
    }
    let world = reports.iter().any(|(_, r)| r.world);
    let nodes = reports
        .iter()
        .map(|(_, r)| r.nodes.len())
        .max()
        .unwrap_or(0);
    let vertices = reports.iter().map(|(_, r)| r.vertices).max().unwrap_or(0);
    let pixels = doc.format.spec().length_unit == LengthUnit::Pixel;
    let how = if world && pixels {
        "in composition space: every layer's content through its parents".to_string()
    } else if world {
        let tree = if args.skeleton.is_some() {
            "the --skeleton hierarchy"
        } else {
            "the file's hierarchy"
        };
        if vertices > 0 {
            format!(
                "in world space at every node of {tree} ({nodes} nodes) and every vertex of its \
                 meshes ({} vertices, skinned as three.js skins them)",
                thousands(vertices)
            )
        } else {
            format!("in world space at every node of {tree} ({nodes} nodes) and their shells")
        }
    } else {
        "per track in local space (no skeleton: pass --skeleton FILE to bound world space)"
            .to_string()
    };
    out.push_str(&format!(
        "  budget {} {unit}{}, measured {how}\n",
        number(args.max_error),
        args.max_angle
            .map(|a| format!(" and {a}°"))
            .unwrap_or_default()
    ));
    for (name, r) in reports {
        let at = r
            .worst
            .as_ref()
            .map(|w| match w.time {
                Some(time) => format!(" at {}, {time:.3} s", w.place()),
                None => format!(" in {}", w.place()),
            })
            .unwrap_or_default();
        let angle = if r.measures_angles() {
            format!(", max angle {:.3}°", r.max_angle.to_degrees())
        } else {
            String::new()
        };
        out.push_str(&format!(
            "  clip \"{name}\": {} → {} keys, max error {} {unit}{at}{angle}\n",
            thousands(r.keys_before),
            thousands(r.keys_after),
            number(r.max_error),
        ));
    }
    out
}

/// Where the largest error is, as JSON: `{"node", "time", "point", …}` (`point` is
/// `"origin"`, `"shell"` with `axis` and `radius`, `"vertex"` with `vertex`, `"corner"` with
/// `corner`, `"outline"` with `outline` (a shape layer's hull point), or null for a track
/// bounded on its own).
fn worst_json(w: &Worst) -> Value {
    let mut v = json!({ "node": w.node, "time": w.time, "place": w.place() });
    match w.point {
        None => v["point"] = Value::Null,
        Some(PointKind::Origin) => v["point"] = json!("origin"),
        Some(PointKind::Shell { axis, radius }) => {
            v["point"] = json!("shell");
            v["axis"] = json!(["x", "y", "z"][axis.min(2)]);
            v["radius"] = json!(radius);
        }
        Some(PointKind::Vertex(index)) => {
            v["point"] = json!("vertex");
            v["vertex"] = json!(index);
        }
        Some(PointKind::Corner(k)) => {
            v["point"] = json!("corner");
            v["corner"] = json!(k);
        }
        Some(PointKind::Outline(k)) => {
            v["point"] = json!("outline");
            v["outline"] = json!(k);
        }
    }
    v
}

/// The `--json` report.
fn to_json(
    reports: &[(String, ReduceReport)],
    doc: &Document,
    unit: &str,
    args: &Args,
    sizes: &Sizes,
) -> Value {
    let (before, after) = totals(reports);
    let worst = worst(reports);
    let max_angle = reports
        .iter()
        .map(|(_, r)| r.max_angle)
        .fold(0.0, f64::max)
        .to_degrees();
    let worst_overall = worst
        .and_then(|(_, r)| r.worst.as_ref())
        .map(worst_json)
        .unwrap_or(Value::Null);
    let clips: Vec<Value> = reports
        .iter()
        .map(|(name, r)| {
            let tracks: Vec<Value> = r
                .tracks
                .iter()
                .map(|t| {
                    let stored = sizes.of(name, &t.name).map(|s| {
                        json!({
                            "interpolation": s.interpolation,
                            "components": s.components,
                            "meshopt": s.meshopt,
                            "bytes": s.bytes,
                            "time_bytes": s.times.1,
                        })
                    });
                    json!({
                        "name": t.name,
                        "keys_before": t.keys_before,
                        "keys_after": t.keys_after,
                        "error": t.error,
                        "metric": metric_name(t.metric),
                        "bound": bound_name(t.bound),
                        "stored": stored,
                    })
                })
                .collect();
            let nodes: Vec<Value> = r
                .nodes
                .iter()
                .map(|n| {
                    json!({
                        "name": n.name,
                        "error": n.error,
                        "angle_deg": n.angle.to_degrees(),
                        "shell": n.shell,
                    })
                })
                .collect();
            json!({
                "name": name,
                "keys_before": r.keys_before,
                "keys_after": r.keys_after,
                "max_error": r.max_error,
                "max_angle_deg": r.max_angle.to_degrees(),
                "worst": r.worst.as_ref().map(worst_json),
                "world": r.world,
                "vertices": r.vertices,
                "nodes": nodes,
                "tracks": tracks,
            })
        })
        .collect();
    json!({
        "keys_before": before,
        "keys_after": after,
        "max_error": worst.map_or(0.0, |(_, r)| r.max_error),
        "max_angle_deg": max_angle,
        "worst": worst_overall,
        "budget": { "max_error": args.max_error, "max_angle_deg": args.max_angle },
        "unit": unit,
        "format": doc.format.name(),
        "world": reports.iter().any(|(_, r)| r.world),
        "output": args.output.output.display().to_string(),
        "bytes": sizes.after,
        "bytes_before": sizes.before,
        "clips": clips,
    })
}

/// The metric's name in JSON.
fn metric_name(m: Metric) -> &'static str {
    match m {
        Metric::Translation => "distance",
        Metric::Rotation => "angle",
        Metric::Scale => "relative",
        Metric::Absolute => "absolute",
    }
}

/// The bound's name in JSON.
fn bound_name(b: Bound) -> &'static str {
    match b {
        Bound::World => "world",
        Bound::Local => "local",
        Bound::Absolute => "absolute",
        Bound::Lossless => "lossless",
    }
}
