//! The CYCLES panel: pick a procedural walk or run cycle, tune its parameters with sliders
//! (numeric entry, reset to default, the formulas a parameter drives in its tooltip, randomize
//! within ranges, presets saved to and loaded from JSON), watch the viewport preview it live,
//! and bake it into a clip.
//!
//! The parameter values are the panel's own state, like the viewport's camera: moving a slider
//! edits no document. Baking, saving and loading are queued as [`AppCommand`]s the app carries
//! out (a bake becomes an undoable [`Edit::AddClip`](clipscope_editor::Edit::AddClip)).

use clipscope_core::model::Clip;
use clipscope_scene::procedural::{BakeOptions, Cycle, SeamJump, randomize};

use super::outbox::{AppCommand, Outbox};

/// Samples per cycle of the live preview (its clip is rebuilt on every change).
const PREVIEW_SAMPLES_PER_CYCLE: f64 = 96.0;

/// The panel's state: which cycle, its values, the bake settings and the preview clock.
#[derive(Debug)]
pub struct CyclesPanel {
    /// Index of the chosen cycle in [`Cycle::builtins`].
    pub cycle: usize,
    /// The parameter values of every built-in cycle (kept while switching between them).
    pub values: Vec<Vec<f64>>,
    /// Frame rate, cycle count and optimize for Bake.
    pub bake: BakeOptions,
    /// The viewport shows the cycle (instead of the selected clip).
    pub preview_in_viewport: bool,
    /// The preview moves (else it holds its phase).
    pub playing: bool,
    /// Preview time in seconds.
    pub clock: f64,
    /// Bumped on every change of cycle or value, so the preview is rebuilt.
    pub version: u64,
    /// The preview clip and the seam check, for `version`.
    preview: Option<(u64, Clip, Vec<SeamJump>)>,
    /// Why the preview could not be made, if it could not.
    pub error: Option<String>,
    /// How many times Randomize was pressed (picks the next draw).
    draws: u64,
}

impl Default for CyclesPanel {
    fn default() -> Self {
        CyclesPanel {
            cycle: 0,
            values: Cycle::builtins().iter().map(Cycle::defaults).collect(),
            bake: BakeOptions::default(),
            preview_in_viewport: true,
            playing: true,
            clock: 0.0,
            version: 0,
            preview: None,
            error: None,
            draws: 0,
        }
    }
}

impl CyclesPanel {
    /// The chosen cycle.
    pub fn cycle(&self) -> &'static Cycle {
        &Cycle::builtins()[self.cycle.min(Cycle::builtins().len() - 1)]
    }

    /// The chosen cycle's parameter values.
    pub fn values(&self) -> &[f64] {
        &self.values[self.cycle]
    }

    /// Chooses the cycle with id `id`; false when there is none.
    pub fn choose(&mut self, id: &str) -> bool {
        match Cycle::builtins().iter().position(|c| c.id == id) {
            Some(i) => {
                self.cycle = i;
                self.changed();
                true
            }
            None => false,
        }
    }

    /// Replaces the chosen cycle's values (a loaded preset, say).
    pub fn set_values(&mut self, values: Vec<f64>) {
        self.values[self.cycle] = values;
        self.changed();
    }

    /// Sets one parameter by name (tests and scripts); false when there is no such parameter.
    pub fn set(&mut self, name: &str, value: f64) -> bool {
        match self.cycle().parameter(name) {
            Some(i) => {
                self.values[self.cycle][i] = value;
                self.changed();
                true
            }
            None => false,
        }
    }

    /// Marks the preview stale and shows it again.
    fn changed(&mut self) {
        self.version += 1;
        self.preview_in_viewport = true;
    }

    /// Moves the preview clock on by `dt` seconds while playing.
    pub fn advance(&mut self, dt: f64) {
        if self.playing {
            self.clock += dt;
        }
    }

    /// The preview clip (one cycle, finely sampled), rebuilt when something changed.
    pub fn preview(&mut self) -> Option<&Clip> {
        if self
            .preview
            .as_ref()
            .is_none_or(|(v, _, _)| *v != self.version)
        {
            let cycle = self.cycle();
            let values = self.values();
            let options = BakeOptions {
                fps: cycle.rate(values) * PREVIEW_SAMPLES_PER_CYCLE,
                ..BakeOptions::default()
            };
            match cycle.bake(values, &options) {
                Ok(baked) => {
                    self.error = None;
                    self.preview = Some((self.version, baked.clip, baked.seam));
                }
                Err(e) => {
                    self.error = Some(e.to_string());
                    self.preview = None;
                }
            }
        }
        self.preview.as_ref().map(|(_, clip, _)| clip)
    }

    /// The channels of the previewed values that jump at the loop seam.
    pub fn seam(&self) -> &[SeamJump] {
        self.preview
            .as_ref()
            .map_or(&[], |(_, _, seam)| seam.as_slice())
    }

    /// Where the preview is in its cycle, in seconds.
    pub fn preview_time(&self) -> f64 {
        let period = self.cycle().period(self.values());
        if period > 0.0 && period.is_finite() {
            self.clock.rem_euclid(period)
        } else {
            0.0
        }
    }
}

/// Shows the panel; queues a bake or a preset to save or load when the user asks.
pub fn show(ui: &mut egui::Ui, state: &mut CyclesPanel, out: &mut Outbox) {
    let cycle = state.cycle();
    ui.horizontal(|ui| {
        ui.strong("CYCLES");
        ui.weak(format!("on {}", cycle.rig));
    });
    let mut chosen = state.cycle;
    egui::ComboBox::from_id_salt("cycle_picker")
        .selected_text(&cycle.name)
        .width(ui.available_width() - 8.0)
        .show_ui(ui, |ui| {
            for (i, c) in Cycle::builtins().iter().enumerate() {
                ui.selectable_value(&mut chosen, i, format!("{}  ·  {}", c.name, c.rig));
            }
        })
        .response
        .accessible_name("Cycle")
        .on_hover_text(&cycle.description);
    if chosen != state.cycle {
        state.cycle = chosen;
        state.changed();
    }
    let cycle = state.cycle();
    ui.add(egui::Label::new(egui::RichText::new(&cycle.description).weak().small()).wrap());
    ui.add_space(4.0);

    ui.horizontal(|ui| {
        let label = if state.playing { "Pause" } else { "Play" };
        if ui
            .selectable_label(state.playing, label)
            .on_hover_text("Play or hold the preview")
            .clicked()
        {
            state.playing = !state.playing;
        }
        ui.checkbox(&mut state.preview_in_viewport, "Preview in viewport")
            .on_hover_text("Show the cycle in the viewport instead of the selected clip");
    });
    ui.separator();

    let mut values = state.values().to_vec();
    let mut edited = false;
    egui::ScrollArea::vertical()
        .id_salt("cycle_parameters")
        .max_height((ui.available_height() - 170.0).max(120.0))
        .show(ui, |ui| {
            egui::Grid::new("cycle_parameter_grid")
                .num_columns(3)
                .spacing([6.0, 6.0])
                .show(ui, |ui| {
                    for (i, value) in values.iter_mut().enumerate() {
                        edited |= parameter_row(ui, cycle, i, value);
                        ui.end_row();
                    }
                });
        });
    ui.horizontal_wrapped(|ui| {
        if ui
            .button("Randomize")
            .on_hover_text("New values drawn from each slider's range (the speed stays)")
            .clicked()
        {
            state.draws += 1;
            values = randomize(
                cycle,
                &values,
                state.draws.wrapping_mul(0x2545_F491_4F6C_DD1D),
            );
            edited = true;
        }
        if ui
            .button("Defaults")
            .on_hover_text("Every slider back to its default")
            .clicked()
        {
            values = cycle.defaults();
            edited = true;
        }
        if ui
            .button("Save preset…")
            .on_hover_text("Save these values to a JSON file")
            .clicked()
        {
            out.push(AppCommand::SaveCyclePreset);
        }
        if ui
            .button("Load preset…")
            .on_hover_text("Load values from a JSON preset file")
            .clicked()
        {
            out.push(AppCommand::LoadCyclePreset);
        }
    });
    if edited && values != state.values() {
        state.set_values(values);
    }
    state.preview();
    let seam = state.seam().to_vec();
    if let Some(e) = &state.error {
        ui.colored_label(ui.visuals().error_fg_color, e);
    } else if seam.is_empty() {
        ui.weak("Loops seamlessly.");
    } else {
        for jump in &seam {
            ui.colored_label(ui.visuals().warn_fg_color, jump.describe());
        }
    }

    ui.separator();
    ui.strong("BAKE");
    ui.horizontal_wrapped(|ui| {
        ui.add(
            egui::DragValue::new(&mut state.bake.fps)
                .range(1.0..=240.0)
                .speed(0.5)
                .suffix(" fps"),
        )
        .accessible_name("Bake frame rate")
        .on_hover_text("Keys per second of the baked clip");
        ui.add(
            egui::DragValue::new(&mut state.bake.cycles)
                .range(1..=100)
                .speed(0.1)
                .suffix(" cycles"),
        )
        .accessible_name("Bake cycles")
        .on_hover_text("How many whole cycles the clip holds");
        ui.checkbox(&mut state.bake.optimize, "Optimize")
            .on_hover_text("Remove redundant keys afterwards (lossless)");
    });
    let period = cycle.period(state.values());
    let length = period * f64::from(state.bake.cycles);
    if ui
        .add_sized(
            [ui.available_width(), 24.0],
            egui::Button::new(egui::RichText::new("Bake to clip").strong()),
        )
        .on_hover_text(format!(
            "Sample {:.3} s at {} fps into a clip of the \"baked cycles\" file (undoable)",
            length, state.bake.fps
        ))
        .clicked()
    {
        out.push(AppCommand::BakeCycle);
    }
}

/// One parameter: its label (help and formulas on hover), a slider with numeric entry, and a
/// reset button. Returns true when the value changed.
fn parameter_row(ui: &mut egui::Ui, cycle: &Cycle, i: usize, value: &mut f64) -> bool {
    let p = &cycle.parameters[i];
    let mut tip = p.help.clone();
    if i == cycle.speed_index() {
        tip.push_str("\n\nSets the rate of the master phase t.");
    }
    let formulas = cycle.formulas_using(i);
    if !formulas.is_empty() {
        tip.push_str("\n\nUsed in:\n");
        tip.push_str(&formulas.join("\n"));
    }
    ui.label(&p.label).on_hover_text(&tip);
    let before = *value;
    let suffix = match p.unit.as_str() {
        "" => String::new(),
        "×" => "×".to_string(),
        unit => format!(" {unit}"),
    };
    ui.add(
        egui::Slider::new(value, p.min..=p.max)
            .suffix(suffix)
            .clamping(egui::SliderClamping::Always),
    )
    .accessible_name(&p.label)
    .on_hover_text(&tip);
    let at_default = *value == p.default;
    if ui
        .add_enabled(!at_default, egui::Button::new("Reset").small())
        .accessible_name(format!("Reset {}", p.label))
        .on_hover_text(format!("Back to the default, {}", p.default))
        .clicked()
    {
        *value = p.default;
    }
    *value != before
}
