//! One channel's formula: a small arithmetic expression of the master phase `t` and the cycle's
//! parameters, parsed once by the `evalexpr` crate and evaluated for every sample.
//!
//! The language is deliberately small and safe: numbers, names, `+ - * / % ^`, comparisons,
//! `&& || !`, parentheses and the functions of [`FUNCTIONS`] (`sin`, `cos`, `max`, `min`,
//! `if(condition, then, else)` for the seed's `t < π` half-cycle switches, …). There is no
//! assignment, no sequencing, no text and no way to reach anything outside the formula: every
//! name must be `t`, `pi`, `tau` or a parameter of the cycle, and that is checked when the
//! formula is read. Every number is a float (`3/4` is 0.75), so formulas mean what they say.

use std::fmt;

use evalexpr::error::EvalexprResultValue;
use evalexpr::{
    Context, DefaultNumericTypes, EvalexprError, EvalexprResult, Node, Operator, Value,
};

/// The functions a formula may call, with their argument counts, for messages and docs.
pub const FUNCTIONS: &[(&str, &str)] = &[
    ("sin", "sin(x)"),
    ("cos", "cos(x)"),
    ("tan", "tan(x)"),
    ("asin", "asin(x)"),
    ("acos", "acos(x)"),
    ("atan", "atan(x)"),
    ("atan2", "atan2(y, x)"),
    ("abs", "abs(x)"),
    ("sqrt", "sqrt(x)"),
    ("exp", "exp(x)"),
    ("floor", "floor(x)"),
    ("ceil", "ceil(x)"),
    ("fract", "fract(x)"),
    ("sign", "sign(x)"),
    ("min", "min(a, b, …)"),
    ("max", "max(a, b, …)"),
    ("clamp", "clamp(x, lo, hi)"),
    ("mix", "mix(a, b, k)"),
    ("if", "if(condition, then, else)"),
];

/// The names every formula may use besides the cycle's parameters: the master phase and two
/// constants.
pub const BUILT_IN_NAMES: &[&str] = &["t", "pi", "tau"];

/// A parsed, checked formula.
#[derive(Debug, Clone)]
pub struct Expression {
    /// The formula as written.
    text: String,
    /// The parsed tree, every number a float.
    node: Node<DefaultNumericTypes>,
    /// For each name the formula reads, its index in the name list it was checked against.
    reads: Vec<usize>,
}

impl PartialEq for Expression {
    fn eq(&self, other: &Expression) -> bool {
        self.text == other.text
    }
}

/// Why a formula is refused, or failed to evaluate. Its [`Display`](fmt::Display) is one
/// sentence about the formula, quoting it.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum ExpressionError {
    /// The formula is empty.
    Empty,
    /// The formula is not an expression evalexpr reads.
    Syntax {
        /// The formula.
        text: String,
        /// What evalexpr said.
        source: EvalexprError,
    },
    /// The formula holds text.
    Text {
        /// The formula.
        text: String,
        /// The text it holds.
        literal: String,
    },
    /// The formula reads a name that is neither built in nor a parameter.
    UnknownName {
        /// The formula.
        text: String,
        /// The name.
        name: String,
        /// The names it may read.
        known: Vec<String>,
    },
    /// The formula calls a function not in [`FUNCTIONS`].
    UnknownFunction {
        /// The formula.
        text: String,
        /// The function's name.
        name: String,
    },
    /// The formula assigns.
    Assigns {
        /// The formula.
        text: String,
    },
    /// The formula is several expressions separated by `;`.
    Chain {
        /// The formula.
        text: String,
    },
    /// Evaluating the formula failed: a type error, such as `if(t, 1, 2)`, or a function called
    /// with the wrong number of arguments.
    Evaluation {
        /// The formula.
        text: String,
        /// What evalexpr said.
        source: EvalexprError,
    },
}

impl fmt::Display for ExpressionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExpressionError::Empty => f.write_str("the formula is empty"),
            ExpressionError::Syntax { text, source } => {
                write!(f, "cannot read {text:?}: {}", describe(source))
            }
            ExpressionError::Text { text, literal } => {
                write!(f, "{text:?}: text ({literal:?}) has no place in a formula")
            }
            ExpressionError::UnknownName { text, name, known } => write!(
                f,
                "{text:?}: unknown name {name:?} (known: {})",
                known.join(", ")
            ),
            ExpressionError::UnknownFunction { text, name } => {
                let known: Vec<&str> = FUNCTIONS.iter().map(|(f, _)| *f).collect();
                write!(
                    f,
                    "{text:?}: unknown function {name:?} (known: {})",
                    known.join(", ")
                )
            }
            ExpressionError::Assigns { text } => write!(
                f,
                "{text:?}: a formula cannot assign (write `==` to compare)"
            ),
            ExpressionError::Chain { text } => {
                write!(f, "{text:?}: a formula is one expression, without `;`")
            }
            ExpressionError::Evaluation { text, source } => {
                write!(f, "{text:?}: {}", describe(source))
            }
        }
    }
}

impl std::error::Error for ExpressionError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ExpressionError::Syntax { source, .. } | ExpressionError::Evaluation { source, .. } => {
                Some(source)
            }
            _ => None,
        }
    }
}

impl Expression {
    /// Parses `text` and checks that it only reads `names` (the built-in names first, then the
    /// parameters) and only calls [`FUNCTIONS`]. The error is one sentence about `text`.
    pub fn parse(text: &str, names: &[String]) -> Result<Expression, ExpressionError> {
        if text.trim().is_empty() {
            return Err(ExpressionError::Empty);
        }
        let mut node =
            evalexpr::build_operator_tree::<DefaultNumericTypes>(text).map_err(|source| {
                ExpressionError::Syntax {
                    text: text.to_string(),
                    source,
                }
            })?;
        check(&mut node, names, text)?;
        let reads = node
            .iter_variable_identifiers()
            .filter_map(|id| names.iter().position(|n| n == id))
            .collect();
        Ok(Expression {
            text: text.to_string(),
            node,
            reads,
        })
    }

    /// The formula as written.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Whether the formula reads the name at `index` of the list it was parsed against.
    pub fn reads(&self, index: usize) -> bool {
        self.reads.contains(&index)
    }

    /// The formula's value with `values[i]` bound to `names[i]` of the list it was parsed
    /// against. Fails (with a sentence) only on a type error, such as `if(t, 1, 2)`.
    pub fn evaluate(&self, names: &[String], values: &[f64]) -> Result<f64, ExpressionError> {
        self.evaluate_in(&Variables::new(names, values))
    }

    /// The formula's value with `variables` (bind once, evaluate many formulas).
    pub fn evaluate_in(&self, variables: &Variables<'_>) -> Result<f64, ExpressionError> {
        self.node
            .eval_number_with_context(variables)
            .map_err(|source| ExpressionError::Evaluation {
                text: self.text.clone(),
                source,
            })
    }
}

/// Walks the tree: floats for every number, and only known names, known functions and pure
/// operators.
fn check(
    node: &mut Node<DefaultNumericTypes>,
    names: &[String],
    text: &str,
) -> Result<(), ExpressionError> {
    match node.operator_mut() {
        Operator::Const { value } => match value {
            Value::Int(i) => *value = Value::Float(*i as f64),
            Value::Float(_) | Value::Boolean(_) | Value::Tuple(_) | Value::Empty => {}
            Value::String(s) => {
                return Err(ExpressionError::Text {
                    text: text.to_string(),
                    literal: s.clone(),
                });
            }
        },
        Operator::VariableIdentifierRead { identifier }
            if !names.iter().any(|n| n == identifier) =>
        {
            return Err(ExpressionError::UnknownName {
                text: text.to_string(),
                name: identifier.clone(),
                known: names.to_vec(),
            });
        }
        Operator::FunctionIdentifier { identifier }
            if !FUNCTIONS.iter().any(|(f, _)| f == identifier) =>
        {
            return Err(ExpressionError::UnknownFunction {
                text: text.to_string(),
                name: identifier.clone(),
            });
        }
        Operator::Assign
        | Operator::AddAssign
        | Operator::SubAssign
        | Operator::MulAssign
        | Operator::DivAssign
        | Operator::ModAssign
        | Operator::ExpAssign
        | Operator::AndAssign
        | Operator::OrAssign
        | Operator::VariableIdentifierWrite { .. } => {
            return Err(ExpressionError::Assigns {
                text: text.to_string(),
            });
        }
        Operator::Chain => {
            return Err(ExpressionError::Chain {
                text: text.to_string(),
            });
        }
        _ => {}
    }
    for child in node.children_mut() {
        check(child, names, text)?;
    }
    Ok(())
}

/// evalexpr's error as a short sentence.
fn describe(e: &EvalexprError<DefaultNumericTypes>) -> String {
    let text = e.to_string();
    text.trim_end_matches('.').to_string()
}

/// The formula variables: names bound to values for evaluating formulas (the list formulas were
/// parsed against and a value for each).
pub struct Variables<'a> {
    names: &'a [String],
    values: Vec<Value<DefaultNumericTypes>>,
}

impl<'a> Variables<'a> {
    /// Binds `values[i]` to `names[i]`.
    pub fn new(names: &'a [String], values: &[f64]) -> Variables<'a> {
        Variables {
            names,
            values: values.iter().map(|&v| Value::Float(v)).collect(),
        }
    }
}

impl Context for Variables<'_> {
    type NumericTypes = DefaultNumericTypes;

    fn get_value(&self, identifier: &str) -> Option<&Value<DefaultNumericTypes>> {
        let i = self.names.iter().position(|n| n == identifier)?;
        self.values.get(i)
    }

    fn call_function(
        &self,
        identifier: &str,
        argument: &Value<DefaultNumericTypes>,
    ) -> EvalexprResultValue<DefaultNumericTypes> {
        call(identifier, argument)
    }

    fn are_builtin_functions_disabled(&self) -> bool {
        true
    }

    fn set_builtin_functions_disabled(
        &mut self,
        _disabled: bool,
    ) -> EvalexprResult<(), DefaultNumericTypes> {
        Err(EvalexprError::CustomMessage(
            "built-in functions stay off".into(),
        ))
    }
}

/// Calls one of [`FUNCTIONS`].
fn call(name: &str, argument: &Value<DefaultNumericTypes>) -> EvalexprResultValue {
    let args: Vec<&Value> = match argument {
        Value::Tuple(items) => items.iter().collect(),
        Value::Empty => Vec::new(),
        one => vec![one],
    };
    let count = |n: usize| {
        if args.len() == n {
            Ok(())
        } else {
            Err(EvalexprError::CustomMessage(format!(
                "{name} takes {n} argument(s), not {}",
                args.len()
            )))
        }
    };
    let number = |i: usize| args[i].as_number();
    let unary = |f: fn(f64) -> f64| -> EvalexprResultValue {
        count(1)?;
        Ok(Value::Float(f(number(0)?)))
    };
    match name {
        "sin" => unary(f64::sin),
        "cos" => unary(f64::cos),
        "tan" => unary(f64::tan),
        "asin" => unary(f64::asin),
        "acos" => unary(f64::acos),
        "atan" => unary(f64::atan),
        "abs" => unary(f64::abs),
        "sqrt" => unary(f64::sqrt),
        "exp" => unary(f64::exp),
        "floor" => unary(f64::floor),
        "ceil" => unary(f64::ceil),
        "fract" => unary(|x| x - x.floor()),
        "sign" => unary(|x| if x == 0.0 { 0.0 } else { x.signum() }),
        "atan2" => {
            count(2)?;
            Ok(Value::Float(number(0)?.atan2(number(1)?)))
        }
        "min" | "max" => {
            if args.is_empty() {
                return Err(EvalexprError::CustomMessage(format!(
                    "{name} needs at least one argument"
                )));
            }
            let mut best = number(0)?;
            for i in 1..args.len() {
                let x = number(i)?;
                // Like JavaScript's Math.max / Math.min on ordinary numbers.
                best = if name == "max" {
                    best.max(x)
                } else {
                    best.min(x)
                };
            }
            Ok(Value::Float(best))
        }
        "clamp" => {
            count(3)?;
            Ok(Value::Float(number(0)?.max(number(1)?).min(number(2)?)))
        }
        "mix" => {
            count(3)?;
            let (a, b, k) = (number(0)?, number(1)?, number(2)?);
            Ok(Value::Float(a + (b - a) * k))
        }
        "if" => {
            count(3)?;
            let branch = if args[0].as_boolean()? { 1 } else { 2 };
            Ok(Value::Float(number(branch)?))
        }
        _ => Err(EvalexprError::FunctionIdentifierNotFound(name.to_string())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names() -> Vec<String> {
        ["t", "pi", "tau", "amp"].map(String::from).to_vec()
    }

    fn eval(text: &str, t: f64, amp: f64) -> f64 {
        let n = names();
        Expression::parse(text, &n)
            .unwrap()
            .evaluate(&n, &[t, std::f64::consts::PI, std::f64::consts::TAU, amp])
            .unwrap()
    }

    #[test]
    fn evaluates_like_the_same_formula_in_rust() {
        let t = 0.7;
        assert_eq!(eval("cos(t) * amp", t, 4.0), t.cos() * 4.0);
        assert_eq!(
            eval("max(0, -sin(t) * amp)", t, 4.0),
            0.0f64.max(-t.sin() * 4.0)
        );
        assert_eq!(
            eval("8 - cos(t * 2) * amp * 0.2", t, 4.0),
            8.0 - (t * 2.0).cos() * 4.0 * 0.2
        );
        assert_eq!(
            eval("if(t < pi, cos(t * 2 + pi / 2) * pi / 4, 0)", t, 4.0),
            (t * 2.0 + std::f64::consts::PI / 2.0).cos() * std::f64::consts::PI / 4.0
        );
        assert_eq!(eval("if(t < pi, 1, 0)", 4.0, 4.0), 0.0);
        assert_eq!(eval("3 / 4", 0.0, 0.0), 0.75, "numbers are floats");
        assert_eq!(eval("2 ^ 3 + 7 % 4", 0.0, 0.0), 11.0);
        assert_eq!(eval("clamp(amp, 0, 1) + min(1, 2, -3)", 0.0, 5.0), -2.0);
        assert_eq!(eval("fract(2.25) + sign(-3) + abs(-2)", 0.0, 0.0), 1.25);
    }

    #[test]
    fn bad_formulas_are_refused_with_the_reason() {
        let n = names();
        let err = |text: &str| Expression::parse(text, &n).unwrap_err().to_string();
        assert!(
            err("cos(t) * ampl").contains("unknown name \"ampl\""),
            "{}",
            err("cos(t) * ampl")
        );
        assert!(err("cos(t) * ampl").contains("known: t, pi, tau, amp"));
        assert!(err("sinus(t)").contains("unknown function \"sinus\""));
        assert!(err("amp = 3").contains("cannot assign"));
        assert!(err("t; 4").contains("without `;`"));
        assert!(
            err("cos(t").starts_with("cannot read \"cos(t\""),
            "{}",
            err("cos(t")
        );
        assert!(err("\"text\" + 1").contains("text"));
        assert!(err("  ").contains("empty"));
        // Types are checked when the formula runs.
        let e = Expression::parse("if(t, 1, 2)", &n).unwrap();
        assert!(e.evaluate(&n, &[1.0, 0.0, 0.0, 0.0]).is_err());
        let e = Expression::parse("sin(1, 2)", &n).unwrap();
        let msg = e.evaluate(&n, &[0.0; 4]).unwrap_err().to_string();
        assert!(msg.contains("sin takes 1 argument(s), not 2"), "{msg}");
        let e = e.evaluate(&n, &[0.0; 4]).unwrap_err();
        assert!(matches!(e, ExpressionError::Evaluation { .. }));
        assert!(std::error::Error::source(&e).is_some(), "evalexpr's error");
        assert!(matches!(
            Expression::parse("sinus(t)", &n),
            Err(ExpressionError::UnknownFunction { name, .. }) if name == "sinus"
        ));
    }

    #[test]
    fn remembers_which_names_it_reads() {
        let n = names();
        let e = Expression::parse("cos(t) * amp", &n).unwrap();
        assert!(e.reads(0) && e.reads(3) && !e.reads(1));
        assert_eq!(e.text(), "cos(t) * amp");
    }
}
