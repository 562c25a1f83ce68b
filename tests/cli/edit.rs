//! `clipscope edit IN -o OUT OPS…`: the editor's clip operations in a script, in command-line
//! order, one summary line each; bad arguments give one clear line and exit 2.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::{Value, json};

fn clipscope(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_clipscope"))
        .args(args)
        .output()
        .expect("run clipscope")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// A walk and a run exported with Mixamo's bone prefix; the walk's spine quaternion flips.
const TAKE: &str = r#"[{"name":"walk","duration":2,"tracks":[
  {"name":"mixamorig:Hips.position","times":[0,1,2],"values":[0,0,0,0,1,0,0,0,0],"type":"vector"},
  {"name":"mixamorig:Spine.quaternion","times":[0,1,2],"values":[0,0,0,1,0,0,0,-1,0,0,0,1],"type":"quaternion"}]},
 {"name":"run","duration":1,"tracks":[
  {"name":"mixamorig:Hips.position","times":[0,0.5,1],"values":[0,0,0,0,2,0,0,0,0],"type":"vector"}]}]"#;

fn take(dir: &Path) -> (PathBuf, PathBuf) {
    let input = dir.join("take.json");
    std::fs::write(&input, TAKE).unwrap();
    (input, dir.join("out.json"))
}

fn edit(input: &Path, out: &Path, ops: &[&str]) -> Output {
    let mut args = vec!["edit", input.to_str().unwrap(), "-o", out.to_str().unwrap()];
    args.extend_from_slice(ops);
    clipscope(&args)
}

fn read(out: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(out).unwrap()).unwrap()
}

#[test]
fn operations_run_in_command_line_order_with_one_line_each() {
    let dir = tempfile::tempdir().unwrap();
    let (input, out) = take(dir.path());
    let o = edit(
        &input,
        &out,
        &[
            "--rename",
            "^mixamorig:(.*)=$1",
            "--unroll-quaternions",
            "--scale-time",
            "2",
            "--shift",
            "-0.5",
        ],
    );
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(
        text(&o.stdout),
        format!(
            "rename: 3 track(s) renamed over 2 clips\n\
             unroll quaternions: 1 key(s) negated in 1 track(s) over 2 clips\n\
             scale time: × 2 over 2 clip(s)\n\
             shift: -0.5 s over 2 clip(s)\n\
             wrote {}\n",
            out.display()
        )
    );
    let v = read(&out);
    assert_eq!(v[0]["tracks"][0]["name"], "Hips.position");
    assert_eq!(v[1]["tracks"][0]["name"], "Hips.position");
    assert_eq!(v[0]["tracks"][0]["times"], json!([-0.5, 1.5, 3.5]));
    assert_eq!(v[0]["duration"], json!(3.5));
    assert_eq!(v[1]["tracks"][0]["times"], json!([-0.5, 0.5, 1.5]));
    assert_eq!(
        v[0]["tracks"][1]["values"],
        json!([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1])
    );
    // Order matters: shifting before scaling is another edit.
    let o = edit(&input, &out, &["--shift", "-0.5", "--scale-time", "2"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(read(&out)[0]["tracks"][0]["times"], json!([-1, 1, 3]));
    assert_eq!(
        std::fs::read_to_string(&input).unwrap(),
        TAKE,
        "input untouched"
    );
}

#[test]
fn clip_picks_clips_and_subclip_counts_frames_with_fps() {
    let dir = tempfile::tempdir().unwrap();
    let (input, out) = take(dir.path());
    let o = edit(
        &input,
        &out,
        &[
            "--clip",
            "walk",
            "--subclip",
            "30:61",
            "--fps",
            "30",
            "--reverse",
        ],
    );
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(
        text(&o.stdout).lines().take(2).collect::<Vec<_>>(),
        [
            "subclip 30:61 frames: 1 clip(s), 4 keys",
            "reverse: 1 clip(s) play backwards"
        ]
    );
    let v = read(&out);
    assert_eq!(v[0]["name"], "walk");
    assert_eq!(v[0]["duration"], json!(1));
    assert_eq!(v[0]["tracks"][0]["times"], json!([0, 1]));
    assert_eq!(v[0]["tracks"][0]["values"], json!([0, 0, 0, 0, 1, 0]));
    assert_eq!(
        v[1]["tracks"][0]["times"],
        json!([0, 0.5, 1]),
        "run untouched"
    );
}

#[test]
fn resample_and_make_additive() {
    let dir = tempfile::tempdir().unwrap();
    let (input, out) = take(dir.path());
    let o = edit(
        &input,
        &out,
        &["--clip", "run", "--resample", "4", "--make-additive"],
    );
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(
        text(&o.stdout).lines().take(2).collect::<Vec<_>>(),
        [
            "resample at 4 fps: 3 -> 5 keys",
            "make additive: 1 clip(s) against their frame 0 at 30 fps"
        ]
    );
    let v = read(&out);
    assert_eq!(v[1]["tracks"][0]["times"], json!([0, 0.25, 0.5, 0.75, 1]));
    assert_eq!(
        v[1]["tracks"][0]["values"],
        json!([0, 0, 0, 0, 1, 0, 0, 2, 0, 0, 1, 0, 0, 0, 0])
    );
    assert_eq!(v[1]["blendMode"], json!(2501));
}

#[test]
fn bad_arguments_give_one_clear_line_and_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let (input, out) = take(dir.path());
    for (ops, want) in [
        (
            vec!["--rename", "nothing"],
            "\"nothing\" is not REGEX=REPLACEMENT",
        ),
        (vec!["--rename", "(=x"], "\"(\" is not a regular expression"),
        (
            vec!["--subclip", "2:1"],
            "the end must come after the start",
        ),
        (vec!["--subclip", "a:1"], "\"a\" is not a number"),
        (vec!["--scale-time", "0"], "is not a factor above 0"),
        (vec!["--resample", "-3"], "is not a frame rate above 0"),
        (
            vec!["--clip", "jog", "--reverse"],
            "no clip named \"jog\" (clips: walk, run)",
        ),
        (vec![], "no operation given"),
        (
            vec!["--subclip", "5:6"],
            "clip \"walk\": subclip: no keys in frames 5 to 6",
        ),
    ] {
        let o = edit(&input, &out, &ops);
        assert_eq!(o.status.code(), Some(2), "{ops:?}");
        let err = text(&o.stderr);
        let first = err.lines().next().unwrap_or_default();
        assert!(first.contains(want), "{ops:?}: {err}");
        assert!(o.stdout.is_empty() || !out.exists(), "{ops:?} wrote a file");
    }
    assert!(!out.exists(), "no failed edit writes the output");
}
