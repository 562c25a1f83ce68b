//! The TRACKS tree: the selected clip's tracks grouped by the node or bone they animate, with
//! a colour and key count per track, eye toggles per track and per component, a warning
//! mark on tracks with validation problems, and muted tracks struck through.

use std::collections::BTreeMap;

use clipscope_core::model::binding::parse_track_name;
use clipscope_core::model::{Clip, Problem, Severity, Track, TrackKind};
use clipscope_core::text::thousands;

use super::selection::Selection;
use super::style;

/// The tracks of `clip` grouped by target: `(target label, track indices)` in first-seen order.
pub fn group_by_target(clip: &Clip) -> Vec<(String, Vec<usize>)> {
    let mut groups: Vec<(String, Vec<usize>)> = Vec::new();
    // Where each target's group is: a map, not a search of the groups per track.
    let mut index: std::collections::HashMap<String, usize> = Default::default();
    for (i, track) in clip.tracks.iter().enumerate() {
        let target = target_of(track);
        match index.get(&target) {
            Some(&g) => groups[g].1.push(i),
            None => {
                index.insert(target.clone(), groups.len());
                groups.push((target, vec![i]));
            }
        }
    }
    groups
}

/// The node or bone a track animates ("hips", "cube", or "(root)").
fn target_of(track: &Track) -> String {
    match parse_track_name(&track.name) {
        Ok(p) => match (p.object_name.as_deref(), p.object_index, p.node_name) {
            (Some("bones"), Some(bone), _) => bone,
            (_, _, Some(node)) if !node.is_empty() => node,
            _ => "(root)".into(),
        },
        Err(_) => "(unparsable names)".into(),
    }
}

/// The property part of a track name, shown in the tree ("position", "material.opacity");
/// a morph influence shows the target first ("horse_A_001 · morph"), since long lists of them
/// differ only there.
pub fn property_of(track: &Track) -> String {
    match parse_track_name(&track.name) {
        Ok(p) if p.property_name == "morphTargetInfluences" && p.property_index.is_some() => {
            format!("{} · morph", p.property_index.unwrap_or_default())
        }
        Ok(p) => {
            let mut s = String::new();
            if let Some(o) = p.object_name.as_deref().filter(|o| *o != "bones") {
                s.push_str(o);
                if let Some(i) = &p.object_index {
                    s.push_str(&format!("[{i}]"));
                }
                s.push('.');
            }
            s.push_str(&p.property_name);
            if let Some(i) = &p.property_index {
                s.push_str(&format!("[{i}]"));
            }
            s
        }
        Err(_) => track.name.clone(),
    }
}

/// Names of a track's value components ("x", "y", "z", "w"; "r", "g", "b"; or numbers).
pub fn component_names(track: &Track) -> Vec<String> {
    let n = track.value_size();
    let letters: &[&str] = match track.kind {
        TrackKind::Color => &["r", "g", "b"],
        TrackKind::Vector | TrackKind::Quaternion if n <= 4 => &["x", "y", "z", "w"],
        _ => &[],
    };
    (0..n)
        .map(|c| {
            letters
                .get(c)
                .map_or_else(|| c.to_string(), |s| s.to_string())
        })
        .collect()
}

/// A short text shown before a track's key count, with more on hover (a reduction's error).
#[derive(Debug, Clone, PartialEq)]
pub struct TrackNote {
    /// What the row shows ("0.21 mm").
    pub text: String,
    /// What hovering it shows.
    pub hover: String,
}

/// Shows the tree for `clip`. `problems` are the clip's validation findings; `notes` a note
/// per track (a reduction's error while it is previewed).
pub fn show(
    ui: &mut egui::Ui,
    clip: &Clip,
    problems: &[Problem],
    notes: &BTreeMap<usize, TrackNote>,
    selection: &mut Selection,
) {
    let mut by_track: BTreeMap<usize, Vec<&Problem>> = BTreeMap::new();
    for p in problems {
        if let Some(t) = p.track {
            by_track.entry(t).or_default().push(p);
        }
    }
    ui.horizontal(|ui| {
        ui.strong("TRACKS");
        ui.weak(format!(
            "{} · {} keys",
            clip.tracks.len(),
            thousands(clip.key_count())
        ));
        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
            if ui
                .small_button("None")
                .on_hover_text("Hide every curve")
                .clicked()
            {
                selection.tracks.clear();
                selection.keys.clear();
            }
            if ui
                .small_button("All")
                .on_hover_text("Show every track's curves")
                .clicked()
            {
                selection.tracks = (0..clip.tracks.len()).collect();
            }
        });
    });
    egui::ScrollArea::vertical()
        .id_salt("track tree")
        .auto_shrink([false, false])
        .show(ui, |ui| {
            for (target, tracks) in group_by_target(clip) {
                if let [t] = tracks[..] {
                    // A target with one track takes one line: "hips › position".
                    let note = notes.get(&t);
                    track_row(
                        ui,
                        clip,
                        t,
                        Some(&target),
                        by_track.get(&t),
                        note,
                        selection,
                    );
                    continue;
                }
                let warn = tracks.iter().any(|t| by_track.contains_key(t));
                let mut header = egui::RichText::new(&target).strong();
                if warn {
                    header = header.color(ui.visuals().warn_fg_color);
                }
                egui::CollapsingHeader::new(header)
                    .id_salt(("target", &target))
                    .default_open(true)
                    .show(ui, |ui| {
                        for t in tracks {
                            let note = notes.get(&t);
                            track_row(ui, clip, t, None, by_track.get(&t), note, selection);
                        }
                    });
            }
        });
}

/// One track: eye/colour dot, property name (click to show only it, Ctrl-click to add),
/// component toggles, key count and warning mark.
fn track_row(
    ui: &mut egui::Ui,
    clip: &Clip,
    t: usize,
    target: Option<&str>,
    problems: Option<&Vec<&Problem>>,
    note: Option<&TrackNote>,
    selection: &mut Selection,
) {
    let track = &clip.tracks[t];
    let colour = style::track_colour(track);
    let shown = selection.tracks.contains(&t);
    ui.horizontal(|ui| {
        if eye(ui, colour, shown)
            .on_hover_text(if shown { "Hide curves" } else { "Show curves" })
            .clicked()
        {
            selection.set_track_shown(t, !shown);
        }
        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
            if let Some(problems) = problems {
                let worst = problems.iter().map(|p| p.severity).max();
                let colour = if worst == Some(Severity::Error) {
                    ui.visuals().error_fg_color
                } else {
                    ui.visuals().warn_fg_color
                };
                let text: Vec<String> =
                    problems.iter().take(8).map(|p| p.message.clone()).collect();
                ui.label(egui::RichText::new("!").strong().color(colour))
                    .on_hover_text(text.join("\n"));
            }
            ui.weak(thousands(track.len()));
            if track.muted {
                ui.label(egui::RichText::new("muted").small().italics())
                    .on_hover_text("The viewport does not play this track; it is still saved");
            }
            if let Some(note) = note {
                ui.label(egui::RichText::new(&note.text).small().color(style::ACCENT))
                    .on_hover_text(&note.hover);
            }
            let names = component_names(track);
            if names.len() > 1 && names.len() <= 4 {
                for (c, name) in names.iter().enumerate().rev() {
                    let on = shown && !selection.hidden.contains(&(t, c));
                    let text = egui::RichText::new(name).small().color(if on {
                        style::component_colour(track, c)
                    } else {
                        ui.visuals().weak_text_color()
                    });
                    if ui
                        .add(egui::Button::new(text).small().frame(false))
                        .on_hover_text(format!("Show or hide {name}"))
                        .clicked()
                    {
                        selection.set_component_shown(t, c, !on);
                    }
                }
            }
            // The name takes what the count and toggles leave, elided when too long.
            ui.with_layout(egui::Layout::left_to_right(egui::Align::Center), |ui| {
                let text = match target {
                    Some(target) => format!("{target} › {}", property_of(track)),
                    None => property_of(track),
                };
                let mut rich = egui::RichText::new(text).color(if shown && !track.muted {
                    colour
                } else {
                    ui.visuals().weak_text_color()
                });
                if track.muted {
                    // Muted: struck through and greyed, like Blender's muted channels.
                    rich = rich.strikethrough();
                }
                let label = egui::Label::new(rich)
                    .sense(egui::Sense::click())
                    .truncate();
                let muted = if track.muted {
                    "\nMuted: the viewport does not play it (Shift+M unmutes the shown tracks)"
                } else {
                    ""
                };
                let r = ui.add(label).on_hover_text(format!(
                    "{}\n{} · {} · {} keys{muted}\nClick: show only this track; Ctrl+click: add or remove",
                    track.name,
                    track.kind.type_name(),
                    track.interpolation.name(),
                    thousands(track.len())
                ));
                if r.clicked() {
                    if ui.input(|i| i.modifiers.command) {
                        selection.set_track_shown(t, !shown);
                    } else {
                        selection.tracks = [t].into();
                        selection.keys.retain(|k| k.track == t);
                    }
                }
            });
        });
    });
}

/// A round eye toggle in the track colour: filled when shown, a ring when hidden.
fn eye(ui: &mut egui::Ui, colour: egui::Color32, on: bool) -> egui::Response {
    let (rect, r) = ui.allocate_exact_size(egui::vec2(14.0, 14.0), egui::Sense::click());
    let c = rect.center();
    if on {
        ui.painter().circle_filled(c, 5.0, colour);
    } else {
        ui.painter()
            .circle_stroke(c, 4.5, egui::Stroke::new(1.2, colour.gamma_multiply(0.6)));
    }
    r
}
