//! What a lossy reduction ([`crate::model::ops::reduce`]) may do in a file of each format: the
//! curves it may fit (from [`FormatSpec::curves`]), the unit its budget is in (from
//! [`FormatSpec::length_unit`]) and the tolerances of properties with units of their own
//! (from [`FormatSpec::property_units`]). The command line and the editor both build their
//! options here.

use super::{Curves, FormatSpec, LengthUnit, PropertyUnit};
use crate::model::ops::reduce::{CurveFit, Metric, PropertyTolerance, ReduceOptions};

/// What the user allows a reduction to change.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Budget {
    /// The largest distance a joint or one of its axis points may move, in the file's length
    /// unit (metres for glTF, pixels for Lottie).
    pub max_error: f64,
    /// The largest angle a joint's world rotation may turn, in degrees.
    pub max_angle_deg: Option<f64>,
    /// Metres per length unit of formats that do not say their unit (three.js, PlayCanvas,
    /// legacy three.js): where the 3 cm axis points sit.
    pub metres_per_unit: f64,
    /// The largest change of a morph target weight.
    pub weight_error: f64,
    /// The largest change of any other number.
    pub number_error: f64,
    /// The largest change of an angle measured in degrees (Lottie's rotations).
    pub degree_error: f64,
    /// The largest change of a percentage (Lottie's scale and opacity).
    pub percent_error: f64,
    /// Straight segments only, even where the format holds curves.
    pub linear: bool,
}

impl Default for Budget {
    fn default() -> Budget {
        Budget {
            max_error: 0.01,
            max_angle_deg: None,
            metres_per_unit: 1.0,
            weight_error: 0.001,
            number_error: 0.001,
            degree_error: 0.1,
            percent_error: 0.5,
            linear: false,
        }
    }
}

impl FormatSpec {
    /// The reduction options for a file of this format within `budget`.
    pub fn reduce_options(&self, budget: &Budget) -> ReduceOptions {
        let curves = match (budget.linear, self.curves) {
            (true, _) | (_, Curves::Linear) => CurveFit::Linear,
            (false, Curves::Bezier | Curves::UnitHermite) => CurveFit::Cubic {
                flat_where_level: false,
            },
            (false, Curves::Eased) => CurveFit::Cubic {
                flat_where_level: true,
            },
        };
        let axis_length = match self.length_unit {
            LengthUnit::Metre => 0.03,
            // Pixels have no metres: 3 px.
            LengthUnit::Pixel => 3.0,
            LengthUnit::Unspecified => 0.03 / budget.metres_per_unit,
        };
        ReduceOptions {
            keep_headings: false,
            unit_rotations: self.curves == Curves::UnitHermite,
            max_error: budget.max_error,
            max_angle: budget.max_angle_deg.map(f64::to_radians),
            axis_length,
            curves,
            weight_error: budget.weight_error,
            number_error: budget.number_error,
            property_errors: self
                .property_units
                .iter()
                .map(|&(property, unit)| {
                    let (tolerance, metric) = match unit {
                        PropertyUnit::Length => (budget.max_error, Metric::Translation),
                        PropertyUnit::Degrees => (budget.degree_error, Metric::Absolute),
                        PropertyUnit::Percent => (budget.percent_error, Metric::Absolute),
                    };
                    PropertyTolerance {
                        property: property.to_string(),
                        tolerance,
                        metric,
                    }
                })
                .collect(),
            trace: Default::default(),
            shown: None,
            key_grid: None,
            stored: None,
        }
    }

    /// The symbol of the unit a budget for this format is in (`m`, `px`, or `unit` when the
    /// format does not say and the caller has not either).
    pub fn length_symbol(&self) -> &'static str {
        match self.length_unit {
            LengthUnit::Metre => "m",
            LengthUnit::Pixel => "px",
            LengthUnit::Unspecified => "units",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::Format;

    #[test]
    fn options_follow_the_format() {
        let budget = Budget::default();
        let gltf = Format::Glb.spec().reduce_options(&budget);
        assert_eq!(gltf.axis_length, 0.03);
        assert!(matches!(
            gltf.curves,
            CurveFit::Cubic {
                flat_where_level: false
            }
        ));
        let lottie = Format::Lottie.spec().reduce_options(&budget);
        assert!(matches!(
            lottie.curves,
            CurveFit::Cubic {
                flat_where_level: true
            }
        ));
        assert!(lottie.property_errors.contains(&PropertyTolerance {
            property: "rotation".into(),
            tolerance: 0.1,
            metric: Metric::Absolute,
        }));
        assert!(lottie.property_errors.contains(&PropertyTolerance {
            property: "position".into(),
            tolerance: 0.01,
            metric: Metric::Translation,
        }));
        let pc = Format::PlayCanvas.spec().reduce_options(&Budget {
            metres_per_unit: 0.01,
            ..budget
        });
        assert_eq!(pc.curves, CurveFit::Linear);
        assert!((pc.axis_length - 3.0).abs() < 1e-12);
        let linear = Format::ThreeJs.spec().reduce_options(&Budget {
            linear: true,
            ..budget
        });
        assert_eq!(linear.curves, CurveFit::Linear);
    }
}
