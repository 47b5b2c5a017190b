//! The Euclid-IR syntax tree: what the text form and the YAML form both parse to,
//! and how each piece prints back as Euclid-IR (proof goals and messages use it).

use std::fmt;

/// A place in the knowledge text: 1-based line and column.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Pos {
    /// Line, from 1.
    pub line: usize,
    /// Column (in characters), from 1.
    pub column: usize,
}

/// A parsed knowledge base: clauses in source order, and the queries it holds.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Program {
    /// The `@version` given, if any.
    pub version: Option<String>,
    /// Facts and rules, in source order.
    pub clauses: Vec<Clause>,
    /// `? …` items, in source order.
    pub queries: Vec<Query>,
}

/// A fact (no body) or a rule.
#[derive(Debug, Clone, PartialEq)]
pub struct Clause {
    /// The head.
    pub head: Atom,
    /// The body literals, in order; empty for a fact.
    pub body: Vec<Literal>,
    /// Where the clause starts.
    pub pos: Pos,
}

impl Clause {
    /// Whether this is a fact.
    pub fn is_fact(&self) -> bool {
        self.body.is_empty()
    }
}

/// A query: a conjunction of literals.
#[derive(Debug, Clone, PartialEq)]
pub struct Query {
    /// The literals, in order.
    pub body: Vec<Literal>,
    /// Where the query starts.
    pub pos: Pos,
}

/// `name(arg, …)`, or a bare `name`.
#[derive(Debug, Clone, PartialEq)]
pub struct Atom {
    /// The predicate name.
    pub name: String,
    /// The arguments.
    pub args: Vec<Term>,
    /// Where the atom starts.
    pub pos: Pos,
}

impl Atom {
    /// `name/arity`.
    pub fn indicator(&self) -> String {
        format!("{}/{}", self.name, self.args.len())
    }
}

/// An argument.
#[derive(Debug, Clone, PartialEq)]
pub enum Term {
    /// A constant (lowercase atom).
    Const(String),
    /// A number, as written (an integer or a decimal, maybe negative).
    Number(String),
    /// `$name`: the name without `$`.
    Var(String),
    /// `_`.
    Wildcard,
}

/// A body literal.
#[derive(Debug, Clone, PartialEq)]
pub enum Literal {
    /// A goal that must hold.
    Pos(Atom),
    /// `NOT goal`: closed-world negation.
    Not(Atom),
    /// An arithmetic comparison or `is`.
    Compare(Comparison),
}

impl Literal {
    /// Where the literal starts.
    pub fn pos(&self) -> Pos {
        match self {
            Literal::Pos(a) | Literal::Not(a) => a.pos,
            Literal::Compare(c) => c.pos,
        }
    }
}

/// `left op right`.
#[derive(Debug, Clone, PartialEq)]
pub struct Comparison {
    /// The operator.
    pub op: CmpOp,
    /// Left side.
    pub left: Expr,
    /// Right side.
    pub right: Expr,
    /// Where it starts.
    pub pos: Pos,
}

/// Comparison operators (`is` evaluates its right side and unifies).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CmpOp {
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `<`
    Lt,
    /// `=<`
    Le,
    /// `=:=`
    Eq,
    /// `=\=`
    Ne,
    /// `is`
    Is,
}

impl CmpOp {
    /// The operator as written (Euclid-IR and Prolog alike).
    pub fn text(self) -> &'static str {
        match self {
            CmpOp::Gt => ">",
            CmpOp::Ge => ">=",
            CmpOp::Lt => "<",
            CmpOp::Le => "=<",
            CmpOp::Eq => "=:=",
            CmpOp::Ne => "=\\=",
            CmpOp::Is => "is",
        }
    }
}

/// An arithmetic expression.
#[derive(Debug, Clone, PartialEq)]
pub enum Expr {
    /// A number as written.
    Number(String),
    /// A variable (name without `$`).
    Var(String),
    /// `left op right`.
    Binary(Box<Expr>, ArithOp, Box<Expr>),
    /// `-e`.
    Neg(Box<Expr>),
}

/// `+ - * /`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArithOp {
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/`
    Div,
}

impl ArithOp {
    /// The operator as written.
    pub fn text(self) -> &'static str {
        match self {
            ArithOp::Add => "+",
            ArithOp::Sub => "-",
            ArithOp::Mul => "*",
            ArithOp::Div => "/",
        }
    }

    /// Binding strength (higher binds tighter).
    pub fn precedence(self) -> u8 {
        match self {
            ArithOp::Add | ArithOp::Sub => 1,
            ArithOp::Mul | ArithOp::Div => 2,
        }
    }
}

impl Expr {
    /// Visits every variable name, left to right.
    pub fn vars<'a>(&'a self, out: &mut Vec<&'a str>) {
        match self {
            Expr::Number(_) => {}
            Expr::Var(v) => out.push(v),
            Expr::Binary(l, _, r) => {
                l.vars(out);
                r.vars(out);
            }
            Expr::Neg(e) => e.vars(out),
        }
    }

    /// Writes the expression, with `value` giving each variable's text.
    pub fn write(&self, out: &mut String, value: &dyn Fn(&str) -> String) {
        self.write_at(out, value, 0);
    }

    fn write_at(&self, out: &mut String, value: &dyn Fn(&str) -> String, outer: u8) {
        match self {
            Expr::Number(n) => out.push_str(n),
            Expr::Var(v) => out.push_str(&value(v)),
            Expr::Neg(e) => {
                out.push('-');
                e.write_at(out, value, 3);
            }
            Expr::Binary(l, op, r) => {
                let p = op.precedence();
                let paren = p < outer;
                if paren {
                    out.push('(');
                }
                l.write_at(out, value, p);
                out.push(' ');
                out.push_str(op.text());
                out.push(' ');
                // Left-associative: a right operand of the same strength needs brackets.
                r.write_at(out, value, p + 1);
                if paren {
                    out.push(')');
                }
            }
        }
    }
}

impl fmt::Display for Term {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Term::Const(c) | Term::Number(c) => f.write_str(c),
            Term::Var(v) => write!(f, "${v}"),
            Term::Wildcard => f.write_str("_"),
        }
    }
}

impl fmt::Display for Atom {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)?;
        if !self.args.is_empty() {
            f.write_str("(")?;
            for (i, a) in self.args.iter().enumerate() {
                if i > 0 {
                    f.write_str(", ")?;
                }
                write!(f, "{a}")?;
            }
            f.write_str(")")?;
        }
        Ok(())
    }
}

impl fmt::Display for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = String::new();
        self.write(&mut s, &|v| format!("${v}"));
        f.write_str(&s)
    }
}

impl fmt::Display for Comparison {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} {}", self.left, self.op.text(), self.right)
    }
}

impl fmt::Display for Literal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Literal::Pos(a) => write!(f, "{a}"),
            Literal::Not(a) => write!(f, "NOT {a}"),
            Literal::Compare(c) => write!(f, "{c}"),
        }
    }
}

/// Writes literals joined by ` AND `.
pub(crate) fn write_body(f: &mut fmt::Formatter<'_>, body: &[Literal]) -> fmt::Result {
    for (i, l) in body.iter().enumerate() {
        if i > 0 {
            f.write_str(" AND ")?;
        }
        write!(f, "{l}")?;
    }
    Ok(())
}

impl fmt::Display for Clause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.head)?;
        if !self.body.is_empty() {
            f.write_str(" IF ")?;
            write_body(f, &self.body)?;
        }
        Ok(())
    }
}

impl fmt::Display for Query {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_body(f, &self.body)
    }
}
