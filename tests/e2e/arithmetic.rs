//! The engine's arithmetic with numbers written in the clause. Such a number is
//! compiled into the arithmetic instruction itself, as an operand that
//! `vendor/scryer-prolog` stores by its parts (a fixnum, a big integer, a float;
//! see its `CHARON.md`). Every expression here is evaluated twice: compiled with
//! its numbers in the clause, and built as data at run time, where `is/2` gets
//! it through a register. The two must agree on every value and every error.

use std::fmt::Write as _;

use charon::KnowledgeBase;
use serde_json::{Value, json};

use crate::util::{TempDir, config};

/// Numbers of every kind the reader makes: small and negative fixnums, the
/// fixnums' edges, big integers of both signs, floats, and the evaluable atoms.
const OPERANDS: &[&str] = &[
    "0",
    "1",
    "-7",
    "36028797018963967",
    "-36028797018963968",
    "100000000000000000000",
    "-1180591620717411303424",
    "3.5",
    "-0.25",
    "1.0e10",
    "pi",
    "e",
    "epsilon",
];

const INFIX: &[&str] = &[
    "+", "-", "*", "/", "//", "mod", "rem", "div", "**", "^", ">>", "<<", "/\\", "\\/",
];

const BINARY: &[&str] = &["min", "max", "gcd", "atan2", "xor"];

const UNARY: &[&str] = &[
    "-",
    "abs",
    "sign",
    "sqrt",
    "sin",
    "float",
    "truncate",
    "round",
    "ceiling",
    "floor",
    "float_integer_part",
    "float_fractional_part",
    "\\",
    "exp",
    "log",
];

const COMPARISONS: &[&str] = &["=:=", "=\\=", "<", ">", "=<", ">="];

/// A knowledge base with one clause per expression in each form, and the
/// predicates that compare them.
fn knowledge_base(dir: &TempDir) -> (std::path::PathBuf, Vec<String>) {
    let mut expressions = Vec::new();
    for a in OPERANDS {
        for op in UNARY {
            expressions.push(format!("{op}({a})"));
        }
        for b in OPERANDS {
            for op in INFIX {
                // A big exponent or shift makes a number too big for any memory.
                let grows = ["**", "^", "<<", ">>"].contains(op);
                let digits = b.trim_start_matches('-');
                if grows && digits.len() > 2 && digits.bytes().all(|c| c.is_ascii_digit()) {
                    continue;
                }
                expressions.push(format!("({a}) {op} ({b})"));
            }
            for op in BINARY {
                expressions.push(format!("{op}({a}, {b})"));
            }
        }
    }
    let mut text = String::from(
        "\
:- use_module(library(lists)).
:- dynamic(rational_case/2).

%! mismatches(-Checked:int, -Mismatches:list(int)) is det.
%
%  Evaluates every expression both ways; the numbers of those that differ.
mismatches(Checked, Mismatches) :-
    findall(I, compiled(I, _), Is),
    length(Is, Checked),
    findall(I, (member(I, Is), compiled(I, C), at_run_time(I, R), C \\== R), Mismatches).

%! compiled_value(+I:int, -Value:atom) is semidet.
%
%  The compiled expression I's value as the engine writes it, failing if it
%  raised an error.
compiled_value(I, Value) :-
    compiled(I, ok(V)),
    number_codes(V, Codes),
    atom_codes(Value, Codes).

%! compared(-Checked:int, -Mismatches:list(int)) is det.
%
%  Every comparison of two operands, compiled and at run time.
compared(Checked, Mismatches) :-
    findall(I, compiled_comparison(I, _), Is),
    length(Is, Checked),
    findall(I, (member(I, Is), compiled_comparison(I, C), run_time_comparison(I, R), C \\== R), Mismatches).

%! rationals(-Checked:int, -Values:int, -Mismatches:list(int)) is det.
%
%  The reader has no syntax for a rational: a clause holds one only when it is
%  asserted with one. Asserts a clause per expression over rationals, then
%  compares each with the same expression evaluated at run time. Values counts
%  the expressions that have one rather than an error.
rationals(Checked, Values, Mismatches) :-
    retractall(rational_case(_, _)),
    Third is 1 rdiv 3,
    Half is -7 rdiv 2,
    findall(E,
            (   member(A, [Third, Half]),
                (   member(Op, [-, abs, sign, float, truncate, round, floor, ceiling]),
                    E =.. [Op, A]
                ;   member(B, [Third, Half, 1, -0.25, 100000000000000000000]),
                    member(Op, [+, -, *, /, min, max, **, ^, //]),
                    E =.. [Op, A, B]
                )
            ),
            Es),
    forall(nth1(I, Es, E),
           assertz((rational_case(I, R) :- catch((V is E, R = ok(V)), error(F, _), R = err(F))))),
    length(Es, Checked),
    findall(I, rational_case(I, ok(_)), Valued),
    length(Valued, Values),
    findall(I,
            (   nth1(I, Es, E),
                rational_case(I, C),
                catch((V is E, R = ok(V)), error(F, _), R = err(F)),
                C \\== R
            ),
            Mismatches).

run_time_comparison(I, R) :-
    comparison(I, G),
    outcome(G, R).

outcome(G, R) :-
    catch((call(G) -> R = true ; R = false), error(F, _), R = err(F)).

at_run_time(I, R) :-
    expression(I, E),
    catch((V is E, R = ok(V)), error(F, _), R = err(F)).

",
    );
    // Each predicate's clauses together: the engine keeps only the last run of a
    // predicate's clauses that other clauses interrupt.
    let (mut compiled, mut data) = (String::new(), String::new());
    for (i, expression) in expressions.iter().enumerate() {
        writeln!(
            compiled,
            "compiled({i}, R) :- catch((V is {expression}, R = ok(V)), error(F, _), R = err(F))."
        )
        .expect("string");
        writeln!(data, "expression({i}, {expression}).").expect("string");
    }
    let mut i = 0;
    for a in OPERANDS {
        for b in OPERANDS {
            for op in COMPARISONS {
                writeln!(
                    compiled,
                    "compiled_comparison({i}, R) :- catch((({a}) {op} ({b}) -> R = true ; R = false), error(F, _), R = err(F))."
                )
                .expect("string");
                writeln!(data, "comparison({i}, ({a}) {op} ({b})).").expect("string");
                i += 1;
            }
        }
    }
    text.push_str(&compiled);
    text.push_str(&data);
    let path = dir.0.join("arithmetic.pl");
    std::fs::write(&path, text).expect("write the knowledge base");
    (path, expressions)
}

#[test]
fn numbers_compiled_into_arithmetic_evaluate_as_the_same_expressions_built_at_run_time() {
    let dir = TempDir::new("arithmetic");
    let (path, expressions) = knowledge_base(&dir);
    let kb = KnowledgeBase::load_with(path, config()).expect("the knowledge base loads");

    let answer = kb.call("mismatches", &json!({})).expect("mismatches");
    assert_eq!(answer["Checked"], json!(expressions.len()), "{answer}");
    let differing: Vec<&str> = answer["Mismatches"]
        .as_array()
        .expect("a list")
        .iter()
        .map(|i| expressions[i.as_u64().expect("an index") as usize].as_str())
        .collect();
    assert!(differing.is_empty(), "compiled ≠ run time: {differing:?}");

    let answer = kb.call("compared", &json!({})).expect("compared");
    assert_eq!(
        answer["Checked"],
        json!(OPERANDS.len() * OPERANDS.len() * COMPARISONS.len()),
        "{answer}"
    );
    assert_eq!(answer["Mismatches"], json!([]), "{answer}");

    let answer = kb.call("rationals", &json!({})).expect("rationals");
    assert_eq!(answer["Checked"], json!(2 * (8 + 5 * 9)), "{answer}");
    assert!(answer["Values"].as_u64() > Some(80), "{answer}");
    assert_eq!(answer["Mismatches"], json!([]), "{answer}");

    // And the compiled values themselves, one of each kind of operand.
    let value = |expression: &str| -> Value {
        let i = expressions
            .iter()
            .position(|e| e == expression)
            .unwrap_or_else(|| panic!("{expression} is generated"));
        kb.call("compiled_value", &json!({ "I": i }))
            .expect("compiled_value")
    };
    for (expression, written) in [
        ("(1) + (3.5)", "4.5"),
        ("(-7) * (-0.25)", "1.75"),
        ("(-7) // (1)", "-7"),
        ("(36028797018963967) + (1)", "36028797018963968"),
        ("(100000000000000000000) - (1)", "99999999999999999999"),
        ("(-1180591620717411303424) // (-7)", "168655945816773043346"),
        ("(pi) - (pi)", "0.0"),
        ("(e) / (e)", "1.0"),
        ("abs(-7)", "7"),
        ("float(1)", "1.0"),
        ("max(1, 3.5)", "3.5"),
        ("(1.0e10) - (1)", "9999999999.0"),
    ] {
        assert_eq!(value(expression), json!(written), "{expression}");
    }
    // Division by zero raises in both forms; it is not a value.
    assert_eq!(value("(1) / (0)"), json!(null));
}
