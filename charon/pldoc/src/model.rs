//! The operation model: what one documented, exposable predicate looks like.

use std::borrow::Cow;
use std::fmt;

use serde::Serialize;

/// Text of the model: borrowed from a `static` when the model is compiled in by
/// `knowledge_base!`, owned when a file is read at run time.
pub type Text = Cow<'static, str>;

/// Where something was found in a knowledge base: `file:line:column`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Location {
    /// The file as the user named it.
    pub file: Text,
    /// 1-based line number.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
    /// Byte offset from the start of the file.
    pub offset: usize,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.column)
    }
}

impl Location {
    /// The source line this location points into, with a caret under the column,
    /// in the style of compiler diagnostics:
    ///
    /// ```text
    ///   |
    /// 3 | %! p(?X:int) is det.
    ///   |      ^
    /// ```
    pub fn snippet(&self, src: &str) -> String {
        let Some(text) = src.lines().nth(self.line.saturating_sub(1)) else {
            return String::new();
        };
        let number = self.line.to_string();
        let pad = " ".repeat(number.len());
        let caret_pad: String = text
            .chars()
            .take(self.column.saturating_sub(1))
            .map(|c| if c == '\t' { '\t' } else { ' ' })
            .collect();
        format!("{pad} |\n{number} | {text}\n{pad} | {caret_pad}^")
    }
}

/// Argument mode. Only `+` and `-` can be exposed; the others are kept so the
/// exposure report can name them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Mode {
    /// `+`: the caller supplies it.
    In,
    /// `-`: the predicate binds it.
    Out,
    /// `?`, `@`, `++`, `--`, `:`, or no mode at all.
    Other(&'static str),
}

impl Mode {
    pub(crate) fn from_prefix(prefix: &str) -> Self {
        match prefix {
            "+" => Mode::In,
            "-" => Mode::Out,
            "?" => Mode::Other("?"),
            "@" => Mode::Other("@"),
            "++" => Mode::Other("++"),
            "--" => Mode::Other("--"),
            ":" => Mode::Other(":"),
            _ => Mode::Other(""),
        }
    }
}

/// A declared argument type, normalised (`integer` is `Int`, `text` is `String`, …).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub enum Type {
    /// `atom`.
    Atom,
    /// `string` or `text`.
    String,
    /// `int` or `integer`.
    Int,
    /// `float`.
    Float,
    /// `number`: a float on input, any number on output.
    Number,
    /// `bool` or `boolean`.
    Bool,
    /// `list(T)`; plain `list` is `list(any)`.
    List(Box<Type>),
    /// `any`.
    Any,
}

impl Type {
    /// Parses a type as written in a mode line. `Err` carries the part that is not
    /// an exposable type (for `list(stream)`, that is `stream`).
    pub fn parse(text: &str) -> Result<Type, String> {
        let t = text.trim();
        Ok(match t {
            "atom" => Type::Atom,
            "string" | "text" => Type::String,
            "int" | "integer" => Type::Int,
            "float" => Type::Float,
            "number" => Type::Number,
            "bool" | "boolean" => Type::Bool,
            "list" => Type::List(Box::new(Type::Any)),
            "any" => Type::Any,
            _ => {
                let inner = t
                    .strip_prefix("list(")
                    .and_then(|rest| rest.strip_suffix(')'))
                    .ok_or_else(|| t.to_string())?;
                Type::List(Box::new(Type::parse(inner)?))
            }
        })
    }
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Type::Atom => f.write_str("atom"),
            Type::String => f.write_str("string"),
            Type::Int => f.write_str("int"),
            Type::Float => f.write_str("float"),
            Type::Number => f.write_str("number"),
            Type::Bool => f.write_str("bool"),
            Type::List(inner) => write!(f, "list({inner})"),
            Type::Any => f.write_str("any"),
        }
    }
}

/// Declared determinism (`is det`, …); `Undeclared` when the mode line has no `is`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Determinism {
    /// Exactly one solution.
    Det,
    /// One solution or failure.
    Semidet,
    /// Any number of solutions.
    Nondet,
    /// At least one solution.
    Multi,
    /// Always fails.
    Failure,
    /// No `is …` part.
    Undeclared,
}

impl Determinism {
    pub(crate) fn parse(word: &str) -> Option<Self> {
        Some(match word {
            "det" => Determinism::Det,
            "semidet" => Determinism::Semidet,
            "nondet" => Determinism::Nondet,
            "multi" => Determinism::Multi,
            "failure" => Determinism::Failure,
            _ => return None,
        })
    }

    /// Whether an answer is a list of solutions rather than one solution.
    pub fn is_many(self) -> bool {
        !matches!(self, Determinism::Det | Determinism::Semidet)
    }
}

impl fmt::Display for Determinism {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Determinism::Det => "det",
            Determinism::Semidet => "semidet",
            Determinism::Nondet => "nondet",
            Determinism::Multi => "multi",
            Determinism::Failure => "failure",
            Determinism::Undeclared => "undeclared",
        })
    }
}

/// HTTP method of an operation, from its name prefix.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Method {
    /// `get_…`
    Get,
    /// `put_…`
    Put,
    /// `delete_…`
    Delete,
    /// Anything else.
    Post,
}

impl Method {
    /// The method an operation named `name` is served on.
    pub fn for_name(name: &str) -> Method {
        if name.starts_with("get_") {
            Method::Get
        } else if name.starts_with("put_") {
            Method::Put
        } else if name.starts_with("delete_") {
            Method::Delete
        } else {
            Method::Post
        }
    }
}

/// One argument of an operation.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Arg {
    /// The name exactly as written in the mode line (`Age`); also the JSON key.
    pub name: Text,
    /// `+` or `-` (exposed operations only have these).
    pub mode: Mode,
    /// The declared type.
    pub ty: Type,
    /// The `@arg` text, if any.
    pub doc: Option<Text>,
}

/// An exposed predicate: one operation on every surface.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Operation {
    /// The operation's name: the route, the MCP tool, the Rust method. The
    /// predicate's name unless its PlDoc gives another with `@charon name`.
    pub name: Text,
    /// The name of the predicate it calls.
    pub predicate: Text,
    /// Arguments in mode-line order.
    pub args: Vec<Arg>,
    /// Declared determinism.
    pub determinism: Determinism,
    /// The free text of the PlDoc block (may be empty).
    pub description: Text,
    /// Where the mode line is.
    pub location: Location,
}

impl Operation {
    /// Predicate arity.
    pub fn arity(&self) -> usize {
        self.args.len()
    }

    /// Input arguments, in order.
    pub fn inputs(&self) -> impl Iterator<Item = &Arg> {
        self.args.iter().filter(|a| a.mode == Mode::In)
    }

    /// Output arguments, in order.
    pub fn outputs(&self) -> impl Iterator<Item = &Arg> {
        self.args.iter().filter(|a| a.mode == Mode::Out)
    }

    /// The HTTP method from the name prefix.
    pub fn method(&self) -> Method {
        Method::for_name(&self.name)
    }

    /// The mode line as Charon reads it: `name(+In:type, -Out:type) is det`.
    pub fn signature(&self) -> String {
        let args: Vec<String> = self
            .args
            .iter()
            .map(|a| {
                let m = if a.mode == Mode::In { "+" } else { "-" };
                format!("{m}{}:{}", a.name, a.ty)
            })
            .collect();
        let args = if args.is_empty() {
            String::new()
        } else {
            format!("({})", args.join(", "))
        };
        format!("{}{} is {}", self.name, args, self.determinism)
    }

    /// The first sentence of the description, on one line, for summaries.
    pub fn summary(&self) -> Option<String> {
        let paragraph = self.description.split("\n\n").next()?.trim();
        if paragraph.is_empty() {
            return None;
        }
        let joined = paragraph.split_whitespace().collect::<Vec<_>>().join(" ");
        let end = joined
            .match_indices(". ")
            .next()
            .map_or(joined.len(), |(i, _)| i + 1);
        Some(joined[..end].to_string())
    }
}
