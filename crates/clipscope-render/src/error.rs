//! Why headless rendering failed, typed so callers can tell a machine without a GPU adapter
//! (tests skip) from a renderer that broke (tests fail).

use std::fmt;

/// A headless rendering failure; its `Display` is the one-line message `clipscope render`
/// prints.
#[derive(Debug)]
#[non_exhaustive]
pub enum RenderError {
    /// No usable GPU adapter exists on this machine (not even a software one).
    NoAdapter,
    /// An adapter exists but opening a device on it failed.
    Device {
        /// The adapter's name.
        adapter: String,
        /// What wgpu said.
        reason: String,
    },
    /// A frame without pixels was asked for (a width or height of 0).
    EmptyFrame {
        /// The width asked for, in pixels.
        width: u32,
        /// The height asked for, in pixels.
        height: u32,
    },
    /// A frame larger than the device's biggest texture was asked for.
    FrameTooLarge {
        /// The width asked for, in pixels.
        width: u32,
        /// The height asked for, in pixels.
        height: u32,
        /// The largest texture side the device allows.
        max: u32,
    },
    /// Waiting for the GPU to finish the frame failed (it timed out).
    Unfinished(wgpu::PollError),
    /// The GPU went away before saying whether the frame could be read back.
    Dropped,
    /// The buffer holding the frame could not be mapped for reading.
    Map(wgpu::BufferAsyncError),
    /// The mapped frame could not be viewed.
    MappedRange(wgpu::MapRangeError),
    /// The pixels read back do not make a picture of the size asked for.
    WrongSize,
}

impl fmt::Display for RenderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RenderError::NoAdapter => f.write_str(
                "no GPU adapter found: rendering needs Vulkan, Metal, DX12 or GL \
                 (on Linux without a GPU, install Mesa's software Vulkan driver lavapipe, \
                 e.g. `apt install mesa-vulkan-drivers`)",
            ),
            RenderError::Device { adapter, reason } => {
                write!(f, "cannot open the GPU adapter {adapter}: {reason}")
            }
            RenderError::EmptyFrame { width, height } => {
                write!(f, "cannot render a {width}×{height} frame")
            }
            RenderError::FrameTooLarge { width, height, max } => write!(
                f,
                "cannot render a {width}×{height} frame: this GPU allows at most {max}×{max}"
            ),
            RenderError::Unfinished(e) => write!(f, "the GPU did not finish the frame: {e}"),
            RenderError::Dropped => f.write_str("the GPU dropped the frame"),
            RenderError::Map(e) => write!(f, "cannot read the frame back: {e}"),
            RenderError::MappedRange(e) => write!(f, "cannot read the frame back: {e}"),
            RenderError::WrongSize => f.write_str("the frame read back has the wrong size"),
        }
    }
}

impl std::error::Error for RenderError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            RenderError::Unfinished(e) => Some(e),
            RenderError::Map(e) => Some(e),
            RenderError::MappedRange(e) => Some(e),
            _ => None,
        }
    }
}

/// The message, for callers whose errors are one-line strings (the CLI's `?`).
impl From<RenderError> for String {
    fn from(e: RenderError) -> String {
        e.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::error::Error;

    #[test]
    fn messages_are_one_line() {
        for e in [
            RenderError::NoAdapter,
            RenderError::Device {
                adapter: "llvmpipe".into(),
                reason: "out of memory".into(),
            },
            RenderError::EmptyFrame {
                width: 0,
                height: 240,
            },
            RenderError::FrameTooLarge {
                width: 9000,
                height: 10,
                max: 8192,
            },
            RenderError::Unfinished(wgpu::PollError::Timeout),
            RenderError::Dropped,
            RenderError::Map(wgpu::BufferAsyncError),
            RenderError::WrongSize,
        ] {
            let text = String::from(e);
            assert!(!text.contains('\n'), "{text}");
        }
        assert_eq!(
            RenderError::Device {
                adapter: "llvmpipe".into(),
                reason: "out of memory".into(),
            }
            .to_string(),
            "cannot open the GPU adapter llvmpipe: out of memory"
        );
    }

    #[test]
    fn frame_sizes_are_named_in_the_message() {
        assert_eq!(
            RenderError::EmptyFrame {
                width: 0,
                height: 240
            }
            .to_string(),
            "cannot render a 0×240 frame"
        );
        assert_eq!(
            RenderError::FrameTooLarge {
                width: 9000,
                height: 10,
                max: 8192
            }
            .to_string(),
            "cannot render a 9000×10 frame: this GPU allows at most 8192×8192"
        );
    }

    #[test]
    fn wrapped_wgpu_errors_are_the_source() {
        let e = RenderError::Map(wgpu::BufferAsyncError);
        assert_eq!(
            e.to_string(),
            "cannot read the frame back: Error occurred when trying to async map a buffer"
        );
        assert!(e.source().is_some());
        assert!(RenderError::WrongSize.source().is_none());
    }
}
