//! The consistency invariant, tested differentially: for random call sequences, a
//! knowledge base served by several workers with the answer cache (and workers
//! recycled often, so that they catch up from the record of changes) answers
//! exactly as one worker without cache, called one call at a time. The subject is
//! called both ways a program can: blocking calls, and async calls, whose reads
//! run in batches — many at once, so that batches really form. The knowledge
//! bases are the hostile ones under `tests/kbs/state/` and the examples.
//!
//! Also what decides the number of workers: a call of a predicate no file defines
//! (a typo) keeps them all, a directive that can load a different state each time
//! keeps one.

use std::sync::{Arc, OnceLock};

use charon::{Effects, EngineConfig, KnowledgeBase};
use serde_json::{Value, json};

use crate::util::{config, example, fixture};

/// A small deterministic generator (xorshift), so that a failure names its seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[(self.next() % items.len() as u64) as usize]
    }
}

type Gen = fn(&mut Rng) -> Value;

/// The plain configuration: one worker, no cache, no recycling.
fn plain() -> EngineConfig {
    EngineConfig {
        workers: 1,
        answer_cache: 0,
        recycle_after: 1_000_000,
        ..config()
    }
}

/// The optimised one: three workers, the cache on (off for even seeds, see
/// `differential`), and recycling after a few calls.
fn optimised() -> EngineConfig {
    EngineConfig {
        workers: 3,
        answer_cache: 16 << 20,
        recycle_after: 7,
        ..config()
    }
}

fn answer(kb: &KnowledgeBase, op: &str, args: &Value) -> Result<Value, String> {
    kb.call(op, args).map_err(|e| e.to_string())
}

fn runtime() -> &'static tokio::runtime::Runtime {
    static RUNTIME: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RUNTIME.get_or_init(|| {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("a runtime")
    })
}

/// `n` async calls at once (reads among them run in batches).
fn answers_async(
    kb: &Arc<KnowledgeBase>,
    op: &str,
    args: &Value,
    n: usize,
) -> Vec<Result<Value, String>> {
    runtime().block_on(async {
        let calls: Vec<_> = (0..n)
            .map(|_| {
                let kb = Arc::clone(kb);
                let (op, args) = (op.to_string(), args.clone());
                tokio::spawn(
                    async move { kb.call_async(&op, &args).await.map_err(|e| e.to_string()) },
                )
            })
            .collect();
        let mut answers = Vec::new();
        for call in calls {
            answers.push(call.await.expect("the call's task"));
        }
        answers
    })
}

/// Runs `steps` random calls from `ops` on both configurations, seed by seed, and
/// compares every answer; then asks every read several times in parallel (each
/// worker must answer the same).
/// Returns how many calls of each operation succeeded (an error in both
/// configurations agrees too, so the callers check that the writes did work).
fn differential(
    path: std::path::PathBuf,
    ops: &[(&str, Gen)],
    seeds: &[u64],
    steps: usize,
) -> std::collections::HashMap<String, usize> {
    let mut succeeded = std::collections::HashMap::new();
    for &seed in seeds {
        let reference = KnowledgeBase::load_with(&path, plain()).expect("loads");
        // Even seeds turn the cache off, so that every read reaches the engine.
        let config = EngineConfig {
            answer_cache: if seed % 2 == 0 { 0 } else { 16 << 20 },
            ..optimised()
        };
        let subject = Arc::new(KnowledgeBase::load_with(&path, config).expect("loads"));
        let mut rng = Rng(seed);
        for step in 0..steps {
            let (op, make) = rng.pick(ops);
            let args = make(&mut rng);
            let expected = answer(&reference, op, &args);
            let got = if rng.next().is_multiple_of(2) {
                answer(&subject, op, &args)
            } else {
                answers_async(&subject, op, &args, 1).remove(0)
            };
            if matches!(&got, Ok(v) if *v != json!(false)) {
                *succeeded.entry(op.to_string()).or_insert(0) += 1;
            }
            assert_eq!(
                got,
                expected,
                "{}: seed {seed}, step {step}: {op}({args})",
                path.display()
            );
            if step % 10 == 9 {
                every_worker_agrees(&reference, &subject, ops, &mut rng);
            }
        }
    }
    succeeded
}

/// Asserts that each of `ops` succeeded at least once.
fn each_succeeded(succeeded: &std::collections::HashMap<String, usize>, ops: &[&str]) {
    for op in ops {
        assert!(
            succeeded.get(*op).is_some_and(|n| *n > 0),
            "{op} never succeeded: {succeeded:?}"
        );
    }
}

/// Every read, asked in parallel more times than there are workers: from
/// threads (blocking calls) and, at the same time, from many async tasks.
fn every_worker_agrees(
    reference: &KnowledgeBase,
    subject: &Arc<KnowledgeBase>,
    ops: &[(&str, Gen)],
    rng: &mut Rng,
) {
    for (op, make) in ops {
        if reference.is_mutating(op) {
            continue;
        }
        let args = make(rng);
        let expected = answer(reference, op, &args);
        std::thread::scope(|s| {
            for _ in 0..6 {
                s.spawn(|| assert_eq!(answer(subject, op, &args), expected, "{op}({args})"));
            }
            for got in answers_async(subject, op, &args, 24) {
                assert_eq!(got, expected, "{op}({args}), async");
            }
        });
    }
}

const KEYS: &[&str] = &["a", "b", "it's", "ünï", "x y"];
const FLOATS: &[f64] = &[0.1, -2.5, 1e-300, 3.0e10, 0.30000000000000004, 5e-324];

fn none(_: &mut Rng) -> Value {
    json!({})
}
fn key(r: &mut Rng) -> Value {
    json!({"Key": r.pick(KEYS)})
}

const MIXED: &[(&str, Gen)] = &[
    ("bump", none),
    ("get_counter", none),
    (
        "add_note",
        |r| json!({"Key": r.pick(KEYS), "Value": r.pick(FLOATS)}),
    ),
    ("first_note", key),
    ("notes", none),
    ("note_keys", none),
    ("drop_note", key),
    ("put_then_fail", key),
    ("put_then_throw", key),
    (
        "scan",
        |r| json!({"Text": r.pick(&["abc", "zz", "hé", ""])}),
    ),
    ("seen_chars", none),
    ("set_mood", |r| json!({"Mood": r.pick(KEYS)})),
    ("mood", none),
    ("tag", |r| json!({"Tag": r.pick(KEYS)})),
    ("all_tags", none),
    ("clear", none),
    ("mix", key),
    ("drop_then_fail", key),
    ("unhook", key),
    ("add_scratch", |r| json!({"Value": r.next() % 5})),
    ("scratch", none),
];

#[test]
fn mixed_state_changes_replicate_exactly() {
    let ok = differential(fixture("state/mixed.pl"), MIXED, &[1, 2, 3], 120);
    each_succeeded(
        &ok,
        &[
            "bump",
            "add_note",
            "first_note",
            "drop_note",
            "scan",
            "set_mood",
            "tag",
            "clear",
        ],
    );
}

/// Users, keys of the cache: hostile atoms among them (the atom of two apostrophes,
/// which scryer 0.10 wrote as the empty atom, a quote, non-ASCII, a space),
/// so a key must come back from the change record exactly as the call gave it.
const USERS: &[&str] = &["alice", "bob", "carol", "''", "", "it's", "ünï", "x y"];
const ROLES: &[&str] = &["admin", "viewer"];

fn user_role(r: &mut Rng) -> Value {
    json!({"User": r.pick(USERS), "Role": r.pick(ROLES)})
}

/// Reads that depend on some predicates and not others: the cache keeps answers
/// across writes they cannot see, and never serves one a write could change.
const SCOPED: &[(&str, Gen)] = &[
    ("grant_role", user_role),
    ("revoke", user_role),
    ("add_note", |r| json!({"X": r.pick(KEYS)})),
    ("add_m_note", |r| json!({"X": r.pick(KEYS)})),
    ("add_other", |r| json!({"X": r.next() % 4})),
    ("set_level", |r| json!({"L": r.next() % 3})),
    ("link_note", none),
    ("roles", |r| json!({"User": r.pick(USERS)})),
    (
        "can",
        |r| json!({"User": r.pick(USERS), "Perm": r.pick(&["deploy", "read"])}),
    ),
    ("notes", none),
    ("others_by_clause", none),
    (
        "by_name",
        |r| json!({"Name": r.pick(&["note", "other", "grant", "perm"])}),
    ),
    (
        "has_pred",
        |r| json!({"Name": r.pick(&["note", "via_note"])}),
    ),
    ("level", none),
    ("linked_all", none),
    ("via_notes", none),
    // By key, and writes that defeat a key (a clause for every user, all of them).
    ("grant_everyone", |r| json!({"Role": r.pick(ROLES)})),
    ("revoke_user", |r| json!({"User": r.pick(USERS)})),
    ("revoke_everything", none),
    (
        "set_lvl",
        |r| json!({"N": r.next() % 3, "L": r.pick(&["low", "high"])}),
    ),
    (
        "set_boss",
        |r| json!({"User": r.pick(USERS), "Boss": r.pick(USERS)}),
    ),
    ("lvl_of", |r| json!({"N": r.next() % 3})),
    ("boss_roles", |r| json!({"User": r.pick(USERS)})),
    ("reach", |r| json!({"User": r.pick(USERS)})),
    (
        "users_of",
        |r| json!({"Role": r.pick(&["admin", "viewer", "guest"])}),
    ),
];

#[test]
fn a_cache_that_keeps_answers_across_unrelated_writes_is_never_stale() {
    // Odd seeds: the cache is on.
    let ok = differential(fixture("state/scoped.pl"), SCOPED, &[13, 15, 17], 250);
    each_succeeded(
        &ok,
        &[
            "grant_role",
            "revoke",
            "add_m_note",
            "can",
            "level",
            "via_notes",
            "grant_everyone",
            "set_lvl",
            "lvl_of",
            "boss_roles",
            "reach",
            "users_of",
        ],
    );
    // The analysis found the keys it should, and only those.
    let kb = KnowledgeBase::load_with(fixture("state/scoped.pl"), optimised()).expect("loads");
    let scope = |op: &str| match kb.cache_scope(op) {
        Some(charon::CacheScope::Reads(deps)) => deps,
        other => panic!("{op}: {other:?}"),
    };
    assert!(scope("roles").contains(&"grant/2 (for the same User)".to_string()));
    assert!(scope("lvl_of").contains(&"lvl/2 (for the same N)".to_string()));
    assert!(scope("users_of").contains(&"grant/2 (for the same Role)".to_string()));
    assert!(scope("reach").contains(&"grant/2 (for the same User)".to_string()));
    let boss = scope("boss_roles");
    assert!(
        boss.contains(&"boss/2 (for the same User)".to_string()),
        "{boss:?}"
    );
    assert!(boss.contains(&"grant/2".to_string()), "{boss:?}");
}

#[test]
fn a_module_knowledge_base_with_its_own_operator_replicates_exactly() {
    const OPS: &[(&str, Gen)] = &[
        ("put_rule", |r| {
            let atoms = ["rain", "wet", "cold", "ice"];
            json!({"From": r.pick(&atoms), "To": r.pick(&atoms)})
        }),
        (
            "holds",
            |r| json!({"From": r.pick(&["rain", "wet", "cold", "ice"])}),
        ),
        ("rules", none),
        (
            "drop_rule",
            |r| json!({"From": r.pick(&["rain", "wet", "cold", "ice"])}),
        ),
    ];
    let ok = differential(fixture("state/modkb.pl"), OPS, &[4, 5], 80);
    each_succeeded(&ok, &["put_rule", "drop_rule"]);
}

#[test]
fn meta_calls_run_on_one_worker_and_agree() {
    const OPS: &[(&str, Gen)] = &[
        (
            "apply_named",
            |r| json!({"Name": r.pick(&["add", "check", "missing"]), "Value": r.next() % 4}),
        ),
        ("values", none),
    ];
    let ok = differential(fixture("state/meta.pl"), OPS, &[6], 60);
    each_succeeded(&ok, &["apply_named"]);
    let kb = KnowledgeBase::load_with(fixture("state/meta.pl"), optimised()).expect("loads");
    let why = kb.single_worker_reason().expect("one worker");
    assert!(
        why.contains("apply_named") && why.contains("known only when it runs"),
        "{why}"
    );
    assert!(matches!(
        kb.effects("apply_named"),
        Some(Effects::AssumedWrite { .. })
    ));
}

#[test]
fn the_library_example_replicates_exactly() {
    const OPS: &[(&str, Gen)] = &[
        (
            "get_book",
            |r| json!({"Id": r.pick(&["b1", "b2", "zz", "new"])}),
        ),
        ("get_books", none),
        (
            "get_books_before",
            |r| json!({"Year": 1900 + (r.next() % 150)}),
        ),
        ("put_book", |r| {
            json!({"Id": r.pick(&["b1", "new", "n2"]), "Title": "T", "Author": "A",
                   "Year": 1900 + (r.next() % 150)})
        }),
        (
            "delete_book",
            |r| json!({"Id": r.pick(&["b1", "b2", "new", "n2"])}),
        ),
        ("count_books", none),
    ];
    let ok = differential(example("library.pl"), OPS, &[7, 8], 80);
    each_succeeded(&ok, &["put_book", "delete_book"]);
}

#[test]
fn classes_and_reasons_are_reported() {
    let kb = KnowledgeBase::load_with(fixture("state/mixed.pl"), plain()).expect("loads");
    assert_eq!(kb.effects("get_counter"), Some(Effects::Read));
    assert_eq!(kb.single_worker_reason(), None);
    let write = |op| match kb.effects(op) {
        Some(Effects::Write {
            reason,
            replicated_by,
        }) => (reason, replicated_by),
        other => panic!("{op}: {other:?}"),
    };
    assert_eq!(write("bump").1, "recorded changes");
    assert!(write("set_mood").0.contains("bb_put/2"));
    assert!(
        write("tag").0.contains("add_tag/1"),
        "found in the used module"
    );
    assert_eq!(write("drop_note").1, "full dump");
    assert!(write("scan").0.contains("assertz/1"), "the DCG's braces");
    assert_eq!(write("mix").1, "full dump");
    assert_eq!(write("unhook").1, "full dump", "the rule a directive added");
    assert_eq!(write("add_scratch").1, "recorded changes");
}

#[test]
fn concurrent_writers_lose_nothing_and_every_worker_sees_the_result() {
    let kb = KnowledgeBase::load_with(fixture("state/mixed.pl"), optimised()).expect("loads");
    std::thread::scope(|s| {
        for t in 0..6 {
            let kb = &kb;
            s.spawn(move || {
                for i in 0..20 {
                    kb.call("bump", &json!({})).expect("bump");
                    if i % 5 == 0 {
                        kb.call("tag", &json!({"Tag": format!("t{t}")}))
                            .expect("tag");
                    }
                    kb.call("get_counter", &json!({})).expect("read");
                }
            });
        }
    });
    std::thread::scope(|s| {
        for _ in 0..8 {
            s.spawn(|| {
                assert_eq!(
                    kb.call("get_counter", &json!({})).expect("read"),
                    json!(120)
                );
                let tags = kb.call("all_tags", &json!({})).expect("tags");
                assert_eq!(tags.as_array().map(Vec::len), Some(6), "{tags}");
            });
        }
    });
}

/// 4 writers put 4 KB values (hostile text: quotes, a backslash, a newline,
/// U+2028) under keys of their own, each reading its last write back at once, while
/// workers are recycled every few calls: the record of changes outgrows its base
/// several times and is folded into new ones beside the writes. Every write is read
/// back by the caller that made it, and at the end every worker holds the last
/// value of every key.
#[test]
fn the_state_folded_into_new_bases_beside_the_writes_loses_nothing() {
    // Correctness, not latency: under the whole test run a write may wait seconds
    // for a recycled worker to restore a 2 MB base.
    let mut patient = optimised();
    patient.limits.time = std::time::Duration::from_secs(60);
    let kb = KnowledgeBase::load_with(fixture("state/entries.pl"), patient).expect("loads");
    let value = |t: usize, i: usize| {
        let head = format!("t{t} w{i} 'q' \\ \n \u{2028} ");
        format!("{head}{}", "x".repeat(4096 - head.len()))
    };
    let writes = 150;
    std::thread::scope(|s| {
        for t in 0..4 {
            let kb = &kb;
            s.spawn(move || {
                for i in 0..writes {
                    let key = format!("k{t}_{}", i % 25);
                    kb.call("put", &json!({"Key": key, "Value": value(t, i)}))
                        .expect("put");
                    assert_eq!(
                        kb.call("get", &json!({"Key": key})).expect("get"),
                        json!(value(t, i)),
                        "{key} after write {i}"
                    );
                }
            });
        }
    });
    let rebases = kb.stats().state_rebases;
    assert!(rebases >= 2, "folded into a new base {rebases} times");
    let mut keys: Vec<String> = (0..4)
        .flat_map(|t| (0..25).map(move |k| format!("k{t}_{k}")))
        .collect();
    keys.sort();
    std::thread::scope(|s| {
        for _ in 0..6 {
            s.spawn(|| {
                assert_eq!(kb.call("keys", &json!({})).expect("keys"), json!(keys));
                for t in 0..4 {
                    for k in [0, 7, 24] {
                        let last = (0..writes).rev().find(|i| i % 25 == k).expect("a write");
                        assert_eq!(
                            kb.call("get", &json!({"Key": format!("k{t}_{k}")}))
                                .expect("get"),
                            json!(value(t, last))
                        );
                    }
                }
            });
        }
    });
}

#[test]
fn charon_check_reports_classes_reasons_and_one_worker() {
    let meta = fixture("state/meta.pl");
    let (code, out, _) = crate::util::run_charon(&["check", meta.to_str().expect("utf-8")]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("values: read (answers may be cached until a write changes"),
        "{out}"
    );
    assert!(
        out.contains(
            "apply_named: treated as a write because it calls a goal known only when it runs"
        ),
        "{out}"
    );
    assert!(out.contains("runs on one worker: apply_named"), "{out}");
    let mixed = fixture("state/mixed.pl");
    let (_, json, _) =
        crate::util::run_charon(&["check", "--json", mixed.to_str().expect("utf-8")]);
    let report: Value = charon::json::from_str(&json).expect("json");
    assert_eq!(report["effects"]["bump"]["class"], "write", "{report}");
    assert_eq!(report["effects"]["drop_note"]["replicated_by"], "full dump");
    assert_eq!(report["effects"]["get_counter"]["class"], "read");
    assert_eq!(report["single_worker"], Value::Null);
}

#[test]
fn the_read_only_examples_answer_the_same_from_the_cache() {
    const DRUGS: &[&str] = &[
        "diazepam",
        "amitriptyline",
        "doxylamine",
        "warfarin",
        "aspirin",
        "nothing",
    ];
    const MEDS: &[(&str, Gen)] = &[
        (
            "pim_check",
            |r| json!({"Age": 60 + r.next() % 30, "Drugs": [r.pick(DRUGS), r.pick(DRUGS)]}),
        ),
        (
            "is_pim",
            |r| json!({"Age": 60 + r.next() % 30, "Drug": r.pick(DRUGS)}),
        ),
        (
            "get_interaction",
            |r| json!({"First": r.pick(DRUGS), "Second": r.pick(DRUGS)}),
        ),
        ("drug_class", |r| json!({"Drug": r.pick(DRUGS)})),
        (
            "screening_summary",
            |r| json!({"Age": 60 + r.next() % 30, "Drugs": [r.pick(DRUGS), r.pick(DRUGS), r.pick(DRUGS)]}),
        ),
        ("ready", none),
    ];
    let ok = differential(example("meds.pl"), MEDS, &[9], 80);
    each_succeeded(&ok, &["pim_check", "drug_class", "screening_summary"]);
    const RBAC: &[(&str, Gen)] = &[
        (
            "get_user_has_permission",
            |r| json!({"User": format!("user_{:04}", r.next() % 1000), "Perm": r.pick(&["deploy", "read", "write", "audit"])}),
        ),
        (
            "users_with_permission",
            |r| json!({"Perm": r.pick(&["deploy", "read", "audit"])}),
        ),
        (
            "get_user_roles",
            |r| json!({"User": format!("user_{:04}", r.next() % 1000)}),
        ),
    ];
    let ok = differential(example("rbac.pl"), RBAC, &[10], 60);
    each_succeeded(&ok, &["users_with_permission", "get_user_roles"]);
}

#[test]
fn a_library_with_operators_and_state_of_its_own_keeps_reads_reads() {
    let kb = KnowledgeBase::load_with(fixture("state/clp.pl"), plain()).expect("loads");
    assert_eq!(kb.effects("best"), Some(Effects::Read));
    assert_eq!(kb.single_worker_reason(), None);
    const OPS: &[(&str, Gen)] = &[
        ("best", none),
        ("set_limit", |r| json!({"L": 3 + r.next() % 10})),
    ];
    let ok = differential(fixture("state/clp.pl"), OPS, &[11], 60);
    each_succeeded(&ok, &["best", "set_limit"]);
}

#[test]
fn a_failing_write_leaves_no_unrecorded_change_behind() {
    for config in [plain(), optimised()] {
        let kb = KnowledgeBase::load_with(fixture("state/mixed.pl"), config).expect("loads");
        assert_eq!(
            kb.call("drop_then_fail", &json!({"Key": "start"}))
                .expect("semidet"),
            json!(false)
        );
        assert_eq!(
            kb.call("note_keys", &json!({})).expect("keys"),
            json!(["start"])
        );
    }
}

#[test]
fn a_call_nothing_defines_is_a_warning_and_keeps_every_worker() {
    let typo = fixture("state/typo.pl");
    let (code, out, _) = crate::util::run_charon(&["check", typo.to_str().expect("utf-8")]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains(
            "warning: lookup/2 calls valeu/2, which no file defines: the call raises an \
             existence error"
        ),
        "{out}"
    );
    assert!(
        out.contains("lookup: read (answers may be cached until a write changes"),
        "{out}"
    );
    assert!(!out.contains("runs on one worker"), "{out}");

    // No memory limit: scryer 0.10 reserves stack for this failure-driven loop as it
    // runs (address space, not resident memory), and a second and a half of it can
    // pass the tests' 1 GiB address-space limit on a fast machine.
    let config = EngineConfig {
        workers: 2,
        limits: charon::Limits {
            inferences: 0,
            time: std::time::Duration::from_secs(30),
            memory: None,
            ..config().limits
        },
        ..config()
    };
    let kb = KnowledgeBase::load_with(&typo, config).expect("loads");
    assert_eq!(kb.single_worker_reason(), None);
    assert_eq!(kb.effects("lookup"), Some(Effects::Read));
    assert_eq!(kb.warnings().len(), 1, "{:?}", kb.warnings());
    // The typo'd operation answers with the existence error, and the worker stays.
    for _ in 0..3 {
        let err = kb
            .call("lookup", &json!({"K": "a"}))
            .expect_err("an existence error");
        assert!(
            err.to_string().contains("existence_error") && err.to_string().contains("valeu"),
            "{err}"
        );
    }
    assert_eq!(kb.call("answer", &json!({})).expect("answer"), json!(42));

    // A slow read (about a second) does not hold up a fast one: it runs on the other
    // worker meanwhile.
    let spin = |n: u64| {
        let started = std::time::Instant::now();
        kb.call("spin", &json!({"N": n})).expect("spin");
        started.elapsed()
    };
    let mut n = 100_000u64;
    let mut took = spin(n);
    while took < std::time::Duration::from_millis(500) {
        n *= 2;
        took = spin(n);
    }
    // About a second and a half alone.
    let n = (n as f64 * 1.5 / took.as_secs_f64()) as u64;
    std::thread::scope(|s| {
        let slow = s.spawn(|| {
            let started = std::time::Instant::now();
            kb.call("spin", &json!({"N": n})).expect("spin");
            (started.elapsed(), std::time::Instant::now())
        });
        std::thread::sleep(std::time::Duration::from_millis(150));
        let started = std::time::Instant::now();
        assert_eq!(kb.call("answer", &json!({})).expect("answer"), json!(42));
        let fast = started.elapsed();
        let fast_done = std::time::Instant::now();
        let (slow, slow_done) = slow.join().expect("the slow call");
        assert!(
            slow >= std::time::Duration::from_millis(300),
            "the slow call took {slow:?}"
        );
        assert!(
            fast_done < slow_done && fast * 4 < slow,
            "the fast call took {fast:?} beside a slow one of {slow:?}"
        );
    });
}

#[test]
fn a_directive_that_loads_a_random_state_keeps_one_worker() {
    let seed = fixture("state/seed.pl");
    let (code, out, _) = crate::util::run_charon(&["check", seed.to_str().expect("utf-8")]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains(
            "runs on one worker: the directive initialization((random_integer(1, 1000000, "
        ) && out.contains("at load calls random_integer/3, so workers could load different states"),
        "{out}"
    );
    assert!(out.contains("get_seed: read, not cached because"), "{out}");

    // Three workers asked, recycled after a few calls (a recycled worker loads the
    // file again): every answer is the one worker's.
    let config = EngineConfig {
        workers: 3,
        recycle_after: 5,
        ..config()
    };
    let kb = Arc::new(KnowledgeBase::load_with(&seed, config).expect("loads"));
    let why = kb.single_worker_reason().expect("one worker");
    assert!(why.contains("random_integer/3"), "{why}");
    let first = answer(&kb, "get_seed", &json!({})).expect("a seed");
    for i in 0..30 {
        assert_eq!(
            answer(&kb, "get_seed", &json!({})),
            Ok(first.clone()),
            "call {i}"
        );
    }
    std::thread::scope(|s| {
        for _ in 0..3 {
            s.spawn(|| {
                for _ in 0..10 {
                    assert_eq!(answer(&kb, "get_seed", &json!({})), Ok(first.clone()));
                }
            });
        }
    });
    for got in answers_async(&kb, "get_seed", &json!({}), 24) {
        assert_eq!(got, Ok(first.clone()), "async");
    }
}
