//! The dialog that offers back the unsaved edits of an editor that crashed or was killed: one
//! row per document (file, folder, how many edits, when they were saved), restore or discard
//! the ticked ones, or decide at the next start.

use clipscope_editor::recovery::Recoverable;

use super::outbox::{AppCommand, Outbox, RecoveryAnswer};

/// The documents on offer and which are ticked.
#[derive(Debug, Clone, PartialEq)]
pub struct RecoveryOffer {
    /// What dead sessions left, newest first.
    pub entries: Vec<Recoverable>,
    /// Ticked rows (all at first).
    pub ticked: Vec<bool>,
}

impl RecoveryOffer {
    /// An offer of `entries`, all ticked; `None` when there is nothing to offer.
    pub fn new(entries: Vec<Recoverable>) -> Option<RecoveryOffer> {
        if entries.is_empty() {
            return None;
        }
        let ticked = vec![true; entries.len()];
        Some(RecoveryOffer { entries, ticked })
    }

    /// The indices of the ticked rows.
    pub fn chosen(&self) -> Vec<usize> {
        (0..self.entries.len())
            .filter(|&i| self.ticked[i])
            .collect()
    }
}

/// Shows the offer; the answer goes into `out` as [`AppCommand::Recovery`]. `now` is the time
/// in seconds since the Unix epoch (for "3 min ago").
pub fn show(ctx: &egui::Context, offer: &mut RecoveryOffer, now: u64, out: &mut Outbox) {
    let mut answer = None;
    let modal = egui::Modal::new(egui::Id::unique("recover unsaved edits")).show(ctx, |ui| {
        ui.set_width(560.0);
        ui.heading("Recover unsaved edits");
        ui.label(
            "clipscope did not close normally last time. These files had edits that were not \
             saved:",
        );
        ui.add_space(6.0);
        egui::Grid::new("recoverable")
            .num_columns(4)
            .striped(true)
            .show(ui, |ui| {
                for (entry, ticked) in offer.entries.iter().zip(offer.ticked.iter_mut()) {
                    let meta = &entry.meta;
                    ui.checkbox(ticked, &meta.name);
                    let folder = meta
                        .source
                        .as_deref()
                        .and_then(|p| p.parent())
                        .map_or("(not saved to a file yet)".to_string(), |p| {
                            p.display().to_string()
                        });
                    ui.label(folder);
                    ui.label(match meta.edits {
                        1 => "1 edit".to_string(),
                        n => format!("{n} edits"),
                    });
                    ui.label(age(now.saturating_sub(meta.saved_at)));
                    ui.end_row();
                }
            });
        ui.add_space(8.0);
        let chosen = offer.chosen();
        ui.horizontal(|ui| {
            let some = !chosen.is_empty();
            if ui
                .add_enabled(some, egui::Button::new("Restore"))
                .on_hover_text("Open the ticked files with their unsaved edits")
                .clicked()
            {
                answer = Some(RecoveryAnswer::Restore(chosen.clone()));
            }
            if ui
                .add_enabled(some, egui::Button::new("Discard"))
                .on_hover_text("Delete the ticked files' unsaved edits for good")
                .clicked()
            {
                answer = Some(RecoveryAnswer::Discard(chosen.clone()));
            }
            if ui
                .button("Decide later")
                .on_hover_text("Keep them and ask again at the next start")
                .clicked()
            {
                answer = Some(RecoveryAnswer::Later);
            }
        });
    });
    if answer.is_none() && modal.should_close() {
        answer = Some(RecoveryAnswer::Later);
    }
    if let Some(answer) = answer {
        out.push(AppCommand::Recovery(answer));
    }
}

/// How long ago, for people: "just now", "5 s ago", "3 min ago", "2 h ago", "4 days ago".
pub fn age(secs: u64) -> String {
    match secs {
        0..=1 => "just now".into(),
        2..=59 => format!("{secs} s ago"),
        60..=3599 => format!("{} min ago", secs / 60),
        3600..=86_399 => format!("{} h ago", secs / 3600),
        _ => format!("{} days ago", secs / 86_400),
    }
}

#[cfg(test)]
mod tests {
    use super::age;

    #[test]
    fn ages_read_well() {
        assert_eq!(age(0), "just now");
        assert_eq!(age(42), "42 s ago");
        assert_eq!(age(3 * 60 + 5), "3 min ago");
        assert_eq!(age(2 * 3600), "2 h ago");
        assert_eq!(age(5 * 86_400), "5 days ago");
    }
}
