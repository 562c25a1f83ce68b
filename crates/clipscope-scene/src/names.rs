//! Binding node names across files: the normalisations that let a clip exported by one tool
//! drive a skeleton written by another.
//!
//! Two names bind when they are equal, or when their [`key`]s are: three.js's
//! `PropertyBinding.sanitizeNodeName` applied ([`sanitize_node_name`]), a namespace dropped
//! (`mixamorig:Hips`, and `mixamorigHips` where sanitising has already glued it on), case,
//! spaces, underscores, dots and dashes ignored. Failing that, a prefix that every name of one
//! side shares (PlayCanvas's `PB `, Max's `Bip01 `, an exporter's `Armature_`) is dropped on
//! that side ([`common_prefix`]) and the keys compared again. [`bind`] does this for lists of
//! names in time linear in their lengths (hash maps, no pair-wise comparison).

use std::collections::HashMap;

/// three.js r187 `PropertyBinding.sanitizeNodeName`: whitespace becomes `_`, and the
/// characters a track name reserves (`[`, `]`, `.`, `:`, `/`) are removed.
pub fn sanitize_node_name(name: &str) -> String {
    name.chars()
        .filter_map(|c| match c {
            c if c.is_whitespace() => Some('_'),
            '[' | ']' | '.' | ':' | '/' => None,
            c => Some(c),
        })
        .collect()
}

/// Namespaces that exporters glue to every bone name, lower case (`mixamorig:Hips`,
/// `mixamorig1:Hips`, or `mixamorigHips` once three.js has sanitised the colon away).
const NAMESPACES: &[&str] = &["mixamorig"];

/// The comparison key of a node name: the namespace before the last `:` dropped, a glued
/// Mixamo namespace dropped, lower case, without spaces, underscores, dots, dashes or other
/// separators.
pub fn key(name: &str) -> String {
    let name = name.rsplit(':').next().unwrap_or(name);
    let mut out: String = name
        .chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect();
    for ns in NAMESPACES {
        if let Some(rest) = out.strip_prefix(ns) {
            // `mixamorig1hips`: a numbered namespace.
            let rest = rest.trim_start_matches(|c: char| c.is_ascii_digit());
            if !rest.is_empty() {
                out = rest.to_string();
            }
            break;
        }
    }
    out
}

/// The prefix every name of `names` shares, ending at a separator (space, `_`, `.`, `:`, `|`,
/// `/`, `-`), when there are at least two names and each is longer than it: `"PB "` for
/// `["PB Pelvis", "PB L Thigh"]`; empty when there is none. A name equal to the prefix without
/// its separator (PlayCanvas's root `PB`) does not break it.
pub fn common_prefix<'a>(names: impl IntoIterator<Item = &'a str> + Clone) -> String {
    let is_sep = |c: char| matches!(c, ' ' | '_' | '.' | ':' | '|' | '/' | '-');
    let mut prefix: Option<&str> = None;
    for name in names.clone().into_iter().filter(|n| n.contains(is_sep)) {
        prefix = Some(match prefix {
            None => name,
            Some(p) => {
                let shared = p
                    .char_indices()
                    .zip(name.chars())
                    .find(|((_, a), b)| a != b)
                    .map_or(p.len().min(name.len()), |((i, _), _)| i);
                &p[..shared]
            }
        });
    }
    let Some(prefix) = prefix else {
        return String::new();
    };
    // Cut back to the last separator, so `spine1`/`spine2` share nothing.
    let prefix = match prefix.rfind(is_sep) {
        Some(i) => &prefix[..i + 1],
        None => return String::new(),
    };
    let stem = prefix.trim_end_matches(is_sep);
    let (mut longer, mut bare) = (0, 0);
    for name in names {
        if name.len() > prefix.len() && name.starts_with(prefix) {
            longer += 1;
        } else if name == stem && bare == 0 {
            bare += 1;
        } else {
            return String::new();
        }
    }
    if stem.is_empty() || longer < 2 {
        return String::new();
    }
    prefix.to_string()
}

/// `name` without `prefix` (when it starts with it and is longer).
pub fn strip<'a>(name: &'a str, prefix: &str) -> &'a str {
    match name.strip_prefix(prefix) {
        Some(rest) if !prefix.is_empty() && !rest.is_empty() => rest,
        _ => name,
    }
}

/// For each of `from`, the index of the name of `to` it binds to (see the module docs), or
/// `None`. Each name of `to` is taken at most once, by the first name that binds to it; exact
/// matches are taken first, then keys, then keys without the shared prefixes.
pub fn bind(from: &[String], to: &[String]) -> Vec<Option<usize>> {
    let mut out = vec![None; from.len()];
    let mut taken = vec![false; to.len()];
    let exact: HashMap<&str, usize> = to
        .iter()
        .enumerate()
        .rev()
        .map(|(i, n)| (n.as_str(), i))
        .collect();
    for (i, name) in from.iter().enumerate() {
        if let Some(&j) = exact.get(name.as_str())
            && !taken[j]
        {
            out[i] = Some(j);
            taken[j] = true;
        }
    }
    let from_prefix = common_prefix(from.iter().map(String::as_str));
    let to_prefix = common_prefix(to.iter().map(String::as_str));
    let passes: [(&str, &str); 2] = [("", ""), (&from_prefix, &to_prefix)];
    for (fp, tp) in passes {
        let keys: HashMap<String, usize> = to
            .iter()
            .enumerate()
            .rev()
            .map(|(j, n)| (key(strip(n, tp)), j))
            .filter(|(k, _)| !k.is_empty())
            .collect();
        for (i, name) in from.iter().enumerate() {
            if out[i].is_some() {
                continue;
            }
            if let Some(&j) = keys.get(&key(strip(name, fp)))
                && !taken[j]
            {
                out[i] = Some(j);
                taken[j] = true;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(names: &[&str]) -> Vec<String> {
        names.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn sanitize_like_three_js() {
        assert_eq!(sanitize_node_name("mixamorig:Hips"), "mixamorigHips");
        assert_eq!(sanitize_node_name("PB L Thigh"), "PB_L_Thigh");
        assert_eq!(sanitize_node_name("spine.001/[x]"), "spine001x");
    }

    #[test]
    fn keys_ignore_case_separators_and_namespaces() {
        assert_eq!(key("mixamorig:LeftUpLeg"), "leftupleg");
        assert_eq!(key("mixamorigLeftUpLeg"), "leftupleg");
        assert_eq!(key("mixamorig1:Hips"), "hips");
        assert_eq!(key("Armature|rig:thigh.L"), "thighl");
        assert_eq!(key("Upper_Arm L"), "upperarml");
        assert_eq!(key(&sanitize_node_name("PB L Thigh")), key("PB L Thigh"));
    }

    #[test]
    fn shared_prefixes() {
        assert_eq!(common_prefix(["PB", "PB Pelvis", "PB L Thigh"]), "PB ");
        assert_eq!(common_prefix(["Bip01 Pelvis", "Bip01 Spine"]), "Bip01 ");
        assert_eq!(common_prefix(["spine1", "spine2"]), "");
        assert_eq!(common_prefix(["hips"]), "");
        assert_eq!(common_prefix(["a_b", "c_d"]), "");
    }

    #[test]
    fn binds_across_conventions() {
        let clip = strings(&["mixamorigHips", "mixamorig:Spine", "LeftArm", "tail"]);
        let rig = strings(&["Hips", "Spine", "leftarm"]);
        assert_eq!(bind(&clip, &rig), [Some(0), Some(1), Some(2), None]);
        // Sides with their own prefixes.
        let clip = strings(&["PB", "PB Pelvis", "PB L Thigh"]);
        let rig = strings(&["Bip01 L Thigh", "Bip01 Pelvis", "Bip01"]);
        assert_eq!(bind(&clip, &rig), [None, Some(1), Some(0)]);
        // three.js-sanitised names bind to the originals.
        let clip = strings(&["PB_L_Thigh", "spine001"]);
        let rig = strings(&["PB L Thigh", "spine.001"]);
        assert_eq!(bind(&clip, &rig), [Some(0), Some(1)]);
        // Exact matches win; each target is taken once.
        let clip = strings(&["Hips", "hips"]);
        let rig = strings(&["hips"]);
        assert_eq!(bind(&clip, &rig), [None, Some(0)]);
    }
}
