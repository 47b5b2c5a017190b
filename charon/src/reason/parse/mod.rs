//! The Euclid-IR text form → [`Program`]: one item per line; a line ending in `AND`
//! (or `IF`) continues on the next, and a line starting with `AND` continues the
//! rule above it; `#`, `//` and `%` start comments (outside quotes), and a
//! final full stop is allowed. Keywords are read in any case, and names are folded
//! to lowercase (ASCII letters only), as the reference implementation reads them;
//! quoted strings are constants kept as written. A `# rule: ID` comment on one of a
//! rule's lines names the rule; on a line of its own it is a comment, as the
//! reference reads it. Constructs outside the grammar are refused by
//! name, with what to write instead.

mod grammar;
mod lex;

use grammar::{Parser, is_comparison};
use lex::{Tok, Token, keyword, split_comment, tokenize};

use super::ast::{Atom, Clause, Pos, Program, Query};

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
        // A line of full stops alone is blank, as the reference reads it: it
        // neither ends an open rule nor starts an item (a `# rule:` on it names
        // nothing).
        if trimmed.chars().all(|c| c == '.') {
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
pub(crate) fn reserved_head(head: Atom) -> Result<Atom, ParseError> {
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
