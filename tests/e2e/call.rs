//! `charon call`: operations listed, run with typed flags built from the PlDoc, and
//! the exit statuses (0 answer, 1 no answer, 2 bad arguments, 3 the call failed);
//! `charon check --json`.

use crate::util::{example, fixture, root, run_charon};

/// The path of a fixture as an argument.
fn arg(path: &std::path::Path) -> &str {
    path.to_str().expect("utf-8 path")
}

/// Runs `charon call KB ARGS…` on `tests/kbs/types.pl`.
fn call_types(args: &[&str]) -> (i32, String, String) {
    let kb = fixture("types.pl");
    let mut all = vec!["call", arg(&kb)];
    all.extend_from_slice(args);
    run_charon(&all)
}

/// Asserts the run printed exactly one JSON line and returns it parsed.
fn one_json_line(stdout: &str) -> serde_json::Value {
    assert_eq!(stdout.lines().count(), 1, "not one line: {stdout:?}");
    assert!(stdout.ends_with('\n'), "{stdout:?}");
    charon::json::from_str(stdout).unwrap_or_else(|e| panic!("{e}: {stdout:?}"))
}

#[test]
fn without_an_operation_the_operations_are_listed_with_signature_and_summary() {
    let (code, stdout, stderr) = run_charon(&["call", "examples/meds.pl"]);
    assert_eq!(code, 0, "{stderr}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 6, "{stdout}");
    assert!(lines[0].starts_with(
        "pim_check(+Age:int, +Drugs:list(atom), -Substance:atom, -Reason:string) is nondet"
    ));
    assert!(
        lines[0].contains("Screens a patient's medication list"),
        "{stdout}"
    );
    assert!(
        lines[5].starts_with("ready is semidet") && lines[5].contains("True when the criteria"),
        "{stdout}"
    );
}

#[test]
fn the_listing_logs_rejections_on_stderr_and_still_exits_zero() {
    let (code, stdout, stderr) = run_charon(&["call", arg(&fixture("report.pl"))]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout.lines().any(|l| l.starts_with("ok_zero is det")),
        "{stdout}"
    );
    assert!(!stdout.contains("bad_query_mode"), "{stdout}");
    assert!(
        stderr.contains("bad_query_mode/1 is not exposed"),
        "{stderr}"
    );
}

#[test]
fn a_list_is_a_repeated_flag_or_one_json_array_with_the_same_answer() {
    let kb = example("meds.pl");
    let (code, repeated, stderr) = run_charon(&[
        "call",
        arg(&kb),
        "pim_check",
        "--Age",
        "82",
        "--Drugs",
        "diazepam",
        "--Drugs",
        "doxylamine",
    ]);
    assert_eq!(code, 0, "{stderr}");
    let (code, array, stderr) = run_charon(&[
        "call",
        arg(&kb),
        "pim_check",
        "--Drugs",
        r#"["diazepam","doxylamine"]"#,
        "--Age",
        "82",
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(repeated, array);
    assert_eq!(
        one_json_line(&repeated),
        serde_json::json!([
            {"Substance": "diazepam", "Reason": "Long-acting benzodiazepine: risk of falls and fractures."},
            {"Substance": "doxylamine", "Reason": "First-generation antihistamine: anticholinergic, sedating."}
        ])
    );
}

#[test]
fn the_answer_is_the_only_line_on_stdout_exactly() {
    for (args, expected) in [
        (
            &[
                "screening_summary",
                "--Age",
                "82",
                "--Drugs",
                "warfarin",
                "--Drugs",
                "aspirin",
                "--Drugs",
                "diazepam",
            ][..],
            r#"{"Flagged":["diazepam"],"Interactions":1}"#,
        ),
        (
            &["drug_class", "--Drug", "diazepam"][..],
            r#""benzodiazepine""#,
        ),
        (&["is_pim", "--Age", "70", "--Drug=diazepam"][..], "true"),
        (
            &[
                "get_interaction",
                "--First",
                "aspirin",
                "--Second",
                "warfarin",
            ][..],
            r#""major""#,
        ),
        (&["ready"][..], "true"),
    ] {
        let mut all = vec!["call", "examples/meds.pl"];
        all.extend_from_slice(args);
        let (code, stdout, stderr) = run_charon(&all);
        assert_eq!(code, 0, "{args:?}: {stderr}");
        assert_eq!(stdout, format!("{expected}\n"), "{args:?}");
    }
}

#[test]
fn what_the_knowledge_base_prints_goes_to_stderr() {
    let (code, stdout, stderr) = call_types(&["chatty", "--X", "hi"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stdout, "\"hi\"\n");
    assert!(stderr.contains("hello(hi)"), "{stderr}");
}

#[test]
fn help_for_an_operation_shows_its_description_types_and_arg_texts() {
    let (code, stdout, stderr) = run_charon(&["call", "examples/meds.pl", "pim_check", "--help"]);
    assert_eq!(code, 0, "{stderr}");
    for needle in [
        "pim_check(+Age:int, +Drugs:list(atom), -Substance:atom, -Reason:string) is nondet",
        "Screens a patient's medication list",
        "--Age <int>",
        "Age in completed years.",
        "--Drugs",
        "list(atom)",
        "The substances the patient takes.",
        "Why it was flagged.",
        "Exit status",
    ] {
        assert!(stdout.contains(needle), "{needle} missing from:\n{stdout}");
    }
    // Short help too, and `--help` after other flags.
    let (code, short, _) = run_charon(&["call", "examples/meds.pl", "is_pim", "-h"]);
    assert_eq!(code, 0);
    assert!(
        short.contains("--Drug <atom>") && short.contains("The substance."),
        "{short}"
    );
    let (code, late, _) =
        run_charon(&["call", "examples/meds.pl", "is_pim", "--Age", "3", "--help"]);
    assert_eq!(code, 0);
    assert!(late.contains("--Drug <atom>"), "{late}");
}

#[test]
fn the_subcommand_help_documents_exit_statuses_and_examples() {
    let (code, stdout, _) = run_charon(&["call", "--help"]);
    assert_eq!(code, 0);
    for needle in [
        "Example: charon call examples/meds.pl pim_check --Age 82 --Drugs diazepam",
        "Exit status",
        "--timeout-ms",
        "--max-inferences",
        "--max-solutions",
    ] {
        assert!(stdout.contains(needle), "{needle} missing from:\n{stdout}");
    }
    for status in ["0  ", "1  ", "2  ", "3  "] {
        assert!(stdout.contains(status), "{status} missing from:\n{stdout}");
    }
}

#[test]
fn no_answer_exits_one() {
    let meds = "examples/meds.pl";
    for (args, expected) in [
        (
            &["call", meds, "is_pim", "--Age", "20", "--Drug", "diazepam"][..],
            "false",
        ),
        (
            &[
                "call",
                meds,
                "get_interaction",
                "--First",
                "a",
                "--Second",
                "b",
            ][..],
            "null",
        ),
        (
            &[
                "call",
                meds,
                "pim_check",
                "--Age",
                "20",
                "--Drugs",
                "diazepam",
            ][..],
            "[]",
        ),
    ] {
        let (code, stdout, stderr) = run_charon(args);
        assert_eq!(code, 1, "{args:?}: {stderr}");
        assert_eq!(stdout, format!("{expected}\n"), "{args:?}");
    }
    let (code, stdout, _) = call_types(&["nd1", "--N", "0"]);
    assert_eq!((code, stdout.as_str()), (1, "[]\n"));
    let (code, stdout, _) = call_types(&["failure0"]);
    assert_eq!((code, stdout.as_str()), (1, "[]\n"));
    // A det that fails has no answer to print: the message is on stderr.
    let (code, stdout, stderr) = call_types(&["det_fails", "--X", "1"]);
    assert_eq!(code, 1, "{stderr}");
    assert!(stdout.is_empty(), "{stdout}");
    assert!(
        stderr.contains("det_fails is declared det but failed"),
        "{stderr}"
    );
}

#[test]
fn bad_usage_exits_two_and_names_the_culprit() {
    let meds = "examples/meds.pl";
    for (args, needle) in [
        (&["call", meds, "no_such_op"][..], "no_such_op"),
        (
            &[
                "call", meds, "is_pim", "--Age", "70", "--Drug", "x", "--Foo", "1",
            ][..],
            "--Foo",
        ),
        (&["call", meds, "is_pim", "--Age", "70"][..], "--Drug"),
        (
            &["call", meds, "is_pim", "--Age", "abc", "--Drug", "x"][..],
            "`Age`",
        ),
        (
            &[
                "call", meds, "is_pim", "--Age", "1", "--Age", "2", "--Drug", "x",
            ][..],
            "--Age",
        ),
        (
            &[
                "call",
                meds,
                "pim_check",
                "--Age",
                "82",
                "--Drugs",
                r#"["a"]"#,
                "--Drugs",
                "b",
            ][..],
            "`Drugs`",
        ),
        (&["call", meds, "--Age", "3"][..], "--Age"),
    ] {
        let (code, stdout, stderr) = run_charon(args);
        assert_eq!(code, 2, "{args:?}: {stderr}");
        assert!(stdout.is_empty(), "{args:?}: {stdout}");
        assert!(
            stderr.contains(needle),
            "{args:?}: {needle} not in {stderr}"
        );
    }
    let (code, _, stderr) = call_types(&["echo_bool", "--In", "maybe"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("`In`"), "{stderr}");
}

#[test]
fn limits_go_before_the_operation_and_are_explained_after_it() {
    let kb = fixture("types.pl");
    let (code, stdout, stderr) =
        run_charon(&["call", "--max-inferences", "1000", arg(&kb), "spin"]);
    assert_eq!(code, 3, "{stderr}");
    assert!(stdout.is_empty(), "{stdout}");
    assert!(stderr.contains("1000 inferences"), "{stderr}");

    let (code, _, stderr) = run_charon(&[
        "call",
        arg(&kb),
        "--timeout-ms",
        "300",
        "nap",
        "--Seconds",
        "5",
    ]);
    assert_eq!(code, 3, "{stderr}");
    assert!(stderr.contains("time limit"), "{stderr}");

    let (code, _, stderr) = call_types(&["nap", "--Seconds", "0", "--timeout-ms", "300"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("`--timeout-ms` is an option of `charon call`"),
        "{stderr}"
    );
}

#[test]
fn a_failed_call_or_load_exits_three() {
    let (code, stdout, stderr) = call_types(&["throws", "--X", "1"]);
    assert_eq!(code, 3, "{stderr}");
    assert!(stdout.is_empty(), "{stdout}");
    assert!(stderr.contains("my_error(1)"), "{stderr}");

    let (code, _, stderr) = call_types(&["wrong_output"]);
    assert_eq!(code, 3, "{stderr}");
    assert!(stderr.contains("wrong_output"), "{stderr}");

    for args in [
        &["call", "no/such/kb.pl"][..],
        &["call", "no/such/kb.pl", "pim_check", "--Age", "1"][..],
        &["call", "no/such/kb.pl", "pim_check", "--help"][..],
    ] {
        let (code, stdout, stderr) = run_charon(args);
        assert_eq!(code, 3, "{args:?}: {stderr}");
        assert!(stdout.is_empty(), "{stdout}");
        assert!(stderr.contains("cannot read no/such/kb.pl"), "{stderr}");
    }

    let dir = std::env::temp_dir().join(format!("charon-call-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let kb = dir.join("broken.pl");
    std::fs::write(&kb, "%! p(+X:int) is det.\np(X) :- .\n").expect("write");
    let (code, _, stderr) = run_charon(&["call", arg(&kb), "p", "--X", "1"]);
    assert_eq!(code, 3, "{stderr}");
    assert!(stderr.contains("broken.pl:2"), "{stderr}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn big_integers_and_floats_round_trip() {
    let big = "123456789012345678901234567890";
    let (code, stdout, stderr) = call_types(&["echo_int", "--In", big]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stdout, format!("{big}\n"));
    let (code, stdout, _) = call_types(&["echo_int", "--In", "-5"]);
    assert_eq!((code, stdout.as_str()), (0, "-5\n"));
    for text in ["0.1", "-2.5e-7", "1e300", "3.0"] {
        let (code, stdout, stderr) = call_types(&["echo_float", "--In", text]);
        assert_eq!(code, 0, "{text}: {stderr}");
        let back = one_json_line(&stdout).as_f64().expect("a number");
        assert_eq!(
            back,
            text.parse::<f64>().expect("float"),
            "{text}: {stdout}"
        );
    }
}

#[test]
fn a_hostile_value_comes_back_as_data() {
    for hostile in ["a'), halt, ('", "X", "\"quoted\" \\ back", "-dash"] {
        let (code, stdout, stderr) = call_types(&["echo_atom", "--In", hostile]);
        assert_eq!(code, 0, "{hostile}: {stderr}");
        assert_eq!(one_json_line(&stdout), serde_json::json!(hostile));
    }
}

#[test]
fn check_json_prints_the_report_as_one_object() {
    let (code, stdout, stderr) = run_charon(&["check", "--json", "examples/meds.pl"]);
    assert_eq!(code, 0, "{stderr}");
    let report = one_json_line(&stdout);
    let names: Vec<&str> = report["operations"]
        .as_array()
        .expect("operations")
        .iter()
        .map(|op| op["name"].as_str().expect("name"))
        .collect();
    assert_eq!(
        names,
        [
            "pim_check",
            "is_pim",
            "get_interaction",
            "drug_class",
            "screening_summary",
            "ready"
        ]
    );
    assert_eq!(report["rejections"], serde_json::json!([]));
    // The operations are the model as serialized.
    let text = std::fs::read_to_string(root().join("examples/meds.pl")).expect("meds.pl");
    let model = charon::pldoc::analyse("examples/meds.pl", &text);
    assert_eq!(
        report["operations"],
        serde_json::to_value(&model.operations).expect("serializable")
    );

    let (code, stdout, _) = run_charon(&["check", "--json", arg(&fixture("report.pl"))]);
    assert_eq!(code, 1);
    let report = one_json_line(&stdout);
    let rejections = report["rejections"].as_array().expect("rejections");
    assert!(!rejections.is_empty());
    let first = &rejections[0];
    assert_eq!(first["predicate"], "bad_query_mode/1");
    assert!(first["location"]["line"].as_u64().is_some(), "{first}");
    assert!(
        first["location"]["file"]
            .as_str()
            .expect("file")
            .ends_with("report.pl")
    );
    assert!(
        first["reason"]
            .as_str()
            .expect("reason")
            .contains("has mode `?`"),
        "{first}"
    );
}
