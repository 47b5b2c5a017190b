//! JSON ↔ Prolog, driven by the declared type.
//!
//! Input goes JSON → Prolog *source text* (the engine takes goals as text), with every
//! value escaped so that no value can become code. Output comes back as a [`PlTerm`]
//! (a serialisable mirror of the engine's term) and is turned into JSON by the declared
//! type, at every depth; a value that does not fit its type is an error, never a
//! silently different JSON value.

use std::fmt::{self, Write as _};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::pldoc::Type;

mod read;

pub use read::{ReadError, read_term};

/// Answers nested deeper than this are refused (lists count as one level whatever
/// their length): the conversions on the way recurse. A proof of the reasoning
/// toolkit at its deepest (`max_depth` 500) nests two levels per rule, and fits.
pub(crate) const MAX_ANSWER_DEPTH: usize = 1024;

/// A Prolog term as the engine returns it. Integers are kept as decimal text so that
/// bigints stay exact across the worker boundary.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum PlTerm {
    /// An integer of any size, in decimal.
    Int(String),
    /// A float (as text between processes: serde_json's own float reader is not
    /// correctly rounded without a feature Charon leaves off, see [`crate::json`]).
    Float(#[serde(with = "float_text")] f64),
    /// An exact rational, as `n/d` text.
    Rational(String),
    /// An atom.
    Atom(String),
    /// A string, which under scryer's default flags is also any list of one-char atoms.
    Str(String),
    /// A proper list (`[]` included: scryer does not distinguish `[]`, `'[]'` and `""`).
    List(Vec<PlTerm>),
    /// A compound term.
    Compound(String, Vec<PlTerm>),
    /// An unbound variable.
    Var(String),
}

/// Why a JSON value does not fit its declared type (input side).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("expected {expected}, found {found}")]
pub struct InputTypeError {
    /// What the declared type wants, in words.
    pub expected: String,
    /// A short description of what was given.
    pub found: String,
}

/// Why a Prolog value does not fit its declared type (output side).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("is declared {declared}, but the predicate left {found}")]
pub struct OutputTypeError {
    /// The declared type.
    pub declared: String,
    /// The offending term, written as Prolog.
    pub found: String,
}

/// A float as its shortest exact text, and back.
mod float_text {
    use serde::{Deserialize, Deserializer, Serializer, de::Error};

    pub(super) fn serialize<S: Serializer>(f: &f64, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(&format_args!("{f:e}"))
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        text.parse().map_err(D::Error::custom)
    }
}

fn describe(v: &Value) -> String {
    if let Some(digits) = crate::json::marked(v) {
        return format!("number {digits}");
    }
    match v {
        Value::Null => "null".into(),
        Value::Bool(b) => format!("boolean {b}"),
        Value::Number(n) => format!("number {n}"),
        Value::String(s) if s.chars().count() > 40 => "a string".into(),
        Value::String(s) => format!("string {s:?}"),
        Value::Array(_) => "an array".into(),
        Value::Object(_) => "an object".into(),
    }
}

fn type_words(ty: &Type) -> String {
    match ty {
        Type::Atom | Type::String => "a string".into(),
        Type::Int => "an integer".into(),
        Type::Float | Type::Number => "a number".into(),
        Type::Bool => "true or false".into(),
        Type::List(inner) => format!("an array of {}", type_words(inner)),
        Type::Any => "a string, number, boolean or array".into(),
    }
}

/// Prolog source text of input values, remembering whether it holds floats (which
/// need the wrapper's exact conversion, see [`write_float`]).
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct GoalText {
    /// The text so far.
    pub text: String,
    /// Whether a `'$charon_f'/2` float was written.
    pub has_floats: bool,
}

/// Appends `value`, converted by `ty`, to `goal` as Prolog source text.
pub fn write_input(goal: &mut GoalText, ty: &Type, value: &Value) -> Result<(), InputTypeError> {
    let out = &mut goal.text;
    let mismatch = || InputTypeError {
        expected: type_words(ty),
        found: describe(value),
    };
    if let Some(digits) = crate::json::marked(value) {
        // An integer past i64/u64 (see `crate::json`).
        match ty {
            Type::Int | Type::Any => out.push_str(digits),
            Type::Float | Type::Number => {
                let f: f64 = digits.parse().map_err(|_| mismatch())?;
                if !f.is_finite() {
                    return Err(mismatch());
                }
                goal.has_floats |= write_float(out, f);
            }
            _ => return Err(mismatch()),
        }
        return Ok(());
    }
    match (ty, value) {
        (Type::Atom, Value::String(s)) => write_atom(out, s),
        (Type::String, Value::String(s)) => write_string(out, s),
        (Type::Int, Value::Number(n)) => {
            let text = n.to_string();
            if !is_integer_text(&text) {
                return Err(mismatch());
            }
            out.push_str(&text);
        }
        (Type::Float | Type::Number, Value::Number(n)) => {
            let f: f64 = n.to_string().parse().map_err(|_| mismatch())?;
            if !f.is_finite() {
                return Err(mismatch());
            }
            goal.has_floats |= write_float(out, f);
        }
        (Type::Bool, Value::Bool(b)) => out.push_str(if *b { "true" } else { "false" }),
        (Type::List(inner), Value::Array(items)) => write_list(goal, inner, items)?,
        (Type::Any, Value::String(s)) => write_atom(out, s),
        (Type::Any, Value::Bool(b)) => out.push_str(if *b { "true" } else { "false" }),
        (Type::Any, Value::Number(n)) => {
            let text = n.to_string();
            if is_integer_text(&text) {
                out.push_str(&text);
            } else {
                let f: f64 = text.parse().map_err(|_| mismatch())?;
                if !f.is_finite() {
                    return Err(mismatch());
                }
                goal.has_floats |= write_float(out, f);
            }
        }
        (Type::Any, Value::Array(items)) => write_list(goal, &Type::Any, items)?,
        _ => return Err(mismatch()),
    }
    Ok(())
}

fn write_list(goal: &mut GoalText, inner: &Type, items: &[Value]) -> Result<(), InputTypeError> {
    goal.text.push('[');
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            goal.text.push(',');
        }
        write_input(goal, inner, item)?;
    }
    goal.text.push(']');
    Ok(())
}

/// Whether `text` is an integer literal (optional `-`, digits).
pub(crate) fn is_integer_text(text: &str) -> bool {
    let digits = text.strip_prefix('-').unwrap_or(text);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

/// Writes a float so that the engine gets exactly that float. scryer's reader parses
/// float literals lossily (off by an ulp at times), so a non-zero float is written as
/// `'$charon_f'(Mantissa, Exponent)` (value = Mantissa × 2^Exponent, both integers,
/// exact) for the wrapper to turn into the float before the call. Returns whether it
/// wrote that form.
pub fn write_float(out: &mut String, f: f64) -> bool {
    if f == 0.0 {
        out.push_str(if f.is_sign_negative() { "-0.0" } else { "0.0" });
        return false;
    }
    let bits = f.to_bits();
    let exponent_bits = ((bits >> 52) & 0x7ff) as i64;
    let fraction = bits & ((1 << 52) - 1);
    let (mantissa, exponent) = if exponent_bits == 0 {
        (fraction, -1074)
    } else {
        (fraction | (1 << 52), exponent_bits - 1075)
    };
    let sign = if f.is_sign_negative() { "-" } else { "" };
    let _ = write!(out, "'$charon_f'({sign}{mantissa},{exponent})");
    true
}

/// Writes a float as a Prolog float literal (`1.0e100`); for messages.
pub fn write_float_literal(out: &mut String, f: f64) {
    let text = format!("{f:e}");
    let (mantissa, exp) = text.split_once('e').unwrap_or((&text, "0"));
    out.push_str(mantissa);
    if !mantissa.contains('.') {
        out.push_str(".0");
    }
    out.push('e');
    out.push_str(exp);
}

fn push_escaped(out: &mut String, s: &str, quote: char) {
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            '\0' => out.push_str("\\0\\"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            // Everything outside printable ASCII is written as a code point escape, so
            // the goal text is plain ASCII whatever the value (scryer rejects some
            // characters, such as U+2028, inside quotes).
            c if c.is_ascii_graphic() || c == ' ' => out.push(c),
            c => {
                let _ = write!(out, "\\x{:x}\\", c as u32);
            }
        }
    }
}

/// Writes `s` as a quoted atom.
pub fn write_atom(out: &mut String, s: &str) {
    out.push('\'');
    push_escaped(out, s, '\'');
    out.push('\'');
}

/// Writes `s` as a double-quoted string (a list of characters under scryer's flags).
pub fn write_string(out: &mut String, s: &str) {
    out.push('"');
    push_escaped(out, s, '"');
    out.push('"');
}

/// Converts an engine answer to JSON by the declared type.
pub fn to_json(ty: &Type, term: &PlTerm) -> Result<Value, OutputTypeError> {
    let mismatch = || OutputTypeError {
        declared: ty.to_string(),
        found: match term {
            PlTerm::Var(_) => "an unbound variable".into(),
            other => format!("`{other}`"),
        },
    };
    Ok(match (ty, term) {
        (Type::Atom | Type::String, PlTerm::Atom(s) | PlTerm::Str(s)) => Value::String(s.clone()),
        (Type::Atom, PlTerm::List(items)) if items.is_empty() => Value::String("[]".into()),
        (Type::String, PlTerm::List(items)) if items.is_empty() => Value::String(String::new()),
        (Type::Int, PlTerm::Int(digits)) => number(digits).ok_or_else(mismatch)?,
        (Type::Float | Type::Number, PlTerm::Int(digits)) => number(digits).ok_or_else(mismatch)?,
        (Type::Float | Type::Number, PlTerm::Float(f)) => float(*f).ok_or_else(mismatch)?,
        (Type::Float | Type::Number, PlTerm::Rational(r)) => {
            float(rational_to_f64(r).ok_or_else(mismatch)?).ok_or_else(mismatch)?
        }
        (Type::Bool, PlTerm::Atom(a)) if a == "true" => Value::Bool(true),
        (Type::Bool, PlTerm::Atom(a)) if a == "false" => Value::Bool(false),
        (Type::List(inner), PlTerm::List(items)) => Value::Array(
            items
                .iter()
                .map(|t| to_json(inner, t))
                .collect::<Result<_, _>>()?,
        ),
        // A list of one-character atoms arrives as a string.
        (Type::List(inner), PlTerm::Str(s)) => Value::Array(
            s.chars()
                .map(|c| to_json(inner, &PlTerm::Atom(c.to_string())))
                .collect::<Result<_, _>>()?,
        ),
        (Type::Any, PlTerm::Atom(a)) if a == "true" => Value::Bool(true),
        (Type::Any, PlTerm::Atom(a)) if a == "false" => Value::Bool(false),
        (Type::Any, PlTerm::Atom(s) | PlTerm::Str(s)) => Value::String(s.clone()),
        (Type::Any, PlTerm::Int(digits)) => number(digits).ok_or_else(mismatch)?,
        (Type::Any, PlTerm::Float(f)) => float(*f).ok_or_else(mismatch)?,
        (Type::Any, PlTerm::List(items)) => Value::Array(
            items
                .iter()
                .map(|t| to_json(&Type::Any, t))
                .collect::<Result<_, _>>()?,
        ),
        _ => return Err(mismatch()),
    })
}

fn number(digits: &str) -> Option<Value> {
    // Integers of any size stay exact (see `crate::json`).
    is_integer_text(digits).then(|| crate::json::integer(digits))
}

fn float(f: f64) -> Option<Value> {
    serde_json::Number::from_f64(f).map(Value::Number)
}

fn rational_to_f64(r: &str) -> Option<f64> {
    let (n, d) = r.split_once('/')?;
    Some(n.trim().parse::<f64>().ok()? / d.trim().parse::<f64>().ok()?)
}

impl fmt::Display for PlTerm {
    /// Writes the term as Prolog text (for messages; quoting is best effort).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlTerm::Int(d) | PlTerm::Rational(d) => f.write_str(d),
            PlTerm::Float(x) => {
                let mut s = String::new();
                write_float_literal(&mut s, *x);
                f.write_str(&s)
            }
            PlTerm::Atom(a) => f.write_str(&display_atom(a)),
            PlTerm::Str(s) => {
                let mut out = String::new();
                write_string(&mut out, s);
                f.write_str(&out)
            }
            PlTerm::Var(v) => f.write_str(v),
            PlTerm::List(items) => {
                f.write_str("[")?;
                for (i, t) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{t}")?;
                }
                f.write_str("]")
            }
            PlTerm::Compound(name, args) => {
                write!(f, "{}(", display_atom(name))?;
                for (i, t) in args.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{t}")?;
                }
                f.write_str(")")
            }
        }
    }
}

fn display_atom(a: &str) -> String {
    let plain = a.chars().next().is_some_and(|c| c.is_lowercase())
        && a.chars().all(|c| c.is_alphanumeric() || c == '_');
    if plain || a == "[]" || a == "!" || a == ";" || a == "{}" {
        a.to_string()
    } else {
        let mut s = String::new();
        write_atom(&mut s, a);
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn input(ty: &Type, v: Value) -> Result<String, InputTypeError> {
        let mut g = GoalText::default();
        write_input(&mut g, ty, &v).map(|()| g.text)
    }

    #[test]
    fn escapes_close_no_quotes() {
        assert_eq!(
            input(&Type::Atom, json!("a'b\\c")).expect("ok"),
            r"'a\'b\\c'"
        );
        assert_eq!(
            input(&Type::String, json!("\"\n\0")).expect("ok"),
            "\"\\\"\\n\\0\\\""
        );
        assert_eq!(input(&Type::Atom, json!("\u{7}")).expect("ok"), "'\\x7\\'");
    }

    #[test]
    fn numbers_by_type() {
        assert_eq!(input(&Type::Int, json!(-82)).expect("ok"), "-82");
        assert!(input(&Type::Int, json!(1.5)).is_err());
        assert!(input(&Type::Int, json!("82")).is_err());
        assert_eq!(
            input(&Type::Float, json!(82)).expect("ok"),
            "'$charon_f'(5770237022568448,-46)"
        );
        assert_eq!(input(&Type::Float, json!(-0.0)).expect("ok"), "-0.0");
        assert_eq!(
            input(&Type::Any, json!([1, 0.0, "x", true])).expect("ok"),
            "[1,0.0,'x',true]"
        );
    }
}
