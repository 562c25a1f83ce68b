//! Track-name grammar (three.js `PropertyBinding.parseTrackName`).
