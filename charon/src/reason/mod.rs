//! The reasoning toolkit: knowledge and a query in Euclid-IR, a small declarative
//! language, answered on the embedded engine with a proof tree for every solution.
//!
//! ```text
//! parent(tom, bob)                       # a fact
//! ancestor($x, $y) IF parent($x, $y)     # a rule
//! ancestor($x, $y) IF parent($x, $z) AND
//!     ancestor($z, $y)                   # a line ending in AND continues
//! ? ancestor(tom, $who)                  # a query
//! ```
//!
//! The pipeline: [`parse_text`] (or the YAML form) → [`ast::Program`] → `lower`
//! (the only code that writes Prolog, from an allow-list, every predicate under a
//! private prefix) → the engine, where `runtime.pl` checks every clause against the
//! same allow-list before loading it, and collects the answers with their proofs
//! under a depth bound and the engine's inference, time and memory limits.
//! [`check`] finds mistakes without running anything.
//!
//! [`Reasoner`] keeps what it compiled: the same knowledge sent again is neither
//! parsed nor loaded again (each engine worker loads a program once), and a repeated
//! question is answered from a cache of results bounded by bytes. Every failure is a
//! [`ReasonResult`] with `ok: false` and a message saying what to do, never a panic.
//!
//! ```
//! use charon::reason::{Reasoner, ReasonRequest, ReasonResult};
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let reasoner = Reasoner::new(charon::EngineConfig::default())?;
//! let result = reasoner.reason(&ReasonRequest::new(
//!     "parent(tom, bob)\nparent(bob, ann)\n\
//!      ancestor($x, $y) IF parent($x, $y)\n\
//!      ancestor($x, $y) IF parent($x, $z) AND ancestor($z, $y)",
//!     "ancestor(tom, $who)",
//! ));
//! let ReasonResult::Answered(answers) = result else { panic!("{result:?}") };
//! assert_eq!(answers.solution_count, 2);
//! assert_eq!(answers.solutions[0].bindings["who"], "ann");
//! # Ok(())
//! # }
//! ```

pub mod ast;
mod check;
mod diagnose;
mod lower;
mod parse;
mod proof;
mod request;
mod schema;
mod subst;
pub(crate) mod tools;
mod what_if;
mod yaml;

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

pub use check::{Issue, Severity, check};
pub use diagnose::{
    Attempt, DiagnoseMode, DiagnoseRequest, DiagnoseResult, Diagnosis, FailReason, FailedGoal,
    Proposal,
};
pub use parse::{ParseError, parse_query, parse_text};
pub(crate) use proof::weigh;
pub use proof::{ProofKind, ProofNode, Solution};
pub(crate) use request::answer_too_large;
pub use request::{
    Answers, CheckKbRequest, CheckResult, Failed, Failure, FailureKind, ReasonConfig,
    ReasonRequest, ReasonResult, check_kb,
};
use request::{call_failure, count, exception_failure, inference_limit, too_large};
pub(crate) use schema::proof_node_schema;
pub use schema::{
    check_kb_input_schema, check_kb_output_schema, diagnose_input_schema, diagnose_output_schema,
    reason_input_schema, reason_output_schema, what_if_input_schema, what_if_output_schema,
};
pub use tools::{TOOLS, ToolSpec};
pub use what_if::{Change, ChangeAction, WhatIf, WhatIfRequest, WhatIfResult};
pub use yaml::{looks_like_yaml, parse_yaml};

use crate::cache::AnswerCache;
use crate::engine::{Outcome, RunOutcome};
use crate::term::{PlTerm, write_atom};
use crate::{CallError, EngineConfig, KnowledgeBase, LoadError};
use ast::{Program, Query};

const RUNTIME: &str = include_str!("runtime.pl");

/// The names of the reasoning tools (MCP tools; HTTP routes `/reason`,
/// `/diagnose`, `/what-if`, `/check-kb`).
pub const TOOL_NAMES: [&str; 4] = ["reason", "diagnose", "what_if", "check_kb"];

/// Parses knowledge in either form: YAML when it looks like it (see
/// [`yaml::looks_like_yaml`]), the text form otherwise.
pub fn parse_knowledge(text: &str) -> Result<Program, ParseError> {
    if yaml::looks_like_yaml(text) {
        parse_yaml(text)
    } else {
        parse_text(text)
    }
}

/// A number of Euclid-IR text (integer or float) as a JSON value, exactly.
pub(crate) fn number_value(text: &str) -> serde_json::Value {
    if crate::term::is_integer_text(text) {
        return crate::json::integer(text);
    }
    text.parse::<f64>()
        .ok()
        .and_then(serde_json::Number::from_f64)
        .map_or_else(
            || serde_json::Value::String(text.to_string()),
            serde_json::Value::Number,
        )
}

/// How a float is written in answers and proofs: the shortest text that reads back
/// as the same number, always with a decimal point.
pub(crate) fn float_text(f: f64) -> String {
    let s = format!("{f}");
    if s.contains(['.', 'e', 'i', 'N']) {
        s
    } else {
        format!("{s}.0")
    }
}

/// A result kept for repeated questions, with what it weighs (its JSON length).
#[derive(Clone)]
struct CachedResult(Arc<ReasonResult>, u64);

impl crate::cache::Weigh for CachedResult {
    fn weigh(&self) -> u64 {
        self.1
    }
}

/// Knowledge parsed and lowered, ready for the engine's workers.
pub(crate) struct Compiled {
    /// Names every predicate of this program (and nothing else).
    prefix: String,
    program: Program,
    /// Clauses from here on were added by a tool (what_if, what_needs).
    base: usize,
    /// Each clause's named variables.
    vars: Vec<Vec<String>>,
    /// The lowered program: one Prolog term, sent to a worker that has not loaded it.
    text: String,
    /// What the static checks found that bears on answers (as warnings).
    notes: Vec<String>,
    /// Every predicate of the lowered program (defined or called), by name and arity.
    table: std::collections::HashSet<(String, usize)>,
}

#[derive(Clone)]
struct CompiledWeight;

impl quick_cache::Weighter<String, Arc<Compiled>> for CompiledWeight {
    fn weight(&self, key: &String, value: &Arc<Compiled>) -> u64 {
        // The text, its syntax tree and the lowered program are each about the size
        // of the text.
        (key.len() as u64).saturating_mul(3) + 64 * value.program.clauses.len() as u64 + 256
    }
}

/// Runs Euclid-IR questions on engine workers of its own (separate from any
/// knowledge base's, so neither can see the other's predicates), with the same
/// limits and admission control as knowledge base calls.
pub struct Reasoner {
    runtime: Arc<KnowledgeBase>,
    config: ReasonConfig,
    programs: quick_cache::sync::Cache<String, Arc<Compiled>, CompiledWeight>,
    results: AnswerCache<CachedResult>,
    next: AtomicU64,
    /// Calls of the tools served over HTTP and MCP (see `crate::metrics`).
    metrics: crate::metrics::CallMetrics,
}

impl std::fmt::Debug for Reasoner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Reasoner")
            .field("config", &self.config)
            .finish_non_exhaustive()
    }
}

/// The limits of one search.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Limits {
    pub max_solutions: usize,
    pub max_depth: u32,
    pub max_proofs: usize,
}

/// A request checked and compiled, ready for the engine.
struct Prepared {
    compiled: Arc<Compiled>,
    /// What the query itself deserves a warning for.
    warnings: Vec<String>,
    query: Query,
    query_text: String,
    variables: Vec<String>,
    /// The engine query, split where the program goes (`none`, or the program).
    call_head: String,
    call_tail: String,
    max_solutions: usize,
    max_proofs: usize,
    cache_key: Option<String>,
}

impl Reasoner {
    /// A reasoner whose engine has `engine`'s limits (time, inferences, memory,
    /// workers, admission; `answer_cache` bounds its result cache), with the
    /// default [`ReasonConfig`].
    pub fn new(engine: EngineConfig) -> Result<Self, LoadError> {
        Self::with_config(engine, ReasonConfig::default())
    }

    /// A reasoner with both configurations.
    pub fn with_config(engine: EngineConfig, config: ReasonConfig) -> Result<Self, LoadError> {
        let results = AnswerCache::new(engine.answer_cache);
        let runtime = KnowledgeBase::from_source_with("charon-reason.pl", RUNTIME, engine)?;
        let estimated = usize::try_from(config.compiled_cache / (64 << 10))
            .unwrap_or(usize::MAX)
            .clamp(8, 4096);
        Ok(Reasoner {
            programs: quick_cache::sync::Cache::with_weighter(
                estimated,
                config.compiled_cache,
                CompiledWeight,
            ),
            runtime: Arc::new(runtime),
            config,
            results,
            next: AtomicU64::new(0),
            metrics: crate::metrics::CallMetrics::new(
                "tool",
                TOOL_NAMES.iter().map(|t| t.to_string()).collect(),
            ),
        })
    }

    /// The knowledge base of the reasoning engine (it has no operations): the
    /// surfaces use it for health and readiness.
    pub(crate) fn runtime(&self) -> &Arc<KnowledgeBase> {
        &self.runtime
    }

    /// Whether tool calls are counted for the metrics (see
    /// [`KnowledgeBase::count_calls`]; on by default).
    pub fn count_calls(&self, on: bool) {
        self.metrics.set_counting(on);
    }

    /// The tool calls counted for the metrics.
    pub(crate) fn call_metrics(&self) -> &crate::metrics::CallMetrics {
        &self.metrics
    }

    /// The reasoning settings.
    pub fn config(&self) -> &ReasonConfig {
        &self.config
    }

    /// The engine settings.
    pub fn engine_config(&self) -> &EngineConfig {
        self.runtime.config()
    }

    /// Result cache counters.
    pub fn cache_stats(&self) -> crate::CacheStats {
        self.results.stats()
    }

    /// Calls waiting for or running in the reasoning engine now.
    pub fn pending(&self) -> usize {
        self.runtime.pending()
    }

    /// Answers a question, blocking the thread.
    pub fn reason(&self, request: &ReasonRequest) -> ReasonResult {
        match self.prepare(request) {
            Ok(prepared) => self.run(prepared, "reason"),
            Err(done) => done,
        }
    }

    /// Runs a prepared question on the engine, blocking the thread.
    fn run(&self, prepared: Prepared, tool: &str) -> ReasonResult {
        let outcome = match self.runtime.run_read(prepared.query(false), tool) {
            Ok(run) if needs_program(&run) => self.runtime.run_read(prepared.query(true), tool),
            other => other,
        };
        self.finish(prepared, outcome)
    }

    /// Answers `query` over compiled knowledge, blocking the thread (the other
    /// tools ask their questions through this).
    pub(crate) fn solve(
        &self,
        compiled: &Arc<Compiled>,
        query: Query,
        limits: &Limits,
        tool: &str,
    ) -> ReasonResult {
        match self.prepare_query(Arc::clone(compiled), query, limits) {
            Ok(prepared) => self.run(prepared, tool),
            Err(done) => done,
        }
    }

    /// Answers a question from async code; the time limit runs from `arrived`.
    ///
    /// Parsing and checking new knowledge (milliseconds for large texts) happen on
    /// a blocking thread, not on the caller's executor.
    pub async fn reason_async(
        self: &Arc<Self>,
        request: &ReasonRequest,
        arrived: Instant,
    ) -> ReasonResult {
        let this = Arc::clone(self);
        let request = request.clone();
        let prepared = off_thread(move || this.prepare(&request)).await;
        let prepared = match prepared {
            Ok(Ok(p)) => p,
            Ok(Err(done)) => return done,
            Err(why) => return Failure::new(FailureKind::Engine, why).result(),
        };
        let outcome = match self
            .runtime
            .run_read_async(prepared.query(false), "reason", arrived)
            .await
        {
            Ok(run) if needs_program(&run) => {
                self.runtime
                    .run_read_async(prepared.query(true), "reason", arrived)
                    .await
            }
            other => other,
        };
        // Shaping the answer (proof trees, JSON) is heavy for a large one: never on
        // the async executor.
        let this = Arc::clone(self);
        off_thread(move || this.finish(prepared, outcome))
            .await
            .unwrap_or_else(|why| Failure::new(FailureKind::Engine, why).result())
    }

    /// Checks knowledge without running it (see [`check_kb`]).
    pub fn check_kb(&self, knowledge: &str) -> CheckResult {
        check_kb(knowledge, &self.config)
    }

    /// [`check_kb`](Self::check_kb) from async code, on a blocking thread.
    pub async fn check_kb_async(self: &Arc<Self>, knowledge: String) -> CheckResult {
        let this = Arc::clone(self);
        match off_thread(move || this.check_kb(&knowledge)).await {
            Ok(result) => result,
            Err(why) => CheckResult::failed(Failure::new(FailureKind::Engine, why)),
        }
    }

    /// The limits of a request, checked against the configuration.
    fn limits(
        &self,
        max_solutions: Option<usize>,
        max_depth: Option<u32>,
        max_proofs: Option<usize>,
    ) -> Result<Limits, Failure> {
        let limits = Limits {
            max_solutions: max_solutions.unwrap_or(self.config.max_solutions),
            max_depth: max_depth.unwrap_or(self.config.max_depth),
            max_proofs: max_proofs.unwrap_or(self.config.max_proofs),
        };
        if limits.max_depth == 0 || limits.max_depth > self.config.max_depth_limit {
            return Err(Failure::new(
                FailureKind::InvalidRequest,
                format!(
                    "max_depth must be between 1 and {}, and is {}: rules deeper than that are better split, or the search is looping (left recursion)",
                    self.config.max_depth_limit, limits.max_depth
                ),
            ));
        }
        if limits.max_solutions == 0 || limits.max_solutions > self.config.max_solutions_limit {
            return Err(Failure::new(
                FailureKind::InvalidRequest,
                format!(
                    "max_solutions must be between 1 and {}, and is {}: ask for a page of solutions at a time, or narrow the query",
                    self.config.max_solutions_limit, limits.max_solutions
                ),
            ));
        }
        Ok(limits)
    }

    /// The query of a request: its own, or the knowledge's single `? query`.
    fn request_query(&self, compiled: &Compiled, text: Option<&str>) -> Result<Query, Failure> {
        match text {
            Some(text) => {
                let limit = self.config.max_query_chars;
                let length = query_length(text);
                if length > limit {
                    return Err(Failure::new(
                        FailureKind::TooLarge,
                        format!(
                            "the query is {length} characters, over the limit of {limit}: ask a shorter question (put the details in the knowledge), or raise the limit"
                        ),
                    ));
                }
                parse_query(text).map_err(|e| Failure::parse(e, "query"))
            }
            None => match &compiled.program.queries[..] {
                [one] => Ok(one.clone()),
                [] => Err(Failure::new(
                    FailureKind::InvalidQuery,
                    "no query: give one (e.g. ancestor(tom, $who)) or put a `? …` line in the knowledge",
                )),
                many => Err(Failure::new(
                    FailureKind::InvalidQuery,
                    format!(
                        "the knowledge holds {} queries: give the one to answer as the query",
                        many.len()
                    ),
                )),
            },
        }
    }

    /// Everything before the engine: limits, parsing (or the compiled program kept
    /// from before), the query, the result cache. `Err` is a finished result.
    fn prepare(&self, request: &ReasonRequest) -> Result<Prepared, ReasonResult> {
        let limits = self
            .limits(request.max_solutions, request.max_depth, request.max_proofs)
            .map_err(Failure::result)?;
        let compiled = self.compile(&request.knowledge).map_err(Failure::result)?;
        let query = self
            .request_query(&compiled, request.query.as_deref())
            .map_err(Failure::result)?;
        let mut prepared = self.prepare_query(compiled, query, &limits)?;
        // `Who` reads as the constant `who`, as the reference reads it; a Prolog
        // habit that silently asks for a constant deserves a word.
        for name in parse::capitalised_names(request.query.as_deref().unwrap_or_default()) {
            prepared.warnings.push(format!(
                "query: `{name}` is read as the constant `{}` (names fold to lowercase); a variable starts with $ (${})",
                name.to_ascii_lowercase(),
                name.to_ascii_lowercase()
            ));
        }
        Ok(prepared)
    }

    /// [`prepare`](Self::prepare) for a query already parsed.
    fn prepare_query(
        &self,
        compiled: Arc<Compiled>,
        query: Query,
        limits: &Limits,
    ) -> Result<Prepared, ReasonResult> {
        let Limits {
            max_solutions,
            max_depth,
            max_proofs,
        } = *limits;
        let mut issues = Vec::new();
        check::variables(&[], &query.body, query.pos, false, &mut issues);
        if let Some(issue) = issues.iter().find(|i| i.severity == Severity::Error) {
            let mut f = Failure::new(
                FailureKind::InvalidQuery,
                format!("query: {}", issue.message),
            );
            f.line = Some(issue.line);
            f.column = Some(issue.column);
            f.source = Some("query".into());
            return Err(f.result());
        }
        let query_text = query.to_string();
        let variables = proof::query_vars(&query.body);
        let depth = max_depth;
        let (goal, template) = lower::lower_query(&query, &compiled.prefix, depth);
        let mut text = String::with_capacity(goal.len() + template.len() + 128);
        text.push(',');
        write_atom(&mut text, &compiled.prefix);
        // Predicates the query names that the program has not: declared (they fail).
        text.push_str(",[");
        let mut extra: Vec<(String, usize)> = query
            .body
            .iter()
            .filter_map(|l| l.called().map(|a| (a.name.clone(), a.args.len())))
            .filter(|key| !compiled.table.contains(key))
            .collect();
        extra.sort();
        extra.dedup();
        let mut warnings = Vec::new();
        for (name, arity) in &extra {
            let mut others: Vec<usize> = compiled
                .table
                .iter()
                .filter(|(n, _)| n == name)
                .map(|(_, a)| *a)
                .collect();
            others.sort_unstable();
            warnings.push(if others.is_empty() {
                format!(
                    "query: no facts or rules define `{name}/{arity}`, so goals on it fail: check the spelling"
                )
            } else {
                let list: Vec<String> = others.iter().map(usize::to_string).collect();
                format!(
                    "query: `{name}` is asked with {arity} argument(s), but the knowledge has it with {}",
                    list.join(" or ")
                )
            });
        }
        for (i, (name, arity)) in extra.iter().enumerate() {
            if i > 0 {
                text.push(',');
            }
            write_atom(&mut text, &format!("{}{name}", compiled.prefix));
            text.push_str(&format!("/{}", arity + 2));
        }
        text.push_str("],");
        text.push_str(&goal);
        text.push(',');
        text.push_str(&template);
        // The search counts its own inferences (see runtime.pl); the load is not counted.
        let inferences = self.runtime.config().limits.inferences;
        text.push_str(&format!(
            ", {inferences}, {}, R), 0, _).",
            self.config.max_answers
        ));
        let cache_key = self.results.enabled().then(|| {
            format!(
                "{}\n{depth}\n{max_solutions}\n{max_proofs}\n{query_text}",
                compiled.prefix
            )
        });
        if let Some(key) = &cache_key
            && let Some(hit) = self.results.get(key, 0)
        {
            return Err(ReasonResult::clone(&hit.0));
        }
        Ok(Prepared {
            compiled,
            warnings,
            query,
            query_text,
            variables,
            call_head: "'$charon_once'(R, '$e_solve'(".into(),
            call_tail: text,
            max_solutions,
            max_proofs,
            cache_key,
        })
    }

    /// The compiled program of `knowledge`: kept from before, or parsed, lowered and
    /// written now.
    fn compile(&self, knowledge: &str) -> Result<Arc<Compiled>, Failure> {
        if knowledge.len() > self.config.max_knowledge_bytes {
            return Err(too_large(knowledge.len(), self.config.max_knowledge_bytes));
        }
        if knowledge.contains('\0') {
            // Never text: and the keys of programs a tool derives start with it.
            return Err(Failure::new(
                FailureKind::ParseError,
                "the knowledge holds a NUL character: send text",
            ));
        }
        if let Some(found) = self.programs.get(knowledge) {
            return Ok(found);
        }
        let program = parse_knowledge(knowledge).map_err(|e| Failure::parse(e, "knowledge"))?;
        let base = program.clauses.len();
        Ok(self.compile_program(knowledge.to_string(), program, base))
    }

    /// Compiles a program (kept under `key`); clauses from `base` on are not the
    /// knowledge's own (facts a tool added), and their proofs carry no line.
    pub(crate) fn compile_program(
        &self,
        key: String,
        program: Program,
        base: usize,
    ) -> Arc<Compiled> {
        if let Some(found) = self.programs.get(&key) {
            return found;
        }
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        let prefix = format!("e{id}:");
        let issues = check(&program);
        // What check_kb would say that bears on answers: undefined predicates, arity
        // mismatches, NOT and comparisons over variables that may have no value.
        let notes = issues
            .iter()
            .filter(|i| {
                matches!(
                    i.kind.as_str(),
                    "undefined_predicate"
                        | "arity_mismatch"
                        | "unbound_in_negation"
                        | "unbound_in_comparison"
                        | "negation_cycle"
                )
            })
            .map(|i| format!("line {}: {}", i.line, i.message))
            .collect();
        let text = lower::lower_program(&program, &prefix);
        let vars = program
            .clauses
            .iter()
            .map(|c| lower::clause_vars(Some(&c.head), &c.body))
            .collect();
        let table = program
            .clauses
            .iter()
            .map(|c| &c.head)
            .chain(
                program
                    .clauses
                    .iter()
                    .flat_map(|c| &c.body)
                    .chain(program.queries.iter().flat_map(|q| &q.body))
                    .filter_map(ast::Literal::called),
            )
            .map(|a| (a.name.clone(), a.args.len()))
            .collect();
        let compiled = Arc::new(Compiled {
            prefix,
            program,
            base,
            vars,
            text,
            notes,
            table,
        });
        self.programs.insert(key, Arc::clone(&compiled));
        compiled
    }

    /// Shapes the engine's outcome into the result (and caches it).
    fn finish(&self, prepared: Prepared, outcome: Result<RunOutcome, CallError>) -> ReasonResult {
        let result = match outcome {
            Ok(run) => self.answers(&prepared, run.outcome),
            Err(e) => Err(call_failure(e)),
        };
        let result = match result {
            Ok(answers) => ReasonResult::Answered(answers),
            Err(f) => return f.result(),
        };
        let text = serde_json::to_vec(&result).unwrap_or_default();
        if text.len() > self.config.max_answer_bytes {
            return answer_too_large(&format!("{} bytes", self.config.max_answer_bytes)).result();
        }
        if let Some(key) = prepared.cache_key {
            // Held as the typed result (no conversion on a hit), weighed as its JSON.
            let weight = 2 * text.len() as u64;
            self.results
                .insert(key, 0, CachedResult(Arc::new(result.clone()), weight));
        }
        result
    }

    fn answers(&self, prepared: &Prepared, outcome: Outcome) -> Result<Answers, Failure> {
        let limits = &self.runtime.config().limits;
        let term = match outcome {
            Outcome::Solved(term) => term,
            Outcome::InferenceLimit => return Err(inference_limit(limits.inferences)),
            Outcome::MemoryLimit => {
                return Err(Failure::new(
                    FailureKind::MemoryLimit,
                    "the search ran out of memory: narrow the query or the knowledge",
                ));
            }
            Outcome::Exception(PlTerm::Atom(a)) if a == "$e_too_many" => {
                return Err(Failure::new(
                    FailureKind::TooManyAnswers,
                    format!(
                        "the search found more than {} proofs and was stopped, so there is no answer: narrow the query (bind more of its variables), or split it",
                        self.config.max_answers
                    ),
                ));
            }
            Outcome::Exception(e) => return Err(exception_failure(&e)),
            other => {
                return Err(Failure::new(
                    FailureKind::Engine,
                    format!("the engine gave no answer ({other:?})"),
                ));
            }
        };
        if term == PlTerm::Atom("inference_limit".into()) {
            return Err(inference_limit(limits.inferences));
        }

        let engine = |m: String| Failure::new(FailureKind::Engine, m);
        let PlTerm::Compound(r, parts) = &term else {
            return Err(engine("the engine answered in an unexpected shape".into()));
        };
        let (PlTerm::List(found), PlTerm::Atom(exhausted)) = (&parts[0], &parts[1]) else {
            // No answer at all reads as the empty list.
            if r == "r" && parts.len() == 2 && matches!(&parts[0], PlTerm::Str(s) if s.is_empty()) {
                return self.answers_from(prepared, &[], parts[1] == PlTerm::Atom("true".into()));
            }
            return Err(engine("the engine answered in an unexpected shape".into()));
        };
        self.answers_from(prepared, found, exhausted == "true")
    }

    fn answers_from(
        &self,
        prepared: &Prepared,
        found: &[PlTerm],
        exhausted: bool,
    ) -> Result<Answers, Failure> {
        let compiled = &prepared.compiled;
        let renderer = proof::Renderer {
            program: &compiled.program,
            vars: &compiled.vars,
            base: compiled.base,
        };
        let bounds = proof::Bounds {
            max_solutions: prepared.max_solutions,
            max_proofs: prepared.max_proofs,
            max_nodes: self.config.max_proof_nodes,
            max_bytes: self.config.max_answer_bytes,
        };
        let (solutions, solution_count) = proof::solutions(
            &renderer,
            &prepared.query.body,
            &prepared.variables,
            found,
            bounds,
        )
        .map_err(|e| match e {
            proof::RenderError::Shape(m) => Failure::new(FailureKind::Engine, m),
            proof::RenderError::Nodes(n) => answer_too_large(&format!("{n} proof nodes")),
            proof::RenderError::Bytes(n) => answer_too_large(&format!("{n} bytes")),
            proof::RenderError::Rendered(n) => answer_too_large(&format!(
                "{n} proof nodes to sort (the solutions returned have that many proofs in all)"
            )),
        })?;
        let truncated = solution_count > prepared.max_solutions;
        let mut warnings = Vec::new();
        if exhausted {
            warnings.push(
                "the search reached max_depth on some branch and was cut there: solutions may be missing, and a NOT checked at that depth may have held wrongly. Raise max_depth; if the answer keeps changing, a rule recurses without end (left recursion)".to_string(),
            );
        }
        warnings.extend(compiled.notes.iter().cloned());
        warnings.extend(prepared.warnings.iter().cloned());
        Ok(Answers {
            ok: true,
            query: prepared.query_text.clone(),
            variables: prepared.variables.clone(),
            solutions,
            solution_count,
            truncated,
            depth_exhausted: exhausted,
            warnings,
        })
    }
}

impl Prepared {
    /// The engine query: with the program inside it (for a worker that has not
    /// loaded it), or expecting it loaded.
    fn query(&self, with_program: bool) -> String {
        let program = if with_program {
            self.compiled.text.as_str()
        } else {
            "none"
        };
        let mut q =
            String::with_capacity(self.call_head.len() + program.len() + self.call_tail.len());
        q.push_str(&self.call_head);
        q.push_str(program);
        q.push_str(&self.call_tail);
        q
    }
}

/// Whether the worker that ran the call had not loaded the program yet.
fn needs_program(run: &RunOutcome) -> bool {
    matches!(&run.outcome, Outcome::Solved(PlTerm::Atom(a)) if a == "need_program")
}

/// Runs `work` on tokio's blocking pool when called inside tokio (so a long parse
/// does not hold an executor thread), inline otherwise.
pub(crate) async fn off_thread<T: Send + 'static>(
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, String> {
    match tokio::runtime::Handle::try_current() {
        Ok(runtime) => runtime
            .spawn_blocking(work)
            .await
            .map_err(|e| format!("the work's thread failed: {e}")),
        Err(_) => Ok(work()),
    }
}

/// [`off_thread`], with a failed thread shaped as a result by `failed`.
async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> T + Send + 'static,
    failed: impl FnOnce(Failed) -> T,
) -> T {
    match off_thread(work).await {
        Ok(result) => result,
        Err(why) => failed(Failure::new(FailureKind::Engine, why).failed()),
    }
}

/// A query's length as the limit counts it, and as the reference counts it: in
/// characters of the goal itself, without the whitespace around it or a leading
/// `?` or `?-`, in Unicode NFC (a decomposed accent counts once). Linear in the
/// text, which the surface has already bounded.
fn query_length(text: &str) -> usize {
    use unicode_normalization::UnicodeNormalization;
    let goal = text.trim();
    let goal = goal
        .strip_prefix("?-")
        .or_else(|| goal.strip_prefix('?'))
        .unwrap_or(goal)
        .trim();
    goal.nfc().count()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reasoner with one worker and no result cache: every call reaches the engine.
    fn one_worker() -> Reasoner {
        Reasoner::new(EngineConfig {
            workers: 1,
            answer_cache: 0,
            ..EngineConfig::default()
        })
        .expect("reasoner")
    }

    /// The engine side checks what lowering emits again: programs and queries that
    /// lowering never writes (as if it had a bug) are refused before anything runs.
    #[test]
    fn the_engine_refuses_programs_and_queries_outside_the_allow_list() {
        let reasoner = one_worker();
        let marker = std::env::temp_dir().join(format!("charon-refused-{}", std::process::id()));
        let touch = format!("open('{}', write, S), close(S)", marker.display());
        let prepared =
            |knowledge: &str| match reasoner.prepare(&ReasonRequest::new(knowledge, "p($x)")) {
                Ok(p) => p,
                Err(r) => panic!("not prepared: {r:?}"),
            };
        let refused = |result: Result<RunOutcome, CallError>| match result {
            Ok(run) => {
                matches!(&run.outcome, Outcome::Exception(PlTerm::Compound(f, _)) if f == "euclid_refused")
            }
            Err(e) => panic!("{e}"),
        };
        // Each program is sent to a worker that has not loaded its prefix.
        let hostile = [
            format!("'$e_program'([],[('e0:p'(X,D,r(0,v,c)) :- '$e_deeper'(D,E), {touch})])"),
            "'$e_program'([],[('e1:p'(X,D,r(0,v,c)) :- '$e_deeper'(D,E), halt)])".to_string(),
            "'$e_program'([],[('e2:p'(X,D,r(0,v,c)) :- '$e_deeper'(D,E), \\+ halt)])".to_string(),
            "'$e_program'([],[('e3:p'(X,D,r(0,v,c)) :- '$e_deeper'(D,E), X is shell(ls))])"
                .to_string(),
            "'$e_program'([],[('e4:p'(X,D,r(0,v,c)) :- '$e_deeper'(D,E), '$e_num'(halt))])"
                .to_string(),
            "'$e_program'([],[('e5:p'(X,D,r(0,v,c)) :- halt)])".to_string(),
            "'$e_program'([],[halt(a,b,c)])".to_string(),
            "'$e_program'([],['e0:p'(a,_,0)])".to_string(),
            "'$e_program'([halt/2],['e8:p'(a,_,0)])".to_string(),
            "'$e_program'([],[('e9:p'(X,D,P) :- '$e_deeper'(D,E), call('e9:p'(X,E,P)))])"
                .to_string(),
            // A fact that would replace the wrapper's own predicate.
            "'$e_program'([],['$charon_once'(a,b,c,d)])".to_string(),
            // A predicate split in two groups (the second would replace the first),
            // and groups out of order.
            "'$e_program'([],['e11:p'(a,_,0),'e11:q'(a,_,1),'e11:p'(b,_,2)])".to_string(),
            "'$e_program'([],['e12:q'(a,_,0),'e12:p'(a,_,1)])".to_string(),
        ];
        for (i, program) in hostile.iter().enumerate() {
            let knowledge = format!("p(a)\n# program {i}\n");
            let prepared = prepared(&knowledge);
            assert_eq!(prepared.compiled.prefix, format!("e{i}:"));
            let query = format!("{}{program}{}", prepared.call_head, prepared.call_tail);
            assert!(
                refused(reasoner.runtime.run_read(query, "test")),
                "program {i} ran: {program}"
            );
        }
        // A query outside the list is refused too, with the program loaded.
        let prepared = prepared("p(a)\n# loaded\n");
        assert!(
            matches!(reasoner.runtime.run_read(prepared.query(true), "test"), Ok(ref r) if !needs_program(r))
        );
        let original = format!("'e{}:p'(V0,50,P0)", hostile.len());
        for goal in ["halt", &touch, "\\+ halt", "call(halt)"] {
            let tail = prepared
                .call_tail
                .replacen(&original, &format!("({goal}, {original})"), 1);
            assert_ne!(tail, prepared.call_tail, "the goal is in the tail");
            let query = format!("{}none{tail}", prepared.call_head);
            assert!(
                refused(reasoner.runtime.run_read(query, "test")),
                "query ran: {goal}"
            );
        }
        assert!(!marker.exists(), "a refused program wrote a file");
        // The engine answers as before.
        assert!(reasoner.reason(&ReasonRequest::new("p(a)", "p($x)")).ok());
    }

    /// Past the allow-list, a clause the engine's loader refuses rolls the whole
    /// load back and leaves the worker answering.
    #[test]
    fn a_load_the_engine_refuses_leaves_nothing_behind() {
        let reasoner = one_worker();
        let run = |goal: &str| {
            let query = format!("'$charon_once'(R, {goal}, 0, _).");
            reasoner
                .runtime
                .run_read(query, "test")
                .expect("answers")
                .outcome
        };
        let refused = run("'$e_compile'(['t:p'(a,_,0),'t:p'(b,_,1),'t:q'(a,_,2),3])");
        assert!(
            matches!(&refused, Outcome::Exception(PlTerm::Compound(f, _)) if f == "error"),
            "{refused:?}"
        );
        // The group compiled before the refusal is gone with the rest.
        let gone = run("'t:p'(X,_,_)");
        assert!(
            matches!(&gone, Outcome::Exception(PlTerm::Compound(f, a)) if f == "error" && a[0].to_string().contains("existence_error")),
            "{gone:?}"
        );
        assert!(matches!(
            run("'$e_compile'(['u:p'(a,_,0)])"),
            Outcome::Solved(_)
        ));
        assert!(matches!(run("'u:p'(a,_,_)"), Outcome::Solved(_)));
        assert!(reasoner.reason(&ReasonRequest::new("p(a)", "p($x)")).ok());
    }
}
