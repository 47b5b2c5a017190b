//! Explaining a call of a knowledge base's operation: its answer, and a proof tree
//! for each solution, built by a tracer in the engine (`'$charon_explain'/4` in
//! the wrapper) that follows the knowledge base's own clauses and a fixed list of
//! side-effect-free built-ins. Anything else the call reaches (cut, if-then-else,
//! disjunction, meta-calls, findall, database changes, I/O, predicates of other
//! files) stops the explanation with [`CallError::NotTraceable`] before it runs.

use std::sync::Arc;
use std::time::Instant;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{CallError, KnowledgeBase, OpId, codec};
use crate::engine::{Access, Outcome, RunOutcome};
use crate::reason::{ProofKind, ProofNode};
use crate::term::{PlTerm, write_atom};

/// How many rule levels the tracer follows before it gives up: each level is two
/// levels of JSON, and common JSON readers stop at 128.
pub const EXPLAIN_DEPTH: u32 = 50;

/// Most proof nodes one explanation may hold (all its proofs together), as for
/// the reasoning tools' answers; past it the call fails with
/// [`CallError::AnswerTooLarge`].
pub const EXPLAIN_MAX_NODES: usize = 100_000;

/// Most bytes of JSON one explanation's proofs may take (estimated from above, as
/// for the reasoning tools' answers); past it the call fails with [`CallError::AnswerTooLarge`].
pub const EXPLAIN_MAX_BYTES: usize = 16 << 20;

/// The answer of a call and how it was proved.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Explanation {
    /// The operation called.
    pub operation: String,
    /// The answer, exactly as a plain call of the operation gives it.
    pub result: Value,
    /// One proof per solution, in the order of the solutions (none when the call
    /// failed).
    pub proofs: Vec<ProofNode>,
}

impl KnowledgeBase {
    /// Calls operation `id` with `args` through the tracer, blocking the thread.
    ///
    /// The operation is also called plainly, and the explanation is refused if the
    /// answers differ: the tracer reads the clauses from the file, and a file whose
    /// clauses load otherwise (split without `discontiguous`, flags, clauses from
    /// other files) must not be explained with clauses the engine does not run.
    ///
    /// An integer past `i64`/`u64` in it is refused as [`invoke`](Self::invoke)
    /// refuses one.
    pub fn explain(&self, id: OpId, args: &Value) -> Result<Explanation, CallError> {
        self.explain_exact(id, args)?.public()
    }

    /// [`explain`](Self::explain), integers of any size kept as
    /// [`invoke_exact`](Self::invoke_exact) keeps them.
    pub fn explain_exact(&self, id: OpId, args: &Value) -> Result<Explanation, CallError> {
        let (query, name) = self.explain_query(id, args)?;
        let outcome = self.run_read(query, &name)?;
        let explanation = self.explained(id, name, outcome)?;
        let plain = self.invoke_exact(self.prepare(id, args)?);
        same_answer(explanation, plain)
    }

    /// [`explain`](Self::explain) from async code; the time limit runs from `arrived`.
    pub async fn explain_async(
        self: &Arc<Self>,
        id: OpId,
        args: &Value,
        arrived: Instant,
    ) -> Result<Explanation, CallError> {
        self.explain_async_exact(id, args, arrived).await?.public()
    }

    async fn explain_async_exact(
        self: &Arc<Self>,
        id: OpId,
        args: &Value,
        arrived: Instant,
    ) -> Result<Explanation, CallError> {
        let (query, name) = self.explain_query(id, args)?;
        let outcome = self.run_read_async(query, &name, arrived).await?;
        // Proof trees can be large: shaped on a blocking thread, not the executor.
        let this = Arc::clone(self);
        let operation = name.clone();
        let explanation = crate::reason::off_thread(move || this.explained(id, name, outcome))
            .await
            .map_err(|why| CallError::Engine {
                operation,
                error: crate::engine::EngineError::Crashed(why),
            })??;
        let plain = self
            .invoke_async_exact(self.prepare(id, args)?, arrived)
            .await;
        same_answer(explanation, plain)
    }

    fn explain_query(&self, id: OpId, args: &Value) -> Result<(String, String), CallError> {
        let op = self
            .op(id)
            .ok_or_else(|| CallError::UnknownOperation(String::new()))?;
        let name = op.name.to_string();
        if self.effects[id.index()].access != Access::Read {
            return Err(CallError::NotTraceable {
                operation: name,
                reason: "it may change the database, and explaining runs read-only calls only"
                    .into(),
            });
        }
        let inputs = codec::inputs_of(op, args).map_err(|error| CallError::Arguments {
            operation: name.clone(),
            error,
        })?;
        let (goal, template) =
            codec::goal_and_template(op, &inputs).map_err(|error| CallError::Arguments {
                operation: name.clone(),
                error,
            })?;
        let limits = &self.engine.config().limits;
        let mut file = String::new();
        write_atom(&mut file, &self.path.display().to_string());
        // The tracer counts the trace's inferences itself (reading the file is
        // not counted), so the call around it counts none.
        let traced = format!(
            "'$charon_explain'({file},{goal},{EXPLAIN_DEPTH},{},P)",
            limits.inferences
        );
        let query = if op.determinism.is_many() {
            format!(
                "'$charon_all'(x({template},P),{traced},0,{},R).",
                limits.solutions
            )
        } else {
            format!("'$charon_once'(x({template},P),{traced},0,R).")
        };
        Ok((query, name))
    }

    fn explained(&self, id: OpId, name: String, run: RunOutcome) -> Result<Explanation, CallError> {
        let op = self
            .op(id)
            .ok_or_else(|| CallError::UnknownOperation(name.clone()))?;
        let limits = &self.engine.config().limits;
        let ids = RuleIds::default();
        let split = |t: &PlTerm| match t {
            PlTerm::Compound(x, parts) if x == "x" && parts.len() == 2 => {
                Ok((parts[0].clone(), proof(&parts[1], &ids)?))
            }
            other => Err(shape_error(&name, other)),
        };
        let (outcome, proofs) = match run.outcome {
            Outcome::Solved(PlTerm::List(items)) if op.determinism.is_many() => {
                let (sols, proofs): (Vec<PlTerm>, Vec<ProofNode>) = items
                    .iter()
                    .map(split)
                    .collect::<Result<Vec<_>, _>>()?
                    .into_iter()
                    .unzip();
                (Outcome::Solved(PlTerm::List(sols)), proofs)
            }
            Outcome::Solved(t) if !op.determinism.is_many() => {
                let (sol, proof) = split(&t)?;
                (Outcome::Solved(sol), vec![proof])
            }
            Outcome::Exception(PlTerm::Compound(f, args))
                if f == "charon_explain"
                    && matches!(args.first(), Some(PlTerm::Atom(a)) if a == "inference_limit") =>
            {
                return Err(CallError::InferenceLimit {
                    operation: name,
                    limit: limits.inferences,
                });
            }
            Outcome::Exception(PlTerm::Compound(f, args)) if f == "charon_explain" => {
                return Err(CallError::NotTraceable {
                    operation: name,
                    reason: not_traceable(args.first()),
                });
            }
            other => (other, Vec::new()),
        };
        let (mut nodes, mut bytes) = (0, 0);
        for p in &proofs {
            crate::reason::weigh(p, &mut nodes, &mut bytes);
        }
        let too_large = |limit: String| CallError::AnswerTooLarge {
            operation: name.clone(),
            limit,
        };
        if nodes > EXPLAIN_MAX_NODES {
            return Err(too_large(format!("{EXPLAIN_MAX_NODES} proof nodes")));
        }
        if bytes > EXPLAIN_MAX_BYTES {
            return Err(too_large(format!("{EXPLAIN_MAX_BYTES} bytes")));
        }
        let result = codec::shape(op, outcome, limits)?;
        Ok(Explanation {
            operation: name,
            result,
            proofs,
        })
    }
}

/// The explanation, if the plain call gave the same answer.
fn same_answer(
    explanation: Explanation,
    plain: Result<super::Answer, CallError>,
) -> Result<Explanation, CallError> {
    match plain {
        Ok(a) if a.value == explanation.result => Ok(explanation),
        Err(
            e @ (CallError::Overloaded { .. }
            | CallError::TimeLimit { .. }
            | CallError::MemoryLimit { .. }
            | CallError::Engine { .. }),
        ) => Err(e),
        _ => Err(CallError::NotTraceable {
            operation: explanation.operation,
            reason: "the clauses read from its file do not give the answer the loaded program gives (clauses split without a discontiguous declaration, flags set by directives, or clauses from other files): an explanation would show clauses the engine does not run".into(),
        }),
    }
}

fn shape_error(operation: &str, term: &PlTerm) -> CallError {
    CallError::Exception {
        operation: operation.to_string(),
        term: format!("the tracer answered in an unexpected shape: {term}"),
    }
}

/// The `% rule: ID` comments of the files clauses were read from, by file and
/// line: a rule's id is on its first line (after the clause) or alone on the line
/// above it, as in Euclid-IR. Each file is read once per explanation.
#[derive(Default)]
struct RuleIds(std::cell::RefCell<std::collections::HashMap<String, Vec<LineId>>>);

/// A line's `% rule:` id, and whether the comment is all the line holds.
type LineId = Option<(String, bool)>;

impl RuleIds {
    fn at(&self, file: &str, line: usize) -> Option<String> {
        let mut files = self.0.borrow_mut();
        let ids = files.entry(file.to_string()).or_insert_with(|| {
            std::fs::read_to_string(file)
                .map(|text| {
                    text.lines()
                        .map(|l| rule_comment(l).map(|id| (id, l.trim_start().starts_with('%'))))
                        .collect()
                })
                .unwrap_or_default()
        });
        let on = |l: usize| ids.get(l.checked_sub(1)?).cloned().flatten();
        match on(line) {
            Some((id, _)) => Some(id),
            // The line above, when the comment is all it holds (a trailing one
            // names the clause on that line).
            None => on(line.checked_sub(1)?).and_then(|(id, alone)| alone.then_some(id)),
        }
    }
}

/// The id of a `% rule: ID` comment on a line (the line's last `%` comment).
fn rule_comment(line: &str) -> Option<String> {
    let comment = &line[line.rfind('%')? + 1..];
    let (word, id) = comment.split_once(':')?;
    let id = id.trim();
    (word.trim().eq_ignore_ascii_case("rule") && !id.is_empty()).then(|| id.to_string())
}

/// `n(Kind, Text, Children)`, or `n(Kind, Text, Children, At)` for a clause
/// (`At = at(File, Line)` when read from a file) → a proof node.
fn proof(term: &PlTerm, ids: &RuleIds) -> Result<ProofNode, CallError> {
    let bad = || shape_error("explain", term);
    let PlTerm::Compound(n, parts) = term else {
        return Err(bad());
    };
    let (PlTerm::Atom(kind), text, children, at) = (match &parts[..] {
        [kind, text, children] => (kind, text, children, None),
        [kind, text, children, at] => (kind, text, children, Some(at)),
        _ => return Err(bad()),
    }) else {
        return Err(bad());
    };
    if n != "n" {
        return Err(bad());
    }
    let kind = match kind.as_str() {
        "fact" => ProofKind::Fact,
        "rule" => ProofKind::Rule,
        "builtin" => ProofKind::Builtin,
        "negation" => ProofKind::Negation,
        _ => return Err(bad()),
    };
    let goal = match text {
        PlTerm::Atom(a) => a.clone(),
        PlTerm::Str(s) => s.clone(),
        other => other.to_string(),
    };
    let children = match children {
        PlTerm::List(items) => items
            .iter()
            .map(|c| proof(c, ids))
            .collect::<Result<Vec<_>, _>>()?,
        // An empty list may come back as the empty string.
        PlTerm::Str(s) if s.is_empty() => Vec::new(),
        _ => return Err(bad()),
    };
    let (line, rule_id) = match at {
        Some(PlTerm::Compound(f, place)) if f == "at" && place.len() == 2 => {
            let file = match &place[0] {
                PlTerm::Atom(a) | PlTerm::Str(a) => Some(a.as_str()),
                _ => None,
            };
            let line = match &place[1] {
                PlTerm::Int(l) => l.parse::<usize>().ok(),
                _ => None,
            };
            let id = match (file, line, kind) {
                (Some(file), Some(line), ProofKind::Rule) => ids.at(file, line),
                _ => None,
            };
            (line, id)
        }
        _ => (None, None),
    };
    Ok(ProofNode {
        kind,
        goal,
        line,
        rule_id,
        children,
    })
}

/// What the tracer's `charon_explain(Why)` means, for people.
fn not_traceable(why: Option<&PlTerm>) -> String {
    let Some(why) = why else {
        return "the tracer stopped".into();
    };
    if matches!(why, PlTerm::Atom(a) if a == "inference_limit") {
        return "the trace needed more inferences than the limit allows: narrow the call".into();
    }
    if matches!(why, PlTerm::Atom(a) if a == "depth") {
        return format!(
            "the proof is more than {EXPLAIN_DEPTH} rules deep (or the rules loop): call the operation without explaining it"
        );
    }
    let PlTerm::Compound(f, args) = why else {
        return why.to_string();
    };
    let indicator = match (f.as_str(), args.first()) {
        ("unsupported", Some(PlTerm::Compound(slash, pa))) if slash == "/" && pa.len() == 2 => {
            format!("{}/{}", pa[0], pa[1])
        }
        _ => return why.to_string(),
    };
    let construct = match indicator.as_str() {
        "!/0" => Some("a cut (!)"),
        ";/2" => Some("a disjunction or if-then-else (;)"),
        "->/2" | "*->/2" => Some("an if-then (->)"),
        "call/1" => Some("a goal held in a variable (meta-call)"),
        i if i.starts_with("call/") => Some("a meta-call (call/N)"),
        "findall/3" | "findall/4" | "bagof/3" | "setof/3" | "forall/2" | "aggregate_all/3" => {
            Some("collecting solutions (findall, bagof, setof, forall)")
        }
        "catch/3" => Some("exception handling (catch/3)"),
        ":/2" => Some("a module-qualified goal with a variable module"),
        _ => None,
    };
    match construct {
        Some(what) => format!(
            "it reaches {what}, which the tracer does not follow (it traces pure Prolog: conjunctions, the knowledge base's own clauses, \\+, once/1 and side-effect-free built-ins)"
        ),
        None => format!(
            "it reaches `{indicator}`, which is neither a predicate defined in the knowledge base's file nor a built-in the tracer follows (those it follows change nothing and call no goals)"
        ),
    }
}

/// The input of `explain` (HTTP body, MCP arguments).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExplainRequest {
    /// The operation to call.
    pub operation: String,
    /// Its arguments, as its own route or tool takes them.
    #[serde(default = "empty_object")]
    pub arguments: Value,
}

fn empty_object() -> Value {
    Value::Object(Default::default())
}

impl KnowledgeBase {
    /// The operations `explain` accepts: those Charon proved read-only and whose
    /// every reachable clause stays inside the tracer's subset (checked once, on
    /// first use, by the engine without running them; fail closed: none if the
    /// check cannot be made). A dynamic predicate is checked as it is then.
    pub fn explainable(&self) -> Vec<&str> {
        let mut known = self
            .traceable
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if known.is_none() {
            // A check that could not be made is not kept: the next use tries again.
            *known = self.find_traceable();
        }
        let traceable = known.clone().unwrap_or_default();
        self.operations()
            .iter()
            .filter(|op| traceable.iter().any(|t| *t == op.predicate))
            .map(|op| op.name.as_ref())
            .collect()
    }

    fn find_traceable(&self) -> Option<Vec<String>> {
        let candidates: Vec<&crate::pldoc::Operation> = self
            .operations()
            .iter()
            .enumerate()
            .filter(|(i, _)| self.effects[*i].access == Access::Read)
            .map(|(_, op)| op)
            .collect();
        if candidates.is_empty() {
            return Some(Vec::new());
        }
        let mut goals = String::from("[");
        for (i, op) in candidates.iter().enumerate() {
            if i > 0 {
                goals.push(',');
            }
            write_atom(&mut goals, &op.predicate);
            if !op.args.is_empty() {
                goals.push('(');
                goals.push_str(&vec!["_"; op.args.len()].join(","));
                goals.push(')');
            }
        }
        goals.push(']');
        let mut file = String::new();
        write_atom(&mut file, &self.path.display().to_string());
        let query = format!("'$charon_once'(L,'$charon_traceable'({file},{goals},L),0,R).");
        let found = match self.run_read(query, "explain") {
            Ok(RunOutcome {
                outcome: Outcome::Solved(PlTerm::List(items)),
                ..
            }) => items,
            Ok(RunOutcome {
                outcome: Outcome::Solved(_),
                ..
            }) => Vec::new(),
            other => {
                tracing::warn!(target: "charon::explain", "cannot tell now which operations can be explained, so none are offered: {other:?}");
                return None;
            }
        };
        Some(
            found
                .iter()
                .filter_map(|t| match t {
                    PlTerm::Atom(a) | PlTerm::Compound(a, _) => Some(a.clone()),
                    _ => None,
                })
                .collect(),
        )
    }

    /// [`explain_async`](Self::explain_async) for a request naming its operation.
    pub async fn explain_request(
        self: &Arc<Self>,
        request: &ExplainRequest,
        arrived: Instant,
    ) -> Result<Explanation, CallError> {
        self.explain_request_exact(request, arrived).await?.public()
    }

    /// [`explain_request`](Self::explain_request) for Charon's own surfaces, which
    /// write integers of any size exactly.
    pub(crate) async fn explain_request_exact(
        self: &Arc<Self>,
        request: &ExplainRequest,
        arrived: Instant,
    ) -> Result<Explanation, CallError> {
        let id = self
            .resolve(&request.operation)
            .ok_or_else(|| CallError::UnknownOperation(request.operation.clone()))?;
        let kb = Arc::clone(self);
        // The first use checks the whole program: off the executor.
        let listed = match tokio::runtime::Handle::try_current() {
            Ok(rt) => rt
                .spawn_blocking(move || kb.explainable().contains(&request_name(&kb, id)))
                .await
                .unwrap_or(false),
            Err(_) => self.explainable().contains(&request_name(self, id)),
        };
        if !listed {
            // The tracer names the construct it cannot follow; without one (a
            // write, say), the static check's verdict stands.
            return match self
                .explain_async_exact(id, &request.arguments, arrived)
                .await
            {
                Err(e) => Err(e),
                Ok(_) => Err(CallError::NotTraceable {
                    operation: request.operation.clone(),
                    reason: "some clause it may reach goes outside what the tracer follows".into(),
                }),
            };
        }
        self.explain_async_exact(id, &request.arguments, arrived)
            .await
    }
}

impl Explanation {
    /// Orders the result's keys as the operation declares them, for writing
    /// ([`crate::json::in_declared_order`]).
    pub(crate) fn in_declared_order(&mut self, kb: &KnowledgeBase) {
        if let Some(op) = kb.resolve(&self.operation).and_then(|id| kb.op(id)) {
            crate::json::in_declared_order(op, &mut self.result);
        }
    }

    /// The explanation as the public API hands it out (see [`Answer`]'s rule).
    fn public(self) -> Result<Explanation, CallError> {
        let value = serde_json::to_value(&self).unwrap_or_default();
        match crate::json::public(&value) {
            Ok(()) => Ok(self),
            Err(digits) => Err(CallError::Decode {
                operation: self.operation,
                message: crate::json::beyond_serde_json(&digits),
            }),
        }
    }
}

fn request_name(kb: &KnowledgeBase, id: OpId) -> &str {
    kb.op(id).map_or("", |op| op.name.as_ref())
}

/// The JSON Schema of `explain`'s input: one alternative per operation it
/// accepts, with that operation's arguments.
pub fn explain_input_schema(operations: &[&crate::pldoc::Operation]) -> Value {
    let alternatives: Vec<Value> = operations
        .iter()
        .map(|op| {
            let inputs = op.inputs().next().is_some();
            let mut required = vec!["operation"];
            if inputs {
                required.push("arguments");
            }
            serde_json::json!({
                "type": "object",
                "required": required,
                "properties": {
                    "operation": {"const": op.name.as_ref()},
                    "arguments": crate::pldoc::schema::request_schema(op)
                },
                "additionalProperties": false
            })
        })
        .collect();
    let mut schema = serde_json::json!({
        "type": "object",
        "description": "The operation to call and explain (one the tracer can follow) and its arguments, as its own route or tool takes them.",
        "oneOf": alternatives
    });
    if operations.is_empty() {
        // No operation can be explained: no request is valid.
        schema = serde_json::json!({"type": "object", "not": {}, "description": "No operation of this knowledge base can be explained."});
    }
    schema
}

/// The JSON Schema of `explain`'s result, proof nodes referred to at `proof_ref`.
pub fn explain_output_schema(proof_ref: &str) -> Value {
    serde_json::json!({
        "type": "object",
        "required": ["operation", "result", "proofs"],
        "properties": {
            "operation": {"type": "string"},
            "result": {"description": "The answer, exactly as a plain call of the operation gives it."},
            "proofs": {"type": "array", "description": "One proof tree per solution, in the order of the solutions: fact and rule nodes for the knowledge base's clauses, builtin and negation nodes for the rest; goals as Prolog text.", "items": {"$ref": proof_ref}}
        },
        "additionalProperties": false
    })
}
