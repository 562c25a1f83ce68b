//! `clipscope.toml`: how a repository tunes validation.
//!
//! The file is found by walking up from the first checked path (or given with `--config`); the
//! editor walks up from each document's folder. Its folder is the *root* that globs and
//! baseline paths are relative to. Example:
//!
//! ```toml
//! rig = "assets/rigs/hero.json"          # optional: report tracks that bind to no node
//! clips = ["assets/anim/**/*.json", "*.glb"]  # optional: the clip files (for `git setup`)
//! loop-names = ["loop", "cycle", "walk", "run"]
//!
//! [rules]                                # per-rule level: "off", "warning" or "error"
//! redundant-keys = "off"
//! loop-seam = "error"
//!
//! [tolerances]
//! quaternion-length = 0.001              # non-unit-quaternion
//! loop-seam = 0.001                      # largest first/last pose difference of a loop
//! duration-slack = 0.1                   # duration-longer-than-keys, fraction of the last key
//!
//! [[overrides]]                          # later overrides win
//! files = ["assets/loops/**"]
//! loop = true                            # every clip in these files is a loop
//! rules = { constant-track = "off" }
//! ```
//!
//! Unknown keys and rule codes (codes not in the [rule registry](mod@super::rules)) are errors (exit
//! status 2), so a typo never silently disables a check. `parse` cannot be turned off.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

use globset::{Glob, GlobSet, GlobSetBuilder};
use serde::{Deserialize, Serialize};

use super::rules::{not_for, not_for_in_memory, rule};
use crate::formats::Format;
use crate::model::Severity;
use crate::model::ops::lint::LintSettings;

/// The config file name looked for in the checked folder and its ancestors.
pub const CONFIG_NAME: &str = "clipscope.toml";

/// What config may set a rule to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// The rule is not checked.
    Off,
    /// Findings are warnings.
    Warning,
    /// Findings are errors.
    Error,
}

/// Tolerances; `None` keeps the default (or the value set before).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Tolerances {
    /// See [`LintSettings::quaternion_tolerance`].
    pub quaternion_length: Option<f64>,
    /// See [`LintSettings::loop_tolerance`].
    pub loop_seam: Option<f64>,
    /// See [`LintSettings::duration_slack`].
    pub duration_slack: Option<f64>,
}

/// Settings for the files matching some globs.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Override {
    /// Globs relative to the root (`assets/loops/**`).
    pub files: Vec<String>,
    /// Forces the loop decision for every clip of the matching files.
    #[serde(rename = "loop")]
    pub is_loop: Option<bool>,
    /// Rule levels for the matching files.
    #[serde(default)]
    pub rules: BTreeMap<String, Level>,
    /// Tolerances for the matching files.
    #[serde(default)]
    pub tolerances: Tolerances,
}

/// The contents of `clipscope.toml`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct ConfigFile {
    /// Globs (relative to the root) of the repository's clip files: the files `clipscope git
    /// setup` routes through the clip diff driver (default: every clip file extension).
    pub clips: Option<Vec<String>>,
    /// A rig or model file (relative to the root) whose node names tracks must bind to.
    pub rig: Option<PathBuf>,
    /// Words that mark a clip as a loop (see [`LintSettings::loop_names`]).
    pub loop_names: Option<Vec<String>>,
    /// Rule levels for every file.
    #[serde(default)]
    pub rules: BTreeMap<String, Level>,
    /// Tolerances for every file.
    #[serde(default)]
    pub tolerances: Tolerances,
    /// Settings for some files, applied in order after the global ones.
    #[serde(default)]
    pub overrides: Vec<Override>,
}

/// A loaded config: the file's settings, where it came from and its compiled globs.
#[derive(Debug, Clone)]
pub struct Config {
    /// The folder paths are relative to: the config file's folder (else the working folder).
    pub root: PathBuf,
    /// The config file, when one was found or given.
    pub source: Option<PathBuf>,
    /// The parsed settings.
    pub file: ConfigFile,
    /// One glob set per override.
    globs: Vec<GlobSet>,
}

/// The settings for one file: lint tolerances and rule levels.
#[derive(Debug, Clone, Default)]
pub struct FileSettings {
    /// Tolerances, the loop decision and the rules config turns off, for the model rules.
    pub lint: LintSettings,
    /// Rule levels set by config (rules not listed keep their default severity).
    pub levels: BTreeMap<String, Level>,
}

impl FileSettings {
    /// The severity a finding of `code` gets, or `None` when the rule is off.
    pub fn severity(&self, code: &str, default: Severity) -> Option<Severity> {
        match self.levels.get(code) {
            Some(Level::Off) => None,
            Some(Level::Warning) => Some(Severity::Warning),
            Some(Level::Error) => Some(Severity::Error),
            None => Some(default),
        }
    }

    /// Whether the rule `code` is checked.
    pub fn enabled(&self, code: &str) -> bool {
        self.levels.get(code) != Some(&Level::Off)
    }

    /// The model rule settings for a file of `format`: besides the rules config turns off,
    /// the rules the [registry](mod@super::rules) does not apply to `format` are not run (and
    /// their fixes not applied).
    pub fn for_format(&self, format: Format) -> LintSettings {
        let mut lint = self.lint.clone();
        lint.off.extend(not_for(format).map(String::from));
        lint
    }

    /// [`for_format`](Self::for_format) for a document checked in memory, where the format's
    /// raw-file rules cannot run: the clip rules they stand in for run instead.
    pub fn for_format_in_memory(&self, format: Format) -> LintSettings {
        let mut lint = self.lint.clone();
        lint.off.extend(not_for_in_memory(format).map(String::from));
        lint
    }
}

impl Config {
    /// The built-in settings, rooted at `root`.
    pub fn default_at(root: PathBuf) -> Config {
        Config {
            root,
            source: None,
            file: ConfigFile::default(),
            globs: Vec::new(),
        }
    }

    /// Loads `--config FILE` when given, else the nearest `clipscope.toml` at or above `start`,
    /// else the defaults rooted at the working folder. Errors are one line naming the file.
    pub fn discover(explicit: Option<&Path>, start: &Path) -> Result<Config, ConfigError> {
        if let Some(path) = explicit {
            return Config::load(path);
        }
        let start = std::path::absolute(start).map_err(|e| ConfigError::io(start, e))?;
        let mut dir = if start.is_dir() {
            Some(start.as_path())
        } else {
            start.parent()
        };
        while let Some(d) = dir {
            let candidate = d.join(CONFIG_NAME);
            if candidate.is_file() {
                return Config::load(&candidate);
            }
            dir = d.parent();
        }
        let cwd = std::env::current_dir().map_err(ConfigError::WorkingFolder)?;
        Ok(Config::default_at(cwd))
    }

    /// Reads and checks the config file at `path`.
    pub fn load(path: &Path) -> Result<Config, ConfigError> {
        let text = std::fs::read_to_string(path).map_err(|e| ConfigError::io(path, e))?;
        let file: ConfigFile = toml::from_str(&text).map_err(|source| {
            let line = source
                .span()
                .map(|s| text[..s.start.min(text.len())].matches('\n').count() + 1);
            ConfigError::Syntax {
                path: path.to_path_buf(),
                line,
                source: Box::new(source),
            }
        })?;
        let absolute = std::path::absolute(path).map_err(|e| ConfigError::io(path, e))?;
        let root = absolute
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_else(|| PathBuf::from("."));
        Config::from_file(file, root, Some(absolute)).map_err(|source| ConfigError::Invalid {
            path: path.to_path_buf(),
            source,
        })
    }

    /// Checks rule codes and compiles the globs of `file`.
    pub fn from_file(
        file: ConfigFile,
        root: PathBuf,
        source: Option<PathBuf>,
    ) -> Result<Config, InvalidConfig> {
        let rule_maps = std::iter::once(&file.rules).chain(file.overrides.iter().map(|o| &o.rules));
        for rules in rule_maps {
            for (code, level) in rules {
                if rule(code).is_none() {
                    return Err(InvalidConfig::UnknownRule { code: code.clone() });
                }
                if code == "parse" && *level == Level::Off {
                    return Err(InvalidConfig::ParseOff);
                }
            }
        }
        let mut globs = Vec::new();
        for (i, o) in file.overrides.iter().enumerate() {
            let mut set = GlobSetBuilder::new();
            for pattern in &o.files {
                let glob = Glob::new(pattern).map_err(|source| InvalidConfig::BadGlob {
                    index: i,
                    pattern: pattern.clone(),
                    source,
                })?;
                set.add(glob);
            }
            globs.push(
                set.build()
                    .map_err(|source| InvalidConfig::GlobSet { index: i, source })?,
            );
        }
        Ok(Config {
            root,
            source,
            file,
            globs,
        })
    }

    /// `path` relative to the root with forward slashes; a path outside the root stays as given
    /// (an absolute one starts with `/`).
    pub fn relative(&self, path: &Path) -> String {
        use std::path::Component;
        let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
        let rel = absolute.strip_prefix(&self.root).unwrap_or(path);
        let mut text = String::new();
        for c in rel.components() {
            match c {
                Component::CurDir => {}
                Component::RootDir => text.push('/'),
                Component::Prefix(p) => text.push_str(&p.as_os_str().to_string_lossy()),
                other => {
                    if !text.is_empty() && !text.ends_with('/') {
                        text.push('/');
                    }
                    text.push_str(&other.as_os_str().to_string_lossy());
                }
            }
        }
        text
    }

    /// The settings for the file at `rel` (relative to the root): the global ones, then each
    /// matching override in order.
    pub fn settings_for(&self, rel: &str, rig_nodes: Option<&[String]>) -> FileSettings {
        let mut lint = LintSettings {
            rig_nodes: rig_nodes.map(<[String]>::to_vec),
            ..LintSettings::default()
        };
        if let Some(names) = &self.file.loop_names {
            lint.loop_names = names.clone();
        }
        let mut levels = self.file.rules.clone();
        apply_tolerances(&mut lint, &self.file.tolerances);
        for (o, globs) in self.file.overrides.iter().zip(&self.globs) {
            if globs.is_match(rel) {
                if o.is_loop.is_some() {
                    lint.is_loop = o.is_loop;
                }
                levels.extend(o.rules.iter().map(|(k, v)| (k.clone(), *v)));
                apply_tolerances(&mut lint, &o.tolerances);
            }
        }
        lint.off = levels
            .iter()
            .filter(|(_, level)| **level == Level::Off)
            .map(|(code, _)| code.clone())
            .collect();
        FileSettings { lint, levels }
    }
}

/// Why a config cannot be used (exit status 2). Its [`Display`](fmt::Display) is one line
/// naming the file.
#[derive(Debug)]
#[non_exhaustive]
pub enum ConfigError {
    /// A file or folder could not be read, or its absolute path not found.
    Io {
        /// The file or folder.
        path: PathBuf,
        /// What the file system said.
        source: std::io::Error,
    },
    /// The working folder (the root of the built-in settings) is unknown.
    WorkingFolder(std::io::Error),
    /// The file is not TOML, or has keys or values the config does not.
    Syntax {
        /// The file.
        path: PathBuf,
        /// The line of the culprit, when known.
        line: Option<usize>,
        /// What the TOML reader said.
        source: Box<toml::de::Error>,
    },
    /// The file's settings are refused.
    Invalid {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        source: InvalidConfig,
    },
}

impl ConfigError {
    /// A failure to read `path`.
    fn io(path: &Path, source: std::io::Error) -> ConfigError {
        ConfigError::Io {
            path: path.to_path_buf(),
            source,
        }
    }
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConfigError::Io { path, source } => write!(f, "{}: {source}", path.display()),
            ConfigError::WorkingFolder(e) => write!(f, "working folder: {e}"),
            ConfigError::Syntax { path, line, source } => {
                write!(f, "{}", path.display())?;
                if let Some(line) = line {
                    write!(f, " (line {line})")?;
                }
                let first = source.message().lines().next().unwrap_or("");
                write!(f, ": {first}")
            }
            ConfigError::Invalid { path, source } => write!(f, "{}: {source}", path.display()),
        }
    }
}

impl std::error::Error for ConfigError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ConfigError::Io { source, .. } | ConfigError::WorkingFolder(source) => Some(source),
            ConfigError::Syntax { source, .. } => Some(source.as_ref()),
            ConfigError::Invalid { source, .. } => Some(source),
        }
    }
}

/// What is wrong with a config's settings ([`Config::from_file`]). Its
/// [`Display`](fmt::Display) is one line, without the file.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum InvalidConfig {
    /// A rule code not in the [rule registry](mod@super::rules).
    UnknownRule {
        /// The code.
        code: String,
    },
    /// The `parse` rule turned off.
    ParseOff,
    /// An override's glob does not parse.
    BadGlob {
        /// The override's index.
        index: usize,
        /// The glob.
        pattern: String,
        /// What globset said.
        source: globset::Error,
    },
    /// An override's globs do not compile together.
    GlobSet {
        /// The override's index.
        index: usize,
        /// What globset said.
        source: globset::Error,
    },
}

impl fmt::Display for InvalidConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InvalidConfig::UnknownRule { code } => write!(f, "unknown rule `{code}` in [rules]"),
            InvalidConfig::ParseOff => f.write_str("the `parse` rule cannot be turned off"),
            InvalidConfig::BadGlob {
                index,
                pattern,
                source,
            } => write!(
                f,
                "overrides[{index}].files: bad glob `{pattern}`: {source}"
            ),
            InvalidConfig::GlobSet { index, source } => {
                write!(f, "overrides[{index}].files: {source}")
            }
        }
    }
}

impl std::error::Error for InvalidConfig {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            InvalidConfig::BadGlob { source, .. } | InvalidConfig::GlobSet { source, .. } => {
                Some(source)
            }
            InvalidConfig::UnknownRule { .. } | InvalidConfig::ParseOff => None,
        }
    }
}

/// Copies the tolerances that are set into `lint`.
fn apply_tolerances(lint: &mut LintSettings, t: &Tolerances) {
    if let Some(v) = t.quaternion_length {
        lint.quaternion_tolerance = v;
    }
    if let Some(v) = t.loop_seam {
        lint.loop_tolerance = v;
    }
    if let Some(v) = t.duration_slack {
        lint.duration_slack = v;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(text: &str) -> Result<Config, String> {
        let file: ConfigFile = toml::from_str(text).map_err(|e| e.to_string())?;
        Config::from_file(file, PathBuf::from("/repo"), None).map_err(|e| e.to_string())
    }

    #[test]
    fn paths_are_relative_to_the_root_with_forward_slashes() {
        let c = Config::default_at(PathBuf::from("/repo"));
        assert_eq!(
            c.relative(Path::new("/repo/assets/./walk.json")),
            "assets/walk.json"
        );
        // Outside the root: the absolute path, once slashed (SARIF makes it a file:// URI).
        assert_eq!(
            c.relative(Path::new("/elsewhere/run.json")),
            "/elsewhere/run.json"
        );
    }

    #[test]
    fn overrides_apply_in_order_to_matching_files() {
        let c = config(
            r#"
            [rules]
            redundant-keys = "off"
            [tolerances]
            loop-seam = 0.01
            [[overrides]]
            files = ["assets/loops/**"]
            loop = true
            rules = { redundant-keys = "error" }
            "#,
        )
        .unwrap();
        let plain = c.settings_for("assets/jump.json", None);
        assert_eq!(plain.severity("redundant-keys", Severity::Warning), None);
        assert!(!plain.lint.checks("redundant-keys"));
        assert!(
            !plain
                .for_format(Format::Lottie)
                .checks("duration-longer-than-keys")
        );
        assert!(
            plain
                .for_format(Format::ThreeJs)
                .checks("duration-longer-than-keys")
        );
        assert_eq!(plain.lint.is_loop, None);
        assert_eq!(plain.lint.loop_tolerance, 0.01);
        let looped = c.settings_for("assets/loops/a/b.json", None);
        assert_eq!(looped.lint.is_loop, Some(true));
        assert_eq!(
            looped.severity("redundant-keys", Severity::Warning),
            Some(Severity::Error)
        );
        assert!(looped.lint.checks("redundant-keys"));
        assert_eq!(
            looped.severity("loop-seam", Severity::Warning),
            Some(Severity::Warning)
        );
    }

    #[test]
    fn typos_are_errors() {
        assert!(
            config("[rules]\nredundant-key = \"off\"")
                .unwrap_err()
                .contains("redundant-key")
        );
        assert!(config("[rules]\nparse = \"off\"").is_err());
        assert!(config("[tolerance]\n").is_err());
        assert!(config("[rules]\nloop-seam = \"loud\"").is_err());
        assert!(config("[[overrides]]\nfiles = [\"a/[\"]").is_err());
    }

    #[test]
    fn load_errors_name_the_file_and_line() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(CONFIG_NAME);
        std::fs::write(
            &path,
            "loop-names = [\"walk\"]\n[rules]\nloop-seam = \"loud\"\n",
        )
        .unwrap();
        let e = Config::load(&path).unwrap_err();
        assert!(
            matches!(e, ConfigError::Syntax { line: Some(3), .. }),
            "{e:?}"
        );
        let text = e.to_string();
        assert!(
            text.starts_with(&format!("{} (line 3): ", path.display())),
            "{text}"
        );
        assert!(!text.contains('\n'), "{text}");
        std::fs::write(&path, "[rules]\nparse = \"off\"\n").unwrap();
        let e = Config::load(&path).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!("{}: the `parse` rule cannot be turned off", path.display())
        );
        assert!(std::error::Error::source(&e).is_some());
        let e = Config::load(&dir.path().join("none.toml")).unwrap_err();
        assert!(matches!(e, ConfigError::Io { .. }), "{e:?}");
    }

    #[test]
    fn paths_are_relative_with_forward_slashes() {
        let c = Config::default_at(PathBuf::from("/repo"));
        assert_eq!(
            c.relative(Path::new("/repo/assets/a.json")),
            "assets/a.json"
        );
    }
}
