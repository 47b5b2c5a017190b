//! The Euclid-IR YAML form → [`Program`]: `version`, `facts` (strings), `rules`
//! (`{head, body}` maps, or rule strings), `queries` (strings, with or without `? `).
//! Every item is parsed by the text grammar at its place in the document, so errors
//! carry the YAML line and column. Aliases and tags are refused (no expansion bombs).

use yaml_rust2::Event;
use yaml_rust2::parser::{MarkedEventReceiver, Parser};
use yaml_rust2::scanner::Marker;

use super::ast::{Clause, Pos, Program};
use super::parse::{ParseError, clause_limits, parse_head_at, parse_item_at, parse_query_at};

/// Whether `text` looks like the YAML form: its first significant line is a
/// document marker or one of the form's keys.
pub fn looks_like_yaml(text: &str) -> bool {
    text.lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#'))
        .is_some_and(|l| {
            l == "---"
                || ["version:", "facts:", "rules:", "queries:"]
                    .iter()
                    .any(|k| l.starts_with(k))
        })
}

enum Node {
    Scalar(String, Pos),
    /// A sequence; `true` when written in flow style (`[a, b]`).
    Seq(Vec<Node>, Pos, bool),
    Map(Vec<(Node, Node)>, Pos),
}

impl Node {
    fn pos(&self) -> Pos {
        match self {
            Node::Scalar(_, p) | Node::Seq(_, p, _) | Node::Map(_, p) => *p,
        }
    }
}

struct Builder<'a> {
    /// The document's lines, to tell flow sequences from block ones.
    lines: Vec<&'a str>,
    stack: Vec<(Node, Option<Node>)>,
    done: Vec<Node>,
    error: Option<ParseError>,
}

fn pos_of(m: Marker) -> Pos {
    Pos {
        line: m.line(),
        column: m.col() + 1,
    }
}

impl Builder<'_> {
    /// Whether a sequence starting at `m` is written in flow style.
    fn flow_at(&self, m: Marker) -> bool {
        self.lines
            .get(m.line().saturating_sub(1))
            .and_then(|l| l.chars().nth(m.col()))
            == Some('[')
    }

    fn add(&mut self, node: Node) {
        match self.stack.last_mut() {
            None => self.done.push(node),
            Some((Node::Seq(items, _, _), _)) => items.push(node),
            Some((Node::Map(entries, _), key)) => match key.take() {
                None => *key = Some(node),
                Some(k) => entries.push((k, node)),
            },
            Some((Node::Scalar(..), _)) => {}
        }
    }
}

impl MarkedEventReceiver for Builder<'_> {
    fn on_event(&mut self, ev: Event, mark: Marker) {
        if self.error.is_some() {
            return;
        }
        let pos = pos_of(mark);
        match ev {
            Event::Scalar(value, _, _, tag) => {
                if tag.is_some() {
                    self.error = Some(ParseError::new(
                        pos,
                        "YAML tags are not used in Euclid-IR: remove the !tag",
                    ));
                    return;
                }
                self.add(Node::Scalar(value, pos));
            }
            Event::SequenceStart(..) => {
                let flow = self.flow_at(mark);
                self.stack.push((Node::Seq(Vec::new(), pos, flow), None));
            }
            Event::MappingStart(..) => self.stack.push((Node::Map(Vec::new(), pos), None)),
            Event::SequenceEnd | Event::MappingEnd => {
                if let Some((node, _)) = self.stack.pop() {
                    self.add(node);
                }
            }
            Event::Alias(_) => {
                self.error = Some(ParseError::new(
                    pos,
                    "YAML aliases (*name) are not supported: write the item out",
                ));
            }
            _ => {}
        }
    }
}

/// Parses knowledge in the YAML form.
pub fn parse_yaml(src: &str) -> Result<Program, ParseError> {
    let mut builder = Builder {
        lines: src.lines().collect(),
        stack: Vec::new(),
        done: Vec::new(),
        error: None,
    };
    let mut parser = Parser::new_from_str(src);
    if let Err(e) = parser.load(&mut builder, true) {
        let m = e.marker();
        return Err(ParseError::new(
            pos_of(*m),
            format!("this is not valid YAML: {}", e.info()),
        ));
    }
    if let Some(e) = builder.error {
        return Err(e);
    }
    let mut program = Program::default();
    if let Some(second) = builder.done.get(1) {
        return Err(ParseError::new(
            second.pos(),
            "one YAML document only: put all the facts and rules in one",
        ));
    }
    let Some(root) = builder.done.into_iter().next() else {
        return Ok(program);
    };
    let Node::Map(entries, _) = root else {
        return Err(ParseError::new(
            root.pos(),
            "the YAML form is a mapping with the keys version, facts, rules and queries",
        ));
    };
    for (key, value) in entries {
        let Node::Scalar(name, kpos) = key else {
            return Err(ParseError::new(
                key.pos(),
                "keys are version, facts, rules and queries",
            ));
        };
        match name.as_str() {
            "version" => match value {
                Node::Scalar(v, _) if v == "1.0" || v == "1" => {
                    program.version = Some("1.0".into())
                }
                other => {
                    return Err(ParseError::new(
                        other.pos(),
                        "version is \"1.0\" (this is Euclid-IR 1.0)",
                    ));
                }
            },
            "facts" => {
                for item in list(value, "facts")? {
                    let (text, pos) = scalar(item, "a fact is a string such as parent(tom, bob)")?;
                    let before = program.clauses.len();
                    parse_item_at(&text, pos, &mut program)?;
                    if program.clauses.len() != before + 1 || !program.clauses[before].is_fact() {
                        return Err(ParseError::new(
                            pos,
                            "facts holds facts only: put rules under rules",
                        ));
                    }
                }
            }
            "rules" => {
                for item in list(value, "rules")? {
                    rule(item, &mut program)?;
                }
            }
            "queries" => {
                for item in list(value, "queries")? {
                    let (text, pos) = query_text(item)?;
                    let text = if text.trim_start().starts_with('?') {
                        text
                    } else {
                        format!("? {text}")
                    };
                    parse_item_at(&text, pos, &mut program)?;
                }
            }
            other => {
                return Err(ParseError::new(
                    kpos,
                    format!(
                        "unknown key `{other}`: the keys are version, facts, rules and queries"
                    ),
                ));
            }
        }
    }
    Ok(program)
}

fn list(node: Node, key: &str) -> Result<Vec<Node>, ParseError> {
    match node {
        Node::Seq(items, _, flow) => Ok(rejoin(items, flow)),
        // `facts:` with nothing under it.
        Node::Scalar(s, _) if s.is_empty() || s == "~" || s == "null" => Ok(Vec::new()),
        other => Err(ParseError::new(
            other.pos(),
            format!("{key} is a list (one `- item` per line)"),
        )),
    }
}

/// Puts back together goals that a flow sequence split at their commas:
/// `[ parent($x, $y) ]` reads as the items `parent($x` and `$y)`. Block sequences
/// (one `- item` per line) are left alone.
fn rejoin(items: Vec<Node>, flow: bool) -> Vec<Node> {
    if !flow {
        return items;
    }
    let mut out: Vec<Node> = Vec::new();
    let open = |s: &str| {
        let s = s.split('#').next().unwrap_or_default();
        s.matches('(').count() > s.matches(')').count()
    };
    for item in items {
        match (out.last_mut(), item) {
            (Some(Node::Scalar(acc, _)), Node::Scalar(next, _)) if open(acc) => {
                acc.push_str(", ");
                acc.push_str(&next);
            }
            (_, item) => out.push(item),
        }
    }
    out
}

fn scalar(node: Node, what: &str) -> Result<(String, Pos), ParseError> {
    match node {
        Node::Scalar(s, pos) => Ok((s, pos)),
        other => Err(ParseError::new(other.pos(), what.to_string())),
    }
}

/// A query item: a string, or `? goal` (which YAML reads as a mapping with one
/// complex key and no value).
fn query_text(node: Node) -> Result<(String, Pos), ParseError> {
    match node {
        Node::Scalar(s, pos) => Ok((s, pos)),
        Node::Map(mut entries, pos) if entries.len() == 1 => {
            let (k, v) = entries.remove(0);
            match (k, v) {
                (Node::Scalar(goal, kpos), Node::Scalar(empty, _))
                    if empty.is_empty() || empty == "~" =>
                {
                    Ok((
                        format!("? {goal}"),
                        Pos {
                            line: kpos.line,
                            column: kpos.column.saturating_sub(2).max(1),
                        },
                    ))
                }
                _ => Err(ParseError::new(
                    pos,
                    "a query is a string such as ? ancestor(tom, $who)",
                )),
            }
        }
        other => Err(ParseError::new(
            other.pos(),
            "a query is a string such as ? ancestor(tom, $who)",
        )),
    }
}

fn rule(node: Node, program: &mut Program) -> Result<(), ParseError> {
    match node {
        Node::Scalar(text, pos) => parse_item_at(&text, pos, program),
        Node::Map(entries, pos) => {
            let mut head = None;
            let mut body: Vec<(String, Pos)> = Vec::new();
            for (k, v) in entries {
                let Node::Scalar(key, kpos) = k else {
                    return Err(ParseError::new(pos, "a rule has the keys head and body"));
                };
                match key.as_str() {
                    "head" => head = Some(scalar(v, "head is a string such as ancestor($x, $y)")?),
                    "body" => match v {
                        Node::Seq(items, _, flow) => {
                            for item in rejoin(items, flow) {
                                body.push(scalar(item, "each body goal is a string")?);
                            }
                        }
                        Node::Scalar(s, p) => body.push((s, p)),
                        Node::Map(_, p) => {
                            return Err(ParseError::new(p, "body is a list of goals"));
                        }
                    },
                    other => {
                        return Err(ParseError::new(
                            kpos,
                            format!("unknown key `{other}` in a rule: write head and body"),
                        ));
                    }
                }
            }
            let Some((head, hpos)) = head else {
                return Err(ParseError::new(pos, "a rule needs a head"));
            };
            if body.is_empty() {
                return Err(ParseError::new(
                    pos,
                    "a rule needs a body: put facts under facts",
                ));
            }
            // Each piece is parsed at its own place in the document.
            let head = parse_head_at(&head, hpos)?;
            let mut goals = Vec::new();
            for (text, bpos) in body {
                goals.extend(parse_query_at(&text, bpos)?.body);
            }
            let clause = Clause {
                head,
                body: goals,
                pos,
            };
            clause_limits(&clause)?;
            program.clauses.push(clause);
            Ok(())
        }
        other => Err(ParseError::new(
            other.pos(),
            "a rule is {head: …, body: [ … ]} or a string head IF body",
        )),
    }
}
