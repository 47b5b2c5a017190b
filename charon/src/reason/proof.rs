//! The engine's answer terms → solutions with proof trees (see `lower` for the
//! terms' shape). Solutions are merged by their bindings and sorted by a total
//! order; the proofs of each are deduplicated and sorted too, so the same knowledge
//! and query always give the same bytes.

use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::ast::{Atom, Comparison, Literal, Program, write_const};
use super::lower::clause_vars;
use crate::term::PlTerm;

/// What a proof node shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ProofKind {
    /// A fact of the knowledge.
    Fact,
    /// A rule, with the proofs of its body as children, in body order.
    Rule,
    /// `NOT goal`, which held because the goal has no proof.
    Negation,
    /// A comparison (or `is`) that held, with the values it compared.
    Comparison,
    /// The query itself, when it has several goals: its children are theirs.
    Query,
    /// A built-in that held: the literal `true`, or a call of a `.pl` knowledge
    /// base that is explained.
    Builtin,
}

/// One node of a proof tree.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProofNode {
    /// What kind of step.
    pub kind: ProofKind,
    /// The goal proved, with the values of its variables, as Euclid-IR.
    pub goal: String,
    /// The line of the fact or rule used.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    /// The identifier of the rule used, when the knowledge names it
    /// (`# rule: R-12`): the audit trail of which rule decided.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule_id: Option<String>,
    /// The proofs of a rule's (or a query's) goals, in body order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub children: Vec<ProofNode>,
}

/// One answer: values of the query's variables, and how many distinct proofs it has.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Solution {
    /// Each query variable (name without `$`) and its value: a string for a
    /// constant, a number, or null when the proof leaves it unbound.
    pub bindings: serde_json::Map<String, Value>,
    /// Distinct proofs found.
    pub proof_count: usize,
    /// The first `max_proofs` of them, in a fixed order.
    pub proofs: Vec<ProofNode>,
}

/// How a value from the engine is written: as Euclid-IR in proof goals, or as
/// the reference answers a nested value in bindings.
#[derive(Clone, Copy, PartialEq)]
enum Style {
    /// Constants bare or double-quoted as Euclid-IR reads them, arguments
    /// separated by `, `: `cfg(done, tape(_, 1))`.
    Proof,
    /// As the reference's default backend (SWI-Prolog's `term_string/2`) writes
    /// the term: no space after the commas, constants in single quotes where
    /// Prolog needs them: `cfg(done,tape(_,1))`, `f('Hello World',1.5,-2)`,
    /// `f(if,and)`.
    Binding,
}

fn text(term: &PlTerm, style: Style) -> String {
    let constant = |out: &mut String, text: &str| match style {
        Style::Proof => write_const(out, text),
        Style::Binding => write_prolog_atom(out, text),
    };
    let mut out = String::new();
    match term {
        PlTerm::Atom(a) | PlTerm::Str(a) => constant(&mut out, a),
        // The engine does not tell the constant '[]' from the empty list;
        // Euclid-IR has only the constant.
        PlTerm::List(items) if items.is_empty() => constant(&mut out, "[]"),
        PlTerm::Compound(f, args) => {
            constant(&mut out, f);
            out.push('(');
            for (i, a) in args.iter().enumerate() {
                if i > 0 {
                    out.push_str(if style == Style::Proof { ", " } else { "," });
                }
                out.push_str(&text(a, style));
            }
            out.push(')');
        }
        PlTerm::Float(f) if style == Style::Binding => out.push_str(&prolog_float_text(*f)),
        other => out.push_str(&value(other).1),
    }
    out
}

/// A float as SWI-Prolog writes it: the shortest digits that read back the same,
/// positional from 1.0e-4 up to 1.0e15 (`0.0001`, `100000000000000.0`), else with
/// an exponent (`1.0e-5`, `1.0e+15`); always with a fractional part.
fn prolog_float_text(f: f64) -> String {
    if !f.is_finite() {
        return super::float_text(f);
    }
    let scientific = format!("{f:e}");
    let (mantissa, exponent) = scientific.split_once('e').unwrap_or((&scientific, "0"));
    let exponent: i32 = exponent.parse().unwrap_or(0);
    if f == 0.0 || (-4..15).contains(&exponent) {
        return super::float_text(f);
    }
    let mantissa = if mantissa.contains('.') {
        mantissa.to_string()
    } else {
        format!("{mantissa}.0")
    };
    let sign = if exponent < 0 { '-' } else { '+' };
    format!("{mantissa}e{sign}{}", exponent.unsigned_abs())
}

/// A constant as SWI-Prolog writes an atom with `quoted(true)`: bare when it reads
/// back as the same atom (a lowercase letter then letters, digits and `_`; a run of
/// symbol characters; a solo atom), else in single quotes, with `\` and `'` escaped.
fn write_prolog_atom(out: &mut String, text: &str) {
    const SYMBOL: &str = "#$&*+-./:<=>?@^~\\";
    let mut chars = text.chars();
    let word = chars
        .next()
        .is_some_and(|c| c.is_alphabetic() && !c.is_uppercase())
        && chars.all(|c| {
            c.is_alphanumeric() || c == '_' || unicode_normalization::char::is_combining_mark(c)
        });
    let symbols = !text.is_empty()
        && text != "."
        && !text.starts_with("/*")
        && text.chars().all(|c| SYMBOL.contains(c));
    if word || symbols || matches!(text, "!" | ";" | "{}") {
        out.push_str(text);
        return;
    }
    out.push('\'');
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\'' => out.push_str("''"),
            c => out.push(c),
        }
    }
    out.push('\'');
}

/// A value from the engine, as JSON and as Euclid-IR text (for proof goals). A
/// nested term's JSON value is written as the reference writes it in bindings
/// ([`Style::Binding`]); proof goals write it as Euclid-IR, spaced.
fn value(term: &PlTerm) -> (Value, String) {
    match term {
        PlTerm::Atom(a) => (Value::String(a.clone()), text(term, Style::Proof)),
        PlTerm::Compound(..) => (
            Value::String(text(term, Style::Binding)),
            text(term, Style::Proof),
        ),
        PlTerm::Int(d) => (crate::json::integer(d), d.clone()),
        PlTerm::Float(f) => {
            let text = super::float_text(*f);
            (
                serde_json::Number::from_f64(*f).map_or(Value::Null, Value::Number),
                text,
            )
        }
        PlTerm::Var(_) => (Value::Null, "_".into()),
        other => (Value::String(other.to_string()), other.to_string()),
    }
}

/// The sort key of a value: numbers (by value, integers exactly), then constants (by
/// code point), then unbound.
#[derive(Debug, Clone, PartialEq)]
enum Key {
    /// The value as a float, the integer's decimal text if it is one, the text.
    Number(f64, Option<String>, String),
    Atom(String),
    /// A nested term, by its text: after every constant, so `'f(a)'` and `f(a)`
    /// stay two values.
    Compound(String),
    Unbound,
}

impl Eq for Key {}

/// Compares two integers given in decimal (no leading zeros), exactly.
fn int_cmp(a: &str, b: &str) -> Ordering {
    let (na, da) = a.strip_prefix('-').map_or((false, a), |d| (true, d));
    let (nb, db) = b.strip_prefix('-').map_or((false, b), |d| (true, d));
    let magnitude = da.len().cmp(&db.len()).then_with(|| da.cmp(db));
    match (na, nb) {
        (false, false) => magnitude,
        (true, true) => magnitude.reverse(),
        (true, false) => Ordering::Less,
        (false, true) => Ordering::Greater,
    }
}

impl Ord for Key {
    fn cmp(&self, other: &Self) -> Ordering {
        use Key::*;
        match (self, other) {
            (Number(_, Some(ia), _), Number(_, Some(ib), _)) => int_cmp(ia, ib),
            (Number(a, _, ta), Number(b, _, tb)) => a.total_cmp(b).then_with(|| ta.cmp(tb)),
            (Number(..), _) => Ordering::Less,
            (_, Number(..)) => Ordering::Greater,
            (Atom(a), Atom(b)) | (Compound(a), Compound(b)) => a.cmp(b),
            (Atom(_), _) => Ordering::Less,
            (_, Atom(_)) => Ordering::Greater,
            (Compound(_), Unbound) => Ordering::Less,
            (Unbound, Compound(_)) => Ordering::Greater,
            (Unbound, Unbound) => Ordering::Equal,
        }
    }
}

impl PartialOrd for Key {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

fn key(term: &PlTerm) -> Key {
    match term {
        PlTerm::Int(d) => Key::Number(
            d.parse::<f64>().unwrap_or(f64::MAX),
            Some(d.clone()),
            d.clone(),
        ),
        PlTerm::Float(f) => Key::Number(*f, None, super::float_text(*f)),
        PlTerm::Var(_) => Key::Unbound,
        PlTerm::Compound(..) => Key::Compound(term.to_string()),
        other => Key::Atom(match other {
            PlTerm::Atom(a) => a.clone(),
            o => o.to_string(),
        }),
    }
}

/// Arguments of a compound (`v(…)`/`c(…)`), or none for the bare atom.
fn items(term: &PlTerm) -> Option<&[PlTerm]> {
    match term {
        PlTerm::Compound(_, args) => Some(args),
        PlTerm::Atom(_) => Some(&[]),
        _ => None,
    }
}

const SHAPE: &str = "the engine answered in an unexpected shape";

/// Renders proof terms against the program they came from.
pub(crate) struct Renderer<'a> {
    pub program: &'a Program,
    /// Each clause's named variables (see `lower::clause_vars`).
    pub vars: &'a [Vec<String>],
    /// Clauses from here on were added by a tool, not written in the knowledge:
    /// their nodes have no line.
    pub base: usize,
}

impl Renderer<'_> {
    fn node(&self, term: &PlTerm) -> Result<ProofNode, String> {
        match term {
            PlTerm::Int(_) => {
                let clause = self.clause(term)?;
                Ok(ProofNode {
                    kind: ProofKind::Fact,
                    goal: self.program.clauses[clause].head.to_string(),
                    line: (clause < self.base).then(|| self.program.clauses[clause].pos.line),
                    rule_id: None,
                    children: Vec::new(),
                })
            }
            PlTerm::Compound(f, args) if f == "f" && args.len() == 2 => {
                let index = self.clause(&args[0])?;
                let clause = &self.program.clauses[index];
                let values = items(&args[1]).ok_or(SHAPE)?;
                let env: BTreeMap<&str, String> = self.vars[index]
                    .iter()
                    .map(String::as_str)
                    .zip(values.iter().map(|t| value(t).1))
                    .collect();
                Ok(ProofNode {
                    kind: ProofKind::Fact,
                    goal: atom_text(&clause.head, &env),
                    line: (index < self.base).then_some(clause.pos.line),
                    rule_id: None,
                    children: Vec::new(),
                })
            }
            PlTerm::Compound(f, args) if f == "r" && args.len() == 3 => {
                let index = self.clause(&args[0])?;
                let clause = &self.program.clauses[index];
                let values = items(&args[1]).ok_or(SHAPE)?;
                let proofs = items(&args[2]).ok_or(SHAPE)?;
                let names = &self.vars[index];
                let env: BTreeMap<&str, String> = names
                    .iter()
                    .map(String::as_str)
                    .zip(values.iter().map(|t| value(t).1))
                    .collect();
                let children = self.body(Some(&clause.head), &clause.body, &env, proofs)?;
                Ok(ProofNode {
                    kind: ProofKind::Rule,
                    goal: atom_text(&clause.head, &env),
                    line: (index < self.base).then_some(clause.pos.line),
                    rule_id: clause.id.clone(),
                    children,
                })
            }
            _ => Err(SHAPE.into()),
        }
    }

    fn clause(&self, term: &PlTerm) -> Result<usize, String> {
        match term {
            PlTerm::Int(d) => d
                .parse::<usize>()
                .ok()
                .filter(|i| *i < self.program.clauses.len())
                .ok_or_else(|| SHAPE.into()),
            _ => Err(SHAPE.into()),
        }
    }

    /// The children of a rule or query: one node per goal, in body order.
    fn body(
        &self,
        head: Option<&Atom>,
        body: &[Literal],
        env: &BTreeMap<&str, String>,
        proofs: &[PlTerm],
    ) -> Result<Vec<ProofNode>, String> {
        let mut proofs = proofs.iter();
        // Variables with a value when each goal runs: the head's (as the caller's
        // goal may give them), then what positive goals and `is` bind. A NOT is
        // shown as it was checked: over `_` where its variable had no value yet.
        let mut bound: BTreeSet<&str> = head
            .into_iter()
            .flat_map(|h| &h.args)
            .flat_map(|t| {
                let mut vs = Vec::new();
                t.vars(&mut vs);
                vs
            })
            .collect();
        let mut nodes = Vec::with_capacity(body.len());
        let mut bound_now: Vec<&str> = Vec::new();
        for lit in body {
            nodes.push(match lit {
                // `true` held without a proof of its own.
                Literal::Pos(a) if a.truth().is_some() => ProofNode {
                    kind: ProofKind::Builtin,
                    goal: a.name.clone(),
                    line: None,
                    rule_id: None,
                    children: Vec::new(),
                },
                Literal::Pos(a) => {
                    for t in &a.args {
                        t.vars(&mut bound_now);
                    }
                    bound.extend(bound_now.drain(..));
                    self.node(proofs.next().ok_or(SHAPE)?)?
                }
                Literal::Not(a) => {
                    let known: BTreeMap<&str, String> = env
                        .iter()
                        .filter(|(k, _)| bound.contains(*k))
                        .map(|(k, v)| (*k, v.clone()))
                        .collect();
                    ProofNode {
                        kind: ProofKind::Negation,
                        goal: format!("NOT {}", atom_text(a, &known)),
                        line: None,
                        rule_id: None,
                        children: Vec::new(),
                    }
                }
                Literal::Compare(c) => {
                    if c.op == super::ast::CmpOp::Is {
                        let mut left = Vec::new();
                        c.left.vars(&mut left);
                        bound.extend(left);
                    }
                    ProofNode {
                        kind: ProofKind::Comparison,
                        goal: comparison_text(c, env),
                        line: None,
                        rule_id: None,
                        children: Vec::new(),
                    }
                }
            });
        }
        Ok(nodes)
    }
}

fn lookup(env: &BTreeMap<&str, String>, v: &str) -> String {
    env.get(v).cloned().unwrap_or_else(|| "_".into())
}

/// A comparison with the values of its variables.
fn comparison_text(c: &Comparison, env: &BTreeMap<&str, String>) -> String {
    let mut goal = String::new();
    c.left.write(&mut goal, &|v| lookup(env, v));
    goal.push(' ');
    goal.push_str(c.op.text());
    goal.push(' ');
    c.right.write(&mut goal, &|v| lookup(env, v));
    goal
}

fn atom_text(a: &Atom, env: &BTreeMap<&str, String>) -> String {
    let mut s = String::new();
    write_const(&mut s, &a.name);
    if !a.args.is_empty() {
        s.push('(');
        for (i, t) in a.args.iter().enumerate() {
            if i > 0 {
                s.push_str(", ");
            }
            t.write(&mut s, &|v| lookup(env, v));
        }
        s.push(')');
    }
    s
}

/// How much of an answer may be rendered: proof nodes in all, and bytes of JSON
/// (estimated from above while rendering).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Bounds {
    pub max_solutions: usize,
    pub max_proofs: usize,
    pub max_nodes: usize,
    pub max_bytes: usize,
}

/// Why rendering stopped.
#[derive(Debug)]
pub(crate) enum RenderError {
    /// The answer's shape is not what the lowering writes.
    Shape(String),
    /// The proofs of the solutions returned hold more nodes than allowed.
    Nodes(usize),
    /// The answer would be larger than allowed, in bytes.
    Bytes(usize),
    /// The proofs rendered to choose the ones returned hold more nodes than allowed.
    Rendered(usize),
}

impl From<String> for RenderError {
    fn from(m: String) -> Self {
        RenderError::Shape(m)
    }
}

impl From<&str> for RenderError {
    fn from(m: &str) -> Self {
        RenderError::Shape(m.into())
    }
}

/// Nodes of a tree, and an upper bound of its JSON size.
pub(crate) fn weigh(node: &ProofNode, nodes: &mut usize, bytes: &mut usize) {
    *nodes += 1;
    // `{"kind":"comparison","goal":"…","line":N,"rule_id":"…","children":[…]},`
    // with every goal character escaped at most six bytes wide.
    let escaped = |t: &str| {
        t.len()
            + 5 * t
                .bytes()
                .filter(|b| *b < 0x20 || *b == b'"' || *b == b'\\')
                .count()
    };
    *bytes += 80 + escaped(&node.goal) + node.rule_id.as_deref().map_or(0, |r| 12 + escaped(r));
    for c in &node.children {
        weigh(c, nodes, bytes);
    }
}

/// How many times `max_nodes` the proofs rendered to pick the returned ones may
/// hold (every proof of a returned solution is rendered to sort them).
const RENDER_FACTOR: usize = 10;

/// Solutions of a query from the engine's list of `s(v(Values…), c(Proofs…))`:
/// merged by bindings and sorted, the first `max_solutions` of them rendered (at
/// most `max_proofs` proofs each), and how many there are in all. Only the
/// solutions returned are rendered; the proofs returned may hold at most
/// `max_nodes` nodes and `max_bytes` bytes of JSON together, and the proofs
/// rendered to sort them at most `RENDER_FACTOR` times as many nodes.
pub(crate) fn solutions(
    renderer: &Renderer<'_>,
    query_body: &[Literal],
    variables: &[String],
    answers: &[PlTerm],
    bounds: Bounds,
) -> Result<(Vec<Solution>, usize), RenderError> {
    // Bindings (by sort key) → their values and their distinct proof terms.
    struct Group<'t> {
        values: Vec<&'t PlTerm>,
        proofs: Vec<&'t PlTerm>,
        seen: BTreeSet<String>,
    }
    let mut merged: BTreeMap<Vec<Key>, Group> = BTreeMap::new();
    for answer in answers {
        let PlTerm::Compound(s, parts) = answer else {
            return Err(SHAPE.into());
        };
        if s != "s" || parts.len() != 2 {
            return Err(SHAPE.into());
        }
        let values = items(&parts[0]).ok_or(SHAPE)?;
        if values.len() != variables.len() {
            return Err(SHAPE.into());
        }
        let group = merged
            .entry(values.iter().map(key).collect())
            .or_insert_with(|| Group {
                values: values.iter().collect(),
                proofs: Vec::new(),
                seen: BTreeSet::new(),
            });
        if group.seen.insert(parts[1].to_string()) {
            group.proofs.push(&parts[1]);
        }
    }
    let total = merged.len();
    let render_limit = bounds.max_nodes.saturating_mul(RENDER_FACTOR);
    let (mut rendered, mut nodes, mut bytes) = (0, 0, 0);
    let mut out = Vec::with_capacity(total.min(bounds.max_solutions));
    for group in merged.into_values().take(bounds.max_solutions) {
        let env: BTreeMap<&str, String> = variables
            .iter()
            .map(String::as_str)
            .zip(group.values.iter().map(|t| value(t).1))
            .collect();
        // Proofs by their canonical text: sorted, and the same proof once.
        let mut proofs: BTreeMap<String, ProofNode> = BTreeMap::new();
        for term in group.proofs {
            let proof_items = items(term).ok_or(SHAPE)?;
            let proof = match query_body {
                [Literal::Pos(a)] if a.truth().is_none() => {
                    renderer.node(proof_items.first().ok_or(SHAPE)?)?
                }
                _ => ProofNode {
                    kind: ProofKind::Query,
                    goal: query_body
                        .iter()
                        .map(|l| match l {
                            Literal::Pos(a) => atom_text(a, &env),
                            Literal::Not(a) => format!("NOT {}", atom_text(a, &env)),
                            Literal::Compare(c) => comparison_text(c, &env),
                        })
                        .collect::<Vec<_>>()
                        .join(" AND "),
                    line: None,
                    rule_id: None,
                    children: renderer.body(None, query_body, &env, proof_items)?,
                },
            };
            let mut unused = 0;
            weigh(&proof, &mut rendered, &mut unused);
            if rendered > render_limit {
                return Err(RenderError::Rendered(render_limit));
            }
            let sort_text = serde_json::to_string(&proof).map_err(|e| e.to_string())?;
            proofs.insert(sort_text, proof);
        }
        let proof_count = proofs.len();
        let kept: Vec<ProofNode> = proofs.into_values().take(bounds.max_proofs).collect();
        for proof in &kept {
            weigh(proof, &mut nodes, &mut bytes);
        }
        if nodes > bounds.max_nodes {
            return Err(RenderError::Nodes(bounds.max_nodes));
        }
        if bytes > bounds.max_bytes {
            return Err(RenderError::Bytes(bounds.max_bytes));
        }
        out.push(Solution {
            bindings: variables
                .iter()
                .zip(group.values)
                .map(|(name, t)| (name.clone(), value(t).0))
                .collect(),
            proof_count,
            proofs: kept,
        });
    }
    Ok((out, total))
}

/// The query's named variables in order of first appearance.
pub(crate) fn query_vars(body: &[Literal]) -> Vec<String> {
    clause_vars(None, body)
}
