//! The Euclid-IR text form → [`Program`]: one item per line; a line ending in `AND`
//! (or `IF`) continues on the next, and a line starting with `AND` continues the
//! rule above it; `#`, `//` and `%` start comments (outside quotes), and a
//! final full stop is allowed. Keywords are read in any case, and names are folded
//! to lowercase (ASCII letters only), as the reference implementation reads them;
//! quoted strings are constants kept as written. A `# rule: ID` comment on one of a
//! rule's lines names the rule; on a line of its own it is a comment, as the
//! reference reads it. Constructs outside the grammar are refused by
//! name, with what to write instead.

use unicode_normalization::char::is_combining_mark;
use unicode_normalization::{IsNormalized, UnicodeNormalization, is_nfc_quick};

use super::ast::{
    ArithOp, Atom, Clause, CmpOp, Comparison, Expr, Literal, Pos, Program, Query, Term, is_iso_date,
};

/// Why knowledge or a query could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {}, column {}: {message}", pos.line, pos.column)]
pub struct ParseError {
    /// Where.
    pub pos: Pos,
    /// What is wrong and what to write instead.
    pub message: String,
    /// The construct outside the grammar, when that is the problem (`disjunction`,
    /// `lists`, `cut`, `findall/bagof/setof`, `assert/retract`, `modules`, …).
    pub construct: Option<&'static str>,
}

impl ParseError {
    pub(crate) fn new(pos: Pos, message: impl Into<String>) -> Self {
        ParseError {
            pos,
            message: message.into(),
            construct: None,
        }
    }

    fn unsupported(pos: Pos, what: Unsupported, seen: &str) -> Self {
        ParseError {
            pos,
            message: format!(
                "{} ({seen}) is not supported in Euclid-IR: {}",
                what.name, what.workaround
            ),
            construct: Some(what.name),
        }
    }
}

/// A construct people reach for that the grammar leaves out on purpose.
#[derive(Debug, Clone, Copy)]
struct Unsupported {
    name: &'static str,
    workaround: &'static str,
}

const DISJUNCTION: Unsupported = Unsupported {
    name: "disjunction",
    workaround: "write several rules with the same head, one per alternative",
};
const LISTS: Unsupported = Unsupported {
    name: "lists",
    workaround: "model a collection as several facts, one per element",
};
const CUT: Unsupported = Unsupported {
    name: "cut",
    workaround: "leave it out: every proof is searched in full",
};
const AGGREGATES: Unsupported = Unsupported {
    name: "findall/bagof/setof",
    workaround: "precompute counts and collections as facts, e.g. permission_count(alice, 17)",
};
const ASSERT: Unsupported = Unsupported {
    name: "assert/retract",
    workaround: "knowledge is fixed while it is reasoned over: send the changed facts with the next request",
};
const MODULES: Unsupported = Unsupported {
    name: "modules",
    workaround: "send all the facts and rules together as one knowledge text",
};
const META_CALL: Unsupported = Unsupported {
    name: "meta-calls",
    workaround: "write the goal itself in the body",
};
const IF_THEN_ELSE: Unsupported = Unsupported {
    name: "if-then-else",
    workaround: "write one rule per case, with the condition (or NOT condition) in each body",
};
const UNIFICATION: Unsupported = Unsupported {
    name: "unification (=)",
    workaround: "repeat the same variable where two values must be equal, or compare numbers with =:=",
};
const BUILTINS: Unsupported = Unsupported {
    name: "Prolog built-ins",
    workaround: "Euclid-IR reaches only the knowledge's own facts and rules, comparisons and NOT",
};

/// Names that would be Prolog built-ins, refused as such.
fn special_name(name: &str) -> Option<Unsupported> {
    Some(match name {
        "findall" | "bagof" | "setof" | "aggregate_all" | "forall" => AGGREGATES,
        "assert" | "asserta" | "assertz" | "retract" | "retractall" | "abolish" => ASSERT,
        "module" | "use_module" | "ensure_loaded" | "consult" | "include" => MODULES,
        "call" | "apply" | "once" | "ignore" => META_CALL,
        "write" | "writeln" | "print" | "format" | "nl" | "halt" | "shell" | "open" | "read"
        | "read_term" | "see" | "tell" | "catch" | "throw" => BUILTINS,
        _ => return None,
    })
}

/// Most arguments of one atom (the engine's terms have a bounded arity).
const MAX_ARGS: usize = 100;
/// Most goals in one body or query.
const MAX_GOALS: usize = 100;
/// Most distinct variables in one clause or query.
const MAX_VARS: usize = 200;
/// Most operators in one arithmetic expression, and deepest nesting of brackets
/// (expressions are walked recursively).
const MAX_OPERATORS: usize = 100;
const MAX_NESTING: usize = 32;
/// Deepest nesting of terms inside arguments (`cfg(state(q0), tape(…))`).
const MAX_TERM_NESTING: usize = 32;

#[derive(Debug, Clone, PartialEq)]
enum Tok {
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
struct Token {
    tok: Tok,
    pos: Pos,
}

/// Parses knowledge in the text form.
pub fn parse_text(src: &str) -> Result<Program, ParseError> {
    if src.trim_start().starts_with(['{', '[']) {
        return Err(ParseError::new(
            Pos { line: 1, column: 1 },
            "this looks like JSON: knowledge is Euclid-IR text (one fact or rule per line) or its YAML form",
        ));
    }
    let mut program = Program::default();
    let mut item = Item::default();
    for (i, raw) in src.lines().enumerate() {
        let line = i + 1;
        let (text, comment) = split_comment(raw, line)?;
        let trimmed = text.trim();
        let id = comment.and_then(|(c, col)| rule_id(c).map(|id| (id, Pos { line, column: col })));
        if trimmed.is_empty() {
            continue;
        }
        let first_col = text.chars().take_while(|c| c.is_whitespace()).count() + 1;
        let directive_line = trimmed.starts_with('@') && !item.open;
        let tokens = if directive_line {
            Vec::new()
        } else {
            tokenize(text, line, 1)?
        };
        // A line continues the item when the item ends in AND or IF, or when the
        // item is a rule and the line starts with AND (or OR, refused by name).
        let leading = matches!(tokens.first(), Some(Token { tok: Tok::Upper(w), .. }) if w == "AND" || w == "OR");
        if !(item.open || leading && item.is_rule()) {
            item.finish(&mut program)?;
            if directive_line {
                directive(
                    trimmed,
                    Pos {
                        line,
                        column: first_col,
                    },
                    &mut program,
                )?;
                continue;
            }
            item.start = Pos {
                line,
                column: first_col,
            };
        }
        if id.is_some() {
            item.id = id;
        }
        item.last = Pos {
            line,
            column: text.trim_end().chars().count() + 1,
        };
        item.open = matches!(tokens.last(), Some(Token { tok: Tok::Upper(w), .. }) if w == "AND" || w == "IF");
        item.tokens.extend(tokens);
    }
    if item.open {
        return Err(ParseError::new(
            item.last,
            "the knowledge ends after AND or IF: finish the rule on the next line",
        ));
    }
    item.finish(&mut program)?;
    Ok(program)
}

/// The item of the text form being read: its tokens so far, where it starts and
/// ends, the rule id a `# rule:` comment on one of its lines gives, and whether
/// its last line ends in AND or IF.
#[derive(Default)]
struct Item {
    tokens: Vec<Token>,
    start: Pos,
    last: Pos,
    /// A `# rule: ID` on one of an item's lines names it (the last one wins); on
    /// a line of its own it is a comment, as the reference reads it.
    id: Option<(String, Pos)>,
    open: bool,
}

impl Item {
    fn is_rule(&self) -> bool {
        self.tokens
            .iter()
            .any(|t| matches!(&t.tok, Tok::Upper(w) if w == "IF"))
    }

    /// Parses the item read so far into `program`, and leaves it empty.
    fn finish(&mut self, program: &mut Program) -> Result<(), ParseError> {
        let id = self.id.take();
        if self.tokens.is_empty() {
            return Ok(());
        }
        let before = program.clauses.len();
        parse_item(
            std::mem::take(&mut self.tokens),
            self.start,
            self.last,
            program,
        )?;
        if let Some((id, at)) = id {
            name_rule(program, before, id, at)?;
        }
        Ok(())
    }
}

/// The words of `text` that start with an ASCII capital and are not keywords:
/// names the reader folds to lowercase (outside quotes, comments and variables).
pub(crate) fn capitalised_names(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let Ok((code, _)) = split_comment(raw, i + 1) else {
            continue;
        };
        let chars: Vec<char> = code.chars().collect();
        let mut quote = None;
        let mut j = 0;
        while j < chars.len() {
            let c = chars[j];
            if let Some(q) = quote {
                if c == '\\' {
                    j += 1;
                } else if c == q {
                    quote = None;
                }
                j += 1;
                continue;
            }
            let starts =
                j == 0 || !(chars[j - 1].is_alphanumeric() || matches!(chars[j - 1], '_' | '$'));
            if c == '\'' || c == '"' {
                quote = Some(c);
            } else if c.is_ascii_uppercase() && starts {
                let end = (j..chars.len())
                    .find(|&k| !(chars[k].is_alphanumeric() || chars[k] == '_'))
                    .unwrap_or(chars.len());
                let word: String = chars[j..end].iter().collect();
                if keyword(&word).is_none() && word != "IS" && !out.contains(&word) {
                    out.push(word);
                }
                j = end;
                continue;
            }
            j += 1;
        }
    }
    out
}

/// The identifier of a `# rule: ID` comment (the comment's text after `#`).
fn rule_id(comment: &str) -> Option<String> {
    let rest = comment.strip_prefix('#')?.trim_start();
    let (word, rest) = rest.split_at(rest.find(':')?);
    if !word.trim_end().eq_ignore_ascii_case("rule") {
        return None;
    }
    let id = rest[1..].trim();
    (!id.is_empty()).then(|| id.to_string())
}

/// Parses a query given on its own (`? ` in front is optional).
pub fn parse_query(src: &str) -> Result<Query, ParseError> {
    let mut tokens = Vec::new();
    let mut start = None;
    let mut last = Pos { line: 1, column: 1 };
    for (i, raw) in src.lines().enumerate() {
        let (text, _) = split_comment(raw, i + 1)?;
        if text.trim().is_empty() {
            continue;
        }
        let line_tokens = tokenize(text, i + 1, 1)?;
        if start.is_none() {
            start = line_tokens.first().map(|t| t.pos);
        }
        last = Pos {
            line: i + 1,
            column: text.trim_end().chars().count() + 1,
        };
        tokens.extend(line_tokens);
    }
    let Some(start) = start else {
        return Err(ParseError::new(
            Pos { line: 1, column: 1 },
            "the query is empty: give a goal such as ancestor(tom, $who)",
        ));
    };
    if matches!(
        tokens.first(),
        Some(Token {
            tok: Tok::Question,
            ..
        })
    ) {
        tokens.remove(0);
    }
    let mut p = Parser::new(tokens, last);
    let body = p.body()?;
    p.finish()?;
    too_many_vars(super::lower::clause_vars(None, &body).len(), start)?;
    Ok(Query { body, pos: start })
}

/// The tokens of `text` placed at `at` (line and column offsets, for items taken
/// from a YAML document), where the text ends, and the rule id a `# rule:`
/// comment in it gives.
fn tokens_at(text: &str, at: Pos) -> Result<(Vec<Token>, Pos, Option<String>), ParseError> {
    let mut tokens = Vec::new();
    let mut last = at;
    let mut id = None;
    for (i, raw) in text.lines().enumerate() {
        let line = at.line + i;
        let column = if i == 0 { at.column } else { 1 };
        let (stripped, comment) = split_comment(raw, line)?;
        if let Some(found) = comment.and_then(|(c, _)| rule_id(c)) {
            id = Some(found);
        }
        tokens.extend(tokenize(stripped, line, column)?);
        if !stripped.trim().is_empty() {
            last = Pos {
                line,
                column: column + stripped.trim_end().chars().count(),
            };
        }
    }
    Ok((tokens, last, id))
}

/// Parses one item (fact, rule or query) whose text starts at `at`.
pub(crate) fn parse_item_at(text: &str, at: Pos, program: &mut Program) -> Result<(), ParseError> {
    let (tokens, last, id) = tokens_at(text, at)?;
    let before = program.clauses.len();
    parse_item(tokens, at, last, program)?;
    if let Some(id) = id {
        name_rule(program, before, id, at)?;
    }
    Ok(())
}

/// Gives the item just parsed (clause `index`, if it is one) the id of a
/// `# rule:` comment found at `at`: a rule only.
fn name_rule(program: &mut Program, index: usize, id: String, at: Pos) -> Result<(), ParseError> {
    match program.clauses.get_mut(index) {
        Some(c) if !c.is_fact() => {
            c.id = Some(id);
            Ok(())
        }
        _ => Err(ParseError::new(
            at,
            "`# rule:` names a rule, and this item is a fact or a query",
        )),
    }
}

/// Parses a rule head whose text starts at `at`.
pub(crate) fn parse_head_at(text: &str, at: Pos) -> Result<Atom, ParseError> {
    let (tokens, end, _) = tokens_at(text, at)?;
    let mut p = Parser::new(tokens, end);
    if !matches!(p.peek(), Some(Tok::Ident(_))) {
        return Err(p.error("a head is a predicate name with its arguments, e.g. ancestor($x, $y)"));
    }
    let head = p.atom()?;
    p.finish()?;
    reserved_head(head)
}

/// Parses body goals (joined by AND) whose text starts at `at`.
pub(crate) fn parse_query_at(text: &str, at: Pos) -> Result<Query, ParseError> {
    let (tokens, end, _) = tokens_at(text, at)?;
    let mut p = Parser::new(tokens, end);
    let body = p.body()?;
    p.finish()?;
    Ok(Query { body, pos: at })
}

/// A comment's text (from its marker) and the column it starts at.
type Comment<'a> = Option<(&'a str, usize)>;

/// The line split where its comment starts (`#`, `//` or `%` outside quotes):
/// the text before, and the comment with the column it starts at. A quote left
/// open is an error.
fn split_comment(line: &str, number: usize) -> Result<(&str, Comment<'_>), ParseError> {
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

fn directive(text: &str, pos: Pos, program: &mut Program) -> Result<(), ParseError> {
    let mut words = text[1..].split_whitespace();
    match (words.next(), words.next(), words.next()) {
        (Some(word), Some(v), None) if word.eq_ignore_ascii_case("version") => {
            let numeric = v
                .split('.')
                .all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit()));
            if !numeric {
                return Err(ParseError::new(
                    pos,
                    format!("version {v} is not a version number: write @version 1.0"),
                ));
            }
            program.version = Some(v.to_string());
            Ok(())
        }
        _ => Err(ParseError::new(
            pos,
            format!("unknown directive `{text}`: the only directive is @version 1.0"),
        )),
    }
}

/// Reads a quoted string from `chars[i]` (the quote): its text, escapes resolved
/// (`\n`, `\t`, and `\` before any other character stands for that character),
/// and the index after the closing quote.
fn string_at(chars: &[char], i: usize, pos: Pos) -> Result<(String, usize), ParseError> {
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
fn keyword(word: &str) -> Option<&'static str> {
    ["IF", "AND", "NOT", "OR"]
        .into_iter()
        .find(|k| word.eq_ignore_ascii_case(k))
}

/// A name or a variable's name in Unicode's composed form (NFC), as the reference
/// reads names: `città` typed with a combining accent is the same name. (Quoted
/// strings are kept as written.)
fn composed(chars: &[char]) -> String {
    match is_nfc_quick(chars.iter().copied()) {
        IsNormalized::Yes => chars.iter().collect(),
        _ => chars.iter().copied().nfc().collect(),
    }
}

/// Whether `c` may continue a name: a letter, a digit, `_`, or a combining mark
/// (an accent typed after its letter).
fn name_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || is_combining_mark(c)
}

fn tokenize(text: &str, line: usize, first_column: usize) -> Result<Vec<Token>, ParseError> {
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
        let next = chars.get(i + 1).copied();
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
            '0'..='9' => {
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
                if end == i + 1 && chars[i] == '0' && matches!(after, Some('x' | 'o' | 'b' | '\''))
                {
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
                (Tok::Num(text), end - i)
            }
            '\'' | '"' => {
                let (text, end) = string_at(&chars, i, pos)?;
                (Tok::Str(text), end - i)
            }
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
            // A final full stop, as in Prolog, ends the item.
            '.' if chars[i + 1..].iter().all(|c| c.is_whitespace()) => break,
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
        };
        out.push(Token { tok, pos });
        i += len;
    }
    Ok(out)
}

fn parse_item(
    tokens: Vec<Token>,
    start: Pos,
    end: Pos,
    program: &mut Program,
) -> Result<(), ParseError> {
    let mut p = Parser::new(tokens, end);
    if p.eat(&Tok::Question) {
        let body = p.body()?;
        p.finish()?;
        too_many_vars(super::lower::clause_vars(None, &body).len(), start)?;
        program.queries.push(Query { body, pos: start });
        return Ok(());
    }
    let head = match p.peek() {
        Some(Tok::Ident(_)) => reserved_head(p.atom()?)?,
        Some(Tok::Upper(w)) if w == "NOT" => {
            return Err(p.error("a head cannot be negated: facts and rule heads state what holds"));
        }
        Some(Tok::Upper(w)) if w == "AND" => {
            return Err(p.error("a line that starts with AND continues the rule above it, and there is none: write head IF goal first"));
        }
        _ => {
            return Err(p.error("an item is a fact, a rule (head IF body) or a query (? goal), and starts with a lowercase predicate name or ?"));
        }
    };
    let body = match p.peek() {
        None => Vec::new(),
        Some(Tok::Upper(w)) if w == "IF" => {
            p.at += 1;
            p.body()?
        }
        Some(Tok::Op(op)) if is_comparison(op) => {
            return Err(p.error(
                "a comparison cannot stand alone: put it in a rule body (head IF … AND $x > 3)",
            ));
        }
        _ => return Err(p.error(format!("expected IF or the end of the line after `{head}`"))),
    };
    p.finish()?;
    let clause = Clause {
        head,
        body,
        pos: start,
        id: None,
    };
    too_many_vars(
        super::lower::clause_vars(Some(&clause.head), &clause.body).len(),
        start,
    )?;
    program.clauses.push(clause);
    Ok(())
}

/// `true` and `false` are goals that always and never hold: they cannot be facts
/// or rule heads (as arguments they are plain constants).
fn reserved_head(head: Atom) -> Result<Atom, ParseError> {
    match head.truth() {
        None => Ok(head),
        Some(_) => Err(ParseError::new(
            head.pos,
            format!(
                "`{}` is a reserved literal and cannot be used as a fact or a rule head: use it in a body (p IF true), or name the predicate something else",
                head.name
            ),
        )),
    }
}

/// The limits on one clause as a whole (a YAML rule's body comes in pieces).
pub(crate) fn clause_limits(clause: &Clause) -> Result<(), ParseError> {
    if clause.body.len() > MAX_GOALS {
        return Err(ParseError::new(
            clause.pos,
            format!("more than {MAX_GOALS} goals in one body: split the rule into smaller rules"),
        ));
    }
    too_many_vars(
        super::lower::clause_vars(Some(&clause.head), &clause.body).len(),
        clause.pos,
    )
}

fn too_many_vars(count: usize, pos: Pos) -> Result<(), ParseError> {
    if count > MAX_VARS {
        return Err(ParseError::new(
            pos,
            format!(
                "more than {MAX_VARS} variables in one rule or query: split it into smaller rules"
            ),
        ));
    }
    Ok(())
}

fn is_comparison(op: &str) -> bool {
    matches!(op, ">" | ">=" | "<" | "=<" | "=:=" | "=\\=" | "==" | "!=")
}

struct Parser {
    tokens: Vec<Token>,
    at: usize,
    /// Where the item ends (for errors about what is missing).
    end: Pos,
    /// Operators in the expression being read, and its bracket depth.
    operators: usize,
    nesting: usize,
    /// Depth of the term being read inside arguments.
    term_nesting: usize,
}

impl Parser {
    fn new(tokens: Vec<Token>, end: Pos) -> Self {
        Parser {
            tokens,
            at: 0,
            end,
            operators: 0,
            nesting: 0,
            term_nesting: 0,
        }
    }

    fn peek(&self) -> Option<&Tok> {
        self.tokens.get(self.at).map(|t| &t.tok)
    }

    fn peek2(&self) -> Option<&Tok> {
        self.tokens.get(self.at + 1).map(|t| &t.tok)
    }

    fn pos(&self) -> Pos {
        self.tokens.get(self.at).map_or(self.end, |t| t.pos)
    }

    fn error(&self, message: impl Into<String>) -> ParseError {
        ParseError::new(self.pos(), message)
    }

    fn eat(&mut self, tok: &Tok) -> bool {
        if self.peek() == Some(tok) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    fn finish(&self) -> Result<(), ParseError> {
        match self.peek() {
            None => Ok(()),
            Some(Tok::Comma) => Err(self.error("join goals with AND, not a comma")),
            Some(Tok::Upper(w)) if w == "OR" => {
                Err(ParseError::unsupported(self.pos(), DISJUNCTION, "`OR`"))
            }
            Some(_) => Err(self.error("expected AND or the end of the line")),
        }
    }

    fn body(&mut self) -> Result<Vec<Literal>, ParseError> {
        let mut body = vec![self.literal()?];
        loop {
            match self.peek() {
                Some(Tok::Upper(w)) if w == "AND" => {
                    self.at += 1;
                    if self.peek().is_none() {
                        return Err(self.error("a goal must follow AND"));
                    }
                    if body.len() == MAX_GOALS {
                        return Err(self.error(format!(
                            "more than {MAX_GOALS} goals in one body: split the rule into smaller rules"
                        )));
                    }
                    body.push(self.literal()?);
                }
                _ => return Ok(body),
            }
        }
    }

    fn literal(&mut self) -> Result<Literal, ParseError> {
        let pos = self.pos();
        match self.peek().cloned() {
            Some(Tok::Upper(w)) if w == "NOT" => {
                self.at += 1;
                match self.peek() {
                    Some(Tok::Ident(_)) => Ok(Literal::Not(self.atom()?)),
                    // `not(goal)`, as the reference reads it.
                    Some(Tok::LParen) if matches!(self.peek2(), Some(Tok::Ident(_))) => {
                        self.at += 1;
                        let goal = self.atom()?;
                        if !self.eat(&Tok::RParen) {
                            return Err(self.error("expected ) to close NOT ( goal )"));
                        }
                        Ok(Literal::Not(goal))
                    }
                    Some(Tok::Upper(w)) if w == "NOT" => {
                        Err(self.error("NOT NOT is not supported: write the goal itself"))
                    }
                    _ => Err(self.error("NOT takes a goal, e.g. NOT active($u)")),
                }
            }
            Some(Tok::Ident(_) | Tok::Str(_)) if self.value_compared() => {
                let left = Expr::Value(self.term()?);
                self.comparison(left, pos)
            }
            Some(Tok::Ident(name)) => {
                if let Some(Tok::Op(op)) = self.peek2()
                    && (is_comparison(op) || matches!(*op, "+" | "-" | "*" | "/"))
                {
                    return Err(self.error(format!(
                        "arithmetic takes numbers and variables, but `{name}` is a constant"
                    )));
                }
                if matches!(self.peek2(), Some(Tok::Ident(w)) if w == "is") {
                    return Err(self.error(format!(
                        "the left side of `is` is a variable or a number, but `{name}` is a constant"
                    )));
                }
                Ok(Literal::Pos(self.atom()?))
            }
            Some(Tok::Str(_)) => {
                Err(self.error("a goal is a predicate name, not a string: write name(args)"))
            }
            Some(Tok::LParen) if self.grouped_goals() => {
                let inside = self.tokens[self.at..].iter().skip(1);
                let mut depth = 1usize;
                for t in inside {
                    match &t.tok {
                        Tok::LParen => depth += 1,
                        Tok::RParen if depth == 1 => break,
                        Tok::RParen => depth -= 1,
                        Tok::Upper(w) if w == "OR" => {
                            return Err(ParseError::unsupported(t.pos, DISJUNCTION, "`OR`"));
                        }
                        _ => {}
                    }
                }
                Err(self.error(
                    "brackets group arithmetic, not goals: join the goals with AND, without brackets",
                ))
            }
            Some(Tok::Var(_) | Tok::Num(_) | Tok::LParen | Tok::Op("-")) => {
                self.operators = 0;
                self.nesting = 0;
                let left = self.expr()?;
                self.comparison(left, pos)
            }
            Some(Tok::Upper(w)) if w == "IF" || w == "AND" => {
                Err(self.error(format!("expected a goal before {w}")))
            }
            Some(Tok::Upper(w)) if w == "OR" => {
                Err(ParseError::unsupported(pos, DISJUNCTION, "`OR`"))
            }
            Some(Tok::Upper(w)) => Err(self.error(upper_message(&w))),
            Some(Tok::Wild) => Err(self.error("a goal cannot be _: write a predicate")),
            Some(Tok::Question) => Err(self.error("? starts a query, on a line of its own")),
            Some(_) => Err(self.error("expected a goal: name(args), NOT goal, or a comparison")),
            None => Err(self.error("expected a goal")),
        }
    }

    /// Whether the bracket at the parser's place opens goals (`(p($x) AND q($x))`,
    /// `(NOT p($x))`) rather than arithmetic.
    fn grouped_goals(&self) -> bool {
        let after = |k: usize| self.tokens.get(self.at + k).map(|t| &t.tok);
        match after(1) {
            Some(Tok::Upper(w)) => w == "NOT",
            Some(Tok::Ident(_)) => matches!(after(2), Some(Tok::LParen | Tok::Upper(_))),
            _ => false,
        }
    }

    /// Whether a constant (or string) at the start of a goal is the left side of
    /// `==` or `!=`.
    fn value_compared(&self) -> bool {
        matches!(self.peek2(), Some(Tok::Op("==" | "!=")))
    }

    /// The rest of a comparison whose left side has been read.
    fn comparison(&mut self, left: Expr, pos: Pos) -> Result<Literal, ParseError> {
        let op = match self.peek() {
            Some(Tok::Op(">")) => CmpOp::Gt,
            Some(Tok::Op(">=")) => CmpOp::Ge,
            Some(Tok::Op("<")) => CmpOp::Lt,
            Some(Tok::Op("=<")) => CmpOp::Le,
            Some(Tok::Op("=:=")) => CmpOp::Eq,
            Some(Tok::Op("=\\=")) => CmpOp::Ne,
            Some(Tok::Op("==")) => CmpOp::Same,
            Some(Tok::Op("!=")) => CmpOp::Differ,
            Some(Tok::Ident(w)) if w == "is" => CmpOp::Is,
            _ => {
                return Err(self
                    .error("expected a comparison (> >= < =< == != =:= =\\= is) after the value"));
            }
        };
        self.at += 1;
        let value_side = matches!(op, CmpOp::Same | CmpOp::Differ);
        if !value_side && let Expr::Value(t) = &left {
            return Err(ParseError::new(
                pos,
                format!("arithmetic takes numbers and variables, but `{t}` is a constant"),
            ));
        }
        let right = match self.peek() {
            Some(Tok::Ident(_) | Tok::Str(_) | Tok::Upper(_)) if value_side => {
                Expr::Value(self.term()?)
            }
            _ => {
                self.operators = 0;
                self.nesting = 0;
                self.expr()?
            }
        };
        let has_wildcard = |e: &Expr| matches!(e, Expr::Value(t) if wildcard_in(t));
        if has_wildcard(&left) || has_wildcard(&right) {
            return Err(ParseError::new(
                pos,
                "`_` has no value to compare: use a variable that an earlier goal binds",
            ));
        }
        if op == CmpOp::Is && !matches!(left, Expr::Var(_) | Expr::Number(_)) {
            return Err(ParseError::new(
                pos,
                "the left side of `is` is one variable or number, e.g. $total is $a + $b",
            ));
        }
        Ok(Literal::Compare(Comparison {
            op,
            left,
            right,
            pos,
        }))
    }

    fn atom(&mut self) -> Result<Atom, ParseError> {
        let pos = self.pos();
        let Some(Tok::Ident(name)) = self.peek().cloned() else {
            return Err(self.error("expected a predicate name"));
        };
        if name == "is" {
            return Err(self.error("`is` is a keyword: it cannot name a predicate"));
        }
        if let Some(what) = special_name(&name) {
            return Err(ParseError::unsupported(pos, what, &format!("`{name}`")));
        }
        self.at += 1;
        let args = if self.eat(&Tok::LParen) {
            if matches!(name.as_str(), "true" | "false") {
                return Err(ParseError::new(
                    pos,
                    format!(
                        "`{name}` is a reserved literal and cannot be used as a predicate name: call the predicate something else"
                    ),
                ));
            }
            self.arguments(&name, "predicates")?
        } else {
            Vec::new()
        };
        Ok(Atom { name, args, pos })
    }

    /// The arguments after `name(`, to the closing bracket (`kind`: what to split
    /// into when there are too many).
    fn arguments(&mut self, name: &str, kind: &str) -> Result<Vec<Term>, ParseError> {
        let mut args = Vec::new();
        if self.eat(&Tok::RParen) {
            return Ok(args);
        }
        loop {
            if args.len() == MAX_ARGS {
                return Err(self.error(format!(
                    "more than {MAX_ARGS} arguments: split `{name}` into several {kind}"
                )));
            }
            args.push(self.term()?);
            if self.eat(&Tok::Comma) {
                continue;
            }
            if self.eat(&Tok::RParen) {
                return Ok(args);
            }
            return Err(self.error(format!("expected , or ) in the arguments of `{name}`")));
        }
    }

    fn term(&mut self) -> Result<Term, ParseError> {
        let pos = self.pos();
        match self.peek().cloned() {
            Some(Tok::Ident(c)) => {
                self.at += 1;
                if self.peek() == Some(&Tok::LParen) {
                    return self.compound(c, pos);
                }
                Ok(Term::Const(c))
            }
            Some(Tok::Str(c)) => {
                self.at += 1;
                Ok(Term::Const(c))
            }
            // A keyword where only a constant can stand is that constant: gate(or, 2).
            Some(Tok::Upper(w)) if matches!(self.peek2(), Some(Tok::Comma | Tok::RParen)) => {
                self.at += 1;
                Ok(Term::Const(w.to_ascii_lowercase()))
            }
            Some(Tok::Var(v)) => {
                self.at += 1;
                Ok(Term::Var(v))
            }
            Some(Tok::Wild) => {
                self.at += 1;
                Ok(Term::Wildcard)
            }
            Some(Tok::Num(n)) => {
                self.at += 1;
                Ok(Term::Number(number(&n, false)))
            }
            Some(Tok::Op("-")) if matches!(self.peek2(), Some(Tok::Num(_))) => {
                self.at += 1;
                let Some(Tok::Num(n)) = self.peek().cloned() else {
                    unreachable!("checked above")
                };
                self.at += 1;
                Ok(Term::Number(number(&n, true)))
            }
            Some(Tok::Upper(w)) => Err(self.error(upper_message(&w))),
            _ => Err(self.error(
                "an argument is a constant, a 'string', a number, a $variable, _ or a term name(args)",
            )),
        }
    }

    /// The arguments of a nested term `name(…)`, the name read.
    fn compound(&mut self, name: String, pos: Pos) -> Result<Term, ParseError> {
        self.term_nesting += 1;
        if self.term_nesting > MAX_TERM_NESTING {
            return Err(ParseError::new(
                pos,
                format!("terms nested more than {MAX_TERM_NESTING} deep: flatten them into facts"),
            ));
        }
        self.at += 1;
        let args = self.arguments(&name, "terms")?;
        self.term_nesting -= 1;
        if args.is_empty() {
            return Ok(Term::Const(name));
        }
        Ok(Term::Compound(name, args))
    }

    fn expr(&mut self) -> Result<Expr, ParseError> {
        let mut left = self.product()?;
        loop {
            let op = match self.peek() {
                Some(Tok::Op("+")) => ArithOp::Add,
                Some(Tok::Op("-")) => ArithOp::Sub,
                _ => return Ok(left),
            };
            self.operator()?;
            let right = self.product()?;
            left = Expr::Binary(Box::new(left), op, Box::new(right));
        }
    }

    fn product(&mut self) -> Result<Expr, ParseError> {
        let mut left = self.factor()?;
        loop {
            let op = match self.peek() {
                Some(Tok::Op("*")) => ArithOp::Mul,
                Some(Tok::Op("/")) => ArithOp::Div,
                _ => return Ok(left),
            };
            self.operator()?;
            let right = self.factor()?;
            left = Expr::Binary(Box::new(left), op, Box::new(right));
        }
    }

    /// Takes an operator token, within the limit of operators per expression.
    fn operator(&mut self) -> Result<(), ParseError> {
        self.operators += 1;
        if self.operators > MAX_OPERATORS {
            return Err(self.error(format!(
                "more than {MAX_OPERATORS} operators in one expression: compute parts in separate goals with is"
            )));
        }
        self.at += 1;
        Ok(())
    }

    /// Reads a factor one bracket (or sign) deeper, within the nesting limit.
    fn nested(&mut self) -> Result<Expr, ParseError> {
        self.nesting += 1;
        if self.nesting > MAX_NESTING {
            return Err(self.error(format!(
                "brackets nested more than {MAX_NESTING} deep: compute parts in separate goals with is"
            )));
        }
        let e = self.expr();
        self.nesting -= 1;
        e
    }

    fn factor(&mut self) -> Result<Expr, ParseError> {
        match self.peek().cloned() {
            Some(Tok::Num(n)) => {
                self.at += 1;
                Ok(Expr::Number(number(&n, false)))
            }
            Some(Tok::Var(v)) => {
                self.at += 1;
                Ok(Expr::Var(v))
            }
            Some(Tok::Op("-")) => {
                self.at += 1;
                if let Some(Tok::Num(n)) = self.peek().cloned() {
                    self.at += 1;
                    return Ok(Expr::Number(number(&n, true)));
                }
                self.operators += 1;
                self.nesting += 1;
                if self.nesting > MAX_NESTING || self.operators > MAX_OPERATORS {
                    return Err(self.error(format!(
                        "signs nested more than {MAX_NESTING} deep: simplify the expression"
                    )));
                }
                let inner = self.factor();
                self.nesting -= 1;
                Ok(Expr::Neg(Box::new(inner?)))
            }
            Some(Tok::LParen) => {
                self.at += 1;
                let e = self.nested()?;
                if !self.eat(&Tok::RParen) {
                    return Err(self.error("expected ) to close the bracket"));
                }
                Ok(e)
            }
            Some(Tok::Ident(c)) => Err(self.error(format!(
                "arithmetic takes numbers and variables, but `{c}` is a constant"
            ))),
            Some(Tok::Wild) => Err(self.error("_ cannot be used in arithmetic: name the variable")),
            Some(Tok::Upper(w)) => Err(self.error(upper_message(&w))),
            _ => Err(self.error("expected a number, a $variable or ( in the arithmetic")),
        }
    }
}

/// Whether a term holds `_`.
fn wildcard_in(t: &Term) -> bool {
    match t {
        Term::Wildcard => true,
        Term::Compound(_, args) => args.iter().any(wildcard_in),
        _ => false,
    }
}

fn upper_message(word: &str) -> String {
    match word {
        "OR" => "OR is not supported (disjunction): write several rules with the same head".into(),
        _ => format!("{word} cannot stand here"),
    }
}

/// The canonical text of a number: no leading zeros, decimals as the engine writes
/// them back (so goals in proofs read the same as the bindings).
fn number(text: &str, negative: bool) -> String {
    let body = if text.contains('.') {
        match text.parse::<f64>() {
            Ok(f) => crate::reason::float_text(f),
            Err(_) => text.to_string(),
        }
    } else {
        let trimmed = text.trim_start_matches('0');
        if trimmed.is_empty() {
            "0".into()
        } else {
            trimmed.into()
        }
    };
    if negative && body != "0" && body != "0.0" {
        format!("-{body}")
    } else {
        body
    }
}
