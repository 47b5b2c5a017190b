//! `what_needs`: abduction, the sets of facts that, added to the knowledge, give
//! the goal a proof; each set verified by a run of the engine.

use std::collections::BTreeSet;
use std::time::Instant;

use super::{
    BRANCH, CHECK_BYTES, DiagnoseRequest, Diagnosis, MAX_CHECKS, MAX_GOALS, MAX_NODES, Proposal,
    Session, same_atom,
};
use crate::reason::ast::{Atom, CmpOp, Comparison, Expr, Literal, Query};
use crate::reason::subst::{
    Subst, apply, apply_atom, eval, ground, rename, rename_atom, same_value, show, unify_atoms,
};
use crate::reason::{Limits, ReasonResult, Reasoner};

/// One branch of the abduction search.
#[derive(Clone)]
struct Abduction {
    /// Goals left, each with the rule levels still allowed below it.
    goals: Vec<(Literal, u32)>,
    subst: Subst,
    /// Facts assumed on this branch.
    assumed: Vec<Atom>,
    /// Goals put off once for want of values (shown as text).
    deferred: BTreeSet<String>,
}

impl Session<'_> {
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
            return Vec::new();
        }
        // The first goal that can be taken now.
        let Some(at) = goals
            .iter()
            .position(|(l, _)| self.ready(l, &subst, &deferred))
        else {
            let waiting = Abduction {
                goals,
                subst,
                assumed,
                deferred,
            };
            return self.none_ready(waiting, out);
        };
        if !self.budget() {
            return Vec::new();
        }
        let (lit, depth) = goals.remove(at);
        let lit = apply(&lit, &subst);
        // The branch with the goal taken, which each way of proving it continues.
        let rest = Abduction {
            goals,
            subst,
            assumed,
            deferred,
        };
        if let Some(holds) = lit.truth() {
            // `true` needs nothing; `false` closes the branch (no fact can make it hold).
            return if holds { vec![rest] } else { Vec::new() };
        }
        match &lit {
            Literal::Compare(c) => compared(c, &rest.subst)
                .map(|subst| Abduction { subst, ..rest })
                .into_iter()
                .collect(),
            Literal::Not(_) => unreachable!("NOT goals are never ready"),
            Literal::Pos(a) => self.abduce_goal(a, depth, rest, max_facts),
        }
    }

    /// No goal of a branch can be taken now: a variable only comparisons constrain
    /// gets a value; a branch of NOT goals alone is a proposal (the verification
    /// run checks them); anything else is a goal left without values.
    fn none_ready(
        &mut self,
        waiting: Abduction,
        out: &mut BTreeSet<Vec<String>>,
    ) -> Vec<Abduction> {
        // A variable only a comparison constrains (`tenure($u, $y) AND $y >= 3`)
        // gets a value that satisfies it; the verification run has the last word.
        if let Some(subst) = witness(&waiting.goals, &waiting.subst) {
            return vec![Abduction { subst, ..waiting }];
        }
        let positive = waiting
            .goals
            .iter()
            .find(|(l, _)| !matches!(l, Literal::Not(_)));
        match positive {
            None => {
                // NOT goals are left to the verification run.
                let mut set: Vec<String> = waiting.assumed.iter().map(|a| a.to_string()).collect();
                set.sort();
                set.dedup();
                out.insert(set);
            }
            Some((l, _)) => {
                self.ungrounded.insert(show(apply(l, &waiting.subst)));
                self.complete = false;
            }
        }
        Vec::new()
    }

    /// The branches of a positive goal `a`: each way it holds already (or was
    /// assumed), then, for a predicate of facts, assuming it; for one with rules,
    /// each rule whose head matches.
    fn abduce_goal(
        &mut self,
        a: &Atom,
        depth: u32,
        rest: Abduction,
        max_facts: usize,
    ) -> Vec<Abduction> {
        let mut children = Vec::new();
        // A predicate of facts only (a rule that never holds aside) is one whose
        // facts can be assumed.
        let base = self.clauses_of(a).iter().all(|&i| {
            let clause = &self.program().clauses[i];
            clause.is_fact() || clause.never_holds()
        });
        // 1. What already holds (or was assumed on this branch).
        for f in &rest.assumed {
            if let Some(subst) = unify_atoms(a, f, &rest.subst) {
                children.push(Abduction {
                    subst,
                    ..rest.clone()
                });
            }
        }
        let found = match self.answers(&[Literal::Pos(a.clone())], BRANCH) {
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
            let mut subst = rest.subst.clone();
            subst.extend(set);
            children.push(Abduction {
                subst,
                ..rest.clone()
            });
        }
        if base {
            children.extend(self.assume(a, depth, holds_now, rest, max_facts));
        } else if depth > 0 {
            children.extend(self.through_rules(a, depth, &rest));
        } else {
            self.complete = false;
        }
        children
    }

    /// Step 2 of a goal on a predicate of facts: assume it, now if ground, later
    /// (once the other goals gave its variables values) if not.
    fn assume(
        &mut self,
        a: &Atom,
        depth: u32,
        holds_now: bool,
        rest: Abduction,
        max_facts: usize,
    ) -> Option<Abduction> {
        if ground(a) {
            let new = !holds_now
                && !rest.assumed.iter().any(|f| same_atom(f, a))
                && rest.assumed.len() < max_facts;
            return new.then(|| {
                let mut assumed = rest.assumed.clone();
                assumed.push(a.clone());
                Abduction { assumed, ..rest }
            });
        }
        let shown = show(a);
        if rest.deferred.contains(&shown) || rest.goals.is_empty() {
            self.ungrounded.insert(shown);
            self.complete = false;
            return None;
        }
        let Abduction {
            mut goals,
            subst,
            assumed,
            mut deferred,
        } = rest;
        deferred.insert(shown);
        goals.push((Literal::Pos(a.clone()), depth));
        Some(Abduction {
            goals,
            subst,
            assumed,
            deferred,
        })
    }

    /// Step 3 of a goal on a predicate with rules: through each rule whose head
    /// matches.
    fn through_rules(&mut self, a: &Atom, depth: u32, rest: &Abduction) -> Vec<Abduction> {
        let mut children = Vec::new();
        for i in self.clauses_of(a).to_vec() {
            let clause = self.program().clauses[i].clone();
            if clause.is_fact() {
                continue;
            }
            let n = self.fresh();
            let head = rename_atom(&clause.head, n);
            let Some(subst) = unify_atoms(a, &head, &rest.subst) else {
                continue;
            };
            let mut goals: Vec<(Literal, u32)> = clause
                .body
                .iter()
                .map(|l| (rename(l, n), depth - 1))
                .collect();
            goals.extend(rest.goals.iter().cloned());
            children.push(Abduction {
                goals,
                subst,
                ..rest.clone()
            });
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
            let parsed = crate::reason::parse_text(f).ok()?;
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

/// The substitution after a comparison whose values are known, if it holds:
/// `==` and `!=` by value, `is` binding its variable, the others as numbers.
fn compared(c: &Comparison, subst: &Subst) -> Option<Subst> {
    if matches!(c.op, CmpOp::Same | CmpOp::Differ) {
        let same = same_value(&c.left, &c.right);
        return (same == Some(c.op == CmpOp::Same)).then(|| subst.clone());
    }
    let left = eval(&c.left);
    let right = eval(&c.right);
    match (c.op, left, right) {
        (CmpOp::Is, _, Some(r)) => match &c.left {
            Expr::Var(v) => {
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
    }
}

/// A value for a variable that a comparison with a known value constrains:
/// `$v >= 3` gives 3, `$v > 3` gives 4, `3 > $v` gives 2.
fn witness(goals: &[(Literal, u32)], subst: &Subst) -> Option<Subst> {
    use crate::reason::ast::Expr;
    use crate::reason::subst::Num;
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

impl Reasoner {
    pub(super) fn what_needs(
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
