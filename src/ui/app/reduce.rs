//! The Reduce window's work: which preview is wanted (the selected clip or its file's clips,
//! the budget, the document's version), computing it on a worker thread so the window stays
//! responsive on a long take, through `clipscope reduce`'s own path
//! ([`reduce_document`]: the same keys, and the file's bytes before and after as the command
//! writes them, glTF's packing included), and taking it in when it is ready.

use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, TryRecvError, channel};

use crate::cli::reduction::{Target, reduce_document};
use crate::ui::reduce_panel::{Preview, PreviewClip, Request};
use clipscope_core::formats::{self, Budget, Document, LengthUnit, Packing, WriteOptions};
use clipscope_core::model::ops::reduce::Trace;
use clipscope_editor::ClipId;

use super::ClipscopeApp;

/// What the worker hands back: the reduced clips and the file's bytes before and after, or why
/// there is no preview.
type Reduced = Result<(Vec<PreviewClip>, Option<(usize, usize)>), String>;

/// A preview being computed.
pub(super) struct ReduceJob {
    /// What it is computed for.
    request: Request,
    /// Where the result arrives: the clips and the bytes before and after.
    result: Receiver<Reduced>,
}

impl ClipscopeApp {
    /// Opens the Reduce window for the selected clip (1 cm, or 1 px in Lottie, the first time).
    pub(super) fn open_reduce(&mut self) {
        let Some(doc) = self.selected_doc() else {
            return;
        };
        let default = match self.ws.documents[doc].doc.format.spec().length_unit {
            LengthUnit::Pixel => 1.0,
            _ => 0.01,
        };
        self.reduce.open_with(default);
    }

    /// The unit symbol of the selected file's lengths.
    pub(super) fn reduce_unit(&self) -> &'static str {
        self.selected_doc().map_or("m", |d| {
            self.ws.documents[d].doc.format.spec().length_symbol()
        })
    }

    /// The preview the window's settings ask for now, if it is open on a clip.
    fn reduce_request(&self) -> Option<Request> {
        if !self.reduce.open {
            return None;
        }
        let id = self.selection.clip?;
        let d = self.ws.documents.get(id.doc)?;
        let clips = if self.reduce.all_clips {
            (0..d.doc.clips.len()).collect()
        } else {
            vec![id.clip]
        };
        Some(Request {
            doc_id: d.id,
            version: d.version,
            doc: id.doc,
            clips,
            budget: self.reduce.budget(),
            unit: d.doc.format.spec().length_symbol(),
            packing: self.reduce.packing(),
        })
    }

    /// Takes in a finished preview and starts the next one when the settings, the selection or
    /// the document changed since.
    pub(super) fn reduce_tick(&mut self, ctx: &egui::Context) {
        if let Some(job) = &self.reduce_job {
            let outcome = match job.result.try_recv() {
                Ok(reduced) => Some(Some(reduced)),
                Err(TryRecvError::Disconnected) => Some(None),
                Err(TryRecvError::Empty) => None,
            };
            if let Some(outcome) = outcome {
                let job = self.reduce_job.take().expect("running job");
                self.take_reduction(job.request, outcome);
            }
        }
        let wanted = self.reduce_request();
        let current = self.reduce.preview.as_ref().map(|p| &p.request);
        let running = self.reduce_job.as_ref().map(|j| &j.request);
        self.reduce.busy = self.reduce_job.is_some();
        let Some(wanted) = wanted else {
            return;
        };
        if Some(&wanted) == current || Some(&wanted) == running {
            if self.reduce_job.is_some() {
                ctx.request_repaint_after(std::time::Duration::from_millis(30));
            }
            return;
        }
        if self.reduce_job.is_some()
            || wanted.budget.max_error.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater)
        {
            // One at a time: the newest settings start when this one is in.
            ctx.request_repaint_after(std::time::Duration::from_millis(30));
            return;
        }
        let d = &self.ws.documents[wanted.doc];
        // Reduced exactly as `clipscope reduce` does it (each clip measured where the viewer
        // sees it, the file as written read back and measured, glTF's packing), so the keys
        // and bytes shown are the ones the command writes.
        let doc = d.doc.clone();
        let name = PathBuf::from(&d.name);
        let (doc_index, ids, budget, packing) = (
            wanted.doc,
            wanted.clips.clone(),
            wanted.budget,
            wanted.packing,
        );
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let _ = tx.send(preview(&doc, doc_index, &name, &ids, &budget, packing));
        });
        self.reduce_job = Some(ReduceJob {
            request: wanted,
            result: rx,
        });
        self.reduce.busy = true;
        ctx.request_repaint_after(std::time::Duration::from_millis(30));
    }

    /// Blocks until the running preview is in (tests).
    pub fn wait_for_reduction(&mut self) {
        if let Some(job) = self.reduce_job.take() {
            let outcome = job.result.recv().ok();
            self.take_reduction(job.request, outcome);
            self.reduce.busy = false;
        }
    }

    /// Takes in the finished preview for `request` (`None`: its worker stopped without one).
    fn take_reduction(&mut self, request: Request, outcome: Option<Reduced>) {
        match outcome {
            Some(Ok((clips, bytes))) => {
                self.reduce.error = None;
                self.reduce.preview = Some(Preview {
                    request,
                    clips,
                    bytes,
                });
                self.reduce_previews += 1;
            }
            Some(Err(e)) => self.reduce.error = Some(e),
            None => self.reduce.error = Some("the reduction stopped unexpectedly".into()),
        }
    }
}

/// The preview of clips `ids` of `doc` (document `doc_index` of the workspace, named `name`)
/// reduced within `budget` and written with `packing` (glTF) by the command's own path
/// ([`reduce_document`]): the clips, their reports measured on the file as written, and the
/// file's bytes before (as its format writes it) and after (what the command writes).
fn preview(
    doc: &Document,
    doc_index: usize,
    name: &Path,
    ids: &[usize],
    budget: &Budget,
    packing: Packing,
) -> Reduced {
    let mut ids = ids.to_vec();
    ids.sort_unstable();
    ids.dedup();
    let target = Target {
        skeleton: doc.skeleton.as_ref(),
        model: doc.model.as_deref(),
        out: name,
        write: WriteOptions {
            packing,
            ..WriteOptions::default()
        },
        clips: Some(&ids),
    };
    let (attempt, _) = reduce_document(&target, doc, budget, Trace::default())?;
    if !attempt.within {
        return Err("written, the reduced clips are off by more than the budget".into());
    }
    let before = formats::write_bytes(doc, &WriteOptions::default()).len();
    let clips = ids
        .iter()
        .zip(attempt.reports)
        .filter_map(|(&c, (_, report))| {
            Some(PreviewClip {
                id: ClipId {
                    doc: doc_index,
                    clip: c,
                },
                clip: attempt.doc.clips.get(c)?.clone(),
                report,
            })
        })
        .collect();
    Ok((clips, Some((before, attempt.bytes.len()))))
}
