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
        .find(|p| p["name"] == "scryer-prolog")
        .and_then(|p| p["manifest_path"].as_str())
        .expect("scryer-prolog is a dependency of the workspace");
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
