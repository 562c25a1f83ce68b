//! The meshoptimizer codec behind `EXT_meshopt_compression`, through the `meshopt` crate's
//! bindings: decoding a compressed buffer view (the attribute, triangle and index codecs, then
//! the octahedral, quaternion or exponential filter) and encoding one (the attribute codec,
//! format version 0, which is the only one the extension allows).
//!
//! Every precondition the C++ code asserts (element sizes, strides, counts) is checked here
//! first, so a malformed file is an error and never an abort; the decoders themselves reject
//! malformed or truncated data with an error code.

use std::os::raw::c_void;

use meshopt::ffi;

/// How a compressed view's bytes were encoded (`mode`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    /// Vertex attributes and animation data: `count` elements of `byteStride` bytes.
    Attributes,
    /// Triangle indices.
    Triangles,
    /// Other index sequences.
    Indices,
}

/// The filter applied after decoding (`filter`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Filter {
    /// None.
    None,
    /// Octahedral unit vectors (stride 4 or 8).
    Octahedral,
    /// Unit quaternions with three components and the index of the largest (stride 8).
    Quaternion,
    /// Floats as an 8-bit exponent and a 24-bit mantissa (stride a multiple of 4).
    Exponential,
}

impl Mode {
    /// The mode named `name` in the file.
    pub(crate) fn parse(name: &str) -> Option<Mode> {
        Some(match name {
            "ATTRIBUTES" => Mode::Attributes,
            "TRIANGLES" => Mode::Triangles,
            "INDICES" => Mode::Indices,
            _ => return None,
        })
    }
}

impl Filter {
    /// The filter named `name` in the file.
    pub(crate) fn parse(name: &str) -> Option<Filter> {
        Some(match name {
            "NONE" => Filter::None,
            "OCTAHEDRAL" => Filter::Octahedral,
            "QUATERNION" => Filter::Quaternion,
            "EXPONENTIAL" => Filter::Exponential,
            _ => return None,
        })
    }

    /// The filter's name in the file.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Filter::None => "NONE",
            Filter::Octahedral => "OCTAHEDRAL",
            Filter::Quaternion => "QUATERNION",
            Filter::Exponential => "EXPONENTIAL",
        }
    }
}

/// Decodes `count` elements of `stride` bytes from `data` (see the module docs); the reason
/// in words when the layout is not one the extension allows or the data does not decode.
pub(crate) fn decode(
    data: &[u8],
    count: usize,
    stride: usize,
    mode: Mode,
    filter: Filter,
) -> Result<Vec<u8>, String> {
    let size = count
        .checked_mul(stride)
        .filter(|&s| s <= 1 << 30)
        .ok_or_else(|| {
            format!("{count} elements of {stride} bytes are more than clipscope reads")
        })?;
    let mut out = vec![0u8; size];
    let status = match mode {
        Mode::Attributes => {
            if stride == 0 || stride > 256 || !stride.is_multiple_of(4) {
                return Err(format!(
                    "byteStride {stride} is not a multiple of 4 between 4 and 256"
                ));
            }
            // SAFETY: `out` holds `count * stride` bytes, the stride meets the decoder's
            // preconditions (checked above), and the decoder reads at most `data.len()` bytes.
            unsafe {
                ffi::meshopt_decodeVertexBuffer(
                    out.as_mut_ptr().cast::<c_void>(),
                    count,
                    stride,
                    data.as_ptr(),
                    data.len(),
                )
            }
        }
        Mode::Triangles | Mode::Indices => {
            if stride != 2 && stride != 4 {
                return Err(format!("byteStride {stride} is not 2 or 4 for indices"));
            }
            if mode == Mode::Triangles && !count.is_multiple_of(3) {
                return Err(format!("{count} indices are not whole triangles"));
            }
            // SAFETY: `out` holds `count * stride` bytes, the index size is 2 or 4 and the
            // triangle count whole (checked above); the decoder reads at most `data.len()`.
            unsafe {
                let decode = if mode == Mode::Triangles {
                    ffi::meshopt_decodeIndexBuffer
                } else {
                    ffi::meshopt_decodeIndexSequence
                };
                decode(
                    out.as_mut_ptr().cast::<c_void>(),
                    count,
                    stride,
                    data.as_ptr(),
                    data.len(),
                )
            }
        }
    };
    if status != 0 {
        return Err(format!(
            "the compressed data does not decode (error {status})"
        ));
    }
    if filter != Filter::None && mode != Mode::Attributes {
        return Err(format!(
            "filter {} applies to ATTRIBUTES only",
            filter.name()
        ));
    }
    let ok = match filter {
        Filter::None => true,
        Filter::Octahedral => stride == 4 || stride == 8,
        Filter::Quaternion => stride == 8,
        Filter::Exponential => stride.is_multiple_of(4),
    };
    if !ok {
        return Err(format!(
            "filter {} does not allow byteStride {stride}",
            filter.name()
        ));
    }
    decode_filter(&mut out, count, stride, filter);
    Ok(out)
}

/// `data` (`count` elements of `stride` bytes, a multiple of 4 up to 256) compressed with the
/// attribute codec, format version 0.
pub(crate) fn encode_attributes(data: &[u8], stride: usize) -> Vec<u8> {
    assert!(
        stride > 0 && stride <= 256 && stride.is_multiple_of(4),
        "attribute stride {stride}"
    );
    let count = data.len() / stride;
    // SAFETY: a pure function of its arguments.
    let bound = unsafe { ffi::meshopt_encodeVertexBufferBound(count, stride) };
    let mut out = vec![0u8; bound];
    // SAFETY: `out` holds the bound the encoder asks for, `data` holds `count * stride` bytes,
    // the stride meets the encoder's preconditions (asserted above) and version 0 is valid.
    let written = unsafe {
        ffi::meshopt_encodeVertexBufferLevel(
            out.as_mut_ptr(),
            out.len(),
            data.as_ptr().cast::<c_void>(),
            count,
            stride,
            2,
            0,
        )
    };
    out.truncate(written);
    out
}

/// Unit quaternions (`x, y, z, w` each) in the quaternion filter's form with `bits` (4 to 16)
/// per component: four 16-bit integers each, as bytes.
pub(crate) fn filter_quaternions(quaternions: &[[f32; 4]], bits: i32) -> Vec<u8> {
    meshopt::encoding::encode_filter_quat(quaternions, bits.clamp(4, 16))
        .iter()
        .flatten()
        .flat_map(|c| c.to_le_bytes())
        .collect()
}

/// `values` (`n` components per element, 1 to 64) in the exponential filter's form with
/// `bits` (1 to 24) of mantissa, each component sharing one exponent over all elements: `n`
/// 32-bit words per element, as bytes.
pub(crate) fn filter_exponential(values: &[f32], n: usize, bits: i32) -> Vec<u8> {
    assert!((1..=64).contains(&n), "{n} components");
    let count = values.len() / n;
    let mut out = vec![0u8; count * n * 4];
    // SAFETY: `out` holds `count` elements of `n * 4` bytes (a multiple of 4 up to 256), and
    // `values` holds `count * n` floats.
    unsafe {
        ffi::meshopt_encodeFilterExp(
            out.as_mut_ptr().cast::<c_void>(),
            count,
            n * 4,
            bits.clamp(1, 24),
            values.as_ptr(),
            ffi::meshopt_EncodeExpMode_meshopt_EncodeExpSharedComponent,
        );
    }
    out
}

/// What the filter stage of a decoder makes of `filtered` (the output of [`filter_quaternions`]
/// or [`filter_exponential`]): the bytes a reader sees, which an accessor's `min`/`max` and the
/// uncompressed fallback must match.
pub(crate) fn unfilter(filtered: &[u8], stride: usize, filter: Filter) -> Vec<u8> {
    let mut out = filtered.to_vec();
    let count = out.len() / stride;
    decode_filter(&mut out, count, stride, filter);
    out
}

/// Runs the decoder's `filter` stage in place over the first `count` elements of `stride`
/// bytes of `out`. The caller has checked that the filter allows `stride` (8 for quaternions,
/// 4 or 8 for octahedral, a multiple of 4 for exponential) and that `out` holds `count`
/// elements.
fn decode_filter(out: &mut [u8], count: usize, stride: usize, filter: Filter) {
    assert!(out.len() >= count * stride, "filter input too short");
    let ptr = out.as_mut_ptr().cast::<c_void>();
    // SAFETY: `out` holds `count` elements of `stride` bytes (asserted above), a stride the
    // filter allows (the callers' contract); the filters work in place.
    unsafe {
        match filter {
            Filter::None => {}
            Filter::Octahedral => ffi::meshopt_decodeFilterOct(ptr, count, stride),
            Filter::Quaternion => ffi::meshopt_decodeFilterQuat(ptr, count, stride),
            Filter::Exponential => ffi::meshopt_decodeFilterExp(ptr, count, stride),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attributes_round_trip_exactly() {
        let floats: Vec<u8> = (0..300)
            .map(|i| (i as f32 * 0.37).sin())
            .flat_map(f32::to_le_bytes)
            .collect();
        let packed = encode_attributes(&floats, 12);
        assert_eq!(packed[0], 0xa0, "version 0 header");
        let back = decode(&packed, 100, 12, Mode::Attributes, Filter::None).unwrap();
        assert_eq!(back, floats);
    }

    #[test]
    fn filters_decode_as_the_decoder_does() {
        let q = [[0.0f32, 0.0, 0.0, 1.0], [0.5, -0.5, 0.5, 0.5]];
        let filtered = filter_quaternions(&q, 16);
        let packed = encode_attributes(&filtered, 8);
        let decoded = decode(&packed, 2, 8, Mode::Attributes, Filter::Quaternion).unwrap();
        assert_eq!(decoded, unfilter(&filtered, 8, Filter::Quaternion));
        let c: Vec<i16> = decoded
            .chunks_exact(2)
            .map(|b| i16::from_le_bytes([b[0], b[1]]))
            .collect();
        assert_eq!(c[3], 32767);
        assert!((c[4] as f32 / 32767.0 - 0.5).abs() < 1e-4);
        let v = [[1.5f32, -0.001, 1000.0]];
        let e = unfilter(
            &filter_exponential(v.as_flattened(), 3, 24),
            12,
            Filter::Exponential,
        );
        let f: Vec<f32> = e
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect();
        for (got, want) in f.iter().zip([1.5f32, -0.001, 1000.0]) {
            assert!((got - want).abs() <= want.abs() * 1e-6, "{got} vs {want}");
        }
    }

    #[test]
    fn bad_layouts_and_data_are_errors() {
        assert!(decode(&[0; 8], 2, 6, Mode::Attributes, Filter::None).is_err());
        assert!(decode(&[0; 8], 2, 12, Mode::Attributes, Filter::None).is_err());
        assert!(decode(&[0; 8], 4, 2, Mode::Triangles, Filter::None).is_err());
        let packed = encode_attributes(&[0u8; 16], 4);
        assert!(decode(&packed, 4, 4, Mode::Attributes, Filter::Quaternion).is_err());
        assert!(
            decode(
                &packed[..packed.len() - 1],
                4,
                4,
                Mode::Attributes,
                Filter::None
            )
            .is_err()
        );
    }
}
