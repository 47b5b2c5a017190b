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
mod stdio;
mod transport;

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
use serde_json::{Value, json};

use crate::pldoc::schema::{request_schema, response_schema};
use crate::pldoc::{Method, Operation};
use crate::reason::Reasoner;
use crate::{CallError, KnowledgeBase};

pub use reload::ReloadableMcp;
pub use stdio::serve_stdio;
use transport::Arrived;
pub use transport::{
    McpHttpOptions, http_config, http_router, http_router_with, http_service,
    reloadable_http_router, router,
};

/// `charon://source` as last rendered with the journal's writes, and the
/// generation it renders (see `source_text`).
type Rendered = std::sync::Mutex<Option<(u64, Arc<str>)>>;

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
    /// `charon://source` as last rendered.
    source: Arc<Rendered>,
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
            source: Arc::default(),
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
            source: Arc::default(),
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
        let kb = self.kb.clone();
        let cached = self.source.clone();
        let text = tokio::task::spawn_blocking(move || source_text(&kb, &cached))
            .await
            .map_err(|e| McpError::internal_error(e.to_string(), None))?
            .map_err(|e| McpError::internal_error(e, None))?;
        let contents = match ResourceContents::text(text.to_string(), SOURCE_URI) {
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

/// `charon://source`: the knowledge base's file as the next fold writes it. With
/// --persist the file lags its journal until a fold, so the state as persisted is
/// rendered aside (as `charon export` renders it: the file and its journal are left
/// alone, and no write waits), once per generation; else, or with nothing to fold,
/// the file as it is.
fn source_text(kb: &KnowledgeBase, cached: &Rendered) -> Result<Arc<str>, String> {
    if kb.persisted().is_none() || !kb.journal_pending() {
        return std::fs::read_to_string(kb.path())
            .map(Arc::from)
            .map_err(|e| format!("cannot read the source: {e}"));
    }
    let mut cached = cached.lock().unwrap_or_else(|p| p.into_inner());
    let generation = kb.generation();
    if let Some((rendered, text)) = cached.as_ref()
        && *rendered == generation
    {
        return Ok(text.clone());
    }
    let rendering = |e: String| format!("cannot render the source with the journal's writes: {e}");
    let dir =
        crate::engine::PrivateDir::new("charon-source").map_err(|e| rendering(e.to_string()))?;
    let to = dir.path().join("source.pl");
    kb.export(&to).map_err(|e| rendering(e.to_string()))?;
    let text: Arc<str> = std::fs::read_to_string(&to)
        .map_err(|e| rendering(e.to_string()))?
        .into();
    *cached = Some((generation, text.clone()));
    Ok(text)
}
