//! Rust names for Prolog names: `pim_check` stays, `Age` becomes `age`, `meds.pl`
//! becomes `Meds`, and keywords become raw identifiers.

use proc_macro2::{Ident, Span};

/// Words that cannot be identifiers even as raw identifiers.
const NOT_RAW: &[&str] = &["self", "Self", "super", "crate", "_"];

const KEYWORDS: &[&str] = &[
    "as", "async", "await", "break", "const", "continue", "dyn", "else", "enum", "extern", "false",
    "fn", "for", "gen", "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub",
    "ref", "return", "static", "struct", "trait", "true", "type", "unsafe", "use", "where",
    "while", "abstract", "become", "box", "do", "final", "macro", "override", "priv", "try",
    "typeof", "unsized", "virtual", "yield",
];

/// Splits a name into lower-case words: `pim_check` → [pim, check], `DrugList` →
/// [drug, list], `XMLData` → [xml, data], `get-x` → [get, x].
fn words(name: &str) -> Vec<String> {
    let chars: Vec<char> = name.chars().collect();
    let mut words = Vec::new();
    let mut word = String::new();
    for (i, &c) in chars.iter().enumerate() {
        if !c.is_alphanumeric() {
            if !word.is_empty() {
                words.push(std::mem::take(&mut word));
            }
            continue;
        }
        let prev = i.checked_sub(1).map(|p| chars[p]);
        let next = chars.get(i + 1).copied();
        let boundary = c.is_uppercase()
            && !word.is_empty()
            && (prev.is_some_and(|p| p.is_lowercase() || p.is_ascii_digit())
                || next.is_some_and(char::is_lowercase));
        if boundary {
            words.push(std::mem::take(&mut word));
        }
        word.extend(c.to_lowercase());
    }
    if !word.is_empty() {
        words.push(word);
    }
    words
}

/// `snake_case`.
pub(crate) fn snake(name: &str) -> String {
    let joined = words(name).join("_");
    if joined.is_empty() {
        "x".into()
    } else {
        joined
    }
}

/// `UpperCamelCase`.
pub(crate) fn camel(name: &str) -> String {
    let joined: String = words(name)
        .iter()
        .map(|w| {
            let mut cs = w.chars();
            cs.next()
                .map(|f| f.to_uppercase().chain(cs).collect::<String>())
                .unwrap_or_default()
        })
        .collect();
    if joined.is_empty() {
        "X".into()
    } else {
        joined
    }
}

/// An identifier for `text` (already cased): a raw identifier for a keyword, a
/// trailing `_` for the words that cannot be raw, a leading `_` before a digit.
pub(crate) fn ident(text: &str) -> Ident {
    let text = if text.starts_with(|c: char| c.is_ascii_digit()) {
        format!("_{text}")
    } else {
        text.to_string()
    };
    if NOT_RAW.contains(&text.as_str()) {
        Ident::new(&format!("{text}_"), Span::call_site())
    } else if KEYWORDS.contains(&text.as_str()) {
        Ident::new_raw(&text, Span::call_site())
    } else if syn::parse_str::<Ident>(&text).is_ok() {
        Ident::new(&text, Span::call_site())
    } else {
        // Letters Rust does not take in identifiers (`²`, say): `Ident::new` would
        // panic, so they become `_`.
        let ascii: String = text
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
            .collect();
        // `_` alone is not a name; `_1` would start with a digit once the `_` is gone.
        let ascii =
            if ascii.chars().all(|c| c == '_') || ascii.starts_with(|c: char| c.is_ascii_digit()) {
                format!("x{ascii}")
            } else {
                ascii
            };
        Ident::new(&ascii, Span::call_site())
    }
}

/// Whether `text` is a plain identifier made of ASCII letters, digits and `_` (and
/// not a word Rust reserves).
pub(crate) fn is_plain(text: &str) -> bool {
    !text.is_empty()
        && !NOT_RAW.contains(&text)
        && !KEYWORDS.contains(&text)
        && text.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !text.starts_with(|c: char| c.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cases() {
        assert_eq!(snake("pim_check"), "pim_check");
        assert_eq!(snake("Age"), "age");
        assert_eq!(snake("DrugList"), "drug_list");
        assert_eq!(snake("XMLData"), "xml_data");
        assert_eq!(snake("get-x"), "get_x");
        assert_eq!(snake("X1"), "x1");
        assert_eq!(camel("pim_check"), "PimCheck");
        assert_eq!(camel("meds"), "Meds");
        assert_eq!(camel("my-kb"), "MyKb");
        assert_eq!(ident("type").to_string(), "r#type");
        assert_eq!(ident("self").to_string(), "self_");
        assert_eq!(ident("1x").to_string(), "_1x");
        assert_eq!(ident("x²").to_string(), "x_");
        assert_eq!(ident("äge").to_string(), "äge");
        assert_eq!(ident("²").to_string(), "x_");
    }
}
