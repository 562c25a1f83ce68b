//! `clipscope edit IN -o OUT OPS…`: the editor's clip operations for batch work.
//!
//! Each operation runs in the order given on the command line, through the same
//! [`Workspace::apply`] as the editor's commands (so a script and a click do the same thing),
//! and prints one summary line. `--clip NAME` (repeatable) picks the clips the operations apply
//! to; without it they apply to every clip. `--fps` makes `--subclip` count in frames and sets
//! the rate `--make-additive`'s frame counts in (30 otherwise, like three.js).

use clipscope_core::formats::ReadOptions;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{ArgMatches, FromArgMatches};

use clipscope_editor::{ClipId, ClipScope, Edit, Workspace};

use super::Outcome;
use super::output::{self, OutputArgs};

/// The arguments as clap declares them (the order of the operations comes from the matches).
#[derive(Debug, clap::Args)]
pub struct Declared {
    /// The clip file to edit (never modified).
    pub file: PathBuf,
    #[command(flatten)]
    pub output: OutputArgs,
    /// Apply the operations only to the clip named NAME (repeatable; default: every clip).
    #[arg(long = "clip", value_name = "NAME")]
    pub clips: Vec<String>,
    /// Count `--subclip` in frames at FPS (and `--make-additive`'s frame; default 30).
    #[arg(long, value_name = "FPS", value_parser = output::parse_fps)]
    pub fps: Option<f64>,
    /// Rename tracks: a regular expression and its replacement (`$1` for groups), e.g.
    /// 'mixamorig:(.*)=$1'. The first `=` not preceded by `\` separates them.
    #[arg(long, value_name = "REGEX=REPLACEMENT", value_parser = parse_rename, action = clap::ArgAction::Append)]
    pub rename: Vec<(String, String)>,
    /// Keep only the keys in [START, END) (seconds, or frames with --fps), starting at 0
    /// (three.js `AnimationUtils.subclip`).
    #[arg(long, value_name = "START:END", value_parser = parse_range, action = clap::ArgAction::Append)]
    pub subclip: Vec<(f64, f64)>,
    /// Move every key by S seconds (the duration follows).
    #[arg(long, value_name = "S", value_parser = parse_number, allow_negative_numbers = true, action = clap::ArgAction::Append)]
    pub shift: Vec<f64>,
    /// Multiply every key time by F (above 0; the duration follows).
    #[arg(long = "scale-time", value_name = "F", value_parser = parse_factor, allow_negative_numbers = true, action = clap::ArgAction::Append)]
    pub scale_time: Vec<f64>,
    /// Bake to one key per frame at FPS (smooth and bezier tracks become linear).
    #[arg(long, value_name = "FPS", value_parser = output::parse_fps, allow_negative_numbers = true,
          action = clap::ArgAction::Append)]
    pub resample: Vec<f64>,
    /// Make the clips additive against their own pose at FRAME (default 0; three.js
    /// `AnimationUtils.makeClipAdditive`).
    #[arg(long = "make-additive", value_name = "FRAME", num_args = 0..=1,
          default_missing_value = "0", value_parser = parse_number, allow_negative_numbers = true, action = clap::ArgAction::Append)]
    pub make_additive: Vec<f64>,
    /// Put neighbouring quaternion keys in the same hemisphere (the same rotations; bezier
    /// curves stop taking the long way round).
    #[arg(long = "unroll-quaternions", num_args = 0, default_missing_value = "true",
          action = clap::ArgAction::Append)]
    pub unroll_quaternions: Vec<bool>,
    /// Play the clips backwards.
    #[arg(long, num_args = 0, default_missing_value = "true", action = clap::ArgAction::Append)]
    pub reverse: Vec<bool>,
}

/// One operation of the command line.
#[derive(Debug, Clone, PartialEq)]
pub enum Op {
    /// `--rename REGEX=REPLACEMENT`.
    Rename(String, String),
    /// `--subclip START:END`.
    Subclip(f64, f64),
    /// `--shift S`.
    Shift(f64),
    /// `--scale-time F`.
    ScaleTime(f64),
    /// `--resample FPS`.
    Resample(f64),
    /// `--make-additive [FRAME]`.
    MakeAdditive(f64),
    /// `--unroll-quaternions`.
    UnrollQuaternions,
    /// `--reverse`.
    Reverse,
}

/// Arguments of `edit`: the declared ones plus the operations in command-line order.
#[derive(Debug)]
pub struct Args {
    /// Everything clap parsed.
    pub declared: Declared,
    /// The operations, in the order they were given.
    pub ops: Vec<Op>,
}

impl FromArgMatches for Args {
    fn from_arg_matches(m: &ArgMatches) -> Result<Self, clap::Error> {
        let declared = Declared::from_arg_matches(m)?;
        let mut ops: Vec<(usize, Op)> = Vec::new();
        let mut add = |id: &str, make: &mut dyn FnMut(usize) -> Op| {
            if m.value_source(id) != Some(clap::parser::ValueSource::CommandLine) {
                return; // a flag's default (0) has an index too
            }
            for (i, at) in m.indices_of(id).into_iter().flatten().enumerate() {
                ops.push((at, make(i)));
            }
        };
        let d = &declared;
        add("rename", &mut |i| {
            Op::Rename(d.rename[i].0.clone(), d.rename[i].1.clone())
        });
        add("subclip", &mut |i| {
            Op::Subclip(d.subclip[i].0, d.subclip[i].1)
        });
        add("shift", &mut |i| Op::Shift(d.shift[i]));
        add("scale_time", &mut |i| Op::ScaleTime(d.scale_time[i]));
        add("resample", &mut |i| Op::Resample(d.resample[i]));
        add("make_additive", &mut |i| {
            Op::MakeAdditive(d.make_additive[i])
        });
        add("unroll_quaternions", &mut |_| Op::UnrollQuaternions);
        add("reverse", &mut |_| Op::Reverse);
        ops.sort_by_key(|(at, _)| *at);
        let ops = ops.into_iter().map(|(_, op)| op).collect();
        Ok(Args { declared, ops })
    }

    fn update_from_arg_matches(&mut self, m: &ArgMatches) -> Result<(), clap::Error> {
        *self = Args::from_arg_matches(m)?;
        Ok(())
    }
}

impl clap::Args for Args {
    fn augment_args(cmd: clap::Command) -> clap::Command {
        Declared::augment_args(cmd)
    }

    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        Declared::augment_args_for_update(cmd)
    }
}

/// Parses `REGEX=REPLACEMENT` (split at the first `=` not escaped by `\`), checking the regex.
fn parse_rename(text: &str) -> Result<(String, String), String> {
    let bytes = text.as_bytes();
    let at = (0..bytes.len())
        .find(|&i| bytes[i] == b'=' && (i == 0 || bytes[i - 1] != b'\\'))
        .ok_or_else(|| format!("{text:?} is not REGEX=REPLACEMENT"))?;
    let (pattern, replacement) = (&text[..at], &text[at + 1..]);
    regex::Regex::new(pattern).map_err(|e| {
        let last = e.to_string();
        let reason = last.lines().last().unwrap_or_default().trim().to_string();
        format!("{pattern:?} is not a regular expression: {reason}")
    })?;
    Ok((pattern.to_string(), replacement.to_string()))
}

/// Parses `START:END`, two finite numbers with END after START.
fn parse_range(text: &str) -> Result<(f64, f64), String> {
    let (a, b) = text
        .split_once(':')
        .ok_or_else(|| format!("{text:?} is not START:END"))?;
    let (start, end) = (parse_number(a)?, parse_number(b)?);
    if end <= start {
        return Err(format!("{text:?}: the end must come after the start"));
    }
    Ok((start, end))
}

/// Parses a finite number.
fn parse_number(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(v) if v.is_finite() => Ok(v),
        _ => Err(format!("{text:?} is not a number")),
    }
}

/// Parses a time factor: a finite number above 0.
fn parse_factor(text: &str) -> Result<f64, String> {
    match parse_number(text)? {
        f if f > 0.0 => Ok(f),
        _ => Err(format!("{text:?} is not a factor above 0")),
    }
}

/// Applies the operations in order, printing one line each, and writes the result.
pub fn run(args: Args, read: &ReadOptions) -> Outcome {
    let Args { declared: a, ops } = args;
    if ops.is_empty() {
        return Err("edit: no operation given (see clipscope edit --help)".into());
    }
    let doc = a.output.read_for_output(&a.file, read)?;
    let mut ws = Workspace::new();
    ws.add(doc);
    let picked = pick(&ws, &a.clips, &a.file)?;
    for op in &ops {
        let line =
            apply(&mut ws, op, &picked, a.fps).map_err(|e| format!("{}: {e}", a.file.display()))?;
        println!("{line}");
    }
    let doc = &ws.documents[0].doc;
    a.output.write(doc)?;
    println!("wrote {}", a.output.output.display());
    Ok(ExitCode::SUCCESS)
}

/// The clips `--clip` names (every clip without it); a name no clip has is an error.
fn pick(ws: &Workspace, names: &[String], file: &std::path::Path) -> Result<Vec<ClipId>, String> {
    let clips = &ws.documents[0].doc.clips;
    if names.is_empty() {
        return Ok(ws.clip_ids());
    }
    let mut ids = Vec::new();
    for name in names {
        let found: Vec<ClipId> = (0..clips.len())
            .filter(|&c| &clips[c].name == name)
            .map(|clip| ClipId { doc: 0, clip })
            .collect();
        if found.is_empty() {
            let all: Vec<&str> = clips.iter().map(|c| c.name.as_str()).collect();
            return Err(format!(
                "{}: no clip named {name:?} (clips: {})",
                file.display(),
                all.join(", ")
            ));
        }
        ids.extend(found);
    }
    ids.sort();
    ids.dedup();
    Ok(ids)
}

/// Applies one operation to the picked clips and returns its summary line.
fn apply(
    ws: &mut Workspace,
    op: &Op,
    picked: &[ClipId],
    fps: Option<f64>,
) -> Result<String, String> {
    let scope = ClipScope::Clips(picked.to_vec());
    let message = |applied: clipscope_editor::Applied| applied.message.unwrap_or_default();
    Ok(match *op {
        Op::Rename(ref pattern, ref replacement) => message(
            ws.apply(Edit::RenameTracks {
                scope,
                pattern: pattern.clone(),
                replacement: replacement.clone(),
            })
            .map_err(|e| e.to_string())?,
        ),
        Op::Shift(s) => {
            ws.apply(Edit::Retime {
                scope,
                factor: 1.0,
                offset: s,
            })
            .map_err(|e| e.to_string())?;
            format!("shift: {s:+} s over {} clip(s)", picked.len())
        }
        Op::ScaleTime(f) => {
            ws.apply(Edit::Retime {
                scope,
                factor: f,
                offset: 0.0,
            })
            .map_err(|e| e.to_string())?;
            format!("scale time: × {f} over {} clip(s)", picked.len())
        }
        Op::Resample(rate) => message(
            ws.apply(Edit::Resample { scope, fps: rate })
                .map_err(|e| e.to_string())?,
        ),
        Op::UnrollQuaternions => message(
            ws.apply(Edit::UnrollQuaternions(scope))
                .map_err(|e| e.to_string())?,
        ),
        Op::Reverse => message(ws.apply(Edit::Reverse(scope)).map_err(|e| e.to_string())?),
        Op::MakeAdditive(frame) => {
            let fps = fps.unwrap_or(30.0);
            for &clip in picked.iter() {
                ws.apply(Edit::MakeAdditive {
                    clip,
                    frame,
                    fps,
                    reference: None,
                })
                .map_err(|e| e.to_string())?;
            }
            format!(
                "make additive: {} clip(s) against their frame {frame} at {fps} fps",
                picked.len()
            )
        }
        Op::Subclip(start, end) => {
            // A batch edit replaces each clip with its range (same name and uuid).
            let rate = fps.unwrap_or(1.0);
            let mut keys = 0;
            for &clip in picked.iter() {
                let name = ws.clip(clip).map(|c| c.name.clone()).unwrap_or_default();
                ws.apply(Edit::Subclip {
                    clip,
                    name,
                    start,
                    end,
                    fps: rate,
                    replace: true,
                })
                .map_err(|e| match ws.clip(clip) {
                    Some(c) => format!("clip {:?}: {e}", c.name),
                    None => e.to_string(),
                })?;
                keys += ws.clip(clip).map_or(0, |c| c.key_count());
            }
            let unit = if fps.is_some() { " frames" } else { " s" };
            format!(
                "subclip {start}:{end}{unit}: {} clip(s), {} keys",
                picked.len(),
                clipscope_core::text::thousands(keys)
            )
        }
    })
}
