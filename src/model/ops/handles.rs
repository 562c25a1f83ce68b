//! Placeholder until the handle operations land.

/// Which handle of a bezier key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum HandleSide {
    /// The incoming handle (before the key).
    In,
    /// The outgoing handle (after the key).
    Out,
}

use crate::model::{Interpolation, TangentMode, Track};

#[allow(missing_docs, unused_variables)]
impl Track {
    pub fn time_move_limits(&self, keys: &[usize]) -> (f64, f64) {
        (0.0, 0.0)
    }
    pub fn move_keys(&mut self, keys: &[usize], dt: f64) {}
    pub fn offset_values(&mut self, items: &[(usize, usize)], dv: f64) {}
    pub fn delete_keys(&mut self, keys: &[usize]) {}
    pub fn insert_key(&mut self, time: f64) -> usize {
        0
    }
    pub fn set_key(&mut self, key: usize, time: Option<f64>, component: Option<(usize, f64)>) {}
    pub fn set_tangent_mode(&mut self, key: usize, mode: TangentMode) {}
    pub fn refresh_auto_handles(&mut self) {}
    pub fn set_handle(
        &mut self,
        key: usize,
        component: usize,
        side: HandleSide,
        time: f64,
        value: f64,
        break_handles: bool,
    ) {
    }
    pub fn convert_interpolation(&mut self, to: Interpolation) -> Result<(), String> {
        self.set_interpolation(to)
    }
}
