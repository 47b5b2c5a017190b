//! Replicas when PostgreSQL stalls rather than refuses, against the real server
//! `scripts/postgres.sh` starts: a COMMIT whose answer is lost (a proxy that
//! passes the COMMIT on and drops what comes back), a server stopped with SIGSTOP
//! in the middle of the writes, and a record that does not apply, which must stop
//! the replica at once.

use std::io::{Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::replicas::{POSTGRES, pg, pg_url, shared, table};
use crate::util::{HttpServer, fixture, http, request};

/// PostgreSQL's simple-query message `COMMIT` as the driver sends it.
const COMMIT: &[u8] = b"Q\0\0\0\x0bCOMMIT\0";

/// A TCP proxy in front of the test's PostgreSQL. Armed, it passes the next
/// `COMMIT` on to the server, then cuts that connection without relaying the
/// answer (the commit happens; the client never learns it); holding, it keeps the
/// next `COMMIT` from the server and the connection open (PostgreSQL frozen between
/// a write's INSERT and its COMMIT); with `refuse`, it closes every new connection
/// at once (PostgreSQL out of reach for a lookup); `sever` cuts every connection
/// open through it (PostgreSQL restarted, as a client sees it).
struct Proxy {
    port: u16,
    armed: Arc<AtomicBool>,
    hold: Arc<AtomicBool>,
    refuse: Arc<AtomicBool>,
    /// Set once a COMMIT was cut.
    cut: Arc<AtomicBool>,
    /// The client side of every connection relayed so far.
    live: Arc<std::sync::Mutex<Vec<TcpStream>>>,
}

impl Proxy {
    fn start(upstream: u16) -> Proxy {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        let port = listener.local_addr().expect("addr").port();
        let armed = Arc::new(AtomicBool::new(false));
        let hold = Arc::new(AtomicBool::new(false));
        let refuse = Arc::new(AtomicBool::new(false));
        let cut = Arc::new(AtomicBool::new(false));
        let live = Arc::new(std::sync::Mutex::new(Vec::new()));
        let (a, h, r, c) = (armed.clone(), hold.clone(), refuse.clone(), cut.clone());
        let l = live.clone();
        std::thread::spawn(move || {
            for client in listener.incoming().flatten() {
                if r.load(Ordering::SeqCst) {
                    drop(client);
                    continue;
                }
                let Ok(server) = TcpStream::connect(("127.0.0.1", upstream)) else {
                    continue;
                };
                if let Ok(copy) = client.try_clone() {
                    l.lock().unwrap_or_else(|p| p.into_inner()).push(copy);
                }
                relay(client, server, [a.clone(), h.clone()], c.clone());
            }
        });
        Proxy {
            port,
            armed,
            hold,
            refuse,
            cut,
            live,
        }
    }

    /// Cuts every connection relayed so far (the relays then close their server
    /// side, and PostgreSQL ends those sessions).
    fn sever(&self) {
        for stream in self
            .live
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .drain(..)
        {
            let _ = stream.shutdown(Shutdown::Both);
        }
    }

    /// The test's connection string, through the proxy.
    fn url(&self) -> String {
        let url = pg_url();
        let upstream = pg_port();
        url.replace(&format!(":{upstream}/"), &format!(":{}/", self.port))
    }
}

/// Relays one connection both ways; the client-to-server side cuts an armed
/// COMMIT, or holds one (see [`Proxy`]).
fn relay(
    client: TcpStream,
    server: TcpStream,
    [armed, hold]: [Arc<AtomicBool>; 2],
    cut: Arc<AtomicBool>,
) {
    let dropped = Arc::new(AtomicBool::new(false));
    let (mut c_in, mut s_out) = (
        client.try_clone().expect("clone"),
        server.try_clone().expect("clone"),
    );
    let d = dropped.clone();
    std::thread::spawn(move || {
        let mut buf = vec![0u8; 64 << 10];
        loop {
            let n = match c_in.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => n,
            };
            let chunk = &buf[..n];
            let commit = chunk.windows(COMMIT.len()).any(|w| w == COMMIT);
            if commit && hold.swap(false, Ordering::SeqCst) {
                // The server never hears of it, and the connection stays open (the
                // streams held) until the test is long over.
                cut.store(true, Ordering::SeqCst);
                std::thread::sleep(Duration::from_secs(120));
                break;
            }
            if commit && armed.swap(false, Ordering::SeqCst) {
                // Nothing the server answers from now on reaches the client.
                d.store(true, Ordering::SeqCst);
                cut.store(true, Ordering::SeqCst);
                let _ = s_out.write_all(chunk);
                std::thread::sleep(Duration::from_millis(300));
                let _ = c_in.shutdown(Shutdown::Both);
                let _ = s_out.shutdown(Shutdown::Both);
                break;
            }
            if s_out.write_all(chunk).is_err() {
                break;
            }
        }
        let _ = s_out.shutdown(Shutdown::Write);
    });
    let (mut s_in, mut c_out) = (server, client);
    std::thread::spawn(move || {
        let mut buf = vec![0u8; 64 << 10];
        loop {
            let n = match s_in.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => n,
            };
            if dropped.load(Ordering::SeqCst) || c_out.write_all(&buf[..n]).is_err() {
                break;
            }
        }
        let _ = c_out.shutdown(Shutdown::Both);
    });
}

/// The port of the test's PostgreSQL.
fn pg_port() -> u16 {
    let url = pg_url();
    let after = url.rsplit_once(':').expect("a port in the URL").1;
    after
        .split('/')
        .next()
        .and_then(|p| p.parse().ok())
        .expect("a port in the URL")
}

fn bump(port: u16) -> crate::util::Reply {
    request(
        port,
        "POST",
        "/bump",
        &[("content-type", "application/json")],
        "{}",
    )
}

fn count(port: u16) -> Value {
    let (status, body) = http(port, "POST", "/count", Some("{}")).expect("a read");
    assert_eq!(status, 200, "{body}");
    serde_json::from_str(&body).expect("json")
}

/// Waits until the replica on `port` counts `n`.
fn counts(port: u16, n: u64) {
    let started = Instant::now();
    loop {
        let now = count(port);
        if now == json!(n) {
            return;
        }
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "count {now}, {n} expected"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

fn serve(url: &str, table: &str, extra: &[&str]) -> HttpServer {
    let kb = fixture("replica/ledger.pl");
    let mut args = vec![
        kb.to_str().expect("utf-8"),
        "--replicate",
        "--replicate-url",
        url,
        "--replicate-table",
        table,
        "--workers",
        "2",
    ];
    args.extend_from_slice(extra);
    HttpServer::with_args(&args)
}

/// A write whose COMMIT reached PostgreSQL and whose answer was lost: when
/// PostgreSQL can be asked, the write is answered as made (200); when it cannot,
/// the answer is 502 `write-outcome-unknown` with the transaction id and the
/// record that settle it (never 503 "not made"), and the write, which was made,
/// reaches the replica through the log without a restart.
#[test]
fn a_commit_whose_answer_is_lost_is_made_or_unknown_never_not_made() {
    let _shared = shared();
    let proxy = Proxy::start(pg_port());
    let table = table("lostcommit");
    let server = serve(&proxy.url(), &table, &[]);
    assert_eq!(bump(server.port).status, 200);

    // PostgreSQL answers the lookup: the write was made, and is answered so.
    proxy.armed.store(true, Ordering::SeqCst);
    let reply = bump(server.port);
    assert!(
        proxy.cut.swap(false, Ordering::SeqCst),
        "the COMMIT was cut"
    );
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert_eq!(reply.body.trim(), "2");

    // PostgreSQL cannot be asked: unknown, with what settles it. (A write first,
    // so that the writer's connection, cut above, is open again through the proxy
    // before it refuses new ones.)
    assert_eq!(bump(server.port).body.trim(), "3");
    proxy.armed.store(true, Ordering::SeqCst);
    proxy.refuse.store(true, Ordering::SeqCst);
    let reply = bump(server.port);
    assert!(proxy.cut.load(Ordering::SeqCst), "the COMMIT was cut");
    proxy.refuse.store(false, Ordering::SeqCst);
    assert_eq!(reply.status, 502, "{}", reply.body);
    assert_eq!(reply.header("retry-after"), None, "not to be sent again");
    let problem = problem_of(&reply, "write-outcome-unknown");
    assert_eq!(problem["record"], json!(4), "{problem}");
    let xid = problem["transaction"].as_str().expect("a transaction id");
    let detail = problem["detail"].as_str().expect("detail");
    assert!(
        detail.contains(&format!("txid_status({xid})")) && detail.contains("number 4"),
        "{detail}"
    );
    // It was made: PostgreSQL says so, the log holds it, and the replica that
    // wrote it applies it from the log.
    let mut client = pg();
    let status: Option<String> = client
        .query_one("SELECT txid_status($1::text::bigint)", &[&xid])
        .expect("txid_status")
        .get(0);
    assert_eq!(status.as_deref(), Some("committed"));
    let rows = client
        .query(&format!("SELECT seq FROM {table} WHERE seq = 4"), &[])
        .expect("the log");
    assert_eq!(rows.len(), 1, "record 4 is in the log");
    counts(server.port, 4);
    // Writes go on, numbered after it.
    let reply = bump(server.port);
    assert_eq!(
        (reply.status, reply.body.trim()),
        (200, "5"),
        "{}",
        reply.body
    );
}

/// Every PostgreSQL process stopped (SIGSTOP) and continued on drop.
struct Frozen(Vec<i32>);

impl Frozen {
    fn all() -> Frozen {
        let dir = std::env::var("CHARON_TEST_POSTGRES_DIR").expect("CHARON_TEST_POSTGRES_DIR");
        let pid_file = std::path::Path::new(&dir).join("data/postmaster.pid");
        let text = std::fs::read_to_string(&pid_file).expect("postmaster.pid");
        let postmaster: i32 = text
            .lines()
            .next()
            .and_then(|l| l.trim().parse().ok())
            .expect("a pid");
        // The postmaster first: stopped, it forks no new backend. Then its children
        // (the backends and helpers), looked for again until a look finds no new
        // one: a backend forked just before the postmaster stopped is stopped too.
        // SAFETY: a plain kill(2) of processes of the test's own cluster.
        unsafe { libc::kill(postmaster, libc::SIGSTOP) };
        let mut pids = vec![postmaster];
        loop {
            let new: Vec<i32> = children(postmaster)
                .into_iter()
                .filter(|pid| !pids.contains(pid))
                .collect();
            if new.is_empty() {
                break;
            }
            for &pid in &new {
                // SAFETY: as above.
                unsafe { libc::kill(pid, libc::SIGSTOP) };
            }
            pids.extend(new);
        }
        Frozen(pids)
    }
}

/// The processes whose parent is `parent` (from /proc).
fn children(parent: i32) -> Vec<i32> {
    let mut pids = Vec::new();
    for entry in std::fs::read_dir("/proc").expect("/proc").flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<i32>() else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        // pid (comm) state ppid ...
        let ppid = stat
            .rsplit_once(')')
            .and_then(|(_, rest)| rest.split_whitespace().nth(1))
            .and_then(|p| p.parse::<i32>().ok());
        if ppid == Some(parent) {
            pids.push(pid);
        }
    }
    pids
}

impl Drop for Frozen {
    fn drop(&mut self) {
        for &pid in &self.0 {
            // SAFETY: as above.
            unsafe { libc::kill(pid, libc::SIGCONT) };
        }
    }
}

/// PostgreSQL stopped with SIGSTOP mid-run (its kernel still accepts and
/// acknowledges, nothing answers): a write fails within the replica's bound
/// (`--replicate-answer-within-ms`), far inside the call's time limit, with 503
/// saying PostgreSQL did not answer; the next one too (its new connection is
/// bounded as well); reads go on. Continued, writes go through again with no
/// restart, and no acknowledged write is lost.
#[test]
fn a_stopped_postgres_fails_writes_within_the_bound_and_writes_resume() {
    let _alone = POSTGRES.write().unwrap_or_else(|p| p.into_inner());
    let table = table("sigstop");
    let server = serve(
        &pg_url(),
        &table,
        &[
            "--timeout-ms",
            "60000",
            "--replicate-answer-within-ms",
            "1500",
        ],
    );
    for _ in 0..3 {
        assert_eq!(bump(server.port).status, 200);
    }
    let frozen = Frozen::all();
    for attempt in 0..2 {
        let started = Instant::now();
        let reply = bump(server.port);
        let took = started.elapsed();
        assert_eq!(reply.status, 503, "attempt {attempt}: {}", reply.body);
        assert!(reply.body.contains("replica-unavailable"), "{}", reply.body);
        assert!(reply.body.contains("did not answer"), "{}", reply.body);
        assert!(
            took < Duration::from_secs(10),
            "attempt {attempt} took {took:?} (the call's limit is 60 s)"
        );
    }
    assert_eq!(count(server.port), json!(3), "reads go on");
    drop(frozen);
    let started = Instant::now();
    loop {
        let reply = bump(server.port);
        if reply.status == 200 {
            assert_eq!(reply.body.trim(), "4", "no write made twice or lost");
            break;
        }
        assert_eq!(reply.status, 503, "{}", reply.body);
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "{}",
            reply.body
        );
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// A record that does not apply here stops the replica as soon as the replica
/// reads it, before any call: `/health/ready` fails, and calls are refused at once
/// with 503 `replica-stopped`, saying why.
#[test]
fn a_record_that_does_not_apply_stops_the_replica_before_any_call() {
    let _shared = shared();
    let table = table("noapply_now");
    let server = serve(&pg_url(), &table, &["--timeout-ms", "30000"]);
    assert_eq!(bump(server.port).status, 200);
    pg().execute(
        &format!("INSERT INTO {table} (seq, changes) VALUES (2, $1)"),
        &[&"[retract(:(user,counter(999)))]"],
    )
    .expect("tampered");
    let ready = unready_within(server.port, Duration::from_secs(10));
    assert!(ready.contains("did not apply"), "{ready}");
    let started = Instant::now();
    let reply = request(
        server.port,
        "POST",
        "/count",
        &[("content-type", "application/json")],
        "{}",
    );
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "refused at once"
    );
    assert_eq!(reply.status, 503, "{}", reply.body);
    let problem = problem_of(&reply, "replica-stopped");
    assert!(
        problem["detail"]
            .as_str()
            .is_some_and(|d| d.contains("did not apply")),
        "{problem}"
    );
    let (_, health) = http(server.port, "GET", "/health", None).expect("health");
    let health: Value = serde_json::from_str(&health).expect("json");
    assert!(
        health["replica"]["diverged"]
            .as_str()
            .is_some_and(|d| d.contains("did not apply")),
        "{health}"
    );
}

/// A gap in the log (a record missing before one the replica has not applied)
/// stops the replica, and the first write that meets it (in its own transaction,
/// before the follower's next look) is answered as every call after it: 503
/// `replica-stopped` saying why, never `replica-unavailable`, which tells a client
/// to send the write again.
#[test]
fn a_gap_met_by_a_write_stops_the_replica_at_that_write() {
    let _shared = shared();
    let table = table("gap_write");
    let server = serve(&pg_url(), &table, &["--timeout-ms", "30000"]);
    assert_eq!(bump(server.port).status, 200);
    // The follower has read record 1 (the write's own notification woke it) and
    // waits again. Record 3 without record 2, and no notification: the follower
    // sees it at its next look (every half second); the write right after the
    // insert reads it first (or, rarely, after the follower: the same answer).
    std::thread::sleep(Duration::from_secs(1));
    pg().execute(
        &format!("INSERT INTO {table} (seq, changes) VALUES (3, $1)"),
        &[&"[]"],
    )
    .expect("a gap");
    for call in ["/bump", "/count"] {
        let reply = request(
            server.port,
            "POST",
            call,
            &[("content-type", "application/json")],
            "{}",
        );
        assert_eq!(reply.status, 503, "{call}: {}", reply.body);
        let problem = problem_of(&reply, "replica-stopped");
        assert!(
            problem["detail"]
                .as_str()
                .is_some_and(|d| d.contains("lost records")),
            "{call}: {problem}"
        );
    }
}

/// A replica that wrote, and then stopped serving (a gap in the log), stops
/// cleanly on SIGTERM: it exits 0, and nothing panics on the way out. (Its follower
/// gone, the server's runtime drops the knowledge base last, with the connection
/// to the log: the synchronous client, which cannot block on that runtime, is
/// closed on a thread of its own.)
#[test]
fn a_replica_that_wrote_and_stopped_serving_stops_cleanly() {
    let _shared = shared();
    let table = table("clean_stop");
    let kb = fixture("replica/ledger.pl");
    let port = crate::util::free_port();
    let url = pg_url();
    let mut child = std::process::Command::new(crate::util::charon_bin())
        .arg("http")
        .args(["--port", &port.to_string(), "--log", "warn"])
        .arg(&kb)
        .args(["--replicate", "--replicate-url", &url])
        .args(["--replicate-table", &table, "--workers", "2"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("charon http starts");
    let started = Instant::now();
    while http(port, "GET", "/health", None).is_none_or(|(s, _)| s != 200) {
        assert!(started.elapsed() < Duration::from_secs(30), "not up");
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(bump(port).status, 200);
    std::thread::sleep(Duration::from_secs(1));
    pg().execute(
        &format!("INSERT INTO {table} (seq, changes) VALUES (3, $1)"),
        &[&"[]"],
    )
    .expect("a gap");
    assert_eq!(bump(port).status, 503);
    // SAFETY: signalling the process this test started.
    assert_eq!(unsafe { libc::kill(child.id() as i32, libc::SIGTERM) }, 0);
    let output = {
        let stderr = child.stderr.take().expect("stderr");
        let reading = std::thread::spawn(move || {
            let mut text = String::new();
            let _ = std::io::BufReader::new(stderr).read_to_string(&mut text);
            text
        });
        let status = child.wait().expect("waited");
        (status, reading.join().expect("stderr read"))
    };
    let (status, stderr) = output;
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(status.code(), Some(0), "{status:?}: {stderr}");
}

/// PostgreSQL frozen between a write's INSERT and its COMMIT (the COMMIT never
/// reaches it, the connection stays open): the write is answered within the
/// replica's bound as of unknown outcome (502, the transaction and the record that
/// settle it), never as "not made"; PostgreSQL then aborts the transaction that
/// waits (its idle limit is the call's time left), so the write was not made, the
/// record is not in the log, and the next write takes its number.
#[test]
fn a_freeze_between_insert_and_commit_is_unknown_then_settled() {
    let _shared = shared();
    let proxy = Proxy::start(pg_port());
    let table = table("frozen_commit");
    let server = serve(
        &proxy.url(),
        &table,
        &[
            "--timeout-ms",
            "4000",
            "--replicate-answer-within-ms",
            "1000",
        ],
    );
    assert_eq!(bump(server.port).body.trim(), "1");
    proxy.hold.store(true, Ordering::SeqCst);
    let started = Instant::now();
    let reply = bump(server.port);
    assert!(proxy.cut.load(Ordering::SeqCst), "the COMMIT was held");
    assert!(
        started.elapsed() < Duration::from_secs(4),
        "answered within the bound: {:?}",
        started.elapsed()
    );
    assert_eq!(reply.status, 502, "{}", reply.body);
    let problem = problem_of(&reply, "write-outcome-unknown");
    assert_eq!(problem["record"], json!(2), "{problem}");
    let xid = problem["transaction"]
        .as_str()
        .expect("a transaction id")
        .to_string();
    // PostgreSQL settles it: aborted once the open transaction's idle limit passes.
    let mut client = pg();
    let started = Instant::now();
    loop {
        let status: Option<String> = client
            .query_one("SELECT txid_status($1::text::bigint)", &[&xid])
            .expect("txid_status")
            .get(0);
        if status.as_deref() == Some("aborted") {
            break;
        }
        assert_eq!(status.as_deref(), Some("in progress"));
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "still {status:?}"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
    let rows = client
        .query(&format!("SELECT seq FROM {table} WHERE seq = 2"), &[])
        .expect("the log");
    assert!(rows.is_empty(), "record 2 is not in the log");
    assert_eq!(count(server.port), json!(1), "not made");
    // Writes go on: the next one is record 2.
    let started = Instant::now();
    loop {
        let reply = bump(server.port);
        if reply.status == 200 {
            assert_eq!(reply.body.trim(), "2", "{}", reply.body);
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "{}: {}",
            reply.status,
            reply.body
        );
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// The problem details of `reply`, which must be of type `kind`.
fn problem_of(reply: &crate::util::Reply, kind: &str) -> Value {
    let problem: Value = serde_json::from_str(&reply.body).expect("json");
    assert_eq!(
        problem["type"],
        json!(format!("urn:charon:problem:{kind}")),
        "{problem}"
    );
    problem
}

/// The replica's state at `GET /health` (`replica`).
fn replica_health(port: u16) -> Value {
    let (status, body) = http(port, "GET", "/health", None).expect("health");
    assert_eq!(status, 200, "{body}");
    serde_json::from_str::<Value>(&body).expect("json")["replica"].clone()
}

/// Waits until `/health` shows the replica's writes paused (or not: `paused`).
fn writes_paused(port: u16, paused: bool, within: Duration) -> Value {
    let started = Instant::now();
    loop {
        let replica = replica_health(port);
        if replica["writes_paused"].is_string() == paused {
            return replica;
        }
        assert!(
            started.elapsed() < within,
            "writes_paused {paused} expected within {within:?}: {replica}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Just after PostgreSQL comes back, the log may look shorter than what a replica
/// applied (a commit already reported committed, not yet visible; here the last
/// record is taken out of the log while the connections are cut, then put back).
/// The replica keeps serving reads, refuses writes for the while with 503 saying
/// why and to send them again (a write then would number its record past the
/// log's end), shows it at `/health`, and catches up without a restart once the
/// log holds the record again; only a log that stays short for 10 s stops it,
/// with `replica-stopped` saying the log lost records.
#[test]
fn a_log_that_looks_short_after_a_reconnection_pauses_writes_until_it_is_whole() {
    let _shared = shared();
    let proxy = Proxy::start(pg_port());
    let table = table("shortlog");
    let server = serve(&proxy.url(), &table, &["--timeout-ms", "30000"]);
    for n in 1..=3 {
        assert_eq!(bump(server.port).body.trim(), n.to_string());
    }
    let mut client = pg();
    let take_out = |client: &mut postgres::Client, seq: i64| {
        client
            .batch_execute(&format!(
                "DROP TABLE IF EXISTS held; \
                 CREATE TEMP TABLE held AS SELECT * FROM {table} WHERE seq = {seq}; \
                 DELETE FROM {table} WHERE seq = {seq}"
            ))
            .expect("record taken out");
    };
    let put_back = |client: &mut postgres::Client| {
        client
            .batch_execute(&format!("INSERT INTO {table} SELECT * FROM held"))
            .expect("record put back");
    };

    // Short for a few seconds: writes wait, reads go on, no restart needed.
    take_out(&mut client, 3);
    proxy.sever();
    let replica = writes_paused(server.port, true, Duration::from_secs(10));
    let why = replica["writes_paused"].as_str().expect("why");
    assert!(
        why.contains("the log holds 2 records, and this replica applied 3"),
        "{replica}"
    );
    assert_eq!(replica["diverged"], Value::Null, "{replica}");
    assert_eq!(count(server.port), json!(3));
    let reply = bump(server.port);
    assert_eq!(reply.status, 503, "{}", reply.body);
    assert!(reply.header("retry-after").is_some(), "to be sent again");
    let problem = problem_of(&reply, "replica-unavailable");
    assert!(
        problem["detail"]
            .as_str()
            .is_some_and(|d| d.contains("applied 3") && d.contains("not made")),
        "{problem}"
    );
    put_back(&mut client);
    writes_paused(server.port, false, Duration::from_secs(10));
    assert_eq!(bump(server.port).body.trim(), "4");
    assert_eq!(count(server.port), json!(4));
    let (status, _) = http(server.port, "GET", "/health/ready", None).expect("ready");
    assert_eq!(status, 200);

    // Short for good: the replica stops, saying so, once the grace is over.
    take_out(&mut client, 4);
    proxy.sever();
    writes_paused(server.port, true, Duration::from_secs(10));
    let ready = unready_within(server.port, Duration::from_secs(25));
    assert!(ready.contains("the log lost records"), "{ready}");
    let replica = replica_health(server.port);
    assert!(replica["diverged"].is_string(), "{replica}");
    assert_eq!(
        replica["writes_paused"],
        Value::Null,
        "stopped, not paused: {replica}"
    );
    let reply = bump(server.port);
    assert_eq!(reply.status, 503, "{}", reply.body);
    assert_eq!(reply.header("retry-after"), None, "not to be sent again");
    problem_of(&reply, "replica-stopped");
}

/// Waits until `/health/ready` on `port` fails, and returns its body.
fn unready_within(port: u16, within: Duration) -> String {
    let started = Instant::now();
    loop {
        let (status, body) = http(port, "GET", "/health/ready", None).expect("ready");
        if status != 200 {
            return body;
        }
        assert!(
            started.elapsed() < within,
            "still ready after {:?}",
            started.elapsed()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}
