//! `KnowledgeBase::call` on `examples/rbac.pl` beside the raw engine on the same goals,
//! so Charon's own overhead shows as a ratio (method in BENCHMARKS.md).
//!
//! * `raw_engine/*`: one scryer-prolog `Machine` in this process, one `run_query` per
//!   iteration, answers collected as scryer terms: the floor an embedding pays.
//! * `raw_wrapped/*`: the same machine running the goal through Charon's KB-side
//!   wrapper (`catch/3` + inference limit), as the workers do.
//! * `charon_call/*`: `KnowledgeBase::call` with JSON arguments and a JSON answer:
//!   validation, goal text, the worker round trip, conversion by declared type.
//! * `typed_vs_json/*`: the method `knowledge_base!` generates beside the dynamic JSON
//!   call of the same operation on the same knowledge base, users spread over the
//!   whole key space (cache off).

use std::hint::black_box;
use std::path::PathBuf;

use criterion::{Criterion, criterion_group, criterion_main};
use scryer_prolog::MachineBuilder;
use serde_json::json;

charon::knowledge_base!(Rbac = "../examples/rbac.pl");

fn rbac() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../examples/rbac.pl")
}

const POINT: &str = "get_user_has_permission(user_0042, deploy)";
const LIST: &str = "users_with_permission(deploy, Users)";

fn raw(c: &mut Criterion) {
    let mut machine = MachineBuilder::default().build();
    let consult = format!("consult('{}').", rbac().display());
    assert_eq!(machine.run_query(consult).count(), 1);
    let wrapper = std::env::temp_dir().join("charon-bench-wrapper.pl");
    // The wrapper's parts, in the order the engine consults them (engine/mod.rs).
    let text = concat!(
        include_str!("../src/engine/wrapper/calls.pl"),
        include_str!("../src/engine/wrapper/changes.pl"),
        include_str!("../src/engine/wrapper/loading.pl"),
        include_str!("../src/engine/wrapper/analysis.pl"),
        include_str!("../src/engine/wrapper/explain.pl"),
        include_str!("../src/engine/wrapper/rewriting.pl"),
    );
    std::fs::write(&wrapper, text).expect("write wrapper");
    assert_eq!(
        machine
            .run_query(format!("consult('{}').", wrapper.display()))
            .count(),
        1
    );

    let mut group = c.benchmark_group("raw_engine");
    group.bench_function("point", |b| {
        b.iter(|| black_box(machine.run_query(format!("{POINT}.")).count()))
    });
    group.bench_function("list", |b| {
        b.iter(|| black_box(machine.run_query(format!("{LIST}.")).count()))
    });
    group.finish();

    let mut group = c.benchmark_group("raw_wrapped");
    group.bench_function("point", |b| {
        b.iter(|| {
            let q = format!("'$charon_once'(sol,{POINT},10000000,R).");
            black_box(machine.run_query(q).count())
        })
    });
    group.bench_function("list", |b| {
        b.iter(|| {
            let q = format!("'$charon_once'(sol(Users),{LIST},10000000,R).");
            black_box(machine.run_query(q).count())
        })
    });
    group.finish();
}

fn charon(c: &mut Criterion) {
    let config = charon::EngineConfig {
        workers: 1,
        answer_cache: 0,
        ..charon::EngineConfig::default()
    };
    let kb = charon::KnowledgeBase::load_with(rbac(), config.clone()).expect("rbac loads");
    let point = json!({"User": "user_0042", "Perm": "deploy"});
    let list = json!({"Perm": "deploy"});
    assert_eq!(
        kb.call("get_user_has_permission", &point).expect("point"),
        json!(false)
    );
    assert_eq!(
        kb.call("users_with_permission", &list)
            .expect("list")
            .as_array()
            .map(Vec::len),
        Some(106)
    );

    let mut group = c.benchmark_group("charon_call");
    group.bench_function("point", |b| {
        b.iter(|| black_box(kb.call("get_user_has_permission", &point).expect("point")))
    });
    group.bench_function("list", |b| {
        b.iter(|| black_box(kb.call("users_with_permission", &list).expect("list")))
    });
    group.finish();

    let cached = charon::EngineConfig {
        answer_cache: 64 << 20,
        ..config
    };
    let kb = charon::KnowledgeBase::load_with(rbac(), cached).expect("rbac loads");
    let mut group = c.benchmark_group("charon_cached");
    group.bench_function("point", |b| {
        b.iter(|| black_box(kb.call("get_user_has_permission", &point).expect("point")))
    });
    group.bench_function("list", |b| {
        b.iter(|| black_box(kb.call("users_with_permission", &list).expect("list")))
    });
    group.finish();
}

fn typed(c: &mut Criterion) {
    let config = charon::EngineConfig {
        workers: 1,
        answer_cache: 0,
        ..charon::EngineConfig::default()
    };
    let rbac = Rbac::load_with(config).expect("rbac loads");
    let kb = rbac.knowledge_base();
    let typed = rbac.blocking();
    let users: Vec<String> = (0..1000).map(|i| format!("user_{i:04}")).collect();
    let perms = ["deploy", "read_wiki", "merge", "read_audit_log"];
    assert_eq!(
        typed
            .users_with_permission("deploy")
            .expect("typed list")
            .len(),
        106
    );

    let mut group = c.benchmark_group("typed_vs_json");
    let mut i = 0usize;
    group.bench_function("json/point", |b| {
        b.iter(|| {
            i = (i + 1) % users.len();
            let args = json!({"User": users[i], "Perm": perms[i % perms.len()]});
            black_box(kb.call("get_user_has_permission", &args).expect("point"))
        })
    });
    group.bench_function("typed/point", |b| {
        b.iter(|| {
            i = (i + 1) % users.len();
            black_box(
                typed
                    .get_user_has_permission(&users[i], perms[i % perms.len()])
                    .expect("point"),
            )
        })
    });
    group.bench_function("typed/list", |b| {
        b.iter(|| {
            i = (i + 1) % perms.len();
            black_box(typed.users_with_permission(perms[i]).expect("list"))
        })
    });
    group.bench_function("json/list", |b| {
        b.iter(|| {
            i = (i + 1) % perms.len();
            let args = json!({"Perm": perms[i]});
            black_box(kb.call("users_with_permission", &args).expect("list"))
        })
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(30).measurement_time(std::time::Duration::from_secs(4));
    targets = raw, charon, typed
}
criterion_main!(benches);
