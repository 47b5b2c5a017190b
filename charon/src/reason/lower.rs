//! Euclid-IR → Prolog. The only place that writes Prolog for the reasoning toolkit,
//! and it writes from an allow-list: a clause head and body goals of the knowledge's
//! own predicates (every name carries the program's private prefix, so no goal can
//! name a built-in), `\+` of those, `true` and `fail` (the literals `true` and
//! `false`), arithmetic comparisons over numbers and variables, and the runtime's
//! depth step. The runtime (`runtime.pl`) checks every clause and every query
//! against the same list again before it runs anything.
//!
//! A predicate `p/n` becomes `'<prefix>p'/(n+2)`: the two extra arguments are the
//! depth left and the proof. A fact's proof is its clause index `I`, a rule's is
//! `r(I, v(Vars…), c(Proofs…))`: the values of the rule's variables (in order of
//! first appearance) and the proofs of its positive goals, in body order.
//!
//! The program is one term, `'$e_program'(Undefined, Clauses)` (the predicates
//! called but never defined, and the clauses grouped by predicate), sent inside the
//! query of the first call a worker gets for it (the engine reads query text about
//! four times faster than a file); the runtime checks it whole before loading it.
//! Negations and comparisons need no proof term: they are rendered from the
//! variables' values (see `proof`).

use std::cell::Cell;
use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;

use super::ast::{ArithOp, Atom, Clause, CmpOp, Comparison, Expr, Literal, Program, Query, Term};
use crate::term::write_atom;

/// The named variables of a clause (head, then body), in order of first appearance.
pub(crate) fn clause_vars(head: Option<&Atom>, body: &[Literal]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut add = |v: &str| {
        if !out.iter().any(|o| o == v) {
            out.push(v.to_string());
        }
    };
    let atom_vars = |a: &Atom, add: &mut dyn FnMut(&str)| {
        let mut vs = Vec::new();
        a.args.iter().for_each(|t| t.vars(&mut vs));
        vs.into_iter().for_each(add);
    };
    if let Some(h) = head {
        atom_vars(h, &mut add);
    }
    for lit in body {
        match lit {
            Literal::Pos(a) | Literal::Not(a) => atom_vars(a, &mut add),
            Literal::Compare(c) => {
                let mut vs = Vec::new();
                c.left.vars(&mut vs);
                c.right.vars(&mut vs);
                for v in vs {
                    add(v);
                }
            }
        }
    }
    out
}

/// Writes the Prolog text of `program`, every predicate named with `prefix`.
/// Clauses are grouped by predicate (source order kept within each), since the
/// engine replaces, rather than extends, a predicate whose clauses are split; the
/// groups come in the standard order of `Name/Arity`, which the runtime checks
/// (so no predicate can appear twice).
pub(crate) fn lower_program(program: &Program, prefix: &str) -> String {
    let mut members: BTreeMap<(String, usize), Vec<usize>> = BTreeMap::new();
    for (i, c) in program.clauses.iter().enumerate() {
        let key = (c.head.name.clone(), c.head.args.len());
        members.entry(key).or_default().push(i);
    }
    // Predicates called but never defined fail (closed world) instead of raising:
    // the runtime declares the predicates of this table.
    let mut undefined: BTreeMap<(String, usize), ()> = BTreeMap::new();
    let bodies = program
        .clauses
        .iter()
        .map(|c| &c.body[..])
        .chain(program.queries.iter().map(|q| &q.body[..]));
    for body in bodies {
        for lit in body {
            if let Some(a) = lit.called() {
                let key = (a.name.clone(), a.args.len());
                if !members.contains_key(&key) {
                    undefined.insert(key, ());
                }
            }
        }
    }
    let mut out = String::with_capacity(program.clauses.len() * 48 + 64);
    out.push_str("'$e_program'([");
    for (i, (name, arity)) in undefined.keys().enumerate() {
        if i > 0 {
            out.push(',');
        }
        write_atom(&mut out, &format!("{prefix}{name}"));
        let _ = write!(out, "/{}", arity + 2);
    }
    out.push_str("],[");
    let mut first = true;
    for clauses in members.values() {
        for &i in clauses {
            if !first {
                out.push(',');
            }
            first = false;
            clause(&mut out, &program.clauses[i], i, prefix);
        }
    }
    out.push_str("])");
    out
}

/// Prolog variable names of a clause's named variables.
struct Names<'a> {
    index: HashMap<&'a str, usize>,
    /// Starts every variable name: a program travels inside the query that loads it,
    /// so its clauses' variables (`K…`) must not be the query's own.
    tag: &'static str,
    /// Divisions computed so far (`D0`, `D1`, …): see [`Names::arith`].
    divisions: Cell<usize>,
}

impl<'a> Names<'a> {
    fn new(vars: &'a [String], tag: &'static str) -> Self {
        Names {
            tag,
            divisions: Cell::new(0),
            index: vars
                .iter()
                .enumerate()
                .map(|(i, v)| (v.as_str(), i))
                .collect(),
        }
    }

    fn var(&self, out: &mut String, name: &str) {
        match self.index.get(name) {
            Some(i) => {
                let _ = write!(out, "{}V{i}", self.tag);
            }
            None => out.push('_'),
        }
    }

    fn term(&self, out: &mut String, t: &Term) {
        match t {
            Term::Const(c) => write_atom(out, c),
            Term::Number(n) => out.push_str(n),
            Term::Var(v) => self.var(out, v),
            Term::Wildcard => out.push('_'),
            Term::Compound(name, args) => {
                write_atom(out, name);
                out.push('(');
                for (i, a) in args.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    self.term(out, a);
                }
                out.push(')');
            }
        }
    }

    /// `'<prefix>name'(Args…, Depth, Proof`, without the closing bracket.
    fn call(&self, out: &mut String, prefix: &str, a: &Atom, depth: &str) {
        write_atom(out, &format!("{prefix}{}", a.name));
        out.push('(');
        for t in &a.args {
            self.term(out, t);
            out.push(',');
        }
        out.push_str(depth);
        out.push(',');
    }

    /// The body goals, joined by commas; positive goals bind `P0`, `P1`, ….
    fn body(&self, out: &mut String, prefix: &str, body: &[Literal], depth: &str) -> usize {
        let mut proofs = 0;
        let mut temps = 0;
        for (i, lit) in body.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            if let Some(holds) = lit.truth() {
                out.push_str(if holds { "true" } else { "fail" });
                continue;
            }
            match lit {
                Literal::Pos(a) => {
                    self.call(out, prefix, a, depth);
                    let _ = write!(out, "{}P{proofs})", self.tag);
                    proofs += 1;
                }
                Literal::Not(a) => {
                    out.push_str("\\+ ");
                    self.call(out, prefix, a, depth);
                    out.push_str("_)");
                }
                Literal::Compare(c) if matches!(c.op, CmpOp::Same | CmpOp::Differ) => {
                    // `==` and `!=` compare values, numbers by value. An arithmetic
                    // side is evaluated first (into a variable of its own); two
                    // arithmetic sides are compared as numbers.
                    let arithmetic = |e: &Expr| matches!(e, Expr::Binary(..) | Expr::Neg(_));
                    if arithmetic(&c.left) && arithmetic(&c.right) {
                        let numeric = Comparison {
                            op: if c.op == CmpOp::Same {
                                CmpOp::Eq
                            } else {
                                CmpOp::Ne
                            },
                            ..c.clone()
                        };
                        self.comparison(out, &numeric);
                        continue;
                    }
                    let mut side = |out: &mut String, e: &Expr| -> String {
                        if !arithmetic(e) {
                            return self.arith(out, e);
                        }
                        let temp = format!("{}T{temps}", self.tag);
                        temps += 1;
                        self.number_checks(out, e);
                        let value = self.arith(out, e);
                        let _ = write!(out, "{temp} is {value}, ");
                        temp
                    };
                    let left = side(out, &c.left);
                    let right = side(out, &c.right);
                    out.push_str(if c.op == CmpOp::Same {
                        "'$e_same'("
                    } else {
                        "'$e_differ'("
                    });
                    let _ = write!(out, "{left},{right})");
                }
                Literal::Compare(c) => self.comparison(out, c),
            }
        }
        proofs
    }

    /// An arithmetic comparison (or `is`) over numbers.
    fn comparison(&self, out: &mut String, c: &Comparison) {
        if c.op != CmpOp::Is {
            self.number_checks(out, &c.left);
        }
        self.number_checks(out, &c.right);
        let left = self.arith(out, &c.left);
        let right = self.arith(out, &c.right);
        let _ = write!(out, "{left} {} {right}", c.op.text());
    }

    /// The text of an arithmetic expression, each division computed first by a
    /// goal of its own written to `out` (`'$e_div'(L, R, D0), `) and read from
    /// its variable: `/` of two integers that divide exactly is an integer, as the
    /// reference (SWI-Prolog) computes it (`4 / 2` is 2, `3 / 2` is 1.5), where
    /// the engine's ISO `/` answers a float.
    fn arith(&self, out: &mut String, e: &Expr) -> String {
        match e {
            Expr::Binary(l, op, r) => {
                let left = self.arith(out, l);
                let right = self.arith(out, r);
                if *op != ArithOp::Div {
                    return format!("({left} {} {right})", op.text());
                }
                let n = self.divisions.get();
                self.divisions.set(n + 1);
                let temp = format!("{}D{n}", self.tag);
                let _ = write!(out, "'$e_div'({left},{right},{temp}), ");
                temp
            }
            Expr::Neg(inner) => format!("-({})", self.arith(out, inner)),
            Expr::Number(n) if n.starts_with('-') => format!("({n})"),
            Expr::Number(n) => n.clone(),
            Expr::Var(v) => {
                let mut text = String::new();
                self.var(&mut text, v);
                text
            }
            Expr::Value(t) => {
                let mut text = String::new();
                self.term(&mut text, t);
                text
            }
        }
    }

    /// `'$e_num'(V), ` for each variable of `e`: every value computed with must be
    /// a number (a constant such as pi must not evaluate as one).
    fn number_checks(&self, out: &mut String, e: &Expr) {
        let mut needed = Vec::new();
        e.vars(&mut needed);
        needed.sort_unstable();
        needed.dedup();
        for v in needed {
            out.push_str("'$e_num'(");
            self.var(out, v);
            out.push_str("), ");
        }
    }
}

fn tuple(out: &mut String, functor: char, items: impl Iterator<Item = String>) {
    let items: Vec<String> = items.collect();
    out.push(functor);
    if !items.is_empty() {
        out.push('(');
        out.push_str(&items.join(","));
        out.push(')');
    }
}

fn clause(out: &mut String, c: &Clause, index: usize, prefix: &str) {
    let vars = clause_vars(Some(&c.head), &c.body);
    let names = Names::new(&vars, "K");
    if c.is_fact() {
        names.call(out, prefix, &c.head, "_");
        if vars.is_empty() {
            let _ = write!(out, "{index})");
        } else {
            // A fact with variables: its proof carries their values, so that the
            // node shows the instance that was used.
            let _ = write!(out, "f({index},");
            tuple(out, 'v', (0..vars.len()).map(|i| format!("KV{i}")));
            out.push_str("))");
        }
        return;
    }
    out.push('(');
    names.call(out, prefix, &c.head, "KD");
    let positive = c
        .body
        .iter()
        .filter(|l| matches!(l, Literal::Pos(_)) && l.truth().is_none())
        .count();
    let _ = write!(out, "r({index},");
    tuple(out, 'v', (0..vars.len()).map(|i| format!("KV{i}")));
    out.push(',');
    tuple(out, 'c', (0..positive).map(|i| format!("KP{i}")));
    out.push_str(")) :- '$e_deeper'(KD, KE), ");
    names.body(out, prefix, &c.body, "KE");
    out.push(')');
}

/// The goal of a query and the template of one answer, `s(v(Vars…), c(Proofs…))`,
/// with `depth` levels of rules allowed.
pub(crate) fn lower_query(query: &Query, prefix: &str, depth: u32) -> (String, String) {
    let vars = clause_vars(None, &query.body);
    let names = Names::new(&vars, "");
    let mut goal = String::new();
    let conjunction = query.body.len() > 1;
    if conjunction {
        goal.push('(');
    }
    let proofs = names.body(&mut goal, prefix, &query.body, &depth.to_string());
    if conjunction {
        goal.push(')');
    }
    let mut template = String::from("s(");
    tuple(&mut template, 'v', (0..vars.len()).map(|i| format!("V{i}")));
    template.push(',');
    tuple(&mut template, 'c', (0..proofs).map(|i| format!("P{i}")));
    template.push(')');
    (goal, template)
}
