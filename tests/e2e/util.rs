//! Shared helpers: fixture paths, loaded knowledge bases, the binary.

use std::path::PathBuf;
use std::sync::OnceLock;

use charon::{EngineConfig, KnowledgeBase, Limits};

/// The workspace root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ has a parent")
        .to_path_buf()
}

/// A fixture under `tests/kbs/`.
pub fn fixture(name: &str) -> PathBuf {
    root().join("tests").join("kbs").join(name)
}

/// An example knowledge base under `examples/`.
pub fn example(name: &str) -> PathBuf {
    root().join("examples").join(name)
}

/// Test configuration: short limits so limit tests are quick, and no answer cache,
/// so that every call reaches the engine (the cache has tests of its own).
pub fn config() -> EngineConfig {
    EngineConfig {
        workers: 2,
        limits: Limits {
            inferences: 2_000_000,
            solutions: 1000,
            time: std::time::Duration::from_secs(3),
            memory: Some(1 << 30),
        },
        answer_cache: 0,
        ..EngineConfig::default()
    }
}

/// `tests/kbs/types.pl`, loaded once for the whole run (read-only fixture).
pub fn types_kb() -> &'static KnowledgeBase {
    static KB: OnceLock<KnowledgeBase> = OnceLock::new();
    KB.get_or_init(|| {
        KnowledgeBase::load_with(fixture("types.pl"), config()).expect("types.pl loads")
    })
}

/// The `charon` binary built next to this test binary.
pub fn charon_bin() -> PathBuf {
    let exe = std::env::current_exe().expect("current exe");
    let dir = exe
        .parent()
        .and_then(|d| d.parent())
        .expect("target/<profile>/deps/..");
    let bin = dir.join("charon");
    assert!(
        bin.exists(),
        "{} is missing: build it first (scripts/test.sh runs `cargo build --release -p charon-cli`)",
        bin.display()
    );
    bin
}

/// Runs the binary; returns (status code, stdout, stderr).
pub fn run_charon(args: &[&str]) -> (i32, String, String) {
    let out = std::process::Command::new(charon_bin())
        .args(args)
        .current_dir(root())
        .env_remove("RUST_LOG")
        .output()
        .expect("charon runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The 1-based line of the first line of `file` containing `needle`.
pub fn line_of(file: &std::path::Path, needle: &str) -> usize {
    std::fs::read_to_string(file)
        .expect("fixture readable")
        .lines()
        .position(|l| l.contains(needle))
        .map(|i| i + 1)
        .unwrap_or_else(|| panic!("{needle} not in {}", file.display()))
}
