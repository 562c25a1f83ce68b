//! Writing JSON text: [`Out`], a writer with optional indentation that collects its text in
//! memory or streams finished pieces to a [`Write`], and [`write_str`] for string literals.
//! Numbers go through [`number`](super::number). Every format writer that builds JSON by hand
//! (three.js, legacy three.js, PlayCanvas, Lottie) writes through this.

use std::io::Write;

use serde_json::value::RawValue;

use super::number::write_f32;
use crate::formats::WriteOptions;
use crate::model::{Extras, Values};

/// Where a writer's finished pieces go.
enum Sink<'a> {
    /// Kept in memory, in order.
    Collect(Vec<Vec<u8>>),
    /// Written as they are finished; the first error stops further writes and is kept.
    Stream {
        /// The destination.
        to: &'a mut dyn Write,
        /// The first write error, if any.
        error: Option<std::io::Error>,
    },
}

impl Sink<'_> {
    /// Takes one finished piece.
    fn accept(&mut self, piece: Vec<u8>) {
        match self {
            Sink::Collect(pieces) => pieces.push(piece),
            Sink::Stream { to, error } => {
                if error.is_none()
                    && let Err(e) = to.write_all(&piece)
                {
                    *error = Some(e);
                }
            }
        }
    }
}

/// A JSON writer with optional indentation (also used by the legacy writer).
pub(crate) struct Out<'a> {
    /// Where finished pieces of the text go (see [`Out::flush`]).
    sink: Sink<'a>,
    /// The text after the finished pieces.
    pub(crate) buf: Vec<u8>,
    /// Indent objects and arrays of objects.
    pub(crate) pretty: bool,
    /// Decimal places for numbers, if rounding.
    precision: Option<u32>,
    /// Current nesting depth.
    depth: usize,
    /// True right after an opening bracket (no comma needed).
    first: bool,
}

impl<'a> Out<'a> {
    /// An empty writer at `depth` that collects its text in memory.
    pub(crate) fn new(opts: &WriteOptions, depth: usize, capacity: usize) -> Out<'a> {
        Out {
            sink: Sink::Collect(Vec::new()),
            buf: Vec::with_capacity(capacity),
            pretty: opts.pretty,
            precision: opts.precision,
            depth,
            first: true,
        }
    }

    /// An empty writer at depth 0 that writes each finished piece to `to` as it goes (the first
    /// write error stops further writes and is returned by [`Out::finish`]).
    pub(crate) fn streaming(
        opts: &WriteOptions,
        capacity: usize,
        to: &'a mut dyn Write,
    ) -> Out<'a> {
        let mut out = Out::new(opts, 0, capacity);
        out.sink = Sink::Stream { to, error: None };
        out
    }

    /// The current nesting depth (for pieces written elsewhere at the same depth).
    pub(crate) fn depth(&self) -> usize {
        self.depth
    }

    /// Whether the next member or element is the first of its container (no comma before it).
    pub(crate) fn set_first(&mut self, first: bool) {
        self.first = first;
    }

    /// Ends the current piece, so large parts written elsewhere can follow without a copy.
    fn flush(&mut self) {
        if !self.buf.is_empty() {
            let piece = std::mem::take(&mut self.buf);
            self.sink.accept(piece);
        }
    }

    /// Appends a finished part as its own piece.
    pub(crate) fn part(&mut self, part: Vec<u8>) {
        self.flush();
        self.sink.accept(part);
    }

    /// Finishes the text: all pieces in order (collecting), or the outcome of the writes.
    pub(crate) fn finish(mut self) -> std::io::Result<Vec<Vec<u8>>> {
        self.flush();
        match self.sink {
            Sink::Collect(pieces) => Ok(pieces),
            Sink::Stream { error: Some(e), .. } => Err(e),
            Sink::Stream { error: None, .. } => Ok(Vec::new()),
        }
    }

    /// A newline and the current indentation (pretty mode only).
    fn newline(&mut self) {
        if self.pretty {
            self.buf.push(b'\n');
            for _ in 0..self.depth {
                self.buf.extend_from_slice(b"  ");
            }
        }
    }

    /// Opens an object or array.
    pub(crate) fn open(&mut self, bracket: u8) {
        self.buf.push(bracket);
        self.depth += 1;
        self.first = true;
    }

    /// Closes an object or array.
    pub(crate) fn close(&mut self, bracket: u8) {
        self.depth -= 1;
        if !self.first {
            self.newline();
        }
        self.buf.push(bracket);
        self.first = false;
    }

    /// Starts the next member or element: a comma if needed and a new line.
    pub(crate) fn next(&mut self) {
        if !self.first {
            self.buf.push(b',');
        }
        self.first = false;
        self.newline();
    }

    /// Starts member `key`.
    pub(crate) fn key(&mut self, key: &str) {
        self.next();
        write_str(&mut self.buf, key);
        self.buf.push(b':');
        if self.pretty {
            self.buf.push(b' ');
        }
    }

    /// A numeric array on one line.
    pub(crate) fn f32_array(&mut self, values: &[f32]) {
        self.buf.reserve(values.len() * 10 + 2);
        self.buf.push(b'[');
        for (i, &v) in values.iter().enumerate() {
            if i > 0 {
                self.separator();
            }
            write_f32(&mut self.buf, v, self.precision);
        }
        self.buf.push(b']');
        self.first = false;
    }

    /// `,` or `, ` between inline array elements.
    pub(crate) fn separator(&mut self) {
        self.buf.push(b',');
        if self.pretty {
            self.buf.push(b' ');
        }
    }

    /// A values array of any kind on one line.
    pub(crate) fn values(&mut self, values: &Values) {
        match values {
            Values::Numbers(v) => self.f32_array(v),
            Values::Bools(v) => {
                self.buf.push(b'[');
                for (i, &b) in v.iter().enumerate() {
                    if i > 0 {
                        self.separator();
                    }
                    self.buf
                        .extend_from_slice(if b { b"true" } else { b"false" });
                }
                self.buf.push(b']');
            }
            Values::Strings(v) => {
                self.buf.push(b'[');
                for (i, s) in v.iter().enumerate() {
                    if i > 0 {
                        self.separator();
                    }
                    write_str(&mut self.buf, s);
                }
                self.buf.push(b']');
            }
        }
    }

    /// Raw JSON text, verbatim.
    pub(crate) fn raw(&mut self, raw: &RawValue) {
        self.buf.extend_from_slice(raw.get().as_bytes());
    }

    /// The extras, skipping keys already written.
    pub(crate) fn extras(&mut self, extras: &Extras, written: &[&str]) {
        for (k, v) in &extras.0 {
            if !written.contains(&k.as_str()) {
                self.key(k);
                self.raw(v);
            }
        }
    }
}

/// Appends `s` as a JSON string literal.
pub(crate) fn write_str(buf: &mut Vec<u8>, s: &str) {
    buf.push(b'"');
    let bytes = s.as_bytes();
    let mut start = 0;
    for (i, &b) in bytes.iter().enumerate() {
        let escape: &[u8] = match b {
            b'"' => b"\\\"",
            b'\\' => b"\\\\",
            b'\n' => b"\\n",
            b'\r' => b"\\r",
            b'\t' => b"\\t",
            0x08 => b"\\b",
            0x0c => b"\\f",
            0..=0x1f => b"",
            _ => continue,
        };
        buf.extend_from_slice(&bytes[start..i]);
        if escape.is_empty() {
            const HEX: &[u8; 16] = b"0123456789abcdef";
            buf.extend_from_slice(b"\\u00");
            buf.push(HEX[(b >> 4) as usize]);
            buf.push(HEX[(b & 15) as usize]);
        } else {
            buf.extend_from_slice(escape);
        }
        start = i + 1;
    }
    buf.extend_from_slice(&bytes[start..]);
    buf.push(b'"');
}
