//! Track-name grammar (three.js `PropertyBinding.parseTrackName` and `sanitizeNodeName`).
//!
//! A track name says which property of which scene node a track animates, e.g.
//! `Armature/Bone.001.quaternion`, `.bones[hip].position` or `cube.material.opacity`. three.js
//! parses it with one regular expression,
//!
//! ```text
//! ^((?:[^\[\]\.:\/]+[\/:])*)([^\[\]:\/]+)?(?:\.([^\[\]\.:\/]+)(?:\[(.+)\])?)?\.([^\[\]\.:\/]+)(?:\[(.+)\])?$
//! ```
//!
//! whose groups are a directory (unused), the node name (which may contain dots), an object name
//! with an optional index, and the required property name with an optional index. A node name
//! ending in `.material`, `.materials`, `.bones` or `.map` is then split, that last part becoming
//! the object name. [`parse_track_name`] reproduces the expression's backtracking exactly with a
//! small hand-written matcher: the bracket contents `(.+)` are greedy, so `a.b[1].c[2][3]` gives
//! the property index `2][3`.

/// The parts of a track name (three.js's `parseTrackName` result); `None` where three.js has
/// `undefined`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TrackPath {
    /// The node to animate (name or uuid), e.g. `Bone.001`; `None` means the root. It can be
    /// `Some("")` for names like `.material.opacity`.
    pub node_name: Option<String>,
    /// A sub-object of the node such as `material`, `bones` or `map`.
    pub object_name: Option<String>,
    /// The bracketed index of the object, e.g. the bone name in `.bones[hip].position`.
    pub object_index: Option<String>,
    /// The animated property, e.g. `position` or `morphTargetInfluences`.
    pub property_name: String,
    /// The bracketed index of the property, e.g. a morph target name or `x`.
    pub property_index: Option<String>,
}

impl TrackPath {
    /// The rig node the track moves: the bone of `.bones[name]…` tracks, else the node name;
    /// `None` for tracks on the root (`.position`, `.morphTargetInfluences[blink]`).
    pub fn animated_node(self) -> Option<String> {
        match (
            self.object_name.as_deref(),
            self.object_index,
            self.node_name,
        ) {
            (Some("bones"), Some(bone), _) => Some(bone),
            (_, _, Some(node)) if !node.is_empty() && node != "." => Some(node),
            _ => None,
        }
    }
}

/// A track name that does not follow the grammar: three.js's `parseTrackName` throws
/// `Cannot parse trackName: <name>`, which is this error's text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrackNameError {
    /// The name as given.
    pub name: String,
}

impl std::fmt::Display for TrackNameError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Cannot parse trackName: {}", self.name)
    }
}

impl std::error::Error for TrackNameError {}

/// The object names three.js splits off the end of a node name.
const SUPPORTED_OBJECT_NAMES: [&str; 4] = ["material", "materials", "bones", "map"];

/// Splits a track name into its parts like three.js's `PropertyBinding.parseTrackName`, or
/// says that the grammar does not match ([`TrackNameError`]).
pub fn parse_track_name(name: &str) -> Result<TrackPath, TrackNameError> {
    let chars: Vec<char> = name.chars().collect();
    let Some(groups) = Matcher::new(&chars).find() else {
        return Err(TrackNameError {
            name: name.to_string(),
        });
    };
    let text = |r: Option<(usize, usize)>| r.map(|(a, b)| chars[a..b].iter().collect::<String>());
    let mut path = TrackPath {
        node_name: text(groups.node),
        object_name: text(groups.object),
        object_index: text(groups.object_index),
        property_name: text(Some(groups.property)).unwrap_or_default(),
        property_index: text(groups.property_index),
    };
    if let Some(node) = &path.node_name
        && let Some(dot) = node.rfind('.')
    {
        let object = &node[dot + 1..];
        if SUPPORTED_OBJECT_NAMES.contains(&object) {
            path.object_name = Some(object.to_string());
            path.node_name = Some(node[..dot].to_string());
        }
    }
    Ok(path)
}

/// Makes a node name safe for track names like three.js's `PropertyBinding.sanitizeNodeName`:
/// whitespace (JavaScript's `\s`) becomes `_` and the reserved characters `[ ] . : /` are removed.
pub fn sanitize_node_name(name: &str) -> String {
    name.chars()
        .filter(|c| !is_reserved(*c))
        .map(|c| if is_js_whitespace(c) { '_' } else { c })
        .collect()
}

/// The characters with a meaning in track names: `[ ] . : /`.
fn is_reserved(c: char) -> bool {
    matches!(c, '[' | ']' | '.' | ':' | '/')
}

/// JavaScript's `\s`: WhiteSpace (tab, VT, FF, space, NBSP, BOM, Unicode Zs) and line terminators.
fn is_js_whitespace(c: char) -> bool {
    matches!(
        c,
        '\t' | '\n' | '\u{0B}' | '\u{0C}' | '\r' | ' ' | '\u{A0}' | '\u{1680}' | '\u{2000}'
            ..='\u{200A}'
                | '\u{2028}'
                | '\u{2029}'
                | '\u{202F}'
                | '\u{205F}'
                | '\u{3000}'
                | '\u{FEFF}'
    )
}

/// JavaScript's line terminators, the characters `.` does not match.
fn is_line_terminator(c: char) -> bool {
    matches!(c, '\n' | '\r' | '\u{2028}' | '\u{2029}')
}

/// Capture ranges (char indices, end exclusive) of a successful match.
struct Groups {
    node: Option<(usize, usize)>,
    object: Option<(usize, usize)>,
    object_index: Option<(usize, usize)>,
    property: (usize, usize),
    property_index: Option<(usize, usize)>,
}

/// A backtracking matcher for the track-name expression, trying the alternatives in the order
/// a JavaScript regex engine does, so the first match found is JavaScript's match.
///
/// Most quantifiers can only succeed one way: a run of `[^\[\]\.:\/]` must stop at a reserved
/// character, so only its longest length can be followed by `[`, `.` or the end. The real choices
/// are the node-name end (any `.` inside its run, longest first, then no node name), whether the
/// object group is present, and where an object index's greedy `(.+)` stops (any later `]`,
/// rightmost first). Precomputed tables make each choice O(1), so a name is matched in
/// O(length) after the tables, however it is written.
struct Matcher<'c> {
    s: &'c [char],
    /// `name_run[i]`: end of the run of `[^\[\]\.:\/]` starting at `i`.
    name_run: Vec<usize>,
    /// `node_run[i]`: end of the run of `[^\[\]:\/]` starting at `i`.
    node_run: Vec<usize>,
    /// `next_lt[i]`: index of the first line terminator at or after `i` (or `len`).
    next_lt: Vec<usize>,
    /// `last_close[i]`: the largest `e < i` with `s[e] == ']'` and the property part matching
    /// from `e + 1`, if any.
    last_close: Vec<Option<usize>>,
}

impl<'c> Matcher<'c> {
    fn new(s: &'c [char]) -> Matcher<'c> {
        let len = s.len();
        let mut name_run = vec![len; len + 1];
        let mut node_run = vec![len; len + 1];
        let mut next_lt = vec![len; len + 1];
        for i in (0..len).rev() {
            let c = s[i];
            name_run[i] = if is_reserved(c) { i } else { name_run[i + 1] };
            node_run[i] = if matches!(c, '[' | ']' | ':' | '/') {
                i
            } else {
                node_run[i + 1]
            };
            next_lt[i] = if is_line_terminator(c) {
                i
            } else {
                next_lt[i + 1]
            };
        }
        let mut m = Matcher {
            s,
            name_run,
            node_run,
            next_lt,
            last_close: vec![None; len + 1],
        };
        for i in 1..=len {
            let e = i - 1;
            m.last_close[i] = if s[e] == ']' && m.property(e + 1).is_some() {
                Some(e)
            } else {
                m.last_close[e]
            };
        }
        m
    }

    /// The property part `\.([^\[\]\.:\/]+)(?:\[(.+)\])?$` from `x`: the property range and
    /// the optional index range.
    #[allow(clippy::type_complexity)]
    fn property(&self, x: usize) -> Option<((usize, usize), Option<(usize, usize)>)> {
        let len = self.s.len();
        if self.s.get(x) != Some(&'.') {
            return None;
        }
        let y = self.name_run[x + 1];
        if y == x + 1 {
            return None;
        }
        if y == len {
            return Some(((x + 1, y), None));
        }
        // `\[(.+)\]$`: the index runs to the final `]`, with no line terminator inside.
        if self.s[y] == '['
            && self.s[len - 1] == ']'
            && len - 1 > y + 1
            && self.next_lt[y + 1] >= len - 1
        {
            return Some(((x + 1, y), Some((y + 1, len - 1))));
        }
        None
    }

    /// The object group and property from `b` onwards, trying the object group first (with an
    /// index, then without) and then without it.
    #[allow(clippy::type_complexity)]
    fn tail(
        &self,
        b: usize,
    ) -> Option<(
        Option<(usize, usize)>,
        Option<(usize, usize)>,
        (usize, usize),
        Option<(usize, usize)>,
    )> {
        if self.s.get(b) == Some(&'.') {
            let c = self.name_run[b + 1];
            if c > b + 1 {
                let object = Some((b + 1, c));
                if self.s.get(c) == Some(&'[') {
                    // `(.+)` cannot cross a line terminator; greedy: the rightmost `]` wins.
                    let limit = self.next_lt[c + 1];
                    if let Some(e) =
                        self.last_close[limit.min(self.s.len())].filter(|&e| e >= c + 2)
                        && let Some((prop, prop_index)) = self.property(e + 1)
                    {
                        return Some((object, Some((c + 1, e)), prop, prop_index));
                    }
                }
                if let Some((prop, prop_index)) = self.property(c) {
                    return Some((object, None, prop, prop_index));
                }
            }
        }
        let (prop, prop_index) = self.property(b)?;
        Some((None, None, prop, prop_index))
    }

    /// Runs the whole expression from the start of the name.
    fn find(&self) -> Option<Groups> {
        // `((?:[^\[\]\.:\/]+[\/:])*)`: each repetition is forced, so list every reachable end;
        // the greedy star tries the most repetitions first.
        let mut starts = vec![0];
        loop {
            let p = *starts.last().unwrap_or(&0);
            let q = self.name_run[p];
            if q > p && matches!(self.s.get(q), Some('/' | ':')) {
                starts.push(q + 1);
            } else {
                break;
            }
        }
        for &a in starts.iter().rev() {
            // `([^\[\]:\/]+)?`: longest first; the next character must be `.`.
            let run_end = self.node_run[a];
            let dots = (a + 1..run_end).rev().filter(|&b| self.s[b] == '.');
            for (b, node) in dots
                .map(|b| (b, Some((a, b))))
                .chain(std::iter::once((a, None)))
            {
                if let Some((object, object_index, property, property_index)) = self.tail(b) {
                    return Some(Groups {
                        node,
                        object,
                        object_index,
                        property,
                        property_index,
                    });
                }
            }
        }
        None
    }
}

/// The node names a clip's tracks address, in order of first appearance, without repeats:
/// the bone of `.bones[name]…` tracks, else the node name of `name.position`-style tracks.
/// Tracks that address the root (`.position`, `.morphTargetInfluences[blink]`) and names that
/// do not parse add nothing.
pub fn animated_nodes(clip: &super::Clip) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for track in &clip.tracks {
        let Ok(path) = parse_track_name(&track.name) else {
            continue;
        };
        let Some(name) = path.animated_node() else {
            continue;
        };
        if seen.insert(name.clone()) {
            names.push(name);
        }
    }
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    fn path(
        node: Option<&str>,
        obj: Option<&str>,
        obj_idx: Option<&str>,
        prop: &str,
        prop_idx: Option<&str>,
    ) -> TrackPath {
        TrackPath {
            node_name: node.map(str::to_string),
            object_name: obj.map(str::to_string),
            object_index: obj_idx.map(str::to_string),
            property_name: prop.to_string(),
            property_index: prop_idx.map(str::to_string),
        }
    }

    #[test]
    fn animated_node_names_the_bone_or_node_and_not_the_root() {
        let node = |name: &str| parse_track_name(name).unwrap().animated_node();
        assert_eq!(node(".bones[hip].position").as_deref(), Some("hip"));
        assert_eq!(node("Arm.L.quaternion").as_deref(), Some("Arm.L"));
        assert_eq!(node("Cube.material.opacity").as_deref(), Some("Cube"));
        assert_eq!(node(".position"), None);
        assert_eq!(node(".morphTargetInfluences[blink]"), None);
    }

    #[test]
    fn three_js_parse_track_name_cases() {
        let cases = [
            (".property", path(None, None, None, "property", None)),
            (
                "nodeName.property",
                path(Some("nodeName"), None, None, "property", None),
            ),
            ("a.property", path(Some("a"), None, None, "property", None)),
            (
                "no.de.Name.property",
                path(Some("no.de.Name"), None, None, "property", None),
            ),
            (
                "no.d-e.Name.property",
                path(Some("no.d-e.Name"), None, None, "property", None),
            ),
            (
                "nodeName.property[accessor]",
                path(Some("nodeName"), None, None, "property", Some("accessor")),
            ),
            (
                "nodeName.material.property[accessor]",
                path(
                    Some("nodeName"),
                    Some("material"),
                    None,
                    "property",
                    Some("accessor"),
                ),
            ),
            (
                "no.de.Name.material.property",
                path(Some("no.de.Name"), Some("material"), None, "property", None),
            ),
            (
                "no.de.Name.material[materialIndex].property",
                path(
                    Some("no.de.Name"),
                    Some("material"),
                    Some("materialIndex"),
                    "property",
                    None,
                ),
            ),
            (
                "uuid.property[accessor]",
                path(Some("uuid"), None, None, "property", Some("accessor")),
            ),
            (
                "uuid.objectName[objectIndex].propertyName[propertyIndex]",
                path(
                    Some("uuid"),
                    Some("objectName"),
                    Some("objectIndex"),
                    "propertyName",
                    Some("propertyIndex"),
                ),
            ),
            (
                "parentName/nodeName.property",
                path(Some("nodeName"), None, None, "property", None),
            ),
            (
                "parentName/no.de.Name.property",
                path(Some("no.de.Name"), None, None, "property", None),
            ),
            (
                "parentName/parentName/nodeName.property[index]",
                path(Some("nodeName"), None, None, "property", Some("index")),
            ),
            (
                ".bone[Armature.DEF_cog].position",
                path(
                    None,
                    Some("bone"),
                    Some("Armature.DEF_cog"),
                    "position",
                    None,
                ),
            ),
            (
                "scene:helium_balloon_model:helium_balloon_model.position",
                path(Some("helium_balloon_model"), None, None, "position", None),
            ),
            (
                "急須.材料[零]",
                path(Some("急須"), None, None, "材料", Some("零")),
            ),
            ("📦.🎨[🔴]", path(Some("📦"), None, None, "🎨", Some("🔴"))),
        ];
        assert_eq!(cases.len(), 18);
        for (name, want) in cases {
            assert_eq!(parse_track_name(name), Ok(want), "{name}");
        }
    }

    #[test]
    fn spec_examples() {
        let cases = [
            (".position", path(None, None, None, "position", None)),
            (
                "Armature/Bone.position",
                path(Some("Bone"), None, None, "position", None),
            ),
            (
                "a:b:c.position",
                path(Some("c"), None, None, "position", None),
            ),
            (
                "Bone.001.position",
                path(Some("Bone.001"), None, None, "position", None),
            ),
            ("a.b.c", path(Some("a.b"), None, None, "c", None)),
            (
                ".foo.bar.baz",
                path(Some(".foo.bar"), None, None, "baz", None),
            ),
            (
                ".bones[R.hand].position",
                path(None, Some("bones"), Some("R.hand"), "position", None),
            ),
            (
                ".bone[X].position",
                path(None, Some("bone"), Some("X"), "position", None),
            ),
            (
                ".material[opacity]",
                path(None, None, None, "material", Some("opacity")),
            ),
            (
                "node.map.offset",
                path(Some("node"), Some("map"), None, "offset", None),
            ),
            (
                ".material.opacity",
                path(Some(""), Some("material"), None, "opacity", None),
            ),
            (
                "a.b[1].c[2][3]",
                path(Some("a"), Some("b"), Some("1"), "c", Some("2][3")),
            ),
            (
                "x.materials.color",
                path(Some("x"), Some("materials"), None, "color", None),
            ),
            (
                ".morphTargetInfluences[smile]",
                path(None, None, None, "morphTargetInfluences", Some("smile")),
            ),
            (
                ".rotation[x]",
                path(None, None, None, "rotation", Some("x")),
            ),
            // Splitting a node name replaces an object group that matched too.
            (
                "n.bones.o[1].p",
                path(Some("n"), Some("bones"), Some("1"), "p", None),
            ),
            // The property index may contain anything but line terminators.
            (".p[a/b:c.d]", path(None, None, None, "p", Some("a/b:c.d"))),
            // A node name may end in a dot.
            ("a..b", path(Some("a."), None, None, "b", None)),
            (
                "Ünïcødé Nöde.scale",
                path(Some("Ünïcødé Nöde"), None, None, "scale", None),
            ),
        ];
        for (name, want) in cases {
            assert_eq!(parse_track_name(name), Ok(want), "{name}");
        }
    }

    #[test]
    fn rejected_names() {
        for name in [
            "a[3].b", "a/b", "", ".", "position", "a.", ".a[]", ".a[\n]", ".a.b[x", "[x].y",
            ".p[x]y", "a.b/c.d",
        ] {
            let err = parse_track_name(name).unwrap_err();
            assert_eq!(err.name, name, "{name:?}");
            assert_eq!(
                err.to_string(),
                format!("Cannot parse trackName: {name}"),
                "{name:?}"
            );
        }
    }

    #[test]
    fn long_names_match_in_linear_time() {
        let name = format!("{}.p", ".a[x]".repeat(20_000));
        let _ = parse_track_name(&name);
        let name = format!("n{}.o[{}].p", ".".repeat(30_000), "]".repeat(30_000));
        assert!(parse_track_name(&name).is_ok());
    }

    #[test]
    fn sanitize_node_name_cases() {
        assert_eq!(sanitize_node_name("valid-name-123_"), "valid-name-123_");
        assert_eq!(sanitize_node_name("急須"), "急須");
        assert_eq!(
            sanitize_node_name("space separated name 123_ -"),
            "space_separated_name_123__-"
        );
        assert_eq!(sanitize_node_name("\"Mátyás\" %_* 😇"), "\"Mátyás\"_%_*_😇");
        assert_eq!(
            sanitize_node_name("/invalid: name ^123.[_]"),
            "invalid_name_^123_"
        );
        // JavaScript's \s includes U+FEFF and NBSP but not U+0085.
        assert_eq!(
            sanitize_node_name("a\u{FEFF}b\u{A0}c\u{85}d\te"),
            "a_b_c\u{85}d_e"
        );
    }
}
