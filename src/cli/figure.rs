//! `--rig` for `render` and `info`: what a clip plays on, given by name (`hero`, `proxy`,
//! `names`, …) or as a file (a rig file or any model with a skeleton), and the companion model
//! next to a clip file.

use std::path::Path;

use clipscope_core::formats::Document;
use clipscope_scene::{FigureSource, Rig, companion_model};

/// The figures a document's clips may play on, as the command line sets them up.
pub struct Cast {
    /// The `--rig` file's figure, if `--rig` named a file.
    others: Vec<Rig>,
    /// The name `--rig` chose (the file's rig name for a file).
    pub choice: Option<String>,
    /// The model next to the document's file, if there is one.
    companion: Option<Rig>,
    /// The document's file name.
    file_name: Option<String>,
    /// What draws the document's compositions (Lottie artwork), if anything.
    artwork: Option<std::sync::Arc<dyn clipscope_core::model::picture::Artwork>>,
}

impl Cast {
    /// The cast for `doc` (read from `path`) and `--rig VALUE`: a VALUE naming an existing file
    /// is read as a figure (errors name the file), anything else is a figure's name.
    pub fn new(doc: &Document, path: &Path, rig: Option<&str>) -> Result<Cast, String> {
        let mut others = Vec::new();
        let mut choice = rig.map(str::to_string);
        if let Some(value) = rig
            && Path::new(value).is_file()
        {
            let figure = Rig::from_file(Path::new(value)).map_err(|e| format!("--rig: {e}"))?;
            choice = Some(figure.name.clone());
            others.push(figure);
        }
        let companion = if doc.skeleton.is_none() && choice.is_none() {
            companion_model(path)
        } else {
            None
        };
        Ok(Cast {
            others,
            choice,
            companion,
            file_name: path.file_name().map(|n| n.to_string_lossy().into_owned()),
            artwork: doc.artwork(),
        })
    }

    /// The figure source for the clips of `doc`.
    pub fn source<'a>(
        &'a self,
        doc: &'a Document,
        _clip: &clipscope_core::model::Clip,
    ) -> FigureSource<'a> {
        FigureSource {
            mesh: doc.mesh.as_ref(),
            model: doc.model.as_ref(),
            skeleton: doc.skeleton.as_ref(),
            file_name: self.file_name.as_deref(),
            others: &self.others,
            companion: self.companion.as_ref(),
            artwork: self.artwork.as_ref(),
        }
    }
}
