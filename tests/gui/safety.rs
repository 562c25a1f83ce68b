//! Never losing work, through the real editor: files re-exported while open are reloaded
//! without a click (keeping the view) or asked about under unsaved edits, partial writes are
//! waited out, a save over a file another program changed asks first, unsaved edits are
//! autosaved (on focus loss and on a timer), and an editor killed with unsaved edits offers
//! them back at the next start.
#![cfg(feature = "gui")]

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use clipscope::ui::ClipscopeApp;
use clipscope_editor::{ClipId, Edit};
use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;

use crate::common::gui::editor;

/// Two clips; `bounce` has a position and a scale track.
const V1: &str = r#"[
 {"name":"bounce","duration":1,"tracks":[
  {"name":"ball.position","type":"vector","times":[0,0.5,1],"values":[0,0,0, 0,1,0, 0,0,0]},
  {"name":"ball.scale","type":"vector","times":[0,1],"values":[1,1,1, 2,2,2]}]},
 {"name":"spin","duration":2,"tracks":[
  {"name":"ball.quaternion","type":"quaternion","times":[0,2],"values":[0,0,0,1, 0,1,0,0]}]}
]"#;

/// The re-export: clips in another order, a new track before `ball.scale`, new scale values.
const V2: &str = r#"[
 {"name":"spin","duration":2,"tracks":[
  {"name":"ball.quaternion","type":"quaternion","times":[0,2],"values":[0,0,0,1, 0,1,0,0]}]},
 {"name":"bounce","duration":1,"tracks":[
  {"name":"ball.position","type":"vector","times":[0,0.5,1],"values":[0,0,0, 0,1,0, 0,0,0]},
  {"name":"ball.visible","type":"bool","times":[0],"values":[true]},
  {"name":"ball.scale","type":"vector","times":[0,1],"values":[1,1,1, 3,3,3]}]}
]"#;

fn clip_file(dir: &Path) -> PathBuf {
    let path = dir.join("ball.json");
    std::fs::write(&path, V1).unwrap();
    path
}

/// Writes `text` the way many exporters do: a new file, renamed over the old one.
fn re_export(path: &Path, text: &str) {
    let tmp = path.with_extension("json.partial");
    std::fs::write(&tmp, text).unwrap();
    std::fs::rename(&tmp, path).unwrap();
}

/// Runs frames (in real time: the watcher and the loads run on other threads) until `done`,
/// for at most five seconds.
fn run_until(
    harness: &mut Harness<'_, ClipscopeApp>,
    what: &str,
    done: impl Fn(&ClipscopeApp) -> bool,
) {
    let start = Instant::now();
    while !done(harness.state()) {
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "waited 5 s for {what}; log: {:?}",
            harness.state().log
        );
        std::thread::sleep(Duration::from_millis(30));
        frames(harness);
    }
}

/// Runs frames until the window settles; the watcher wakes it from its own thread when the
/// file changes, which may take a few more frames than a test's step budget.
fn frames(harness: &mut Harness<'_, ClipscopeApp>) {
    for _ in 0..10 {
        if harness.try_run().is_ok() {
            return;
        }
    }
}

/// Runs frames for `time` (nothing should happen meanwhile).
fn run_for(harness: &mut Harness<'_, ClipscopeApp>, time: Duration) {
    let start = Instant::now();
    while start.elapsed() < time {
        std::thread::sleep(Duration::from_millis(30));
        frames(harness);
    }
}

fn scale_end(app: &ClipscopeApp, id: ClipId) -> f32 {
    let clip = app.ws.clip(id).unwrap();
    let t = clip.tracks.iter().find(|t| t.name == "ball.scale").unwrap();
    *t.values.as_numbers().unwrap().last().unwrap()
}

fn reloaded(app: &ClipscopeApp) -> bool {
    app.log.iter().any(|l| l.starts_with("reloaded ball.json"))
}

#[test]
fn a_re_export_reloads_without_a_click_and_keeps_the_view() {
    let dir = tempfile::tempdir().unwrap();
    let path = clip_file(dir.path());
    let mut harness = editor(std::slice::from_ref(&path));
    let bounce = ClipId { doc: 0, clip: 0 };
    {
        let app = harness.state_mut();
        assert_eq!(app.selection.clip, Some(bounce));
        app.selection.tracks = [1].into(); // ball.scale
        app.selection.hidden = [(1, 2)].into(); // its z
        app.transport.time = 0.5;
    }
    harness.run();
    let view = egui_plot::PlotBounds::from_min_max([-0.25, -1.0], [0.75, 4.0]);
    harness.state_mut().curves.set_view_bounds(view);
    harness.run();
    assert_eq!(scale_end(harness.state(), bounce), 2.0);

    re_export(&path, V2);
    run_until(&mut harness, "the reload", reloaded);
    let app = harness.state();
    let moved = ClipId { doc: 0, clip: 1 };
    assert_eq!(app.ws.documents.len(), 1);
    assert!(!app.ws.documents[0].is_dirty(), "a reload is clean");
    assert_eq!(app.selection.clip, Some(moved), "the same clip, by name");
    assert_eq!(scale_end(app, moved), 3.0, "the new version shows");
    assert_eq!(app.selection.tracks, [2].into(), "the same track, by name");
    assert_eq!(app.selection.hidden, [(2, 2)].into());
    assert_eq!(app.transport.time, 0.5, "the playhead stays");
    assert_eq!(app.curves.view_bounds(), Some(view), "the curve view stays");
    assert!(app.error.is_none());
    assert_eq!(app.window_title(), "clipscope — ball.json");
}

#[test]
fn a_partial_write_is_waited_out_until_the_file_is_whole_and_reads() {
    let dir = tempfile::tempdir().unwrap();
    let path = clip_file(dir.path());
    let mut harness = editor(std::slice::from_ref(&path));
    let bounce = ClipId { doc: 0, clip: 0 };
    // The exporter writes in place and stops half way for a while.
    std::fs::write(&path, &V2[..V2.len() / 2]).unwrap();
    run_until(&mut harness, "the half-written file to be tried", |app| {
        app.log.iter().any(|l| l.contains("does not read (yet)"))
    });
    run_for(&mut harness, Duration::from_millis(400));
    let app = harness.state();
    assert!(!reloaded(app), "a broken file is not loaded: {:?}", app.log);
    assert_eq!(scale_end(app, bounce), 2.0, "the open version stays");
    assert!(app.error.is_none(), "no error box for a write in progress");
    // …then finishes.
    std::fs::write(&path, V2).unwrap();
    run_until(&mut harness, "the reload", reloaded);
    let app = harness.state();
    assert_eq!(scale_end(app, ClipId { doc: 0, clip: 1 }), 3.0);
    assert!(!app.ws.documents[0].is_dirty());
}

#[test]
fn a_re_export_under_unsaved_edits_asks_reload_keep_mine_or_open_beside() {
    let dir = tempfile::tempdir().unwrap();
    let path = clip_file(dir.path());
    let mut harness = editor(std::slice::from_ref(&path));
    let bounce = ClipId { doc: 0, clip: 0 };
    let rename = |harness: &mut Harness<'_, ClipscopeApp>, name: &str| {
        harness.state_mut().apply(Edit::RenameClip {
            clip: bounce,
            name: name.into(),
        });
        harness.run();
    };
    rename(&mut harness, "mine");
    re_export(&path, V2);
    run_until(&mut harness, "the question", |app| app.changed.is_some());
    harness.get_by_label("File changed on disk");
    // Open beside: both versions open, mine still unsaved.
    harness.get_by_label("Open beside").click();
    harness.run();
    let app = harness.state();
    assert!(app.changed.is_none());
    assert_eq!(app.ws.documents.len(), 2);
    assert_eq!(app.ws.documents[1].name, "ball.json (on disk)");
    assert_eq!(app.ws.documents[1].doc.path, None);
    assert_eq!(scale_end(app, ClipId { doc: 1, clip: 1 }), 3.0);
    assert!(app.ws.documents[0].is_dirty());
    assert_eq!(app.ws.documents[0].doc.clips[0].name, "mine");

    // Keep mine: nothing changes, and saving then replaces the new version without asking.
    re_export(&path, V1);
    run_until(&mut harness, "the question", |app| app.changed.is_some());
    harness.get_by_label("Keep mine").click();
    harness.run();
    assert!(harness.state().ws.documents[0].is_dirty());
    harness.state_mut().selection.clip = Some(bounce);
    harness.key_press_modifiers(Modifiers::COMMAND, Key::S);
    harness.run();
    assert!(harness.state().pending.is_none(), "no second question");
    assert!(!harness.state().ws.documents[0].is_dirty());
    assert!(std::fs::read_to_string(&path).unwrap().contains("\"mine\""));

    // Reload: my edits go, the new version shows.
    rename(&mut harness, "mine again");
    re_export(&path, V2);
    run_until(&mut harness, "the question", |app| app.changed.is_some());
    harness.get_by_label("Reload").click();
    harness.run();
    let app = harness.state();
    assert!(!app.ws.documents[0].is_dirty());
    assert_eq!(app.ws.documents[0].doc.clips[1].name, "bounce");
    assert_eq!(scale_end(app, ClipId { doc: 0, clip: 1 }), 3.0);
}

#[test]
fn saving_over_a_file_another_program_changed_asks_first() {
    let dir = tempfile::tempdir().unwrap();
    let path = clip_file(dir.path());
    let mut harness = editor(std::slice::from_ref(&path));
    harness.state_mut().apply(Edit::RenameClip {
        clip: ClipId { doc: 0, clip: 0 },
        name: "mine".into(),
    });
    harness.run();
    // Another program writes the file; Save comes before the watcher has a say.
    std::fs::write(&path, V2).unwrap();
    harness.key_press_modifiers(Modifiers::COMMAND, Key::S);
    harness.run();
    harness.get_by_label("Save over a changed file?");
    harness.get_by_label("Cancel").click();
    harness.run();
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        V2,
        "nothing written"
    );
    assert!(harness.state().ws.documents[0].is_dirty());
    harness.key_press_modifiers(Modifiers::COMMAND, Key::S);
    harness.run();
    harness.get_by_label("Save anyway").click();
    harness.run();
    let app = harness.state();
    assert!(!app.ws.documents[0].is_dirty());
    assert!(std::fs::read_to_string(&path).unwrap().contains("\"mine\""));
    // A save of a file nobody else touched does not ask.
    harness.state_mut().apply(Edit::RenameClip {
        clip: ClipId { doc: 0, clip: 0 },
        name: "again".into(),
    });
    harness.key_press_modifiers(Modifiers::COMMAND, Key::S);
    harness.run();
    assert!(harness.state().pending.is_none());
    assert!(
        std::fs::read_to_string(&path)
            .unwrap()
            .contains("\"again\"")
    );
    // And our own save is not taken for a re-export.
    run_for(&mut harness, Duration::from_millis(600));
    assert!(!reloaded(harness.state()) && harness.state().changed.is_none());
}

/// The recovery files of the running editor: `(data files, metadata files)`.
fn recovery_files(app: &ClipscopeApp) -> (Vec<PathBuf>, Vec<PathBuf>) {
    let session = app.recovery_session().expect("autosave runs");
    let mut files: Vec<PathBuf> = std::fs::read_dir(session)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().unwrap() != "lock")
        .collect();
    files.sort();
    files
        .into_iter()
        .partition(|p| !p.to_string_lossy().ends_with(".meta.json"))
}

fn meta_edits(meta: &Path) -> u64 {
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(meta).unwrap()).unwrap();
    v["edits"].as_u64().unwrap()
}

#[test]
fn unsaved_edits_are_autosaved_on_focus_loss_and_on_a_timer_and_go_when_saved() {
    let dir = tempfile::tempdir().unwrap();
    let path = clip_file(dir.path());
    let mut harness = editor(std::slice::from_ref(&path));
    harness
        .state_mut()
        .start_recovery(Some(dir.path().join("recovery")));
    harness.state_mut().autosave_every = None;
    harness.run();
    assert!(
        harness.state().recovery_offer.is_none(),
        "nothing to recover"
    );
    let bounce = ClipId { doc: 0, clip: 0 };
    harness.state_mut().apply(Edit::RenameClip {
        clip: bounce,
        name: "first".into(),
    });
    harness.run();
    harness.state_mut().flush_autosave();
    assert_eq!(recovery_files(harness.state()).0.len(), 0, "not yet");
    // The window loses focus: the edits are written.
    harness.input_mut().focused = false;
    harness.run();
    harness.state_mut().flush_autosave();
    let (data, meta) = recovery_files(harness.state());
    assert_eq!(data.len(), 1);
    assert_eq!(meta_edits(&meta[0]), 1);
    assert!(
        std::fs::read_to_string(&data[0])
            .unwrap()
            .contains("\"first\"")
    );
    // On a timer, with the window focused.
    harness.input_mut().focused = true;
    harness.state_mut().autosave_every = Some(Duration::from_millis(100));
    harness.run();
    harness.state_mut().apply(Edit::RenameClip {
        clip: bounce,
        name: "second".into(),
    });
    run_for(&mut harness, Duration::from_millis(250));
    harness.state_mut().flush_autosave();
    let (data, meta) = recovery_files(harness.state());
    assert_eq!(meta_edits(&meta[0]), 2);
    assert!(
        std::fs::read_to_string(&data[0])
            .unwrap()
            .contains("\"second\"")
    );
    // Saved: nothing left to recover.
    harness.key_press_modifiers(Modifiers::COMMAND, Key::S);
    harness.run();
    harness.state_mut().flush_autosave();
    assert_eq!(recovery_files(harness.state()), (Vec::new(), Vec::new()));
}

/// The editor the kill test kills: opens the file, edits it, autosaves, says so and waits.
/// Runs only as the kill test's child (it is `#[ignore]`d and needs its environment).
#[test]
#[ignore = "run by a_killed_editor_offers_its_unsaved_edits_at_the_next_start"]
fn editor_to_be_killed() {
    let (Some(file), Some(root)) = (
        std::env::var_os("CLIPSCOPE_KILL_TEST_FILE"),
        std::env::var_os("CLIPSCOPE_KILL_TEST_ROOT"),
    ) else {
        return;
    };
    let mut harness = editor(&[PathBuf::from(file)]);
    harness
        .state_mut()
        .start_recovery(Some(PathBuf::from(root)));
    harness.state_mut().autosave_every = Some(Duration::from_millis(50));
    for name in ["edit one", "edit two", "edit three"] {
        harness.state_mut().apply(Edit::RenameClip {
            clip: ClipId { doc: 0, clip: 0 },
            name: name.into(),
        });
        harness.run();
    }
    run_for(&mut harness, Duration::from_millis(100));
    harness.state_mut().flush_autosave();
    println!("AUTOSAVED");
    std::thread::sleep(Duration::from_secs(60));
}

#[test]
fn a_killed_editor_offers_its_unsaved_edits_at_the_next_start() {
    let dir = tempfile::tempdir().unwrap();
    let path = clip_file(dir.path());
    let root = dir.path().join("recovery");
    let mut child = Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "safety::editor_to_be_killed",
            "--ignored",
            "--nocapture",
        ])
        .env("CLIPSCOPE_KILL_TEST_FILE", &path)
        .env("CLIPSCOPE_KILL_TEST_ROOT", &root)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let out = BufReader::new(child.stdout.take().unwrap());
    let saved = out
        .lines()
        .map_while(Result::ok)
        .any(|l| l.contains("AUTOSAVED"));
    assert!(saved, "the editor autosaved");
    // SIGKILL: no clean-up of any kind.
    child.kill().unwrap();
    child.wait().unwrap();
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        V1,
        "the file was never saved"
    );

    // The next start offers the edits back.
    let mut app = ClipscopeApp::open(&[]);
    app.start_recovery(Some(root.clone()));
    let offer = app.recovery_offer.clone().expect("an offer");
    assert_eq!(offer.entries.len(), 1);
    let meta = &offer.entries[0].meta;
    assert_eq!(meta.name, "ball.json");
    assert_eq!(meta.edits, 3);
    assert_eq!(meta.source.as_deref(), Some(path.as_path()));
    let mut harness = Harness::builder()
        .with_size(egui::vec2(1280.0, 800.0))
        .build_ui_state(|ui, app: &mut ClipscopeApp| app.show(ui), app);
    harness.run();
    harness.get_by_label("Recover unsaved edits");
    harness.get_by_label_contains("3 edits");
    harness.get_by_label("Restore").click();
    harness.run();
    let app = harness.state();
    assert!(app.recovery_offer.is_none());
    let restored = app
        .ws
        .documents
        .iter()
        .position(|d| d.doc.path.as_deref() == Some(path.as_path()))
        .expect("the recovered document");
    let d = &app.ws.documents[restored];
    assert!(d.is_dirty(), "recovered edits are unsaved");
    assert_eq!(d.doc.clips[0].name, "edit three");
    assert_eq!(app.ws.unsaved_edits(restored), 3);
    assert!(
        app.log
            .iter()
            .any(|l| l.starts_with("recovered ball.json: 3 unsaved edit(s)"))
    );
    // Taken over by this session: a third start has nothing to offer from the dead one…
    let mut third = ClipscopeApp::open(&[]);
    third.start_recovery(Some(root.clone()));
    assert!(third.recovery_offer.is_none());
    // …and saving writes the recovered edits to the file.
    let id = ClipId {
        doc: restored,
        clip: 0,
    };
    harness.state_mut().selection.clip = Some(id);
    harness.key_press_modifiers(Modifiers::COMMAND, Key::S);
    harness.run();
    // The file on disk is not the version the edits started from as far as this editor
    // knows: it asks, and the user goes ahead.
    if harness.query_by_label("Save anyway").is_some() {
        harness.get_by_label("Save anyway").click();
        harness.run();
    }
    assert!(
        std::fs::read_to_string(&path)
            .unwrap()
            .contains("edit three")
    );
}

#[test]
fn discarding_the_offer_deletes_the_edits_and_later_keeps_them() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("recovery");
    let path = clip_file(dir.path());
    // A session that died with one unsaved document.
    {
        let mut app = ClipscopeApp::open(std::slice::from_ref(&path));
        app.wait_for_loads();
        app.start_recovery(Some(root.clone()));
        app.apply(Edit::RenameClip {
            clip: ClipId { doc: 0, clip: 0 },
            name: "lost".into(),
        });
        app.autosave_now();
        app.flush_autosave();
        // Dropped without a clean exit: the session stays.
    }
    let start = |root: &Path| {
        let mut app = ClipscopeApp::open(&[]);
        app.start_recovery(Some(root.to_path_buf()));
        Harness::builder()
            .with_size(egui::vec2(1280.0, 800.0))
            .build_ui_state(|ui, app: &mut ClipscopeApp| app.show(ui), app)
    };
    let mut harness = start(&root);
    harness.run();
    harness.get_by_label("Decide later").click();
    harness.run();
    assert!(harness.state().recovery_offer.is_none());
    drop(harness);
    let mut harness = start(&root);
    harness.run();
    harness.get_by_label("Discard").click();
    harness.run();
    assert!(
        harness
            .state()
            .ws
            .documents
            .iter()
            .all(|d| d.doc.clips[0].name != "lost")
    );
    drop(harness);
    let mut app = ClipscopeApp::open(&[]);
    app.start_recovery(Some(root));
    assert!(app.recovery_offer.is_none(), "discarded for good");
}

#[test]
fn the_autosave_interval_is_a_setting_in_the_file_menu() {
    let dir = tempfile::tempdir().unwrap();
    let mut harness = editor(&[clip_file(dir.path())]);
    assert_eq!(harness.state().settings().autosave_secs, 30, "the default");
    harness.get_by_label("File").click();
    harness.run();
    harness.get_by_label("Autosave").click();
    harness.run();
    harness.get_by_label("Every minute").click();
    harness.run();
    assert_eq!(
        harness.state().autosave_every,
        Some(Duration::from_secs(60))
    );
    assert_eq!(harness.state().settings().autosave_secs, 60);
    // The setting persists: a new editor with these settings autosaves as often.
    let settings = harness.state().settings();
    let app = ClipscopeApp::empty().with_settings(settings);
    assert_eq!(app.autosave_every, Some(Duration::from_secs(60)));
}
