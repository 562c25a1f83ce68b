//! What the editor's last validation found: for each open document in the validated scope,
//! the validation engine's check of its file ([`check_open_document`], the function behind
//! `clipscope validate`), with the config that applied. After an edit only documents whose
//! version changed are checked again.

use std::collections::BTreeMap;

use clipscope_core::formats::ReadOptions;
use clipscope_core::model::Severity;
use clipscope_core::model::ops::lint::LintSettings;
use clipscope_core::validate::{DocumentCheck, Finding, check_open_document};
use clipscope_editor::{ClipId, ClipScope, Workspace};

/// The check of one open document.
#[derive(Debug, Clone)]
pub struct DocFindings {
    /// The document's stable id.
    pub doc_id: u64,
    /// Its index in the workspace when it was checked.
    pub doc: usize,
    /// Its version when it was checked (a later edit makes the check stale).
    pub version: u64,
    /// Its name in the editor.
    pub name: String,
    /// What the engine found, and with which config.
    pub check: DocumentCheck,
}

/// The findings of the last validation, per document.
#[derive(Debug, Clone)]
pub struct Findings {
    /// The clips validated.
    pub scope: ClipScope,
    /// One check per document in the scope, in workspace order.
    pub docs: Vec<DocFindings>,
}

impl Findings {
    /// Validates the documents of `scope` in `ws` (reading files with `read`), reusing the
    /// checks in `previous` of documents that have not changed since.
    pub fn run(
        ws: &Workspace,
        scope: ClipScope,
        read: &ReadOptions,
        previous: Option<&Findings>,
    ) -> Findings {
        let docs = match &scope {
            ClipScope::Clip(id) => vec![id.doc],
            ClipScope::Clips(ids) => {
                let mut docs: Vec<usize> = ids.iter().map(|id| id.doc).collect();
                docs.dedup();
                docs
            }
            ClipScope::All => (0..ws.documents.len()).collect(),
        };
        let docs = docs
            .into_iter()
            .filter_map(|i| {
                let open = ws.documents.get(i)?;
                let kept = previous
                    .into_iter()
                    .flat_map(|p| &p.docs)
                    .find(|d| d.doc_id == open.id && d.version == open.version);
                let check = match kept {
                    Some(d) => d.check.clone(),
                    None => check_open_document(&open.doc, open.is_dirty(), read),
                };
                Some(DocFindings {
                    doc_id: open.id,
                    doc: i,
                    version: open.version,
                    name: open.name.clone(),
                    check,
                })
            })
            .collect();
        Findings { scope, docs }
    }

    /// Every finding in the scope with the document it belongs to: a finding outside any clip
    /// (about the whole file) belongs to every clip's view of it.
    pub fn items(&self) -> impl Iterator<Item = (&DocFindings, &Finding)> {
        let clip = match &self.scope {
            ClipScope::Clip(id) => Some(id.clip),
            ClipScope::Clips(_) | ClipScope::All => None,
        };
        self.docs.iter().flat_map(move |d| {
            d.check
                .report
                .problems
                .iter()
                .filter(move |f| {
                    clip.is_none() || f.problem.clip.is_none() || f.problem.clip == clip
                })
                .map(move |f| (d, f))
        })
    }

    /// The number of error and warning findings in the scope.
    pub fn counts(&self) -> (usize, usize) {
        let errors = self
            .items()
            .filter(|(_, f)| f.problem.severity == Severity::Error)
            .count();
        (errors, self.items().count() - errors)
    }

    /// The clip a finding points at, when it names one.
    pub fn clip_of(doc: &DocFindings, finding: &Finding) -> Option<ClipId> {
        finding
            .problem
            .clip
            .map(|clip| ClipId { doc: doc.doc, clip })
    }

    /// The settings each document validated with, for the Fix button.
    pub fn fix_settings(&self) -> BTreeMap<usize, LintSettings> {
        self.docs
            .iter()
            .map(|d| (d.doc, d.check.lint.clone()))
            .collect()
    }
}
