//! The example knowledge bases: generated ones match their generator, and each
//! answers the way its documentation says.

use serde_json::json;

use crate::util::{config, example, root};

#[test]
fn rbac_example_and_expected_answers_match_the_generator() {
    let dir = std::env::temp_dir().join(format!("charon-gen-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let out = dir.join("rbac.pl");
    let run = std::process::Command::new("python3")
        .arg(root().join("scripts/gen_rbac.py"))
        .arg("--out")
        .arg(&out)
        .output()
        .expect("python3 runs scripts/gen_rbac.py");
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let generated = std::fs::read_to_string(&out).expect("generated");
    let committed = std::fs::read_to_string(example("rbac.pl")).expect("committed");
    assert_eq!(
        generated, committed,
        "examples/rbac.pl is stale: rerun scripts/gen_rbac.py"
    );
    let expected =
        std::fs::read_to_string(root().join("tests/data/rbac_expected.json")).expect("expected");
    assert_eq!(String::from_utf8_lossy(&run.stdout), expected);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn meds_example_answers() {
    let kb = charon::KnowledgeBase::load_with(example("meds.pl"), config()).expect("meds loads");
    assert!(kb.report().is_clean());
    let hits = kb
        .call(
            "pim_check",
            &json!({"Age": 82, "Drugs": ["diazepam", "aspirin", "doxylamine"]}),
        )
        .expect("pim_check");
    assert_eq!(hits.as_array().map(Vec::len), Some(2));
    assert_eq!(hits[0]["Substance"], json!("diazepam"));
    assert_eq!(
        kb.call("is_pim", &json!({"Age": 60, "Drug": "diazepam"}))
            .expect("is_pim"),
        json!(false)
    );
    assert_eq!(
        kb.call(
            "get_interaction",
            &json!({"First": "aspirin", "Second": "warfarin"})
        )
        .expect("ok"),
        json!("major")
    );
    assert_eq!(
        kb.call(
            "get_interaction",
            &json!({"First": "aspirin", "Second": "water"})
        )
        .expect("ok"),
        json!(null)
    );
    assert!(matches!(
        kb.call("drug_class", &json!({"Drug": "water"})),
        Err(charon::CallError::DetFailed { .. })
    ));
    assert_eq!(
        kb.call(
            "screening_summary",
            &json!({"Age": 82, "Drugs": ["warfarin", "aspirin", "diazepam"]})
        )
        .expect("summary"),
        json!({"Flagged": ["diazepam"], "Interactions": 1})
    );
    assert_eq!(kb.call("ready", &json!({})).expect("ready"), json!(true));
}

#[test]
fn library_example_changes_are_seen_and_undone() {
    let kb = charon::KnowledgeBase::load_with(example("library.pl"), config()).expect("loads");
    assert!(kb.is_mutating("put_book") && kb.is_mutating("delete_book"));
    assert!(!kb.is_mutating("get_book") && !kb.is_mutating("get_books"));
    let new = json!({"Id": "new", "Title": "A New Book", "Author": "Someone", "Year": 2026});
    assert_eq!(kb.call("put_book", &new).expect("put"), json!(true));
    assert_eq!(
        kb.call("get_book", &json!({"Id": "new"})).expect("get"),
        json!({"Title": "A New Book", "Author": "Someone", "Year": 2026})
    );
    assert_eq!(kb.call("count_books", &json!({})).expect("count"), json!(5));
    assert_eq!(
        kb.call("delete_book", &json!({"Id": "new"}))
            .expect("delete"),
        json!(true)
    );
    assert_eq!(
        kb.call("delete_book", &json!({"Id": "new"}))
            .expect("delete"),
        json!(false)
    );
    assert_eq!(
        kb.call("get_book", &json!({"Id": "new"})).expect("get"),
        json!(null)
    );
    assert_eq!(
        kb.call("get_books_before", &json!({"Year": 1970}))
            .expect("before"),
        json!([{"Id": "taocp1", "Title": "The Art of Computer Programming, Volume 1"}])
    );
}

#[test]
fn a_knowledge_base_loads_from_source_text() {
    let src = "%! double(+X:int, -Y:int) is det.\ndouble(X, Y) :- Y is 2 * X.\n";
    let kb = charon::KnowledgeBase::from_source_with("inline.pl", src, config()).expect("loads");
    assert_eq!(kb.operations()[0].location.to_string(), "inline.pl:1:4");
    assert_eq!(
        kb.call("double", &json!({"X": 21})).expect("double"),
        json!(42)
    );
}

#[test]
fn a_syntax_error_in_source_text_names_the_line() {
    let src = "ok(1).\nbroken(X :- .\n";
    match charon::KnowledgeBase::from_source_with("inline.pl", src, config()) {
        Err(charon::LoadError::Consult(m)) => {
            assert!(m.starts_with("inline.pl:2: syntax error"), "{m}")
        }
        other => panic!("{other:?}"),
    }
}

/// A knowledge base loads after Charon's wrapper, so a predicate of its under one of
/// the wrapper's names would replace the wrapper's: such a knowledge base is refused.
#[test]
fn a_knowledge_base_cannot_take_the_wrappers_names() {
    for (src, pi) in [
        (
            "%! a(-X:atom) is det.\na(x).\n'$charon_o0'(_, _) :- true.\n",
            "$charon_o0/2",
        ),
        ("ok(1).\n'$charon_once'(_, _, _, _).\n", "$charon_once/4"),
    ] {
        match charon::KnowledgeBase::from_source_with("inline.pl", src, config()) {
            Err(charon::LoadError::Consult(m)) => {
                assert!(m.contains(&format!("inline.pl defines {pi}")), "{m}")
            }
            other => panic!("{pi}: {other:?}"),
        }
    }
    // Names that only look alike are the knowledge base's own.
    let src = "%! a(-X:atom) is det.\na(X) :- charon_o0(X).\ncharon_o0(x).\n";
    let kb = charon::KnowledgeBase::from_source_with("inline.pl", src, config()).expect("loads");
    assert_eq!(kb.call("a", &json!({})).expect("a"), json!("x"));
}

/// `examples/typed-call`: typed methods from a plain `main`, run as a process.
#[test]
fn the_typed_call_example_runs() {
    let bin = crate::util::charon_bin().with_file_name("charon-example-typed");
    assert!(
        bin.exists(),
        "{} is missing: build the workspace",
        bin.display()
    );
    let out = std::process::Command::new(&bin)
        .args(["82", "diazepam", "warfarin", "aspirin"])
        .current_dir(std::env::temp_dir()) // the text is compiled in: no file needed
        .output()
        .expect("runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        stdout.lines().collect::<Vec<_>>(),
        [
            "flagged diazepam: Long-acting benzodiazepine: risk of falls and fractures.",
            "1 flagged (diazepam), 1 interacting pair(s)",
            "interaction warfarin + aspirin: major",
            "criteria loaded: true",
        ]
    );
    let bad = std::process::Command::new(&bin)
        .arg("old")
        .output()
        .expect("runs");
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("`old` is not an age"));
}
