//! Markers: named times on a clip (a footfall, a contact, the start of a loop).
//!
//! A clip's markers live in its user data, as three.js keeps such things: `userData.markers`, an
//! array of `{"name": "…", "time": seconds}`, so a three.js file keeps them through a round
//! trip with no format logic here; the Lottie reader fills them from the composition's
//! `markers` and writes them back there. Entries of that array clipscope does not understand (not an
//! object with a string name and a finite time) are never dropped: [`Clip::set_markers`] writes
//! them back after the markers it manages, and [`Clip::unread_markers`] counts them.

use serde_json::{Value, json};

use crate::model::Clip;

use super::OpError;

/// One named time.
#[derive(Debug, Clone, PartialEq)]
pub struct Marker {
    /// What the marker says.
    pub name: String,
    /// Where it is (seconds).
    pub time: f64,
}

/// The marker an entry of `userData.markers` holds, if it is one.
fn marker(entry: &Value) -> Option<Marker> {
    let name = entry.get("name")?.as_str()?;
    let time = entry.get("time")?.as_f64().filter(|t| t.is_finite())?;
    Some(Marker {
        name: name.to_string(),
        time,
    })
}

impl Clip {
    /// The clip's markers, by time (see the module docs).
    pub fn markers(&self) -> Vec<Marker> {
        let mut out: Vec<Marker> = match self.user_data.get("markers") {
            Some(Value::Array(list)) => list.iter().filter_map(marker).collect(),
            _ => Vec::new(),
        };
        out.sort_by(|a, b| a.time.total_cmp(&b.time));
        out
    }

    /// How many entries of `userData.markers` are not markers clipscope understands.
    pub fn unread_markers(&self) -> usize {
        match self.user_data.get("markers") {
            Some(Value::Array(list)) => list.iter().filter(|e| marker(e).is_none()).count(),
            Some(_) => 1,
            None => 0,
        }
    }

    /// Replaces the clip's markers (sorted by time), keeping the entries not understood after
    /// them; no markers and nothing else removes `userData.markers`. User data that is not a
    /// JSON object cannot hold markers: an error, nothing changes.
    pub fn set_markers(&mut self, markers: &[Marker]) -> Result<(), OpError> {
        let Value::Object(data) = &mut self.user_data else {
            return Err(OpError::MarkersNeedObject);
        };
        let kept: Vec<Value> = match data.get("markers") {
            Some(Value::Array(list)) => list
                .iter()
                .filter(|e| marker(e).is_none())
                .cloned()
                .collect(),
            Some(other) => vec![other.clone()],
            None => Vec::new(),
        };
        let mut sorted = markers.to_vec();
        sorted.sort_by(|a, b| a.time.total_cmp(&b.time));
        let mut list: Vec<Value> = sorted
            .iter()
            .filter(|m| m.time.is_finite())
            .map(|m| json!({ "name": m.name, "time": m.time }))
            .collect();
        list.extend(kept);
        if list.is_empty() {
            data.remove("markers");
        } else {
            data.insert("markers".into(), Value::Array(list));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markers_round_trip_through_user_data_and_unknown_entries_stay() {
        let mut c = Clip::new("walk", 1.0, Vec::new());
        assert!(c.markers().is_empty());
        c.user_data = json!({ "markers": [{"name": "odd", "frame": 3}], "other": 1 });
        assert_eq!(c.unread_markers(), 1);
        let m = |name: &str, time: f64| Marker {
            name: name.into(),
            time,
        };
        c.set_markers(&[m("right foot", 0.5), m("left foot", 0.0)])
            .unwrap();
        assert_eq!(c.markers(), [m("left foot", 0.0), m("right foot", 0.5)]);
        assert_eq!(
            c.user_data,
            json!({"markers": [
                {"name": "left foot", "time": 0.0},
                {"name": "right foot", "time": 0.5},
                {"name": "odd", "frame": 3}], "other": 1})
        );
        c.user_data = json!({ "markers": [{"name": "a", "time": 1.0}] });
        c.set_markers(&[]).unwrap();
        assert_eq!(c.user_data, json!({}));
        c.user_data = json!("text");
        assert!(c.set_markers(&[m("x", 0.0)]).is_err());
    }
}
