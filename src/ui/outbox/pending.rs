//! [`Pending`]: what waits for the user's go-ahead before unsaved edits are lost.

/// What waits for the user's go-ahead because it would discard unsaved edits.
#[derive(Debug, Clone, PartialEq)]
pub enum Pending {
    /// Close the document with this id.
    Close(u64),
    /// Quit the editor.
    Quit,
    /// Reload this file over its open, edited document.
    Reload(std::path::PathBuf),
    /// Save the document with this id over its file, which another program changed since it
    /// was read.
    Overwrite(u64),
}

impl Pending {
    /// The dialog's heading and the label of the button that goes ahead.
    pub fn labels(&self) -> (&'static str, &'static str) {
        match self {
            Pending::Overwrite(_) => ("Save over a changed file?", "Save anyway"),
            _ => ("Unsaved edits", "Discard edits"),
        }
    }
}
