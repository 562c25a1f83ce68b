//! The original pose a search measures every try against: what drives it (the channels'
//! samples, which the search keeps) and the [`Reference`] that poses it again beside each
//! candidate.

use super::{WorldSearch, inputs, interpolations};
use crate::model::Track;
use crate::model::ops::reduce::world::{NodeInput, Reference};

impl WorldSearch<'_> {
    /// What drives each node in the original: its channels' samples and its layers'
    /// headings.
    pub(super) fn original_inputs(&self) -> Vec<NodeInput<'_>> {
        let sampled: Vec<&[f32]> = self.channels.iter().map(|c| c.samples.as_slice()).collect();
        let kept: Vec<&Track> = self.kept.iter().map(|k| &**k).collect();
        inputs(
            &self.tree,
            &self.targets,
            &self.channels,
            &sampled,
            &interpolations(&kept),
            &self.headings,
            &self.original_headings,
        )
    }

    /// The original pose `original` drives ([`WorldSearch::original_inputs`]), to measure a
    /// candidate against.
    pub(super) fn reference<'r>(&'r self, original: &'r [NodeInput<'r>]) -> Reference<'r> {
        Reference {
            tree: &self.tree,
            inputs: original,
            times: &self.times,
        }
    }
}
