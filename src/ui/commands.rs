//! Every user-level command with its name and shortcut: what menus, shortcuts and the command
//! palette all dispatch through, so they can never disagree. The list of commands is derived
//! from the enum ([`UiCommand::ALL`]); names and shortcuts are exhaustive `match`es.

use egui::{Key, KeyboardShortcut, Modifiers};
use strum::VariantArray;

/// A user-level command (Rerun's name for it): a menu item, a shortcut or a palette entry.
/// Queued as [`AppCommand::Ui`](super::outbox::AppCommand::Ui); document edits among them become
/// [`Edit`](clipscope_editor::Edit)s when the app runs them, the rest change view state or start
/// file dialogs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, VariantArray)]
pub enum UiCommand {
    /// Open files through the native dialog.
    Open,
    /// Open a file by typing its path.
    OpenPath,
    /// Save the selected clip's document.
    Save,
    /// Save the selected clip's document under a new name.
    SaveAs,
    /// Export the selected clip's document in a chosen format.
    ExportAs,
    /// Compare the selected clip's document with another file (its ghosts and change list).
    CompareWithFile,
    /// Compare the selected clip's document with its version at a git revision.
    CompareWithRevision,
    /// Stop comparing (hide the other version's ghosts and the change list).
    StopComparing,
    /// Close the selected clip's document.
    CloseDocument,
    /// Quit the editor.
    Quit,
    /// Undo the last edit.
    Undo,
    /// Redo the last undone edit.
    Redo,
    /// Optimize the selected clip.
    Optimize,
    /// Optimize every open clip.
    OptimizeAll,
    /// Trim the selected clip.
    Trim,
    /// Trim every open clip.
    TrimAll,
    /// Reset the selected clip's duration.
    ResetDuration,
    /// Reset every open clip's duration.
    ResetDurationAll,
    /// Open the Reduce window: fewer keys within a guaranteed error, previewed before applying.
    Reduce,
    /// In the Reduce window's preview, switch between the original (A) and the reduction (B).
    CompareOriginal,
    /// Validate the selected clip.
    Validate,
    /// Validate every open clip.
    ValidateAll,
    /// Duplicate the selected clip.
    DuplicateClip,
    /// Delete the selected clip.
    DeleteClip,
    /// Play or pause.
    PlayPause,
    /// One frame forward.
    NextFrame,
    /// One frame back.
    PreviousFrame,
    /// Ten frames forward.
    NextFrames10,
    /// Ten frames back.
    PreviousFrames10,
    /// To the next key of the shown tracks.
    NextKey,
    /// To the previous key of the shown tracks.
    PreviousKey,
    /// To the start of the clip.
    GoStart,
    /// To the end of the clip.
    GoEnd,
    /// Add a marker at the playhead.
    AddMarker,
    /// Rename, move and delete the clip's markers.
    EditMarkers,
    /// To the next marker.
    NextMarker,
    /// To the previous marker.
    PreviousMarker,
    /// Set the play range to the span of the selected keys.
    SetPlayRange,
    /// Play the whole clip again.
    ClearPlayRange,
    /// Frame every curve in the curve editor.
    FrameAll,
    /// Frame the selected keys in the curve editor.
    FrameSelected,
    /// Delete the selected keys.
    DeleteKeys,
    /// Insert keys at the playhead in the shown tracks.
    InsertKey,
    /// Copy the selected keys to the key clipboard.
    CopyKeys,
    /// Copy the selected keys and delete them.
    CutKeys,
    /// Paste the key clipboard at the playhead (into tracks of the same name, or the one shown
    /// track), values as copied.
    PasteKeys,
    /// Paste the key clipboard at the playhead, values offset onto the curves they land on.
    PasteKeysRelative,
    /// Duplicate the selected keys one frame later (and select the copies).
    DuplicateKeys,
    /// Select every key of the shown tracks.
    SelectAllKeys,
    /// Select the keys of the shown tracks at the times of the selected keys (or the playhead).
    SelectColumn,
    /// Select the keys of the shown tracks inside the play range.
    SelectInPlayRange,
    /// Scale the selected keys in time and value around a pivot (amounts in a dialog).
    ScaleKeys,
    /// Move the selected keys to the nearest frames.
    SnapKeys,
    /// Smooth the values of the selected keys (strength and passes in a dialog).
    SmoothKeys,
    /// Delete the tracks shown in the curve editor from the clip.
    DeleteShownTracks,
    /// Copy the tracks shown in the curve editor (`<name> copy`) and show the copies.
    DuplicateShownTracks,
    /// Mute the shown tracks (the viewport stops playing them), or unmute them when all are muted.
    MuteShownTracks,
    /// Rename tracks with find and replace (regular expressions, with a preview).
    RenameTracks,
    /// Cut the selected clip in two at the playhead.
    SplitClip,
    /// Copy a frame range of the selected clip into a new clip.
    Subclip,
    /// Scale the selected clip in time (by a factor or to a duration) or shift it.
    Retime,
    /// Bake the selected clip to one key per frame.
    Resample,
    /// Play the selected clip backwards.
    ReverseClip,
    /// Make the selected clip additive against a frame of itself or of another clip.
    MakeAdditive,
    /// Merge clips of the selected clip's file into a new clip.
    MergeClips,
    /// Put neighbouring quaternion keys of the selected clip in the same hemisphere.
    UnrollQuaternions,
    /// Put neighbouring quaternion keys of every open clip in the same hemisphere.
    UnrollQuaternionsAll,
    /// Make the selected clip's Euler rotation tracks continuous (Blender's Euler Filter).
    EulerFilter,
    /// Show or hide the validation panel.
    ToggleValidation,
    /// Show the procedural cycles panel (or the inspector again).
    ToggleCycles,
    /// Switch between the dark and the light theme.
    ToggleTheme,
    /// Open the command palette.
    CommandPalette,
}

impl UiCommand {
    /// Every command, in palette order (the order of the enum, derived: it cannot drift).
    pub const ALL: &'static [UiCommand] = <UiCommand as VariantArray>::VARIANTS;

    /// The name shown in menus and the palette.
    pub fn label(self) -> &'static str {
        match self {
            UiCommand::Open => "Open…",
            UiCommand::OpenPath => "Open path…",
            UiCommand::Save => "Save",
            UiCommand::SaveAs => "Save As…",
            UiCommand::ExportAs => "Export As…",
            UiCommand::CompareWithFile => "Compare with file…",
            UiCommand::CompareWithRevision => "Compare with git revision…",
            UiCommand::StopComparing => "Stop comparing",
            UiCommand::CloseDocument => "Close file",
            UiCommand::Quit => "Quit",
            UiCommand::Undo => "Undo",
            UiCommand::Redo => "Redo",
            UiCommand::Optimize => "Optimize clip",
            UiCommand::OptimizeAll => "Optimize all clips",
            UiCommand::Trim => "Trim clip",
            UiCommand::TrimAll => "Trim all clips",
            UiCommand::ResetDuration => "Reset duration",
            UiCommand::ResetDurationAll => "Reset duration of all clips",
            UiCommand::Reduce => "Reduce keys…",
            UiCommand::CompareOriginal => "Compare reduction with original (A/B)",
            UiCommand::Validate => "Validate clip",
            UiCommand::ValidateAll => "Validate all clips",
            UiCommand::DuplicateClip => "Duplicate clip",
            UiCommand::DeleteClip => "Delete clip",
            UiCommand::PlayPause => "Play / pause",
            UiCommand::NextFrame => "Next frame",
            UiCommand::PreviousFrame => "Previous frame",
            UiCommand::NextFrames10 => "Ten frames forward",
            UiCommand::PreviousFrames10 => "Ten frames back",
            UiCommand::NextKey => "Next key",
            UiCommand::PreviousKey => "Previous key",
            UiCommand::GoStart => "Go to start",
            UiCommand::GoEnd => "Go to end",
            UiCommand::AddMarker => "Add marker at playhead",
            UiCommand::EditMarkers => "Markers…",
            UiCommand::NextMarker => "Next marker",
            UiCommand::PreviousMarker => "Previous marker",
            UiCommand::SetPlayRange => "Set play range from selected keys",
            UiCommand::ClearPlayRange => "Clear play range",
            UiCommand::FrameAll => "Frame all curves",
            UiCommand::FrameSelected => "Frame selected keys",
            UiCommand::DeleteKeys => "Delete selected keys",
            UiCommand::InsertKey => "Insert key at playhead",
            UiCommand::CopyKeys => "Copy keys",
            UiCommand::CutKeys => "Cut keys",
            UiCommand::PasteKeys => "Paste keys at playhead",
            UiCommand::PasteKeysRelative => "Paste keys at playhead, relative",
            UiCommand::DuplicateKeys => "Duplicate keys",
            UiCommand::SelectAllKeys => "Select all keys of shown tracks",
            UiCommand::SelectColumn => "Select keys in the same column",
            UiCommand::SelectInPlayRange => "Select keys in the play range",
            UiCommand::SmoothKeys => "Smooth selected keys…",
            UiCommand::ScaleKeys => "Scale selected keys…",
            UiCommand::SnapKeys => "Snap selected keys to frames",
            UiCommand::DeleteShownTracks => "Delete shown tracks",
            UiCommand::DuplicateShownTracks => "Duplicate shown tracks",
            UiCommand::MuteShownTracks => "Mute / unmute shown tracks",
            UiCommand::RenameTracks => "Rename tracks…",
            UiCommand::SplitClip => "Split clip at playhead",
            UiCommand::Subclip => "Subclip…",
            UiCommand::Retime => "Retime clip…",
            UiCommand::Resample => "Resample clip…",
            UiCommand::ReverseClip => "Reverse clip",
            UiCommand::MakeAdditive => "Make additive…",
            UiCommand::MergeClips => "Merge clips…",
            UiCommand::UnrollQuaternions => "Unroll quaternion flips",
            UiCommand::UnrollQuaternionsAll => "Unroll quaternion flips in all clips",
            UiCommand::EulerFilter => "Euler filter (continuous rotation angles)",
            UiCommand::ToggleValidation => "Show / hide validation panel",
            UiCommand::ToggleCycles => "Show / hide procedural cycles",
            UiCommand::ToggleTheme => "Switch light / dark theme",
            UiCommand::CommandPalette => "Command palette…",
        }
    }

    /// The keyboard shortcut, if the command has one.
    pub fn shortcut(self) -> Option<KeyboardShortcut> {
        let cmd = Modifiers::COMMAND;
        let shift = Modifiers::SHIFT;
        let (m, k) = match self {
            UiCommand::Open => (cmd, Key::O),
            UiCommand::Save => (cmd, Key::S),
            UiCommand::SaveAs => (cmd | shift, Key::S),
            UiCommand::ExportAs => (cmd, Key::E),
            UiCommand::Quit => (cmd, Key::Q),
            UiCommand::Undo => (cmd, Key::Z),
            UiCommand::Redo => (cmd | shift, Key::Z),
            UiCommand::CommandPalette => (cmd, Key::K),
            UiCommand::PlayPause => (Modifiers::NONE, Key::Space),
            UiCommand::NextFrame => (Modifiers::NONE, Key::ArrowRight),
            UiCommand::PreviousFrame => (Modifiers::NONE, Key::ArrowLeft),
            UiCommand::NextFrames10 => (shift, Key::ArrowRight),
            UiCommand::PreviousFrames10 => (shift, Key::ArrowLeft),
            UiCommand::NextKey => (Modifiers::NONE, Key::ArrowUp),
            UiCommand::PreviousKey => (Modifiers::NONE, Key::ArrowDown),
            UiCommand::GoStart => (Modifiers::NONE, Key::Home),
            UiCommand::GoEnd => (Modifiers::NONE, Key::End),
            UiCommand::AddMarker => (Modifiers::NONE, Key::M),
            UiCommand::NextMarker => (Modifiers::ALT, Key::ArrowRight),
            UiCommand::PreviousMarker => (Modifiers::ALT, Key::ArrowLeft),
            UiCommand::SetPlayRange => (Modifiers::NONE, Key::P),
            UiCommand::ClearPlayRange => (Modifiers::ALT, Key::P),
            UiCommand::FrameAll => (Modifiers::NONE, Key::F),
            UiCommand::FrameSelected => (shift, Key::F),
            UiCommand::DeleteKeys => (Modifiers::NONE, Key::Delete),
            UiCommand::InsertKey => (Modifiers::NONE, Key::I),
            UiCommand::CompareOriginal => (Modifiers::NONE, Key::B),
            UiCommand::CopyKeys => (cmd, Key::C),
            UiCommand::CutKeys => (cmd, Key::X),
            UiCommand::PasteKeys => (cmd, Key::V),
            UiCommand::PasteKeysRelative => (cmd | shift, Key::V),
            UiCommand::DuplicateKeys => (shift, Key::D),
            UiCommand::SelectAllKeys => (cmd, Key::A),
            UiCommand::SelectColumn => (Modifiers::NONE, Key::K),
            UiCommand::SmoothKeys => (Modifiers::ALT, Key::O),
            UiCommand::ScaleKeys => (Modifiers::NONE, Key::S),
            UiCommand::SnapKeys => (shift, Key::S),
            UiCommand::MuteShownTracks => (shift, Key::M),
            UiCommand::OpenPath
            | UiCommand::CompareWithFile
            | UiCommand::CompareWithRevision
            | UiCommand::StopComparing
            | UiCommand::CloseDocument
            | UiCommand::Optimize
            | UiCommand::OptimizeAll
            | UiCommand::Trim
            | UiCommand::TrimAll
            | UiCommand::ResetDuration
            | UiCommand::ResetDurationAll
            | UiCommand::Reduce
            | UiCommand::Validate
            | UiCommand::ValidateAll
            | UiCommand::DuplicateClip
            | UiCommand::DeleteClip
            | UiCommand::ToggleValidation
            | UiCommand::ToggleCycles
            | UiCommand::ToggleTheme
            | UiCommand::DeleteShownTracks
            | UiCommand::DuplicateShownTracks
            | UiCommand::SelectInPlayRange
            | UiCommand::RenameTracks
            | UiCommand::SplitClip
            | UiCommand::Subclip
            | UiCommand::Retime
            | UiCommand::Resample
            | UiCommand::ReverseClip
            | UiCommand::MakeAdditive
            | UiCommand::MergeClips
            | UiCommand::EditMarkers
            | UiCommand::UnrollQuaternions
            | UiCommand::UnrollQuaternionsAll
            | UiCommand::EulerFilter => return None,
        };
        Some(KeyboardShortcut::new(m, k))
    }

    /// Extra shortcuts that do the same (Ctrl+Y redo, Ctrl+P palette, Backspace delete).
    pub fn alternative_shortcuts(self) -> &'static [KeyboardShortcut] {
        const REDO: [KeyboardShortcut; 1] = [KeyboardShortcut::new(Modifiers::COMMAND, Key::Y)];
        const PALETTE: [KeyboardShortcut; 1] = [KeyboardShortcut::new(Modifiers::COMMAND, Key::P)];
        const DELETE: [KeyboardShortcut; 1] =
            [KeyboardShortcut::new(Modifiers::NONE, Key::Backspace)];
        match self {
            UiCommand::Redo => &REDO,
            UiCommand::CommandPalette => &PALETTE,
            UiCommand::DeleteKeys => &DELETE,
            _ => &[],
        }
    }

    /// True for shortcuts without Ctrl/Cmd, which must not fire while a text field has focus.
    pub fn is_plain_key(self) -> bool {
        self.shortcut().is_some_and(|s| !s.modifiers.command)
    }

    /// True for shortcuts a focused text field needs for itself (plain keys, and Ctrl+A/C/X/V
    /// for its text): they do not fire while one has the keyboard.
    pub fn yields_to_text(self) -> bool {
        self.is_plain_key()
            || matches!(
                self,
                UiCommand::CopyKeys
                    | UiCommand::CutKeys
                    | UiCommand::PasteKeys
                    | UiCommand::PasteKeysRelative
                    | UiCommand::SelectAllKeys
            )
    }

    /// The shortcut as text for menus ("Ctrl+Shift+Z").
    pub fn shortcut_text(self, ctx: &egui::Context) -> String {
        self.shortcut()
            .map(|s| ctx.format_shortcut(&s))
            .unwrap_or_default()
    }

    /// True for the commands the curve editor handles itself while the pointer is over it
    /// (F, Shift+F, Delete, I); the app takes their keys only after the panels had their turn.
    pub fn is_curve_key(self) -> bool {
        matches!(
            self,
            UiCommand::FrameAll
                | UiCommand::FrameSelected
                | UiCommand::DeleteKeys
                | UiCommand::InsertKey
        )
    }

    /// Reads this frame's key presses and returns the commands (among those `which` accepts)
    /// whose shortcuts were pressed, most specific shortcuts first (Ctrl+Shift+Z before
    /// Ctrl+Z). Plain-key shortcuts are skipped while a text field wants the keyboard.
    pub fn pressed(ctx: &egui::Context, which: impl Fn(UiCommand) -> bool) -> Vec<UiCommand> {
        let typing = ctx.egui_wants_keyboard_input();
        let mut all: Vec<(UiCommand, KeyboardShortcut)> = UiCommand::ALL
            .iter()
            .filter(|a| which(**a))
            .filter(|a| !(typing && a.yields_to_text()))
            .flat_map(|&a| {
                a.shortcut()
                    .into_iter()
                    .chain(a.alternative_shortcuts().iter().copied())
                    .map(move |s| (a, s))
            })
            .collect();
        all.sort_by_key(|(_, s)| {
            std::cmp::Reverse(
                u8::from(s.modifiers.shift)
                    + u8::from(s.modifiers.alt)
                    + u8::from(s.modifiers.command),
            )
        });
        let mut out = Vec::new();
        ctx.input_mut(|i| {
            for (a, s) in &all {
                if i.consume_shortcut(s) && !out.contains(a) {
                    out.push(*a);
                }
            }
            if typing {
                return;
            }
            // The windowing layer turns Ctrl+C / X / V into clipboard events instead of keys.
            let mut found: Vec<UiCommand> = Vec::new();
            i.events.retain(|e| {
                let a = match e {
                    egui::Event::Copy => UiCommand::CopyKeys,
                    egui::Event::Cut => UiCommand::CutKeys,
                    egui::Event::Paste(_) => UiCommand::PasteKeys,
                    _ => return true,
                };
                if which(a) && !out.contains(&a) && !found.contains(&a) {
                    found.push(a);
                    false
                } else {
                    true
                }
            });
            out.extend(found);
        });
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_list_holds_every_command_once_in_enum_order() {
        // Derived from the enum: the last variant is last, and nothing repeats.
        assert_eq!(UiCommand::ALL.first(), Some(&UiCommand::Open));
        assert_eq!(UiCommand::ALL.last(), Some(&UiCommand::CommandPalette));
        let distinct: std::collections::HashSet<_> = UiCommand::ALL.iter().collect();
        assert_eq!(distinct.len(), UiCommand::ALL.len());
    }

    #[test]
    fn shortcuts_are_unique() {
        let mut seen = std::collections::HashMap::new();
        for &c in UiCommand::ALL {
            for s in c
                .shortcut()
                .into_iter()
                .chain(c.alternative_shortcuts().iter().copied())
            {
                if let Some(other) = seen.insert(s, c) {
                    panic!("{c:?} and {other:?} share a shortcut");
                }
            }
        }
    }
}
