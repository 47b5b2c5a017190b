//! The answer's shape follows the declared determinism, never the count.

use charon::CallError;
use serde_json::{Value, json};

use crate::util::types_kb;

fn call(op: &str, args: Value) -> Result<Value, CallError> {
    types_kb().call(op, &args)
}

fn ok(op: &str, args: Value) -> Value {
    call(op, args).unwrap_or_else(|e| panic!("{op}: {e}"))
}

#[test]
fn det_returns_the_solution() {
    assert_eq!(ok("det0", json!({"X": 1})), json!(true));
    assert_eq!(ok("det1", json!({"X": 1})), json!(2));
    assert_eq!(ok("det2", json!({"X": 4})), json!({"Y": 8, "Z": "even"}));
    // Several outputs keep mode-line order.
    let keys: Vec<String> = ok("det2", json!({"X": 1}))
        .as_object()
        .expect("object")
        .keys()
        .cloned()
        .collect();
    assert_eq!(keys, ["Y", "Z"]);
    // A det predicate that leaves choice points still answers its first solution.
    assert_eq!(ok("det_choice", json!({})), json!(1));
}

#[test]
fn det_that_fails_is_an_error() {
    match call("det_fails", json!({"X": 1})) {
        Err(e @ CallError::DetFailed { .. }) => assert!(e.to_string().contains("det_fails")),
        other => panic!("{other:?}"),
    }
}

#[test]
fn det_that_throws_is_an_error() {
    match call("throws", json!({"X": 7})) {
        Err(e @ CallError::Exception { .. }) => {
            assert!(e.to_string().contains("my_error(7)"), "{e}")
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn semidet_returns_the_solution_or_null_or_false() {
    assert_eq!(ok("semi0", json!({"X": 1})), json!(true));
    assert_eq!(ok("semi0", json!({"X": -1})), json!(false));
    assert_eq!(ok("semi1", json!({"X": 2})), json!(4));
    assert_eq!(ok("semi1", json!({"X": -2})), Value::Null);
    assert_eq!(ok("semi2", json!({"X": 2})), json!({"Y": 4, "Z": 6}));
    assert_eq!(ok("semi2", json!({"X": 0})), Value::Null);
}

#[test]
fn many_solution_determinisms_return_arrays() {
    assert_eq!(ok("nd0", json!({"N": 3})), json!([true, true, true]));
    assert_eq!(ok("nd0", json!({"N": 0})), json!([]));
    assert_eq!(ok("nd1", json!({"N": 3})), json!([1, 2, 3]));
    assert_eq!(ok("nd1", json!({"N": 0})), json!([]));
    assert_eq!(
        ok("nd2", json!({"N": 2})),
        json!([{"I": 1, "Sq": 1}, {"I": 2, "Sq": 4}])
    );
    assert_eq!(ok("multi1", json!({"N": 2})), json!([1, 2]));
    assert_eq!(ok("failure0", json!({})), json!([]));
    assert_eq!(ok("undeclared1", json!({"N": 2})), json!([1, 2]));
    // One solution of a nondet predicate is still an array.
    assert_eq!(ok("one_solution_many", json!({})), json!([1]));
}

#[test]
fn argument_errors_name_the_argument() {
    use charon::ArgumentError;
    let err = |args: Value| match call("det2", args) {
        Err(CallError::Arguments { operation, error }) => {
            assert_eq!(operation, "det2");
            error
        }
        other => panic!("{other:?}"),
    };
    assert_eq!(err(json!({})), ArgumentError::Missing("X".into()));
    assert_eq!(
        err(json!({"X": 1, "W": 2})),
        ArgumentError::Unknown("W".into())
    );
    assert_eq!(
        err(json!({"X": 1, "Y": 2})),
        ArgumentError::Output("Y".into())
    );
    assert!(matches!(err(json!({"X": "1"})), ArgumentError::Type { name, .. } if name == "X"));
    assert_eq!(err(json!([1])), ArgumentError::NotAnObject);
    assert!(matches!(call("nope", json!({})), Err(CallError::UnknownOperation(n)) if n == "nope"));
}
