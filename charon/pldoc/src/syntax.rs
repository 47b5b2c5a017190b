//! Checking that the engine can read a knowledge base's text, without the engine: the
//! scanner's tokenizer and operator-precedence parser (which follow scryer-prolog
//! 0.10's reader) read every clause, with the operators in force at that point —
//! the engine's, those the files declare, and those the engine's libraries export
//! when a file loads them.
//!
//! A mistake here fails a build, so only what is certain is reported: a character no
//! token starts with, quoted text the file ends inside, a clause without its final
//! `.`, and a clause no reading fits. When operators can change in ways the reader
//! cannot follow (an `op/3` goal anywhere but a plain directive), clauses that do
//! not parse are left to the engine.

use crate::model::Location;
use crate::scan::{self, Assoc, Lexer, Ops, Parser, Term, Tok, Unread};

/// A place where the engine would refuse to read the text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyntaxError {
    /// Where: the file as named to [`SyntaxCheck::file`], line and column.
    pub location: Location,
    /// What is wrong, in words.
    pub message: String,
}

impl std::fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: syntax error: {}", self.location, self.message)
    }
}

/// The check of the files of one knowledge base, in the order the engine loads them:
/// the operator table carries from one file to the next.
#[derive(Debug)]
pub struct SyntaxCheck {
    ops: Ops,
    /// Operators may change in ways the reader cannot follow.
    uncertain: bool,
}

impl SyntaxCheck {
    /// A check of the files whose texts are `texts` (all of them: an `op/3` goal
    /// in any makes unparsable clauses the engine's to judge).
    pub fn new<'t>(texts: impl IntoIterator<Item = &'t str>) -> SyntaxCheck {
        SyntaxCheck {
            ops: Ops::scryer(),
            uncertain: texts.into_iter().any(calls_op),
        }
    }

    /// Checks the text of one file, named `name` in the errors. `load` is called
    /// with each file of its own the text loads (`include`, `consult`,
    /// `ensure_loaded`, `use_module`), at the point where it does, and is expected
    /// to check that file with this same check and return its errors.
    pub fn file(
        &mut self,
        name: &str,
        src: &str,
        load: &mut dyn FnMut(&mut SyntaxCheck, &str) -> Vec<SyntaxError>,
    ) -> Vec<SyntaxError> {
        let chars: Vec<char> = src.chars().collect();
        let locate = |at: usize| location(name, &chars, at);
        let mut errors = Vec::new();
        let mut lx = Lexer::new(&chars);
        loop {
            lx.skip_layout();
            if lx.peek().is_none() {
                break;
            }
            let clause = next_clause(&mut lx);
            if let Some(open) = lx.unterminated {
                errors.push(SyntaxError {
                    location: locate(open),
                    message: "the file ends inside this quoted text; close it with the same quote"
                        .into(),
                });
                break;
            }
            if let Some(i) = clause.toks.iter().position(|t| *t == Tok::Bad) {
                let c = chars[clause.at[i]];
                errors.push(SyntaxError {
                    location: locate(clause.at[i]),
                    message: format!("`{c}` ({:?}) cannot start a token", c),
                });
                continue;
            }
            if !clause.ended {
                errors.push(SyntaxError {
                    location: locate(clause.end.saturating_sub(1)),
                    message: "the file ends inside a clause: it needs a `.` at its end".into(),
                });
                break;
            }
            // The engine reads nothing after `end_of_file.`
            if scan::is_end_of_file(&clause.toks) {
                break;
            }
            match Parser::read(&clause.toks, &self.ops, 1200) {
                Ok(term) => {
                    if scan::head_of_term(&term) == scan::Head::Directive {
                        self.ops.declare_from(&term);
                        self.libraries(&term);
                        for spec in scan::file_loads(&term) {
                            errors.extend(load(self, &spec));
                        }
                    }
                }
                Err(Unread::GaveUp) => {}
                Err(Unread::At(_)) if self.uncertain => {}
                Err(Unread::At(i)) => {
                    let (at, message) = match clause.toks.get(i) {
                        Some(_) => (
                            clause.at[i],
                            format!(
                                "unexpected `{}`: no reading of the clause fits here (a missing operator, comma or bracket?)",
                                clause.text(&chars, i)
                            ),
                        ),
                        None => (
                            clause.end.saturating_sub(1),
                            "the clause ends before its term is complete".into(),
                        ),
                    };
                    errors.push(SyntaxError {
                        location: locate(at),
                        message,
                    });
                }
            }
        }
        errors
    }

    /// Applies the operators a library exports when a directive loads it.
    fn libraries(&mut self, directive: &Term) {
        let Term::Compound(_, body) = directive else {
            return;
        };
        let spec = match body.first() {
            Some(Term::Compound(f, args))
                if matches!(f.as_str(), "use_module" | "ensure_loaded" | "consult") =>
            {
                args.first()
            }
            // `:- [library(clpz)].`
            list @ Some(Term::List(..)) => list,
            _ => return,
        };
        let mut names = Vec::new();
        match spec {
            Some(Term::Compound(l, a)) if l == "library" => names.push(&a[0]),
            Some(Term::List(items, _)) => {
                for item in items {
                    if let Term::Compound(l, a) = item
                        && l == "library"
                    {
                        names.push(&a[0]);
                    }
                }
            }
            _ => {}
        }
        for name in names {
            let Term::Atom(name) = name else {
                // `library(a/b)`: the libraries with operators are all at the top.
                continue;
            };
            for (lib, ops) in LIBRARY_OPS {
                if lib == name {
                    for (p, a, n) in *ops {
                        self.ops.add(*p, *a, n);
                    }
                }
            }
        }
    }
}

/// `op(Priority, Type, Name)`.
type OpDecl = (u16, Assoc, &'static str);

/// The operators scryer-prolog 0.10's libraries put in force when loaded: those
/// their module declarations export, and the `op/3` directives of their bodies
/// (`src/lib/*.pl`; a library not listed declares none).
const LIBRARY_OPS: &[(&str, &[OpDecl])] = &[
    ("atts", &[(1199, Assoc::Fx, "attribute")]),
    (
        "xpath",
        &[
            (400, Assoc::Fx, "//"),
            (400, Assoc::Fx, "/"),
            (200, Assoc::Fy, "@"),
        ],
    ),
    ("tabling", &[(1150, Assoc::Fx, "table")]),
    ("clpb", &[(300, Assoc::Fy, "~"), (500, Assoc::Yfx, "#")]),
    ("dcgs", &[(1105, Assoc::Xfy, "|")]),
    ("lambda", &[(201, Assoc::Xfx, "+\\")]),
    (
        "clpz",
        &[
            (760, Assoc::Yfx, "#<==>"),
            (750, Assoc::Xfy, "#==>"),
            (750, Assoc::Yfx, "#<=="),
            (740, Assoc::Yfx, "#\\/"),
            (730, Assoc::Yfx, "#\\"),
            (720, Assoc::Yfx, "#/\\"),
            (710, Assoc::Fy, "#\\"),
            (700, Assoc::Xfx, "#>"),
            (700, Assoc::Xfx, "#<"),
            (700, Assoc::Xfx, "#>="),
            (700, Assoc::Xfx, "#=<"),
            (700, Assoc::Xfx, "#="),
            (700, Assoc::Xfx, "#\\="),
            (700, Assoc::Xfx, "in"),
            (700, Assoc::Xfx, "ins"),
            (450, Assoc::Xfx, ".."),
            (150, Assoc::Fx, "#"),
            (700, Assoc::Xfx, "cis"),
            (700, Assoc::Xfx, "cis_geq"),
            (700, Assoc::Xfx, "cis_gt"),
            (700, Assoc::Xfx, "cis_leq"),
            (700, Assoc::Xfx, "cis_lt"),
            (1200, Assoc::Xfx, "++>"),
            (800, Assoc::Xfx, "=>"),
        ],
    ),
    (
        "debug",
        &[
            (900, Assoc::Fx, "$"),
            (900, Assoc::Fx, "$-"),
            (950, Assoc::Fy, "*"),
        ],
    ),
];

/// One clause's tokens, where each starts, and whether its `.` was there.
struct Clause {
    toks: Vec<Tok>,
    /// Character index of each token.
    at: Vec<usize>,
    /// Character index after the clause.
    end: usize,
    ended: bool,
}

impl Clause {
    /// The text of token `i`, as written (one line at most).
    fn text(&self, chars: &[char], i: usize) -> String {
        let end = self.at.get(i + 1).copied().unwrap_or(self.end);
        let text: String = chars[self.at[i]..end].iter().collect();
        let text = text.trim_end();
        text.lines().next().unwrap_or_default().to_string()
    }
}

/// Reads the tokens of the clause that starts at the lexer's position.
fn next_clause(lx: &mut Lexer<'_>) -> Clause {
    let mut clause = Clause {
        toks: Vec::new(),
        at: Vec::new(),
        end: lx.pos,
        ended: false,
    };
    let mut layout = true;
    loop {
        let start = lx.pos;
        let Some(tok) = lx.token(layout) else { break };
        clause.end = lx.pos;
        if tok == Tok::End {
            clause.ended = true;
            break;
        }
        clause.toks.push(tok);
        clause.at.push(start);
        layout = lx.skip_layout();
    }
    clause
}

/// Whether a text calls `op/3` anywhere but in a plain `:- op(…)` or module
/// declaration: then the operator table is not known before the engine runs.
fn calls_op(src: &str) -> bool {
    let chars: Vec<char> = src.chars().collect();
    let mut lx = Lexer::new(&chars);
    loop {
        lx.skip_layout();
        if lx.peek().is_none() {
            return false;
        }
        let clause = next_clause(&mut lx);
        let plain = matches!(
            clause.toks.as_slice(),
            [Tok::Name { text, .. }, Tok::Name { text: d, .. }, Tok::OpenCT, ..]
                if text == ":-" && (d == "op" || d == "module")
        );
        let op_goal = clause.toks.windows(2).any(|w| {
            matches!(&w[0], Tok::Name { text, .. } if text == "op") && w[1] == Tok::OpenCT
        });
        if op_goal && !plain {
            return true;
        }
    }
}

fn location(file: &str, chars: &[char], at: usize) -> Location {
    let before = &chars[..at.min(chars.len())];
    let line = before.iter().filter(|&&c| c == '\n').count() + 1;
    let column = before.iter().rev().take_while(|&&c| c != '\n').count() + 1;
    let offset = before.iter().map(|c| c.len_utf8()).sum();
    Location {
        file: file.to_string().into(),
        line,
        column,
        offset,
    }
}
