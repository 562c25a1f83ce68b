//! PlayCanvas animation JSON (the legacy `animation` asset of the Animation component), versions
//! 3 and 4: `{"animation": {"version", "name", "duration", "nodes": [{"name", "defaults",
//! "keys": [{"t", "p", "r", "s"}]}]}}`, positions and scales raw, rotations in Euler degrees.
//!
//! Split like the other formats: [`schema`] mirrors the file and detects it, [`read`] converts
//! it with the engine's parser rules (each node gives `NODE.position`, `NODE.quaternion` and
//! `NODE.scale` tracks), the shared [`euler`](crate::formats::euler) converts rotations exactly
//! like the engine's `Quat.setFromEulerAngles` / `getEulerAngles`, [`nodes`] turns tracks back
//! into nodes (baking what keys cannot carry), [`write`](mod@write) writes version 4, and
//! [`layout`] keeps what the model does not hold, so an unmodified file is written back byte for
//! byte. [`codec`] is its entry in the format registry; [`lint`] holds its raw-file rule and
//! [`rules`] the rule's registry entry.
//!
//! Playback: the engine's `Skeleton` lerps positions and scales and slerps rotations between the
//! two keys around the time (spec B5), which is three.js's linear interpolation, slerp included.
//! Two corners differ: for keys less than about 0.11° apart the engine takes the plain average
//! of the two quaternions whatever the time (three.js lerps and normalizes), and outside the
//! keys the engine leaves the node alone where three.js holds the first/last key. Both are far
//! below what a viewer shows, so the tracks are plain linear three.js tracks.

pub(crate) mod codec;
pub(crate) mod layout;
pub(crate) mod lint;
pub(crate) mod nodes;
pub(crate) mod read;
pub(crate) mod rules;
pub(crate) mod schema;
pub(crate) mod write;

pub(crate) use codec::CODEC;
pub(crate) use layout::PlayCanvasLayout;
pub(crate) use rules::RULES;
