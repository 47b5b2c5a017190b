//! The compile-time path (`knowledge_base!`) and the run-time path (the `charon`
//! binary reading the same file) give byte-identical operations, OpenAPI documents and
//! MCP tool lists, for every example knowledge base.

use std::process::Command;

use axum::body::Body;
use axum::http::Request;
use serde_json::{Value, json};
use tower::ServiceExt as _;

use crate::util::{StdioSession, charon_bin, config, root};

// The binary below is run from tests/ (this crate's directory) with the same relative
// paths, so locations name the file the same way on both paths.
charon::knowledge_base!(Meds = "../examples/meds.pl");
charon::knowledge_base!(Library = "../examples/library.pl");
charon::knowledge_base!(Rbac = "../examples/rbac.pl");

/// Runs the binary from tests/; returns its stdout, asserting success.
fn charon(args: &[&str]) -> String {
    let out = Command::new(charon_bin())
        .args(args)
        .current_dir(root().join("tests"))
        .env_remove("RUST_LOG")
        .output()
        .expect("charon runs");
    assert!(
        out.status.success(),
        "charon {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8")
}

/// `tools/list` of `charon mcp FILE --stdio`, through a JSON-RPC session.
fn cli_tools(file: &str) -> Value {
    let mut session = StdioSession::start_in(
        &root().join("tests"),
        &["mcp", file, "--stdio", "--workers", "1"],
    );
    session.send(&json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}));
    session.answer(2)["tools"].clone()
}

async fn served_openapi(router: axum::Router) -> String {
    let response = router
        .oneshot(
            Request::get("/openapi.json")
                .body(Body::empty())
                .expect("request"),
        )
        .await
        .expect("response");
    let body = axum::body::to_bytes(response.into_body(), usize::MAX)
        .await
        .expect("body");
    String::from_utf8(body.to_vec()).expect("utf-8")
}

/// Compact JSON text of a value (serde_json keeps object order).
fn text(value: &Value) -> String {
    serde_json::to_string(value).expect("serialises")
}

#[tokio::test(flavor = "multi_thread")]
async fn macro_and_cli_agree_on_every_example() {
    let cases = [
        (
            Meds::FILE,
            Meds::operations(),
            Meds::load_with(config()).expect("loads").router(),
            Meds::load_with(config()).expect("loads").mcp_server(),
        ),
        (
            Library::FILE,
            Library::operations(),
            Library::load_with(config()).expect("loads").router(),
            Library::load_with(config()).expect("loads").mcp_server(),
        ),
        (
            Rbac::FILE,
            Rbac::operations(),
            Rbac::load_with(config()).expect("loads").router(),
            Rbac::load_with(config()).expect("loads").mcp_server(),
        ),
    ];
    for (file, operations, router, mcp) in cases {
        // Operations: `charon check --json` against the compiled model.
        let report: Value =
            charon::json::from_str(&charon(&["check", file, "--json"])).expect("report json");
        let compiled = serde_json::to_value(operations).expect("operations json");
        assert!(!operations.is_empty(), "{file}");
        assert_eq!(text(&report["operations"]), text(&compiled), "{file}");

        // OpenAPI: `charon openapi`'s bytes against the document rendered from the
        // compiled model the same way, and against what the generated router serves.
        let printed = charon(&["openapi", file]);
        let title = std::path::Path::new(file)
            .file_name()
            .and_then(|n| n.to_str())
            .expect("file name");
        // Which operations answer in pages is the analysis's (a running knowledge
        // base's): the same file, loaded.
        let kb = charon::KnowledgeBase::load_with(file, config()).expect("loads");
        let compiled = charon::http::openapi::document_for(&kb, title, operations);
        let rendered = serde_json::to_string_pretty(&compiled).expect("renders") + "\n";
        assert_eq!(printed, rendered, "{file}");
        assert_eq!(text(&compiled), served_openapi(router).await, "{file}");

        // MCP: `tools/list` of `charon mcp --stdio` against the generated server.
        let generated = serde_json::to_value(mcp.tools()).expect("tools json");
        assert_eq!(text(&cli_tools(file)), text(&generated), "{file}");
    }
}
