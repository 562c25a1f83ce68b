//! The curve editor panel driven through egui_kittest: clicks, drags, boxes and keys on a small
//! clip, checked by the commands the panel emits (the panel never edits the clip itself).
#![cfg(feature = "gui")]

use std::collections::BTreeSet;

use clipscope::ui::curve_editor::{self, CurveEditor, CurveRef, EMPTY_TEXT, GESTURE_BASE};
use clipscope::ui::outbox::{AppCommand, Outbox};
use clipscope_core::model::ops::HandleSide;
use clipscope_core::model::{Clip, Interpolation, Tangents, Track, TrackKind};
use clipscope_editor::{ClipId, Edit, KeyRef};
use egui::{Event, Key, Modifiers, PointerButton, Pos2, Vec2, pos2, vec2};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use egui_plot::{PlotPoint, PlotTransform};

const CLIP: ClipId = ClipId { doc: 0, clip: 0 };

/// What the test harness keeps between frames.
struct State {
    ed: CurveEditor,
    clip: Clip,
    curves: Vec<CurveRef>,
    selected: BTreeSet<KeyRef>,
    playhead: f64,
    commands: Vec<Edit>,
    new_playhead: Option<f64>,
}

/// A position track (x 0 → 1 → 0.5, y around 2.5, z around -1.2) and a bezier influence track
/// (-0.5 → -0.3) with explicit handles.
fn clip() -> Clip {
    let position = Track::numeric(
        ".bones[hips].position",
        TrackKind::Vector,
        vec![0.0, 0.5, 1.0],
        vec![0.0, 2.0, -1.0, 1.0, 3.0, -1.5, 0.5, 2.5, -1.0],
    );
    let mut influence = Track::numeric(
        ".morphTargetInfluences[smile]",
        TrackKind::Number,
        vec![0.0, 1.0],
        vec![-0.5, -0.3],
    );
    influence.interpolation = Interpolation::Bezier;
    influence.tangents = Some(Tangents {
        in_tangents: vec![-0.25, -0.5, 0.75, -0.1],
        out_tangents: vec![0.25, -0.7, 1.25, -0.3],
        modes: Vec::new(),
    });
    Clip::new("test", 1.0, vec![position, influence])
}

fn all_curves() -> Vec<CurveRef> {
    vec![
        CurveRef {
            track: 0,
            component: 0,
        },
        CurveRef {
            track: 0,
            component: 1,
        },
        CurveRef {
            track: 0,
            component: 2,
        },
        CurveRef {
            track: 1,
            component: 0,
        },
    ]
}

fn harness(curves: Vec<CurveRef>) -> Harness<'static, State> {
    let state = State {
        ed: CurveEditor::new(),
        clip: clip(),
        curves,
        selected: BTreeSet::new(),
        playhead: 0.25,
        commands: Vec::new(),
        new_playhead: None,
    };
    let mut h = Harness::builder()
        .with_size(vec2(800.0, 500.0))
        .build_ui_state(
            |ui, s: &mut State| {
                let mut out = Outbox::default();
                curve_editor::show(
                    ui,
                    &mut s.ed,
                    CLIP,
                    &s.clip,
                    &s.curves,
                    &mut s.selected,
                    s.playhead,
                    &mut out,
                );
                for command in out.take() {
                    match command {
                        AppCommand::Edit(edit) => s.commands.push(edit),
                        AppCommand::SetPlayhead(t) => s.new_playhead = Some(t),
                        other => panic!("the curve editor queued {other:?}"),
                    }
                }
            },
            state,
        );
    h.run();
    h
}

fn transform(h: &Harness<'_, State>) -> PlotTransform {
    *h.state().ed.transform().expect("the plot was shown")
}

/// Screen position of plot point `(t, v)`.
fn at(h: &Harness<'_, State>, t: f64, v: f64) -> Pos2 {
    transform(h).position_from_point(&PlotPoint::new(t, v))
}

/// Screen position of a key of the test clip.
fn key_pos(h: &Harness<'_, State>, track: usize, component: usize, key: usize) -> Pos2 {
    let tr = &h.state().clip.tracks[track];
    let vs = tr.value_size();
    let v = tr.values.as_numbers().unwrap()[key * vs + component];
    at(h, tr.times[key] as f64, v as f64)
}

/// Plot-space offset between two screen positions.
fn plot_delta(h: &Harness<'_, State>, from: Pos2, to: Pos2) -> [f64; 2] {
    let tf = transform(h);
    let a = tf.value_from_position(from);
    let b = tf.value_from_position(to);
    [b.x - a.x, b.y - a.y]
}

fn button(pos: Pos2, pressed: bool, modifiers: Modifiers) -> Event {
    Event::PointerButton {
        pos,
        button: PointerButton::Primary,
        pressed,
        modifiers,
    }
}

fn click(h: &mut Harness<'_, State>, pos: Pos2, modifiers: Modifiers) {
    h.event(Event::ModifiersChanged(modifiers));
    h.hover_at(pos);
    h.event(button(pos, true, modifiers));
    h.event(button(pos, false, modifiers));
    h.event(Event::ModifiersChanged(Modifiers::NONE));
    h.run();
    settle(h);
}

/// Drags from `from` to `to` in a few pointer moves.
fn drag(h: &mut Harness<'_, State>, from: Pos2, to: Pos2, modifiers: Modifiers) {
    h.event(Event::ModifiersChanged(modifiers));
    h.hover_at(from);
    h.event(button(from, true, modifiers));
    for f in [0.25, 0.5, 1.0] {
        h.hover_at(from + (to - from) * f);
    }
    h.event(button(to, false, modifiers));
    h.event(Event::ModifiersChanged(Modifiers::NONE));
    h.run();
    settle(h);
}

/// Lets time pass so the next click is not a double-click.
fn settle(h: &mut Harness<'_, State>) {
    h.run_steps(3);
}

fn move_commands(h: &Harness<'_, State>) -> Vec<(Vec<KeyRef>, f64, f64, Option<u64>)> {
    h.state()
        .commands
        .iter()
        .filter_map(|c| match c {
            Edit::MoveKeys {
                clip,
                keys,
                dt,
                dv,
                gesture,
            } => {
                assert_eq!(*clip, CLIP);
                Some((keys.clone(), *dt, *dv, *gesture))
            }
            _ => None,
        })
        .collect()
}

fn key(track: usize, key: usize, component: usize) -> KeyRef {
    KeyRef {
        track,
        key,
        component,
    }
}

#[test]
fn empty_state_says_what_to_do() {
    let h = harness(Vec::new());
    h.get_by_label(EMPTY_TEXT);
    assert!(h.state().commands.is_empty());
}

#[test]
fn clicking_a_key_selects_it_and_shift_adds() {
    let mut h = harness(all_curves());
    let p = key_pos(&h, 0, 0, 1);
    click(&mut h, p, Modifiers::NONE);
    assert_eq!(h.state().selected, BTreeSet::from([key(0, 1, 0)]));

    let q = key_pos(&h, 0, 1, 2);
    click(&mut h, q, Modifiers::SHIFT);
    assert_eq!(
        h.state().selected,
        BTreeSet::from([key(0, 1, 0), key(0, 2, 1)])
    );
    // Shift-click again toggles it off.
    click(&mut h, q, Modifiers::SHIFT);
    assert_eq!(h.state().selected, BTreeSet::from([key(0, 1, 0)]));

    // A click on empty space clears the selection.
    let empty = at(&h, 0.75, 1.6);
    click(&mut h, empty, Modifiers::NONE);
    assert!(h.state().selected.is_empty());
    // Selecting never edits.
    assert!(h.state().commands.is_empty());
}

#[test]
fn dragging_a_key_moves_it_by_the_pointer_delta_in_one_gesture() {
    let mut h = harness(all_curves());
    h.state_mut().ed.snap = false;
    let from = key_pos(&h, 0, 0, 1);
    let to = from + vec2(40.0, -30.0); // later and higher
    let [want_dt, want_dv] = plot_delta(&h, from, to);
    assert!(want_dt > 0.0 && want_dv > 0.0);
    drag(&mut h, from, to, Modifiers::NONE);

    // The dragged key was selected by the press.
    assert_eq!(h.state().selected, BTreeSet::from([key(0, 1, 0)]));
    let moves = move_commands(&h);
    assert!(moves.len() >= 2, "incremental moves: {moves:?}");
    let gesture = moves[0].3;
    assert!(gesture.is_some_and(|g| g > GESTURE_BASE));
    let (mut dt, mut dv) = (0.0, 0.0);
    for (keys, step_dt, step_dv, g) in &moves {
        assert_eq!(keys, &vec![key(0, 1, 0)]);
        assert_eq!(*g, gesture, "one gesture id per drag");
        assert!(*step_dt >= 0.0 && *step_dv >= 0.0);
        dt += step_dt;
        dv += step_dv;
    }
    assert!((dt - want_dt).abs() < 1e-9, "dt {dt} vs {want_dt}");
    assert!((dv - want_dv).abs() < 1e-9, "dv {dv} vs {want_dv}");

    // A second drag is a new gesture; Shift keeps it on the dominant (time) axis.
    h.state_mut().commands.clear();
    let from = key_pos(&h, 0, 0, 1);
    let to = from + vec2(-50.0, 12.0);
    let [want_dt, _] = plot_delta(&h, from, to);
    drag(&mut h, from, to, Modifiers::SHIFT);
    let moves = move_commands(&h);
    assert!(!moves.is_empty());
    assert!(moves.iter().all(|m| m.3 != gesture && m.3 == moves[0].3));
    let dt: f64 = moves.iter().map(|m| m.1).sum();
    let dv: f64 = moves.iter().map(|m| m.2).sum();
    assert!(
        (dt - want_dt).abs() < 1e-9 && dt < 0.0,
        "dt {dt} vs {want_dt}"
    );
    assert_eq!(dv, 0.0);
}

#[test]
fn dragging_a_selected_key_moves_the_whole_selection() {
    let mut h = harness(all_curves());
    h.state_mut().selected = BTreeSet::from([key(0, 1, 0), key(0, 2, 1), key(1, 0, 0)]);
    h.run();
    let from = key_pos(&h, 0, 1, 2);
    drag(&mut h, from, from + vec2(0.0, 25.0), Modifiers::NONE);
    let moves = move_commands(&h);
    assert!(!moves.is_empty());
    for (keys, _, dv, _) in &moves {
        assert_eq!(keys, &vec![key(0, 1, 0), key(0, 2, 1), key(1, 0, 0)]);
        assert!(*dv < 0.0, "dragging down lowers values");
    }
}

#[test]
fn dragging_a_bezier_handle_sets_it_and_alt_breaks_it() {
    let mut h = harness(all_curves());
    h.state_mut().selected = BTreeSet::from([key(1, 0, 0)]);
    h.run();
    // Out handle of key 0 of the influence track: (0.25, -0.7).
    let from = at(&h, 0.25, -0.7);
    let to = from + vec2(30.0, 20.0);
    let [dt, dv] = plot_delta(&h, from, to);
    drag(&mut h, from, to, Modifiers::NONE);
    let handles: Vec<&Edit> = h
        .state()
        .commands
        .iter()
        .filter(|c| matches!(c, Edit::SetHandle { .. }))
        .collect();
    assert!(!handles.is_empty(), "{:?}", h.state().commands);
    assert!(move_commands(&h).is_empty(), "a handle drag moves no keys");
    let Edit::SetHandle {
        clip,
        key: k,
        side,
        time,
        value,
        break_handles,
        gesture,
    } = handles.last().unwrap()
    else {
        unreachable!()
    };
    assert_eq!(*clip, CLIP);
    assert_eq!(*k, key(1, 0, 0));
    assert_eq!(*side, HandleSide::Out);
    assert!((time - (0.25f32 as f64 + dt)).abs() < 1e-6, "time {time}");
    assert!(
        (value - (-0.7f32 as f64 + dv)).abs() < 1e-6,
        "value {value}"
    );
    assert!(!break_handles);
    assert!(gesture.is_some());
    // The selection is unchanged.
    assert_eq!(h.state().selected, BTreeSet::from([key(1, 0, 0)]));

    // Alt+drag of the in handle of key 1 (0.75, -0.1) breaks the handles.
    h.state_mut().selected = BTreeSet::from([key(1, 1, 0)]);
    h.state_mut().commands.clear();
    h.run();
    let from = at(&h, 0.75, -0.1);
    drag(&mut h, from, from + vec2(-20.0, 0.0), Modifiers::ALT);
    let last = h.state().commands.last().cloned();
    let Some(Edit::SetHandle {
        side,
        break_handles,
        time,
        ..
    }) = last
    else {
        panic!("no SetHandle: {:?}", h.state().commands)
    };
    assert_eq!(side, HandleSide::In);
    assert!(break_handles);
    assert!(time < 0.75);
}

#[test]
fn box_select_selects_the_keys_inside_and_shift_adds() {
    let mut h = harness(all_curves());
    h.state_mut().selected = BTreeSet::from([key(0, 0, 2)]);
    h.run();
    // x keys 1 (0.5, 1.0) and 2 (1.0, 0.5) only.
    let from = at(&h, 0.4, 1.1);
    let to = at(&h, 1.02, 0.4);
    drag(&mut h, from, to, Modifiers::NONE);
    assert_eq!(
        h.state().selected,
        BTreeSet::from([key(0, 1, 0), key(0, 2, 0)])
    );
    // Shift adds the y keys 1 and 2 (3.0 and 2.5).
    let from = at(&h, 0.4, 3.2);
    let to = at(&h, 1.02, 2.3);
    drag(&mut h, from, to, Modifiers::SHIFT);
    assert_eq!(
        h.state().selected,
        BTreeSet::from([key(0, 1, 0), key(0, 2, 0), key(0, 1, 1), key(0, 2, 1)])
    );
    assert!(h.state().commands.is_empty());
}

#[test]
fn delete_and_backspace_emit_delete_keys() {
    for delete in [Key::Delete, Key::Backspace] {
        let mut h = harness(all_curves());
        h.state_mut().selected = BTreeSet::from([key(0, 1, 0), key(1, 0, 0)]);
        let center = at(&h, 0.7, 1.8);
        h.hover_at(center);
        h.key_press(delete);
        h.run();
        assert_eq!(
            h.state().commands,
            vec![Edit::DeleteKeys {
                clip: CLIP,
                keys: vec![key(0, 1, 0), key(1, 0, 0)],
            }]
        );
        // Deleted keys leave the selection (indices shift).
        assert!(h.state().selected.is_empty());
    }
}

#[test]
fn keys_do_nothing_when_the_pointer_is_elsewhere() {
    let mut h = harness(all_curves());
    h.state_mut().selected = BTreeSet::from([key(0, 1, 0)]);
    h.remove_cursor();
    h.key_press(Key::Delete);
    h.key_press(Key::I);
    h.run();
    assert!(h.state().commands.is_empty());
}

#[test]
fn i_inserts_keys_at_the_playhead_in_visible_tracks() {
    let mut h = harness(all_curves());
    let center = at(&h, 0.7, 1.8);
    h.hover_at(center);
    h.key_press(Key::I);
    h.run();
    assert_eq!(
        h.state().commands,
        vec![Edit::InsertKey {
            clip: CLIP,
            tracks: vec![0, 1],
            time: 0.25,
        }]
    );
}

#[test]
fn t_opens_the_interpolation_menu_for_tracks_of_selected_keys() {
    let mut h = harness(all_curves());
    h.state_mut().selected = BTreeSet::from([key(1, 0, 0)]);
    let center = at(&h, 0.7, 1.8);
    h.hover_at(center);
    h.key_press(Key::T);
    h.run();
    h.get_by_label("Constant").click();
    h.run();
    assert_eq!(
        h.state().commands,
        vec![Edit::SetInterpolation {
            clip: CLIP,
            tracks: vec![1],
            interpolation: Interpolation::Discrete,
        }]
    );
    // The menu closed.
    h.run_steps(2);
    assert!(h.query_by_label("Constant").is_none());
}

#[test]
fn v_opens_the_handle_type_menu() {
    let mut h = harness(all_curves());
    h.state_mut().selected = BTreeSet::from([key(1, 1, 0)]);
    let center = at(&h, 0.7, 1.8);
    h.hover_at(center);
    h.key_press(Key::V);
    h.run();
    h.get_by_label("auto-clamped").click();
    h.run();
    assert_eq!(
        h.state().commands,
        vec![Edit::SetTangentMode {
            clip: CLIP,
            keys: vec![key(1, 1, 0)],
            mode: clipscope_core::model::TangentMode::AutoClamped,
        }]
    );
}

#[test]
fn clicking_the_time_ruler_sets_the_playhead() {
    let mut h = harness(all_curves());
    let frame = *transform(&h).frame();
    let t_want = 0.6;
    let x = transform(&h).position_from_point_x(t_want);
    let p = pos2(x, frame.bottom() + 8.0);
    click(&mut h, p, Modifiers::NONE);
    let got = h.state().new_playhead.expect("a playhead");
    assert!((got - t_want).abs() < 2e-3, "{got}");
    assert!(h.state().commands.is_empty());
}

#[test]
fn wheel_zooms_and_f_frames_all_again() {
    let mut h = harness(all_curves());
    let before = h.state().ed.view_bounds().unwrap();
    let center = at(&h, 0.5, 1.0);
    h.hover_at(center);
    h.event(Event::MouseWheel {
        unit: egui::MouseWheelUnit::Line,
        delta: Vec2::new(0.0, 3.0),
        phase: egui::TouchPhase::Move,
        source: egui::MouseWheelSource::Unknown,
        modifiers: Modifiers::NONE,
    });
    h.run();
    let zoomed = h.state().ed.view_bounds().unwrap();
    assert!(zoomed.width() < before.width() * 0.8);
    assert!(zoomed.height() < before.height() * 0.8);
    // Shift+wheel zooms time only.
    h.event(Event::MouseWheel {
        unit: egui::MouseWheelUnit::Line,
        delta: Vec2::new(0.0, -3.0),
        phase: egui::TouchPhase::Move,
        source: egui::MouseWheelSource::Unknown,
        modifiers: Modifiers::SHIFT,
    });
    h.run();
    let shifted = h.state().ed.view_bounds().unwrap();
    assert!(shifted.width() > zoomed.width() * 1.2);
    assert!((shifted.height() - zoomed.height()).abs() < 1e-9);
    h.key_press(Key::F);
    h.run();
    let framed = h.state().ed.view_bounds().unwrap();
    assert!((framed.width() - before.width()).abs() < 1e-9);
    assert!((framed.height() - before.height()).abs() < 1e-9);
}

#[test]
fn unchanged_frames_do_not_resample() {
    let mut h = harness(all_curves());
    let builds = h.state().ed.envelope_builds();
    assert!(builds >= 4);
    h.run_steps(5);
    assert_eq!(h.state().ed.envelope_builds(), builds);
    // An edit in place (same allocation) is seen at once.
    h.state_mut().clip.tracks[0]
        .values
        .as_numbers_mut()
        .unwrap()[3] = 1.25;
    h.run_steps(1);
    assert_eq!(h.state().ed.envelope_builds(), builds + 3);
}

#[test]
fn euler_view_shows_quaternions_read_only() {
    let mut clip = clip();
    clip.tracks.push(Track::numeric(
        ".bones[head].quaternion",
        TrackKind::Quaternion,
        vec![0.0, 1.0],
        vec![0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.38268343, 0.9238795],
    ));
    let curves: Vec<CurveRef> = (0..4)
        .map(|component| CurveRef {
            track: 2,
            component,
        })
        .collect();
    let mut h = harness(curves);
    h.state_mut().clip = clip;
    h.state_mut().ed.euler = true;
    h.state_mut().ed.frame_all();
    h.run();
    // Z goes 0° → 45°, so the view spans degrees.
    let b = h.state().ed.view_bounds().unwrap();
    assert!(b.max()[1] > 40.0, "{b:?}");
    // Keys can be selected but not dragged.
    let from = at(&h, 1.0, 45.0);
    drag(&mut h, from, from + vec2(0.0, 30.0), Modifiers::NONE);
    assert_eq!(h.state().selected, BTreeSet::from([key(2, 1, 2)]));
    assert!(h.state().commands.is_empty());
}

#[test]
fn space_on_the_focused_plot_is_not_a_click() {
    let mut h = harness(all_curves());
    let p = key_pos(&h, 0, 0, 1);
    click(&mut h, p, Modifiers::NONE);
    assert_eq!(h.state().selected, BTreeSet::from([key(0, 1, 0)]));
    // The click gave the plot the keyboard focus; Space (playback) must not clear the selection.
    h.remove_cursor();
    h.key_press(Key::Space);
    h.key_press(Key::Enter);
    h.run();
    assert_eq!(h.state().selected, BTreeSet::from([key(0, 1, 0)]));
}

#[test]
fn right_click_menu_reaches_the_commands() {
    let mut h = harness(all_curves());
    let p = key_pos(&h, 0, 1, 2);
    h.hover_at(p);
    h.event(Event::PointerButton {
        pos: p,
        button: PointerButton::Secondary,
        pressed: true,
        modifiers: Modifiers::NONE,
    });
    h.event(Event::PointerButton {
        pos: p,
        button: PointerButton::Secondary,
        pressed: false,
        modifiers: Modifiers::NONE,
    });
    h.run();
    // Right-clicking an unselected key selects it for the menu.
    assert_eq!(h.state().selected, BTreeSet::from([key(0, 2, 1)]));
    h.get_by_label_contains("Delete keys").click();
    h.run();
    assert_eq!(
        h.state().commands,
        vec![Edit::DeleteKeys {
            clip: CLIP,
            keys: vec![key(0, 2, 1)],
        }]
    );
}

#[test]
fn dragged_keys_snap_to_frames_the_playhead_and_other_keys_unless_ctrl() {
    let mut h = harness(all_curves());
    assert!(h.state().ed.snap, "snapping is on by default");
    let total_dt = |h: &Harness<'_, State>| -> f64 { move_commands(h).iter().map(|m| m.1).sum() };
    // Key 1 of the position (0.5 s) dragged 37 points later lands on a whole frame.
    let from = key_pos(&h, 0, 0, 1);
    drag(&mut h, from, from + vec2(37.0, 0.0), Modifiers::NONE);
    let landed = 0.5 + total_dt(&h);
    assert!(total_dt(&h) > 0.0);
    assert!(
        ((landed * 30.0).round() - landed * 30.0).abs() < 1e-9,
        "{landed}"
    );
    // Dragged next to the playhead (0.25 s), it lands on it exactly.
    h.state_mut().commands.clear();
    let near = at(&h, 0.25, 0.0).x + 2.0;
    let from = key_pos(&h, 0, 0, 1);
    drag(&mut h, from, Pos2::new(near, from.y), Modifiers::NONE);
    assert!(
        (0.5 + total_dt(&h) - 0.25).abs() < 1e-9,
        "{}",
        0.5 + total_dt(&h)
    );
    // Ctrl drags in free time.
    h.state_mut().commands.clear();
    let from = key_pos(&h, 0, 0, 1);
    let to = from + vec2(37.0, 0.0);
    let [want_dt, _] = plot_delta(&h, from, to);
    drag(&mut h, from, to, Modifiers::COMMAND);
    assert!((total_dt(&h) - want_dt).abs() < 1e-9);
}

#[test]
fn g_grabs_the_selected_keys_x_locks_time_and_a_typed_amount_moves_by_frames() {
    let mut h = harness(all_curves());
    let p = key_pos(&h, 0, 0, 1);
    click(&mut h, p, Modifiers::NONE);
    h.state_mut().commands.clear();
    // G with the pointer on the plot, then the pointer moves: the key follows (no button).
    h.hover_at(p);
    h.key_press(Key::G);
    h.run();
    h.hover_at(p + vec2(30.0, -20.0));
    h.run();
    let moves = move_commands(&h);
    assert!(!moves.is_empty(), "the key follows the pointer");
    let gesture = moves[0].3;
    // Y locks to value: the time offset goes back to 0.
    h.key_press(Key::Y);
    h.run();
    let dt: f64 = move_commands(&h).iter().map(|m| m.1).sum();
    assert!(dt.abs() < 1e-12, "{dt}");
    // X locks to time, and typing 6 moves exactly six frames; Enter confirms.
    h.key_press(Key::X);
    h.event(Event::Text("6".into()));
    h.run();
    h.key_press(Key::Enter);
    h.run();
    let moves = move_commands(&h);
    let dt: f64 = moves.iter().map(|m| m.1).sum();
    let dv: f64 = moves.iter().map(|m| m.2).sum();
    assert!(
        (dt - 6.0 / 30.0).abs() < 1e-12 && dv.abs() < 1e-12,
        "{dt} {dv}"
    );
    assert!(
        moves.iter().all(|m| m.3 == gesture),
        "one grab, one gesture"
    );
    // Confirmed: moving the pointer moves nothing more.
    let n = moves.len();
    h.hover_at(p + vec2(80.0, 0.0));
    h.run();
    assert_eq!(move_commands(&h).len(), n);
}

#[test]
fn the_transform_box_scales_around_the_opposite_edge_and_moves_from_inside() {
    // The position's x: keys (0, 0), (0.5, 1), (1, 0.5), all selected.
    let mut h = harness(vec![CurveRef {
        track: 0,
        component: 0,
    }]);
    h.state_mut().selected = (0..3).map(|k| key(0, k, 0)).collect();
    h.run();
    let scales = |h: &Harness<'_, State>| -> Vec<(f64, f64, f64, f64, Option<u64>)> {
        h.state()
            .commands
            .iter()
            .filter_map(|c| match c {
                Edit::ScaleKeys {
                    keys,
                    pivot_time,
                    time_factor,
                    pivot_value,
                    value_factor,
                    gesture,
                    ..
                } => {
                    assert_eq!(keys.len(), 3);
                    Some((
                        *pivot_time,
                        *time_factor,
                        *pivot_value,
                        *value_factor,
                        *gesture,
                    ))
                }
                _ => None,
            })
            .collect()
    };
    // The right edge's handle sits 8 points right of the last key, half way up the box.
    let right = at(&h, 1.0, 0.5) + vec2(8.0, 0.0);
    let to = Pos2::new(at(&h, 2.0, 0.0).x + 8.0, right.y + 30.0);
    drag(&mut h, right, to, Modifiers::NONE);
    let s = scales(&h);
    assert!(!s.is_empty(), "{:?}", h.state().commands);
    assert!(
        s.iter()
            .all(|m| m.0 == 0.0 && m.3 == 1.0 && m.4 == s[0].4 && m.4.is_some())
    );
    let total: f64 = s.iter().map(|m| m.1).product();
    assert!(
        (total - 2.0).abs() < 1e-12,
        "twice as long, snapped: {total}"
    );
    // The top edge up: values scale around the lowest (0) by the dragged amount.
    h.state_mut().commands.clear();
    let top = at(&h, 0.5, 1.0) - vec2(0.0, 8.0);
    let to = top - vec2(0.0, 40.0);
    let [_, dv] = plot_delta(&h, top, to);
    drag(&mut h, top, to, Modifiers::NONE);
    let s = scales(&h);
    assert!(s.iter().all(|m| m.1 == 1.0 && m.2 == 0.0));
    let total: f64 = s.iter().map(|m| m.3).product();
    assert!((total - (1.0 + dv)).abs() < 1e-9, "{total} vs {}", 1.0 + dv);
    // Inside the box, away from keys: the keys move.
    h.state_mut().commands.clear();
    let inside = at(&h, 0.25, 0.25);
    drag(&mut h, inside, inside + vec2(0.0, -30.0), Modifiers::NONE);
    let moves = move_commands(&h);
    assert!(!moves.is_empty());
    assert!(moves.iter().all(|m| m.0.len() == 3 && m.1 == 0.0));
    assert!(
        h.state().selected.len() == 3,
        "no box selection replaced them"
    );
}
