//! `diagnose`: why a goal holds (its proofs), why it does not (the premises that
//! failed, found by re-running the search one body goal at a time), and what would
//! make it hold (abduction: sets of facts that, added, give it a proof).
//!
//! Every step is a question to the engine over the same compiled knowledge, so
//! what the diagnosis says is what the search did, not a guess from names. The
//! questions are counted and bounded (`max_steps`, the time limit); a diagnosis
//! cut short by a bound says so with `complete: false`.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::ast::{Atom, Literal, Program, Query};
use super::subst::{Subst, term_of};
use super::{Answers, Compiled, Failed, Failure, Limits, ReasonResult, Reasoner, Solution, count};
use crate::reason::ProofNode;

mod what_needs;
mod why_not;

use why_not::leaves;

/// What to explain.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DiagnoseMode {
    /// The proofs of a goal that holds.
    Why,
    /// The premises that failed, for a goal that does not hold.
    WhyNot,
    /// Facts that, added, would make the goal hold.
    WhatNeeds,
}

/// A request for [`Reasoner::diagnose`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DiagnoseRequest {
    /// Facts and rules in Euclid-IR (text or YAML form).
    pub knowledge: String,
    /// The goal, e.g. `mortal(plato)`; when left out, the knowledge's own `? query`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub query: Option<String>,
    /// `why`, `why_not` or `what_needs`.
    pub mode: DiagnoseMode,
    /// Most rule applications along one branch of each search.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "count"
    )]
    pub max_depth: Option<u32>,
    /// `what_needs`: most facts in one proposal (default 3).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "count"
    )]
    pub max_facts: Option<usize>,
    /// `what_needs`: most proposals returned (default 5).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "count"
    )]
    pub max_proposals: Option<usize>,
}

impl DiagnoseRequest {
    /// A request with the default limits.
    pub fn new(knowledge: impl Into<String>, query: impl Into<String>, mode: DiagnoseMode) -> Self {
        DiagnoseRequest {
            knowledge: knowledge.into(),
            query: Some(query.into()),
            mode,
            max_depth: None,
            max_facts: None,
            max_proposals: None,
        }
    }
}

/// The answer to a [`DiagnoseRequest`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum DiagnoseResult {
    /// `ok: true`.
    Diagnosed(Box<Diagnosis>),
    /// `ok: false`, and why.
    Failed(Failed),
}

impl DiagnoseResult {
    /// Whether the diagnosis was made.
    pub fn ok(&self) -> bool {
        matches!(self, DiagnoseResult::Diagnosed(_))
    }
}

/// A diagnosis.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Diagnosis {
    /// Always true.
    pub ok: bool,
    /// The mode asked for.
    pub mode: DiagnoseMode,
    /// The goal, as Euclid-IR.
    pub query: String,
    /// Whether the goal holds as the knowledge stands.
    pub holds: bool,
    /// The diagnosis in one sentence.
    pub conclusion: String,
    /// What was found, one line each: the failed premises (why_not), the
    /// solutions (why), the proposals (what_needs).
    pub findings: Vec<String>,
    /// False when a bound (steps, depth, time, proposal size) cut the analysis
    /// short: more may be found with larger bounds.
    pub complete: bool,
    /// The solutions with their proofs, when the goal holds.
    pub solutions: Vec<Solution>,
    /// why_not (and why, for a goal that does not hold): how the search failed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trace: Option<FailedGoal>,
    /// what_needs: sets of facts, each verified to make the goal hold.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub proposals: Option<Vec<Proposal>>,
    /// Things worth knowing (undefined predicates, bounds hit).
    pub warnings: Vec<String>,
}

/// Why one goal failed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FailedGoal {
    /// The goal, with the values it had, as Euclid-IR.
    pub goal: String,
    /// How it failed.
    pub reason: FailReason,
    /// The same, for people.
    pub message: String,
    /// Each rule whose head matched the goal, and where its body failed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub attempts: Vec<Attempt>,
    /// `negated_goal_holds`: the proof of the goal under NOT.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub proof: Option<ProofNode>,
    /// `no_matching_fact`: the facts of the predicate closest to the goal.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub closest: Vec<String>,
}

/// Kinds of [`FailedGoal`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FailReason {
    /// No fact or rule defines the predicate (maybe another arity does).
    Undefined,
    /// The predicate has facts only, and none matches.
    NoMatchingFact,
    /// The predicate has rules, but no rule's head (and no fact) matches.
    NoMatchingRule,
    /// Every rule whose head matched failed in its body (see `attempts`).
    RulesFailed,
    /// `NOT g` failed because `g` holds (see `proof`).
    NegatedGoalHolds,
    /// A comparison was false for every value that reached it.
    ComparisonFalse,
    /// The search was cut at `max_depth`: the goal may hold deeper.
    DepthLimit,
    /// The goal is already being traced above (the rules recurse).
    Recursion,
    /// A bound stopped the trace here.
    NotTraced,
    /// The goal could not be evaluated (the engine's message says why).
    Error,
    /// The goal is `false`, which never holds.
    AlwaysFalse,
}

/// One rule tried for a failed goal.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Attempt {
    /// The rule, as written.
    pub rule: String,
    /// Its line (the query's, for the query itself).
    pub line: usize,
    /// The rule's identifier, when the knowledge names it (`# rule: R-12`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule_id: Option<String>,
    /// The body goal that failed, counted from 1.
    pub failed_at: usize,
    /// That goal with the values it had (the first set that reached it).
    pub failed_goal: String,
    /// Distinct sets of values that reached the failed goal (every earlier goal
    /// held for each).
    pub reached: usize,
    /// The rule's variables with those values (first set), without `$`.
    pub bindings: BTreeMap<String, Value>,
    /// Why the failed goal failed, for the first sets of values that reached it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub because: Vec<FailedGoal>,
}

/// Facts that, added to the knowledge, make the goal hold.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Proposal {
    /// The facts, as Euclid-IR, sorted.
    pub facts: Vec<String>,
    /// Solutions of the goal with them added (verified by running it).
    pub solution_count: usize,
    /// Verified: without any one of the facts, the goal does not hold.
    pub minimal: bool,
}

/// Engine questions one diagnosis may ask while it searches.
const MAX_STEPS: usize = 400;
/// Engine questions it may ask to verify what_needs proposals.
const MAX_CHECKS: usize = 120;
/// Each verification loads the knowledge again (with the proposal's facts) into a
/// worker, which keeps it until recycled: the loads of one diagnosis stay under
/// this many bytes of lowered program (but at least four loads).
const CHECK_BYTES: usize = 8 << 20;
/// Value sets followed into a failed goal.
const FOLLOW: usize = 3;
/// Goals one why_not trace may follow.
const MAX_TRACE_NODES: usize = 2_000;
/// Rule levels one why_not trace may follow (four JSON levels each).
const MAX_TRACE_LEVELS: u32 = 24;
/// Branches one abduction search may open.
const MAX_NODES: usize = 20_000;
/// Goals one branch may hold (rules that multiply goals stop here).
const MAX_GOALS: usize = 256;
/// Answers of one step taken into the abduction search.
const BRANCH: usize = 16;

/// The state of one diagnosis: the knowledge, the budget, what went wrong.
struct Session<'r> {
    reasoner: &'r Reasoner,
    compiled: Arc<Compiled>,
    limits: Limits,
    /// Clause indexes by predicate.
    clauses: HashMap<(String, usize), Vec<usize>>,
    steps: usize,
    checks: usize,
    deadline: Instant,
    /// Goals traced (why_not), by their canonical text: each is traced once.
    traced: BTreeSet<String>,
    trace_nodes: usize,
    /// A failure that ends the diagnosis (overload, time, memory).
    fatal: Option<Failure>,
    /// Answers already asked for, by question (the same goal recurs in a search).
    seen: HashMap<String, Found>,
    /// Goals a proposal would need as facts, but with arguments nothing gave a value.
    ungrounded: BTreeSet<String>,
    complete: bool,
    warnings: BTreeSet<String>,
    renames: usize,
}

impl<'r> Session<'r> {
    fn new(reasoner: &'r Reasoner, compiled: Arc<Compiled>, limits: Limits) -> Self {
        let mut clauses: HashMap<(String, usize), Vec<usize>> = HashMap::new();
        for (i, c) in compiled.program.clauses.iter().enumerate() {
            clauses
                .entry((c.head.name.clone(), c.head.args.len()))
                .or_default()
                .push(i);
        }
        let time = reasoner.engine_config().limits.time;
        Session {
            reasoner,
            compiled,
            limits,
            clauses,
            steps: 0,
            checks: 0,
            traced: BTreeSet::new(),
            trace_nodes: 0,
            fatal: None,
            seen: HashMap::new(),
            ungrounded: BTreeSet::new(),
            deadline: Instant::now() + time.max(Duration::from_millis(100)),
            complete: true,
            warnings: BTreeSet::new(),
            renames: 0,
        }
    }

    fn program(&self) -> &Program {
        &self.compiled.program
    }

    fn clauses_of(&self, a: &Atom) -> &[usize] {
        self.clauses
            .get(&(a.name.clone(), a.args.len()))
            .map_or(&[], Vec::as_slice)
    }

    /// Whether another question fits the budget (and notes it when not).
    fn budget(&mut self) -> bool {
        if self.steps >= MAX_STEPS || Instant::now() >= self.deadline {
            self.complete = false;
            self.warnings.insert(format!(
                "the diagnosis stopped after {} engine questions (bounded by {MAX_STEPS} and the time limit): what it found holds, but it may not be all",
                self.steps
            ));
            return false;
        }
        true
    }

    /// Asks the engine for the answers of `body`. `Err` carries the failure (a
    /// limit hit, a goal that cannot be evaluated as written).
    fn ask(&mut self, body: Vec<Literal>, limits: Limits) -> Result<Option<Answers>, Failure> {
        if !self.budget() {
            return Ok(None);
        }
        self.steps += 1;
        let query = Query {
            body,
            pos: Default::default(),
        };
        match self
            .reasoner
            .solve(&self.compiled, query, &limits, "diagnose")
        {
            ReasonResult::Answered(a) => Ok(Some(a)),
            ReasonResult::Failed(f) => Err(f.error),
        }
    }

    /// The value sets of `body`'s answers, as substitutions; `None` when the budget
    /// ran out; `exhausted` when the search was cut at the depth bound.
    fn answers(&mut self, body: &[Literal], cap: usize) -> Result<Option<Found>, Failure> {
        let key = format!(
            "{cap}\u{0}{}",
            Query {
                body: body.to_vec(),
                pos: Default::default()
            }
        );
        if let Some(found) = self.seen.get(&key) {
            return Ok(Some(found.clone()));
        }
        let found = self.answers_now(body, cap)?;
        if let Some(found) = &found {
            self.seen.insert(key, found.clone());
        }
        Ok(found)
    }

    fn answers_now(&mut self, body: &[Literal], cap: usize) -> Result<Option<Found>, Failure> {
        let limits = Limits {
            max_solutions: cap,
            max_depth: self.limits.max_depth,
            max_proofs: 0,
        };
        let Some(answers) = self.ask(body.to_vec(), limits)? else {
            return Ok(None);
        };
        if answers.depth_exhausted {
            self.complete = false;
        }
        let sets = answers
            .solutions
            .iter()
            .map(|s| {
                s.bindings
                    .iter()
                    .filter_map(|(k, v)| Some((k.clone(), term_of(v)?)))
                    .collect()
            })
            .collect();
        Ok(Some(Found {
            sets,
            total: answers.solution_count,
            exhausted: answers.depth_exhausted,
        }))
    }

    fn fresh(&mut self) -> usize {
        self.renames += 1;
        self.renames
    }

    // ----- why_not -------------------------------------------------------------
}

/// An atom's text with its variables numbered by first appearance: the same goal
/// whatever its variables were renamed to.
fn canonical(a: &Atom) -> String {
    fn term<'a>(t: &'a super::ast::Term, seen: &mut Vec<&'a str>, out: &mut String) {
        match t {
            super::ast::Term::Var(v) => {
                let i = seen.iter().position(|s| s == v).unwrap_or_else(|| {
                    seen.push(v);
                    seen.len() - 1
                });
                out.push_str(&format!("_{i}"));
            }
            super::ast::Term::Compound(f, args) => {
                out.push_str(f);
                out.push('(');
                for a in args {
                    term(a, seen, out);
                    out.push(',');
                }
                out.push(')');
            }
            other => out.push_str(&other.to_string()),
        }
    }
    let mut seen: Vec<&str> = Vec::new();
    let mut out = a.name.clone();
    out.push('(');
    for t in &a.args {
        term(t, &mut seen, &mut out);
        out.push(',');
    }
    out.push(')');
    out
}

/// The same atom, wherever written.
fn same_atom(a: &Atom, b: &Atom) -> bool {
    a.name == b.name && a.args == b.args
}

fn ground_term(t: &super::ast::Term) -> bool {
    t.is_ground()
}

/// Answers of one engine question.
#[derive(Clone)]
struct Found {
    /// The value sets returned (at most the cap asked for).
    sets: Vec<Subst>,
    /// All distinct answers.
    total: usize,
    /// The search was cut at the depth bound.
    exhausted: bool,
}

impl Reasoner {
    /// Explains a goal (see [`DiagnoseMode`]), blocking the thread.
    pub fn diagnose(&self, request: &DiagnoseRequest) -> DiagnoseResult {
        self.diagnosis(request).map_or_else(
            |f| DiagnoseResult::Failed(f.failed()),
            |d| DiagnoseResult::Diagnosed(Box::new(d)),
        )
    }

    /// [`diagnose`](Self::diagnose) from async code, on a blocking thread.
    pub async fn diagnose_async(self: &Arc<Self>, request: DiagnoseRequest) -> DiagnoseResult {
        let this = Arc::clone(self);
        super::blocking(move || this.diagnose(&request), DiagnoseResult::Failed).await
    }

    fn diagnosis(&self, request: &DiagnoseRequest) -> Result<Diagnosis, Failure> {
        let limits = self.limits(None, request.max_depth, Some(self.config.max_proofs))?;
        let compiled = self.compile(&request.knowledge)?;
        let query = self.request_query(&compiled, request.query.as_deref())?;
        // The goal itself, answered as `reason` would.
        let first = match self.solve(&compiled, query.clone(), &limits, "diagnose") {
            ReasonResult::Answered(a) => a,
            ReasonResult::Failed(f) => return Err(f.error),
        };
        let holds = !first.solutions.is_empty();
        let mut session = Session::new(self, Arc::clone(&compiled), limits);
        session.warnings.extend(first.warnings.iter().cloned());
        if first.depth_exhausted {
            session.complete = false;
        }
        let query_text = first.query.clone();
        let mut diagnosis = Diagnosis {
            ok: true,
            mode: request.mode,
            query: query_text.clone(),
            holds,
            conclusion: String::new(),
            findings: Vec::new(),
            complete: true,
            solutions: Vec::new(),
            trace: None,
            proposals: None,
            warnings: Vec::new(),
        };
        if holds {
            diagnosis.findings = first
                .solutions
                .iter()
                .map(|s| match s.proofs.first() {
                    Some(p) => format!("{} ({} proof(s))", p.goal, s.proof_count),
                    None => query_text.clone(),
                })
                .collect();
            diagnosis.conclusion = match request.mode {
                DiagnoseMode::WhatNeeds => format!(
                    "{query_text} already holds ({} solution(s)): nothing needs to be added",
                    first.solution_count
                ),
                _ => format!(
                    "{query_text} holds: {} solution(s), each with its proof",
                    first.solution_count
                ),
            };
            if request.mode == DiagnoseMode::WhatNeeds {
                diagnosis.proposals = Some(Vec::new());
            }
            diagnosis.solutions = first.solutions;
        } else if request.mode == DiagnoseMode::WhatNeeds {
            self.what_needs(request, &query, &mut session, &mut diagnosis);
        } else {
            let trace = self.trace(&query, &mut session);
            leaves(&trace, &mut diagnosis.findings);
            diagnosis.conclusion = match diagnosis.findings.first() {
                Some(first) => format!("{query_text} does not hold: {first}"),
                None => format!("{query_text} does not hold"),
            };
            diagnosis.trace = Some(trace);
        }
        if let Some(fatal) = session.fatal.take() {
            return Err(fatal);
        }
        diagnosis.complete = session.complete;
        diagnosis.warnings = session.warnings.into_iter().collect();
        Ok(diagnosis)
    }
}
