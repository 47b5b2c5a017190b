//! The `charon` binary, run as a process (SPEC §8).

use crate::util::{fixture, run_charon};

#[test]
fn check_on_a_clean_kb_exits_zero_and_prints_the_report() {
    let (code, stdout, stderr) = run_charon(&["check", "examples/meds.pl"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("examples/meds.pl:"), "{stdout}");
    assert!(stdout.contains(
        "exposed pim_check(+Age:int, +Drugs:list(atom), -Substance:atom, -Reason:string) is nondet"
    ));
    assert!(stdout.contains("exposed ready is semidet"));
    assert!(stdout.contains("0 documented predicate(s) not exposed"));
}

#[test]
fn check_on_every_example_exits_zero() {
    for kb in [
        "examples/meds.pl",
        "examples/library.pl",
        "examples/rbac.pl",
    ] {
        let (code, _, stderr) = run_charon(&["check", kb]);
        assert_eq!(code, 0, "{kb}: {stderr}");
    }
}

#[test]
fn check_with_unexposed_predicates_exits_non_zero_with_reasons() {
    let path = fixture("report.pl");
    let (code, stdout, _) = run_charon(&["check", path.to_str().expect("utf-8")]);
    assert_eq!(code, 1);
    assert!(stdout.contains("report.pl:"), "{stdout}");
    assert!(
        stdout.contains("bad_query_mode/1 is not exposed: argument `X` has mode `?`"),
        "{stdout}"
    );
    assert!(stdout.contains("clash/2 is not exposed"), "{stdout}");
}

#[test]
fn a_syntax_error_names_file_and_line_and_exits_non_zero() {
    let dir = std::env::temp_dir().join(format!("charon-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let kb = dir.join("broken.pl");
    std::fs::write(&kb, "ok(1).\n\n%! p(+X:int) is det.\np(X :- .\n").expect("write");
    let (code, stdout, stderr) = run_charon(&["check", kb.to_str().expect("utf-8")]);
    assert_ne!(code, 0);
    assert!(stdout.is_empty(), "{stdout}");
    let line = stderr.lines().last().unwrap_or_default();
    assert!(line.starts_with("charon: "), "{stderr}");
    assert!(line.contains("broken.pl:4: syntax error"), "{stderr}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_missing_file_is_a_one_line_error() {
    let (code, _, stderr) = run_charon(&["check", "no/such/kb.pl"]);
    assert_ne!(code, 0);
    assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
    assert!(stderr.contains("cannot read no/such/kb.pl"), "{stderr}");
}

#[test]
fn help_explains_every_flag_with_an_example() {
    let (code, stdout, _) = run_charon(&["--help"]);
    assert_eq!(code, 0);
    assert!(stdout.contains("check"));
    let (code, stdout, _) = run_charon(&["check", "--help"]);
    assert_eq!(code, 0);
    for flag in [
        "--log",
        "--timeout-ms",
        "--max-inferences",
        "--max-solutions",
        "--workers",
    ] {
        assert!(stdout.contains(flag), "{flag} missing from:\n{stdout}");
    }
    assert!(stdout.matches("Example").count() >= 5, "{stdout}");
}
