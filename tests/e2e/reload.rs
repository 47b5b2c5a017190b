//! Hot reload of `charon http` (`--watch`, SIGHUP): a good edit swaps the routes
//! and the document, a broken one leaves the old knowledge base serving with the
//! error on `/health`, and calls across a reload are answered by one knowledge base
//! or the other, never with an error. (MCP's `tools/list_changed`, seen by the
//! official Python SDK: tests/mcp/check_reload.py.)

use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::util::{HttpServer, TempDir, request};

/// A POST of `{}`-style arguments to `/op`: the status and the JSON body.
fn call(port: u16, op: &str, body: &str) -> (u16, Value) {
    let host = format!("127.0.0.1:{port}");
    let reply = request(
        port,
        "POST",
        &format!("/{op}"),
        &[("Host", &host), ("Content-Type", "application/json")],
        body,
    );
    let value = charon::json::from_str(&reply.body).unwrap_or(Value::Null);
    (reply.status, value)
}

fn get(port: u16, path: &str) -> Value {
    let host = format!("127.0.0.1:{port}");
    let reply = request(port, "GET", path, &[("Host", &host)], "");
    charon::json::from_str(&reply.body).expect("JSON")
}

/// Waits (up to 20 s) until `done` holds.
fn eventually(what: &str, mut done: impl FnMut() -> bool) {
    let until = Instant::now() + Duration::from_secs(20);
    while Instant::now() < until {
        if done() {
            return;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    panic!("{what} did not happen within 20 s");
}

/// Writes `text` to `path` in one step (a rename), as editors that save safely do.
fn save(path: &Path, text: &str) {
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, text).expect("writes");
    std::fs::rename(&tmp, path).expect("renames");
}

fn hangup(server: &HttpServer) {
    let status = std::process::Command::new("kill")
        .args(["-HUP", &server.child.id().to_string()])
        .status()
        .expect("kill");
    assert!(status.success());
}

const V1: &str = "%! a(-X:int) is det.\na(1).\n%! gone(-X:int) is det.\ngone(1).\n";
const V2: &str =
    "%! a(-X:int) is det.\na(2).\n%! fresh(+N:int, -X:int) is det.\nfresh(N, X) :- X is N * 10.\n";

#[test]
fn a_watched_edit_swaps_the_routes_and_a_broken_one_keeps_the_old_serving() {
    let dir = TempDir::new("reload");
    let kb = dir.0.join("kb.pl");
    save(&kb, V1);
    let server = HttpServer::start(&kb, &["--watch"]);
    let port = server.port;
    assert_eq!(call(port, "a", "{}"), (200, json!(1)));
    assert_eq!(
        get(port, "/health")["reload"],
        json!({"status": "ok", "reloads": 0})
    );

    save(&kb, V2);
    eventually("the new operation", || {
        call(port, "fresh", r#"{"N": 4}"#) == (200, json!(40))
    });
    assert_eq!(call(port, "a", "{}"), (200, json!(2)));
    assert_eq!(call(port, "gone", "{}").0, 404);
    let doc = get(port, "/openapi.json");
    assert!(doc["paths"].get("/fresh").is_some() && doc["paths"].get("/gone").is_none());
    assert_eq!(
        get(port, "/health")["reload"],
        json!({"status": "ok", "reloads": 1})
    );

    // A clause the engine cannot read: the old knowledge base keeps serving, and
    // /health says why.
    save(&kb, &format!("{V2}broken(1\n"));
    eventually("the failed reload on /health", || {
        get(port, "/health")["reload"]["status"] == "failed"
    });
    let health = get(port, "/health");
    let error = health["reload"]["error"].as_str().unwrap_or_default();
    assert!(error.contains("kb.pl:5"), "{health}");
    assert_eq!(call(port, "fresh", r#"{"N": 1}"#), (200, json!(10)));
    // A mode line that is wrong would take the operation away: refused too.
    save(&kb, &V2.replace("(+N:int", "(+N:nosuchtype"));
    eventually("the second failed reload", || {
        get(port, "/health")["reload"]["error"]
            .as_str()
            .is_some_and(|e| e.contains("fresh/2 is not exposed"))
    });
    assert_eq!(call(port, "fresh", r#"{"N": 2}"#), (200, json!(20)));
    // Fixed: served again.
    save(&kb, V1);
    eventually("the fixed file served", || {
        call(port, "gone", "{}") == (200, json!(1))
    });
    assert_eq!(
        get(port, "/health")["reload"],
        json!({"status": "ok", "reloads": 2})
    );
}

#[test]
fn sighup_reloads_without_watch() {
    let dir = TempDir::new("reload");
    let kb = dir.0.join("kb.pl");
    save(&kb, V1);
    let server = HttpServer::start(&kb, &[]);
    let port = server.port;
    save(&kb, V2);
    std::thread::sleep(Duration::from_millis(800));
    // Not watched: nothing changes until the signal.
    assert_eq!(call(port, "a", "{}"), (200, json!(1)));
    hangup(&server);
    eventually("the reload on SIGHUP", || {
        call(port, "a", "{}") == (200, json!(2))
    });
    assert_eq!(call(port, "fresh", r#"{"N": 2}"#), (200, json!(20)));
}

#[test]
fn two_hundred_calls_across_a_reload_are_all_answered_by_one_generation_or_the_other() {
    let dir = TempDir::new("reload");
    let kb = dir.0.join("kb.pl");
    // Each call takes a few milliseconds, so that many are in flight at the swap.
    let version = |n: u32| {
        format!(
            "%! which(+K:int, -V:int) is det.\nwhich(K, {n}) :- numlist(1, 20000, L), sum_list(L, S), S > K.\n"
        )
    };
    save(&kb, &version(1));
    let server = HttpServer::start(&kb, &["--workers", "2"]);
    let port = server.port;
    let answered = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let threads: Vec<_> = (0..20)
        .map(|t| {
            let answered = answered.clone();
            std::thread::spawn(move || {
                (0..10)
                    .map(|i| {
                        // Different arguments: no answer comes from the cache.
                        let got = call(port, "which", &format!(r#"{{"K": {}}}"#, t * 10 + i));
                        answered.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        got
                    })
                    .collect::<Vec<_>>()
            })
        })
        .collect();
    eventually("the first calls", || {
        answered.load(std::sync::atomic::Ordering::Relaxed) >= 40
    });
    save(&kb, &version(2));
    hangup(&server);
    let results: Vec<(u16, Value)> = threads
        .into_iter()
        .flat_map(|t| t.join().expect("a caller"))
        .collect();
    assert_eq!(results.len(), 200);
    let bad: Vec<_> = results
        .iter()
        .filter(|(status, v)| *status != 200 || (*v != json!(1) && *v != json!(2)))
        .collect();
    assert!(bad.is_empty(), "answers of neither generation: {bad:?}");
    eventually("the new generation", || {
        call(port, "which", r#"{"K": -1}"#) == (200, json!(2))
    });
    let old = results.iter().filter(|(_, v)| *v == json!(1)).count();
    eprintln!(
        "{old} calls answered by the old knowledge base, {} by the new",
        200 - old
    );
}

/// A persisted library in a fresh directory, and the server following it.
fn persisted_library(args: &[&str]) -> (TempDir, std::path::PathBuf, HttpServer) {
    let dir = TempDir::new("reload");
    let kb = dir.0.join("library.pl");
    std::fs::copy(crate::util::example("library.pl"), &kb).expect("copy");
    let mut all = vec!["--persist"];
    all.extend_from_slice(args);
    let server = HttpServer::start(&kb, &all);
    (dir, kb, server)
}

/// `PUT /put_book` of a book with id `id`.
fn put_book(port: u16, id: &str) -> crate::util::Reply {
    let host = format!("127.0.0.1:{port}");
    let body = json!({"Id": id, "Title": "T", "Author": "A", "Year": 2000}).to_string();
    request(
        port,
        "PUT",
        "/put_book",
        &[("Host", &host), ("Content-Type", "application/json")],
        &body,
    )
}

/// The sorted ids of the served library.
fn book_ids(port: u16) -> Value {
    get(port, "/get_books")
}

const OLDEST: &str = "\n%! get_oldest(-Year:int) is semidet.\n%\n%  The year of the oldest book.\n%\n%  @arg Year The year.\nget_oldest(Year) :-\n    findall(Y, book(_, _, _, Y), Ys),\n    sort(Ys, [Year|_]).\n";

/// With `--persist`, the file is the truth after an edit: a watched edit that
/// leaves the written predicates alone takes the pending writes over (and the
/// server's own folds into the file do not count as edits); an edit of what they
/// changed keeps the old knowledge base serving, its writes refused, with the
/// reason on `/health`, until the file is put right.
#[test]
fn a_watched_edit_with_persist_keeps_every_acknowledged_write() {
    let (_dir, kb, server) = persisted_library(&["--watch"]);
    let port = server.port;
    let original = std::fs::read_to_string(&kb).expect("read");
    assert_eq!(put_book(port, "mine").status, 200);

    save(&kb, &format!("{original}{OLDEST}"));
    eventually("the new operation", || {
        crate::util::http(port, "GET", "/get_oldest", None).is_some_and(|(s, _)| s == 200)
    });
    assert_eq!(
        book_ids(port),
        json!(["aop", "craft", "mine", "sicp", "taocp1"])
    );
    // The new knowledge base folded the write into the file: its own change, not
    // an edit to reload for.
    assert!(
        std::fs::read_to_string(&kb)
            .expect("read")
            .contains("book(mine,")
    );
    std::thread::sleep(Duration::from_millis(1500));
    assert_eq!(
        get(port, "/health")["reload"],
        json!({"status": "ok", "reloads": 1})
    );

    // A write in the journal only, then an edit of book/4 itself.
    assert_eq!(put_book(port, "second").status, 200);
    let as_written = std::fs::read_to_string(&kb).expect("read");
    let without_aop: String = as_written
        .lines()
        .filter(|l| !l.starts_with("book(aop,"))
        .map(|l| format!("{l}\n"))
        .collect();
    save(&kb, &without_aop);
    eventually("the refused reload on /health", || {
        get(port, "/health")["reload"]["status"] == "failed"
    });
    let health = get(port, "/health");
    let error = health["reload"]["error"].as_str().unwrap_or_default();
    assert!(error.contains("book/4"), "{health}");
    // Reads served from the database it had; writes refused; the edit kept.
    assert_eq!(
        book_ids(port),
        json!(["aop", "craft", "mine", "second", "sicp", "taocp1"])
    );
    let refused = put_book(port, "third");
    assert_ne!(refused.status, 200, "{}", refused.body);
    assert!(
        refused.problem().1.contains("changed by someone else"),
        "{}",
        refused.body
    );
    assert_eq!(std::fs::read_to_string(&kb).expect("read"), without_aop);

    // Put right: the edit made again on the file as Charon wrote it, leaving book/4.
    save(&kb, &format!("{as_written}% checked\n"));
    eventually("the put-right file served", || {
        get(port, "/health")["reload"]["status"] == "ok"
    });
    assert_eq!(put_book(port, "third").status, 200);
    assert_eq!(
        book_ids(port),
        json!(["aop", "craft", "mine", "second", "sicp", "taocp1", "third"])
    );
    server.kill(); // SIGKILL
    let again = HttpServer::start(&kb, &["--persist"]);
    assert_eq!(
        book_ids(again.port),
        json!(["aop", "craft", "mine", "second", "sicp", "taocp1", "third"])
    );
}

/// Writes across reloads of a persisted knowledge base: each is acknowledged, or
/// refused with 503 `reloaded` and `Retry-After` (never made) and made when sent
/// again; every acknowledged one is there after the reloads and after kill -9.
#[test]
fn writes_across_reloads_with_persist_are_acknowledged_or_told_to_come_again() {
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    let (_dir, kb, server) = persisted_library(&["--workers", "2"]);
    let port = server.port;
    let sent = std::sync::Arc::new(AtomicUsize::new(0));
    let stop = std::sync::Arc::new(AtomicBool::new(false));
    let writers: Vec<_> = (0..4)
        .map(|t| {
            let (sent, stop) = (sent.clone(), stop.clone());
            std::thread::spawn(move || {
                let (mut acknowledged, mut told_again) = (Vec::new(), 0);
                for i in 0.. {
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let id = format!("w{t}_{i}");
                    loop {
                        let reply = put_book(port, &id);
                        if reply.status == 200 {
                            break;
                        }
                        assert_eq!(reply.status, 503, "{}", reply.body);
                        assert!(reply.problem().0.ends_with("reloaded"), "{}", reply.body);
                        assert_eq!(reply.header("retry-after"), Some("1"));
                        told_again += 1;
                    }
                    acknowledged.push(id);
                    sent.fetch_add(1, Ordering::Relaxed);
                }
                (acknowledged, told_again)
            })
        })
        .collect();
    for reloads in 1..=3 {
        let before = sent.load(Ordering::Relaxed);
        eventually("more writes", || {
            sent.load(Ordering::Relaxed) >= before + 20
        });
        hangup(&server);
        eventually("the reload", || {
            get(port, "/health")["reload"]["reloads"] == json!(reloads)
        });
    }
    let before = sent.load(Ordering::Relaxed);
    eventually("writes after the reloads", || {
        sent.load(Ordering::Relaxed) >= before + 20
    });
    stop.store(true, Ordering::Relaxed);
    let mut expected: Vec<String> = ["aop", "craft", "sicp", "taocp1"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let mut told_again = 0;
    for writer in writers {
        let (acknowledged, told) = writer.join().expect("a writer");
        expected.extend(acknowledged);
        told_again += told;
    }
    eprintln!(
        "{} writes acknowledged, {told_again} told to come again",
        expected.len() - 4
    );
    expected.sort();
    assert_eq!(book_ids(port), json!(expected));
    server.kill(); // SIGKILL
    let again = HttpServer::start(&kb, &["--persist"]);
    assert_eq!(book_ids(again.port), json!(expected));
}
