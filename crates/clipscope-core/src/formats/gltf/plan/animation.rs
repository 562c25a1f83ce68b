//! One glTF animation per clip: a channel per track in track order, the morph tracks of a
//! node joined into its one `weights` channel (where the node's first morph track was), a
//! `KHR_animation_pointer` channel per pointer track, and the notes on what the clip loses
//! (its duration past the last key, additive blending, unknown fields).

use std::collections::HashSet;

use rayon::prelude::*;
use serde_json::Value;

use super::super::target::Property;
use super::super::weights::{Input, merge};
use super::{AnimationPlan, ChannelPlan, NodePlan, Plan, Resolved, track_note};
use crate::formats::sampler_keys::{Keys, Sampling, convert};
use crate::model::{BlendMode, Clip, Track};

/// The channels of one clip's animation while they are planned.
struct Channels<'c> {
    /// The clip.
    clip: &'c Clip,
    /// The channels so far (a morph channel is a slot until its inputs are joined).
    list: Vec<ChannelPlan>,
    /// Morph inputs per node, in order of first appearance: the node, its channel slot and
    /// the inputs.
    morph: Vec<(usize, usize, Vec<Input<'c>>)>,
    /// The node properties that have a channel.
    seen: HashSet<(usize, &'static str)>,
    /// The pointers that have a channel.
    pointers: HashSet<&'c str>,
}

impl<'c> Channels<'c> {
    /// The channel of pointer track `track` (noted as lost when the file written is not the
    /// one the pointer names something in); a second track for one pointer is an error.
    fn pointer(&mut self, track: &'c Track, p: &'c str, write_back: bool, out: &mut Plan) {
        let clip = self.clip;
        if !self.pointers.insert(p) {
            out.errors.push(track_note(
                clip,
                track,
                &format!("a second track for pointer {p}"),
            ));
            return;
        }
        let (keys, notes) = convert(track, false);
        for n in notes {
            out.notes.push(track_note(clip, track, &n));
        }
        if !write_back {
            out.notes.push(track_note(
                clip,
                track,
                &format!(
                    "what its pointer names ({p} is written as a KHR_animation_pointer \
                     channel, but the file written has no such object)"
                ),
            ));
        }
        self.list.push(ChannelPlan {
            node: None,
            path: "pointer",
            pointer: Some(p.to_string()),
            keys,
        });
    }

    /// Adds morph track `track` of `node` as an input of the node's weights channel (whose
    /// slot the node's first morph track makes): one target (`Weight`) or all (`Weights`).
    fn morph(
        &mut self,
        track: &'c Track,
        node: usize,
        property: &Property,
        keys: Keys,
        nodes: &[NodePlan],
        out: &mut Plan,
    ) {
        let clip = self.clip;
        let Some(plan) = &nodes[node].morph else {
            return; // already an error
        };
        let target = match property {
            Property::Weight(k) => match plan.resolve(k) {
                Some(j) => Some(j),
                None => {
                    out.errors.push(track_note(
                        clip,
                        track,
                        &format!(
                            "node '{}' has no morph target '{k}' (it has {})",
                            nodes[node].name,
                            plan.names.join(", ")
                        ),
                    ));
                    return;
                }
            },
            _ => {
                if track.value_size() != plan.names.len() {
                    out.errors.push(track_note(
                        clip,
                        track,
                        &format!(
                            "{} weights per key for {} morph targets",
                            track.value_size(),
                            plan.names.len()
                        ),
                    ));
                    return;
                }
                None
            }
        };
        let input = Input {
            target,
            track,
            keys,
        };
        match self.morph.iter_mut().find(|m| m.0 == node) {
            Some(m) => m.2.push(input),
            None => {
                self.morph.push((node, self.list.len(), vec![input]));
                // A slot, filled once all of the node's morph tracks are known.
                self.list.push(ChannelPlan {
                    node: Some(node),
                    path: "weights",
                    pointer: None,
                    keys: Keys {
                        sampling: Sampling::Linear,
                        times: Vec::new(),
                        values: Vec::new(),
                        tangents: None,
                        width: 0,
                    },
                });
            }
        }
    }

    /// The channel of a translation, rotation or scale track of `node`; a second track for one
    /// node property is an error.
    fn transform(
        &mut self,
        track: &Track,
        node: usize,
        path: &'static str,
        keys: Keys,
        nodes: &[NodePlan],
        out: &mut Plan,
    ) {
        if !self.seen.insert((node, path)) {
            out.errors.push(track_note(
                self.clip,
                track,
                &format!(
                    "a second track for the {path} of node '{}'",
                    nodes[node].name
                ),
            ));
            return;
        }
        self.list.push(ChannelPlan {
            node: Some(node),
            path,
            pointer: None,
            keys,
        });
    }

    /// The channels with every node's morph inputs joined into its weights channel; a node
    /// whose inputs cannot share one channel loses it (an error).
    fn finish(self, nodes: &[NodePlan], out: &mut Plan) -> Vec<ChannelPlan> {
        let Channels {
            clip,
            mut list,
            morph,
            ..
        } = self;
        let mut dropped = Vec::new();
        for (node, slot, inputs) in morph {
            let defaults = nodes[node]
                .morph
                .as_ref()
                .map(|m| m.defaults.clone())
                .unwrap_or_default();
            match merge(inputs, &defaults) {
                Ok((keys, notes)) => {
                    for n in notes {
                        out.notes.push(format!(
                            "clip '{}' node '{}': {n}",
                            clip.name, nodes[node].name
                        ));
                    }
                    list[slot].keys = keys;
                }
                Err(why) => {
                    out.errors.push(format!(
                        "clip '{}' node '{}': {why}",
                        clip.name, nodes[node].name
                    ));
                    dropped.push(slot);
                }
            }
        }
        list.into_iter()
            .enumerate()
            .filter(|(i, _)| !dropped.contains(i))
            .map(|(_, c)| c)
            .collect()
    }
}

/// The animation for `clip`, whose tracks go where `targets` says, or `None` (with a note)
/// when none of its tracks can be written. With `write_back` the file written is the one the
/// clip was read from, which keeps the clip's other fields.
pub(super) fn plan_animation(
    clip: &Clip,
    targets: &[Option<Resolved>],
    nodes: &[NodePlan],
    write_back: bool,
    out: &mut Plan,
) -> Option<AnimationPlan> {
    let mut channels = Channels {
        clip,
        list: Vec::new(),
        morph: Vec::new(),
        seen: HashSet::new(),
        pointers: HashSet::new(),
    };
    // The node channels' keys converted on the worker threads (a pass over every value).
    let converted: Vec<Option<(Keys, Vec<String>)>> = clip
        .tracks
        .par_iter()
        .zip(targets)
        .map(|(track, resolved)| match resolved {
            Some((Some(_), property)) if !matches!(property, Property::Pointer(_)) => {
                Some(convert(track, *property == Property::Rotation))
            }
            _ => None,
        })
        .collect();
    for ((track, resolved), converted) in clip.tracks.iter().zip(targets).zip(converted) {
        let Some((node, property)) = resolved else {
            continue;
        };
        if let Property::Pointer(p) = property {
            channels.pointer(track, p, write_back, out);
            continue;
        }
        let (Some(node), Some((keys, notes))) = (*node, converted) else {
            continue;
        };
        for n in notes {
            out.notes.push(track_note(clip, track, &n));
        }
        match property {
            Property::Weight(_) | Property::Weights => {
                channels.morph(track, node, property, keys, nodes, out)
            }
            _ => channels.transform(track, node, property.path(), keys, nodes, out),
        }
    }
    let channels = channels.finish(nodes, out);
    if channels.is_empty() {
        out.notes.push(format!(
            "clip '{}' (no track glTF can hold, and a glTF animation needs at least one \
             channel)",
            clip.name
        ));
        return None;
    }
    clip_notes(clip, &channels, out);
    let extras = match clip.user_data_with_layers().as_ref() {
        Value::Object(o) if o.is_empty() => None,
        Value::Null => None,
        other => Some(other.clone()),
    };
    let mut fields = Vec::new();
    if write_back {
        for (k, raw) in &clip.extras.0 {
            if let Ok(v) = serde_json::from_str(raw.get()) {
                fields.push((k.clone(), v));
            }
        }
    } else if !clip.extras.is_empty() {
        let names: Vec<&str> = clip.extras.0.iter().map(|(k, _)| k.as_str()).collect();
        out.notes.push(format!(
            "clip '{}': its fields {}",
            clip.name,
            names.join(", ")
        ));
    }
    Some(AnimationPlan {
        name: clip.name.clone(),
        channels,
        extras,
        fields,
    })
}

/// The notes on what the animation of `clip` (with `channels`) loses: a duration other than
/// its last key's time, additive blending, and the tracks' unknown fields.
fn clip_notes(clip: &Clip, channels: &[ChannelPlan], out: &mut Plan) {
    let end = channels
        .iter()
        .filter_map(|c| c.keys.times.last())
        .fold(0.0f64, |a, &t| a.max(t as f64));
    if (clip.duration - end).abs() > 1e-6 {
        out.notes.push(format!(
            "clip '{}': its duration of {} s (glTF animations last until their last key, \
             {end} s)",
            clip.name, clip.duration
        ));
    }
    if clip.blend_mode == BlendMode::Additive {
        out.notes.push(format!(
            "clip '{}': additive blending (glTF has no blend mode; it reads back as normal)",
            clip.name
        ));
    }
    for track in &clip.tracks {
        if !track.extras.is_empty() {
            let names: Vec<&str> = track.extras.0.iter().map(|(k, _)| k.as_str()).collect();
            out.notes.push(track_note(
                clip,
                track,
                &format!("its fields {}", names.join(", ")),
            ));
        }
    }
}
