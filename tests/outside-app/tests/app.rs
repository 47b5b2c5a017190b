//! The app, through its public API only, as its own tests would check it.

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use outside_app::{PriceList, Shop, app};
use serde_json::{Value, json};
use tower::ServiceExt as _;

/// A public host name: the mounted routes must answer it.
const HOST: &str = "shop.example.com";

async fn send(app: &Router, req: Request<Body>) -> (StatusCode, axum::http::HeaderMap, String) {
    let resp = app.clone().oneshot(req).await.expect("infallible");
    let status = resp.status();
    let headers = resp.headers().clone();
    let bytes = axum::body::to_bytes(resp.into_body(), usize::MAX)
        .await
        .expect("body");
    (status, headers, String::from_utf8_lossy(&bytes).into_owned())
}

fn get(path: &str) -> Request<Body> {
    Request::get(path)
        .header(header::HOST, HOST)
        .body(Body::empty())
        .expect("request")
}

/// An operation's call, arguments in the query string (POST: the names do not start
/// with `get_`).
fn call(path: &str) -> Request<Body> {
    Request::post(path)
        .header(header::HOST, HOST)
        .body(Body::empty())
        .expect("request")
}

fn post_json(path: &str, body: &Value) -> Request<Body> {
    Request::post(path)
        .header(header::HOST, HOST)
        .header(header::CONTENT_TYPE, "application/json")
        .header(header::ACCEPT, "application/json, text/event-stream")
        .body(Body::from(body.to_string()))
        .expect("request")
}

/// The JSON-RPC message of an MCP response: plain JSON or one SSE event.
fn message(body: &str) -> Value {
    serde_json::from_str(body).unwrap_or_else(|_| {
        body.lines()
            .filter_map(|l| l.strip_prefix("data:"))
            .filter_map(|d| serde_json::from_str::<Value>(d.trim()).ok())
            .find(|v| v.get("id").is_some())
            .unwrap_or_else(|| panic!("no JSON-RPC message in {body}"))
    })
}

#[tokio::test]
async fn the_routes_answer_the_apps_host_name_beside_its_own() {
    let shop = Shop::load().expect("loads");
    let app = app(&shop);
    let (status, headers, body) = send(&app, call("/kb/price?Item=bread")).await;
    assert_eq!((status, body.as_str()), (StatusCode::OK, "2.25"));
    assert_eq!(headers["x-app"], "corner-shop");
    let (status, _, body) = send(&app, get("/")).await;
    assert_eq!((status, body.as_str()), (StatusCode::OK, "corner shop"));
    let (status, _, body) = send(&app, get("/no/such/page")).await;
    assert_eq!((status, body.as_str()), (StatusCode::NOT_FOUND, "the app's own 404"));
    let (status, _, body) = send(&app, get("/kb/openapi.json")).await;
    assert_eq!(status, StatusCode::OK, "{body}");
}

#[tokio::test]
async fn integers_past_64_bits_stay_exact_over_http_and_refused_in_a_value() {
    let shop = Shop::load().expect("loads");
    let (status, _, body) = send(&app(&shop), call("/kb/factorial?N=30")).await;
    assert_eq!(
        (status, body.as_str()),
        (StatusCode::OK, "265252859812191058636308480000000")
    );
    // The typed method's i64 cannot hold it, and says so.
    let err = shop.factorial(30).await.expect_err("past i64");
    assert!(err.to_string().contains("265252859812191058636308480000000"), "{err}");
    assert_eq!(shop.factorial(20).await.expect("fits"), 2_432_902_008_176_640_000);
}

#[tokio::test]
async fn mcp_mounted_at_mcp_calls_a_tool_while_the_fallback_still_answers() {
    let shop = Shop::load().expect("loads");
    let app = app(&shop);
    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "outside-app", "version": "0"}}});
    let (status, headers, body) = send(&app, post_json("/mcp", &init)).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert!(message(&body)["result"]["serverInfo"].is_object(), "{body}");
    let session = headers["mcp-session-id"].to_str().expect("ascii").to_string();
    let with_session = |body: &Value| {
        let mut req = post_json("/mcp", body);
        req.headers_mut()
            .insert("mcp-session-id", session.parse().expect("header"));
        req
    };
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    let (status, _, _) = send(&app, with_session(&initialized)).await;
    assert!(status.is_success(), "{status}");
    let call = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "basket_total", "arguments": {"Items": ["apple", "cheese"]}}});
    let (status, _, body) = send(&app, with_session(&call)).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let result = &message(&body)["result"];
    assert_eq!(result["structuredContent"]["result"], json!(7.5), "{body}");
    let (status, _, body) = send(&app, get("/mcp-is-not-this")).await;
    assert_eq!((status, body.as_str()), (StatusCode::NOT_FOUND, "the app's own 404"));
}

#[tokio::test]
async fn the_apps_own_serde_json_is_unchanged() {
    // What feature unification would break: flattened numbers, and as_f64.
    let list: PriceList =
        serde_json::from_str(r#"{"currency": "EUR", "apple": 0.5, "bread": 2.25}"#)
            .expect("flattened f64 fields deserialize");
    assert_eq!(list.prices["bread"], 2.25);
    let v: Value = serde_json::from_str("1e3").expect("json");
    assert_eq!(v.as_f64(), Some(1000.0));
    // Past u64 the app's serde_json reads a float, as serde_json does by default.
    let big: Value = serde_json::from_str("18446744073709551616").expect("json");
    assert!(big.is_f64(), "{big}");
    // Object keys keep serde_json's default order (sorted), not insertion order.
    let keys: Vec<String> = serde_json::from_str::<serde_json::Map<String, Value>>(r#"{"b":1,"a":2}"#)
        .expect("json")
        .keys()
        .cloned()
        .collect();
    assert_eq!(keys, ["a", "b"]);
    // And through the app's own route, beside the mounted ones.
    let shop = Shop::load().expect("loads");
    let body = json!({"currency": "EUR", "apple": 0.5, "bread": 2.25});
    let (status, _, text) = send(&app(&shop), post_json("/prices", &body)).await;
    assert_eq!(status, StatusCode::OK, "{text}");
    assert_eq!(serde_json::from_str::<Value>(&text).expect("json")["sum"], json!(2.75));
}

/// The README's example, as written there.
#[tokio::test]
async fn the_readme_example() -> Result<(), Box<dyn std::error::Error>> {
    let shop = Shop::load()?;                               // async methods on `shop`,
    let total: f64 = shop.basket_total(&["apple", "bread"]).await?;
    let price: Option<f64> = shop.blocking().price("cheese")?; // blocking ones on `blocking()`
    assert_eq!((total, price), (2.75, Some(7.0)));
    Ok(())
}

#[tokio::test]
async fn list_arguments_take_string_literals_and_owned_strings() {
    let shop = Shop::load().expect("loads");
    assert_eq!(shop.basket_total(&["apple", "bread"]).await.expect("total"), 2.75);
    let owned: Vec<String> = vec!["cheese".into()];
    assert_eq!(shop.blocking().basket_total(&owned).expect("total"), 7.0);
}
