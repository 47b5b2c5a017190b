//! (Over 900 lines on purpose: it mirrors scryer's tokenizer and head reader rule
//! for rule, and the rules are checked against `lexer.rs` best side by side.)
//!
//! A light Prolog source scanner: splits a file into comments and clauses with line
//! numbers and reads each clause head's name and arity. The engine still consults
//! the file; the scanner only has to agree with it on where clauses end and what the
//! head is, so it follows the tokenizer of scryer-prolog 0.10 (`src/parser/lexer.rs`)
//! rule for rule:
//!
//! - quoted items (`'…'`, `"…"`, `` `…` ``) with doubled quotes, `\` line
//!   continuations and the escapes `\\ \' \" \``, `\a \b \f \n \r \t \v`, octal
//!   `\NNN\` and hexadecimal `\xHH\` (the closing `\` belongs to the escape);
//! - character codes `0'c` in all their forms (`0'a`, `0'\n`, `0'\\`, `0'''`,
//!   `0'"`, `0' `, `0'\x41\`), radix integers (`0x1F`, `0o17`, `0b101`), digit groups
//!   (`1_000`) and floats (`1.5e-3`);
//! - names: a lowercase letter then alphanumerics, a run of symbol characters
//!   (`=..`, `+.`, `+/*`: a `/*` inside a symbol run starts no comment), `!`, `;`;
//! - layout is only space, tab, newline, CR, VT and FF; `%` and `/*` start comments
//!   where a token may start;
//! - a clause ends at a `.` that starts a token and is followed by layout, `%` or the
//!   end of the text.
//!
//! The head is read by an operator-precedence parser with scryer's default operator
//! table plus the operators the file's own `op/3` directives declare, so that
//! `a = b.`, `(-) .`, `:-(p(X), q).` and `alice likes bob.` (after
//! `:- op(700, xfx, likes).`) are all read as the clauses they are.

use std::collections::HashMap;

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
        /// A fact in functional notation, `name(…).` (see [`plain_fact`]).
        fact: bool,
        /// For a directive, the files of the knowledge base's own it loads (see
        /// [`file_loads`]).
        loads: Vec<String>,
    },
}

/// What a clause defines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Head {
    /// `:- …` or `?- …`.
    Directive,
    /// A clause of `name/arity` (DCG rules counted with their two extra arguments).
    Pred { name: String, arity: usize },
    /// Something the scanner cannot read as a head (a variable, a number, a
    /// module-qualified head, a syntax error, …).
    Unknown,
}

// ---------------------------------------------------------------------------
// Character classes, as scryer-prolog 0.10 defines them (`src/parser/macros.rs`).

fn is_layout(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\r' | '\u{0B}' | '\u{0C}')
}

/// `graphic_token_char`: the characters of symbol atoms such as `=..`.
fn is_graphic(c: char) -> bool {
    matches!(
        c,
        '#' | '$'
            | '&'
            | '*'
            | '+'
            | '-'
            | '.'
            | '/'
            | ':'
            | '<'
            | '='
            | '>'
            | '?'
            | '@'
            | '^'
            | '~'
            | '\\'
    )
}

fn is_solo(c: char) -> bool {
    matches!(
        c,
        '!' | '(' | ')' | ',' | ';' | '[' | ']' | '{' | '}' | '|' | '%'
    )
}

fn is_meta(c: char) -> bool {
    matches!(c, '\\' | '\'' | '"' | '`')
}

fn is_alpha(c: char) -> bool {
    c == '_'
        || !(c.is_numeric()
            || c.is_whitespace()
            || c.is_control()
            || is_graphic(c)
            || is_layout(c)
            || is_meta(c)
            || is_solo(c))
}

fn is_alnum(c: char) -> bool {
    is_alpha(c) || c.is_numeric()
}

/// Starts a name (`small_letter_char`).
fn is_small(c: char) -> bool {
    c.is_alphabetic() && !c.is_uppercase()
}

// ---------------------------------------------------------------------------
// Tokens.

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Tok {
    /// An atom: a name, a symbol run, `!`, `;`, or a quoted atom (`text` decoded).
    Name {
        text: String,
        quoted: bool,
    },
    Var,
    /// A number as written.
    Num(String),
    /// A double-quoted string.
    Str,
    /// A back-quoted string.
    BackQ,
    /// `(` after layout.
    Open,
    /// `(` right after the previous token: the arguments of a compound term.
    OpenCT,
    Close,
    OpenList,
    CloseList,
    OpenCurly,
    CloseCurly,
    Bar,
    Comma,
    /// The `.` that ends a clause.
    End,
    /// A character no token starts with (the engine reports a syntax error).
    Bad,
}

pub(crate) struct Lexer<'a> {
    chars: &'a [char],
    pub(crate) pos: usize,
    pub(crate) line: usize,
    /// Where a quoted item that the text ends inside starts, if one does.
    pub(crate) unterminated: Option<usize>,
}

impl<'a> Lexer<'a> {
    pub(crate) fn new(chars: &'a [char]) -> Self {
        Lexer {
            chars,
            pos: 0,
            line: 1,
            unterminated: None,
        }
    }

    pub(crate) fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    pub(crate) fn peek_at(&self, n: usize) -> Option<char> {
        self.chars.get(self.pos + n).copied()
    }

    pub(crate) fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += 1;
        if c == '\n' {
            self.line += 1;
        }
        Some(c)
    }

    fn bump_while(&mut self, f: impl Fn(char) -> bool) {
        while self.peek().is_some_and(&f) {
            self.bump();
        }
    }

    /// Reads a line comment whose `%` was just consumed, up to the newline.
    pub(crate) fn line_comment(&mut self) -> String {
        let start = self.pos;
        self.bump_while(|c| c != '\n');
        self.chars[start..self.pos].iter().collect()
    }

    /// Reads a block comment whose `/*` was just consumed.
    pub(crate) fn block_comment(&mut self) -> String {
        let start = self.pos;
        while let Some(c) = self.bump() {
            if c == '*' && self.peek() == Some('/') {
                self.bump();
                return self.chars[start..self.pos - 2].iter().collect();
            }
        }
        self.chars[start..].iter().collect()
    }

    /// Skips layout and comments; whether there were any.
    pub(crate) fn skip_layout(&mut self) -> bool {
        let start = self.pos;
        loop {
            match self.peek() {
                Some(c) if is_layout(c) => {
                    self.bump();
                }
                Some('%') => {
                    self.bump();
                    self.line_comment();
                }
                Some('/') if self.peek_at(1) == Some('*') => {
                    self.bump();
                    self.bump();
                    self.block_comment();
                }
                _ => return self.pos != start,
            }
        }
    }

    /// The next token; `layout_before` tells whether layout separates it from the
    /// previous one. `None` at the end of the text.
    pub(crate) fn token(&mut self, layout_before: bool) -> Option<Tok> {
        let c = self.peek()?;
        if c.is_uppercase() || c == '_' {
            self.bump();
            self.bump_while(is_alnum);
            return Some(Tok::Var);
        }
        let solo = match c {
            ',' => Some(Tok::Comma),
            ')' => Some(Tok::Close),
            '(' if layout_before => Some(Tok::Open),
            '(' => Some(Tok::OpenCT),
            '[' => Some(Tok::OpenList),
            ']' => Some(Tok::CloseList),
            '{' => Some(Tok::OpenCurly),
            '}' => Some(Tok::CloseCurly),
            '|' => Some(Tok::Bar),
            '.' if self.peek_at(1).is_none_or(|n| is_layout(n) || n == '%') => Some(Tok::End),
            _ => None,
        };
        if let Some(tok) = solo {
            self.bump();
            return Some(tok);
        }
        if c.is_ascii_digit() {
            return Some(self.number());
        }
        let start = self.pos;
        self.bump();
        let name = |lx: &Self| Tok::Name {
            text: lx.chars[start..lx.pos].iter().collect(),
            quoted: false,
        };
        Some(match c {
            '"' => {
                self.quoted('"');
                Tok::Str
            }
            '\'' => Tok::Name {
                text: self.quoted('\''),
                quoted: true,
            },
            '`' => {
                self.back_quoted();
                Tok::BackQ
            }
            '!' | ';' => name(self),
            c if is_small(c) => {
                self.bump_while(is_alnum);
                name(self)
            }
            c if is_graphic(c) => {
                self.bump_while(is_graphic);
                name(self)
            }
            _ => Tok::Bad,
        })
    }

    /// Reads a quoted item whose opening quote was just consumed, up to and including
    /// its closing quote; returns its text with escapes decoded.
    fn quoted(&mut self, quote: char) -> String {
        let mut text = String::new();
        let open = self.pos - 1;
        loop {
            let Some(c) = self.bump() else {
                self.unterminated.get_or_insert(open);
                break;
            };
            if c == '\\' {
                self.escape(&mut text);
            } else if c == quote {
                if self.peek() == Some(quote) {
                    self.bump();
                    text.push(quote);
                } else {
                    break;
                }
            } else {
                text.push(c);
            }
        }
        text
    }

    /// Reads an escape sequence whose `\` was just consumed, pushing its character.
    /// Octal and hexadecimal escapes end with a `\` of their own (`'\x1\'`).
    fn escape(&mut self, text: &mut String) {
        let Some(c) = self.peek() else { return };
        self.bump();
        let radix = match c {
            '\n' => return, // a line continuation
            'x' => 16,
            '0'..='7' => {
                self.pos -= 1;
                8
            }
            _ => {
                text.push(match c {
                    'a' => '\u{07}',
                    'b' => '\u{08}',
                    'f' => '\u{0C}',
                    'n' => '\n',
                    'r' => '\r',
                    't' => '\t',
                    'v' => '\u{0B}',
                    other => other,
                });
                return;
            }
        };
        let mut code: u32 = 0;
        while let Some(d) = self.peek().and_then(|d| d.to_digit(radix)) {
            self.bump();
            code = code.saturating_mul(radix).saturating_add(d);
        }
        if self.peek() == Some('\\') {
            self.bump();
        }
        text.push(char::from_u32(code).unwrap_or(char::REPLACEMENT_CHARACTER));
    }

    /// Skips a back-quoted string whose opening quote was just consumed. Scryer has
    /// no escapes there; a `'` takes the character after it along.
    fn back_quoted(&mut self) {
        let open = self.pos - 1;
        loop {
            let Some(c) = self.bump() else {
                self.unterminated.get_or_insert(open);
                return;
            };
            match c {
                '\\' if self.peek() == Some('\n') => {
                    self.bump();
                }
                '\'' => {
                    self.bump();
                }
                '`' if self.peek() == Some('`') => {
                    self.bump();
                }
                '`' => return,
                _ => {}
            }
        }
    }

    /// Reads a number starting at the current digit.
    fn number(&mut self) -> Tok {
        let start = self.pos;
        self.bump();
        loop {
            match self.peek() {
                Some(d) if d.is_ascii_digit() => {
                    self.bump();
                }
                // Digit groups: `1_000`, `1_ 000` (layout and comments may follow `_`).
                Some('_') => {
                    let (pos, line) = (self.pos, self.line);
                    self.bump();
                    self.skip_layout();
                    if !self.peek().is_some_and(|d| d.is_ascii_digit()) {
                        (self.pos, self.line) = (pos, line);
                        break;
                    }
                }
                _ => break,
            }
        }
        let digit_at =
            |lx: &Self, n: usize, radix: u32| lx.peek_at(n).is_some_and(|d| d.is_digit(radix));
        if self.peek() == Some('.') && digit_at(self, 1, 10) {
            self.bump();
            self.bump_while(|d| d.is_ascii_digit());
            if matches!(self.peek(), Some('e' | 'E')) {
                let sign = matches!(self.peek_at(1), Some('+' | '-'));
                if digit_at(self, 1 + usize::from(sign), 10) {
                    self.bump();
                    if sign {
                        self.bump();
                    }
                    self.bump_while(|d| d.is_ascii_digit());
                }
            }
        } else if self.pos == start + 1 && self.chars[start] == '0' {
            match self.peek() {
                Some('x') if digit_at(self, 1, 16) => {
                    self.bump();
                    self.bump_while(|d| d.is_ascii_hexdigit());
                }
                Some('o') if digit_at(self, 1, 8) => {
                    self.bump();
                    self.bump_while(|d| d.is_digit(8));
                }
                Some('b') if digit_at(self, 1, 2) => {
                    self.bump();
                    self.bump_while(|d| d.is_digit(2));
                }
                Some('\'') => {
                    self.bump();
                    self.char_code();
                }
                _ => {}
            }
        }
        Tok::Num(self.chars[start..self.pos].iter().collect())
    }

    /// Reads the character of a `0'c` code whose `0'` was just consumed.
    fn char_code(&mut self) {
        match self.peek() {
            // `0'\` newline: scryer reads 0 and then a quoted atom starting here.
            Some('\\') if self.peek_at(1) == Some('\n') => {
                self.bump();
                self.bump();
                self.quoted('\'');
            }
            Some('\\') => {
                self.bump();
                self.escape(&mut String::new());
            }
            // `0'''` is the code of `'`; `0''` alone is a syntax error in scryer,
            // which then reads `0` and `''`: the same characters either way.
            Some('\'') => {
                self.bump();
                if self.peek() == Some('\'') {
                    self.bump();
                }
            }
            Some(_) => {
                self.bump();
            }
            None => {}
        }
    }

    /// The tokens up to the end of the clause (its `.` consumed, not returned) or of
    /// the text. Layout before the first token must have been skipped.
    fn clause_tokens(&mut self) -> Vec<Tok> {
        let mut toks = Vec::new();
        let mut layout = true;
        while let Some(tok) = self.token(layout) {
            if tok == Tok::End {
                break;
            }
            toks.push(tok);
            layout = self.skip_layout();
        }
        toks
    }
}

// ---------------------------------------------------------------------------
// Operators.

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Assoc {
    Xfx,
    Xfy,
    Yfx,
    Fy,
    Fx,
    Xf,
    Yf,
}

impl Assoc {
    pub(crate) fn parse(s: &str) -> Option<Assoc> {
        Some(match s {
            "xfx" => Assoc::Xfx,
            "xfy" => Assoc::Xfy,
            "yfx" => Assoc::Yfx,
            "fy" => Assoc::Fy,
            "fx" => Assoc::Fx,
            "xf" => Assoc::Xf,
            "yf" => Assoc::Yf,
            _ => return None,
        })
    }
}

#[derive(Debug, Clone, Copy, Default)]
struct OpDefs {
    prefix: Option<(u16, Assoc)>,
    infix: Option<(u16, Assoc)>,
    postfix: Option<(u16, Assoc)>,
}

#[derive(Debug, Clone)]
pub(crate) struct Ops(HashMap<String, OpDefs>);

impl Ops {
    /// The operators of a fresh scryer-prolog 0.10 machine (`current_op/3`).
    pub(crate) fn scryer() -> Ops {
        let mut ops = Ops(HashMap::new());
        let table: &[(u16, Assoc, &[&str])] = &[
            (200, Assoc::Fy, &["+", "-", "\\"]),
            (200, Assoc::Xfx, &["**"]),
            (200, Assoc::Xfy, &["^"]),
            (
                400,
                Assoc::Yfx,
                &["*", "/", "//", "<<", ">>", "div", "mod", "rdiv", "rem"],
            ),
            (500, Assoc::Yfx, &["+", "-", "/\\", "\\/"]),
            (600, Assoc::Xfy, &[":"]),
            (700, Assoc::Fx, &["non_counted_backtracking"]),
            (
                700,
                Assoc::Xfx,
                &[
                    "<", "=", "=..", "=:=", "=<", "==", "=\\=", ">", ">=", "@<", "@=<", "@>",
                    "@>=", "\\=", "\\==", "is",
                ],
            ),
            (900, Assoc::Fy, &["\\+"]),
            (1000, Assoc::Xfy, &[","]),
            (1050, Assoc::Xfy, &["->"]),
            (1100, Assoc::Xfy, &[";"]),
            (1200, Assoc::Fx, &[":-", "?-"]),
            (1200, Assoc::Xfx, &["-->", ":-"]),
        ];
        for (p, a, names) in table {
            for n in *names {
                ops.add(*p, *a, n);
            }
        }
        ops
    }

    /// `op(P, A, Name)`; priority 0 removes the operator.
    pub(crate) fn add(&mut self, p: u16, a: Assoc, name: &str) {
        let defs = self.0.entry(name.to_string()).or_default();
        let def = (p > 0).then_some((p, a));
        match a {
            Assoc::Fy | Assoc::Fx => defs.prefix = def,
            Assoc::Xfx | Assoc::Xfy | Assoc::Yfx => defs.infix = def,
            Assoc::Xf | Assoc::Yf => defs.postfix = def,
        }
    }

    fn get(&self, name: &str) -> OpDefs {
        self.0.get(name).copied().unwrap_or_default()
    }

    /// Applies the `op/3` goals found anywhere in a directive (`:- op(…)`,
    /// `:- module(m, [op(…)])`, …).
    pub(crate) fn declare_from(&mut self, t: &Term) {
        match t {
            Term::Compound(f, args) if f == "op" && args.len() == 3 => {
                let (Some(p), Term::Atom(a)) = (int_value(&args[0]), &args[1]) else {
                    return;
                };
                let (Ok(p), Some(a)) = (u16::try_from(p), Assoc::parse(a)) else {
                    return;
                };
                if p > 1200 {
                    return;
                }
                match &args[2] {
                    Term::Atom(n) => self.add(p, a, n),
                    Term::List(names, None) => {
                        for n in names {
                            if let Term::Atom(n) = n {
                                self.add(p, a, n);
                            }
                        }
                    }
                    _ => {}
                }
            }
            Term::Compound(_, args) => args.iter().for_each(|a| self.declare_from(a)),
            Term::List(items, _) => items.iter().for_each(|a| self.declare_from(a)),
            _ => {}
        }
    }
}

// ---------------------------------------------------------------------------
// Terms.

/// A term as far as the scanner needs it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Term {
    Atom(String),
    Compound(String, Vec<Term>),
    Num(String),
    /// A list with its optional tail.
    List(Vec<Term>, Option<Box<Term>>),
    Var,
    Str,
}

/// The value of an integer as written (`42`, `1_000`, `0x2A`, `0'*`), if it fits.
pub(crate) fn int_value(t: &Term) -> Option<usize> {
    let Term::Num(text) = t else { return None };
    if let Some(c) = text.strip_prefix("0'") {
        let chars: Vec<char> = c.chars().collect();
        return match chars.as_slice() {
            ['\\', rest @ ..] => {
                let mut lx = Lexer::new(rest);
                let mut s = String::new();
                lx.escape(&mut s);
                s.chars().next().map(|c| c as usize)
            }
            [c, ..] => Some(*c as usize),
            [] => None,
        };
    }
    let digits: String = text
        .chars()
        .filter(|c| *c != '_' && !is_layout(*c))
        .collect();
    let (radix, digits) = match digits.get(..2) {
        Some("0x") => (16, &digits[2..]),
        Some("0o") => (8, &digits[2..]),
        Some("0b") => (2, &digits[2..]),
        _ => (10, &digits[..]),
    };
    usize::from_str_radix(digits, radix).ok()
}

/// Deepest nesting the parser follows before it gives up on a clause.
const MAX_DEPTH: usize = 400;

/// An operator-precedence parser over one clause's tokens.
pub(crate) struct Parser<'a> {
    toks: &'a [Tok],
    pos: usize,
    ops: &'a Ops,
    /// Steps left: bounds the backtracking on pathological text.
    budget: usize,
    depth: usize,
    /// The furthest token looked at: where a clause that cannot be read goes wrong.
    furthest: std::cell::Cell<usize>,
}

/// Why a clause could not be parsed.
pub(crate) enum Unread {
    /// No reading fits: the furthest token the parser reached.
    At(usize),
    /// The parser gave up (too deep, or too much backtracking): nothing is known.
    GaveUp,
}

impl<'a> Parser<'a> {
    /// Parses all of `toks` as one term of priority at most `max`.
    fn parse(toks: &'a [Tok], ops: &'a Ops, max: u16) -> Option<Term> {
        Self::read(toks, ops, max).ok()
    }

    /// Parses all of `toks` as one term of priority at most `max`, or says why not.
    pub(crate) fn read(toks: &'a [Tok], ops: &'a Ops, max: u16) -> Result<Term, Unread> {
        let mut p = Parser {
            toks,
            pos: 0,
            ops,
            budget: 64 * toks.len() + 256,
            depth: 0,
            furthest: std::cell::Cell::new(0),
        };
        match p.term(max) {
            Some((t, _)) if p.pos == toks.len() => Ok(t),
            _ if p.budget == 0 => Err(Unread::GaveUp),
            Some(_) => Err(Unread::At(p.furthest.get().max(p.pos))),
            None => Err(Unread::At(p.furthest.get())),
        }
    }

    fn peek(&self) -> Option<&'a Tok> {
        self.furthest.set(self.furthest.get().max(self.pos));
        self.toks.get(self.pos)
    }

    fn eat(&mut self, tok: &Tok) -> bool {
        let hit = self.peek() == Some(tok);
        if hit {
            self.pos += 1;
        }
        hit
    }

    fn term(&mut self, max: u16) -> Option<(Term, u16)> {
        if self.budget == 0 || self.depth >= MAX_DEPTH {
            self.budget = 0;
            return None;
        }
        self.budget -= 1;
        self.depth += 1;
        let r = self.term_inner(max);
        self.depth -= 1;
        r
    }

    fn term_inner(&mut self, max: u16) -> Option<(Term, u16)> {
        let (mut left, mut left_p) = self.primary(max)?;
        loop {
            let name = match self.peek() {
                Some(Tok::Name { text, .. }) => text.as_str(),
                Some(Tok::Comma) => ",",
                Some(Tok::Bar) => "|",
                _ => break,
            };
            let defs = self.ops.get(name);
            if let Some((p, a)) = defs.infix {
                let (la, ra) = match a {
                    Assoc::Xfy => (p - 1, p),
                    Assoc::Yfx => (p, p - 1),
                    _ => (p - 1, p - 1),
                };
                if p <= max && left_p <= la {
                    let save = self.pos;
                    self.pos += 1;
                    if let Some((right, _)) = self.term(ra) {
                        left = Term::Compound(name.to_string(), vec![left, right]);
                        left_p = p;
                        continue;
                    }
                    self.pos = save;
                }
            }
            if let Some((p, a)) = defs.postfix {
                let la = if a == Assoc::Yf { p } else { p - 1 };
                if p <= max && left_p <= la {
                    self.pos += 1;
                    left = Term::Compound(name.to_string(), vec![left]);
                    left_p = p;
                    continue;
                }
            }
            break;
        }
        Some((left, left_p))
    }

    fn primary(&mut self, max: u16) -> Option<(Term, u16)> {
        let tok = self.peek()?;
        self.pos += 1;
        match tok {
            Tok::Num(n) => Some((Term::Num(n.clone()), 0)),
            Tok::Var => Some((Term::Var, 0)),
            Tok::Str | Tok::BackQ => Some((Term::Str, 0)),
            Tok::Open | Tok::OpenCT => {
                let (t, _) = self.term(1200)?;
                self.eat(&Tok::Close).then_some((t, 0))
            }
            Tok::OpenList => {
                if self.eat(&Tok::CloseList) {
                    return self.after_name("[]", false, max);
                }
                let mut items = Vec::new();
                loop {
                    items.push(self.term(999)?.0);
                    if !self.eat(&Tok::Comma) {
                        break;
                    }
                }
                let tail = if self.eat(&Tok::Bar) {
                    Some(Box::new(self.term(999)?.0))
                } else {
                    None
                };
                self.eat(&Tok::CloseList)
                    .then_some((Term::List(items, tail), 0))
            }
            Tok::OpenCurly => {
                if self.eat(&Tok::CloseCurly) {
                    return self.after_name("{}", false, max);
                }
                let (t, _) = self.term(1200)?;
                self.eat(&Tok::CloseCurly)
                    .then_some((Term::Compound("{}".into(), vec![t]), 0))
            }
            Tok::Name { text, quoted } => self.after_name(text, *quoted, max),
            // `(|)`: the bar as an atom.
            Tok::Bar => self.after_name("|", false, max),
            _ => None,
        }
    }

    /// The arguments of a compound term, its `(` consumed, up to its `)`.
    fn arguments(&mut self) -> Option<Vec<Term>> {
        let mut args = Vec::new();
        loop {
            args.push(self.term(999)?.0);
            if !self.eat(&Tok::Comma) {
                break;
            }
        }
        self.eat(&Tok::Close).then_some(args)
    }

    /// The term that starts with the atom `name` (just consumed).
    fn after_name(&mut self, name: &str, quoted: bool, max: u16) -> Option<(Term, u16)> {
        if self.eat(&Tok::OpenCT) {
            let open = self.pos;
            if let Some(args) = self.arguments() {
                return Some((Term::Compound(name.to_string(), args), 0));
            }
            // Scryer reads a name that is a prefix operator and no infix one, right
            // before `(`, with the bracketed term at 1200 as its one argument:
            // `\+(a ; b)`, `\(a ; b)`.
            let defs = self.ops.get(name);
            if defs.prefix.is_some() && defs.infix.is_none() && self.budget > 0 {
                self.pos = open;
                let (t, _) = self.term(1200)?;
                return self
                    .eat(&Tok::Close)
                    .then(|| (Term::Compound(name.to_string(), vec![t]), 0));
            }
            return None;
        }
        if name == "-" && !quoted {
            // Scryer reads `- 1` as well as `-1` as a negative number.
            if let Some(Tok::Num(n)) = self.peek() {
                self.pos += 1;
                return Some((Term::Num(format!("-{n}")), 0));
            }
        }
        if let Some((p, a)) = self.ops.get(name).prefix {
            let operand_follows = match self.peek() {
                None
                | Some(
                    Tok::End
                    | Tok::Close
                    | Tok::CloseList
                    | Tok::CloseCurly
                    | Tok::Comma
                    | Tok::Bar,
                ) => false,
                // `- = a` compares the atom `-`; `- - a` and `- =(a, b)` apply it.
                Some(Tok::Name { text, .. }) => {
                    let next = self.ops.get(text);
                    next.prefix.is_some()
                        || (next.infix.is_none() && next.postfix.is_none())
                        || self.toks.get(self.pos + 1) == Some(&Tok::OpenCT)
                }
                _ => true,
            };
            if operand_follows && p <= max {
                let arg_max = if a == Assoc::Fy { p } else { p - 1 };
                let save = self.pos;
                if let Some((arg, _)) = self.term(arg_max) {
                    return Some((Term::Compound(name.to_string(), vec![arg]), p));
                }
                self.pos = save;
            }
        }
        Some((Term::Atom(name.to_string()), 0))
    }
}

// ---------------------------------------------------------------------------
// Clauses.

/// What the clause `t` defines.
pub(crate) fn head_of_term(t: &Term) -> Head {
    match t {
        Term::Compound(f, a) if (f == ":-" || f == "?-") && a.len() == 1 => Head::Directive,
        Term::Compound(f, a) if f == ":-" && a.len() == 2 => functor(&a[0], 0),
        Term::Compound(f, a) if f == "-->" && a.len() == 2 => functor(dcg_head(&a[0]), 2),
        t => functor(t, 0),
    }
}

/// The non-terminal of a DCG head with pushback (`a, [x] --> …`).
fn dcg_head(t: &Term) -> &Term {
    match t {
        Term::Compound(f, a) if f == "," && a.len() == 2 => &a[0],
        t => t,
    }
}

fn functor(t: &Term, extra: usize) -> Head {
    match t {
        Term::Atom(name) => Head::Pred {
            name: name.clone(),
            arity: extra,
        },
        // A module-qualified head defines a predicate of another module.
        Term::Compound(f, a) if f == ":" && a.len() == 2 => Head::Unknown,
        Term::Compound(name, a) => Head::Pred {
            name: name.clone(),
            arity: a.len() + extra,
        },
        _ => Head::Unknown,
    }
}

/// The files a directive loads: the atoms (not `library(…)`) that `include/1`,
/// `consult/1`, `ensure_loaded/1`, `use_module/1,2` or a list `[a, b]` names.
pub(crate) fn file_loads(t: &Term) -> Vec<String> {
    /// `dir/sub/file` written as a term: the path `dir/sub/file`.
    fn path(t: &Term) -> Option<String> {
        match t {
            Term::Atom(a) => Some(a.clone()),
            Term::Compound(f, a) if f == "/" && a.len() == 2 => {
                Some(format!("{}/{}", path(&a[0])?, path(&a[1])?))
            }
            _ => None,
        }
    }
    fn specs(t: &Term, out: &mut Vec<String>) {
        match t {
            Term::Atom(a) if a == "[]" => {}
            Term::List(items, _) => items.iter().for_each(|i| specs(i, out)),
            t => out.extend(path(t)),
        }
    }
    let mut out = Vec::new();
    if let Term::Compound(neck, body) = t
        && neck == ":-"
        && let [goal] = body.as_slice()
    {
        match goal {
            Term::Compound(f, args)
                if matches!(
                    (f.as_str(), args.len()),
                    ("include" | "consult" | "ensure_loaded" | "use_module", 1) | ("use_module", 2)
                ) =>
            {
                specs(&args[0], &mut out);
            }
            Term::List(..) => specs(goal, &mut out),
            _ => {}
        }
    }
    out
}

/// Reads what a clause defines from its tokens, and applies the `op/3` directives;
/// for a directive, also the files it loads.
fn read_clause(toks: &[Tok], ops: &mut Ops) -> (Head, Vec<String>) {
    if let Some(t) = Parser::parse(toks, ops, 1200) {
        let head = head_of_term(&t);
        if head == Head::Directive {
            ops.declare_from(&t);
            return (head, file_loads(&t));
        }
        return (head, Vec::new());
    }
    (read_head_fallback(toks, ops), Vec::new())
}

/// What a clause the parser cannot read defines: a syntax error, or operators the
/// scanner does not know (a library's, in the body).
fn read_head_fallback(toks: &[Tok], ops: &mut Ops) -> Head {
    // Read what comes before the neck alone.
    let is_name = |t: Option<&Tok>, names: &[&str]| matches!(t, Some(Tok::Name { text, quoted: false }) if names.contains(&text.as_str()));
    if is_name(toks.first(), &[":-", "?-"]) {
        return if toks.get(1) == Some(&Tok::OpenCT) {
            Head::Unknown
        } else {
            Head::Directive
        };
    }
    let mut depth = 0usize;
    let mut neck = None;
    for (i, t) in toks.iter().enumerate() {
        match t {
            Tok::Open | Tok::OpenCT | Tok::OpenList | Tok::OpenCurly => depth += 1,
            Tok::Close | Tok::CloseList | Tok::CloseCurly => depth = depth.saturating_sub(1),
            t if depth == 0 && i > 0 && is_name(Some(t), &[":-", "-->"]) => {
                neck = Some((i, is_name(Some(t), &["-->"])));
                break;
            }
            _ => {}
        }
    }
    let (head, extra) = match neck {
        Some((i, dcg)) => (&toks[..i], if dcg { 2 } else { 0 }),
        None => (toks, 0),
    };
    if let Some(t) = Parser::parse(head, ops, 1199) {
        return functor(dcg_head(&t), extra);
    }
    // Last resort: a name and its top-level arguments.
    match toks.first() {
        Some(Tok::Name { text, .. }) => {
            let arity = if toks.get(1) == Some(&Tok::OpenCT) {
                count_group(&toks[1..]).0
            } else {
                0
            };
            Head::Pred {
                name: text.clone(),
                arity: arity + extra,
            }
        }
        _ => Head::Unknown,
    }
}

/// Counts the arguments of the bracketed group the tokens start with; returns the
/// count and how many tokens the group takes (`None` if it is not closed).
fn count_group<'t>(toks: impl IntoIterator<Item = &'t Tok>) -> (usize, Option<usize>) {
    let mut depth = 0usize;
    let mut args = 0usize;
    let mut saw_token = false;
    for (i, t) in toks.into_iter().enumerate() {
        match t {
            Tok::Open | Tok::OpenCT | Tok::OpenList | Tok::OpenCurly => {
                depth += 1;
                if depth > 1 {
                    saw_token = true;
                }
            }
            Tok::Close | Tok::CloseList | Tok::CloseCurly => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return (args + usize::from(saw_token), Some(i + 1));
                }
            }
            Tok::Comma if depth == 1 => {
                args += 1;
                saw_token = false;
            }
            _ => saw_token = true,
        }
    }
    (args + usize::from(saw_token), None)
}

/// Whether a clause's tokens are a fact in functional notation: a name other than
/// the neck and directive operators, `(` right after it, and the group it opens
/// ends the clause (`f(a, g(b)).`, not `f(a) :- b.` nor `f(a), g.`).
fn plain_fact(toks: &[Tok]) -> bool {
    matches!(toks.first(), Some(Tok::Name { text, .. })
        if ![":-", "?-", "-->", ",", ";", "|", "->", "*->", "\\+"].contains(&text.as_str()))
        && toks.get(1) == Some(&Tok::OpenCT)
        && count_group(&toks[1..]).1 == Some(toks.len() - 1)
}

/// Whether a clause is the atom `end_of_file`, where the engine stops reading.
pub(crate) fn is_end_of_file(toks: &[Tok]) -> bool {
    matches!(toks, [Tok::Name { text, .. }] if text == "end_of_file")
}

/// Splits `src` into items. Text after the last clause end is read as a clause too,
/// so a missing final `.` still shows up (the engine reports the syntax error).
pub(crate) fn scan(src: &str) -> Vec<Item> {
    let chars: Vec<char> = src.chars().collect();
    let mut lx = Lexer::new(&chars);
    let mut ops = Ops::scryer();
    let mut items = Vec::new();
    while let Some(c) = lx.peek() {
        // Between clauses: whitespace and comments.
        if c.is_whitespace() {
            lx.bump();
            continue;
        }
        if c == '%' {
            let line = lx.line;
            lx.bump();
            let text = lx.line_comment();
            items.push(Item::LineComment { line, text });
            continue;
        }
        if c == '/' && lx.peek_at(1) == Some('*') {
            let line = lx.line;
            lx.bump();
            lx.bump();
            let text = lx.block_comment();
            items.push(Item::BlockComment { line, text });
            continue;
        }
        let line = lx.line;
        let start = lx.pos;
        let mut end = start;
        let mut toks = Vec::new();
        let mut layout = true;
        while let Some(tok) = lx.token(layout) {
            end = lx.pos;
            if tok == Tok::End {
                break;
            }
            toks.push(tok);
            layout = lx.skip_layout();
        }
        let (head, loads) = read_clause(&toks, &mut ops);
        items.push(Item::Clause {
            line,
            fact: plain_fact(&toks),
            head,
            span: start..end,
            loads,
        });
        // The engine reads nothing after `end_of_file.`
        if is_end_of_file(&toks) {
            break;
        }
    }
    items
}

/// The predicate indicators a `:- dynamic …` directive declares, in order; empty for
/// any other text. See [`crate::dynamic_declared`].
pub(crate) fn dynamic_declared(text: &str) -> Vec<(String, usize)> {
    let chars: Vec<char> = text.chars().collect();
    let mut lx = Lexer::new(&chars);
    lx.skip_layout();
    let toks = lx.clause_tokens();
    // Scryer has no `dynamic` operator, SWI-Prolog files write `:- dynamic a/1, b/2.`
    let mut ops = Ops::scryer();
    ops.add(1150, Assoc::Fx, "dynamic");
    let mut out = Vec::new();
    if let Some(Term::Compound(neck, body)) = Parser::parse(&toks, &ops, 1200)
        && neck == ":-"
        && let [Term::Compound(d, specs)] = body.as_slice()
        && d == "dynamic"
        && let [spec] = specs.as_slice()
    {
        indicators(spec, &mut out);
    }
    out
}

/// Collects `Name/Arity`, `Name//Arity`, `M:PI`, `(PI, PI)` and `[PI, …]`.
fn indicators(t: &Term, out: &mut Vec<(String, usize)>) {
    match t {
        Term::Compound(f, a) if a.len() == 2 && (f == "," || f == ":") => {
            if f == "," {
                indicators(&a[0], out);
            }
            indicators(&a[1], out);
        }
        Term::Compound(f, a) if a.len() == 2 && (f == "/" || f == "//") => {
            if let (Term::Atom(name), Some(arity)) = (&a[0], int_value(&a[1])) {
                let extra = if f == "//" { 2 } else { 0 };
                out.push((name.clone(), arity + extra));
            }
        }
        Term::List(items, _) => items.iter().for_each(|i| indicators(i, out)),
        _ => {}
    }
}

/// Reads an atom at the start of `chars`: a plain name, a quoted atom (escapes
/// decoded), or symbol chars; returns it and the index after it.
pub(crate) fn read_atom(chars: &[char]) -> Option<(String, usize)> {
    let mut lx = Lexer::new(chars);
    match lx.token(true)? {
        Tok::Name { text, .. } => Some((text, lx.pos)),
        _ => None,
    }
}

/// Counts top-level arguments of the parenthesised group starting at `open`; returns
/// the count and the index after the closing parenthesis (`chars.len()` if it is not
/// closed).
pub(crate) fn count_args(chars: &[char], open: usize) -> (usize, usize) {
    let mut lx = Lexer::new(chars);
    lx.pos = open;
    let mut toks = Vec::new();
    let mut ends = Vec::new();
    let mut layout = true;
    while let Some(tok) = lx.token(layout) {
        toks.push(tok);
        ends.push(lx.pos);
        layout = lx.skip_layout();
    }
    let (args, taken) = count_group(&toks);
    (args, taken.map_or(chars.len(), |n| ends[n - 1]))
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

    /// Each clause's text and head.
    fn clauses(src: &str) -> Vec<(String, Head)> {
        let chars: Vec<char> = src.chars().collect();
        scan(src)
            .into_iter()
            .filter_map(|i| match i {
                Item::Clause { head, span, .. } => Some((chars[span].iter().collect(), head)),
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

    /// Asserts that `src` holds exactly the clauses `expected` (text, name, arity).
    #[track_caller]
    fn check(src: &str, expected: &[(&str, &str, usize)]) {
        let got = clauses(src);
        let want: Vec<(String, Head)> = expected
            .iter()
            .map(|(t, n, a)| (t.to_string(), pred(n, *a)))
            .collect();
        assert_eq!(got, want, "in {src:?}");
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
        assert_eq!(heads("X :- true.")[0].1, Head::Unknown);
        assert_eq!(heads("1.")[0].1, Head::Unknown);
        assert_eq!(heads("\"s\".")[0].1, Head::Unknown);
        // Operator syntax is read as such: this is a clause of =/2.
        assert_eq!(heads("X = 1.")[0].1, pred("=", 2));
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
                    fact: false,
                    loads: Vec::new(),
                },
            ]
        );
    }

    #[test]
    fn plain_facts_are_told_from_rules_and_directives() {
        let facts: Vec<bool> = crate::clauses(
            "f(a, g(b, c)).\nf(X) :- g(X).\n:- dynamic(f/1).\nf('x)y', \")\", [1, 2]).\n\
             f(a), g.\n':-'(h).\nk.\nm:f(a).\nf (a).\n",
        )
        .into_iter()
        .map(|c| c.fact)
        .collect();
        assert_eq!(
            facts,
            [true, false, false, true, false, false, false, false, false]
        );
    }

    #[test]
    fn hexadecimal_and_octal_escapes_end_with_their_own_backslash() {
        // How scryer writes U+0001: the closing `\` must not escape the quote.
        check(
            "p('\\x1\\'). q('a\\x85\\b', \"\\x2028\\\"). r.\n",
            &[
                ("p('\\x1\\').", "p", 1),
                ("q('a\\x85\\b', \"\\x2028\\\").", "q", 2),
                ("r.", "r", 0),
            ],
        );
        check(
            "p('\\0\\', '\\101\\', '\\7\\'). q.",
            &[("p('\\0\\', '\\101\\', '\\7\\').", "p", 3), ("q.", "q", 0)],
        );
        // The name of a head is decoded.
        assert_eq!(heads("'\\x41\\b\\x1\\'(x).")[0].1, pred("Ab\u{1}", 1));
        assert_eq!(heads("'\\101\\\\n\\\\'.")[0].1, pred("A\n\\", 0));
    }

    #[test]
    fn simple_escapes_doubled_quotes_and_continuations() {
        check(
            "p('\\\\', '\\'', '''', 'it''s. x', '\\n\\t\\a\\b\\f\\v\\r\\0\\'). q.",
            &[
                (
                    "p('\\\\', '\\'', '''', 'it''s. x', '\\n\\t\\a\\b\\f\\v\\r\\0\\').",
                    "p",
                    5,
                ),
                ("q.", "q", 0),
            ],
        );
        check(
            "p(\"a\\\"b. \", \"a\"\"b. \", \"'\", \"`\"). q.",
            &[
                ("p(\"a\\\"b. \", \"a\"\"b. \", \"'\", \"`\").", "p", 4),
                ("q.", "q", 0),
            ],
        );
        // `\` newline continues a quoted item on the next line.
        check(
            "p('a\\\nb. ', \"c\\\nd. \"). q.",
            &[("p('a\\\nb. ', \"c\\\nd. \").", "p", 2), ("q.", "q", 0)],
        );
        assert_eq!(heads("'a\\\nb'.")[0].1, pred("ab", 0));
    }

    #[test]
    fn back_quoted_text() {
        check(
            "p(`a. b`, `x``y. `, `it'`s. `). q.",
            &[("p(`a. b`, `x``y. `, `it'`s. `).", "p", 3), ("q.", "q", 0)],
        );
    }

    #[test]
    fn character_codes_in_all_their_forms() {
        let src = "a(0'a). b(0'\\n). c(0'\\\\). d(0'''). e(0' ). f(0'\\x41\\). \
                   g(0'\"). h(0'`). i(0'.). j(0'%). k(0'(, 0')). l(0'\\'). m(0'\\0\\). \
                   n(0',, 0'|). o(0'ü).\n";
        let got: Vec<Head> = heads(src).into_iter().map(|(_, h)| h).collect();
        let want: Vec<Head> = "abcdefghijklmno"
            .chars()
            .map(|c| pred(&c.to_string(), if "kn".contains(c) { 2 } else { 1 }))
            .collect();
        assert_eq!(got, want);
        // `0''''` is `0'''` (39) then a quote that opens an atom, as scryer reads it.
        let texts: Vec<String> = clauses("p(0'''', a). q('). r.")
            .into_iter()
            .map(|(t, _)| t)
            .collect();
        assert_eq!(texts, ["p(0'''', a). q(').", "r."]);
        // `0''` alone is a syntax error in scryer, which reads `0` and `''`.
        check("p(0''). q.", &[("p(0'').", "p", 1), ("q.", "q", 0)]);
        // Not character codes: a digit ending a longer number or a name.
        check(
            "p(10, 'x. y'). q.",
            &[("p(10, 'x. y').", "p", 2), ("q.", "q", 0)],
        );
        check(
            "p(a0, 'x. y'). q.",
            &[("p(a0, 'x. y').", "p", 2), ("q.", "q", 0)],
        );
        check("p(X0'a'). q.", &[("p(X0'a').", "p", 1), ("q.", "q", 0)]);
    }

    #[test]
    fn numbers() {
        check(
            "p(1.5e-3, 1.0E10, 0x1F, 0o17, 0b101, 1_000, 1_ 000, 123456789012345678901234567890). q(1). r(1.e).",
            &[
                (
                    "p(1.5e-3, 1.0E10, 0x1F, 0o17, 0b101, 1_000, 1_ 000, 123456789012345678901234567890).",
                    "p",
                    8,
                ),
                ("q(1).", "q", 1),
                ("r(1.e).", "r", 1),
            ],
        );
        // A `.` after a number ends the clause when layout follows.
        check(
            "p :- X is 1.\nq.",
            &[("p :- X is 1.", "p", 0), ("q.", "q", 0)],
        );
    }

    #[test]
    fn where_a_dot_ends_a_clause() {
        check("p.", &[("p.", "p", 0)]);
        check("p.%c\nq.", &[("p.", "p", 0), ("q.", "q", 0)]);
        check(
            "p.\tq.\r\nr.",
            &[("p.", "p", 0), ("q.", "q", 0), ("r.", "r", 0)],
        );
        // `.` followed by anything else is part of a symbol atom.
        check("p./*c*/. q.", &[("p./*c*/. q.", "p", 0)]);
        check(
            "p :- X =.. Y, Z = '.', W = (+.) . q.",
            &[
                ("p :- X =.. Y, Z = '.', W = (+.) .", "p", 0),
                ("q.", "q", 0),
            ],
        );
        // How portray_clause/2 ends a clause whose last token is a symbol atom.
        check(
            "f(A) :-\n   A= +. .\ng.",
            &[("f(A) :-\n   A= +. .", "f", 1), ("g.", "g", 0)],
        );
        // Layout is only space, tab, newline, CR, VT and FF: U+0085 and U+2028 after a
        // `.` do not end a clause for scryer, so they do not here either.
        check("p.\u{85}q. r.", &[("p.\u{85}q.", "p", 0), ("r.", "r", 0)]);
        check(
            "p.\u{2028}q. r.",
            &[("p.\u{2028}q.", "p", 0), ("r.", "r", 0)],
        );
        // No final `.`: the rest is a clause (the engine reports the error).
        check("p. q(a, b)  % c\n", &[("p.", "p", 0), ("q(a, b)", "q", 2)]);
    }

    #[test]
    fn comments_inside_and_between_clauses() {
        check(
            "p :- /* a. 'b */ q, % c. 'd\n r. /* e. */ s.",
            &[("p :- /* a. 'b */ q, % c. 'd\n r.", "p", 0), ("s.", "s", 0)],
        );
        // `/*` inside a run of symbol characters is part of the atom (as in scryer).
        check("p(+/*). q.", &[("p(+/*).", "p", 1), ("q.", "q", 0)]);
        // A block comment ends at the first `*/`.
        check(
            "/* /* */ p. /*/ q. */ r.",
            &[("p.", "p", 0), ("r.", "r", 0)],
        );
    }

    #[test]
    fn non_ascii_text() {
        check(
            "中文(x). 'ü'(\"é. \"). p('\u{85}', '\u{2028}'). ǅx. a→b(1). q.",
            &[
                ("中文(x).", "中文", 1),
                ("'ü'(\"é. \").", "ü", 1),
                ("p('\u{85}', '\u{2028}').", "p", 2),
                ("ǅx.", "ǅx", 0),
                ("a→b(1).", "a→b", 1),
                ("q.", "q", 0),
            ],
        );
        let items = scan("% é\n/* ü\n*/\n中(1).\n");
        assert!(matches!(items[2], Item::Clause { line: 4, .. }));
    }

    #[test]
    fn operators_as_atoms_in_arguments() {
        check(
            "p('.', ===>, [], '[]', {}, '{}', ',', '|', ;, !, \\, (:-), -, - (-), \\+ (\\+), [-], a- -1, - (1)). q.",
            &[
                (
                    "p('.', ===>, [], '[]', {}, '{}', ',', '|', ;, !, \\, (:-), -, - (-), \\+ (\\+), [-], a- -1, - (1)).",
                    "p",
                    18,
                ),
                ("q.", "q", 0),
            ],
        );
    }

    #[test]
    fn heads_in_operator_syntax() {
        check("a = b.", &[("a = b.", "=", 2)]);
        check("a=b :-\n   c.", &[("a=b :-\n   c.", "=", 2)]);
        check("-a :- b.", &[("-a :- b.", "-", 1)]);
        check("(-) .", &[("(-) .", "-", 0)]);
        check("(a;b).", &[("(a;b).", ";", 2)]);
        check("{x}.", &[("{x}.", "{}", 1)]);
        check("[].", &[("[].", "[]", 0)]);
        check("[](a).", &[("[](a).", "[]", 1)]);
        check("'.'(a, b).", &[("'.'(a, b).", ".", 2)]);
        // write_canonical/2 writes rules in functional notation.
        check(":-(p(_1), q(_1)).", &[(":-(p(_1), q(_1)).", "p", 1)]);
        assert_eq!(heads(":-(dynamic(p/1)).")[0].1, Head::Directive);
        check("-->(a, [x]).", &[("-->(a, [x]).", "a", 2)]);
        check("a, [x] --> b.", &[("a, [x] --> b.", "a", 2)]);
        assert_eq!(heads("m:p(1).")[0].1, Head::Unknown);
        assert_eq!(heads("?- p.")[0].1, Head::Directive);
        // Operators of the file's own op/3 directives, in order.
        let src = "a likes b.\n:- op(700, xfx, likes).\nc likes d.\n\
                   :- module(m, [op(200, xfy, [&&, ~>])]).\nx && y :- z ~> w.\n\
                   :- op(0, xfx, likes).\ne likes f.\n";
        let got: Vec<Head> = heads(src).into_iter().map(|(_, h)| h).collect();
        assert_eq!(
            got,
            [
                pred("a", 0),
                Head::Directive,
                pred("likes", 2),
                Head::Directive,
                pred("&&", 2),
                Head::Directive,
                pred("e", 0),
            ]
        );
    }

    #[test]
    fn unknown_operators_in_a_body_do_not_hide_the_head() {
        check(
            "p(X, Y) :- X #= Y + 1, Y in 0..9.",
            &[("p(X, Y) :- X #= Y + 1, Y in 0..9.", "p", 2)],
        );
        check("q(X) --> X ## y.", &[("q(X) --> X ## y.", "q", 3)]);
        assert_eq!(
            heads(":- use_module(library(clpz)), X #= 1.")[0].1,
            Head::Directive
        );
        // Syntax errors in the head: a name and its arguments, as before.
        check("p(a b, c) :- q.", &[("p(a b, c) :- q.", "p", 2)]);
    }

    #[test]
    fn pathological_nesting_stays_bounded() {
        let deep = format!("p({}x{}). q.", "f(".repeat(5000), ")".repeat(5000));
        let got = clauses(&deep);
        assert_eq!(got.len(), 2);
        assert_eq!(got[0].1, pred("p", 1));
        let chain = format!("p :- {} . q.", vec!["- -"; 3000].join(" "));
        assert_eq!(clauses(&chain).len(), 2);
        let conj = format!("p :- {}. q.", vec!["a"; 20000].join(", "));
        assert_eq!(clauses(&conj)[0].1, pred("p", 0));
    }

    #[test]
    fn count_args_and_read_atom_know_escapes() {
        let chars: Vec<char> = "p('\\x1\\', 0'\\\\, \"a\\\\\", 'x\\x41\\y', 0''', `,`) is det"
            .chars()
            .collect();
        let (n, end) = count_args(&chars, 1);
        assert_eq!(n, 6);
        assert_eq!(
            chars[..end].iter().collect::<String>(),
            "p('\\x1\\', 0'\\\\, \"a\\\\\", 'x\\x41\\y', 0''', `,`)"
        );
        let chars: Vec<char> = "f() x".chars().collect();
        assert_eq!(count_args(&chars, 1), (0, 3));
        let chars: Vec<char> = "f(a, (b, c), [d, e]".chars().collect();
        assert_eq!(count_args(&chars, 1), (3, chars.len()));
        let chars: Vec<char> = "'a\\x41\\\\'b'(x)".chars().collect();
        assert_eq!(read_atom(&chars), Some(("aA'b".to_string(), 11)));
        let chars: Vec<char> = "=..(x)".chars().collect();
        assert_eq!(read_atom(&chars), Some(("=..".to_string(), 3)));
        assert_eq!(read_atom(&['X']), None);
    }

    #[test]
    fn dynamic_declarations() {
        let pis = |s: &str| -> Vec<(String, usize)> { dynamic_declared(s) };
        let v = |xs: &[(&str, usize)]| -> Vec<(String, usize)> {
            xs.iter().map(|(n, a)| (n.to_string(), *a)).collect()
        };
        assert_eq!(pis(":- dynamic(a/1)."), v(&[("a", 1)]));
        assert_eq!(pis(":- dynamic a/1, b/2."), v(&[("a", 1), ("b", 2)]));
        assert_eq!(
            pis(":- dynamic([a/1, 'b c'/2])."),
            v(&[("a", 1), ("b c", 2)])
        );
        assert_eq!(pis(":- dynamic((a/1, b/2))."), v(&[("a", 1), ("b", 2)]));
        assert_eq!(pis(":- dynamic m:a/1."), v(&[("a", 1)]));
        assert_eq!(pis(":- dynamic(m:(a/1, b/2))."), v(&[("a", 1), ("b", 2)]));
        assert_eq!(pis(":- dynamic(user:'x y'/0)."), v(&[("x y", 0)]));
        assert_eq!(pis(":- dynamic(phrase_rule//1)."), v(&[("phrase_rule", 3)]));
        assert_eq!(
            pis(":- dynamic 'a\\x41\\\\'\\n'/3, 'it''s'/1."),
            v(&[("aA'\n", 3), ("it's", 1)])
        );
        assert_eq!(pis(":- dynamic('\\x1\\'/1)."), v(&[("\u{1}", 1)]));
        assert_eq!(
            pis(":- % declare\n   dynamic /* the facts */ (\n  a / 1 , % first\n b/0x2 ).\n"),
            v(&[("a", 1), ("b", 2)])
        );
        assert_eq!(pis(":-dynamic(a/1)."), v(&[("a", 1)]));
        assert_eq!(pis(":-(dynamic(a/1))."), v(&[("a", 1)]));
        assert_eq!(pis(":- dynamic(a/1_0)."), v(&[("a", 10)]));
        // Not a substring match: `xa/1` is not `a/1`, `user_role/2` is not `role/2`.
        assert_eq!(pis(":- dynamic(xa/1)."), v(&[("xa", 1)]));
        assert!(!pis(":- dynamic(xa/1).").contains(&("a".into(), 1)));
        assert_eq!(pis(":- dynamic user_role/2."), v(&[("user_role", 2)]));
        assert!(!pis(":- dynamic user_role/2.").contains(&("role".into(), 2)));
        // Names inside quotes, comments or other terms are not declarations.
        assert!(pis(":- dynamic('a/1'/2).").contains(&("a/1".into(), 2)));
        assert_eq!(pis(":- dynamic(b/2). % a/1"), v(&[("b", 2)]));
        assert_eq!(pis(":- dynamic(b/2)./* a/1 */"), v(&[]));
        // Not dynamic declarations.
        for text in [
            ":- discontiguous(a/1).",
            ":- initialization(dynamic(a/1)).",
            "dynamic(a/1).",
            "p :- dynamic(a/1).",
            ":- dynamic.",
            ":- dynamic(a/1, b/2).",
            ":- dynamic(a/1",
            ":- use_module(library(lists)).",
            "",
            "% :- dynamic(a/1).",
        ] {
            assert_eq!(pis(text), v(&[]), "{text:?}");
        }
        // Elements that are not predicate indicators are skipped.
        assert_eq!(
            pis(":- dynamic([a/1, X/2, b/c, 'c'/3])."),
            v(&[("a", 1), ("c", 3)])
        );
    }
}
