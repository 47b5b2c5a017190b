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
