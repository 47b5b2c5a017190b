//! Compile-time tests of `charon::knowledge_base!` (trybuild): pass cases for every
//! declared type and determinism, fail cases whose `.stderr` names the `.pl` file's
//! `line:column` for each PlDoc mistake.

use std::path::{Path, PathBuf};

/// trybuild compiles the cases as a crate of its own, under the target directory;
/// the macro reads `.pl` files relative to that crate's directory, so the fixtures are
/// copied there first.
fn trybuild_crate_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("test exe");
    // <target>/<profile>/deps/ui-…
    let target = exe
        .ancestors()
        .nth(3)
        .expect("target directory")
        .to_path_buf();
    target
        .join("tests")
        .join("trybuild")
        .join(env!("CARGO_PKG_NAME"))
}

/// Copies the directory `from` into `to`, subdirectories included.
fn copy_fixtures(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("fixture dir");
    for entry in std::fs::read_dir(from).expect("ui/kbs") {
        let path = entry.expect("entry").path();
        let target = to.join(path.file_name().expect("file name"));
        if path.is_dir() {
            copy_fixtures(&path, &target);
        } else {
            std::fs::copy(&path, target).expect("copy fixture");
        }
    }
}

#[test]
fn ui() {
    let kbs = Path::new(env!("CARGO_MANIFEST_DIR")).join("ui").join("kbs");
    copy_fixtures(&kbs, &trybuild_crate_dir().join("kbs"));
    let t = trybuild::TestCases::new();
    t.pass("ui/pass/*.rs");
    t.compile_fail("ui/fail/*.rs");
}
