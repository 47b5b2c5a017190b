//! Knowledge bases split into files: `include/1`, `consult/1`, `ensure_loaded/1`,
//! `use_module/1,2` and `[F]` of the knowledge base's own files, from disk (library
//! and binary) and from memory (as `knowledge_base!` compiles them in), with load
//! errors that name the user's file and line.

use std::path::{Path, PathBuf};

use charon::{KnowledgeBase, LoadError, SourceFiles};
use serde_json::json;

use crate::util::{charon_bin, config};

/// The main file and what it loads: an include in a subdirectory that includes a
/// sibling of its own (resolved against the included file), a module used with an
/// import list, a consulted list, a file ensure_loaded twice (loaded once), and a
/// library.
const FILES: &[(&str, &str)] = &[
    (
        "main.pl",
        "% The shop.\n\
         :- use_module(library(lists)).\n\
         :- include('data/items.pl').\n\
         :- use_module(helpers, [twice/2]).\n\
         :- [more, extra].\n\
         :- ensure_loaded(once).\n\
         :- ensure_loaded('once.pl').\n\
         \n\
         %! double(+X:int, -Y:int) is det.\n\
         double(X, Y) :- twice(X, Y).\n\
         \n\
         %! colour(-C:atom) is nondet.\n\
         colour(C) :- item_colour(C).\n\
         \n\
         %! shapes(-L:list(atom)) is det.\n\
         shapes(L) :- findall(S, (shape(S) ; corner_shape(S)), L0), reverse(L0, L).\n\
         \n\
         %! counted(-N:int) is det.\n\
         counted(N) :- findall(x, once_fact, L), length(L, N).\n",
    ),
    ("data/items.pl", "item_colour(red).\n:- include(blue).\n"),
    ("data/blue.pl", "item_colour(blue).\n"),
    (
        "helpers.pl",
        ":- module(helpers, [twice/2, thrice/2]).\ntwice(X, Y) :- Y is 2 * X.\nthrice(X, Y) :- Y is 3 * X.\n",
    ),
    ("more.pl", "shape(circle).\n"),
    ("extra.pl", "corner_shape(square).\n"),
    ("once.pl", "once_fact.\n"),
];

fn write_files(files: &[(&str, &str)]) -> PathBuf {
    static SEQ: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let seq = SEQ.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("charon-files-{}-{seq}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for (path, text) in files {
        let path = dir.join(path);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("dir");
        std::fs::write(&path, text).expect("write");
    }
    dir
}

fn check_answers(kb: &KnowledgeBase) {
    assert_eq!(
        kb.call("double", &json!({"X": 21})).expect("double"),
        json!(42)
    );
    assert_eq!(
        kb.call("colour", &json!({})).expect("colour"),
        json!(["red", "blue"])
    );
    assert_eq!(
        kb.call("shapes", &json!({})).expect("shapes"),
        json!(["square", "circle"])
    );
    assert_eq!(kb.call("counted", &json!({})).expect("counted"), json!(1));
}

#[test]
fn every_standard_way_of_loading_a_file_works_from_disk() {
    let dir = write_files(FILES);
    let kb = KnowledgeBase::load_with(dir.join("main.pl"), config()).expect("loads");
    check_answers(&kb);
    // The tracer reads the clauses of the files the knowledge base loads too.
    let id = kb.resolve("colour").expect("colour");
    let explained = kb.explain(id, &json!({})).expect("explain");
    let proofs = serde_json::to_string(&explained.proofs).expect("json");
    assert!(proofs.contains("item_colour(blue)"), "{proofs}");
    // use_module/2 imports only what it names.
    assert!(
        kb.warnings().iter().all(|w| !w.contains("twice")),
        "{:?}",
        kb.warnings()
    );
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn the_same_files_load_from_memory_without_the_disk() {
    let kb = KnowledgeBase::from_sources_with(
        SourceFiles {
            root: "kb",
            files: FILES,
        },
        config(),
    )
    .expect("loads");
    check_answers(&kb);
    assert_eq!(kb.operations()[0].location.to_string(), "kb/main.pl:9:4");
}

/// Replaces the text of one file of `FILES`.
fn with(path: &str, text: &'static str) -> Vec<(&'static str, &'static str)> {
    FILES
        .iter()
        .map(|&(p, t)| if p == path { (p, text) } else { (p, t) })
        .collect()
}

fn load_error_from_disk(files: &[(&str, &str)]) -> (String, PathBuf) {
    let dir = write_files(files);
    match KnowledgeBase::load_with(dir.join("main.pl"), config()) {
        Err(LoadError::Consult(m)) => (m, dir),
        other => panic!("{other:?}"),
    }
}

fn load_error_from_memory(files: &[(&str, &str)]) -> String {
    match KnowledgeBase::from_sources_with(SourceFiles { root: "kb", files }, config()) {
        Err(LoadError::Consult(m)) => {
            assert!(!m.contains("charon-src"), "a temporary path leaks: {m}");
            m
        }
        other => panic!("{other:?}"),
    }
}

fn at(dir: &Path, rel: &str) -> String {
    dir.join(rel).display().to_string()
}

#[test]
fn a_load_error_names_the_file_and_line_it_is_in() {
    // A syntax error in an included file, in a module, in a consulted file.
    for (file, text, line) in [
        (
            "data/blue.pl",
            "item_colour(blue).\nitem_colour(green.\n",
            2,
        ),
        (
            "helpers.pl",
            ":- module(helpers, [twice/2]).\n\ntwice(X, Y) :- Y is 2 * .\n",
            3,
        ),
        // The engine names the line where the term it could not read ends.
        (
            "extra.pl",
            "corner_shape(square).\ncorner_shape(oval)\ncorner_shape(x).\n",
            3,
        ),
    ] {
        let files = with(file, text);
        let (m, dir) = load_error_from_disk(&files);
        let want = format!("{}:{line}: syntax error", at(&dir, file));
        assert!(m.starts_with(&want), "{file}: {m}\nwanted {want}");
        let m = load_error_from_memory(&files);
        assert!(
            m.starts_with(&format!("kb/{file}:{line}: syntax error")),
            "{file}: {m}"
        );
    }
    // A file that is not there: the directive's file and line, and the name.
    let files = with("data/items.pl", "item_colour(red).\n\n:- include(navy).\n");
    let (m, dir) = load_error_from_disk(&files);
    assert!(
        m.starts_with(&format!("{}:3:", at(&dir, "data/items.pl"))),
        "{m}"
    );
    assert!(m.contains("existence_error(source_sink,navy)"), "{m}");
    let m = load_error_from_memory(&files);
    assert!(m.starts_with("kb/data/items.pl:3:"), "{m}");
    // A file that includes itself is refused, not followed forever.
    let files = with("data/blue.pl", "item_colour(blue).\n:- include(blue).\n");
    let (m, _) = load_error_from_disk(&files);
    assert!(m.contains("charon_include_cycle"), "{m}");
}

#[test]
fn a_path_held_in_memory_stays_inside_its_directory() {
    for bad in ["../main.pl", "/tmp/main.pl", "a/../../b.pl", ""] {
        let files = [(bad, "a.\n")];
        let err = KnowledgeBase::from_sources_with(
            SourceFiles {
                root: "",
                files: &files,
            },
            config(),
        )
        .expect_err(bad);
        assert!(matches!(err, LoadError::Sources(_)), "{bad}: {err:?}");
        assert!(err.to_string().contains("must be relative"), "{bad}: {err}");
    }
}

#[test]
fn the_binary_loads_every_file_from_another_directory() {
    let dir = write_files(FILES);
    let elsewhere = std::env::temp_dir();
    let out = std::process::Command::new(charon_bin())
        .args(["call"])
        .arg(dir.join("main.pl"))
        .args(["shapes"])
        .current_dir(&elsewhere)
        .env_remove("RUST_LOG")
        .output()
        .expect("runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        r#"["square","circle"]"#
    );
    std::fs::remove_dir_all(dir).ok();
}

/// With `persist`, the database is written back into the main file alone: a loaded
/// file with a dynamic predicate's declaration or clauses would bring them back
/// beside the written ones at the next load, so such a knowledge base is refused.
/// A knowledge base whose other files hold only static code persists as usual.
#[test]
fn persist_keeps_the_database_in_the_main_file() {
    let persisting = || charon::EngineConfig {
        persist: true,
        ..config()
    };
    let main = ":- include('d.pl').\n:- use_module(helpers).\n\
                %! bump(-N:int) is det.\n\
                bump(N) :- retract(counter(M)), twice(M, M2), N is M2 + 1, assertz(counter(N)).\n";
    let helpers = ":- module(helpers, [twice/2]).\ntwice(X, Y) :- Y is 2 * X.\n";
    for (d, says) in [
        (
            ":- dynamic(counter/1).\ncounter(0).\n",
            "d.pl declares counter/1 dynamic",
        ),
        (
            "counter(0).\n",
            "d.pl holds clauses of the dynamic counter/1",
        ),
    ] {
        let main = format!(":- dynamic(counter/1).\n{main}");
        let main = if d.starts_with(":-") {
            main.replacen(":- dynamic(counter/1).\n", "", 1)
        } else {
            main
        };
        let dir = write_files(&[("main.pl", &main), ("d.pl", d), ("helpers.pl", helpers)]);
        match KnowledgeBase::load_with(dir.join("main.pl"), persisting()) {
            Err(LoadError::Persist(m)) => assert!(m.contains(says), "{m}"),
            other => panic!("{other:?}"),
        }
        std::fs::remove_dir_all(dir).ok();
    }
    // The database in the main file, static code elsewhere (a module's own dynamic
    // predicates are carried in the journal): writes survive a restart.
    let main =
        format!(":- dynamic(counter/1).\ncounter(1).\n{main}").replace(":- include('d.pl').\n", "");
    let dir = write_files(&[("main.pl", &main), ("helpers.pl", helpers)]);
    for want in [3, 7] {
        let kb = KnowledgeBase::load_with(dir.join("main.pl"), persisting()).expect("loads");
        assert_eq!(kb.call("bump", &json!({})).expect("bump"), json!(want));
    }
    std::fs::remove_dir_all(dir).ok();
}

/// Files that load each other, a file named two ways, a path written as a term:
/// each file is known by one normalised name, a file being loaded is not loaded
/// again, an include of itself is refused with a short message.
#[test]
fn one_file_has_one_name_and_loading_in_circles_ends() {
    let files: &[(&str, &str)] = &[
        (
            "main.pl",
            ":- use_module(a).\n:- consult(sub/c).\n:- consult(data).\n\
             %! p(-X:int) is nondet.\np(X) :- fact(X).\n\
             %! q(-X:atom) is det.\nq(X) :- from_a(X).\n",
        ),
        (
            "a.pl",
            ":- module(a, [from_a/1]).\n:- use_module(b).\nfrom_a(a).\n",
        ),
        (
            "b.pl",
            ":- module(b, [from_b/1]).\n:- use_module(a).\nfrom_b(b).\n",
        ),
        (
            "sub/c.pl",
            ":- consult('../data').\n:- consult('./../main').\n",
        ),
        ("data.pl", "fact(1).\n"),
    ];
    let check = |kb: &KnowledgeBase| {
        assert_eq!(kb.call("p", &json!({})).expect("p"), json!([1]));
        assert_eq!(kb.call("q", &json!({})).expect("q"), json!("a"));
        let id = kb.resolve("p").expect("p");
        kb.explain(id, &json!({}))
            .expect("the tracer reads data.pl once");
    };
    let dir = write_files(files);
    check(&KnowledgeBase::load_with(dir.join("main.pl"), config()).expect("loads"));
    std::fs::remove_dir_all(&dir).ok();
    check(
        &KnowledgeBase::from_sources_with(SourceFiles { root: "kb", files }, config())
            .expect("loads from memory"),
    );
    // An include of itself, however it is named.
    let (m, _) = load_error_from_disk(&with("data/blue.pl", ":- include('./../data/./blue').\n"));
    assert!(m.contains("charon_include_cycle"), "{m}");
    assert!(m.len() < 400, "{m}");
}
