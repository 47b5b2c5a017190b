//! Streamed answers: the Rust API (`stream`, `stream_async`) and HTTP
//! (`Accept: application/x-ndjson`). A stream holds exactly the whole answer's
//! solutions, in order, and its last line says how it ended; memory stays flat for
//! a million solutions.

use std::ops::ControlFlow;
use std::sync::Arc;

use charon::{CallError, KnowledgeBase, StreamEnd, Streamed};
use serde_json::{Value, json};

use crate::util::{HttpServer, config, fixture, request};

fn kb_with(streamed: usize) -> KnowledgeBase {
    let mut c = config();
    c.limits.solutions = 10_000;
    c.limits.streamed = streamed;
    KnowledgeBase::load_with(fixture("stream.pl"), c).expect("stream.pl loads")
}

/// Every solution of a stream, and how it ended.
fn collect(
    kb: &KnowledgeBase,
    name: &str,
    args: &Value,
) -> (Vec<Value>, Result<StreamEnd, CallError>) {
    let mut got = Vec::new();
    let end = kb.stream(name, args, |v| {
        got.push(v);
        ControlFlow::Continue(())
    });
    (got, end)
}

#[test]
fn a_stream_holds_exactly_the_whole_answer_and_says_how_it_ended() {
    let kb = kb_with(1_000_000);
    for (name, args) in [
        ("count", json!({"N": 10_000})),
        ("pairs", json!({"N": 300})),
        ("quoted", json!({})),
        ("count", json!({"N": 0})),
    ] {
        let whole = kb.call(name, &args).expect("the whole answer");
        let (got, end) = collect(&kb, name, &args);
        assert_eq!(Value::Array(got), whole, "{name} {args}");
        let n = whole.as_array().map_or(0, Vec::len) as u64;
        assert_eq!(
            end.expect("ends well"),
            StreamEnd::Complete { solutions: n }
        );
    }
    // An exception after three solutions: the three, then the error.
    let (got, end) = collect(&kb, "then_throw", &json!({"N": 3}));
    assert_eq!(got, vec![json!(1), json!(2), json!(3)]);
    assert!(matches!(end, Err(CallError::Exception { .. })), "{end:?}");
    // One solution, then one nested past the depth limit: the first still comes.
    let (got, end) = collect(&kb, "deep", &json!({"N": 2000}));
    assert_eq!(got, vec![json!([1])]);
    assert!(
        matches!(end, Err(CallError::AnswerTooDeep { .. })),
        "{end:?}"
    );
    // Refused before anything runs.
    assert!(matches!(
        kb.stream("total", &json!({"N": 3}), |_| ControlFlow::Continue(())),
        Err(CallError::NotStreamable { .. })
    ));
    assert!(!kb.is_streamable("total") && kb.is_streamable("count"));
    assert!(matches!(
        kb.stream("count", &json!({"N": "x"}), |_| ControlFlow::Continue(())),
        Err(CallError::Arguments { .. })
    ));
    assert!(matches!(
        kb.stream("nothing", &json!({}), |_| ControlFlow::Continue(())),
        Err(CallError::UnknownOperation(_))
    ));
}

#[test]
fn a_stream_is_cut_at_its_limit_or_by_its_consumer_and_the_engine_goes_on() {
    let kb = kb_with(5);
    // Exactly the limit is complete; one more is truncated; an endless one too.
    let (got, end) = collect(&kb, "count", &json!({"N": 5}));
    assert_eq!(
        (got.len(), end.expect("ok")),
        (5, StreamEnd::Complete { solutions: 5 })
    );
    let (got, end) = collect(&kb, "count", &json!({"N": 6}));
    assert_eq!(got, (1..=5).map(|i| json!(i)).collect::<Vec<_>>());
    assert_eq!(
        end.expect("ok"),
        StreamEnd::Truncated {
            solutions: 5,
            limit: 5
        }
    );
    let (got, end) = collect(&kb, "endless", &json!({}));
    assert_eq!(
        (got.len(), end.expect("ok")),
        (
            5,
            StreamEnd::Truncated {
                solutions: 5,
                limit: 5
            }
        )
    );
    // The consumer stops after two.
    let mut got = Vec::new();
    let end = kb.stream("count", &json!({"N": 4}), |v| {
        got.push(v);
        if got.len() == 2 {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    assert_eq!(end.expect("ok"), StreamEnd::Stopped { solutions: 2 });
    // An endless stream under the time limit ends with the time-limit error.
    let mut c = config();
    c.limits.time = std::time::Duration::from_millis(500);
    let slow = KnowledgeBase::load_with(fixture("stream.pl"), c).expect("loads");
    let (got, end) = collect(&slow, "endless", &json!({}));
    assert!(
        got.len() > 5,
        "solutions came before the limit: {}",
        got.len()
    );
    assert!(matches!(end, Err(CallError::TimeLimit { .. })), "{end:?}");
    // A solution found just before a search that never ends still comes out.
    let (got, end) = collect(&slow, "first_then_slow", &json!({}));
    assert_eq!(got, vec![json!(1)]);
    assert!(
        matches!(
            end,
            Err(CallError::TimeLimit { .. } | CallError::InferenceLimit { .. })
        ),
        "{end:?}"
    );
    // Every engine still answers.
    for kb in [&kb, &slow] {
        assert_eq!(
            kb.call("count", &json!({"N": 2})).expect("ok"),
            json!([1, 2])
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_async_stream_gives_the_same_and_dropping_it_ends_the_search() {
    let kb = Arc::new(kb_with(1_000_000));
    let args = json!({"N": 2_000});
    let whole = kb.call("count", &args).expect("whole");
    let mut stream = kb.stream_async("count", &args).expect("starts");
    let mut got = Vec::new();
    let end = loop {
        match stream.next().await.expect("an item") {
            Ok(Streamed::Solution(v)) => got.push(v),
            Ok(Streamed::End(end)) => break end,
            Ok(other) => panic!("{other:?}"),
            Err(e) => panic!("{e}"),
        }
    };
    assert!(stream.next().await.is_none(), "nothing after the end");
    assert_eq!(
        (Value::Array(got), end),
        (whole, StreamEnd::Complete { solutions: 2_000 })
    );
    // Dropped after one solution of an endless stream: the worker is let go.
    let mut endless = kb.stream_async("endless", &json!({})).expect("starts");
    assert!(matches!(
        endless.next().await,
        Some(Ok(Streamed::Solution(_)))
    ));
    drop(endless);
    for _ in 0..4 {
        let answer = kb
            .call_async("count", &json!({"N": 3}))
            .await
            .expect("answers");
        assert_eq!(answer, json!([1, 2, 3]));
    }
    assert!(matches!(
        kb.stream_async("total", &json!({"N": 1})),
        Err(CallError::NotStreamable { .. })
    ));
}

/// A POST of `body` to `/op` with an `Accept` header.
fn post(port: u16, path: &str, accept: &str, body: &str) -> crate::util::Reply {
    let host = format!("127.0.0.1:{port}");
    request(
        port,
        "POST",
        path,
        &[
            ("Host", &host),
            ("Content-Type", "application/json"),
            ("Accept", accept),
        ],
        body,
    )
}

/// The body of a streamed answer (chunked: it is sent as it is made) as its
/// lines, each a JSON object.
fn lines(reply: &crate::util::Reply) -> Vec<Value> {
    assert_eq!(reply.header("transfer-encoding"), Some("chunked"));
    let mut body = String::new();
    let mut rest = reply.body.as_str();
    loop {
        let (size, after) = rest.split_once("\r\n").expect("a chunk size");
        let size = usize::from_str_radix(size.trim(), 16).expect("hexadecimal");
        if size == 0 {
            break;
        }
        body.push_str(&after[..size]);
        rest = &after[size + 2..];
    }
    body.lines()
        .map(|l| charon::json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

const NDJSON: &str = "application/x-ndjson";

#[test]
fn http_streams_ndjson_with_an_honest_last_line() {
    let server = HttpServer::start(&fixture("stream.pl"), &["--max-streamed-solutions", "50"]);
    let port = server.port;
    // The stream equals the JSON answer, a line per solution, and ends "complete".
    let whole = post(port, "/pairs", "application/json", r#"{"N": 40}"#);
    assert_eq!(whole.header("content-type"), Some("application/json"));
    let whole: Value = charon::json::from_str(&whole.body).expect("ok");
    let streamed = post(port, "/pairs", NDJSON, r#"{"N": 40}"#);
    assert_eq!(streamed.status, 200);
    assert_eq!(streamed.header("content-type"), Some(NDJSON));
    let mut got = lines(&streamed);
    assert_eq!(
        got.pop(),
        Some(json!({"end": {"status": "complete", "solutions": 40}}))
    );
    let solutions: Vec<Value> = got.iter().map(|l| l["solution"].clone()).collect();
    assert!(got.iter().all(|l| l.as_object().expect("ok").len() == 1));
    assert_eq!(Value::Array(solutions), whole);
    // Past the server's limit: truncated.
    let mut got = lines(&post(port, "/count", NDJSON, r#"{"N": 51}"#));
    assert_eq!(
        got.pop(),
        Some(json!({"end": {"status": "truncated", "solutions": 50, "limit": 50}}))
    );
    assert_eq!(got.len(), 50);
    // An error after solutions is the last line; before any, the problem's status.
    let mut got = lines(&post(port, "/then_throw", NDJSON, r#"{"N": 2}"#));
    let last = got.pop().expect("ok");
    assert_eq!(got, vec![json!({"solution": 1}), json!({"solution": 2})]);
    assert_eq!(last["error"]["type"], "urn:charon:problem:prolog-exception");
    assert_eq!(last["error"]["status"], 422);
    let early = post(port, "/then_throw", NDJSON, r#"{"N": 0}"#);
    assert_eq!(early.status, 422);
    assert!(early.problem().0.ends_with(":prolog-exception"));
    // Bad arguments and paging are refused before the stream.
    assert_eq!(post(port, "/count", NDJSON, r#"{"N": "x"}"#).status, 400);
    let paged = post(port, "/count?page_size=2", NDJSON, r#"{"N": 5}"#);
    assert_eq!(paged.status, 400);
    assert!(
        paged.problem().1.contains("a stream has no pages"),
        "{}",
        paged.body
    );
    // An operation without a stream: 406 when only a stream is acceptable, JSON when
    // JSON is too; no Accept header at all is JSON.
    let refused = post(port, "/total", NDJSON, r#"{"N": 3}"#);
    assert_eq!(refused.status, 406);
    assert!(refused.problem().0.ends_with(":not-streamable"));
    let json_too = post(
        port,
        "/total",
        &format!("{NDJSON}, application/json;q=0.5"),
        r#"{"N": 3}"#,
    );
    assert_eq!((json_too.status, json_too.body.as_str()), (200, "6"));
    let declined = post(
        port,
        "/count",
        &format!("{NDJSON};q=0, application/json"),
        r#"{"N": 2}"#,
    );
    assert_eq!((declined.status, declined.body.as_str()), (200, "[1,2]"));
    // The document declares the stream on the operations that have one.
    let doc = request(
        port,
        "GET",
        "/openapi.json",
        &[("Host", &format!("127.0.0.1:{port}"))],
        "",
    );
    let doc: Value = charon::json::from_str(&doc.body).expect("ok");
    let content =
        |op: &str| doc["paths"][format!("/{op}")]["post"]["responses"]["200"]["content"].clone();
    assert!(content("count")[NDJSON]["schema"]["oneOf"].is_array());
    assert!(content("total").get(NDJSON).is_none());
}

/// The resident memory of `pid` and every process under it, in bytes.
fn tree_rss(pid: u32) -> u64 {
    let mut total = 0;
    let mut frontier = vec![pid];
    while let Some(p) = frontier.pop() {
        let status = std::fs::read_to_string(format!("/proc/{p}/status")).unwrap_or_default();
        total += status
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
            .unwrap_or(0)
            * 1024;
        for task in std::fs::read_dir(format!("/proc/{p}/task"))
            .into_iter()
            .flatten()
            .flatten()
        {
            let children =
                std::fs::read_to_string(task.path().join("children")).unwrap_or_default();
            frontier.extend(
                children
                    .split_whitespace()
                    .filter_map(|c| c.parse::<u32>().ok()),
            );
        }
    }
    total
}

#[test]
fn a_million_solutions_stream_in_flat_memory() {
    let server = HttpServer::start(
        &fixture("stream.pl"),
        &[
            "--timeout-ms",
            "120000",
            "--max-inferences",
            "0",
            "--answer-cache",
            "0",
        ],
    );
    let port = server.port;
    let pid = server.child.id();
    // Warm: a small stream first, so that forking a replacement is not counted.
    let warm = post(port, "/count", NDJSON, r#"{"N": 1000}"#);
    assert_eq!(warm.status, 200);
    std::thread::sleep(std::time::Duration::from_millis(500));
    let before = tree_rss(pid);
    let done = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let sampler = {
        let done = Arc::clone(&done);
        std::thread::spawn(move || {
            let mut peak = 0;
            while !done.load(std::sync::atomic::Ordering::Relaxed) {
                peak = peak.max(tree_rss(pid));
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
            peak
        })
    };
    // Read line by line, checking each solution in order, keeping none.
    use std::io::{BufRead, Write};
    let mut stream = std::net::TcpStream::connect(("127.0.0.1", port)).expect("ok");
    let body = r#"{"N": 1000000}"#;
    write!(
        stream,
        "POST /count HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n\
         Accept: {NDJSON}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .expect("ok");
    let mut reader = std::io::BufReader::new(stream);
    let mut line = String::new();
    let mut chunked = false;
    loop {
        line.clear();
        reader.read_line(&mut line).expect("ok");
        if line
            .to_ascii_lowercase()
            .starts_with("transfer-encoding: chunked")
        {
            chunked = true;
        }
        if line == "\r\n" {
            break;
        }
    }
    assert!(chunked, "the body is sent as it is made");
    let (mut next, mut bytes, mut last) = (1u64, 0usize, Value::Null);
    let mut pending = String::new();
    loop {
        // Chunked framing: a size line, the data, CRLF.
        line.clear();
        reader.read_line(&mut line).expect("ok");
        let size = usize::from_str_radix(line.trim(), 16).expect("a chunk size");
        if size == 0 {
            break;
        }
        let mut data = vec![0; size + 2];
        std::io::Read::read_exact(&mut reader, &mut data).expect("ok");
        bytes += size;
        pending.push_str(std::str::from_utf8(&data[..size]).expect("ok"));
        while let Some(at) = pending.find('\n') {
            let text: String = pending.drain(..=at).collect();
            let value: Value = serde_json::from_str(&text).expect("ok");
            if value.get("solution").is_some() {
                assert_eq!(value, json!({"solution": next}));
                next += 1;
            } else {
                last = value;
            }
        }
    }
    done.store(true, std::sync::atomic::Ordering::Relaxed);
    let peak = sampler.join().expect("ok");
    assert_eq!(next - 1, 1_000_000);
    assert_eq!(
        last,
        json!({"end": {"status": "complete", "solutions": 1_000_000}})
    );
    // The answer is about 20 MB of text; the server (and its workers) grew by far
    // less than that, let alone the whole answer's values.
    assert!(bytes > 19_000_000, "{bytes}");
    let grown = peak.saturating_sub(before);
    eprintln!(
        "streamed {bytes} bytes; the server grew by {} KiB",
        grown >> 10
    );
    // Alone, the server grows by about 8.6 MiB here; run beside the whole test
    // suite, by 12.7 to 16 MiB (the allocator's per-thread arenas of a busier
    // process, on 2 cores). Holding the answer would cost its 20 MB of text, and
    // its million values as much again: 24 MiB tells the two apart.
    assert!(
        grown < 24 << 20,
        "the server grew by {} MiB while streaming (from {} MiB)",
        grown >> 20,
        before >> 20
    );
}
