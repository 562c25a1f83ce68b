//! [`AppCommand`]: one request from a panel, a dialog or a shortcut to the app, carrying its
//! data.

use std::path::PathBuf;

use clipscope_editor::{Edit, KeyRef};

use super::{ChangedAnswer, FileTarget, Pending, RecoveryAnswer, Target};
use crate::ui::commands::UiCommand;

/// What a panel (or a dialog or a shortcut) asks the app to do.
#[derive(Debug, Clone, PartialEq)]
pub enum AppCommand {
    /// A menu item, shortcut or palette entry.
    Ui(UiCommand),
    /// One undoable document edit, applied through the workspace (which records undo).
    Edit(Edit),
    /// Open a recent file picked in the menu (a reload of a file with unsaved edits asks
    /// first).
    Open(PathBuf),
    /// Select the clip, track and key a validation finding points at.
    GoTo(Target),
    /// Show a change the compare view lists: select the clip, show only `track` in the curve
    /// editor (framed), and stop the playhead at `time`.
    ShowChange {
        /// The clip.
        clip: clipscope_editor::ClipId,
        /// The changed track, if the change is one track's.
        track: Option<usize>,
        /// Where it changed most (seconds).
        time: Option<f64>,
    },
    /// Measure how the export dialog's document plays in the chosen format with its settings
    /// (`formats::export_fidelity`), and show it in the dialog.
    MeasureExport,
    /// Bake the Cycles panel's cycle, values and settings into a clip (one undo step).
    BakeCycle,
    /// Save the Cycles panel's values as a preset file (asks where).
    SaveCyclePreset,
    /// Load a preset file into the Cycles panel (asks which).
    LoadCyclePreset,
    /// Stop playing and put the playhead at this time in seconds (the curve editor's ruler).
    SetPlayhead(f64),
    /// Escape during this drag gesture: undo what it already moved (with nothing to redo).
    CancelGesture(u64),
    /// Select just this key (a key tick clicked in the dopesheet, which moved the playhead).
    SelectKey(KeyRef),
    /// The user agreed to lose unsaved edits: quit, close or reload as `Pending` says.
    Discard(Pending),
    /// Ask for a file through the native dialog, starting at `suggested`.
    ChooseFile {
        /// What the file is for.
        target: FileTarget,
        /// The file name (and folder) to start with.
        suggested: Option<PathBuf>,
    },
    /// A path typed into the path prompt, for `target`.
    FileChosen {
        /// What the file is for.
        target: FileTarget,
        /// The path.
        path: PathBuf,
    },
    /// Stop the background loads (the status bar's Cancel).
    CancelLoads,
    /// Hide the load error in the status bar.
    DismissError,
    /// The answer to the crash-recovery offer at start.
    Recovery(RecoveryAnswer),
    /// The answer about a file that changed on disk under unsaved edits.
    ChangedOnDisk(ChangedAnswer),
    /// Autosave unsaved edits every this many seconds (0: only when the window loses focus).
    SetAutosave(u64),
    /// Show the shown clip's tracks of this node (a bone clicked in the viewport), and only
    /// those.
    SelectNode(String),
}
