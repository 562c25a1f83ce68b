//! Validating a document open in the editor exactly as `clipscope validate` checks its file.
//!
//! The config is the nearest `clipscope.toml` at or above the document's folder (found afresh
//! for each check, so editing the config shows at the next one), with its rig; the input is the
//! file itself while the document is unedited, and otherwise the bytes saving it would write,
//! so the findings are the ones the CLI prints for the file on disk now, or after Save. Both go
//! through [`check_bytes`], the CLI's own function. A document that cannot be saved in its
//! format (or has no file and no format rules to run) is checked in memory with the same
//! settings ([`check_document`]).

use std::path::{Path, PathBuf};

use super::ValidateError;
use super::config::{Config, FileSettings};
use super::engine::{check_bytes, check_document};
use super::report::FileReport;
use super::rig::rig_nodes;
use crate::formats::{self, Document, ReadOptions, WriteOptions};
use crate::model::ops::lint::LintSettings;

/// What the check of one open document found, and with which settings.
#[derive(Debug, Clone)]
pub struct DocumentCheck {
    /// The findings, exactly as `clipscope validate FILE --format json` lists them.
    pub report: FileReport,
    /// The `clipscope.toml` that applied, or `None` for the built-in settings.
    pub config: Option<PathBuf>,
    /// Why the config (or its rig) could not be used, when it could not: the built-in settings
    /// were used instead (the CLI would stop with exit status 2).
    pub config_error: Option<String>,
    /// The model rule settings the file got (config, tolerances, the rules that run for its
    /// format): what the editor's Fix applies.
    pub lint: LintSettings,
    /// What was checked: the file on disk, the bytes saving would write, or the document in
    /// memory.
    pub input: CheckedInput,
}

/// Which bytes a document's findings are about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CheckedInput {
    /// The file on disk (the document is unedited).
    File,
    /// What saving the edited document would write.
    Unsaved,
    /// The document in memory (it cannot be saved in its format, or has no file); format
    /// rules that need the file did not run.
    Memory,
}

/// The config for a document whose file is (or would be) `path`: the nearest `clipscope.toml`
/// at or above its folder, its rig's node names, or the built-in settings and the reason when
/// the config cannot be used.
fn settings_for(
    path: &Path,
    read: &ReadOptions,
) -> (FileSettings, Option<PathBuf>, Option<String>) {
    let folder = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let loaded = Config::discover(None, folder)
        .map_err(ValidateError::from)
        .and_then(|config| {
            let rig = config
                .file
                .rig
                .as_ref()
                .map(|r| rig_nodes(&config.root.join(r), read))
                .transpose()?;
            Ok((config, rig))
        });
    match loaded {
        Ok((config, rig)) => {
            let settings = config.settings_for(&config.relative(path), rig.as_deref());
            (settings, config.source, None)
        }
        Err(reason) => (FileSettings::default(), None, Some(reason.to_string())),
    }
}

/// Checks the open document `doc` (see the module docs); `edited` says whether it differs from
/// its file. `read` are the options the editor reads files with.
pub fn check_open_document(doc: &Document, edited: bool, read: &ReadOptions) -> DocumentCheck {
    let path = doc
        .path
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("untitled.{}", doc.format.extension())));
    let (settings, config, config_error) = settings_for(&path, read);
    let clips = doc.clips.len();
    let matches = |r: &FileReport| r.readable && r.clip_names.len() == clips;
    let on_disk = (!edited && doc.path.is_some())
        .then(|| std::fs::read(&path).ok())
        .flatten()
        .map(|bytes| check_bytes(&bytes, &path, &settings, read))
        .filter(matches);
    let (report, input) = match on_disk {
        Some(report) => (report, CheckedInput::File),
        None => {
            let saved = formats::check_writable(doc)
                .is_ok()
                .then(|| formats::write_bytes(doc, &WriteOptions::default()))
                .map(|bytes| check_bytes(&bytes, &path, &settings, read))
                .filter(matches);
            match saved {
                Some(report) => (report, CheckedInput::Unsaved),
                None => (check_document(doc, &path, &settings), CheckedInput::Memory),
            }
        }
    };
    let lint = match input {
        CheckedInput::Memory => settings.for_format_in_memory(doc.format),
        _ => settings.for_format(doc.format),
    };
    DocumentCheck {
        report,
        config,
        config_error,
        lint,
        input,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::{Format, read_file};
    use crate::model::{Clip, Track, TrackKind};

    fn clip_file(dir: &Path) -> PathBuf {
        let path = dir.join("jump.json");
        std::fs::write(
            &path,
            r#"{"name":"jump","duration":9,"tracks":[{"name":"a.position","type":"vector","times":[0,1],"values":[0,0,0,1,1,1]}]}"#,
        )
        .unwrap();
        path
    }

    #[test]
    fn the_nearest_config_applies_and_edits_are_checked_as_saved() {
        let dir = tempfile::tempdir().unwrap();
        let sub = dir.path().join("clips");
        std::fs::create_dir(&sub).unwrap();
        let path = clip_file(&sub);
        let read = ReadOptions::default();
        let mut doc = read_file(&path).unwrap();
        let codes = |c: &DocumentCheck| -> Vec<String> {
            c.report
                .problems
                .iter()
                .map(|f| f.problem.code.clone())
                .collect()
        };
        let plain = check_open_document(&doc, false, &read);
        assert_eq!(plain.input, CheckedInput::File);
        assert_eq!(plain.config, None);
        assert_eq!(codes(&plain), ["duration-longer-than-keys"]);

        std::fs::write(
            dir.path().join("clipscope.toml"),
            "[rules]\nduration-longer-than-keys = \"error\"\n",
        )
        .unwrap();
        let configured = check_open_document(&doc, false, &read);
        assert_eq!(
            configured.config,
            Some(std::path::absolute(dir.path().join("clipscope.toml")).unwrap())
        );
        assert_eq!(configured.report.errors(), 1);

        doc.clips[0].duration = 1.0;
        let edited = check_open_document(&doc, true, &read);
        assert_eq!(edited.input, CheckedInput::Unsaved);
        assert!(codes(&edited).is_empty(), "{:?}", codes(&edited));

        std::fs::write(
            dir.path().join("clipscope.toml"),
            "[rules]\nnope = \"off\"\n",
        )
        .unwrap();
        let broken = check_open_document(&doc, true, &read);
        assert!(broken.config_error.unwrap().contains("unknown rule `nope`"));
    }

    #[test]
    fn a_document_that_cannot_be_saved_is_checked_in_memory() {
        let t = Track::numeric(
            "a.position",
            TrackKind::Vector,
            vec![1.0, 0.0],
            vec![0.0; 6],
        );
        let doc = Document::new(Format::Gltf, vec![Clip::new("c", 1.0, vec![t])]);
        let check = check_open_document(&doc, true, &ReadOptions::default());
        assert_eq!(check.input, CheckedInput::Memory);
        assert_eq!(check.report.errors(), 1);
        assert_eq!(check.report.problems[0].problem.code, "unsorted-times");
    }
}
