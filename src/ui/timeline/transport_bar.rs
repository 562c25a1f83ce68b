//! The transport controls above the ruler: start/play/end buttons, loop mode, speed, frame rate
//! and the time and frame readouts.

use egui::{Color32, CornerRadius, Pos2, Rect, Response, Sense, Stroke, StrokeKind, vec2};

use crate::ui::style::ACCENT;
use clipscope_editor::{LoopMode, Transport};

use super::{TimelineOutput, format_frame};

/// The painted icons of the transport buttons (drawn, so no font needs the glyphs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Icon {
    /// A bar and a left-pointing triangle.
    Start,
    /// A right-pointing triangle.
    Play,
    /// Two bars.
    Pause,
    /// A right-pointing triangle and a bar.
    End,
}

/// Shows the transport row and applies its buttons to `transport`.
pub(super) fn show(
    ui: &mut egui::Ui,
    transport: &mut Transport,
    duration: f64,
    output: &mut TimelineOutput,
) {
    ui.horizontal_wrapped(|ui| {
        ui.spacing_mut().item_spacing.x = 4.0;
        if icon_button(ui, "Go to start", Icon::Start, false).clicked() {
            transport.go_start();
            output.scrubbed = true;
        }
        let (label, icon) = if transport.playing {
            ("Pause", Icon::Pause)
        } else {
            ("Play", Icon::Play)
        };
        if icon_button(ui, label, icon, transport.playing).clicked() {
            transport.toggle_play(duration);
        }
        if icon_button(ui, "Go to end", Icon::End, false).clicked() {
            transport.go_end(duration);
            output.scrubbed = true;
        }
        ui.add_space(6.0);

        egui::ComboBox::from_id_salt("timeline_loop_mode")
            .selected_text(transport.loop_mode.name())
            .width(92.0)
            .show_ui(ui, |ui| {
                for mode in LoopMode::ALL {
                    ui.selectable_value(&mut transport.loop_mode, mode, mode.name());
                }
            })
            .response
            .accessible_name("Loop mode")
            .on_hover_text("Loop mode: what playback does at the end of the clip");

        ui.add(
            egui::DragValue::new(&mut transport.speed)
                .range(0.1..=4.0)
                .clamp_existing_to_range(false)
                .speed(0.01)
                .fixed_decimals(2)
                .suffix("×"),
        )
        .accessible_name("Speed")
        .on_hover_text("Playback speed (drag or type, 0.1× to 4×)");

        ui.add(
            egui::DragValue::new(&mut transport.fps)
                .range(1.0..=240.0)
                .speed(0.1)
                .custom_formatter(|fps, _| format_fps(fps))
                .suffix(" fps"),
        )
        .accessible_name("Frame rate")
        .on_hover_text("Frame rate of the frame grid: stepping, snapping and frame numbers");

        ui.add_space(10.0);
        ui.label(
            egui::RichText::new(format!(
                "{} / {}",
                format_clock(transport.time),
                format_clock(duration)
            ))
            .monospace()
            .color(ui.visuals().strong_text_color()),
        );
        ui.label(
            egui::RichText::new(format!(
                "frame {} / {}",
                format_frame(transport.frame()),
                format_frame(duration * transport.fps)
            ))
            .monospace()
            .color(ui.visuals().weak_text_color()),
        );
    });
}

/// A square button with a painted icon, named `label` for screen readers and tests.
fn icon_button(ui: &mut egui::Ui, label: &str, icon: Icon, active: bool) -> Response {
    let height = ui.spacing().interact_size.y;
    let (rect, response) = ui.allocate_exact_size(vec2(height * 1.4, height), Sense::click());
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, ui.is_enabled(), label));
    if ui.is_rect_visible(rect) {
        let visuals = ui.style().interact(&response);
        ui.painter().rect(
            rect,
            visuals.corner_radius,
            visuals.weak_bg_fill,
            visuals.bg_stroke,
            StrokeKind::Inside,
        );
        let colour = if active {
            ACCENT
        } else {
            visuals.fg_stroke.color
        };
        paint_icon(ui.painter(), rect, icon, colour);
    }
    response.on_hover_text(label)
}

/// Paints `icon` centred in `rect`.
fn paint_icon(painter: &egui::Painter, rect: Rect, icon: Icon, colour: Color32) {
    let c = rect.center();
    let h = (rect.height() * 0.26).round();
    let triangle = |tip: f32, base: f32| {
        egui::Shape::convex_polygon(
            vec![
                Pos2::new(base, c.y - h),
                Pos2::new(tip, c.y),
                Pos2::new(base, c.y + h),
            ],
            colour,
            Stroke::NONE,
        )
    };
    let bar = |left: f32, width: f32| {
        Rect::from_min_max(Pos2::new(left, c.y - h), Pos2::new(left + width, c.y + h))
    };
    match icon {
        Icon::Play => {
            painter.add(triangle(c.x + h, c.x - h * 0.8));
        }
        Icon::Pause => {
            painter.rect_filled(bar(c.x - h * 0.8, h * 0.55), CornerRadius::same(1), colour);
            painter.rect_filled(bar(c.x + h * 0.25, h * 0.55), CornerRadius::same(1), colour);
        }
        Icon::Start => {
            painter.rect_filled(bar(c.x - h, h * 0.35), CornerRadius::ZERO, colour);
            painter.add(triangle(c.x - h * 0.6, c.x + h));
        }
        Icon::End => {
            painter.add(triangle(c.x + h * 0.6, c.x - h));
            painter.rect_filled(bar(c.x + h * 0.65, h * 0.35), CornerRadius::ZERO, colour);
        }
    }
}

/// A frame rate without needless decimals: `30`, `29.97`, `23.976`.
fn format_fps(fps: f64) -> String {
    let text = format!("{fps:.3}");
    text.trim_end_matches('0').trim_end_matches('.').to_owned()
}

/// A time as `m:ss.cc` (minutes, seconds, hundredths), e.g. `0:00.42`, `1:05.00`.
pub(super) fn format_clock(seconds: f64) -> String {
    let seconds = if seconds.is_finite() { seconds } else { 0.0 };
    let sign = if seconds < -0.005 { "-" } else { "" };
    let hundredths = (seconds.abs() * 100.0).round() as u64;
    let minutes = hundredths / 6000;
    let rest = hundredths % 6000;
    format!("{sign}{minutes}:{:02}.{:02}", rest / 100, rest % 100)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frame_rates_drop_trailing_zeros() {
        assert_eq!(format_fps(30.0), "30");
        assert_eq!(format_fps(29.97), "29.97");
        assert_eq!(format_fps(23.976_023), "23.976");
        assert_eq!(format_fps(120.0), "120");
    }

    #[test]
    fn clock_shows_minutes_seconds_and_hundredths() {
        assert_eq!(format_clock(0.0), "0:00.00");
        assert_eq!(format_clock(0.42), "0:00.42");
        assert_eq!(format_clock(0.63), "0:00.63");
        assert_eq!(format_clock(65.0), "1:05.00");
        assert_eq!(format_clock(59.999), "1:00.00");
        assert_eq!(format_clock(-1.5), "-0:01.50");
        assert_eq!(format_clock(f64::NAN), "0:00.00");
    }
}
