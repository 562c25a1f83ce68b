//! Handle types of bezier keys, like Blender's: how a key's in and out handles are computed.

/// How the handles of one bezier key behave when keys or handles move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum TangentMode {
    /// Automatic, smooth, flat at extrema and never overshooting the neighbouring keys.
    AutoClamped,
    /// Automatic, smooth (slope from the neighbouring keys).
    Auto,
    /// Each handle points at the neighbouring key (straight segments between vector keys).
    Vector,
    /// In and out handles stay collinear; their lengths are independent.
    Aligned,
    /// In and out handles move independently.
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

    /// The name shown in menus and reports.
    pub fn name(self) -> &'static str {
        match self {
            TangentMode::AutoClamped => "auto-clamped",
            TangentMode::Auto => "auto",
            TangentMode::Vector => "vector",
            TangentMode::Aligned => "aligned",
            TangentMode::Free => "free",
        }
    }
}
