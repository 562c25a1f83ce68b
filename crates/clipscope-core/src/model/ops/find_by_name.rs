//! `findByName`: look a clip up by its exact name.

use crate::model::Clip;

/// The first clip whose name equals `name` exactly (three.js `AnimationClip.findByName` on an
/// array), or `None`.
pub fn find_by_name<'a>(clips: &'a [Clip], name: &str) -> Option<&'a Clip> {
    clips.iter().find(|clip| clip.name == name)
}

#[cfg(test)]
mod tests {
    use super::find_by_name;
    use crate::model::Clip;

    #[test]
    fn finds_the_first_exact_match() {
        let clips = vec![
            Clip::new("walk", 1.0, vec![]),
            Clip::new("run", 2.0, vec![]),
            Clip::new("run", 3.0, vec![]),
        ];
        assert_eq!(find_by_name(&clips, "run").map(|c| c.duration), Some(2.0));
        assert!(find_by_name(&clips, "Run").is_none());
        assert!(find_by_name(&clips, "").is_none());
        assert!(find_by_name(&[], "walk").is_none());
    }
}
