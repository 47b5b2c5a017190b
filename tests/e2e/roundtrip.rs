//! Values come back as they went in, through every surface: HTTP (query string and
//! JSON body, `Router::oneshot`), MCP over HTTP (in process), the typed Rust API
//! (`knowledge_base!`) and `charon call` (the binary); and a server with several
//! workers and its answer cache answers exactly what one worker without cache
//! answers (the differential habit of `state.rs`). Fixture: `tests/kbs/echo.pl`.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};

use axum::Router;
use axum::body::Body;
use axum::http::{Method, Request, StatusCode, header};
use charon::EngineConfig;
use proptest::prelude::*;
use serde_json::{Value, json};
use tower::ServiceExt as _;

use crate::util::{config, exact, fixture, run_charon};

charon::knowledge_base!(Echo = "kbs/echo.pl");

/// One configuration of the knowledge base and its surfaces.
struct Server {
    echo: Echo,
    http: Router,
    mcp: Router,
    session: Option<String>,
}

/// Several workers with the answer cache, and one worker without it.
struct Servers {
    wide: Server,
    narrow: Server,
    runtime: tokio::runtime::Runtime,
}

fn servers() -> &'static Servers {
    static SERVERS: OnceLock<Servers> = OnceLock::new();
    SERVERS.get_or_init(|| {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("runtime");
        let wide = EngineConfig {
            workers: 3,
            answer_cache: 64 << 20,
            ..config()
        };
        let narrow = EngineConfig {
            workers: 1,
            answer_cache: 0,
            ..config()
        };
        let wide = runtime.block_on(Server::start(wide));
        let narrow = runtime.block_on(Server::start(narrow));
        Servers {
            wide,
            narrow,
            runtime,
        }
    })
}

impl Server {
    async fn start(config: EngineConfig) -> Server {
        let echo = Echo::load_with(config).expect("echo.pl loads");
        let http = echo.router();
        let mcp = Router::new().nest(
            "/mcp",
            charon::mcp::router(
                echo.mcp_server(),
                charon::mcp::McpHttpOptions::default()
                    .with_guard(charon::http::Guard::for_bind("127.0.0.1")),
            ),
        );
        let mut server = Server {
            echo,
            http,
            mcp,
            session: None,
        };
        let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize",
            "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                       "clientInfo": {"name": "roundtrip", "version": "1"}}});
        let response = server
            .mcp
            .clone()
            .oneshot(server.mcp_request(&init))
            .await
            .expect("initialize");
        assert_eq!(response.status(), StatusCode::OK);
        server.session = response
            .headers()
            .get("mcp-session-id")
            .and_then(|v| v.to_str().ok())
            .map(str::to_string);
        let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
        server
            .mcp
            .clone()
            .oneshot(server.mcp_request(&initialized))
            .await
            .expect("initialized");
        server
    }

    fn mcp_request(&self, body: &Value) -> Request<Body> {
        let mut req = Request::post("/mcp")
            .header(header::HOST, "127.0.0.1:3000")
            .header(header::CONTENT_TYPE, "application/json")
            .header(header::ACCEPT, "application/json, text/event-stream");
        if let Some(session) = &self.session {
            req = req.header("mcp-session-id", session);
        }
        req.body(Body::from(exact(body))).expect("request")
    }

    /// `GET /op` with `args` as a JSON body.
    async fn http_body(&self, op: &str, args: &Value) -> Value {
        let req = Request::builder()
            .method(Method::GET)
            .uri(format!("/{op}"))
            .header(header::CONTENT_TYPE, "application/json")
            .body(Body::from(exact(args)))
            .expect("request");
        answer(self.http.clone(), req).await
    }

    /// `GET /op?…` with `args` in the query string, each value as [`query_text`] writes it.
    async fn http_query(&self, op: &str, args: &Value, types: &[(&str, Kind)]) -> Value {
        let mut uri = format!("/{op}");
        for (i, (name, kind)) in types.iter().enumerate() {
            uri.push(if i == 0 { '?' } else { '&' });
            uri.push_str(name);
            uri.push('=');
            uri.push_str(&percent(&query_text(*kind, &args[*name])));
        }
        let req = Request::get(uri).body(Body::empty()).expect("request");
        answer(self.http.clone(), req).await
    }

    /// `tools/call` over MCP: the result's `structuredContent.result`.
    async fn mcp_call(&self, op: &str, args: &Value) -> Value {
        // Tests share the session: every request has an id of its own.
        static IDS: AtomicU64 = AtomicU64::new(1);
        let id = IDS.fetch_add(1, Ordering::Relaxed);
        let call = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": op, "arguments": args}});
        let response = self
            .mcp
            .clone()
            .oneshot(self.mcp_request(&call))
            .await
            .expect("tools/call");
        let bytes = axum::body::to_bytes(response.into_body(), usize::MAX)
            .await
            .expect("body");
        let text = String::from_utf8(bytes.to_vec()).expect("utf-8");
        // The streamable HTTP transport answers as an event stream (`data:` lines)
        // or as plain JSON.
        let message = text
            .lines()
            .filter_map(|l| l.strip_prefix("data:"))
            .map(str::trim)
            .chain(std::iter::once(text.trim()))
            .filter_map(|l| charon::json::from_str(l).ok())
            .find(|m| m["id"] == id)
            .unwrap_or_else(|| panic!("no answer to the tool call in {text:?}"));
        let result = &message["result"];
        assert_eq!(result["isError"], json!(false), "{op} {args}: {message}");
        result["structuredContent"]["result"].clone()
    }
}

async fn answer(router: Router, req: Request<Body>) -> Value {
    let uri = req.uri().clone();
    let response = router.oneshot(req).await.expect("infallible");
    let status = response.status();
    let bytes = axum::body::to_bytes(response.into_body(), usize::MAX)
        .await
        .expect("body");
    let text = String::from_utf8_lossy(&bytes);
    assert_eq!(status, StatusCode::OK, "{uri}: {text}");
    charon::json::from_str(&text).unwrap_or_else(|e| panic!("{uri}: not JSON ({e}): {text}"))
}

/// How an argument's value is written as query-string text.
#[derive(Debug, Clone, Copy)]
enum Kind {
    /// `atom`, `string`: the text itself.
    Text,
    /// `int`, `float`: the number's JSON text.
    Number,
    /// `list(…)`, `any`: JSON text (an `any` string is a JSON string, so that `1`
    /// or `true` as text stays text).
    Json,
}

fn query_text(kind: Kind, value: &Value) -> String {
    match (kind, value) {
        (Kind::Text, Value::String(s)) => s.clone(),
        (Kind::Number | Kind::Json, v) => exact(v),
        (Kind::Text, other) => panic!("not text: {other}"),
    }
}

/// Percent-encodes every byte but the unreserved ones (RFC 3986).
fn percent(text: &str) -> String {
    let mut out = String::with_capacity(text.len() * 3);
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// One operation of `echo.pl`, its input arguments and their query-string kinds.
struct Op {
    name: &'static str,
    inputs: &'static [(&'static str, Kind)],
}

const ATOM: Op = Op {
    name: "get_atom",
    inputs: &[("In", Kind::Text)],
};
const STRING: Op = Op {
    name: "get_string",
    inputs: &[("In", Kind::Text)],
};
const INT: Op = Op {
    name: "get_int",
    inputs: &[("In", Kind::Number)],
};
const FLOAT: Op = Op {
    name: "get_float",
    inputs: &[("In", Kind::Number)],
};
const ATOMS: Op = Op {
    name: "get_atoms",
    inputs: &[("In", Kind::Json)],
};
const ANY: Op = Op {
    name: "get_any",
    inputs: &[("In", Kind::Json)],
};
const EACH: Op = Op {
    name: "get_each",
    inputs: &[("In", Kind::Json)],
};
const PAIR: Op = Op {
    name: "get_pair",
    inputs: &[("A", Kind::Text), ("S", Kind::Text)],
};

/// The answers of every surface of one server to `op(args)`: the JSON body, the
/// query string, the same body again (from the cache where there is one), MCP, and
/// `typed` (the typed method's answer as JSON) when given.
fn surfaces(
    server: &Server,
    runtime: &tokio::runtime::Runtime,
    op: &Op,
    args: &Value,
    typed: Option<&dyn Fn(&Echo) -> Value>,
) -> Vec<(&'static str, Value)> {
    let mut answers = runtime.block_on(async {
        vec![
            ("http body", server.http_body(op.name, args).await),
            (
                "http query",
                server.http_query(op.name, args, op.inputs).await,
            ),
            ("http body again", server.http_body(op.name, args).await),
            ("mcp", server.mcp_call(op.name, args).await),
        ]
    });
    if let Some(typed) = typed {
        answers.push(("typed", typed(&server.echo)));
    }
    answers
}

/// Checks that every surface of both servers answers `expected` to `op(args)`.
fn round_trip(
    op: &Op,
    args: &Value,
    expected: &Value,
    typed: Option<&dyn Fn(&Echo) -> Value>,
) -> Result<(), TestCaseError> {
    let s = servers();
    let narrow = surfaces(&s.narrow, &s.runtime, op, args, typed);
    let wide = surfaces(&s.wide, &s.runtime, op, args, typed);
    // Compared as JSON text: a Value's equality takes -0.0 for 0.0.
    let expected = &exact(expected);
    for ((surface, one), (_, many)) in narrow.iter().zip(&wide) {
        let (one, many) = (&exact(one), &exact(many));
        prop_assert_eq!(
            one,
            expected,
            "{}({}) through {} (one worker, no cache)",
            op.name,
            args,
            surface
        );
        prop_assert_eq!(
            many,
            one,
            "{}({}) through {}: several workers and the cache differ from one worker",
            op.name,
            args,
            surface
        );
    }
    Ok(())
}

fn echo_atom(s: &str) {
    let owned = s.to_string();
    let typed = move |e: &Echo| json!(e.blocking().get_atom(&owned).expect("typed"));
    round_trip(&ATOM, &json!({ "In": s }), &json!(s), Some(&typed)).expect("atom");
}

fn echo_any(v: Value) {
    let typed = {
        let v = v.clone();
        move |e: &Echo| e.blocking().get_any(&v).expect("typed")
    };
    round_trip(&ANY, &json!({ "In": v }), &v, Some(&typed)).expect("any");
}

#[test]
fn two_apostrophes_come_back_through_http_mcp_and_typed() {
    // The atom of two apostrophes once came back empty (scryer 0.10 wrote it as
    // it writes the empty atom); its neighbours are checked with it.
    for s in ["''", "", "'", "'''", "''''", "''x", "x''", "\\''", "'\\'"] {
        echo_atom(s);
        echo_any(json!(s));
        let list = json!([s, "''", "", "a", s]);
        let typed = {
            let items: Vec<String> = list
                .as_array()
                .expect("array")
                .iter()
                .map(|v| v.as_str().expect("text").to_string())
                .collect();
            move |e: &Echo| json!(e.blocking().get_atoms(&items).expect("typed"))
        };
        round_trip(&ATOMS, &json!({ "In": list }), &list, Some(&typed)).expect("list(atom)");
        echo_any(json!([s, ["''", [s, 1]], 1]));
        round_trip(
            &EACH,
            &json!({ "In": [s, "''", 2] }),
            &json!([s, "''", 2]),
            None,
        )
        .expect("nondet");
        round_trip(
            &PAIR,
            &json!({"A": s, "S": s}),
            &json!({"X": s, "Y": s}),
            None,
        )
        .expect("pair");
    }
}

#[test]
fn two_apostrophes_come_back_through_charon_call() {
    let kb = fixture("echo.pl");
    let kb = kb.to_str().expect("utf-8 path");
    let cases: [(&str, &str, Value); 5] = [
        ("get_atom", "''", json!("''")),
        ("get_atom", "", json!("")),
        ("get_any", "''", json!("''")),
        (
            "get_atoms",
            r#"["''", "", "''''"]"#,
            json!(["''", "", "''''"]),
        ),
        ("get_any", r#"["''", [""]]"#, json!(["''", [""]])),
    ];
    for (op, value, expected) in cases {
        let (code, stdout, stderr) = run_charon(&["call", kb, op, "--In", value]);
        assert_eq!(code, 0, "{op} {value}: {stderr}");
        assert_eq!(stdout.lines().count(), 1, "{stdout:?}");
        let got: Value = charon::json::from_str(&stdout).expect("one JSON line");
        assert_eq!(got, expected, "{op} --In {value}");
    }
    // Repeated flags make a list too.
    let (code, stdout, stderr) = run_charon(&[
        "call",
        kb,
        "get_atoms",
        "--In",
        "''",
        "--In",
        "",
        "--In",
        "'",
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        charon::json::from_str(&stdout).expect("JSON"),
        json!(["''", "", "'"])
    );
}

/// Text made to break quoting and escaping: quotes, backslashes, control
/// characters, U+0085 and U+2028, NUL, non-BMP characters, operators and
/// punctuation as text, and pieces of the wrapper's own syntax.
fn text() -> impl Strategy<Value = String> {
    const PIECES: &[&str] = &[
        "'",
        "''",
        "''''",
        "\\",
        "\"",
        "`",
        "\n",
        "\r\n",
        "\t",
        "\0",
        "\u{1}",
        "\u{7}",
        "\u{1b}",
        "\u{7f}",
        "\u{85}",
        "\u{a0}",
        "\u{ad}",
        "\u{200b}",
        "\u{2028}",
        "\u{2029}",
        "\u{feff}",
        "😀",
        "𝄞",
        "\u{10ffff}",
        "é",
        "Ω",
        "中",
        "[]",
        "{}",
        "[a|b]",
        ",",
        "|",
        ".",
        ". ",
        ";",
        "!",
        ":-",
        "-",
        "+",
        "- 1",
        "is",
        "mod",
        "\\+",
        "/*",
        "*/",
        "%",
        " ",
        "a",
        "Z",
        "_",
        "X",
        "0'",
        "0'a",
        "1",
        "-1",
        "1.0e10",
        "(",
        ")",
        "'$charon_answer'(",
        "ok(sol(",
        "\\x41\\",
        "\\0\\",
        "\\'",
    ];
    prop_oneof![
        4 => prop::collection::vec(prop::sample::select(PIECES), 0..6).prop_map(|v| v.concat()),
        1 => any::<String>(),
        1 => "\\PC{0,12}",
    ]
}

/// A typed answer as JSON. When the expected value holds an integer past `u64`, which
/// a `serde_json::Value` of this build (no `arbitrary_precision`, like an
/// application's) cannot hold, the typed method must refuse it saying so; the expected
/// value then stands in for the answer.
fn typed_big<T: serde::Serialize>(answer: Result<T, charon::CallError>, expected: &Value) -> Value {
    if exact(expected) == serde_json::to_string(expected).expect("json") {
        return serde_json::to_value(answer.expect("typed")).expect("json");
    }
    match answer {
        Err(charon::CallError::Decode { message, .. })
            if message.contains("arbitrary_precision") =>
        {
            expected.clone()
        }
        Err(e) => panic!("typed: {e}"),
        Ok(_) => panic!("typed: an integer past u64 came back in a serde_json::Value"),
    }
}

/// An integer as JSON: any `i64`, and integers far beyond it.
fn integer() -> impl Strategy<Value = Value> {
    prop_oneof![
        any::<i64>().prop_map(|i| i.to_string()),
        "-?[1-9][0-9]{18,60}",
        Just("0".to_string()),
    ]
    .prop_map(|digits| charon::json::from_str(&digits).expect("integer text"))
}

/// A finite float, negative zero among them (kept as itself, as in SWI-Prolog).
fn float() -> impl Strategy<Value = f64> {
    prop_oneof![
        any::<f64>(),
        prop::sample::select(vec![
            5e-324,
            f64::MIN_POSITIVE,
            f64::MAX,
            f64::MIN,
            0.1,
            1.0,
            1e300,
            -2.5e-7,
            0.0,
            -0.0,
            -0.0,
        ]),
    ]
    .prop_filter("finite", |f| f.is_finite())
}

/// A value of `any` (JSON without null and objects). Text that means something
/// else under `any` is left out: `true`/`false` come back as booleans, `[]` as the
/// empty list; and an array of one-character strings comes back as one string
/// (see [`char_list`]).
fn any_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        3 => text()
            .prop_filter("true, false and [] mean other values", |s| {
                !matches!(s.as_str(), "true" | "false" | "[]")
            })
            .prop_map(Value::from),
        1 => integer(),
        1 => float().prop_map(Value::from),
        1 => any::<bool>().prop_map(Value::from),
    ];
    leaf.prop_recursive(3, 24, 5, |inner| {
        prop::collection::vec(inner, 0..5).prop_map(Value::Array)
    })
    .prop_filter("a list of characters is a string", |v| !char_list(v))
}

/// A non-empty array of one-character strings, at any depth: a Prolog character
/// list, which reads back as a string under `any`.
fn char_list(v: &Value) -> bool {
    match v {
        Value::Array(items) => {
            (!items.is_empty()
                && items
                    .iter()
                    .all(|i| i.as_str().is_some_and(|s| s.chars().count() == 1)))
                || items.iter().any(char_list)
        }
        _ => false,
    }
}

/// 0.0 and -0.0 are equal numbers but different answers: the answer cache (the
/// wide server's) must not give one for the other, in either order, alone or
/// inside a list.
#[test]
fn negative_zero_and_zero_are_not_one_cached_answer() {
    for f in [0.0, -0.0, 0.0, -0.0] {
        let typed = move |e: &Echo| json!(e.blocking().get_float(f).expect("typed"));
        round_trip(&FLOAT, &json!({ "In": f }), &json!(f), Some(&typed)).expect("float");
        echo_any(json!([f, 1, [f]]));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, .. ProptestConfig::default() })]

    #[test]
    fn atoms_round_trip_through_every_surface(s in text()) {
        let owned = s.clone();
        let typed = move |e: &Echo| json!(e.blocking().get_atom(&owned).expect("typed"));
        round_trip(&ATOM, &json!({ "In": s }), &json!(s), Some(&typed))?;
    }

    #[test]
    fn strings_round_trip_through_every_surface(s in text()) {
        let owned = s.clone();
        let typed = move |e: &Echo| json!(e.blocking().get_string(&owned).expect("typed"));
        round_trip(&STRING, &json!({ "In": s }), &json!(s), Some(&typed))?;
    }

    #[test]
    fn integers_round_trip_through_every_surface(v in integer()) {
        let typed = v.as_i64().map(|i| {
            move |e: &Echo| json!(e.blocking().get_int(i).expect("typed"))
        });
        round_trip(
            &INT,
            &json!({ "In": v }),
            &v,
            typed.as_ref().map(|t| t as &dyn Fn(&Echo) -> Value),
        )?;
    }

    #[test]
    fn floats_round_trip_through_every_surface(f in float()) {
        let typed = move |e: &Echo| json!(e.blocking().get_float(f).expect("typed"));
        round_trip(&FLOAT, &json!({ "In": f }), &json!(f), Some(&typed))?;
    }

    #[test]
    fn atom_lists_round_trip_through_every_surface(v in prop::collection::vec(text(), 0..6)) {
        let owned = v.clone();
        let typed = move |e: &Echo| json!(e.blocking().get_atoms(&owned).expect("typed"));
        round_trip(&ATOMS, &json!({ "In": v }), &json!(v), Some(&typed))?;
    }

    #[test]
    fn any_values_round_trip_through_every_surface(v in any_value()) {
        let owned = v.clone();
        let typed = move |e: &Echo| typed_big(e.blocking().get_any(&owned), &owned);
        round_trip(&ANY, &json!({ "In": v }), &v, Some(&typed))?;
    }

    #[test]
    fn every_solution_round_trips(v in prop::collection::vec(any_value(), 0..5)) {
        let owned = v.clone();
        let typed = move |e: &Echo| typed_big(e.blocking().get_each(&owned), &json!(owned));
        round_trip(&EACH, &json!({ "In": v }), &json!(v), Some(&typed))?;
    }

    #[test]
    fn several_outputs_round_trip(a in text(), s in text()) {
        let (a2, s2) = (a.clone(), s.clone());
        let typed = move |e: &Echo| {
            serde_json::to_value(e.blocking().get_pair(&a2, &s2).expect("typed")).expect("json")
        };
        round_trip(
            &PAIR,
            &json!({ "A": a, "S": s }),
            &json!({ "X": a, "Y": s }),
            Some(&typed),
        )?;
    }
}
