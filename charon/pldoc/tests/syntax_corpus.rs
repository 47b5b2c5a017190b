//! The syntax check against text the engine reads: every `.pl` file of
//! scryer-prolog 0.10's own library (found through `cargo metadata`) and of this
//! repository's examples must pass without a single error; a build refused for a
//! file the engine reads would be the worst mistake the check can make.

use std::path::{Path, PathBuf};

fn scryer_lib() -> PathBuf {
    let out = std::process::Command::new(env!("CARGO"))
        .args(["metadata", "--format-version", "1"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo metadata runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let meta: serde_json::Value = serde_json::from_slice(&out.stdout).expect("metadata JSON");
    let manifest = meta["packages"]
        .as_array()
        .expect("packages")
        .iter()
        .find(|p| p["name"] == "charon-scryer-prolog")
        .and_then(|p| p["manifest_path"].as_str())
        .expect("charon-scryer-prolog, the engine, is in the workspace");
    Path::new(manifest).with_file_name("src").join("lib")
}

fn pl_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("dir") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            pl_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "pl") {
            out.push(path);
        }
    }
}

/// Checks every file, `at_least` of them, and fails with every error found.
fn check_all(files: &[PathBuf], at_least: usize) {
    assert!(files.len() >= at_least, "{} files", files.len());
    let mut found = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(file).expect("read");
        for e in charon_pldoc::syntax_errors(&file.display().to_string(), &text) {
            found.push(e.to_string());
        }
    }
    assert!(
        found.is_empty(),
        "{} errors:\n{}",
        found.len(),
        found.join("\n")
    );
}

#[test]
fn the_engines_own_library_reads_without_an_error() {
    let mut files = Vec::new();
    pl_files(&scryer_lib(), &mut files);
    check_all(&files, 40);
}

#[test]
fn the_repositorys_knowledge_bases_read_without_an_error() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut files = Vec::new();
    for dir in ["examples", "tests/kbs", "tests/outside-app/kb", "bench"] {
        let dir = root.join(dir);
        if dir.is_dir() {
            pl_files(&dir, &mut files);
        }
    }
    // The peers' servers are SWI-Prolog programs (dicts, SWI's libraries).
    files.retain(|f| !f.components().any(|c| c.as_os_str() == "peers"));
    check_all(&files, 10);
}

/// Forms found by review, each read by scryer-prolog 0.10 (checked with the engine
/// in tests/e2e/syntax.rs where it matters): none may be an error.
#[test]
fn forms_the_engine_reads_are_no_errors() {
    for text in [
        "p :- \\+(a ; b).\n",
        "p :- \\+(a -> b ; c).\n",
        "p(Xs) :- forall(member(X, Xs), \\+(X == a ; X == b)).\n",
        "p(X) :- X = \\(a ; b).\n",
        "p(X) :- X = (|).\n",
        "p(1).\nend_of_file.\nnotes here, 'unclosed and € too\n",
        ":- [library(clpz)].\np(X) :- X #= 1.\n",
        ":- use_module(library(clpz), [(#=)/2]).\np(X) :- X #= 1.\n",
        "p(X) :- X = [-], Y = (-), Z = f(+, -), W = - - a, V = a- -1, U = - (1).\n",
        "p(X) :- X = 0' , Y = 0''', Z = \"a\\\nb\".\n",
        "p(X) :- X = a:b:c, Y = {a, b}, Z = '[]', W = {}.\n",
    ] {
        let errors = charon_pldoc::syntax_errors("kb.pl", text);
        assert!(errors.is_empty(), "{text:?}: {errors:?}");
    }
    // What follows `end_of_file.` is not read for loads either.
    assert!(charon_pldoc::loaded_files("p.\nend_of_file.\n:- include(old).\n").is_empty());
    // A path written as a term.
    assert_eq!(
        charon_pldoc::loaded_files(":- use_module(sub/dir/b).\n"),
        [(1, "sub/dir/b".to_string())]
    );
}
