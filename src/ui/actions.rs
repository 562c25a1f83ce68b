//! Every user-level action with its name and shortcut: what menus, shortcuts and the command
//! palette all dispatch through, so they can never disagree.

use egui::{Key, KeyboardShortcut, Modifiers};

/// A user-level action. Document edits among them become [`Edit`](crate::editor::Edit)s
/// when the app runs them; the rest change view state or start file dialogs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Action {
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
    /// Frame every curve in the curve editor.
    FrameAll,
    /// Frame the selected keys in the curve editor.
    FrameSelected,
    /// Delete the selected keys.
    DeleteKeys,
    /// Insert keys at the playhead in the shown tracks.
    InsertKey,
    /// Show or hide the validation panel.
    ToggleValidation,
    /// Show the procedural cycles panel (or the inspector again).
    ToggleCycles,
    /// Switch between the dark and the light theme.
    ToggleTheme,
    /// Open the command palette.
    CommandPalette,
}

impl Action {
    /// Every action, in palette order.
    pub const ALL: [Action; 36] = [
        Action::Open,
        Action::OpenPath,
        Action::Save,
        Action::SaveAs,
        Action::ExportAs,
        Action::CloseDocument,
        Action::Quit,
        Action::Undo,
        Action::Redo,
        Action::Optimize,
        Action::OptimizeAll,
        Action::Trim,
        Action::TrimAll,
        Action::ResetDuration,
        Action::ResetDurationAll,
        Action::Validate,
        Action::ValidateAll,
        Action::DuplicateClip,
        Action::DeleteClip,
        Action::PlayPause,
        Action::NextFrame,
        Action::PreviousFrame,
        Action::NextFrames10,
        Action::PreviousFrames10,
        Action::NextKey,
        Action::PreviousKey,
        Action::GoStart,
        Action::GoEnd,
        Action::FrameAll,
        Action::FrameSelected,
        Action::DeleteKeys,
        Action::InsertKey,
        Action::ToggleValidation,
        Action::ToggleCycles,
        Action::ToggleTheme,
        Action::CommandPalette,
    ];

    /// The name shown in menus and the palette.
    pub fn label(self) -> &'static str {
        match self {
            Action::Open => "Open…",
            Action::OpenPath => "Open path…",
            Action::Save => "Save",
            Action::SaveAs => "Save As…",
            Action::ExportAs => "Export As…",
            Action::CloseDocument => "Close file",
            Action::Quit => "Quit",
            Action::Undo => "Undo",
            Action::Redo => "Redo",
            Action::Optimize => "Optimize clip",
            Action::OptimizeAll => "Optimize all clips",
            Action::Trim => "Trim clip",
            Action::TrimAll => "Trim all clips",
            Action::ResetDuration => "Reset duration",
            Action::ResetDurationAll => "Reset duration of all clips",
            Action::Validate => "Validate clip",
            Action::ValidateAll => "Validate all clips",
            Action::DuplicateClip => "Duplicate clip",
            Action::DeleteClip => "Delete clip",
            Action::PlayPause => "Play / pause",
            Action::NextFrame => "Next frame",
            Action::PreviousFrame => "Previous frame",
            Action::NextFrames10 => "Ten frames forward",
            Action::PreviousFrames10 => "Ten frames back",
            Action::NextKey => "Next key",
            Action::PreviousKey => "Previous key",
            Action::GoStart => "Go to start",
            Action::GoEnd => "Go to end",
            Action::FrameAll => "Frame all curves",
            Action::FrameSelected => "Frame selected keys",
            Action::DeleteKeys => "Delete selected keys",
            Action::InsertKey => "Insert key at playhead",
            Action::ToggleValidation => "Show / hide validation panel",
            Action::ToggleCycles => "Show / hide procedural cycles",
            Action::ToggleTheme => "Switch light / dark theme",
            Action::CommandPalette => "Edit palette…",
        }
    }

    /// The keyboard shortcut, if the action has one.
    pub fn shortcut(self) -> Option<KeyboardShortcut> {
        let cmd = Modifiers::COMMAND;
        let shift = Modifiers::SHIFT;
        let (m, k) = match self {
            Action::Open => (cmd, Key::O),
            Action::Save => (cmd, Key::S),
            Action::SaveAs => (cmd | shift, Key::S),
            Action::ExportAs => (cmd, Key::E),
            Action::Quit => (cmd, Key::Q),
            Action::Undo => (cmd, Key::Z),
            Action::Redo => (cmd | shift, Key::Z),
            Action::CommandPalette => (cmd, Key::K),
            Action::PlayPause => (Modifiers::NONE, Key::Space),
            Action::NextFrame => (Modifiers::NONE, Key::ArrowRight),
            Action::PreviousFrame => (Modifiers::NONE, Key::ArrowLeft),
            Action::NextFrames10 => (shift, Key::ArrowRight),
            Action::PreviousFrames10 => (shift, Key::ArrowLeft),
            Action::NextKey => (Modifiers::NONE, Key::ArrowUp),
            Action::PreviousKey => (Modifiers::NONE, Key::ArrowDown),
            Action::GoStart => (Modifiers::NONE, Key::Home),
            Action::GoEnd => (Modifiers::NONE, Key::End),
            Action::FrameAll => (Modifiers::NONE, Key::F),
            Action::FrameSelected => (shift, Key::F),
            Action::DeleteKeys => (Modifiers::NONE, Key::Delete),
            Action::InsertKey => (Modifiers::NONE, Key::I),
            _ => return None,
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
            Action::Redo => &REDO,
            Action::CommandPalette => &PALETTE,
            Action::DeleteKeys => &DELETE,
            _ => &[],
        }
    }

    /// True for shortcuts without Ctrl/Cmd, which must not fire while a text field has focus.
    pub fn is_plain_key(self) -> bool {
        self.shortcut().is_some_and(|s| !s.modifiers.command)
    }

    /// The shortcut as text for menus ("Ctrl+Shift+Z").
    pub fn shortcut_text(self, ctx: &egui::Context) -> String {
        self.shortcut()
            .map(|s| ctx.format_shortcut(&s))
            .unwrap_or_default()
    }

    /// True for the actions the curve editor handles itself while the pointer is over it
    /// (F, Shift+F, Delete, I); the app takes their keys only after the panels had their turn.
    pub fn is_curve_key(self) -> bool {
        matches!(
            self,
            Action::FrameAll | Action::FrameSelected | Action::DeleteKeys | Action::InsertKey
        )
    }

    /// Reads this frame's key presses and returns the actions (among those `which` accepts)
    /// whose shortcuts were pressed, most specific shortcuts first (Ctrl+Shift+Z before
    /// Ctrl+Z). Plain-key shortcuts are skipped while a text field wants the keyboard.
    pub fn pressed(ctx: &egui::Context, which: impl Fn(Action) -> bool) -> Vec<Action> {
        let typing = ctx.egui_wants_keyboard_input();
        let mut all: Vec<(Action, KeyboardShortcut)> = Action::ALL
            .iter()
            .filter(|a| which(**a))
            .filter(|a| !(typing && a.is_plain_key()))
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
        });
        out
    }
}

/// What panels ask for during a frame: document edits and actions, run by the app afterwards.
#[derive(Debug, Default)]
pub struct Outbox {
    /// Document edits, applied in order.
    pub commands: Vec<crate::editor::Edit>,
    /// Actions, run in order after the commands.
    pub actions: Vec<Action>,
    /// A drag gesture the user cancelled (Escape): its edits are undone after the commands.
    pub cancelled_gesture: Option<u64>,
}

impl Outbox {
    /// Queues an edit.
    pub fn command(&mut self, command: crate::editor::Edit) {
        self.commands.push(command);
    }

    /// Queues an action.
    pub fn action(&mut self, action: Action) {
        self.actions.push(action);
    }
}
