//! Substitutions over the syntax tree, for the tools that take the search apart
//! (`diagnose`): renaming a rule's variables apart, unifying a goal with a rule's
//! head, applying what a search step bound. Terms are constants, numbers,
//! variables and nested terms, unified structurally.

use std::collections::BTreeMap;

use serde_json::Value;

use super::ast::{Atom, CmpOp, Comparison, Expr, Literal, Term};

/// Variable name → what it is bound to (a value, or another variable).
pub(crate) type Subst = BTreeMap<String, Term>;

/// The term `t` stands for under `s`.
pub(crate) fn resolve(t: &Term, s: &Subst) -> Term {
    let mut t = t.clone();
    // Chains are acyclic (a variable is only bound while unbound), so this ends.
    while let Term::Var(v) = &t {
        match s.get(v) {
            Some(next) => t = next.clone(),
            None => break,
        }
    }
    t
}

/// Unifies two terms, extending `s`; false (with `s` partly extended) on a clash.
fn unify_term(a: &Term, b: &Term, s: &mut Subst) -> bool {
    let (a, b) = (resolve(a, s), resolve(b, s));
    match (&a, &b) {
        (Term::Wildcard, _) | (_, Term::Wildcard) => true,
        (Term::Var(x), Term::Var(y)) if x == y => true,
        // The occurs check: a variable is never bound to a term holding it (the
        // substitution would be cyclic, and resolving it would never end).
        (Term::Var(x), _) => {
            if occurs(x, &b, s) {
                return false;
            }
            s.insert(x.clone(), b);
            true
        }
        (_, Term::Var(y)) => {
            if occurs(y, &a, s) {
                return false;
            }
            s.insert(y.clone(), a);
            true
        }
        (Term::Const(x), Term::Const(y)) => x == y,
        (Term::Number(x), Term::Number(y)) => same_number(x, y),
        (Term::Compound(f, xs), Term::Compound(g, ys)) => {
            f == g && xs.len() == ys.len() && xs.iter().zip(ys).all(|(x, y)| unify_term(x, y, s))
        }
        _ => false,
    }
}

/// Whether the variable `v` occurs in `t` under `s`.
fn occurs(v: &str, t: &Term, s: &Subst) -> bool {
    match resolve(t, s) {
        Term::Var(w) => w == v,
        Term::Compound(_, args) => args.iter().any(|a| occurs(v, a, s)),
        _ => false,
    }
}

/// `t` with every bound variable replaced, inside nested terms too.
pub(crate) fn resolve_deep(t: &Term, s: &Subst) -> Term {
    match resolve(t, s) {
        Term::Compound(f, args) => {
            Term::Compound(f, args.iter().map(|a| resolve_deep(a, s)).collect())
        }
        other => other,
    }
}

/// Two numbers as written are the same term: equal integers, or equal floats
/// (an integer never unifies with a float).
fn same_number(x: &str, y: &str) -> bool {
    let float = |n: &str| n.contains('.');
    if float(x) != float(y) {
        return false;
    }
    if float(x) {
        x.parse::<f64>().ok() == y.parse::<f64>().ok()
    } else {
        x.trim_start_matches('+') == y.trim_start_matches('+')
    }
}

/// Unifies a goal with a (renamed) clause head: the most general unifier, if any.
pub(crate) fn unify_atoms(goal: &Atom, head: &Atom, s: &Subst) -> Option<Subst> {
    if goal.name != head.name || goal.args.len() != head.args.len() {
        return None;
    }
    let mut s = s.clone();
    for (a, b) in goal.args.iter().zip(&head.args) {
        if !unify_term(a, b, &mut s) {
            return None;
        }
    }
    Some(s)
}

pub(crate) fn apply_atom(a: &Atom, s: &Subst) -> Atom {
    Atom {
        name: a.name.clone(),
        args: a.args.iter().map(|t| resolve_deep(t, s)).collect(),
        pos: a.pos,
    }
}

fn apply_expr(e: &Expr, s: &Subst) -> Expr {
    match e {
        Expr::Var(v) => match resolve(&Term::Var(v.clone()), s) {
            Term::Number(n) => Expr::Number(n),
            Term::Var(w) => Expr::Var(w),
            // A constant where a number is needed: kept as a variable-free marker
            // the engine refuses the same way (see `eval`).
            Term::Const(c) => Expr::Var(format!("\u{0}{c}")),
            Term::Wildcard => Expr::Var(v.clone()),
            compound @ Term::Compound(..) => Expr::Value(resolve_deep(&compound, s)),
        },
        Expr::Value(t) => Expr::Value(resolve_deep(t, s)),
        Expr::Number(n) => Expr::Number(n.clone()),
        Expr::Neg(inner) => Expr::Neg(Box::new(apply_expr(inner, s))),
        Expr::Binary(l, op, r) => {
            Expr::Binary(Box::new(apply_expr(l, s)), *op, Box::new(apply_expr(r, s)))
        }
    }
}

pub(crate) fn apply(lit: &Literal, s: &Subst) -> Literal {
    match lit {
        Literal::Pos(a) => Literal::Pos(apply_atom(a, s)),
        Literal::Not(a) => Literal::Not(apply_atom(a, s)),
        Literal::Compare(c) => {
            // `==` and `!=` compare any values: a side that is a constant stays one.
            let side = |e: &Expr| match (c.op, apply_expr(e, s)) {
                (CmpOp::Same | CmpOp::Differ, Expr::Var(v)) if v.starts_with('\u{0}') => {
                    Expr::Value(Term::Const(v[1..].to_string()))
                }
                (_, e) => e,
            };
            Literal::Compare(Comparison {
                op: c.op,
                left: side(&c.left),
                right: side(&c.right),
                pos: c.pos,
            })
        }
    }
}

/// A clause's literals with every variable renamed `name#n`: apart from the
/// caller's (whose names never hold `#`, which starts a comment in the grammar).
pub(crate) fn rename_atom(a: &Atom, n: usize) -> Atom {
    Atom {
        name: a.name.clone(),
        args: a.args.iter().map(|t| rename_term(t, n)).collect(),
        pos: a.pos,
    }
}

fn rename_term(t: &Term, n: usize) -> Term {
    match t {
        Term::Var(v) => Term::Var(format!("{v}#{n}")),
        Term::Compound(f, args) => {
            Term::Compound(f.clone(), args.iter().map(|a| rename_term(a, n)).collect())
        }
        other => other.clone(),
    }
}

fn rename_expr(e: &Expr, n: usize) -> Expr {
    match e {
        Expr::Var(v) => Expr::Var(format!("{v}#{n}")),
        Expr::Number(x) => Expr::Number(x.clone()),
        Expr::Value(t) => Expr::Value(rename_term(t, n)),
        Expr::Neg(inner) => Expr::Neg(Box::new(rename_expr(inner, n))),
        Expr::Binary(l, op, r) => Expr::Binary(
            Box::new(rename_expr(l, n)),
            *op,
            Box::new(rename_expr(r, n)),
        ),
    }
}

pub(crate) fn rename(lit: &Literal, n: usize) -> Literal {
    match lit {
        Literal::Pos(a) => Literal::Pos(rename_atom(a, n)),
        Literal::Not(a) => Literal::Not(rename_atom(a, n)),
        Literal::Compare(c) => Literal::Compare(Comparison {
            op: c.op,
            left: rename_expr(&c.left, n),
            right: rename_expr(&c.right, n),
            pos: c.pos,
        }),
    }
}

/// Text for people: renamed variables shown by their own names (`$x#3` → `$x`).
pub(crate) fn show(text: impl std::fmt::Display) -> String {
    let text = text.to_string();
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    let mut quoted = false;
    while let Some(c) = chars.next() {
        // Inside a quoted constant every character is the constant's own.
        if quoted {
            out.push(c);
            match c {
                '\\' => out.extend(chars.next()),
                '"' => quoted = false,
                _ => {}
            }
            continue;
        }
        if c == '"' {
            quoted = true;
            out.push(c);
        } else if c == '$' && chars.peek() == Some(&'\u{0}') {
            // A constant standing where a number goes (see `apply_expr`).
            chars.next();
        } else if c == '#' && chars.peek().is_some_and(char::is_ascii_digit) {
            while chars.peek().is_some_and(char::is_ascii_digit) {
                chars.next();
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// A value from an answer's bindings as a term (none for an unbound variable).
pub(crate) fn term_of(value: &Value) -> Option<Term> {
    match value {
        Value::Number(n) => Some(Term::Number(n.to_string())),
        other => match crate::json::marked(other) {
            Some(digits) => Some(Term::Number(digits.to_string())),
            None => other.as_str().map(|s| Term::Const(s.to_string())),
        },
    }
}

/// Whether the atom has no variables (wildcards count as variables).
pub(crate) fn ground(a: &Atom) -> bool {
    a.args.iter().all(Term::is_ground)
}

/// Whether two sides of `==` hold the same value (numbers by value), once both
/// have one; none while a side has no value yet.
pub(crate) fn same_value(l: &Expr, r: &Expr) -> Option<bool> {
    let value = |e: &Expr| -> Option<Result<Num, Term>> {
        match e {
            Expr::Value(t) if t.is_ground() => Some(Err(t.clone())),
            Expr::Var(v) if v.starts_with('\u{0}') => Some(Err(Term::Const(v[1..].to_string()))),
            Expr::Var(_) | Expr::Value(_) => None,
            other => eval(other).map(Ok),
        }
    };
    Some(match (value(l)?, value(r)?) {
        (Ok(a), Ok(b)) => a.float() == b.float(),
        (Err(a), Err(b)) => a == b,
        _ => false,
    })
}

/// A number value of an expression whose variables are all bound, as the engine
/// would compute it (integers exactly while they stay integers); none when a
/// variable is unbound, a value is not a number, or a division is by zero.
pub(crate) fn eval(e: &Expr) -> Option<Num> {
    match e {
        Expr::Number(n) => Num::parse(n),
        Expr::Var(_) | Expr::Value(_) => None,
        Expr::Neg(inner) => eval(inner).map(|v| match v {
            Num::Int(i) => i.checked_neg().map_or(Num::Float(-(i as f64)), Num::Int),
            Num::Float(f) => Num::Float(-f),
        }),
        Expr::Binary(l, op, r) => {
            let (a, b) = (eval(l)?, eval(r)?);
            use super::ast::ArithOp::*;
            Some(match (a, b, op) {
                (Num::Int(x), Num::Int(y), Add) => x.checked_add(y).map(Num::Int)?,
                (Num::Int(x), Num::Int(y), Sub) => x.checked_sub(y).map(Num::Int)?,
                (Num::Int(x), Num::Int(y), Mul) => x.checked_mul(y).map(Num::Int)?,
                (Num::Int(x), Num::Int(y), Div) if x.checked_rem(y) == Some(0) => {
                    x.checked_div(y).map(Num::Int)?
                }
                (_, _, Div) if b.float() == 0.0 => return None,
                (_, _, Add) => Num::Float(a.float() + b.float()),
                (_, _, Sub) => Num::Float(a.float() - b.float()),
                (_, _, Mul) => Num::Float(a.float() * b.float()),
                (_, _, Div) => Num::Float(a.float() / b.float()),
            })
        }
    }
}

/// A number, as the engine keeps it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Num {
    Int(i64),
    Float(f64),
}

impl Num {
    fn parse(n: &str) -> Option<Num> {
        if n.contains('.') {
            n.parse().ok().map(Num::Float)
        } else {
            n.parse().ok().map(Num::Int)
        }
    }

    pub(crate) fn float(self) -> f64 {
        match self {
            Num::Int(i) => i as f64,
            Num::Float(f) => f,
        }
    }

    pub(crate) fn term(self) -> Term {
        match self {
            Num::Int(i) => Term::Number(i.to_string()),
            Num::Float(f) => Term::Number(super::float_text(f)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn atom(text: &str) -> Atom {
        match super::super::parse_query(text)
            .expect("query")
            .body
            .remove(0)
        {
            Literal::Pos(a) => a,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn unification_binds_both_sides_and_refuses_clashes() {
        let s =
            unify_atoms(&atom("p(tom, $who)"), &atom("p($x, $x)"), &Subst::new()).expect("unifies");
        assert_eq!(
            resolve(&Term::Var("who".into()), &s),
            Term::Const("tom".into())
        );
        assert!(unify_atoms(&atom("p(tom, bob)"), &atom("p($x, $x)"), &Subst::new()).is_none());
        assert!(unify_atoms(&atom("p(1)"), &atom("p(1.0)"), &Subst::new()).is_none());
        assert!(unify_atoms(&atom("p(1.5)"), &atom("p(1.50)"), &Subst::new()).is_some());
        assert!(unify_atoms(&atom("p(a, _)"), &atom("p(_, b)"), &Subst::new()).is_some());
    }

    #[test]
    fn evaluation_keeps_integers_exact() {
        let e = |t: &str| match super::super::parse_query(&format!("$x is {t}"))
            .expect("query")
            .body
            .remove(0)
        {
            Literal::Compare(c) => eval(&c.right),
            other => panic!("{other:?}"),
        };
        assert_eq!(e("2 + 3 * 4"), Some(Num::Int(14)));
        assert_eq!(e("7 / 2"), Some(Num::Float(3.5)));
        assert_eq!(e("1 / 0"), None);
        assert_eq!(
            e("-9223372036854775808 / -1"),
            Some(Num::Float(9223372036854775808.0))
        );
        assert_eq!(show("p($x#12, $y)"), "p($x, $y)");
        assert_eq!(show("$\u{0}tom > 3"), "tom > 3");
    }
}
