//! A clip's 2D layers: what a layered 2D format (Lottie) says about the composition a clip
//! animates, beyond its tracks: each layer's parent, in and out points, time offset and stretch,
//! kind, size, colour and extent, and the composition's frame rate, start, end and size.
//!
//! The Lottie reader fills [`Clip::layers`](super::Clip::layers); the viewport draws the layers
//! from it and the format's 2D maths (`formats::lottie::matrix`) evaluates their world
//! matrices. Other formats have no place for it, so three.js JSON and glTF carry it as the
//! clip's `userData` entry [`USER_DATA_KEY`] ([`Clip::user_data_with_layers`]), and their readers
//! take it back out ([`Clip::set_user_data`]), so it survives a round trip exactly as the reader
//! wrote it. The field names and units are Lottie's (frames, `ind`/`parent` numbers).

use std::borrow::Cow;
use std::sync::Arc;

use serde_json::{Map, Value, json};

use super::Clip;

/// The `userData` entry that carries a clip's layers through formats that have no place for
/// them (three.js JSON, glTF extras).
pub const USER_DATA_KEY: &str = "lottie";

/// The layers of one composition, and the composition itself.
#[derive(Debug, Clone, PartialEq)]
pub struct Layers {
    /// Frames per second of the composition (`fr`): layer in/out points and start times are in
    /// its frames.
    pub fps: f64,
    /// Which composition of the file the clip is.
    pub composition: Composition,
    /// The layers, in the file's order (the first is drawn on top).
    pub layers: Vec<Layer>,
}

/// Which composition of a layered file a clip is.
#[derive(Debug, Clone, PartialEq)]
pub enum Composition {
    /// The file's own (root) composition.
    Main {
        /// The file's format version (Lottie's `v`), if it says.
        version: Option<String>,
        /// The frame at clip time 0 (`ip`).
        start_frame: f64,
        /// The frame the composition ends at (`op`), if it says.
        end_frame: Option<f64>,
        /// Its width in px (`w`), if it says.
        width: Option<f64>,
        /// Its height in px (`h`), if it says.
        height: Option<f64>,
    },
    /// A precomposition that layers of other compositions show (its clip time 0 is its frame 0).
    Precomp {
        /// Its asset id, which showing layers name (`refId`).
        asset: String,
    },
}

/// One layer of a composition.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Layer {
    /// The track-name prefix of its tracks (`<name>.position`, …).
    pub name: String,
    /// Its name in the file.
    pub nm: Option<String>,
    /// Its index `ind` (what children's `parent` names).
    pub ind: Option<f64>,
    /// Its kind `ty` (Lottie's layer type number: precomp, solid, image, null, shape, text, …).
    pub ty: Option<f64>,
    /// The `ind` of its parent.
    pub parent: Option<f64>,
    /// In point (frame).
    pub ip: Option<f64>,
    /// Out point (frame, exclusive).
    pub op: Option<f64>,
    /// Start time `st` (frames its own time is offset by).
    pub st: f64,
    /// Time stretch `sr`.
    pub sr: f64,
    /// Auto-orient along the position's path.
    pub auto_orient: bool,
    /// 3D layer.
    pub ddd: bool,
    /// The precomposition it shows (`refId`).
    pub ref_id: Option<String>,
    /// Whether it has a time remap `tm` (kept in the file, not applied to any clip).
    pub time_remap: bool,
    /// Its content's size in px (a solid's `sw`/`sh`, a precomp layer's `w`/`h`), if known.
    pub size: Option<[f64; 2]>,
    /// A solid's colour, `#rrggbb`.
    pub solid_colour: Option<String>,
    /// The corners of the convex hull of what a shape layer draws, in layer space (empty
    /// where not known).
    pub outline: Vec<[f64; 2]>,
    /// The transform properties driven by an expression (track-name suffixes: `position`,
    /// `position[x]`, …): an expression may read the keys themselves (`key(n)`,
    /// `nearestKey`, `velocityAtTime`), so their keys are kept exactly as they are.
    pub expressions: Vec<String>,
}

impl Layers {
    /// The frame at clip time 0: the main composition's `ip`, 0 for a precomposition.
    pub fn start_frame(&self) -> f64 {
        match self.composition {
            Composition::Main { start_frame, .. } => start_frame,
            Composition::Precomp { .. } => 0.0,
        }
    }

    /// The composition's width and height in px, when it says both (precompositions do not).
    pub fn size(&self) -> Option<[f64; 2]> {
        match self.composition {
            Composition::Main {
                width: Some(w),
                height: Some(h),
                ..
            } => Some([w, h]),
            _ => None,
        }
    }

    /// The layers as the `userData` entry [`USER_DATA_KEY`] holds them: `fr`, then `asset` (a
    /// precomposition) or `v`, `ip`, `op`, `w`, `h` (the main composition), then `layers`.
    pub fn to_json(&self) -> Value {
        let mut info = json!({ "fr": self.fps });
        match &self.composition {
            Composition::Precomp { asset } => info["asset"] = json!(asset),
            Composition::Main {
                version,
                start_frame,
                end_frame,
                width,
                height,
            } => {
                if let Some(v) = version {
                    info["v"] = json!(v);
                }
                info["ip"] = json!(start_frame);
                info["op"] = json!(end_frame);
                for (key, v) in [("w", width), ("h", height)] {
                    if let Some(v) = v {
                        info[key] = json!(v);
                    }
                }
            }
        }
        info["layers"] = Value::Array(self.layers.iter().map(Layer::to_json).collect());
        info
    }

    /// The layers a `userData` entry [`USER_DATA_KEY`] describes (read leniently: missing
    /// numbers take their defaults); `None` when `info` is not an object with a `layers` array.
    pub fn from_json(info: &Value) -> Option<Layers> {
        let list = info.get("layers")?.as_array()?;
        let num = |k: &str| info.get(k).and_then(Value::as_f64);
        let composition = match info.get("asset").and_then(Value::as_str) {
            Some(asset) => Composition::Precomp {
                asset: asset.to_string(),
            },
            None => Composition::Main {
                version: info.get("v").and_then(Value::as_str).map(str::to_string),
                start_frame: num("ip").unwrap_or(0.0),
                end_frame: num("op"),
                width: num("w"),
                height: num("h"),
            },
        };
        Some(Layers {
            fps: num("fr").unwrap_or(30.0),
            composition,
            layers: list.iter().map(Layer::from_json).collect(),
        })
    }

    /// Takes the layers out of `user_data` when its first entry is [`USER_DATA_KEY`] in exactly
    /// the form [`Layers::to_json`] writes (so putting them back gives the same `userData`);
    /// otherwise leaves `user_data` alone and returns `None`.
    pub fn take_from(user_data: &mut Value) -> Option<Arc<Layers>> {
        let Value::Object(map) = user_data else {
            return None;
        };
        let (key, info) = map.iter().next()?;
        if key != USER_DATA_KEY {
            return None;
        }
        let layers = Layers::from_json(info).filter(|l| l.to_json() == *info)?;
        map.shift_remove(USER_DATA_KEY);
        Some(Arc::new(layers))
    }
}

impl Layer {
    /// The extent of a shape layer's outline, `[x0, y0, x1, y1]`, when it has an area.
    pub fn bounds(&self) -> Option<[f64; 4]> {
        let (first, rest) = self.outline.split_first()?;
        let b = rest
            .iter()
            .fold([first[0], first[1], first[0], first[1]], |b, &[x, y]| {
                [b[0].min(x), b[1].min(y), b[2].max(x), b[3].max(y)]
            });
        (b[2] > b[0] && b[3] > b[1]).then_some(b)
    }

    /// The layer as the `layers` array of the `userData` entry holds it: `name`, then the fields
    /// the file has, in a fixed order.
    fn to_json(&self) -> Value {
        let mut v = json!({ "name": self.name });
        if let Some(nm) = &self.nm {
            v["nm"] = json!(nm);
        }
        for (key, value) in [
            ("ind", self.ind),
            ("ty", self.ty),
            ("parent", self.parent),
            ("ip", self.ip),
            ("op", self.op),
        ] {
            if let Some(x) = value {
                v[key] = json!(x);
            }
        }
        v["st"] = json!(self.st);
        v["sr"] = json!(self.sr);
        if self.auto_orient {
            v["ao"] = json!(1);
        }
        if self.ddd {
            v["ddd"] = json!(1);
        }
        if let Some(r) = &self.ref_id {
            v["refId"] = json!(r);
        }
        if self.time_remap {
            v["tm"] = json!(true);
        }
        if let Some(size) = self.size {
            v["size"] = json!(size);
        }
        if let Some(sc) = &self.solid_colour {
            v["sc"] = json!(sc);
        }
        if !self.outline.is_empty() {
            v["outline"] = json!(self.outline);
        }
        if !self.expressions.is_empty() {
            v["expressions"] = json!(self.expressions);
        }
        v
    }

    /// The layer one entry of the `layers` array describes (read leniently).
    fn from_json(l: &Value) -> Layer {
        let num = |k: &str| l.get(k).and_then(Value::as_f64);
        let text = |k: &str| l.get(k).and_then(Value::as_str).map(str::to_string);
        let flag = |k: &str| {
            l.get(k)
                .is_some_and(|v| v.as_f64() == Some(1.0) || v == true)
        };
        let at = |k: &str, i: usize| l.get(k)?.as_array()?.get(i)?.as_f64();
        Layer {
            name: text("name").unwrap_or_default(),
            nm: text("nm"),
            ind: num("ind"),
            ty: num("ty"),
            parent: num("parent"),
            ip: num("ip"),
            op: num("op"),
            st: num("st").unwrap_or(0.0),
            sr: num("sr").unwrap_or(1.0),
            auto_orient: flag("ao"),
            ddd: flag("ddd"),
            ref_id: text("refId"),
            time_remap: flag("tm"),
            size: (|| Some([at("size", 0)?, at("size", 1)?]))(),
            solid_colour: text("sc"),
            outline: l
                .get("outline")
                .and_then(Value::as_array)
                .map(|a| {
                    a.iter()
                        .filter_map(|p| Some([p.get(0)?.as_f64()?, p.get(1)?.as_f64()?]))
                        .collect()
                })
                .unwrap_or_default(),
            expressions: l
                .get("expressions")
                .and_then(Value::as_array)
                .map(|a| {
                    a.iter()
                        .filter_map(|v| Some(v.as_str()?.to_string()))
                        .collect()
                })
                .unwrap_or_default(),
        }
    }
}

impl Clip {
    /// The clip's `userData` as formats without a place for layers write it: its
    /// [`user_data`](Clip::user_data) with the [`layers`](Clip::layers) first, under
    /// [`USER_DATA_KEY`] (as the Lottie reader's clips always had them).
    pub fn user_data_with_layers(&self) -> Cow<'_, Value> {
        match (&self.layers, &self.user_data) {
            (Some(layers), Value::Object(rest)) => {
                let mut map = Map::with_capacity(rest.len() + 1);
                map.insert(USER_DATA_KEY.to_string(), layers.to_json());
                map.extend(rest.iter().map(|(k, v)| (k.clone(), v.clone())));
                Cow::Owned(Value::Object(map))
            }
            _ => Cow::Borrowed(&self.user_data),
        }
    }

    /// Sets the clip's `userData` as a file holds it, taking out layers a clipscope conversion
    /// put there ([`Layers::take_from`]) into [`Clip::layers`].
    pub fn set_user_data(&mut self, mut user_data: Value) {
        self.layers = Layers::take_from(&mut user_data);
        self.user_data = user_data;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Layers {
        Layers {
            fps: 25.0,
            composition: Composition::Main {
                version: Some("5.7.4".into()),
                start_frame: 10.0,
                end_frame: None,
                width: Some(512.0),
                height: Some(256.0),
            },
            layers: vec![
                Layer {
                    name: "box".into(),
                    ind: Some(1.0),
                    st: 0.0,
                    sr: 1.0,
                    size: Some([20.0, 10.0]),
                    solid_colour: Some("#ff0000".into()),
                    ..Layer::default()
                },
                Layer {
                    name: "child".into(),
                    nm: Some("Child".into()),
                    parent: Some(1.0),
                    st: 2.0,
                    sr: 0.5,
                    auto_orient: true,
                    time_remap: true,
                    outline: vec![[-1.0, -2.0], [3.0, 4.0]],
                    expressions: vec!["position[x]".into()],
                    ..Layer::default()
                },
            ],
        }
    }

    #[test]
    fn the_json_form_is_the_readers_and_reads_back() {
        let layers = sample();
        let json = layers.to_json();
        assert_eq!(
            serde_json::to_string(&json).unwrap(),
            r##"{"fr":25.0,"v":"5.7.4","ip":10.0,"op":null,"w":512.0,"h":256.0,"layers":[{"name":"box","ind":1.0,"st":0.0,"sr":1.0,"size":[20.0,10.0],"sc":"#ff0000"},{"name":"child","nm":"Child","parent":1.0,"st":2.0,"sr":0.5,"ao":1,"tm":true,"outline":[[-1.0,-2.0],[3.0,4.0]],"expressions":["position[x]"]}]}"##
        );
        assert_eq!(Layers::from_json(&json), Some(layers));
        let precomp = Layers {
            composition: Composition::Precomp {
                asset: "comp_0".into(),
            },
            ..sample()
        };
        assert_eq!(Layers::from_json(&precomp.to_json()), Some(precomp.clone()));
        assert_eq!(precomp.start_frame(), 0.0);
        assert_eq!(precomp.size(), None);
        assert_eq!(sample().size(), Some([512.0, 256.0]));
    }

    #[test]
    fn user_data_carries_the_layers_first_and_gives_them_back() {
        let mut clip = Clip::new("c", 1.0, Vec::new());
        clip.user_data = json!({"markers": [1]});
        assert!(matches!(clip.user_data_with_layers(), Cow::Borrowed(_)));
        clip.layers = Some(Arc::new(sample()));
        let written = clip.user_data_with_layers().into_owned();
        let keys: Vec<&String> = written.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["lottie", "markers"]);
        let mut back = Clip::new("c", 1.0, Vec::new());
        back.set_user_data(written.clone());
        assert_eq!(back.layers, clip.layers);
        assert_eq!(back.user_data, clip.user_data);
        assert_eq!(back.user_data_with_layers().into_owned(), written);
    }

    #[test]
    fn user_data_that_would_not_come_back_the_same_stays() {
        let info = sample().to_json();
        // Not the first entry, or not in the form clipscope writes: left in userData.
        for mut user_data in [
            json!({"a": 1, "lottie": info.clone()}),
            json!({"lottie": {"fr": 25, "layers": []}}),
            json!({"lottie": "text"}),
            json!("text"),
        ] {
            let before = user_data.clone();
            assert_eq!(Layers::take_from(&mut user_data), None, "{before}");
            assert_eq!(user_data, before);
        }
    }
}
