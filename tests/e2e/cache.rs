//! The answer cache: only pure read-only operations, never a stale answer, and
//! answers kept across writes to what they cannot read.

use charon::{CacheScope, EngineConfig, KnowledgeBase};
use serde_json::json;

use crate::util::{config, example, fixture};

fn cached(path: std::path::PathBuf) -> KnowledgeBase {
    let c = EngineConfig {
        answer_cache: 1 << 20,
        ..config()
    };
    KnowledgeBase::load_with(path, c).expect("loads")
}

#[test]
fn only_pure_read_only_operations_are_cached() {
    let lib = cached(example("library.pl"));
    assert!(lib.is_cacheable("get_book") && lib.is_cacheable("get_books"));
    assert!(!lib.is_cacheable("put_book") && !lib.is_cacheable("delete_book"));
    let types = cached(fixture("types.pl"));
    assert!(types.is_cacheable("echo_atom"));
    assert!(!types.is_cacheable("chatty"), "it prints");
    assert!(!types.is_cacheable("nap"), "it sleeps");
}

#[test]
fn repeated_calls_are_answered_without_the_engine() {
    let kb = cached(example("rbac.pl"));
    let args = json!({"Perm": "deploy"});
    let first = kb.call("users_with_permission", &args).expect("call");
    let before = kb.stats().calls;
    for _ in 0..10 {
        assert_eq!(
            kb.call("users_with_permission", &args).expect("call"),
            first
        );
    }
    assert_eq!(kb.stats().calls, before, "hits must not reach the engine");
    // Other arguments are another entry.
    let other = kb
        .call("users_with_permission", &json!({"Perm": "merge"}))
        .expect("call");
    assert_ne!(other, first);
    assert_eq!(kb.stats().calls, before + 1);
}

#[test]
fn a_change_invalidates_cached_answers() {
    let kb = cached(fixture("counter.pl"));
    assert!(kb.is_cacheable("get_counter"));
    for i in 0..5 {
        assert_eq!(kb.call("get_counter", &json!({})).expect("get"), json!(i));
        assert_eq!(kb.call("get_counter", &json!({})).expect("get"), json!(i));
        kb.call("put_increment", &json!({})).expect("inc");
    }
    // A change that rolls back leaves the cache valid, and the answer unchanged.
    assert!(kb.call("put_note_then_throw", &json!({"X": "a"})).is_err());
    assert_eq!(kb.call("get_counter", &json!({})).expect("get"), json!(5));
    assert_eq!(kb.call("get_notes", &json!({})).expect("notes"), json!([]));
}

/// Calls `op` and says whether the engine ran it (a cache miss).
fn ran(kb: &KnowledgeBase, op: &str, args: &serde_json::Value) -> (serde_json::Value, bool) {
    let before = kb.stats().calls;
    let answer = kb.call(op, args).expect(op);
    (answer, kb.stats().calls != before)
}

#[test]
fn a_write_forgets_only_the_answers_that_can_read_what_it_changed() {
    let kb = cached(fixture("state/scoped.pl"));
    let alice = json!({"User": "alice"});
    assert_eq!(ran(&kb, "roles", &alice), (json!(["admin"]), true));
    assert_eq!(ran(&kb, "linked_all", &json!({})), (json!([1]), true));
    assert_eq!(ran(&kb, "notes", &json!({})), (json!([]), true));

    // A note changes nothing roles/2 or linked_all/1 can read.
    kb.call("add_note", &json!({"X": "n1"})).expect("add_note");
    assert_eq!(ran(&kb, "roles", &alice), (json!(["admin"]), false));
    assert_eq!(ran(&kb, "linked_all", &json!({})), (json!([1]), false));
    assert_eq!(ran(&kb, "notes", &json!({})), (json!(["n1"]), true));

    // A grant does; other/1 is read through a rule a directive asserted.
    kb.call("grant_role", &json!({"User": "alice", "Role": "viewer"}))
        .expect("grant");
    assert_eq!(
        ran(&kb, "roles", &alice),
        (json!(["admin", "viewer"]), true)
    );
    kb.call("add_other", &json!({"X": 2})).expect("add_other");
    assert_eq!(ran(&kb, "linked_all", &json!({})), (json!([1, 2]), true));
    assert_eq!(
        ran(&kb, "roles", &alice),
        (json!(["admin", "viewer"]), false)
    );

    // A note/1 of another module counts as note/1 (compared by name and arity).
    kb.call("add_m_note", &json!({"X": "m1"}))
        .expect("add_m_note");
    assert_eq!(ran(&kb, "notes", &json!({})), (json!(["n1"]), true));

    // A read that inspects a predicate known only when it runs forgets at every write.
    let name = json!({"Name": "other"});
    assert_eq!(ran(&kb, "by_name", &name), (json!([1, 2]), true));
    assert_eq!(ran(&kb, "by_name", &name), (json!([1, 2]), false));
    kb.call("set_level", &json!({"L": 1})).expect("set_level");
    assert_eq!(ran(&kb, "by_name", &name), (json!([1, 2]), true));
    assert_eq!(ran(&kb, "level", &json!({})), (json!(1), true));

    assert_eq!(
        kb.cache_scope("roles"),
        Some(CacheScope::Reads(vec![
            "grant/2 (for the same User)".into(),
            "roles/2 (for the same User)".into()
        ]))
    );
    // By key: a write to bob's grants keeps alice's answer, not bob's.
    let (alice, bob) = (json!({"User": "alice"}), json!({"User": "bob"}));
    ran(&kb, "roles", &alice);
    ran(&kb, "roles", &bob);
    kb.call("grant_role", &json!({"User": "bob", "Role": "viewer"}))
        .expect("grant_role");
    assert!(!ran(&kb, "roles", &alice).1, "alice's answer is kept");
    assert!(ran(&kb, "roles", &bob).1, "bob's is computed again");
    // A clause for every user forgets every answer; once one may exist, so does a
    // removal (it may take that clause: retract(grant(bob, admin)) does).
    kb.call("grant_everyone", &json!({"Role": "admin"}))
        .expect("grant_everyone");
    assert!(ran(&kb, "roles", &alice).1);
    assert!(ran(&kb, "roles", &bob).1);
    kb.call("revoke", &json!({"User": "bob", "Role": "admin"}))
        .expect("revoke");
    assert!(
        ran(&kb, "roles", &alice).1,
        "alice's answer is computed again"
    );
    assert!(
        matches!(kb.cache_scope("by_name"), Some(CacheScope::Anything { reason }) if reason.contains("clause/2"))
    );
    assert!(kb.cache_scope("level").is_some_and(
        |s| matches!(s, CacheScope::Reads(r) if r.contains(&"the blackboard".to_string()))
    ));
    assert_eq!(
        kb.cache_scope("grant_role"),
        None,
        "a write is never cached"
    );
}

/// A clause loaded with a variable at the key (`grant(_, guest)`, and the same in a
/// module) holds for every key, and a removal by another key may take it: the
/// answers of every key are forgotten then, not only the removed key's.
#[test]
fn a_removal_that_may_take_a_clause_for_every_key_forgets_every_key() {
    let kb = cached(fixture("state/loose.pl"));
    // Both are read by key: a removal by a key that cannot take a clause for
    // every key would forget only that key's answers.
    for (op, pred) in [("roles", "grant/2"), ("ranks", "rank/2")] {
        assert!(
            matches!(kb.cache_scope(op), Some(CacheScope::Reads(r)) if r.contains(&format!("{pred} (for the same User)"))),
            "{op}: {:?}",
            kb.cache_scope(op)
        );
    }
    let alice = json!({"User": "alice"});
    assert_eq!(ran(&kb, "roles", &alice), (json!(["admin", "guest"]), true));
    assert_eq!(
        ran(&kb, "roles", &alice),
        (json!(["admin", "guest"]), false)
    );
    kb.call("revoke", &json!({"User": "bob", "Role": "guest"}))
        .expect("revoke");
    assert_eq!(ran(&kb, "roles", &alice), (json!(["admin"]), true));

    assert_eq!(ran(&kb, "ranks", &alice), (json!([3, 1]), true));
    assert_eq!(ran(&kb, "ranks", &alice), (json!([3, 1]), false));
    kb.call("demote", &json!({"User": "bob", "Rank": 1}))
        .expect("demote");
    assert_eq!(ran(&kb, "ranks", &alice), (json!([3]), true));
}
