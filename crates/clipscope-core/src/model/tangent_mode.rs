//! How a bezier key's handles are kept in shape (Blender's graph-editor handle types).
//!
//! Modes are editor state: three.js files carry only the handle points, so a track read from a
//! file has no modes and every key counts as [`TangentMode::Free`].

/// The handle type of one bezier key, as in Blender's graph editor.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum TangentMode {
    /// Automatic handles, flattened at local extrema and clamped so the curve does not
    /// overshoot the neighbouring key values.
    AutoClamped,
    /// Automatic smooth handles: the slope between the neighbouring keys, each handle a third of
    /// the adjacent interval long.
    Auto,
    /// Each handle points a third of the way to the neighbouring key (straight segments
    /// between vector keys).
    Vector,
    /// The in and out handles stay collinear; each keeps its own length.
    Aligned,
    /// The handles move independently and are never recomputed.
    #[default]
    Free,
}

impl TangentMode {
    /// Every mode, in menu order.
    pub const ALL: [TangentMode; 5] = [
        TangentMode::AutoClamped,
        TangentMode::Auto,
        TangentMode::Vector,
        TangentMode::Aligned,
        TangentMode::Free,
    ];

    /// A short lowercase name for menus and reports (`auto-clamped`, `auto`, `vector`,
    /// `aligned`, `free`).
    pub fn name(self) -> &'static str {
        match self {
            TangentMode::AutoClamped => "auto-clamped",
            TangentMode::Auto => "auto",
            TangentMode::Vector => "vector",
            TangentMode::Aligned => "aligned",
            TangentMode::Free => "free",
        }
    }

    /// True for the modes whose handles are recomputed from the keys (auto-clamped, auto and
    /// vector) by [`Track::refresh_auto_handles`](crate::model::Track::refresh_auto_handles).
    pub fn is_automatic(self) -> bool {
        matches!(
            self,
            TangentMode::AutoClamped | TangentMode::Auto | TangentMode::Vector
        )
    }
}

impl std::fmt::Display for TangentMode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::TangentMode;

    #[test]
    fn names_and_default() {
        let names: Vec<&str> = TangentMode::ALL.iter().map(|m| m.name()).collect();
        assert_eq!(names, ["auto-clamped", "auto", "vector", "aligned", "free"]);
        assert_eq!(TangentMode::default(), TangentMode::Free);
        assert!(TangentMode::Vector.is_automatic());
        assert!(!TangentMode::Aligned.is_automatic());
        assert_eq!(TangentMode::AutoClamped.to_string(), "auto-clamped");
    }
}
