//! `--persist`: the file follows the dynamic database, atomically, keeping every
//! other byte, never overwriting someone else's edit; through the library, `charon
//! http` (concurrent writes, SIGKILL), `charon mcp --stdio` and MCP over HTTP.

use std::path::PathBuf;
use std::sync::Arc;

use charon::{CallError, EngineConfig, KnowledgeBase};
use serde_json::{Value, json};

use crate::util::{HttpServer, StdioSession, config, example, fixture, http, run_charon};

/// A private copy of `files` (the first is the knowledge base) in a fresh directory.
fn copy(files: &[PathBuf]) -> (tempdir::Dir, PathBuf) {
    let dir = tempdir::Dir::new("persist");
    for f in files {
        std::fs::copy(f, dir.0.join(f.file_name().expect("name"))).expect("copy");
    }
    let kb = dir.0.join(files[0].file_name().expect("name"));
    (dir, kb)
}

mod tempdir {
    pub use crate::util::TempDir as Dir;
}

fn persisting() -> EngineConfig {
    EngineConfig {
        persist: true,
        ..config()
    }
}

fn library() -> (tempdir::Dir, PathBuf) {
    copy(&[example("library.pl")])
}

fn book(id: &str, year: u32) -> Value {
    json!({"Id": id, "Title": format!("Title of {id}"), "Author": "Someone", "Year": year})
}

fn ids(kb: &KnowledgeBase) -> Value {
    kb.call("get_books", &json!({})).expect("get_books")
}

#[test]
fn put_and_delete_change_the_file_and_a_restart_reproduces_the_database() {
    let (_dir, path) = library();
    let kb = KnowledgeBase::load_with(&path, persisting()).expect("loads");
    kb.call("put_book", &book("dune", 1965)).expect("put");
    kb.call("delete_book", &json!({"Id": "aop"}))
        .expect("delete");
    // The writes are durable in the journal; a checkpoint folds them into the file.
    kb.checkpoint().expect("checkpoint");
    let text = std::fs::read_to_string(&path).expect("read");
    assert!(
        text.contains("book(dune,") && !text.contains("book(aop,"),
        "{text}"
    );
    let before = ids(&kb);
    drop(kb);
    let again = KnowledgeBase::load_with(&path, config()).expect("loads again");
    assert_eq!(ids(&again), before);
    assert_eq!(
        again.call("get_book", &json!({"Id": "dune"})).expect("get"),
        json!({"Title": "Title of dune", "Author": "Someone", "Year": 1965})
    );
    let (_, _, stderr) = run_charon(&["check", path.to_str().expect("utf-8")]);
    assert!(!stderr.contains("rror"), "{stderr}");
}

/// The byte range of the run of `book/4` clauses in `text`.
fn book_run(text: &str) -> std::ops::Range<usize> {
    let spans: Vec<_> = charon::pldoc::clauses(text)
        .into_iter()
        .filter(|c| c.predicate == Some(("book".into(), 4)))
        .collect();
    spans[0].bytes.start..spans[spans.len() - 1].bytes.end
}

#[test]
fn golden_every_byte_outside_the_changed_clauses_is_kept() {
    let (_dir, path) = library();
    let original = std::fs::read_to_string(&path).expect("read");
    let run = book_run(&original);
    let kb = KnowledgeBase::load_with(&path, persisting()).expect("loads");
    kb.call("put_book", &book("new one", 2001)).expect("put");
    kb.checkpoint().expect("checkpoint");
    let after = std::fs::read_to_string(&path).expect("read");
    let new_run = book_run(&after);
    assert_eq!(
        &after[..new_run.start],
        &original[..run.start],
        "bytes before the facts"
    );
    assert_eq!(
        &after[new_run.end..],
        &original[run.end..],
        "bytes after the facts"
    );
    assert_eq!(
        after[new_run.clone()].lines().count(),
        5,
        "{}",
        &after[new_run]
    );
    // A second write replaces the same run: nothing else moves.
    kb.call("delete_book", &json!({"Id": "new one"}))
        .expect("delete");
    kb.checkpoint().expect("checkpoint");
    let third = std::fs::read_to_string(&path).expect("read");
    let third_run = book_run(&third);
    assert_eq!(&third[..third_run.start], &original[..run.start]);
    assert_eq!(&third[third_run.end..], &original[run.end..]);
}

#[test]
fn failing_or_throwing_writes_leave_the_file_as_it_was() {
    let (_dir, path) = copy(&[fixture("state/mixed.pl"), fixture("state/tags.pl")]);
    let kb = KnowledgeBase::load_with(&path, persisting()).expect("loads");
    let original = std::fs::read(&path).expect("read");
    assert!(matches!(
        kb.call("put_then_throw", &json!({"Key": "k"})),
        Err(CallError::Exception { .. })
    ));
    assert_eq!(
        kb.call("put_then_fail", &json!({"Key": "k"}))
            .expect("semidet"),
        json!(false)
    );
    assert_eq!(std::fs::read(&path).expect("read"), original);
    // Nor did they leave a record in the journal (its header line only).
    assert_eq!(journal(&path).lines().count(), 1, "{}", journal(&path));
    kb.call("add_note", &json!({"Key": "k", "Value": 2.5}))
        .expect("add");
    kb.checkpoint().expect("checkpoint");
    let text = std::fs::read_to_string(&path).expect("read");
    assert!(
        text.contains("note(k,2.5)") || text.contains("note(k, 2.5)"),
        "{text}"
    );
}

#[test]
fn workers_started_after_writes_do_not_trust_the_rewritten_file() {
    let (_dir, path) = library();
    let config = EngineConfig {
        recycle_after: 3,
        ..persisting()
    };
    let kb = KnowledgeBase::load_with(&path, config).expect("loads");
    kb.call("put_book", &book("dune", 1965)).expect("put");
    kb.call("delete_book", &json!({"Id": "sicp"}))
        .expect("delete");
    let expected = json!(["aop", "craft", "dune", "taocp1"]);
    // A recycled worker serves until its replacement has loaded: keep calling
    // until replacements have joined, then some more.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    let mut after_joined = 0;
    while after_joined < 40 {
        assert_eq!(ids(&kb), expected);
        if kb.stats().workers_started > 4 {
            after_joined += 1;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "recycled workers never joined"
        );
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
}

#[test]
fn without_persist_the_file_never_changes() {
    let (_dir, path) = library();
    let original = std::fs::read(&path).expect("read");
    let kb = KnowledgeBase::load_with(&path, config()).expect("loads");
    kb.call("put_book", &book("x", 2000)).expect("put");
    kb.call("delete_book", &json!({"Id": "sicp"}))
        .expect("delete");
    assert_eq!(std::fs::read(&path).expect("read"), original);
    assert!(kb.persisted().is_none());
}

#[test]
fn an_edit_made_by_someone_else_is_never_overwritten() {
    let (_dir, path) = library();
    let kb = KnowledgeBase::load_with(&path, persisting()).expect("loads");
    kb.call("put_book", &book("mine", 1999)).expect("put");
    let mut edited = std::fs::read_to_string(&path).expect("read");
    edited.push_str("% an edit made in an editor\n");
    std::fs::write(&path, &edited).expect("edit");
    let refused = kb
        .call("put_book", &book("later", 2002))
        .expect_err("refused");
    assert!(
        refused.to_string().contains("changed by someone else"),
        "{refused}"
    );
    assert_eq!(std::fs::read_to_string(&path).expect("read"), edited);
    // The refused write did not change the database either.
    assert_eq!(
        kb.call("get_book", &json!({"Id": "later"})).expect("get"),
        Value::Null
    );
    // Nor does stopping overwrite the edit; the acknowledged write stays in the
    // journal, and loading again says exactly what is wrong instead of guessing.
    drop(kb);
    assert_eq!(std::fs::read_to_string(&path).expect("read"), edited);
    let err = KnowledgeBase::load_with(&path, persisting()).expect_err("diverged");
    assert!(err.to_string().contains("1 acknowledged write(s)"), "{err}");
}

/// The journal beside a persisted file.
fn journal(path: &std::path::Path) -> String {
    std::fs::read_to_string(format!("{}.journal", path.display())).expect("journal")
}

#[test]
fn text_without_a_file_cannot_persist() {
    let text = std::fs::read_to_string(example("library.pl")).expect("read");
    let err = KnowledgeBase::from_source_with("lib.pl", &text, persisting()).expect_err("refused");
    assert!(err.to_string().contains("cannot persist"), "{err}");
}

#[test]
fn five_hundred_concurrent_http_writes_are_all_there_after_a_restart() {
    let (_dir, path) = library();
    let server = HttpServer::start(&path, &["--persist", "--workers", "2"]);
    let port = server.port;
    std::thread::scope(|s| {
        for t in 0..10 {
            s.spawn(move || {
                for i in 0..50 {
                    let body = book(&format!("c{t}_{i}"), 1900 + i).to_string();
                    let (status, answer) =
                        http(port, "PUT", "/put_book", Some(&body)).expect("answer");
                    assert_eq!(status, 200, "{answer}");
                }
            });
        }
    });
    let (_, health) = http(port, "GET", "/health", None).expect("health");
    let health: Value = charon::json::from_str(&health).expect("json");
    assert_eq!(
        health["persist"]["generation"], health["generation"],
        "{health}"
    );
    server.kill(); // SIGKILL: the writes are in the journal, applied at the next load
    let kb = KnowledgeBase::load_with(&path, persisting()).expect("loads");
    assert_eq!(
        kb.call("count_books", &json!({})).expect("count"),
        json!(504)
    );
    drop(kb);
    // Folded into the file at that load: the file alone holds them now.
    let kb = KnowledgeBase::load_with(&path, config()).expect("loads");
    assert_eq!(
        kb.call("count_books", &json!({})).expect("count"),
        json!(504)
    );
}

#[test]
fn sigkill_during_a_write_loop_never_loses_an_answered_write_or_tears_the_file() {
    let (_dir, path) = library();
    let mut seed = 0x9e37_79b9_u64;
    let mut answered = 0;
    for round in 0..20 {
        let server = HttpServer::start(&path, &["--persist", "--workers", "1"]);
        let port = server.port;
        let acknowledged = Arc::new(std::sync::Mutex::new(Vec::new()));
        let writer = {
            let acknowledged = acknowledged.clone();
            std::thread::spawn(move || {
                for i in 0.. {
                    let id = format!("r{round}_{i}");
                    let body = book(&id, 2000).to_string();
                    match http(port, "PUT", "/put_book", Some(&body)) {
                        Some((200, _)) => acknowledged.lock().expect("lock").push(id),
                        _ => return,
                    }
                }
            })
        };
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        std::thread::sleep(std::time::Duration::from_millis(30 + seed % 250));
        server.kill();
        writer.join().expect("writer");
        let (code, _, stderr) = run_charon(&["check", path.to_str().expect("utf-8")]);
        assert_eq!(code, 0, "round {round}: the file does not load: {stderr}");
        let kb = KnowledgeBase::load_with(&path, persisting()).expect("loads");
        answered += acknowledged.lock().expect("lock").len();
        for id in acknowledged.lock().expect("lock").iter() {
            assert_ne!(
                kb.call("get_book", &json!({"Id": id})).expect("get"),
                Value::Null,
                "round {round}: {id} was answered but is not in the file"
            );
        }
    }
    assert!(
        answered > 100,
        "only {answered} writes were answered in 20 rounds"
    );
}

#[test]
fn mcp_stdio_persists() {
    let (dir, path) = library();
    let mut session = StdioSession::start_in(
        &dir.0,
        &["mcp", "--stdio", path.to_str().expect("utf-8"), "--persist"],
    );
    session.call(2, "put_book", book("stdio", 1977));
    let answer = session.answer(2);
    assert_eq!(answer["isError"], json!(false), "{answer}");
    drop(session); // SIGKILL
    let kb = KnowledgeBase::load_with(&path, persisting()).expect("loads");
    assert_ne!(
        kb.call("get_book", &json!({"Id": "stdio"})).expect("get"),
        Value::Null
    );
    drop(kb);
    assert!(
        std::fs::read_to_string(&path)
            .expect("read")
            .contains("book(stdio,")
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn mcp_over_http_persists() {
    use axum::body::Body;
    use axum::http::{Request, header};
    use tower::ServiceExt as _;
    let (_dir, path) = library();
    let kb = KnowledgeBase::load_with(&path, persisting()).expect("loads");
    let app = axum::Router::new().nest_service(
        "/mcp",
        charon::mcp::http_service(
            charon::mcp::McpServer::new(Arc::new(kb)),
            charon::mcp::http_config(&charon::http::Guard::for_bind("127.0.0.1")),
        ),
    );
    let post = |body: Value, session: Option<&str>| {
        let mut req = Request::post("/mcp")
            .header(header::HOST, "127.0.0.1:3000")
            .header(header::CONTENT_TYPE, "application/json")
            .header(header::ACCEPT, "application/json, text/event-stream");
        if let Some(s) = session {
            req = req.header("mcp-session-id", s);
        }
        req.body(Body::from(body.to_string())).expect("request")
    };
    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                   "clientInfo": {"name": "test", "version": "1"}}});
    let response = app.clone().oneshot(post(init, None)).await.expect("init");
    let session = response
        .headers()
        .get("mcp-session-id")
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    let session = session.as_deref();
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    app.clone()
        .oneshot(post(initialized, session))
        .await
        .expect("initialized");
    let call = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "put_book", "arguments": book("over http", 1988)}});
    let response = app
        .clone()
        .oneshot(post(call, session))
        .await
        .expect("call");
    let body = axum::body::to_bytes(response.into_body(), 1 << 20)
        .await
        .expect("body");
    let body = String::from_utf8_lossy(&body);
    assert!(body.contains("\"isError\":false"), "{body}");
    assert!(
        journal(&path).contains("book('over http',"),
        "{}",
        journal(&path)
    );
}

/// A knowledge base in a fresh directory, from text.
fn kb_from(text: &str) -> (tempdir::Dir, PathBuf) {
    let dir = tempdir::Dir::new("persist");
    let path = dir.0.join("kb.pl");
    std::fs::write(&path, text).expect("write");
    (dir, path)
}

const NOTES: &str = ":- dynamic(note/2).\n\
    %! put_note(+Key:atom, +Text:string) is det.\n\
    put_note(K, T) :- retractall(note(K, _)), assertz(note(K, T)).\n\
    %! get_note(+Key:atom, -Text:string) is semidet.\n\
    get_note(K, T) :- note(K, T).\n";

#[test]
fn text_the_engine_writes_as_escapes_does_not_corrupt_the_file() {
    let (_dir, path) = kb_from(NOTES);
    let hostile = "a\u{1}b\u{85}c\u{2028}d'e\"f\\g\nh";
    {
        let kb = KnowledgeBase::load_with(&path, persisting()).expect("loads");
        kb.call("put_note", &json!({"Key": "x\u{1}", "Text": hostile}))
            .expect("put");
        kb.checkpoint().expect("checkpoint");
        for i in 0..3 {
            kb.call(
                "put_note",
                &json!({"Key": format!("k{i}"), "Text": "plain"}),
            )
            .expect("put");
            kb.checkpoint().expect("checkpoint");
        }
    }
    let text = std::fs::read_to_string(&path).expect("read");
    assert_eq!(text.matches(":- dynamic").count(), 1, "{text}");
    assert_eq!(text.matches("note(k0,").count(), 1, "{text}");
    let kb = KnowledgeBase::load_with(&path, config()).expect("loads");
    assert_eq!(
        kb.call("get_note", &json!({"Key": "x\u{1}"})).expect("get"),
        json!(hostile)
    );
    assert_eq!(kb.operations().len(), 2);
}

#[test]
fn a_declaration_whose_name_contains_another_is_not_its_place() {
    let (_dir, path) = kb_from(
        ":- dynamic(xa/1).\n:- dynamic(a/1).\n\
         %! put_a(+X:int) is det.\nput_a(X) :- assertz(a(X)).\n\
         %! put_xa(+X:int) is det.\nput_xa(X) :- assertz(xa(X)).\n\
         %! all_a(-X:int) is nondet.\nall_a(X) :- a(X).\n",
    );
    for round in 0..2 {
        let kb = KnowledgeBase::load_with(&path, persisting()).expect("loads");
        kb.call("put_a", &json!({"X": round})).expect("put");
        kb.call("put_xa", &json!({"X": 10 + round})).expect("put");
    }
    let kb = KnowledgeBase::load_with(&path, config()).expect("loads");
    assert_eq!(kb.call("all_a", &json!({})).expect("all"), json!([0, 1]));
}

#[test]
fn an_operator_declared_below_the_declaration_does_not_break_the_file() {
    let (_dir, path) = kb_from(
        ":- dynamic(rule/1).\n:- op(700, xfx, ===>).\n\
         %! put_rule(+A:atom, +B:atom) is det.\nput_rule(A, B) :- assertz(rule(A ===> B)).\n\
         %! rules(-A:atom, -B:atom) is nondet.\nrules(A, B) :- rule(A ===> B).\n",
    );
    {
        let kb = KnowledgeBase::load_with(&path, persisting()).expect("loads");
        kb.call("put_rule", &json!({"A": "a", "B": "===>"}))
            .expect("put");
    }
    let (code, _, stderr) = run_charon(&["check", path.to_str().expect("utf-8")]);
    assert_eq!(code, 0, "{stderr}");
    let kb = KnowledgeBase::load_with(&path, config()).expect("loads");
    assert_eq!(
        kb.call("rules", &json!({})).expect("rules"),
        json!([{"A": "a", "B": "===>"}])
    );
}

/// Terms scryer 0.10's writer gets wrong in one form or another (a prefix operator
/// before an opening parenthesis, a symbol atom before the full stop, `'$VAR'`
/// terms as data, operators as atoms, a predicate that is an operator, a
/// knowledge base's own operator), built by a write from hostile atoms: after a
/// compaction the file alone gives back every clause.
const SHAPES: &str = r#":- use_module(library(terms)).
:- dynamic(t/1).
:- dynamic((-)/2).
:- dynamic(r/1).
:- dynamic(u/4).
%! put(+A:atom) is det.
put(A) :-
    forall(shape(A, T), assertz(t(T))),
    atom_chars(A, Cs),
    assertz(u(A, -1, Cs, -2.5e-7)), assertz(u(A, 18446744073709551616, [], A)),
    assertz(A - (+)), assertz(A - (-)), assertz(A - A),
    assertz((r(X) :- X = '$VAR'(A))),
    assertz((r(X) :- X = '$VAR'(1), \+ X = -((A, A)))),
    assertz((r(X) :- X == (A ===> (-)))),
    assertz((r(X) :- X = "text", A = (-))).
shape(A, -(A)).
shape(A, -((A, A))).
shape(A, \+ (A ; A)).
shape(A, '$VAR'(A)).
shape(_, '$VAR'(1)).
shape(_, '$VAR'('Foo')).
shape(A, f((A :- A))).
shape(A, {A}).
shape(A, [A|A]).
shape(A, A-(-)).
shape(_, -(1)).
shape(_, -(-(1))).
shape(_, 1 - (-1)).
shape(_, -(1.5)).
shape(_, - (1.0e-300)).
shape(A, (A = (\+))).
shape(A, (A = (-))).
shape(_, - - a).
shape(A, (A ===> A)).
shape(_, (===>)).
shape(_, -(===>)).
shape(_, -(-)).
shape(_, [-]).
shape(A, (A :- A, A)).
shape(A, - {A}).
shape(A, - [A]).
shape(A, f(A, -)).
%! dump(-T:string) is nondet.
dump(S) :-
    (   clause(t(T), true), W = t(T)
    ;   clause(X - Y, true), W = (X - Y)
    ;   clause(r(X), B), W = (r(X) :- B)
    ;   clause(u(P, Q, R, T), true), W = u(P, Q, R, T)
    ),
    numbervars(W, 0, _),
    write_term_to_chars(W, [quoted(true), ignore_ops(true)], Cs),
    atom_chars(S, Cs).
"#;

#[test]
fn terms_the_writer_gets_wrong_come_back_from_the_compacted_file() {
    let op = ":- op(700, xfx, ===>).\n";
    // The operator in force where the clauses land, only below them, and only
    // there: taken away again at the end of the file.
    for text in [
        format!("{op}{SHAPES}"),
        SHAPES.replace("%! put(", &format!("{op}%! put(")),
        format!("{op}{SHAPES}:- op(0, xfx, ===>).\n"),
    ] {
        let (_dir, path) = kb_from(&text);
        let atoms = [
            "a",
            "-",
            "+",
            "===>",
            ",",
            "|",
            "[]",
            "{}",
            "'",
            "''",
            "\\",
            ":-",
            "\\+",
            "end_of_file",
            "$VAR",
            "A",
            "_",
            ".",
            "%",
            "/*",
            "x y",
            "- (",
            "0'",
        ];
        let before = {
            let kb = KnowledgeBase::load_with(&path, persisting()).expect("loads");
            for a in atoms {
                kb.call("put", &json!({ "A": a })).expect("put");
            }
            kb.checkpoint().expect("the compaction writes every clause");
            kb.call("dump", &json!({})).expect("dump")
        };
        assert!(journal(&path).lines().count() <= 1, "{}", journal(&path));
        let file = std::fs::read_to_string(&path).expect("read");
        let kb = KnowledgeBase::load_with(&path, config())
            .unwrap_or_else(|e| panic!("the compacted file loads: {e}\n{file}"));
        let after = kb.call("dump", &json!({})).expect("dump");
        let (b, a) = (
            before.as_array().expect("list"),
            after.as_array().expect("list"),
        );
        assert_eq!(b.len(), a.len(), "{file}");
        for (x, y) in b.iter().zip(a) {
            assert_eq!(x, y, "\n{file}");
        }
    }
}

/// The double_quotes flag is `codes` (or `atom`) where the clauses land and `chars`
/// when they are listed: `"…"` would read back as another term, so text is
/// written as a list of characters, which reads the same under any value.
#[test]
fn text_lands_right_where_the_file_sets_double_quotes() {
    let body = ":- dynamic(s/2).\n:- dynamic(r/2).\n\
        %! put_s(+K:atom, +T:string) is det.\n\
        put_s(K, T) :- assertz(s(K, T)), assertz((r(K, X) :- X = T, X \\== [])).\n\
        %! get_s(+K:atom, -T:string, -R:string) is semidet.\n\
        get_s(K, T, R) :- s(K, T), r(K, R).\n";
    // (The file ends with `chars` in force: calls' text is read under the flag
    // the file leaves, and a string argument must arrive as characters.)
    for (top, bottom) in [("codes", "chars"), ("atom", "chars")] {
        let (_dir, path) = kb_from(&format!(
            ":- set_prolog_flag(double_quotes, {top}).\n{body}\
             :- set_prolog_flag(double_quotes, {bottom}).\n"
        ));
        {
            let kb = KnowledgeBase::load_with(&path, persisting()).expect("loads");
            kb.call("put_s", &json!({"K": "k", "T": "a \"b\" c"}))
                .expect("put");
            kb.checkpoint().expect("compacted");
        }
        let file = std::fs::read_to_string(&path).expect("read");
        assert!(journal(&path).lines().count() <= 1, "{}", journal(&path));
        let kb = KnowledgeBase::load_with(&path, config()).expect("loads");
        assert_eq!(
            kb.call("get_s", &json!({"K": "k"})).expect("get"),
            json!({"T": "a \"b\" c", "R": "a \"b\" c"}),
            "{top}/{bottom}:\n{file}"
        );
    }
}

#[test]
fn a_private_file_stays_private_and_a_symbolic_link_is_followed() {
    use std::os::unix::fs::PermissionsExt;
    let (dir, path) = kb_from(NOTES);
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).expect("chmod");
    let link = dir.0.join("link.pl");
    std::os::unix::fs::symlink(&path, &link).expect("symlink");
    {
        let kb = KnowledgeBase::load_with(&link, persisting()).expect("loads");
        kb.call("put_note", &json!({"Key": "k", "Text": "secret"}))
            .expect("put");
        let journal = format!("{}.journal", path.display());
        let mode = std::fs::metadata(&journal)
            .expect("journal")
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600, "the journal beside the target");
    }
    assert!(
        std::fs::symlink_metadata(&link)
            .expect("link")
            .file_type()
            .is_symlink()
    );
    let mode = std::fs::metadata(&path)
        .expect("target")
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o600);
    assert!(
        std::fs::read_to_string(&path)
            .expect("read")
            .contains("secret")
    );
    // No temporary file is left beside it.
    let names: Vec<_> = std::fs::read_dir(&dir.0)
        .expect("dir")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    assert!(names.iter().all(|n| !n.ends_with(".tmp")), "{names:?}");
}

#[test]
fn an_edit_that_keeps_size_and_time_is_still_never_overwritten() {
    let (_dir, path) = kb_from(NOTES);
    let kb = KnowledgeBase::load_with(&path, persisting()).expect("loads");
    kb.call("put_note", &json!({"Key": "k", "Text": "mine"}))
        .expect("put");
    let original = std::fs::read_to_string(&path).expect("read");
    let modified = std::fs::metadata(&path)
        .expect("m")
        .modified()
        .expect("mtime");
    let edited = original.replacen("put_note", "put_NOTE", 1);
    assert_eq!(edited.len(), original.len());
    std::fs::write(&path, &edited).expect("edit");
    std::fs::File::options()
        .write(true)
        .open(&path)
        .and_then(|f| f.set_modified(modified))
        .expect("set mtime");
    let err = kb.checkpoint().expect_err("the edit is seen");
    assert!(err.to_string().contains("changed by someone else"), "{err}");
    drop(kb);
    assert_eq!(std::fs::read_to_string(&path).expect("read"), edited);
}

/// `persisting()` with time enough for a write to wait out a reload on a slow
/// machine.
fn patient() -> EngineConfig {
    let config = persisting();
    EngineConfig {
        limits: charon::Limits {
            time: std::time::Duration::from_secs(30),
            ..config.limits
        },
        ..config
    }
}

/// An operation added at the end of the library: an edit that leaves `book/4`
/// as it was.
const OLDEST: &str = "\n%! get_oldest(-Year:int) is semidet.\n%\n%  The year of the oldest book.\n%\n%  @arg Year The year.\nget_oldest(Year) :-\n    findall(Y, book(_, _, _, Y), Ys),\n    sort(Ys, [Year|_]).\n";

/// A reload in place: the writes the journal holds apply to an edit that leaves
/// `book/4` as it was, and a write that waited for the reload is told to come again.
#[test]
fn a_reload_applies_pending_writes_to_an_edit_that_leaves_them_alone() {
    let (_dir, path) = library();
    let original = std::fs::read_to_string(&path).expect("read");
    let old = Arc::new(KnowledgeBase::load_with(&path, patient()).expect("loads"));
    old.call("put_book", &book("mine", 1999)).expect("put");
    // Edited in an editor: the write is in the journal only.
    std::fs::write(&path, format!("{original}{OLDEST}")).expect("edit");

    let handover = old.hand_over().expect("hands over");
    // A write sent now waits for the reload (reads go on).
    let waiting = {
        let old = Arc::clone(&old);
        std::thread::spawn(move || old.call("put_book", &book("too late", 2020)))
    };
    std::thread::sleep(std::time::Duration::from_millis(300));
    assert!(!waiting.is_finished(), "the write did not wait");
    assert_eq!(
        old.call("get_book", &json!({"Id": "mine"}))
            .expect("a read")["Year"],
        json!(1999)
    );
    let new = KnowledgeBase::load_after(&path, persisting(), &handover).expect("merges");
    handover.complete();
    let told = waiting.join().expect("the writer").expect_err("refused");
    assert!(
        matches!(
            told,
            CallError::Engine {
                error: charon::EngineError::Reloaded,
                ..
            }
        ),
        "{told}"
    );
    // The old one refuses every write from now on; the new one has the edit and the
    // write, and takes writes.
    assert!(old.call("put_book", &book("later", 2021)).is_err());
    assert_eq!(
        new.call("get_oldest", &json!({})).expect("oldest"),
        json!(1968)
    );
    new.call("put_book", &book("too late", 2020))
        .expect("sent again");
    drop(new);
    drop(old);
    let text = std::fs::read_to_string(&path).expect("read");
    assert!(
        text.contains("get_oldest(Year) :-") && text.contains("book(mine,"),
        "{text}"
    );
    let again = KnowledgeBase::load_with(&path, persisting()).expect("restarts");
    assert_eq!(
        ids(&again),
        json!(["aop", "craft", "mine", "sicp", "taocp1", "too late"])
    );
}

/// An edit of what pending writes changed is refused, naming the predicate; the
/// old knowledge base keeps serving reads, and a later edit that leaves the
/// predicate alone takes the writes over.
#[test]
fn a_reload_refuses_an_edit_of_what_pending_writes_changed() {
    let (_dir, path) = library();
    let original = std::fs::read_to_string(&path).expect("read");
    let old = KnowledgeBase::load_with(&path, persisting()).expect("loads");
    old.call("put_book", &book("mine", 1999)).expect("put");
    let without_aop: String = original
        .lines()
        .filter(|l| !l.starts_with("book(aop,"))
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&path, &without_aop).expect("edit");

    let handover = old.hand_over().expect("hands over");
    let err = KnowledgeBase::load_after(&path, persisting(), &handover).expect_err("conflicts");
    let message = err.to_string();
    assert!(
        message.contains("book/4") && message.contains("1 acknowledged write"),
        "{message}"
    );
    drop(handover);
    // Still serving, from the database it had; writes refused, the edit kept.
    assert_eq!(
        old.call("get_book", &json!({"Id": "aop"})).expect("read")["Year"],
        json!(1986)
    );
    let refused = old
        .call("put_book", &book("later", 2002))
        .expect_err("refused");
    assert!(
        refused.to_string().contains("changed by someone else"),
        "{refused}"
    );
    assert_eq!(std::fs::read_to_string(&path).expect("read"), without_aop);

    // A directive can change how the unchanged clauses load: refused too.
    std::fs::write(&path, format!("{original}:- initialization(true).\n")).expect("edit");
    let handover = old.hand_over().expect("hands over again");
    let err = KnowledgeBase::load_after(&path, persisting(), &handover).expect_err("conflicts");
    assert!(err.to_string().contains("the directives"), "{err}");
    drop(handover);

    // The edit made again on the file as Charon wrote it, leaving book/4 alone.
    std::fs::write(&path, format!("{original}{OLDEST}")).expect("edit");
    let handover = old.hand_over().expect("hands over again");
    let new = KnowledgeBase::load_after(&path, persisting(), &handover).expect("merges");
    handover.complete();
    assert_eq!(
        new.call("get_oldest", &json!({})).expect("oldest"),
        json!(1968)
    );
    drop(new);
    let again = KnowledgeBase::load_with(&path, config()).expect("restarts");
    assert_eq!(
        ids(&again),
        json!(["aop", "craft", "mine", "sicp", "taocp1"])
    );
}

/// A reload that does not take place (the handover dropped, as when the new file
/// does not load): the old knowledge base takes its file back and the write that
/// waited is made.
#[test]
fn a_reload_given_up_lets_the_waiting_writes_through() {
    let (_dir, path) = library();
    let old = Arc::new(KnowledgeBase::load_with(&path, patient()).expect("loads"));
    old.call("put_book", &book("mine", 1999)).expect("put");
    let handover = old.hand_over().expect("hands over");
    // Nothing was edited: the journal was folded into the file.
    assert!(
        std::fs::read_to_string(&path)
            .expect("read")
            .contains("book(mine,")
    );
    let waiting = {
        let old = Arc::clone(&old);
        std::thread::spawn(move || old.call("put_book", &book("waited", 2020)))
    };
    std::thread::sleep(std::time::Duration::from_millis(300));
    assert!(!waiting.is_finished(), "the write did not wait");
    drop(handover);
    waiting.join().expect("the writer").expect("made");
    old.call("delete_book", &json!({"Id": "aop"}))
        .expect("writes go on");
    drop(old);
    let again = KnowledgeBase::load_with(&path, config()).expect("restarts");
    assert_eq!(
        ids(&again),
        json!(["craft", "mine", "sicp", "taocp1", "waited"])
    );
}

/// Folds run beside the writes once the journal outgrows the file (1 MiB here):
/// writes made while one lists the state stay in the journal, and after kill -9
/// every acknowledged write is there, in the file or the journal.
#[test]
fn a_fold_beside_the_writes_loses_none_of_them() {
    let (_dir, path) = library();
    let server = HttpServer::start(&path, &["--persist", "--workers", "2"]);
    let port = server.port;
    // Records of about 2 KB: the journal passes 1 MiB after some 500 writes.
    let long = "x".repeat(2000);
    let acknowledged: Vec<String> = std::thread::scope(|s| {
        let writers: Vec<_> = (0..4)
            .map(|t| {
                let long = long.clone();
                s.spawn(move || {
                    (0..200)
                        .map(|i| {
                            let id = format!("f{t}_{i}");
                            let body = json!({"Id": id, "Title": long, "Author": "A", "Year": i})
                                .to_string();
                            let (status, answer) =
                                http(port, "PUT", "/put_book", Some(&body)).expect("answer");
                            assert_eq!(status, 200, "{answer}");
                            id
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        writers
            .into_iter()
            .flat_map(|w| w.join().expect("a writer"))
            .collect()
    });
    // Folds ran: the file holds most of the writes, and the journal is no larger
    // than the threshold (the file's size, at least 1 MiB).
    let len = |p: &std::path::Path| std::fs::metadata(p).expect("exists").len();
    let journal = std::path::PathBuf::from(format!("{}.journal", path.display()));
    let until = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while len(&journal) > len(&path).max(1 << 20) && std::time::Instant::now() < until {
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    assert!(
        len(&journal) <= len(&path).max(1 << 20),
        "no fold: a journal of {} bytes",
        len(&journal)
    );
    let folded = std::fs::read_to_string(&path)
        .expect("read")
        .matches("book(f")
        .count();
    assert!(folded >= 400, "only {folded} writes folded into the file");
    server.kill(); // SIGKILL
    let kb = KnowledgeBase::load_with(&path, persisting()).expect("loads");
    let ids = ids(&kb);
    for id in &acknowledged {
        assert!(
            ids.as_array().expect("ids").contains(&json!(id)),
            "{id} was acknowledged but is gone"
        );
    }
    assert_eq!(
        kb.call("count_books", &json!({})).expect("count"),
        json!(804)
    );
}

/// kill -9 while a fold of the journal into the file is due or running (at 20,000
/// books it takes a good part of a second), at a later point of it in each round:
/// the restart loads, and every acknowledged write is there. Between rounds the
/// server restarts on what the kill left, so recovery after a fold cut short is
/// itself cut short in the next round.
#[test]
fn kill_9_during_a_fold_loses_no_acknowledged_write() {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::time::{Duration, Instant};
    let (_dir, path) = library();
    let mut text = std::fs::read_to_string(&path).expect("read");
    let at = text.find("book(sicp,").expect("the first book");
    let books: String = (0..20_000)
        .map(|i| {
            format!(
                "book(n{i}, \"Title {i}\", \"Author {i}\", {}).\n",
                1900 + i % 120
            )
        })
        .collect();
    text.insert_str(at, &books);
    std::fs::write(&path, text).expect("write");
    let long = "y".repeat(2000);
    let mut acknowledged: Vec<String> = Vec::new();
    for round in 0..4u64 {
        let server = HttpServer::start(&path, &["--persist", "--workers", "2"]);
        let port = server.port;
        let stop = AtomicBool::new(false);
        let made: Vec<String> = std::thread::scope(|s| {
            let writers: Vec<_> = (0..2)
                .map(|t| {
                    let (long, stop) = (&long, &stop);
                    s.spawn(move || {
                        let mut made = Vec::new();
                        for i in 0.. {
                            if stop.load(Ordering::Relaxed) {
                                break;
                            }
                            let id = format!("r{round}_{t}_{i}");
                            let body = json!({"Id": id, "Title": long, "Author": "A", "Year": i})
                                .to_string();
                            match http(port, "PUT", "/put_book", Some(&body)) {
                                Some((200, _)) => made.push(id),
                                _ => break, // killed
                            }
                        }
                        made
                    })
                })
                .collect();
            // Until a fold is due or running, then a little further into it.
            let started = Instant::now();
            loop {
                let health = http(port, "GET", "/health", None).map(|(_, b)| b);
                let folding = health
                    .and_then(|b| serde_json::from_str::<Value>(&b).ok())
                    .is_some_and(|h| h["persist"]["folding"] == json!(true));
                if folding {
                    break;
                }
                assert!(
                    started.elapsed() < Duration::from_secs(120),
                    "round {round}: no fold"
                );
                std::thread::sleep(Duration::from_millis(5));
            }
            std::thread::sleep(Duration::from_millis(round * 120));
            server.kill();
            stop.store(true, Ordering::Relaxed);
            writers
                .into_iter()
                .flat_map(|w| w.join().expect("a writer"))
                .collect()
        });
        assert!(!made.is_empty(), "round {round}: no write went through");
        acknowledged.extend(made);
        let kb = KnowledgeBase::load_with(&path, persisting()).expect("loads after the kill");
        let ids = ids(&kb);
        let ids = ids.as_array().expect("ids");
        for id in &acknowledged {
            assert!(
                ids.contains(&json!(id)),
                "round {round}: {id} was acknowledged but is gone"
            );
        }
        // One write in flight per writer may have been made without its answer.
        let extra = ids.len() as i64 - 20_004 - acknowledged.len() as i64;
        assert!(
            (0..=2 * (round as i64 + 1)).contains(&extra),
            "round {round}: {extra} writes more than were acknowledged"
        );
    }
}
