//! A Lottie file's artwork: every composition's layers as they are drawn, evaluated at any
//! frame into a format-free [`Picture`] the way lottie-web draws them.
//!
//! [`Art::read`] types each layer's content ([`layer`]): shape items ([`items`], their
//! animated properties in [`prop`] with lottie-web's keyframe and easing code), solids,
//! precomposition references with their time (`st`, `sr`, time remap `tm`), masks and track
//! mattes, image layers ([`image`]: embedded and beside the file). What it does not draw
//! (text, effects, blend modes, expressions, merge paths, …) is listed in [`Art::notes`] with its JSON path, never dropped silently.
//! [`Art`] is the document's [`Artwork`]: the picture of a clip at a time takes the layers'
//! matrices and opacities from that clip's tracks (so edits show at once) and the rest from the
//! file; layers of precompositions move by the clips the file was read into.

mod draw;
mod geometry;
mod image;
mod items;
mod layer;
mod prop;

use std::collections::HashMap;
use std::sync::Arc;

use super::matrix::LayerTable;
use crate::model::picture::{Artwork, Picture};
use crate::model::{Clip, Composition};

pub(crate) use layer::LayerArt;

/// A Lottie file's compositions, ready to draw. Cloned cheaply: what was read from the file is
/// shared, the clips moving the compositions are the clone's ([`Artwork::with_clips`]).
#[derive(Debug, Clone)]
pub struct Art {
    /// The root composition first, then each precomposition with layers, in asset order (the
    /// order of the document's clips).
    comps: Arc<Vec<Vec<LayerArt>>>,
    /// Precomposition asset id to its index in `comps`.
    by_asset: Arc<HashMap<String, usize>>,
    /// One clip per composition (the clips read from the file, or the document's as edited),
    /// with its layer table: what moves the layers of compositions other than the one asked
    /// for.
    clips: Vec<(Arc<Clip>, Arc<LayerTable>)>,
    /// The root composition's size and frame rate.
    size: [f64; 2],
    fr: f64,
    /// What solid colours are divided by (255 before Bodymovin 4.1.9).
    colour_scale: f64,
    /// Image assets by id, decoded or why not.
    images: Arc<image::Images>,
    /// What is not drawn: JSON path and why.
    notes: Arc<Vec<(String, String)>>,
}

impl Art {
    /// The artwork of the Lottie text `bytes`, whose compositions were read into `clips`, its
    /// image files looked for in `folder` (the file's; `None` when it was not read from a
    /// file); `None` when it is not a Lottie composition object.
    pub(crate) fn read(
        bytes: &[u8],
        clips: &[Clip],
        folder: Option<&std::path::Path>,
    ) -> Option<Art> {
        let top = super::schema::parse_top(bytes).ok()?.ok()?;
        use super::schema::Fields as _;
        let num = |k: &str| top.number(k).ok().flatten();
        let fr = num("fr").filter(|f| *f > 0.0)?;
        let size = [num("w").unwrap_or(0.0), num("h").unwrap_or(0.0)];
        let version = top.text("v").unwrap_or_default();
        let old = {
            let parts: Vec<u32> = version.split('.').filter_map(|p| p.parse().ok()).collect();
            !version.is_empty() && parts < vec![4, 1, 9]
        };
        let mut notes = Vec::new();
        let mut comps = Vec::new();
        let mut by_asset = HashMap::new();
        let mut images = image::Images::new();
        if let Some(layers) = top.get_some("layers") {
            comps.push(layer::read_layers(&layers, &mut notes));
        }
        if let Some(assets) = top.get_some("assets")
            && let Ok(list) = assets.array("assets")
        {
            for asset in list {
                let Ok(a) = asset.object() else { continue };
                let Some(layers) = a.get_some("layers") else {
                    if a.get_some("p").is_some()
                        && let Some((id, decoded)) = image::read_asset(&asset, folder)
                    {
                        images.insert(id, decoded);
                    }
                    continue;
                };
                let id = match a.get_some("id") {
                    Some(n) => n
                        .string()
                        .unwrap_or_else(|_| n.raw.get().trim().to_string()),
                    None => String::new(),
                };
                by_asset.insert(id, comps.len());
                comps.push(layer::read_layers(&layers, &mut notes));
            }
        }
        note_missing_images(&comps, &images, &mut notes);
        let notes = summarise(notes);
        let clips = clips
            .iter()
            .map(|c| (Arc::new(c.clone()), Arc::new(LayerTable::new(c))))
            .collect();
        Some(Art {
            comps: Arc::new(comps),
            by_asset: Arc::new(by_asset),
            clips,
            size,
            fr,
            colour_scale: if old { 255.0 } else { 1.0 },
            images: Arc::new(images),
            notes: Arc::new(notes),
        })
    }

    /// What the artwork does not draw, one `(JSON path, why)` each.
    pub fn notes(&self) -> &[(String, String)] {
        &self.notes
    }

    /// The composition index of `clip`.
    fn comp_of(&self, clip: &Clip) -> Option<usize> {
        match &clip.layers.as_ref()?.composition {
            Composition::Main { .. } => (!self.comps.is_empty()).then_some(0),
            Composition::Precomp { asset } => self.by_asset.get(asset).copied(),
        }
    }
}

/// Lists each image layer whose asset is missing or could not be read, with why.
fn note_missing_images(
    comps: &[Vec<LayerArt>],
    images: &image::Images,
    notes: &mut Vec<(String, String)>,
) {
    for layer in comps.iter().flatten() {
        if let layer::Content::Image(id, path) = &layer.content {
            let why = match images.get(id) {
                Some(Ok(_)) => continue,
                Some(Err(why)) => why.clone(),
                None => "no image asset has this id".to_string(),
            };
            notes.push((path.clone(), format!("image layer not drawn: {why}")));
        }
    }
}

/// One note per reason: the first place, and how many there are when more than one.
fn summarise(notes: Vec<(String, String)>) -> Vec<(String, String)> {
    let mut order: Vec<String> = Vec::new();
    let mut by_why: HashMap<String, (String, usize)> = HashMap::new();
    for (path, why) in notes {
        by_why
            .entry(why.clone())
            .and_modify(|e| e.1 += 1)
            .or_insert_with(|| {
                order.push(why);
                (path, 1)
            });
    }
    order
        .into_iter()
        .map(|why| {
            let (path, n) = by_why.remove(&why).unwrap_or_default();
            let why = if n > 1 {
                format!("{why} (here and {} more place(s))", n - 1)
            } else {
                why
            };
            (path, why)
        })
        .collect()
}

impl Artwork for Art {
    fn with_clips(&self, clips: &[Clip]) -> Option<Arc<dyn Artwork>> {
        let mut changed: Option<Art> = None;
        for clip in clips {
            // The root composition is never nested: its clip is always the one asked for.
            let Some(i) = self
                .comp_of(clip)
                .filter(|&i| i > 0 && i < self.clips.len())
            else {
                continue;
            };
            if *self.clips[i].0 == *clip {
                continue;
            }
            let art = changed.get_or_insert_with(|| self.clone());
            art.clips[i] = (Arc::new(clip.clone()), Arc::new(LayerTable::new(clip)));
        }
        changed.map(|a| Arc::new(a) as Arc<dyn Artwork>)
    }

    fn picture(&self, clip: &Clip, time: f64) -> Option<Picture> {
        let comp = self.comp_of(clip)?;
        let layers = clip.layers.as_ref()?;
        let fr = if layers.fps > 0.0 {
            layers.fps
        } else {
            self.fr
        };
        let frame = layers.start_frame() + time * fr;
        let table = LayerTable::new(clip);
        let mut draw = layer::Drawing {
            art: self,
            depth: 0,
            budget: layer::MAX_LAYERS,
        };
        let view = layer::CompView {
            comp,
            clip,
            table: &table,
            start: layers.start_frame(),
            fr,
        };
        let nodes = draw.comp(&view, frame, &crate::model::picture::IDENTITY);
        let size = match layers.size() {
            Some(s) => s,
            None => self.size,
        };
        Some(Picture {
            width: size[0],
            height: size[1],
            nodes,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::picture::{Node, Paint};

    fn art(text: &str) -> (Art, Clip) {
        let doc = crate::formats::read_bytes(text.as_bytes(), std::path::Path::new("a.json"))
            .expect("a Lottie file");
        let art = Art::read(text.as_bytes(), &doc.clips, None).expect("art");
        (art, doc.clips[0].clone())
    }

    /// Every fill of `nodes`, groups included.
    fn fills(nodes: &[Node], out: &mut Vec<Paint>) {
        for n in nodes {
            match n {
                Node::Fill(f) => out.push(f.paint.clone()),
                Node::Group(g) => fills(&g.nodes, out),
                _ => {}
            }
        }
    }

    #[test]
    fn shapes_are_painted_and_what_is_not_drawn_is_listed() {
        let (art, clip) = art(
            r#"{"v":"5.7.4","fr":30,"ip":0,"op":30,"w":100,"h":100,"layers":[
              {"ddd":0,"ty":4,"ind":1,"ip":0,"op":30,"st":0,"ks":{},"shapes":[
                {"ty":"sh","ks":"not a path"},
                {"ty":"mm","mm":1},
                {"ty":"rc","p":{"k":[50,50]},"s":{"k":[20,20]},"r":{"k":0}},
                {"ty":"fl","c":{"k":[1,0,0,1]},"o":{"k":100}}]},
              {"ddd":0,"ty":5,"ind":2,"ip":0,"op":30,"st":0,"ks":{},"t":{}}]}"#,
        );
        let paths: Vec<&str> = art.notes().iter().map(|(p, _)| p.as_str()).collect();
        assert_eq!(
            paths,
            [
                "layers[0].shapes[0].ks",
                "layers[0].shapes[1].ty",
                "layers[1].t"
            ]
        );
        assert_eq!(
            art.notes()[1].1,
            "merge paths (\"mm\", mode 1) are ignored, as lottie-web and rlottie ignore them: \
             the paths before them are filled and stroked as they are; After Effects merges them \
             into one path"
        );
        let picture = art.picture(&clip, 0.0).unwrap();
        assert_eq!((picture.width, picture.height), (100.0, 100.0));
        let mut out = Vec::new();
        fills(&picture.nodes, &mut out);
        assert_eq!(out, [Paint::Solid([1.0, 0.0, 0.0, 1.0])]);
    }

    /// lottie-web draws a layer only where `ip <= frame < op` holds, with numbers written as
    /// text read as numbers; a layer without `ip` or `op` fails the comparison and is never
    /// drawn (its transform still plays).
    #[test]
    fn layers_show_between_in_and_out_points_as_lottie_web_compares_them() {
        let layer = |range: &str, colour: &str| {
            format!(
                r#"{{"ddd":0,"ty":4,{range}"st":0,"ks":{{}},"shapes":[
                  {{"ty":"rc","p":{{"k":[50,50]}},"s":{{"k":[20,20]}},"r":{{"k":0}}}},
                  {{"ty":"fl","c":{{"k":{colour}}},"o":{{"k":100}}}}]}}"#
            )
        };
        let text = format!(
            r#"{{"v":"5.7.4","fr":30,"ip":0,"op":30,"w":100,"h":100,"layers":[{},{},{},{}]}}"#,
            layer(r#""ip":0,"op":10,"#, "[1,0,0,1]"),
            layer(r#""ip":"10","op":"30","#, "[0,1,0,1]"),
            layer(r#""op":30,"#, "[0,0,1,1]"),
            layer("", "[1,1,1,1]"),
        );
        let (art, clip) = art(&text);
        let at = |frame: f64| {
            let mut out = Vec::new();
            fills(&art.picture(&clip, frame / 30.0).unwrap().nodes, &mut out);
            out
        };
        assert_eq!(at(0.0), [Paint::Solid([1.0, 0.0, 0.0, 1.0])]);
        assert_eq!(at(20.0), [Paint::Solid([0.0, 1.0, 0.0, 1.0])]);
    }

    #[test]
    fn with_clips_rebinds_only_edited_precomps() {
        let text = r##"{"v":"5.7.4","fr":30,"ip":0,"op":30,"w":100,"h":100,
          "layers":[{"ddd":0,"ty":0,"ind":1,"nm":"holder","refId":"p","ip":0,"op":30,"st":0,
            "ks":{"p":{"a":1,"k":[{"t":0,"s":[0,0]},{"t":30,"s":[10,0]}]}}}],
          "assets":[{"id":"p","layers":[{"ddd":0,"ty":1,"ind":1,"nm":"s","sc":"#ffffff",
            "sw":10,"sh":10,"ip":0,"op":30,"st":0,
            "ks":{"p":{"a":1,"k":[{"t":0,"s":[0,0]},{"t":30,"s":[50,0]}]}}}]}]}"##;
        let doc = crate::formats::read_bytes(text.as_bytes(), std::path::Path::new("a.json"))
            .expect("a Lottie file");
        let art = Art::read(text.as_bytes(), &doc.clips, None).expect("art");
        assert_eq!(doc.clips.len(), 2);
        assert!(art.with_clips(&doc.clips).is_none(), "nothing edited");
        let nudge = |clip: &mut Clip| {
            let track = clip.tracks.iter().position(|t| t.len() >= 2).unwrap();
            clip.tracks[track].values.as_numbers_mut().unwrap()[0] += 5.0;
        };
        // The root's own clip is the one asked for: nothing to rebind.
        let mut edited = doc.clips.clone();
        nudge(&mut edited[0]);
        assert!(art.with_clips(&edited).is_none());
        // A precomp's clip: its layers move in the root's picture.
        let mut edited = doc.clips.clone();
        nudge(&mut edited[1]);
        let bound = art.with_clips(&edited).expect("rebound");
        let before = art.picture(&doc.clips[0], 0.0).unwrap();
        assert_ne!(bound.picture(&doc.clips[0], 0.0).unwrap(), before);
    }

    #[test]
    fn a_precomp_showing_itself_stops() {
        let layer = r#"{"ddd":0,"ty":0,"refId":"p","ip":0,"op":30,"st":0,"ks":{}}"#;
        let many = [layer; 10].join(",");
        let text = format!(
            r#"{{"v":"5.7.4","fr":30,"ip":0,"op":30,"w":10,"h":10,"layers":[{layer}],
               "assets":[{{"id":"p","layers":[{many}]}}]}}"#
        );
        let (art, clip) = art(&text);
        assert!(art.picture(&clip, 0.0).is_some());
    }
}
