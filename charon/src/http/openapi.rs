//! The OpenAPI 3.1 document of a knowledge base's routes, rendered from the
//! operation model with the schemas of [`crate::pldoc::schema`].

use serde_json::{Map, Value, json};

use crate::pldoc::schema::{request_schema, response_schema, type_schema};
use crate::pldoc::{Determinism, Method, Operation, Type};

use super::problem::PROBLEM_JSON;

/// The document for `operations`, titled `title`.
pub fn document(title: &str, operations: &[Operation]) -> Value {
    let mut paths = Map::new();
    for op in operations {
        let method = match op.method() {
            Method::Get => "get",
            Method::Put => "put",
            Method::Delete => "delete",
            Method::Post => "post",
        };
        let mut path_item = Map::new();
        path_item.insert(method.into(), operation(op));
        paths.insert(format!("/{}", op.name), Value::Object(path_item));
    }
    paths.insert("/health".into(), health_path());
    fixed_paths(&mut paths);
    json!({
        "openapi": "3.1.0",
        "jsonSchemaDialect": "https://json-schema.org/draft/2020-12/schema",
        "info": {
            "title": title,
            "version": env!("CARGO_PKG_VERSION"),
            "description": "Operations of a Prolog knowledge base, served by Charon. Every documented predicate is one operation; errors are RFC 9457 problem details.",
        },
        "servers": [{"url": "/", "description": "The server that serves this document"}],
        // No credentials unless the server requires a token (`require_token`).
        "security": [],
        "paths": paths,
        "components": {"schemas": {"Problem": problem_schema()}},
    })
}

/// `GET /health`: liveness, with the counters for monitoring.
fn health_path() -> Value {
    let count = || json!({"type": "integer", "minimum": 0});
    json!({"get": {
        "operationId": "health",
        "summary": "Liveness: the server is up (answered at once, without the engine)",
        "responses": {
            "200": {"description": "The server is up, with counters for monitoring. A busy engine is still healthy: see /health/ready.", "content": {"application/json": {"schema": {
                "type": "object",
                "properties": {
                    "status": {"enum": ["ok", "diverged"], "description": "diverged: a replica that stopped serving (see replica.diverged)."},
                    "operations": count(),
                    "generation": {"type": "integer", "minimum": 0, "description": "The database generation: it changes with every write that changed something."},
                    "engine": {
                        "type": "object",
                        "properties": {
                            "workers": count(), "idle_workers": count(), "workers_started": count(),
                            "calls": count(), "pending": count(), "max_pending": count(),
                        },
                        "required": ["workers", "idle_workers", "workers_started", "calls", "pending", "max_pending"],
                        "additionalProperties": false,
                    },
                    "cache": {
                        "description": "The answer cache: hits and misses since start, entries and bytes held now, the bound on bytes.",
                        "type": "object",
                        "properties": {
                            "hits": count(), "misses": count(), "entries": count(), "bytes": count(), "capacity": count(),
                        },
                        "required": ["hits", "misses", "entries", "bytes", "capacity"],
                        "additionalProperties": false,
                    },
                    "persist": {
                        "description": "With --persist: the file the database is written back to, the generation last written to it, the folds of the journal into it done, and whether one is due or running.",
                        "type": "object",
                        "properties": {"file": {"type": "string"}, "generation": {"type": "integer", "minimum": 0}, "folds": count(), "folding": {"type": "boolean"}},
                        "required": ["file", "generation", "folds", "folding"],
                        "additionalProperties": false,
                    },
                    "replica": {
                        "description": "With --replicate: the last record of the log applied here, the last known in the log, the newest snapshot taken or applied here, whether PostgreSQL answered last, how long ago, the replication lag, why the replica stopped if it did, and why writes wait if they do.",
                        "type": "object",
                        "properties": {
                            "applied": count(), "head": count(), "snapshot": count(),
                            "connected": {"type": "boolean"},
                            "last_contact_secs": {"type": "number", "minimum": 0},
                            "lag_secs": {"type": "number", "minimum": 0},
                            "diverged": {"type": ["string", "null"]},
                            "writes_paused": {"type": ["string", "null"], "description": "Why writes are refused for now (503, Retry-After) while reads are served: the log looked shorter than what this replica applied; cleared when it holds every record again."},
                        },
                        "required": ["applied", "head", "snapshot", "connected", "last_contact_secs", "lag_secs", "diverged", "writes_paused"],
                        "additionalProperties": false,
                    },
                    "reload": {
                        "description": "Hot reloads (charon http, on SIGHUP or with --watch): how many succeeded, and the error of the last one if it failed (the knowledge base loaded before it keeps serving).",
                        "type": "object",
                        "properties": {
                            "status": {"enum": ["ok", "failed"]},
                            "reloads": count(),
                            "error": {"type": "string"},
                            "serving": {"type": "string"},
                        },
                        "required": ["status", "reloads"],
                        "additionalProperties": false,
                    },
                },
                "required": ["status", "operations", "generation", "engine", "cache"],
                "additionalProperties": false,
            }}}},
            "405": problem_response("Only GET (and HEAD) are served here."),
        },
    }})
}

/// The paths every document has besides `/health`: readiness, the docs page and
/// the document itself.
fn fixed_paths(paths: &mut Map<String, Value>) {
    paths.insert(
        "/health/ready".into(),
        json!({"get": {
            "operationId": "health.ready",
            "summary": "Readiness: the engine can take a call now",
            "responses": {
                "200": {"description": "A worker is free (or became free within a second) and the admission limit has room.", "content": {"application/json": {"schema": {
                    "type": "object",
                    "properties": {"status": {"const": "ready"}},
                    "required": ["status"],
                    "additionalProperties": false,
                }}}},
                "405": problem_response("Only GET (and HEAD) are served here."),
                "503": problem_response("Every worker is busy, or the admission limit is reached."),
            },
        }}),
    );
    paths.insert(
        "/docs".into(),
        json!({"get": {
            "operationId": "docs",
            "summary": "An interactive page for this document, with Try it on every operation",
            "responses": {
                "200": {"description": "The page (self-contained: it fetches nothing but this document and the calls made from it).", "content": {"text/html": {"schema": {"type": "string"}}}},
                "405": problem_response("Only GET (and HEAD) are served here."),
            },
        }}),
    );
    paths.insert(
        "/openapi.json".into(),
        json!({"get": {
            "operationId": "openapi",
            "summary": "This document",
            "responses": {
                "200": {"description": "The OpenAPI 3.1 document.", "content": {"application/json": {"schema": {"type": "object"}}}},
                "405": problem_response("Only GET (and HEAD) are served here."),
            },
        }}),
    );
}

/// Adds the reasoning tools' routes (`POST /reason`, `/diagnose`, `/what-if`,
/// `/check-kb`) and their schemas: the same ones the MCP tools declare.
pub fn add_reasoning(doc: &mut Value) {
    for (name, schema) in crate::reason::tools::document_components() {
        doc["components"]["schemas"][name] = schema;
    }
    let Some(paths) = doc["paths"].as_object_mut() else {
        return;
    };
    for tool in &crate::reason::TOOLS {
        paths.insert(
            tool.path.into(),
            json!({"post": {
                "operationId": tool.name,
                "summary": tool.summary,
                "description": tool.description,
                "requestBody": {"required": true, "content": {"application/json": {"schema": (tool.input)()}}},
                "responses": {
                    "200": {"description": "The result: `ok: true`, or `ok: false` with an error saying what to fix (parse errors with line and column, limits hit).", "content": {"application/json": {"schema": (tool.output_in_document)()}}},
                    "400": problem_response("The body is not the tool's input (not JSON, a missing or unknown field, a wrong type)."),
                    "405": problem_response("Only POST is served here."),
                    "413": problem_response("The request body is over the size limit."),
                    "415": problem_response("The request body is not JSON."),
                    "503": problem_response("Too many calls are waiting for the engine."),
                },
            }}),
        );
    }
}

/// Adds `POST /explain`: a call of one of `operations` with its proof trees.
pub fn add_explain(doc: &mut Value, operations: &[&Operation]) {
    let (name, schema) = crate::reason::tools::document_components()[0].clone();
    doc["components"]["schemas"][name] = schema;
    let Some(paths) = doc["paths"].as_object_mut() else {
        return;
    };
    paths.insert(
        "/explain".into(),
        json!({"post": {
            "operationId": "explain",
            "summary": "Call an operation and explain its answer with proof trees",
            "description": "Runs a read-only operation through the tracer: the answer (exactly as the operation's own route gives it) and one proof tree per solution. The tracer follows the knowledge base's own clauses, conjunctions, \\+, once/1 and side-effect-free built-ins; a call that reaches anything else (cut, if-then-else, findall, a database change, I/O) is refused with 422 not-traceable.",
            "requestBody": {"required": true, "content": {"application/json": {"schema": crate::explain_input_schema(operations)}}},
            "responses": {
                "200": {"description": "The answer and its proofs.", "content": {"application/json": {"schema": crate::explain_output_schema(crate::reason::tools::PROOF_REF)}}},
                "400": problem_response("The body is not explain's input, or the operation's arguments are wrong."),
                "404": problem_response("A det operation has no answer for these arguments."),
                "405": problem_response("Only POST is served here."),
                "413": problem_response("The request body is over the size limit."),
                "415": problem_response("The request body is not JSON."),
                "422": problem_response("The call cannot be explained (not-traceable), raised an exception, or hit a limit."),
                "500": problem_response("The engine failed, or the answer does not fit its declared type."),
                "503": problem_response("Too many calls are waiting for the engine."),
                "504": problem_response("The call ran out of time."),
            },
        }}),
    );
}

/// Adds `GET /metrics` (see [`crate::http::metrics`]).
pub fn add_metrics(doc: &mut Value) {
    let Some(paths) = doc["paths"].as_object_mut() else {
        return;
    };
    paths.insert(
        "/metrics".into(),
        json!({"get": {
            "operationId": "metrics",
            "summary": "Metrics in the OpenMetrics text format, for Prometheus",
            "description": "Calls by operation and outcome, call durations, limits hit, the answer cache, the engine's workers and the calls waiting.",
            "responses": {
                "200": {"description": "The metrics: Prometheus's text format (version 0.0.4) by default, OpenMetrics when the Accept header asks for it.", "content": {"text/plain": {"schema": {"type": "string"}}, "application/openmetrics-text": {"schema": {"type": "string"}}}},
                "405": problem_response("Only GET is served here."),
            },
        }}),
    );
}

/// Declares the bearer token a server requires ([`super::Guard::with_token`]): the
/// scheme, a requirement on every operation but the health probes, and their 401.
pub fn require_token(doc: &mut Value) {
    doc["components"]["securitySchemes"] = json!({
        "bearer": {
            "type": "http",
            "scheme": "bearer",
            "description": "The token the server was started with (--token or CHARON_TOKEN).",
        }
    });
    doc["security"] = json!([{ "bearer": [] }]);
    let unauthorized = problem_response("No bearer token, or not the server's.");
    if let Some(paths) = doc["paths"].as_object_mut() {
        for (path, item) in paths.iter_mut() {
            let Some(item) = item.as_object_mut() else {
                continue;
            };
            for operation in item.values_mut() {
                if path == "/health" || path == "/health/ready" || path == "/docs" {
                    operation["security"] = json!([]);
                } else {
                    operation["responses"]["401"] = unauthorized.clone();
                }
            }
        }
    }
}

fn operation(op: &Operation) -> Value {
    let mut o = Map::new();
    o.insert("operationId".into(), json!(op.name));
    o.insert(
        "summary".into(),
        json!(op.summary().unwrap_or_else(|| op.name.to_string())),
    );
    if !op.description.is_empty() {
        o.insert("description".into(), json!(op.description));
    }
    match op.method() {
        Method::Get | Method::Delete => {
            let params: Vec<Value> = op
                .inputs()
                .map(|arg| query_parameter(&arg.name, &arg.ty, arg.doc.as_deref()))
                .collect();
            if !params.is_empty() {
                o.insert("parameters".into(), Value::Array(params));
            }
        }
        Method::Post | Method::Put => {
            o.insert(
                "requestBody".into(),
                json!({
                    "required": op.inputs().next().is_some(),
                    "content": {"application/json": {"schema": request_schema(op)}},
                }),
            );
        }
    }
    let answer = format!("The answer ({} operation).", op.determinism);
    let mut responses = json!({
            "200": {"description": answer, "content": {"application/json": {"schema": response_schema(op)}}},
            "400": problem_response("Bad arguments: unknown, missing, duplicated, an output, or of the wrong type."),
            "413": problem_response("The request body is over the size limit."),
            "415": problem_response("The request body is not JSON."),
            "422": problem_response("The goal raised a Prolog exception, or a limit on inferences or solutions was hit."),
            "500": problem_response("The answer does not fit its declared type, or the engine failed."),
            "502": problem_response("Replicated mode, a write: its commit to the log was sent and PostgreSQL's answer lost, and whether it was made is not known (write-outcome-unknown, with the transaction id and the log record that settle it). Read before sending it again."),
            "503": problem_response("Too many calls are waiting for the engine (overloaded); or, for a write, the knowledge base was reloaded before it could start (reloaded: not made, send it again; Retry-After); or, replicated, the log cannot be reached (replica-unavailable: not made; Retry-After) or this replica stopped serving (replica-stopped)."),
            "504": problem_response("The call ran past its time limit and was stopped."),
    });
    if op.determinism == Determinism::Det {
        responses["404"] = problem_response(
            "The det operation has no answer for these arguments (the predicate failed).",
        );
    }
    o.insert("responses".into(), responses);
    Value::Object(o)
}

/// The document for `kb`'s operations (`operations`, a subset of them, in their
/// order), as a server serves it: [`document`] with the paging parameters of the
/// operations that have pages ([`add_paging`]).
pub fn document_for(kb: &crate::KnowledgeBase, title: &str, operations: &[Operation]) -> Value {
    let mut doc = document(title, operations);
    add_paging(&mut doc, kb);
    doc
}

/// Declares `page_size` and `cursor` (lower-case names, which no argument can
/// have), the `Charon-Next-Cursor` header, the 409 of a stale cursor and the
/// `application/x-ndjson` stream of solutions on every operation of `doc` that
/// answers in pages (and streams)
/// ([`KnowledgeBase::is_pageable`](crate::KnowledgeBase::is_pageable)).
pub fn add_paging(doc: &mut Value, kb: &crate::KnowledgeBase) {
    let Some(paths) = doc["paths"].as_object_mut() else {
        return;
    };
    for op in kb.operations() {
        if !kb.is_pageable(&op.name) {
            continue;
        }
        let Some(item) = paths
            .get_mut(&format!("/{}", op.name))
            .and_then(Value::as_object_mut)
            .and_then(|item| item.values_mut().next())
            .and_then(Value::as_object_mut)
        else {
            continue;
        };
        let params = item
            .entry("parameters")
            .or_insert_with(|| Value::Array(Vec::new()));
        if let Value::Array(params) = params {
            params.extend(paging_parameters());
        }
        let responses = &mut item["responses"];
        responses["200"]["headers"] = json!({"Charon-Next-Cursor": {
            "description": "With page_size: the cursor of the next page; absent on the last page.",
            "schema": {"type": "string", "pattern": CURSOR_PATTERN},
        }});
        responses["409"] = problem_response(
            "The cursor was taken before a write that may have changed the answer (cursor-stale: ask for the first page again), or belongs to another call (cursor-mismatch).",
        );
        if kb.is_streamable(&op.name) {
            let element =
                responses["200"]["content"]["application/json"]["schema"]["items"].clone();
            responses["200"]["content"][super::NDJSON] =
                json!({"schema": stream_line_schema(element)});
        }
    }
}

/// One line of a streamed answer (`Accept: application/x-ndjson`, see
/// `http::ndjson`): a solution, or the last line — how the stream ended.
fn stream_line_schema(element: Value) -> Value {
    json!({
        "description": "With Accept: application/x-ndjson, the answer is streamed as solutions are found: one of these objects per line, a {\"solution\"} per solution, then one {\"end\"} or {\"error\"} line, always last.",
        "oneOf": [
            {"type": "object", "required": ["solution"], "additionalProperties": false,
             "properties": {"solution": element}},
            {"type": "object", "required": ["end"], "additionalProperties": false,
             "properties": {"end": {"type": "object", "required": ["status", "solutions"],
                "properties": {
                    "status": {"enum": ["complete", "truncated"],
                        "description": "truncated: the server's limit of streamed solutions was reached and there are more."},
                    "solutions": {"type": "integer", "minimum": 0},
                    "limit": {"type": "integer", "minimum": 0},
                }}}},
            {"type": "object", "required": ["error"], "additionalProperties": false,
             "properties": {"error": {"$ref": "#/components/schemas/Problem"}}},
        ],
    })
}

/// What a page cursor looks like.
pub const CURSOR_PATTERN: &str = "^[0-9a-f]{1,16}[.][0-9a-f]{1,16}[.][0-9a-f]{16}$";

/// The schemas of the paging inputs, `page_size` and `cursor`: query parameters
/// here, tool arguments in MCP (`crate::mcp`).
pub(crate) fn paging_schemas() -> (Value, Value) {
    (
        json!({"type": "integer", "minimum": 1}),
        json!({"type": "string", "pattern": CURSOR_PATTERN}),
    )
}

fn paging_parameters() -> [Value; 2] {
    let (size, cursor) = paging_schemas();
    [
        json!({"name": "page_size", "in": "query", "required": false,
            "description": "Answer one page of this many solutions instead of the whole answer (past the server's solution limit, a page of that many); the header Charon-Next-Cursor carries the cursor of the next page.",
            "schema": size}),
        json!({"name": "cursor", "in": "query", "required": false,
            "description": "The Charon-Next-Cursor of the page before, with the same arguments: the next page (page_size may be left out: it is then 100).",
            "schema": cursor}),
    ]
}

/// Scalars are plain query values; lists and `any` are JSON text in the value.
fn query_parameter(name: &str, ty: &Type, doc: Option<&str>) -> Value {
    let mut p = json!({"name": name, "in": "query", "required": true});
    if let Some(doc) = doc {
        p["description"] = json!(doc);
    }
    match ty {
        Type::List(_) | Type::Any => {
            p["content"] = json!({"application/json": {"schema": type_schema(ty)}})
        }
        _ => p["schema"] = type_schema(ty),
    }
    p
}

fn problem_response(description: &str) -> Value {
    json!({
        "description": description,
        "content": {PROBLEM_JSON: {"schema": {"$ref": "#/components/schemas/Problem"}}},
    })
}

fn problem_schema() -> Value {
    json!({
        "type": "object",
        "description": "RFC 9457 problem details.",
        "properties": {
            "type": {"type": "string", "description": "A stable URI naming the kind of problem."},
            "title": {"type": "string"},
            "status": {"type": "integer"},
            "detail": {"type": "string", "description": "What went wrong and what to do."},
            "operation": {"type": "string"},
            "argument": {"type": "string"},
        },
        "required": ["type", "title", "status", "detail"],
    })
}
