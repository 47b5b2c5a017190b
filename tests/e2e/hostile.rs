//! Values never become code. Text that closes its own quote, escapes,
//! control characters and very long values all come back unchanged, as data.

use serde_json::json;

use crate::util::types_kb;

fn hostile() -> Vec<String> {
    let mut v: Vec<String> = [
        "'), halt, ('",
        "'),halt,('",
        "\"), halt, (\"",
        "'",
        "''",
        "\"",
        "\\",
        "\\'",
        "\\\\'",
        "a\\nb",
        "x'). :- halt. %",
        "x\"). :- halt. %",
        "') :- assertz(pwned). %",
        "0'a",
        "0'\\''",
        "`back`",
        "/* comment */",
        "% comment",
        "end.\n",
        ". ",
        "foo(X) :- X",
        "[a|b]",
        "{}",
        "\u{0}",
        "nul\u{0}inside",
        "\u{1}\u{2}\u{7}\u{8}\u{b}\u{c}\u{1b}\u{7f}",
        "tab\there",
        "cr\rlf\n",
        "\u{85}\u{2028}\u{2029}",
        "\u{feff}bom",
        "ünïcödé ✓ 😀 𝄞",
        "مرحبا",
        "$charon_once",
        "'$charon_once'(a,halt,1,R)",
        "R",
        "_",
        "X, halt",
        "\\x41\\",
        "\\0\\",
        "%!",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    v.push("'), halt, ('".repeat(2000));
    v.push("x".repeat(100_000));
    v
}

#[test]
fn hostile_atoms_come_back_unchanged() {
    let kb = types_kb();
    let cases = hostile();
    assert!(cases.len() >= 30);
    for s in &cases {
        let got = kb
            .call("echo_atom", &json!({ "In": s }))
            .expect("echo_atom");
        assert_eq!(got, json!(s), "atom {s:?}");
    }
}

#[test]
fn hostile_strings_come_back_unchanged() {
    let kb = types_kb();
    for s in hostile() {
        let got = kb
            .call("echo_string", &json!({ "In": s }))
            .expect("echo_string");
        assert_eq!(got, json!(s), "string {s:?}");
    }
}

#[test]
fn hostile_values_inside_lists_and_any() {
    let kb = types_kb();
    let cases = hostile();
    let got = kb
        .call("echo_list_atom", &json!({ "In": cases }))
        .expect("list");
    assert_eq!(got, json!(cases));
    let got = kb
        .call("echo_list_string", &json!({ "In": cases }))
        .expect("list");
    assert_eq!(got, json!(cases));
    // After all that, the engine is intact and nothing was asserted or halted.
    assert_eq!(kb.call("det1", &json!({"X": 1})).expect("alive"), json!(2));
}
