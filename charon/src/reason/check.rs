//! `check_kb`: what can be known about Euclid-IR knowledge without running it —
//! undefined predicates, arity mismatches, recursion through negation, duplicate
//! clauses, unsafe and singleton variables.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use serde::{Deserialize, Serialize};

use super::ast::{Clause, Literal, Pos, Program, Term};

/// How serious an issue is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    /// The knowledge cannot mean what it says (or cannot run).
    Error,
    /// Legal, but probably not what was meant.
    Warning,
}

/// One finding of [`check`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Issue {
    /// Error or warning.
    pub severity: Severity,
    /// What kind: `undefined_predicate`, `arity_mismatch`, `negation_cycle`,
    /// `duplicate_fact`, `duplicate_rule`, `unsafe_variable`, `unbound_in_comparison`,
    /// `unbound_in_negation`, `singleton_variable`.
    pub kind: String,
    /// What is wrong and what to do.
    pub message: String,
    /// Line of the clause or query.
    pub line: usize,
    /// Column of the literal (or the clause).
    pub column: usize,
}

impl Issue {
    fn new(severity: Severity, kind: &str, pos: Pos, message: String) -> Issue {
        Issue {
            severity,
            kind: kind.into(),
            message,
            line: pos.line,
            column: pos.column,
        }
    }
}

/// Every issue of `program`, sorted by place.
pub fn check(program: &Program) -> Vec<Issue> {
    let mut issues = Vec::new();
    let defined: BTreeMap<(&str, usize), usize> = {
        let mut m = BTreeMap::new();
        for c in &program.clauses {
            *m.entry((c.head.name.as_str(), c.head.args.len()))
                .or_insert(0) += 1;
        }
        m
    };
    let arities = |name: &str| -> Vec<usize> {
        defined
            .keys()
            .filter(|(n, _)| *n == name)
            .map(|(_, a)| *a)
            .collect()
    };
    // Undefined predicates and arity mismatches, in bodies and queries.
    let bodies = program
        .clauses
        .iter()
        .map(|c| &c.body[..])
        .chain(program.queries.iter().map(|q| &q.body[..]));
    let mut reported = BTreeSet::new();
    for body in bodies {
        for lit in body {
            let (Literal::Pos(a) | Literal::Not(a)) = lit else {
                continue;
            };
            if defined.contains_key(&(a.name.as_str(), a.args.len())) {
                continue;
            }
            let others = arities(&a.name);
            if !reported.insert((a.name.clone(), a.args.len())) {
                continue;
            }
            if others.is_empty() {
                issues.push(Issue::new(
                    Severity::Warning,
                    "undefined_predicate",
                    a.pos,
                    format!(
                        "no facts or rules define `{}`: every goal on it fails (closed world). Add its facts or a rule, or check the spelling",
                        a.indicator()
                    ),
                ));
            } else {
                let list: Vec<String> = others.iter().map(|n| n.to_string()).collect();
                issues.push(Issue::new(
                    Severity::Error,
                    "arity_mismatch",
                    a.pos,
                    format!(
                        "`{}` is called with {} argument(s), but `{}` is defined with {}: use the same number of arguments",
                        a.name,
                        a.args.len(),
                        a.name,
                        list.join(" or ")
                    ),
                ));
            }
        }
    }
    // The same name defined with several arities.
    let mut by_name: BTreeMap<&str, Vec<(usize, Pos)>> = BTreeMap::new();
    for c in &program.clauses {
        let v = by_name.entry(&c.head.name).or_default();
        if !v.iter().any(|(a, _)| *a == c.head.args.len()) {
            v.push((c.head.args.len(), c.pos));
        }
    }
    for (name, v) in by_name {
        if v.len() > 1 {
            let list: Vec<String> = v.iter().map(|(a, _)| a.to_string()).collect();
            issues.push(Issue::new(
                Severity::Warning,
                "arity_mismatch",
                v[1].1,
                format!(
                    "`{name}` is defined with {} arguments: these are different predicates; use one arity if they are meant to be the same",
                    list.join(" and ")
                ),
            ));
        }
    }
    negation_cycles(program, &mut issues);
    duplicates(program, &mut issues);
    for c in &program.clauses {
        if !c.is_fact() {
            variables(&c.head.args, &c.body, c.pos, true, &mut issues);
        }
    }
    for q in &program.queries {
        variables(&[], &q.body, q.pos, false, &mut issues);
    }
    issues.sort_by(|a, b| {
        (a.line, a.column, a.severity, &a.kind).cmp(&(b.line, b.column, b.severity, &b.kind))
    });
    issues
}

/// Variables that no positive goal binds before they are needed, and singletons.
/// Shared with `reason`, which refuses comparisons over unbound variables.
pub(crate) fn variables(
    head: &[Term],
    body: &[Literal],
    pos: Pos,
    singletons: bool,
    issues: &mut Vec<Issue>,
) {
    let mut bound: BTreeSet<&str> = BTreeSet::new();
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for t in head {
        if let Term::Var(v) = t {
            *counts.entry(v).or_insert(0) += 1;
        }
    }
    for lit in body {
        match lit {
            Literal::Pos(a) => {
                for t in &a.args {
                    if let Term::Var(v) = t {
                        bound.insert(v);
                        *counts.entry(v).or_insert(0) += 1;
                    }
                }
            }
            Literal::Not(a) => {
                for t in &a.args {
                    if let Term::Var(v) = t {
                        *counts.entry(v).or_insert(0) += 1;
                        if !bound.contains(v.as_str()) {
                            issues.push(Issue::new(
                                Severity::Warning,
                                "unbound_in_negation",
                                a.pos,
                                format!(
                                    "`${v}` is not bound by an earlier goal, so `NOT {a}` means that no value at all makes `{a}` hold; bind ${v} with a goal before the NOT"
                                ),
                            ));
                        }
                    }
                }
            }
            Literal::Compare(c) => {
                let mut right = Vec::new();
                c.right.vars(&mut right);
                let mut left = Vec::new();
                c.left.vars(&mut left);
                let needed: Vec<&str> = if c.op == super::ast::CmpOp::Is {
                    right
                } else {
                    left.iter().chain(&right).copied().collect()
                };
                for v in left.iter().chain(&needed) {
                    *counts.entry(v).or_insert(0) += 1;
                }
                for v in needed {
                    if bound.contains(v) {
                        continue;
                    }
                    // A head variable may get its value from the caller.
                    let from_head = head.iter().any(|t| matches!(t, Term::Var(h) if h == v));
                    let (severity, message) = if from_head {
                        (
                            Severity::Warning,
                            format!(
                                "`${v}` has a value in `{c}` only when the caller gives one (a query like this rule's head with ${v} unbound stops with an error): bind ${v} with a goal before the comparison"
                            ),
                        )
                    } else {
                        (
                            Severity::Error,
                            format!(
                                "`${v}` has no value when `{c}` is evaluated: put a goal that binds ${v} before the comparison"
                            ),
                        )
                    };
                    issues.push(Issue::new(
                        severity,
                        "unbound_in_comparison",
                        c.pos,
                        message,
                    ));
                }
                if c.op == super::ast::CmpOp::Is {
                    bound.extend(left);
                }
            }
        }
    }
    for t in head {
        if let Term::Var(v) = t
            && !bound.contains(v.as_str())
        {
            issues.push(Issue::new(
                Severity::Warning,
                "unsafe_variable",
                pos,
                format!(
                    "`${v}` in the head is not bound by a positive goal of the body, so answers may leave it unbound; add a goal that gives it a value"
                ),
            ));
        }
    }
    if singletons {
        for (v, n) in counts {
            if n == 1 {
                issues.push(Issue::new(
                    Severity::Warning,
                    "singleton_variable",
                    pos,
                    format!("`${v}` appears only once in this rule: write _ if any value will do, or check the spelling"),
                ));
            }
        }
    }
}

/// Recursion through negation: a predicate that depends on itself through a NOT has
/// no well-defined answer under closed-world negation. Found with the strongly
/// connected components of the dependency graph (Kosaraju, without recursion):
/// linear in the size of the knowledge.
fn negation_cycles<'p>(program: &'p Program, issues: &mut Vec<Issue>) {
    type Pred<'a> = (&'a str, usize);
    let mut index: HashMap<Pred<'p>, usize> = HashMap::new();
    let mut names: Vec<Pred<'p>> = Vec::new();
    let mut id = |p: Pred<'p>, names: &mut Vec<Pred<'p>>| {
        *index.entry(p).or_insert_with(|| {
            names.push(p);
            names.len() - 1
        })
    };
    // Edges: (from, to, negative, where).
    let mut edges: Vec<(usize, usize, bool, Pos)> = Vec::new();
    for c in &program.clauses {
        let from = id((c.head.name.as_str(), c.head.args.len()), &mut names);
        for lit in &c.body {
            let (a, negative) = match lit {
                Literal::Pos(a) => (a, false),
                Literal::Not(a) => (a, true),
                Literal::Compare(_) => continue,
            };
            let to = id((a.name.as_str(), a.args.len()), &mut names);
            edges.push((from, to, negative, a.pos));
        }
    }
    let n = names.len();
    let mut forward: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut backward: Vec<Vec<usize>> = vec![Vec::new(); n];
    for &(f, t, _, _) in &edges {
        forward[f].push(t);
        backward[t].push(f);
    }
    // First pass: nodes in order of finishing.
    let mut order = Vec::with_capacity(n);
    let mut seen = vec![false; n];
    for start in 0..n {
        if seen[start] {
            continue;
        }
        seen[start] = true;
        let mut stack = vec![(start, 0usize)];
        while let Some((node, next)) = stack.pop() {
            if let Some(&to) = forward[node].get(next) {
                stack.push((node, next + 1));
                if !seen[to] {
                    seen[to] = true;
                    stack.push((to, 0));
                }
            } else {
                order.push(node);
            }
        }
    }
    // Second pass, on the reversed graph: components.
    let mut component = vec![usize::MAX; n];
    for (c, &start) in order.iter().rev().enumerate() {
        if component[start] != usize::MAX {
            continue;
        }
        component[start] = c;
        let mut stack = vec![start];
        while let Some(node) = stack.pop() {
            for &from in &backward[node] {
                if component[from] == usize::MAX {
                    component[from] = c;
                    stack.push(from);
                }
            }
        }
    }
    let mut reported = BTreeSet::new();
    for &(f, t, negative, pos) in &edges {
        if negative && component[f] == component[t] && reported.insert((f, t)) {
            let (from, to) = (names[f], names[t]);
            issues.push(Issue::new(
                Severity::Error,
                "negation_cycle",
                pos,
                format!(
                    "`{}/{}` depends on NOT `{}/{}`, which depends on `{}/{}` again: recursion through negation has no well-defined answer; restructure the rules so the negated predicate does not lead back",
                    from.0, from.1, to.0, to.1, from.0, from.1
                ),
            ));
        }
    }
}

/// The same fact twice, or the same rule twice (up to the names of its variables).
fn duplicates(program: &Program, issues: &mut Vec<Issue>) {
    let mut seen: HashMap<String, usize> = HashMap::new();
    for c in &program.clauses {
        let key = canonical(c);
        match seen.get(&key) {
            Some(first) => {
                let (kind, what) = if c.is_fact() {
                    ("duplicate_fact", "fact")
                } else {
                    ("duplicate_rule", "rule")
                };
                issues.push(Issue::new(
                    Severity::Warning,
                    kind,
                    c.pos,
                    format!("this {what} repeats the one at line {first}: remove one (answers do not change, proofs double)"),
                ));
            }
            None => {
                seen.insert(key, c.pos.line);
            }
        }
    }
}

/// A clause's text with its variables renamed in order of appearance.
fn canonical(c: &Clause) -> String {
    let text = c.to_string();
    let mut names: HashMap<String, usize> = HashMap::new();
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(ch) = chars.next() {
        if ch == '$' {
            let mut name = String::new();
            while let Some(&n) = chars.peek() {
                if n.is_ascii_alphanumeric() || n == '_' {
                    name.push(n);
                    chars.next();
                } else {
                    break;
                }
            }
            let next = names.len();
            let id = *names.entry(name).or_insert(next);
            out.push_str(&format!("$#{id}"));
        } else {
            out.push(ch);
        }
    }
    out
}
