//! The figures the viewport can play a clip on besides the built-in rigs: one made from each open
//! document's skeleton (carrying the document's model, when it has meshes), models picked from
//! disk, and the companion model found next to a document's file. Rigs are cached: they are made again only when the open documents or their
//! skeletons change, and a document's companion model is looked for once.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use clipscope_core::model::{Model, Skeleton};
use clipscope_scene::{Rig, companion_model};

/// Figures other than the built-in ones: every open document's skeleton, models picked from
/// disk, and the companion model of each document's file.
#[derive(Default)]
pub struct Figures {
    /// (document id, bones, model) the open documents' figures were made for.
    made_for: Vec<(u64, usize, usize)>,
    /// Open documents' figures, then picked files' figures.
    all: Vec<Rig>,
    /// How many of `all` come from open documents.
    open: usize,
    /// The companion model of each document, by id (looked for once).
    companions: HashMap<u64, Option<Rig>>,
}

impl Figures {
    /// Makes figures for the skeletons of `docs` (id, title, skeleton, model), when the
    /// documents, their skeletons or their models changed.
    pub fn refresh<'a>(
        &mut self,
        docs: impl Iterator<Item = (u64, &'a str, Option<&'a Skeleton>, Option<&'a Arc<Model>>)>,
    ) {
        let docs: Vec<_> = docs.collect();
        let key: Vec<(u64, usize, usize)> = docs
            .iter()
            .map(|(id, _, s, m)| {
                let model = m.map_or(0, |m| Arc::as_ptr(m) as usize);
                (*id, s.map_or(0, |s| s.bones.len()), model)
            })
            .collect();
        if key == self.made_for {
            return;
        }
        let picked = self.all.split_off(self.open);
        self.all.clear();
        for (_, title, skeleton, model) in docs {
            if let Some(rig) = skeleton.and_then(|s| Rig::from_skeleton(title, s)) {
                self.push(match model {
                    Some(m) => rig.with_model(m.clone()),
                    None => rig,
                });
            }
        }
        self.open = self.all.len();
        for rig in picked {
            self.push(rig);
        }
        self.made_for = key;
    }

    /// Adds a figure read from a file picked from disk and returns its name.
    pub fn add_file(&mut self, path: &Path) -> Result<String, String> {
        let rig = Rig::from_file(path).map_err(|e| e.to_string())?;
        Ok(self.push(rig))
    }

    /// Adds `rig` under a name no other figure has; returns the name.
    fn push(&mut self, mut rig: Rig) -> String {
        let base = rig.name.clone();
        let mut n = 2;
        while self.all.iter().any(|r| r.name == rig.name)
            || Rig::builtin(&rig.name).is_some()
            || rig.parts.iter().any(|p| p.name == rig.name)
        {
            rig.name = format!("{base} ({n})");
            n += 1;
        }
        let name = rig.name.clone();
        self.all.push(rig);
        name
    }

    /// Every figure: open documents' skeletons, then picked files.
    pub fn all(&self) -> &[Rig] {
        &self.all
    }

    /// The companion model of document `id` read from `path` (looked for once per document).
    pub(super) fn companion(
        &mut self,
        id: u64,
        path: Option<&Path>,
        has_skeleton: bool,
    ) -> Option<&Rig> {
        self.companions
            .entry(id)
            .or_insert_with(|| path.filter(|_| !has_skeleton).and_then(companion_model))
            .as_ref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clipscope_core::model::Bone;

    /// A two-bone skeleton (`root` ← `tip`).
    fn skeleton() -> Skeleton {
        Skeleton {
            bones: vec![Bone::new("root", None), Bone::new("tip", Some(0))],
        }
    }

    #[test]
    fn open_documents_skeletons_become_figures_with_unique_names() {
        let s = skeleton();
        let mut figures = Figures::default();
        figures.refresh(
            [
                (1, "walk", Some(&s), None),
                (2, "walk", Some(&s), None),
                (3, "bare", None, None),
            ]
            .into_iter(),
        );
        let names: Vec<&str> = figures.all().iter().map(|r| r.name.as_str()).collect();
        assert_eq!(names, ["walk", "walk (2)"]);
    }

    #[test]
    fn the_same_documents_reuse_the_rigs_made_for_them() {
        let s = skeleton();
        let mut figures = Figures::default();
        figures.refresh([(1, "walk", Some(&s), None)].into_iter());
        let made = figures.all().as_ptr();
        // Same documents and skeleton sizes: nothing is made again (a new title is not read).
        figures.refresh([(1, "renamed", Some(&s), None)].into_iter());
        assert_eq!(figures.all().as_ptr(), made);
        assert_eq!(figures.all()[0].name, "walk");
        // A document closed: its figure goes.
        figures.refresh(std::iter::empty());
        assert!(figures.all().is_empty());
    }

    #[test]
    fn figures_picked_from_disk_stay_after_the_open_documents() {
        let s = skeleton();
        let mut figures = Figures::default();
        figures.refresh([(1, "walk", Some(&s), None)].into_iter());
        let picked = Rig::from_skeleton("model", &s).unwrap();
        assert_eq!(figures.push(picked), "model");
        figures.refresh([(1, "walk", Some(&s), None), (2, "run", Some(&s), None)].into_iter());
        let names: Vec<&str> = figures.all().iter().map(|r| r.name.as_str()).collect();
        assert_eq!(names, ["walk", "run", "model"]);
    }

    #[test]
    fn a_companion_model_is_looked_for_once_per_document() {
        let mut figures = Figures::default();
        let dir = tempfile::tempdir().unwrap();
        let clip = dir.path().join("walk.json");
        assert!(figures.companion(7, Some(&clip), false).is_none());
        assert_eq!(figures.companions.len(), 1);
        assert!(figures.companion(7, Some(&clip), false).is_none());
        assert_eq!(figures.companions.len(), 1);
        // A document with its own skeleton needs none.
        assert!(figures.companion(8, Some(&clip), true).is_none());
    }
}
