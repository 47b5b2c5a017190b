//! What a reasoning request carries and what it answers: the settings of a
//! [`Reasoner`](super::Reasoner), the requests (`reason`, `check_kb`), the results
//! and their failures, and `check_kb` itself (which needs no engine).

use serde::{Deserialize, Serialize};

use super::{Issue, ParseError, Severity, Solution, check, parse_knowledge};
use crate::CallError;
use crate::term::PlTerm;

/// Settings of a [`Reasoner`](super::Reasoner) beyond the engine's.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ReasonConfig {
    /// Largest knowledge text accepted, in bytes (default 500,000, the
    /// reference implementation's limit).
    pub max_knowledge_bytes: usize,
    /// Longest query a request may give on its own, in characters (default
    /// 5,000, the reference implementation's limit).
    pub max_query_chars: usize,
    /// Solutions returned when a request does not say.
    pub max_solutions: usize,
    /// The most solutions a request may ask for (default 1,000, the reference's
    /// limit; a request asks for 1 at least).
    pub max_solutions_limit: usize,
    /// Rule applications allowed along one branch of the search when a request
    /// does not say.
    pub max_depth: u32,
    /// The most a request may ask for (default 500, the reference's limit; 1 at
    /// least). A proof nests two JSON levels per rule: a
    /// reader with a nesting limit needs it lifted for deep proofs (serde_json's
    /// default is 128: `Deserializer::disable_recursion_limit`).
    pub max_depth_limit: u32,
    /// Most answers (one per proof) a search may collect before it is stopped as
    /// `too_many_answers`: it bounds the memory of a search and of its result.
    pub max_answers: usize,
    /// Proofs returned per solution when a request does not say.
    pub max_proofs: usize,
    /// Most proof nodes one answer may hold (over all the solutions and proofs it
    /// returns); past it the request fails as `answer_too_large`.
    pub max_proof_nodes: usize,
    /// Most bytes one answer may take as JSON; past it the request fails as
    /// `answer_too_large`.
    pub max_answer_bytes: usize,
    /// Bytes of compiled knowledge kept (the text and its program).
    pub compiled_cache: u64,
}

impl Default for ReasonConfig {
    fn default() -> Self {
        ReasonConfig {
            max_knowledge_bytes: 500_000,
            max_query_chars: 5_000,
            max_solutions: 100,
            max_solutions_limit: 1000,
            max_depth: 50,
            max_depth_limit: 500,
            max_answers: 20_000,
            max_proofs: 5,
            max_proof_nodes: 100_000,
            max_answer_bytes: 16 << 20,
            compiled_cache: 64 << 20,
        }
    }
}

/// A question for [`Reasoner::reason`](super::Reasoner::reason).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReasonRequest {
    /// Facts and rules in Euclid-IR (text or YAML form).
    pub knowledge: String,
    /// The goal to prove, e.g. `ancestor(tom, $who)`; when left out, the
    /// knowledge's own `? query` (it must hold exactly one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub query: Option<String>,
    /// Most solutions returned (`truncated` says when there are more).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "count"
    )]
    pub max_solutions: Option<usize>,
    /// Most rule applications along one branch of the search.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "count"
    )]
    pub max_depth: Option<u32>,
    /// Most proofs returned per solution (`proof_count` tells them all).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "count"
    )]
    pub max_proofs: Option<usize>,
}

/// A count given as JSON: a non-negative integer, written `7` or `7.0` (JSON Schema
/// calls both integers); null is the default.
pub(super) fn count<'de, D, T>(d: D) -> Result<Option<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: TryFrom<u64>,
{
    use serde::de::Error;
    let Some(n) = Option::<serde_json::Number>::deserialize(d)? else {
        return Ok(None);
    };
    let whole = n.as_u64().or_else(|| {
        n.as_f64()
            .filter(|f| f.fract() == 0.0 && *f >= 0.0 && *f <= 9_007_199_254_740_992.0)
            .map(|f| f as u64)
    });
    whole
        .filter(|v| *v <= u64::from(u32::MAX))
        .and_then(|v| T::try_from(v).ok())
        .map(Some)
        .ok_or_else(|| {
            D::Error::custom(format!(
                "expected a whole number of a sensible size, found {n}"
            ))
        })
}

impl ReasonRequest {
    /// A request with the default limits.
    pub fn new(knowledge: impl Into<String>, query: impl Into<String>) -> Self {
        ReasonRequest {
            knowledge: knowledge.into(),
            query: Some(query.into()),
            max_solutions: None,
            max_depth: None,
            max_proofs: None,
        }
    }
}

/// The input of `check_kb` (REST body, MCP arguments).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CheckKbRequest {
    /// Facts and rules in Euclid-IR (text or YAML form).
    pub knowledge: String,
}

/// The answer to a [`ReasonRequest`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ReasonResult {
    /// The search finished: `ok: true`.
    Answered(Answers),
    /// It could not be done: `ok: false`, and why.
    Failed(Failed),
}

impl ReasonResult {
    /// Whether the question was answered.
    pub fn ok(&self) -> bool {
        matches!(self, ReasonResult::Answered(_))
    }
}

/// Solutions of a query. An empty list is a real answer: under closed-world
/// semantics the knowledge does not entail the goal (unless `depth_exhausted`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Answers {
    /// Always true.
    pub ok: bool,
    /// The query answered, as Euclid-IR.
    pub query: String,
    /// The query's variables, in order of first appearance (without `$`).
    pub variables: Vec<String>,
    /// Distinct solutions, sorted by their bindings: numbers before constants,
    /// numbers by value, constants by code point, the first variable first.
    pub solutions: Vec<Solution>,
    /// Distinct solutions found (all of them, even past `max_solutions`).
    pub solution_count: usize,
    /// More solutions exist than were returned.
    pub truncated: bool,
    /// Some branch of the search reached `max_depth` and was cut there: solutions
    /// may be missing, and a NOT checked at that depth may have held wrongly.
    /// Raise `max_depth` (left recursion never finishes at any depth).
    pub depth_exhausted: bool,
    /// Things worth knowing about the answer (a depth cut, undefined predicates).
    pub warnings: Vec<String>,
}

/// A request that could not be answered.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Failed {
    /// Always false.
    pub ok: bool,
    /// What went wrong.
    pub error: Failure,
}

/// Why a request failed, and what to do.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Failure {
    /// The kind of failure.
    pub kind: FailureKind,
    /// What happened and what to do about it.
    pub message: String,
    /// Line in the knowledge (or the query) where the problem is, if it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    /// Column, with `line`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub column: Option<usize>,
    /// The construct outside the grammar, for `unsupported`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub construct: Option<String>,
    /// Where the problem is: `knowledge` or `query`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
}

/// Kinds of [`Failure`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FailureKind {
    /// The text does not follow the grammar.
    ParseError,
    /// A construct left out of Euclid-IR on purpose (named in `construct`).
    Unsupported,
    /// The knowledge is larger than the limit.
    TooLarge,
    /// The query is missing, or cannot be evaluated as written.
    InvalidQuery,
    /// The knowledge cannot run as written (a comparison over an unbound variable).
    InvalidKnowledge,
    /// A limit field of the request is out of range.
    InvalidRequest,
    /// The search needed more inferences than allowed.
    InferenceLimit,
    /// The search found more proofs than a search may collect.
    TooManyAnswers,
    /// The answer would hold more proof nodes, or more bytes, than allowed.
    AnswerTooLarge,
    /// The search ran out of time.
    TimeLimit,
    /// The search ran out of memory.
    MemoryLimit,
    /// Arithmetic failed at run time (a constant where a number was needed,
    /// division by zero).
    Arithmetic,
    /// Too many calls are waiting for the engine; try again shortly.
    Overloaded,
    /// The engine failed; the message says how.
    Engine,
}

impl Failure {
    pub(super) fn new(kind: FailureKind, message: impl Into<String>) -> Self {
        Failure {
            kind,
            message: message.into(),
            line: None,
            column: None,
            construct: None,
            source: None,
        }
    }

    pub(super) fn parse(e: ParseError, source: &str) -> Self {
        Failure {
            kind: if e.construct.is_some() {
                FailureKind::Unsupported
            } else {
                FailureKind::ParseError
            },
            message: format!("{source}: {e}"),
            line: Some(e.pos.line),
            column: Some(e.pos.column),
            construct: e.construct.map(str::to_string),
            source: Some(source.into()),
        }
    }

    pub(super) fn result(self) -> ReasonResult {
        ReasonResult::Failed(self.failed())
    }

    /// The `ok: false` body of this failure.
    pub(super) fn failed(self) -> Failed {
        Failed {
            ok: false,
            error: self,
        }
    }
}

/// The result of [`check_kb`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CheckResult {
    /// Whether the knowledge parsed (`false`: see `error`).
    pub ok: bool,
    /// Parsed, and no issue is an error.
    pub valid: bool,
    /// Facts in the knowledge.
    pub facts: usize,
    /// Rules in the knowledge.
    pub rules: usize,
    /// Queries in the knowledge.
    pub queries: usize,
    /// The predicates defined, as `name/arity`, sorted.
    pub predicates: Vec<String>,
    /// Errors and warnings, by place.
    pub issues: Vec<Issue>,
    /// Why the knowledge could not be read, when `ok` is false.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<Failure>,
}

impl CheckResult {
    /// The result for knowledge that could not be checked.
    pub(super) fn failed(error: Failure) -> CheckResult {
        CheckResult {
            ok: false,
            valid: false,
            facts: 0,
            rules: 0,
            queries: 0,
            predicates: Vec::new(),
            issues: Vec::new(),
            error: Some(error),
        }
    }
}

/// Checks knowledge without running it: syntax, undefined predicates, recursion
/// through negation, duplicate facts and rules, arity mismatches, unsafe variables.
pub fn check_kb(knowledge: &str, config: &ReasonConfig) -> CheckResult {
    let failed = CheckResult::failed;
    if knowledge.len() > config.max_knowledge_bytes {
        return failed(too_large(knowledge.len(), config.max_knowledge_bytes));
    }
    let program = match parse_knowledge(knowledge) {
        Ok(p) => p,
        Err(e) => return failed(Failure::parse(e, "knowledge")),
    };
    let issues = check(&program);
    let mut predicates: Vec<String> = program.clauses.iter().map(|c| c.head.indicator()).collect();
    predicates.sort();
    predicates.dedup();
    CheckResult {
        ok: true,
        valid: !issues.iter().any(|i| i.severity == Severity::Error),
        facts: program.clauses.iter().filter(|c| c.is_fact()).count(),
        rules: program.clauses.iter().filter(|c| !c.is_fact()).count(),
        queries: program.queries.len(),
        predicates,
        issues,
        error: None,
    }
}

pub(super) fn too_large(len: usize, limit: usize) -> Failure {
    Failure::new(
        FailureKind::TooLarge,
        format!(
            "the knowledge is {len} bytes, over the limit of {limit}: send only the facts and rules the question needs, or raise the limit"
        ),
    )
}

/// The failure of an answer past a size limit (`what`: the limit, with its unit).
pub(crate) fn answer_too_large(what: &str) -> Failure {
    Failure::new(
        FailureKind::AnswerTooLarge,
        format!(
            "the answer would hold more than {what}, the limit of one answer: ask for fewer solutions (max_solutions) or proofs (max_proofs), narrow the query, or raise the limit (--max-proof-nodes, --max-answer-bytes)"
        ),
    )
}

pub(super) fn inference_limit(limit: u64) -> Failure {
    Failure::new(
        FailureKind::InferenceLimit,
        format!(
            "the search needed more than {limit} inferences and was stopped, so there is no answer (not even a partial one): narrow the query, check for rules that loop or multiply, or raise the inference limit"
        ),
    )
}

/// The failure for an engine-level error of a call.
pub(super) fn call_failure(e: CallError) -> Failure {
    match e {
        CallError::Overloaded { limit, .. } => Failure::new(
            FailureKind::Overloaded,
            format!("{limit} calls are already waiting for the engine: try again shortly"),
        ),
        CallError::TimeLimit { limit, .. } => Failure::new(
            FailureKind::TimeLimit,
            format!(
                "the search did not finish within {} ms: narrow the query, check for rules that loop or multiply, or raise the time limit",
                limit.as_millis()
            ),
        ),
        CallError::MemoryLimit { .. } => Failure::new(
            FailureKind::MemoryLimit,
            "the search ran out of memory: narrow the query or the knowledge",
        ),
        other => Failure::new(FailureKind::Engine, other.to_string()),
    }
}

/// The failure for an exception the search raised.
pub(super) fn exception_failure(e: &PlTerm) -> Failure {
    let text = e.to_string();
    let arithmetic = |m: String| Failure::new(FailureKind::Arithmetic, m);
    if let PlTerm::Compound(f, args) = e
        && f == "error"
        && matches!(args.first(), Some(PlTerm::Atom(a)) if a == "instantiation_error")
    {
        return arithmetic(
            "a comparison met a variable with no value: bind it with a goal before the comparison (or give the rule's head a value in the query)".into(),
        );
    }
    if let PlTerm::Compound(f, args) = e
        && f == "error"
        && let Some(PlTerm::Compound(kind, details)) = args.first()
    {
        match (kind.as_str(), details.as_slice()) {
            ("type_error", [_, culprit]) => {
                let what = match culprit {
                    PlTerm::Compound(slash, parts) if slash == "/" && parts.len() == 2 => {
                        parts[0].to_string()
                    }
                    other => other.to_string(),
                };
                return arithmetic(format!(
                    "a comparison or `is` met `{what}`, which is not a number: make sure the facts it reads hold numbers there"
                ));
            }
            ("evaluation_error", [what]) => {
                return arithmetic(format!(
                    "arithmetic failed ({what}): check for a division by zero"
                ));
            }
            ("instantiation_error", _) => {
                return arithmetic(
                    "a comparison met a variable with no value: bind it with a goal before the comparison".into(),
                );
            }
            ("resource_error", _) => {
                return Failure::new(
                    FailureKind::MemoryLimit,
                    "the search ran out of memory: narrow the query or the knowledge",
                );
            }
            _ => {}
        }
    }
    if let PlTerm::Compound(f, _) = e
        && f == "euclid_refused"
    {
        return Failure::new(
            FailureKind::Engine,
            "the engine refused the lowered program or query as outside Euclid-IR's allow-list; this is a bug in Charon, please report it".to_string(),
        );
    }
    Failure::new(FailureKind::Engine, format!("the search raised {text}"))
}
