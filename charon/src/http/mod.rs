//! The HTTP/JSON surface: an [`axum::Router`] with one route per operation,
//! `GET /openapi.json`, `GET /docs` (an interactive page for it), `GET /health`
//! (liveness) and `GET /health/ready` (readiness), and problem details for every error.
//! With a [`Reasoner`], also `POST /reason` and `POST /check-kb` (the reasoning
//! tools: their results, `ok: false` included, are 200s; see [`crate::reason`]).
//!
//! ```no_run
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! let kb = std::sync::Arc::new(charon::KnowledgeBase::load("examples/meds.pl")?);
//! let app = axum::Router::new().nest("/kb", charon::http::router(kb));
//! let listener = tokio::net::TcpListener::bind("127.0.0.1:3000").await?;
//! axum::serve(listener, app).await?;
//! # Ok(()) }
//! ```

mod guard;
pub mod metrics;
mod ndjson;
pub mod openapi;
mod problem;
mod reload;
mod wire;

use std::sync::Arc;

use axum::Router;
use axum::body::Body;
use axum::extract::Request;
use axum::http::{Method as HttpMethod, header};
use axum::response::{IntoResponse, Response};
use axum::routing::any;
use serde_json::{Map, Value, json};

pub use guard::{Guard, MAX_HEAD_BYTES, MAX_HEADERS, MAX_URI_BYTES};
pub use ndjson::NDJSON;
pub use problem::{PROBLEM_JSON, Problem};
pub use reload::{ReloadState, ReloadableRouter};
pub use wire::ProblemsOnParseErrors;

use crate::pldoc::{Method, Operation};
use crate::reason::Reasoner;
use crate::{KnowledgeBase, OpId};

/// Settings of the HTTP surface. (How many calls may wait for the engine is the
/// knowledge base's [`EngineConfig::max_pending`](crate::EngineConfig::max_pending):
/// one limit for every surface.)
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct HttpOptions {
    /// Largest request body accepted, in bytes (413 beyond).
    pub body_limit: usize,
    /// Who may call: accepted hosts and origins, a token, CORS (default:
    /// [`Guard::open`], for a router mounted in an application: any host name,
    /// same-origin pages, no token, no CORS; a server of its own starts from
    /// [`Guard::for_bind`]).
    pub guard: Guard,
    /// Serve `POST /explain` (a call's answer with its proof trees). Off by
    /// default: a proof shows the clauses and facts behind an answer, which an API
    /// of its operations alone does not.
    pub explain: bool,
    /// Serve `GET /metrics` (see [`crate::http::metrics`]), behind the same guard as the
    /// API. Off by default.
    pub metrics: bool,
    /// How hot reloads went, shown in `GET /health` (see [`ReloadState`]).
    pub reload: Option<ReloadState>,
}

impl Default for HttpOptions {
    fn default() -> Self {
        HttpOptions {
            body_limit: 1 << 20,
            guard: Guard::open(),
            explain: false,
            metrics: false,
            reload: None,
        }
    }
}

impl HttpOptions {
    /// These options with another body limit.
    pub fn with_body_limit(mut self, bytes: usize) -> Self {
        self.body_limit = bytes;
        self
    }

    /// These options with `POST /explain` served (or not).
    pub fn with_explain(mut self, explain: bool) -> Self {
        self.explain = explain;
        self
    }

    /// These options with another access policy.
    pub fn with_guard(mut self, guard: Guard) -> Self {
        self.guard = guard;
        self
    }

    /// These options with `GET /metrics` served (or not).
    pub fn with_metrics(mut self, metrics: bool) -> Self {
        self.metrics = metrics;
        self
    }

    /// These options with the state of hot reloads reported in `GET /health`.
    pub fn with_reload_state(mut self, state: ReloadState) -> Self {
        self.reload = Some(state);
        self
    }
}

/// `router` with `guard` checked on every request before routing (the HTTP API's
/// router has it already; this is for other routers, such as MCP's).
pub fn guarded(router: Router, guard: Guard) -> Router {
    let guard = Arc::new(guard);
    router.layer(axum::middleware::from_fn(move |req: Request, next| {
        guard::guard(guard.clone(), req, next)
    }))
}

struct App {
    kb: Arc<KnowledgeBase>,
    reasoner: Option<Arc<Reasoner>>,
    options: HttpOptions,
    openapi: Value,
}

/// The router for `kb` with default options.
pub fn router(kb: Arc<KnowledgeBase>) -> Router {
    router_with(kb, HttpOptions::default())
}

/// The router for `kb`.
pub fn router_with(kb: Arc<KnowledgeBase>, options: HttpOptions) -> Router {
    let guard = options.guard.clone();
    guarded(routes(kb, None, options), guard)
}

/// The router for `kb` and the reasoning tools (`POST /reason`, `POST /check-kb`),
/// in one OpenAPI document. An operation named `reason` or `check_kb` is left out
/// (the reasoning routes take their names; a warning is logged).
pub fn router_with_reasoning(
    kb: Arc<KnowledgeBase>,
    reasoner: Arc<Reasoner>,
    options: HttpOptions,
) -> Router {
    let guard = options.guard.clone();
    guarded(routes(kb, Some(reasoner), options), guard)
}

/// The router of the reasoning tools alone (no knowledge base).
pub fn reasoning_router(reasoner: Arc<Reasoner>, options: HttpOptions) -> Router {
    let guard = options.guard.clone();
    let kb = reasoner.runtime().clone();
    guarded(routes(kb, Some(reasoner), options), guard)
}

fn routes(kb: Arc<KnowledgeBase>, reasoner: Option<Arc<Reasoner>>, options: HttpOptions) -> Router {
    let alone = reasoner
        .as_ref()
        .is_some_and(|r| Arc::ptr_eq(r.runtime(), &kb));
    let title = if alone {
        "Charon reasoning toolkit".to_string()
    } else {
        kb.title()
    };
    let with_reasoning = reasoner.is_some();
    let explain = options.explain && !alone;
    let shadowed = move |op: &Operation| {
        (with_reasoning && crate::reason::TOOL_NAMES.contains(&op.name.as_ref()))
            || (explain && op.name.as_ref() == "explain")
    };
    let operations: Vec<Operation> = kb
        .operations()
        .iter()
        .filter(|op| {
            if shadowed(op) {
                tracing::warn!(target: "charon::http", "the operation `{}` is left out: a reasoning route has its name", op.name);
            }
            !shadowed(op)
        })
        .cloned()
        .collect();
    let openapi = document(
        &kb,
        &title,
        &operations,
        reasoner.is_some(),
        explain,
        &options,
    );
    let app = Arc::new(App {
        kb,
        reasoner,
        options,
        openapi,
    });
    let router = operation_routes(&app, &shadowed, explain, alone);
    fixed_routes(router, app)
}

/// The OpenAPI document of the routes served: the operations, and the
/// reasoning, explain and metrics routes and the token when they are on.
fn document(
    kb: &KnowledgeBase,
    title: &str,
    operations: &[Operation],
    reasoning: bool,
    explain: bool,
    options: &HttpOptions,
) -> serde_json::Value {
    let mut openapi = openapi::document_for(kb, title, operations);
    if reasoning {
        openapi::add_reasoning(&mut openapi);
    }
    if explain {
        let names = kb.explainable();
        let explainable: Vec<&Operation> = operations
            .iter()
            .filter(|op| names.contains(&op.name.as_ref()))
            .collect();
        openapi::add_explain(&mut openapi, &explainable);
    }
    if options.metrics {
        openapi::add_metrics(&mut openapi);
    }
    if options.guard.requires_token() {
        openapi::require_token(&mut openapi);
    }
    openapi
}

/// The routes of the operations (those no reasoning route shadows), of the
/// reasoning tools, `/explain` and `/metrics` when they are on.
fn operation_routes(
    app: &Arc<App>,
    shadowed: &dyn Fn(&Operation) -> bool,
    explain: bool,
    alone: bool,
) -> Router {
    let mut router = Router::new();
    for (index, op) in app.kb.operations().iter().enumerate() {
        if shadowed(op) {
            continue;
        }
        // Resolved once, here: the handler carries the id.
        let Some(id) = app.kb.op_id(index) else {
            continue;
        };
        let app = app.clone();
        let streams = app.kb.is_streamable(&op.name);
        router = router.route(
            &format!("/{}", op.name),
            any(move |req: Request| call(app.clone(), id, streams, req)),
        );
    }
    if app.reasoner.is_some() {
        for tool in &crate::reason::TOOLS {
            let app = app.clone();
            router = router.route(
                tool.path,
                any(move |req: Request| reasoning(app.clone(), tool.name, req)),
            );
        }
    }
    if explain {
        let app = app.clone();
        router = router.route(
            "/explain",
            any(move |req: Request| explain_call(app.clone(), req)),
        );
    }
    if app.options.metrics {
        let app = app.clone();
        router = router.route(
            "/metrics",
            any(move |req: Request| {
                let app = app.clone();
                async move {
                    if let Some(p) = only_get(&req) {
                        return p.into_response();
                    }
                    let sources = metrics::Sources {
                        kb: (!alone).then_some(&*app.kb),
                        reasoner: app.reasoner.as_deref(),
                        mcp_sessions: None,
                    };
                    metrics::response(sources, req.headers())
                }
            }),
        );
    }
    router
}

/// The routes every router has: the OpenAPI document, health, readiness, the
/// docs page, and a problem for any other path.
fn fixed_routes(router: Router, app: Arc<App>) -> Router {
    let docs = app.clone();
    let health = app.clone();
    let ready = app.clone();
    router
        .route(
            "/openapi.json",
            any(move |req: Request| {
                let docs = docs.clone();
                async move {
                    match only_get(&req) {
                        Some(p) => p.into_response(),
                        None => axum::Json(docs.openapi.clone()).into_response(),
                    }
                }
            }),
        )
        .route(
            "/health",
            any(move |req: Request| {
                let health = health.clone();
                async move {
                    match only_get(&req) {
                        Some(p) => p.into_response(),
                        None => axum::Json(liveness(&health.kb, health.options.reload.as_ref()))
                            .into_response(),
                    }
                }
            }),
        )
        .route(
            "/health/ready",
            any(move |req: Request| {
                let kb = ready.kb.clone();
                async move {
                    if let Some(p) = only_get(&req) {
                        return p.into_response();
                    }
                    let probe = kb.clone();
                    let wait = READY_WAIT;
                    match tokio::task::spawn_blocking(move || probe.ready(wait)).await {
                        Ok(Ok(())) => axum::Json(json!({"status": "ready"})).into_response(),
                        Ok(Err(why)) => Problem::not_ready(why).into_response(),
                        Err(e) => Problem::internal(e.to_string()).into_response(),
                    }
                }
            }),
        )
        .route(
            "/docs",
            any(|req: Request| async move {
                match only_get(&req) {
                    Some(p) => p.into_response(),
                    None => docs_page(),
                }
            }),
        )
        .fallback(
            |req: Request| async move { Problem::not_found(req.uri().path()).into_response() },
        )
}

/// `GET /docs`: an interactive page for the OpenAPI document, with "Try it" on every
/// operation. Everything it needs is in the page; it fetches only `openapi.json` and
/// the calls made from it (the content security policy allows nothing else).
fn docs_page() -> Response {
    let mut response = axum::response::Html(include_str!("docs.html")).into_response();
    response.headers_mut().insert(
        header::CONTENT_SECURITY_POLICY,
        axum::http::HeaderValue::from_static(
            "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
        ),
    );
    response
}

/// How long `GET /health/ready` waits for a busy engine to take a trivial call.
const READY_WAIT: std::time::Duration = std::time::Duration::from_secs(1);

/// `GET /health`: the process is up and serving; answered at once, without the
/// engine (a busy engine is healthy). Counters for monitoring come along.
fn liveness(kb: &KnowledgeBase, reload: Option<&ReloadState>) -> Value {
    let stats = kb.stats();
    let cache = kb.cache_stats();
    let config = kb.config();
    let mut body = json!({
        "status": "ok",
        "operations": kb.operations().len(),
        "generation": kb.generation(),
        "engine": {
            "workers": config.workers,
            "idle_workers": kb.idle_worker_pids().len(),
            "workers_started": stats.workers_started,
            "calls": stats.calls,
            "pending": kb.pending(),
            "max_pending": config.max_pending,
        },
        "cache": {
            "hits": cache.hits,
            "misses": cache.misses,
            "entries": cache.entries,
            "bytes": cache.bytes,
            "capacity": cache.capacity,
        },
    });
    if let Some(state) = reload {
        body["reload"] = state.json();
    }
    if let Some(replica) = kb.replica_status() {
        body["replica"] = json!({
            "applied": replica.applied,
            "head": replica.head,
            "snapshot": replica.snapshot,
            "connected": replica.connected,
            "last_contact_secs": replica.last_contact_secs,
            "lag_secs": replica.lag_secs,
            "diverged": replica.diverged,
            "writes_paused": replica.writes_paused,
        });
        if replica.diverged.is_some() {
            body["status"] = json!("diverged");
        }
    }
    if let Some((file, generation)) = kb.persisted() {
        let stats = kb.stats();
        body["persist"] = json!({
            "file": file.display().to_string(),
            "generation": generation,
            "folds": stats.persist_folds,
            "folding": stats.persist_folding,
        });
    }
    body
}

/// A JSON response written by Charon's exact writer (integers of any size as
/// numbers, see [`crate::json`]).
fn exact_json<T: serde::Serialize>(value: &T) -> Response {
    match crate::json::to_vec(value) {
        Ok(body) => (
            [(
                axum::http::header::CONTENT_TYPE,
                axum::http::HeaderValue::from_static("application/json"),
            )],
            body,
        )
            .into_response(),
        Err(e) => Problem::internal(e.to_string()).into_response(),
    }
}

fn only_get(req: &Request) -> Option<Problem> {
    (!matches!(*req.method(), HttpMethod::GET | HttpMethod::HEAD))
        .then(|| Problem::method_not_allowed(req.uri().path(), req.method().as_str(), "GET"))
}

fn allowed(op: &Operation) -> (&'static str, &'static [HttpMethod]) {
    match op.method() {
        Method::Get => ("GET", &[HttpMethod::GET, HttpMethod::HEAD]),
        Method::Put => ("PUT", &[HttpMethod::PUT]),
        Method::Delete => ("DELETE", &[HttpMethod::DELETE]),
        Method::Post => ("POST", &[HttpMethod::POST]),
    }
}

/// The header that carries the cursor of a page's next page (none on the last).
pub const NEXT_CURSOR: &str = "charon-next-cursor";

/// An operation's route; `streams`: the operation has a stream (decided once, when
/// the routes are made).
async fn call(app: Arc<App>, id: OpId, streams: bool, req: Request) -> Response {
    let mut response = answer(&app, id, req).await;
    if streams {
        // The answer's form depends on Accept (JSON or a stream).
        response
            .headers_mut()
            .insert(header::VARY, header::HeaderValue::from_static("accept"));
    }
    response
}

async fn answer(app: &Arc<App>, id: OpId, req: Request) -> Response {
    match call_inner(app, id, req).await {
        Ok(Reply::Whole(value)) => exact_json(&value),
        Ok(Reply::Page(page)) => {
            let mut response = exact_json(&Value::Array(page.solutions));
            if let Some(next) = page
                .next
                .and_then(|n| header::HeaderValue::from_str(&n).ok())
            {
                response.headers_mut().insert(NEXT_CURSOR, next);
            }
            response
        }
        Ok(Reply::Stream(response)) => response,
        Err(problem) => problem.into_response(),
    }
}

/// What an operation's route answers: the whole answer, one page of it, or a
/// stream of its solutions.
enum Reply {
    Whole(Value),
    Page(crate::Page),
    Stream(Response),
}

async fn call_inner(app: &Arc<App>, id: OpId, req: Request) -> Result<Reply, Problem> {
    let arrived = std::time::Instant::now();
    let op = app
        .kb
        .op(id)
        .ok_or_else(|| Problem::not_found(req.uri().path()))?;
    let name = op.name.as_ref();
    let (allow, methods) = allowed(op);
    if !methods.contains(req.method()) {
        return Err(Problem::method_not_allowed(
            req.uri().path(),
            req.method().as_str(),
            allow,
        ));
    }
    let (parts, body) = req.into_parts();
    let (mut args, paging) = crate::args::from_query_paged(op, parts.uri.query()).map_err(|e| {
        Problem::bad_arguments(
            name,
            Some(e.argument()),
            format!("{name}: {e} in the query string"),
        )
    })?;
    let body = read_body(app, name, &parts.headers, body).await?;
    if let Some(body) = body {
        let Value::Object(fields) = body else {
            return Err(Problem::bad_arguments(
                name,
                None,
                format!("{name}: the body must be a JSON object keyed by argument name"),
            ));
        };
        merge(name, &mut args, fields)?;
    }
    let accept = parts.headers.get(header::ACCEPT);
    // A stream when one is asked for and the operation has one; asked for alone
    // (no JSON accepted instead), an operation without one is 406.
    if ndjson::wants_stream(accept) && (app.kb.is_streamable(name) || !ndjson::takes_json(accept)) {
        if paging != crate::args::PageParams::default() {
            let argument = if paging.size.is_some() {
                "page_size"
            } else {
                "cursor"
            };
            return Err(Problem::bad_arguments(
                name,
                Some(argument),
                format!(
                    "{name}: a stream has no pages: drop page_size and cursor, or ask for JSON \
                     (Accept: application/json)"
                ),
            ));
        }
        let stream = app
            .kb
            .stream_async_from(name, &Value::Object(args), arrived, true)
            .map_err(|e| Problem::from_call(&e))?;
        return Ok(Reply::Stream(ndjson::response(stream, op.clone()).await));
    }
    if paging != crate::args::PageParams::default() {
        let size = match &paging.size {
            // A size past any machine's is one past the solution limit.
            Some(text) if !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) => {
                text.parse::<usize>().unwrap_or(usize::MAX)
            }
            Some(text) => text.parse::<usize>().map_err(|_| {
                Problem::bad_arguments(
                    name,
                    Some("page_size"),
                    format!("{name}: page_size must be a positive integer, not `{text}`"),
                )
            })?,
            None => crate::DEFAULT_PAGE_SIZE,
        };
        return app
            .kb
            .page_async_exact(name, &Value::Object(args), size, paging.cursor.as_deref())
            .await
            .map(|mut page| {
                page.solutions
                    .iter_mut()
                    .for_each(|s| crate::json::in_declared_order(op, s));
                Reply::Page(page)
            })
            .map_err(|e| Problem::from_call(&e));
    }
    let call = app
        .kb
        .prepare(id, &Value::Object(args))
        .map_err(|e| Problem::from_call(&e))?;
    app.kb
        .invoke_async_exact(call, std::time::Instant::now())
        .await
        .map(|mut a| {
            crate::json::in_declared_order(op, &mut a.value);
            Reply::Whole(a.value)
        })
        .map_err(|e| Problem::from_call(&e))
}

/// `POST /reason`, `/diagnose`, `/what-if`, `/check-kb`: the tool's result as JSON, `ok: false`
/// included; problem details for what is wrong with the request itself (and 503
/// when the engine is full, as for operations).
async fn reasoning(app: Arc<App>, tool: &'static str, req: Request) -> Response {
    let arrived = std::time::Instant::now();
    let Some(reasoner) = app.reasoner.clone() else {
        return Problem::not_found(req.uri().path()).into_response();
    };
    if req.method() != HttpMethod::POST {
        return Problem::method_not_allowed(req.uri().path(), req.method().as_str(), "POST")
            .into_response();
    }
    let (parts, body) = req.into_parts();
    // Read straight into the tool's input type: its derive refuses unknown and
    // repeated fields, and a large knowledge text is not copied through a `Value`.
    let body = match read_bytes(&app, &parts.headers, body).await {
        Ok(Some(body)) => body,
        Ok(None) => {
            return Problem::bad_arguments(
                tool,
                Some("knowledge"),
                format!("{tool}: the body is a JSON object with the knowledge (see /openapi.json)"),
            )
            .into_response();
        }
        Err(p) => return p.into_response(),
    };
    let result = match reasoner
        .call_tool(tool, crate::reason::tools::ToolArgs::Bytes(&body), arrived)
        .await
    {
        Ok(result) => result,
        Err(e) => {
            return Problem::bad_arguments(tool, None, format!("{e} (see /openapi.json)"))
                .into_response();
        }
    };
    if result.value["error"]["kind"] == "overloaded" {
        return Problem::from_call(&crate::CallError::Overloaded {
            operation: tool.into(),
            limit: reasoner.engine_config().max_pending,
        })
        .into_response();
    }
    // Written on a blocking thread (see `call_tool`): sent as it is.
    (
        [(
            axum::http::header::CONTENT_TYPE,
            axum::http::HeaderValue::from_static("application/json"),
        )],
        result.text,
    )
        .into_response()
}

/// `POST /explain`: an operation's answer with a proof tree per solution.
async fn explain_call(app: Arc<App>, req: Request) -> Response {
    let arrived = std::time::Instant::now();
    if req.method() != HttpMethod::POST {
        return Problem::method_not_allowed(req.uri().path(), req.method().as_str(), "POST")
            .into_response();
    }
    let (parts, body) = req.into_parts();
    let body = match read_body(&app, "explain", &parts.headers, body).await {
        Ok(Some(body)) => body,
        Ok(None) => {
            return Problem::bad_arguments(
                "explain",
                Some("operation"),
                "explain: the body is a JSON object naming the operation and its arguments (see /openapi.json)".into(),
            )
            .into_response();
        }
        Err(p) => return p.into_response(),
    };
    let request: crate::ExplainRequest = match serde_json::from_value(body) {
        Ok(r) => r,
        Err(e) => {
            return Problem::bad_arguments(
                "explain",
                None,
                format!("explain: {e} (see /openapi.json)"),
            )
            .into_response();
        }
    };
    let known = app.kb.resolve(&request.operation).is_some()
        && !(app.reasoner.is_some()
            && crate::reason::TOOL_NAMES.contains(&request.operation.as_str()))
        && request.operation != "explain";
    if !known {
        return Problem::bad_arguments(
            "explain",
            Some("operation"),
            format!(
                "explain: no operation named `{}` (see /openapi.json for the names)",
                request.operation
            ),
        )
        .into_response();
    }
    match app.kb.explain_request_exact(&request, arrived).await {
        Ok(mut explanation) => {
            explanation.in_declared_order(&app.kb);
            exact_json(&explanation)
        }
        Err(e) => Problem::from_call(&e).into_response(),
    }
}

/// The JSON body, if there is one (an empty body is no body).
async fn read_body(
    app: &App,
    name: &str,
    headers: &axum::http::HeaderMap,
    body: Body,
) -> Result<Option<Value>, Problem> {
    let Some(bytes) = read_bytes(app, headers, body).await? else {
        return Ok(None);
    };
    let invalid = |e: serde_json::Error| {
        Problem::bad_arguments(
            name,
            None,
            format!("{name}: the body is not valid JSON: {e}"),
        )
    };
    let value = crate::json::read(&bytes).map_err(invalid)?;
    // JSON does not say which of two equal keys wins; the query string refuses
    // repeated arguments, and so does the body, at every depth.
    serde::de::DeserializeSeed::deserialize(
        NoDuplicateKeys,
        &mut serde_json::Deserializer::from_slice(&bytes),
    )
    .map_err(|e| {
        Problem::bad_arguments(name, None, format!("{name}: the body is ambiguous: {e}"))
    })?;
    Ok(Some(value))
}

/// The body's bytes, within the size limit and of a JSON media type, if there is
/// a body (an empty one is none).
async fn read_bytes(
    app: &App,
    headers: &axum::http::HeaderMap,
    body: Body,
) -> Result<Option<axum::body::Bytes>, Problem> {
    let limit = app.options.body_limit;
    if let Some(len) = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok()?.parse::<usize>().ok())
        && len > limit
    {
        return Err(Problem::too_large(limit));
    }
    let bytes = axum::body::to_bytes(body, limit)
        .await
        .map_err(|_| Problem::too_large(limit))?;
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Ok(None);
    }
    if let Some(ct) = headers.get(header::CONTENT_TYPE) {
        let ct = ct.to_str().unwrap_or_default();
        let essence = ct
            .split(';')
            .next()
            .unwrap_or_default()
            .trim()
            .to_ascii_lowercase();
        if essence != "application/json" && !essence.ends_with("+json") {
            return Err(Problem::unsupported_media_type(ct));
        }
    }
    Ok(Some(bytes))
}

/// Walks JSON text and fails on an object that has the same key twice.
struct NoDuplicateKeys;

impl<'de> serde::de::DeserializeSeed<'de> for NoDuplicateKeys {
    type Value = ();
    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> serde::de::Visitor<'de> for NoDuplicateKeys {
    type Value = ();
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("JSON")
    }
    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }
    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }
    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }
    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }
    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        Ok(())
    }
    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while seq.next_element_seed(NoDuplicateKeys)?.is_some() {}
        Ok(())
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let mut seen = std::collections::HashSet::new();
        while let Some(key) = map.next_key::<String>()? {
            if !seen.insert(key.clone()) {
                return Err(serde::de::Error::custom(format!(
                    "key `{key}` appears twice in one object"
                )));
            }
            map.next_value_seed(NoDuplicateKeys)?;
        }
        Ok(())
    }
}

fn merge(
    name: &str,
    args: &mut Map<String, Value>,
    body: Map<String, Value>,
) -> Result<(), Problem> {
    for (key, value) in body {
        if args.contains_key(&key) {
            return Err(Problem::bad_arguments(
                name,
                Some(&key),
                format!(
                    "{name}: argument `{key}` is given both in the query string and in the body"
                ),
            ));
        }
        args.insert(key, value);
    }
    Ok(())
}
