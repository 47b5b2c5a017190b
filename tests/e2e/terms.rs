//! JSON ↔ Prolog by declared type, both directions, every depth.

use proptest::prelude::*;
use serde_json::{Value, json};

use crate::util::{exact, types_kb};

fn echo(op: &str, v: Value) -> Value {
    types_kb()
        .call_exact(op, &json!({ "In": v }))
        .unwrap_or_else(|e| panic!("{op}({v}): {e}"))
}

fn out(op: &str, args: Value) -> Value {
    types_kb()
        .call_exact(op, &args)
        .unwrap_or_else(|e| panic!("{op}: {e}"))
}

fn bad_input(op: &str, v: Value) -> String {
    match types_kb().call(op, &json!({ "In": v })) {
        Err(charon::CallError::Arguments { error, .. }) => {
            assert_eq!(error.argument(), Some("In"));
            error.to_string()
        }
        other => panic!("{op}: expected an argument error, got {other:?}"),
    }
}

#[test]
fn atom_row() {
    assert_eq!(echo("echo_atom", json!("aspirin")), json!("aspirin"));
    assert_eq!(
        echo("echo_atom", json!("Capital and spaces")),
        json!("Capital and spaces")
    );
    assert_eq!(echo("echo_atom", json!("")), json!(""));
    // Atoms unify with plain facts.
    assert_eq!(
        out("plain_fact_match", json!({"Drug": "aspirin"})),
        json!(true)
    );
    assert_eq!(
        out("plain_fact_match", json!({"Drug": "Aspirin"})),
        json!(false)
    );
    assert_eq!(out("kind_of_atom", json!({"X": "x"})), json!(true));
    bad_input("echo_atom", json!(1));
}

#[test]
fn string_and_text_rows() {
    for op in ["echo_string", "echo_text"] {
        assert_eq!(
            echo(op, json!("héllo wörld ✓ 😀")),
            json!("héllo wörld ✓ 😀")
        );
        assert_eq!(echo(op, json!("")), json!(""));
        assert_eq!(echo(op, json!("[]")), json!("[]"));
        bad_input(op, json!(["a"]));
    }
    // A string arrives as a character list (scryer's default double_quotes flag).
    assert_eq!(out("kind_of_string", json!({"X": "abc"})), json!(true));
    assert_eq!(out("string_length", json!({"S": "😀ab"})), json!(3));
}

#[test]
fn empty_string_and_empty_list_stay_apart() {
    assert_eq!(echo("echo_string", json!("")), json!(""));
    assert_eq!(echo("echo_list_int", json!([])), json!([]));
    assert_eq!(echo("echo_list_string", json!(["", "a"])), json!(["", "a"]));
    assert_eq!(echo("echo_list_atom", json!([])), json!([]));
}

#[test]
fn int_and_integer_rows() {
    for op in ["echo_int", "echo_integer"] {
        assert_eq!(echo(op, json!(0)), json!(0));
        assert_eq!(echo(op, json!(-42)), json!(-42));
        assert_eq!(echo(op, json!(i64::MAX)), json!(i64::MAX));
        assert!(bad_input(op, json!("82")).contains("string \"82\""));
        bad_input(op, json!(1.5));
        bad_input(op, json!(true));
    }
    let big: Value =
        charon::json::from_str("123456789012345678901234567890123456789").expect("big");
    assert_eq!(exact(&echo("echo_int", big.clone())), exact(&big));
    assert_eq!(
        exact(&out("big", json!({}))),
        "1267650600228229401496703205376"
    );
}

#[test]
fn float_and_number_rows() {
    for op in ["echo_float", "echo_number"] {
        assert_eq!(echo(op, json!(1.5)), json!(1.5));
        assert_eq!(echo(op, json!(-0.001)), json!(-0.001));
        assert_eq!(echo(op, json!(1e100)), json!(1e100));
        assert_eq!(echo(op, json!(3)).as_f64(), Some(3.0));
        bad_input(op, json!("1.5"));
    }
    // Floats on input, even when the JSON number is integral.
    assert_eq!(out("kind_of_float", json!({"X": 2})), json!(true));
    // Any number on output.
    assert_eq!(out("third", json!({})).as_f64(), Some(1.0 / 3.0));
}

#[test]
fn bool_and_boolean_rows() {
    for op in ["echo_bool", "echo_boolean"] {
        assert_eq!(echo(op, json!(true)), json!(true));
        assert_eq!(echo(op, json!(false)), json!(false));
        bad_input(op, json!("true"));
        bad_input(op, json!(1));
    }
}

#[test]
fn list_rows_at_every_depth() {
    assert_eq!(echo("echo_list_int", json!([1, 2, 3])), json!([1, 2, 3]));
    assert_eq!(
        echo("echo_list_atom", json!(["a", "b", "cd"])),
        json!(["a", "b", "cd"])
    );
    assert_eq!(echo("echo_list_atom", json!(["x", "y"])), json!(["x", "y"]));
    let nested = json!([[[1, 2], []], [], [[3]]]);
    assert_eq!(echo("echo_nested", nested.clone()), nested);
    assert!(bad_input("echo_nested", json!([[[1, "2"]]])).contains("string \"2\""));
    // `list` is `list(any)`.
    assert_eq!(
        echo("echo_list", json!(["a", 1, 2.5, true, ["bc", 3]])),
        json!(["a", 1, 2.5, true, ["bc", 3]])
    );
    bad_input("echo_list_int", json!(1));
}

#[test]
fn any_row() {
    assert_eq!(echo("echo_any", json!("word")), json!("word"));
    assert_eq!(echo("echo_any", json!(7)), json!(7));
    assert_eq!(echo("echo_any", json!(2.5)), json!(2.5));
    assert_eq!(echo("echo_any", json!(false)), json!(false));
    assert_eq!(
        echo("echo_any", json!([1, ["x", [true]]])),
        json!([1, ["x", [true]]])
    );
    // Strings become atoms, numbers stay numbers.
    assert_eq!(out("describe", json!({"X": "word"})), json!("atom"));
    assert_eq!(out("describe", json!({"X": 3})), json!("integer"));
    assert_eq!(out("describe", json!({"X": 3.5})), json!("float"));
    assert_eq!(out("describe", json!({"X": [1]})), json!("list"));
    bad_input("echo_any", json!(null));
    bad_input("echo_any", json!({"a": 1}));
}

#[test]
fn outputs_that_do_not_fit_are_errors() {
    match types_kb().call("wrong_output", &json!({})) {
        Err(e @ charon::CallError::Output { .. }) => {
            let m = e.to_string();
            assert!(
                m.contains("wrong_output") && m.contains('X') && m.contains("abc"),
                "{m}"
            );
        }
        other => panic!("{other:?}"),
    }
    match types_kb().call("unbound_output", &json!({})) {
        Err(e @ charon::CallError::Output { .. }) => {
            assert!(e.to_string().contains("unbound"), "{e}");
        }
        other => panic!("{other:?}"),
    }
}

fn text() -> impl Strategy<Value = String> {
    prop_oneof![any::<String>(), "[a-z]{0,3}", "\\PC{0,40}"]
}

fn any_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        text()
            .prop_filter("booleans and [] come back as themselves", |s| !matches!(
                s.as_str(),
                "true" | "false" | "[]"
            ))
            .prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<bool>().prop_map(Value::from),
        (-1e300f64..1e300).prop_map(Value::from),
    ];
    leaf.prop_recursive(3, 24, 5, |inner| {
        prop::collection::vec(inner, 0..5).prop_map(Value::Array)
    })
}

/// A non-empty array of one-character strings (at any depth) is a Prolog character
/// list, which is indistinguishable from a string: under `any` it comes back as one.
fn char_list(v: &Value) -> bool {
    match v {
        Value::Array(items) => {
            (!items.is_empty()
                && items
                    .iter()
                    .all(|i| i.as_str().is_some_and(|s| s.chars().count() == 1)))
                || items.iter().any(char_list)
        }
        _ => false,
    }
}

#[test]
fn any_array_of_single_characters_reads_back_as_a_string() {
    assert_eq!(echo("echo_any", json!(["a", "b"])), json!("ab"));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, .. ProptestConfig::default() })]

    #[test]
    fn atom_round_trips(s in text()) {
        prop_assert_eq!(echo("echo_atom", json!(s)), json!(s));
    }

    #[test]
    fn string_round_trips(s in text()) {
        prop_assert_eq!(echo("echo_string", json!(s)), json!(s));
    }

    #[test]
    fn int_round_trips(digits in "-?[1-9][0-9]{0,60}") {
        let v: Value = charon::json::from_str(&digits).expect("integer text");
        prop_assert_eq!(exact(&echo("echo_int", v)), digits);
    }

    #[test]
    fn float_round_trips(f in any::<f64>().prop_filter("finite", |f| f.is_finite())) {
        prop_assert_eq!(echo("echo_float", json!(f)).as_f64(), Some(f));
    }

    #[test]
    fn bool_round_trips(b in any::<bool>()) {
        prop_assert_eq!(echo("echo_bool", json!(b)), json!(b));
    }

    #[test]
    fn nested_lists_round_trip(v in prop::collection::vec(prop::collection::vec(prop::collection::vec(any::<i32>(), 0..4), 0..4), 0..4)) {
        prop_assert_eq!(echo("echo_nested", json!(v)), json!(v));
    }

    #[test]
    fn atom_lists_round_trip(v in prop::collection::vec(text(), 0..6)) {
        prop_assert_eq!(echo("echo_list_atom", json!(v)), json!(v));
    }

    #[test]
    fn string_lists_round_trip(v in prop::collection::vec(text(), 0..6)) {
        prop_assert_eq!(echo("echo_list_string", json!(v)), json!(v));
    }

    #[test]
    fn any_round_trips(v in any_value().prop_filter("documented ambiguity", |v| !char_list(v))) {
        prop_assert_eq!(echo("echo_any", v.clone()), v);
    }
}
