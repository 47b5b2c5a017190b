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
    /// A name or value whose percent-decoded bytes are not UTF-8.
    #[error(
        "argument `{0}` is not UTF-8 text once percent-decoded (encode text as UTF-8 before escaping it)"
    )]
    NotUtf8(String),
    /// JSON text nested deeper than the parser's limit (as in a request body).
    #[error("argument `{0}` is JSON nested more than 127 levels deep")]
    TooDeep(String),
}

impl TextArgsError {
    /// The argument concerned.
    pub fn argument(&self) -> &str {
        match self {
            TextArgsError::Duplicate(a)
            | TextArgsError::MixedList(a)
            | TextArgsError::NotUtf8(a)
            | TextArgsError::TooDeep(a) => a,
        }
    }
}

/// Reads a URL query string into a JSON object of arguments.
pub fn from_query(
    op: &Operation,
    query: Option<&str>,
) -> Result<Map<String, Value>, TextArgsError> {
    from_pairs(op, query_pairs(query)?)
}

/// The paging parameters of a query string: `page_size` and `cursor` (lower-case
/// names, which no argument can have: an argument is named like a Prolog
/// variable).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct PageParams {
    pub size: Option<String>,
    pub cursor: Option<String>,
}

/// [`from_query`], with the paging parameters taken out.
pub(crate) fn from_query_paged(
    op: &Operation,
    query: Option<&str>,
) -> Result<(Map<String, Value>, PageParams), TextArgsError> {
    let mut paging = PageParams::default();
    let mut pairs = Vec::new();
    for (key, value) in query_pairs(query)? {
        let slot = match key.as_str() {
            "page_size" => &mut paging.size,
            "cursor" => &mut paging.cursor,
            _ => {
                pairs.push((key, value));
                continue;
            }
        };
        if slot.replace(value).is_some() {
            return Err(TextArgsError::Duplicate(key));
        }
    }
    Ok((from_pairs(op, pairs)?, paging))
}

/// The decoded `(name, value)` pairs of a query string.
fn query_pairs(query: Option<&str>) -> Result<Vec<(String, String)>, TextArgsError> {
    let mut pairs = Vec::new();
    for pair in query.unwrap_or_default().split('&') {
        if pair.is_empty() {
            continue;
        }
        let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
        let key = decode(key).map_err(|raw| TextArgsError::NotUtf8(raw.to_string()))?;
        let value = decode(value).map_err(|_| TextArgsError::NotUtf8(key.clone()))?;
        pairs.push((key, value));
    }
    Ok(pairs)
}

/// One component of a form-encoded query: `+` is a space, `%XX` a byte; the bytes
/// must be UTF-8 (never replaced: `Err` gives the component back).
fn decode(component: &str) -> Result<String, &str> {
    let spaced = component.replace('+', " ");
    percent_encoding::percent_decode_str(&spaced)
        .decode_utf8()
        .map(std::borrow::Cow::into_owned)
        .map_err(|_| component)
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
                Some(ty) => {
                    scalar_value(ty, one).ok_or_else(|| TextArgsError::TooDeep(key.clone()))?
                }
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
    let too_deep = || TextArgsError::TooDeep(key.to_string());
    let as_json = |v: &String| match json(v) {
        Ok(Some(array @ Value::Array(_))) => Some(array),
        _ => None,
    };
    for v in values {
        json(v).map_err(|()| too_deep())?;
    }
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
    values
        .iter()
        .map(|v| scalar_value(inner, v).ok_or_else(too_deep))
        .collect::<Result<_, _>>()
        .map(Value::Array)
}

/// JSON text parsed; `Ok(None)` when it is not JSON, `Err` when it is nested past
/// the parser's limit (refused, as in a request body, rather than taken as text).
fn json(text: &str) -> Result<Option<Value>, ()> {
    match crate::json::read(text.as_bytes()) {
        Ok(value) => Ok(Some(value)),
        Err(e) if e.to_string().starts_with("recursion limit exceeded") => Err(()),
        Err(_) => Ok(None),
    }
}

/// One value by its declared type; text that does not parse stays a string. `None`:
/// JSON text nested too deep.
fn scalar_value(ty: &Type, text: &str) -> Option<Value> {
    let parsed = match ty {
        Type::Atom | Type::String => None,
        Type::Int => is_integer_text(text).then(|| crate::json::integer(text)),
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
        Type::List(_) => json(text).ok()?.filter(Value::is_array),
        Type::Any => json(text).ok()?.filter(|v| {
            crate::json::is_number(v) || v.is_boolean() || v.is_array() || v.is_string()
        }),
    };
    Some(parsed.unwrap_or_else(|| Value::String(text.to_string())))
}
