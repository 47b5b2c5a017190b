//! MCP through the library: the tool list rendered from the operation model, and
//! the streamable HTTP transport's DNS-rebinding protection (Host and Origin).
//! Whole sessions with real clients are in tests/mcp/ (run by scripts/api-checks.sh).

use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use charon::KnowledgeBase;
use charon::mcp::{McpServer, http_config, http_service};
use serde_json::{Value, json};
use tower::ServiceExt as _;

use crate::util::{config, example};

fn server() -> McpServer {
    let kb = KnowledgeBase::load_with(example("library.pl"), config()).expect("loads");
    McpServer::new(Arc::new(kb))
}

#[test]
fn tools_are_the_operations_with_the_openapi_request_schemas() {
    let server = server();
    let kb = KnowledgeBase::load_with(example("library.pl"), config()).expect("loads");
    let doc = charon::http::openapi::document(&kb.title(), kb.operations());
    let names: Vec<&str> = server.tools().iter().map(|t| t.name.as_ref()).collect();
    let ops: Vec<&str> = kb.operations().iter().map(|o| o.name.as_ref()).collect();
    assert_eq!(names, ops);
    let put = server
        .tools()
        .iter()
        .find(|t| t.name == "put_book")
        .expect("put_book");
    let body =
        &doc["paths"]["/put_book"]["put"]["requestBody"]["content"]["application/json"]["schema"];
    assert_eq!(&Value::Object((*put.input_schema).clone()), body);
    assert_eq!(
        put.annotations.as_ref().and_then(|a| a.idempotent_hint),
        Some(true)
    );
    let get = server
        .tools()
        .iter()
        .find(|t| t.name == "get_book")
        .expect("get_book");
    assert_eq!(
        get.annotations.as_ref().and_then(|a| a.read_only_hint),
        Some(true)
    );
    let del = server
        .tools()
        .iter()
        .find(|t| t.name == "delete_book")
        .expect("delete_book");
    assert_eq!(
        del.annotations.as_ref().and_then(|a| a.destructive_hint),
        Some(true)
    );
    let out = get.output_schema.as_ref().expect("output schema");
    assert_eq!(
        out.get("properties").and_then(|p| p.get("result")),
        Some(
            &doc["paths"]["/get_book"]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
        )
    );
}

fn initialize(host: &str, origin: Option<&str>) -> Request<Body> {
    let body = json!({
        "jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "test", "version": "1"}}
    });
    let mut req = Request::post("/mcp")
        .header(header::HOST, host)
        .header(header::CONTENT_TYPE, "application/json")
        .header(header::ACCEPT, "application/json, text/event-stream");
    if let Some(origin) = origin {
        req = req.header(header::ORIGIN, origin);
    }
    req.body(Body::from(body.to_string())).expect("request")
}

async fn status(app: &Router, req: Request<Body>) -> StatusCode {
    app.clone().oneshot(req).await.expect("infallible").status()
}

#[tokio::test(flavor = "multi_thread")]
async fn mcp_over_http_rejects_a_foreign_host_and_a_foreign_origin() {
    let app = Router::new().nest_service(
        "/mcp",
        http_service(
            server(),
            http_config(&charon::http::Guard::for_bind("127.0.0.1")),
        ),
    );
    assert_eq!(
        status(&app, initialize("127.0.0.1:3000", None)).await,
        StatusCode::OK
    );
    assert_eq!(
        status(
            &app,
            initialize("localhost:3000", Some("http://localhost:5173"))
        )
        .await,
        StatusCode::OK
    );
    let foreign_host = status(&app, initialize("evil.example:3000", None)).await;
    assert!(foreign_host.is_client_error(), "{foreign_host}");
    let foreign_origin = status(
        &app,
        initialize("127.0.0.1:3000", Some("http://evil.example")),
    )
    .await;
    assert!(foreign_origin.is_client_error(), "{foreign_origin}");
}

#[tokio::test(flavor = "multi_thread")]
async fn binding_a_public_host_accepts_that_host_too() {
    let app = Router::new().nest_service(
        "/mcp",
        http_service(
            server(),
            http_config(&charon::http::Guard::for_bind("10.1.2.3")),
        ),
    );
    assert_eq!(
        status(
            &app,
            initialize("10.1.2.3:8080", Some("http://10.1.2.3:8080"))
        )
        .await,
        StatusCode::OK
    );
    assert_eq!(
        status(&app, initialize("127.0.0.1:8080", None)).await,
        StatusCode::OK
    );
    assert!(
        status(&app, initialize("evil.example", None))
            .await
            .is_client_error()
    );
}

/// MCP tool calls go through the same admission control as HTTP: with
/// `--max-pending 1`, a call made while another holds the only place is refused at
/// once with an error result that says so, and the server answers normally after.
#[test]
fn mcp_tool_calls_share_the_admission_limit() {
    let mut session = crate::util::StdioSession::start(&[
        "mcp",
        "tests/kbs/types.pl",
        "--stdio",
        "--workers",
        "2",
        "--max-pending",
        "1",
        "--answer-cache",
        "0",
    ]);
    let mut refused = None;
    for attempt in 0..10u64 {
        let (slow, quick) = (100 + 2 * attempt, 101 + 2 * attempt);
        session.call(slow, "nap", json!({"Seconds": 1}));
        std::thread::sleep(std::time::Duration::from_millis(300));
        session.call(quick, "det1", json!({"X": 1}));
        let quick_answer = session.answer(quick);
        let slow_answer = session.answer(slow);
        assert_eq!(
            slow_answer["structuredContent"]["result"], true,
            "{slow_answer}"
        );
        if quick_answer["isError"] == true {
            refused = Some(quick_answer);
            break;
        }
    }
    let refused = refused.expect("a call beyond --max-pending is refused");
    let text = refused["content"][0]["text"].as_str().expect("text");
    assert!(
        text.contains("calls are already waiting for the engine"),
        "{text}"
    );
    assert!(text.contains("retry"), "{text}");
    // Two workers are free again: the same call is answered.
    session.call(1, "det1", json!({"X": 1}));
    assert_eq!(session.answer(1)["structuredContent"]["result"], 2);
}

/// Resident memory of a process, in KiB (Linux).
fn rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("status");
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .expect("VmRSS")
}

/// An `initialize` storm over HTTP: sessions beyond `--max-sessions` are refused as
/// busy (JSON-RPC -32000, HTTP 503) and memory stays bounded; sessions idle past
/// `--session-idle-secs` close, and new ones can open.
#[test]
fn an_initialize_storm_is_bounded_and_idle_sessions_close() {
    use crate::util::{fixture, mcp_http_server, mcp_initialize, mcp_post};
    let server = mcp_http_server(
        &fixture("types.pl"),
        &["--max-sessions", "50", "--session-idle-secs", "2"],
        &[],
    );
    let port = server.port;
    let before = rss_kib(server.child.id());
    let initialize = mcp_initialize("storm");
    let open = || mcp_post(port, &initialize, &[]);
    let replies: Vec<_> = std::thread::scope(|s| {
        let threads: Vec<_> = (0..8)
            .map(|_| s.spawn(|| (0..250).map(|_| open()).collect::<Vec<_>>()))
            .collect();
        threads
            .into_iter()
            .flat_map(|t| t.join().expect("client"))
            .collect()
    });
    let opened: Vec<_> = replies.iter().filter(|r| r.status == 200).collect();
    let busy: Vec<_> = replies.iter().filter(|r| r.status == 503).collect();
    assert_eq!(opened.len(), 50, "exactly the limit opens");
    assert_eq!(busy.len(), replies.len() - 50, "the rest are busy");
    let error: Value = charon::json::from_str(&busy[0].body).expect("a JSON-RPC error");
    assert_eq!(error["error"]["code"], -32000);
    let grown = rss_kib(server.child.id()).saturating_sub(before);
    assert!(
        grown < 64 * 1024,
        "2,000 initializes grew memory by {grown} KiB"
    );
    // Idle sessions close: an old session id is unknown after the idle time, and a
    // new session opens.
    let session = opened[0]
        .header("mcp-session-id")
        .expect("a session id")
        .to_string();
    std::thread::sleep(Duration::from_secs(4));
    let old = mcp_post(
        port,
        &json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}).to_string(),
        &[
            ("Mcp-Session-Id", &session),
            ("Mcp-Protocol-Version", "2025-06-18"),
        ],
    );
    assert_eq!(old.status, 404, "{}", old.body);
    assert_eq!(
        open().status,
        200,
        "a new session opens once idle ones closed"
    );
}

/// 800 tool calls at once over HTTP, from 800 clients (a session each): the calls
/// beyond the
/// admission limit are refused at once as busy, the others are answered or reach
/// their time limit, and every answer comes by the time limit (+ 10 %). The server
/// answers normally afterwards.
#[test]
fn eight_hundred_concurrent_tool_calls_get_back_pressure_within_the_limit() {
    use crate::util::{fixture, mcp_http_server, mcp_initialize, mcp_post};
    let limit = Duration::from_secs(3);
    let server = mcp_http_server(
        &fixture("types.pl"),
        &[
            "--workers",
            "2",
            "--max-pending",
            "64",
            "--timeout-ms",
            "3000",
            "--answer-cache",
            "0",
        ],
        &[],
    );
    let port = server.port;
    let version = ("Mcp-Protocol-Version", "2025-06-18");
    let sessions: Vec<String> = (0..800)
        .map(|n| {
            let opened = mcp_post(port, &mcp_initialize(&format!("load-{n}")), &[]);
            assert_eq!(opened.status, 200, "{}", opened.body);
            let id = opened
                .header("mcp-session-id")
                .expect("a session")
                .to_string();
            let initialized =
                json!({"jsonrpc": "2.0", "method": "notifications/initialized"}).to_string();
            let ack = mcp_post(port, &initialized, &[("Mcp-Session-Id", &id), version]);
            assert_eq!(ack.status, 202, "{}", ack.body);
            id
        })
        .collect();
    let call_over = |stream, session: &str, id: u64, tool: &str, args: Value| {
        let body = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": tool, "arguments": args}})
        .to_string();
        let host = format!("127.0.0.1:{port}");
        crate::util::request_over(
            stream,
            "POST",
            "/mcp",
            &[
                ("Host", &host),
                ("Content-Type", "application/json"),
                ("Accept", "application/json, text/event-stream"),
                ("Mcp-Session-Id", session),
                version,
            ],
            &body,
        )
    };
    // Every client connects first, then all send at once: the time measured is the
    // server's, not the kernel's (800 connections at once overflow the listen queue,
    // and a dropped SYN is sent again a second later).
    let ready = std::sync::Barrier::new(800);
    let answers: Vec<(String, Duration)> = std::thread::scope(|s| {
        let threads: Vec<_> = (0..800u64)
            .map(|i| {
                let session = &sessions[i as usize];
                let (call_over, ready) = (&call_over, &ready);
                s.spawn(move || {
                    let stream =
                        std::net::TcpStream::connect(("127.0.0.1", port)).expect("connects");
                    ready.wait();
                    let started = std::time::Instant::now();
                    let reply = call_over(stream, session, i + 10, "nap", json!({"Seconds": 1}));
                    assert_eq!(reply.status, 200, "{}", reply.body);
                    (reply.body, started.elapsed())
                })
            })
            .collect();
        threads
            .into_iter()
            .map(|t| t.join().expect("client"))
            .collect()
    });
    let (mut answered, mut busy, mut late) = (0, 0, 0);
    for (body, took) in &answers {
        assert!(
            *took <= limit + limit / 10,
            "an answer after {took:?} (limit {limit:?}): {body}"
        );
        if body.contains("calls are already waiting for the engine") {
            busy += 1;
        } else if body.contains("time limit") {
            late += 1;
        } else {
            assert!(body.contains(r#""result":true"#), "{body}");
            answered += 1;
        }
    }
    assert!(
        busy >= 700,
        "back-pressure: {busy} busy, {answered} answered, {late} late"
    );
    assert!(
        answered >= 2,
        "{busy} busy, {answered} answered, {late} late"
    );
    let stream = std::net::TcpStream::connect(("127.0.0.1", port)).expect("connects");
    let after = call_over(stream, &sessions[0], 1, "det1", json!({"X": 1}));
    assert!(after.body.contains(r#""result":2"#), "{}", after.body);
}

#[test]
fn a_closed_session_is_answered_as_clients_expect_and_is_gone() {
    use crate::util::{fixture, mcp_http_server, mcp_initialize, mcp_post};
    let server = mcp_http_server(&fixture("types.pl"), &[], &[]);
    let port = server.port;
    let opened = mcp_post(port, &mcp_initialize("closer"), &[]);
    assert_eq!(opened.status, 200, "{}", opened.body);
    let id = opened
        .header("mcp-session-id")
        .expect("a session")
        .to_string();
    let host = format!("127.0.0.1:{port}");
    let version = ("Mcp-Protocol-Version", "2025-06-18");
    let close = |id: &str| {
        crate::util::request(
            port,
            "DELETE",
            "/mcp",
            &[("Host", &host), ("Mcp-Session-Id", id), version],
            "",
        )
    };
    // The official Python SDK takes 200 or 204, and logs a failure for anything else.
    let closed = close(&id);
    assert_eq!(closed.status, 204, "{}", closed.body);
    assert_eq!(closed.body, "");
    let ping = json!({"jsonrpc": "2.0", "id": 2, "method": "ping"}).to_string();
    let after = mcp_post(port, &ping, &[("Mcp-Session-Id", &id), version]);
    assert_eq!(after.status, 404, "the session is gone: {}", after.body);
    // DELETE is idempotent: closing it again is no error.
    assert_eq!(close(&id).status, 204);
}
