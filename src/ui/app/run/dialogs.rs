//! The commands that ask for numbers or text before they run: each opens its [`ClipDialog`],
//! filled in from the selection, the playhead and the transport.

use clipscope_editor::KeyRef;

use crate::ui::clip_dialog::{ClipDialog, Pivot, RetimeMode};
use crate::ui::commands::UiCommand;

use super::super::ClipscopeApp;

impl ClipscopeApp {
    /// Opens the dialog of a command that asks first; other commands are not its business.
    pub(super) fn run_dialog_command(&mut self, command: UiCommand) {
        match command {
            UiCommand::RenameTracks => {
                self.open_dialog(ClipDialog::Rename {
                    pattern: String::new(),
                    replacement: String::new(),
                    all_clips: false,
                });
            }
            UiCommand::Subclip => self.open_subclip(),
            UiCommand::ScaleKeys => {
                let keys: Vec<KeyRef> = self.selection.keys.iter().copied().collect();
                if keys.is_empty() {
                    self.note("scale keys: no keys selected".into());
                } else {
                    self.open_dialog(ClipDialog::ScaleKeys {
                        keys,
                        time_factor: 1.0,
                        value_factor: 1.0,
                        pivot: Pivot::Start,
                    });
                }
            }
            UiCommand::SmoothKeys => {
                let keys: Vec<KeyRef> = self.selection.keys.iter().copied().collect();
                if keys.is_empty() {
                    self.note("smooth keys: no keys selected".into());
                } else {
                    self.open_dialog(ClipDialog::Smooth {
                        keys,
                        strength: 0.5,
                        passes: 1,
                    });
                }
            }
            UiCommand::Retime => self.open_dialog(ClipDialog::Retime {
                mode: RetimeMode::Factor,
                amount: 1.0,
            }),
            UiCommand::Resample => self.open_dialog(ClipDialog::Resample {
                fps: self.transport.fps,
            }),
            UiCommand::MakeAdditive => {
                let frame = (self.playhead() * self.transport.fps).round();
                self.open_dialog(ClipDialog::MakeAdditive {
                    frame,
                    reference: None,
                });
            }
            UiCommand::MergeClips => self.open_merge(),
            UiCommand::EditMarkers => {
                if let Some((_, c)) = self.selected_clip() {
                    let list = c.markers();
                    self.open_dialog(ClipDialog::Markers { list });
                }
            }
            _ => {}
        }
    }

    /// The subclip dialog over the play range when there is one, else from the start to the
    /// playhead (the whole clip with the playhead at the start).
    fn open_subclip(&mut self) {
        if let Some((_, clip)) = self.selected_clip() {
            let fps = self.transport.fps;
            let (start, end) = match self.transport.range {
                Some(_) => {
                    let (lo, hi) = self.transport.bounds(clip.duration);
                    ((lo * fps).round(), (hi * fps).round() + 1.0)
                }
                None => {
                    let end = (self.playhead() * fps).round();
                    let whole = (clip.duration * fps).ceil() + 1.0;
                    (0.0, if end > 0.0 { end } else { whole })
                }
            };
            let dialog = ClipDialog::Subclip {
                name: format!("{} part", clip.name),
                start,
                end,
            };
            self.open_dialog(dialog);
        }
    }

    /// The merge dialog with the selected clip ticked.
    fn open_merge(&mut self) {
        if let Some(id) = self.selection.clip {
            let n = self.ws.documents[id.doc].doc.clips.len();
            let mut chosen = vec![false; n];
            chosen[id.clip] = true;
            let name = self
                .ws
                .clip(id)
                .map_or_else(String::new, |c| c.name.clone());
            self.open_dialog(ClipDialog::Merge {
                chosen,
                name: format!("{name} merged"),
            });
        }
    }

    /// Opens a clip operation dialog (with a clip selected).
    fn open_dialog(&mut self, dialog: ClipDialog) {
        if self.selection.clip.is_some() {
            self.clip_dialog = Some(dialog);
        }
    }
}
