//! The compare view: an open document against another version of it (a second file or a git
//! revision: `clipscope open FILE --against REV`, File › Compare with…, `git difftool`).
//!
//! [`Comparison`] holds the other version and [`clipscope_core::formats::diff_documents`]'s
//! diff from it (the old side) to the open document (the new side), made again whenever the
//! document changes, so an edit that puts a track back makes it leave the list. The curve
//! editor draws the other version's changed tracks as ghosts under the current curves, the
//! viewport poses the other version's clip as a ghost figure beside the current one
//! ([`Comparison::other_clip`], [`Comparison::other_tracks`]), and [`show`] lists the changes;
//! clicking one queues [`AppCommand::ShowChange`]: that track alone in the curve editor, the
//! playhead at the time of its largest change.

use clipscope_core::formats::{self, Document};
use clipscope_core::model::ops::diff::{ClipDiff, Diff, Status, TrackDiff};
use clipscope_core::model::{Clip, Track};
use clipscope_editor::{ClipId, OpenDocument};

use crate::cli::diff::text::{joint_change, seconds, track_line};
use crate::ui::commands::UiCommand;
use crate::ui::outbox::{AppCommand, Outbox};

/// An open document compared with another version of it.
pub struct Comparison {
    /// The stable id of the open document compared.
    pub doc_id: u64,
    /// How the other version is named (`walk.json @ HEAD~1`, or the other file's path).
    pub label: String,
    /// The other version (the old side of the diff).
    pub other: Document,
    /// The open document's length unit (`m`, `units`, `px`), for joints' moves.
    pub length: &'static str,
    /// What changed from the other version to the open document.
    pub diff: Diff,
    /// The document version the diff was made from.
    version: u64,
    /// Which diff this is (unique among every comparison's diffs), so views that copy from it
    /// know when to copy again.
    pub generation: u64,
}

impl Comparison {
    /// `current` compared with `other`, named `label`.
    pub fn new(current: &OpenDocument, label: String, other: Document) -> Comparison {
        let diff = formats::diff_documents(&other, &current.doc, None, 0.0);
        Comparison {
            doc_id: current.id,
            label,
            other,
            diff,
            length: current.doc.format.spec().length_symbol(),
            version: current.version,
            generation: next_generation(),
        }
    }

    /// Makes the diff again when `current` (the compared document) changed since; true when
    /// it did.
    pub fn refresh(&mut self, current: &OpenDocument) -> bool {
        if current.id != self.doc_id || current.version == self.version {
            return false;
        }
        self.diff = formats::diff_documents(&self.other, &current.doc, None, 0.0);
        self.version = current.version;
        self.generation = next_generation();
        true
    }

    /// How clip `clip` of the open document changed, when it did (`None` for a clip the other
    /// version holds unchanged).
    pub fn clip_diff(&self, clip: usize) -> Option<&ClipDiff> {
        self.diff.clips.iter().find(|c| c.index.new == Some(clip))
    }

    /// The other version of clip `clip` of the open document, when it differs from it.
    pub fn other_clip(&self, clip: usize) -> Option<&Clip> {
        self.clip_diff(clip)
            .and_then(|c| c.index.old)
            .and_then(|i| self.other.clips.get(i))
    }

    /// The other version of each of the open clip's tracks `tracks` that changed, keyed by the
    /// open clip's track index (for the curve editor's ghosts).
    pub fn other_tracks(
        &self,
        clip: usize,
        tracks: impl IntoIterator<Item = usize>,
    ) -> Vec<(usize, Track)> {
        let (Some(diff), Some(old)) = (self.clip_diff(clip), self.other_clip(clip)) else {
            return Vec::new();
        };
        let by_new: std::collections::HashMap<usize, usize> = diff
            .tracks
            .iter()
            .filter_map(|t| Some((t.index.new?, t.index.old?)))
            .collect();
        tracks
            .into_iter()
            .filter_map(|t| {
                let o = *by_new.get(&t)?;
                Some((t, old.tracks.get(o)?.clone()))
            })
            .collect()
    }

    /// The changed tracks of the open clip `clip` with what changed, for the track tree's
    /// notes: open-clip track index → the change in a few words.
    pub fn track_notes(&self, clip: usize) -> Vec<(usize, String, String)> {
        self.clip_diff(clip).map_or_else(Vec::new, |c| {
            c.tracks
                .iter()
                .filter_map(|t| Some((t.index.new?, short_change(t), track_line(t))))
                .collect()
        })
    }
}

/// A number no diff had before.
fn next_generation() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// A track's change in a few words: its largest change, else what else changed.
pub fn short_change(t: &TrackDiff) -> String {
    match (t.status, &t.largest) {
        (Status::Added, _) => "added".into(),
        (Status::Removed, _) => "removed".into(),
        (_, Some(c)) if c.amount.is_finite() => format!(
            "{}{}",
            crate::cli::diff::text::amount(c.amount),
            crate::cli::diff::text::suffix(t.unit.as_deref())
        ),
        _ if t.renamed_from.is_some() => "renamed".into(),
        _ if t.interpolation.is_some() => "interpolation".into(),
        _ => "keys".into(),
    }
}

/// The change list for the compared document at index `doc` of the workspace, with
/// `selected` the clip and tracks selected now (highlighted).
pub fn show(
    ui: &mut egui::Ui,
    comparison: &Comparison,
    doc: usize,
    selected: Option<(ClipId, &std::collections::BTreeSet<usize>)>,
    out: &mut Outbox,
) {
    ui.horizontal_wrapped(|ui| {
        ui.strong("COMPARE");
        ui.label("with");
        ui.monospace(&comparison.label);
    });
    ui.horizontal(|ui| {
        if ui
            .button("Stop comparing")
            .on_hover_text("Hide the other version's ghosts and this list")
            .clicked()
        {
            out.ui(UiCommand::StopComparing);
        }
    });
    ui.weak("Ghosts: the other version's curves (faint) and figure (pale blue).");
    ui.separator();
    let diff = &comparison.diff;
    if diff.is_identical() {
        ui.label("No changes: both versions hold the same clips.");
        return;
    }
    let tracks: usize = diff.clips.iter().map(|c| c.tracks.len()).sum();
    ui.label(format!(
        "{} clip(s) changed, {} track(s) changed, {} clip(s) unchanged",
        diff.clips.len(),
        tracks,
        diff.unchanged_clips
    ));
    egui::ScrollArea::vertical()
        .auto_shrink([false, false])
        .show(ui, |ui| {
            for clip in &diff.clips {
                clip_entry(ui, clip, doc, selected, comparison.length, out);
            }
        });
}

/// One clip's entry: its heading (a button to the clip), its clip-level changes and a row per
/// changed track.
fn clip_entry(
    ui: &mut egui::Ui,
    clip: &ClipDiff,
    doc: usize,
    selected: Option<(ClipId, &std::collections::BTreeSet<usize>)>,
    length: &str,
    out: &mut Outbox,
) {
    ui.add_space(6.0);
    let heading = match (clip.status, &clip.renamed_from) {
        (Status::Added, _) => format!("+ clip {:?} (added)", clip.name),
        (Status::Removed, _) => format!("- clip {:?} (removed)", clip.name),
        (_, Some(old)) => format!("~ clip {:?} (renamed from {old:?})", clip.name),
        _ => format!("~ clip {:?}", clip.name),
    };
    let id = clip.index.new.map(|c| ClipId { doc, clip: c });
    let current = id.is_some() && selected.map(|(s, _)| Some(s)) == Some(id);
    let response = ui.add_enabled(
        id.is_some(),
        egui::Button::selectable(current, egui::RichText::new(heading).strong()),
    );
    if response.clicked()
        && let Some(id) = id
    {
        out.push(AppCommand::ShowChange {
            clip: id,
            track: None,
            time: None,
        });
    }
    let mut facts = Vec::new();
    if let Some(d) = &clip.duration {
        facts.push(format!(
            "duration {} s → {} s",
            seconds(d.old as f32),
            seconds(d.new as f32)
        ));
    }
    if let Some(b) = &clip.blend_mode {
        facts.push(format!(
            "blend mode {} → {}",
            b.old.0.name(),
            b.new.0.name()
        ));
    }
    for m in &clip.markers {
        facts.push(format!("marker {:?} {}", m.name, marker_change(m)));
    }
    for fact in facts {
        ui.weak(format!("    {fact}"));
    }
    for t in &clip.tracks {
        track_entry(ui, t, id, selected, out);
    }
    if clip.unchanged_tracks > 0 && clip.status == Status::Changed {
        ui.weak(format!("    {} track(s) unchanged", clip.unchanged_tracks));
    }
    joint_entries(ui, clip, id, length, out);
}

/// The joints that moved in world space, largest first (a click stops the playhead where the
/// joint moved most).
fn joint_entries(
    ui: &mut egui::Ui,
    clip: &ClipDiff,
    id: Option<ClipId>,
    length: &str,
    out: &mut Outbox,
) {
    const LISTED: usize = 8;
    if clip.joints.is_empty() {
        return;
    }
    ui.weak("    joints in world space:");
    for j in clip.joints.iter().take(LISTED) {
        let text = format!("{}\n    {}", j.name, joint_change(j, length));
        let time = if j.distance > 0.0 {
            j.distance_time
        } else {
            j.angle_time
        };
        let response = ui.add_enabled(
            id.is_some(),
            egui::Button::selectable(false, egui::RichText::new(text).monospace()),
        );
        if response.clicked()
            && let Some(id) = id
        {
            out.push(AppCommand::ShowChange {
                clip: id,
                track: None,
                time: Some(time as f64),
            });
        }
    }
    if clip.joints.len() > LISTED {
        ui.weak(format!("    … {} more", clip.joints.len() - LISTED));
    }
}

/// How a marker changed, in a few words.
fn marker_change(m: &clipscope_core::model::ops::diff::MarkerChange) -> String {
    let s = |t: Option<f64>| t.map_or(String::new(), |t| seconds(t as f32));
    match m.status {
        Status::Added => format!("added at {} s", s(m.new_time)),
        Status::Removed => format!("removed (was at {} s)", s(m.old_time)),
        Status::Changed => format!("moved {} s → {} s", s(m.old_time), s(m.new_time)),
    }
}

/// One changed track's row: a click selects the track and puts the playhead where it changed
/// most.
fn track_entry(
    ui: &mut egui::Ui,
    t: &TrackDiff,
    clip: Option<ClipId>,
    selected: Option<(ClipId, &std::collections::BTreeSet<usize>)>,
    out: &mut Outbox,
) {
    // The name on one line, what changed under it (a long name would wrap the line anywhere).
    let line = track_line(t);
    let line = match line.split_once(&format!("{}: ", t.name)) {
        Some((sign, rest)) => format!("{sign}{}\n    {rest}", t.name),
        None => line,
    };
    let is_selected = match (clip, t.index.new, selected) {
        (Some(c), Some(i), Some((s, tracks))) => c == s && tracks.contains(&i),
        _ => false,
    };
    let time = t
        .largest
        .as_ref()
        .map(|c| c.time as f64)
        .or_else(|| t.keys_added.first().map(|&k| k as f64))
        .or_else(|| t.keys_moved.first().map(|&(_, k)| k as f64))
        .or_else(|| t.range.new.map(|(a, _)| a as f64));
    let response = ui
        .add_enabled(
            clip.is_some(),
            egui::Button::selectable(is_selected, egui::RichText::new(&line).monospace())
                .wrap_mode(egui::TextWrapMode::Wrap),
        )
        .on_hover_text(match time {
            Some(at) => format!("Show this track at {} s", seconds(at as f32)),
            None => "Show this track".into(),
        });
    if response.clicked()
        && let Some(id) = clip
    {
        out.push(AppCommand::ShowChange {
            clip: id,
            track: t.index.new,
            time,
        });
    }
}
