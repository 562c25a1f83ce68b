//! The facts about a format that decide which clip rules say something about its files.
//!
//! A clip rule (one of the model's checks, run on the clips any reader produces) is written for
//! three.js's conventions; where a format defines otherwise the rule stays off. Instead of lists
//! of formats, each rule names the [`Property`] it needs (or the ones that rule it out, see
//! [`Applies`](super::rule::Applies)) and each registry entry lists the properties its format has
//! ([`FormatSpec::properties`](super::FormatSpec::properties)), so a new format gets the right
//! rules from its entry alone.

/// One fact about a format that clip rules depend on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Property {
    /// The clip's keys are the file's keys, one for one (three.js clip JSON, glTF samplers,
    /// PlayCanvas anim curves). Elsewhere a reader derives keys (Lottie bakes motion paths and
    /// writes hold keyframes as two keys; legacy three.js and PlayCanvas animation files key
    /// every channel of a node at once and fill channels from `defaults`), so advice about single
    /// keys says nothing about the file.
    KeysExact,
    /// The format's own raw-file rules check its keys (their order, negative times, quaternion
    /// length, one channel per target: glTF's sampler rules), so the model's rules about the same
    /// things stand aside in its files; they still run where the raw-file rules cannot (a
    /// document checked in memory, see `Rule::replaced_by`).
    ChecksOwnKeys,
    /// Keys sit on layers with in and out points of their own (Lottie): keys before time 0 or
    /// past the composition's end are normal, a composition outlasts its last key while the
    /// layers hold, and hold keyframes are read as two keys at one time.
    LayerTimeline,
    /// The file names its tracks in three.js's track-name grammar (`node.property`); other
    /// formats' track names are made by their readers (glTF pointers and PlayCanvas paths are
    /// kept as written).
    ThreeJsTrackNames,
}
