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
    /// `unbound_in_negation`, `singleton_variable`, `circular_rule` (the reference
    /// implementation's check, an error), `recursion_without_base_case` (the
    /// cycles it does not see, a warning).
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
            let Some(a) = lit.called() else {
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
    let circular = circular_rules(program, &mut issues);
    recursion_without_base(program, &circular, &mut issues);
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

/// The reference implementation's `circular_rule` check, to the letter: a rule
/// whose body names its own head's predicate (through NOT too; by name, whatever
/// the arity) is an error when that name has no fact and no rule whose body does
/// not name it. One issue per such rule. Returns the names reported.
fn circular_rules<'a>(program: &'a Program, issues: &mut Vec<Issue>) -> BTreeSet<&'a str> {
    let names = |c: &'a Clause| -> BTreeSet<&'a str> {
        c.body
            .iter()
            .filter_map(|l| l.called().map(|a| a.name.as_str()))
            .collect()
    };
    let mut based: BTreeSet<&str> = BTreeSet::new();
    for c in &program.clauses {
        if c.is_fact() || !names(c).contains(c.head.name.as_str()) {
            based.insert(&c.head.name);
        }
    }
    let mut reported = BTreeSet::new();
    for c in &program.clauses {
        let name = c.head.name.as_str();
        if !c.is_fact() && !based.contains(name) && names(c).contains(name) {
            reported.insert(name);
            issues.push(Issue::new(
                Severity::Error,
                "circular_rule",
                c.pos,
                format!(
                    "recursive rule for `{name}` without a base case: every goal on it recurses until the depth limit. Add a fact of `{name}`, or a rule of it whose body does not call it"
                ),
            ));
        }
    }
    reported
}

/// Recursive predicates none of whose clauses can finish: every clause calls,
/// through positive goals, a predicate that can never be proved (itself, among
/// others). A predicate can be proved when one of its clauses has only goals on
/// predicates that can (facts at once); of the rest, those on a cycle of calls
/// are recursion without a base case: every goal on them fails after searching
/// to the depth bound. Linear in the size of the knowledge (it runs on every
/// program a request sends).
fn recursion_without_base(program: &Program, circular: &BTreeSet<&str>, issues: &mut Vec<Issue>) {
    // Predicates by index, in order of first definition.
    let mut index: HashMap<(&str, usize), usize> = HashMap::new();
    let mut first: Vec<&Clause> = Vec::new();
    for c in &program.clauses {
        index
            .entry((c.head.name.as_str(), c.head.args.len()))
            .or_insert_with(|| {
                first.push(c);
                first.len() - 1
            });
    }
    let n = first.len();
    // Each clause: its head, and how many of its positive goals are not yet known
    // to be provable (a goal on an undefined predicate never is).
    let mut waiting: Vec<usize> = Vec::with_capacity(program.clauses.len());
    let mut heads: Vec<usize> = Vec::with_capacity(program.clauses.len());
    let mut callers: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut calls: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (ci, c) in program.clauses.iter().enumerate() {
        let head = index[&(c.head.name.as_str(), c.head.args.len())];
        heads.push(head);
        let mut count = 0;
        for l in &c.body {
            // `true` and `NOT false` need nothing; `false` and `NOT true` are never
            // proved, so their clause waits for ever.
            match l.truth() {
                Some(true) => continue,
                Some(false) => {
                    count += 1;
                    continue;
                }
                None => {}
            }
            if let Literal::Pos(a) = l {
                count += 1;
                if let Some(&callee) = index.get(&(a.name.as_str(), a.args.len())) {
                    callers[callee].push(ci);
                    calls[head].push(callee);
                }
            }
        }
        waiting.push(count);
    }
    // Least fixpoint of "can be proved", by counting down (Horn satisfiability).
    let mut proved = vec![false; n];
    let mut queue: Vec<usize> = Vec::new();
    for (ci, &w) in waiting.iter().enumerate() {
        if w == 0 && !proved[heads[ci]] {
            proved[heads[ci]] = true;
            queue.push(heads[ci]);
        }
    }
    while let Some(p) = queue.pop() {
        for &ci in &callers[p] {
            waiting[ci] -= 1;
            if waiting[ci] == 0 && !proved[heads[ci]] {
                proved[heads[ci]] = true;
                queue.push(heads[ci]);
            }
        }
    }
    // Which predicates lie on a cycle of calls: strongly connected components
    // (Tarjan's algorithm, iterative: a long chain must not exhaust the stack).
    let on_cycle = cycles(&calls);
    for p in 0..n {
        let c = first[p];
        if proved[p] || !on_cycle[p] || circular.contains(c.head.name.as_str()) {
            continue;
        }
        let (name, arity) = (&c.head.name, c.head.args.len());
        issues.push(Issue::new(
            Severity::Warning,
            "recursion_without_base_case",
            c.pos,
            format!(
                "`{name}/{arity}` is recursive, but none of its rules can finish: each calls `{name}/{arity}` again (directly or through other rules) or a predicate that cannot be proved, so every goal on it fails at the depth limit. Add a base case: a fact or a rule whose goals do not lead back to it"
            ),
        ));
    }
}

/// For each node of a graph (edges by node), whether it lies on a cycle: in a
/// strongly connected component of more than one node, or calling itself.
fn cycles(edges: &[Vec<usize>]) -> Vec<bool> {
    const NONE: usize = usize::MAX;
    let n = edges.len();
    let mut order = vec![NONE; n];
    let mut low = vec![0; n];
    let mut on_stack = vec![false; n];
    let mut stack: Vec<usize> = Vec::new();
    let mut result = vec![false; n];
    let mut counter = 0;
    for root in 0..n {
        if order[root] != NONE {
            continue;
        }
        // (node, next edge to look at)
        let mut work: Vec<(usize, usize)> = vec![(root, 0)];
        order[root] = counter;
        low[root] = counter;
        counter += 1;
        stack.push(root);
        on_stack[root] = true;
        while let Some(&mut (v, ref mut next)) = work.last_mut() {
            if let Some(&w) = edges[v].get(*next) {
                *next += 1;
                if order[w] == NONE {
                    order[w] = counter;
                    low[w] = counter;
                    counter += 1;
                    stack.push(w);
                    on_stack[w] = true;
                    work.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(order[w]);
                }
                continue;
            }
            work.pop();
            if let Some(&(parent, _)) = work.last() {
                low[parent] = low[parent].min(low[v]);
            }
            if low[v] == order[v] {
                let mut members = Vec::new();
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    members.push(w);
                    if w == v {
                        break;
                    }
                }
                let cyclic = members.len() > 1 || edges[v].contains(&v);
                for m in members {
                    result[m] = cyclic;
                }
            }
        }
    }
    result
}

/// Variables that no positive goal binds before they are needed, and singletons.
/// Shared with `reason`, which refuses comparisons over unbound variables.
pub(crate) fn variables<'a>(
    head: &'a [Term],
    body: &'a [Literal],
    pos: Pos,
    singletons: bool,
    issues: &mut Vec<Issue>,
) {
    // A body that never holds (`p($x) IF false`, the idiom for a predicate with
    // no cases yet) binds nothing and needs nothing.
    if body.iter().any(|l| l.truth() == Some(false)) {
        return;
    }
    let mut bound: BTreeSet<&str> = BTreeSet::new();
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    let vars_of = |args: &'a [Term]| {
        let mut vs = Vec::new();
        args.iter().for_each(|t| t.vars(&mut vs));
        vs
    };
    let head_vars = vars_of(head);
    for v in &head_vars {
        *counts.entry(v).or_insert(0) += 1;
    }
    for lit in body {
        match lit {
            Literal::Pos(a) => {
                for v in vars_of(&a.args) {
                    bound.insert(v);
                    *counts.entry(v).or_insert(0) += 1;
                }
            }
            Literal::Not(a) => {
                for v in vars_of(&a.args) {
                    {
                        *counts.entry(v).or_insert(0) += 1;
                        if !bound.contains(v) {
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
                    let from_head = head_vars.contains(&v);
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
    for v in &head_vars {
        if !bound.contains(v) {
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
            let Some(a) = lit.called() else {
                continue;
            };
            let negative = matches!(lit, Literal::Not(_));
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
