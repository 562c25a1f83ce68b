//! What the viewport paints over its picture: a card in the top-left corner with the figure
//! picker, what the clip binds to, the blend controls and the notes about unbound tracks; the
//! hovered bone's name by the pointer; and a line of hints at the bottom.

use std::path::Path;

use clipscope_scene::{Figure, LayerMode, Player, Rig, figure};

use super::{Subject, Viewport};
use crate::ui::outbox::{AppCommand, FileTarget, Outbox};

/// The figure picker, the blend controls and the unbound-track note, over the picture's
/// top-left corner; returns where the card was painted.
pub(super) fn card(
    ui: &mut egui::Ui,
    rect: egui::Rect,
    vp: &mut Viewport,
    subject: Subject<'_>,
    outbox: &mut Outbox,
) -> egui::Rect {
    let area = egui::Rect::from_min_size(
        rect.min + egui::vec2(8.0, 8.0),
        egui::vec2((rect.width() - 16.0).clamp(0.0, 420.0), 150.0),
    );
    ui.scope_builder(egui::UiBuilder::new().max_rect(area), |ui| {
        // A translucent card in the theme's window colour keeps the controls readable over any
        // picture, in the light and the dark theme.
        egui::Frame::new()
            .fill(ui.visuals().window_fill.gamma_multiply(0.88))
            .corner_radius(6.0)
            .inner_margin(egui::Margin::symmetric(8, 6))
            .show(ui, |ui| card_contents(ui, vp, subject, outbox))
            .response
            .rect
    })
    .inner
}

/// The part of the picture's height (0 to 0.6) that framing keeps clear of the `card` painted
/// over its top-left corner: the card's height when it spans more than a third of the picture's
/// width (a figure framed in the middle would be under it). Nothing when the card is narrow, or
/// when it covers most of a picture too small to frame anything below it.
pub(super) fn cover(picture: egui::Rect, card: egui::Rect) -> f32 {
    let covered = card.intersect(picture);
    if !covered.is_positive() || covered.width() < picture.width() / 3.0 {
        return 0.0;
    }
    let cover = (covered.bottom() - picture.top()) / picture.height().max(1.0);
    if (0.0..=0.6).contains(&cover) {
        cover
    } else {
        0.0
    }
}

/// The controls on the overlay card.
fn card_contents(ui: &mut egui::Ui, vp: &mut Viewport, subject: Subject<'_>, outbox: &mut Outbox) {
    if let Some(figure) = subject.figure {
        // A procedural cycle's preview: its rig is fixed and there is nothing to blend.
        ui.label(egui::RichText::new(format!("Previewing {}", subject.clip.name)).strong());
        ui.weak(format!("on {figure} · tune it in the Cycles panel"));
        return;
    }
    ui.horizontal(|ui| figure_row(ui, vp, subject, outbox));
    let layers = matches!(vp.player().map(Player::figure), Some(Figure::Layers(_)));
    ui.horizontal(|ui| {
        if let Some(report) = &vp.stage.report {
            let from = match &report.file {
                Some(file) => format!("{} · {file}", report.source),
                None => report.source.to_string(),
            };
            ui.weak(format!(
                "{} ({from}) · {}/{} tracks bound",
                report.name, report.bound, report.tracks
            ));
        }
        if layers {
            ui.checkbox(&mut vp.flat, "2D")
                .on_hover_text("The composition flat and front-on; off: the 3D view you can orbit");
        }
    });
    if !layers {
        ui.horizontal(|ui| view_row(ui, vp));
    }
    blend_row(ui, vp, subject);
    notes(ui, vp);
}

/// "Bones · Follow · Frame all": the x-ray toggle (for a model with a skeleton), following the
/// figure, and framing its whole motion.
fn view_row(ui: &mut egui::Ui, vp: &mut Viewport) {
    let skinned = matches!(
        vp.player().map(Player::figure),
        Some(Figure::Model(m)) if m.rig.is_some()
    );
    if skinned {
        ui.checkbox(&mut vp.show_bones, "Bones")
            .on_hover_text("Draw the skeleton over the model (x-ray)");
    }
    ui.checkbox(&mut vp.follow, "Follow")
        .on_hover_text("Keep the camera on the figure as it travels (F frames the figure)");
    if ui
        .button("Frame all")
        .on_hover_text("Frame the whole motion, every place the figure goes (Shift+F)")
        .clicked()
    {
        vp.frame_all();
        vp.follow = false;
    }
}

/// "Plays on \[figure\] Model…": the figure picker and the button that picks a model file.
fn figure_row(ui: &mut egui::Ui, vp: &mut Viewport, subject: Subject<'_>, outbox: &mut Outbox) {
    let current = vp
        .player()
        .map(|p| p.figure().name().to_string())
        .unwrap_or_default();
    let label = ui.label("Plays on");
    let mut choice = vp.stage.rig_choice.clone();
    let shown = match &choice {
        None => format!("Auto ({current})"),
        Some(name) => figure_label(name),
    };
    egui::ComboBox::from_id_salt("rig picker")
        .selected_text(shown)
        .show_ui(ui, |ui| {
            ui.selectable_value(&mut choice, None, "Auto (best match)");
            for rig in Rig::builtins() {
                ui.selectable_value(&mut choice, Some(rig.name.clone()), &rig.name);
            }
            for rig in vp.stage.figures.all() {
                ui.selectable_value(
                    &mut choice,
                    Some(rig.name.clone()),
                    format!("{} (skeleton)", rig.name),
                );
            }
            ui.selectable_value(
                &mut choice,
                Some(figure::NAMES.to_string()),
                figure_label(figure::NAMES),
            );
            ui.selectable_value(
                &mut choice,
                Some(figure::PROXY.to_string()),
                figure_label(figure::PROXY),
            );
            if subject.clip.layers.is_some() {
                ui.selectable_value(
                    &mut choice,
                    Some(figure::LAYERS.to_string()),
                    figure_label(figure::LAYERS),
                );
            }
            if subject.source.mesh.is_some() {
                ui.selectable_value(
                    &mut choice,
                    Some(figure::MESH.to_string()),
                    figure_label(figure::MESH),
                );
            }
            if subject.source.model.is_some_and(|m| m.vertex_count() > 0) {
                ui.selectable_value(
                    &mut choice,
                    Some(figure::MODEL.to_string()),
                    figure_label(figure::MODEL),
                );
                if subject.source.skeleton.is_some() {
                    ui.selectable_value(
                        &mut choice,
                        Some(figure::SKELETON.to_string()),
                        figure_label(figure::SKELETON),
                    );
                }
            }
        })
        .response
        .labelled_by(label.id);
    if choice != vp.stage.rig_choice {
        vp.stage.rig_choice = choice;
        vp.frame_next = true;
    }
    if ui
        .button("Model…")
        .on_hover_text(
            "Play this clip on a model or rig file picked from disk (glTF, legacy \
             three.js, rig JSON, …): its meshes when it has them, else its skeleton",
        )
        .clicked()
    {
        outbox.push(AppCommand::ChooseFile {
            target: FileTarget::Figure,
            suggested: subject.path.map(Path::to_path_buf),
        });
    }
}

/// Why the chosen figure could not be used, and how many tracks bind to nothing on it.
fn notes(ui: &mut egui::Ui, vp: &Viewport) {
    let warn = ui.visuals().warn_fg_color;
    if let Some(error) = &vp.stage.figure_error {
        ui.label(egui::RichText::new(error).small().color(warn));
    }
    let unbound = &vp.stage.unbound;
    if !unbound.is_empty() {
        let n = unbound.len();
        let text = format!(
            "{n} track{} bind to nothing on {}",
            if n == 1 { "" } else { "s" },
            vp.player()
                .map(|p| p.figure().name())
                .unwrap_or("this figure")
        );
        ui.label(egui::RichText::new(text).small().color(warn))
            .on_hover_text(unbound.join("\n"));
    }
}

/// How a figure choice is shown in the picker.
fn figure_label(name: &str) -> String {
    match name {
        figure::PROXY => "Proxy (one box per bone)".to_string(),
        figure::MESH => "Morph mesh (from the file)".to_string(),
        figure::MODEL => "Model (the file's meshes)".to_string(),
        figure::LAYERS => "Layers (Lottie composition)".to_string(),
        figure::NAMES => "Humanoid (from the node names)".to_string(),
        figure::SKELETON => "Skeleton (from the file)".to_string(),
        other => other.to_string(),
    }
}

/// "Blend with \[clip\] \[Cross-fade|Additive\] weight": a second clip of the same file.
fn blend_row(ui: &mut egui::Ui, vp: &mut Viewport, subject: Subject<'_>) {
    let others: Vec<&str> = subject
        .clips
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != subject.version.2)
        .map(|(_, c)| c.name.as_str())
        .collect();
    if others.is_empty() {
        return;
    }
    let blend = &mut vp.stage.blend;
    ui.horizontal(|ui| {
        let label = ui.label("Blend with");
        let mut clip = blend.clip.clone();
        egui::ComboBox::from_id_salt("blend clip")
            .selected_text(clip.as_deref().unwrap_or("(nothing)"))
            .width(110.0)
            .show_ui(ui, |ui| {
                ui.selectable_value(&mut clip, None, "(nothing)");
                for name in &others {
                    ui.selectable_value(&mut clip, Some(name.to_string()), *name);
                }
            })
            .response
            .labelled_by(label.id)
            .on_hover_text(
                "Plays a second clip of this file with the selected one, in step with it \
                 (stretched to the same length)",
            );
        blend.clip = clip;
        if blend.clip.is_some() {
            ui.selectable_value(&mut blend.mode, LayerMode::CrossFade, "Cross-fade")
                .on_hover_text("Weight 0 shows the selected clip, 1 the second clip");
            ui.selectable_value(&mut blend.mode, LayerMode::Additive, "Additive")
                .on_hover_text(
                    "Adds the second clip's motion (relative to its first frame) on top",
                );
        }
    });
    if blend.clip.is_some() {
        ui.horizontal(|ui| {
            let label = ui.label("Weight");
            ui.add(egui::Slider::new(&mut blend.weight, 0.0..=1.0).fixed_decimals(2))
                .labelled_by(label.id);
        });
    }
}

/// The bone's name by the pointer, on a small card that reads over any picture (painted after
/// the picture).
pub(super) fn bone_label(ui: &egui::Ui, name: &str, pos: egui::Pos2) {
    let painter = ui.painter();
    let galley = painter.layout_no_wrap(
        name.to_string(),
        egui::FontId::proportional(13.0),
        ui.visuals().strong_text_color(),
    );
    let at = pos + egui::vec2(14.0, -10.0 - galley.size().y);
    let card = egui::Rect::from_min_size(at, galley.size()).expand(4.0);
    painter.rect_filled(card, 4.0, ui.visuals().window_fill.gamma_multiply(0.92));
    painter.galley(at, galley, ui.visuals().strong_text_color());
}

/// The line of navigation hints along the picture's bottom edge (while the pointer is over it).
pub(super) fn hints(ui: &egui::Ui, rect: egui::Rect) {
    ui.painter().text(
        rect.left_bottom() + egui::vec2(8.0, -6.0),
        egui::Align2::LEFT_BOTTOM,
        "drag: orbit · Shift/middle-drag: pan · wheel: zoom · F: frame · Shift+F: frame all",
        egui::FontId::proportional(11.0),
        egui::Color32::from_black_alpha(140),
    );
}
