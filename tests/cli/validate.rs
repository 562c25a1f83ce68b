//! `clipscope validate` as a studio gates on it, through the built binary: exit statuses,
//! report shapes (json, sarif, junit), config discovery and overrides, the baseline adoption
//! flow, `--deny-warnings`, `--fix` with and without backups, `--rig`, format lint rules and
//! quiet piped output.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

fn clipscope_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_clipscope"))
        .current_dir(dir)
        .args(args)
        .output()
        .expect("run clipscope")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(&p, text).unwrap();
    p
}

fn json(o: &Output) -> Value {
    serde_json::from_str(&stdout(o)).unwrap_or_else(|e| panic!("{e}: {}", stdout(o)))
}

fn codes(file: &Value) -> Vec<String> {
    file["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["code"].as_str().unwrap().to_string())
        .collect()
}

/// A clean clip: no errors, no warnings.
const CLEAN: &str = r#"{"name":"jump","duration":1,"tracks":[
  {"name":"hips.position","times":[0,0.5,1],"values":[0,0,0, 0,1,0, 0,0.5,0],"type":"vector"}]}"#;

/// Only warnings: a redundant key and a duration far past the last key.
const WASTEFUL: &str = r#"{"name":"jump","duration":5,"tracks":[
  {"name":"hips.position","times":[0,0.5,1,1.5],"values":[0,0,0, 0,1,0, 0,1,0, 0,1,0],"type":"vector"}]}"#;

/// A walk loop whose end pose differs from its start, with a non-unit quaternion.
const SEAM: &str = r#"{"name":"walk","duration":1,"tracks":[
  {"name":"hips.position","times":[0,1],"values":[0,0,0, 0,0.5,0],"type":"vector"},
  {"name":"hips.quaternion","times":[0,0.5,1],"values":[0,0,0,2, 0,0,1,2, 0,0,0,2],"type":"quaternion"}]}"#;

/// An error three.js rejects (unsorted keys).
const UNSORTED: &str = r#"{"name":"bad","duration":1,"tracks":[
  {"name":".y","times":[0,0.6,0.5,1],"values":[0,1,2,3],"type":"number"}]}"#;

#[test]
fn json_report_names_rules_config_clip_track_and_time() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "a/wasteful.json", WASTEFUL);
    let o = clipscope_in(dir.path(), &["validate", "a", "--format", "json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    let v = json(&o);
    let file = &v["files"][0];
    assert_eq!(file["ok"], true);
    assert_eq!(file["format"], "threejs");
    assert_eq!(codes(file), ["duration-longer-than-keys", "redundant-keys"]);
    let p = &file["problems"][0];
    assert_eq!(p["severity"], "warning");
    assert_eq!(p["clip"], 0);
    assert_eq!(p["clip_name"], "jump");
    assert_eq!(p["time"], 5.0);
    assert_eq!(file["problems"][1]["track_name"], "hips.position");
    assert!(
        file["problems"][1]["message"]
            .as_str()
            .unwrap()
            .starts_with("1 of 4 keys")
    );
    assert!(
        v["rules"]
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r["code"] == "loop-seam")
    );
    assert!(v["config"]["path"].is_null());
}

#[test]
fn deny_warnings_fails_on_warnings_only() {
    let dir = tempfile::tempdir().unwrap();
    let f = write(dir.path(), "w.json", WASTEFUL);
    let f = f.to_str().unwrap();
    assert_eq!(
        clipscope_in(dir.path(), &["validate", f]).status.code(),
        Some(0)
    );
    let o = clipscope_in(dir.path(), &["validate", f, "--deny-warnings"]);
    assert_eq!(o.status.code(), Some(1));
    let clean = write(dir.path(), "c.json", CLEAN);
    let o = clipscope_in(
        dir.path(),
        &["validate", clean.to_str().unwrap(), "--deny-warnings"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    let bad = write(dir.path(), "bad.json", UNSORTED);
    let o = clipscope_in(dir.path(), &["validate", bad.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
}

#[test]
fn text_report_groups_by_file_with_a_summary_and_piped_stderr_stays_quiet() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "loops/walk.json", SEAM);
    write(dir.path(), "clean.json", CLEAN);
    let o = clipscope_in(dir.path(), &["validate", "."]);
    let text = stdout(&o);
    assert!(
        text.find("clean.json: ok").unwrap()
            < text.find("walk.json: 0 error(s), 2 warning(s)").unwrap(),
        "{text}"
    );
    assert!(
        text.contains("loop-seam") && text.contains("\"hips.position\" key 1 at 1 s"),
        "{text}"
    );
    assert!(
        text.trim_end()
            .ends_with("2 file(s): 0 error(s), 2 warning(s)"),
        "{text}"
    );
    // No progress bar (or anything else) on a piped stderr.
    assert_eq!(stderr(&o), "");
}

#[test]
fn config_is_discovered_and_overrides_apply_by_glob() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "clipscope.toml",
        r#"
        [rules]
        redundant-keys = "off"
        duration-longer-than-keys = "error"
        [[overrides]]
        files = ["assets/loops/**"]
        loop = true
        [overrides.tolerances]
        quaternion-length = 2.0
        "#,
    );
    write(dir.path(), "assets/jump.json", WASTEFUL);
    // A clip not named like a loop, in the loops folder: the override makes it one.
    write(
        dir.path(),
        "assets/loops/idle.json",
        &SEAM.replace("walk", "idle"),
    );
    write(
        dir.path(),
        "assets/idle.json",
        &SEAM.replace("walk", "idle"),
    );
    let sub = dir.path().join("assets");
    let o = clipscope_in(&sub, &["validate", ".", "--format", "json"]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    let v = json(&o);
    assert!(
        v["config"]["path"]
            .as_str()
            .unwrap()
            .ends_with("clipscope.toml")
    );
    let files = v["files"].as_array().unwrap();
    let by_name = |n: &str| {
        files
            .iter()
            .find(|f| f["path"].as_str().unwrap().ends_with(n))
            .unwrap()
    };
    assert_eq!(codes(by_name("/jump.json")), ["duration-longer-than-keys"]);
    assert_eq!(by_name("/jump.json")["problems"][0]["severity"], "error");
    assert_eq!(codes(by_name("loops/idle.json")), ["loop-seam"]);
    assert_eq!(codes(by_name("/idle.json")), ["non-unit-quaternion"]);
    // A typo in the config is a one-line error with exit status 2.
    let bad = write(dir.path(), "bad.toml", "[rules]\nloop-seem = \"off\"\n");
    let o = clipscope_in(
        dir.path(),
        &["validate", "assets", "--config", bad.to_str().unwrap()],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("loop-seem"), "{}", stderr(&o));
    assert_eq!(stderr(&o).lines().count(), 1);
}

#[test]
fn baseline_adopts_existing_findings_and_still_catches_new_ones() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "clipscope.toml", "");
    write(dir.path(), "assets/old.json", WASTEFUL);
    let base = "clipscope.baseline.json";
    let o = clipscope_in(
        dir.path(),
        &[
            "validate",
            "assets",
            "--baseline",
            base,
            "--update-baseline",
            "--deny-warnings",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    let b: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join(base)).unwrap()).unwrap();
    let entries = b["findings"].as_array().unwrap();
    assert_eq!(entries.len(), 2);
    assert_eq!(entries[0]["path"], "assets/old.json");
    assert_eq!(entries[0]["clip"], "jump");
    assert!(entries.iter().all(|e| e.get("message").is_none()));
    // Known findings are suppressed; the run passes even with --deny-warnings.
    let o = clipscope_in(
        dir.path(),
        &["validate", "assets", "--baseline", base, "--deny-warnings"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert!(
        stdout(&o).contains("2 suppressed by the baseline"),
        "{}",
        stdout(&o)
    );
    // A stable baseline: writing it again gives the same bytes.
    let before = std::fs::read(dir.path().join(base)).unwrap();
    clipscope_in(
        dir.path(),
        &[
            "validate",
            "assets",
            "--baseline",
            base,
            "--update-baseline",
        ],
    );
    assert_eq!(std::fs::read(dir.path().join(base)).unwrap(), before);
    // A new finding in a new file fails.
    write(dir.path(), "assets/new.json", WASTEFUL);
    let o = clipscope_in(
        dir.path(),
        &["validate", "assets", "--baseline", base, "--deny-warnings"],
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stdout(&o).contains("new.json: 0 error(s), 2 warning(s)"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn sarif_report_has_rules_results_and_relative_uris() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "clipscope.toml", "");
    write(dir.path(), "a/b/bad.json", UNSORTED);
    let o = clipscope_in(dir.path(), &["validate", "a", "--format", "sarif"]);
    assert_eq!(o.status.code(), Some(1));
    let v = json(&o);
    assert_eq!(v["version"], "2.1.0");
    let run = &v["runs"][0];
    let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
    let unsorted = rules.iter().find(|r| r["id"] == "unsorted-times").unwrap();
    assert_eq!(unsorted["defaultConfiguration"]["level"], "error");
    assert!(unsorted["shortDescription"]["text"].as_str().unwrap().len() > 10);
    let result = &run["results"][0];
    assert_eq!(result["ruleId"], "unsorted-times");
    assert_eq!(result["level"], "error");
    let loc = &result["locations"][0];
    assert_eq!(
        loc["physicalLocation"]["artifactLocation"]["uri"],
        "a/b/bad.json"
    );
    assert_eq!(loc["logicalLocations"][0]["fullyQualifiedName"], "bad/.y");
    assert!(
        result["message"]["text"]
            .as_str()
            .unwrap()
            .contains("key 2")
    );
}

#[test]
fn junit_report_has_a_suite_per_file_and_a_failure_per_error() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "clipscope.toml", "");
    write(dir.path(), "bad.json", UNSORTED);
    write(dir.path(), "w.json", WASTEFUL);
    let o = clipscope_in(dir.path(), &["validate", ".", "--format", "junit"]);
    assert_eq!(o.status.code(), Some(1));
    let xml = stdout(&o);
    assert!(xml.starts_with("<?xml"), "{xml}");
    assert_eq!(xml.matches("<testsuite ").count(), 2, "{xml}");
    assert_eq!(xml.matches("<failure ").count(), 1, "{xml}");
    assert!(
        xml.contains("<testsuite name=\"bad.json\" tests=\"1\" failures=\"1\">"),
        "{xml}"
    );
    assert!(xml.contains("type=\"unsorted-times\""), "{xml}");
    assert!(xml.contains("warning redundant-keys"), "{xml}");
}

#[test]
fn fix_repairs_in_place_with_a_backup_and_revalidates() {
    let dir = tempfile::tempdir().unwrap();
    let f = write(dir.path(), "w.json", WASTEFUL);
    let o = clipscope_in(
        dir.path(),
        &["validate", "w.json", "--fix", "--deny-warnings"],
    );
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    assert!(
        stderr(&o).contains("removed 1 redundant key(s)"),
        "{}",
        stderr(&o)
    );
    assert!(
        stderr(&o).contains("duration reset from 5 s to 1.5 s"),
        "{}",
        stderr(&o)
    );
    assert!(stdout(&o).contains("w.json: ok"), "{}", stdout(&o));
    assert_eq!(
        std::fs::read_to_string(dir.path().join("w.json.bak")).unwrap(),
        WASTEFUL
    );
    let fixed: Value = serde_json::from_str(&std::fs::read_to_string(&f).unwrap()).unwrap();
    assert_eq!(fixed["duration"], 1.5);
    // Unsorted keys are sorted, without a backup when asked.
    let bad = write(dir.path(), "bad.json", UNSORTED);
    let o = clipscope_in(
        dir.path(),
        &["validate", "bad.json", "--fix", "--no-backup"],
    );
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    assert!(!dir.path().join("bad.json.bak").exists());
    let fixed: Value = serde_json::from_str(&std::fs::read_to_string(&bad).unwrap()).unwrap();
    assert_eq!(
        fixed["tracks"][0]["times"],
        serde_json::json!([0, 0.5, 0.6, 1])
    );
    // Without --fix nothing is written.
    let clean = write(dir.path(), "again.json", WASTEFUL);
    clipscope_in(dir.path(), &["validate", "again.json"]);
    assert_eq!(std::fs::read_to_string(clean).unwrap(), WASTEFUL);
}

#[test]
fn rig_reports_tracks_that_bind_to_no_node() {
    let dir = tempfile::tempdir().unwrap();
    let rig = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/rigs/hero.json");
    write(
        dir.path(),
        "c.json",
        r#"{"name":"jump","duration":1,"tracks":[
          {"name":"hips.position","times":[0,1],"values":[0,0,0, 0,1,0],"type":"vector"},
          {"name":"tail.position","times":[0,1],"values":[0,0,0, 0,1,0],"type":"vector"}]}"#,
    );
    let o = clipscope_in(
        dir.path(),
        &["validate", "c.json", "--rig", rig, "--format", "json"],
    );
    let v = json(&o);
    assert_eq!(codes(&v["files"][0]), ["unbound-track"]);
    assert_eq!(v["files"][0]["problems"][0]["track_name"], "tail.position");
    let o = clipscope_in(dir.path(), &["validate", "c.json", "--rig", "missing.json"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn lottie_raw_file_rules_run() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "l.json",
        r#"{"v":"5.7.0","fr":30,"ip":0,"op":30,"w":100,"h":100,"layers":[
          {"ty":3,"ind":1,"parent":9,"ip":0,"op":30,"st":0,"ks":{
            "o":{"a":0,"k":100},
            "p":{"a":1,"k":[{"t":0,"s":[0,0,0],"o":{"x":0,"y":0},"i":{"x":1,"y":1}},{"t":30,"s":[5,0,0],"o":{"x":0,"y":0},"i":{"x":1,"y":1}},{"t":45,"s":[10,0,0]}]}}}]}"#,
    );
    let o = clipscope_in(dir.path(), &["validate", "l.json", "--format", "json"]);
    let v = json(&o);
    assert_eq!(v["files"][0]["format"], "lottie", "{v}");
    let c = codes(&v["files"][0]);
    assert!(c.contains(&"lottie-missing-parent".to_string()), "{c:?}");
    assert!(c.contains(&"lottie-key-outside-layer".to_string()), "{c:?}");
}

fn git(dir: &Path, args: &[&str]) {
    let o = Command::new("git")
        .current_dir(dir)
        .args(args)
        .output()
        .expect("run git");
    assert!(o.status.success(), "git {args:?}: {}", stderr(&o));
}

#[test]
fn plain_git_hook_checks_the_staged_clips() {
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path();
    git(repo, &["init", "-q"]);
    let hook = concat!(env!("CARGO_MANIFEST_DIR"), "/hooks/pre-commit");
    let run_hook = || {
        Command::new("sh")
            .arg(hook)
            .current_dir(repo)
            .env("CLIPSCOPE", env!("CARGO_BIN_EXE_clipscope"))
            .output()
            .expect("run the hook")
    };
    write(repo, "assets/good.json", CLEAN);
    git(repo, &["add", "assets/good.json"]);
    let o = run_hook();
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    // The staged version is checked: a bad file staged, then fixed only in the work tree, fails.
    write(repo, "assets/bad.json", UNSORTED);
    git(repo, &["add", "assets/bad.json"]);
    write(repo, "assets/bad.json", CLEAN);
    let o = run_hook();
    assert_eq!(o.status.code(), Some(1), "{}{}", stdout(&o), stderr(&o));
    assert!(stdout(&o).contains("unsorted-times"), "{}", stdout(&o));
    assert!(stderr(&o).contains("commit blocked"), "{}", stderr(&o));
}

#[test]
fn pre_commit_framework_manifest_names_the_hook() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/.pre-commit-hooks.yaml"
    ))
    .unwrap();
    for needle in [
        "- id: clipscope-validate\n",
        "entry: clipscope validate\n",
        "language: rust\n",
        "files: \\.(json|gltf|glb)$\n",
    ] {
        assert!(text.contains(needle), "{needle}");
    }
}

#[test]
fn update_baseline_needs_a_baseline_file() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "c.json", CLEAN);
    let o = clipscope_in(dir.path(), &["validate", "c.json", "--update-baseline"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn explain_and_list_rules_come_from_the_registry() {
    let dir = tempfile::tempdir().unwrap();
    let o = clipscope_in(
        dir.path(),
        &["validate", "--explain", "duration-longer-than-keys"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(
        text.starts_with("duration-longer-than-keys (warning by default; threejs, threejs-legacy,"),
        "{text}"
    );
    assert!(!text.lines().next().unwrap().contains("lottie"), "{text}");
    assert!(text.contains("\nFix: Reset the duration"), "{text}");
    let o = clipscope_in(dir.path(), &["validate", "--explain", "no-such-rule"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("unknown rule `no-such-rule`"),
        "{}",
        stderr(&o)
    );

    let o = clipscope_in(dir.path(), &["validate", "--list-rules"]);
    assert_eq!(o.status.code(), Some(0));
    let list = stdout(&o);
    for code in [
        "parse",
        "unknown-blend-mode",
        "number-out-of-range",
        "invalid-tangent-size",
    ] {
        assert!(list.lines().any(|l| l.starts_with(code)), "{code}: {list}");
    }
    let o = clipscope_in(
        dir.path(),
        &["validate", "--list-rules", "--format", "json"],
    );
    let all = json(&o);
    let rules = all.as_array().unwrap();
    let lottie = rules
        .iter()
        .find(|r| r["code"] == "lottie-missing-parent")
        .unwrap();
    assert_eq!(lottie["formats"], serde_json::json!(["lottie"]));
    assert_eq!(lottie["severity"], "warning");
    assert!(lottie["fix"].as_str().unwrap().len() > 10);
    assert!(lottie["explanation"].as_str().unwrap().len() > 40);
}

/// `--list-rules --format markdown` prints the registry's rule table, the one `docs/rules.md`
/// holds between its markers; a report cannot be asked for in Markdown.
#[test]
fn list_rules_as_markdown_is_the_docs_table() {
    let dir = tempfile::tempdir().unwrap();
    let o = clipscope_in(
        dir.path(),
        &["validate", "--list-rules", "--format", "markdown"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let table = stdout(&o);
    assert_eq!(table, clipscope_core::validate::rules::markdown_table());
    let mut lines = table.lines();
    assert_eq!(
        lines.next(),
        Some("| code | default | formats | finds | fix |")
    );
    assert_eq!(lines.next(), Some("|---|---|---|---|---|"));
    let rows: Vec<&str> = lines.collect();
    assert_eq!(
        rows.len(),
        clipscope_core::validate::rules::rules().len(),
        "{table}"
    );
    assert!(
        rows.iter()
            .any(|r| r.starts_with("| `lottie-missing-parent` | warning | lottie | ")),
        "{table}"
    );
    let page = include_str!("../../docs/rules.md");
    assert!(
        page.contains(&format!("<!-- rules:start -->\n{table}<!-- rules:end -->")),
        "docs/rules.md is stale: put the output of `clipscope validate --list-rules --format \
         markdown` between its rules: markers"
    );

    write(dir.path(), "c.json", CLEAN);
    let o = clipscope_in(dir.path(), &["validate", "c.json", "--format", "markdown"]);
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    assert!(stderr(&o).contains("--list-rules"), "{}", stderr(&o));
}

#[test]
fn config_accepts_every_registered_reader_code() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "clipscope.toml",
        "[rules]\nunknown-blend-mode = \"warning\"\nnumber-out-of-range = \"off\"\ninvalid-tangent-size = \"warning\"\n",
    );
    write(
        dir.path(),
        "c.json",
        r#"{"name":"c","blendMode":7,"tracks":[{"name":".p","type":"number","times":[0],"values":[1e39]}]}"#,
    );
    let o = clipscope_in(dir.path(), &["validate", "c.json", "--format", "sarif"]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    let sarif = json(&o);
    let rules = sarif["runs"][0]["tool"]["driver"]["rules"]
        .as_array()
        .unwrap();
    let blend = rules
        .iter()
        .position(|r| r["id"] == "unknown-blend-mode")
        .unwrap();
    assert!(
        rules[blend]["help"]["text"]
            .as_str()
            .unwrap()
            .contains("2500")
    );
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    let ids: Vec<&str> = results
        .iter()
        .map(|r| r["ruleId"].as_str().unwrap())
        .collect();
    // number-out-of-range is off; the infinite value it leaves is still a warning.
    assert_eq!(
        ids,
        ["unknown-blend-mode", "non-finite-value"],
        "{results:?}"
    );
    assert_eq!(results[0]["ruleIndex"], blend);
    assert_eq!(results[0]["level"], "warning");
}
