//! Transport commands: play and pause, step and seek (frames, keys, start and end), markers
//! (add, next, previous) and the play range.

use clipscope_core::model::ops::Marker;
use clipscope_editor::Edit;

use crate::ui::commands::UiCommand;

use super::super::ClipscopeApp;

impl ClipscopeApp {
    /// Runs a play, step, seek, marker or play-range command; other commands are not its
    /// business.
    pub(super) fn run_transport_command(&mut self, command: UiCommand) {
        match command {
            UiCommand::AddMarker => self.add_marker(),
            UiCommand::NextMarker | UiCommand::PreviousMarker => {
                self.go_to_marker(command == UiCommand::NextMarker)
            }
            UiCommand::SetPlayRange => self.set_play_range(),
            UiCommand::ClearPlayRange => self.transport.range = None,
            _ => self.play_step_or_seek(command),
        }
    }

    /// Runs a play, step or seek command on the transport.
    fn play_step_or_seek(&mut self, command: UiCommand) {
        let duration = self.duration();
        let tr = &mut self.transport;
        match command {
            UiCommand::PlayPause => tr.toggle_play(duration),
            UiCommand::NextFrame => tr.step_frames(1, duration),
            UiCommand::PreviousFrame => tr.step_frames(-1, duration),
            UiCommand::NextFrames10 => tr.step_frames(10, duration),
            UiCommand::PreviousFrames10 => tr.step_frames(-10, duration),
            UiCommand::GoStart => tr.go_start(),
            UiCommand::GoEnd => tr.go_end(duration),
            UiCommand::NextKey | UiCommand::PreviousKey => {
                let times = self.shown_key_times();
                let to = if command == UiCommand::NextKey {
                    self.transport.next_key(times.into_iter())
                } else {
                    self.transport.prev_key(times.into_iter())
                };
                if let Some(t) = to {
                    self.transport.playing = false;
                    self.transport.time = t;
                }
            }
            _ => {}
        }
    }

    /// Sets the play range to the span of the selected keys (at least one frame).
    fn set_play_range(&mut self) {
        let Some((_, clip)) = self.selected_clip() else {
            return;
        };
        let times = self
            .selection
            .keys
            .iter()
            .filter_map(|k| clip.tracks.get(k.track)?.times.get(k.key).copied())
            .map(f64::from);
        let (lo, hi) = times.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), t| {
            (lo.min(t), hi.max(t))
        });
        if lo > hi {
            self.note("play range: select the keys to loop over first".into());
            return;
        }
        let hi = hi.max(lo + 1.0 / self.transport.fps.max(1e-3));
        self.transport.set_range(lo, hi);
        self.note(format!("play range: {lo:.3} s to {hi:.3} s"));
    }

    /// Adds a marker named after the frame at the playhead.
    fn add_marker(&mut self) {
        if let Some((clip, c)) = self.selected_clip() {
            let time = self.playhead();
            let mut markers = c.markers();
            let name = format!("F{:.0}", time * self.transport.fps);
            markers.push(Marker { name, time });
            self.apply(Edit::SetMarkers { clip, markers });
        }
    }

    /// Stops and puts the playhead on the next (or previous) marker of the selected clip.
    fn go_to_marker(&mut self, next: bool) {
        if let Some((_, c)) = self.selected_clip() {
            let times = c.markers().into_iter().map(|m| m.time as f32);
            let to = if next {
                self.transport.next_key(times)
            } else {
                self.transport.prev_key(times)
            };
            if let Some(t) = to {
                self.transport.playing = false;
                self.transport.time = t;
            }
        }
    }
}
