//! JSON arguments → goal text, and the decoded outcome → the JSON answer.

use std::fmt::Write as _;

use serde_json::{Map, Value};

use super::{ArgumentError, CallError};
use crate::engine::{EngineError, Limits, Outcome};
use crate::pldoc::{Arg, Determinism, Mode, Operation};
use crate::term::{self, OutputTypeError, PlTerm, ReadError};

/// The input values of a JSON object of arguments, in mode-line order.
pub(crate) fn inputs_of<'v>(
    op: &Operation,
    args: &'v Value,
) -> Result<Vec<&'v Value>, ArgumentError> {
    let given = args.as_object().ok_or(ArgumentError::NotAnObject)?;
    for key in given.keys() {
        match op.args.iter().find(|a| a.name == *key) {
            None => return Err(ArgumentError::Unknown(key.clone())),
            Some(a) if a.mode == Mode::Out => return Err(ArgumentError::Output(key.clone())),
            Some(_) => {}
        }
    }
    op.inputs()
        .map(|arg| {
            given
                .get(arg.name.as_ref())
                .ok_or_else(|| ArgumentError::Missing(arg.name.to_string()))
        })
        .collect()
}

/// How many solutions of a `nondet`/`multi` operation a call collects.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Collect {
    /// All of them, up to this many (one more is "too many solutions").
    Upto(usize),
    /// Those after the first `.0` (found, not collected), up to `.1` of them (a
    /// page: see `kb::page`).
    Window(usize, usize),
    /// Each written as it is found, with this key (a stream: see `kb::stream`).
    Stream(u64),
}

impl std::fmt::Display for Collect {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Collect::Upto(n) => write!(f, "{n}"),
            Collect::Window(skip, take) => write!(f, "window({skip},{take})"),
            Collect::Stream(key) => write!(f, "stream({key})"),
        }
    }
}

/// Builds the query of a call from its input values in mode-line order, and where
/// its inference limit starts in the text (see [`uncounted`]). The query names the
/// operation's stub (see [`stubs`]): `'$charon_o<I>'(Limit, In…).`, with the
/// solution limit after `Limit` for an operation with many solutions. The limit is
/// counted (`reset(Limit)` when the knowledge base sets limits of its own, see
/// `'$charon_call'/4`). Inputs with floats need `'$charon_floats'/1` around the
/// goal, so those calls spell the whole goal out (the form [`stubs`] abbreviates).
pub(crate) fn build_query(
    op: &Operation,
    index: usize,
    inputs: &[&Value],
    inferences: u64,
    reset: bool,
    solutions: Collect,
) -> Result<(String, usize), ArgumentError> {
    let limit = if reset && inferences > 0 {
        format!("reset({inferences})")
    } else {
        inferences.to_string()
    };
    let mut args = term::GoalText {
        text: String::with_capacity(64),
        has_floats: false,
    };
    for (arg, value) in op.inputs().zip(inputs.iter().copied()) {
        args.text.push(',');
        write_arg(&mut args, arg, value)?;
    }
    if let Some(missing) = op.inputs().nth(inputs.len()) {
        return Err(ArgumentError::Missing(missing.name.to_string()));
    }
    let mut query;
    let at;
    if args.has_floats {
        let (goal, template) = goal_and_template(op, inputs)?;
        query = format!("{}{template},{goal},", wrapper(op));
        at = query.len();
        query.push_str(&limit);
        if op.determinism.is_many() {
            write!(query, ",{solutions}").expect("writing to a String");
        }
        query.push_str(",R).");
    } else {
        query = String::with_capacity(args.text.len() + limit.len() + 24);
        write!(query, "'$charon_o{index}'(").expect("writing to a String");
        at = query.len();
        query.push_str(&limit);
        if op.determinism.is_many() {
            write!(query, ",{solutions}").expect("writing to a String");
        }
        query.push_str(&args.text);
        query.push_str(").");
    }
    Ok((query, at))
}

/// `'$charon_once'(` or `'$charon_all'(`, by the operation's determinism.
fn wrapper(op: &Operation) -> &'static str {
    if op.determinism.is_many() {
        "'$charon_all'("
    } else {
        "'$charon_once'("
    }
}

/// The stub predicates [`build_query`] names, one clause per operation, loaded with
/// the wrapper: `'$charon_o<I>'(L, In…) :- '$charon_once'(sol(Out…), name(…), L, _).`
/// (with `'$charon_all'` and the solution limit `M` after `L` for an operation with
/// many solutions). A call's query is then one short goal: the engine reads and
/// compiles less text per call, and the answer still comes from the wrapper.
pub(crate) fn stubs(ops: &[Operation]) -> String {
    let mut out = String::new();
    for (index, op) in ops.iter().enumerate() {
        let mut head = format!("'$charon_o{index}'(L");
        if op.determinism.is_many() {
            head.push_str(",M");
        }
        let mut goal = term::GoalText::default();
        let template = goal_shape(op, &mut goal, |goal, i, _| {
            write!(head, ",I{i}").expect("writing to a String");
            write!(goal.text, "I{i}").expect("writing to a String");
            Ok(())
        })
        .expect("variables are never refused");
        let limits = if op.determinism.is_many() { "L,M" } else { "L" };
        writeln!(
            out,
            "{head}) :- {}{template},{},{limits},_).",
            wrapper(op),
            goal.text
        )
        .expect("writing to a String");
    }
    out
}

/// The query `build_query` made, with its limit (the digits at `at`) checked when
/// the call ends instead of counted: `checked(Limit)` (see `'$charon_call'/4`).
pub(crate) fn uncounted(query: &str, at: usize) -> String {
    let digits = query[at..].bytes().take_while(u8::is_ascii_digit).count();
    let mut out = String::with_capacity(query.len() + 9);
    out.push_str(&query[..at]);
    out.push_str("checked(");
    out.push_str(&query[at..at + digits]);
    out.push(')');
    out.push_str(&query[at + digits..]);
    out
}

/// The goal of a call, `name(…)`, and the template of its outputs, `sol(O…)`.
pub(crate) fn goal_and_template(
    op: &Operation,
    inputs: &[&Value],
) -> Result<(String, String), ArgumentError> {
    let mut inputs = inputs.iter();
    let mut goal = term::GoalText::default();
    let template = goal_shape(op, &mut goal, |goal, _, arg| {
        let value = inputs
            .next()
            .ok_or_else(|| ArgumentError::Missing(arg.name.to_string()))?;
        write_arg(goal, arg, value)
    })?;
    let goal = if goal.has_floats {
        format!("'$charon_floats'({})", goal.text)
    } else {
        goal.text
    };
    Ok((goal, template))
}

/// Writes an operation's goal, `name(…)`, into `goal`: each input by `input` (given
/// the argument's position), each output as the variable `O<position>`; returns the
/// template of its outputs, `sol(O…)`. The one place that lays out a call, for
/// queries that spell the goal out and for the stubs that abbreviate it.
fn goal_shape(
    op: &Operation,
    goal: &mut term::GoalText,
    mut input: impl FnMut(&mut term::GoalText, usize, &Arg) -> Result<(), ArgumentError>,
) -> Result<String, ArgumentError> {
    term::write_atom(&mut goal.text, &op.predicate);
    let mut template = String::from("sol");
    let mut outputs = 0;
    for (i, arg) in op.args.iter().enumerate() {
        goal.text.push(if i == 0 { '(' } else { ',' });
        if arg.mode == Mode::In {
            input(goal, i, arg)?;
        } else {
            template.push(if outputs == 0 { '(' } else { ',' });
            write!(template, "O{i}").expect("writing to a String");
            write!(goal.text, "O{i}").expect("writing to a String");
            outputs += 1;
        }
    }
    if !op.args.is_empty() {
        goal.text.push(')');
    }
    if outputs > 0 {
        template.push(')');
    }
    Ok(template)
}

/// Appends one input value, converted by its argument's type.
fn write_arg(goal: &mut term::GoalText, arg: &Arg, value: &Value) -> Result<(), ArgumentError> {
    term::write_input(goal, &arg.ty, value).map_err(|error| ArgumentError::Type {
        name: arg.name.to_string(),
        error,
    })
}

/// Shapes a decoded outcome by the declared determinism: one solution or an array.
pub(crate) fn shape(op: &Operation, outcome: Outcome, limits: &Limits) -> Result<Value, CallError> {
    let operation = || op.name.to_string();
    match outcome {
        Outcome::Solved(payload) if op.determinism.is_many() => {
            let items = match payload {
                PlTerm::List(items) => items,
                // A list of `sol` terms could only come back as text if they were
                // one-character atoms; `sol` is not, so anything else is a bug.
                other => {
                    return Err(CallError::Exception {
                        operation: operation(),
                        term: other.to_string(),
                    });
                }
            };
            items
                .iter()
                .map(|s| solution(op, s))
                .collect::<Result<Vec<_>, _>>()
                .map(Value::Array)
        }
        Outcome::Solved(payload) => solution(op, &payload),
        Outcome::Failed if op.determinism.is_many() => Ok(Value::Array(Vec::new())),
        Outcome::Failed => match op.determinism {
            Determinism::Det => Err(CallError::DetFailed {
                operation: operation(),
            }),
            _ if op.outputs().next().is_none() => Ok(Value::Bool(false)),
            _ => Ok(Value::Null),
        },
        Outcome::InferenceLimit => Err(CallError::InferenceLimit {
            operation: operation(),
            limit: limits.inferences,
        }),
        Outcome::TooManySolutions => Err(CallError::TooManySolutions {
            operation: operation(),
            limit: limits.solutions,
        }),
        Outcome::MemoryLimit => Err(CallError::MemoryLimit {
            operation: operation(),
            limit: limits.memory,
        }),
        Outcome::Unreadable(ReadError::TooDeep(limit)) => Err(CallError::AnswerTooDeep {
            operation: operation(),
            limit,
        }),
        Outcome::Unreadable(error) => Err(CallError::Engine {
            operation: operation(),
            error: EngineError::Protocol(error.to_string()),
        }),
        Outcome::Exception(term) => Err(CallError::Exception {
            operation: operation(),
            term: term.to_string(),
        }),
    }
}

/// One solution `sol(O…)`: none → `true`, one → the value, several → an object.
pub(crate) fn solution(op: &Operation, sol: &PlTerm) -> Result<Value, CallError> {
    let values: &[PlTerm] = match sol {
        PlTerm::Compound(_, values) => values,
        _ => &[],
    };
    let outputs: Vec<_> = op.outputs().collect();
    let convert = |i: usize| {
        let arg = outputs[i];
        let term = values.get(i).ok_or_else(|| CallError::Output {
            operation: op.name.to_string(),
            argument: arg.name.to_string(),
            error: OutputTypeError {
                declared: arg.ty.to_string(),
                found: "nothing".into(),
            },
        })?;
        term::to_json(&arg.ty, term).map_err(|error| CallError::Output {
            operation: op.name.to_string(),
            argument: arg.name.to_string(),
            error,
        })
    };
    match outputs.len() {
        0 => Ok(Value::Bool(true)),
        1 => convert(0),
        _ => {
            let mut map = Map::new();
            for (i, arg) in outputs.iter().enumerate() {
                map.insert(arg.name.to_string(), convert(i)?);
            }
            Ok(Value::Object(map))
        }
    }
}
