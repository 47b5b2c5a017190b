//! The engine under pressure: limits that hold while collecting and while waiting,
//! answers in linear time at any depth the engine can build, liveness apart from
//! readiness, recycling without stalls, a load that cannot hang, memory errors
//! named as such, a cache bounded by bytes, nothing left behind.

use std::time::{Duration, Instant};

use charon::{CallError, EngineConfig, KnowledgeBase, Limits};
use serde_json::{Value, json};

use crate::util::{HttpServer, config, fixture, http, run_charon};

fn kb_with(config: EngineConfig) -> KnowledgeBase {
    KnowledgeBase::load_with(fixture("pressure/engine.pl"), config).expect("engine.pl loads")
}

fn roomy() -> EngineConfig {
    EngineConfig {
        limits: Limits {
            inferences: 100_000_000,
            time: Duration::from_secs(30),
            ..config().limits
        },
        ..config()
    }
}

#[test]
fn an_endless_generator_is_too_many_solutions_at_once() {
    let kb = kb_with(config());
    let started = Instant::now();
    match kb.call("nat", &json!({})) {
        Err(CallError::TooManySolutions { limit: 1000, .. }) => {}
        other => panic!("{other:?}"),
    }
    // 1,001 solutions are a few thousand inferences: no reason to take long.
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );
    match kb.call("upto", &json!({"N": 2_000_000})) {
        Err(CallError::TooManySolutions { .. }) => {}
        other => panic!("{other:?}"),
    }
    assert_eq!(
        kb.call("upto", &json!({"N": 3})).expect("3"),
        json!([1, 2, 3])
    );
    // Exactly the limit is fine.
    let all = kb.call("upto", &json!({"N": 1000})).expect("1000");
    assert_eq!(all.as_array().map(Vec::len), Some(1000));
}

fn best_of_three(kb: &KnowledgeBase, n: usize) -> Duration {
    (0..3)
        .map(|_| {
            let started = Instant::now();
            let list = kb.call("ints", &json!({"N": n})).expect("ints");
            let elapsed = started.elapsed();
            let items = list.as_array().expect("an array");
            assert_eq!(items.len(), n);
            assert_eq!(items[n - 1], json!(n));
            elapsed
        })
        .min()
        .expect("three runs")
}

#[test]
fn long_answers_cost_linear_time() {
    let kb = kb_with(roomy());
    let small = best_of_three(&kb, 20_000);
    let large = best_of_three(&kb, 200_000);
    // Ten times the elements: linear is about 10×, the old quadratic path was 100×.
    let ratio = large.as_secs_f64() / small.as_secs_f64();
    assert!(
        ratio < 25.0,
        "20k: {small:?}, 200k: {large:?} ({ratio:.1}×)"
    );
    // A million elements come back whole.
    let million = kb.call("ints", &json!({"N": 1_000_000})).expect("1M");
    assert_eq!(million.as_array().map(Vec::len), Some(1_000_000));
}

fn depth(v: &Value) -> usize {
    let mut deepest = 0;
    let mut stack = vec![(v, 1)];
    while let Some((v, d)) = stack.pop() {
        deepest = deepest.max(d);
        if let Value::Array(items) = v {
            stack.extend(items.iter().map(|i| (i, d + 1)));
        }
    }
    deepest
}

#[test]
fn deep_answers_are_delivered_or_refused_without_losing_a_worker() {
    let kb = kb_with(roomy());
    let v = kb.call("nested", &json!({"N": 900})).expect("900 levels");
    assert_eq!(depth(&v), 901, "900 nested lists around []");
    let started = kb.stats().workers_started;
    // (The limit counts the wrapper's own levels too: a few levels of slack.)
    for n in [1_034, 5_000, 100_000] {
        match kb.call("nested", &json!({"N": n})) {
            Err(e @ CallError::AnswerTooDeep { limit: 1024, .. }) => {
                assert!(e.to_string().contains("1024 levels"), "{e}");
            }
            other => panic!("{n}: {other:?}"),
        }
    }
    assert_eq!(kb.stats().workers_started, started, "a worker was lost");
    assert_eq!(
        kb.call("point", &json!({"K": 21})).expect("next call"),
        json!(42)
    );
}

/// A server whose calls of `spin` run until the time limit.
fn busy_server(timeout_ms: u64) -> HttpServer {
    HttpServer::start(
        &fixture("pressure/engine.pl"),
        &[
            "--workers",
            "2",
            "--timeout-ms",
            &timeout_ms.to_string(),
            "--max-inferences",
            "100000000000",
        ],
    )
}

#[test]
fn every_504_comes_at_its_deadline_under_load() {
    let server = busy_server(2000);
    let limit = Duration::from_millis(2000);
    let port = server.port;
    let timings: Vec<(u16, Duration)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..40)
            .map(|_| {
                s.spawn(move || {
                    let started = Instant::now();
                    let (status, _) = http(port, "POST", "/spin", Some("{}")).expect("an answer");
                    (status, started.elapsed())
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("client"))
            .collect()
    });
    for (status, took) in &timings {
        assert_eq!(*status, 504, "{timings:?}");
        assert!(*took >= limit - Duration::from_millis(50), "{took:?}");
        assert!(
            *took <= limit + limit / 10,
            "a 504 after {took:?} (limit {limit:?}): {timings:?}"
        );
    }
}

#[test]
fn liveness_answers_at_once_while_readiness_says_busy() {
    let server = busy_server(4000);
    let port = server.port;
    std::thread::scope(|s| {
        for _ in 0..4 {
            s.spawn(move || http(port, "POST", "/spin", Some("{}")));
        }
        std::thread::sleep(Duration::from_millis(500));
        let started = Instant::now();
        let (status, body) = http(port, "GET", "/health", None).expect("health");
        assert_eq!(status, 200, "{body}");
        assert!(
            started.elapsed() < Duration::from_millis(300),
            "liveness took {:?}",
            started.elapsed()
        );
        let health: Value = charon::json::from_str(&body).expect("json");
        assert_eq!(health["engine"]["idle_workers"], 0, "{health}");
        assert!(health["engine"]["pending"].as_u64() >= Some(2), "{health}");
        let (status, body) = http(port, "GET", "/health/ready", None).expect("ready");
        assert_eq!(status, 503, "{body}");
        let problem: Value = charon::json::from_str(&body).expect("json");
        assert_eq!(problem["type"], "urn:charon:problem:not-ready");
    });
    // Once the calls have ended, the engine is ready again.
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let (status, _) = http(port, "GET", "/health/ready", None).expect("ready");
        if status == 200 {
            break;
        }
        assert!(Instant::now() < deadline, "never ready again");
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn recycling_never_leaves_the_pool_empty() {
    let kb_path = fixture("pressure/slow_load.pl");
    let loading = Instant::now();
    let c = EngineConfig {
        recycle_after: 15,
        ..config()
    };
    let kb = KnowledgeBase::load_with(&kb_path, c).expect("loads");
    // Two workers start in parallel: about one load time.
    let load_time = loading.elapsed();
    let mut slowest = Duration::ZERO;
    let started = kb.stats().workers_started;
    let until = Instant::now() + load_time * 6;
    let mut calls = 0;
    while Instant::now() < until || calls < 100 {
        let t = Instant::now();
        assert_eq!(kb.call("point", &json!({"K": 2})).expect("point"), json!(4));
        slowest = slowest.max(t.elapsed());
        calls += 1;
    }
    let recycled = kb.stats().workers_started - started;
    assert!(recycled >= 2, "only {recycled} recycled over {calls} calls");
    // Retiring a worker before its replacement is ready would make a call wait for
    // a whole load.
    assert!(
        slowest < load_time / 3,
        "a call waited {slowest:?} (a load takes {load_time:?})"
    );
}

#[test]
fn a_worker_whose_memory_stays_high_is_recycled() {
    let c = EngineConfig {
        recycle_memory: 64 << 20,
        limits: Limits {
            memory: None,
            ..roomy().limits
        },
        ..roomy()
    };
    let kb = kb_with(c);
    let before = kb.stats().workers_started;
    // About 10 million cells: far more than 64 MiB that the Machine keeps.
    kb.call("hog", &json!({"N": 10_000_000})).expect("hog");
    let deadline = Instant::now() + Duration::from_secs(20);
    while kb.stats().workers_started == before {
        assert!(Instant::now() < deadline, "the worker was not recycled");
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(kb.call("point", &json!({"K": 1})).expect("after"), json!(2));
}

#[test]
fn a_load_that_does_not_end_fails_naming_the_file_and_directive() {
    // (scryer runs no goal as a directive but initialization/1's.)
    for (file, directive) in [
        ("hangs_init.pl", "initialization(forever)"),
        ("hangs_module.pl", "initialization(forever)"),
    ] {
        let path = fixture(&format!("pressure/{file}"));
        let started = Instant::now();
        let (code, _, stderr) = run_charon(&[
            "check",
            "--load-timeout-ms",
            "1500",
            path.to_str().expect("utf-8 path"),
        ]);
        assert_ne!(code, 0, "{stderr}");
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "{:?}",
            started.elapsed()
        );
        assert!(stderr.contains(file), "{stderr}");
        assert!(
            stderr.contains(&format!("`{directive}`")),
            "the directive is not named: {stderr}"
        );
        assert!(stderr.contains("1.5 s"), "{stderr}");
    }
}

/// Running out of memory shows as a term that reads as the running query; a term a
/// client can make the knowledge base throw (an atom named like a query's stub) is
/// an exception like any other, not a memory limit.
#[test]
fn an_exception_named_like_a_query_is_not_a_memory_limit() {
    let server = HttpServer::start(&fixture("pressure/rethrow.pl"), &[]);
    for name in ["$charon_o0", "$charon_o12", "$charon_once"] {
        let body = serde_json::json!({ "X": name }).to_string();
        let (status, body) = http(server.port, "POST", "/rethrow", Some(&body)).expect("an answer");
        assert_eq!(status, 422, "{body}");
        let problem: Value = charon::json::from_str(&body).expect("json");
        assert_eq!(
            problem["type"], "urn:charon:problem:prolog-exception",
            "{name}: {problem}"
        );
    }
}

#[test]
fn running_out_of_memory_is_a_memory_limit_and_the_server_stays_up() {
    let server = HttpServer::start(
        &fixture("pressure/engine.pl"),
        &[
            "--workers",
            "1",
            "--max-memory-mb",
            "1024",
            "--max-inferences",
            "100000000000",
            "--timeout-ms",
            "20000",
        ],
    );
    let (status, body) =
        http(server.port, "POST", "/hog", Some(r#"{"N":200000000}"#)).expect("an answer");
    assert_eq!(status, 422, "{body}");
    let problem: Value = charon::json::from_str(&body).expect("json");
    assert_eq!(
        problem["type"], "urn:charon:problem:memory-limit",
        "{problem}"
    );
    assert!(
        problem["detail"]
            .as_str()
            .is_some_and(|d| d.contains("1024 MiB")),
        "{problem}"
    );
    let (status, body) = http(server.port, "POST", "/point", Some(r#"{"K":4}"#)).expect("next");
    assert_eq!((status, body.as_str()), (200, "8"));
}

#[test]
fn the_cache_is_bounded_by_bytes_and_keeps_what_fits() {
    let capacity = 1u64 << 20;
    let kb = kb_with(EngineConfig {
        answer_cache: capacity,
        ..config()
    });
    // 40 answers of 100 KB each would be 8 MB: the cache keeps under its bound.
    for i in 0..40 {
        let big = format!("{i}{}", "x".repeat(100_000));
        kb.call("echo", &json!({"S": big})).expect("echo");
        let stats = kb.cache_stats();
        assert!(stats.bytes <= capacity, "{stats:?}");
    }
    // 5,000 small keys fit: the second pass is answered from the cache.
    for k in 0..5_000 {
        kb.call("point", &json!({"K": k})).expect("point");
    }
    let before = kb.cache_stats();
    for k in 0..5_000 {
        assert_eq!(
            kb.call("point", &json!({"K": k})).expect("point"),
            json!(k * 2)
        );
    }
    let after = kb.cache_stats();
    let hits = after.hits - before.hits;
    assert!(hits >= 4_900, "{hits} hits of 5000: {after:?}");
}

/// Files in the server's private directories under `tmp`.
fn private_files(tmp: &std::path::Path) -> Vec<String> {
    let mut files = Vec::new();
    for dir in std::fs::read_dir(tmp).expect("tmp").flatten() {
        if dir.file_name().to_string_lossy().starts_with("charon-") {
            for f in std::fs::read_dir(dir.path())
                .expect("private dir")
                .flatten()
            {
                files.push(f.file_name().to_string_lossy().into_owned());
            }
        }
    }
    files.sort();
    files
}

#[test]
fn a_timed_out_write_leaves_no_file_behind() {
    let tmp = std::env::temp_dir().join(format!("charon-orphans-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    std::fs::create_dir_all(&tmp).expect("tmp");
    let port = crate::util::free_port();
    let child = std::process::Command::new(crate::util::charon_bin())
        .arg("http")
        .arg(fixture("pressure/writer.pl"))
        .args(["--port", &port.to_string(), "--timeout-ms", "1000"])
        .args(["--max-inferences", "100000000000", "--log", "warn"])
        .env("TMPDIR", &tmp)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("starts");
    let server = HttpServer { child, port };
    let deadline = Instant::now() + Duration::from_secs(30);
    while http(port, "GET", "/health", None).is_none_or(|(s, _)| s != 200) {
        assert!(Instant::now() < deadline, "server did not start");
        std::thread::sleep(Duration::from_millis(50));
    }
    let ok = |n: u32| {
        let body = format!(r#"{{"N":{n}}}"#);
        let (status, body) = http(port, "POST", "/add_note", Some(&body)).expect("answer");
        assert_eq!(status, 200, "{body}");
    };
    ok(1);
    let before = private_files(&tmp);
    for i in 0..3 {
        let body = format!(r#"{{"N":{i}}}"#);
        let (status, body) = http(port, "POST", "/add_note_slowly", Some(&body)).expect("answer");
        assert_eq!(status, 504, "{body}");
        assert_eq!(private_files(&tmp), before, "a file was left behind");
    }
    ok(2);
    let (_, notes) = http(port, "POST", "/notes", Some("{}")).expect("notes");
    assert_eq!(notes, "[1,2]");
    drop(server);
    let _ = std::fs::remove_dir_all(&tmp);
}

/// Reads from async callers run in batches (one write to a worker, answers read as
/// they come). A slow call must not hold up the calls batched behind it: they are
/// given to another worker, and the slow one alone meets its time limit.
/// Slow calls that do finish, in batches of fast ones: the engine gives the calls
/// behind a late answer to the other worker and the first worker skips them, or
/// runs them anyway when it took them in before the cancellation came. Either way
/// every call gets its own answer and no worker is lost to a mixed-up answer.
#[test]
fn calls_given_away_behind_a_slow_one_keep_their_own_answers() {
    let kb = std::sync::Arc::new(kb_with(config()));
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime");
    for round in 0..4 {
        let answers = runtime.block_on(async {
            let calls: Vec<_> = (0..150_i64)
                .map(|i| {
                    let kb = std::sync::Arc::clone(&kb);
                    // Every 25th call counts down from 100,000 or more: several ms.
                    let (op, args, expected) = if i % 25 == 7 {
                        let n = 100_000 + i;
                        ("count", json!({ "N": n }), json!(n))
                    } else {
                        ("point", json!({ "K": i }), json!(i * 2))
                    };
                    tokio::spawn(async move {
                        let answer = kb.call_async(op, &args).await;
                        (op, args, expected, answer)
                    })
                })
                .collect();
            let mut answers = Vec::new();
            for call in calls {
                answers.push(call.await.expect("task"));
            }
            answers
        });
        for (op, args, expected, answer) in answers {
            assert_eq!(
                answer.as_ref().ok(),
                Some(&expected),
                "round {round}: {op}({args}) got {answer:?}"
            );
        }
    }
    assert_eq!(
        kb.stats().workers_started,
        2,
        "a worker was replaced: an answer went to the wrong call, or a worker failed"
    );
}

#[test]
fn a_slow_read_holds_up_no_other_read() {
    let limit = Duration::from_secs(3);
    let kb = std::sync::Arc::new(kb_with(EngineConfig {
        workers: 2,
        answer_cache: 0,
        limits: Limits {
            inferences: 100_000_000_000,
            time: limit,
            ..config().limits
        },
        ..config()
    }));
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime");
    let timed = |op: &'static str, args: Value| {
        let kb = std::sync::Arc::clone(&kb);
        async move {
            let started = Instant::now();
            let answer = kb.call_async(op, &args).await;
            (args, answer, started.elapsed())
        }
    };
    for round in 0..3 {
        // All at once: the queue holds fast calls on both sides of the slow one, so
        // that the slow one is batched with fast calls behind it.
        let (slow, fast) = runtime.block_on(async {
            let mut fast = Vec::new();
            for k in 0..60 {
                fast.push(tokio::spawn(timed("point", json!({ "K": k }))));
            }
            let slow = tokio::spawn(timed("spin", json!({})));
            for k in 60..120 {
                fast.push(tokio::spawn(timed("point", json!({ "K": k }))));
            }
            let mut answers = Vec::new();
            for call in fast {
                answers.push(call.await.expect("task"));
            }
            (slow.await.expect("task"), answers)
        });
        assert!(
            matches!(slow.1, Err(CallError::TimeLimit { .. })),
            "round {round}: the slow call meets its limit: {slow:?}"
        );
        for (args, answer, took) in &fast {
            let k = args["K"].as_i64().expect("K");
            assert_eq!(
                answer.as_ref().ok(),
                Some(&json!(k * 2)),
                "round {round}: {args}"
            );
            assert!(
                *took < limit / 2,
                "round {round}: point({k}) waited {took:?} behind the slow call"
            );
        }
    }
}

/// Calls that run in batches count one by one toward recycling.
#[test]
fn batched_calls_count_toward_recycling() {
    let kb = std::sync::Arc::new(kb_with(EngineConfig {
        workers: 2,
        answer_cache: 0,
        recycle_after: 100,
        ..config()
    }));
    let started = kb.stats().workers_started;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime");
    runtime.block_on(async {
        for round in 0..10 {
            let calls: Vec<_> = (0..60)
                .map(|k| {
                    let kb = std::sync::Arc::clone(&kb);
                    tokio::spawn(async move { kb.call_async("point", &json!({ "K": k })).await })
                })
                .collect();
            for (k, call) in calls.into_iter().enumerate() {
                let answer = call.await.expect("task");
                assert_eq!(answer.ok(), Some(json!(k * 2)), "round {round}");
            }
            // Time for a replacement to load (recycling is one worker at a time).
            tokio::time::sleep(Duration::from_millis(300)).await;
        }
    });
    // 600 calls on two workers recycled every 100 calls: several replacements.
    let deadline = Instant::now() + Duration::from_secs(10);
    while kb.stats().workers_started < started + 2 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(
        kb.stats().workers_started >= started + 2,
        "{:?} after 600 batched calls",
        kb.stats()
    );
}
