//! The Euclid-IR text form → [`Program`]: one item per line, a line ending in `AND`
//! (or `IF`) continues, `#` and `//` start comments. Constructs outside the grammar
//! are refused by name, with what to write instead.

use super::ast::{
    ArithOp, Atom, Clause, CmpOp, Comparison, Expr, Literal, Pos, Program, Query, Term,
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
    /// `lists`, `strings`, `cut`, `findall/bagof/setof`, `assert/retract`, `modules`, …).
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
const STRINGS: Unsupported = Unsupported {
    name: "strings",
    workaround: "use lowercase constants such as high_risk",
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
const COMPOUNDS: Unsupported = Unsupported {
    name: "nested terms",
    workaround: "arguments are constants, numbers or variables: flatten f(x) into extra arguments or facts",
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

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Ident(String),
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
    let mut item: Vec<Token> = Vec::new();
    let mut item_start = Pos::default();
    let mut last = Pos::default();
    for (i, raw) in src.lines().enumerate() {
        let line = i + 1;
        let text = strip_comment(raw);
        let trimmed = text.trim();
        if trimmed.is_empty() {
            continue;
        }
        let first_col = text.chars().take_while(|c| c.is_whitespace()).count() + 1;
        if item.is_empty() && trimmed.starts_with('@') {
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
        if item.is_empty() {
            item_start = Pos {
                line,
                column: first_col,
            };
        }
        let tokens = tokenize(text, line, 1)?;
        last = Pos {
            line,
            column: text.trim_end().chars().count() + 1,
        };
        let continues = matches!(tokens.last(), Some(Token { tok: Tok::Upper(w), .. }) if w == "AND" || w == "IF");
        item.extend(tokens);
        if !continues {
            parse_item(std::mem::take(&mut item), item_start, last, &mut program)?;
        }
    }
    if !item.is_empty() {
        return Err(ParseError::new(
            last,
            "the knowledge ends after AND or IF: finish the rule on the next line",
        ));
    }
    Ok(program)
}

/// Parses a query given on its own (`? ` in front is optional).
pub fn parse_query(src: &str) -> Result<Query, ParseError> {
    let mut tokens = Vec::new();
    let mut start = None;
    let mut last = Pos { line: 1, column: 1 };
    for (i, raw) in src.lines().enumerate() {
        let text = strip_comment(raw);
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
/// from a YAML document), and where the text ends.
fn tokens_at(text: &str, at: Pos) -> Result<(Vec<Token>, Pos), ParseError> {
    let mut tokens = Vec::new();
    let mut last = at;
    for (i, raw) in text.lines().enumerate() {
        let line = at.line + i;
        let column = if i == 0 { at.column } else { 1 };
        let stripped = strip_comment(raw);
        tokens.extend(tokenize(stripped, line, column)?);
        if !stripped.trim().is_empty() {
            last = Pos {
                line,
                column: column + stripped.trim_end().chars().count(),
            };
        }
    }
    Ok((tokens, last))
}

/// Parses one item (fact, rule or query) whose text starts at `at`.
pub(crate) fn parse_item_at(text: &str, at: Pos, program: &mut Program) -> Result<(), ParseError> {
    let (tokens, last) = tokens_at(text, at)?;
    parse_item(tokens, at, last, program)
}

/// Parses a rule head whose text starts at `at`.
pub(crate) fn parse_head_at(text: &str, at: Pos) -> Result<Atom, ParseError> {
    let (tokens, end) = tokens_at(text, at)?;
    let mut p = Parser::new(tokens, end);
    if !matches!(p.peek(), Some(Tok::Ident(_))) {
        return Err(p.error("a head is a predicate name with its arguments, e.g. ancestor($x, $y)"));
    }
    let head = p.atom()?;
    p.finish()?;
    Ok(head)
}

/// Parses body goals (joined by AND) whose text starts at `at`.
pub(crate) fn parse_query_at(text: &str, at: Pos) -> Result<Query, ParseError> {
    let (tokens, end) = tokens_at(text, at)?;
    let mut p = Parser::new(tokens, end);
    let body = p.body()?;
    p.finish()?;
    Ok(Query { body, pos: at })
}

/// The line without its comment (`#` or `//` to the end). Euclid-IR has no strings,
/// so the first marker starts the comment.
fn strip_comment(line: &str) -> &str {
    let hash = line.find('#');
    let slashes = line.find("//");
    match (hash, slashes) {
        (Some(a), Some(b)) => &line[..a.min(b)],
        (Some(a), None) | (None, Some(a)) => &line[..a],
        (None, None) => line,
    }
}

fn directive(text: &str, pos: Pos, program: &mut Program) -> Result<(), ParseError> {
    let mut words = text[1..].split_whitespace();
    match (words.next(), words.next(), words.next()) {
        (Some("version"), Some(v), None) => {
            if v != "1.0" && v != "1" {
                return Err(ParseError::new(
                    pos,
                    format!(
                        "version {v} is not known: this is Euclid-IR 1.0 (write @version 1.0 or leave it out)"
                    ),
                ));
            }
            program.version = Some("1.0".into());
            Ok(())
        }
        _ => Err(ParseError::new(
            pos,
            format!("unknown directive `{text}`: the only directive is @version 1.0"),
        )),
    }
}

fn tokenize(text: &str, line: usize, first_column: usize) -> Result<Vec<Token>, ParseError> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    let at = |i: usize| Pos {
        line,
        column: first_column + i,
    };
    let word_end = |from: usize| {
        let mut j = from;
        while j < chars.len() && (chars[j].is_ascii_alphanumeric() || chars[j] == '_') {
            j += 1;
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
                let end = word_end(i + 1);
                let name: String = chars[i + 1..end].iter().collect();
                if name.is_empty() || name.starts_with(|c: char| c.is_ascii_digit()) {
                    return Err(ParseError::new(
                        pos,
                        "a variable is $ followed by a name that starts with a letter, e.g. $who",
                    ));
                }
                (Tok::Var(name), end - i)
            }
            'a'..='z' => {
                let end = word_end(i);
                let name: String = chars[i..end].iter().collect();
                (Tok::Ident(name), end - i)
            }
            'A'..='Z' => {
                let end = word_end(i);
                let name: String = chars[i..end].iter().collect();
                (Tok::Upper(name), end - i)
            }
            '_' => {
                let end = word_end(i);
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
                if after.is_some_and(|c| c.is_ascii_alphabetic() || c == '_') {
                    return Err(ParseError::new(
                        pos,
                        "a name cannot start with a digit: start it with a lowercase letter",
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
            '(' => (Tok::LParen, 1),
            ')' => (Tok::RParen, 1),
            ',' => (Tok::Comma, 1),
            '?' => (Tok::Question, 1),
            '+' => (Tok::Op("+"), 1),
            '*' => (Tok::Op("*"), 1),
            '/' => (Tok::Op("/"), 1),
            '>' if next == Some('=') => (Tok::Op(">="), 2),
            '>' => (Tok::Op(">"), 1),
            '<' if next == Some('=') => {
                return Err(ParseError::new(
                    pos,
                    "`<=` is not an operator: write =< for at most",
                ));
            }
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
                    return Err(ParseError::new(
                        pos,
                        "`==` is not an operator: compare numbers with =:=, or repeat the variable",
                    ));
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
            '!' if next == Some('=') => {
                return Err(ParseError::new(
                    pos,
                    "`!=` is not an operator: write =\\= for not equal",
                ));
            }
            '!' => return Err(ParseError::unsupported(pos, CUT, "`!`")),
            '\\' if next == Some('+') => {
                return Err(ParseError::new(pos, "`\\+` is Prolog: write NOT goal"));
            }
            '\\' if next == Some('=') => {
                return Err(ParseError::new(
                    pos,
                    "`\\=` is not an operator: write =\\= to compare numbers",
                ));
            }
            ';' | '|' => return Err(ParseError::unsupported(pos, DISJUNCTION, &format!("`{c}`"))),
            '[' | ']' => return Err(ParseError::unsupported(pos, LISTS, &format!("`{c}`"))),
            '"' | '\'' | '`' => {
                return Err(ParseError::unsupported(pos, STRINGS, &format!("`{c}`")));
            }
            ':' if next == Some('-') => {
                return Err(ParseError::new(
                    pos,
                    "`:-` is Prolog: write head IF body, with AND between the goals",
                ));
            }
            ':' => return Err(ParseError::unsupported(pos, MODULES, "`:`")),
            '.' if chars[i + 1..].iter().all(|c| c.is_whitespace()) => {
                return Err(ParseError::new(
                    pos,
                    "no full stop at the end: an item ends with its line",
                ));
            }
            '%' => {
                return Err(ParseError::new(pos, "comments start with # or //"));
            }
            '{' | '}' => {
                return Err(ParseError::unsupported(pos, BUILTINS, &format!("`{c}`")));
            }
            other => {
                return Err(ParseError::new(
                    pos,
                    format!(
                        "unexpected character `{other}`: Euclid-IR has names, $variables, numbers, ( ) , and the operators > >= < =< =:= =\\= is + - * /"
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
        Some(Tok::Ident(_)) => p.atom()?,
        Some(Tok::Upper(w)) if w == "NOT" => {
            return Err(p.error("a head cannot be negated: facts and rule heads state what holds"));
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
    if body.is_empty()
        && let Some(t) = head
            .args
            .iter()
            .find(|t| matches!(t, Term::Var(_) | Term::Wildcard))
    {
        return Err(ParseError::new(
            head.pos,
            format!(
                "a fact must be ground, but `{head}` has `{t}`: use constants, or write a rule with IF"
            ),
        ));
    }
    let clause = Clause {
        head,
        body,
        pos: start,
    };
    too_many_vars(
        super::lower::clause_vars(Some(&clause.head), &clause.body).len(),
        start,
    )?;
    program.clauses.push(clause);
    Ok(())
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
    matches!(op, ">" | ">=" | "<" | "=<" | "=:=" | "=\\=")
}

struct Parser {
    tokens: Vec<Token>,
    at: usize,
    /// Where the item ends (for errors about what is missing).
    end: Pos,
    /// Operators in the expression being read, and its bracket depth.
    operators: usize,
    nesting: usize,
}

impl Parser {
    fn new(tokens: Vec<Token>, end: Pos) -> Self {
        Parser {
            tokens,
            at: 0,
            end,
            operators: 0,
            nesting: 0,
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
                    Some(Tok::Upper(w)) if w == "NOT" => {
                        Err(self.error("NOT NOT is not supported: write the goal itself"))
                    }
                    _ => Err(self.error("NOT takes a goal, e.g. NOT active($u)")),
                }
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
            Some(Tok::Var(_) | Tok::Num(_) | Tok::LParen | Tok::Op("-")) => {
                self.operators = 0;
                self.nesting = 0;
                let left = self.expr()?;
                let op = match self.peek() {
                    Some(Tok::Op(">")) => CmpOp::Gt,
                    Some(Tok::Op(">=")) => CmpOp::Ge,
                    Some(Tok::Op("<")) => CmpOp::Lt,
                    Some(Tok::Op("=<")) => CmpOp::Le,
                    Some(Tok::Op("=:=")) => CmpOp::Eq,
                    Some(Tok::Op("=\\=")) => CmpOp::Ne,
                    Some(Tok::Ident(w)) if w == "is" => CmpOp::Is,
                    _ => {
                        return Err(self.error(
                            "expected a comparison (> >= < =< =:= =\\= is) after the value",
                        ));
                    }
                };
                self.at += 1;
                let right = self.expr()?;
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

    fn atom(&mut self) -> Result<Atom, ParseError> {
        let pos = self.pos();
        let Some(Tok::Ident(name)) = self.peek().cloned() else {
            return Err(self.error("expected a predicate name"));
        };
        if name == "not" && self.peek2() == Some(&Tok::LParen) {
            return Err(self.error("write NOT goal (uppercase, no parentheses around the goal)"));
        }
        if let Some(what) = special_name(&name) {
            return Err(ParseError::unsupported(pos, what, &format!("`{name}`")));
        }
        self.at += 1;
        let mut args = Vec::new();
        if self.eat(&Tok::LParen) && !self.eat(&Tok::RParen) {
            loop {
                if args.len() == MAX_ARGS {
                    return Err(self.error(format!(
                        "more than {MAX_ARGS} arguments: split `{name}` into several predicates"
                    )));
                }
                args.push(self.term()?);
                if self.eat(&Tok::Comma) {
                    continue;
                }
                if self.eat(&Tok::RParen) {
                    break;
                }
                return Err(self.error(format!("expected , or ) in the arguments of `{name}`")));
            }
        }
        Ok(Atom { name, args, pos })
    }

    fn term(&mut self) -> Result<Term, ParseError> {
        let pos = self.pos();
        match self.peek().cloned() {
            Some(Tok::Ident(c)) => {
                self.at += 1;
                if self.peek() == Some(&Tok::LParen) {
                    return Err(ParseError::unsupported(
                        pos,
                        COMPOUNDS,
                        &format!("`{c}(…)`"),
                    ));
                }
                Ok(Term::Const(c))
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
            _ => Err(self.error("an argument is a lowercase constant, a number, a $variable or _")),
        }
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

fn upper_message(word: &str) -> String {
    let lower = word.to_ascii_lowercase();
    match word {
        "OR" => "OR is not supported (disjunction): write several rules with the same head".into(),
        "IF" | "AND" | "NOT" => format!("{word} cannot stand here"),
        _ => format!(
            "`{word}` starts with a capital: constants are lowercase ({lower}) and variables start with $ (${lower})"
        ),
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
