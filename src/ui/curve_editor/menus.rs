//! The edits of the panel and the ways to reach them: keyboard shortcuts (Delete,
//! I, T, V, F, Shift+F), the T and V popup menus at the pointer, the right-click menu, and the
//! toolbar's menu buttons. All of them end in [`Edit`]s or view requests.

use std::collections::BTreeSet;

use egui::{
    Align, Button, Key, Layout, Modifiers, Popup, PopupAnchor, PopupKind, Pos2, Response,
    SetOpenCommand, Ui,
};

use crate::ui::outbox::Outbox;
use clipscope_core::model::{Clip, Interpolation, TangentMode};
use clipscope_editor::{ClipId, Edit, KeyRef};

use super::CurveRef;
use super::view::ViewRequest;

/// The clip and curves the menus act on; [`ShownCurves::targets`] works out the details when a
/// menu is actually open or a shortcut pressed (the selection can hold many thousands of keys).
#[derive(Clone, Copy)]
pub(super) struct ShownCurves<'a> {
    /// The clip shown.
    pub(super) clip: &'a Clip,
    /// Its id in the workspace.
    pub(super) clip_id: ClipId,
    /// The requested curves.
    pub(super) curves: &'a [CurveRef],
}

impl ShownCurves<'_> {
    /// The targets with `selected` keys.
    pub(super) fn targets(&self, selected: &BTreeSet<KeyRef>) -> Targets {
        let mut shown: Vec<(usize, usize)> = self
            .curves
            .iter()
            .filter(|r| r.track < self.clip.tracks.len())
            .map(|r| (r.track, r.component))
            .collect();
        shown.sort_unstable();
        shown.dedup();
        let mut visible_tracks: Vec<usize> = shown.iter().map(|s| s.0).collect();
        visible_tracks.dedup();
        let keys: Vec<KeyRef> = selected
            .iter()
            .filter(|k| shown.binary_search(&(k.track, k.component)).is_ok())
            .copied()
            .collect();
        let mut interpolation_tracks: Vec<usize> = keys.iter().map(|k| k.track).collect();
        interpolation_tracks.dedup();
        if interpolation_tracks.is_empty() {
            interpolation_tracks = visible_tracks.clone();
        }
        Targets {
            visible_tracks,
            keys,
            interpolation_tracks,
        }
    }
}

/// What the menus act on, worked out from the requested curves and the selection.
pub(super) struct Targets {
    /// Tracks of the visible curves (sorted, unique).
    pub(super) visible_tracks: Vec<usize>,
    /// Selected keys on visible curves.
    pub(super) keys: Vec<KeyRef>,
    /// Tracks an interpolation change applies to: those of the selected keys, or all visible
    /// tracks when no key is selected.
    pub(super) interpolation_tracks: Vec<usize>,
}

/// What a shortcut asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Shortcut {
    /// Delete / Backspace.
    Delete,
    /// I: insert a key at the playhead.
    Insert,
    /// T: the interpolation menu.
    InterpolationMenu,
    /// V: the handle type menu.
    TangentMenu,
    /// F.
    FrameAll,
    /// Shift+F.
    FrameSelected,
}

/// Takes this frame's shortcut presses out of the input (so nothing else acts on them).
fn take_shortcuts(ui: &Ui) -> Vec<Shortcut> {
    ui.input_mut(|i| {
        let mut found = Vec::new();
        // Shift+F before F: a plain pattern also matches with Shift held.
        if i.consume_key(Modifiers::SHIFT, Key::F) {
            found.push(Shortcut::FrameSelected);
        }
        let plain = [
            (Key::Delete, Shortcut::Delete),
            (Key::Backspace, Shortcut::Delete),
            (Key::I, Shortcut::Insert),
            (Key::T, Shortcut::InterpolationMenu),
            (Key::V, Shortcut::TangentMenu),
            (Key::F, Shortcut::FrameAll),
        ];
        for (key, action) in plain {
            if i.consume_key(Modifiers::NONE, key) && !found.contains(&action) {
                found.push(action);
            }
        }
        found
    })
}

/// Runs this frame's shortcuts (when `keyboard`), the T and V popups at `at` and the
/// right-click menu, queueing their edits in `out`; returns the last framing they asked for.
#[expect(clippy::too_many_arguments)]
pub(super) fn keys_and_menus(
    ui: &Ui,
    response: &Response,
    id: egui::Id,
    keyboard: bool,
    at: Pos2,
    shown_curves: ShownCurves<'_>,
    playhead: f64,
    selected: &mut BTreeSet<KeyRef>,
    editable: bool,
    out: &mut Outbox,
) -> Option<ViewRequest> {
    let clip_id = shown_curves.clip_id;
    let mut request = None;
    let mut open_menu = None;
    let shortcuts = if keyboard {
        take_shortcuts(ui)
    } else {
        Vec::new()
    };
    for shortcut in shortcuts {
        match shortcut {
            Shortcut::Delete => {
                let targets = shown_curves.targets(selected);
                if let Some(edit) = delete(clip_id, &targets, selected) {
                    out.edit(edit);
                }
            }
            Shortcut::Insert => {
                let targets = shown_curves.targets(selected);
                if let Some(edit) = insert(clip_id, &targets, playhead) {
                    out.edit(edit);
                }
            }
            Shortcut::InterpolationMenu => open_menu = Some(MenuKind::Interpolation),
            Shortcut::TangentMenu => open_menu = Some(MenuKind::Tangent),
            Shortcut::FrameAll => request = Some(ViewRequest::FrameAll),
            Shortcut::FrameSelected => request = Some(ViewRequest::FrameSelected),
        }
    }
    popups(response, id, open_menu, at, shown_curves, selected, out);
    let choice = context_menu(response, shown_curves, playhead, selected, editable, out);
    if choice.frame_all {
        request = Some(ViewRequest::FrameAll);
    }
    if choice.frame_selected {
        request = Some(ViewRequest::FrameSelected);
    }
    request
}

/// The `DeleteKeys` command for the target keys (if any), dropping them from the selection
/// (their indices are about to change).
pub(super) fn delete(
    clip: ClipId,
    targets: &Targets,
    selected: &mut BTreeSet<KeyRef>,
) -> Option<Edit> {
    if targets.keys.is_empty() {
        return None;
    }
    let mut tracks: Vec<usize> = targets.keys.iter().map(|k| k.track).collect();
    tracks.dedup();
    // Every selected entry of an affected track refers to old indices now.
    selected.retain(|k| !tracks.contains(&k.track));
    Some(Edit::DeleteKeys {
        clip,
        keys: targets.keys.clone(),
    })
}

/// The `InsertKey` command for the visible tracks at `time`.
pub(super) fn insert(clip: ClipId, targets: &Targets, time: f64) -> Option<Edit> {
    (!targets.visible_tracks.is_empty() && time.is_finite()).then(|| Edit::InsertKey {
        clip,
        tracks: targets.visible_tracks.clone(),
        time,
    })
}

/// Menu entries for the interpolation modes; a click emits `SetInterpolation` for the target
/// tracks whose kind supports the mode.
pub(super) fn interpolation_items(
    ui: &mut Ui,
    clip: &Clip,
    clip_id: ClipId,
    targets: &Targets,
    out: &mut Outbox,
) {
    let tracks = &targets.interpolation_tracks;
    let what = if targets.keys.is_empty() {
        "visible tracks"
    } else {
        "tracks of selected keys"
    };
    ui.label(egui::RichText::new(format!("Interpolation of {what}")).weak());
    for (mode, label) in [
        (Interpolation::Discrete, "Constant"),
        (Interpolation::Linear, "Linear"),
        (Interpolation::Smooth, "Smooth"),
        (Interpolation::Bezier, "Bezier"),
    ] {
        let supported: Vec<usize> = tracks
            .iter()
            .copied()
            .filter(|&t| clip.tracks.get(t).is_some_and(|tr| tr.kind.supports(mode)))
            .collect();
        let current = !tracks.is_empty()
            && tracks.iter().all(|&t| {
                clip.tracks
                    .get(t)
                    .is_some_and(|tr| tr.interpolation == mode)
            });
        let button = ui
            .add_enabled(!supported.is_empty(), Button::selectable(current, label))
            .on_disabled_hover_text("No target track supports this interpolation");
        if button.clicked() {
            out.edit(Edit::SetInterpolation {
                clip: clip_id,
                tracks: supported,
                interpolation: mode,
            });
            ui.close();
        }
    }
}

/// Menu entries for the handle types; a click emits `SetTangentMode` for the selected keys.
pub(super) fn tangent_items(ui: &mut Ui, clip_id: ClipId, targets: &Targets, out: &mut Outbox) {
    if targets.keys.is_empty() {
        ui.label(egui::RichText::new("Select keys to set their handle type").weak());
    } else {
        ui.label(egui::RichText::new("Handle type of selected keys").weak());
    }
    for mode in TangentMode::ALL {
        let button = ui.add_enabled(!targets.keys.is_empty(), Button::new(mode.name()));
        if button.clicked() {
            // One entry per key: the command ignores components.
            let mut keys = targets.keys.clone();
            keys.dedup_by_key(|k| (k.track, k.key));
            out.edit(Edit::SetTangentMode {
                clip: clip_id,
                keys,
                mode,
            });
            ui.close();
        }
    }
}

/// Which popup the T or V key opened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum MenuKind {
    /// Interpolation modes (T).
    Interpolation,
    /// Handle types (V).
    Tangent,
}

/// Shows the T / V popup menus. `open` names the one a key press opens this frame, at `at`.
fn popups(
    response: &Response,
    id: egui::Id,
    open: Option<MenuKind>,
    at: Pos2,
    shown_curves: ShownCurves<'_>,
    selected: &BTreeSet<KeyRef>,
    out: &mut Outbox,
) {
    for kind in [MenuKind::Interpolation, MenuKind::Tangent] {
        let popup_id = id.with(("menu", kind as u8));
        let set = (open == Some(kind)).then_some(SetOpenCommand::Bool(true));
        if set.is_none() && !Popup::is_id_open(&response.ctx, popup_id) {
            continue;
        }
        let anchor = if set.is_some() {
            response
                .ctx
                .data_mut(|d| d.insert_temp(popup_id.with("at"), at));
            at
        } else {
            response
                .ctx
                .data(|d| d.get_temp(popup_id.with("at")))
                .unwrap_or(at)
        };
        Popup::new(
            popup_id,
            response.ctx.clone(),
            PopupAnchor::Position(anchor),
            response.layer_id,
        )
        .kind(PopupKind::Menu)
        .layout(Layout::top_down_justified(Align::Min))
        .style(egui::containers::menu::menu_style)
        .open_memory(set)
        .show(|ui| {
            let targets = shown_curves.targets(selected);
            match kind {
                MenuKind::Interpolation => {
                    interpolation_items(ui, shown_curves.clip, shown_curves.clip_id, &targets, out)
                }
                MenuKind::Tangent => tangent_items(ui, shown_curves.clip_id, &targets, out),
            }
        });
    }
}

/// What the right-click menu asked for besides edits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
struct ContextChoice {
    /// Frame all was chosen.
    frame_all: bool,
    /// Frame selected was chosen.
    frame_selected: bool,
}

/// The right-click menu of the plot.
fn context_menu(
    response: &Response,
    shown_curves: ShownCurves<'_>,
    playhead: f64,
    selected: &mut BTreeSet<KeyRef>,
    editable: bool,
    out: &mut Outbox,
) -> ContextChoice {
    let mut choice = ContextChoice::default();
    let (clip, clip_id) = (shown_curves.clip, shown_curves.clip_id);
    response.context_menu(|ui| {
        let targets = shown_curves.targets(selected);
        let insert_cmd = insert(clip_id, &targets, playhead);
        if ui
            .add_enabled(
                insert_cmd.is_some(),
                Button::new("Insert key at playhead").shortcut_text("I"),
            )
            .clicked()
        {
            if let Some(edit) = insert_cmd {
                out.edit(edit);
            }
            ui.close();
        }
        if ui
            .add_enabled(
                !targets.keys.is_empty(),
                Button::new("Delete keys").shortcut_text("Del"),
            )
            .clicked()
        {
            if let Some(edit) = delete(clip_id, &targets, selected) {
                out.edit(edit);
            }
            ui.close();
        }
        ui.separator();
        ui.menu_button("Interpolation  (T)", |ui| {
            interpolation_items(ui, clip, clip_id, &targets, out)
        });
        ui.add_enabled_ui(editable, |ui| {
            ui.menu_button("Handle type  (V)", |ui| {
                tangent_items(ui, clip_id, &targets, out)
            });
        });
        ui.separator();
        if ui
            .add(Button::new("Frame all").shortcut_text("F"))
            .clicked()
        {
            choice.frame_all = true;
            ui.close();
        }
        if ui
            .add(Button::new("Frame selected").shortcut_text("Shift+F"))
            .clicked()
        {
            choice.frame_selected = true;
            ui.close();
        }
    });
    choice
}
