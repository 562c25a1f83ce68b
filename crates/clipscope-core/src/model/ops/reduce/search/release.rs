//! Letting go of what only fitting reads once a try is chosen, and making it again for the
//! next search: each channel's key values and its channels on the other grids are megabytes
//! on a long take, which writing the file can reuse, while measuring the written file needs
//! only the reference and the chosen try.

use rayon::prelude::*;

use super::WorldSearch;
use crate::model::Clip;

impl WorldSearch<'_> {
    /// Lets go of what only fitting reads: each channel's key values and its variants on the
    /// other grids (on the 10-minute take 11 MB, which the file's writing can then reuse).
    /// Measuring needs neither; [`WorldSearch::restore`] makes them again for a search.
    pub fn release_fits(&mut self) {
        for c in &mut self.channels {
            c.release_values();
        }
        for v in &mut self.variants {
            v.release_grids();
        }
    }

    /// Each channel's key values again where [`WorldSearch::release_fits`] let them go
    /// (`clip`: the clip the search was made of).
    pub fn restore(&mut self, clip: &Clip) {
        self.channels
            .par_iter_mut()
            .zip(&self.tracks)
            .for_each(|(c, &i)| c.restore_values(&clip.tracks[i]));
    }
}
