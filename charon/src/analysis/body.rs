//! What a rule's body calls: the walk of a goal through control constructs,
//! meta-calls and qualifications to the predicates and builtins it reaches, and
//! what each of those does to the state ([`Found`]).

use std::collections::HashSet;

use super::builtins::{LOADS, OUTPUT, PURE, STATEFUL, VOLATILE};
use super::{Callee, Level, Na, Pi};
use crate::cache::Dependency;
use crate::term::PlTerm;

/// The qualifier of a call `M:G` whose module is known only when it runs: the call
/// may reach the definition of any module.
pub(super) const ANY_MODULE: &str = "$any module";

/// What one body was found to call.
pub(super) struct Found<'a> {
    /// The module of the clause.
    pub(super) module: String,
    /// Names defined anywhere in the knowledge base: they win over builtins.
    pub(super) names: &'a HashSet<Na>,
    /// The module a qualification names, while inside one.
    pub(super) qualifier: Option<String>,
    pub(super) callees: HashSet<Callee>,
    /// Rules it may assert: (head, body).
    pub(super) asserted: Vec<(Pi, PlTerm)>,
    pub(super) problems: Vec<String>,
    /// It calls `call_with_inference_limit/3`.
    pub(super) sets_limits: bool,
}

impl Found<'_> {
    fn effect(&mut self, level: Level, reason: impl Into<String>) {
        self.callees.insert(Callee::Effect(level, reason.into()));
    }

    /// Run at load, `what` could do differently from one load to the next.
    fn varies(&mut self, what: impl Into<String>) {
        self.callees.insert(Callee::Varies(what.into()));
    }

    /// It may define predicates the analysis does not see: `why`.
    fn defines_any(&mut self, why: impl Into<String>) {
        self.callees.insert(Callee::DefinesAny(why.into()));
    }

    /// `clause` is asserted: a rule among them is analysed too; a clause whose shape
    /// is unknown could be any rule for any predicate.
    fn asserts(&mut self, module: Option<String>, clause: Option<&PlTerm>, how: &str) {
        let module = module.or_else(|| clause.and_then(clause_module));
        let clause = clause.map(unqualify);
        match clause {
            Some(PlTerm::Compound(f, a)) if f == ":-" && a.len() == 2 => {
                match head_pi(unqualify(&a[0])) {
                    Some((n, ar)) => {
                        let m = self.home(clause_module(&a[0]).or(module));
                        self.asserted.push(((m, n, ar), a[1].clone()))
                    }
                    None => self.problems.push(format!(
                        "it asserts a rule whose head is known only at run time ({how})"
                    )),
                }
            }
            Some(t @ (PlTerm::Atom(_) | PlTerm::Compound(..))) => {
                if let Some((n, ar)) = head_pi(t) {
                    let m = self.home(module);
                    self.asserted
                        .push(((m, n, ar), PlTerm::Atom("true".into())));
                }
            }
            _ => self.problems.push(format!(
                "it asserts a clause known only at run time ({how}), which could be a rule \
                 with any body"
            )),
        }
    }
}

impl Found<'_> {
    /// It calls `name/arity` (`clause/2`, `predicate_property/2`,
    /// `current_predicate/1`, `bb_get/2`), which reads state without calling it; the
    /// first argument, if it is written in the rule, names the predicate.
    fn inspects(&mut self, name: &str, arity: usize, first: Option<&PlTerm>) {
        if name == "bb_get" {
            self.callees.insert(Callee::Reads(Dependency::Blackboard));
            return;
        }
        let named = match (name, first.map(unqualify)) {
            ("current_predicate", Some(PlTerm::Compound(slash, a)))
                if slash == "/" && a.len() == 2 =>
            {
                match (unqualify(&a[0]), int(&a[1])) {
                    (PlTerm::Atom(n), Some(ar)) => Some((n.clone(), ar)),
                    _ => None,
                }
            }
            ("current_predicate", _) => None,
            (_, Some(head)) => head_pi(head),
            (_, None) => None,
        };
        self.callees.insert(match named {
            Some((n, ar)) => Callee::Reads(Dependency::Predicate(n, ar)),
            None => Callee::ReadsAny(format!(
                "it inspects a predicate known only when it runs ({name}/{arity})"
            )),
        });
    }

    /// The module a clause goes to: its own qualification, else the one in force.
    fn home(&self, qualified: Option<String>) -> String {
        qualified
            .or_else(|| self.qualifier.clone())
            .unwrap_or_else(|| self.module.clone())
    }
}

pub(super) fn clause_module(head: &PlTerm) -> Option<String> {
    match head {
        PlTerm::Compound(f, a) if f == ":" && a.len() == 2 => match &a[0] {
            PlTerm::Atom(m) => Some(m.clone()),
            _ => None,
        },
        _ => None,
    }
}

pub(super) fn head_pi(t: &PlTerm) -> Option<Na> {
    match t {
        PlTerm::Atom(a) => Some((a.clone(), 0)),
        PlTerm::Compound(f, a) => Some((f.clone(), a.len())),
        _ => None,
    }
}

pub(super) fn unqualify(t: &PlTerm) -> &PlTerm {
    match t {
        PlTerm::Compound(f, a) if f == ":" && a.len() == 2 => unqualify(&a[1]),
        _ => t,
    }
}

/// Collects what calling `t` (with `extra` arguments appended) may call.
pub(super) fn goal(t: &PlTerm, extra: usize, out: &mut Found) {
    let (name, args): (&str, &[PlTerm]) = match t {
        PlTerm::Atom(a) => (a, &[]),
        PlTerm::Compound(f, args) => (f, args),
        PlTerm::Var(_) => {
            out.effect(Level::Untracked, "it calls a goal known only when it runs");
            out.varies("a goal known only when it runs");
            out.defines_any("it calls a goal known only when it runs");
            return;
        }
        // A list or a string in goal position loads files.
        PlTerm::List(_) | PlTerm::Str(_) => {
            out.effect(Level::Untracked, "it loads files");
            out.varies("files to load, which Charon does not read");
            out.defines_any("it loads files");
            return;
        }
        _ => {
            out.effect(
                Level::Untracked,
                format!("it calls {t}, which is not a goal"),
            );
            return;
        }
    };
    if extra == 0 && control(name, args, out) {
        return;
    }
    callee(name, args, extra, out);
}

/// A control construct or a builtin that calls its arguments (as written, no
/// extra arguments), or a call Charon records: walked, and true; false for any
/// other goal.
pub(super) fn control(name: &str, args: &[PlTerm], out: &mut Found) -> bool {
    match (name, args.len()) {
        ("," | ";" | "->" | "*->" | "|", 2)
        | ("\\+" | "call" | "once" | "ignore", 1)
        | ("forall" | "call_cleanup", 2)
        | ("setup_call_cleanup", 3) => {
            args.iter().for_each(|a| goal(a, 0, out));
            true
        }
        ("findall", 3 | 4) | ("aggregate_all", 3) | ("bagof" | "setof", 3) => {
            goal(strip_carets(&args[1]), 0, out);
            true
        }
        ("^", 2) => {
            goal(&args[1], 0, out);
            true
        }
        // In a directive: the goal runs at load.
        ("initialization", 1 | 2) => {
            goal(&args[0], 0, out);
            true
        }
        ("catch", 3) => {
            goal(&args[0], 0, out);
            goal(&args[2], 0, out);
            true
        }
        ("call_with_inference_limit", 3) => {
            out.sets_limits = true;
            goal(&args[0], 0, out);
            true
        }
        ("$charon_j_assertz" | "$charon_j_asserta", 2) => {
            out.effect(Level::Journal, format!("it calls {}/1", &name[10..]));
            let module = match &args[0] {
                PlTerm::Atom(m) => Some(m.clone()),
                _ => None,
            };
            out.asserts(module, Some(&args[1]), &name[10..]);
            true
        }
        ("$charon_j_retract" | "$charon_j_retractall", 2) | ("$charon_j_bb_put", 2) => {
            let arity = if name.ends_with("bb_put") { 2 } else { 1 };
            out.effect(Level::Journal, format!("it calls {}/{arity}", &name[10..]));
            true
        }
        _ => false,
    }
}

/// A goal `name` with `args` and `extra` arguments still to come (a closure): a
/// predicate of the knowledge base, a meta-call, or a builtin by what it does.
pub(super) fn callee(name: &str, args: &[PlTerm], extra: usize, out: &mut Found) {
    let arity = args.len() + extra;
    match (name, arity) {
        (":", _) => {
            // A module known only when it runs could be any of them.
            let module = match &args[0] {
                PlTerm::Atom(m) => Some(m.clone()),
                _ => Some(ANY_MODULE.to_string()),
            };
            let outer = std::mem::replace(&mut out.qualifier, module);
            goal(&args[1], extra, out);
            out.qualifier = outer;
        }
        _ if out.names.contains(&(name.to_string(), arity)) => {
            let q = out.qualifier.clone();
            out.callees.insert(Callee::Pred(q, name.to_string(), arity));
        }
        // (A closure of these with no argument written, as in `maplist(call, Gs, Xs)`,
        // goes on to the fall-through below: a predicate Charon does not know.)
        ("call", n) if n > 1 && !args.is_empty() => {
            goal(&args[0], extra + args.len() - 1, out)
        }
        ("phrase", 2 | 3) if !args.is_empty() => goal(&args[0], extra + 2, out),
        ("maplist", 2..=8) | ("foldl", 4..=7) if !args.is_empty() => {
            goal(&args[0], extra + args.len() - 1, out)
        }
        ("include" | "exclude", 3) | ("partition", 4) if !args.is_empty() => {
            goal(&args[0], extra + 1, out)
        }
        ("predsort", 3) if !args.is_empty() => goal(&args[0], extra + 3, out),
        ("assertz" | "asserta" | "assert", 1) => {
            out.effect(
                Level::Snapshot,
                format!("it calls {name}/1 where Charon cannot record it (a closure, a meta-call or a rule added at run time)"),
            );
            out.asserts(None, args.first().filter(|_| extra == 0), name);
        }
        ("retract" | "retractall", 1) => out.effect(
            Level::Snapshot,
            format!("it calls {name}/1 where Charon cannot record it (a closure, a meta-call or a rule added at run time)"),
        ),
        ("clause" | "predicate_property", 2) | ("current_predicate", 1) | ("bb_get", 2) => {
            out.inspects(name, arity, args.first().filter(|_| extra == 0))
        }
        _ if PURE.contains(&(name, arity)) => {}
        _ if OUTPUT.contains(&(name, arity)) => {
            out.effect(Level::Volatile, format!("it prints ({name}/{arity})"))
        }
        _ if VOLATILE.contains(&(name, arity)) => {
            out.effect(
                Level::Volatile,
                format!("its answers vary from call to call ({name}/{arity})"),
            );
            // Waiting leaves no trace in the state.
            if name != "sleep" {
                out.varies(format!("{name}/{arity}"));
            }
        }
        _ if STATEFUL.contains(&(name, arity)) => {
            out.effect(
                Level::Untracked,
                format!(
                    "it calls {name}/{arity}, which changes state Charon cannot copy between \
                     workers"
                ),
            );
            // The others set state from their arguments alone, alike at every load.
            if LOADS.contains(&(name, arity)) {
                out.varies(format!("{name}/{arity}, which loads files Charon does not read"));
                out.defines_any(format!("it calls {name}/{arity}"));
            }
            // The flag `unknown` decides whether calling an undefined predicate
            // raises an error or fails.
            let flag = args.first().filter(|_| extra == 0);
            if name == "set_prolog_flag"
                && !matches!(flag, Some(PlTerm::Atom(f)) if f != "unknown")
            {
                out.defines_any("it may set the flag unknown (set_prolog_flag/2)");
            }
        }
        _ => {
            let q = out.qualifier.clone();
            out.callees.insert(Callee::Pred(q, name.to_string(), arity));
        }
    }
}

/// A goal as text for messages: conjunctions, disjunctions and if-then-else written
/// with their operators; cut short after about 100 characters.
pub(super) fn goal_text(t: &PlTerm) -> String {
    fn write(t: &PlTerm, out: &mut String) {
        match t {
            PlTerm::Compound(f, a) if a.len() == 2 && matches!(f.as_str(), "," | ";" | "->") => {
                out.push('(');
                write(&a[0], out);
                out.push_str(match f.as_str() {
                    "," => ", ",
                    ";" => " ; ",
                    _ => " -> ",
                });
                write(&a[1], out);
                out.push(')');
            }
            PlTerm::Compound(f, a) => {
                out.push_str(&PlTerm::Atom(f.clone()).to_string());
                out.push('(');
                for (i, x) in a.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    write(x, out);
                }
                out.push(')');
            }
            other => out.push_str(&other.to_string()),
        }
    }
    let mut text = String::new();
    write(t, &mut text);
    if text.chars().count() > 100 {
        text = text.chars().take(97).collect::<String>() + "...";
    }
    text
}

pub(super) fn strip_carets(t: &PlTerm) -> &PlTerm {
    match t {
        PlTerm::Compound(f, args) if f == "^" && args.len() == 2 => strip_carets(&args[1]),
        _ => t,
    }
}

/// A DCG body: non-terminals get two extra arguments, `{}` holds plain goals.
pub(super) fn dcg(t: &PlTerm, out: &mut Found) {
    match t {
        PlTerm::Compound(f, args)
            if matches!(f.as_str(), "," | ";" | "|" | "->") && args.len() == 2 =>
        {
            args.iter().for_each(|a| dcg(a, out));
        }
        PlTerm::Compound(f, args) if f == "{}" && args.len() == 1 => goal(&args[0], 0, out),
        PlTerm::Compound(f, args) if f == "\\+" && args.len() == 1 => dcg(&args[0], out),
        PlTerm::Compound(f, args) if f == "call" && !args.is_empty() => goal(t, 2, out),
        PlTerm::Atom(a) if a == "!" || a == "[]" => {}
        PlTerm::List(_) | PlTerm::Str(_) => {}
        other => goal(other, 2, out),
    }
}

pub(super) fn atom_text(t: &PlTerm) -> Option<String> {
    match t {
        PlTerm::Atom(a) => Some(a.clone()),
        PlTerm::Str(s) => Some(s.clone()),
        PlTerm::List(l) if l.is_empty() => Some("[]".into()),
        _ => None,
    }
}

/// A count given as an integer term.
pub(super) fn int(t: &PlTerm) -> Option<usize> {
    match t {
        PlTerm::Int(i) => i.parse().ok(),
        _ => None,
    }
}
