//! `clipscope sample FILE --times T1,T2,...`: track values at given times, as three.js's
//! `track.createInterpolant().evaluate(t)` returns them.

use clipscope_core::formats::ReadOptions;
use std::collections::HashMap;
use std::path::PathBuf;
use std::process::ExitCode;

use super::Outcome;
use super::output;
use clipscope_core::formats::Document;
use clipscope_core::formats::json::number;
use clipscope_core::model::Values;
use clipscope_core::model::interpolant::Sampler;

/// Arguments of `sample`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The clip file to sample.
    pub file: PathBuf,
    /// Comma-separated times in seconds, evaluated in this order (e.g. `-0.5,0,0.25,1`).
    #[arg(long, value_delimiter = ',', allow_hyphen_values = true, required = true, num_args = 1..)]
    pub times: Vec<f64>,
}

/// Prints one JSON object: `"<clip>|<track>"` → one array of values per time.
pub fn run(args: Args, read: &ReadOptions) -> Outcome {
    let doc = output::read(&args.file, read)?;
    let mut text = Vec::with_capacity(4096);
    text.push(b'{');
    for (i, (key, rows)) in sample(&doc, &args.times).iter().enumerate() {
        if i > 0 {
            text.push(b',');
        }
        text.extend_from_slice(serde_json::to_string(key).unwrap_or_default().as_bytes());
        text.push(b':');
        write_rows(&mut text, rows);
    }
    text.extend_from_slice(b"}\n");
    use std::io::Write as _;
    std::io::stdout()
        .write_all(&text)
        .map_err(|e| format!("cannot write to standard output: {e}"))?;
    Ok(ExitCode::SUCCESS)
}

/// Samples every track of every clip at `times` (one sampler per track, times in order, so the
/// interval cache and result buffer behave as one three.js interpolant does). A later track with
/// the same key replaces an earlier one in place, as in a JavaScript object.
pub fn sample(doc: &Document, times: &[f64]) -> Vec<(String, Vec<Values>)> {
    let mut out: Vec<(String, Vec<Values>)> = Vec::new();
    let mut slots: HashMap<String, usize> = HashMap::new();
    for clip in &doc.clips {
        for track in &clip.tracks {
            let mut sampler = Sampler::new(track);
            let rows: Vec<Values> = times.iter().map(|&t| sampler.evaluate(t)).collect();
            let key = format!("{}|{}", clip.name, track.name);
            match slots.get(&key) {
                Some(&slot) => out[slot].1 = rows,
                None => {
                    slots.insert(key.clone(), out.len());
                    out.push((key, rows));
                }
            }
        }
    }
    out
}

/// Writes one track's results as a JSON array of arrays. Numbers use the shortest text that reads
/// back to the same `f32`; NaN and infinities become `null`, as `JSON.stringify` writes them.
fn write_rows(out: &mut Vec<u8>, rows: &[Values]) {
    out.push(b'[');
    for (i, row) in rows.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        out.push(b'[');
        for k in 0..row.len() {
            if k > 0 {
                out.push(b',');
            }
            match row {
                Values::Numbers(v) => number::write_f32(out, v[k], None),
                Values::Bools(v) => out.extend_from_slice(if v[k] { b"true" } else { b"false" }),
                Values::Strings(v) => out
                    .extend_from_slice(serde_json::to_string(&v[k]).unwrap_or_default().as_bytes()),
            }
        }
        out.push(b']');
    }
    out.push(b']');
}
