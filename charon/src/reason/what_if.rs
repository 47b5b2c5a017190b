//! `what_if`: a query's answers before and after a hypothetical change to the
//! facts (`+ fact` / `- fact` lines), and exactly which answers appeared and
//! disappeared. Nothing is kept: the changed knowledge exists for this question.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::ast::{Clause, Literal, Pos, Program};
use super::{Answers, Failed, Failure, FailureKind, Limits, ReasonResult, Reasoner, count};

/// A request for [`Reasoner::what_if`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WhatIfRequest {
    /// The knowledge as it stands, in Euclid-IR (text or YAML form).
    pub base_knowledge: String,
    /// One change per line: `+ fact` adds a fact, `- fact` removes one (it must
    /// be in the knowledge); `#` comments and blank lines are allowed.
    pub modifications: String,
    /// The goal, e.g. `user_has_permission($u, deploy)`; when left out, the
    /// knowledge's own `? query`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub query: Option<String>,
    /// Most solutions returned per side (and per list of changes).
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
    /// Most proofs returned per solution.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "count"
    )]
    pub max_proofs: Option<usize>,
}

impl WhatIfRequest {
    /// A request with the default limits.
    pub fn new(
        base_knowledge: impl Into<String>,
        modifications: impl Into<String>,
        query: impl Into<String>,
    ) -> Self {
        WhatIfRequest {
            base_knowledge: base_knowledge.into(),
            modifications: modifications.into(),
            query: Some(query.into()),
            max_solutions: None,
            max_depth: None,
            max_proofs: None,
        }
    }
}

/// The answer to a [`WhatIfRequest`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum WhatIfResult {
    /// `ok: true`.
    Compared(Box<WhatIf>),
    /// `ok: false`, and why.
    Failed(Failed),
}

impl WhatIfResult {
    /// Whether the comparison was made.
    pub fn ok(&self) -> bool {
        matches!(self, WhatIfResult::Compared(_))
    }
}

/// Before and after.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WhatIf {
    /// Always true.
    pub ok: bool,
    /// The goal, as Euclid-IR.
    pub query: String,
    /// The changes made, in order.
    pub applied: Vec<Change>,
    /// The answers as the knowledge stands.
    pub before: Answers,
    /// The answers with the changes made (facts added by a change have no line
    /// in their proofs).
    pub after: Answers,
    /// Distinct solutions before.
    pub before_count: usize,
    /// Distinct solutions after.
    pub after_count: usize,
    /// `after_count - before_count`.
    pub delta: i64,
    /// Bindings of the solutions found after but not before, sorted.
    pub appeared: Vec<serde_json::Map<String, Value>>,
    /// Bindings of the solutions found before but not after, sorted.
    pub disappeared: Vec<serde_json::Map<String, Value>>,
    /// Solutions found both before and after.
    pub unchanged: usize,
    /// `appeared` or `disappeared` holds only the first `max_solutions`.
    pub changes_truncated: bool,
    /// Changes that changed nothing (a fact added that was already there).
    pub warnings: Vec<String>,
}

/// One line of the modifications.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Change {
    /// `add` or `remove`.
    pub action: ChangeAction,
    /// The fact, as Euclid-IR.
    pub fact: String,
    /// Its line in the modifications.
    pub line: usize,
    /// Facts of the knowledge it removed (`remove`), or 1 / 0 for an add that was
    /// new / already there.
    pub matched: usize,
}

/// What a [`Change`] does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChangeAction {
    /// `+ fact`.
    Add,
    /// `- fact`.
    Remove,
}

/// Parses the modification lines into (action, fact clause).
fn modifications(text: &str) -> Result<Vec<(ChangeAction, Clause)>, Failure> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let trimmed = raw.trim_start();
        let indent = raw.len() - trimmed.len();
        if trimmed.is_empty() || trimmed.starts_with('#') || trimmed.starts_with("//") {
            continue;
        }
        let fail = |column: usize, message: String| {
            let mut f = Failure::new(FailureKind::ParseError, format!("modifications: {message}"));
            f.line = Some(line);
            f.column = Some(column);
            f.source = Some("modifications".into());
            f
        };
        let action = match trimmed.chars().next() {
            Some('+') => ChangeAction::Add,
            Some('-') => ChangeAction::Remove,
            _ => {
                return Err(fail(
                    indent + 1,
                    format!(
                        "line {line} starts with neither + nor -: write `+ fact` to add a fact or `- fact` to remove one"
                    ),
                ));
            }
        };
        let rest = &trimmed[1..];
        let to_failure = |e: super::ParseError| {
            let column = if e.pos.line == 1 {
                indent + 1 + e.pos.column
            } else {
                1
            };
            let mut f = Failure::parse(e, "modifications");
            f.line = Some(line);
            f.column = Some(column);
            f
        };
        // Several facts on one line: `+ a(1) AND b(2)`.
        let facts: Vec<Clause> = match super::parse_text(rest) {
            Ok(program) => {
                let [clause] = &program.clauses[..] else {
                    return Err(fail(
                        indent + 1,
                        format!(
                            "line {line} must hold a fact (or facts joined by AND) after its + or -"
                        ),
                    ));
                };
                if !clause.is_fact() || !program.queries.is_empty() {
                    return Err(fail(
                        indent + 1,
                        format!(
                            "line {line}: only facts can be added or removed, not rules or queries; to try a rule, send the knowledge with it to reason"
                        ),
                    ));
                }
                vec![clause.clone()]
            }
            Err(e) => match super::parse_query(rest) {
                Ok(q)
                    if q.body.len() > 1 && q.body.iter().all(|l| matches!(l, Literal::Pos(_))) =>
                {
                    let mut facts = Vec::with_capacity(q.body.len());
                    for literal in q.body {
                        let Literal::Pos(head) = literal else {
                            continue;
                        };
                        // `true` and `false` are no facts, here as in knowledge.
                        let head = super::parse::reserved_head(head).map_err(to_failure)?;
                        facts.push(Clause {
                            head,
                            body: Vec::new(),
                            pos: Pos::default(),
                            id: None,
                        });
                    }
                    facts
                }
                _ => return Err(to_failure(e)),
            },
        };
        for clause in facts {
            if let Some(t) = clause.head.args.iter().find(|t| !t.is_ground()) {
                return Err(fail(
                    indent + 1,
                    format!(
                        "line {line}: a fact added or removed must be ground, and `{t}` is not a value"
                    ),
                ));
            }
            let mut clause = clause;
            clause.pos = Pos {
                line,
                column: indent + 1,
            };
            out.push((action, clause));
        }
    }
    if out.is_empty() {
        return Err(Failure::new(
            FailureKind::InvalidRequest,
            "modifications: no changes given: write one `+ fact` or `- fact` per line",
        ));
    }
    Ok(out)
}

impl Reasoner {
    /// Answers a query before and after a change to the facts, blocking the thread.
    pub fn what_if(&self, request: &WhatIfRequest) -> WhatIfResult {
        self.comparison(request).map_or_else(
            |f| WhatIfResult::Failed(f.failed()),
            |w| WhatIfResult::Compared(Box::new(w)),
        )
    }

    /// [`what_if`](Self::what_if) from async code, on a blocking thread.
    pub async fn what_if_async(self: &Arc<Self>, request: WhatIfRequest) -> WhatIfResult {
        let this = Arc::clone(self);
        super::blocking(move || this.what_if(&request), WhatIfResult::Failed).await
    }

    fn comparison(&self, request: &WhatIfRequest) -> Result<WhatIf, Failure> {
        let shown = self.limits(request.max_solutions, request.max_depth, request.max_proofs)?;
        let changes = modifications(&request.modifications)?;
        let compiled = self.compile(&request.base_knowledge)?;
        let query = self.request_query(&compiled, request.query.as_deref())?;

        // The changed knowledge: removals first check that the fact is there.
        let mut program = compiled.program.clone();
        program.queries.clear();
        let (applied, warnings, base) = apply_changes(&mut program, &changes)?;
        let mut key = String::from("\u{0}what_if\u{0}");
        key.push_str(&compiled.prefix);
        for c in &applied {
            key.push('\u{0}');
            key.push(if c.action == ChangeAction::Add {
                '+'
            } else {
                '-'
            });
            key.push_str(&c.fact);
        }
        let changed = self.compile_program(key, program, base);

        // Every solution on both sides, for an exact difference; trimmed after.
        let all = Limits {
            max_solutions: self.config.max_answers,
            ..shown
        };
        let run = |c| match self.solve(c, query.clone(), &all, "what_if") {
            ReasonResult::Answered(a) => Ok(a),
            ReasonResult::Failed(f) => Err(f.error),
        };
        let mut before = run(&compiled)?;
        let mut after = run(&changed)?;
        let key = |s: &super::Solution| serde_json::to_string(&s.bindings).unwrap_or_default();
        let before_keys: BTreeMap<String, usize> = before
            .solutions
            .iter()
            .enumerate()
            .map(|(i, s)| (key(s), i))
            .collect();
        let after_keys: BTreeMap<String, usize> = after
            .solutions
            .iter()
            .enumerate()
            .map(|(i, s)| (key(s), i))
            .collect();
        // In the solutions' own order (sorted by the total order of values).
        let appeared: Vec<_> = after
            .solutions
            .iter()
            .filter(|s| !before_keys.contains_key(&key(s)))
            .map(|s| s.bindings.clone())
            .collect();
        let disappeared: Vec<_> = before
            .solutions
            .iter()
            .filter(|s| !after_keys.contains_key(&key(s)))
            .map(|s| s.bindings.clone())
            .collect();
        let unchanged = before_keys
            .keys()
            .filter(|k| after_keys.contains_key(*k))
            .count();
        let changes_truncated =
            appeared.len() > shown.max_solutions || disappeared.len() > shown.max_solutions;
        for side in [&mut before, &mut after] {
            side.truncated = side.solution_count > shown.max_solutions;
            side.solutions.truncate(shown.max_solutions);
        }
        let (before_count, after_count) = (before.solution_count, after.solution_count);
        let mut appeared = appeared;
        let mut disappeared = disappeared;
        appeared.truncate(shown.max_solutions);
        disappeared.truncate(shown.max_solutions);
        Ok(WhatIf {
            ok: true,
            query: before.query.clone(),
            applied,
            before,
            after,
            before_count,
            after_count,
            delta: after_count as i64 - before_count as i64,
            appeared,
            disappeared,
            unchanged,
            changes_truncated,
            warnings,
        })
    }
}

/// `changes` made to `program`: the changes as applied (with how many facts
/// each matched), a warning for each that changes nothing, and where the added
/// facts start among the clauses. A removal that matches no fact is refused.
fn apply_changes(
    program: &mut Program,
    changes: &[(ChangeAction, Clause)],
) -> Result<(Vec<Change>, Vec<String>, usize), Failure> {
    let mut applied = Vec::new();
    let mut warnings = Vec::new();
    let mut added = Vec::new();
    for (action, clause) in changes {
        let fact = clause.head.to_string();
        let line = clause.pos.line;
        let matched = match action {
            ChangeAction::Remove => {
                let before = program.clauses.len();
                program
                    .clauses
                    .retain(|c| !(c.is_fact() && c.head.to_string() == fact));
                let added_before = added.len();
                added.retain(|a: &Clause| a.head.to_string() != fact);
                let removed = before - program.clauses.len() + (added_before - added.len());
                if removed == 0 {
                    let mut f = Failure::new(
                        FailureKind::InvalidRequest,
                        format!(
                            "modifications line {line}: `- {fact}` matches no fact of the knowledge (nothing to remove): check the spelling and the arguments; a scenario built on a missing fact would mislead"
                        ),
                    );
                    f.line = Some(line);
                    f.column = Some(clause.pos.column);
                    f.source = Some("modifications".into());
                    return Err(f);
                }
                removed
            }
            ChangeAction::Add => {
                let present = program
                    .clauses
                    .iter()
                    .chain(&added)
                    .any(|c| c.is_fact() && c.head.to_string() == fact);
                if present {
                    warnings.push(format!(
                        "modifications line {line}: `{fact}` is already a fact, so adding it changes nothing"
                    ));
                    0
                } else {
                    added.push(clause.clone());
                    1
                }
            }
        };
        applied.push(Change {
            action: *action,
            fact,
            line,
            matched,
        });
    }
    let base = program.clauses.len();
    program.clauses.extend(added);
    Ok((applied, warnings, base))
}
