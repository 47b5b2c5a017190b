//! The generated router and MCP over HTTP mounted in someone else's axum app: its
//! own routes, fallback, state and layers, served under a public host name.

use axum::Router;
use axum::body::Body;
use axum::extract::State;
use axum::http::{Request, StatusCode, header};
use axum::routing::get;
use serde_json::{Value, json};
use tower::ServiceExt as _;

charon::knowledge_base!(Meds = "../examples/meds.pl");

/// The app's own state, which the knowledge base's routes do not need.
#[derive(Clone)]
struct AppState {
    name: &'static str,
}

/// An app with its own routes, state, fallback and a layer, the HTTP API under
/// `/kb` and MCP under `/mcp`, nested after its own routes and before its state.
fn app(meds: &Meds) -> Router {
    Router::new()
        .route("/", get(|State(s): State<AppState>| async move { s.name }))
        .nest("/kb", meds.router())
        .nest("/mcp", meds.mcp_router())
        .fallback(|| async { (StatusCode::NOT_FOUND, "the app's own 404") })
        .with_state(AppState { name: "pharmacy" })
        .layer(axum::middleware::from_fn(
            |req: axum::extract::Request, next: axum::middleware::Next| async move {
                let mut resp = next.run(req).await;
                resp.headers_mut()
                    .insert("x-app", header::HeaderValue::from_static("yes"));
                resp
            },
        ))
}

const HOST: &str = "myapp.example.com";

async fn send(app: &Router, req: Request<Body>) -> (StatusCode, axum::http::HeaderMap, String) {
    let resp = app.clone().oneshot(req).await.expect("infallible");
    let status = resp.status();
    let headers = resp.headers().clone();
    let bytes = axum::body::to_bytes(resp.into_body(), usize::MAX)
        .await
        .expect("body");
    (
        status,
        headers,
        String::from_utf8_lossy(&bytes).into_owned(),
    )
}

fn get_req(path: &str) -> Request<Body> {
    Request::get(path)
        .header(header::HOST, HOST)
        .body(Body::empty())
        .expect("request")
}

fn rpc(session: Option<&str>, body: Value) -> Request<Body> {
    let mut req = Request::post("/mcp")
        .header(header::HOST, HOST)
        // A page of the app itself (same origin) may use it.
        .header(header::ORIGIN, "https://myapp.example.com")
        .header(header::CONTENT_TYPE, "application/json")
        .header(header::ACCEPT, "application/json, text/event-stream");
    if let Some(id) = session {
        req = req.header("mcp-session-id", id);
    }
    req.body(Body::from(body.to_string())).expect("request")
}

/// The JSON-RPC message in a response body, plain JSON or an SSE event.
fn message(body: &str) -> Value {
    if let Ok(v) = charon::json::from_str(body) {
        return v;
    }
    body.lines()
        .filter_map(|l| l.strip_prefix("data:"))
        .filter_map(|d| charon::json::from_str(d.trim()).ok())
        .find(|v| v.get("id").is_some())
        .unwrap_or_else(|| panic!("no JSON-RPC message in {body}"))
}

#[tokio::test]
async fn the_generated_router_answers_under_the_apps_host_name_beside_its_routes() {
    let meds = Meds::load_with(crate::util::config()).expect("loads");
    let app = app(&meds);
    let (status, headers, body) = send(
        &app,
        get_req("/kb/get_interaction?First=aspirin&Second=warfarin"),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body, "\"major\"");
    assert_eq!(
        headers.get("x-app").map(|v| v.as_bytes()),
        Some(&b"yes"[..])
    );
    let (status, _, body) = send(&app, get_req("/")).await;
    assert_eq!((status, body.as_str()), (StatusCode::OK, "pharmacy"));
    let (status, _, body) = send(&app, get_req("/no/such/page")).await;
    assert_eq!(
        (status, body.as_str()),
        (StatusCode::NOT_FOUND, "the app's own 404")
    );
    // The app's own pages may call it (same origin); another site's may not.
    let from = |origin: &str| {
        Request::get("/kb/get_interaction?First=aspirin&Second=warfarin")
            .header(header::HOST, HOST)
            .header(header::ORIGIN, origin)
            .body(Body::empty())
            .expect("request")
    };
    let (status, _, body) = send(&app, from("https://myapp.example.com")).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (status, _, body) = send(&app, from("https://attacker.example")).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    assert!(body.contains("Guard::allow_origin"), "{body}");
}

#[tokio::test]
async fn mcp_mounted_in_the_app_initializes_and_calls_a_tool() {
    let meds = Meds::load_with(crate::util::config()).expect("loads");
    let app = app(&meds);
    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "mount-test", "version": "0"}}});
    let (status, headers, body) = send(&app, rpc(None, init)).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert!(message(&body)["result"]["serverInfo"].is_object(), "{body}");
    let session = headers
        .get("mcp-session-id")
        .and_then(|v| v.to_str().ok())
        .expect("a session id")
        .to_string();
    let (status, _, body) = send(
        &app,
        rpc(
            Some(&session),
            json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        ),
    )
    .await;
    assert!(status.is_success(), "{status}: {body}");
    let call = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
        "name": "get_interaction", "arguments": {"First": "aspirin", "Second": "warfarin"}}});
    let (status, _, body) = send(&app, rpc(Some(&session), call)).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let result = &message(&body)["result"];
    assert_eq!(result["isError"], json!(false), "{body}");
    assert!(result.to_string().contains("major"), "{body}");
    // The app's fallback still answers every other path, /mcp/… included.
    let (status, _, body) = send(&app, get_req("/mcp/elsewhere")).await;
    assert_eq!(
        (status, body.as_str()),
        (StatusCode::NOT_FOUND, "the app's own 404")
    );
}
