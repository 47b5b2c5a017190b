//! The reasoning tools as one table, for every surface: the MCP tool list and the
//! HTTP routes (with their OpenAPI entries) are both drawn from [`TOOLS`], and a
//! call of any of them goes through [`Reasoner::call_tool`].

use std::sync::Arc;
use std::time::Instant;

use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use super::schema;
use super::{
    CheckKbRequest, DiagnoseRequest, ReasonRequest, Reasoner, WhatIfRequest, proof_node_schema,
};

/// One reasoning tool: its names, what it does, and its JSON Schemas.
#[derive(Debug, Clone, Copy)]
pub struct ToolSpec {
    /// The MCP tool name (and OpenAPI operationId).
    pub name: &'static str,
    /// The HTTP route (POST).
    pub path: &'static str,
    /// One line.
    pub summary: &'static str,
    /// What it does and how to read the result.
    pub description: &'static str,
    /// The JSON Schema of its arguments.
    pub input: fn() -> Value,
    /// The JSON Schema of its result, self-contained (shared nodes under `$defs`).
    pub output: fn() -> Value,
    /// The same, with shared nodes referred to in an OpenAPI document's components.
    pub(crate) output_in_document: fn() -> Value,
}

/// Where an OpenAPI document keeps the shared nodes.
pub(crate) const PROOF_REF: &str = "#/components/schemas/EuclidProofNode";
pub(crate) const FAILED_GOAL_REF: &str = "#/components/schemas/EuclidFailedGoal";

/// The components an OpenAPI document needs for the tools' results.
pub(crate) fn document_components() -> [(&'static str, Value); 2] {
    [
        ("EuclidProofNode", proof_node_schema(PROOF_REF)),
        (
            "EuclidFailedGoal",
            schema::failed_goal_node(FAILED_GOAL_REF, PROOF_REF),
        ),
    ]
}

/// Every reasoning tool.
pub const TOOLS: [ToolSpec; 4] = [
    ToolSpec {
        name: "reason",
        path: "/reason",
        summary: "Prove a goal from Euclid-IR facts and rules, with a proof tree per solution",
        description: "Prove a goal from facts and rules written in Euclid-IR, and return every solution with its proof tree (fact, rule, negation and comparison steps). Knowledge in, answers out: nothing is kept between calls. Solutions are merged by their bindings and sorted; an empty list means the knowledge does not entail the goal (closed world), unless depth_exhausted is true; truncated says more exist than were returned. Failures come back as ok: false with a message saying what to fix.",
        input: schema::reason_input_schema,
        output: schema::reason_output_schema,
        output_in_document: || schema::reason_output_schema_at(PROOF_REF),
    },
    ToolSpec {
        name: "diagnose",
        path: "/diagnose",
        summary: "Explain a goal: why it holds, why it does not, what facts would make it hold",
        description: "Explain a goal over Euclid-IR knowledge. mode why: the proofs of a goal that holds. mode why_not: the premises that failed, traced through the search (each rule whose head matched, the first body goal no values got past, with those values, followed down through the rules); undefined predicates are named. mode what_needs: sets of facts over fact-only or undefined predicates that, added, make the goal hold, each verified by re-running the query and checked for minimality. complete: false says a bound cut the analysis short.",
        input: schema::diagnose_input_schema,
        output: schema::diagnose_output_schema,
        output_in_document: || schema::diagnose_output_schema_at(PROOF_REF, FAILED_GOAL_REF),
    },
    ToolSpec {
        name: "what_if",
        path: "/what-if",
        summary: "Compare a goal's answers before and after adding or removing facts",
        description: "Apply hypothetical changes to Euclid-IR knowledge (`+ fact` / `- fact`, one per line; a `-` that matches no fact is an error) and return the solutions before and after, their exact counts, and which solutions appeared and disappeared. Nothing is kept.",
        input: schema::what_if_input_schema,
        output: schema::what_if_output_schema,
        output_in_document: || schema::what_if_output_schema_at(PROOF_REF),
    },
    ToolSpec {
        name: "check_kb",
        path: "/check-kb",
        summary: "Check Euclid-IR knowledge without running it",
        description: "Check Euclid-IR knowledge without running it: syntax (with line and column), undefined predicates, arity mismatches, recursion through negation, recursion without a base case, duplicate facts and rules, unsafe and singleton variables.",
        input: schema::check_kb_input_schema,
        output: schema::check_kb_output_schema,
        output_in_document: schema::check_kb_output_schema,
    },
];

/// The arguments of a tool call, as the surface received them.
pub(crate) enum ToolArgs<'a> {
    /// A request body (read straight into the tool's input type: a large
    /// knowledge text is not copied through a `Value`).
    Bytes(&'a [u8]),
    /// MCP arguments.
    Json(Value),
}

impl ToolArgs<'_> {
    /// The tool's input, from a JSON object only: serde's derive would also take an
    /// array of the fields in order, which the input schema does not allow.
    fn parse<T: DeserializeOwned>(self) -> Result<T, serde_json::Error> {
        let not_object =
            || <serde_json::Error as serde::de::Error>::custom("the input must be a JSON object");
        let value = match self {
            ToolArgs::Bytes(b) => {
                if b.iter().find(|c| !c.is_ascii_whitespace()) != Some(&b'{') {
                    return Err(not_object());
                }
                crate::json::read(b)?
            }
            ToolArgs::Json(v) if v.is_object() => v,
            ToolArgs::Json(_) => return Err(not_object()),
        };
        // No input of a reasoning tool takes an integer past 64 bits; one held
        // marked inside Charon must not pass for the text a field expects.
        if let Err(digits) = crate::json::public(&value) {
            return Err(<serde_json::Error as serde::de::Error>::custom(format!(
                "the integer {digits} is no value any input of this tool takes"
            )));
        }
        serde_json::from_value(value)
    }
}

/// A tool's result, shaped off the async executor: as JSON, and as the exact text
/// a surface sends.
pub(crate) struct ToolOutput {
    /// The result (`ok: false` included).
    pub value: Value,
    /// `value` written exactly (integers of any size as numbers).
    pub text: String,
}

impl Reasoner {
    /// Calls the reasoning tool `name`: its result (`ok: false` included), or `Err`
    /// when the arguments are not the tool's input (or no tool has the name). The
    /// result is converted and written on a blocking thread, and one past
    /// `max_answer_bytes` becomes `ok: false` with kind `answer_too_large`.
    pub(crate) async fn call_tool(
        self: &Arc<Self>,
        name: &str,
        args: ToolArgs<'_>,
        arrived: Instant,
    ) -> Result<ToolOutput, String> {
        let started = Instant::now();
        let result = self.call_tool_unmetered(name, args, arrived).await;
        if let Some(index) = super::TOOL_NAMES.iter().position(|t| *t == name) {
            // A result with `ok: false` names its kind (`time_limit`, …): as a
            // problem type, `time-limit`.
            let kind = match &result {
                Err(_) => Some("bad-arguments".to_string()),
                Ok(out) if out.value.get("ok") == Some(&serde_json::Value::Bool(false)) => Some(
                    out.value["error"]["kind"]
                        .as_str()
                        .unwrap_or("engine")
                        .replace('_', "-"),
                ),
                Ok(_) => None,
            };
            self.metrics
                .record(index, started.elapsed(), kind.as_deref());
        }
        result
    }

    async fn call_tool_unmetered(
        self: &Arc<Self>,
        name: &str,
        args: ToolArgs<'_>,
        arrived: Instant,
    ) -> Result<ToolOutput, String> {
        let bad = |e: serde_json::Error| format!("{name}: {e}");
        let shaped = match name {
            "reason" => {
                let request: ReasonRequest = args.parse().map_err(bad)?;
                self.shape(self.reason_async(&request, arrived).await).await
            }
            "diagnose" => {
                let request: DiagnoseRequest = args.parse().map_err(bad)?;
                self.shape(self.diagnose_async(request).await).await
            }
            "what_if" => {
                let request: WhatIfRequest = args.parse().map_err(bad)?;
                self.shape(self.what_if_async(request).await).await
            }
            "check_kb" => {
                let request: CheckKbRequest = args.parse().map_err(bad)?;
                self.shape(self.check_kb_async(request.knowledge).await)
                    .await
            }
            other => return Err(format!("no reasoning tool is named `{other}`")),
        };
        Ok(shaped)
    }

    /// `result` as JSON and as text, within the answer's byte limit.
    async fn shape<R: serde::Serialize + Send + 'static>(&self, result: R) -> ToolOutput {
        let max = self.config.max_answer_bytes;
        let work = move || {
            let failed = |f: super::Failure| {
                let value = serde_json::to_value(f.result()).unwrap_or_default();
                let text = crate::json::to_string(&value).unwrap_or_default();
                ToolOutput { value, text }
            };
            let value = match serde_json::to_value(&result) {
                Ok(v) => v,
                Err(e) => {
                    return failed(super::Failure::new(
                        super::FailureKind::Engine,
                        e.to_string(),
                    ));
                }
            };
            match crate::json::to_string(&value) {
                Ok(text) if text.len() <= max => ToolOutput { value, text },
                Ok(_) => failed(super::answer_too_large(&format!("{max} bytes"))),
                Err(e) => failed(super::Failure::new(
                    super::FailureKind::Engine,
                    e.to_string(),
                )),
            }
        };
        super::off_thread(work).await.unwrap_or_else(|why| {
            let value = json!({"ok": false, "error": {"kind": "engine", "message": why}});
            let text = value.to_string();
            ToolOutput { value, text }
        })
    }
}
