//! `Reasoner::reason` in process on RBAC-1000 (the Euclid-IR form written by
//! `bench/reason/gen_rbac.py`, run with `python3`), the workload of Euclid-MCP's
//! benchmark; method and figures in BENCHMARKS.md.
//!
//! * `reason_cache_on/*`: the same request repeated, result cache on (the default);
//! * `reason_cache_off/*`: repeated with the result cache off: the compiled program
//!   is kept (no re-parse, no re-load), the search and the proofs run every time;
//! * `reason_new_knowledge/*`: knowledge never seen before on every iteration (a
//!   comment line makes each text new): parse, check, lower, load in a worker, search.
//!
//! `list` is `user_has_permission($u, delete_repo)` (31 users, 32 proofs), `point`
//! is `user_has_permission(user_0042, deploy)` (no solution).

use std::hint::black_box;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};

use charon::EngineConfig;
use charon::reason::{ReasonRequest, Reasoner};
use criterion::{Criterion, criterion_group, criterion_main};

const LIST: &str = "user_has_permission($u, delete_repo)";
const POINT: &str = "user_has_permission(user_0042, deploy)";

fn knowledge() -> String {
    let out = std::env::temp_dir().join(format!("charon-bench-reason-{}", std::process::id()));
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../bench/reason/gen_rbac.py");
    let status = std::process::Command::new("python3")
        .arg(script)
        .arg("--out")
        .arg(&out)
        .stdout(std::process::Stdio::null())
        .status()
        .expect("python3 runs bench/reason/gen_rbac.py");
    assert!(status.success());
    let text = std::fs::read_to_string(out.join("rbac_1000.euclid")).expect("rbac_1000.euclid");
    let _ = std::fs::remove_dir_all(&out);
    text
}

fn request(knowledge: &str, query: &str) -> ReasonRequest {
    let mut r = ReasonRequest::new(knowledge, query);
    r.max_solutions = Some(1000);
    r
}

fn check(reasoner: &Reasoner, knowledge: &str) {
    let list = reasoner.reason(&request(knowledge, LIST));
    let value = serde_json::to_value(&list).expect("json");
    assert_eq!(value["solution_count"], 31, "{value}");
    let point = serde_json::to_value(reasoner.reason(&request(knowledge, POINT))).expect("json");
    assert_eq!(point["solution_count"], 0, "{point}");
}

fn repeated(c: &mut Criterion) {
    let text = knowledge();
    for (group, cache) in [
        ("reason_cache_on", EngineConfig::default().answer_cache),
        ("reason_cache_off", 0),
    ] {
        let reasoner = Reasoner::new(EngineConfig {
            answer_cache: cache,
            ..EngineConfig::default()
        })
        .expect("reasoner");
        check(&reasoner, &text);
        let mut g = c.benchmark_group(group);
        for (name, query) in [("list", LIST), ("point", POINT)] {
            let req = request(&text, query);
            g.bench_function(name, |b| b.iter(|| black_box(reasoner.reason(&req))));
        }
        g.finish();
    }
}

fn new_knowledge(c: &mut Criterion) {
    let text = knowledge();
    let reasoner = Reasoner::new(EngineConfig {
        workers: 1,
        ..EngineConfig::default()
    })
    .expect("reasoner");
    check(&reasoner, &text);
    let n = AtomicU64::new(0);
    let mut g = c.benchmark_group("reason_new_knowledge");
    g.sample_size(20);
    for (name, query) in [("point", POINT), ("list", LIST)] {
        g.bench_function(name, |b| {
            b.iter(|| {
                let fresh = format!("{text}\n# {}\n", n.fetch_add(1, Ordering::Relaxed));
                black_box(reasoner.reason(&request(&fresh, query)))
            })
        });
    }
    g.finish();
}

criterion_group!(benches, repeated, new_knowledge);
criterion_main!(benches);
