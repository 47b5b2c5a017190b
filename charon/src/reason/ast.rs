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
    /// The rule's identifier (`# rule: R-12`), carried by every proof node the
    /// rule produces: the audit trail of which rule decided.
    pub id: Option<String>,
}

impl Clause {
    /// Whether this is a fact.
    pub fn is_fact(&self) -> bool {
        self.body.is_empty()
    }

    /// Whether its body can never hold (`false` or `NOT true` among its goals):
    /// `p($x) IF false` declares a predicate that has no cases yet.
    pub fn never_holds(&self) -> bool {
        self.body.iter().any(|l| l.truth() == Some(false))
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

    /// `Some(true)` for the goal `true`, `Some(false)` for `false`: the two
    /// reserved literals of a body or query, which name no predicate.
    pub fn truth(&self) -> Option<bool> {
        match (self.name.as_str(), self.args.is_empty()) {
            ("true", true) => Some(true),
            ("false", true) => Some(false),
            _ => None,
        }
    }
}

/// An argument.
#[derive(Debug, Clone, PartialEq)]
pub enum Term {
    /// A constant: a name (`high_risk`, `security-ops`, `2026-07-01`, `父`) or a
    /// quoted string (`'Maintain separate accounts'`), by its text. A name and a
    /// string of the same text are the same constant.
    Const(String),
    /// A number, as written (an integer or a decimal, maybe negative).
    Number(String),
    /// `$name`: the name without `$`.
    Var(String),
    /// `_`.
    Wildcard,
    /// A nested term `name(arg, …)`, unified structurally.
    Compound(String, Vec<Term>),
}

impl Term {
    /// Visits every variable name, left to right.
    pub fn vars<'a>(&'a self, out: &mut Vec<&'a str>) {
        match self {
            Term::Var(v) => out.push(v),
            Term::Compound(_, args) => args.iter().for_each(|a| a.vars(out)),
            Term::Const(_) | Term::Number(_) | Term::Wildcard => {}
        }
    }

    /// Whether the term holds no variable (wildcards count as variables).
    pub fn is_ground(&self) -> bool {
        match self {
            Term::Const(_) | Term::Number(_) => true,
            Term::Var(_) | Term::Wildcard => false,
            Term::Compound(_, args) => args.iter().all(Term::is_ground),
        }
    }

    /// Writes the term, with `var` giving each variable's text.
    pub fn write(&self, out: &mut String, var: &dyn Fn(&str) -> String) {
        match self {
            Term::Const(c) => write_const(out, c),
            Term::Number(n) => out.push_str(n),
            Term::Var(v) => out.push_str(&var(v)),
            Term::Wildcard => out.push('_'),
            Term::Compound(name, args) => {
                write_const(out, name);
                out.push('(');
                for (i, a) in args.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    a.write(out, var);
                }
                out.push(')');
            }
        }
    }
}

/// Whether `text` reads back as one bare name: a letter first (an ASCII one in
/// lowercase), then letters, digits and `_`, with `-` `.` `@` `+` allowed between
/// two of them; or an ISO date such as `2026-07-01`. Keywords are not bare names.
pub fn is_bare_name(text: &str) -> bool {
    let chars: Vec<char> = text.chars().collect();
    let Some(&first) = chars.first() else {
        return false;
    };
    if is_iso_date(&chars) {
        return true;
    }
    if !(first.is_ascii_lowercase() || (!first.is_ascii() && first.is_alphabetic())) {
        return false;
    }
    let word = |c: char| c.is_alphanumeric() || c == '_';
    for (i, &c) in chars.iter().enumerate() {
        let joiner = matches!(c, '-' | '.' | '@' | '+')
            && i > 0
            && chars.get(i + 1).is_some_and(|&n| n.is_alphanumeric());
        if !(word(c) || joiner) || c.is_ascii_uppercase() {
            return false;
        }
    }
    !matches!(text, "if" | "and" | "not" | "or" | "is")
}

/// `YYYY-MM-DD` exactly.
pub(crate) fn is_iso_date(chars: &[char]) -> bool {
    chars.len() == 10
        && chars.iter().enumerate().all(|(i, c)| match i {
            4 | 7 => *c == '-',
            _ => c.is_ascii_digit(),
        })
}

/// A constant as Euclid-IR text: bare when it reads back as the same name, else
/// in double quotes (`"Maintain separate accounts"`).
pub fn write_const(out: &mut String, text: &str) {
    if is_bare_name(text) {
        out.push_str(text);
        return;
    }
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c => out.push(c),
        }
    }
    out.push('"');
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

    /// Whether the literal always holds (`true`, `NOT false`) or never does
    /// (`false`, `NOT true`); `None` for every other literal.
    pub fn truth(&self) -> Option<bool> {
        match self {
            Literal::Pos(a) => a.truth(),
            Literal::Not(a) => a.truth().map(|t| !t),
            Literal::Compare(_) => None,
        }
    }

    /// The goal of the knowledge this literal calls, positive or negated: `None`
    /// for a comparison and for `true` and `false`, which call nothing.
    pub fn called(&self) -> Option<&Atom> {
        match self {
            Literal::Pos(a) | Literal::Not(a) if a.truth().is_none() => Some(a),
            _ => None,
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
    /// `==`: the same value (numbers by value, constants and terms as written).
    Same,
    /// `!=`: not the same value.
    Differ,
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
            CmpOp::Same => "==",
            CmpOp::Differ => "!=",
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
    /// A constant or nested term, compared by `==` and `!=` only.
    Value(Term),
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
            Expr::Value(t) => t.vars(out),
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
            Expr::Value(t) => t.write(out, value),
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
        let mut s = String::new();
        self.write(&mut s, &|v| format!("${v}"));
        f.write_str(&s)
    }
}

impl fmt::Display for Atom {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut name = String::new();
        write_const(&mut name, &self.name);
        f.write_str(&name)?;
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
