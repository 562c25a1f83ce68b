//! `clipscope sample FILE --times T1,T2,...`: track values at given times, as three.js's
//! `track.createInterpolant().evaluate(t)` returns them.

use std::path::PathBuf;
use std::process::ExitCode;

use serde_json::{Map, Value};

use super::Outcome;
use super::output;
use crate::formats::Document;
use crate::model::Values;
use crate::model::interpolant::Sampler;

/// Arguments of `sample`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The clip file to sample.
    pub file: PathBuf,
    /// Comma-separated times in seconds, evaluated in this order (e.g. `-0.5,0,0.25,1`).
    #[arg(long, value_delimiter = ',', allow_negative_numbers = true, required = true, num_args = 1..)]
    pub times: Vec<f64>,
}

/// Prints one JSON object: `"<clip>|<track>"` → one array of values per time.
pub fn run(args: Args) -> Outcome {
    let doc = output::read(&args.file)?;
    println!(
        "{}",
        serde_json::to_string(&sample(&doc, &args.times)).unwrap_or_default()
    );
    Ok(ExitCode::SUCCESS)
}

/// Samples every track of every clip at `times` (one sampler per track, times in order, so the
/// interval cache behaves as it does in three.js). A later track with the same key replaces an
/// earlier one in place, as in a JavaScript object.
pub fn sample(doc: &Document, times: &[f64]) -> Map<String, Value> {
    let mut out = Map::new();
    for clip in &doc.clips {
        for track in &clip.tracks {
            let mut sampler = Sampler::new(track);
            let rows: Vec<Value> = times
                .iter()
                .map(|&t| to_json(sampler.evaluate(t)))
                .collect();
            out.insert(format!("{}|{}", clip.name, track.name), Value::Array(rows));
        }
    }
    out
}

/// One evaluated value as a JSON array. `f32` results go through `f64` exactly, so the printed
/// number reads back to the same `f32`; NaN and infinities become `null`, as `JSON.stringify` does.
fn to_json(values: Values) -> Value {
    match values {
        Values::Numbers(v) => v
            .into_iter()
            .map(|x| serde_json::Number::from_f64(x as f64).map_or(Value::Null, Value::Number))
            .collect(),
        Values::Bools(v) => v.into_iter().map(Value::Bool).collect(),
        Values::Strings(v) => v.into_iter().map(Value::String).collect(),
    }
}
