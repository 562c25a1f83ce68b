//! The open documents and the one place where [`Edit`]s change them.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use clipscope_core::formats::{Document, FileStamp};
use clipscope_core::model::Clip;
use clipscope_core::model::ops::lint::LintSettings;
use clipscope_core::model::ops::{make_clip_additive, merge_clips, paste_keys, subclip};
use clipscope_core::text::thousands;

use super::edit::{ClipId, ClipScope, Edit, KeyRef};
use super::history::{DocChange, History, Snapshot, UndoStep};

/// A document open in the editor, with its dirty state.
#[derive(Debug, Clone)]
pub struct OpenDocument {
    /// The clips and where they came from.
    pub doc: Document,
    /// A stable id (indices shift when documents close; undo records use this).
    pub id: u64,
    /// The name shown for it: the file name, or a given name for documents without a file.
    pub name: String,
    /// Changes with every edit, undo and redo.
    pub version: u64,
    /// The version that was last saved (or loaded).
    pub saved_version: u64,
    /// The file as it was on disk when last read or written ([`FileStamp::of`] its path): a
    /// save over a file whose stamp changed since asks first, and the file watcher reloads
    /// only files that really changed.
    pub disk: Option<FileStamp>,
    /// Unsaved edits brought back from a crashed session's recovery file (added to the count
    /// [`Workspace::unsaved_edits`] reports).
    pub recovered_edits: usize,
    /// The last version changes and what each touched, newest last (at most [`STEPS_KEPT`]),
    /// so views can follow an edit in pieces ([`OpenDocument::tracks_changed_since`]).
    steps: VecDeque<VersionStep>,
}

/// How many version changes a document remembers what they touched.
const STEPS_KEPT: usize = 64;

/// One change of a document's version and what it touched.
#[derive(Debug, Clone, PartialEq)]
struct VersionStep {
    from: u64,
    to: u64,
    touched: Touched,
}

/// What a version change touched.
#[derive(Debug, Clone, PartialEq)]
enum Touched {
    /// These tracks of one clip (by index), nothing else.
    Tracks(usize, Vec<usize>),
    /// More than tracks (a whole clip, the clip list).
    More,
}

impl Touched {
    fn of(snapshot: &Snapshot) -> Touched {
        match snapshot {
            Snapshot::Tracks { clip, tracks } => {
                Touched::Tracks(*clip, tracks.iter().map(|(t, _)| *t).collect())
            }
            _ => Touched::More,
        }
    }
}

impl OpenDocument {
    /// The tracks of clip `clip` whose keys changed between `version` and the document's
    /// version, when every change since was to tracks only (keys moved, added, deleted,
    /// retimed; no clip added, removed or renamed): an empty set when nothing of `clip` changed.
    /// `None` when the document cannot say (a structural change, or too long ago).
    pub fn tracks_changed_since(&self, version: u64, clip: usize) -> Option<BTreeSet<usize>> {
        let mut out = BTreeSet::new();
        let mut at = self.version;
        // Back through time: each step found must be older than the one before it.
        let mut before = self.steps.len();
        while at != version {
            let i = self.steps.range(..before).rposition(|s| s.to == at)?;
            let step = &self.steps[i];
            match &step.touched {
                Touched::Tracks(c, tracks) if *c == clip => out.extend(tracks),
                Touched::Tracks(..) => {}
                Touched::More => return None,
            }
            at = step.from;
            before = i;
        }
        Some(out)
    }

    /// Notes that the version went `from` → `to`, touching what `snapshot` holds.
    fn step(&mut self, from: u64, to: u64, snapshot: &Snapshot) {
        if self.steps.len() == STEPS_KEPT {
            self.steps.pop_front();
        }
        self.steps.push_back(VersionStep {
            from,
            to,
            touched: Touched::of(snapshot),
        });
    }

    /// True when the document has edits that are not saved.
    pub fn is_dirty(&self) -> bool {
        self.version != self.saved_version
    }

    /// A short name for lists and dialogs.
    pub fn title(&self) -> &str {
        &self.name
    }

    /// Points the document at a new file (after Save As), renaming it after the file.
    pub fn set_path(&mut self, path: &std::path::Path) {
        self.doc.path = Some(path.to_path_buf());
        self.name = file_name(path);
    }
}

/// What [`Workspace::apply`] did.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Applied {
    /// The edit's label ("Optimize").
    pub label: String,
    /// A report for the user ("optimize: 428,766 → 248,618 keys"), if the edit has one.
    pub message: Option<String>,
    /// A clip the editor should select afterwards (a duplicate, say).
    pub select_clip: Option<ClipId>,
    /// Keys the editor should select afterwards (inserted keys, say).
    pub select_keys: Vec<KeyRef>,
    /// Tracks of the edited clip the editor should show afterwards (duplicated tracks).
    pub select_tracks: Vec<usize>,
}

/// The open documents plus the undo history: the editor's model.
#[derive(Debug, Default)]
pub struct Workspace {
    /// Open documents, in the order they were opened.
    pub documents: Vec<OpenDocument>,
    /// Undo and redo stacks.
    pub history: History,
    counter: u64,
}

impl Workspace {
    /// An empty workspace.
    pub fn new() -> Workspace {
        Workspace::default()
    }

    fn next(&mut self) -> u64 {
        self.counter += 1;
        self.counter
    }

    /// Adds a loaded document (clean), named after its file, and returns its index.
    pub fn add(&mut self, doc: Document) -> usize {
        let name = doc
            .path
            .as_deref()
            .map(file_name)
            .unwrap_or_else(|| "untitled".into());
        self.add_named(doc, name)
    }

    /// Adds a document under a given name (the built-in demo, say) and returns its index.
    pub fn add_named(&mut self, doc: Document, name: impl Into<String>) -> usize {
        let id = self.next();
        let version = self.next();
        self.documents.push(OpenDocument {
            doc,
            id,
            name: name.into(),
            version,
            saved_version: version,
            disk: None,
            recovered_edits: 0,
            steps: VecDeque::new(),
        });
        self.documents.len() - 1
    }

    /// Adds a document brought back from a recovery file: unsaved (dirty) from the start, with
    /// `edits` unsaved edits, named after its file. Returns its index.
    pub fn add_recovered(&mut self, doc: Document, name: impl Into<String>, edits: usize) -> usize {
        let index = self.add_named(doc, name);
        let version = self.next();
        let d = &mut self.documents[index];
        d.version = version;
        d.recovered_edits = edits.max(1);
        index
    }

    /// How many edits document `index` has that are not saved: the undo steps since its last
    /// save (or load) plus those recovered from a crashed session; 0 when it is clean.
    pub fn unsaved_edits(&self, index: usize) -> usize {
        let Some(d) = self.documents.get(index) else {
            return 0;
        };
        if !d.is_dirty() {
            return 0;
        }
        (d.recovered_edits + self.history.steps_after(d.id, d.saved_version)).max(1)
    }

    /// Replaces document `index` with a freshly loaded one (a reload): clean, its undo steps
    /// forgotten.
    pub fn replace(&mut self, index: usize, doc: Document) {
        let version = self.next();
        if let Some(d) = self.documents.get_mut(index) {
            self.history.forget_document(d.id);
            d.doc = doc;
            d.version = version;
            d.saved_version = version;
            d.recovered_edits = 0;
        }
    }

    /// The index of the open document read from `path`, if any (paths compared canonically).
    pub fn find_path(&self, path: &std::path::Path) -> Option<usize> {
        let want = std::fs::canonicalize(path).ok()?;
        self.documents.iter().position(|d| {
            d.doc
                .path
                .as_deref()
                .and_then(|p| std::fs::canonicalize(p).ok())
                .is_some_and(|p| p == want)
        })
    }

    /// The index of the document with stable id `id`.
    pub fn index_of(&self, id: u64) -> Option<usize> {
        self.documents.iter().position(|d| d.id == id)
    }

    /// Closes a document; its undo steps are forgotten.
    pub fn close(&mut self, index: usize) -> Option<OpenDocument> {
        if index >= self.documents.len() {
            return None;
        }
        let doc = self.documents.remove(index);
        self.history.forget_document(doc.id);
        Some(doc)
    }

    /// Marks a document as saved at its current version.
    pub fn mark_saved(&mut self, index: usize) {
        if let Some(d) = self.documents.get_mut(index) {
            d.saved_version = d.version;
            d.recovered_edits = 0;
        }
    }

    /// True when any document has unsaved edits.
    pub fn any_dirty(&self) -> bool {
        self.documents.iter().any(OpenDocument::is_dirty)
    }

    /// The clip `id`, if it exists.
    pub fn clip(&self, id: ClipId) -> Option<&Clip> {
        self.documents.get(id.doc)?.doc.clips.get(id.clip)
    }

    /// Every clip id, document by document.
    pub fn clip_ids(&self) -> Vec<ClipId> {
        self.documents
            .iter()
            .enumerate()
            .flat_map(|(doc, d)| (0..d.doc.clips.len()).map(move |clip| ClipId { doc, clip }))
            .collect()
    }

    /// Undoes the last edit; returns its label.
    pub fn undo(&mut self) -> Option<String> {
        let edit = self.history.take_undo()?;
        for change in edit.changes.iter().rev() {
            if let Some(d) = self.documents.iter_mut().find(|d| d.id == change.doc_id) {
                change.before.restore(&mut d.doc.clips);
                d.step(d.version, change.version_before, &change.before);
                d.version = change.version_before;
            }
        }
        Some(edit.label)
    }

    /// Redoes the last undone edit; returns its label.
    pub fn redo(&mut self) -> Option<String> {
        let edit = self.history.take_redo()?;
        for change in &edit.changes {
            if let Some(d) = self.documents.iter_mut().find(|d| d.id == change.doc_id) {
                change.after.restore(&mut d.doc.clips);
                d.step(d.version, change.version_after, &change.after);
                d.version = change.version_after;
            }
        }
        Some(edit.label)
    }

    /// Carries out `edit`, records it for undo and marks the documents it changed dirty.
    /// An edit that does not fit the documents (a stale index, say) changes nothing and
    /// returns why.
    pub fn apply(&mut self, edit: Edit) -> Result<Applied, String> {
        let label = edit.label().to_string();
        let gesture = match &edit {
            Edit::MoveKeys { gesture, .. }
            | Edit::SetHandle { gesture, .. }
            | Edit::SetKey { gesture, .. }
            | Edit::ScaleKeys { gesture, .. } => *gesture,
            _ => None,
        };
        let mut applied = Applied {
            label: label.clone(),
            ..Applied::default()
        };
        let mut changes = Vec::new();
        match edit {
            Edit::Optimize(ref scope) | Edit::Trim(ref scope) | Edit::ResetDuration(ref scope) => {
                let scope = scope.clone();
                let op = match &edit {
                    Edit::Optimize(_) => ClipOp::Optimize,
                    Edit::Trim(_) => ClipOp::Trim,
                    _ => ClipOp::ResetDuration,
                };
                applied.message = Some(self.clip_op(op, scope, &BTreeMap::new(), &mut changes)?);
            }
            Edit::Fix { scope, settings } => {
                applied.message =
                    Some(self.clip_op(ClipOp::Fix, scope, &settings, &mut changes)?);
            }
            Edit::Retime {
                scope,
                factor,
                offset,
            } => {
                if !(factor.is_finite() && factor > 0.0 && offset.is_finite()) {
                    return Err(format!(
                        "retime: the factor must be a finite number above 0 and the offset finite (not {factor} and {offset})"
                    ));
                }
                let op = ClipOp::Retime { factor, offset };
                applied.message = Some(self.clip_op(op, scope, &BTreeMap::new(), &mut changes)?);
            }
            Edit::Resample { scope, fps } => {
                if !(fps.is_finite() && fps > 0.0) {
                    return Err(format!("resample: {fps} is not a frame rate above 0"));
                }
                let op = ClipOp::Resample(fps);
                applied.message = Some(self.clip_op(op, scope, &BTreeMap::new(), &mut changes)?);
            }
            Edit::Reverse(scope) => {
                applied.message =
                    Some(self.clip_op(ClipOp::Reverse, scope, &BTreeMap::new(), &mut changes)?);
            }
            Edit::UnrollQuaternions(scope) => {
                applied.message =
                    Some(self.clip_op(ClipOp::Unroll, scope, &BTreeMap::new(), &mut changes)?);
            }
            Edit::EulerFilter(scope) => {
                let op = ClipOp::EulerFilter;
                applied.message = Some(self.clip_op(op, scope, &BTreeMap::new(), &mut changes)?);
            }
            Edit::RenameTracks {
                scope,
                pattern,
                replacement,
            } => {
                let re = regex::Regex::new(&pattern).map_err(|e| {
                    format!(
                        "rename: {pattern:?} is not a regular expression: {}",
                        one_line(&e.to_string())
                    )
                })?;
                let op = ClipOp::Rename(re, replacement);
                applied.message = Some(self.clip_op(op, scope, &BTreeMap::new(), &mut changes)?);
            }
            Edit::PasteKeys {
                clip,
                clipboard,
                targets,
                time,
                values,
                ..
            } => {
                if !time.is_finite() {
                    return Err(format!("paste at {time} s: not a time"));
                }
                let mut report = Default::default();
                let touched = targets.iter().flatten().copied();
                self.edit_tracks(clip, touched, &mut changes, |c| {
                    report = paste_keys(c, &clipboard, &targets, time, values);
                    Ok(())
                })?;
                let c = self.clip(clip).ok_or("no such clip")?;
                applied.select_keys = report
                    .pasted
                    .iter()
                    .flat_map(|&(track, key)| {
                        (0..c.tracks[track].value_size().max(1)).map(move |component| KeyRef {
                            track,
                            key,
                            component,
                        })
                    })
                    .collect();
                let mut message = format!(
                    "{} {} keys",
                    if applied.label == "Duplicate keys" {
                        "duplicated"
                    } else {
                        "pasted"
                    },
                    thousands(report.pasted.len())
                );
                if !report.skipped.is_empty() {
                    message += &format!("; skipped {}", report.skipped.join("; "));
                }
                applied.message = Some(message);
            }
            Edit::SmoothKeys {
                clip,
                keys,
                strength,
                passes,
            } => {
                let by_track = group_by_track(&keys);
                let mut moved = 0;
                self.edit_tracks(clip, by_track.keys().copied(), &mut changes, |c| {
                    moved = smooth_in_place(c, &by_track, strength, passes);
                    Ok(())
                })?;
                applied.message = Some(format!("smoothed {moved} key(s)"));
                applied.select_keys = keys;
            }
            Edit::ScaleKeys {
                clip,
                keys,
                pivot_time,
                time_factor,
                pivot_value,
                value_factor,
                gesture: _,
            } => {
                if !(value_factor.is_finite() && pivot_value.is_finite()) {
                    return Err(format!(
                        "scale keys: value factor {value_factor} is not a number"
                    ));
                }
                let by_track = group_by_track(&keys);
                self.edit_tracks(clip, by_track.keys().copied(), &mut changes, |c| {
                    for (&t, (whole, parts)) in &by_track {
                        let track = &mut c.tracks[t];
                        if time_factor != 1.0 {
                            track.scale_key_times(whole, pivot_time, time_factor)?;
                        }
                        if value_factor != 1.0 {
                            track.scale_key_values(parts, pivot_value, value_factor);
                        }
                        track.refresh_auto_handles();
                    }
                    Ok(())
                })?;
                applied.select_keys = keys;
            }
            Edit::SnapKeys { clip, keys, fps } => {
                if !(fps.is_finite() && fps > 0.0) {
                    return Err(format!("snap keys: {fps} is not a frame rate above 0"));
                }
                let by_track = group_by_track(&keys);
                let (mut moved, mut skipped) = (0, 0);
                self.edit_tracks(clip, by_track.keys().copied(), &mut changes, |c| {
                    for (&t, (whole, _)) in &by_track {
                        let (m, s) = c.tracks[t].snap_keys_to_frames(whole, fps);
                        moved += m;
                        skipped += s;
                        c.tracks[t].refresh_auto_handles();
                    }
                    Ok(())
                })?;
                let mut message = format!("snapped {moved} key(s) to frames at {fps} fps");
                if skipped > 0 {
                    message += &format!("; {skipped} stayed (their frame is taken)");
                }
                applied.message = Some(message);
                applied.select_keys = keys;
            }
            Edit::SetMarkers { clip, markers } => {
                let before = self.clip(clip).ok_or("no such clip")?.markers().len();
                self.edit_clip(clip, &mut changes, |c| c.set_markers(&markers))?;
                applied.message = Some(format!("markers: {before} -> {}", markers.len()));
            }
            Edit::MergeClips { doc, clips, name } => {
                let all = &self.documents.get(doc).ok_or("no such document")?.doc.clips;
                if clips.len() < 2 {
                    return Err("merge clips: choose at least two clips".into());
                }
                let sources = clips
                    .iter()
                    .map(|&c| {
                        all.get(c)
                            .ok_or_else(|| format!("merge clips: no clip {c}"))
                    })
                    .collect::<Result<Vec<&Clip>, String>>()?;
                let (merged, shared) = merge_clips(&sources, name);
                applied.message = Some(format!(
                    "merged {} clips into {}: {} tracks ({shared} shared)",
                    clips.len(),
                    merged.name,
                    merged.tracks.len()
                ));
                let index = all.len();
                self.edit_clips(doc, &mut changes, |list| list.push(merged))?;
                applied.select_clip = Some(ClipId { doc, clip: index });
            }
            Edit::DeleteTracks { clip, tracks } => {
                let mut tracks = tracks;
                tracks.sort_unstable();
                tracks.dedup();
                let n = self.clip(clip).ok_or("no such clip")?.tracks.len();
                if let Some(bad) = tracks.iter().find(|&&t| t >= n) {
                    return Err(format!("no track {bad} to delete"));
                }
                self.edit_clip(clip, &mut changes, |c| {
                    for &t in tracks.iter().rev() {
                        c.tracks.remove(t);
                    }
                    Ok(())
                })?;
                applied.message = Some(format!("deleted {} track(s)", tracks.len()));
            }
            Edit::DuplicateTracks { clip, tracks } => {
                let n = self.clip(clip).ok_or("no such clip")?.tracks.len();
                if tracks.is_empty() {
                    return Err("no tracks to duplicate".into());
                }
                if let Some(bad) = tracks.iter().find(|&&t| t >= n) {
                    return Err(format!("no track {bad} to duplicate"));
                }
                let mut added = Vec::new();
                self.edit_clip(clip, &mut changes, |c| {
                    added = c.duplicate_tracks(&tracks);
                    Ok(())
                })?;
                applied.message = Some(format!("duplicated {} track(s)", added.len()));
                applied.select_tracks = added;
            }
            Edit::MuteTracks {
                clip,
                tracks,
                muted,
            } => {
                let c = self.clip(clip).ok_or("no such clip")?;
                if let Some(bad) = tracks.iter().find(|&&t| t >= c.tracks.len()) {
                    return Err(format!("no track {bad} to mute"));
                }
                if tracks.iter().all(|&t| c.tracks[t].muted == muted) {
                    return Err(format!(
                        "{}: the tracks are already {}",
                        if muted { "mute" } else { "unmute" },
                        if muted { "muted" } else { "playing" }
                    ));
                }
                let mut changed = 0;
                self.edit_tracks(clip, tracks.iter().copied(), &mut changes, |c| {
                    changed = c.set_tracks_muted(&tracks, muted);
                    Ok(())
                })?;
                applied.message = Some(format!(
                    "{} {changed} track(s)",
                    if muted { "muted" } else { "unmuted" }
                ));
            }
            Edit::SplitClip { clip, time } => {
                let (head, tail) = {
                    let mut head = self.clip(clip).ok_or("no such clip")?.clone();
                    let name = format!("{}.2", head.name);
                    let tail = head.split_at(time, name)?;
                    (head, tail)
                };
                let message = format!(
                    "split {} at {time:.3} s into {} and {}",
                    head.name, head.name, tail.name
                );
                self.edit_clips(clip.doc, &mut changes, |clips| {
                    clips[clip.clip] = head;
                    clips.insert(clip.clip + 1, tail);
                })?;
                applied.message = Some(message);
                applied.select_clip = Some(ClipId {
                    doc: clip.doc,
                    clip: clip.clip + 1,
                });
            }
            Edit::Subclip {
                clip,
                name,
                start,
                end,
                fps,
                replace,
            } => {
                if !(fps.is_finite() && fps > 0.0 && start.is_finite() && end.is_finite()) {
                    return Err(format!(
                        "subclip: frames {start} to {end} at {fps} fps is not a range"
                    ));
                }
                if end <= start {
                    return Err(format!(
                        "subclip: the end ({end}) must come after the start ({start})"
                    ));
                }
                let sub = subclip(
                    self.clip(clip).ok_or("no such clip")?,
                    name,
                    start,
                    end,
                    fps,
                );
                if sub.tracks.is_empty() {
                    return Err(format!(
                        "subclip: no keys in frames {start} to {end} at {fps} fps"
                    ));
                }
                applied.message = Some(format!(
                    "subclip {}: {} keys, {:.3} s",
                    sub.name,
                    thousands(sub.key_count()),
                    sub.duration
                ));
                if replace {
                    self.edit_clip(clip, &mut changes, |c| {
                        *c = sub;
                        Ok(())
                    })?;
                } else {
                    self.edit_clips(clip.doc, &mut changes, |clips| {
                        clips.insert(clip.clip + 1, sub);
                    })?;
                    applied.select_clip = Some(ClipId {
                        doc: clip.doc,
                        clip: clip.clip + 1,
                    });
                }
            }
            Edit::MakeAdditive {
                clip,
                frame,
                fps,
                reference,
            } => {
                if !frame.is_finite() {
                    return Err(format!("make additive: frame {frame} is not a number"));
                }
                let reference = match reference {
                    Some(r) if r != clip => {
                        Some(self.clip(r).ok_or("no such reference clip")?.clone())
                    }
                    _ => None,
                };
                self.edit_clip(clip, &mut changes, |c| {
                    make_clip_additive(c, frame, reference.as_ref(), fps);
                    Ok(())
                })?;
                applied.message = Some(match &reference {
                    Some(r) => format!("additive against {} at frame {frame}", r.name),
                    None => format!("additive against its own frame {frame}"),
                });
            }
            Edit::RenameClip { clip, name } => {
                self.edit_clip(clip, &mut changes, |c| {
                    c.name = name;
                    Ok(())
                })?;
            }
            Edit::SetDuration { clip, duration } => {
                if !(duration.is_finite() && duration >= 0.0) {
                    return Err(format!(
                        "duration must be a finite number ≥ 0, not {duration}"
                    ));
                }
                self.edit_clip(clip, &mut changes, |c| {
                    c.duration = duration;
                    Ok(())
                })?;
            }
            Edit::SetBlendMode { clip, mode } => {
                self.edit_clip(clip, &mut changes, |c| {
                    c.blend_mode = mode;
                    Ok(())
                })?;
            }
            Edit::DuplicateClip { clip } => {
                let copy = {
                    let c = self.clip(clip).ok_or("no such clip")?;
                    let mut copy = c.duplicate();
                    copy.name = format!("{} copy", c.name);
                    copy
                };
                self.edit_clips(clip.doc, &mut changes, |clips| {
                    clips.insert(clip.clip + 1, copy);
                })?;
                applied.select_clip = Some(ClipId {
                    doc: clip.doc,
                    clip: clip.clip + 1,
                });
            }
            Edit::AddClip { doc, clip } => {
                let index = self
                    .documents
                    .get(doc)
                    .ok_or("add a clip: no such document")?
                    .doc
                    .clips
                    .len();
                self.edit_clips(doc, &mut changes, |clips| clips.push(*clip))?;
                applied.select_clip = Some(ClipId { doc, clip: index });
            }
            Edit::ReplaceClips { clips, .. } => {
                if clips.iter().any(|(id, _)| self.clip(*id).is_none()) {
                    return Err("replace clips: a clip is gone".into());
                }
                for (id, clip) in clips {
                    let before = self.clip(id).ok_or("no such clip")?.clone();
                    self.replace_clip(id, before, *clip, &mut changes);
                }
            }
            Edit::DeleteClip { clip } => {
                self.clip(clip).ok_or("no such clip")?;
                self.edit_clips(clip.doc, &mut changes, |clips| {
                    clips.remove(clip.clip);
                })?;
            }
            Edit::MoveKeys {
                clip, keys, dt, dv, ..
            } => {
                let by_track = group_by_track(&keys);
                self.edit_tracks(clip, by_track.keys().copied(), &mut changes, |c| {
                    let (mut lo, mut hi) = (f64::NEG_INFINITY, f64::INFINITY);
                    for (&t, (whole, _)) in &by_track {
                        let (l, h) = c.tracks[t].time_move_limits(whole);
                        lo = lo.max(l);
                        hi = hi.min(h);
                    }
                    let dt = if lo <= hi { dt.clamp(lo, hi) } else { 0.0 };
                    for (&t, (whole, parts)) in &by_track {
                        let track = &mut c.tracks[t];
                        if dt != 0.0 {
                            track.move_keys(whole, dt);
                        }
                        if dv != 0.0 {
                            track.offset_values(parts, dv);
                        }
                        track.refresh_auto_handles();
                    }
                    Ok(())
                })?;
                applied.select_keys = keys;
            }
            Edit::SetHandle {
                clip,
                key,
                side,
                time,
                value,
                break_handles,
                ..
            } => {
                self.edit_tracks(clip, [key.track], &mut changes, |c| {
                    c.tracks[key.track].set_handle(
                        key.key,
                        key.component,
                        side,
                        time,
                        value,
                        break_handles,
                    );
                    Ok(())
                })?;
            }
            Edit::SetKey {
                clip,
                key,
                time,
                value,
                ..
            } => {
                self.edit_tracks(clip, [key.track], &mut changes, |c| {
                    let track = &mut c.tracks[key.track];
                    track.set_key(key.key, time, value.map(|v| (key.component, v)));
                    track.refresh_auto_handles();
                    Ok(())
                })?;
            }
            Edit::DeleteKeys { clip, keys } => {
                let by_track = group_by_track(&keys);
                let empties = {
                    let c = self.clip(clip).ok_or("no such clip")?;
                    by_track.iter().any(|(&t, (whole, _))| {
                        c.tracks.get(t).is_some_and(|tr| tr.len() <= whole.len())
                    })
                };
                let work = |c: &mut Clip| -> Result<(), String> {
                    let mut emptied = BTreeSet::new();
                    for (&t, (whole, _)) in &by_track {
                        let track = c.tracks.get_mut(t).ok_or("no such track")?;
                        track.delete_keys(whole);
                        if track.is_empty() {
                            emptied.insert(t);
                        } else {
                            track.refresh_auto_handles();
                        }
                    }
                    if !emptied.is_empty() {
                        // One pass, not one `remove` (a shift of every later track) per track.
                        let mut index = 0;
                        c.tracks.retain(|_| {
                            index += 1;
                            !emptied.contains(&(index - 1))
                        });
                    }
                    Ok(())
                };
                if empties {
                    self.edit_clip(clip, &mut changes, work)?;
                } else {
                    self.edit_tracks(clip, by_track.keys().copied(), &mut changes, work)?;
                }
                applied.message =
                    Some(format!("deleted {} keys", thousands(count_keys(&by_track))));
            }
            Edit::InsertKey { clip, tracks, time } => {
                let mut inserted = Vec::new();
                self.edit_tracks(clip, tracks.iter().copied(), &mut changes, |c| {
                    for &t in &tracks {
                        let k = c.tracks[t].insert_key(time);
                        c.tracks[t].refresh_auto_handles();
                        inserted.push(KeyRef {
                            track: t,
                            key: k,
                            component: 0,
                        });
                    }
                    Ok(())
                })?;
                applied.select_keys = inserted;
            }
            Edit::SetInterpolation {
                clip,
                tracks,
                interpolation,
            } => {
                let mut refused = Vec::new();
                self.edit_tracks(clip, tracks.iter().copied(), &mut changes, |c| {
                    for &t in &tracks {
                        if let Err(e) = c.tracks[t].convert_interpolation(interpolation) {
                            refused.push(e);
                        }
                    }
                    Ok(())
                })?;
                if !refused.is_empty() {
                    applied.message = Some(refused.join("; "));
                }
            }
            Edit::SetTangentMode { clip, keys, mode } => {
                let by_track = group_by_track(&keys);
                self.edit_tracks(clip, by_track.keys().copied(), &mut changes, |c| {
                    for (&t, (whole, _)) in &by_track {
                        for &k in whole {
                            c.tracks[t].set_tangent_mode(k, mode);
                        }
                        c.tracks[t].refresh_auto_handles();
                    }
                    Ok(())
                })?;
            }
        }
        if !changes.is_empty() {
            self.history.push(UndoStep {
                label,
                changes,
                gesture,
            });
        }
        Ok(applied)
    }

    /// Runs optimize / trim / reset duration / fix over a scope and says what it did; fixes
    /// use each document's `settings` (the built-in ones for a document not listed).
    fn clip_op(
        &mut self,
        op: ClipOp,
        scope: ClipScope,
        settings: &BTreeMap<usize, LintSettings>,
        changes: &mut Vec<DocChange>,
    ) -> Result<String, String> {
        let builtin = LintSettings::default();
        let ids = match scope {
            ClipScope::Clip(id) => {
                self.clip(id).ok_or("no such clip")?;
                vec![id]
            }
            ClipScope::Clips(ids) => {
                for &id in &ids {
                    self.clip(id).ok_or("no such clip")?;
                }
                ids
            }
            ClipScope::All => self.clip_ids(),
        };
        let (mut negated, mut renamed) = (0, 0);
        let (mut keys_before, mut keys_after) = (0, 0);
        let (mut dur_changed, mut clips, mut fixes) = (0, 0, 0);
        for id in ids {
            let before = self.clip(id).ok_or("no such clip")?.clone();
            let mut after = before.clone();
            match &op {
                ClipOp::Optimize => {
                    let r = after.optimize();
                    keys_before += r.keys_before;
                    keys_after += r.keys_after;
                }
                ClipOp::Trim => {
                    keys_before += after.key_count();
                    after.trim();
                    keys_after += after.key_count();
                }
                ClipOp::ResetDuration => {
                    after.reset_duration();
                    if after.duration != before.duration {
                        dur_changed += 1;
                    }
                }
                ClipOp::Fix => {
                    let settings = settings.get(&id.doc).unwrap_or(&builtin);
                    fixes += after.fix(settings).changes.len();
                }
                ClipOp::Retime { factor, offset } => after.retime(*factor, *offset),
                ClipOp::Resample(fps) => {
                    keys_before += after.key_count();
                    keys_after += after.resample(*fps)?;
                }
                ClipOp::Reverse => {
                    after.reverse();
                }
                ClipOp::Unroll => {
                    let (keys, tracks) = after.unroll_quaternions();
                    negated += keys;
                    dur_changed += tracks;
                }
                ClipOp::EulerFilter => {
                    let (keys, tracks) = after.euler_filter();
                    negated += keys;
                    dur_changed += tracks;
                }
                ClipOp::Rename(re, replacement) => {
                    renamed += after.rename_tracks(re, replacement);
                }
            }
            clips += 1;
            if after != before {
                self.replace_clip(id, before, after, changes);
            }
        }
        let of = if clips == 1 {
            String::new()
        } else {
            format!(" over {clips} clips")
        };
        Ok(match op {
            ClipOp::Optimize => format!(
                "optimize: {} -> {} keys{of}",
                thousands(keys_before),
                thousands(keys_after)
            ),
            ClipOp::Trim => format!(
                "trim: {} -> {} keys{of}",
                thousands(keys_before),
                thousands(keys_after)
            ),
            ClipOp::ResetDuration => {
                format!("reset duration: {dur_changed} of {clips} clips changed")
            }
            ClipOp::Fix => format!("fix: {fixes} change(s){of}"),
            ClipOp::Retime { factor, offset } => {
                format!("retime: times × {factor} + {offset} s{of}")
            }
            ClipOp::Resample(fps) => format!(
                "resample at {fps} fps: {} -> {} keys{of}",
                thousands(keys_before),
                thousands(keys_after)
            ),
            ClipOp::Reverse => format!("reverse: {clips} clip(s) play backwards"),
            ClipOp::Unroll => format!(
                "unroll quaternions: {negated} key(s) negated in {dur_changed} track(s){of}"
            ),
            ClipOp::EulerFilter => format!(
                "euler filter: {negated} key(s) changed in {dur_changed} rotation track(s){of}"
            ),
            ClipOp::Rename(..) => format!("rename: {renamed} track(s) renamed{of}"),
        })
    }

    /// Edits one clip, recording the whole clip.
    fn edit_clip(
        &mut self,
        id: ClipId,
        changes: &mut Vec<DocChange>,
        f: impl FnOnce(&mut Clip) -> Result<(), String>,
    ) -> Result<(), String> {
        let before = self.clip(id).ok_or("no such clip")?.clone();
        let mut after = before.clone();
        f(&mut after)?;
        self.replace_clip(id, before, after, changes);
        Ok(())
    }

    /// Puts `after` in place of clip `id` and records the change.
    fn replace_clip(
        &mut self,
        id: ClipId,
        before: Clip,
        after: Clip,
        changes: &mut Vec<DocChange>,
    ) {
        self.documents[id.doc].doc.clips[id.clip] = after.clone();
        let snapshot = |clip| Snapshot::Clip {
            index: id.clip,
            clip: Box::new(clip),
        };
        self.record(id.doc, snapshot(before), snapshot(after), changes);
    }

    /// Records a change of document `doc` (already made) and gives the document a new version.
    fn record(
        &mut self,
        doc: usize,
        before: Snapshot,
        after: Snapshot,
        changes: &mut Vec<DocChange>,
    ) {
        let version_after = self.next();
        let d = &mut self.documents[doc];
        d.step(d.version, version_after, &after);
        changes.push(DocChange {
            doc_id: d.id,
            before,
            after,
            version_before: d.version,
            version_after,
        });
        d.version = version_after;
    }

    /// Edits some tracks of one clip, recording only those tracks.
    fn edit_tracks(
        &mut self,
        id: ClipId,
        tracks: impl IntoIterator<Item = usize>,
        changes: &mut Vec<DocChange>,
        f: impl FnOnce(&mut Clip) -> Result<(), String>,
    ) -> Result<(), String> {
        let indices: BTreeSet<usize> = tracks.into_iter().collect();
        let clip = self.clip(id).ok_or("no such clip")?;
        if let Some(bad) = indices.iter().find(|&&t| t >= clip.tracks.len()) {
            return Err(format!("no track {bad} in clip {}", clip.name));
        }
        let snapshot = |c: &Clip| Snapshot::Tracks {
            clip: id.clip,
            tracks: indices.iter().map(|&t| (t, c.tracks[t].clone())).collect(),
        };
        let before = snapshot(clip);
        let clips = &mut self.documents[id.doc].doc.clips;
        if let Err(e) = f(&mut clips[id.clip]) {
            before.restore(clips);
            return Err(e);
        }
        let after = snapshot(&clips[id.clip]);
        self.record(id.doc, before, after, changes);
        Ok(())
    }

    /// Edits a document's clip list, recording the whole list.
    fn edit_clips(
        &mut self,
        doc: usize,
        changes: &mut Vec<DocChange>,
        f: impl FnOnce(&mut Vec<Clip>),
    ) -> Result<(), String> {
        let clips = &mut self
            .documents
            .get_mut(doc)
            .ok_or("no such document")?
            .doc
            .clips;
        let before = Snapshot::Clips(clips.clone());
        f(clips);
        let after = Snapshot::Clips(clips.clone());
        self.record(doc, before, after, changes);
        Ok(())
    }
}

/// The last component of `path`, for display.
fn file_name(path: &std::path::Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string())
}

/// The whole-clip operations of the Clip menu.
enum ClipOp {
    Optimize,
    Trim,
    ResetDuration,
    Fix,
    Retime { factor: f64, offset: f64 },
    Resample(f64),
    Reverse,
    Unroll,
    EulerFilter,
    Rename(regex::Regex, String),
}

/// The first line of a (regex) error message, with runs of spaces collapsed.
fn one_line(text: &str) -> String {
    text.lines()
        .map(str::trim)
        .rfind(|l| !l.is_empty() && !l.chars().all(|c| c == '^' || c == ' '))
        .unwrap_or(text)
        .to_string()
}

/// Key refs grouped by track: `(sorted unique key indices, (key, component) pairs)`.
type ByTrack = BTreeMap<usize, (Vec<usize>, Vec<(usize, usize)>)>;

/// Smooths the grouped keys of `clip` (what [`Edit::SmoothKeys`] does); returns how many moved.
fn smooth_in_place(clip: &mut Clip, by_track: &ByTrack, strength: f64, passes: usize) -> usize {
    let mut moved = 0;
    for (&t, (whole, _)) in by_track {
        if let Some(track) = clip.tracks.get_mut(t) {
            moved += track.smooth_keys(whole, strength, passes);
            track.refresh_auto_handles();
        }
    }
    moved
}

/// `clip` as [`Edit::SmoothKeys`] with these arguments would leave it, without touching the
/// workspace: what the Smooth Keys dialog previews over a ghost of the original.
pub fn smoothed_clip(clip: &Clip, keys: &[KeyRef], strength: f64, passes: usize) -> Clip {
    let mut out = clip.clone();
    smooth_in_place(&mut out, &group_by_track(keys), strength, passes);
    out
}

fn group_by_track(keys: &[KeyRef]) -> ByTrack {
    let mut map: ByTrack = BTreeMap::new();
    for k in keys {
        let e = map.entry(k.track).or_default();
        e.0.push(k.key);
        e.1.push((k.key, k.component));
    }
    for (whole, parts) in map.values_mut() {
        whole.sort_unstable();
        whole.dedup();
        parts.sort_unstable();
        parts.dedup();
    }
    map
}

fn count_keys(by_track: &ByTrack) -> usize {
    by_track.values().map(|(w, _)| w.len()).sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use clipscope_core::formats::Format;
    use clipscope_core::model::ops::HandleSide;
    use clipscope_core::model::{Interpolation, Track, TrackKind};

    fn workspace() -> Workspace {
        let track = Track::numeric(
            "cube.position",
            TrackKind::Vector,
            vec![0.0, 1.0, 2.0, 3.0],
            vec![0., 0., 0., 0., 0., 0., 0., 0., 0., 1., 2., 3.],
        );
        let flag = Track::numeric(
            ".opacity",
            TrackKind::Number,
            vec![0.0, 2.0],
            vec![1.0, 0.5],
        );
        let clip = Clip::new("walk", 3.0, vec![track, flag]);
        let mut ws = Workspace::new();
        ws.add(Document::new(Format::ThreeJs, vec![clip]));
        ws
    }

    const CLIP: ClipId = ClipId { doc: 0, clip: 0 };

    fn key(track: usize, key: usize, component: usize) -> KeyRef {
        KeyRef {
            track,
            key,
            component,
        }
    }

    #[test]
    fn optimize_reports_undoes_and_redoes() {
        let mut ws = workspace();
        let before = ws.clip(CLIP).unwrap().clone();
        let applied = ws.apply(Edit::Optimize(ClipScope::Clip(CLIP))).unwrap();
        assert_eq!(applied.message.as_deref(), Some("optimize: 6 -> 5 keys"));
        assert!(ws.documents[0].is_dirty());
        let after = ws.clip(CLIP).unwrap().clone();
        assert_eq!(after.tracks[0].len(), 3);
        assert_eq!(ws.history.undo_label(), Some("Optimize"));
        assert_eq!(ws.undo().as_deref(), Some("Optimize"));
        assert_eq!(ws.clip(CLIP).unwrap(), &before);
        assert!(
            !ws.documents[0].is_dirty(),
            "undo back to the saved state is clean"
        );
        assert_eq!(ws.redo().as_deref(), Some("Optimize"));
        assert_eq!(ws.clip(CLIP).unwrap(), &after);
        assert!(ws.documents[0].is_dirty());
    }

    #[test]
    fn a_no_op_leaves_no_undo_step() {
        let mut ws = workspace();
        ws.apply(Edit::Trim(ClipScope::All)).unwrap();
        assert!(ws.history.undo_label().is_none());
        assert!(!ws.any_dirty());
    }

    #[test]
    fn a_drag_gesture_is_one_undo_step() {
        let mut ws = workspace();
        let original = ws.clip(CLIP).unwrap().clone();
        for _ in 0..5 {
            ws.apply(Edit::MoveKeys {
                clip: CLIP,
                keys: vec![key(0, 3, 2)],
                dt: 0.0,
                dv: 0.5,
                gesture: Some(7),
            })
            .unwrap();
        }
        let values = ws.clip(CLIP).unwrap().tracks[0]
            .values
            .as_numbers()
            .unwrap()
            .to_vec();
        assert_eq!(values[11], 5.5);
        ws.undo();
        assert_eq!(ws.clip(CLIP).unwrap(), &original);
        assert!(ws.history.undo_label().is_none());
    }

    #[test]
    fn documents_say_which_tracks_changed_since_a_version() {
        let mut ws = workspace();
        let start = ws.documents[0].version;
        fn doc(ws: &Workspace) -> &OpenDocument {
            &ws.documents[0]
        }
        assert_eq!(
            doc(&ws).tracks_changed_since(start, 0),
            Some(BTreeSet::new())
        );
        let nudge = |ws: &mut Workspace, track: usize| {
            ws.apply(Edit::MoveKeys {
                clip: CLIP,
                keys: vec![key(track, 1, 0)],
                dt: 0.0,
                dv: 0.25,
                gesture: Some(3),
            })
            .unwrap();
        };
        nudge(&mut ws, 1);
        let one = doc(&ws).version;
        assert_eq!(doc(&ws).tracks_changed_since(start, 0), Some([1].into()));
        nudge(&mut ws, 0);
        assert_eq!(doc(&ws).tracks_changed_since(start, 0), Some([0, 1].into()));
        assert_eq!(doc(&ws).tracks_changed_since(one, 0), Some([0].into()));
        // Another clip's tracks changed nothing of this one.
        assert_eq!(doc(&ws).tracks_changed_since(one, 5), Some(BTreeSet::new()));
        // Undo (of the last edit, on track 0) is a change of tracks too.
        let before_undo = doc(&ws).version;
        ws.undo();
        assert_eq!(doc(&ws).version, one);
        assert_eq!(
            doc(&ws).tracks_changed_since(before_undo, 0),
            Some([0].into())
        );
        // Track 0 changed and changed back: still reported (a superset is safe).
        assert_eq!(doc(&ws).tracks_changed_since(start, 0), Some([0, 1].into()));
        // A renamed clip is more than tracks; an unknown version cannot be followed.
        let renamed_from = doc(&ws).version;
        ws.apply(Edit::RenameClip {
            clip: CLIP,
            name: "run".into(),
        })
        .unwrap();
        assert_eq!(doc(&ws).tracks_changed_since(renamed_from, 0), None);
        assert_eq!(doc(&ws).tracks_changed_since(u64::MAX, 0), None);
    }

    #[test]
    fn moving_keys_in_time_stops_at_unselected_neighbours() {
        let mut ws = workspace();
        ws.apply(Edit::MoveKeys {
            clip: CLIP,
            keys: vec![key(0, 1, 0)],
            dt: 5.0,
            dv: 0.0,
            gesture: None,
        })
        .unwrap();
        let times = &ws.clip(CLIP).unwrap().tracks[0].times;
        assert!(times[1] > 1.9 && times[1] < 2.0, "{times:?}");
        assert!(times.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn deleting_every_key_removes_the_track_and_undo_brings_it_back() {
        let mut ws = workspace();
        let original = ws.clip(CLIP).unwrap().clone();
        let applied = ws
            .apply(Edit::DeleteKeys {
                clip: CLIP,
                keys: vec![key(1, 0, 0), key(1, 1, 0), key(0, 1, 2)],
            })
            .unwrap();
        assert_eq!(applied.message.as_deref(), Some("deleted 3 keys"));
        let clip = ws.clip(CLIP).unwrap();
        assert_eq!(clip.tracks.len(), 1);
        assert_eq!(clip.tracks[0].times, vec![0.0, 2.0, 3.0]);
        ws.undo();
        assert_eq!(ws.clip(CLIP).unwrap(), &original);
    }

    #[test]
    fn clip_list_edits_and_stale_ids() {
        let mut ws = workspace();
        let applied = ws.apply(Edit::DuplicateClip { clip: CLIP }).unwrap();
        assert_eq!(applied.select_clip, Some(ClipId { doc: 0, clip: 1 }));
        assert_eq!(ws.documents[0].doc.clips[1].name, "walk copy");
        assert_ne!(
            ws.documents[0].doc.clips[1].uuid,
            ws.documents[0].doc.clips[0].uuid
        );
        ws.apply(Edit::RenameClip {
            clip: ClipId { doc: 0, clip: 1 },
            name: "run".into(),
        })
        .unwrap();
        ws.apply(Edit::DeleteClip { clip: CLIP }).unwrap();
        assert_eq!(ws.documents[0].doc.clips.len(), 1);
        assert_eq!(ws.documents[0].doc.clips[0].name, "run");
        assert!(
            ws.apply(Edit::DeleteClip {
                clip: ClipId { doc: 0, clip: 5 }
            })
            .is_err()
        );
        assert!(
            ws.apply(Edit::SetDuration {
                clip: CLIP,
                duration: f64::NAN
            })
            .is_err()
        );
        ws.undo();
        ws.undo();
        ws.undo();
        assert_eq!(ws.documents[0].doc.clips.len(), 1);
        assert_eq!(ws.documents[0].doc.clips[0].name, "walk");
    }

    #[test]
    fn converting_to_bezier_keeps_the_curve_and_handles_edit() {
        let mut ws = workspace();
        ws.apply(Edit::SetInterpolation {
            clip: CLIP,
            tracks: vec![0],
            interpolation: Interpolation::Bezier,
        })
        .unwrap();
        let track = &ws.clip(CLIP).unwrap().tracks[0];
        assert_eq!(track.interpolation, Interpolation::Bezier);
        assert!(track.tangents.is_some());
        ws.apply(Edit::SetHandle {
            clip: CLIP,
            key: key(0, 2, 2),
            side: HandleSide::Out,
            time: 2.2,
            value: 4.0,
            break_handles: true,
            gesture: None,
        })
        .unwrap();
        let t = ws.clip(CLIP).unwrap().tracks[0].tangents.clone().unwrap();
        let at = 2 * 3 * 2 + 2 * 2;
        assert_eq!((t.out_tangents[at], t.out_tangents[at + 1]), (2.2, 4.0));
        assert_eq!(t.mode(2), clipscope_core::model::TangentMode::Free);
    }

    #[test]
    fn unsaved_edits_count_steps_since_the_save_and_recovered_ones() {
        let mut ws = workspace();
        assert_eq!(ws.unsaved_edits(0), 0);
        ws.apply(Edit::Optimize(ClipScope::All)).unwrap();
        ws.apply(Edit::RenameClip {
            clip: CLIP,
            name: "run".into(),
        })
        .unwrap();
        assert_eq!(ws.unsaved_edits(0), 2);
        ws.mark_saved(0);
        assert_eq!(ws.unsaved_edits(0), 0);
        ws.apply(Edit::SetDuration {
            clip: CLIP,
            duration: 2.0,
        })
        .unwrap();
        assert_eq!(ws.unsaved_edits(0), 1);
        let doc = ws.documents[0].doc.clone();
        let i = ws.add_recovered(doc, "walk.json", 7);
        assert!(ws.documents[i].is_dirty());
        assert_eq!(ws.unsaved_edits(i), 7);
        ws.mark_saved(i);
        assert_eq!(ws.unsaved_edits(i), 0);
    }

    #[test]
    fn closing_a_document_forgets_its_undo_steps() {
        let mut ws = workspace();
        ws.apply(Edit::Optimize(ClipScope::All)).unwrap();
        ws.close(0);
        assert!(ws.history.undo_label().is_none());
        assert!(ws.undo().is_none());
    }

    #[test]
    fn adding_a_clip_selects_it_and_undo_takes_it_away() {
        let mut ws = workspace();
        let before = ws.documents[0].doc.clips.len();
        let clip = Clip::new("baked", 1.0, Vec::new());
        let applied = ws
            .apply(Edit::AddClip {
                doc: 0,
                clip: Box::new(clip.clone()),
            })
            .unwrap();
        assert_eq!(
            applied.select_clip,
            Some(ClipId {
                doc: 0,
                clip: before
            })
        );
        assert_eq!(ws.documents[0].doc.clips[before], clip);
        assert!(ws.documents[0].is_dirty());
        assert_eq!(ws.undo().as_deref(), Some("Add clip"));
        assert_eq!(ws.documents[0].doc.clips.len(), before);
        ws.redo();
        assert_eq!(ws.documents[0].doc.clips[before], clip);
        assert!(
            ws.apply(Edit::AddClip {
                doc: 9,
                clip: Box::new(clip)
            })
            .is_err()
        );
    }

    #[test]
    fn replacing_clips_is_one_undo_step() {
        let mut ws = workspace();
        let original = ws.documents[0].doc.clips.clone();
        let mut reduced = original.clone();
        for clip in &mut reduced {
            for track in &mut clip.tracks {
                track.optimize();
            }
            clip.name.push_str(" reduced");
        }
        let edit = Edit::ReplaceClips {
            label: "Reduce",
            clips: reduced
                .iter()
                .enumerate()
                .map(|(i, c)| (ClipId { doc: 0, clip: i }, Box::new(c.clone())))
                .collect(),
        };
        ws.apply(edit).unwrap();
        assert_eq!(ws.documents[0].doc.clips, reduced);
        assert!(ws.documents[0].is_dirty());
        assert_eq!(ws.undo().as_deref(), Some("Reduce"));
        assert_eq!(ws.documents[0].doc.clips, original);
        assert!(!ws.documents[0].is_dirty());
        let stale = Edit::ReplaceClips {
            label: "Reduce",
            clips: vec![(ClipId { doc: 0, clip: 99 }, Box::new(reduced[0].clone()))],
        };
        assert!(ws.apply(stale).is_err());
    }

    fn names(ws: &Workspace) -> Vec<String> {
        ws.documents[0]
            .doc
            .clips
            .iter()
            .map(|c| c.name.clone())
            .collect()
    }

    /// Applies `edit`, checks undo brings the document back and redo reapplies it.
    fn undoable(ws: &mut Workspace, edit: Edit) -> Applied {
        let before = ws.documents[0].doc.clips.clone();
        let label = edit.label();
        let applied = ws.apply(edit).unwrap();
        let after = ws.documents[0].doc.clips.clone();
        assert_ne!(before, after, "{label} changed nothing");
        assert_eq!(ws.undo().as_deref(), Some(label));
        assert_eq!(ws.documents[0].doc.clips, before, "undo {label}");
        ws.redo();
        assert_eq!(ws.documents[0].doc.clips, after, "redo {label}");
        applied
    }

    #[test]
    fn copy_paste_keys_into_another_clip_is_one_step_and_selects_them() {
        use clipscope_core::model::ops::{KeyClipboard, PasteValues};
        let mut ws = workspace();
        ws.apply(Edit::DuplicateClip { clip: CLIP }).unwrap();
        let board = KeyClipboard::copy(ws.clip(CLIP).unwrap(), [(0, 2), (0, 3)]);
        let copy = ClipId { doc: 0, clip: 1 };
        let targets = board.targets(ws.clip(copy).unwrap(), &[1]);
        assert_eq!(targets, vec![Some(0)]);
        let applied = undoable(
            &mut ws,
            Edit::PasteKeys {
                clip: copy,
                clipboard: Box::new(board),
                targets,
                time: 0.5,
                values: PasteValues::Absolute,
                duplicate: false,
            },
        );
        assert_eq!(applied.message.as_deref(), Some("pasted 2 keys"));
        assert_eq!(
            applied.select_keys.len(),
            6,
            "every component of the 2 keys"
        );
        let t = &ws.clip(copy).unwrap().tracks[0];
        assert_eq!(t.times, vec![0.0, 0.5, 1.0, 1.5, 2.0, 3.0]);
        assert_eq!(
            &t.values.as_numbers().unwrap()[9..12],
            &[1.0, 2.0, 3.0],
            "key 3's value, pasted at 1.5 s"
        );
    }

    #[test]
    fn split_subclip_and_delete_tracks() {
        let mut ws = workspace();
        let applied = undoable(
            &mut ws,
            Edit::SplitClip {
                clip: CLIP,
                time: 1.5,
            },
        );
        assert_eq!(names(&ws), ["walk", "walk.2"]);
        assert_eq!(applied.select_clip, Some(ClipId { doc: 0, clip: 1 }));
        let tail = &ws.documents[0].doc.clips[1];
        assert_eq!(tail.duration, 1.5);
        assert_eq!(tail.tracks[0].times, vec![0.0, 0.5, 1.5]);
        assert!(
            ws.apply(Edit::SplitClip {
                clip: CLIP,
                time: 9.0
            })
            .is_err()
        );

        let applied = undoable(
            &mut ws,
            Edit::Subclip {
                clip: CLIP,
                name: "first".into(),
                start: 0.0,
                end: 30.0,
                fps: 30.0,
                replace: false,
            },
        );
        assert_eq!(names(&ws), ["walk", "first", "walk.2"]);
        assert_eq!(
            applied.message.as_deref(),
            Some("subclip first: 2 keys, 0.000 s")
        );
        assert!(
            ws.apply(Edit::Subclip {
                clip: CLIP,
                name: "none".into(),
                start: 100.0,
                end: 200.0,
                fps: 30.0,
                replace: true,
            })
            .is_err()
        );
        undoable(
            &mut ws,
            Edit::DeleteTracks {
                clip: CLIP,
                tracks: vec![1, 1],
            },
        );
        assert_eq!(ws.clip(CLIP).unwrap().tracks.len(), 1);
    }

    #[test]
    fn duplicating_and_muting_tracks_are_one_step_each() {
        let mut ws = workspace();
        let applied = undoable(
            &mut ws,
            Edit::DuplicateTracks {
                clip: CLIP,
                tracks: vec![1],
            },
        );
        assert_eq!(applied.select_tracks, vec![2]);
        let c = ws.clip(CLIP).unwrap();
        assert_eq!(c.tracks[2].name, ".opacity copy");
        assert_eq!(c.tracks[2].times, c.tracks[1].times);
        assert!(
            ws.apply(Edit::DuplicateTracks {
                clip: CLIP,
                tracks: vec![5],
            })
            .is_err()
        );
        let applied = undoable(
            &mut ws,
            Edit::MuteTracks {
                clip: CLIP,
                tracks: vec![0, 2],
                muted: true,
            },
        );
        assert_eq!(applied.message.as_deref(), Some("muted 2 track(s)"));
        let muted: Vec<bool> = ws
            .clip(CLIP)
            .unwrap()
            .tracks
            .iter()
            .map(|t| t.muted)
            .collect();
        assert_eq!(muted, [true, false, true]);
        // Only the muted tracks changed: the viewport follows them without a new player.
        let version = ws.documents[0].version;
        // Muting what is muted already is refused and leaves no step.
        assert!(
            ws.apply(Edit::MuteTracks {
                clip: CLIP,
                tracks: vec![0],
                muted: true,
            })
            .is_err()
        );
        assert_eq!(ws.documents[0].version, version);
        undoable(
            &mut ws,
            Edit::MuteTracks {
                clip: CLIP,
                tracks: vec![0, 1],
                muted: false,
            },
        );
        assert!(
            ws.clip(CLIP)
                .unwrap()
                .tracks
                .iter()
                .all(|t| !t.muted || t.name.ends_with("copy"))
        );
    }

    #[test]
    fn the_euler_filter_is_one_step_over_the_chosen_clips() {
        let mut ws = workspace();
        let spin = Track::numeric(
            "arm.rotation",
            TrackKind::Vector,
            vec![0.0, 1.0],
            vec![0.0, 0.0, 3.0, 0.0, 0.0, -3.0],
        );
        ws.apply(Edit::AddClip {
            doc: 0,
            clip: Box::new(Clip::new("spin", 1.0, vec![spin])),
        })
        .unwrap();
        let spin = ClipId { doc: 0, clip: 1 };
        let applied = undoable(&mut ws, Edit::EulerFilter(ClipScope::Clip(spin)));
        assert_eq!(
            applied.message.as_deref(),
            Some("euler filter: 1 key(s) changed in 1 rotation track(s)")
        );
        let z = ws.clip(spin).unwrap().tracks[0]
            .values
            .as_numbers()
            .unwrap()[5];
        assert_eq!(z, (-3.0f64 + std::f64::consts::TAU) as f32);
        // Nothing to filter in the walk: no step.
        let steps = ws.history.undo_label().map(str::to_owned);
        ws.apply(Edit::EulerFilter(ClipScope::Clip(CLIP))).unwrap();
        assert_eq!(ws.history.undo_label().map(str::to_owned), steps);
    }

    #[test]
    fn retime_resample_reverse_on_one_clip_or_all() {
        let mut ws = workspace();
        ws.apply(Edit::DuplicateClip { clip: CLIP }).unwrap();
        let applied = undoable(
            &mut ws,
            Edit::Retime {
                scope: ClipScope::All,
                factor: 2.0,
                offset: 0.0,
            },
        );
        assert_eq!(
            applied.message.as_deref(),
            Some("retime: times × 2 + 0 s over 2 clips")
        );
        for c in &ws.documents[0].doc.clips {
            assert_eq!(c.duration, 6.0);
            assert_eq!(c.tracks[0].times, vec![0.0, 2.0, 4.0, 6.0]);
        }
        assert!(
            ws.apply(Edit::Retime {
                scope: ClipScope::All,
                factor: 0.0,
                offset: 0.0
            })
            .is_err()
        );
        let applied = undoable(
            &mut ws,
            Edit::Resample {
                scope: ClipScope::Clip(CLIP),
                fps: 1.0,
            },
        );
        assert_eq!(
            applied.message.as_deref(),
            Some("resample at 1 fps: 6 -> 14 keys")
        );
        undoable(
            &mut ws,
            Edit::Reverse(ClipScope::Clips(vec![ClipId { doc: 0, clip: 1 }])),
        );
        let reversed = &ws.documents[0].doc.clips[1].tracks[1];
        assert_eq!(reversed.times, vec![2.0, 6.0]);
        assert_eq!(reversed.values.as_numbers().unwrap(), &[0.5, 1.0]);
        assert!(
            ws.apply(Edit::Reverse(ClipScope::Clips(vec![ClipId {
                doc: 0,
                clip: 9
            }])))
            .is_err()
        );
    }

    #[test]
    fn a_transform_box_drag_is_one_undo_step() {
        let mut ws = workspace();
        let before = ws.documents[0].doc.clips.clone();
        for factor in [1.5, 2.0 / 1.5] {
            ws.apply(Edit::ScaleKeys {
                clip: CLIP,
                keys: vec![key(0, 1, 0), key(0, 2, 0), key(0, 3, 0)],
                pivot_time: 1.0,
                time_factor: factor,
                pivot_value: 0.0,
                value_factor: 1.0,
                gesture: Some(9),
            })
            .unwrap();
        }
        // Twice as long around 1 s, within the f32 rounding of two steps.
        let times = &ws.clip(CLIP).unwrap().tracks[0].times;
        for (t, want) in times.iter().zip([0.0, 1.0, 3.0, 5.0]) {
            assert!((t - want).abs() < 1e-6, "{times:?}");
        }
        assert_eq!(ws.history.undo_label(), Some("Scale keys"));
        ws.undo();
        assert_eq!(
            ws.documents[0].doc.clips, before,
            "one step undoes the whole drag"
        );
    }

    #[test]
    fn scaling_and_snapping_keys() {
        let mut ws = workspace();
        undoable(
            &mut ws,
            Edit::ScaleKeys {
                clip: CLIP,
                keys: vec![key(0, 1, 2), key(0, 2, 2)],
                pivot_time: 1.0,
                time_factor: 0.5,
                pivot_value: 0.0,
                value_factor: 2.0,
                gesture: None,
            },
        );
        let t = &ws.clip(CLIP).unwrap().tracks[0];
        assert_eq!(t.times, vec![0.0, 1.0, 1.5, 3.0]);
        assert_eq!(&t.values.as_numbers().unwrap()[..9], &[0.0; 9]);
        let refused = ws.apply(Edit::ScaleKeys {
            clip: CLIP,
            keys: vec![key(0, 2, 0)],
            pivot_time: 0.0,
            time_factor: 10.0,
            pivot_value: 0.0,
            value_factor: 1.0,
            gesture: None,
        });
        assert!(refused.is_err());
        assert_eq!(
            ws.history.undo_label(),
            Some("Scale keys"),
            "a refused scale is no step"
        );
        let applied = undoable(
            &mut ws,
            Edit::SnapKeys {
                clip: CLIP,
                keys: vec![key(0, 2, 0)],
                fps: 1.0,
            },
        );
        assert_eq!(
            applied.message.as_deref(),
            Some("snapped 1 key(s) to frames at 1 fps")
        );
        assert_eq!(
            ws.clip(CLIP).unwrap().tracks[0].times,
            vec![0.0, 1.0, 2.0, 3.0]
        );
    }

    #[test]
    fn merging_clips_adds_one() {
        let mut ws = workspace();
        ws.apply(Edit::DuplicateClip { clip: CLIP }).unwrap();
        let applied = undoable(
            &mut ws,
            Edit::MergeClips {
                doc: 0,
                clips: vec![0, 1],
                name: "both".into(),
            },
        );
        assert_eq!(
            applied.message.as_deref(),
            Some("merged 2 clips into both: 2 tracks (2 shared)")
        );
        assert_eq!(names(&ws), ["walk", "walk copy", "both"]);
        assert!(
            ws.apply(Edit::MergeClips {
                doc: 0,
                clips: vec![0],
                name: "one".into()
            })
            .is_err()
        );
    }

    #[test]
    fn markers_are_one_step() {
        use clipscope_core::model::ops::Marker;
        let mut ws = workspace();
        let marker = Marker {
            name: "contact".into(),
            time: 1.5,
        };
        let applied = undoable(
            &mut ws,
            Edit::SetMarkers {
                clip: CLIP,
                markers: vec![marker.clone()],
            },
        );
        assert_eq!(applied.message.as_deref(), Some("markers: 0 -> 1"));
        assert_eq!(ws.clip(CLIP).unwrap().markers(), [marker]);
    }

    #[test]
    fn smoothing_keys_is_one_step() {
        let mut ws = workspace();
        let applied = undoable(
            &mut ws,
            Edit::SmoothKeys {
                clip: CLIP,
                keys: vec![key(0, 2, 0), key(0, 3, 0)],
                strength: 1.0,
                passes: 1,
            },
        );
        assert_eq!(applied.message.as_deref(), Some("smoothed 1 key(s)"));
        let v = ws.clip(CLIP).unwrap().tracks[0]
            .values
            .as_numbers()
            .unwrap()
            .to_vec();
        assert_eq!(
            &v[6..9],
            &[0.25, 0.5, 0.75],
            "key 2 towards key 3; the last key stays"
        );
    }

    #[test]
    fn rename_tracks_unroll_and_make_additive() {
        let mut ws = workspace();
        let applied = undoable(
            &mut ws,
            Edit::RenameTracks {
                scope: ClipScope::Clip(CLIP),
                pattern: r"^cube\.".into(),
                replacement: "hero.".into(),
            },
        );
        assert_eq!(
            applied.message.as_deref(),
            Some("rename: 1 track(s) renamed")
        );
        assert_eq!(ws.clip(CLIP).unwrap().tracks[0].name, "hero.position");
        let err = ws
            .apply(Edit::RenameTracks {
                scope: ClipScope::All,
                pattern: "(".into(),
                replacement: String::new(),
            })
            .unwrap_err();
        assert!(
            err.starts_with("rename: \"(\" is not a regular expression: "),
            "{err}"
        );
        assert!(!err.contains('\n'), "{err}");

        let q = Track::numeric(
            "hero.quaternion",
            TrackKind::Quaternion,
            vec![0.0, 1.0],
            vec![0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, -1.0],
        );
        ws.apply(Edit::AddClip {
            doc: 0,
            clip: Box::new(Clip::new("turn", 1.0, vec![q])),
        })
        .unwrap();
        let applied = undoable(&mut ws, Edit::UnrollQuaternions(ClipScope::All));
        assert_eq!(
            applied.message.as_deref(),
            Some("unroll quaternions: 1 key(s) negated in 1 track(s) over 2 clips")
        );
        let applied = undoable(
            &mut ws,
            Edit::MakeAdditive {
                clip: CLIP,
                frame: 0.0,
                fps: 30.0,
                reference: None,
            },
        );
        assert_eq!(
            applied.message.as_deref(),
            Some("additive against its own frame 0")
        );
        let c = ws.clip(CLIP).unwrap();
        assert_eq!(c.blend_mode, clipscope_core::model::BlendMode::Additive);
        assert_eq!(c.tracks[1].values.as_numbers().unwrap(), &[0.0, -0.5]);
    }
}
