//! The Euclid-IR YAML form → [`Program`]: `version`, `facts` (strings), `rules`
//! (`{head, body}` maps, or rule strings), `queries` (strings, with or without `? `).
//! Every item is parsed by the text grammar at its place in the document, so errors
//! carry the YAML line and column. Aliases and tags are refused (no expansion bombs).

use yaml_rust2::Event;
use yaml_rust2::parser::{MarkedEventReceiver, Parser};
use yaml_rust2::scanner::{Marker, TScalarStyle};

use super::ast::{Clause, Pos, Program};
use super::parse::{ParseError, clause_limits, parse_head_at, parse_item_at, parse_query_at};

/// Whether `text` looks like the YAML form: its first significant line is a
/// document marker or one of the form's keys.
pub fn looks_like_yaml(text: &str) -> bool {
    text.lines()
        .map(str::trim)
        .find(|l| {
            !l.is_empty()
                && !l.starts_with(['#', '%'])
                && !l.starts_with("//")
                && !l.to_ascii_lowercase().starts_with("@version")
        })
        .is_some_and(|l| {
            let l = l.to_ascii_lowercase();
            l == "---"
                || ["version:", "facts:", "rules:", "queries:", "query:"]
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
            Event::Scalar(value, style, _, tag) => {
                if tag.is_some() {
                    self.error = Some(ParseError::new(
                        pos,
                        "YAML tags are not used in Euclid-IR: remove the !tag",
                    ));
                    return;
                }
                // A quoted value's text starts after its opening quote.
                let quoted = matches!(
                    style,
                    TScalarStyle::SingleQuoted | TScalarStyle::DoubleQuoted
                );
                let pos = Pos {
                    column: pos.column + usize::from(quoted),
                    ..pos
                };
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
    let (version, blanked) = version_directive(src)?;
    let src = blanked.as_deref().unwrap_or(src);
    let mut program = Program {
        version,
        ..Program::default()
    };
    let Some(root) = document(src)? else {
        return Ok(program);
    };
    let Node::Map(entries, _) = root else {
        return Err(ParseError::new(
            root.pos(),
            "the YAML form is a mapping with the keys version, facts, rules and queries",
        ));
    };
    let mut seen: Vec<String> = Vec::new();
    for (key, value) in entries {
        let Node::Scalar(name, kpos) = key else {
            return Err(ParseError::new(
                key.pos(),
                "keys are version, facts, rules, queries and query",
            ));
        };
        // Keys are read in any case, as the reference reads them; a key given twice
        // is refused (YAML readers differ on which one wins).
        let name = name.to_ascii_lowercase();
        if seen.contains(&name) {
            return Err(ParseError::new(
                kpos,
                format!("the key `{name}` is given twice: put all its items under one `{name}:`"),
            ));
        }
        seen.push(name.clone());
        entry(&name, kpos, value, &mut program)?;
    }
    Ok(program)
}

/// An `@version` line before the document (the text form's directive): the
/// version, and the text with that line blanked (so that line numbers stay).
fn version_directive(src: &str) -> Result<(Option<String>, Option<String>), ParseError> {
    let mut lines: Vec<&str> = src.lines().collect();
    for (i, line) in lines.iter_mut().enumerate() {
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        let mut words = t.split_whitespace();
        if !words
            .next()
            .is_some_and(|w| w.eq_ignore_ascii_case("@version"))
        {
            break;
        }
        let version = words.next().filter(|v| {
            v.split('.')
                .all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit()))
        });
        let (Some(v), None) = (version, words.next()) else {
            return Err(ParseError::new(
                Pos {
                    line: i + 1,
                    column: 1,
                },
                "the directive is @version followed by a version number, e.g. @version 1.0",
            ));
        };
        let version = v.to_string();
        *line = "";
        return Ok((Some(version), Some(lines.join("\n"))));
    }
    Ok((None, None))
}

/// The one YAML document of `src`, as nodes (none for an empty text).
fn document(src: &str) -> Result<Option<Node>, ParseError> {
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
    if let Some(second) = builder.done.get(1) {
        return Err(ParseError::new(
            second.pos(),
            "one YAML document only: put all the facts and rules in one",
        ));
    }
    Ok(builder.done.into_iter().next())
}

/// One key of the mapping (`name`, lowercased, at `kpos`) and its value, read
/// into `program`.
fn entry(name: &str, kpos: Pos, value: Node, program: &mut Program) -> Result<(), ParseError> {
    match name {
        "version" if program.version.is_some() => {
            return Err(ParseError::new(
                kpos,
                "the version is given twice (@version and version:): keep one",
            ));
        }
        "version" => match value {
            Node::Scalar(v, _)
                if !v.is_empty()
                    && v.split('.')
                        .all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit())) =>
            {
                program.version = Some(v)
            }
            other => {
                return Err(ParseError::new(
                    other.pos(),
                    "version is a version number such as \"1.0\"",
                ));
            }
        },
        // The reference's form: one query, a string.
        "query" => {
            let items = match value {
                Node::Seq(..) => list(value, "query")?,
                Node::Scalar(s, _) if s.is_empty() || s == "~" || s == "null" => Vec::new(),
                other => vec![other],
            };
            for item in items {
                let (text, pos) = query_text(item)?;
                query_item(&text, pos, program)?;
            }
        }
        "facts" => {
            for item in list(value, "facts")? {
                let (text, pos) = scalar(item, "a fact is a string such as parent(tom, bob)")?;
                let before = program.clauses.len();
                parse_item_at(&text, pos, program)?;
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
                rule(item, program)?;
            }
        }
        "queries" => {
            for item in list(value, "queries")? {
                let (text, pos) = query_text(item)?;
                query_item(&text, pos, program)?;
            }
        }
        other => {
            return Err(ParseError::new(
                kpos,
                format!(
                    "unknown key `{other}`: the keys are version, facts, rules, queries and query"
                ),
            ));
        }
    }
    Ok(())
}

/// A query item, `? ` in front or not.
fn query_item(text: &str, pos: Pos, program: &mut Program) -> Result<(), ParseError> {
    let text = if text.trim_start().starts_with('?') {
        text.to_string()
    } else {
        format!("? {text}")
    };
    parse_item_at(&text, pos, program)
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
            let mut id = None;
            let mut body: Vec<(String, Pos)> = Vec::new();
            for (k, v) in entries {
                let Node::Scalar(key, kpos) = k else {
                    return Err(ParseError::new(
                        pos,
                        "a rule has the keys head, body and id",
                    ));
                };
                match key.as_str() {
                    "id" => {
                        let (text, ipos) = scalar(v, "id is a string such as R-12")?;
                        if text.trim().is_empty() {
                            return Err(ParseError::new(
                                ipos,
                                "id is empty: give the rule a name such as R-12",
                            ));
                        }
                        id = Some(text.trim().to_string());
                    }
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
                            format!("unknown key `{other}` in a rule: write head, body and id"),
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
                id,
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
