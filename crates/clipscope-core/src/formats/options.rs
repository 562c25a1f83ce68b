//! How to read and how to write: the options every reader and writer takes.

use std::sync::Arc;

use super::LoadProgress;

/// How a file is read: what its content implies and where the read reports progress. Every
/// reader takes the same options.
#[derive(Debug, Clone)]
pub struct ReadOptions {
    /// Frames per second of the clips made from a legacy model's numbered morph targets
    /// (`horse_A_001`, …); three.js's loaders and the horse example use 10.
    pub morph_fps: f64,
    /// Where the read reports how far it got and learns that it should stop (the editor's
    /// background loads); `None` reads to the end.
    pub progress: Option<Arc<LoadProgress>>,
    /// The largest file (and glTF buffer file) read, in bytes; larger ones are a
    /// [`ReadErrorKind::TooLarge`](super::ReadErrorKind::TooLarge) error. Parsing takes about
    /// three times a file's size in memory, so this bounds a read's memory.
    pub max_file_size: u64,
}

impl Default for ReadOptions {
    fn default() -> ReadOptions {
        ReadOptions {
            morph_fps: 10.0,
            progress: None,
            max_file_size: super::file_bytes::DEFAULT_MAX_FILE_SIZE,
        }
    }
}

impl ReadOptions {
    /// The same options reporting to (and stopping on) `progress`.
    pub fn with_progress(mut self, progress: Arc<LoadProgress>) -> ReadOptions {
        self.progress = Some(progress);
        self
    }
}

/// How [`write_bytes`](super::write_bytes) and [`write_file`](super::write_file) format numbers
/// and layout.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct WriteOptions {
    /// Round numbers to this many decimals (trailing zeros trimmed); `None` writes the shortest
    /// text that reads back to the same `f32`.
    pub precision: Option<u32>,
    /// Indent objects (two spaces); numeric arrays stay on one line.
    pub pretty: bool,
    /// Write the format's second layout, where it has one
    /// ([`FormatSpec::serialized_layout`](super::FormatSpec::serialized_layout)): for legacy
    /// three.js, each hierarchy entry as one key of flat arrays
    /// (`{"time":[…],"pos":[…],"rot":[…],"scl":[…]}`, the threejs-serialize-animation shape)
    /// instead of one key object per time. A document read in that shape keeps it either way.
    pub serialized: bool,
    /// How closely the destination's player must follow the source where the format plays
    /// keys otherwise than the model does (PlayCanvas quaternions, Euler angles, linear-only
    /// keys): the writer adds keys where it would stray further.
    pub tolerance: super::Tolerance,
    /// How glTF and GLB animation data is stored: quantized, meshopt-compressed (other
    /// formats ignore it).
    pub packing: Packing,
}

/// How a glTF or GLB writer packs animation data. The default stores every number as a 32-bit
/// float, uncompressed.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Packing {
    /// Rotations and morph weights as normalized 16-bit integers (core glTF allows them in
    /// animation samplers); key times, translations and scales stay floats.
    pub quantize: bool,
    /// Compress animation buffer views with `EXT_meshopt_compression` (the attribute codec;
    /// the quaternion filter for quantized rotations, the exponential filter for floats), and
    /// mark the extension required.
    pub meshopt: bool,
    /// With [`meshopt`](Packing::meshopt): also store the uncompressed data in a fallback
    /// buffer, so players without the extension read the file (the extension is then not
    /// required).
    pub fallback: bool,
    /// The largest change the exponential filter may make to a translation component (in the
    /// file's length unit) or a scale component (relative); 0 keeps floats to 24 bits.
    pub float_error: f64,
    /// Bits per component of quaternions through meshopt's quaternion filter (4 to 16; 0 means
    /// 16), for every rotation track unless [`rotation_error`](Packing::rotation_error) is set.
    pub rotation_bits: u8,
    /// With [`quantize`](Packing::quantize): each rotation track gets the fewest bits whose
    /// rounding moves the farthest point its node carries by about this much (in the file's
    /// length unit), so a hand keeps fewer bits than the hips; 0 uses
    /// [`rotation_bits`](Packing::rotation_bits) everywhere.
    pub rotation_error: f64,
    /// The most the exponential filter may move a key time, in seconds (0: 50 µs).
    pub time_error: f64,
}

impl Packing {
    /// Whether anything is packed (else the writer stores plain floats).
    pub fn any(&self) -> bool {
        self.quantize || self.meshopt
    }
}
