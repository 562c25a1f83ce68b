//! The STAGE of the viewport, without egui: which figure the shown clip plays on, the
//! [`Player`] that poses it, and when that player is kept, followed or made anew.
//!
//! Each frame the viewport hands the stage its [`Subject`]. The stage keeps the player while
//! nothing it was made from changed; follows a new document version that only moved keys of
//! some tracks by updating those tracks in the same player ([`Player::update_tracks`]); only
//! re-weights it when the blend weight alone changed; and makes a new player (rebinding the
//! clip to its figure) for anything else: another clip, another figure, another blend clip or
//! mode, a structural edit. The figure picked for each clip is remembered while others are
//! shown.

use std::collections::HashMap;
use std::sync::Arc;

use clipscope_scene::{Figure, FigureReport, FigureSource, Layer, LayerMode, Player, Rig};

use super::figures::Figures;
use super::subject::{ClipVersion, Subject};

/// The second clip blended with the shown one (see [`clipscope_scene::Layer`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Blend {
    /// The name of the clip (in the same file), or `None` for no blending.
    pub clip: Option<String>,
    /// Cross-fade or additive.
    pub mode: LayerMode,
    /// The second clip's weight, 0–1.
    pub weight: f64,
}

impl Default for Blend {
    fn default() -> Self {
        Blend {
            clip: None,
            mode: LayerMode::CrossFade,
            weight: 0.5,
        }
    }
}

/// What a player was built from; it is rebuilt when any part changes (a weight change alone
/// only re-weights it).
#[derive(Debug, Clone, PartialEq)]
struct PlayerKey {
    version: ClipVersion,
    rig_choice: Option<String>,
    blend_clip: Option<String>,
    blend_mode: LayerMode,
}

/// The clip shown, the figure it plays on and the player posing it, with the user's figure and
/// blend choices.
#[derive(Default)]
pub struct Stage {
    /// The selected clip playing on its figure, and what it was made from.
    player: Option<(PlayerKey, Player)>,
    /// The figure the user picked for the clip shown: a built-in rig's name, an open
    /// document's or a picked file's figure, [`figure::PROXY`], [`figure::NAMES`],
    /// [`figure::MESH`], …, or `None` for automatic.
    ///
    /// [`figure::PROXY`]: clipscope_scene::figure::PROXY
    /// [`figure::NAMES`]: clipscope_scene::figure::NAMES
    /// [`figure::MESH`]: clipscope_scene::figure::MESH
    pub rig_choice: Option<String>,
    /// The choice remembered for each clip, by (document id, clip name).
    choices: HashMap<(u64, String), Option<String>>,
    /// The clip `rig_choice` belongs to.
    choice_for: Option<(u64, String)>,
    /// The figures of open documents and of model files picked from disk.
    pub figures: Figures,
    /// What the shown clip plays on and how much of it binds.
    pub report: Option<FigureReport>,
    /// How many players were made (an edit of keys is followed without a new one).
    pub players_made: u64,
    /// A second clip of the same file blended with the shown one.
    pub blend: Blend,
    /// Tracks of the shown clips that bind to nothing on the figure (with the reason).
    pub unbound: Vec<String>,
    /// Why the chosen figure could not be used, if it could not.
    pub figure_error: Option<String>,
}

impl Stage {
    /// The player of the clip shown, if any (its figure, its unbound tracks).
    pub fn player(&self) -> Option<&Player> {
        self.player.as_ref().map(|(_, p)| p)
    }

    /// The player of the clip shown, to pose it.
    pub(super) fn player_mut(&mut self) -> Option<&mut Player> {
        self.player.as_mut().map(|(_, p)| p)
    }

    /// Nothing is shown: the player goes (the figure and blend choices stay).
    pub fn clear(&mut self) {
        self.player = None;
    }

    /// Makes sure the player plays `subject` on the chosen figure with the chosen blend:
    /// keeps, follows, re-weights or replaces it as the module explains.
    pub fn show(&mut self, subject: Subject<'_>) {
        self.recall_choice(&subject);
        let choice = subject
            .figure
            .map(str::to_string)
            .or_else(|| self.rig_choice.clone());
        let key = PlayerKey {
            version: subject.version,
            rig_choice: choice.clone(),
            blend_clip: self.blend.clip.clone(),
            blend_mode: self.blend.mode,
        };
        self.follow_key_edits(&key, &subject);
        if self.player.as_ref().is_some_and(|(k, _)| *k == key) {
            self.reweight();
            return;
        }
        self.make_player(subject, key, choice.as_deref());
    }

    /// Switches [`Stage::rig_choice`] to the one remembered for the subject's clip (when the
    /// shown clip changed), remembering the old clip's.
    fn recall_choice(&mut self, subject: &Subject<'_>) {
        let clip_key = (subject.version.0, subject.clip.name.clone());
        if self.choice_for.as_ref() != Some(&clip_key) {
            if let Some(old) = self.choice_for.take() {
                self.choices.insert(old, self.rig_choice.clone());
            }
            self.rig_choice = self.choices.get(&clip_key).cloned().flatten();
            self.choice_for = Some(clip_key);
        }
    }

    /// An edit of some tracks' keys (a newer version of the same clip, nothing else changed):
    /// the player follows those tracks and takes the new version; nothing is rebound.
    fn follow_key_edits(&mut self, key: &PlayerKey, subject: &Subject<'_>) {
        if let (Some((old, player)), Some(doc)) = (&mut self.player, subject.document)
            && old.version != key.version
            && old.version.0 == key.version.0
            && old.version.2 == key.version.2
            && (PlayerKey {
                version: key.version,
                ..old.clone()
            }) == *key
            && let Some(changed) = doc.tracks_changed_since(old.version.1, key.version.2)
            && player.update_tracks(subject.clip, &changed)
        {
            old.version = key.version;
        }
    }

    /// Gives the blended clip the current [`Blend::weight`].
    fn reweight(&mut self) {
        if let Some((_, player)) = &mut self.player
            && let Some(layer) = player.layer()
        {
            let layer = Layer {
                weight: self.blend.weight,
                ..layer.clone()
            };
            player.set_layer(Some(layer));
        }
    }

    /// Makes a new player of `subject` on the figure `choice` names (the automatic one when
    /// that cannot be used, saying why), blended as [`Stage::blend`] says.
    fn make_player(&mut self, subject: Subject<'_>, key: PlayerKey, choice: Option<&str>) {
        let has_skeleton = subject.source.skeleton.is_some();
        let companion = self
            .figures
            .companion(subject.version.0, subject.path, has_skeleton)
            .cloned();
        // The artwork draws nested compositions (Lottie precomps) by the document's clips as
        // they are now, so an edit of a precomp's clip shows in the compositions holding it.
        let artwork = subject
            .source
            .artwork
            .and_then(|a| a.with_clips(subject.clips));
        let source = FigureSource {
            others: self.figures.all(),
            companion: companion.as_ref(),
            artwork: artwork.as_ref().or(subject.source.artwork),
            ..subject.source
        };
        let (figure, error) = match Figure::for_clip(subject.clip, source, choice) {
            Ok(figure) => (figure, None),
            Err(e) => (
                Figure::for_clip(subject.clip, source, None)
                    .unwrap_or_else(|_| Figure::Rig(Rig::proxy(subject.clip, None))),
                Some(e.to_string()),
            ),
        };
        self.figure_error = error;
        self.players_made += 1;
        let mut player = Player::on(Arc::new(subject.clip.clone()), figure);
        let second = self.blend.clip.as_ref().and_then(|name| {
            subject
                .clips
                .iter()
                .enumerate()
                .find(|(i, c)| c.name == *name && *i != subject.version.2)
        });
        match second {
            Some((_, clip)) => player.set_layer(Some(Layer {
                clip: Arc::new(clip.clone()),
                mode: self.blend.mode,
                weight: self.blend.weight,
            })),
            None => self.blend.clip = None,
        }
        self.report = Some(player.report());
        self.unbound = player
            .unbound_tracks()
            .into_iter()
            .map(|u| format!("{}: {}", u.track, u.reason))
            .collect();
        let key = PlayerKey {
            blend_clip: self.blend.clip.clone(),
            ..key
        };
        self.player = Some((key, player));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clipscope_core::{assets, formats};
    use clipscope_editor::{ClipId, Edit, KeyRef, Workspace};
    use clipscope_scene::{FigureFrame, figure};
    use std::path::Path;

    /// A workspace holding the demo file (clips `walk` and others on the Hero).
    fn demo() -> Workspace {
        let doc = formats::read_bytes(assets::DEMO_CLIPS, Path::new(assets::DEMO_NAME)).unwrap();
        let mut ws = Workspace::new();
        ws.add(doc);
        ws
    }

    /// The subject for clip `clip` of the first document, as the app builds it.
    fn subject(ws: &Workspace, clip: usize) -> Subject<'_> {
        let d = &ws.documents[0];
        Subject {
            version: (d.id, d.version, clip),
            clip: &d.doc.clips[clip],
            clips: &d.doc.clips,
            source: FigureSource::default(),
            figure: None,
            path: None,
            selected: None,
            document: Some(d),
            ghost: None,
        }
    }

    /// The stage's pose at `time`.
    fn pose(stage: &mut Stage, time: f64) -> FigureFrame {
        let mut frame = FigureFrame::default();
        stage.player_mut().unwrap().frame_at(time, &mut frame);
        frame
    }

    /// Moves component `component` of every key of track `track` of `clip` by `dv` in value.
    fn move_track(ws: &mut Workspace, clip: ClipId, track: usize, component: usize, dv: f64) {
        let keys = (0..ws.clip(clip).unwrap().tracks[track].len())
            .map(|key| KeyRef {
                track,
                key,
                component,
            })
            .collect();
        ws.apply(Edit::MoveKeys {
            clip,
            keys,
            dt: 0.0,
            dv,
            gesture: None,
        })
        .unwrap();
    }

    /// Clip 0 of document 0.
    const FIRST: ClipId = ClipId { doc: 0, clip: 0 };

    /// The root composition's picture at `time` on the stage's player.
    fn root_picture(stage: &Stage, time: f64) -> clipscope_core::model::picture::Picture {
        match stage.player().unwrap().figure() {
            Figure::Layers(l) => l.picture(time).unwrap(),
            other => panic!("not the composition's layers: {}", other.name()),
        }
    }

    #[test]
    fn an_edit_of_a_precomps_clip_redraws_the_composition_holding_it() {
        // A root composition showing precomposition "inner", whose layer moves right.
        let text = r##"{"v":"5.7.4","fr":30,"ip":0,"op":30,"w":100,"h":100,
          "layers":[{"ddd":0,"ty":0,"ind":1,"nm":"holder","refId":"inner","w":100,"h":100,
            "ip":0,"op":30,"st":0,"ks":{}}],
          "assets":[{"id":"inner","layers":[{"ddd":0,"ty":1,"ind":1,"nm":"dot","sc":"#ff0000",
            "sw":10,"sh":10,"ip":0,"op":30,"st":0,"ks":{"p":{"a":1,"k":[
              {"t":0,"s":[10,50],"o":{"x":[0.5],"y":[0.5]},"i":{"x":[0.5],"y":[0.5]}},
              {"t":30,"s":[90,50]}]}}}]}]}"##;
        let doc = formats::read_bytes(text.as_bytes(), Path::new("precomp.json")).unwrap();
        let mut ws = Workspace::new();
        ws.add(doc);
        let art = ws.documents[0].doc.artwork().unwrap();
        fn with_art<'a>(
            ws: &'a Workspace,
            art: &'a Arc<dyn clipscope_core::model::picture::Artwork>,
        ) -> Subject<'a> {
            Subject {
                source: FigureSource {
                    artwork: Some(art),
                    ..FigureSource::default()
                },
                ..subject(ws, 0)
            }
        }
        let mut stage = Stage::default();
        stage.show(with_art(&ws, &art));
        let before = root_picture(&stage, 0.5);
        // Move the inner layer's keys down by 20 px in the precomposition's own clip.
        let inner = &ws.documents[0].doc.clips[1];
        let track = inner.tracks.iter().position(|t| t.len() >= 2).unwrap();
        move_track(&mut ws, ClipId { doc: 0, clip: 1 }, track, 1, 20.0);
        stage.show(with_art(&ws, &art));
        let after = root_picture(&stage, 0.5);
        assert_ne!(after, before, "the root picture follows the precomp's edit");
        // Undone, the root picture is the one before.
        ws.undo();
        stage.show(with_art(&ws, &art));
        assert_eq!(root_picture(&stage, 0.5), before);
    }

    #[test]
    fn the_same_clip_keeps_its_player() {
        let ws = demo();
        let mut stage = Stage::default();
        stage.show(subject(&ws, 0));
        stage.show(subject(&ws, 0));
        assert_eq!(stage.players_made, 1);
        assert!(stage.report.is_some());
        assert!(stage.figure_error.is_none());
    }

    #[test]
    fn a_key_edit_updates_the_tracks_in_place_without_a_new_player() {
        let mut ws = demo();
        let mut stage = Stage::default();
        stage.show(subject(&ws, 0));
        let before = pose(&mut stage, 0.25);
        let torso = ws.documents[0].doc.clips[0]
            .tracks
            .iter()
            .position(|t| t.name == ".bones[torso].quaternion")
            .unwrap();
        move_track(&mut ws, FIRST, torso, 0, 0.3);
        stage.show(subject(&ws, 0));
        assert_eq!(stage.players_made, 1, "the same player followed the edit");
        assert_ne!(
            pose(&mut stage, 0.25).boxes,
            before.boxes,
            "the torso turned"
        );
        // Undo is a key edit too: the pose comes back, still on the same player.
        ws.undo();
        stage.show(subject(&ws, 0));
        assert_eq!(stage.players_made, 1);
        assert_eq!(pose(&mut stage, 0.25).boxes, before.boxes);
    }

    #[test]
    fn a_structural_edit_makes_a_new_player() {
        let mut ws = demo();
        let mut stage = Stage::default();
        stage.show(subject(&ws, 0));
        let tracks = ws.documents[0].doc.clips[0].tracks.len();
        ws.apply(Edit::DeleteTracks {
            clip: ClipId { doc: 0, clip: 0 },
            tracks: vec![0],
        })
        .unwrap();
        stage.show(subject(&ws, 0));
        assert_eq!(stage.players_made, 2);
        assert_eq!(stage.report.as_ref().unwrap().tracks, tracks - 1);
    }

    #[test]
    fn a_version_without_its_document_makes_a_new_player() {
        let mut ws = demo();
        let mut stage = Stage::default();
        stage.show(subject(&ws, 0));
        move_track(&mut ws, FIRST, 0, 0, 0.1);
        // A reduction preview has no document to ask what changed.
        stage.show(Subject {
            document: None,
            ..subject(&ws, 0)
        });
        assert_eq!(stage.players_made, 2);
    }

    #[test]
    fn the_blend_weight_only_reweights_and_the_blend_clip_rebuilds() {
        let ws = demo();
        let clips = &ws.documents[0].doc.clips;
        assert!(clips.len() > 1, "the demo has clips to blend");
        let mut stage = Stage::default();
        stage.show(subject(&ws, 0));
        stage.blend.clip = Some(clips[1].name.clone());
        stage.show(subject(&ws, 0));
        assert_eq!(stage.players_made, 2);
        assert_eq!(stage.player().unwrap().layer().unwrap().weight, 0.5);
        stage.blend.weight = 0.8;
        stage.show(subject(&ws, 0));
        assert_eq!(stage.players_made, 2);
        assert_eq!(stage.player().unwrap().layer().unwrap().weight, 0.8);
        stage.blend.mode = LayerMode::Additive;
        stage.show(subject(&ws, 0));
        assert_eq!(stage.players_made, 3);
        // A clip that is not in the file is no blend at all.
        stage.blend.clip = Some("no such clip".into());
        stage.show(subject(&ws, 0));
        assert_eq!(stage.blend.clip, None);
        assert!(stage.player().unwrap().layer().is_none());
    }

    #[test]
    fn each_clip_remembers_its_figure() {
        let ws = demo();
        let mut stage = Stage::default();
        stage.show(subject(&ws, 0));
        stage.rig_choice = Some(figure::PROXY.to_string());
        stage.show(subject(&ws, 0));
        assert_eq!(stage.player().unwrap().figure().name(), figure::PROXY);
        stage.show(subject(&ws, 1));
        assert_eq!(stage.rig_choice, None);
        stage.show(subject(&ws, 0));
        assert_eq!(stage.rig_choice.as_deref(), Some(figure::PROXY));
    }

    #[test]
    fn a_figure_that_cannot_be_used_falls_back_and_says_why() {
        let ws = demo();
        let mut stage = Stage::default();
        stage.show(subject(&ws, 0));
        // Picked in the overlay after the clip was first shown.
        stage.rig_choice = Some(figure::MESH.to_string());
        stage.show(subject(&ws, 0));
        assert_eq!(
            stage.figure_error.as_deref(),
            Some("this file has no morph mesh")
        );
        assert!(stage.player().is_some());
        stage.clear();
        assert!(stage.player().is_none());
    }
}
