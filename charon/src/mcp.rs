//! The MCP surface: one tool per operation and the resource
//! `charon://source`, served with `rmcp` over stdio or streamable HTTP.
//!
//! The handler is written over the operation model: tool input schemas are the
//! OpenAPI request-body schemas (same function), output schemas wrap the 200 schema
//! in an object, and arguments go through [`KnowledgeBase::prepare`], the same
//! validation as HTTP.

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
use crate::{CallError, KnowledgeBase};

/// URI of the knowledge base's source.
pub const SOURCE_URI: &str = "charon://source";

/// An MCP server for one knowledge base.
#[derive(Debug, Clone)]
pub struct McpServer {
    kb: Arc<KnowledgeBase>,
    tools: Arc<Vec<Tool>>,
}

impl McpServer {
    /// A server for `kb`.
    pub fn new(kb: Arc<KnowledgeBase>) -> Self {
        let tools = kb.operations().iter().map(tool).collect();
        McpServer {
            kb,
            tools: Arc::new(tools),
        }
    }

    /// The tools, as `tools/list` returns them.
    pub fn tools(&self) -> &[Tool] {
        &self.tools
    }

    async fn call(&self, name: &str, args: Value) -> Result<CallToolResult, McpError> {
        let Some(id) = self.kb.resolve(name) else {
            return Err(McpError::invalid_params(
                format!("no tool named `{name}`; tools/list names every tool"),
                None,
            ));
        };
        let answer = match self.kb.prepare(id, &args) {
            Ok(call) => self.kb.invoke_async(call).await.map(|a| a.value),
            Err(e) => Err(e),
        };
        Ok(match answer {
            Ok(value) => CallToolResult::structured(json!({ "result": value })),
            Err(e) => failure(&e),
        })
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
        CallError::TimeLimit { .. } | CallError::InferenceLimit { .. } => {
            " (narrow the question, or raise the server's limits)"
        }
        CallError::TooManySolutions { .. } => " (narrow the question, or raise --max-solutions)",
        CallError::Overloaded { .. } => " (the server is busy: retry shortly)",
        _ => "",
    };
    CallToolResult::error(vec![ContentBlock::text(format!("{error}{hint}"))])
}

fn object(value: Value) -> Arc<JsonObject> {
    match value {
        Value::Object(map) => Arc::new(map),
        _ => Arc::new(JsonObject::new()),
    }
}

/// The tool of one operation.
fn tool(op: &Operation) -> Tool {
    let description = if op.description.is_empty() {
        format!("{} ({})", op.name, op.determinism)
    } else {
        op.description.to_string()
    };
    let output = json!({
        "type": "object",
        "properties": {"result": response_schema(op)},
        "required": ["result"],
        "additionalProperties": false,
    });
    let annotations = match op.method() {
        Method::Get => Some(ToolAnnotations::new().read_only(true)),
        Method::Put => Some(ToolAnnotations::new().idempotent(true)),
        Method::Delete => Some(ToolAnnotations::new().destructive(true)),
        Method::Post => None,
    };
    let tool = Tool::new(op.name.to_string(), description, object(request_schema(op)))
        .with_raw_output_schema(object(output));
    match annotations {
        Some(a) => tool.with_annotations(a),
        None => tool,
    }
}

impl ServerHandler for McpServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_resources()
                .build(),
        )
        .with_server_info(Implementation::new("charon", env!("CARGO_PKG_VERSION")))
        .with_instructions(format!(
            "Tools query the Prolog knowledge base {}; each tool is one documented predicate. The resource {SOURCE_URI} is its source.",
            self.kb.title()
        ))
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
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        let args = Value::Object(request.arguments.unwrap_or_default());
        self.call(&request.name, args).await.map(Into::into)
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, McpError> {
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
        if request.uri != SOURCE_URI {
            return Err(McpError::resource_not_found(
                format!(
                    "no resource {}; the only resource is {SOURCE_URI}",
                    request.uri
                ),
                None,
            ));
        }
        let text = std::fs::read_to_string(self.kb.path())
            .map_err(|e| McpError::internal_error(format!("cannot read the source: {e}"), None))?;
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
    let config = StreamableHttpServerConfig::default();
    if guard.hosts().iter().any(|h| h == "*") {
        return config.disable_allowed_hosts().disable_allowed_origins();
    }
    let hosts: Vec<String> = guard.hosts().to_vec();
    let mut origins: Vec<String> = hosts
        .iter()
        .flat_map(|h| [format!("http://{h}:*"), format!("https://{h}:*")])
        .collect();
    origins.extend(guard.origins().map(str::to_string));
    config
        .with_allowed_hosts(hosts)
        .with_allowed_origins(origins)
}

/// The streamable HTTP service (mount it with `nest_service("/mcp", …)`).
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
    use rmcp::ServiceExt as _;
    // SAFETY: dup/dup2 on this process's standard descriptors.
    let proto_fd = unsafe { libc::dup(1) };
    if proto_fd < 0 || unsafe { libc::dup2(2, 1) } < 0 {
        return Err(std::io::Error::last_os_error());
    }
    // SAFETY: proto_fd is a fresh descriptor that nothing else owns.
    let proto = unsafe { <std::fs::File as std::os::fd::FromRawFd>::from_raw_fd(proto_fd) };
    let transport = (tokio::io::stdin(), tokio::fs::File::from_std(proto));
    let running = server
        .serve(transport)
        .await
        .map_err(|e| std::io::Error::other(e.to_string()))?;
    running
        .waiting()
        .await
        .map_err(|e| std::io::Error::other(e.to_string()))?;
    Ok(())
}
