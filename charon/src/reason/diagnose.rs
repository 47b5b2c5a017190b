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

use super::ast::{Atom, Clause, CmpOp, Literal, Program, Query};
use super::subst::{
    Subst, apply, apply_atom, eval, ground, rename, rename_atom, resolve_deep, same_value, show,
    term_of, unify_atoms,
};
use super::{
    Answers, Compiled, Failed, Failure, FailureKind, Limits, ReasonResult, Reasoner, Solution,
    count,
};
use crate::reason::ProofNode;

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

    /// Why `goal` has no proof; `path` holds the goals being traced above it.
    fn why_not(&mut self, goal: &Atom, path: &mut Vec<String>) -> FailedGoal {
        let text = show(goal);
        let key = canonical(goal);
        let node = |reason, message: String| FailedGoal {
            goal: text.clone(),
            reason,
            message,
            attempts: Vec::new(),
            proof: None,
            closest: Vec::new(),
        };
        if goal.truth() == Some(false) {
            return node(
                FailReason::AlwaysFalse,
                "`false` never holds: a rule with it in its body proves nothing (facts for its head can come with the request)".into(),
            );
        }
        let indexes = self.clauses_of(goal).to_vec();
        if indexes.is_empty() {
            let mut others: Vec<usize> = self
                .program()
                .clauses
                .iter()
                .filter(|c| c.head.name == goal.name)
                .map(|c| c.head.args.len())
                .collect();
            others.sort_unstable();
            others.dedup();
            let message = if others.is_empty() {
                format!(
                    "no facts or rules define `{}/{}`, so every goal on it fails: add facts or a rule whose head is {}(…), or check the spelling",
                    goal.name,
                    goal.args.len(),
                    goal.name
                )
            } else {
                let list: Vec<String> = others.iter().map(usize::to_string).collect();
                format!(
                    "`{}` is defined with {} argument(s), not {}: check the goal's arguments",
                    goal.name,
                    list.join(" or "),
                    goal.args.len()
                )
            };
            return node(FailReason::Undefined, message);
        }
        if path.contains(&key) {
            return node(
                FailReason::Recursion,
                format!("{text} is already being traced above: the rules recurse through it"),
            );
        }
        // Each level nests four JSON levels: past this many, common readers stop.
        let levels = self.limits.max_depth.min(MAX_TRACE_LEVELS);
        if path.len() as u32 >= levels {
            self.complete = false;
            return node(
                FailReason::NotTraced,
                format!("not traced further: {levels} rule levels reached"),
            );
        }
        if !self.traced.insert(key.clone()) {
            return node(
                FailReason::NotTraced,
                format!("{text} failed as traced where it first appears in this trace"),
            );
        }
        self.trace_nodes += 1;
        if self.trace_nodes > MAX_TRACE_NODES || Instant::now() >= self.deadline {
            self.complete = false;
            self.warnings.insert(format!(
                "the trace stopped after {MAX_TRACE_NODES} goals or at the time limit: it shows where the search failed first, not every branch"
            ));
            return node(
                FailReason::NotTraced,
                "not traced: the trace reached its bounds".into(),
            );
        }
        let (facts, rules): (Vec<usize>, Vec<usize>) = indexes
            .iter()
            .partition(|&&i| self.program().clauses[i].is_fact());
        if rules.is_empty() {
            let closest = self.closest(goal, &facts);
            let mut n = node(
                FailReason::NoMatchingFact,
                format!(
                    "no fact matches {text} ({} fact(s) of {}/{} exist)",
                    facts.len(),
                    goal.name,
                    goal.args.len()
                ),
            );
            n.closest = closest;
            return n;
        }
        path.push(key);
        let mut attempts = Vec::new();
        let mut cut = false;
        for &i in &rules {
            let clause = self.program().clauses[i].clone();
            let n = self.fresh();
            let head = rename_atom(&clause.head, n);
            let Some(s) = unify_atoms(goal, &head, &Subst::new()) else {
                continue;
            };
            let body: Vec<Literal> = clause
                .body
                .iter()
                .map(|l| apply(&rename(l, n), &s))
                .collect();
            match self.attempt(&clause, &body, n, &s, path) {
                Ok(Some(a)) => attempts.push(a),
                Ok(None) => {}
                Err(limit) => {
                    cut |= limit;
                }
            }
        }
        path.pop();
        let matched_facts = !facts.is_empty();
        if attempts.is_empty() {
            if cut {
                return node(
                    FailReason::DepthLimit,
                    format!(
                        "the search for {text} was cut at max_depth ({}): it may hold deeper; raise max_depth",
                        self.limits.max_depth
                    ),
                );
            }
            let mut n = node(
                FailReason::NoMatchingRule,
                format!(
                    "no rule's head matches {text}{}",
                    if matched_facts {
                        ", and no fact does"
                    } else {
                        ""
                    }
                ),
            );
            n.closest = self.closest(goal, &facts);
            return n;
        }
        let lines: Vec<String> = attempts
            .iter()
            .map(|a| format!("line {}", a.line))
            .collect();
        FailedGoal {
            goal: text.clone(),
            reason: FailReason::RulesFailed,
            message: format!(
                "every rule for {text} failed ({}){}",
                lines.join(", "),
                if matched_facts {
                    ", and no fact matches"
                } else {
                    ""
                }
            ),
            attempts,
            proof: None,
            closest: Vec::new(),
        }
    }

    /// Runs a rule's body (head already unified) one goal further each time, to
    /// find the first goal that no value set gets past. `Ok(None)` when the body
    /// holds (the goal holds through this rule), `Err(true)` when the search was
    /// cut at the depth bound.
    fn attempt(
        &mut self,
        clause: &Clause,
        body: &[Literal],
        n: usize,
        head: &Subst,
        path: &mut Vec<String>,
    ) -> Result<Option<Attempt>, bool> {
        let mut reaching: Vec<Subst> = vec![Subst::new()];
        let mut total = 1;
        for k in 0..body.len() {
            let found = match self.answers(&body[..=k], FOLLOW) {
                Ok(Some(found)) => found,
                Ok(None) => return Err(false),
                Err(f) => {
                    match f.kind {
                        // The goal cannot run as written at this point (e.g. a
                        // comparison over a variable with no value): a finding.
                        FailureKind::Arithmetic
                        | FailureKind::InvalidQuery
                        | FailureKind::InvalidKnowledge => {}
                        // The engine could not answer now: the diagnosis fails.
                        FailureKind::Overloaded
                        | FailureKind::TimeLimit
                        | FailureKind::MemoryLimit
                        | FailureKind::Engine => {
                            self.fatal.get_or_insert(f);
                            return Err(false);
                        }
                        // Too large a question: this part is not traced.
                        _ => {
                            self.complete = false;
                            self.warnings.insert(format!("not traced: {}", f.message));
                            return Err(false);
                        }
                    }
                    return Ok(Some(self.failed_attempt(
                        clause,
                        body,
                        k,
                        n,
                        head,
                        &reaching,
                        total,
                        vec![FailedGoal {
                            goal: show(&body[k]),
                            reason: FailReason::Error,
                            message: f.message,
                            attempts: Vec::new(),
                            proof: None,
                            closest: Vec::new(),
                        }],
                    )));
                }
            };
            if found.sets.is_empty() {
                if found.exhausted {
                    return Err(true);
                }
                let mut because = Vec::new();
                for s in reaching.iter().take(FOLLOW) {
                    because.push(self.why_literal(&apply(&body[k], s), path));
                }
                return Ok(Some(self.failed_attempt(
                    clause, body, k, n, head, &reaching, total, because,
                )));
            }
            reaching = found.sets;
            total = found.total;
        }
        Ok(None)
    }

    #[allow(clippy::too_many_arguments)]
    fn failed_attempt(
        &self,
        clause: &Clause,
        body: &[Literal],
        k: usize,
        n: usize,
        head: &Subst,
        reaching: &[Subst],
        total: usize,
        because: Vec<FailedGoal>,
    ) -> Attempt {
        let first = reaching.first().cloned().unwrap_or_default();
        let mut bindings = BTreeMap::new();
        for v in super::lower::clause_vars(Some(&clause.head), &clause.body) {
            let renamed = format!("{v}#{n}");
            let t = resolve_deep(&resolve_deep(&super::ast::Term::Var(renamed), head), &first);
            let value = match t {
                super::ast::Term::Const(c) => Value::String(c),
                super::ast::Term::Number(x) => super::number_value(&x),
                compound @ super::ast::Term::Compound(..) if compound.is_ground() => {
                    Value::String(compound.to_string())
                }
                _ => continue,
            };
            bindings.insert(v, value);
        }
        Attempt {
            rule: clause.to_string(),
            line: clause.pos.line,
            rule_id: clause.id.clone(),
            failed_at: k + 1,
            failed_goal: show(apply(&body[k], &first)),
            reached: total,
            bindings,
            because,
        }
    }

    /// Why one body goal failed for one set of values.
    fn why_literal(&mut self, lit: &Literal, path: &mut Vec<String>) -> FailedGoal {
        match lit {
            Literal::Pos(a) => self.why_not(a, path),
            Literal::Not(a) => {
                let limits = Limits {
                    max_solutions: 1,
                    max_depth: self.limits.max_depth,
                    max_proofs: 1,
                };
                let proof = match self.ask(vec![Literal::Pos(a.clone())], limits) {
                    Ok(Some(answers)) => answers
                        .solutions
                        .into_iter()
                        .next()
                        .and_then(|s| s.proofs.into_iter().next()),
                    _ => None,
                };
                FailedGoal {
                    goal: show(lit),
                    reason: FailReason::NegatedGoalHolds,
                    message: format!(
                        "NOT {} failed because {} holds{}",
                        show(a),
                        proof.as_ref().map_or_else(|| show(a), |p| p.goal.clone()),
                        if proof.is_some() { " (see proof)" } else { "" }
                    ),
                    attempts: Vec::new(),
                    proof,
                    closest: Vec::new(),
                }
            }
            Literal::Compare(c) => FailedGoal {
                goal: show(lit),
                reason: FailReason::ComparisonFalse,
                message: format!("the comparison {} is false", show(c)),
                attempts: Vec::new(),
                proof: None,
                closest: Vec::new(),
            },
        }
    }

    /// The facts among `facts` sharing the most constant arguments with `goal`.
    fn closest(&self, goal: &Atom, facts: &[usize]) -> Vec<String> {
        // Most arguments in common first; among as many, earlier arguments count
        // more (the first is usually the key). Only the best are shown.
        let mut scored: Vec<((usize, Vec<bool>), usize)> = facts
            .iter()
            .map(|&i| {
                let head = &self.program().clauses[i].head;
                let same: Vec<bool> = goal
                    .args
                    .iter()
                    .zip(&head.args)
                    .map(|(g, h)| ground_term(g) && g == h)
                    .collect();
                ((same.iter().filter(|s| **s).count(), same), i)
            })
            .filter(|((score, _), _)| *score > 0)
            .collect();
        scored.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        let best = scored.first().map(|(key, _)| key.clone());
        scored
            .iter()
            .filter(|(key, _)| Some(key) == best.as_ref())
            .take(3)
            .map(|&(_, i)| {
                let c = &self.program().clauses[i];
                format!("{} (line {})", c.head, c.pos.line)
            })
            .collect()
    }

    // ----- what_needs ----------------------------------------------------------

    /// Goal-directed abduction: sets of ground facts over base predicates (facts
    /// only, or undefined) that complete a proof of `goals`.
    fn abduce(&mut self, first: Abduction, out: &mut BTreeSet<Vec<String>>, max_facts: usize) {
        // Depth first, on a stack of its own (a branch may grow long: no recursion).
        let mut stack = vec![first];
        let mut nodes = 0;
        while let Some(task) = stack.pop() {
            nodes += 1;
            if nodes > MAX_NODES || (nodes % 64 == 0 && Instant::now() >= self.deadline) {
                self.complete = false;
                self.warnings.insert(format!(
                    "the search for missing facts stopped after {} branches (bounded by {MAX_NODES} and the time limit)",
                    nodes - 1
                ));
                return;
            }
            let children = self.abduce_step(task, out, max_facts);
            stack.extend(children.into_iter().rev());
        }
    }

    /// One step of [`abduce`](Self::abduce): the branches it opens, in order.
    fn abduce_step(
        &mut self,
        task: Abduction,
        out: &mut BTreeSet<Vec<String>>,
        max_facts: usize,
    ) -> Vec<Abduction> {
        let mut children = Vec::new();
        let Abduction {
            mut goals,
            subst,
            assumed,
            deferred,
        } = task;
        if assumed.len() > max_facts || goals.len() > MAX_GOALS {
            if goals.len() > MAX_GOALS {
                self.complete = false;
            }
            return children;
        }
        // The first goal that can be taken now.
        let Some(at) = goals
            .iter()
            .position(|(l, _)| self.ready(l, &subst, &deferred))
        else {
            // A variable only a comparison constrains (`tenure($u, $y) AND $y >= 3`)
            // gets a value that satisfies it; the verification run has the last word.
            if let Some(s) = witness(&goals, &subst) {
                return vec![Abduction {
                    goals,
                    subst: s,
                    assumed,
                    deferred,
                }];
            }
            if goals.iter().all(|(l, _)| matches!(l, Literal::Not(_))) {
                // NOT goals are left to the verification run.
                let mut set: Vec<String> = assumed.iter().map(|a| a.to_string()).collect();
                set.sort();
                set.dedup();
                out.insert(set);
            } else {
                if let Some((l, _)) = goals.iter().find(|(l, _)| !matches!(l, Literal::Not(_))) {
                    self.ungrounded.insert(show(apply(l, &subst)));
                }
                self.complete = false;
            }
            return children;
        };
        if !self.budget() {
            return children;
        }
        let (lit, depth) = goals.remove(at);
        let lit = apply(&lit, &subst);
        if let Some(holds) = lit.truth() {
            // `true` needs nothing; `false` closes the branch (no fact can make it hold).
            if holds {
                children.push(Abduction {
                    goals,
                    subst,
                    assumed,
                    deferred,
                });
            }
            return children;
        }
        match &lit {
            Literal::Compare(c) if matches!(c.op, CmpOp::Same | CmpOp::Differ) => {
                let same = same_value(&c.left, &c.right);
                if same == Some(c.op == CmpOp::Same) {
                    children.push(Abduction {
                        goals,
                        subst,
                        assumed,
                        deferred,
                    });
                }
            }
            Literal::Compare(c) => {
                let left = eval(&c.left);
                let right = eval(&c.right);
                let next = match (c.op, left, right) {
                    (CmpOp::Is, _, Some(r)) => match &c.left {
                        super::ast::Expr::Var(v) => {
                            let mut s = subst.clone();
                            s.insert(v.clone(), r.term());
                            Some(s)
                        }
                        _ => left
                            .filter(|l| l.float() == r.float())
                            .map(|_| subst.clone()),
                    },
                    (op, Some(l), Some(r)) => {
                        let (l, r) = (l.float(), r.float());
                        let holds = match op {
                            CmpOp::Gt => l > r,
                            CmpOp::Ge => l >= r,
                            CmpOp::Lt => l < r,
                            CmpOp::Le => l <= r,
                            CmpOp::Eq | CmpOp::Is | CmpOp::Same => l == r,
                            CmpOp::Ne | CmpOp::Differ => l != r,
                        };
                        holds.then(|| subst.clone())
                    }
                    _ => None,
                };
                if let Some(s) = next {
                    children.push(Abduction {
                        goals,
                        subst: s,
                        assumed,
                        deferred,
                    });
                }
            }
            Literal::Not(_) => unreachable!("NOT goals are never ready"),
            Literal::Pos(a) => {
                let base = self
                    .clauses_of(a)
                    .iter()
                    .all(|&i| self.program().clauses[i].is_fact());
                // 1. What already holds (or was assumed on this branch).
                for f in &assumed {
                    if let Some(s) = unify_atoms(a, f, &subst) {
                        children.push(Abduction {
                            goals: goals.clone(),
                            subst: s,
                            assumed: assumed.clone(),
                            deferred: deferred.clone(),
                        });
                    }
                }
                let found = match self.answers(std::slice::from_ref(&lit), BRANCH) {
                    Ok(Some(found)) => found,
                    Ok(None) => return children,
                    Err(f) => {
                        self.warnings.insert(format!("{}: {}", show(a), f.message));
                        self.complete = false;
                        return children;
                    }
                };
                if found.total > found.sets.len() {
                    self.complete = false;
                }
                let holds_now = !found.sets.is_empty();
                for set in found.sets {
                    let mut s = subst.clone();
                    s.extend(set);
                    children.push(Abduction {
                        goals: goals.clone(),
                        subst: s,
                        assumed: assumed.clone(),
                        deferred: deferred.clone(),
                    });
                }
                if base {
                    // 2. Assume it: now if ground, later (once the other goals
                    // gave its variables values) if not.
                    if ground(a) {
                        if !holds_now
                            && !assumed.iter().any(|f| same_atom(f, a))
                            && assumed.len() < max_facts
                        {
                            let mut more = assumed.clone();
                            more.push(a.clone());
                            children.push(Abduction {
                                goals,
                                subst,
                                assumed: more,
                                deferred,
                            });
                        }
                    } else if !deferred.contains(&show(a)) && !goals.is_empty() {
                        let mut later = deferred.clone();
                        later.insert(show(a));
                        let mut rest = goals;
                        rest.push((lit.clone(), depth));
                        children.push(Abduction {
                            goals: rest,
                            subst,
                            assumed,
                            deferred: later,
                        });
                    } else {
                        self.ungrounded.insert(show(a));
                        self.complete = false;
                    }
                } else if depth > 0 {
                    // 3. Through each rule whose head matches.
                    for i in self.clauses_of(a).to_vec() {
                        let clause = self.program().clauses[i].clone();
                        if clause.is_fact() {
                            continue;
                        }
                        let n = self.fresh();
                        let head = rename_atom(&clause.head, n);
                        let Some(s) = unify_atoms(a, &head, &subst) else {
                            continue;
                        };
                        let mut next: Vec<(Literal, u32)> = clause
                            .body
                            .iter()
                            .map(|l| (rename(l, n), depth - 1))
                            .collect();
                        next.extend(goals.iter().cloned());
                        children.push(Abduction {
                            goals: next,
                            subst: s,
                            assumed: assumed.clone(),
                            deferred: deferred.clone(),
                        });
                    }
                } else {
                    self.complete = false;
                }
            }
        }
        children
    }

    /// Whether a goal can be taken now: a positive goal unless put off; a comparison once
    /// the values it reads are known; NOT only at the end (in verification).
    fn ready(&self, lit: &Literal, subst: &Subst, deferred: &BTreeSet<String>) -> bool {
        match lit {
            // Not when put off for want of values that are still missing.
            Literal::Pos(a) => !deferred.contains(&show(apply_atom(a, subst))),
            Literal::Not(_) => false,
            Literal::Compare(c) => {
                let applied = apply(lit, subst);
                let Literal::Compare(a) = applied else {
                    return false;
                };
                let right = eval(&a.right).is_some();
                match c.op {
                    CmpOp::Is => right,
                    CmpOp::Same | CmpOp::Differ => same_value(&a.left, &a.right).is_some(),
                    _ => right && eval(&a.left).is_some(),
                }
            }
        }
    }

    /// Verifies a proposal: the goal's solutions with the facts added (and with
    /// each one left out, for minimality).
    /// `Err(())` when it could not be verified (budget spent, search failed),
    /// `Ok(None)` when the goal still does not hold.
    fn verify(&mut self, query: &Query, facts: &[String]) -> Result<Option<Proposal>, ()> {
        let count = self.with_facts(query, facts).ok_or(())?;
        if count == 0 {
            return Ok(None);
        }
        let mut minimal = true;
        for i in 0..facts.len() {
            let fewer: Vec<String> = facts
                .iter()
                .enumerate()
                .filter(|(j, _)| *j != i)
                .map(|(_, f)| f.clone())
                .collect();
            match self.with_facts(query, &fewer) {
                Some(0) => {}
                Some(_) => {
                    minimal = false;
                    break;
                }
                None => return Err(()),
            }
        }
        Ok(Some(Proposal {
            facts: facts.to_vec(),
            solution_count: count,
            minimal,
        }))
    }

    /// Solutions of `query` over the knowledge with `facts` added; none when the
    /// budget is spent or the search failed.
    fn with_facts(&mut self, query: &Query, facts: &[String]) -> Option<usize> {
        let allowed = (CHECK_BYTES / self.compiled.text.len().max(1)).clamp(4, MAX_CHECKS);
        if self.checks >= allowed || Instant::now() >= self.deadline {
            self.complete = false;
            return None;
        }
        self.checks += 1;
        let mut program = self.program().clone();
        let base = program.clauses.len();
        for f in facts {
            let parsed = super::parse_text(f).ok()?;
            program.clauses.extend(parsed.clauses);
        }
        program.queries.clear();
        let key = format!(
            "\u{0}what_needs\u{0}{}\u{0}{}",
            self.compiled.prefix,
            facts.join("\n")
        );
        let compiled = self.reasoner.compile_program(key, program, base);
        let limits = Limits {
            max_solutions: 0,
            max_depth: self.limits.max_depth,
            max_proofs: 0,
        };
        match self
            .reasoner
            .solve(&compiled, query.clone(), &limits, "diagnose")
        {
            // A search cut at the depth bound proves nothing either way: a NOT may
            // have held only because the search under it was cut.
            ReasonResult::Answered(a) if a.depth_exhausted => {
                self.warnings.insert(format!(
                    "a verification run was cut at max_depth {}: its proposal is not verified and was left out (raise max_depth to check it)",
                    self.limits.max_depth
                ));
                None
            }
            ReasonResult::Answered(a) => Some(a.solution_count),
            ReasonResult::Failed(_) => None,
        }
    }
}

/// A value for a variable that a comparison with a known value constrains:
/// `$v >= 3` gives 3, `$v > 3` gives 4, `3 > $v` gives 2.
fn witness(goals: &[(Literal, u32)], subst: &Subst) -> Option<Subst> {
    use super::ast::Expr;
    use super::subst::Num;
    for (lit, _) in goals {
        let Literal::Compare(c) = apply(lit, subst) else {
            continue;
        };
        let (var, op, k) = match (&c.left, &c.right) {
            (Expr::Var(v), other) => match eval(other) {
                Some(k) => (v, c.op, k),
                None => continue,
            },
            (other, Expr::Var(v)) => {
                let flipped = match c.op {
                    CmpOp::Gt => CmpOp::Lt,
                    CmpOp::Lt => CmpOp::Gt,
                    CmpOp::Ge => CmpOp::Le,
                    CmpOp::Le => CmpOp::Ge,
                    CmpOp::Is => continue,
                    same => same,
                };
                match eval(other) {
                    Some(k) => (v, flipped, k),
                    None => continue,
                }
            }
            _ => continue,
        };
        if var.starts_with('\u{0}') {
            continue;
        }
        let step = |k: Num, up: bool| match k {
            Num::Int(i) => Num::Int(if up {
                i.saturating_add(1)
            } else {
                i.saturating_sub(1)
            }),
            Num::Float(f) => Num::Float(if up { f + 1.0 } else { f - 1.0 }),
        };
        let value = match op {
            CmpOp::Ge | CmpOp::Le | CmpOp::Eq | CmpOp::Is | CmpOp::Same => k,
            CmpOp::Gt | CmpOp::Ne | CmpOp::Differ => step(k, true),
            CmpOp::Lt => step(k, false),
        };
        let mut s = subst.clone();
        s.insert(var.clone(), value.term());
        return Some(s);
    }
    None
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

/// One branch of the abduction search.
struct Abduction {
    /// Goals left, each with the rule levels still allowed below it.
    goals: Vec<(Literal, u32)>,
    subst: Subst,
    /// Facts assumed on this branch.
    assumed: Vec<Atom>,
    /// Goals put off once for want of values (shown as text).
    deferred: BTreeSet<String>,
}

/// The leaf messages of a trace, depth first: the premises that failed.
fn leaves(node: &FailedGoal, out: &mut Vec<String>) {
    if node.attempts.is_empty() {
        let line = if node.message.contains(&node.goal) {
            node.message.clone()
        } else {
            format!("{}: {}", node.goal, node.message)
        };
        if !out.contains(&line) {
            out.push(line);
        }
        return;
    }
    for a in &node.attempts {
        for b in &a.because {
            leaves(b, out);
        }
    }
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

    /// The why_not trace of a query that failed.
    fn trace(&self, query: &Query, session: &mut Session<'_>) -> FailedGoal {
        let mut path = Vec::new();
        if let [Literal::Pos(a)] = &query.body[..] {
            return session.why_not(a, &mut path);
        }
        // A conjunction (or a lone NOT or comparison): traced like a rule body.
        let text = query.to_string();
        let clause = Clause {
            head: Atom {
                name: "?".into(),
                args: Vec::new(),
                pos: query.pos,
            },
            body: query.body.clone(),
            pos: query.pos,
            id: None,
        };
        let n = session.fresh();
        let body: Vec<Literal> = query.body.iter().map(|l| rename(l, n)).collect();
        let attempt = session.attempt(&clause, &body, n, &Subst::new(), &mut path);
        let (reason, message, attempts) = match attempt {
            Ok(Some(mut a)) => {
                a.rule = format!("? {text}");
                (
                    FailReason::RulesFailed,
                    format!("goal {} of the query failed", a.failed_at),
                    vec![a],
                )
            }
            Ok(None) => (
                FailReason::NotTraced,
                "every goal of the query held when traced: the answer changed while tracing"
                    .to_string(),
                Vec::new(),
            ),
            Err(true) => (
                FailReason::DepthLimit,
                "the search was cut at max_depth: raise it".to_string(),
                Vec::new(),
            ),
            Err(false) => (
                FailReason::NotTraced,
                "the trace stopped at its bounds".to_string(),
                Vec::new(),
            ),
        };
        FailedGoal {
            goal: text,
            reason,
            message,
            attempts,
            proof: None,
            closest: Vec::new(),
        }
    }

    fn what_needs(
        &self,
        request: &DiagnoseRequest,
        query: &Query,
        session: &mut Session<'_>,
        diagnosis: &mut Diagnosis,
    ) {
        let max_facts = request.max_facts.unwrap_or(3).min(10);
        let max_proposals = request.max_proposals.unwrap_or(5).min(50);
        // Proposals deeper than a few rules are rarely what is wanted, and each
        // level multiplies the search.
        let depth = session.limits.max_depth.min(8);
        let mut found = BTreeSet::new();
        session.abduce(
            Abduction {
                goals: query.body.iter().map(|l| (l.clone(), depth)).collect(),
                subst: Subst::new(),
                assumed: Vec::new(),
                deferred: BTreeSet::new(),
            },
            &mut found,
            max_facts,
        );
        // Smallest first; a set holding another found set is not minimal.
        let mut sets: Vec<Vec<String>> = found.into_iter().filter(|s| !s.is_empty()).collect();
        sets.sort_by(|a, b| a.len().cmp(&b.len()).then_with(|| a.cmp(b)));
        let mut proposals: Vec<Proposal> = Vec::new();
        let mut refused = 0;
        let mut unverified = 0;
        for facts in sets {
            // A set holding a verified smaller one is not minimal.
            if proposals
                .iter()
                .any(|p| p.facts.iter().all(|f| facts.contains(f)))
            {
                continue;
            }
            if proposals.len() >= max_proposals {
                session.complete = false;
                break;
            }
            match session.verify(query, &facts) {
                Ok(Some(p)) => proposals.push(p),
                Ok(None) => refused += 1,
                Err(()) => unverified += 1,
            }
        }
        if refused > 0 {
            session.warnings.insert(format!(
                "{refused} candidate set(s) did not make the goal hold when verified (a NOT or a comparison ruled them out) and were left out"
            ));
        }
        if unverified > 0 {
            session.complete = false;
            session.warnings.insert(format!(
                "{unverified} candidate set(s) could not be verified within the bounds and were left out"
            ));
        }
        if !session.ungrounded.is_empty() {
            let examples: Vec<&str> = session
                .ungrounded
                .iter()
                .take(3)
                .map(String::as_str)
                .collect();
            session.warnings.insert(format!(
                "some branches would need facts whose arguments nothing gives a value ({}): what_needs proposes ground facts only",
                examples.join(", ")
            ));
        }
        diagnosis.findings = proposals
            .iter()
            .map(|p| format!("add {}", p.facts.join(" and ")))
            .collect();
        diagnosis.conclusion = match proposals.first() {
            Some(p) => format!(
                "{} does not hold; adding {} would make it hold ({} proposal(s), each verified)",
                diagnosis.query,
                p.facts.join(" and "),
                proposals.len()
            ),
            None => format!(
                "{} does not hold, and no set of at most {max_facts} fact(s) over fact-only or undefined predicates was found that makes it hold",
                diagnosis.query
            ),
        };
        diagnosis.proposals = Some(proposals);
    }
}
