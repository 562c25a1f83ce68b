//! How legacy three.js JSON (model format 3) reads numbers, in model files and in the format-3
//! geometries of io_three object files alike.

use crate::formats::json::{JsonKind, Located, Node};

/// How legacy three.js JSON reads numbers: like `JSON.parse`, with `null` called out (three.js
/// stores it as 0), and `f32` arrays the `text -> f64 -> f32` way of a `Float32Array`.
pub(crate) trait Numbers {
    /// The value as a number (`f64`, like `JSON.parse`).
    fn f64(&self) -> Result<f64, Located>;
    /// The value as a number rounded to `f32`.
    fn f32(&self) -> Result<f32, Located>;
    /// The value as an array of numbers (`f64`).
    fn numbers(&self) -> Result<Vec<f64>, Located>;
    /// The value as an array of numbers rounded to `f32`.
    fn f32s(&self) -> Result<Vec<f32>, Located>;
}

impl Numbers for Node<'_> {
    fn f64(&self) -> Result<f64, Located> {
        match self.kind() {
            JsonKind::Number => {
                serde_json::from_str::<f64>(self.raw.get()).map_err(|_| self.out_of_range(64))
            }
            JsonKind::Null => Err(Located::new(
                &self.path,
                "null is not a number (three.js stores 0)",
            )),
            kind => Err(Located::new(
                &self.path,
                format!("{} is not a number", kind.describe()),
            )),
        }
    }

    fn f32(&self) -> Result<f32, Located> {
        let f = self.f64()? as f32;
        if f.is_infinite() {
            return Err(self.out_of_range(32));
        }
        Ok(f)
    }

    fn numbers(&self) -> Result<Vec<f64>, Located> {
        if self.kind() != JsonKind::Array {
            return Err(self.wrong("an array of numbers"));
        }
        if let Ok(v) = serde_json::from_str::<Vec<f64>>(self.raw.get()) {
            return Ok(v);
        }
        // Something in it is not a number: find it, for the path.
        self.array("an array of numbers")?
            .iter()
            .map(Numbers::f64)
            .collect()
    }

    fn f32s(&self) -> Result<Vec<f32>, Located> {
        let values = self.numbers()?;
        let mut out = Vec::with_capacity(values.len());
        for (i, v) in values.into_iter().enumerate() {
            let f = v as f32;
            if f.is_infinite() {
                let elems = self.array("an array of numbers")?;
                return Err(elems[i].out_of_range(32));
            }
            out.push(f);
        }
        Ok(out)
    }
}
