//! `GET /metrics` of `charon http --metrics` and `charon mcp --metrics`: OpenMetrics
//! text read back sample by sample, with the counters moving as calls are made (the
//! official Python parser reads it too: tests/metrics/, run by scripts/api-checks.sh).

use std::collections::BTreeMap;

use serde_json::json;

use crate::util::{HttpServer, Reply, fixture, mcp_http_server, mcp_initialize, mcp_post, request};

/// One sample: metric name and labels.
type Key = (String, BTreeMap<String, String>);

/// Reads an OpenMetrics exposition: every family has `# HELP` and `# TYPE` before its
/// samples, the text ends with `# EOF`, and every sample is `name{labels} value`.
fn parse(text: &str) -> BTreeMap<Key, f64> {
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.last(), Some(&"# EOF"), "{text}");
    let mut typed: BTreeMap<String, String> = BTreeMap::new();
    let mut samples = BTreeMap::new();
    for line in &lines[..lines.len() - 1] {
        if let Some(rest) = line.strip_prefix("# TYPE ") {
            let (name, kind) = rest.split_once(' ').expect("# TYPE name kind");
            typed.insert(name.to_string(), kind.to_string());
            continue;
        }
        if line.starts_with("# HELP ") {
            continue;
        }
        assert!(!line.starts_with('#'), "an unknown comment: {line}");
        let (series, value) = line.rsplit_once(' ').expect("name value");
        let value: f64 = value.parse().unwrap_or_else(|_| panic!("a number: {line}"));
        let (name, labels) = match series.split_once('{') {
            Some((name, rest)) => {
                let inner = rest.strip_suffix('}').expect("closing brace");
                let labels = inner
                    .split("\",")
                    .filter(|p| !p.is_empty())
                    .map(|pair| {
                        let (k, v) = pair.split_once("=\"").expect("label=\"value\"");
                        (k.to_string(), v.trim_end_matches('"').to_string())
                    })
                    .collect();
                (name.to_string(), labels)
            }
            None => (series.to_string(), BTreeMap::new()),
        };
        let family = ["_total", "_bucket", "_count", "_sum"]
            .iter()
            .find_map(|s| name.strip_suffix(s).filter(|f| typed.contains_key(*f)))
            .unwrap_or(&name);
        assert!(
            typed.contains_key(family),
            "a sample without # TYPE: {line}"
        );
        samples.insert((name, labels), value);
    }
    samples
}

fn get(samples: &BTreeMap<Key, f64>, name: &str, labels: &[(&str, &str)]) -> f64 {
    let labels = labels
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    samples
        .get(&(name.to_string(), labels))
        .copied()
        .unwrap_or(0.0)
}

fn scrape(port: u16, token: Option<&str>) -> Reply {
    let host = format!("127.0.0.1:{port}");
    let bearer = token.map(|t| format!("Bearer {t}"));
    // OpenMetrics, as Prometheus asks for it (the default is its older text format).
    let mut headers = vec![
        ("Host", host.as_str()),
        ("Accept", "application/openmetrics-text"),
    ];
    if let Some(b) = &bearer {
        headers.push(("Authorization", b));
    }
    request(port, "GET", "/metrics", &headers, "")
}

fn post(port: u16, path: &str, body: &serde_json::Value, token: &str) -> Reply {
    let host = format!("127.0.0.1:{port}");
    let bearer = format!("Bearer {token}");
    request(
        port,
        "POST",
        path,
        &[
            ("Host", &host),
            ("Authorization", &bearer),
            ("Content-Type", "application/json"),
        ],
        &body.to_string(),
    )
}

#[test]
fn http_metrics_count_calls_by_outcome_with_the_apis_access_rules() {
    let server = HttpServer::start(
        &fixture("types.pl"),
        &[
            "--metrics",
            "--token",
            "sesame",
            "--max-inferences",
            "100000",
            "--timeout-ms",
            "1000",
        ],
    );
    let port = server.port;
    assert_eq!(scrape(port, None).status, 401, "the API's token guards it");
    let before = scrape(port, Some("sesame"));
    assert_eq!(before.status, 200, "{}", before.body);
    assert_eq!(
        before.header("content-type"),
        Some("application/openmetrics-text; version=1.0.0; charset=utf-8")
    );
    // No Accept header: Prometheus's text format, the default.
    let host = format!("127.0.0.1:{port}");
    let plain = request(
        port,
        "GET",
        "/metrics",
        &[("Host", &host), ("Authorization", "Bearer sesame")],
        "",
    );
    assert_eq!(
        plain.header("content-type"),
        Some("text/plain; version=0.0.4; charset=utf-8")
    );
    assert!(
        plain.body.contains("# TYPE charon_calls_total counter"),
        "{}",
        plain.body
    );
    let before = parse(&before.body);
    let ok = [("operation", "echo_atom"), ("outcome", "ok")];
    assert_eq!(get(&before, "charon_calls_total", &ok), 0.0);

    for _ in 0..3 {
        let r = post(port, "/echo_atom", &json!({"In": "a"}), "sesame");
        assert_eq!(r.status, 200, "{}", r.body);
    }
    assert_eq!(
        post(port, "/echo_atom", &json!({"In": 1}), "sesame").status,
        400
    );
    assert_eq!(post(port, "/spin", &json!({}), "sesame").status, 422);
    assert_eq!(
        post(port, "/det_fails", &json!({"X": 1}), "sesame").status,
        404
    );
    assert_eq!(
        post(port, "/nap", &json!({"Seconds": 30}), "sesame").status,
        504
    );

    let after = parse(&scrape(port, Some("sesame")).body);
    assert_eq!(get(&after, "charon_calls_total", &ok), 3.0);
    let outcome = |op, o| {
        get(
            &after,
            "charon_calls_total",
            &[("operation", op), ("outcome", o)],
        )
    };
    assert_eq!(outcome("echo_atom", "bad-arguments"), 1.0);
    assert_eq!(outcome("spin", "inference-limit"), 1.0);
    assert_eq!(outcome("det_fails", "det-failed"), 1.0);
    assert_eq!(
        get(
            &after,
            "charon_limit_hits_total",
            &[("kind", "inference-limit")]
        ),
        1.0
    );
    // Every call counted is in the histogram, the one refused for its arguments too
    // (it took no time): the histogram's count is the calls' count.
    let durations = [("operation", "echo_atom")];
    assert_eq!(
        get(&after, "charon_call_duration_seconds_count", &durations),
        4.0
    );
    let inf = [("le", "+Inf"), ("operation", "echo_atom")];
    assert_eq!(
        get(&after, "charon_call_duration_seconds_bucket", &inf),
        4.0
    );
    // The same arguments twice more: answered from the cache.
    assert_eq!(get(&after, "charon_cache_hits_total", &[]), 2.0);
    assert_eq!(outcome("nap", "time-limit"), 1.0);
    assert_eq!(
        get(&after, "charon_limit_hits_total", &[("kind", "time-limit")]),
        1.0
    );
    // The call past its time limit had its worker killed and replaced.
    assert_eq!(get(&after, "charon_workers_replaced_total", &[]), 1.0);
    assert_eq!(get(&before, "charon_workers_replaced_total", &[]), 0.0);
    assert_eq!(get(&after, "charon_calls_pending", &[]), 0.0);

    let document = request(
        port,
        "GET",
        "/openapi.json",
        &[
            ("Host", &format!("127.0.0.1:{port}")),
            ("Authorization", "Bearer sesame"),
        ],
        "",
    );
    let document: serde_json::Value = charon::json::from_str(&document.body).expect("json");
    assert_eq!(
        document["paths"]["/metrics"]["get"]["operationId"],
        "metrics"
    );
}

#[test]
fn metrics_are_served_only_when_asked_for() {
    let server = HttpServer::start(&fixture("types.pl"), &[]);
    assert_eq!(scrape(server.port, None).status, 404);
}

#[test]
fn the_reasoning_tools_and_mcp_sessions_are_counted() {
    let server = HttpServer::with_args(&["--reasoning", "--metrics", "--token", "t"]);
    let reasoned = post(
        server.port,
        "/reason",
        &json!({"knowledge": "p(a)\np(b)", "query": "p($x)"}),
        "t",
    );
    assert_eq!(reasoned.status, 200, "{}", reasoned.body);
    let bad = post(
        server.port,
        "/reason",
        &json!({"knowledge": "p(a) ; q", "query": "p($x)"}),
        "t",
    );
    assert_eq!(bad.status, 200, "a failed result is a 200: {}", bad.body);
    let samples = parse(&scrape(server.port, Some("t")).body);
    let tool = |o| {
        get(
            &samples,
            "charon_reasoning_calls_total",
            &[("outcome", o), ("tool", "reason")],
        )
    };
    assert_eq!(tool("ok"), 1.0, "{samples:?}");
    assert_eq!(
        tool("parse-error") + tool("unsupported"),
        1.0,
        "{samples:?}"
    );
    assert!(
        !samples.keys().any(|(n, _)| n == "charon_calls_total"),
        "the reasoning engine's own knowledge base is not reported"
    );

    let mcp = mcp_http_server(&fixture("types.pl"), &["--metrics"], &[]);
    let opened = mcp_post(mcp.port, &mcp_initialize("metrics"), &[]);
    assert_eq!(opened.status, 200, "{}", opened.body);
    let session = opened
        .header("mcp-session-id")
        .expect("a session")
        .to_string();
    let version = ("Mcp-Protocol-Version", "2025-06-18");
    let call = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "echo_int", "arguments": {"In": 7}}});
    let called = mcp_post(
        mcp.port,
        &call.to_string(),
        &[("Mcp-Session-Id", &session), version],
    );
    assert_eq!(called.status, 200, "{}", called.body);
    let samples = parse(&scrape(mcp.port, None).body);
    assert_eq!(get(&samples, "charon_mcp_sessions", &[]), 1.0);
    assert_eq!(
        get(
            &samples,
            "charon_calls_total",
            &[("operation", "echo_int"), ("outcome", "ok")]
        ),
        1.0
    );
}

/// Counting can be turned off (as `charon http` does without `--metrics`), and on
/// again, without losing what was counted.
#[test]
fn counting_stops_and_resumes_on_request() {
    let kb =
        charon::KnowledgeBase::load_with(crate::util::example("meds.pl"), crate::util::config())
            .expect("loads");
    let ok = |kb: &charon::KnowledgeBase| {
        let text = charon::http::metrics::render(charon::http::metrics::Sources {
            kb: Some(kb),
            ..Default::default()
        });
        get(
            &parse(&text),
            "charon_calls_total",
            &[("operation", "is_pim"), ("outcome", "ok")],
        )
    };
    let call = |kb: &charon::KnowledgeBase| {
        kb.call("is_pim", &json!({"Age": 70, "Drug": "diazepam"}))
            .expect("a call");
    };
    call(&kb);
    assert_eq!(ok(&kb), 1.0);
    kb.count_calls(false);
    call(&kb);
    call(&kb);
    assert_eq!(ok(&kb), 1.0);
    kb.count_calls(true);
    call(&kb);
    assert_eq!(ok(&kb), 2.0);
}
