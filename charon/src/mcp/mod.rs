//! The MCP surface: one tool per operation and the resource
//! `charon://source`, served with `rmcp` over stdio or streamable HTTP; with a
//! [`Reasoner`], the reasoning tools `reason` and `check_kb` too.
//!
//! The handler is written over the operation model: tool input schemas are the
//! OpenAPI request-body schemas (same function), output schemas wrap the 200 schema
//! in an object, and arguments go through [`KnowledgeBase::prepare`], the same
//! validation as HTTP. The reasoning tools' schemas are those of the OpenAPI
//! document's `/reason` and `/check-kb` too (`crate::reason`'s schema functions).

mod reload;

use std::sync::Arc;

use rmcp::ErrorData as McpError;
use rmcp::handler::server::ServerHandler;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    JsonObject, ListResourcesResult, ListToolsResult, PaginatedRequestParams,
    ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult, Resource,
    ResourceContents, ServerCapabilities, ServerConfig, Tool, ToolAnnotations,
};
use rmcp::service::{RequestContext, RoleServer};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use serde_json::{Value, json};

use crate::pldoc::schema::{request_schema, response_schema};
use crate::pldoc::{Method, Operation};
use crate::reason::Reasoner;
use crate::{CallError, KnowledgeBase};

pub use reload::ReloadableMcp;

/// URI of the knowledge base's source.
pub const SOURCE_URI: &str = "charon://source";

/// An MCP server for one knowledge base, the reasoning tools, or both.
#[derive(Debug, Clone)]
pub struct McpServer {
    /// The knowledge base whose operations are tools (with a reasoner alone: its
    /// engine's, which has no operations).
    kb: Arc<KnowledgeBase>,
    /// Whether `kb` is a knowledge base of the user's (with a source to show).
    has_source: bool,
    reasoner: Option<Arc<Reasoner>>,
    /// Whether the tool `explain` is served.
    explain: bool,
    tools: Arc<Vec<Tool>>,
    /// Whether answers are written in mode-line key order: only where Charon's
    /// writer turns the private ordered keys back into names (its stdio relay and
    /// HTTP apps; see `crate::json`), never on a transport of the application's.
    ordered: bool,
}

impl McpServer {
    /// This server as Charon's own transports serve it (see `ordered`).
    pub(crate) fn ordered(mut self) -> Self {
        self.ordered = true;
        self
    }

    /// What `GET /metrics` reports for this server, with `sessions` open.
    fn metric_sources(&self, sessions: usize) -> crate::http::metrics::Sources<'_> {
        crate::http::metrics::Sources {
            kb: self.has_source.then_some(&*self.kb),
            reasoner: self.reasoner.as_deref(),
            mcp_sessions: Some(sessions),
        }
    }

    /// A server for `kb`.
    pub fn new(kb: Arc<KnowledgeBase>) -> Self {
        let tools = kb
            .operations()
            .iter()
            .map(|op| tool(op, kb.is_pageable(&op.name)))
            .collect();
        McpServer {
            kb,
            has_source: true,
            reasoner: None,
            explain: false,
            tools: Arc::new(tools),
            ordered: false,
        }
    }

    /// A server of the reasoning tools alone.
    pub fn reasoning(reasoner: Arc<Reasoner>) -> Self {
        McpServer {
            kb: reasoner.runtime().clone(),
            has_source: false,
            reasoner: None,
            explain: false,
            tools: Arc::new(Vec::new()),
            ordered: false,
        }
        .with_reasoner(reasoner)
    }

    /// This server with the reasoning tools `reason` and `check_kb` added. A
    /// knowledge base operation of the same name is left out (and a warning logged).
    pub fn with_reasoner(mut self, reasoner: Arc<Reasoner>) -> Self {
        let mut tools: Vec<Tool> = self
            .tools
            .iter()
            .filter(|t| {
                let clash = crate::reason::TOOL_NAMES.contains(&t.name.as_ref());
                if clash {
                    tracing::warn!(target: "charon::mcp", "the operation `{}` is left out: the reasoning tool of that name takes its place", t.name);
                }
                !clash
            })
            .cloned()
            .collect();
        tools.extend(reasoning_tools());
        self.tools = Arc::new(tools);
        self.reasoner = Some(reasoner);
        self
    }

    /// This server with the tool `explain` added: a read-only operation's answer
    /// with a proof tree per solution. An operation named `explain` is left out.
    /// Off unless asked for: a proof shows the clauses and facts behind an answer.
    pub fn with_explain(mut self) -> Self {
        if !self.has_source || self.explain {
            return self;
        }
        let mut tools: Vec<Tool> = self
            .tools
            .iter()
            .filter(|t| {
                let clash = t.name == "explain";
                if clash {
                    tracing::warn!(target: "charon::mcp", "the operation `explain` is left out: the explain tool takes its place");
                }
                !clash
            })
            .cloned()
            .collect();
        let names = self.kb.explainable();
        let explainable: Vec<&crate::Operation> = self
            .kb
            .operations()
            .iter()
            .filter(|op| names.contains(&op.name.as_ref()))
            .filter(|op| tools.iter().any(|t| t.name == op.name.as_ref()))
            .collect();
        let mut output = crate::explain_output_schema("#/$defs/proof");
        output["$defs"] = json!({"proof": crate::reason::proof_node_schema("#/$defs/proof")});
        tools.push(
            Tool::new(
                "explain",
                "Call one of this server's read-only tools and explain the answer: the result (as the tool itself returns it) and one proof tree per solution, built by following the knowledge base's clauses (fact and rule nodes; builtin and negation nodes for the rest). Calls that reach a cut, if-then-else, findall, a database change or I/O cannot be explained and say so.",
                object(crate::explain_input_schema(&explainable)),
            )
            .with_raw_output_schema(object(output))
            .with_annotations(
                ToolAnnotations::new()
                    .read_only(true)
                    .idempotent(true)
                    .destructive(false),
            ),
        );
        self.tools = Arc::new(tools);
        self.explain = true;
        self
    }

    /// The tools, as `tools/list` returns them.
    pub fn tools(&self) -> &[Tool] {
        &self.tools
    }

    async fn call(
        &self,
        name: &str,
        args: Value,
        arrived: std::time::Instant,
    ) -> Result<CallToolResult, McpError> {
        if let Some(reasoner) = &self.reasoner
            && crate::reason::TOOL_NAMES.contains(&name)
        {
            return Ok(reasoning_call(reasoner, name, args, arrived).await);
        }
        if self.explain && name == "explain" {
            return Ok(self.explain_call(args, arrived).await);
        }
        let Some(id) = self.kb.resolve(name) else {
            return Err(McpError::invalid_params(
                format!("no tool named `{name}`; tools/list names every tool"),
                None,
            ));
        };
        let mut args = args;
        if let Some(paging) = take_paging(&mut args) {
            let page = match paging {
                Ok((size, cursor)) => {
                    self.kb
                        .page_async_exact(name, &args, size, cursor.as_deref())
                        .await
                }
                Err(detail) => Err(CallError::Paging {
                    operation: name.to_string(),
                    argument: "page_size",
                    detail,
                }),
            };
            return Ok(match page {
                Ok(mut page) => {
                    if let Some(op) = self.kb.op(id).filter(|_| self.ordered) {
                        for solution in &mut page.solutions {
                            crate::json::in_declared_order(op, solution);
                        }
                    }
                    let mut value = json!({ "result": page.solutions });
                    if let Some(next) = page.next {
                        value["next_cursor"] = json!(next);
                    }
                    structured(value, false)
                }
                Err(e) => failure(&e),
            });
        }
        let answer = match self.kb.prepare(id, &args) {
            Ok(call) => self
                .kb
                .invoke_async_exact(call, arrived)
                .await
                .map(|a| a.value),
            Err(e) => Err(e),
        };
        Ok(match answer {
            Ok(mut value) => {
                if let Some(op) = self.kb.op(id).filter(|_| self.ordered) {
                    crate::json::in_declared_order(op, &mut value);
                }
                structured(json!({ "result": value }), false)
            }
            Err(e) => failure(&e),
        })
    }
}

/// Takes `page_size` and `cursor` out of a tool call's arguments (lower-case names,
/// which no argument can have): `None` when neither is there.
fn take_paging(args: &mut Value) -> Option<Result<(usize, Option<String>), String>> {
    let fields = args.as_object_mut()?;
    let size = fields.remove("page_size");
    let cursor = fields.remove("cursor");
    if size.is_none() && cursor.is_none() {
        return None;
    }
    let size = match size {
        // A size past any machine's is one past the solution limit.
        Some(Value::Number(n)) => match n.as_u64() {
            Some(n) => Some(usize::try_from(n).unwrap_or(usize::MAX)),
            None if n.as_f64().is_some_and(|f| f >= 1.0 && f.fract() == 0.0) => Some(usize::MAX),
            None => None,
        },
        None => Some(crate::DEFAULT_PAGE_SIZE),
        Some(_) => None,
    };
    let cursor = match cursor {
        None => Ok(None),
        Some(Value::String(c)) => Ok(Some(c)),
        Some(other) => Err(format!(
            "cursor must be the string a page's next_cursor gave, not {other}"
        )),
    };
    Some(match (size, cursor) {
        (Some(size), Ok(cursor)) => Ok((size, cursor)),
        (None, _) => Err("page_size must be a positive integer".into()),
        (_, Err(e)) => Err(e),
    })
}

impl McpServer {
    async fn explain_call(&self, args: Value, arrived: std::time::Instant) -> CallToolResult {
        let request: crate::ExplainRequest = match serde_json::from_value(args) {
            Ok(r) => r,
            Err(e) => {
                return CallToolResult::error(vec![ContentBlock::text(format!(
                    "explain: bad arguments: {e} (see the tool's inputSchema)"
                ))]);
            }
        };
        let reasoning_tool = self.reasoner.is_some()
            && crate::reason::TOOL_NAMES.contains(&request.operation.as_str());
        let listed = request.operation != "explain"
            && !reasoning_tool
            && self
                .tools
                .iter()
                .any(|t| t.name == request.operation.as_str());
        if !listed {
            return CallToolResult::error(vec![ContentBlock::text(format!(
                "explain: no tool named `{}` to explain; tools/list names them",
                request.operation
            ))]);
        }
        match self.kb.explain_request_exact(&request, arrived).await {
            Ok(mut explanation) => {
                if self.ordered {
                    explanation.in_declared_order(&self.kb);
                }
                match serde_json::to_value(&explanation) {
                    Ok(value) => structured(value, false),
                    Err(e) => CallToolResult::error(vec![ContentBlock::text(e.to_string())]),
                }
            }
            Err(e) => failure(&e),
        }
    }
}

/// A tool result with `isError: true` and a message saying what to do.
fn failure(error: &CallError) -> CallToolResult {
    let hint = match error {
        CallError::Arguments { .. } => " (see the tool's inputSchema)",
        CallError::DetFailed { .. } => " (the knowledge base has no answer for these arguments)",
        CallError::MemoryLimit { .. } => {
            " (the question needs too much memory: narrow it, or raise --max-memory-mb)"
        }
        CallError::AnswerTooDeep { .. } => " (the answer is too deeply nested to deliver)",
        CallError::AnswerTooLarge { .. } => " (the explanation is too large to deliver)",
        CallError::TimeLimit { .. } | CallError::InferenceLimit { .. } => {
            " (narrow the question, or raise the server's limits)"
        }
        CallError::TooManySolutions { .. } => " (narrow the question, or raise --max-solutions)",
        CallError::Overloaded { .. } => " (the server is busy: retry shortly)",
        _ => "",
    };
    CallToolResult::error(vec![ContentBlock::text(format!("{error}{hint}"))])
}

/// A call of a reasoning tool: the result is the structured content either way;
/// `ok: false` also sets `isError`, with the message as text.
async fn reasoning_call(
    reasoner: &Arc<Reasoner>,
    name: &str,
    args: Value,
    arrived: std::time::Instant,
) -> CallToolResult {
    let output = match reasoner
        .call_tool(name, crate::reason::tools::ToolArgs::Json(args), arrived)
        .await
    {
        Ok(output) => output,
        Err(e) => {
            return CallToolResult::error(vec![ContentBlock::text(format!(
                "bad arguments: {e} (see the tool's inputSchema)"
            ))]);
        }
    };
    let failed = output.value["ok"] != Value::Bool(true);
    structured_with_text(output.value, output.text, failed)
}

/// A result with structured content, and the same JSON as text, written exactly
/// (integers of any size as numbers: the transport writes the structured content,
/// see `precheck` and `serve_stdio`).
fn structured(value: Value, is_error: bool) -> CallToolResult {
    let text = crate::json::to_string(&value).unwrap_or_default();
    structured_with_text(value, text, is_error)
}

/// [`structured`], with the text already written.
fn structured_with_text(value: Value, text: String, is_error: bool) -> CallToolResult {
    let mut result = if is_error {
        CallToolResult::structured_error(value)
    } else {
        CallToolResult::structured(value)
    };
    result.content = vec![ContentBlock::text(text)];
    result
}

/// The reasoning tools, all read-only.
fn reasoning_tools() -> Vec<Tool> {
    let annotations = ToolAnnotations::new()
        .read_only(true)
        .idempotent(true)
        .destructive(false);
    crate::reason::TOOLS
        .iter()
        .map(|tool| {
            let mut output = (tool.output)();
            // MCP wants an object schema at the top.
            output["type"] = json!("object");
            Tool::new(tool.name, tool.description, object((tool.input)()))
                .with_raw_output_schema(object(output))
                .with_annotations(annotations.clone())
        })
        .collect()
}

fn object(value: Value) -> Arc<JsonObject> {
    match value {
        Value::Object(map) => Arc::new(map),
        _ => Arc::new(JsonObject::new()),
    }
}

/// The tool of one operation.
fn tool(op: &Operation, pageable: bool) -> Tool {
    let description = if op.description.is_empty() {
        format!("{} ({})", op.name, op.determinism)
    } else {
        op.description.to_string()
    };
    let mut output = json!({
        "type": "object",
        "properties": {"result": response_schema(op)},
        "required": ["result"],
        "additionalProperties": false,
    });
    let mut input = request_schema(op);
    if pageable {
        let (mut size, mut cursor) = crate::http::openapi::paging_schemas();
        size["description"] = json!(
            "Answer one page of this many solutions instead of the whole answer; `next_cursor` in the result asks for the next page."
        );
        cursor["description"] = json!(
            "The `next_cursor` of the page before, with the same arguments (page_size may be left out: it is then 100)."
        );
        input["properties"]["page_size"] = size;
        input["properties"]["cursor"] = cursor;
        output["properties"]["next_cursor"] = json!({"type": "string",
            "description": "With page_size: the cursor of the next page; absent on the last page."});
    }
    let annotations = match op.method() {
        Method::Get => Some(ToolAnnotations::new().read_only(true)),
        Method::Put => Some(ToolAnnotations::new().idempotent(true)),
        Method::Delete => Some(ToolAnnotations::new().destructive(true)),
        Method::Post => None,
    };
    let tool = Tool::new(op.name.to_string(), description, object(input))
        .with_raw_output_schema(object(output));
    match annotations {
        Some(a) => tool.with_annotations(a),
        None => tool,
    }
}

impl McpServer {
    fn instructions(&self) -> String {
        let mut text = String::new();
        if self.has_source {
            text.push_str(&format!(
                "Tools query the Prolog knowledge base {}; each tool is one documented predicate. The resource {SOURCE_URI} is its source.",
                self.kb.title()
            ));
        }
        if self.reasoner.is_some() {
            if !text.is_empty() {
                text.push(' ');
            }
            text.push_str("The tools reason and check_kb prove goals from facts and rules you write in Euclid-IR, one item per line: facts like parent(tom, bob); rules like ancestor($x, $y) IF parent($x, $z) AND ancestor($z, $y); NOT goal; comparisons > >= < =< =:= =\\= is; comments # or //. Check knowledge with check_kb, ask with reason, and read the proofs.");
        }
        text
    }
}

impl ServerHandler for McpServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_tool_list_changed()
                .enable_resources()
                .build(),
        )
        .with_server_info(Implementation::new("charon", env!("CARGO_PKG_VERSION")))
        .with_instructions(self.instructions())
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        Ok(ListToolsResult::with_all_items(self.tools.to_vec()))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.tools.iter().find(|t| t.name == name).cloned()
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        let mut args = Value::Object(request.arguments.unwrap_or_default());
        // Floats the transport marked on the way in become exact numbers.
        crate::json::settle(&mut args);
        // Over HTTP, the time limit runs from the request's arrival (`precheck`);
        // the transport may have queued it behind the session's other messages.
        let arrived = context
            .extensions
            .get::<axum::http::request::Parts>()
            .and_then(|parts| parts.extensions.get::<Arrived>())
            .map_or_else(std::time::Instant::now, |a| a.0);
        self.call(&request.name, args, arrived)
            .await
            .map(Into::into)
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, McpError> {
        if !self.has_source {
            return Ok(ListResourcesResult::with_all_items(Vec::new()));
        }
        let source = Resource::new(SOURCE_URI, "source")
            .with_title(format!("{} (Prolog source)", self.kb.title()))
            .with_description("The knowledge base's current source text.")
            .with_mime_type("text/x-prolog");
        Ok(ListResourcesResult::with_all_items(vec![source]))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, McpError> {
        if request.uri != SOURCE_URI || !self.has_source {
            return Err(McpError::resource_not_found(
                format!(
                    "no resource {}; the only resource is {SOURCE_URI}",
                    request.uri
                ),
                None,
            ));
        }
        // With --persist the file lags its journal until the next fold: the source is
        // the state as persisted, so the writes are folded in first (what a clean
        // stop would write; with nothing to fold, nothing happens).
        let kb = self.kb.clone();
        let text = tokio::task::spawn_blocking(move || {
            if kb.persisted().is_some() {
                kb.checkpoint().map_err(|e| {
                    format!("cannot fold the journal's writes into the source: {e}")
                })?;
            }
            std::fs::read_to_string(kb.path()).map_err(|e| format!("cannot read the source: {e}"))
        })
        .await
        .map_err(|e| McpError::internal_error(e.to_string(), None))?
        .map_err(|e| McpError::internal_error(e, None))?;
        let contents = match ResourceContents::text(text, SOURCE_URI) {
            ResourceContents::TextResourceContents {
                uri, text, meta, ..
            } => ResourceContents::TextResourceContents {
                uri,
                mime_type: Some("text/x-prolog".into()),
                text,
                meta,
            },
            other => other,
        };
        Ok(ReadResourceResult::new(vec![contents]).into())
    }
}

/// Which `Host` and `Origin` values the HTTP transport accepts (DNS-rebinding and
/// cross-site protection): the same as `guard`'s — the loopback names, the bound
/// host, the names and origins it was given. (The CLI also puts the guard itself in
/// front of `/mcp`, for its token and its problem details; see
/// [`crate::http::guarded`].)
pub fn http_config(guard: &crate::http::Guard) -> StreamableHttpServerConfig {
    let named: Vec<String> = guard
        .hosts()
        .iter()
        .filter(|h| *h != "*")
        .cloned()
        .collect();
    let mut origins: Vec<String> = named
        .iter()
        .flat_map(|h| [format!("http://{h}:*"), format!("https://{h}:*")])
        .collect();
    origins.extend(guard.origins().map(str::to_string));
    let config = if guard.accepts_same_origin() {
        // Same-origin pages of whatever host: the guard checks origins itself.
        StreamableHttpServerConfig::default().disable_allowed_origins()
    } else {
        StreamableHttpServerConfig::default().with_allowed_origins(origins)
    };
    if named.len() < guard.hosts().len() {
        // `*`: any host (the origins stay as named).
        config.disable_allowed_hosts()
    } else {
        config.with_allowed_hosts(named)
    }
}

/// Settings of MCP over HTTP: who may call, and limits besides those every call has
/// (the knowledge base's admission limit and time limit apply to tool calls as to
/// HTTP calls).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct McpHttpOptions {
    /// Sessions open at once; an `initialize` beyond is refused (JSON-RPC -32000,
    /// HTTP 503) until one closes or expires.
    pub max_sessions: usize,
    /// A session without any request for this long is closed; its client
    /// initializes again.
    pub idle_timeout: std::time::Duration,
    /// Who may call (default [`Guard::open`](crate::http::Guard::open), for an
    /// endpoint mounted in an application; see [`router`]).
    pub guard: crate::http::Guard,
    /// Serve `GET /metrics` beside `/mcp` in [`http_router_with`] (see
    /// [`crate::http::metrics`]): the knowledge base's and the reasoning tools' metrics,
    /// and the open sessions. Off by default.
    pub metrics: bool,
}

impl Default for McpHttpOptions {
    fn default() -> Self {
        McpHttpOptions {
            max_sessions: 1000,
            idle_timeout: std::time::Duration::from_secs(300),
            guard: crate::http::Guard::open(),
            metrics: false,
        }
    }
}

impl McpHttpOptions {
    /// These options with `GET /metrics` served (or not) by [`http_router_with`].
    pub fn with_metrics(mut self, metrics: bool) -> Self {
        self.metrics = metrics;
        self
    }

    /// These options with another session limit.
    pub fn with_max_sessions(mut self, sessions: usize) -> Self {
        self.max_sessions = sessions;
        self
    }

    /// These options with another idle timeout.
    pub fn with_idle_timeout(mut self, idle: std::time::Duration) -> Self {
        self.idle_timeout = idle;
        self
    }

    /// These options with another access policy.
    pub fn with_guard(mut self, guard: crate::http::Guard) -> Self {
        self.guard = guard;
        self
    }
}

/// MCP over HTTP as a router to nest in an application, at the path of its choice:
/// the endpoint answers at the router's root, it has no fallback of its own (the
/// application's answers every other path), and it needs no state of the
/// application's (`.with_state(())` makes it fit a router of any state type).
///
/// ```no_run
/// # async fn app(kb: std::sync::Arc<charon::KnowledgeBase>) {
/// use charon::mcp::{McpHttpOptions, McpServer};
/// let app = axum::Router::new()
///     .route("/", axum::routing::get(|| async { "my app" }))
///     .nest("/mcp", charon::mcp::router(McpServer::new(kb), McpHttpOptions::default()))
///     .fallback(|| async { "the app's own 404" });
/// # let _ = app;
/// # }
/// ```
///
/// The endpoint checks `options.guard` (by default any host name, same-origin
/// pages, no token: the application decides who reaches it), the session limits,
/// and every posted body as [`http_router_with`] describes.
pub fn router(server: McpServer, options: McpHttpOptions) -> axum::Router {
    let guard = options.guard.clone();
    crate::http::guarded(endpoint(server.ordered(), &guard, &options, false).0, guard)
}

/// The whole MCP-over-HTTP app with the default limits; see [`http_router_with`].
pub fn http_router(server: McpServer, guard: crate::http::Guard) -> axum::Router {
    http_router_with(server, guard, McpHttpOptions::default())
}

/// The whole MCP-over-HTTP app, as `charon mcp` serves it: the streamable HTTP
/// service at `/mcp`, problem details for every other path, all behind `guard`
/// (Host, Origin, token), the session limits of `options`, and a JSON-RPC check of
/// every posted body: a body that is not JSON (-32700, HTTP 400), one over 1 MiB
/// (-32600, HTTP 413), `params` that are not an object, or `tools/call` `arguments`
/// that are not an object (-32602, with the request's id). (`guard` is the policy;
/// `options.guard` is not read.) To mount MCP in an application of your own, use
/// [`router`].
pub fn http_router_with(
    server: McpServer,
    guard: crate::http::Guard,
    options: McpHttpOptions,
) -> axum::Router {
    let server = server.ordered();
    let metrics = server.clone();
    http_app(server, move || metrics.clone(), guard, options)
}

/// [`http_router_with`] for a server whose knowledge base is replaced while it
/// serves (hot reload; see [`ReloadableMcp`]).
pub fn reloadable_http_router(
    server: ReloadableMcp,
    guard: crate::http::Guard,
    options: McpHttpOptions,
) -> axum::Router {
    let metrics = server.clone();
    http_app(server, move || metrics.current(), guard, options)
}

/// The app at `/mcp` (and `/metrics`) of a handler; `current` is the server whose
/// metrics are reported.
fn http_app<H>(
    server: H,
    current: impl Fn() -> McpServer + Clone + Send + Sync + 'static,
    guard: crate::http::Guard,
    options: McpHttpOptions,
) -> axum::Router
where
    H: ServerHandler + Clone + Send + Sync + 'static,
{
    let metrics = options.metrics.then_some(current);
    let (endpoint, sessions) = endpoint(server, &guard, &options, true);
    let mut app = axum::Router::new()
        // `/mcp`, `/mcp/` and below, as clients are configured.
        .nest_service("/mcp", endpoint)
        .fallback(|req: axum::extract::Request| async move {
            use axum::response::IntoResponse;
            crate::http::Problem::not_found(req.uri().path()).into_response()
        });
    if let Some(current) = metrics {
        app = app.route(
            "/metrics",
            axum::routing::get(move |headers: axum::http::HeaderMap| {
                let (server, sessions) = (current(), sessions.clone());
                async move {
                    let open = sessions.manager.sessions.read().await.len();
                    crate::http::metrics::response(server.metric_sources(open), &headers)
                }
            }),
        );
    }
    crate::http::guarded(app, guard)
}

/// The streamable HTTP service at `/` (and at every path below when `everywhere`),
/// with the session limits and the body checks; no guard.
fn endpoint<H: ServerHandler + Clone + Send + Sync + 'static>(
    server: H,
    guard: &crate::http::Guard,
    options: &McpHttpOptions,
    everywhere: bool,
) -> (axum::Router, Arc<Sessions>) {
    let mut manager = LocalSessionManager::default();
    manager.session_config.keep_alive = Some(options.idle_timeout);
    let manager = Arc::new(manager);
    let service = StreamableHttpService::new(
        move || Ok(server.clone()),
        manager.clone(),
        http_config(guard),
    );
    let sessions = Arc::new(Sessions {
        manager,
        opening: std::sync::atomic::AtomicUsize::new(0),
        max: options.max_sessions.max(1),
        idle: options.idle_timeout,
    });
    let router = axum::Router::new().route_service("/", service.clone());
    let router = if everywhere {
        router.fallback_service(service)
    } else {
        router
    };
    let open = sessions.clone();
    let router = router.layer(axum::middleware::from_fn(move |req, next| {
        precheck(req, next, sessions.clone())
    }));
    (router, open)
}

/// The answer to a `DELETE` that closed a session: 204 No Content. (rmcp answers
/// 202 Accepted; the transport leaves the success status open, and the official
/// Python SDK takes only 200 or 204, logging a failure for anything else.)
fn session_closed(response: axum::response::Response) -> axum::response::Response {
    if response.status() != axum::http::StatusCode::ACCEPTED {
        return response;
    }
    let (mut parts, _) = response.into_parts();
    parts.status = axum::http::StatusCode::NO_CONTENT;
    parts.headers.remove(axum::http::header::CONTENT_LENGTH);
    parts.headers.remove(axum::http::header::CONTENT_TYPE);
    axum::response::Response::from_parts(parts, axum::body::Body::empty())
}

/// When a request reached the server (set by `precheck`, read by `call_tool`).
#[derive(Debug, Clone, Copy)]
struct Arrived(std::time::Instant);

/// The open sessions, and the `initialize` requests under way.
struct Sessions {
    manager: Arc<LocalSessionManager>,
    opening: std::sync::atomic::AtomicUsize,
    max: usize,
    idle: std::time::Duration,
}

/// Decrements the count of `initialize` requests under way when dropped.
struct Opening<'a>(&'a std::sync::atomic::AtomicUsize);

impl Drop for Opening<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, std::sync::atomic::Ordering::AcqRel);
    }
}

/// Largest JSON-RPC message accepted over HTTP, in bytes (as the HTTP API's body).
const MAX_MESSAGE: usize = 1 << 20;

/// Answers in JSON-RPC what the transport would answer otherwise in plain HTTP, or
/// not at all; refuses an `initialize` beyond the session limit.
async fn precheck(
    req: axum::extract::Request,
    next: axum::middleware::Next,
    sessions: Arc<Sessions>,
) -> axum::response::Response {
    use std::sync::atomic::Ordering;
    let arrived = std::time::Instant::now();
    if req.method() == axum::http::Method::DELETE {
        return session_closed(next.run(req).await);
    }
    if req.method() != axum::http::Method::POST {
        // A GET stream replays and carries results too.
        return unmark_body(next.run(req).await);
    }
    let (parts, body) = req.into_parts();
    let Ok(bytes) = axum::body::to_bytes(body, MAX_MESSAGE).await else {
        return rpc_error(
            axum::http::StatusCode::PAYLOAD_TOO_LARGE,
            Value::Null,
            -32600,
            format!("Invalid request: the message is larger than {MAX_MESSAGE} bytes"),
        );
    };
    // Numbers rmcp's parser would change travel marked (see `crate::json`).
    let bytes = match crate::json::mark(&bytes) {
        std::borrow::Cow::Borrowed(_) => bytes,
        std::borrow::Cow::Owned(marked) => axum::body::Bytes::from(marked),
    };
    let message: Value = match serde_json::from_slice(&bytes) {
        Ok(message) => message,
        Err(e) => {
            return rpc_error(
                axum::http::StatusCode::BAD_REQUEST,
                Value::Null,
                -32700,
                format!("Parse error: the body is not JSON: {e}"),
            );
        }
    };
    let messages = match &message {
        Value::Array(batch) => batch.iter().collect(),
        one => vec![one],
    };
    for m in &messages {
        if let Some(why) = bad_params(m) {
            let id = m.get("id").cloned().unwrap_or(Value::Null);
            return rpc_error(axum::http::StatusCode::OK, id, -32602, why);
        }
    }
    let initialize = messages
        .iter()
        .find(|m| m.get("method").and_then(Value::as_str) == Some("initialize"));
    let _opening = match initialize {
        Some(m) if !parts.headers.contains_key("mcp-session-id") => {
            let before = sessions.opening.fetch_add(1, Ordering::AcqRel);
            let opening = Opening(&sessions.opening);
            let open = sessions.manager.sessions.read().await.len();
            if open + before >= sessions.max {
                let id = m.get("id").cloned().unwrap_or(Value::Null);
                return rpc_error(
                    axum::http::StatusCode::SERVICE_UNAVAILABLE,
                    id,
                    -32000,
                    format!(
                        "Server busy: {} MCP sessions are open, the limit; close one (DELETE /mcp) or try again once idle ones expire ({} s without a request)",
                        sessions.max,
                        sessions.idle.as_secs()
                    ),
                );
            }
            Some(opening)
        }
        _ => None,
    };
    let mut req = axum::extract::Request::from_parts(parts, axum::body::Body::from(bytes));
    req.extensions_mut().insert(Arrived(arrived));
    unmark_body(next.run(req).await)
}

/// The response with marked numbers written as numbers and ordered keys as bare
/// names, frame by frame (rmcp writes each message, JSON or one server-sent event,
/// as one frame).
fn unmark_body(response: axum::response::Response) -> axum::response::Response {
    use http_body_util::BodyExt as _;
    let (mut parts, body) = response.into_parts();
    parts.headers.remove(axum::http::header::CONTENT_LENGTH);
    let body = body.map_frame(|frame| {
        frame.map_data(|data| match crate::json::unmark(&data) {
            std::borrow::Cow::Borrowed(_) => data,
            std::borrow::Cow::Owned(text) => axum::body::Bytes::from(text),
        })
    });
    axum::response::Response::from_parts(parts, axum::body::Body::new(body))
}

/// Why a request's params are unusable, if they are.
fn bad_params(message: &Value) -> Option<String> {
    let params = message.get("params")?;
    if !params.is_object() && !params.is_array() {
        return Some("Invalid params: `params` must be an object".into());
    }
    let method = message.get("method").and_then(Value::as_str)?;
    match params.get("arguments") {
        Some(args) if method == "tools/call" && !args.is_object() && !args.is_null() => {
            Some("Invalid params: `arguments` must be an object keyed by argument name".into())
        }
        _ => None,
    }
}

fn rpc_error(
    status: axum::http::StatusCode,
    id: Value,
    code: i64,
    message: String,
) -> axum::response::Response {
    use axum::response::IntoResponse;
    let body = json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}});
    // Charon's writer: the id may be a number only it holds exactly.
    let body = crate::json::to_vec(&body).unwrap_or_default();
    (
        status,
        [(
            axum::http::header::CONTENT_TYPE,
            axum::http::HeaderValue::from_static("application/json"),
        )],
        body,
    )
        .into_response()
}

/// rmcp's streamable HTTP service for `server`, as it is: the building block under
/// [`router`], without what that adds around it. Prefer [`router`]: this service
/// reads and writes JSON with serde_json alone, so integers past 64 bits in a
/// request are rounded and in an answer are written as Charon's internal marked
/// text (an application that turns on serde_json's `arbitrary_precision` gets them
/// exact either way), answers keep serde_json's key order (sorted) rather than the
/// mode line's, and it has no limit on sessions or body size of its own.
pub fn http_service(
    server: McpServer,
    config: StreamableHttpServerConfig,
) -> StreamableHttpService<McpServer, LocalSessionManager> {
    StreamableHttpService::new(
        move || Ok(server.clone()),
        Arc::new(LocalSessionManager::default()),
        config,
    )
}

/// Serves MCP over this process's stdin and stdout until the client disconnects.
///
/// Nothing but JSON-RPC may reach stdout, so the protocol gets a private copy of the
/// original stdout and file descriptor 1 is pointed at stderr: anything else that
/// writes to "stdout" in this process (a library, a stray `println!`) lands in the
/// log instead. The knowledge base's own output never gets here at all: it runs in
/// worker processes whose output is captured.
pub async fn serve_stdio(server: McpServer) -> std::io::Result<()> {
    let server = server.ordered();
    use rmcp::ServiceExt as _;
    // SAFETY: dup/dup2 on this process's standard descriptors.
    let proto_fd = unsafe { libc::dup(1) };
    if proto_fd < 0 || unsafe { libc::dup2(2, 1) } < 0 {
        return Err(std::io::Error::last_os_error());
    }
    // SAFETY: proto_fd is a fresh descriptor that nothing else owns.
    let proto = unsafe { <std::fs::File as std::os::fd::FromRawFd>::from_raw_fd(proto_fd) };
    let proto = tokio::fs::File::from_std(proto);
    // Each message, one line, passes `crate::json`'s marking on the way in and its
    // unmarking on the way out, so numbers rmcp's JSON would change stay exact and
    // answers keep their declared key order.
    let (to_server, server_in) = tokio::io::duplex(1 << 16);
    let (server_out, from_server) = tokio::io::duplex(1 << 16);
    let inbound = tokio::spawn(relay(tokio::io::stdin(), to_server, crate::json::mark));
    let outbound = tokio::spawn(relay(from_server, proto, crate::json::unmark));
    let running = server
        .serve((server_in, server_out))
        .await
        .map_err(|e| std::io::Error::other(e.to_string()))?;
    running
        .waiting()
        .await
        .map_err(|e| std::io::Error::other(e.to_string()))?;
    inbound.abort();
    // The server is gone: its side of the pipe is closed, the last lines flush.
    outbound.await.map_err(std::io::Error::other)??;
    Ok(())
}

/// Copies lines from `from` to `to`, each rewritten by `rewrite`, until `from` ends.
async fn relay<R, W>(
    from: R,
    mut to: W,
    rewrite: fn(&[u8]) -> std::borrow::Cow<'_, [u8]>,
) -> std::io::Result<()>
where
    R: tokio::io::AsyncRead + Unpin,
    W: tokio::io::AsyncWrite + Unpin,
{
    use tokio::io::{AsyncBufReadExt as _, AsyncWriteExt as _};
    let mut from = tokio::io::BufReader::new(from);
    let mut line = Vec::new();
    loop {
        line.clear();
        if from.read_until(b'\n', &mut line).await? == 0 {
            return to.shutdown().await;
        }
        to.write_all(&rewrite(&line)).await?;
        to.flush().await?;
    }
}
