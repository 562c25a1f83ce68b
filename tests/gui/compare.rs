//! The compare view, driven through egui_kittest: an open clip file against another file
//! (File › Compare with…) and against a git revision (File › Compare with git revision…,
//! `clipscope open FILE --against REV`). The Compare tab lists the changed track with its
//! change; a click shows that track alone at the time it changed most; the curve editor holds
//! the other version's track as its ghost; the viewport poses the other version's figure; an
//! edit makes the diff again; Stop comparing hides it all.

use std::path::{Path, PathBuf};
use std::process::Command;

use clipscope::ui::ClipscopeApp;
use clipscope_core::assets;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use serde_json::{Value, json};

use crate::common::gui::editor;
use crate::test_support::turn::turn_x;

/// The demo's `walk` with the left upper arm (track 3) turned `degrees` further about x.
fn walk(degrees: f64) -> Value {
    let mut clips: Value = serde_json::from_slice(assets::DEMO_CLIPS).unwrap();
    let track = &mut clips[0]["tracks"][3];
    assert_eq!(track["name"], ".bones[upperArm.L].quaternion");
    for q in track["values"].as_array_mut().unwrap().chunks_mut(4) {
        let v: [f64; 4] = std::array::from_fn(|i| q[i].as_f64().unwrap());
        for (slot, x) in q.iter_mut().zip(turn_x(v, degrees)) {
            *slot = json!(x);
        }
    }
    clips
}

fn write(path: &Path, value: &Value) {
    std::fs::write(path, serde_json::to_vec(value).unwrap()).unwrap();
}

/// `old.json` (the demo walk) and `walk.json` (its arm raised 40°) in a new folder.
fn two_versions() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let old = dir.path().join("old.json");
    let new = dir.path().join("walk.json");
    write(&old, &walk(0.0));
    write(&new, &walk(40.0));
    (dir, old, new)
}

const ARM: &str = ".bones[upperArm.L].quaternion";

/// Checks the Compare tab lists only the arm's change, the arm is shown at the time it changed
/// most, the curve editor's ghost is the old arm and the viewport poses a ghost figure whose
/// arm differs.
fn shows_the_raised_arm(harness: &mut Harness<'_, ClipscopeApp>, label: &str) {
    harness.run();
    let app = harness.state();
    let c = app.comparison.as_ref().expect("comparing");
    assert_eq!(c.label, label);
    assert_eq!(c.diff.clips.len(), 1);
    let tracks = &c.diff.clips[0].tracks;
    assert_eq!(tracks.len(), 1, "{tracks:?}");
    assert_eq!(tracks[0].name, ARM);
    let largest = tracks[0].largest.as_ref().unwrap();
    assert!((largest.amount - 40.0).abs() < 0.01, "{}", largest.amount);
    // The first change is shown on its own, at its time.
    assert_eq!(app.selection.tracks, [3].into());
    assert!((app.transport.time - largest.time as f64).abs() < 1e-6);
    // The ghost in the curve editor is the old arm.
    let (_, ghost) = app.curves.reference.as_ref().expect("ghost curves");
    assert_eq!(ghost.len(), 1);
    assert_eq!(ghost[0].0, 3);
    assert_eq!(ghost[0].1, c.other.clips[0].tracks[3]);
    // The ghost figure: as many boxes as the figure, and the arm's are elsewhere.
    let figure = &app.viewport.frame.boxes;
    let ghost = &app.viewport.ghost.boxes;
    assert_eq!(figure.len(), ghost.len());
    let apart = figure
        .iter()
        .zip(ghost)
        .filter(|(a, b)| {
            let (pa, pb) = (a.transform.w_axis.truncate(), b.transform.w_axis.truncate());
            pa.distance(pb) > 0.02
        })
        .count();
    assert!(apart >= 1, "the ghost's arm is where the old arm was");
    assert!(
        apart < figure.len() / 2,
        "the rest of the ghost hides in the figure"
    );
    // The change is listed with its amount, and the track tree notes it.
    harness.get_by_label_contains("up to 40.0° at");
}

#[test]
fn comparing_with_another_file_lists_the_change_and_shows_ghosts() {
    let (_dir, old, new) = two_versions();
    let mut harness = editor(std::slice::from_ref(&new));
    harness.state_mut().compare_with(old.to_str().unwrap());
    shows_the_raised_arm(&mut harness, &old.display().to_string());
    harness.get_by_label("Compare");

    // Look elsewhere, then click the change: the arm again, at its time.
    harness.get_by_label_contains("idle").click();
    harness.run();
    assert_eq!(harness.state().selection.clip.unwrap().clip, 1);
    harness.get_by_label_contains("up to 40.0° at").click();
    harness.run();
    let app = harness.state();
    assert_eq!(app.selection.clip.unwrap().clip, 0);
    assert_eq!(app.selection.tracks, [3].into());
    let c = app.comparison.as_ref().unwrap();
    let at = c.diff.clips[0].tracks[0].largest.as_ref().unwrap().time;
    assert!(at > 0.0 && (app.transport.time - at as f64).abs() < 1e-6);

    // An edit makes the diff again: reversing the clip changes every moving track.
    harness.get_by_label("Clip").click();
    harness.run();
    harness.get_by_label("Reverse clip").click();
    harness.run();
    harness.run();
    let changed = harness.state().comparison.as_ref().unwrap().diff.clips[0]
        .tracks
        .len();
    assert!(changed > 3, "{changed} tracks changed after reversing");
    // Undo puts it back to the one change.
    harness.state_mut().ws.undo();
    harness.run();
    harness.run();
    assert_eq!(
        harness.state().comparison.as_ref().unwrap().diff.clips[0]
            .tracks
            .len(),
        1
    );

    harness.get_by_label("Stop comparing").click();
    harness.run();
    harness.run();
    let app = harness.state();
    assert!(app.comparison.is_none());
    assert!(app.viewport.ghost.boxes.is_empty());
    assert!(
        app.curves
            .reference
            .as_ref()
            .is_none_or(|(_, t)| t.is_empty())
    );
    assert!(harness.query_by_label_contains("up to 40.0° at").is_none());
}

/// git run in `repo`, isolated from the user's configuration.
fn git(repo: &Path, args: &[&str]) {
    let o = Command::new("git")
        .arg("-C")
        .arg(repo)
        .args(args)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_AUTHOR_NAME", "Animator")
        .env("GIT_AUTHOR_EMAIL", "animator@example.com")
        .env("GIT_COMMITTER_NAME", "Animator")
        .env("GIT_COMMITTER_EMAIL", "animator@example.com")
        .output()
        .expect("run git");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

/// A repository whose `walk.json` was committed as the demo walk and then with the arm raised.
fn repository() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let r = dir.path();
    let file = r.join("walk.json");
    git(r, &["init", "-q", "-b", "main"]);
    write(&file, &walk(0.0));
    git(r, &["add", "walk.json"]);
    git(r, &["commit", "-q", "-m", "walk"]);
    write(&file, &walk(40.0));
    git(r, &["commit", "-q", "-am", "raise the arm"]);
    (dir, file)
}

#[test]
fn comparing_with_a_git_revision_from_the_menu() {
    let (_dir, file) = repository();
    let mut harness = editor(std::slice::from_ref(&file));
    harness.get_by_label("File").click();
    harness.run();
    harness.get_by_label("Compare with git revision…").click();
    harness.run();
    let path = harness.get_by_label("Path");
    path.type_text("~1");
    harness.run();
    harness.get_by_label("OK").click();
    shows_the_raised_arm(&mut harness, "walk.json @ HEAD~1");

    // A revision that does not exist is one line in the status bar, and nothing is compared.
    harness.get_by_label("Stop comparing").click();
    harness.run();
    harness.state_mut().compare_with("no-such-revision");
    harness.run();
    let app = harness.state();
    assert!(app.comparison.is_none());
    let error = app.error.as_deref().unwrap();
    assert!(
        error.contains("no-such-revision") && !error.contains('\n'),
        "{error}"
    );
}

#[test]
fn open_against_a_revision_compares_once_the_file_is_loaded() {
    let (_dir, file) = repository();
    // What `clipscope open walk.json --against HEAD~1` (and `git difftool`) starts with.
    let mut app = ClipscopeApp::open(std::slice::from_ref(&file)).compare_on_open(&file, "HEAD~1");
    app.wait_for_loads();
    let mut harness = Harness::builder()
        .with_size(egui::vec2(1280.0, 800.0))
        .build_ui_state(|ui, app: &mut ClipscopeApp| app.show(ui), app);
    shows_the_raised_arm(&mut harness, "walk.json @ HEAD~1");
    // Against the same revision there is nothing to list.
    harness.get_by_label("Stop comparing").click();
    harness.run();
    harness.state_mut().compare_with("HEAD");
    harness.run();
    assert!(
        harness
            .state()
            .comparison
            .as_ref()
            .unwrap()
            .diff
            .is_identical()
    );
    harness.get_by_label_contains("No changes");
}
