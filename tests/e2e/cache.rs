//! The answer cache: only pure read-only operations, never a stale answer.

use charon::{EngineConfig, KnowledgeBase};
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
