//! How the file being written stores a track ([`Stored`]): the format's rounding of key times
//! and values, which the reducer passes every fitted track through so that what it measures
//! is what the file plays. The model knows no format: the writer's side supplies the rounding,
//! and says when it rounds each key on its own, so that a track given a few new keys (a mend)
//! rounds only those.

use std::sync::Arc;

use crate::model::{Track, Values};

/// A track as the file being written stores it: a function that rounds a track's times and
/// values as the writer and a reader will (see
/// [`ReduceOptions::stored`](super::ReduceOptions::stored)), and one that says of a track
/// whether that rounding is key by key.
#[derive(Clone)]
pub struct Stored {
    /// Rounds a whole track.
    round: Arc<dyn Fn(&mut Track) + Send + Sync>,
    /// Whether rounding a track leaves its times as they are and rounds each key's values
    /// from that key's values alone.
    key_by_key: Arc<dyn Fn(&Track) -> bool + Send + Sync>,
}

impl Stored {
    /// The storage `round` describes (a rounding of the whole track at once).
    pub fn new(round: impl Fn(&mut Track) + Send + Sync + 'static) -> Stored {
        Stored {
            round: Arc::new(round),
            key_by_key: Arc::new(|_| false),
        }
    }

    /// This storage, saying of the tracks `key_by_key` holds for that their rounding keeps
    /// their times and rounds each key's values from them alone (quantized rotations, say).
    pub fn with_key_by_key(
        self,
        key_by_key: impl Fn(&Track) -> bool + Send + Sync + 'static,
    ) -> Stored {
        Stored {
            key_by_key: Arc::new(key_by_key),
            ..self
        }
    }

    /// Rounds `track` as the file stores it.
    pub fn apply(&self, track: &mut Track) {
        (self.round)(track)
    }

    /// Rounds `track`, stored already but for the keys at `new` (sorted indices), as the file
    /// stores it: only those keys where its rounding is key by key, else the whole track.
    pub fn apply_to_new(&self, track: &mut Track, new: &[usize]) {
        if !(self.key_by_key)(track) {
            return self.apply(track);
        }
        let vs = track.value_size();
        for &k in new {
            let Values::Numbers(values) = &track.values else {
                return;
            };
            let Some(value) = values.get(k * vs..(k + 1) * vs) else {
                continue;
            };
            let mut key = Track::new(
                track.name.clone(),
                track.kind,
                vec![track.times[k]],
                Values::Numbers(value.to_vec()),
            );
            key.interpolation = track.interpolation;
            self.apply(&mut key);
            if let (Values::Numbers(rounded), Values::Numbers(values)) =
                (&key.values, &mut track.values)
                && rounded.len() == vs
            {
                values[k * vs..(k + 1) * vs].copy_from_slice(rounded);
            }
        }
    }
}

impl std::fmt::Debug for Stored {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Stored(..)")
    }
}

impl PartialEq for Stored {
    fn eq(&self, other: &Stored) -> bool {
        Arc::ptr_eq(&self.round, &other.round)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::TrackKind;

    #[test]
    fn only_new_keys_are_rounded_where_rounding_is_key_by_key() {
        // Rounds each value to a tenth; key by key only for tracks named "k".
        let round = |t: &mut Track| {
            if let Values::Numbers(v) = &mut t.values {
                v.iter_mut().for_each(|x| *x = (*x * 10.0).round() / 10.0);
            }
        };
        let stored = Stored::new(round).with_key_by_key(|t| t.name == "k");
        let track = |name: &str| {
            Track::numeric(
                name,
                TrackKind::Number,
                vec![0.0, 1.0, 2.0],
                vec![0.12, 0.5, 0.77],
            )
        };
        let mut keyed = track("k");
        stored.apply_to_new(&mut keyed, &[2]);
        assert_eq!(keyed.values.as_numbers().unwrap(), &[0.12, 0.5, 0.8]);
        // Not key by key: the whole track.
        let mut whole = track("w");
        stored.apply_to_new(&mut whole, &[2]);
        assert_eq!(whole.values.as_numbers().unwrap(), &[0.1, 0.5, 0.8]);
        // Indices past the end are left alone.
        let mut keyed = track("k");
        stored.apply_to_new(&mut keyed, &[7]);
        assert_eq!(keyed.values.as_numbers().unwrap(), &[0.12, 0.5, 0.77]);
    }
}
