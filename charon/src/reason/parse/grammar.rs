//! The Euclid-IR grammar over the tokens of one item: goals joined by AND, NOT,
//! comparisons and arithmetic, atoms and their arguments.

use super::lex::{Tok, Token};
use super::{
    DISJUNCTION, MAX_ARGS, MAX_GOALS, MAX_NESTING, MAX_OPERATORS, MAX_TERM_NESTING, ParseError,
    special_name,
};
use crate::reason::ast::{ArithOp, Atom, CmpOp, Comparison, Expr, Literal, Pos, Term};

pub(super) fn is_comparison(op: &str) -> bool {
    matches!(op, ">" | ">=" | "<" | "=<" | "=:=" | "=\\=" | "==" | "!=")
}

pub(super) struct Parser {
    tokens: Vec<Token>,
    pub(super) at: usize,
    /// Where the item ends (for errors about what is missing).
    end: Pos,
    /// Operators in the expression being read, and its bracket depth.
    operators: usize,
    nesting: usize,
    /// Depth of the term being read inside arguments.
    term_nesting: usize,
}

impl Parser {
    pub(super) fn new(tokens: Vec<Token>, end: Pos) -> Self {
        Parser {
            tokens,
            at: 0,
            end,
            operators: 0,
            nesting: 0,
            term_nesting: 0,
        }
    }

    pub(super) fn peek(&self) -> Option<&Tok> {
        self.tokens.get(self.at).map(|t| &t.tok)
    }

    pub(super) fn peek2(&self) -> Option<&Tok> {
        self.tokens.get(self.at + 1).map(|t| &t.tok)
    }

    pub(super) fn pos(&self) -> Pos {
        self.tokens.get(self.at).map_or(self.end, |t| t.pos)
    }

    pub(super) fn error(&self, message: impl Into<String>) -> ParseError {
        ParseError::new(self.pos(), message)
    }

    pub(super) fn eat(&mut self, tok: &Tok) -> bool {
        if self.peek() == Some(tok) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    pub(super) fn finish(&self) -> Result<(), ParseError> {
        match self.peek() {
            None => Ok(()),
            Some(Tok::Comma) => Err(self.error("join goals with AND, not a comma")),
            Some(Tok::Upper(w)) if w == "OR" => {
                Err(ParseError::unsupported(self.pos(), DISJUNCTION, "`OR`"))
            }
            Some(_) => Err(self.error("expected AND or the end of the line")),
        }
    }

    pub(super) fn body(&mut self) -> Result<Vec<Literal>, ParseError> {
        let mut body = vec![self.literal()?];
        loop {
            match self.peek() {
                Some(Tok::Upper(w)) if w == "AND" => {
                    self.at += 1;
                    if self.peek().is_none() {
                        return Err(self.error("a goal must follow AND"));
                    }
                    if body.len() == MAX_GOALS {
                        return Err(self.error(format!(
                            "more than {MAX_GOALS} goals in one body: split the rule into smaller rules"
                        )));
                    }
                    body.push(self.literal()?);
                }
                _ => return Ok(body),
            }
        }
    }

    pub(super) fn literal(&mut self) -> Result<Literal, ParseError> {
        let pos = self.pos();
        match self.peek().cloned() {
            Some(Tok::Upper(w)) if w == "NOT" => {
                self.at += 1;
                match self.peek() {
                    Some(Tok::Ident(_)) => Ok(Literal::Not(self.atom()?)),
                    // `not(goal)`, as the reference reads it.
                    Some(Tok::LParen) if matches!(self.peek2(), Some(Tok::Ident(_))) => {
                        self.at += 1;
                        let goal = self.atom()?;
                        if !self.eat(&Tok::RParen) {
                            return Err(self.error("expected ) to close NOT ( goal )"));
                        }
                        Ok(Literal::Not(goal))
                    }
                    Some(Tok::Upper(w)) if w == "NOT" => {
                        Err(self.error("NOT NOT is not supported: write the goal itself"))
                    }
                    _ => Err(self.error("NOT takes a goal, e.g. NOT active($u)")),
                }
            }
            Some(Tok::Ident(_) | Tok::Str(_)) if self.value_compared() => {
                let left = Expr::Value(self.term()?);
                self.comparison(left, pos)
            }
            Some(Tok::Ident(name)) => {
                if let Some(Tok::Op(op)) = self.peek2()
                    && (is_comparison(op) || matches!(*op, "+" | "-" | "*" | "/"))
                {
                    return Err(self.error(format!(
                        "arithmetic takes numbers and variables, but `{name}` is a constant"
                    )));
                }
                if matches!(self.peek2(), Some(Tok::Ident(w)) if w == "is") {
                    return Err(self.error(format!(
                        "the left side of `is` is a variable or a number, but `{name}` is a constant"
                    )));
                }
                Ok(Literal::Pos(self.atom()?))
            }
            Some(Tok::Str(_)) => {
                Err(self.error("a goal is a predicate name, not a string: write name(args)"))
            }
            Some(Tok::LParen) if self.grouped_goals() => {
                let inside = self.tokens[self.at..].iter().skip(1);
                let mut depth = 1usize;
                for t in inside {
                    match &t.tok {
                        Tok::LParen => depth += 1,
                        Tok::RParen if depth == 1 => break,
                        Tok::RParen => depth -= 1,
                        Tok::Upper(w) if w == "OR" => {
                            return Err(ParseError::unsupported(t.pos, DISJUNCTION, "`OR`"));
                        }
                        _ => {}
                    }
                }
                Err(self.error(
                    "brackets group arithmetic, not goals: join the goals with AND, without brackets",
                ))
            }
            Some(Tok::Var(_) | Tok::Num(_) | Tok::LParen | Tok::Op("-")) => {
                self.operators = 0;
                self.nesting = 0;
                let left = self.expr()?;
                self.comparison(left, pos)
            }
            Some(Tok::Upper(w)) if w == "IF" || w == "AND" => {
                Err(self.error(format!("expected a goal before {w}")))
            }
            Some(Tok::Upper(w)) if w == "OR" => {
                Err(ParseError::unsupported(pos, DISJUNCTION, "`OR`"))
            }
            Some(Tok::Upper(w)) => Err(self.error(upper_message(&w))),
            Some(Tok::Wild) => Err(self.error("a goal cannot be _: write a predicate")),
            Some(Tok::Question) => Err(self.error("? starts a query, on a line of its own")),
            Some(_) => Err(self.error("expected a goal: name(args), NOT goal, or a comparison")),
            None => Err(self.error("expected a goal")),
        }
    }

    /// Whether the bracket at the parser's place opens goals (`(p($x) AND q($x))`,
    /// `(NOT p($x))`) rather than arithmetic.
    pub(super) fn grouped_goals(&self) -> bool {
        let after = |k: usize| self.tokens.get(self.at + k).map(|t| &t.tok);
        match after(1) {
            Some(Tok::Upper(w)) => w == "NOT",
            Some(Tok::Ident(_)) => matches!(after(2), Some(Tok::LParen | Tok::Upper(_))),
            _ => false,
        }
    }

    /// Whether a constant (or string) at the start of a goal is the left side of
    /// `==` or `!=`.
    pub(super) fn value_compared(&self) -> bool {
        matches!(self.peek2(), Some(Tok::Op("==" | "!=")))
    }

    /// The rest of a comparison whose left side has been read.
    pub(super) fn comparison(&mut self, left: Expr, pos: Pos) -> Result<Literal, ParseError> {
        let op = match self.peek() {
            Some(Tok::Op(">")) => CmpOp::Gt,
            Some(Tok::Op(">=")) => CmpOp::Ge,
            Some(Tok::Op("<")) => CmpOp::Lt,
            Some(Tok::Op("=<")) => CmpOp::Le,
            Some(Tok::Op("=:=")) => CmpOp::Eq,
            Some(Tok::Op("=\\=")) => CmpOp::Ne,
            Some(Tok::Op("==")) => CmpOp::Same,
            Some(Tok::Op("!=")) => CmpOp::Differ,
            Some(Tok::Ident(w)) if w == "is" => CmpOp::Is,
            _ => {
                return Err(self
                    .error("expected a comparison (> >= < =< == != =:= =\\= is) after the value"));
            }
        };
        self.at += 1;
        let value_side = matches!(op, CmpOp::Same | CmpOp::Differ);
        if !value_side && let Expr::Value(t) = &left {
            return Err(ParseError::new(
                pos,
                format!("arithmetic takes numbers and variables, but `{t}` is a constant"),
            ));
        }
        let right = match self.peek() {
            Some(Tok::Ident(_) | Tok::Str(_) | Tok::Upper(_)) if value_side => {
                Expr::Value(self.term()?)
            }
            _ => {
                self.operators = 0;
                self.nesting = 0;
                self.expr()?
            }
        };
        let has_wildcard = |e: &Expr| matches!(e, Expr::Value(t) if wildcard_in(t));
        if has_wildcard(&left) || has_wildcard(&right) {
            return Err(ParseError::new(
                pos,
                "`_` has no value to compare: use a variable that an earlier goal binds",
            ));
        }
        if op == CmpOp::Is && !matches!(left, Expr::Var(_) | Expr::Number(_)) {
            return Err(ParseError::new(
                pos,
                "the left side of `is` is one variable or number, e.g. $total is $a + $b",
            ));
        }
        Ok(Literal::Compare(Comparison {
            op,
            left,
            right,
            pos,
        }))
    }

    pub(super) fn atom(&mut self) -> Result<Atom, ParseError> {
        let pos = self.pos();
        let Some(Tok::Ident(name)) = self.peek().cloned() else {
            return Err(self.error("expected a predicate name"));
        };
        if name == "is" {
            return Err(self.error("`is` is a keyword: it cannot name a predicate"));
        }
        if let Some(what) = special_name(&name) {
            return Err(ParseError::unsupported(pos, what, &format!("`{name}`")));
        }
        self.at += 1;
        let args = if self.eat(&Tok::LParen) {
            if matches!(name.as_str(), "true" | "false") {
                return Err(ParseError::new(
                    pos,
                    format!(
                        "`{name}` is a reserved literal and cannot be used as a predicate name: call the predicate something else"
                    ),
                ));
            }
            self.arguments(&name, "predicates")?
        } else {
            Vec::new()
        };
        Ok(Atom { name, args, pos })
    }

    /// The arguments after `name(`, to the closing bracket (`kind`: what to split
    /// into when there are too many).
    pub(super) fn arguments(&mut self, name: &str, kind: &str) -> Result<Vec<Term>, ParseError> {
        let mut args = Vec::new();
        if self.eat(&Tok::RParen) {
            return Ok(args);
        }
        loop {
            if args.len() == MAX_ARGS {
                return Err(self.error(format!(
                    "more than {MAX_ARGS} arguments: split `{name}` into several {kind}"
                )));
            }
            args.push(self.term()?);
            if self.eat(&Tok::Comma) {
                continue;
            }
            if self.eat(&Tok::RParen) {
                return Ok(args);
            }
            return Err(self.error(format!("expected , or ) in the arguments of `{name}`")));
        }
    }

    pub(super) fn term(&mut self) -> Result<Term, ParseError> {
        let pos = self.pos();
        match self.peek().cloned() {
            Some(Tok::Ident(c)) => {
                self.at += 1;
                if self.peek() == Some(&Tok::LParen) {
                    return self.compound(c, pos);
                }
                Ok(Term::Const(c))
            }
            Some(Tok::Str(c)) => {
                self.at += 1;
                Ok(Term::Const(c))
            }
            // A keyword where only a constant can stand is that constant: gate(or, 2).
            Some(Tok::Upper(w)) if matches!(self.peek2(), Some(Tok::Comma | Tok::RParen)) => {
                self.at += 1;
                Ok(Term::Const(w.to_ascii_lowercase()))
            }
            Some(Tok::Var(v)) => {
                self.at += 1;
                Ok(Term::Var(v))
            }
            Some(Tok::Wild) => {
                self.at += 1;
                Ok(Term::Wildcard)
            }
            Some(Tok::Num(n)) => {
                self.at += 1;
                Ok(Term::Number(number(&n, false)))
            }
            Some(Tok::Op("-")) if matches!(self.peek2(), Some(Tok::Num(_))) => {
                self.at += 1;
                let Some(Tok::Num(n)) = self.peek().cloned() else {
                    unreachable!("checked above")
                };
                self.at += 1;
                Ok(Term::Number(number(&n, true)))
            }
            Some(Tok::Upper(w)) => Err(self.error(upper_message(&w))),
            _ => Err(self.error(
                "an argument is a constant, a 'string', a number, a $variable, _ or a term name(args)",
            )),
        }
    }

    /// The arguments of a nested term `name(…)`, the name read.
    pub(super) fn compound(&mut self, name: String, pos: Pos) -> Result<Term, ParseError> {
        self.term_nesting += 1;
        if self.term_nesting > MAX_TERM_NESTING {
            return Err(ParseError::new(
                pos,
                format!("terms nested more than {MAX_TERM_NESTING} deep: flatten them into facts"),
            ));
        }
        self.at += 1;
        let args = self.arguments(&name, "terms")?;
        self.term_nesting -= 1;
        if args.is_empty() {
            return Ok(Term::Const(name));
        }
        Ok(Term::Compound(name, args))
    }

    pub(super) fn expr(&mut self) -> Result<Expr, ParseError> {
        let mut left = self.product()?;
        loop {
            let op = match self.peek() {
                Some(Tok::Op("+")) => ArithOp::Add,
                Some(Tok::Op("-")) => ArithOp::Sub,
                _ => return Ok(left),
            };
            self.operator()?;
            let right = self.product()?;
            left = Expr::Binary(Box::new(left), op, Box::new(right));
        }
    }

    pub(super) fn product(&mut self) -> Result<Expr, ParseError> {
        let mut left = self.factor()?;
        loop {
            let op = match self.peek() {
                Some(Tok::Op("*")) => ArithOp::Mul,
                Some(Tok::Op("/")) => ArithOp::Div,
                _ => return Ok(left),
            };
            self.operator()?;
            let right = self.factor()?;
            left = Expr::Binary(Box::new(left), op, Box::new(right));
        }
    }

    /// Takes an operator token, within the limit of operators per expression.
    pub(super) fn operator(&mut self) -> Result<(), ParseError> {
        self.operators += 1;
        if self.operators > MAX_OPERATORS {
            return Err(self.error(format!(
                "more than {MAX_OPERATORS} operators in one expression: compute parts in separate goals with is"
            )));
        }
        self.at += 1;
        Ok(())
    }

    /// Reads a factor one bracket (or sign) deeper, within the nesting limit.
    pub(super) fn nested(&mut self) -> Result<Expr, ParseError> {
        self.nesting += 1;
        if self.nesting > MAX_NESTING {
            return Err(self.error(format!(
                "brackets nested more than {MAX_NESTING} deep: compute parts in separate goals with is"
            )));
        }
        let e = self.expr();
        self.nesting -= 1;
        e
    }

    pub(super) fn factor(&mut self) -> Result<Expr, ParseError> {
        match self.peek().cloned() {
            Some(Tok::Num(n)) => {
                self.at += 1;
                Ok(Expr::Number(number(&n, false)))
            }
            Some(Tok::Var(v)) => {
                self.at += 1;
                Ok(Expr::Var(v))
            }
            Some(Tok::Op("-")) => {
                self.at += 1;
                if let Some(Tok::Num(n)) = self.peek().cloned() {
                    self.at += 1;
                    return Ok(Expr::Number(number(&n, true)));
                }
                self.operators += 1;
                self.nesting += 1;
                if self.nesting > MAX_NESTING || self.operators > MAX_OPERATORS {
                    return Err(self.error(format!(
                        "signs nested more than {MAX_NESTING} deep: simplify the expression"
                    )));
                }
                let inner = self.factor();
                self.nesting -= 1;
                Ok(Expr::Neg(Box::new(inner?)))
            }
            Some(Tok::LParen) => {
                self.at += 1;
                let e = self.nested()?;
                if !self.eat(&Tok::RParen) {
                    return Err(self.error("expected ) to close the bracket"));
                }
                Ok(e)
            }
            Some(Tok::Ident(c)) => Err(self.error(format!(
                "arithmetic takes numbers and variables, but `{c}` is a constant"
            ))),
            Some(Tok::Wild) => Err(self.error("_ cannot be used in arithmetic: name the variable")),
            Some(Tok::Upper(w)) => Err(self.error(upper_message(&w))),
            _ => Err(self.error("expected a number, a $variable or ( in the arithmetic")),
        }
    }
}

/// Whether a term holds `_`.
pub(super) fn wildcard_in(t: &Term) -> bool {
    match t {
        Term::Wildcard => true,
        Term::Compound(_, args) => args.iter().any(wildcard_in),
        _ => false,
    }
}

pub(super) fn upper_message(word: &str) -> String {
    match word {
        "OR" => "OR is not supported (disjunction): write several rules with the same head".into(),
        _ => format!("{word} cannot stand here"),
    }
}

/// The canonical text of a number: no leading zeros, decimals as the engine writes
/// them back (so goals in proofs read the same as the bindings).
pub(super) fn number(text: &str, negative: bool) -> String {
    let body = if text.contains('.') {
        match text.parse::<f64>() {
            Ok(f) => crate::reason::float_text(f),
            Err(_) => text.to_string(),
        }
    } else {
        let trimmed = text.trim_start_matches('0');
        if trimmed.is_empty() {
            "0".into()
        } else {
            trimmed.into()
        }
    };
    // `-0` is the integer 0; `-0.0` is the float negative zero, as in Prolog.
    if negative && body != "0" {
        format!("-{body}")
    } else {
        body
    }
}
