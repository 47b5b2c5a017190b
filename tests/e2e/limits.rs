//! Exceptions and limits end the call with a clear error; the engine keeps
//! answering correctly afterwards, and nothing is left running.

use std::time::{Duration, Instant};

use charon::{CallError, KnowledgeBase};
use serde_json::json;

use crate::util::{config, fixture, run_charon};

fn own_kb() -> KnowledgeBase {
    KnowledgeBase::load_with(fixture("types.pl"), config()).expect("types.pl loads")
}

fn still_correct(kb: &KnowledgeBase) {
    assert_eq!(
        kb.call("det1", &json!({"X": 41})).expect("next call"),
        json!(42)
    );
    assert_eq!(
        kb.call("nd1", &json!({"N": 3})).expect("next call"),
        json!([1, 2, 3])
    );
}

#[test]
fn exception_then_correct_call() {
    let kb = own_kb();
    for _ in 0..3 {
        assert!(matches!(
            kb.call("throws", &json!({"X": 1})),
            Err(CallError::Exception { .. })
        ));
        let e = kb
            .call("type_error_builtin", &json!({}))
            .expect_err("type error");
        assert!(e.to_string().contains("type_error"), "{e}");
        still_correct(&kb);
    }
}

#[test]
fn infinite_loop_hits_the_inference_limit() {
    let kb = own_kb();
    match kb.call("spin", &json!({})) {
        Err(e @ CallError::InferenceLimit { .. }) => {
            assert!(e.to_string().contains("2000000 inferences"), "{e}")
        }
        other => panic!("{other:?}"),
    }
    still_correct(&kb);
}

#[test]
fn unbounded_recursion_is_stopped() {
    let kb = own_kb();
    let e = kb.call("deep", &json!({"N": 0})).expect_err("stopped");
    eprintln!("DEEP: {e:?}");
    assert!(
        matches!(
            e,
            CallError::InferenceLimit { .. }
                | CallError::Engine { .. }
                | CallError::Exception { .. }
        ),
        "{e:?}"
    );
    assert!(!e.to_string().is_empty());
    still_correct(&kb);
}

#[test]
fn recursion_beyond_memory_is_stopped_and_the_engine_recovers() {
    // With a high inference limit, the recursion runs into the memory limit instead.
    let mut c = config();
    c.limits.inferences = 1_000_000_000;
    c.limits.memory = Some(512 << 20);
    c.limits.time = Duration::from_secs(60);
    let kb = KnowledgeBase::load_with(fixture("types.pl"), c).expect("loads");
    // scryer 0.10 panics when its stack cannot grow: a memory limit all the same.
    let e = kb.call("deep", &json!({"N": 0})).expect_err("stopped");
    assert!(
        matches!(&e, CallError::MemoryLimit { operation, limit: Some(l) } if operation == "deep" && *l == 512 << 20),
        "{e:?}"
    );
    assert_eq!(
        e.to_string(),
        "deep ran out of memory (the limit is 512 MiB per worker) and was stopped"
    );
    still_correct(&kb);
}

#[test]
fn a_recursion_past_the_stack_is_a_memory_problem_over_http() {
    let server = crate::util::HttpServer::start(
        &fixture("types.pl"),
        &[
            "--max-inferences",
            "1000000000",
            "--max-memory-mb",
            "512",
            "--timeout-ms",
            "60000",
        ],
    );
    let host = format!("127.0.0.1:{}", server.port);
    let deep = |n: &str| {
        crate::util::request(
            server.port,
            "POST",
            "/deep",
            &[("Host", &host), ("Content-Type", "application/json")],
            &format!(r#"{{"N": {n}}}"#),
        )
    };
    let reply = deep("0");
    assert_eq!(reply.status, 422, "{}", reply.body);
    let body: serde_json::Value = charon::json::from_str(&reply.body).expect("JSON");
    assert_eq!(body["type"], "urn:charon:problem:memory-limit", "{body}");
    assert_eq!(body["title"], "Memory limit exceeded", "{body}");
    assert!(
        body["detail"]
            .as_str()
            .is_some_and(|d| d.contains("512 MiB")),
        "{body}"
    );
    let reply = deep(r#""x""#);
    assert_eq!(reply.status, 400, "the server stays up: {}", reply.body);
}

#[test]
fn wall_clock_limit_stops_a_sleeping_goal_at_the_limit() {
    let kb = own_kb();
    let started = Instant::now();
    match kb.call("nap", &json!({"Seconds": 60})) {
        Err(CallError::TimeLimit { operation, limit }) => {
            assert_eq!(operation, "nap");
            assert_eq!(limit, Duration::from_secs(3));
        }
        other => panic!("{other:?}"),
    }
    let took = started.elapsed();
    assert!(
        took >= Duration::from_secs(3) && took < Duration::from_millis(4500),
        "{took:?}"
    );
    still_correct(&kb);
}

/// CPU time (user + system, in clock ticks) of the given processes.
fn cpu_ticks(pids: &[u32]) -> u64 {
    pids.iter()
        .filter_map(|pid| std::fs::read_to_string(format!("/proc/{pid}/stat")).ok())
        .filter_map(|stat| {
            // Fields after the command name (which is in parentheses).
            let rest = stat.rsplit_once(')')?.1.to_string();
            let f: Vec<&str> = rest.split_whitespace().collect();
            Some(f.get(11)?.parse::<u64>().ok()? + f.get(12)?.parse::<u64>().ok()?)
        })
        .sum()
}

/// Waits until `n` workers are idle (a replacement may still be loading).
fn idle_workers(kb: &KnowledgeBase, n: usize) -> Vec<u32> {
    let started = Instant::now();
    loop {
        let pids = kb.idle_worker_pids();
        if pids.len() == n || started.elapsed() > Duration::from_secs(30) {
            return pids;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn a_runaway_computation_is_killed_and_leaves_no_core_spinning() {
    let kb = own_kb();
    let before = idle_workers(&kb, 2);
    let started = Instant::now();
    let e = kb.call("crunch", &json!({})).expect_err("stopped");
    assert!(matches!(e, CallError::TimeLimit { .. }), "{e:?}");
    assert!(started.elapsed() < Duration::from_millis(4500));
    still_correct(&kb);
    // The worker that ran the goal is gone (killed and reaped), not left computing.
    let after = idle_workers(&kb, 2);
    let gone: Vec<&u32> = before.iter().filter(|p| !after.contains(p)).collect();
    assert_eq!(gone.len(), 1, "before {before:?}, after {after:?}");
    assert!(!std::path::Path::new(&format!("/proc/{}", gone[0])).exists());
    // And the workers serving now are idle: no core is spinning for this KB.
    let t0 = cpu_ticks(&after);
    std::thread::sleep(Duration::from_secs(1));
    let spent = cpu_ticks(&after).saturating_sub(t0);
    assert!(spent < 10, "idle workers used {spent} ticks in one second");
    // Both workers serve at full capacity: two slow calls overlap.
    let t = Instant::now();
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| kb.call("nap", &json!({"Seconds": 1})).expect("nap"));
        }
    });
    assert!(
        t.elapsed() < Duration::from_millis(1900),
        "{:?}",
        t.elapsed()
    );
}

#[test]
fn too_many_solutions_is_an_error_that_says_so() {
    let kb = own_kb();
    match kb.call("nd1", &json!({"N": 5000})) {
        Err(e @ CallError::TooManySolutions { .. }) => {
            assert!(e.to_string().contains("more than 1000 solutions"), "{e}")
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        kb.call("nd1", &json!({"N": 1000}))
            .expect("at the limit")
            .as_array()
            .map(Vec::len),
        Some(1000)
    );
}

#[test]
fn output_is_captured_not_printed() {
    let kb = own_kb();
    let answer = kb
        .call_full("chatty", &json!({"X": "bob"}))
        .expect("chatty");
    assert_eq!(answer.value, json!("bob"));
    assert_eq!(answer.output, "hello(bob)\nbob and done\n");
    // Output of one call does not leak into the next.
    let next = kb.call_full("det1", &json!({"X": 1})).expect("det1");
    assert_eq!(next.output, "");
}

/// `inferences: 0` counts none: a call far past a limit that stops it answers, and
/// a runaway one is stopped by the time limit.
#[test]
fn no_inference_limit_leaves_the_time_limit() {
    let with = |inferences| {
        KnowledgeBase::load_with(
            fixture("pressure/engine.pl"),
            charon::EngineConfig {
                limits: charon::Limits {
                    inferences,
                    time: Duration::from_secs(2),
                    ..config().limits
                },
                ..config()
            },
        )
        .expect("loads")
    };
    let args = json!({ "N": 1_000_000 });
    assert!(
        matches!(
            with(100_000).call("count", &args),
            Err(CallError::InferenceLimit { .. })
        ),
        "the limit stops it"
    );
    let kb = with(0);
    assert_eq!(kb.call("count", &args).ok(), Some(json!(1_000_000)));
    assert!(
        matches!(
            kb.call("spin", &json!({})),
            Err(CallError::TimeLimit { .. })
        ),
        "a runaway call meets the time limit"
    );
    assert_eq!(kb.call("point", &json!({"K": 4})).ok(), Some(json!(8)));
}

/// A pure-read knowledge base of `tests/kbs/pressure/engine.pl` with `inferences`
/// and `counting`, on one worker.
fn counting_kb(inferences: u64, counting: charon::Counting) -> KnowledgeBase {
    KnowledgeBase::load_with(
        fixture("pressure/engine.pl"),
        charon::EngineConfig {
            workers: 1,
            limits: charon::Limits {
                inferences,
                counting,
                time: Duration::from_secs(2),
                ..config().limits
            },
            ..config()
        },
    )
    .expect("loads")
}

/// Calls `name` with `args` until adaptive counting has taken it off the counter.
fn promote(kb: &KnowledgeBase, name: &str, args: &serde_json::Value) {
    for _ in 0..charon::Counting::PROMOTE_AFTER {
        // An exception the goal raises ends the call within every limit too.
        match kb.call(name, args) {
            Ok(_) | Err(CallError::Exception { .. }) => {}
            Err(e) => panic!("{name}: {e}"),
        }
    }
    assert_eq!(kb.is_counted(name), Some(false), "{name} is promoted");
}

/// Differential: once an operation runs without the counter, every call still gets
/// the answer the counter gives, to the inference: det, semidet failing, an
/// exception, nondet, and more solutions than the solution limit, on both sides of
/// the limit. Consecutive limits, so that an
/// answer that changes one inference too early or too late shows.
#[test]
fn uncounted_calls_answer_as_counted_ones_at_the_limit() {
    let show = |r: Result<serde_json::Value, CallError>| match r {
        Ok(v) => v.to_string(),
        Err(CallError::InferenceLimit { .. }) => "inference limit".into(),
        Err(CallError::TooManySolutions { .. }) => "too many".into(),
        Err(e) => format!("error: {e}"),
    };
    let ops = [
        ("count", 40..=74),
        ("none_below", 40..=74),
        ("count_then_throw", 40..=74),
        ("upto", 2..=30),
    ];
    let mut limited = std::collections::BTreeSet::new();
    for limit in 200..=212 {
        let strict = counting_kb(limit, charon::Counting::Strict);
        for (name, sizes) in ops.clone() {
            // The operation goes back under the counter for good after its first
            // call over the limit: every call under it, then the first one over it
            // (sizes grow with the work).
            let adaptive = counting_kb(limit, charon::Counting::Adaptive);
            promote(&adaptive, name, &json!({"N": 3}));
            for n in sizes {
                let args = json!({ "N": n });
                let want = show(strict.call(name, &args));
                let got = show(adaptive.call(name, &args));
                assert_eq!(got, want, "{name}({n}) at {limit}: adaptive vs strict");
                let over = want == "inference limit";
                limited.insert((name, over));
                if over {
                    assert_eq!(adaptive.is_counted(name), Some(true));
                    break;
                }
                assert_eq!(adaptive.is_counted(name), Some(false), "{name}({n})");
            }
        }
    }
    assert_eq!(limited.len(), 8, "both sides of the limit, every operation");
    assert_eq!(
        counting_kb(1000, charon::Counting::Strict).is_counted("count"),
        Some(true)
    );
    // An exception the goal raises is still an exception.
    let kb = KnowledgeBase::load_with(fixture("types.pl"), config()).expect("loads");
    for _ in 0..charon::Counting::PROMOTE_AFTER {
        let e = kb.call("throws", &json!({"X": 1})).expect_err("throws");
        assert!(matches!(e, CallError::Exception { .. }), "{e:?}");
    }
    assert_eq!(kb.is_counted("throws"), Some(false));
    let e = kb.call("throws", &json!({"X": 1})).expect_err("throws");
    assert!(matches!(e, CallError::Exception { .. }), "{e:?}");
}

/// A runaway call of an uncounted operation is stopped by the time limit, and the
/// operation is counted from then on: the next runaway meets the inference limit.
#[test]
fn a_runaway_uncounted_call_meets_the_time_limit_once() {
    let kb = counting_kb(100_000, charon::Counting::Adaptive);
    promote(&kb, "count", &json!({"N": 10}));
    // count_down never reaches 0 from below.
    let runaway = json!({"N": -1});
    assert!(
        matches!(kb.call("count", &runaway), Err(CallError::TimeLimit { .. })),
        "uncounted: stopped by the clock"
    );
    assert_eq!(kb.is_counted("count"), Some(true));
    let started = Instant::now();
    assert!(
        matches!(
            kb.call("count", &runaway),
            Err(CallError::InferenceLimit { .. })
        ),
        "counted again"
    );
    assert!(started.elapsed() < Duration::from_secs(1));
    assert_eq!(kb.call("count", &json!({"N": 10})).ok(), Some(json!(10)));
}

/// `Counting::Strict` never runs a call uncounted, nor does adaptive counting run a
/// write uncounted.
#[test]
fn strict_counting_and_writes_stay_counted() {
    let strict = counting_kb(100_000, charon::Counting::Strict);
    for _ in 0..charon::Counting::PROMOTE_AFTER + 5 {
        strict.call("point", &json!({"K": 1})).expect("point");
    }
    assert_eq!(strict.is_counted("point"), Some(true));
    let writes = KnowledgeBase::load_with(fixture("counter.pl"), config()).expect("loads");
    for _ in 0..charon::Counting::PROMOTE_AFTER + 5 {
        writes.call("put_increment", &json!({})).expect("write");
        writes.call("get_counter", &json!({})).expect("read");
    }
    assert_eq!(writes.is_counted("put_increment"), Some(true));
    assert_eq!(writes.is_counted("get_counter"), Some(false));
    assert_eq!(writes.is_counted("nope"), None);
}

/// Through the binary: `--inference-counting` and `--io-threads` reach the server. A
/// promoted operation's runaway call meets the time limit by default (504) and the
/// inference limit under `strict` (422).
#[test]
fn the_server_takes_its_counting_mode_from_the_command_line() {
    use crate::util::{HttpServer, http};
    let status_of_runaway = |extra: &[&str]| {
        // Cached answers never reach the engine, nor count towards promotion.
        let mut args = vec![
            "--timeout-ms",
            "1500",
            "--max-inferences",
            "100000",
            "--answer-cache",
            "0",
        ];
        args.extend_from_slice(extra);
        let server = HttpServer::start(&fixture("pressure/engine.pl"), &args);
        for _ in 0..charon::Counting::PROMOTE_AFTER {
            let (status, body) =
                http(server.port, "POST", "/count", Some(r#"{"N": 3}"#)).expect("answers");
            assert_eq!((status, body.as_str()), (200, "3"));
        }
        let (status, _) =
            http(server.port, "POST", "/count", Some(r#"{"N": -1}"#)).expect("answers");
        status
    };
    assert_eq!(status_of_runaway(&["--io-threads", "1"]), 504);
    assert_eq!(status_of_runaway(&["--inference-counting", "strict"]), 422);
}

/// An answer cached before an operation was promoted is still found after: the
/// cache key does not depend on how inferences are limited.
#[test]
fn promotion_keeps_the_cached_answers() {
    let kb = KnowledgeBase::load_with(
        fixture("pressure/engine.pl"),
        charon::EngineConfig {
            answer_cache: 1 << 20,
            ..config()
        },
    )
    .expect("loads");
    assert_eq!(kb.call("point", &json!({"K": -1})).ok(), Some(json!(-2)));
    for k in 0..charon::Counting::PROMOTE_AFTER {
        kb.call("point", &json!({ "K": k })).expect("point");
    }
    assert_eq!(kb.is_counted("point"), Some(false));
    let hits = kb.cache_stats().hits;
    assert_eq!(kb.call("point", &json!({"K": -1})).ok(), Some(json!(-2)));
    assert_eq!(kb.cache_stats().hits, hits + 1);
}

/// A knowledge base that sets inference limits of its own runs every call under
/// the counter, however many clean calls an operation has made.
#[test]
fn a_knowledge_base_with_its_own_limits_stays_counted() {
    let kb = KnowledgeBase::load_with(fixture("pressure/own_limit.pl"), config()).expect("loads");
    for _ in 0..charon::Counting::PROMOTE_AFTER + 5 {
        assert_eq!(
            kb.call("capped", &json!({"N": 3})).ok(),
            Some(json!("done"))
        );
    }
    assert_eq!(kb.is_counted("capped"), Some(true));
    assert_eq!(
        kb.call("capped", &json!({"N": 5000})).ok(),
        Some(json!("capped"))
    );
}

/// A call whose time limit passed while it waited for a worker (busy with another
/// call) never ran: it is a time-limit error, and its operation stays off the
/// counter.
#[test]
fn a_call_that_never_started_does_not_demote_its_operation() {
    let kb = std::sync::Arc::new(
        KnowledgeBase::load_with(
            fixture("pressure/busy.pl"),
            charon::EngineConfig {
                workers: 1,
                limits: charon::Limits {
                    inferences: 1_000_000_000_000,
                    time: Duration::from_secs(1),
                    ..config().limits
                },
                ..config()
            },
        )
        .expect("loads"),
    );
    promote(&kb, "point", &json!({"K": 1}));
    let busy = {
        let kb = kb.clone();
        std::thread::spawn(move || kb.call("count", &json!({"N": 1_000_000_000})))
    };
    std::thread::sleep(Duration::from_millis(100));
    // Its request arrived half a second ago: its time runs out while the only
    // worker is still busy.
    let point = kb.resolve("point").expect("point");
    let call = kb.prepare(point, &json!({"K": 2})).expect("prepares");
    let arrived = Instant::now() - Duration::from_millis(500);
    let waited = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime")
        .block_on(kb.invoke_async_since(call, arrived));
    assert!(
        matches!(waited, Err(CallError::TimeLimit { .. })),
        "{waited:?}"
    );
    assert!(matches!(
        busy.join().expect("joins"),
        Err(CallError::TimeLimit { .. })
    ));
    assert_eq!(kb.is_counted("point"), Some(false), "point never ran");
    // The busy worker was replaced by a fork of the loaded template: at once.
    let after = kb.call("point", &json!({"K": 2}));
    assert_eq!(after.as_ref().ok(), Some(&json!(4)), "{after:?}");
    assert_eq!(kb.is_counted("point"), Some(false));
}

/// A knowledge base's own inference limit, exceeded in a goal that leaves a choice
/// point, does not lift the limit of the next call (scryer 0.10 keeps counter state
/// behind; Charon clears it first).
#[test]
fn a_knowledge_bases_own_limit_does_not_lift_the_next_calls() {
    // The second reaches its limit through a goal built at run time, which the
    // analysis cannot see: Charon assumes it.
    for file in ["pressure/own_limit.pl", "pressure/own_limit_meta.pl"] {
        let kb = KnowledgeBase::load_with(
            fixture(file),
            charon::EngineConfig {
                workers: 1,
                limits: charon::Limits {
                    inferences: 1_000,
                    ..config().limits
                },
                ..config()
            },
        )
        .expect("loads");
        for _ in 0..3 {
            assert_eq!(
                kb.call("capped_choice", &json!({})).ok(),
                Some(json!("a")),
                "{file}"
            );
            let e = kb
                .call("count", &json!({"N": 5000}))
                .expect_err("over the limit");
            assert!(
                matches!(e, CallError::InferenceLimit { .. }),
                "{file}: {e:?}"
            );
        }
    }
}

/// The same at the edge where a generator's (Max+1)th solution and the inference
/// limit meet: "too many solutions" and "inference limit" fall where the counter
/// puts them.
#[test]
fn too_many_solutions_meets_the_inference_limit_where_counted() {
    let kb = |limit, counting| {
        KnowledgeBase::load_with(
            fixture("pressure/engine.pl"),
            charon::EngineConfig {
                workers: 1,
                limits: charon::Limits {
                    inferences: limit,
                    counting,
                    solutions: 5,
                    ..config().limits
                },
                ..config()
            },
        )
        .expect("loads")
    };
    let kind = |r: Result<serde_json::Value, CallError>| match r {
        Err(CallError::InferenceLimit { .. }) => "inference limit".to_string(),
        Err(CallError::TooManySolutions { .. }) => "too many".to_string(),
        other => format!("{other:?}"),
    };
    let mut seen = std::collections::BTreeSet::new();
    // Six solutions of upto/2 take about 140 inferences.
    for limit in 130..=156 {
        let strict = kb(limit, charon::Counting::Strict);
        let adaptive = kb(limit, charon::Counting::Adaptive);
        promote(&adaptive, "upto", &json!({"N": 3}));
        let args = json!({"N": 6});
        let want = kind(strict.call("upto", &args));
        assert_eq!(kind(adaptive.call("upto", &args)), want, "at {limit}");
        seen.insert(want);
    }
    assert_eq!(seen.len(), 2, "{seen:?}");
}

/// call_with_inference_limit/3 in a knowledge base's own code keeps its meaning at
/// every size of limit, now that the engine counts inferences in machine words
/// (`vendor/scryer-prolog/CHARON.md`): no limit and too small a limit, the one
/// inference that makes the difference, a limit beyond 2^64 (which no count
/// reaches), an outer limit over a larger inner one, and a limit across the solutions
/// of a nondeterministic goal.
#[test]
fn inference_limits_in_a_knowledge_base_keep_their_meaning() {
    let kb = KnowledgeBase::load_with(fixture("inference_limits.pl"), config()).expect("loads");
    let within = |limit: u64| {
        kb.call("within", &json!({ "Limit": limit }))
            .expect("within/2 answers")
    };
    assert_eq!(within(0), json!("exceeded"));
    assert_eq!(within(10), json!("exceeded"));
    assert_eq!(within(1_000_000), json!("det"));
    // The smallest limit that suffices; every smaller one is exceeded, every larger
    // one suffices.
    let least = (0..1000u64)
        .find(|&l| within(l) == json!("det"))
        .expect("1000 inferences count to 50");
    assert!(
        least > 50,
        "counting to 50 takes more than 50 inferences: {least}"
    );
    for l in least.saturating_sub(5)..least + 5 {
        let expected = if l < least { "exceeded" } else { "det" };
        assert_eq!(within(l), json!(expected), "limit {l}");
    }
    assert_eq!(
        kb.call("within_huge", &json!({})).expect("answers"),
        json!("det")
    );
    assert_eq!(
        kb.call("nested", &json!({ "Limit": 10 })).expect("answers"),
        json!("exceeded")
    );
    assert_eq!(
        kb.call("nested", &json!({ "Limit": least - 1 }))
            .expect("answers"),
        json!("exceeded")
    );
    assert_eq!(
        kb.call("nested", &json!({ "Limit": 1_000_000 }))
            .expect("answers"),
        json!("det")
    );
    for (second, last) in [(least, "det"), (least - 1, "exceeded")] {
        assert_eq!(
            kb.call("again", &json!({ "Limit": 1_000_000, "Second": second }))
                .expect("answers"),
            json!(["nondet", "nondet", "det", last]),
            "second limit {second}"
        );
    }
}

/// A limit of the knowledge base's own that is exceeded leaves every other limit of
/// the call in force: its next limit (0.10.0 stopped counting for the rest of the
/// call once one was exceeded), and the server's, which no limit set inside can
/// lift. Through the library and the `charon call` command line alike.
#[test]
fn a_knowledge_base_never_switches_the_inference_limit_off() {
    let kb = KnowledgeBase::load_with(
        fixture("inference_limits.pl"),
        charon::EngineConfig {
            limits: charon::Limits {
                inferences: 200_000,
                ..config().limits
            },
            ..config()
        },
    )
    .expect("loads");
    let call = |name: &str, args: serde_json::Value| kb.call(name, &args);
    assert_eq!(
        call("exceeded_then", json!({"Second": 1})).expect("answers"),
        json!(["exceeded", "exceeded"])
    );
    assert_eq!(
        call("exceeded_then", json!({"Second": 1_000_000})).expect("answers"),
        json!(["exceeded", "det"])
    );
    for name in ["exceeded_then_forever", "lifted"] {
        let e = call(name, json!({})).expect_err("stopped by the server's limit");
        assert!(
            matches!(e, CallError::InferenceLimit { .. }),
            "{name}: {e:?}"
        );
    }
    let path = fixture("inference_limits.pl");
    let path = path.to_str().expect("utf-8 path");
    for name in ["exceeded_then_forever", "lifted"] {
        let (code, out, err) = run_charon(&[
            "call",
            "--max-inferences",
            "100000",
            "--timeout-ms",
            "30000",
            path,
            name,
        ]);
        assert_eq!(code, 3, "{name}: {out} {err}");
        assert!(
            err.contains("exceeded the limit of 100000 inferences"),
            "{name}: {err}"
        );
    }
}
