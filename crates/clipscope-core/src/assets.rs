//! Built-in content made by the project itself (the demo clips the editor opens with).

/// The demo clips (`walk` and `idle` for the Hero cube character), three.js JSON.
pub const DEMO_CLIPS: &[u8] = include_bytes!("../../../assets/demo/walk.json");

/// The file name the demo is shown under.
pub const DEMO_NAME: &str = "demo/walk.json";
