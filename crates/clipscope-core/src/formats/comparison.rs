//! Comparing two versions of a file ([`crate::model::ops::diff`]) in each format's units: the
//! properties a format measures in units of its own (from [`FormatSpec::property_units`]:
//! Lottie's pixels, degrees and percent) and the length unit changes are reported in. The
//! command line, the git diff driver, the review page and the editor's compare view all build
//! their comparison here.

use super::{Document, FormatSpec, PropertyUnit};
use crate::model::Skeleton;
use crate::model::ops::diff::{Diff, DiffOptions, Measure, Skeletons, diff_clips};

impl FormatSpec {
    /// The options for comparing files of this format, `tolerance` being both the value noise
    /// (in the unit each change is reported in) and the key time noise (seconds).
    pub fn diff_options(&self, tolerance: f64) -> DiffOptions {
        DiffOptions {
            tolerance,
            time_tolerance: tolerance,
            property_measures: self
                .property_units
                .iter()
                .map(|&(property, unit)| {
                    let measure = match unit {
                        PropertyUnit::Length => Measure::Length,
                        PropertyUnit::Degrees => Measure::Degrees,
                        PropertyUnit::Percent => Measure::Percent,
                    };
                    (property.to_string(), measure)
                })
                .collect(),
        }
    }
}

/// What changed from `old` to `new` (two versions of a file, in the same format or not), with
/// `tolerance` as the noise (see [`FormatSpec::diff_options`]). Joints are measured through
/// `skeleton` when given, else through each document's own skeleton (a document without one
/// borrows the other's). Properties with units of their own are measured in the new version's
/// format's units, then the old one's.
pub fn diff_documents(
    old: &Document,
    new: &Document,
    skeleton: Option<&Skeleton>,
    tolerance: f64,
) -> Diff {
    let mut options = new.format.spec().diff_options(tolerance);
    for (property, measure) in old.format.spec().diff_options(tolerance).property_measures {
        if !options
            .property_measures
            .iter()
            .any(|(p, _)| *p == property)
        {
            options.property_measures.push((property, measure));
        }
    }
    let skeletons = match skeleton {
        Some(s) => Skeletons {
            old: Some(s),
            new: Some(s),
        },
        None => Skeletons {
            old: old.skeleton.as_ref(),
            new: new.skeleton.as_ref(),
        },
    };
    let mut diff = diff_clips(&old.clips, &new.clips, skeletons, &options);
    diff.set_length_unit(new.format.spec().length_symbol());
    diff
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::Format;

    #[test]
    fn lottie_measures_its_own_units() {
        let o = Format::Lottie.spec().diff_options(0.5);
        assert!(
            o.property_measures
                .contains(&("rotation".into(), Measure::Degrees))
        );
        assert!(
            o.property_measures
                .contains(&("position".into(), Measure::Length))
        );
        assert_eq!((o.tolerance, o.time_tolerance), (0.5, 0.5));
        assert!(
            Format::Glb
                .spec()
                .diff_options(0.0)
                .property_measures
                .is_empty()
        );
    }
}
