//! Which of a key's two bezier handles is meant.

/// The incoming (left) or outgoing (right) handle of a bezier key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum HandleSide {
    /// The handle before the key, shaping the segment that ends at it (`inTangents`).
    In,
    /// The handle after the key, shaping the segment that starts at it (`outTangents`).
    Out,
}

impl HandleSide {
    /// The other handle of the same key.
    pub fn opposite(self) -> HandleSide {
        match self {
            HandleSide::In => HandleSide::Out,
            HandleSide::Out => HandleSide::In,
        }
    }
}
