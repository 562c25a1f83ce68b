//! `rename_tracks`: find and replace in track names with a regular expression, so a clip made
//! for one rig (`mixamorig:Hips.quaternion`) binds to another (`Hips.quaternion`).
//!
//! The pattern is matched against each whole track name and every match is replaced, with
//! `$1` / `${name}` referring to capture groups (the `regex` crate's syntax). A preview lists
//! what would change without changing anything; both run once over the tracks.

use regex::Regex;

use crate::model::Clip;

/// One track a rename changes: its index, old name and new name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rename {
    /// Track index in the clip.
    pub track: usize,
    /// The name before.
    pub from: String,
    /// The name after.
    pub to: String,
}

/// The tracks of `clip` whose names `pattern` → `replacement` changes, in track order.
pub fn preview_renames(clip: &Clip, pattern: &Regex, replacement: &str) -> Vec<Rename> {
    clip.tracks
        .iter()
        .enumerate()
        .filter_map(|(track, t)| {
            let to = pattern.replace_all(&t.name, replacement);
            (to != t.name).then(|| Rename {
                track,
                from: t.name.clone(),
                to: to.into_owned(),
            })
        })
        .collect()
}

impl Clip {
    /// Renames the tracks `pattern` matches (see the module docs); returns how many changed.
    pub fn rename_tracks(&mut self, pattern: &Regex, replacement: &str) -> usize {
        let renames = preview_renames(self, pattern, replacement);
        for r in &renames {
            self.tracks[r.track].name = r.to.clone();
        }
        renames.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Track, TrackKind};

    fn clip() -> Clip {
        let t = |name: &str| Track::numeric(name, TrackKind::Number, vec![0.0], vec![0.0]);
        Clip::new(
            "c",
            1.0,
            vec![
                t("mixamorig:Hips.position"),
                t("mixamorig:LeftArm.quaternion"),
                t("Camera.fov"),
            ],
        )
    }

    #[test]
    fn a_prefix_is_removed_and_others_are_untouched() {
        let mut c = clip();
        let re = Regex::new("^mixamorig:").unwrap();
        let preview = preview_renames(&c, &re, "");
        assert_eq!(
            preview,
            vec![
                Rename {
                    track: 0,
                    from: "mixamorig:Hips.position".into(),
                    to: "Hips.position".into()
                },
                Rename {
                    track: 1,
                    from: "mixamorig:LeftArm.quaternion".into(),
                    to: "LeftArm.quaternion".into()
                },
            ]
        );
        assert_eq!(
            c.tracks[0].name, "mixamorig:Hips.position",
            "preview changes nothing"
        );
        assert_eq!(c.rename_tracks(&re, ""), 2);
        let names: Vec<&str> = c.tracks.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["Hips.position", "LeftArm.quaternion", "Camera.fov"]);
    }

    #[test]
    fn capture_groups_are_replaced() {
        let mut c = clip();
        let re = Regex::new(r"^mixamorig:(Left|Right)(\w+)").unwrap();
        assert_eq!(c.rename_tracks(&re, "${2}_$1"), 1);
        assert_eq!(c.tracks[1].name, "Arm_Left.quaternion");
    }
}
