//! Replicas sharing one writable knowledge base through a real PostgreSQL (started
//! by `scripts/postgres.sh`, which `scripts/test.sh` runs first): convergence of
//! random concurrent writes spread over three replicas, no lost update, one order
//! for writes of the same key, a replica that joins late or after kill -9,
//! PostgreSQL stopped and started under writes, and what replicated mode refuses.

use std::time::{Duration, Instant};

use charon::{EngineConfig, KnowledgeBase, ReplicaConfig};
use serde_json::{Value, json};

use crate::util::{HttpServer, TempDir, config, fixture, http, request};

/// The throwaway PostgreSQL's URL. Never skipped: without it the test fails,
/// saying how to start one.
pub(crate) fn pg_url() -> String {
    std::env::var("CHARON_TEST_POSTGRES_URL").unwrap_or_else(|_| {
        panic!(
            "the replica tests need PostgreSQL: run scripts/test.sh, which starts one, or \
             `eval \"$(scripts/postgres.sh start)\"` before cargo test"
        )
    })
}

/// A log table of this test's own.
pub(crate) fn table(label: &str) -> String {
    use std::sync::atomic::{AtomicU64, Ordering};
    static N: AtomicU64 = AtomicU64::new(0);
    format!(
        "t_{label}_{}_{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    )
}

/// Tests share one PostgreSQL; the fault test stops it, so it runs alone.
pub(crate) static POSTGRES: std::sync::RwLock<()> = std::sync::RwLock::new(());

pub(crate) fn shared() -> std::sync::RwLockReadGuard<'static, ()> {
    POSTGRES.read().unwrap_or_else(|p| p.into_inner())
}

fn replicated(table: &str) -> EngineConfig {
    EngineConfig {
        workers: 2,
        answer_cache: 8 << 20,
        recycle_after: 50,
        replica: Some(ReplicaConfig::new(pg_url()).with_table(table)),
        ..config()
    }
}

use crate::persist_props::{Rng, hostile_text};

/// Waits until every replica has applied `head` records.
fn converge(replicas: &[&KnowledgeBase], head: u64) {
    let deadline = Instant::now() + Duration::from_secs(20);
    while replicas.iter().any(|r| r.generation() < head) {
        assert!(
            Instant::now() < deadline,
            "replicas did not catch up with record {head}: {:?}",
            replicas.iter().map(|r| r.generation()).collect::<Vec<_>>()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn state(kb: &KnowledgeBase) -> Value {
    kb.call("state", &json!({})).expect("state")
}

const VALUES: &[&str] = &["plain", "it's", "a \"b\"", "x\ny", "\u{2028}", "ünï", ""];

/// Three replicas, 4 threads each, seeded random writes and reads spread over
/// them: every replica ends with the same database, equal to that of a replica that
/// joins afterwards and replays the whole log, and every acknowledged write is in
/// it; the counter counts every acknowledged bump (no lost update).
#[test]
fn three_replicas_converge_on_every_acknowledged_write() {
    let _shared = shared();
    let table = table("converge");
    let path = fixture("replica/ledger.pl");
    let replicas: Vec<KnowledgeBase> = (0..3)
        .map(|_| KnowledgeBase::load_with(&path, replicated(&table)).expect("joins"))
        .collect();
    let acknowledged = std::sync::Mutex::new(Vec::new());
    let bumps = std::sync::atomic::AtomicU64::new(0);
    std::thread::scope(|s| {
        for t in 0..12u64 {
            let (replicas, acknowledged, bumps) = (&replicas, &acknowledged, &bumps);
            s.spawn(move || {
                let mut rng = Rng(0x9e37_79b9 + t);
                for i in 0..25 {
                    let kb = &replicas[(rng.next() % 3) as usize];
                    match rng.next() % 4 {
                        0 => {
                            kb.call("bump", &json!({})).expect("bump");
                            bumps.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        }
                        1 => {
                            // Keys of this thread's own: nobody else changes them.
                            let key = format!("k{t}_{}", rng.next() % 3);
                            let value = format!("{} t{t} {i}", VALUES[(rng.next() % 7) as usize]);
                            kb.call("put", &json!({"Key": key, "Value": value}))
                                .expect("put");
                            // Read-your-writes on the replica that wrote.
                            let seen = kb.call("get", &json!({"Key": key})).expect("get");
                            assert_eq!(seen, json!(value), "{key} read back");
                            acknowledged
                                .lock()
                                .expect("not poisoned")
                                .push((key, value));
                        }
                        2 => {
                            let key = format!("k{t}_{}", rng.next() % 3);
                            kb.call("drop", &json!({"Key": key})).expect("drop");
                        }
                        _ => {
                            kb.call("count", &json!({})).expect("count");
                        }
                    }
                }
            });
        }
    });
    let head = replicas
        .iter()
        .map(KnowledgeBase::generation)
        .max()
        .expect("three");
    let refs: Vec<&KnowledgeBase> = replicas.iter().collect();
    converge(&refs, head);
    let first = state(&replicas[0]);
    for r in &replicas[1..] {
        assert_eq!(state(r), first, "two replicas differ");
    }
    let late = KnowledgeBase::load_with(&path, replicated(&table)).expect("joins late");
    assert_eq!(
        late.generation(),
        head,
        "a late replica applies the whole log"
    );
    assert_eq!(
        state(&late),
        first,
        "the log replayed gives the same database"
    );
    let facts: Vec<String> = first
        .as_array()
        .expect("a list")
        .iter()
        .map(|f| f.as_str().expect("text").to_string())
        .collect();
    let n = bumps.load(std::sync::atomic::Ordering::Relaxed);
    assert!(
        facts.contains(&format!("counter({n})")),
        "{n} bumps: {facts:?}"
    );
    // Every acknowledged put is in the history of values, under its key: each
    // value ends with its writer and step, which no other put has.
    for (key, value) in acknowledged.into_inner().expect("not poisoned") {
        let tail = value.rsplit(' ').take(2).collect::<Vec<_>>();
        let mark = format!("{} {}\")", tail[1], tail[0]);
        assert!(
            facts
                .iter()
                .any(|f| f.starts_with(&format!("seen({key},")) && f.ends_with(&mark)),
            "{key} = {value:?} is missing"
        );
    }
    // Exported, the shared database is a .pl that loads to the same state alone.
    let dir = TempDir::new("replica-export");
    let out = dir.0.join("now.pl");
    assert_eq!(replicas[1].export(&out).expect("exported"), None);
    let alone = KnowledgeBase::load_with(&out, config()).expect("the export loads");
    assert_eq!(
        state(&alone),
        first,
        "{}",
        std::fs::read_to_string(&out).expect("read")
    );
    for r in &replicas {
        let status = r.replica_status().expect("replicated");
        assert_eq!((status.applied, status.head), (head, head));
        assert!(status.connected && status.diverged.is_none(), "{status:?}");
    }
}

/// Two replicas put the same key at once, many times: the log gives one order,
/// both apply it, and both end with the value of the last write in it.
#[test]
fn two_replicas_writing_one_key_at_once_agree_on_one_order() {
    let _shared = shared();
    let table = table("samekey");
    let path = fixture("replica/ledger.pl");
    let a = KnowledgeBase::load_with(&path, replicated(&table)).expect("joins");
    let b = KnowledgeBase::load_with(&path, replicated(&table)).expect("joins");
    std::thread::scope(|s| {
        for (name, kb) in [("a", &a), ("b", &b)] {
            s.spawn(move || {
                for i in 0..40 {
                    kb.call(
                        "put",
                        &json!({"Key": "same", "Value": format!("{name}{i}")}),
                    )
                    .expect("put");
                }
            });
        }
    });
    let head = a.generation().max(b.generation());
    assert_eq!(head, 80, "every put is one record");
    converge(&[&a, &b], head);
    assert_eq!(state(&a), state(&b));
    let facts = state(&a);
    let seen: Vec<&str> = facts
        .as_array()
        .expect("list")
        .iter()
        .filter_map(|f| f.as_str().filter(|f| f.starts_with("seen(")))
        .collect();
    assert_eq!(seen.len(), 80, "both writers' puts, each once");
    let last = seen
        .last()
        .expect("one")
        .replace("seen(same,", "entry(same,");
    assert!(
        facts
            .as_array()
            .expect("list")
            .iter()
            .any(|f| f == &json!(last)),
        "the value is that of the last put in the log's order: {last}"
    );
}

/// What replicated mode refuses at start, with the reason: a knowledge base whose
/// writes no change record carries, a file other than the one the log began on,
/// and `--persist` beside replication.
#[test]
fn replicated_mode_refuses_what_replicas_could_not_share() {
    let _shared = shared();
    let table = table("refuse");
    let err = KnowledgeBase::load_with(fixture("replica/dumped.pl"), replicated(&table))
        .expect_err("refused")
        .to_string();
    assert!(
        err.contains("cannot replicate") && err.contains("set_mode"),
        "{err}"
    );

    let dir = TempDir::new("replica");
    let path = dir.0.join("ledger.pl");
    std::fs::copy(fixture("replica/ledger.pl"), &path).expect("copy");
    let first = KnowledgeBase::load_with(&path, replicated(&table)).expect("joins");
    first.call("bump", &json!({})).expect("bump");
    std::fs::write(
        &path,
        std::fs::read_to_string(&path)
            .expect("read")
            .replace("counter(0).", "counter(7)."),
    )
    .expect("edit");
    let err = KnowledgeBase::load_with(&path, replicated(&table))
        .expect_err("another file")
        .to_string();
    assert!(err.contains("was started on another file"), "{err}");

    // PostgreSQL folds unquoted names to lower case (the LISTEN channel too).
    let err = KnowledgeBase::load_with(&path, replicated("Upper_log"))
        .expect_err("refused")
        .to_string();
    assert!(err.contains("lower-case"), "{err}");
    // charon export reads a log that exists; it never starts one.
    let missing = EngineConfig {
        replica: Some(
            ReplicaConfig::new(pg_url())
                .with_table(table.replace("refuse", "never"))
                .existing(),
        ),
        ..config()
    };
    let err = KnowledgeBase::load_with(&path, missing)
        .expect_err("no log")
        .to_string();
    assert!(err.contains("there is no log"), "{err}");

    let both = EngineConfig {
        persist: true,
        ..replicated(&table)
    };
    let err = KnowledgeBase::load_with(&path, both)
        .expect_err("refused")
        .to_string();
    assert!(err.contains("--persist and replication"), "{err}");
}

/// A connection of the test's own, to look at the log and to tamper with it.
pub(crate) fn pg() -> postgres::Client {
    postgres::Client::connect(&pg_url(), postgres::NoTls).expect("connects")
}

/// Snapshots keep the log bounded: with a small threshold, many writes on two
/// replicas leave one snapshot and a gapless run of the records after the one
/// before it; a replica that joins afterwards finds the first records gone, loads
/// the snapshot and the records after it, and has the same database (no
/// acknowledged bump lost).
#[test]
fn snapshots_keep_the_log_bounded_and_rebuild_a_joining_replica() {
    let _shared = shared();
    let table = table("snap");
    let path = fixture("replica/ledger.pl");
    let compact_after = 1500;
    let config = || {
        let mut config = replicated(&table);
        config.replica = config.replica.map(|r| r.with_compact_after(compact_after));
        config
    };
    let replicas: Vec<KnowledgeBase> = (0..2)
        .map(|_| KnowledgeBase::load_with(&path, config()).expect("joins"))
        .collect();
    let bumps = std::sync::atomic::AtomicU64::new(0);
    std::thread::scope(|s| {
        for t in 0..4u64 {
            let (replicas, bumps) = (&replicas, &bumps);
            s.spawn(move || {
                let mut rng = Rng(0x5eed_0000 + t);
                for i in 0..100 {
                    let kb = &replicas[(rng.next() % 2) as usize];
                    if rng.next().is_multiple_of(5) {
                        let key = format!("k{}", rng.next() % 4);
                        // Generated hostile text: it must come back identical from
                        // the snapshot on the replica that joins later.
                        let value = format!("{} t{t} {i}", hostile_text(&mut rng));
                        kb.call("put", &json!({"Key": key, "Value": value}))
                            .expect("put");
                    } else {
                        kb.call("bump", &json!({})).expect("bump");
                        bumps.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    }
                }
            });
        }
    });
    let head = replicas
        .iter()
        .map(KnowledgeBase::generation)
        .max()
        .expect("two");
    assert_eq!(head, 400, "every write is one record");
    converge(&[&replicas[0], &replicas[1]], head);
    // The snapshot the last writes made due is taken beside them: wait for it.
    let mut client = pg();
    let deadline = Instant::now() + Duration::from_secs(30);
    let (snapshot, parts, first, last, count, since, snapshot_bytes) = loop {
        let row = client
            .query_one(
                &format!(
                    "SELECT (SELECT coalesce(max(seq), 0) FROM {table}_snapshot), \
                            (SELECT count(DISTINCT seq) FROM {table}_snapshot), \
                            (SELECT min(seq) FROM {table}), (SELECT max(seq) FROM {table}), \
                            (SELECT count(*) FROM {table}), \
                            (SELECT coalesce(sum(octet_length(changes)), 0) FROM {table} \
                             WHERE seq > (SELECT coalesce(max(seq), 0) FROM {table}_snapshot))::bigint, \
                            (SELECT coalesce(sum(octet_length(changes)), 0) FROM {table}_snapshot)::bigint"
                ),
                &[],
            )
            .expect("the log reads");
        let got: (i64, i64, i64, i64, i64, i64, i64) = (
            row.get(0),
            row.get(1),
            row.get(2),
            row.get(3),
            row.get(4),
            row.get(5),
            row.get(6),
        );
        // Due once the records after the snapshot outgrow the threshold and
        // twice the snapshot.
        if got.5 <= (compact_after as i64).max(2 * got.6) || Instant::now() > deadline {
            break got;
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    assert_eq!(parts, 1, "one snapshot is kept");
    assert!(snapshot > 0, "no snapshot was taken");
    assert_eq!(last, head as i64, "the newest record is kept");
    assert_eq!(count, last - first + 1, "the records kept have no gap");
    assert!(
        first > 1 && first <= snapshot + 1,
        "records up to the snapshot before the last are deleted: {first}..{last}, snapshot {snapshot}"
    );
    assert!(
        since <= (compact_after as i64).max(2 * snapshot_bytes),
        "{since} bytes of records after the snapshot at {snapshot} ({snapshot_bytes} bytes)"
    );
    let first_state = state(&replicas[0]);
    assert_eq!(state(&replicas[1]), first_state, "two replicas differ");
    let n = bumps.load(std::sync::atomic::Ordering::Relaxed);
    assert!(
        first_state
            .as_array()
            .expect("a list")
            .contains(&json!(format!("counter({n})"))),
        "{n} bumps: {first_state}"
    );
    // Record 1 is gone: a new replica must start from the snapshot.
    let late = KnowledgeBase::load_with(&path, config()).expect("joins late");
    assert_eq!(late.generation(), head);
    let status = late.replica_status().expect("replicated");
    assert_eq!(status.snapshot, snapshot as u64, "{status:?}");
    assert_eq!(
        state(&late),
        first_state,
        "the snapshot and the records after it"
    );
    // And it goes on as any replica: its writes reach the others.
    late.call("bump", &json!({})).expect("bump");
    converge(&[&replicas[0], &replicas[1]], head + 1);
    assert_eq!(state(&replicas[0]), state(&late));
}

/// A replica never serves a state that is not the log's: a record that does not
/// apply here (one a replica would have made differently), or a gap in the
/// records, stops it — every call is refused with the reason, and /health says
/// so.
#[test]
fn a_replica_stops_on_a_record_that_does_not_apply_or_a_gap() {
    let _shared = shared();
    let path = fixture("replica/ledger.pl");
    let mut client = pg();
    for (label, record, why) in [
        (
            "noapply",
            "[retract(:(user,counter(999)))]",
            "did not apply",
        ),
        ("gap", "[assertz(:(user,counter(5)))]", "lost records"),
    ] {
        let table = table(label);
        let kb = KnowledgeBase::load_with(&path, replicated(&table)).expect("joins");
        kb.call("bump", &json!({})).expect("bump");
        let seq: i64 = if label == "gap" { 4 } else { 2 };
        client
            .execute(
                &format!("INSERT INTO {table} (seq, changes) VALUES ($1, $2)"),
                &[&seq, &record],
            )
            .expect("tampered");
        // The follower polls; the record is applied at the next call.
        let deadline = Instant::now() + Duration::from_secs(10);
        let err = loop {
            match kb.call("count", &json!({})) {
                Err(e) => break e.to_string(),
                Ok(_) => {
                    assert!(Instant::now() < deadline, "{label}: still serving");
                    std::thread::sleep(Duration::from_millis(50));
                }
            }
        };
        assert!(err.contains(why), "{label}: {err}");
        let status = kb.replica_status().expect("replicated");
        assert!(
            status.diverged.as_deref().is_some_and(|d| d.contains(why)),
            "{label}: {status:?}"
        );
        let again = kb
            .call("count", &json!({}))
            .expect_err("stopped")
            .to_string();
        assert!(again.contains("stopped serving"), "{label}: {again}");
        let write = kb
            .call("bump", &json!({}))
            .expect_err("stopped")
            .to_string();
        assert!(write.contains("stopped serving"), "{label}: {write}");
    }
}

/// Workers that must load the file again (the template is gone) never load
/// another file than the one the log began on: while it is edited, calls are
/// refused with the reason; once it is put back, they are served again, with the
/// log's state.
#[test]
fn a_replica_never_loads_an_edited_file_again() {
    use crate::template::{idle_workers, kill, parent_of};
    let _shared = shared();
    let table = table("edited");
    let dir = TempDir::new("replica-edited");
    let path = dir.0.join("ledger.pl");
    std::fs::copy(fixture("replica/ledger.pl"), &path).expect("copy");
    let kb = KnowledgeBase::load_with(&path, replicated(&table)).expect("joins");
    kb.call("bump", &json!({})).expect("bump");
    let original = std::fs::read_to_string(&path).expect("read");
    std::fs::write(&path, original.replace("counter(0).", "counter(100).")).expect("edit");
    let pids = idle_workers(&kb, 2);
    kill(parent_of(pids[0]));
    for pid in pids {
        kill(pid);
    }
    let deadline = Instant::now() + Duration::from_secs(20);
    let err = loop {
        match kb.call("count", &json!({})) {
            Err(e) if e.to_string().contains("changed since") => break e.to_string(),
            // A killed worker, found out by the call that meets it.
            Err(e) => assert!(Instant::now() < deadline, "no refusal: {e}"),
            Ok(n) => panic!("answered {n} with every worker gone"),
        }
    };
    assert!(err.contains("put it back"), "{err}");
    std::fs::write(&path, &original).expect("put back");
    // Workers are started again with back-off: the next one comes within seconds.
    let deadline = Instant::now() + Duration::from_secs(30);
    let count = loop {
        match kb.call("count", &json!({})) {
            Ok(n) => break n,
            Err(e) => assert!(Instant::now() < deadline, "not served again: {e}"),
        }
    };
    assert_eq!(count, json!(1), "the log's state");
    assert_eq!(kb.call("bump", &json!({})).expect("bump"), json!(2));
}

/// `/health` of a replica matches the server's own OpenAPI document.
fn health_as_documented(port: u16, health: &Value) {
    let (_, doc) = http(port, "GET", "/openapi.json", None).expect("the document");
    let doc: Value = serde_json::from_str(&doc).expect("json");
    let schema = &doc["paths"]["/health"]["get"]["responses"]["200"]["content"]["application/json"]
        ["schema"];
    let validator = jsonschema::draft202012::new(schema).expect("a valid schema");
    let errors: Vec<String> = validator
        .iter_errors(health)
        .map(|e| e.to_string())
        .collect();
    assert!(errors.is_empty(), "{health} against {schema}: {errors:?}");
    assert!(health["replica"].is_object(), "{health}");
}

fn pg_ctl(action: &str) {
    let dir = std::env::var("CHARON_TEST_POSTGRES_DIR").expect("CHARON_TEST_POSTGRES_DIR");
    let status = std::process::Command::new(crate::util::root().join("scripts/postgres.sh"))
        .args([action, &dir])
        .status()
        .expect("scripts/postgres.sh runs");
    assert!(status.success(), "postgres.sh {action}");
}

/// Replicas served over HTTP: PostgreSQL stopped in the middle of the writes
/// (writes answer 503 with Retry-After, reads keep being served, /health shows
/// the lost contact), started again (writes go through, without a restart of any
/// replica); one replica killed with SIGKILL and started again (it rejoins and
/// converges). No acknowledged write is lost.
#[test]
fn replicas_survive_postgres_stopping_and_a_replica_killed() {
    let _alone = POSTGRES.write().unwrap_or_else(|p| p.into_inner());
    let table = table("faults");
    let kb = fixture("replica/ledger.pl");
    let kb = kb.to_str().expect("utf-8");
    let url = pg_url();
    let args = |t: &str| {
        vec![
            kb.to_string(),
            "--replicate".into(),
            "--replicate-url".into(),
            url.clone(),
            "--replicate-table".into(),
            t.to_string(),
            "--workers".into(),
            "2".into(),
            "--metrics".into(),
        ]
    };
    let start = |t: &str| {
        let a = args(t);
        let refs: Vec<&str> = a.iter().map(String::as_str).collect();
        HttpServer::with_args(&refs)
    };
    let mut servers = vec![start(&table), start(&table)];
    let bump = |port: u16| {
        request(
            port,
            "POST",
            "/bump",
            &[("content-type", "application/json")],
            "{}",
        )
    };
    let mut acknowledged = 0;
    for i in 0..20 {
        let reply = bump(servers[i % 2].port);
        assert_eq!(reply.status, 200, "{}", reply.body);
        acknowledged += 1;
    }
    pg_ctl("halt");
    let reply = bump(servers[0].port);
    assert_eq!(reply.status, 503, "{}", reply.body);
    assert_eq!(reply.header("retry-after"), Some("1"));
    assert!(reply.body.contains("replica-unavailable"), "{}", reply.body);
    let (status, body) = http(servers[1].port, "POST", "/count", Some("{}")).expect("a read");
    assert_eq!(
        (status, body.contains(&acknowledged.to_string())),
        (200, true),
        "{body}"
    );
    let started = Instant::now();
    loop {
        let (_, health) = http(servers[1].port, "GET", "/health", None).expect("health");
        let health: Value = serde_json::from_str(&health).expect("json");
        if health["replica"]["connected"] == json!(false) {
            health_as_documented(servers[1].port, &health);
            break;
        }
        assert!(started.elapsed() < Duration::from_secs(10), "{health}");
        std::thread::sleep(Duration::from_millis(100));
    }
    let metrics = request(servers[1].port, "GET", "/metrics", &[], "");
    assert!(
        metrics.body.contains("charon_replica_connected 0")
            && metrics.body.contains("charon_replica_lag_seconds"),
        "{}",
        metrics.body
    );
    pg_ctl("restart");
    let started = Instant::now();
    loop {
        let reply = bump(servers[1].port);
        if reply.status == 200 {
            acknowledged += 1;
            break;
        }
        assert_eq!(reply.status, 503, "{}", reply.body);
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "{}",
            reply.body
        );
        std::thread::sleep(Duration::from_millis(200));
    }
    // SIGKILL one replica during writes on the other, then start it again.
    let victim = servers.remove(0);
    let writer = servers[0].port;
    std::thread::scope(|s| {
        let writes = s.spawn(|| {
            let mut n = 0;
            for _ in 0..30 {
                if bump(writer).status == 200 {
                    n += 1;
                }
            }
            n
        });
        std::thread::sleep(Duration::from_millis(100));
        let mut victim = victim;
        let _ = victim.child.kill();
        let _ = victim.child.wait();
        acknowledged += writes.join().expect("writer");
    });
    let rejoined = start(&table);
    let expected = format!("{acknowledged}");
    for port in [writer, rejoined.port] {
        let started = Instant::now();
        loop {
            let (status, body) = http(port, "POST", "/count", Some("{}")).expect("count");
            assert_eq!(status, 200, "{body}");
            if body.contains(&expected) {
                break;
            }
            assert!(
                started.elapsed() < Duration::from_secs(20),
                "{port}: {body}, {expected} expected"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }
    servers.push(rejoined);
    // charon export: the count every replica agrees on, in a file of its own.
    let dir = TempDir::new("replica-export");
    let out = dir.0.join("now.pl");
    let out_arg = out.to_str().expect("utf-8");
    let (code, _, stderr) = crate::util::run_charon(&[
        "export",
        kb,
        "--output",
        out_arg,
        "--replicate-url",
        &url,
        "--replicate-table",
        &table,
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        !stderr.contains(&url),
        "the connection string is never shown"
    );
    let text = std::fs::read_to_string(&out).expect("exported");
    assert!(
        text.contains(&format!("counter({acknowledged}).")),
        "{text}"
    );
}

/// Replicas started at the same moment on a log that does not exist yet: each one
/// creates it if missing, and every one of them starts (creating the tables is
/// serialised by the log's lock; racing in the catalog killed one of three).
#[test]
fn replicas_starting_at_once_on_a_new_log_all_start() {
    let _shared = shared();
    let path = fixture("replica/ledger.pl");
    for round in 0..3 {
        let table = table("race");
        let barrier = std::sync::Barrier::new(3);
        let started: Vec<Result<KnowledgeBase, String>> = std::thread::scope(|s| {
            let joins: Vec<_> = (0..3)
                .map(|_| {
                    s.spawn(|| {
                        barrier.wait();
                        KnowledgeBase::load_with(&path, replicated(&table))
                            .map_err(|e| e.to_string())
                    })
                })
                .collect();
            joins
                .into_iter()
                .map(|j| j.join().expect("thread"))
                .collect()
        });
        for (i, kb) in started.iter().enumerate() {
            assert!(
                kb.is_ok(),
                "round {round}, replica {i}: {:?}",
                kb.as_ref().err()
            );
        }
        let replicas: Vec<&KnowledgeBase> =
            started.iter().filter_map(|r| r.as_ref().ok()).collect();
        replicas[0].call("bump", &json!({})).expect("a write");
        converge(&replicas, 1);
    }
}

/// An address that accepts connections and never answers (a stopped PostgreSQL,
/// a proxy whose other side is gone): the start fails within seconds, saying so,
/// instead of waiting for ever.
#[test]
fn a_peer_that_accepts_and_never_answers_fails_the_start_in_seconds() {
    // Not beside the test that fills the cap of connections given up.
    let _shared = shared();
    let port = silent_peer();
    let message = start_fails_in_seconds(&format!("postgresql://charon@127.0.0.1:{port}/charon"));
    assert!(message.contains("did not answer"), "{message}");
    assert!(message.contains(&format!("127.0.0.1:{port}")), "{message}");
}

/// Several hosts, as the driver takes them (in order, past one it cannot reach):
/// the first refuses, the second accepts and never answers. The start fails in
/// seconds naming the second, which is the one that held it.
#[test]
fn the_first_host_that_takes_the_connection_is_the_one_probed() {
    // Not beside the test that fills the cap of connections given up.
    let _shared = shared();
    let refused = {
        let closed = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        closed.local_addr().expect("addr").port()
    };
    let port = silent_peer();
    let message = start_fails_in_seconds(&format!(
        "postgresql://charon@127.0.0.1:{refused},127.0.0.1:{port}/charon"
    ));
    assert!(message.contains("did not answer"), "{message}");
    assert!(message.contains(&format!("127.0.0.1:{port}")), "{message}");
}

/// A peer that answers PostgreSQL's first message (the SSLRequest: "N", no TLS)
/// and then never answers the startup message, as a server stopped between the
/// two, or one whose authentication hangs: the handshake is bounded too.
#[test]
fn a_peer_that_stalls_the_handshake_fails_the_start_in_seconds() {
    // Not beside the test that fills the cap of connections given up.
    let _shared = shared();
    let (port, held) = stalling_peer();
    let message = start_fails_in_seconds(&format!(
        "postgresql://charon@127.0.0.1:{port}/charon?connect_timeout=2"
    ));
    release(&held);
    assert!(
        message.contains("did not finish the handshake"),
        "{message}"
    );
}

/// Connections given up on are capped: eight handshakes that a peer stalls leave
/// eight connections waiting, and the next one is refused at once, saying so,
/// rather than piling up a thread and a connection per attempt; once the peer lets
/// them go, connections are tried again.
#[test]
fn connections_given_up_are_capped_at_eight() {
    // In-process starts share the cap: none runs beside this test.
    let _alone = POSTGRES.write().unwrap_or_else(|p| p.into_inner());
    let (port, held) = stalling_peer();
    let url = format!("postgresql://charon@127.0.0.1:{port}/charon?connect_timeout=1");
    let attempts: Vec<_> = (0..8)
        .map(|_| {
            let url = url.clone();
            std::thread::spawn(move || start_fails_in_seconds(&url))
        })
        .collect();
    for attempt in attempts {
        let message = attempt.join().expect("an attempt");
        assert!(
            message.contains("did not finish the handshake") || message.contains("still wait"),
            "{message}"
        );
    }
    let message = start_fails_in_seconds(&url);
    assert!(
        message.contains("earlier connections still wait for an answer"),
        "{message}"
    );
    // The peer closes them: the threads waiting on them end, and connections are
    // made again (to a closed port here: refused at once, nothing left waiting).
    release(&held);
    let closed = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        listener.local_addr().expect("addr").port()
    };
    let started = Instant::now();
    loop {
        let message =
            start_fails_in_seconds(&format!("postgresql://charon@127.0.0.1:{closed}/charon"));
        if !message.contains("still wait") {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "still capped: {message}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Closes the connections a [`stalling_peer`] holds.
fn release(held: &std::sync::Mutex<Vec<std::net::TcpStream>>) {
    for stream in held.lock().unwrap_or_else(|p| p.into_inner()).drain(..) {
        let _ = stream.shutdown(std::net::Shutdown::Both);
    }
}

/// A peer that answers PostgreSQL's first message (the SSLRequest: "N", no TLS)
/// and never the startup message: its port, and the connections it holds.
fn stalling_peer() -> (
    u16,
    std::sync::Arc<std::sync::Mutex<Vec<std::net::TcpStream>>>,
) {
    use std::io::{Read, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = listener.local_addr().expect("addr").port();
    let held = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let holding = held.clone();
    std::thread::spawn(move || {
        for mut stream in listener.incoming().flatten() {
            let mut request = [0u8; 8];
            if stream.read_exact(&mut request).is_ok() && request[4..] == [0x04, 0xd2, 0x16, 0x2f] {
                let _ = stream.write_all(b"N");
            }
            holding
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .push(stream);
        }
    });
    (port, held)
}

/// The port of a peer that accepts connections and never reads, answers or
/// closes them (a stopped server, whose kernel still accepts).
fn silent_peer() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = listener.local_addr().expect("addr").port();
    std::thread::spawn(move || {
        let mut held = Vec::new();
        for stream in listener.incoming().flatten() {
            held.push(stream);
        }
    });
    port
}

/// Starts a replica on `url`, which must fail within 20 s: its error message.
fn start_fails_in_seconds(url: &str) -> String {
    let config = EngineConfig {
        replica: Some(ReplicaConfig::new(url.to_string())),
        ..config()
    };
    let started = Instant::now();
    let Err(err) = KnowledgeBase::load_with(fixture("replica/ledger.pl"), config) else {
        panic!("the start succeeded against {url}");
    };
    let took = started.elapsed();
    assert!(took < Duration::from_secs(20), "took {took:?}");
    err.to_string()
}
