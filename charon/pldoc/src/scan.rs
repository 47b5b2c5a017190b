//! A light Prolog source scanner: splits a file into comments and clauses with line
//! numbers and reads each clause head's name and arity. It is not a Prolog parser; the
//! engine still consults the file. It only has to agree with Prolog on where clauses
//! end (quotes, `0'c`, comments, `=..`) and what the head is.

/// One item of source, in file order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Item {
    /// A `%` comment; `text` excludes the `%` and the newline.
    LineComment { line: usize, text: String },
    /// A `/* … */` comment; `text` excludes the delimiters.
    BlockComment { line: usize, text: String },
    /// A clause or directive; `line` is where its first token is; `span` is its text
    /// in characters, from its first token to its end `.` included.
    Clause {
        line: usize,
        head: Head,
        span: std::ops::Range<usize>,
    },
}

/// What a clause defines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Head {
    /// `:- …` or `?- …`.
    Directive,
    /// A clause of `name/arity` (DCG rules counted with their two extra arguments).
    Pred { name: String, arity: usize },
    /// Something the scanner cannot read as a head (a variable, a number, …).
    Unknown,
}

struct Cursor<'a> {
    chars: Vec<char>,
    pos: usize,
    line: usize,
    _src: &'a str,
}

impl<'a> Cursor<'a> {
    fn new(src: &'a str) -> Self {
        Cursor {
            chars: src.chars().collect(),
            pos: 0,
            line: 1,
            _src: src,
        }
    }

    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    fn peek_at(&self, n: usize) -> Option<char> {
        self.chars.get(self.pos + n).copied()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += 1;
        if c == '\n' {
            self.line += 1;
        }
        Some(c)
    }

    /// Skips a quoted item whose opening quote was just consumed.
    fn skip_quoted(&mut self, quote: char) {
        while let Some(c) = self.bump() {
            if c == '\\' {
                self.bump();
            } else if c == quote {
                if self.peek() == Some(quote) {
                    self.bump();
                } else {
                    return;
                }
            }
        }
    }

    fn line_comment(&mut self) -> String {
        let mut text = String::new();
        while let Some(c) = self.peek() {
            if c == '\n' {
                break;
            }
            text.push(c);
            self.bump();
        }
        text
    }

    /// Reads a block comment whose `/*` was just consumed.
    fn block_comment(&mut self) -> String {
        let mut text = String::new();
        while let Some(c) = self.bump() {
            if c == '*' && self.peek() == Some('/') {
                self.bump();
                return text;
            }
            text.push(c);
        }
        text
    }
}

fn is_symbol_char(c: char) -> bool {
    "+-*/\\^<>=~:.?@#&$".contains(c)
}

/// Splits `src` into items. Text after the last clause end is read as a clause too,
/// so a missing final `.` still shows up (the engine reports the syntax error).
pub(crate) fn scan(src: &str) -> Vec<Item> {
    let mut cur = Cursor::new(src);
    let mut items = Vec::new();
    // Between clauses: whitespace and comments.
    while let Some(c) = cur.peek() {
        if c.is_whitespace() {
            cur.bump();
            continue;
        }
        if c == '%' {
            let line = cur.line;
            cur.bump();
            let text = cur.line_comment();
            items.push(Item::LineComment { line, text });
            continue;
        }
        if c == '/' && cur.peek_at(1) == Some('*') {
            let line = cur.line;
            cur.bump();
            cur.bump();
            let text = cur.block_comment();
            items.push(Item::BlockComment { line, text });
            continue;
        }
        let line = cur.line;
        let start = cur.pos;
        let text = clause_text(&mut cur);
        items.push(Item::Clause {
            line,
            head: read_head(&text),
            span: start..cur.pos,
        });
    }
    items
}

/// Consumes one clause up to and including its end `.`, returning its text with
/// comments removed.
fn clause_text(cur: &mut Cursor<'_>) -> String {
    let mut text = String::new();
    let mut prev: Option<char> = None;
    while let Some(c) = cur.bump() {
        match c {
            '%' => {
                cur.line_comment();
                text.push(' ');
                prev = Some(' ');
                continue;
            }
            '/' if cur.peek() == Some('*') => {
                cur.bump();
                cur.block_comment();
                text.push(' ');
                prev = Some(' ');
                continue;
            }
            '\'' | '"' | '`' => {
                // 0'c is a character code, not a quoted atom.
                if c == '\''
                    && prev == Some('0')
                    && !text
                        .chars()
                        .rev()
                        .nth(1)
                        .is_some_and(|p| p.is_alphanumeric() || p == '_')
                {
                    let start = cur.pos;
                    // `0'\n` and `0''''` take two characters.
                    if cur.peek() == Some('\\')
                        || (cur.peek() == Some('\'') && cur.peek_at(1) == Some('\''))
                    {
                        cur.bump();
                    }
                    cur.bump();
                    text.push('\'');
                    text.extend(&cur.chars[start..cur.pos]);
                    prev = Some('c');
                    continue;
                }
                let start = cur.pos - 1;
                cur.skip_quoted(c);
                text.extend(&cur.chars[start..cur.pos]);
                prev = Some(c);
                continue;
            }
            '.' => {
                let next = cur.peek();
                let ends = match next {
                    None => true,
                    Some(n) => n.is_whitespace() || n == '%',
                };
                let in_symbol = prev.is_some_and(is_symbol_char);
                if ends && !in_symbol {
                    return text;
                }
            }
            _ => {}
        }
        text.push(c);
        prev = Some(c);
    }
    text
}

/// Reads the head's name and arity from a clause's text.
fn read_head(text: &str) -> Head {
    let t = text.trim_start();
    if t.starts_with(":-") || t.starts_with("?-") {
        return Head::Directive;
    }
    let chars: Vec<char> = t.chars().collect();
    let (name, mut i) = match read_atom(&chars) {
        Some(x) => x,
        None => return Head::Unknown,
    };
    let mut arity = 0;
    if chars.get(i) == Some(&'(') {
        let (n, end) = count_args(&chars, i);
        arity = n;
        i = end;
    }
    let rest: String = chars[i..].iter().collect();
    if rest.trim_start().starts_with("-->") {
        arity += 2;
    }
    Head::Pred { name, arity }
}

/// Reads an atom at the start of `chars`: a plain name, a quoted atom, or symbol chars.
pub(crate) fn read_atom(chars: &[char]) -> Option<(String, usize)> {
    let first = *chars.first()?;
    if first.is_lowercase() {
        let end = chars
            .iter()
            .position(|c| !(c.is_alphanumeric() || *c == '_'))
            .unwrap_or(chars.len());
        return Some((chars[..end].iter().collect(), end));
    }
    if first == '\'' {
        let mut name = String::new();
        let mut i = 1;
        while i < chars.len() {
            let c = chars[i];
            if c == '\\' {
                if let Some(&e) = chars.get(i + 1) {
                    name.push(match e {
                        'n' => '\n',
                        't' => '\t',
                        other => other,
                    });
                }
                i += 2;
                continue;
            }
            if c == '\'' {
                if chars.get(i + 1) == Some(&'\'') {
                    name.push('\'');
                    i += 2;
                    continue;
                }
                return Some((name, i + 1));
            }
            name.push(c);
            i += 1;
        }
        return None;
    }
    if is_symbol_char(first) {
        let end = chars
            .iter()
            .position(|c| !is_symbol_char(*c))
            .unwrap_or(chars.len());
        return Some((chars[..end].iter().collect(), end));
    }
    None
}

/// Counts top-level arguments of the parenthesised group starting at `open`; returns
/// the count and the index after the closing parenthesis.
pub(crate) fn count_args(chars: &[char], open: usize) -> (usize, usize) {
    let mut depth = 0usize;
    let mut args = 0usize;
    let mut saw_token = false;
    let mut i = open;
    while i < chars.len() {
        let c = chars[i];
        match c {
            '(' | '[' | '{' => {
                depth += 1;
                if depth > 1 {
                    saw_token = true;
                }
            }
            ')' | ']' | '}' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    if saw_token {
                        args += 1;
                    }
                    return (args, i + 1);
                }
            }
            ',' if depth == 1 => {
                args += 1;
                saw_token = false;
                i += 1;
                continue;
            }
            '\'' if i > 0
                && chars[i - 1] == '0'
                && !(i > 1 && (chars[i - 2].is_alphanumeric() || chars[i - 2] == '_')) =>
            {
                // 0'c character code: skip the character (and its escape).
                saw_token = true;
                i += if chars.get(i + 1) == Some(&'\\') {
                    2
                } else {
                    1
                };
            }
            '\'' | '"' | '`' => {
                saw_token = true;
                i += 1;
                while i < chars.len() {
                    if chars[i] == '\\' {
                        i += 1;
                    } else if chars[i] == c {
                        break;
                    }
                    i += 1;
                }
            }
            c if !c.is_whitespace() => saw_token = true,
            _ => {}
        }
        i += 1;
    }
    (args, chars.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn heads(src: &str) -> Vec<(usize, Head)> {
        scan(src)
            .into_iter()
            .filter_map(|i| match i {
                Item::Clause { line, head, .. } => Some((line, head)),
                _ => None,
            })
            .collect()
    }

    fn pred(name: &str, arity: usize) -> Head {
        Head::Pred {
            name: name.into(),
            arity,
        }
    }

    #[test]
    fn clause_ends_respect_quotes_chars_and_operators() {
        let src = "a('x. y', \"s. t\", 0'., X) :- X =.. [f|_], Y = 'it''s.'.\n\
                   % comment.\n\
                   b :- c. /* block. */ d(1.5, [a,b]).\n\
                   e --> [x].\n\
                   :- dynamic(f/1).\n";
        assert_eq!(
            heads(src),
            vec![
                (1, pred("a", 4)),
                (3, pred("b", 0)),
                (3, pred("d", 2)),
                (4, pred("e", 2)),
                (5, Head::Directive),
            ]
        );
    }

    #[test]
    fn quoted_and_symbol_heads() {
        assert_eq!(heads("'my pred'(a).")[0].1, pred("my pred", 1));
        assert_eq!(heads("f(g(a, b), [1, 2], {x, y}).")[0].1, pred("f", 3));
        assert_eq!(heads("X = 1.")[0].1, Head::Unknown);
    }

    #[test]
    fn comments_keep_their_lines() {
        let items = scan("%! p is det.\n%\n/** q */\np.\n");
        assert_eq!(
            items,
            vec![
                Item::LineComment {
                    line: 1,
                    text: "! p is det.".into()
                },
                Item::LineComment {
                    line: 2,
                    text: "".into()
                },
                Item::BlockComment {
                    line: 3,
                    text: "* q ".into()
                },
                Item::Clause {
                    line: 4,
                    head: pred("p", 0),
                    span: 24..26,
                },
            ]
        );
    }
}
