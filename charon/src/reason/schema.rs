//! JSON Schemas of the reasoning tools' requests and results: one description that
//! the OpenAPI document and the MCP tool list both render.

use serde_json::{Value, json};

fn failure() -> Value {
    json!({
        "type": "object",
        "description": "Why the request failed, and what to do.",
        "required": ["kind", "message"],
        "properties": {
            "kind": {"type": "string", "enum": [
                "parse_error", "unsupported", "too_large", "invalid_query", "invalid_knowledge",
                "invalid_request", "inference_limit", "too_many_answers", "answer_too_large", "time_limit", "memory_limit",
                "arithmetic", "overloaded", "engine"
            ]},
            "message": {"type": "string"},
            "line": {"type": "integer", "minimum": 1},
            "column": {"type": "integer", "minimum": 1},
            "construct": {"type": "string", "description": "The construct outside the grammar (kind unsupported)."},
            "source": {"type": "string", "enum": ["knowledge", "query", "modifications"]}
        },
        "additionalProperties": false
    })
}

fn failed() -> Value {
    json!({
        "type": "object",
        "required": ["ok", "error"],
        "properties": {
            "ok": {"const": false},
            "error": failure()
        },
        "additionalProperties": false
    })
}

fn proof_node(proof_ref: &str) -> Value {
    json!({
        "type": "object",
        "required": ["kind", "goal"],
        "properties": {
            "kind": {"type": "string", "enum": ["fact", "rule", "negation", "comparison", "query", "builtin"]},
            "goal": {"type": "string", "description": "The goal proved, with its values, in Euclid-IR."},
            "line": {"type": "integer", "minimum": 1, "description": "Line of the fact or rule used."},
            "rule_id": {"type": "string", "description": "The identifier the knowledge gives the rule used (`# rule: R-12`)."},
            "children": {"type": "array", "items": {"$ref": proof_ref}}
        },
        "additionalProperties": false
    })
}

/// The request body of `reason`.
pub fn reason_input_schema() -> Value {
    json!({
        "type": "object",
        "required": ["knowledge"],
        "properties": {
            "knowledge": {
                "type": "string",
                "description": "Facts and rules in Euclid-IR (text or YAML form): one item per line, e.g. `parent(tom, bob)`, `ancestor($x, $y) IF parent($x, $z) AND ancestor($z, $y)`; NOT goal, comparisons > >= < =< =:= =\\= is; comments # or //."
            },
            "query": {
                "type": ["string", "null"],
                "description": "The goal to prove, e.g. `ancestor(tom, $who)` (goals may be joined by AND). Optional (or null) when the knowledge holds exactly one `? query` line."
            },
            "max_solutions": {"type": ["integer", "null"], "minimum": 0, "maximum": 4294967295_u64, "description": "Most solutions returned (default 100; null is the default); `truncated` says when more exist. From 1 to the server's limit (1000 unless configured); outside it the result is ok: false, invalid_request."},
            "max_depth": {"type": ["integer", "null"], "minimum": 0, "maximum": 4294967295_u64, "description": "Most rule applications along one branch of the search (default 50; null is the default). From 1 to the server's limit (500 unless configured); outside it the result is ok: false, invalid_request."},
            "max_proofs": {"type": ["integer", "null"], "minimum": 0, "maximum": 4294967295_u64, "description": "Most proofs returned per solution (default 5; null is the default); `proof_count` tells them all."}
        },
        "additionalProperties": false
    })
}

/// The result of `reason`, self-contained (the proof node under `$defs`).
pub fn reason_output_schema() -> Value {
    let mut schema = reason_output_schema_at("#/$defs/proof");
    schema["$defs"] = json!({"proof": proof_node("#/$defs/proof")});
    schema
}

/// The proof node's schema, for a document that keeps it at `proof_ref`.
pub(crate) fn proof_node_schema(proof_ref: &str) -> Value {
    proof_node(proof_ref)
}

/// The result of `reason`, with proof nodes referred to at `proof_ref`.
pub(crate) fn reason_output_schema_at(proof_ref: &str) -> Value {
    json!({"oneOf": [answers(proof_ref), failed()]})
}

/// A `count` field of a request: a whole number, or null for the default.
fn count(description: &str) -> Value {
    json!({"type": ["integer", "null"], "minimum": 0, "maximum": 4294967295_u64, "description": description})
}

fn bindings() -> Value {
    json!({"type": "object", "additionalProperties": {"type": ["string", "number", "null"]}})
}

/// The answers of a search (`reason`'s result when ok).
fn answers(proof_ref: &str) -> Value {
    json!(            {
        "type": "object",
        "required": ["ok", "query", "variables", "solutions", "solution_count", "truncated", "depth_exhausted", "warnings"],
        "properties": {
            "ok": {"const": true},
            "query": {"type": "string"},
            "variables": {"type": "array", "items": {"type": "string"}},
            "solutions": {"type": "array", "items": {
                "type": "object",
                "required": ["bindings", "proof_count", "proofs"],
                "properties": {
                    "bindings": bindings(),
                    "proof_count": {"type": "integer", "minimum": 1},
                    "proofs": {"type": "array", "items": {"$ref": proof_ref}}
                },
                "additionalProperties": false
            }},
            "solution_count": {"type": "integer", "minimum": 0},
            "truncated": {"type": "boolean"},
            "depth_exhausted": {"type": "boolean"},
            "warnings": {"type": "array", "items": {"type": "string"}}
        },
        "additionalProperties": false
    })
}

/// The request body of `diagnose`.
pub fn diagnose_input_schema() -> Value {
    json!({
        "type": "object",
        "required": ["knowledge", "mode"],
        "properties": {
            "knowledge": {"type": "string", "description": "Facts and rules in Euclid-IR (text or YAML form)."},
            "query": {"type": ["string", "null"], "description": "The goal to explain, e.g. `mortal(plato)`. Optional (or null) when the knowledge holds exactly one `? query` line."},
            "mode": {"type": "string", "enum": ["why", "why_not", "what_needs"], "description": "why: the proofs of a goal that holds. why_not: the premises that failed (which rule, which body goal, with which values), traced through the search. what_needs: sets of facts over fact-only or undefined predicates that, added, make the goal hold, each verified by re-running the query."},
            "max_depth": count("Most rule applications along one branch of each search (default 50; null is the default)."),
            "max_facts": count("what_needs: most facts in one proposal (default 3, at most 10)."),
            "max_proposals": count("what_needs: most proposals returned (default 5, at most 50).")
        },
        "additionalProperties": false
    })
}

/// The result of `diagnose`, self-contained (shared nodes under `$defs`).
pub fn diagnose_output_schema() -> Value {
    let mut schema = diagnose_output_schema_at("#/$defs/proof", "#/$defs/failed_goal");
    schema["$defs"] = json!({
        "proof": proof_node("#/$defs/proof"),
        "failed_goal": failed_goal_node("#/$defs/failed_goal", "#/$defs/proof"),
    });
    schema
}

/// The node of a why_not trace.
pub(crate) fn failed_goal_node(self_ref: &str, proof_ref: &str) -> Value {
    json!({
        "type": "object",
        "required": ["goal", "reason", "message"],
        "properties": {
            "goal": {"type": "string", "description": "The goal that failed, with its values, in Euclid-IR."},
            "reason": {"type": "string", "enum": [
                "undefined", "no_matching_fact", "no_matching_rule", "rules_failed",
                "negated_goal_holds", "comparison_false", "depth_limit", "recursion",
                "not_traced", "error", "always_false"
            ]},
            "message": {"type": "string"},
            "attempts": {"type": "array", "items": {
                "type": "object",
                "description": "A rule whose head matched, and the first body goal no set of values got past.",
                "required": ["rule", "line", "failed_at", "failed_goal", "reached", "bindings"],
                "properties": {
                    "rule": {"type": "string"},
                    "line": {"type": "integer", "minimum": 0},
                    "rule_id": {"type": "string"},
                    "failed_at": {"type": "integer", "minimum": 1},
                    "failed_goal": {"type": "string"},
                    "reached": {"type": "integer", "minimum": 0},
                    "bindings": bindings(),
                    "because": {"type": "array", "items": {"$ref": self_ref}}
                },
                "additionalProperties": false
            }},
            "proof": {"$ref": proof_ref},
            "closest": {"type": "array", "items": {"type": "string"}}
        },
        "additionalProperties": false
    })
}

/// The result of `diagnose`, with shared nodes referred to.
pub(crate) fn diagnose_output_schema_at(proof_ref: &str, failed_ref: &str) -> Value {
    json!({"oneOf": [
        {
            "type": "object",
            "required": ["ok", "mode", "query", "holds", "conclusion", "findings", "complete", "solutions", "warnings"],
            "properties": {
                "ok": {"const": true},
                "mode": {"type": "string", "enum": ["why", "why_not", "what_needs"]},
                "query": {"type": "string"},
                "holds": {"type": "boolean"},
                "conclusion": {"type": "string"},
                "findings": {"type": "array", "items": {"type": "string"}},
                "complete": {"type": "boolean"},
                "solutions": answers(proof_ref)["properties"]["solutions"].clone(),
                "trace": {"$ref": failed_ref},
                "proposals": {"type": "array", "items": {
                    "type": "object",
                    "required": ["facts", "solution_count", "minimal"],
                    "properties": {
                        "facts": {"type": "array", "items": {"type": "string"}},
                        "solution_count": {"type": "integer", "minimum": 1},
                        "minimal": {"type": "boolean"}
                    },
                    "additionalProperties": false
                }},
                "warnings": {"type": "array", "items": {"type": "string"}}
            },
            "additionalProperties": false
        },
        failed()
    ]})
}

/// The request body of `what_if`.
pub fn what_if_input_schema() -> Value {
    json!({
        "type": "object",
        "required": ["base_knowledge", "modifications"],
        "properties": {
            "base_knowledge": {"type": "string", "description": "The knowledge as it stands, in Euclid-IR (text or YAML form)."},
            "modifications": {"type": "string", "description": "One change per line: `+ fact` adds a fact, `- fact` removes one (a `-` that matches no fact is an error); `#` comments allowed."},
            "query": {"type": ["string", "null"], "description": "The goal to compare. Optional (or null) when the knowledge holds exactly one `? query` line."},
            "max_solutions": count("Most solutions returned per side and per list of changes (default 100); the counts are always exact."),
            "max_depth": count("Most rule applications along one branch of the search (default 50)."),
            "max_proofs": count("Most proofs returned per solution (default 5).")
        },
        "additionalProperties": false
    })
}

/// The result of `what_if`, self-contained.
pub fn what_if_output_schema() -> Value {
    let mut schema = what_if_output_schema_at("#/$defs/proof");
    schema["$defs"] = json!({"proof": proof_node("#/$defs/proof")});
    schema
}

/// The result of `what_if`, with proof nodes referred to at `proof_ref`.
pub(crate) fn what_if_output_schema_at(proof_ref: &str) -> Value {
    let bindings_list = json!({"type": "array", "items": bindings()});
    json!({"oneOf": [
        {
            "type": "object",
            "required": ["ok", "query", "applied", "before", "after", "before_count", "after_count", "delta", "appeared", "disappeared", "unchanged", "changes_truncated", "warnings"],
            "properties": {
                "ok": {"const": true},
                "query": {"type": "string"},
                "applied": {"type": "array", "items": {
                    "type": "object",
                    "required": ["action", "fact", "line", "matched"],
                    "properties": {
                        "action": {"type": "string", "enum": ["add", "remove"]},
                        "fact": {"type": "string"},
                        "line": {"type": "integer", "minimum": 1},
                        "matched": {"type": "integer", "minimum": 0}
                    },
                    "additionalProperties": false
                }},
                "before": answers(proof_ref),
                "after": answers(proof_ref),
                "before_count": {"type": "integer", "minimum": 0},
                "after_count": {"type": "integer", "minimum": 0},
                "delta": {"type": "integer"},
                "appeared": bindings_list.clone(),
                "disappeared": bindings_list,
                "unchanged": {"type": "integer", "minimum": 0},
                "changes_truncated": {"type": "boolean"},
                "warnings": {"type": "array", "items": {"type": "string"}}
            },
            "additionalProperties": false
        },
        failed()
    ]})
}

/// The request body of `check_kb`.
pub fn check_kb_input_schema() -> Value {
    json!({
        "type": "object",
        "required": ["knowledge"],
        "properties": {
            "knowledge": {"type": "string", "description": "Facts and rules in Euclid-IR (text or YAML form)."}
        },
        "additionalProperties": false
    })
}

/// The result of `check_kb`.
pub fn check_kb_output_schema() -> Value {
    json!({
        "type": "object",
        "required": ["ok", "valid", "facts", "rules", "queries", "predicates", "issues"],
        "properties": {
            "ok": {"type": "boolean"},
            "valid": {"type": "boolean"},
            "facts": {"type": "integer", "minimum": 0},
            "rules": {"type": "integer", "minimum": 0},
            "queries": {"type": "integer", "minimum": 0},
            "predicates": {"type": "array", "items": {"type": "string"}},
            "issues": {"type": "array", "items": {
                "type": "object",
                "required": ["severity", "kind", "message", "line", "column"],
                "properties": {
                    "severity": {"type": "string", "enum": ["error", "warning"]},
                    "kind": {"type": "string"},
                    "message": {"type": "string"},
                    "line": {"type": "integer", "minimum": 1},
                    "column": {"type": "integer", "minimum": 1}
                },
                "additionalProperties": false
            }},
            "error": failure()
        },
        "additionalProperties": false
    })
}
