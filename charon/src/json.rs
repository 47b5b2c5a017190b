//! Exact JSON numbers without changing anyone's serde_json.
//!
//! Charon promises integers exact at any size and floats exact to the bit, on every
//! surface. serde_json can do that only with its `arbitrary_precision` (and
//! `float_roundtrip`) features, and cargo turns a feature on for *every* crate of a
//! build: a library that enabled them would change its users' own JSON code (a
//! `#[serde(flatten)] HashMap<String, f64>` stops deserializing). So Charon enables
//! no serde_json feature and keeps numbers exact itself, in this module:
//!
//! * **Reading** ([`from_str`], and every request body and MCP message Charon
//!   receives): before serde_json parses a JSON text, every number it would change —
//!   an integer beyond `i64`/`u64`, a float its fast parser rounds differently from
//!   the correctly rounded one — is rewritten as a *marked string*: a private prefix,
//!   then the number's text. A float then becomes the exact `f64`; an integer stays
//!   marked.
//! * **Inside**: a marked string is an integer wherever Charon reads a value; the
//!   engine's big integers become marked strings too.
//! * **Writing** ([`to_vec`], [`to_string`], and every answer Charon sends): JSON
//!   text is serialized by serde_json, then each marked string is replaced by its
//!   number, bare.
//! * **Handing values out**: a value the public API returns is checked, and a marked
//!   integer refused with a message saying how to receive it, so no marked string
//!   reaches an application's own serializer (except from the `_exact` methods and
//!   [`from_str`], which say so).
//!
//! * **Key order**: an answer with several outputs is written as an object keyed by
//!   argument name *in the order the mode line declares them*. serde_json's map
//!   keeps its keys sorted unless its `preserve_order` feature is on, which Charon
//!   turns on no more than the others. So just before a surface writes an answer,
//!   its keys become *ordered keys* ([`in_declared_order`]): a private prefix, the
//!   output's position, then its name; sorted, they fall in declared order, and
//!   writing strips them back to the bare name. The values the library hands out
//!   keep bare names (a `serde_json::Value` holds no order of its own);
//!   [`to_string_in_order`] writes one in declared order.
//!
//! The prefix holds a NUL and a 128-bit value drawn at random when the process
//! starts, and is never written out, so no input can forge a marked string. In a
//! build whose serde_json holds numbers of any size (an application that turned on
//! `arbitrary_precision` itself), nothing is marked: big integers are plain numbers.

use std::borrow::Cow;
use std::hash::{BuildHasher, Hasher};
use std::sync::LazyLock;

use serde::Serialize;
use serde_json::{Number, Value};

use crate::pldoc::Operation;

/// A number 2^64: past `u64`, so serde_json keeps its digits only if it holds any size.
const PAST_U64: &str = "18446744073709551616";

/// Whether this build's serde_json holds integers of any size (`arbitrary_precision`).
static NATIVE: LazyLock<bool> = LazyLock::new(|| {
    serde_json::from_str::<Number>(PAST_U64).is_ok_and(|n| n.to_string() == PAST_U64)
});

/// 128 random bits, drawn when the process starts, as hex: the secret part of the
/// prefix.
static NONCE: LazyLock<String> = LazyLock::new(|| {
    let mut words = [0u64; 2];
    for (i, word) in words.iter_mut().enumerate() {
        // std's RandomState draws its keys from the OS; a fresh one per word.
        let mut h = std::collections::hash_map::RandomState::new().build_hasher();
        h.write_usize(i);
        h.write_u32(std::process::id());
        *word = h.finish();
    }
    format!("{:016x}{:016x}", words[0], words[1])
});

/// The private prefix of a marked string, as a value holds it.
static PREFIX: LazyLock<String> = LazyLock::new(|| format!("\u{0}charon-number-{}:", *NONCE));

/// The prefix as serde_json writes it inside a JSON string (`\u0000…`), with the
/// opening quote.
static WRITTEN: LazyLock<Vec<u8>> = LazyLock::new(|| {
    let mut text = serde_json::to_vec(PREFIX.as_str()).unwrap_or_default();
    text.pop(); // the closing quote
    text
});

/// The private prefix of an ordered key: then four digits of position, `:`, the name.
static KEY_PREFIX: LazyLock<String> = LazyLock::new(|| format!("\u{0}charon-key-{}:", *NONCE));

/// [`KEY_PREFIX`] as serde_json writes it, with the opening quote.
static KEY_WRITTEN: LazyLock<Vec<u8>> = LazyLock::new(|| {
    let mut text = serde_json::to_vec(KEY_PREFIX.as_str()).unwrap_or_default();
    text.pop(); // the closing quote
    text
});

/// The digits of position and the `:` after them, in an ordered key.
const KEY_POSITION: usize = 5;

/// The key of an answer object's field `name`, declared at `position` (from 0):
/// sorted, such keys fall in declared order (see the module docs). A predicate has
/// fewer than 10,000 arguments (the engine's limit is 1,023).
fn ordered_key(position: usize, name: &str) -> String {
    format!("{}{position:04}:{name}", *KEY_PREFIX)
}

/// Gives the solution objects of an answer of `op` ordered keys, so that the
/// answer is written with its keys in the order the mode line declares them: the
/// answer itself when it is one solution, or each element when it is a list of
/// them (a page, `nondet`'s array). An object that is not a solution of `op` (its
/// keys are not exactly the outputs' names) is left alone; so is an answer with
/// fewer than two outputs. The keys are private then: only [`to_vec`] and the other
/// writers of this module turn them back into names, so use this just before
/// writing with them (or use [`to_string_in_order`]).
pub fn in_declared_order(op: &Operation, value: &mut Value) {
    let names: Vec<&str> = op.outputs().map(|a| a.name.as_ref()).collect();
    if names.len() < 2 {
        return;
    }
    match value {
        Value::Object(fields) => order_fields(&names, fields),
        Value::Array(items) => {
            for item in items {
                if let Value::Object(fields) = item {
                    order_fields(&names, fields);
                }
            }
        }
        _ => {}
    }
}

fn order_fields(names: &[&str], fields: &mut serde_json::Map<String, Value>) {
    if fields.len() != names.len() || !names.iter().all(|n| fields.contains_key(*n)) {
        return;
    }
    let mut bare = std::mem::take(fields);
    for (position, name) in names.iter().enumerate() {
        if let Some(v) = bare.remove(*name) {
            fields.insert(ordered_key(position, name), v);
        }
    }
}

/// [`to_string`] for an answer of `op` (as the library's methods return it): its
/// solution objects written with their keys in the order the mode line declares
/// them, as Charon's HTTP and MCP surfaces and `charon call` write them.
pub fn to_string_in_order(op: &Operation, value: &Value) -> serde_json::Result<String> {
    let mut value = value.clone();
    in_declared_order(op, &mut value);
    to_string(&value)
}

/// Whether serde_json in this build holds numbers of any size, so nothing is marked.
pub fn native() -> bool {
    *NATIVE
}

/// An integer (decimal digits, optional `-`) as a JSON value: a number when
/// serde_json can hold it, else a marked string.
pub(crate) fn integer(digits: &str) -> Value {
    if let Ok(i) = digits.parse::<i64>() {
        return Value::Number(i.into());
    }
    if let Ok(u) = digits.parse::<u64>() {
        return Value::Number(u.into());
    }
    if native()
        && let Ok(n) = serde_json::from_str::<Number>(digits)
    {
        return Value::Number(n);
    }
    Value::String(format!("{}{digits}", *PREFIX))
}

/// The digits of a marked integer (none for any other value).
pub(crate) fn marked(value: &Value) -> Option<&str> {
    match value {
        Value::String(s) => s
            .strip_prefix(PREFIX.as_str())
            .filter(|t| is_integer(t.as_bytes())),
        _ => None,
    }
}

/// Whether the value is a number, marked integers included.
pub(crate) fn is_number(value: &Value) -> bool {
    value.is_number() || marked(value).is_some()
}

/// Parses JSON text exactly: integers of any size, floats correctly rounded.
///
/// An integer the build's serde_json cannot hold comes back in a private form, which
/// Charon reads as that integer (pass the value to [`KnowledgeBase::call`] or
/// [`KnowledgeBase::prepare`](crate::KnowledgeBase::prepare)) and [`to_string`]
/// writes as that number — for an application that forwards JSON through Charon
/// (and for tests comparing answers exactly). Another serializer would write it as a
/// string: keep such a value within Charon's reader and writer.
///
/// [`KnowledgeBase::call`]: crate::KnowledgeBase::call
pub fn from_str(text: &str) -> serde_json::Result<Value> {
    read(text.as_bytes())
}

/// [`from_str`] for bytes.
pub fn from_slice(bytes: &[u8]) -> serde_json::Result<Value> {
    read(bytes)
}

pub(crate) fn read(bytes: &[u8]) -> serde_json::Result<Value> {
    let text = mark(bytes);
    let mut value: Value = serde_json::from_slice(&text)?;
    if matches!(text, Cow::Owned(_)) {
        settle(&mut value);
    }
    Ok(value)
}

/// Rewrites each number serde_json would not read exactly as a marked string, so
/// that a parser Charon does not control (rmcp's) keeps it. Text that is not JSON is
/// left for the parser to refuse.
pub(crate) fn mark(text: &[u8]) -> Cow<'_, [u8]> {
    if native() {
        return Cow::Borrowed(text);
    }
    let mut out: Option<Vec<u8>> = None;
    let mut copied = 0;
    let mut i = 0;
    // The last byte outside strings and whitespace: a number is a value only after
    // `[`, `,`, `:` or at the start (a number where a key goes stays invalid JSON).
    let mut after = b'[';
    while i < text.len() {
        let byte = text[i];
        if !byte.is_ascii_whitespace() {
            let previous = after;
            after = byte;
            if !(matches!(byte, b'-' | b'0'..=b'9') && matches!(previous, b'[' | b',' | b':')) {
                if byte == b'"' {
                    i = string_end(text, i + 1);
                } else {
                    i += 1;
                }
                continue;
            }
        }
        match byte {
            b'-' | b'0'..=b'9' => {
                let start = i;
                i += 1;
                while i < text.len()
                    && matches!(text[i], b'0'..=b'9' | b'.' | b'e' | b'E' | b'+' | b'-')
                {
                    i += 1;
                }
                let token = &text[start..i];
                let action = action(token);
                if action != Action::Keep {
                    let out = out.get_or_insert_with(|| Vec::with_capacity(text.len() + 64));
                    out.extend_from_slice(&text[copied..start]);
                    if action == Action::Mark {
                        out.extend_from_slice(&WRITTEN);
                        out.extend_from_slice(token);
                        out.push(b'"');
                    } else {
                        // A literal serde_json refuses as out of range, as it is.
                        out.extend_from_slice(if token[0] == b'-' {
                            b"-1e400"
                        } else {
                            b"1e400"
                        });
                    }
                    copied = i;
                }
                // The token's last byte stands for it (a digit: not a separator).
                after = b'0';
            }
            _ => i += 1,
        }
    }
    match out {
        None => Cow::Borrowed(text),
        Some(mut out) => {
            out.extend_from_slice(&text[copied..]);
            Cow::Owned(out)
        }
    }
}

/// The index after the string whose contents start at `i`.
fn string_end(text: &[u8], mut i: usize) -> usize {
    while i < text.len() {
        match text[i] {
            b'\\' => i += 2,
            b'"' => return i + 1,
            _ => i += 1,
        }
    }
    i
}

/// What [`mark`] does with a number token.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Action {
    /// serde_json reads it exactly.
    Keep,
    /// serde_json would change it: a marked string.
    Mark,
    /// Past the largest float, which serde_json's fast reader may take for the
    /// largest float: replaced by a literal it refuses.
    OutOfRange,
}

fn action(token: &[u8]) -> Action {
    if !is_json_number(token) {
        return Action::Keep;
    }
    let Ok(text) = std::str::from_utf8(token) else {
        return Action::Keep;
    };
    if is_integer(token) {
        let fits = text.parse::<i64>().is_ok() || text.parse::<u64>().is_ok();
        return if fits { Action::Keep } else { Action::Mark };
    }
    match (text.parse::<f64>(), serde_json::from_str::<f64>(text)) {
        (Ok(exact), _) if !exact.is_finite() => Action::OutOfRange,
        (Ok(exact), Ok(fast)) if exact.to_bits() == fast.to_bits() => Action::Keep,
        // Rounded otherwise, or refused though in range (f64::MAX written out).
        (Ok(_), _) => Action::Mark,
        (Err(_), _) => Action::Keep,
    }
}

/// JSON's number grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
fn is_json_number(t: &[u8]) -> bool {
    let digits = |t: &[u8], mut i: usize| {
        let start = i;
        while i < t.len() && t[i].is_ascii_digit() {
            i += 1;
        }
        (i > start).then_some(i)
    };
    let mut i = usize::from(t.first() == Some(&b'-'));
    match t.get(i) {
        Some(b'0') => i += 1,
        Some(b'1'..=b'9') => i = digits(t, i).unwrap_or(i),
        _ => return false,
    }
    if t.get(i) == Some(&b'.') {
        let Some(next) = digits(t, i + 1) else {
            return false;
        };
        i = next;
    }
    if matches!(t.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(t.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        let Some(next) = digits(t, i) else {
            return false;
        };
        i = next;
    }
    i == t.len()
}

/// `-?[0-9]+`.
fn is_integer(t: &[u8]) -> bool {
    let digits = t.strip_prefix(b"-").unwrap_or(t);
    !digits.is_empty() && digits.iter().all(u8::is_ascii_digit)
}

/// Turns the marked floats of a value [`mark`]ed on its way in into exact `f64`
/// numbers (marked integers stay).
pub(crate) fn settle(value: &mut Value) {
    match value {
        Value::String(s) => {
            if let Some(token) = s.strip_prefix(PREFIX.as_str())
                && !is_integer(token.as_bytes())
                && let Some(n) = token.parse::<f64>().ok().and_then(Number::from_f64)
            {
                *value = Value::Number(n);
            }
        }
        Value::Array(items) => items.iter_mut().for_each(settle),
        Value::Object(fields) => fields.values_mut().for_each(settle),
        _ => {}
    }
}

/// Serializes as JSON text, marked numbers written as numbers.
pub fn to_vec<T: Serialize + ?Sized>(value: &T) -> serde_json::Result<Vec<u8>> {
    let text = serde_json::to_vec(value)?;
    Ok(unmark(&text).into_owned())
}

/// [`to_vec`] as a `String`.
pub fn to_string<T: Serialize + ?Sized>(value: &T) -> serde_json::Result<String> {
    finish(to_vec(value)?)
}

/// [`to_string`], pretty-printed.
pub fn to_string_pretty<T: Serialize + ?Sized>(value: &T) -> serde_json::Result<String> {
    let text = serde_json::to_vec_pretty(value)?;
    finish(unmark(&text).into_owned())
}

fn finish(bytes: Vec<u8>) -> serde_json::Result<String> {
    // serde_json writes UTF-8, and unmarking replaces whole strings by ASCII.
    String::from_utf8(bytes).map_err(|e| serde::ser::Error::custom(e.to_string()))
}

/// Replaces every marked string of JSON text written by serde_json with its number,
/// and every ordered key with its bare name. The secret part of the prefix is
/// blanked wherever else it shows (a message quoting a marked string, say), so that
/// it never leaves the process.
pub(crate) fn unmark(text: &[u8]) -> Cow<'_, [u8]> {
    let nonce = NONCE.as_bytes();
    if !contains(text, nonce) {
        return Cow::Borrowed(text);
    }
    let prefix = WRITTEN.as_slice();
    let key_prefix = KEY_WRITTEN.as_slice();
    let mut out = Vec::with_capacity(text.len());
    let mut i = 0;
    while i < text.len() {
        if text[i..].starts_with(key_prefix)
            && let Some(position) =
                text.get(i + key_prefix.len()..i + key_prefix.len() + KEY_POSITION)
            && position[..KEY_POSITION - 1].iter().all(u8::is_ascii_digit)
            && position[KEY_POSITION - 1] == b':'
        {
            out.push(b'"');
            i += key_prefix.len() + KEY_POSITION;
            continue;
        }
        if text[i..].starts_with(prefix) {
            let start = i + prefix.len();
            let end = text[start..]
                .iter()
                .position(|&b| b == b'"')
                .map(|n| start + n);
            if let Some(end) = end
                && is_json_number(&text[start..end])
            {
                out.extend_from_slice(&text[start..end]);
                i = end + 1;
                continue;
            }
        }
        if text[i..].starts_with(nonce) {
            out.extend(std::iter::repeat_n(b'*', nonce.len()));
            i += nonce.len();
            continue;
        }
        out.push(text[i]);
        i += 1;
    }
    Cow::Owned(out)
}

fn contains(text: &[u8], needle: &[u8]) -> bool {
    text.windows(needle.len()).any(|w| w == needle)
}

/// A value on its way out of the public API: a marked integer is refused (`Err`
/// holds its digits), since the application's serde_json cannot hold it.
pub(crate) fn public(value: &Value) -> Result<(), String> {
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        match v {
            Value::Array(items) => stack.extend(items),
            Value::Object(fields) => stack.extend(fields.values()),
            other => {
                if let Some(digits) = marked(other) {
                    return Err(digits.to_string());
                }
            }
        }
    }
    Ok(())
}

/// What to do about an integer [`public`] refused.
pub(crate) fn beyond_serde_json(digits: &str) -> String {
    format!(
        "the answer holds the integer {digits}, which a serde_json::Value cannot hold in this build (serde_json's `arbitrary_precision` feature is off); turn that feature on in your application to receive it, or serve the answer over HTTP or MCP, which write it exactly"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn big_integers_and_hard_floats_read_and_write_exactly() {
        let text = br#"{"a": 123456789012345678901234567890, "b": [-98765432109876543210, 7],
            "c": 2.2250738585072011e-308, "d": "12345678901234567890123 \"x", "e": 0.5}"#;
        let value = read(text).expect("test value");
        assert_eq!(marked(&value["a"]), Some("123456789012345678901234567890"));
        assert_eq!(marked(&value["b"][0]), Some("-98765432109876543210"));
        assert_eq!(value["b"][1], 7);
        assert_eq!(
            value["c"].as_f64().map(f64::to_bits),
            "2.2250738585072011e-308"
                .parse::<f64>()
                .ok()
                .map(f64::to_bits)
        );
        assert_eq!(value["d"], "12345678901234567890123 \"x");
        let written = to_string(&value).expect("test value");
        assert!(
            written.contains(r#""a":123456789012345678901234567890"#),
            "{written}"
        );
        assert!(
            written.contains(r#"[-98765432109876543210,7]"#),
            "{written}"
        );
        assert!(public(&value).is_err());
    }

    #[test]
    fn a_marked_looking_string_from_outside_is_text() {
        let forged = format!(r#"["\u0000charon-number-0000:5", {}]"#, PAST_U64);
        let value = read(forged.as_bytes()).expect("test value");
        assert_eq!(marked(&value[0]), None);
        assert!(
            to_string(&value)
                .expect("test value")
                .starts_with(r#"["\u0000charon-number-0000:5","#)
        );
    }

    #[test]
    fn the_secret_never_leaves_in_other_text() {
        let message = Value::String(format!("invalid type: string {:?}", *PREFIX));
        let written = to_string(&message).expect("test value");
        assert!(!written.contains(NONCE.as_str()), "{written}");
        assert!(written.contains("charon-number-****"), "{written}");
    }

    #[test]
    fn only_values_are_marked_and_range_edges_stay_with_serde_json() {
        // A number where a key goes stays invalid JSON.
        assert!(read(b"{123456789012345678901234:1}").is_err());
        // Past the largest float: refused, never a marked string.
        assert!(read(b"[1.79769313486231581e308]").is_err());
        // The largest float written out in full reads as itself.
        let max = read(b"[1.7976931348623157e308]").expect("test value");
        assert_eq!(max[0].as_f64(), Some(f64::MAX));
    }

    #[test]
    fn grammar() {
        for ok in ["0", "-0", "12", "1.5", "1e5", "-1.25E-7", "10.0e+3"] {
            assert!(is_json_number(ok.as_bytes()), "{ok}");
        }
        for bad in ["", "-", "01", "1.", ".5", "1e", "1e+", "+1", "1-2", "--1"] {
            assert!(!is_json_number(bad.as_bytes()), "{bad}");
        }
    }
}
