//! Image assets (`assets[i]` with `p`, `u`, `e`) and how an image layer (`ty` 2) draws one.
//!
//! The bytes come from where lottie-web takes them: `p` itself when the asset is embedded
//! (`e` 1, or `p` a `data:` URI), else the file `u` + `p` beside the JSON. Both go through the
//! glTF reader's URI rules ([`crate::formats::gltf::uri`]): base64 or percent-encoded data
//! URIs, and relative paths confined to the Lottie file's folder (absolute paths, `..` out of
//! it, links out of it and other schemes are refused before any file is read). The bytes are
//! decoded with the `image` crate (PNG, JPEG, GIF) into straight RGBA8.
//!
//! An image layer draws its asset at the asset's `w` × `h` from the layer's origin, the
//! picture fitted as lottie-web's default `imagePreserveAspectRatio` (`xMidYMid slice`: scaled
//! to cover the box, centred, cut at the box) — pixel sizes equal to `w` × `h`, as exporters
//! write them, draw 1:1. An asset that cannot be had or decoded leaves its layers undrawn,
//! each listed with why.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use crate::formats::json::path::field;
use crate::formats::lottie::schema::{Fields as _, Node as JsonNode};
use crate::model::picture::{Affine, Group, ImageNode, Mask, MaskMode, Node, Path as Outline};

/// The most pixels an image asset may decode to (an 8192 × 8192 image, 256 MiB of RGBA): a
/// bigger one is refused with a note before it is decoded.
const MAX_PIXELS: u64 = 8192 * 8192;

/// A decoded image asset.
#[derive(Debug)]
pub(crate) struct ImageAsset {
    /// Straight RGBA8 pixels.
    rgba: Arc<Vec<u8>>,
    /// Pixel size.
    width: u32,
    height: u32,
    /// The box it fills (`w`, `h`; the pixel size when absent).
    size: [f64; 2],
}

/// Image assets by id: decoded, or why not (one line, with the asset's JSON path).
pub(crate) type Images = HashMap<String, Result<Arc<ImageAsset>, String>>;

/// Reads the image asset `node` (an object with `p`), its files relative to `folder` (the
/// Lottie file's folder; `None` when the document was not read from a file). `None` when it
/// has no id.
pub(crate) fn read_asset(
    node: &JsonNode<'_>,
    folder: Option<&Path>,
) -> Option<(String, Result<Arc<ImageAsset>, String>)> {
    let obj = node.object().ok()?;
    let id = match obj.get_some("id") {
        Some(n) => n
            .string()
            .unwrap_or_else(|_| n.raw.get().trim().to_string()),
        None => return None,
    };
    let p = obj.text("p").unwrap_or_default();
    let embedded = obj.flag("e") || p.trim_start().starts_with("data:");
    let uri = if embedded {
        p
    } else {
        format!("{}{p}", obj.text("u").unwrap_or_default())
    };
    let at = field(&node.path, "p");
    let decoded = load(&uri, embedded, folder)
        .map_err(|why| format!("{at}: {why}"))
        .map(|(rgba, width, height)| {
            let num = |k: &str| obj.number(k).ok().flatten().filter(|v| *v > 0.0);
            Arc::new(ImageAsset {
                rgba: Arc::new(rgba),
                width,
                height,
                size: [
                    num("w").unwrap_or(f64::from(width)),
                    num("h").unwrap_or(f64::from(height)),
                ],
            })
        });
    Some((id, decoded))
}

/// The straight RGBA8 pixels and size of the image `uri` names.
fn load(uri: &str, embedded: bool, folder: Option<&Path>) -> Result<(Vec<u8>, u32, u32), String> {
    let short = crate::text::shortened(uri, 60);
    let folder = match folder {
        Some(f) => f,
        None if embedded => Path::new("."),
        None => {
            return Err(format!(
                "image file {short:?} not read: the document was not read from a file"
            ));
        }
    };
    let bytes = crate::formats::gltf::uri::read(uri, folder).map_err(|e| {
        // A data URI's error quotes no data; a file's names it.
        if embedded {
            format!("embedded image not read: {e}")
        } else {
            e.to_string()
        }
    })?;
    let reader = image::ImageReader::new(std::io::Cursor::new(bytes.as_slice()))
        .with_guessed_format()
        .map_err(|e| format!("image {short:?} not read: {e}"))?;
    let (w, h) = reader
        .into_dimensions()
        .map_err(|e| format!("image {short:?} not decoded: {e}"))?;
    if u64::from(w) * u64::from(h) > MAX_PIXELS {
        return Err(format!(
            "image {short:?} is {w}×{h}, over the {MAX_PIXELS} pixels drawn"
        ));
    }
    let img = image::load_from_memory(&bytes)
        .map_err(|e| format!("image {short:?} not decoded: {e}"))?
        .into_rgba8();
    let (w, h) = img.dimensions();
    Ok((img.into_raw(), w, h))
}

/// The nodes of image `asset` drawn by a layer whose matrix is `world`.
pub(crate) fn draw(asset: &ImageAsset, world: &Affine) -> Vec<Node> {
    let (iw, ih) = (f64::from(asset.width), f64::from(asset.height));
    let [w, h] = asset.size;
    if iw <= 0.0 || ih <= 0.0 {
        return Vec::new();
    }
    // xMidYMid slice: cover the box, centred.
    let k = (w / iw).max(h / ih);
    let (dx, dy) = ((w - iw * k) / 2.0, (h - ih * k) / 2.0);
    let fit = [k, 0.0, 0.0, k, dx, dy];
    let image = Node::Image(ImageNode {
        rgba: asset.rgba.clone(),
        width: asset.width,
        height: asset.height,
        transform: crate::model::picture::multiply(world, &fit),
        opacity: 1.0,
    });
    let exact = (iw * k - w).abs() < 1e-9 && (ih * k - h).abs() < 1e-9;
    if exact {
        return vec![image];
    }
    // Cut at the box.
    let mut group = Group::of(vec![image]);
    group.masks.push(Mask {
        path: Outline::rect(w, h),
        transform: *world,
        mode: MaskMode::Add,
        opacity: 1.0,
        inverted: false,
    });
    vec![Node::Group(group)]
}

#[cfg(test)]
mod tests {
    use crate::model::picture::Node;
    use base64::Engine as _;

    /// A 4 × 2 PNG: its left half red, its right half blue.
    fn png() -> Vec<u8> {
        let img = image::RgbaImage::from_fn(4, 2, |x, _| {
            if x < 2 {
                image::Rgba([255, 0, 0, 255])
            } else {
                image::Rgba([0, 0, 255, 255])
            }
        });
        let mut out = Vec::new();
        img.write_to(&mut std::io::Cursor::new(&mut out), image::ImageFormat::Png)
            .unwrap();
        out
    }

    /// A composition of one image layer showing asset `asset`, at (10, 20).
    fn lottie(asset: serde_json::Value) -> String {
        serde_json::json!({"v": "5.7.4", "fr": 30, "ip": 0, "op": 30, "w": 100, "h": 100,
            "assets": [asset],
            "layers": [{"ddd": 0, "ty": 2, "ind": 1, "refId": "img", "ip": 0, "op": 30, "st": 0,
                "ks": {"p": {"k": [10, 20]}}}]})
        .to_string()
    }

    /// Reads `text` as the file `name` in `dir`: the image nodes of its picture at 0 and the
    /// artwork's notes.
    fn read(dir: &std::path::Path, name: &str, text: &str) -> (Vec<Node>, Vec<(String, String)>) {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        let doc = crate::formats::read_file(&path).unwrap();
        let art = doc.artwork().unwrap();
        let mut out = Vec::new();
        fn images(nodes: &[Node], out: &mut Vec<Node>) {
            for n in nodes {
                match n {
                    Node::Image(_) => out.push(n.clone()),
                    Node::Group(g) => images(&g.nodes, out),
                    _ => {}
                }
            }
        }
        images(&art.picture(&doc.clips[0], 0.0).unwrap().nodes, &mut out);
        (out, doc.artwork_notes())
    }

    #[test]
    fn embedded_images_and_files_beside_the_json_are_drawn_at_the_layer() {
        let dir = tempfile::tempdir().unwrap();
        let data = format!(
            "data:image/png;base64,{}",
            base64::engine::general_purpose::STANDARD.encode(png())
        );
        std::fs::create_dir(dir.path().join("images")).unwrap();
        std::fs::write(dir.path().join("images/img_0.png"), png()).unwrap();
        for asset in [
            serde_json::json!({"id": "img", "w": 4, "h": 2, "u": "", "p": data, "e": 1}),
            serde_json::json!({"id": "img", "w": 4, "h": 2, "u": "images/", "p": "img_0.png", "e": 0}),
        ] {
            let (nodes, notes) = read(dir.path(), "a.json", &lottie(asset));
            assert_eq!(notes, []);
            let [Node::Image(img)] = nodes.as_slice() else {
                panic!("{nodes:?}")
            };
            assert_eq!((img.width, img.height), (4, 2));
            assert_eq!(&img.rgba[..4], [255, 0, 0, 255]);
            assert_eq!(&img.rgba[8..12], [0, 0, 255, 255]);
            assert_eq!(img.transform, [1.0, 0.0, 0.0, 1.0, 10.0, 20.0]);
        }
    }

    #[test]
    fn an_image_box_of_another_shape_is_covered_and_cut() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("i.png"), png()).unwrap();
        // A 4 × 2 picture in an 8 × 8 box: scaled by 4 to cover it, centred, cut at the box.
        let text = lottie(serde_json::json!({"id": "img", "w": 8, "h": 8, "u": "", "p": "i.png"}));
        let (nodes, notes) = read(dir.path(), "a.json", &text);
        assert_eq!(notes, []);
        let [Node::Image(img)] = nodes.as_slice() else {
            panic!("{nodes:?}")
        };
        assert_eq!(img.transform, [4.0, 0.0, 0.0, 4.0, 10.0 - 4.0, 20.0]);
    }

    #[test]
    fn images_outside_the_folder_missing_or_broken_are_listed_not_read() {
        let dir = tempfile::tempdir().unwrap();
        let inner = dir.path().join("inner");
        std::fs::create_dir(&inner).unwrap();
        std::fs::write(dir.path().join("outside.png"), png()).unwrap();
        std::fs::write(inner.join("broken.png"), b"not a png").unwrap();
        let cases = [
            (
                serde_json::json!({"id": "img", "u": "../", "p": "outside.png"}),
                "image layer not drawn: assets[0].p: refused \"../outside.png\": \"..\" leads \
                 outside the file's folder",
            ),
            (
                serde_json::json!({"id": "img", "u": "/etc/", "p": "passwd"}),
                "image layer not drawn: assets[0].p: refused \"/etc/passwd\": an absolute path; \
                 only relative paths inside the file's folder are read",
            ),
            (
                serde_json::json!({"id": "img", "u": "", "p": "broken.png"}),
                "image layer not drawn: assets[0].p: image \"broken.png\" not decoded: ",
            ),
            (
                serde_json::json!({"id": "img", "u": "", "p": "data:image/png;base64,@@", "e": 1}),
                "image layer not drawn: assets[0].p: embedded image not read: bad data URI: \
                 invalid base64",
            ),
            (
                serde_json::json!({"id": "other", "u": "", "p": "broken.png"}),
                "image layer not drawn: no image asset has this id",
            ),
        ];
        for (asset, why) in cases {
            let (nodes, notes) = read(&inner, "a.json", &lottie(asset));
            assert_eq!(nodes, []);
            assert_eq!(notes.len(), 1, "{notes:?}");
            assert_eq!(notes[0].0, "layers[0].refId");
            assert!(notes[0].1.starts_with(why), "{}", notes[0].1);
        }
        // A missing file says which.
        let text = lottie(serde_json::json!({"id": "img", "u": "", "p": "gone.png"}));
        let (_, notes) = read(&inner, "a.json", &text);
        assert!(
            notes[0].1.contains("cannot read \"gone.png\""),
            "{}",
            notes[0].1
        );
    }
}
