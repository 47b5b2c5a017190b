//! Arguments given as text — an HTTP query string, `charon call` flags — typed by the
//! declared types (text has no types of its own: `Age=82` is an integer because `Age`
//! is declared `int`).
//!
//! A value that does not parse as its type is passed on as a string, so the one
//! argument check of the call pipeline reports it like a JSON value.

use serde_json::{Map, Value};

use crate::pldoc::{Operation, Type};
use crate::term::is_integer_text;

/// Why text arguments cannot be turned into a JSON object.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TextArgsError {
    /// The same (non-list) argument twice.
    #[error("argument `{0}` is given more than once")]
    Duplicate(String),
    /// A list given both as JSON text and as repeated keys.
    #[error("give list `{0}` either as JSON text or as repeated values, not both")]
    MixedList(String),
}

impl TextArgsError {
    /// The argument concerned.
    pub fn argument(&self) -> &str {
        match self {
            TextArgsError::Duplicate(a) | TextArgsError::MixedList(a) => a,
        }
    }
}

/// Reads a URL query string into a JSON object of arguments.
pub fn from_query(
    op: &Operation,
    query: Option<&str>,
) -> Result<Map<String, Value>, TextArgsError> {
    from_pairs(
        op,
        form_urlencoded::parse(query.unwrap_or_default().as_bytes())
            .map(|(k, v)| (k.into_owned(), v.into_owned())),
    )
}

/// Reads `(name, text)` pairs into a JSON object of arguments, in first-appearance
/// order: each value typed by its argument's declared type; a list is one value
/// holding a JSON array or one value per repeated name. Names that are not arguments
/// are kept (as strings) so the call pipeline reports them.
pub fn from_pairs(
    op: &Operation,
    pairs: impl IntoIterator<Item = (String, String)>,
) -> Result<Map<String, Value>, TextArgsError> {
    let mut grouped: Vec<(String, Vec<String>)> = Vec::new();
    for (key, value) in pairs {
        match grouped.iter_mut().find(|(k, _)| *k == key) {
            Some((_, values)) => values.push(value),
            None => grouped.push((key, vec![value])),
        }
    }
    let mut args = Map::new();
    for (key, values) in grouped {
        let ty = op.args.iter().find(|a| a.name == key).map(|a| &a.ty);
        let value = match (ty, values.as_slice()) {
            (Some(Type::List(inner)), values) => list_value(&key, inner, values)?,
            (_, [one]) => match ty {
                Some(ty) => scalar_value(ty, one),
                None => Value::String(one.clone()),
            },
            _ => return Err(TextArgsError::Duplicate(key)),
        };
        args.insert(key, value);
    }
    Ok(args)
}

/// A list: one value holding a JSON array, or one element per repeated key.
fn list_value(key: &str, inner: &Type, values: &[String]) -> Result<Value, TextArgsError> {
    let as_json = |v: &String| match serde_json::from_str::<Value>(v) {
        Ok(array @ Value::Array(_)) => Some(array),
        _ => None,
    };
    if let [one] = values
        && let Some(array) = as_json(one)
    {
        return Ok(array);
    }
    if values.len() > 1
        && values
            .iter()
            .any(|v| as_json(v).is_some() && !matches!(inner, Type::List(_) | Type::Any))
    {
        return Err(TextArgsError::MixedList(key.to_string()));
    }
    Ok(Value::Array(
        values.iter().map(|v| scalar_value(inner, v)).collect(),
    ))
}

/// One value by its declared type; text that does not parse stays a string.
fn scalar_value(ty: &Type, text: &str) -> Value {
    let parsed = match ty {
        Type::Atom | Type::String => None,
        Type::Int => is_integer_text(text)
            .then(|| serde_json::from_str::<Value>(text).ok())
            .flatten(),
        Type::Float | Type::Number => text
            .parse::<f64>()
            .ok()
            .filter(|f| f.is_finite())
            .and_then(serde_json::Number::from_f64)
            .map(Value::Number),
        Type::Bool => match text {
            "true" => Some(Value::Bool(true)),
            "false" => Some(Value::Bool(false)),
            _ => None,
        },
        Type::List(_) => serde_json::from_str::<Value>(text)
            .ok()
            .filter(Value::is_array),
        Type::Any => serde_json::from_str::<Value>(text)
            .ok()
            .filter(|v| v.is_number() || v.is_boolean() || v.is_array() || v.is_string()),
    };
    parsed.unwrap_or_else(|| Value::String(text.to_string()))
}
