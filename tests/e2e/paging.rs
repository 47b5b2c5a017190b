//! Answers a page at a time: through the Rust API (pages and the lazy iterator),
//! HTTP (`page_size`, `cursor`, the `Charon-Next-Cursor` header, 409 after a write)
//! and MCP tool calls; the pages of an answer are exactly the whole answer.

use std::sync::Arc;

use charon::{CallError, EngineConfig, KnowledgeBase};
use serde_json::{Value, json};

use crate::util::{
    HttpServer, config, example, fixture, mcp_http_server, mcp_initialize, mcp_post, request,
};

/// The cache on, and the default solution limit (10,000; the tests' is 1,000).
fn cached(path: std::path::PathBuf) -> KnowledgeBase {
    let mut c = EngineConfig {
        answer_cache: 64 << 20,
        ..config()
    };
    c.limits.solutions = 10_000;
    KnowledgeBase::load_with(path, c).expect("loads")
}

#[test]
fn pages_of_a_ten_thousand_solution_answer_are_exactly_the_whole_answer() {
    let kb = cached(fixture("types.pl"));
    let args = json!({"N": 10_000});
    let whole = kb.call("nd1", &args).expect("whole");
    assert_eq!(whole.as_array().map(Vec::len), Some(10_000));

    let mut pages = 0;
    let mut walked = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let page = kb
            .page("nd1", &args, 100, cursor.as_deref())
            .expect("a page");
        assert!(page.solutions.len() <= 100);
        walked.extend(page.solutions);
        pages += 1;
        match page.next {
            Some(next) => cursor = Some(next),
            None => break,
        }
    }
    assert_eq!(pages, 100);
    assert_eq!(Value::Array(walked), whole);

    // The iterator gives the same, solution by solution, pages of another size.
    let iterated: Vec<Value> = kb
        .pages("nd1", &args, 333)
        .collect::<Result<_, _>>()
        .expect("every page");
    assert_eq!(Value::Array(iterated), whole);
    // An empty answer is one empty page; a page size past the limit is refused.
    let empty = kb.page("nd1", &json!({"N": 0}), 10, None).expect("empty");
    assert!(empty.solutions.is_empty() && empty.next.is_none());
    // Past the solution limit, a page is as long as the limit.
    let clamped = kb.page("nd1", &args, 10_001, None).expect("a page");
    assert_eq!(Value::Array(clamped.solutions), whole);
    assert!(clamped.next.is_none());
    assert!(matches!(
        kb.page("nd1", &args, 0, None),
        Err(CallError::Paging {
            argument: "page_size",
            ..
        })
    ));
    assert!(matches!(
        kb.page("echo_int", &json!({"In": 1}), 10, None),
        Err(CallError::Paging { .. })
    ));
}

#[test]
fn the_iterator_is_lazy_and_later_pages_of_a_cached_read_are_slices() {
    let kb = cached(fixture("types.pl"));
    let args = json!({"N": 5_000});
    let before = kb.stats().calls;
    let first: Vec<Value> = kb
        .pages("nd1", &args, 100)
        .take(100)
        .collect::<Result<_, _>>()
        .expect("the first page");
    assert_eq!(first.len(), 100);
    assert_eq!(kb.stats().calls - before, 1, "one page, one engine call");

    // Walking on: the second page computes the whole answer once (cached); every
    // later page is a slice of it.
    let before = kb.stats().calls;
    let all = kb.pages("nd1", &args, 100).count();
    assert_eq!(all, 5_000);
    assert!(
        kb.stats().calls - before <= 2,
        "{} engine calls for 50 pages",
        kb.stats().calls - before
    );
}

#[test]
fn a_write_between_pages_is_reported_not_mixed() {
    let kb = Arc::new(cached(example("library.pl")));
    let args = json!({"Year": 2100});
    let first = kb
        .page("get_books_before", &args, 1, None)
        .expect("first page");
    let cursor = first.next.expect("more than one book");
    // A write the answer cannot see leaves the cursor good…
    kb.call("count_books", &json!({})).expect("a read");
    kb.page("get_books_before", &args, 1, Some(&cursor))
        .expect("still good");
    // …one that changes what it reads does not.
    kb.call(
        "put_book",
        &json!({"Id": "new", "Title": "T", "Author": "A", "Year": 1900}),
    )
    .expect("a write");
    assert!(matches!(
        kb.page("get_books_before", &args, 1, Some(&cursor)),
        Err(CallError::CursorStale { .. })
    ));
    // A cursor is for the call it came from.
    let fresh = kb
        .page("get_books_before", &args, 1, None)
        .expect("first page again")
        .next
        .expect("a next page");
    let other = kb.page("get_books_before", &json!({"Year": 2000}), 1, Some(&fresh));
    assert!(
        matches!(other, Err(CallError::CursorMismatch { .. })),
        "{other:?}"
    );
    assert!(matches!(
        kb.page("get_books_before", &args, 1, Some("not a cursor")),
        Err(CallError::CursorMismatch { .. })
    ));
}

fn post_page(port: u16, path: &str) -> crate::util::Reply {
    let host = format!("127.0.0.1:{port}");
    request(port, "POST", path, &[("Host", &host)], "")
}

#[test]
fn http_pages_follow_the_next_cursor_header() {
    let server = HttpServer::start(&fixture("types.pl"), &[]);
    let whole = post_page(server.port, "/nd2?N=2500");
    assert_eq!(whole.status, 200, "{}", whole.body);
    let whole: Value = charon::json::from_str(&whole.body).expect("json");
    let mut walked = Vec::new();
    let mut path = "/nd2?N=2500&page_size=100".to_string();
    let mut pages = 0;
    loop {
        let reply = post_page(server.port, &path);
        assert_eq!(reply.status, 200, "{}", reply.body);
        let page: Value = charon::json::from_str(&reply.body).expect("json");
        walked.extend(page.as_array().cloned().expect("an array"));
        pages += 1;
        match reply.header("charon-next-cursor") {
            Some(next) => path = format!("/nd2?N=2500&page_size=100&cursor={next}"),
            None => break,
        }
    }
    assert_eq!(pages, 25);
    assert_eq!(Value::Array(walked), whole);
    // A size past any machine's is a page as long as the solution limit.
    let huge = post_page(server.port, "/nd2?N=5&page_size=36893488147419103232");
    assert_eq!(huge.status, 200, "{}", huge.body);
    assert!(huge.header("charon-next-cursor").is_none());
    let bad = post_page(server.port, "/nd2?N=5&page_size=x");
    assert_eq!(bad.status, 400);
    assert_eq!(bad.problem().0, "urn:charon:problem:bad-arguments");

    let doc = request(
        server.port,
        "GET",
        "/openapi.json",
        &[("Host", &format!("127.0.0.1:{}", server.port))],
        "",
    );
    let doc: Value = charon::json::from_str(&doc.body).expect("json");
    let names = |path: &str| -> Vec<String> {
        doc["paths"][path]["post"]["parameters"]
            .as_array()
            .map(|ps| {
                ps.iter()
                    .map(|p| p["name"].as_str().unwrap_or("").to_string())
                    .collect()
            })
            .unwrap_or_default()
    };
    assert_eq!(names("/nd2"), ["page_size", "cursor"]);
    assert!(
        names("/echo_int").is_empty(),
        "a det operation has no pages"
    );
    assert!(doc["paths"]["/nd2"]["post"]["responses"]["409"].is_object());
}

#[test]
fn http_reports_a_cursor_taken_before_a_write() {
    let server = HttpServer::start(&example("library.pl"), &[]);
    let host = format!("127.0.0.1:{}", server.port);
    let get = |path: &str| request(server.port, "GET", path, &[("Host", &host)], "");
    let first = get("/get_books_before?Year=2100&page_size=1");
    assert_eq!(first.status, 200, "{}", first.body);
    let cursor = first
        .header("charon-next-cursor")
        .expect("a next page")
        .to_string();
    let put = request(
        server.port,
        "PUT",
        "/put_book",
        &[("Host", &host), ("Content-Type", "application/json")],
        r#"{"Id": "x1", "Title": "T", "Author": "A", "Year": 1901}"#,
    );
    assert_eq!(put.status, 200, "{}", put.body);
    let stale = get(&format!(
        "/get_books_before?Year=2100&page_size=1&cursor={cursor}"
    ));
    assert_eq!(stale.status, 409, "{}", stale.body);
    assert_eq!(stale.problem().0, "urn:charon:problem:cursor-stale");
}

#[test]
fn refused_pages_are_counted_by_their_problem_type() {
    let server = HttpServer::start(&example("library.pl"), &["--metrics"]);
    let host = format!("127.0.0.1:{}", server.port);
    let get = |path: &str| request(server.port, "GET", path, &[("Host", &host)], "");
    assert_eq!(get("/get_books_before?Year=2100&page_size=2").status, 200);
    let made_up = "1.0.0000000000000000";
    let reply = get(&format!("/get_books_before?Year=2100&cursor={made_up}"));
    assert_eq!(reply.status, 409, "{}", reply.body);
    let metrics = get("/metrics").body;
    for line in [
        r#"charon_calls_total{operation="get_books_before",outcome="ok"} 1"#,
        r#"charon_calls_total{operation="get_books_before",outcome="cursor-mismatch"} 1"#,
    ] {
        assert!(metrics.lines().any(|l| l == line), "{line} in\n{metrics}");
    }
}

#[test]
fn mcp_tools_take_page_size_and_give_next_cursor() {
    let server = mcp_http_server(&fixture("types.pl"), &[], &[]);
    let opened = mcp_post(server.port, &mcp_initialize("pager"), &[]);
    let session = opened
        .header("mcp-session-id")
        .expect("a session")
        .to_string();
    let version = ("Mcp-Protocol-Version", "2025-06-18");
    let call = |id: u64, args: Value| {
        let body = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": "nd1", "arguments": args}});
        let reply = mcp_post(
            server.port,
            &body.to_string(),
            &[("Mcp-Session-Id", &session), version],
        );
        assert_eq!(reply.status, 200, "{}", reply.body);
        // An event stream: the message is the last non-empty `data:` line.
        let data = reply
            .body
            .lines()
            .filter_map(|l| l.strip_prefix("data:").map(str::trim))
            .rfind(|d| !d.is_empty())
            .unwrap_or(&reply.body)
            .to_string();
        let message: Value = charon::json::from_str(&data).expect("json-rpc");
        message["result"]["structuredContent"].clone()
    };
    let mut walked = Vec::new();
    let mut args = json!({"N": 250, "page_size": 100});
    for id in 2.. {
        let page = call(id, args.clone());
        walked.extend(page["result"].as_array().cloned().expect("solutions"));
        match page["next_cursor"].as_str() {
            Some(next) => args["cursor"] = json!(next),
            None => break,
        }
    }
    assert_eq!(walked, (1..=250).map(|i| json!(i)).collect::<Vec<_>>());
    let list = json!({"jsonrpc": "2.0", "id": 99, "method": "tools/list"});
    let reply = mcp_post(
        server.port,
        &list.to_string(),
        &[("Mcp-Session-Id", &session), version],
    );
    assert!(reply.body.contains("\"page_size\""), "{}", reply.body);
}

#[test]
fn pages_reach_past_the_solution_limit_of_a_whole_answer() {
    // The tests' limit: 1,000 solutions in one answer.
    let kb = KnowledgeBase::load_with(fixture("types.pl"), config()).expect("loads");
    let args = json!({"N": 2_500});
    assert!(matches!(
        kb.call("nd1", &args),
        Err(CallError::TooManySolutions { .. })
    ));
    let walked: Vec<Value> = kb
        .pages("nd1", &args, 1_000)
        .collect::<Result<_, _>>()
        .expect("every page");
    assert_eq!(walked, (1..=2_500).map(|i| json!(i)).collect::<Vec<_>>());
}

#[test]
fn charon_call_prints_a_page_and_the_cursor_of_the_next() {
    use crate::util::run_charon;
    let kb = fixture("types.pl");
    let kb = kb.to_str().expect("utf-8");
    let mut walked = Vec::new();
    let mut cursor: Option<String> = None;
    for _ in 0..4 {
        let mut args = vec!["call", "--page-size", "4"];
        if let Some(c) = &cursor {
            args.extend(["--cursor", c.as_str()]);
        }
        args.extend([kb, "nd1", "--N", "10"]);
        let (code, out, err) = run_charon(&args);
        assert_eq!(code, 0, "{err}");
        let page: Value = charon::json::from_str(&out).expect("a JSON array");
        walked.extend(page.as_array().cloned().expect("an array"));
        // Each run is a new process: the cursor holds all it needs.
        cursor = err
            .lines()
            .find_map(|l| l.strip_prefix("charon: next page: --page-size 4 --cursor "))
            .map(str::to_string);
        if cursor.is_none() {
            assert!(err.contains("charon: last page"), "{err}");
            break;
        }
    }
    assert_eq!(walked, (1..=10).map(|i| json!(i)).collect::<Vec<_>>());
    let (code, _, err) = run_charon(&[
        "call",
        "--page-size",
        "2",
        "--cursor",
        "1.0.0",
        kb,
        "nd1",
        "--N",
        "10",
    ]);
    assert_ne!(code, 0);
    assert!(err.contains("cursor"), "{err}");
}

#[test]
fn a_forged_offset_costs_the_search_not_the_memory_of_what_it_skips() {
    let kb = cached(fixture("types.pl"));
    let args = json!({"N": 200_000});
    let first = kb.page("nd1", &args, 10, None).expect("first page");
    let cursor = first.next.expect("a next page");
    // Solutions up to the offset are found and dropped one by one in the engine,
    // never collected: a far offset is an empty last page.
    let (_, rest) = cursor.split_once('.').expect("offset.stamp.print");
    let far = format!("ffffffff.{rest}");
    let page = kb.page("nd1", &args, 10, Some(&far)).expect("a page");
    assert!(page.solutions.is_empty() && page.next.is_none());
    let near = format!("{:x}.{rest}", 199_995);
    let page = kb.page("nd1", &args, 10, Some(&near)).expect("a page");
    assert_eq!(
        page.solutions,
        (199_996..=200_000).map(|i| json!(i)).collect::<Vec<_>>()
    );
}
