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
                "invalid_request", "inference_limit", "too_many_answers", "time_limit", "memory_limit",
                "arithmetic", "overloaded", "engine"
            ]},
            "message": {"type": "string"},
            "line": {"type": "integer", "minimum": 1},
            "column": {"type": "integer", "minimum": 1},
            "construct": {"type": "string", "description": "The construct outside the grammar (kind unsupported)."},
            "source": {"type": "string", "enum": ["knowledge", "query"]}
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
            "kind": {"type": "string", "enum": ["fact", "rule", "negation", "comparison", "query"]},
            "goal": {"type": "string", "description": "The goal proved, with its values, in Euclid-IR."},
            "line": {"type": "integer", "minimum": 1, "description": "Line of the fact or rule used."},
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
            "max_solutions": {"type": ["integer", "null"], "minimum": 0, "maximum": 4294967295_u64, "description": "Most solutions returned (default 100; null is the default); `truncated` says when more exist."},
            "max_depth": {"type": ["integer", "null"], "minimum": 0, "maximum": 4294967295_u64, "description": "Most rule applications along one branch of the search (default 50; null is the default). Past the server's limit (60 unless configured) the result is ok: false, invalid_request."},
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
    json!({
        "oneOf": [
            {
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
                            "bindings": {"type": "object", "additionalProperties": {"type": ["string", "number", "null"]}},
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
            },
            failed()
        ]
    })
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
