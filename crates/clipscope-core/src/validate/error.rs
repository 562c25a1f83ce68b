//! [`ValidateError`]: why a validation run cannot start (exit status 2), whichever of its inputs
//! failed: a path to check, the config, the rig or the baseline.

use std::fmt;
use std::path::PathBuf;

use super::baseline::BaselineError;
use super::config::ConfigError;
use super::fix::FixError;
use super::rig::RigNodesError;

/// Why a validation run cannot start or finish (exit status 2). Its
/// [`Display`](fmt::Display) is the one-line message of the failure it wraps, which
/// [`source`](std::error::Error::source) gives.
#[derive(Debug)]
#[non_exhaustive]
pub enum ValidateError {
    /// A path to check (or a folder below it) could not be read.
    Io {
        /// The path.
        path: PathBuf,
        /// What the file system said.
        source: std::io::Error,
    },
    /// The config could not be found, read or used.
    Config(ConfigError),
    /// The rig's node names could not be read.
    Rig(RigNodesError),
    /// The baseline could not be read or written.
    Baseline(BaselineError),
    /// `--fix` could not back up or write a file.
    Fix(FixError),
}

impl fmt::Display for ValidateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ValidateError::Io { path, source } => write!(f, "{}: {source}", path.display()),
            ValidateError::Config(e) => e.fmt(f),
            ValidateError::Rig(e) => e.fmt(f),
            ValidateError::Baseline(e) => e.fmt(f),
            ValidateError::Fix(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for ValidateError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ValidateError::Io { source, .. } => Some(source),
            ValidateError::Config(e) => Some(e),
            ValidateError::Rig(e) => Some(e),
            ValidateError::Baseline(e) => Some(e),
            ValidateError::Fix(e) => Some(e),
        }
    }
}

impl From<ConfigError> for ValidateError {
    fn from(e: ConfigError) -> ValidateError {
        ValidateError::Config(e)
    }
}

impl From<RigNodesError> for ValidateError {
    fn from(e: RigNodesError) -> ValidateError {
        ValidateError::Rig(e)
    }
}

impl From<BaselineError> for ValidateError {
    fn from(e: BaselineError) -> ValidateError {
        ValidateError::Baseline(e)
    }
}

impl From<FixError> for ValidateError {
    fn from(e: FixError) -> ValidateError {
        ValidateError::Fix(e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::validate::{CheckOptions, Plan};

    #[test]
    fn a_plan_names_the_input_that_failed() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("missing.json");
        let e = Plan::new(std::slice::from_ref(&missing), &CheckOptions::default())
            .err()
            .unwrap();
        assert!(matches!(e, ValidateError::Io { .. }), "{e:?}");
        assert!(
            e.to_string()
                .starts_with(&format!("{}: ", missing.display())),
            "{e}"
        );
        let config = dir.path().join("c.toml");
        std::fs::write(&config, "[rules]\nno-such-rule = \"off\"\n").unwrap();
        let opts = CheckOptions {
            config: Some(config.clone()),
            ..CheckOptions::default()
        };
        let e = Plan::new(&[dir.path().to_path_buf()], &opts).err().unwrap();
        assert!(matches!(e, ValidateError::Config(_)), "{e:?}");
        assert_eq!(
            e.to_string(),
            format!(
                "{}: unknown rule `no-such-rule` in [rules]",
                config.display()
            )
        );
        let inner = std::error::Error::source(&e).unwrap();
        assert_eq!(inner.to_string(), e.to_string());
    }
}
