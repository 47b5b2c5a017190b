//! MCP over streamable HTTP: the transport's settings (who may call, sessions,
//! message size), the routers that serve [`McpServer`] at `/mcp`, and the
//! checks in front of rmcp's service (sessions, bodies, JSON-RPC errors).

use std::sync::Arc;

use rmcp::handler::server::ServerHandler;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use serde_json::{Value, json};

use super::{McpServer, ReloadableMcp};

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
pub(super) struct Arrived(pub(super) std::time::Instant);

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
