//! An answer with several outputs is an object keyed by argument name in the order
//! the mode line declares them, on every surface that writes JSON: HTTP (whole
//! answers, pages, NDJSON lines), MCP over stdio and HTTP (`structuredContent` and
//! its text), `charon call`, and the OpenAPI document's `required` lists. Checked on
//! the bytes each surface sends: a JSON reader would lose the order.

use serde_json::Value;

use crate::util::{
    HttpServer, StdioSession, fixture, mcp_http_server, mcp_initialize, mcp_post, request,
    run_charon,
};

/// `zeta_first`'s answer as written: Zeta, Alpha, Mid (alphabetical: Alpha, Mid, Zeta).
const ZETA: &str = r#"{"Zeta":26,"Alpha":"a","Mid":"m \"quoted\""}"#;
/// `items`' solutions as written: Name, Count, Colour (alphabetical: Colour, Count, Name).
const ITEMS: [&str; 3] = [
    r#"{"Name":"apple","Count":3,"Colour":"red"}"#,
    r#"{"Name":"kiwi","Count":5,"Colour":"green"}"#,
    r#"{"Name":"plum","Count":7,"Colour":"blue"}"#,
];
/// `maybe(k)`: Value before Big, the big integer bare.
const MAYBE: &str = r#"{"Value":1,"Big":123456789012345678901234567890}"#;

fn kb() -> String {
    fixture("key_order.pl").display().to_string()
}

/// `text` holds `object` as written, or as written inside a JSON string.
fn holds(text: &str, object: &str) -> bool {
    let escaped = serde_json::to_string(object).expect("a string");
    text.contains(object) || text.contains(&escaped[1..escaped.len() - 1])
}

/// A POST of `body` to `path` (operations not named `get_…` take POST).
fn post(port: u16, path: &str, accept: &str, body: &str) -> crate::util::Reply {
    let host = format!("127.0.0.1:{port}");
    let headers = [
        ("Host", host.as_str()),
        ("Accept", accept),
        ("Content-Type", "application/json"),
    ];
    request(port, "POST", path, &headers, body)
}

fn get(port: u16, path: &str, accept: &str) -> crate::util::Reply {
    let host = format!("127.0.0.1:{port}");
    request(
        port,
        "GET",
        path,
        &[("Host", &host), ("Accept", accept)],
        "",
    )
}

#[test]
fn http_answers_pages_and_ndjson_keep_the_declared_order() {
    let server = HttpServer::start(&fixture("key_order.pl"), &[]);
    let port = server.port;
    let whole = post(port, "/zeta_first", "application/json", "{}");
    assert_eq!(whole.status, 200, "{}", whole.body);
    assert_eq!(whole.body, ZETA);
    let all = post(port, "/items", "application/json", "{}");
    assert_eq!(all.body, format!("[{}]", ITEMS.join(",")));
    let semidet = post(port, "/maybe", "application/json", r#"{"Key":"k"}"#);
    assert_eq!(semidet.body, MAYBE);
    // A page at a time.
    let first = post(port, "/items?page_size=2", "application/json", "{}");
    assert_eq!(
        first.body,
        format!("[{},{}]", ITEMS[0], ITEMS[1]),
        "{}",
        first.body
    );
    let cursor = first
        .header("charon-next-cursor")
        .expect("a next cursor")
        .to_string();
    let rest = post(
        port,
        &format!("/items?page_size=2&cursor={cursor}"),
        "application/json",
        "{}",
    );
    assert_eq!(rest.body, format!("[{}]", ITEMS[2]));
    // NDJSON: one solution per line.
    let lines = post(port, "/items", "application/x-ndjson", "{}");
    assert_eq!(lines.status, 200, "{}", lines.body);
    let solutions: Vec<&str> = lines
        .body
        .lines()
        .filter_map(|l| l.strip_prefix(r#"{"solution":"#)?.strip_suffix('}'))
        .collect();
    assert_eq!(solutions, ITEMS, "{}", lines.body);
    // The document's `required` lists the outputs in the same order.
    let doc: Value =
        charon::json::from_str(&get(port, "/openapi.json", "application/json").body).expect("JSON");
    let mut found = Vec::new();
    collect_required(&doc, &mut found);
    for want in [
        vec!["Zeta", "Alpha", "Mid"],
        vec!["Name", "Count", "Colour"],
        vec!["Value", "Big"],
    ] {
        assert!(
            found.iter().any(|f| f == &want),
            "no required list {want:?} in {found:?}"
        );
    }
}

fn collect_required(value: &Value, found: &mut Vec<Vec<String>>) {
    match value {
        Value::Object(fields) => {
            for (key, v) in fields {
                if key == "required"
                    && let Some(list) = v.as_array()
                {
                    found.push(
                        list.iter()
                            .filter_map(|s| s.as_str().map(String::from))
                            .collect(),
                    );
                }
                collect_required(v, found);
            }
        }
        Value::Array(items) => items.iter().for_each(|v| collect_required(v, found)),
        _ => {}
    }
}

#[test]
fn the_cli_writes_the_declared_order() {
    let (code, out, err) = run_charon(&["call", &kb(), "zeta_first"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.trim(), ZETA);
    let (_, out, err) = run_charon(&["call", &kb(), "items"]);
    assert_eq!(out.trim(), format!("[{}]", ITEMS.join(",")), "{err}");
    let (_, out, err) = run_charon(&["call", "--page-size", "1", &kb(), "items"]);
    assert_eq!(out.trim(), format!("[{}]", ITEMS[0]), "{err}");
    let (_, out, err) = run_charon(&["call", &kb(), "maybe", "--Key", "k"]);
    assert_eq!(out.trim(), MAYBE, "{err}");
    // An explanation's result too (pretty-printed: the keys' positions).
    let (code, out, err) = run_charon(&["call", "--explain", &kb(), "zeta_first"]);
    assert_eq!(code, 0, "{err}");
    let at = |key: &str| {
        out.find(&format!("\"{key}\": "))
            .unwrap_or_else(|| panic!("{key}: {out}"))
    };
    assert!(at("Zeta") < at("Alpha") && at("Alpha") < at("Mid"), "{out}");
}

#[test]
fn mcp_over_stdio_keeps_the_declared_order_in_structured_content_and_text() {
    let mut session = StdioSession::start(&["mcp", &kb(), "--stdio"]);
    for (id, tool, args, want) in [
        (1, "zeta_first", serde_json::json!({}), ZETA.to_string()),
        (
            2,
            "items",
            serde_json::json!({}),
            format!("[{}]", ITEMS.join(",")),
        ),
        (
            3,
            "maybe",
            serde_json::json!({"Key": "k"}),
            MAYBE.to_string(),
        ),
    ] {
        session.call(id, tool, args);
        let line = session.raw_line();
        assert!(
            line.contains(&format!(r#""structuredContent":{{"result":{want}}}"#)),
            "{line}"
        );
        // The text content is the same JSON, inside a string.
        assert!(holds(&line, &format!(r#"{{"result":{want}}}"#)), "{line}");
    }
}

#[test]
fn mcp_over_http_keeps_the_declared_order() {
    let server = mcp_http_server(&fixture("key_order.pl"), &[], &[]);
    let port = server.port;
    let init = mcp_post(port, &mcp_initialize("key-order"), &[]);
    assert_eq!(init.status, 200, "{}", init.body);
    let session = init.header("mcp-session-id").map(String::from);
    let mut extra = vec![("MCP-Protocol-Version", "2025-06-18")];
    if let Some(id) = session.as_deref() {
        extra.push(("Mcp-Session-Id", id));
    }
    let note = mcp_post(
        port,
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        &extra,
    );
    assert!(note.status < 300, "{}", note.body);
    let call = mcp_post(
        port,
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"items","arguments":{"page_size":2}}}"#,
        &extra,
    );
    assert_eq!(call.status, 200, "{}", call.body);
    for item in &ITEMS[..2] {
        assert!(holds(&call.body, item), "{}", call.body);
    }
    assert!(!holds(&call.body, ITEMS[2]), "{}", call.body);
}
