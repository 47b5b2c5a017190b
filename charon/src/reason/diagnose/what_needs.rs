//! `what_needs`: abduction, the sets of facts that, added to the knowledge, give
//! the goal a proof; each set verified by a run of the engine.

use std::collections::BTreeSet;
use std::time::Instant;

use super::{
    BRANCH, CHECK_BYTES, DiagnoseRequest, Diagnosis, MAX_CHECKS, MAX_GOALS, MAX_NODES, Proposal,
    Session, same_atom,
};
use crate::reason::ast::{Atom, CmpOp, Literal, Query};
use crate::reason::subst::{
    Subst, apply, apply_atom, eval, ground, rename, rename_atom, same_value, show, unify_atoms,
};
use crate::reason::{Limits, ReasonResult, Reasoner};

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
                        crate::reason::ast::Expr::Var(v) => {
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
