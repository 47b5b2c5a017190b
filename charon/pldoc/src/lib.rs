//! PlDoc parsing and the operation model of Charon.
//!
//! This crate has no engine dependency: the `knowledge_base!` macro uses it at compile
//! time and the runtime uses it at load time, so both see the same operations.
//! [`analyse`] reads a knowledge base's text and returns a [`Report`]: the exposed
//! [`Operation`]s and, for every documented predicate that is not exposed, a
//! [`Rejection`] with `file:line` and the reason. [`schema`] renders the
//! JSON Schemas of an operation, which every surface (OpenAPI, MCP) uses.
//!
//! # Layers
//!
//! Each module imports only from those below it (`scripts/import-circles.py`
//! checks that no file imports one that imports it back):
//!
//! - this file: `analyse`, the operations built from the doc blocks;
//! - `doc` (PlDoc blocks and mode lines) and `syntax` (clauses the engine could
//!   not read), over `scan` and `model`;
//! - `schema` (JSON Schemas of an operation), over `model`;
//! - `scan` (the source scanner) and `model` (operations, types), which import
//!   nothing of the crate.

mod doc;
mod model;
mod scan;
pub mod schema;
mod syntax;

use std::collections::{BTreeMap, HashMap};
use std::fmt;

pub use model::{Arg, Determinism, Location, Method, Mode, Operation, Text, Type};
pub use syntax::{SyntaxCheck, SyntaxError};

use scan::{Head, Item};

/// Names the HTTP and MCP surfaces use for their own routes; a predicate with one of
/// these names would shadow a built-in route, so it is reported instead of exposed.
pub const RESERVED_NAMES: &[&str] = &[
    "health",
    "health.ready",
    "openapi.json",
    "docs",
    "mcp",
    "reason",
    "diagnose",
    "what-if",
    "check-kb",
];

/// Why a documented predicate is not exposed.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Reason {
    /// The mode line could not be read.
    MalformedModeLine(String),
    /// An argument has a mode other than `+`/`-` (the mode text, empty if missing).
    ArgMode {
        /// Argument name.
        arg: String,
        /// The mode as written (`?`, `@`, …; empty when there is none).
        mode: String,
    },
    /// An argument has no type.
    MissingType {
        /// Argument name.
        arg: String,
    },
    /// An argument's type is not one of the exposable types.
    ArgType {
        /// Argument name.
        arg: String,
        /// The type as written.
        ty: String,
        /// The part that is not exposable (for `list(stream)`, `stream`).
        bad: String,
    },
    /// Two arguments share a name.
    DuplicateArg(String),
    /// The determinism word is not one PlDoc defines.
    UnknownDeterminism(String),
    /// The clauses after the block have a different arity.
    ArityMismatch {
        /// Arity in the mode line.
        declared: usize,
        /// Arity of the clauses.
        found: usize,
    },
    /// The block is not followed by the predicate's first clause.
    NotFollowedByClauses {
        /// What follows instead.
        found: String,
    },
    /// Another documented predicate has the same name.
    NameClash {
        /// The other predicate, `name/arity`.
        other: String,
        /// Where its mode line is.
        at: Location,
    },
    /// The name is not valid as an MCP tool name / route segment.
    InvalidName,
    /// The name is one of the built-in routes.
    ReservedName,
    /// An `@charon` tag Charon does not know (the tag's text).
    UnknownTag(String),
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::MalformedModeLine(why) => write!(f, "the mode line cannot be read: {why}"),
            Reason::ArgMode { arg, mode } if mode.is_empty() => write!(
                f,
                "argument `{arg}` has no mode; write `+{arg}` for an input or `-{arg}` for an output"
            ),
            Reason::ArgMode { arg, mode } => write!(
                f,
                "argument `{arg}` has mode `{mode}`; only `+` (input) and `-` (output) can be exposed"
            ),
            Reason::MissingType { arg } => write!(
                f,
                "argument `{arg}` has no type; add one, e.g. `{arg}:atom` (exposable: atom, string, text, int, integer, float, number, bool, boolean, list(T), list, any)"
            ),
            Reason::ArgType { arg, ty, bad } => write!(
                f,
                "argument `{arg}` has type `{ty}`, and `{bad}` cannot be exposed (exposable: atom, string, text, int, integer, float, number, bool, boolean, list(T), list, any)"
            ),
            Reason::DuplicateArg(arg) => write!(f, "argument name `{arg}` is used twice"),
            Reason::UnknownDeterminism(word) => write!(
                f,
                "`is {word}` is not a determinism; use det, semidet, nondet, multi or failure"
            ),
            Reason::ArityMismatch { declared, found } => write!(
                f,
                "the mode line has {declared} argument(s) but the clauses below it have {found}"
            ),
            Reason::NotFollowedByClauses { found } => write!(
                f,
                "the PlDoc block must directly precede the predicate's first clause, but it is followed by {found}"
            ),
            Reason::NameClash { other, at } => write!(
                f,
                "operation name clashes with documented {other} at {at}; give one of them another name with `@charon name other_name` in its PlDoc"
            ),
            Reason::InvalidName => write!(
                f,
                "the name is not valid as a tool name (1-64 characters from A-Z a-z 0-9 _ -); give the operation another with `@charon name other_name` in its PlDoc"
            ),
            Reason::ReservedName => write!(
                f,
                "the name is a built-in route ({}); give the operation another with `@charon name other_name` in its PlDoc",
                RESERVED_NAMES.join(", ")
            ),
            Reason::UnknownTag(text) => write!(
                f,
                "`@charon {text}` is not a Charon tag; write `@charon skip` (not exposed) or `@charon name other_name` (exposed under that name)"
            ),
        }
    }
}

/// A documented predicate that is not exposed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rejection {
    /// Where its mode line is.
    pub location: Location,
    /// `name/arity` as far as it could be read.
    pub predicate: String,
    /// Why.
    pub reason: Reason,
}

impl fmt::Display for Rejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: {} is not exposed: {}",
            self.location, self.predicate, self.reason
        )
    }
}

/// The result of reading a knowledge base's PlDoc.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Report {
    /// Exposed operations, in file order.
    pub operations: Vec<Operation>,
    /// Documented predicates that are not exposed, in file order.
    pub rejections: Vec<Rejection>,
}

impl Report {
    /// True when every documented predicate is exposed.
    pub fn is_clean(&self) -> bool {
        self.rejections.is_empty()
    }

    /// The operation named `name`.
    pub fn operation(&self, name: &str) -> Option<&Operation> {
        self.operations.iter().find(|o| o.name == name)
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for op in &self.operations {
            writeln!(f, "{}: exposed {}", op.location, op.signature())?;
        }
        for r in &self.rejections {
            writeln!(f, "{r}")?;
        }
        write!(
            f,
            "{} operation(s) exposed, {} documented predicate(s) not exposed",
            self.operations.len(),
            self.rejections.len()
        )
    }
}

/// One clause or directive of a source text, as [`clauses`] finds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClauseSpan {
    /// Its bytes in the text, from its first token to its end `.` included.
    pub bytes: std::ops::Range<usize>,
    /// The predicate it is a clause of (`None` for a directive or a head the scanner
    /// cannot read, such as a module-qualified one). Operator syntax is read with
    /// scryer's operator table and the file's own `op/3` directives: `a = b.` is a
    /// clause of `=/2`.
    pub predicate: Option<(String, usize)>,
    /// Whether it is a directive (`:- …`).
    pub directive: bool,
    /// Whether it is a fact in functional notation, `name(…).`: no neck, no
    /// operator at its top level.
    pub fact: bool,
}

/// The clauses and directives of `src`, in order, with their byte ranges: what
/// `--persist` needs to replace the clauses of one predicate and keep every other
/// byte.
pub fn clauses(src: &str) -> Vec<ClauseSpan> {
    let offsets: Vec<usize> = src
        .char_indices()
        .map(|(b, _)| b)
        .chain([src.len()])
        .collect();
    scan::scan(src)
        .into_iter()
        .filter_map(|item| match item {
            Item::Clause {
                head, span, fact, ..
            } => Some(ClauseSpan {
                fact,
                bytes: offsets[span.start]..offsets[span.end.min(offsets.len() - 1)],
                directive: head == Head::Directive,
                predicate: match head {
                    Head::Pred { name, arity } => Some((name, arity)),
                    _ => None,
                },
            }),
            _ => None,
        })
        .collect()
}

/// The predicate indicators a directive declares dynamic, in order, read from the
/// directive's text as Prolog reads it: `:- dynamic(a/1).`, `:- dynamic a/1, b/2.`,
/// `:- dynamic([a/1, 'b c'/2]).`, `:- dynamic((a/1, b/2)).`, module-qualified
/// `m:a/1` (the module is dropped), `Name//Arity` (a non-terminal: arity + 2), quoted
/// names with escapes decoded, comments and layout anywhere. Only the first clause
/// of `directive` is read. Empty for any text that is not a `dynamic` declaration
/// (another directive, a clause, a syntax error); an element that is not a
/// predicate indicator is skipped.
///
/// ```
/// use charon_pldoc::dynamic_declared;
/// assert_eq!(
///     dynamic_declared(":- dynamic user_role/2, 'a b'/1."),
///     [("user_role".to_string(), 2), ("a b".to_string(), 1)]
/// );
/// assert!(!dynamic_declared(":- dynamic(xa/1).").contains(&("a".to_string(), 1)));
/// ```
pub fn dynamic_declared(directive: &str) -> Vec<(String, usize)> {
    scan::dynamic_declared(directive)
}

/// The files of its own that a knowledge base's text loads, in order, with the line
/// of the directive: the atoms named by `:- include(F).`, `:- consult(F).`,
/// `:- ensure_loaded(F).`, `:- use_module(F).`, `:- use_module(F, Imports).` and
/// `:- [F, G].` (lists too). `library(…)` is the engine's and is left out. A name is
/// resolved as the engine does: against the directory of the file that names it,
/// with `.pl` added when the name has no such suffix and that file exists.
///
/// ```
/// use charon_pldoc::loaded_files;
/// let text = ":- use_module(library(lists)).\n:- include('facts.pl').\n:- [helpers, more].\n";
/// assert_eq!(
///     loaded_files(text),
///     [(2, "facts.pl".to_string()), (3, "helpers".to_string()), (3, "more".to_string())]
/// );
/// ```
pub fn loaded_files(src: &str) -> Vec<(usize, String)> {
    scan::scan(src)
        .into_iter()
        .flat_map(|item| match item {
            Item::Clause { line, loads, .. } => loads.into_iter().map(|f| (line, f)).collect(),
            _ => Vec::new(),
        })
        .collect()
}

/// The file a knowledge base's file in `dir` loads under the name `spec` (see
/// [`loaded_files`]), found as the engine finds it: `spec.pl` unless `spec` ends in
/// `.pl`, else `spec` itself; `None` if neither is a file. `.` and `..` are resolved
/// lexically (symbolic links are kept as written, as the engine keeps them).
pub fn resolve_loaded(dir: &std::path::Path, spec: &str) -> Option<std::path::PathBuf> {
    let base = normalize(&dir.join(spec));
    if !spec.ends_with(".pl") {
        let mut with = base.clone().into_os_string();
        with.push(".pl");
        let with = std::path::PathBuf::from(with);
        if with.is_file() {
            return Some(with);
        }
    }
    base.is_file().then_some(base)
}

/// A file a knowledge base loads that [`knowledge_base_files`] could not follow.
#[derive(Debug)]
#[non_exhaustive]
pub enum LoadProblem {
    /// The name is an absolute path.
    Absolute,
    /// Neither `spec.pl` nor `spec` is a file.
    Missing,
    /// The file is there but could not be read.
    Unreadable(std::io::Error),
}

/// The main file (`main`, whose text is `text`) and every file of its own it loads,
/// recursively (see [`loaded_files`], [`resolve_loaded`]), each once, in the order
/// they are first named, by normalised path. `problem(file, line, spec, what)` is
/// told of each load that cannot be followed; `Err` from it stops the walk.
pub fn knowledge_base_files<E>(
    main: &std::path::Path,
    text: String,
    mut problem: impl FnMut(&std::path::Path, usize, &str, LoadProblem) -> Result<(), E>,
) -> Result<Vec<(std::path::PathBuf, String)>, E> {
    let mut found = vec![(normalize(main), text)];
    let mut next = 0;
    while let Some((file, text)) = found.get(next).cloned() {
        next += 1;
        let dir = file.parent().unwrap_or(std::path::Path::new(""));
        for (line, spec) in loaded_files(&text) {
            if std::path::Path::new(&spec).is_absolute() {
                problem(&file, line, &spec, LoadProblem::Absolute)?;
                continue;
            }
            let Some(path) = resolve_loaded(dir, &spec) else {
                problem(&file, line, &spec, LoadProblem::Missing)?;
                continue;
            };
            if found.iter().any(|(f, _)| *f == path) {
                continue;
            }
            match std::fs::read_to_string(&path) {
                Ok(text) => found.push((path, text)),
                Err(e) => problem(&file, line, &spec, LoadProblem::Unreadable(e))?,
            }
        }
    }
    Ok(found)
}

/// `path` with `.` and `..` resolved lexically.
pub fn normalize(path: &std::path::Path) -> std::path::PathBuf {
    use std::path::Component;
    let mut out = std::path::PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            other => out.push(other),
        }
    }
    out
}

/// Where the engine would refuse to read `src` (one file, the files it loads not
/// followed; see [`SyntaxCheck`] for a knowledge base of several files).
///
/// ```
/// let errors = charon_pldoc::syntax_errors("kb.pl", "p(a).\np(b) q(c).\n");
/// assert_eq!(errors[0].to_string().split(": unexpected").next(), Some("kb.pl:2:6: syntax error"));
/// ```
pub fn syntax_errors(file: &str, src: &str) -> Vec<SyntaxError> {
    SyntaxCheck::new([src]).file(file, src, &mut |_, _| Vec::new())
}

/// Whether `name` can be a tool name and a route segment.
pub fn is_valid_tool_name(name: &str) -> bool {
    (1..=64).contains(&name.len())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

/// Reads the PlDoc of a knowledge base. `file` is used in locations only.
pub fn analyse(file: &str, src: &str) -> Report {
    let items = scan::scan(src);
    let locator = Locator::new(file, src);

    // First clause line of every predicate, to check that a block precedes the first one.
    let mut first_clause: HashMap<(String, usize), usize> = HashMap::new();
    for item in &items {
        if let Item::Clause {
            line,
            head: Head::Pred { name, arity },
            ..
        } = item
        {
            first_clause.entry((name.clone(), *arity)).or_insert(*line);
        }
    }

    let mut candidates: Vec<Operation> = Vec::new();
    let mut rejections: Vec<Rejection> = Vec::new();
    let mut i = 0;
    while i < items.len() {
        let Some((block, next)) = doc_block_at(&items, i) else {
            i += 1;
            continue;
        };
        i = next;
        if block.charon.iter().any(|t| t.trim() == "skip") {
            continue;
        }
        let following = items[next..].iter().find_map(|it| match it {
            Item::Clause { line, head, .. } => Some((*line, head)),
            _ => None,
        });
        match build(&block, following, &first_clause, &locator) {
            Ok(op) => candidates.push(op),
            Err(r) => rejections.push(*r),
        }
    }

    // Name clashes: every operation sharing a name with another is rejected.
    let mut by_name: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (k, op) in candidates.iter().enumerate() {
        by_name.entry(op.name.as_ref()).or_default().push(k);
    }
    let mut clashing = vec![false; candidates.len()];
    for ids in by_name.values().filter(|ids| ids.len() > 1) {
        for &a in ids {
            clashing[a] = true;
            let b = ids.iter().copied().find(|&b| b != a).unwrap_or(a);
            rejections.push(Rejection {
                location: candidates[a].location.clone(),
                predicate: format!("{}/{}", candidates[a].predicate, candidates[a].arity()),
                reason: Reason::NameClash {
                    other: format!("{}/{}", candidates[b].predicate, candidates[b].arity()),
                    at: candidates[b].location.clone(),
                },
            });
        }
    }
    let operations = candidates
        .into_iter()
        .zip(clashing)
        .filter_map(|(op, c)| (!c).then_some(op))
        .collect();
    rejections.sort_by_key(|r| (r.location.line, r.location.column));

    Report {
        operations,
        rejections,
    }
}

/// The PlDoc block starting at `items[i]`, if any, and the index after it.
fn doc_block_at(items: &[Item], i: usize) -> Option<(doc::DocBlock, usize)> {
    match &items[i] {
        Item::LineComment { line, text } if text.starts_with('!') => {
            let mut lines = vec![text[1..].to_string()];
            let mut j = i + 1;
            let mut last = *line;
            while let Some(Item::LineComment { line: l, text: t }) = items.get(j) {
                if *l != last + 1 {
                    break;
                }
                lines.push(t.clone());
                last = *l;
                j += 1;
            }
            Some((doc::block_from_lines(*line, &lines), j))
        }
        Item::BlockComment { line, text } => {
            let lines = doc::block_comment_lines(text)?;
            let first = lines.iter().position(|l| !l.trim().is_empty())?;
            if !doc::looks_like_mode_line(&lines[first]) {
                return None;
            }
            Some((doc::block_from_lines(line + first, &lines[first..]), i + 1))
        }
        _ => None,
    }
}

/// Turns a line of a PlDoc block and a piece of text on it into a [`Location`].
struct Locator<'a> {
    file: &'a str,
    src: &'a str,
    /// Byte offset of the start of every line.
    starts: Vec<usize>,
}

impl<'a> Locator<'a> {
    fn new(file: &'a str, src: &'a str) -> Self {
        let starts = std::iter::once(0)
            .chain(src.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        Locator { file, src, starts }
    }

    fn line_text(&self, line: usize) -> Option<(usize, &'a str)> {
        let start = *self.starts.get(line.checked_sub(1)?)?;
        let end = self
            .starts
            .get(line)
            .map_or(self.src.len(), |&e| e.saturating_sub(1));
        Some((start, self.src[start..end].trim_end_matches('\r')))
    }

    /// The location of `needle` as a whole word on `line` or the few lines after it
    /// (a mode line may span lines); without a needle, or if it is not found, the
    /// first character after the comment marker on `line`.
    fn locate(&self, line: usize, needle: Option<&str>) -> Location {
        self.locate_after(line, None, needle)
    }

    /// Like [`locate`](Self::locate), looking for `needle` only after the first
    /// whole-word `anchor` (an argument's type after its name, not the same word
    /// earlier in the line).
    fn locate_after(&self, line: usize, anchor: Option<&str>, needle: Option<&str>) -> Location {
        let at = |line: usize, start: usize, text: &str, byte: usize| Location {
            file: Text::Owned(self.file.to_string()),
            line,
            column: text[..byte].chars().count() + 1,
            offset: start + byte,
        };
        if let Some(needle) = needle.filter(|n| !n.is_empty()) {
            let mut anchored = anchor.is_none();
            for l in line..line + 8 {
                let Some((start, text)) = self.line_text(l) else {
                    break;
                };
                let from = if anchored {
                    0
                } else {
                    match anchor.and_then(|a| find_word(text, a).map(|i| i + a.len())) {
                        Some(end) => {
                            anchored = true;
                            end
                        }
                        None => continue,
                    }
                };
                if let Some(byte) = find_word(&text[from..], needle) {
                    return at(l, start, text, from + byte);
                }
            }
        }
        let Some((start, text)) = self.line_text(line) else {
            return Location {
                file: Text::Owned(self.file.to_string()),
                line,
                column: 1,
                offset: self.src.len(),
            };
        };
        let marker = ["%!", "/**", "%", "*"]
            .iter()
            .find_map(|m| text.find(m).map(|i| i + m.len()))
            .unwrap_or(0);
        let byte = text[marker..]
            .find(|c: char| !c.is_whitespace())
            .map_or(marker, |i| marker + i);
        at(line, start, text, byte)
    }
}

/// Byte index of `needle` in `text` where it is not part of a longer name.
fn find_word(text: &str, needle: &str) -> Option<usize> {
    let is_name = |c: char| c.is_alphanumeric() || c == '_';
    text.match_indices(needle).map(|(i, _)| i).find(|&i| {
        let before = text[..i].chars().next_back();
        let after = text[i + needle.len()..].chars().next();
        !before.is_some_and(is_name) && !after.is_some_and(is_name)
    })
}

/// Whether the block documenting `documented/declared` stands right before the
/// first clause of that predicate (`following` is what comes after it).
fn placement(
    following: Option<(usize, &Head)>,
    documented: &str,
    declared: usize,
    first_clause: &HashMap<(String, usize), usize>,
) -> Result<(), Reason> {
    match following {
        Some((line, Head::Pred { name, arity })) if name == documented => {
            if *arity != declared {
                return Err(Reason::ArityMismatch {
                    declared,
                    found: *arity,
                });
            }
            let first = first_clause
                .get(&(name.clone(), *arity))
                .copied()
                .unwrap_or(line);
            if first != line {
                return Err(Reason::NotFollowedByClauses {
                    found: format!(
                        "a later clause of {documented}/{declared} (its first clause is at line {first})"
                    ),
                });
            }
        }
        other => {
            let found = match other {
                None => "the end of the file".to_string(),
                Some((line, Head::Pred { name, arity })) => {
                    format!("a clause of {name}/{arity} at line {line}")
                }
                Some((line, Head::Directive)) => format!("a directive at line {line}"),
                Some((line, _)) => format!("an unreadable clause at line {line}"),
            };
            return Err(Reason::NotFollowedByClauses { found });
        }
    }
    Ok(())
}

/// The operation's name: the predicate's, or the one a `@charon name N` tag
/// gives; a valid tool name that is not reserved.
fn operation_name(predicate: &str, tags: &[String]) -> Result<String, Reason> {
    let mut name = predicate.to_string();
    for tag in tags {
        let mut words = tag.split_whitespace();
        match (words.next(), words.next(), words.next()) {
            (Some("name"), Some(other), None) => name = other.to_string(),
            _ => return Err(Reason::UnknownTag(tag.trim().to_string())),
        }
    }
    if !is_valid_tool_name(&name) {
        return Err(Reason::InvalidName);
    }
    if RESERVED_NAMES.contains(&name.as_str()) {
        return Err(Reason::ReservedName);
    }
    Ok(name)
}

fn build(
    block: &doc::DocBlock,
    following: Option<(usize, &Head)>,
    first_clause: &HashMap<(String, usize), usize>,
    locator: &Locator<'_>,
) -> Result<Operation, Box<Rejection>> {
    let name_hint: String = block
        .mode_line
        .chars()
        .take_while(|c| *c != '(' && !c.is_whitespace())
        .collect();
    let location = locator.locate(block.line, Some(&name_hint));
    // A rejection points at the piece of the mode line it is about.
    let reject_at = |predicate: String, reason: Reason, needle: Option<&str>| {
        let location = match needle {
            Some(n) => locator.locate(block.line, Some(n)),
            None => location.clone(),
        };
        Box::new(Rejection {
            location,
            predicate,
            reason,
        })
    };
    let reject = |predicate: String, reason| reject_at(predicate, reason, None);
    let ml = doc::parse_mode_line(&block.mode_line)
        .map_err(|why| reject(name_hint.clone(), Reason::MalformedModeLine(why)))?;
    let pi = format!("{}/{}", ml.name, ml.args.len());

    // Placement first: a block that documents nothing is the most basic mistake.
    placement(following, &ml.name, ml.args.len(), first_clause)
        .map_err(|r| reject(pi.clone(), r))?;

    let name = operation_name(&ml.name, &block.charon).map_err(|r| reject(pi.clone(), r))?;
    let determinism = ml.determinism.map_err(|w| {
        reject_at(
            pi.clone(),
            Reason::UnknownDeterminism(w.clone()),
            Some(w.as_str()),
        )
    })?;

    let mut args = Vec::new();
    for raw in &ml.args {
        let at_arg = Some(raw.name.as_str());
        if args.iter().any(|a: &Arg| a.name == raw.name) {
            return Err(reject_at(
                pi,
                Reason::DuplicateArg(raw.name.clone()),
                at_arg,
            ));
        }
        if let Mode::Other(m) = raw.mode {
            // Point at the mode itself (`?X`), not the name after it.
            let needle = (!m.is_empty()).then(|| format!("{m}{}", raw.name));
            let location = match &needle {
                Some(n) => locator.locate(block.line, Some(n)),
                None => locator.locate(block.line, at_arg),
            };
            return Err(Box::new(Rejection {
                location,
                predicate: pi,
                reason: Reason::ArgMode {
                    arg: raw.name.clone(),
                    mode: m.to_string(),
                },
            }));
        }
        let Some(ty_text) = &raw.ty else {
            return Err(reject_at(
                pi,
                Reason::MissingType {
                    arg: raw.name.clone(),
                },
                at_arg,
            ));
        };
        let ty = Type::parse(ty_text).map_err(|bad| {
            Box::new(Rejection {
                location: locator.locate_after(block.line, at_arg, Some(bad.as_str())),
                predicate: pi.clone(),
                reason: Reason::ArgType {
                    arg: raw.name.clone(),
                    ty: ty_text.clone(),
                    bad: bad.clone(),
                },
            })
        })?;
        let doc = block
            .arg_docs
            .iter()
            .find(|(n, _)| *n == raw.name)
            .map(|(_, t)| t.clone())
            .filter(|t| !t.is_empty());
        args.push(Arg {
            name: raw.name.clone().into(),
            mode: raw.mode,
            ty,
            doc: doc.map(Text::Owned),
        });
    }
    Ok(Operation {
        name: name.into(),
        predicate: ml.name.into(),
        args,
        determinism,
        description: block.description.clone().into(),
        location,
    })
}

#[cfg(test)]
mod locations {
    use super::*;

    #[test]
    fn a_rejection_points_at_the_offending_part() {
        let src = "% intro\n%! atom_list(+L:list(atom), -X:atom_list) is det.\natom_list(_, _).\n";
        let r = analyse("kb.pl", src);
        let rej = &r.rejections[0];
        // The type `atom_list`, not the predicate of the same name.
        assert_eq!((rej.location.line, rej.location.column), (2, 32));
        assert_eq!(
            &src[rej.location.offset..rej.location.offset + 9],
            "atom_list"
        );
        assert!(
            rej.location
                .snippet(src)
                .ends_with(&format!("{}^", " ".repeat(32)))
        );
    }

    #[test]
    fn columns_count_characters_and_offsets_bytes() {
        let src = "% é\r\n%! p(+Ä:int, ?X:int) is det.\r\np(1, 2).\r\n";
        let r = analyse("kb.pl", src);
        let rej = &r.rejections[0];
        assert_eq!((rej.location.line, rej.location.column), (2, 14));
        assert!(src[rej.location.offset..].starts_with("?X"));
    }
}

#[cfg(test)]
mod clause_spans {
    use super::*;

    #[test]
    fn byte_ranges_cover_each_clause_with_multibyte_text() {
        let src = "% é\n:- dynamic(p/1).\np('ü'). p(\"x. y\").\nq :- p(_). % end\n";
        let spans = clauses(src);
        let texts: Vec<&str> = spans.iter().map(|c| &src[c.bytes.clone()]).collect();
        assert_eq!(
            texts,
            [":- dynamic(p/1).", "p('ü').", "p(\"x. y\").", "q :- p(_)."]
        );
        assert!(spans[0].directive && spans[0].predicate.is_none());
        assert_eq!(spans[1].predicate, Some(("p".into(), 1)));
        assert_eq!(spans[3].predicate, Some(("q".into(), 0)));
    }
}
