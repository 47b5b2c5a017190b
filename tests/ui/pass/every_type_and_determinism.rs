//! Every declared type and determinism maps to the documented Rust types.

use charon::CallError;
use serde_json::Value;

charon::knowledge_base!("kbs/all.pl");

#[allow(dead_code)]
async fn signatures(kb: &All) {
    let one: Result<all::Types, CallError> = kb
        .types(
            "atom", "string", "text", 1, 2, 1.5, 2.5, true, false, &[1, 2],
            &[vec!["a".to_string()]], &[Value::Null], &Value::Bool(true),
        )
        .await;
    if let Ok(t) = one {
        let _: (String, String, i64, f64, f64, bool, Vec<String>, Value) =
            (t.oa, t.os, t.oi, t.of, t.on, t.ob, t.ol, t.oy);
    }
    let _: Result<(), CallError> = kb.det0(1).await;
    let _: Result<i64, CallError> = kb.det1(1).await;
    let _: Result<bool, CallError> = kb.semi0(1).await;
    let _: Result<Option<String>, CallError> = kb.semi1(1).await;
    let _: Result<Option<all::Semi2>, CallError> = kb.semi2(1).await;
    let _: Result<usize, CallError> = kb.nd0(1).await;
    let _: Result<Vec<i64>, CallError> = kb.nd1(1).await;
    let _: Result<Vec<all::Nd2>, CallError> = kb.nd2(1).await;
    let _: Result<Vec<i64>, CallError> = kb.multi1(1).await;
    let _: Result<usize, CallError> = kb.failure0().await;
    let _: Result<Vec<i64>, CallError> = kb.undeclared1(1).await;
    let _: Result<String, CallError> = kb.r#type("x").await;
    let owned: Vec<String> = vec!["c".to_string()];
    let _: Result<i64, CallError> = kb.count_names(&["a", "b"], &owned).await;
    let _: Result<i64, CallError> = kb.count_names(&owned, &[String::from("d")]).await;
    let _: Result<i64, CallError> = kb.blocking().count_names(&["a"], &["b"]);
    let _: axum::Router = kb.mcp_router();
    let _: axum::Router<u8> = kb.router_with(charon::http::HttpOptions::default());
    let blocking: all::Blocking<'_> = kb.blocking();
    let _: Result<Vec<all::Nd2>, CallError> = blocking.nd2(1);
    let _: axum::Router = kb.router();
    let _: axum::Router<u8> = kb.router();
    let _: charon::mcp::McpServer = kb.mcp_server();
    let _: &'static [charon::Operation] = All::operations();
    let _: &'static str = All::SOURCE;
}

fn main() {
    assert_eq!(All::operations().len(), 14);
    assert_eq!(All::FILE, "kbs/all.pl");
}
