//! Why headless rendering failed, typed so callers can tell a machine without a GPU adapter
//! (tests skip) from a renderer that broke (tests fail).

use std::fmt;

/// A headless rendering failure; its `Display` is the one-line message `clipscope render`
/// prints.
#[derive(Debug, Clone, PartialEq, Eq)]
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
    /// A frame could not be drawn or read back (an unusable size, a failed read-back).
    Frame(String),
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
            RenderError::Frame(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for RenderError {}

/// The message, for callers whose errors are one-line strings (the CLI's `?`).
impl From<RenderError> for String {
    fn from(e: RenderError) -> String {
        e.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_are_one_line() {
        for e in [
            RenderError::NoAdapter,
            RenderError::Device {
                adapter: "llvmpipe".into(),
                reason: "out of memory".into(),
            },
            RenderError::Frame("cannot render a 0×0 frame".into()),
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
}
