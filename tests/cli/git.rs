//! `clipscope git setup` in real repositories: after it, `git diff`, `git log -p` and
//! `git show` of a commit that changes one track name that track and its change, not the raw
//! numbers, for three.js JSON, glTF and GLB files alike; other JSON still diffs as text; the
//! setup is idempotent and follows `clipscope.toml`'s `clips` globs.

use std::path::Path;
use std::process::{Command, Output};

use serde_json::{Value, json};

use crate::diff::random_clips;
use crate::test_support::turn::turn_x;

fn clipscope_bin() -> &'static str {
    env!("CARGO_BIN_EXE_clipscope")
}

/// git run in `repo`, isolated from the machine's and the user's git configuration.
fn git(repo: &Path, args: &[&str]) -> Output {
    let o = Command::new("git")
        .arg("-C")
        .arg(repo)
        .args(args)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("HOME", repo)
        .env("GIT_AUTHOR_NAME", "Animator")
        .env("GIT_AUTHOR_EMAIL", "animator@example.com")
        .env("GIT_COMMITTER_NAME", "Animator")
        .env("GIT_COMMITTER_EMAIL", "animator@example.com")
        .env("GIT_PAGER", "cat")
        .env_remove("GIT_DIR")
        .env_remove("GIT_WORK_TREE")
        .output()
        .expect("run git");
    assert!(
        o.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    o
}

fn text(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn clipscope_in(repo: &Path, args: &[&str]) -> Output {
    let o = Command::new(clipscope_bin())
        .current_dir(repo)
        .args(args)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("HOME", repo)
        .output()
        .expect("run clipscope");
    assert!(
        o.status.success(),
        "clipscope {args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    o
}

/// A fresh repository with `clipscope git setup` run in it.
fn repository() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    git(dir.path(), &["init", "-q", "-b", "main"]);
    clipscope_in(dir.path(), &["git", "setup"]);
    dir
}

fn write_json(path: &Path, value: &Value) {
    std::fs::write(path, serde_json::to_vec_pretty(value).unwrap()).unwrap();
}

/// The clips of `random_clips` with joint 3's rotation keys turned 20° about x on top of what
/// they were (`quaternion` track index 3·3+1).
fn turned(mut clips: Value) -> Value {
    let track = &mut clips[0]["tracks"][3 * 3 + 1];
    let values = track["values"].as_array_mut().unwrap();
    for q in values.chunks_mut(4) {
        let v: [f64; 4] = std::array::from_fn(|i| q[i].as_f64().unwrap());
        for (slot, x) in q.iter_mut().zip(turn_x(v, 20.0)) {
            *slot = json!(x);
        }
    }
    clips
}

/// Commits `files` (already written) with `message`.
fn commit(repo: &Path, message: &str) {
    git(repo, &["add", "-A"]);
    git(repo, &["commit", "-q", "-m", message]);
}

/// The lines of a patch that add or remove something (not the headers).
fn changed_lines(patch: &str) -> Vec<&str> {
    patch
        .lines()
        .filter(|l| {
            (l.starts_with('+') || l.starts_with('-'))
                && !l.starts_with("+++")
                && !l.starts_with("---")
        })
        .collect()
}

/// Checks that what git printed about the change names joint 3's rotation and nothing else.
fn names_only_the_turned_track(what: &str, out: &str) {
    assert!(out.contains("joint3.quaternion"), "{what}:\n{out}");
    for other in ["joint2.quaternion", "joint3.position", "joint4.quaternion"] {
        assert!(
            !changed_lines(out).iter().any(|l| l.contains(other)),
            "{what} lists the unchanged {other}:\n{out}"
        );
    }
    assert!(
        !out.contains("\"values\"") && !out.contains("\"times\""),
        "{what} shows the raw JSON:\n{out}"
    );
}

#[test]
fn git_diff_log_and_show_print_the_changed_track_for_json_gltf_and_glb() {
    let repo = repository();
    let r = repo.path();
    let name = |k: usize| format!("joint{k}");
    let old = random_clips(5, 8, &name);
    let source = r.join("source.json");
    write_json(&r.join("walk.json"), &old);
    write_json(&source, &old);
    for (format, file) in [("gltf", "walk.gltf"), ("glb", "walk.glb")] {
        clipscope_in(r, &["convert", "source.json", "--to", format, "-o", file]);
    }
    std::fs::remove_file(&source).unwrap();
    // Other JSON in the repository is not a clip file.
    std::fs::write(r.join("package.json"), "{\n  \"name\": \"game\"\n}\n").unwrap();
    commit(r, "walk");

    let new = turned(old);
    write_json(&r.join("walk.json"), &new);
    write_json(&source, &new);
    for (format, file) in [("gltf", "walk.gltf"), ("glb", "walk.glb")] {
        clipscope_in(r, &["convert", "source.json", "--to", format, "-o", file]);
    }
    std::fs::remove_file(&source).unwrap();
    std::fs::write(r.join("package.json"), "{\n  \"name\": \"game2\"\n}\n").unwrap();

    for file in ["walk.json", "walk.gltf", "walk.glb"] {
        // The working tree against the index: the diff driver.
        let out = text(&git(r, &["diff", "--no-color", "--", file]));
        assert!(
            out.contains(&format!("clipscope diff a/{file} b/{file}")),
            "{out}"
        );
        names_only_the_turned_track(&format!("git diff {file}"), &out);
        assert!(
            out.contains("~ joint3.quaternion: up to 20.0° at "),
            "{out}"
        );
        assert!(!out.contains("Binary files"), "{out}");
    }
    let out = text(&git(r, &["diff", "--no-color", "--", "package.json"]));
    assert!(
        out.contains("-  \"name\": \"game\"") && out.contains("+  \"name\": \"game2\""),
        "other JSON diffs as text:\n{out}"
    );

    commit(r, "turn joint3");
    for args in [
        &["log", "-p", "--no-color", "-1"][..],
        &["show", "--no-color", "HEAD"][..],
    ] {
        let out = text(&git(r, args));
        for file in ["walk.json", "walk.gltf", "walk.glb"] {
            let start = out
                .find(&format!("diff --git a/{file} b/{file}"))
                .unwrap_or_else(|| panic!("git {args:?} has no patch for {file}:\n{out}"));
            let patch = &out[start..];
            let patch = &patch[..patch[1..].find("diff --git").map_or(patch.len(), |e| e + 1)];
            names_only_the_turned_track(&format!("git {args:?} {file}"), patch);
            let changed = changed_lines(patch);
            assert_eq!(changed.len(), 2, "one line out, one in:\n{patch}");
            assert!(changed[0].starts_with("-  joint3.quaternion: quaternion linear"));
            assert!(changed[1].starts_with("+  joint3.quaternion: quaternion linear"));
        }
    }
    // Between two commits, by revision, with the driver.
    let out = text(&git(
        r,
        &["diff", "--no-color", "HEAD~1", "HEAD", "--", "walk.glb"],
    ));
    assert!(
        out.contains("~ joint3.quaternion: up to 20.0° at "),
        "{out}"
    );
}

#[test]
fn added_and_deleted_clip_files_are_named_with_what_they_hold() {
    let repo = repository();
    let r = repo.path();
    let name = |k: usize| format!(".bones[joint{k}]");
    write_json(&r.join("idle.json"), &random_clips(9, 3, &name));
    git(r, &["add", "-A"]);
    let out = text(&git(r, &["diff", "--cached", "--no-color"]));
    assert!(out.contains("new file: b/idle.json (threejs)"), "{out}");
    assert!(out.contains("+ clip \"take\" added"), "{out}");
    commit(r, "idle");
    git(r, &["rm", "-q", "idle.json"]);
    let out = text(&git(r, &["diff", "--cached", "--no-color"]));
    assert!(out.contains("- clip \"take\" removed"), "{out}");
}

#[test]
fn setup_follows_clipscope_toml_and_changes_nothing_the_second_time() {
    let dir = tempfile::tempdir().unwrap();
    let r = dir.path();
    git(r, &["init", "-q", "-b", "main"]);
    let game = r.join("game");
    std::fs::create_dir_all(game.join("anim")).unwrap();
    std::fs::write(
        game.join("clipscope.toml"),
        "clips = [\"anim/**/*.json\", \"anim/**/*.glb\"]\n",
    )
    .unwrap();
    std::fs::write(r.join(".gitattributes"), "*.png binary").unwrap();
    clipscope_in(&game, &["git", "setup"]);
    let attributes = std::fs::read_to_string(r.join(".gitattributes")).unwrap();
    assert!(attributes.starts_with("*.png binary\n"), "{attributes}");
    assert!(
        attributes.contains("game/anim/**/*.json diff=clipscope\n")
            && attributes.contains("game/anim/**/*.glb diff=clipscope\n"),
        "{attributes}"
    );
    assert!(!attributes.contains("*.gltf"), "{attributes}");
    let command = text(&git(r, &["config", "--local", "diff.clipscope.command"]));
    assert!(command.trim().ends_with("git diff-driver"), "{command}");
    let textconv = text(&git(r, &["config", "--local", "diff.clipscope.textconv"]));
    assert!(textconv.trim().ends_with("git textconv"), "{textconv}");
    let tool = text(&git(r, &["config", "--local", "difftool.clipscope.cmd"]));
    assert!(
        tool.contains("open \"$REMOTE\" --against \"$LOCAL\""),
        "{tool}"
    );
    let again = clipscope_in(&game, &["git", "setup"]);
    assert!(
        text(&again).contains("already marks the clip files"),
        "{}",
        text(&again)
    );
    assert_eq!(
        std::fs::read_to_string(r.join(".gitattributes")).unwrap(),
        attributes
    );
    // Outside a repository it is one clear line and status 2.
    let outside = tempfile::tempdir().unwrap();
    let o = Command::new(clipscope_bin())
        .current_dir(outside.path())
        .args(["git", "setup"])
        .env("GIT_CEILING_DIRECTORIES", outside.path().parent().unwrap())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("not in a git repository"), "{err}");
}
