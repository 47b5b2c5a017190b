//! The Euclid-IR text form's words: a line split from its comment, then into
//! tokens (names in Unicode NFC, quoted strings, `$variables`, numbers, operators),
//! each with the place it starts.

use unicode_normalization::char::is_combining_mark;
use unicode_normalization::{IsNormalized, UnicodeNormalization, is_nfc_quick};

use super::{BUILTINS, CUT, DISJUNCTION, IF_THEN_ELSE, LISTS, MODULES, ParseError, UNIFICATION};
use crate::reason::ast::{Pos, is_iso_date};

#[derive(Debug, Clone, PartialEq)]
pub(super) enum Tok {
    /// A name (predicate or constant), ASCII letters folded to lowercase.
    Ident(String),
    /// A quoted constant, escapes resolved.
    Str(String),
    /// A keyword in any case, held in uppercase: `IF`, `AND`, `NOT`, `OR`.
    Upper(String),
    Var(String),
    Wild,
    Num(String),
    LParen,
    RParen,
    Comma,
    Op(&'static str),
    Question,
}

#[derive(Debug, Clone)]
pub(super) struct Token {
    pub(super) tok: Tok,
    pub(super) pos: Pos,
}

/// A comment's text (from its marker) and the column it starts at.
pub(super) type Comment<'a> = Option<(&'a str, usize)>;

/// The line split where its comment starts (`#`, `//` or `%` outside quotes):
/// the text before, and the comment with the column it starts at. A quote left
/// open is an error.
pub(super) fn split_comment(line: &str, number: usize) -> Result<(&str, Comment<'_>), ParseError> {
    let mut quote: Option<(char, usize)> = None;
    let mut escaped = false;
    let mut chars = line.char_indices().enumerate().peekable();
    while let Some((col, (at, c))) = chars.next() {
        if let Some((q, _)) = quote {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == q {
                quote = None;
            }
            continue;
        }
        let comment = match c {
            // `0'a` is Prolog's character code, refused by the tokenizer by name.
            '\'' if at > 0 && line[..at].ends_with('0') => false,
            '\'' | '"' => {
                quote = Some((c, col));
                false
            }
            '#' | '%' => true,
            '/' => chars.peek().is_some_and(|(_, (_, n))| *n == '/'),
            _ => false,
        };
        if comment {
            return Ok((&line[..at], Some((&line[at..], col + 1))));
        }
    }
    if let Some((q, col)) = quote {
        return Err(ParseError::new(
            Pos {
                line: number,
                column: col + 1,
            },
            format!("this string is not closed: end it with {q} on the same line"),
        ));
    }
    Ok((line, None))
}

/// Reads a quoted string from `chars[i]` (the quote): its text, escapes resolved
/// (`\n`, `\t`, and `\` before any other character stands for that character),
/// and the index after the closing quote.
pub(super) fn string_at(chars: &[char], i: usize, pos: Pos) -> Result<(String, usize), ParseError> {
    let quote = chars[i];
    let mut out = String::new();
    let mut j = i + 1;
    while j < chars.len() {
        match chars[j] {
            '\\' if j + 1 < chars.len() => {
                out.push(match chars[j + 1] {
                    'n' => '\n',
                    't' => '\t',
                    other => other,
                });
                j += 2;
            }
            c if c == quote => return Ok((out, j + 1)),
            c => {
                out.push(c);
                j += 1;
            }
        }
    }
    Err(ParseError::new(
        pos,
        format!("this string is not closed: end it with {quote} on the same line"),
    ))
}

/// The keyword a word is, in any case.
pub(super) fn keyword(word: &str) -> Option<&'static str> {
    ["IF", "AND", "NOT", "OR"]
        .into_iter()
        .find(|k| word.eq_ignore_ascii_case(k))
}

/// A name or a variable's name in Unicode's composed form (NFC), as the reference
/// reads names: `città` typed with a combining accent is the same name. (Quoted
/// strings are kept as written.)
pub(super) fn composed(chars: &[char]) -> String {
    match is_nfc_quick(chars.iter().copied()) {
        IsNormalized::Yes => chars.iter().collect(),
        _ => chars.iter().copied().nfc().collect(),
    }
}

/// Whether `c` may continue a name: a letter, a digit, `_`, or a combining mark
/// (an accent typed after its letter).
pub(super) fn name_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || is_combining_mark(c)
}

pub(super) fn tokenize(
    text: &str,
    line: usize,
    first_column: usize,
) -> Result<Vec<Token>, ParseError> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    let at = |i: usize| Pos {
        line,
        column: first_column + i,
    };
    let var_end = |from: usize| {
        let mut j = from;
        while j < chars.len() && name_char(chars[j]) {
            j += 1;
        }
        j
    };
    // A name: letters, digits and `_`, with `-` `.` `@` `+` between two of them
    // (`security-ops`, `alice@example.com`, `v1.2`).
    let name_end = |from: usize| {
        let mut j = from;
        while j < chars.len() {
            let c = chars[j];
            let joins = matches!(c, '-' | '.' | '@' | '+')
                && chars.get(j + 1).is_some_and(|n| n.is_alphanumeric());
            if name_char(c) || joins {
                j += 1;
            } else {
                break;
            }
        }
        j
    };
    while i < chars.len() {
        let c = chars[i];
        let pos = at(i);
        let (tok, len) = match c {
            c if c.is_whitespace() => {
                i += 1;
                continue;
            }
            '$' => {
                let end = var_end(i + 1);
                let name = composed(&chars[i + 1..end]);
                if name.is_empty()
                    || name.starts_with(|c: char| c.is_ascii_digit() || is_combining_mark(c))
                {
                    return Err(ParseError::new(
                        pos,
                        "a variable is $ followed by a name that starts with a letter, e.g. $who",
                    ));
                }
                (Tok::Var(name.to_ascii_lowercase()), end - i)
            }
            c if c.is_alphabetic() => {
                let end = name_end(i);
                let word = composed(&chars[i..end]);
                let tok = match keyword(&word) {
                    Some(k) => Tok::Upper(k.into()),
                    None => Tok::Ident(word.to_ascii_lowercase()),
                };
                (tok, end - i)
            }
            '_' => {
                let end = var_end(i);
                if end > i + 1 {
                    let name: String = chars[i + 1..end].iter().collect();
                    return Err(ParseError::new(
                        pos,
                        format!(
                            "`_{name}` looks like a Prolog variable: variables start with $ (write ${name}); a lone _ is a wildcard"
                        ),
                    ));
                }
                (Tok::Wild, 1)
            }
            '0'..='9'
                if chars.len() >= i + 10
                    && is_iso_date(&chars[i..i + 10])
                    && !chars
                        .get(i + 10)
                        .is_some_and(|c| c.is_alphanumeric() || *c == '_') =>
            {
                (Tok::Ident(chars[i..i + 10].iter().collect()), 10)
            }
            '0'..='9' => number_at(&chars, i, pos)?,
            '\'' | '"' => {
                let (text, end) = string_at(&chars, i, pos)?;
                (Tok::Str(text), end - i)
            }
            // A final full stop, as in Prolog, ends the item.
            '.' if chars[i + 1..].iter().all(|c| c.is_whitespace()) => break,
            _ => symbol_at(&chars, i, pos)?,
        };
        out.push(Token { tok, pos });
        i += len;
    }
    Ok(out)
}

/// The number at `chars[i]` (a digit), and its length in characters: decimal,
/// with an optional fraction; exponents, other bases and names that start with a
/// digit are refused by name.
pub(super) fn number_at(chars: &[char], i: usize, pos: Pos) -> Result<(Tok, usize), ParseError> {
    let mut end = i;
    while end < chars.len() && chars[end].is_ascii_digit() {
        end += 1;
    }
    if end + 1 < chars.len() && chars[end] == '.' && chars[end + 1].is_ascii_digit() {
        end += 1;
        while end < chars.len() && chars[end].is_ascii_digit() {
            end += 1;
        }
    }
    let after = chars.get(end).copied();
    let digit_follows = chars
        .get(end + 1)
        .is_some_and(|c| c.is_ascii_digit() || *c == '+' || *c == '-');
    if matches!(after, Some('e' | 'E')) && digit_follows {
        return Err(ParseError::new(
            pos,
            "exponents are not supported: write the number out (1000000, not 1e6)",
        ));
    }
    if end == i + 1 && chars[i] == '0' && matches!(after, Some('x' | 'o' | 'b' | '\'')) {
        return Err(ParseError::new(
            pos,
            "numbers are decimal: hexadecimal, octal, binary and character codes (0x, 0o, 0b, 0') are not supported",
        ));
    }
    if after.is_some_and(|c| c.is_alphabetic() || c == '_') {
        return Err(ParseError::new(
            pos,
            "a name cannot start with a digit: start it with a letter, or quote it (\"3rd_party\")",
        ));
    }
    let text: String = chars[i..end].iter().collect();
    if text.contains('.') && !text.parse::<f64>().is_ok_and(f64::is_finite) {
        return Err(ParseError::new(
            pos,
            "this decimal is too large to be a number: use an integer, or a smaller unit",
        ));
    }
    Ok((Tok::Num(text), end - i))
}

/// The operator or punctuation at `chars[i]`, and its length; a character outside
/// the grammar is refused, by the construct it starts when it is one.
pub(super) fn symbol_at(chars: &[char], i: usize, pos: Pos) -> Result<(Tok, usize), ParseError> {
    let c = chars[i];
    let next = chars.get(i + 1).copied();
    Ok(match c {
        '(' => (Tok::LParen, 1),
        ')' => (Tok::RParen, 1),
        ',' => (Tok::Comma, 1),
        // `?-`, Prolog's prompt, is read as `?`.
        '?' if next == Some('-') => (Tok::Question, 2),
        '?' => (Tok::Question, 1),
        '+' => (Tok::Op("+"), 1),
        '*' => (Tok::Op("*"), 1),
        '/' => (Tok::Op("/"), 1),
        '>' if next == Some('=') => (Tok::Op(">="), 2),
        '>' => (Tok::Op(">"), 1),
        '<' if next == Some('=') => (Tok::Op("=<"), 2),
        '<' => (Tok::Op("<"), 1),
        '=' => {
            let rest: String = chars[i..chars.len().min(i + 3)].iter().collect();
            if rest.starts_with("=:=") {
                (Tok::Op("=:="), 3)
            } else if rest.starts_with("=\\=") {
                (Tok::Op("=\\="), 3)
            } else if rest.starts_with("=<") {
                (Tok::Op("=<"), 2)
            } else if rest.starts_with("==") {
                (Tok::Op("=="), 2)
            } else if rest.starts_with("=>") {
                return Err(ParseError::new(
                    pos,
                    "`=>` is not an operator: write >= for at least",
                ));
            } else {
                return Err(ParseError::unsupported(pos, UNIFICATION, "`=`"));
            }
        }
        '-' if next == Some('>') => {
            return Err(ParseError::unsupported(pos, IF_THEN_ELSE, "`->`"));
        }
        '-' => (Tok::Op("-"), 1),
        '!' if next == Some('=') => (Tok::Op("!="), 2),
        '!' => return Err(ParseError::unsupported(pos, CUT, "`!`")),
        '\\' if next == Some('+') => {
            return Err(ParseError::new(pos, "`\\+` is Prolog: write NOT goal"));
        }
        '\\' if next == Some('=') => {
            return Err(ParseError::new(
                pos,
                "`\\=` is not an operator: write != for not the same value",
            ));
        }
        ';' | '|' => return Err(ParseError::unsupported(pos, DISJUNCTION, &format!("`{c}`"))),
        '[' | ']' => return Err(ParseError::unsupported(pos, LISTS, &format!("`{c}`"))),
        '`' => {
            return Err(ParseError::new(
                pos,
                "back quotes are not strings: quote text with ' or \"",
            ));
        }
        ':' if next == Some('-') => {
            return Err(ParseError::new(
                pos,
                "`:-` is Prolog: write head IF body, with AND between the goals",
            ));
        }
        ':' => return Err(ParseError::unsupported(pos, MODULES, "`:`")),
        '{' | '}' => {
            return Err(ParseError::unsupported(pos, BUILTINS, &format!("`{c}`")));
        }
        other => {
            return Err(ParseError::new(
                pos,
                format!(
                    "unexpected character `{other}`: Euclid-IR has names, 'strings', $variables, numbers, ( ) , and the operators > >= < =< == != =:= =\\= is + - * /"
                ),
            ));
        }
    })
}
