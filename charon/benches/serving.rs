//! Serving features measured in process: a 10,000-solution answer whole versus in
//! pages of 100 (method in BENCHMARKS.md, "Serving").
//!
//! * `paging/whole`: `KnowledgeBase::call` of `nd1(10000, I)` (tests/kbs/types.pl),
//!   cache off: the whole answer, one engine call.
//! * `paging/first_page`: the first page of 100 alone (`page`, cache off): what a
//!   client that reads one page pays.
//! * `paging/all_pages_nocache`: every page of 100 in turn (`pages`), cache off:
//!   each page runs the goal up to its end (the prefix again).
//! * `paging/all_pages_cached`: the same walk with the answer cache on, emptied first:
//!   the first page runs 101 solutions, the second computes the whole answer once,
//!   the rest are slices of it.

use std::hint::black_box;
use std::path::PathBuf;

use charon::{EngineConfig, KnowledgeBase};
use criterion::{Criterion, criterion_group, criterion_main};
use serde_json::json;

fn types() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/kbs/types.pl")
}

fn load(cache: u64) -> KnowledgeBase {
    let mut config = EngineConfig {
        workers: 1,
        answer_cache: cache,
        ..EngineConfig::default()
    };
    config.limits.solutions = 1_000_000;
    KnowledgeBase::load_with(types(), config).expect("tests/kbs/types.pl loads")
}

fn paging(c: &mut Criterion) {
    let plain = load(0);
    let args = json!({"N": 10_000});
    assert_eq!(plain.pages("nd1", &args, 100).count(), 10_000);
    let mut group = c.benchmark_group("paging");
    group.bench_function("whole", |b| {
        b.iter(|| black_box(plain.call("nd1", &args).expect("whole")))
    });
    group.bench_function("first_page", |b| {
        b.iter(|| black_box(plain.page("nd1", &args, 100, None).expect("page")))
    });
    group.bench_function("all_pages_nocache", |b| {
        b.iter(|| black_box(plain.pages("nd1", &args, 100).count()))
    });
    // A new argument each walk, so that the cache starts empty for it.
    let cached = load(256 << 20);
    let mut n = 10_000;
    group.bench_function("all_pages_cached", |b| {
        b.iter(|| {
            n += 1;
            black_box(cached.pages("nd1", &json!({"N": n}), 100).count())
        })
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10).measurement_time(std::time::Duration::from_secs(5));
    targets = paging
}
criterion_main!(benches);
