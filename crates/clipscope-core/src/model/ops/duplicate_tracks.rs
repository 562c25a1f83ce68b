//! Track duplicate and mute, the editor's track operations: [`Clip::duplicate_tracks`] and
//! [`Clip::set_tracks_muted`].

use std::collections::HashSet;

use crate::model::Clip;

impl Clip {
    /// Appends a copy of each of `tracks` (indices, in the given order; repeats and indices
    /// past the end are skipped) named `<name> copy` (`<name> copy 2`, … when taken), keys,
    /// handles, extras and mute included. Returns the copies' indices. A copy's name binds to
    /// no property, so it plays nothing until renamed: nothing animates twice.
    pub fn duplicate_tracks(&mut self, tracks: &[usize]) -> Vec<usize> {
        let mut names: HashSet<String> = self.tracks.iter().map(|t| t.name.clone()).collect();
        let mut seen = HashSet::new();
        let mut added = Vec::new();
        for &t in tracks {
            if t >= self.tracks.len() || !seen.insert(t) {
                continue;
            }
            let mut copy = self.tracks[t].clone();
            let base = format!("{} copy", copy.name);
            let mut name = base.clone();
            let mut n = 2;
            while names.contains(&name) {
                name = format!("{base} {n}");
                n += 1;
            }
            names.insert(name.clone());
            copy.name = name;
            added.push(self.tracks.len());
            self.tracks.push(copy);
        }
        added
    }

    /// Mutes or unmutes `tracks` (indices past the end are skipped); returns how many changed.
    pub fn set_tracks_muted(&mut self, tracks: &[usize], muted: bool) -> usize {
        let mut changed = 0;
        for &t in tracks {
            if let Some(track) = self.tracks.get_mut(t)
                && track.muted != muted
            {
                track.muted = muted;
                changed += 1;
            }
        }
        changed
    }
}

#[cfg(test)]
mod tests {
    use crate::model::{Clip, Track, TrackKind};

    fn clip() -> Clip {
        Clip::new(
            "walk",
            1.0,
            vec![
                Track::numeric(
                    "a.position",
                    TrackKind::Vector,
                    vec![0.0, 1.0],
                    vec![0.0; 6],
                ),
                Track::numeric("a.position copy", TrackKind::Number, vec![0.5], vec![2.0]),
                Track::numeric("b.scale", TrackKind::Vector, vec![0.0], vec![1.0, 2.0, 3.0]),
            ],
        )
    }

    #[test]
    fn copies_are_appended_with_free_names_and_the_same_keys() {
        let mut c = clip();
        c.tracks[2].muted = true;
        assert_eq!(c.duplicate_tracks(&[0, 2, 0, 7]), vec![3, 4]);
        let names: Vec<&str> = c.tracks.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "a.position",
                "a.position copy",
                "b.scale",
                "a.position copy 2",
                "b.scale copy"
            ]
        );
        assert_eq!(c.tracks[3].times, vec![0.0, 1.0]);
        assert_eq!(c.tracks[3].values, c.tracks[0].values);
        assert_eq!(c.tracks[4].values.as_numbers(), Some(&[1.0, 2.0, 3.0][..]));
        assert!(c.tracks[4].muted);
    }

    #[test]
    fn muting_counts_what_changed() {
        let mut c = clip();
        assert_eq!(c.set_tracks_muted(&[0, 2, 9], true), 2);
        assert_eq!(c.set_tracks_muted(&[0, 1], true), 1);
        let muted: Vec<bool> = c.tracks.iter().map(|t| t.muted).collect();
        assert_eq!(muted, [true, true, true]);
        assert_eq!(c.set_tracks_muted(&[1], false), 1);
        assert!(!c.tracks[1].muted);
    }
}
