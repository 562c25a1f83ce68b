//! The timeline strip, driven through egui_kittest: transport buttons, scrubbing on the ruler,
//! clicking key ticks and the loop-mode menu.
#![cfg(feature = "gui")]

use clipscope::ui::timeline::{self, DopeRow, TimeAxis, TimelineOutput};
use clipscope_editor::{LoopMode, Transport};
use egui::{Color32, Event, Modifiers, PointerButton, Pos2};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;

/// Keys of the two rows; the clip lasts one second.
const POSITION_KEYS: [f32; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];
const ROTATION_KEYS: [f32; 3] = [0.0, 0.4, 1.0];
const DURATION: f64 = 1.0;

/// What the test app keeps between frames.
#[derive(Default)]
struct Timeline {
    transport: Transport,
    /// Frames in which the timeline reported a scrub.
    scrubs: usize,
    /// The last key click reported.
    seek_key: Option<(usize, usize)>,
}

fn harness() -> Harness<'static, Timeline> {
    let mut harness = Harness::builder()
        .with_size(egui::vec2(900.0, 260.0))
        .build_ui_state(
            |ui, state: &mut Timeline| {
                let rows = [
                    DopeRow {
                        label: ".bones[hips].position",
                        colour: Color32::from_rgb(110, 200, 120),
                        times: &POSITION_KEYS,
                        selected: &[],
                    },
                    DopeRow {
                        label: ".bones[head].quaternion",
                        colour: Color32::from_rgb(100, 160, 240),
                        times: &ROTATION_KEYS,
                        selected: &[],
                    },
                ];
                let output: TimelineOutput =
                    timeline::show(ui, &mut state.transport, DURATION, &rows);
                if output.scrubbed {
                    state.scrubs += 1;
                }
                if output.seek_key.is_some() {
                    state.seek_key = output.seek_key;
                }
            },
            Timeline::default(),
        );
    harness.run();
    harness
}

/// The ruler's time axis at the fitted zoom: `[0, 1]` s inside the ruler's rect.
fn ruler_axis(harness: &Harness<'_, Timeline>) -> (TimeAxis, f32) {
    let rect = harness.get_by_label("Playhead").rect();
    (
        TimeAxis::new(rect.x_range(), 0.0, DURATION),
        rect.center().y,
    )
}

fn press(harness: &Harness<'_, Timeline>, pos: Pos2, pressed: bool, modifiers: Modifiers) {
    harness.event(Event::PointerButton {
        pos,
        button: PointerButton::Primary,
        pressed,
        modifiers,
    });
}

fn click_at(harness: &mut Harness<'_, Timeline>, pos: Pos2, modifiers: Modifiers) {
    harness.event(Event::ModifiersChanged(modifiers));
    harness.hover_at(pos);
    press(harness, pos, true, modifiers);
    press(harness, pos, false, modifiers);
    harness.event(Event::ModifiersChanged(Modifiers::NONE));
    harness.run();
}

#[test]
fn play_and_pause_toggle_playing() {
    let mut harness = harness();
    assert!(!harness.state().transport.playing);
    harness.get_by_label("Play").click();
    // Playing keeps asking for frames, so step instead of running until idle.
    harness.run_steps(2);
    assert!(harness.state().transport.playing);
    harness.get_by_label("Pause").click();
    harness.run();
    assert!(!harness.state().transport.playing);
    harness.get_by_label("Play");
}

#[test]
fn start_and_end_buttons_move_the_playhead() {
    let mut harness = harness();
    harness.get_by_label("Go to end").click();
    harness.run();
    assert_eq!(harness.state().transport.time, DURATION);
    harness.get_by_label("0:01.00 / 0:01.00");
    harness.get_by_label("frame 30 / 30");
    harness.get_by_label("Go to start").click();
    harness.run();
    assert_eq!(harness.state().transport.time, 0.0);
    assert!(harness.state().scrubs >= 2);
}

#[test]
fn clicking_the_ruler_scrubs_to_the_nearest_frame() {
    let mut harness = harness();
    let (axis, y) = ruler_axis(&harness);
    // 0.51 s is frame 15.3 at 30 fps: the playhead snaps to frame 15.
    click_at(&mut harness, Pos2::new(axis.x_of(0.51), y), Modifiers::NONE);
    let time = harness.state().transport.time;
    assert!((time - 0.5).abs() < 1e-9, "{time}");
    assert!(harness.state().scrubs > 0);
    harness.get_by_label("0:00.50 / 0:01.00");
    harness.get_by_label("frame 15 / 30");
}

#[test]
fn alt_or_shift_scrubs_without_snapping() {
    let mut harness = harness();
    let (axis, y) = ruler_axis(&harness);
    let x = axis.x_of(0.51);
    click_at(&mut harness, Pos2::new(x, y), Modifiers::ALT);
    let time = harness.state().transport.time;
    assert!((time - axis.time_at(x)).abs() < 1e-6, "{time}");
    assert!((time - 0.5).abs() > 1e-3, "not snapped: {time}");
    click_at(
        &mut harness,
        Pos2::new(axis.x_of(0.27), y),
        Modifiers::SHIFT,
    );
    let time = harness.state().transport.time;
    assert!((time - 0.27).abs() < 2e-3, "{time}");
}

#[test]
fn dragging_on_the_ruler_follows_the_pointer_and_clamps_to_the_clip() {
    let mut harness = harness();
    let (axis, y) = ruler_axis(&harness);
    let at = |t: f64| Pos2::new(axis.x_of(t), y);
    harness.hover_at(at(0.2));
    press(&harness, at(0.2), true, Modifiers::NONE);
    harness.run();
    assert!((harness.state().transport.time - 0.2).abs() < 1e-9);
    for t in [0.3, 0.5, 0.7] {
        harness.hover_at(at(t));
        harness.run();
        let time = harness.state().transport.time;
        assert!((time - t).abs() < 1e-9, "dragged to {t}: {time}");
    }
    // Past the end of the clip (into the margin) the playhead stops at the end.
    let beyond = Pos2::new(axis.x_range().max - 1.0, y);
    harness.hover_at(beyond);
    harness.run();
    assert_eq!(harness.state().transport.time, DURATION);
    harness.hover_at(at(0.8));
    press(&harness, at(0.8), false, Modifiers::NONE);
    harness.run();
    let time = harness.state().transport.time;
    assert!((time - 0.8).abs() < 1e-9, "{time}");
}

#[test]
fn clicking_a_key_tick_reports_it_and_moves_the_playhead() {
    let mut harness = harness();
    let (axis, _) = ruler_axis(&harness);
    let row = harness.get_by_label(".bones[head].quaternion").rect();
    let key = Pos2::new(axis.x_of(f64::from(ROTATION_KEYS[1])), row.center().y);
    click_at(&mut harness, key, Modifiers::NONE);
    assert_eq!(harness.state().seek_key, Some((1, 1)));
    let time = harness.state().transport.time;
    assert!((time - f64::from(ROTATION_KEYS[1])).abs() < 1e-9, "{time}");

    // A click between keys picks nothing.
    let row = harness.get_by_label(".bones[hips].position").rect();
    harness.state_mut().seek_key = None;
    click_at(
        &mut harness,
        Pos2::new(axis.x_of(0.62), row.center().y),
        Modifiers::NONE,
    );
    assert_eq!(harness.state().seek_key, None);
    // The last key of the first row.
    click_at(
        &mut harness,
        Pos2::new(axis.x_of(1.0) + 2.0, row.center().y),
        Modifiers::NONE,
    );
    assert_eq!(harness.state().seek_key, Some((0, 4)));
    assert_eq!(harness.state().transport.time, 1.0);
}

#[test]
fn loop_mode_menu_changes_the_transport() {
    let mut harness = harness();
    assert_eq!(harness.state().transport.loop_mode, LoopMode::Repeat);
    harness.get_by_label("Loop mode").click();
    harness.run();
    harness.get_by_label("ping-pong").click();
    harness.run();
    assert_eq!(harness.state().transport.loop_mode, LoopMode::PingPong);
    harness.get_by_label("Loop mode").click();
    harness.run();
    harness.get_by_label("once").click();
    harness.run();
    assert_eq!(harness.state().transport.loop_mode, LoopMode::Once);
}

#[test]
fn speed_and_frame_rate_are_named_fields() {
    let mut harness = harness();
    harness.get_by_label("Speed");
    harness.get_by_label("Frame rate");
    harness.state_mut().transport.fps = 24.0;
    harness.run();
    harness.get_by_label("frame 0 / 24");
}

#[test]
fn ctrl_wheel_zooms_around_the_pointer_and_double_click_fits_again() {
    let mut harness = harness();
    let (fit, y) = ruler_axis(&harness);
    let anchor = Pos2::new(fit.x_of(0.5), y);
    harness.hover_at(anchor);
    harness.event(Event::MouseWheel {
        unit: egui::MouseWheelUnit::Point,
        delta: egui::vec2(0.0, 40.0),
        phase: egui::TouchPhase::Move,
        source: egui::MouseWheelSource::Unknown,
        modifiers: Modifiers::COMMAND,
    });
    // The ruler's tooltip fades in while the pointer rests there: step rather than settle.
    harness.run_steps(2);
    // The time under the pointer stays put; further out, the same x now shows a nearer time.
    click_at(&mut harness, anchor, Modifiers::ALT);
    let time = harness.state().transport.time;
    assert!((time - 0.5).abs() < 1e-3, "{time}");
    click_at(&mut harness, Pos2::new(fit.x_of(0.9), y), Modifiers::ALT);
    let zoomed = harness.state().transport.time;
    assert!(zoomed > 0.55 && zoomed < 0.85, "zoomed in: {zoomed}");

    // Double-click fits the clip again. A harness step is a quarter second and queued events
    // get a step each, so both clicks go straight into one frame's input.
    harness.run_steps(2);
    harness
        .input_mut()
        .events
        .extend(
            [true, false, true, false].map(|pressed| Event::PointerButton {
                pos: anchor,
                button: PointerButton::Primary,
                pressed,
                modifiers: Modifiers::NONE,
            }),
        );
    harness.step();
    harness.run();
    click_at(&mut harness, Pos2::new(fit.x_of(0.9), y), Modifiers::NONE);
    let time = harness.state().transport.time;
    assert!((time - 0.9).abs() < 1e-9, "{time}");
}

#[test]
fn ctrl_drag_on_the_ruler_sets_the_play_range_and_playback_stays_in_it() {
    let mut harness = harness();
    let (axis, y) = ruler_axis(&harness);
    let at = |t: f64| Pos2::new(axis.x_of(t), y);
    harness.event(Event::ModifiersChanged(Modifiers::COMMAND));
    harness.hover_at(at(0.2));
    press(&harness, at(0.2), true, Modifiers::COMMAND);
    harness.run();
    for t in [0.3, 0.5] {
        harness.hover_at(at(t));
        harness.run();
    }
    press(&harness, at(0.5), false, Modifiers::COMMAND);
    harness.event(Event::ModifiersChanged(Modifiers::NONE));
    harness.run();
    let (lo, hi) = harness.state().transport.range.expect("a play range");
    assert!(
        (lo - 0.2).abs() < 1e-9 && (hi - 0.5).abs() < 1e-9,
        "{lo} {hi}"
    );
    assert!(
        harness.state().transport.time >= lo - 1e-9,
        "the playhead moved into it"
    );
    // Playing loops inside the range.
    let t = &mut harness.state_mut().transport;
    t.playing = true;
    t.time = 0.45;
    t.advance(0.1, DURATION);
    assert!((t.time - 0.25).abs() < 1e-9, "{}", t.time);
}

#[test]
fn a_click_near_a_marker_on_the_ruler_puts_the_playhead_on_it() {
    let mut harness = Harness::builder()
        .with_size(egui::vec2(900.0, 260.0))
        .build_ui_state(
            |ui, state: &mut Timeline| {
                let markers = [(0.43, "contact"), (0.8, "lift")];
                timeline::show_marked(ui, &mut state.transport, DURATION, &[], &markers);
            },
            Timeline::default(),
        );
    harness.run();
    let (axis, y) = ruler_axis(&harness);
    // 3 points right of the marker at 0.43 s: the playhead lands on the marker, not a frame.
    let near = Pos2::new(axis.x_of(0.43) + 3.0, y);
    click_at(&mut harness, near, Modifiers::NONE);
    assert_eq!(harness.state().transport.time, 0.43);
    // Away from markers, clicks snap to frames as before.
    click_at(&mut harness, Pos2::new(axis.x_of(0.61), y), Modifiers::NONE);
    let time = harness.state().transport.time;
    assert!(((time * 30.0).round() - time * 30.0).abs() < 1e-9, "{time}");
}
