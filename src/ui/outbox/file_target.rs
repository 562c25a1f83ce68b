//! [`FileTarget`]: what a file dialog or typed path is for, carried from the asking panel
//! through the file dialog back to the app.

use clipscope_core::formats;

/// What a file dialog or path prompt is for.
#[derive(Debug, Clone, PartialEq)]
pub enum FileTarget {
    /// Open the chosen files.
    Open,
    /// Save the document with this id under the chosen path (Save As / Export As).
    SaveAs {
        /// The document's stable id.
        doc_id: u64,
        /// Write options (export settings).
        options: formats::WriteOptions,
        /// Export in this format instead of the document's own (Export As); `None` saves.
        format: Option<formats::Format>,
    },
    /// Write this procedural-cycle preset (JSON text) to the chosen path.
    SavePreset(String),
    /// Load a procedural-cycle preset from the chosen file.
    LoadPreset,
    /// Play the shown clip on the skeleton of the chosen model or rig file.
    Figure,
    /// Compare the open document with this id with the chosen file, or with its version at
    /// the git revision typed in the prompt.
    Compare {
        /// The document's stable id.
        doc_id: u64,
    },
}
