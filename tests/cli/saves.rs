//! Safe saves through the built binary: a writer killed at random points over many saves
//! always leaves the file exactly the old or the new version, never a mix or a stub, and no
//! temporary files pile up.

use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;
use std::time::Instant;

use crate::test_support::rng::Rng;

/// A few megabytes of three.js JSON with numbers that round differently at 2 and 3 decimals.
fn take(path: &Path) {
    let mut s = String::from(r#"{"name":"take","duration":-1,"tracks":["#);
    for t in 0..30 {
        if t > 0 {
            s.push(',');
        }
        let _ = write!(s, r#"{{"name":"b{t}.position","type":"vector","times":["#);
        for k in 0..2000 {
            let _ = write!(s, "{}{}", if k > 0 { "," } else { "" }, k as f32 / 30.0);
        }
        s.push_str(r#"],"values":["#);
        for k in 0..6000 {
            let v = ((k * 7919 + t * 104729) % 100_000) as f32 / 7777.0;
            let _ = write!(s, "{}{}", if k > 0 { "," } else { "" }, v);
        }
        s.push_str("]}");
    }
    s.push_str("]}");
    std::fs::write(path, s).unwrap();
}

fn convert(input: &Path, output: &Path, precision: &str) -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_clipscope"))
        .args([
            "convert",
            input.to_str().unwrap(),
            "-o",
            output.to_str().unwrap(),
        ])
        .args(["--precision", precision])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("run clipscope")
}

#[test]
fn a_save_killed_at_any_point_leaves_the_old_or_the_new_file() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("take.json");
    take(&input);
    // The two versions a save can write, made by saves that run to the end.
    let versions: Vec<Vec<u8>> = ["2", "3"]
        .iter()
        .map(|p| {
            let out = dir.path().join(format!("v{p}.json"));
            assert!(convert(&input, &out, p).wait().unwrap().success());
            std::fs::read(out).unwrap()
        })
        .collect();
    assert_ne!(versions[0], versions[1]);
    let target = dir.path().join("saved").join("clip.json");
    std::fs::create_dir(target.parent().unwrap()).unwrap();
    std::fs::write(&target, &versions[0]).unwrap();
    // How long one save takes, so the kills spread over the whole of it.
    let started = Instant::now();
    assert!(convert(&input, &target, "3").wait().unwrap().success());
    let full = started.elapsed();
    let mut rng = Rng::new(1717);
    let (mut before, mut after) = (0, 0);
    let mut previous = 1;
    for save in 0..40 {
        let next = save % 2;
        let mut child = convert(&input, &target, ["2", "3"][next]);
        let wait = full.mul_f32(rng.unit_f32() * 1.2);
        std::thread::sleep(wait);
        let _ = child.kill();
        let _ = child.wait();
        let now = std::fs::read(&target).unwrap();
        if now == versions[next] {
            after += 1;
            previous = next;
        } else {
            assert!(
                now == versions[previous],
                "save {save}, killed after {wait:?}: the file is neither the old nor the new \
                 version ({} bytes)",
                now.len()
            );
            before += 1;
        }
        // A killed writer may leave its temporary file; the target is never one of them.
        for entry in std::fs::read_dir(target.parent().unwrap()).unwrap() {
            let name = entry.unwrap().file_name();
            let name = name.to_string_lossy();
            assert!(
                name == "clip.json" || name.starts_with(".clipscope-"),
                "{name}"
            );
        }
    }
    // Both outcomes happened, so kills landed before and after the rename.
    assert!(before > 0 && after > 0, "before {before}, after {after}");
}
