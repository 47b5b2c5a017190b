//! Exceptions and limits end the call with a clear error; the engine keeps
//! answering correctly afterwards, and nothing is left running.

use std::time::{Duration, Instant};

use charon::{CallError, KnowledgeBase};
use serde_json::json;

use crate::util::{config, fixture};

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
    let e = kb.call("deep", &json!({"N": 0})).expect_err("stopped");
    assert!(
        matches!(e, CallError::Engine { .. } | CallError::Exception { .. }),
        "{e:?}"
    );
    still_correct(&kb);
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
