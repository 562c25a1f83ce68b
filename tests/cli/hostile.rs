//! Big, hostile and changing input through the built binary: files rewritten while `validate`
//! walks them, a file over the size limit, JSON nested 100,000 deep, 10 million keys and
//! 100,000 tracks. Every case ends in a clear one-line error or a successful read, never a
//! crash or an abort.

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::PathBuf;
use std::process::{Command, Output};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use serde_json::Value;

use crate::test_support::rng::Rng;

fn clipscope(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_clipscope"))
        .args(args)
        .output()
        .expect("run clipscope")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A three.js clip of `tracks` vector tracks with `keys` keys each.
fn clip_json(tracks: usize, keys: usize) -> String {
    let mut s = String::from(r#"{"name":"big","duration":-1,"tracks":["#);
    for t in 0..tracks {
        if t > 0 {
            s.push(',');
        }
        let _ = write!(s, r#"{{"name":"n{t}.position","type":"vector","times":["#);
        for k in 0..keys {
            let _ = write!(s, "{}{}", if k > 0 { "," } else { "" }, k as f32 / 30.0);
        }
        s.push_str(r#"],"values":["#);
        for k in 0..keys * 3 {
            let _ = write!(
                s,
                "{}{}",
                if k > 0 { "," } else { "" },
                (k % 97) as f32 * 0.25
            );
        }
        s.push_str("]}");
    }
    s.push_str("]}");
    s
}

/// The peak memory (resident set, bytes) of the biggest child process waited for so far.
#[cfg(target_os = "linux")]
fn children_peak_rss() -> u64 {
    // SAFETY: getrusage only writes the struct it is given.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage) };
    usage.ru_maxrss as u64 * 1024
}

/// `validate` over a tree whose files an "exporter" truncates and rewrites in place the whole
/// time: every run ends normally (no SIGBUS from a mapped file that shrank) and reports every
/// file, read or with a clear error.
#[test]
fn validate_survives_files_truncated_and_rewritten_while_it_reads_them() {
    const FILES: usize = 16;
    let dir = tempfile::tempdir().unwrap();
    let text = clip_json(40, 600);
    let paths: Vec<PathBuf> = (0..FILES)
        .map(|i| {
            let p = dir.path().join(format!("take_{i:02}.json"));
            std::fs::write(&p, &text).unwrap();
            p
        })
        .collect();
    let stop = Arc::new(AtomicBool::new(false));
    let rewriter = {
        let (stop, paths, text) = (stop.clone(), paths.clone(), text.clone());
        std::thread::spawn(move || {
            let mut rng = Rng::new(17);
            let mut rewrites = 0u64;
            while !stop.load(Ordering::Relaxed) {
                let path = &paths[(rng.next_u64() % paths.len() as u64) as usize];
                // In place, as an exporter that opens with O_TRUNC does: the same inode shrinks
                // to nothing, then grows back piece by piece.
                let mut f = std::fs::OpenOptions::new()
                    .write(true)
                    .truncate(true)
                    .open(path)
                    .unwrap();
                let cut = (rng.next_u64() % text.len() as u64) as usize;
                f.write_all(&text.as_bytes()[..cut]).unwrap();
                f.flush().unwrap();
                std::thread::yield_now();
                f.write_all(&text.as_bytes()[cut..]).unwrap();
                rewrites += 1;
            }
            rewrites
        })
    };
    let dir_arg = dir.path().to_str().unwrap();
    for run in 0..6 {
        let o = clipscope(&["validate", dir_arg, "--format", "json"]);
        let code = o.status.code();
        assert!(
            matches!(code, Some(0..=2)),
            "run {run}: validate died ({:?}): {}",
            o.status,
            stderr(&o)
        );
        let report: Value = serde_json::from_slice(&o.stdout)
            .unwrap_or_else(|e| panic!("run {run}: not a JSON report ({e}): {}", stderr(&o)));
        let files = report["files"].as_array().unwrap();
        assert_eq!(files.len(), FILES, "run {run}: every file is reported");
        for f in files {
            if f["ok"] == false {
                // A file caught half written is a clear parse finding, on one line.
                let p = &f["problems"][0];
                assert!(!p["message"].as_str().unwrap_or("\n").contains('\n'), "{p}");
            }
        }
    }
    stop.store(true, Ordering::Relaxed);
    assert!(rewriter.join().unwrap() > 0);
}

/// A 1 GB file is refused before it is read, with a one-line error naming the limit, by
/// every command that reads; `--max-file-size` moves the limit.
#[test]
fn a_file_over_the_size_limit_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let huge = dir.path().join("huge.json");
    // Sparse: 1 GB on paper, nothing on disk.
    std::fs::File::create(&huge)
        .unwrap()
        .set_len(1_000_000_000)
        .unwrap();
    let huge_arg = huge.to_str().unwrap();
    let o = clipscope(&["info", huge_arg]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o),
        format!(
            "clipscope: {huge_arg}: the file is 1.0 GB, larger than the 512 MiB clipscope \
             reads (--max-file-size)\n"
        )
    );
    // `validate` reports it as the file's `parse` finding (exit status 2: a file unread).
    let o = clipscope(&["validate", huge_arg, "--format", "json"]);
    assert_eq!(o.status.code(), Some(2));
    let report: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(report["files"][0]["problems"][0]["code"], "parse");
    let small = dir.path().join("small.json");
    std::fs::write(&small, clip_json(1, 10)).unwrap();
    let small_arg = small.to_str().unwrap();
    let o = clipscope(&["info", small_arg, "--max-file-size", "100"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("larger than the 100 bytes"),
        "{}",
        stderr(&o)
    );
    assert!(
        clipscope(&["info", small_arg, "--max-file-size", "1MB"])
            .status
            .success()
    );
    let o = clipscope(&["info", small_arg, "--max-file-size", "lots"]);
    assert_eq!(o.status.code(), Some(2));
}

/// JSON nested 100,000 deep, where a reader expects clips, is a one-line error (serde_json's
/// depth limit, or a clear "not a clip"); nested inside fields clipscope keeps as raw text
/// (unknown track fields) it reads, validates and converts. Never a stack
/// overflow.
#[test]
fn json_nested_100000_deep_is_a_clear_error_or_a_read() {
    let dir = tempfile::tempdir().unwrap();
    let depth = 100_000;
    let arrays = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
    let objects = format!("{}1{}", r#"{"a":"#.repeat(depth), "}".repeat(depth));
    let track = r#"{"name":".x","type":"number","times":[0],"values":[1]"#;
    let cases = [
        ("arrays.json", arrays.clone(), false),
        ("objects.json", objects.clone(), false),
        (
            "tracks.json",
            format!(r#"{{"name":"c","duration":1,"tracks":{arrays}}}"#),
            false,
        ),
        (
            "lottie.json",
            format!(r#"{{"v":"5.7.4","fr":30,"ip":0,"op":10,"w":1,"h":1,"layers":{arrays}}}"#),
            false,
        ),
        (
            "deep.gltf",
            format!(r#"{{"asset":{{"version":"2.0"}},"animations":{arrays}}}"#),
            false,
        ),
        (
            "track_field.json",
            format!(r#"{{"name":"c","duration":1,"tracks":[{track},"extra":{objects}}}]}}"#),
            true,
        ),
        (
            "extras.gltf",
            format!(r#"{{"asset":{{"version":"2.0"}},"extras":{arrays}}}"#),
            false,
        ),
    ];
    for (name, text, reads) in cases {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        let arg = path.to_str().unwrap();
        let o = clipscope(&["info", arg]);
        let err = stderr(&o);
        if reads {
            assert_eq!(o.status.code(), Some(0), "{name}: {err}");
        } else {
            assert_eq!(o.status.code(), Some(2), "{name}: {err}");
            assert!(
                err.starts_with(&format!("clipscope: {arg}: ")),
                "{name}: {err}"
            );
            assert_eq!(err.lines().count(), 1, "{name}: {err}");
        }
        let o = clipscope(&["validate", arg, "--format", "json"]);
        let report: Value = serde_json::from_slice(&o.stdout)
            .unwrap_or_else(|e| panic!("{name}: {e}: {}", stderr(&o)));
        let codes: Vec<&Value> = report["files"][0]["problems"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| &p["code"])
            .collect();
        if reads {
            assert!(
                matches!(o.status.code(), Some(0 | 1)),
                "{name}: {}",
                stderr(&o)
            );
            assert!(!codes.contains(&&Value::from("parse")), "{name}: {codes:?}");
        } else {
            assert_eq!(o.status.code(), Some(2), "{name}: {}", stderr(&o));
            assert_eq!(codes, [&Value::from("parse")], "{name}");
        }
        let out = dir.path().join(format!("{name}.out.json"));
        let o = clipscope(&["convert", arg, "-o", out.to_str().unwrap()]);
        assert_eq!(
            o.status.code(),
            Some(if reads { 0 } else { 2 }),
            "{name}: {}",
            stderr(&o)
        );
    }
}

/// Ten million keys (one track, 180 MB of JSON) read, validate and optimize within bounded
/// memory: the peak stays under four times the file's size.
#[test]
fn ten_million_keys_read_in_bounded_memory() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ten_million.json");
    let keys = 10_000_000usize;
    {
        let mut out = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
        out.write_all(br#"{"name":"long","duration":-1,"tracks":[{"name":".opacity","type":"number","times":["#)
            .unwrap();
        for k in 0..keys {
            write!(out, "{}{}", if k > 0 { "," } else { "" }, k).unwrap();
        }
        out.write_all(br#"],"values":["#).unwrap();
        for k in 0..keys {
            write!(out, "{}{}", if k > 0 { "," } else { "" }, k % 7).unwrap();
        }
        out.write_all(b"]}]}").unwrap();
    }
    let size = std::fs::metadata(&path).unwrap().len();
    let o = clipscope(&["info", path.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        String::from_utf8_lossy(&o.stdout).contains("10,000,000 keys"),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    #[cfg(target_os = "linux")]
    {
        let peak = children_peak_rss();
        assert!(
            peak < 4 * size,
            "reading a {size}-byte file peaked at {peak} bytes"
        );
    }
}

/// 100,000 two-key tracks in one clip validate in linear time: this finished in minutes
/// before (`duplicate-track` compared every track with every earlier one); the bound here is
/// only "does not hang" (timings are the benchmark's job: `benches/big_input.rs`).
#[test]
fn validate_handles_100000_tracks_in_one_clip() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("wide.json");
    let mut text = clip_json(100_000, 2);
    // One real duplicate, which must still be found.
    text = text.replacen("\"n99999.position\"", "\"n5.position\"", 1);
    std::fs::write(&path, text).unwrap();
    let started = std::time::Instant::now();
    let o = clipscope(&["validate", path.to_str().unwrap(), "--format", "json"]);
    let took = started.elapsed();
    assert!(matches!(o.status.code(), Some(0 | 1)), "{}", stderr(&o));
    let report: Value = serde_json::from_slice(&o.stdout).unwrap();
    let problems = report["files"][0]["problems"].as_array().unwrap();
    let dups: Vec<&Value> = problems
        .iter()
        .filter(|p| p["code"] == "duplicate-track")
        .collect();
    assert_eq!(dups.len(), 1, "{dups:?}");
    assert_eq!(dups[0]["track"], 99_999);
    assert!(
        took < std::time::Duration::from_secs(60),
        "validate of 100,000 tracks took {took:?}"
    );
}
