//! `why_not`: the premises that failed, found by re-running the search one body
//! goal at a time, down through the rules whose heads matched.

use std::collections::BTreeMap;
use std::time::Instant;

use serde_json::Value;

use super::{
    Attempt, FOLLOW, FailReason, FailedGoal, MAX_TRACE_LEVELS, MAX_TRACE_NODES, Session, canonical,
    ground_term,
};
use crate::reason::ast::{Atom, Clause, Literal, Query};
use crate::reason::subst::{Subst, apply, rename, rename_atom, resolve_deep, show, unify_atoms};
use crate::reason::{FailureKind, Limits, Reasoner};

impl Session<'_> {
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
            return node(FailReason::Undefined, self.undefined(goal));
        }
        if let Some((reason, message)) = self.not_traced(&text, &key, path) {
            return node(reason, message);
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
        let (attempts, cut) = self.try_rules(goal, &rules, path);
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

    /// Why a goal on a predicate nothing defines fails: no such name, or another
    /// number of arguments.
    fn undefined(&self, goal: &Atom) -> String {
        let mut others: Vec<usize> = self
            .program()
            .clauses
            .iter()
            .filter(|c| c.head.name == goal.name)
            .map(|c| c.head.args.len())
            .collect();
        others.sort_unstable();
        others.dedup();
        if others.is_empty() {
            return format!(
                "no facts or rules define `{}/{}`, so every goal on it fails: add facts or a rule whose head is {}(…), or check the spelling",
                goal.name,
                goal.args.len(),
                goal.name
            );
        }
        let list: Vec<String> = others.iter().map(usize::to_string).collect();
        format!(
            "`{}` is defined with {} argument(s), not {}: check the goal's arguments",
            goal.name,
            list.join(" or "),
            goal.args.len()
        )
    }

    /// Why the goal `text` (canonically `key`) is not traced further, if it is
    /// not: it recurses, the trace is deep or large enough, or it was traced.
    fn not_traced(
        &mut self,
        text: &str,
        key: &str,
        path: &[String],
    ) -> Option<(FailReason, String)> {
        if path.iter().any(|p| p == key) {
            return Some((
                FailReason::Recursion,
                format!("{text} is already being traced above: the rules recurse through it"),
            ));
        }
        // Each level nests four JSON levels: past this many, common readers stop.
        let levels = self.limits.max_depth.min(MAX_TRACE_LEVELS);
        if path.len() as u32 >= levels {
            self.complete = false;
            return Some((
                FailReason::NotTraced,
                format!("not traced further: {levels} rule levels reached"),
            ));
        }
        if !self.traced.insert(key.to_string()) {
            return Some((
                FailReason::NotTraced,
                format!("{text} failed as traced where it first appears in this trace"),
            ));
        }
        self.trace_nodes += 1;
        if self.trace_nodes > MAX_TRACE_NODES || Instant::now() >= self.deadline {
            self.complete = false;
            self.warnings.insert(format!(
                "the trace stopped after {MAX_TRACE_NODES} goals or at the time limit: it shows where the search failed first, not every branch"
            ));
            return Some((
                FailReason::NotTraced,
                "not traced: the trace reached its bounds".into(),
            ));
        }
        None
    }

    /// Each rule of `rules` whose head matches `goal`, attempted: the attempts
    /// that failed, and whether the depth bound cut any.
    fn try_rules(
        &mut self,
        goal: &Atom,
        rules: &[usize],
        path: &mut Vec<String>,
    ) -> (Vec<Attempt>, bool) {
        let mut attempts = Vec::new();
        let mut cut = false;
        for &i in rules {
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
        (attempts, cut)
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
        for v in crate::reason::lower::clause_vars(Some(&clause.head), &clause.body) {
            let renamed = format!("{v}#{n}");
            let t = resolve_deep(
                &resolve_deep(&crate::reason::ast::Term::Var(renamed), head),
                &first,
            );
            let value = match t {
                crate::reason::ast::Term::Const(c) => Value::String(c),
                crate::reason::ast::Term::Number(x) => crate::reason::number_value(&x),
                compound @ crate::reason::ast::Term::Compound(..) if compound.is_ground() => {
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
}

/// The leaf messages of a trace, depth first: the premises that failed.
pub(super) fn leaves(node: &FailedGoal, out: &mut Vec<String>) {
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
    /// The why_not trace of a query that failed.
    pub(super) fn trace(&self, query: &Query, session: &mut Session<'_>) -> FailedGoal {
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
}
