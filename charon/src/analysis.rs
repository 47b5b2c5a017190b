//! Which predicates can change the database, and which have other effects.
//!
//! A static, conservative analysis of the knowledge base's rules. A predicate is
//! *mutating* if a body reaches a database or global-variable builtin (`assertz/1`,
//! `retract/1`, `bb_put/2`, …), and *impure* if it reaches input/output, time,
//! randomness or the operating system (`format/2`, `random/1`, `get_time/1`, …);
//! either is inherited by every caller, and a goal that is only known at run time (a
//! variable in goal position) counts as both. Mutating operations run alone and
//! publish their changes to every worker (see `engine`); operations that are neither
//! may have their answers cached until the database changes.

use std::collections::{HashMap, HashSet};

use crate::term::PlTerm;

type Pi = (String, usize);

const MUTATORS: &[(&str, usize)] = &[
    ("assert", 1),
    ("asserta", 1),
    ("assertz", 1),
    ("asserta", 2),
    ("assertz", 2),
    ("retract", 1),
    ("retractall", 1),
    ("abolish", 1),
    ("erase", 1),
    ("bb_put", 2),
    ("bb_b_put", 2),
    ("b_setval", 2),
    ("nb_setval", 2),
    ("set_prolog_flag", 2),
    ("op", 3),
    ("consult", 1),
    ("use_module", 1),
    ("use_module", 2),
];

const IMPURE: &[&str] = &[
    "write",
    "print",
    "writeq",
    "write_canonical",
    "write_term",
    "nl",
    "tab",
    "put_char",
    "put_byte",
    "format",
    "portray_clause",
    "listing",
    "read",
    "read_term",
    "get_char",
    "get_byte",
    "peek_char",
    "peek_byte",
    "random",
    "random_between",
    "random_member",
    "random_permutation",
    "random_integer",
    "maybe",
    "set_random",
    "get_time",
    "statistics",
    "sleep",
    "shell",
    "getenv",
    "setenv",
    "unsetenv",
    "open",
    "close",
    "flush_output",
    "set_input",
    "set_output",
    "halt",
    "current_time",
    "time",
    "gensym",
    "reset_gensym",
    "delete_file",
    "rename_file",
    "make_directory",
    "directory_files",
    "file_exists",
    "phrase_from_file",
    "call_with_time_limit",
];

#[derive(Debug, PartialEq, Eq, Hash)]
enum Callee {
    Pred(Pi),
    Mutates,
    Impure,
}

/// What the analysis found.
#[derive(Debug, Default)]
pub(crate) struct Effects {
    /// Predicates that can change the database.
    pub mutating: HashSet<Pi>,
    /// Predicates with effects outside the database (I/O, time, randomness, …).
    pub impure: HashSet<Pi>,
}

/// Analyses the rules (name, arity, body) of a knowledge base.
pub(crate) fn effects(rules: &[(String, usize, PlTerm)]) -> Effects {
    let mut calls: HashMap<Pi, HashSet<Callee>> = HashMap::new();
    for (name, arity, body) in rules {
        let out = calls.entry((name.clone(), *arity)).or_default();
        match body {
            PlTerm::Compound(f, args) if f == "dcg" && args.len() == 1 => dcg(&args[0], out),
            _ => goal(body, 0, out),
        }
    }
    Effects {
        mutating: closure(&calls, &Callee::Mutates),
        impure: closure(&calls, &Callee::Impure),
    }
}

/// The predicates that reach `effect`, directly or through other predicates.
fn closure(calls: &HashMap<Pi, HashSet<Callee>>, effect: &Callee) -> HashSet<Pi> {
    let mut found: HashSet<Pi> = calls
        .iter()
        .filter(|(_, cs)| cs.contains(effect))
        .map(|(pi, _)| pi.clone())
        .collect();
    loop {
        let before = found.len();
        for (pi, cs) in calls {
            if !found.contains(pi)
                && cs
                    .iter()
                    .any(|c| matches!(c, Callee::Pred(p) if found.contains(p)))
            {
                found.insert(pi.clone());
            }
        }
        if found.len() == before {
            return found;
        }
    }
}

/// Collects what calling `t` (with `extra` arguments appended) may call.
fn goal(t: &PlTerm, extra: usize, out: &mut HashSet<Callee>) {
    let (name, args): (&str, &[PlTerm]) = match t {
        PlTerm::Var(_) => {
            out.insert(Callee::Mutates);
            out.insert(Callee::Impure);
            return;
        }
        PlTerm::Atom(a) => (a, &[]),
        PlTerm::Compound(f, args) => (f, args),
        // A list or string in goal position is consult/1 shorthand.
        PlTerm::List(_) | PlTerm::Str(_) => {
            out.insert(Callee::Mutates);
            return;
        }
        _ => return,
    };
    let arity = args.len() + extra;
    if extra == 0 {
        match (name, args.len()) {
            ("," | ";" | "->" | "*->" | "|", 2) | ("\\+" | "call" | "once" | "ignore", 1) => {
                args.iter().for_each(|a| goal(a, 0, out));
                return;
            }
            ("forall", 2) | ("setup_call_cleanup", 3) | ("call_cleanup", 2) => {
                args.iter().for_each(|a| goal(a, 0, out));
                return;
            }
            ("findall", 3 | 4) | ("aggregate_all", 3) | ("bagof" | "setof", 3) => {
                goal(strip_carets(&args[1]), 0, out);
                return;
            }
            ("catch", 3) => {
                goal(&args[0], 0, out);
                goal(&args[2], 0, out);
                return;
            }
            ("call_with_inference_limit", 3) => {
                goal(&args[0], 0, out);
                return;
            }
            ("call_with_time_limit", 2) => {
                goal(&args[1], 0, out);
                return;
            }
            _ => {}
        }
    }
    match (name, arity) {
        ("call", n) if n > 1 => goal(&args[0], extra + args.len() - 1, out),
        ("maplist", 2..=8) | ("foldl", 4..=7) => goal(&args[0], extra + args.len() - 1, out),
        ("include" | "exclude", 3) | ("partition", 4) => goal(&args[0], extra + 1, out),
        _ if MUTATORS.contains(&(name, arity)) => {
            out.insert(Callee::Mutates);
        }
        _ if IMPURE.contains(&name) => {
            out.insert(Callee::Impure);
        }
        _ => {
            out.insert(Callee::Pred((name.to_string(), arity)));
        }
    }
}

fn strip_carets(t: &PlTerm) -> &PlTerm {
    match t {
        PlTerm::Compound(f, args) if f == "^" && args.len() == 2 => strip_carets(&args[1]),
        _ => t,
    }
}

/// A DCG body: non-terminals get two extra arguments, `{}` holds plain goals.
fn dcg(t: &PlTerm, out: &mut HashSet<Callee>) {
    match t {
        PlTerm::Compound(f, args)
            if matches!(f.as_str(), "," | ";" | "|" | "->") && args.len() == 2 =>
        {
            args.iter().for_each(|a| dcg(a, out));
        }
        PlTerm::Compound(f, args) if f == "{}" && args.len() == 1 => goal(&args[0], 0, out),
        PlTerm::Compound(f, args) if f == "\\+" && args.len() == 1 => dcg(&args[0], out),
        PlTerm::Atom(a) if a == "!" || a == "[]" => {}
        PlTerm::List(_) | PlTerm::Str(_) => {}
        other => goal(other, 2, out),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn atom(a: &str) -> PlTerm {
        PlTerm::Atom(a.into())
    }
    fn c(f: &str, args: Vec<PlTerm>) -> PlTerm {
        PlTerm::Compound(f.into(), args)
    }

    #[test]
    fn reaches_mutators_through_calls_and_meta_calls() {
        let rules = vec![
            (
                "add".into(),
                1,
                c("assertz", vec![c("item", vec![PlTerm::Var("X".into())])]),
            ),
            (
                "wrap".into(),
                0,
                c(
                    "findall",
                    vec![
                        atom("x"),
                        c("add", vec![atom("a")]),
                        PlTerm::Var("L".into()),
                    ],
                ),
            ),
            (
                "pure".into(),
                1,
                c(
                    "member",
                    vec![PlTerm::Var("X".into()), PlTerm::List(vec![])],
                ),
            ),
            ("meta".into(), 1, c("call", vec![PlTerm::Var("G".into())])),
            (
                "each".into(),
                1,
                c("maplist", vec![atom("add"), PlTerm::Var("L".into())]),
            ),
        ];
        let e = effects(&rules);
        let m = &e.mutating;
        assert!(m.contains(&("add".into(), 1)));
        assert!(m.contains(&("wrap".into(), 0)));
        assert!(m.contains(&("meta".into(), 1)));
        assert!(m.contains(&("each".into(), 1)));
        assert!(!m.contains(&("pure".into(), 1)));
        assert!(e.impure.contains(&("meta".into(), 1)));
        assert!(!e.impure.contains(&("add".into(), 1)));
    }

    #[test]
    fn output_and_randomness_are_impure() {
        let rules = vec![
            (
                "say".into(),
                1,
                c("format", vec![atom("~w"), PlTerm::List(vec![])]),
            ),
            (
                "pick".into(),
                1,
                c(
                    "random_member",
                    vec![PlTerm::Var("X".into()), PlTerm::Var("L".into())],
                ),
            ),
            ("caller".into(), 0, c("say", vec![atom("x")])),
            (
                "quiet".into(),
                1,
                c(
                    "member",
                    vec![PlTerm::Var("X".into()), PlTerm::Var("L".into())],
                ),
            ),
        ];
        let e = effects(&rules);
        for pi in ["say", "pick", "caller"] {
            assert!(e.impure.iter().any(|(n, _)| n == pi), "{pi}");
        }
        assert!(!e.impure.iter().any(|(n, _)| n == "quiet"));
        assert!(e.mutating.is_empty());
    }
}
