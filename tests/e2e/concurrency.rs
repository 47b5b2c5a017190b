//! Many calls at once are answered correctly; a change is visible to every
//! call that starts after it returns; no call sees half of a change.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};

use charon::KnowledgeBase;
use serde_json::{Value, json};

use crate::util::{config, example, fixture, root};

fn expected() -> Value {
    let text = std::fs::read_to_string(root().join("tests/data/rbac_expected.json"))
        .expect("expected answers");
    charon::json::from_str(&text).expect("json")
}

#[test]
fn ten_thousand_calls_from_eight_threads_are_all_correct() {
    let kb = KnowledgeBase::load_with(example("rbac.pl"), config()).expect("rbac loads");
    let expected = expected();
    let points: Vec<(String, bool)> = expected["get_user_has_permission"]
        .as_object()
        .expect("object")
        .iter()
        .map(|(k, v)| (k.clone(), v.as_bool().expect("bool")))
        .collect();
    let lists: BTreeMap<String, Value> = expected["users_with_permission"]
        .as_object()
        .expect("object")
        .iter()
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    let perms: Vec<&String> = lists.keys().collect();
    std::thread::scope(|s| {
        for t in 0..8 {
            let (kb, points, lists, perms) = (&kb, &points, &lists, &perms);
            s.spawn(move || {
                for i in 0..1250 {
                    if i % 25 == 0 {
                        let p = perms[(i / 25 + t) % perms.len()];
                        let got = kb
                            .call("users_with_permission", &json!({"Perm": p}))
                            .expect("list call");
                        assert_eq!(&got, &lists[p.as_str()], "users_with_permission({p})");
                    } else {
                        let (key, want) = &points[(i * 7 + t) % points.len()];
                        let (user, perm) = key.split_once('/').expect("user/perm");
                        let got = kb
                            .call(
                                "get_user_has_permission",
                                &json!({"User": user, "Perm": perm}),
                            )
                            .expect("point call");
                        assert_eq!(got, json!(want), "{key}");
                    }
                }
            });
        }
    });
}

#[test]
fn a_change_is_visible_to_every_later_call() {
    let kb = KnowledgeBase::load_with(fixture("counter.pl"), config()).expect("counter loads");
    assert!(kb.is_mutating("put_increment"));
    assert!(!kb.is_mutating("get_counter"));
    for i in 1..=20 {
        assert_eq!(kb.call("put_increment", &json!({})).expect("inc"), json!(i));
        // Every worker must see it: ask more times than there are workers, in parallel.
        std::thread::scope(|s| {
            for _ in 0..4 {
                s.spawn(|| assert_eq!(kb.call("get_counter", &json!({})).expect("get"), json!(i)));
            }
        });
    }
}

#[test]
fn concurrent_increments_are_not_lost() {
    let kb = KnowledgeBase::load_with(fixture("counter.pl"), config()).expect("counter loads");
    std::thread::scope(|s| {
        for _ in 0..4 {
            s.spawn(|| {
                for _ in 0..25 {
                    kb.call("put_increment", &json!({})).expect("inc");
                }
            });
        }
    });
    assert_eq!(kb.call("get_counter", &json!({})).expect("get"), json!(100));
}

#[test]
fn no_reader_sees_half_a_change() {
    let kb = KnowledgeBase::load_with(fixture("counter.pl"), config()).expect("counter loads");
    let done = AtomicBool::new(false);
    std::thread::scope(|s| {
        for _ in 0..3 {
            s.spawn(|| {
                while !done.load(Ordering::Relaxed) {
                    assert_eq!(kb.call("get_torn", &json!({})).expect("torn"), json!([]));
                }
            });
        }
        for k in 0..50 {
            kb.call("put_pair", &json!({"K": k})).expect("pair");
        }
        done.store(true, Ordering::Relaxed);
    });
    assert_eq!(
        kb.call("count_pairs", &json!({})).expect("count"),
        json!(50)
    );
}

#[test]
fn failed_or_throwing_changes_are_rolled_back() {
    let kb = KnowledgeBase::load_with(fixture("counter.pl"), config()).expect("counter loads");
    kb.call("put_note", &json!({"X": "kept"})).expect("note");
    assert_eq!(
        kb.call("put_note_then_fail", &json!({"X": "failed"}))
            .expect("semidet"),
        json!(false)
    );
    assert!(
        kb.call("put_note_then_throw", &json!({"X": "thrown"}))
            .is_err()
    );
    for _ in 0..4 {
        assert_eq!(
            kb.call("get_notes", &json!({})).expect("notes"),
            json!(["kept"])
        );
    }
}
