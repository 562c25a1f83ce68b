//! Options and helpers shared by the subcommands that write a file.

use std::path::{Path, PathBuf};

use clipscope_core::formats::{self, Document, WriteOptions};

/// `-o OUT`, `--precision N`, `--pretty`, `--serialized` and glTF's `--quantize`, `--meshopt`
/// and `--meshopt-fallback`, shared by optimize, trim, convert and reduce.
#[derive(Debug, clap::Args)]
pub struct OutputArgs {
    /// Where to write the result (written atomically; the input is never modified).
    #[arg(short = 'o', long = "output", value_name = "OUT")]
    pub output: PathBuf,
    /// Round numbers to N decimals instead of the shortest exact form.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(0..=17))]
    pub precision: Option<u32>,
    /// Indent the output for reading (number arrays stay on one line).
    #[arg(long, visible_alias = "indent", overrides_with = "no_indent")]
    pub pretty: bool,
    /// Write compact output without indentation (the default).
    #[arg(long = "no-indent", overrides_with = "pretty")]
    pub no_indent: bool,
    /// Legacy three.js output: each bone's keys as one key of flat arrays (the
    /// threejs-serialize-animation shape) instead of one key object per time.
    #[arg(long)]
    pub serialized: bool,
    /// glTF/GLB: store rotations and morph weights as normalized 16-bit integers (core glTF
    /// allows them in animation samplers).
    #[arg(long)]
    pub quantize: bool,
    /// glTF/GLB: compress the animation data with EXT_meshopt_compression (marked required;
    /// three.js reads it with its MeshoptDecoder).
    #[arg(long)]
    pub meshopt: bool,
    /// With --meshopt: also store the uncompressed data, for players without the extension.
    #[arg(long, requires = "meshopt")]
    pub meshopt_fallback: bool,
}

impl OutputArgs {
    /// The writer options these arguments ask for.
    pub fn write_options(&self) -> WriteOptions {
        WriteOptions {
            precision: self.precision,
            pretty: self.pretty && !self.no_indent,
            serialized: self.serialized,
            packing: formats::Packing {
                quantize: self.quantize,
                meshopt: self.meshopt,
                fallback: self.meshopt_fallback,
                float_error: 0.0,
                rotation_bits: 0,
                rotation_error: 0.0,
                time_error: 0.0,
            },
            ..Default::default()
        }
    }

    /// Reads `path` (like [`read`]) for a command that writes the file's own format back:
    /// in the container the output's extension names (a `.gltf` file written to `.glb` is
    /// written as GLB, and the other way round). An extension that names another format is an
    /// error, not a file whose contents contradict its name (`convert` changes formats).
    pub fn read_for_output(
        &self,
        path: &Path,
        opts: &formats::ReadOptions,
    ) -> Result<Document, String> {
        in_container(read(path, opts)?, &self.output)
    }

    /// Writes `doc` to the output path atomically and returns the number of bytes written. A
    /// document its format cannot hold (see [`formats::check_writable`]) is an error.
    pub fn write(&self, doc: &Document) -> Result<u64, String> {
        self.write_to(doc, &self.output)
    }

    /// Writes `doc` to `path` (instead of the output path) with these options, like
    /// [`OutputArgs::write`].
    pub fn write_to(&self, doc: &Document, path: &Path) -> Result<u64, String> {
        formats::check_writable(doc).map_err(|e| format!("{}: {e}", path.display()))?;
        formats::write_file(doc, path, &self.write_options())
            .map_err(|e| format!("{}: cannot write: {e}", path.display()))?;
        Ok(std::fs::metadata(path).map(|m| m.len()).unwrap_or(0))
    }
}

/// The format an output path's extension names, when only one format has it (`.gltf`, `.glb`,
/// any case; `.json` is shared, so it names none).
pub fn format_for_extension(path: &Path) -> Option<formats::Format> {
    formats::Format::from_extension(path.extension()?.to_str()?)
}

/// `doc` in the container `out`'s extension names ([`OutputArgs::read_for_output`]). An
/// extension no format uses (or none) keeps the input's format.
fn in_container(doc: Document, out: &Path) -> Result<Document, String> {
    let ext = out.extension().and_then(|e| e.to_str()).unwrap_or_default();
    match format_for_extension(out) {
        Some(to) if to == doc.format => return Ok(doc),
        Some(to) if to.same_family(doc.format) => return Ok(doc.converted_to(to)),
        // `.json` is several formats' extension, none of them glTF's.
        None if !ext.eq_ignore_ascii_case("json") || doc.format.extension() == "json" => {
            return Ok(doc);
        }
        _ => {}
    }
    Err(format!(
        "{}: a .{ext} file is not {}, the input's format, which this command writes: name the \
         output .{}, or change the format with clipscope convert",
        out.display(),
        doc.format.description(),
        doc.format.extension()
    ))
}

/// Reads a file with the command line's read options (`--morph-fps`, `--max-file-size`),
/// turning the error into its one-line message.
pub fn read(path: &Path, opts: &formats::ReadOptions) -> Result<Document, String> {
    formats::read_file_with(path, opts).map_err(|e| e.to_string())
}

/// Parses a size in bytes: a whole number with an optional unit (`kB`, `MB`, `GB` are powers
/// of ten, `KiB`, `MiB`, `GiB` powers of two; `B` or none is bytes).
pub fn parse_size(text: &str) -> Result<u64, String> {
    let t = text.trim();
    let split = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (digits, unit) = t.split_at(split);
    let scale: u64 = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1,
        "kb" | "k" => 1_000,
        "mb" | "m" => 1_000_000,
        "gb" | "g" => 1_000_000_000,
        "kib" => 1 << 10,
        "mib" => 1 << 20,
        "gib" => 1 << 30,
        _ => {
            return Err(format!(
                "{text:?} is not a size (a number of bytes, or like 512MiB)"
            ));
        }
    };
    digits
        .parse::<u64>()
        .ok()
        .and_then(|n| n.checked_mul(scale))
        .filter(|&n| n > 0)
        .ok_or_else(|| {
            format!("{text:?} is not a size above 0 (a number of bytes, or like 512MiB)")
        })
}

/// Parses a frame rate: a finite number above 0.
pub fn parse_fps(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(fps) if fps.is_finite() && fps > 0.0 => Ok(fps),
        _ => Err(format!("{text:?} is not a frame rate above 0")),
    }
}

/// Lets go of what a command has finished with (its documents, a reduction's attempt), without
/// freeing it piece by piece: the process exits right after, and the operating system reclaims
/// a big document's memory at once far faster than the allocator returns it track by track and
/// trims its heap (a few milliseconds on large takes).
pub fn release<T>(finished: T) {
    std::mem::forget(finished);
}

pub use clipscope_core::text::thousands;

/// `text` with the five XML special characters escaped: for XML (JUnit reports) and HTML
/// (the review page) text and attribute values alike.
pub fn escape_markup(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c => out.push(c),
        }
    }
    out
}
