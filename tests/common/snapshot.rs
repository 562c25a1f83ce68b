//! Pictures compared with committed references (feature `gui`): `tests/snapshots/{name}.png`
//! within a per-channel tolerance on nearly every pixel, regenerated with `UPDATE_SNAPSHOTS=1`;
//! on a mismatch the new picture is written beside the reference as `{name}.new.png`.

use std::path::Path;

use image::RgbaImage;

/// Largest per-channel difference a pixel may have and still match.
const CHANNEL_TOLERANCE: u8 = 8;
/// Share of pixels that must match.
const MATCHING_SHARE: f64 = 0.995;

/// Compares `image` with `tests/snapshots/{name}.png` (or writes it under
/// `UPDATE_SNAPSHOTS=1`), writing `{name}.new.png` on a mismatch.
pub fn check_snapshot(name: &str, image: &RgbaImage) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots");
    let reference = dir.join(format!("{name}.png"));
    let new = dir.join(format!("{name}.new.png"));
    if std::env::var("UPDATE_SNAPSHOTS").is_ok_and(|v| !v.is_empty() && v != "0") {
        image.save(&reference).unwrap();
        let _ = std::fs::remove_file(&new);
        return;
    }
    let expected = match image::open(&reference) {
        Ok(img) => img.to_rgba8(),
        Err(e) => {
            image.save(&new).unwrap();
            panic!(
                "{}: {e}; wrote {} (UPDATE_SNAPSHOTS=1 makes it the reference)",
                reference.display(),
                new.display()
            );
        }
    };
    let fail = |why: String| -> ! {
        image.save(&new).unwrap();
        panic!("{name}: {why}; wrote {}", new.display());
    };
    if expected.dimensions() != image.dimensions() {
        fail(format!(
            "size {:?}, reference {:?}",
            image.dimensions(),
            expected.dimensions()
        ));
    }
    let total = (image.width() * image.height()) as usize;
    let matching = image
        .pixels()
        .zip(expected.pixels())
        .filter(|(a, b)| {
            a.0.iter()
                .zip(b.0.iter())
                .all(|(x, y)| x.abs_diff(*y) <= CHANNEL_TOLERANCE)
        })
        .count();
    let share = matching as f64 / total as f64;
    if share < MATCHING_SHARE {
        fail(format!(
            "{:.2}% of pixels within ±{CHANNEL_TOLERANCE} of the reference, need {:.1}%",
            share * 100.0,
            MATCHING_SHARE * 100.0
        ));
    }
    let _ = std::fs::remove_file(&new);
}
