//! What each operation may do to the state, proven from the rules or assumed the
//! worst (fail closed).
//!
//! The input is what the engine's reader found in the knowledge base and the local
//! files it loads (`'$charon_analyse'/2` in `engine/wrapper.pl`): its rules as
//! loaded — direct calls of `assertz/1`, `asserta/1`, `retract/1`, `retractall/1`
//! and `bb_put/2` already rewritten into recorded calls (`'$charon_j_*'`) — the
//! predicates it defines, its modules, and anything that kept it from reading.
//!
//! A predicate is a **read** only if everything it can call is on an allow-list of
//! builtins known to be free of side effects, or is itself a read. Output, time and
//! randomness make a *volatile* read: it runs beside other reads, but its answers
//! are not cached. Recorded calls make a write whose changes replicate as recorded
//! (`Journal`). A mutator reached another way (a closure, a meta-call) makes a write
//! replicated by a full dump (`Snapshot`). Anything else — a goal known only at run
//! time, a predicate that is neither defined nor on a list, a builtin that changes
//! state Charon cannot copy between workers (operators, flags, global variables) —
//! is *untracked*: the operation is a write, and the engine keeps a single worker so
//! that no answer can depend on which worker ran it. So is every operation when the
//! reader could not read the knowledge base, or when the knowledge base defines its
//! own term or goal expansion (its clauses as loaded are then not the ones read).

use std::collections::{HashMap, HashSet};

use crate::engine::{Access, Replication};
use crate::term::PlTerm;

/// A predicate: module, name, arity.
type Pi = (String, String, usize);
/// A predicate name and arity, in no particular module.
type Na = (String, usize);

/// How far an effect reaches, weakest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum Level {
    /// Reads the state only.
    Pure,
    /// Output, time or randomness: not cached.
    Volatile,
    /// Changes the state through recorded calls.
    Journal,
    /// Changes the state in ways only a full dump captures.
    Snapshot,
    /// May change state that cannot be copied between workers.
    Untracked,
}

/// An effect and where it was found.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Effect {
    level: Level,
    reason: String,
    /// The predicate whose body holds the call.
    site: Pi,
}

/// What the analysis concludes for one operation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Verdict {
    /// How calls run and replicate.
    pub access: Access,
    /// Whether answers may be cached (a pure read).
    pub cacheable: bool,
    /// Whether it may change state that cannot be replicated.
    pub untracked: bool,
    /// Why it is not a pure read (`None` for a pure read).
    pub reason: Option<String>,
}

/// The result of the analysis of one knowledge base.
#[derive(Debug, Default)]
pub(crate) struct Analysis {
    effects: HashMap<Pi, Effect>,
    /// Modules the files declare.
    pub modules: Vec<String>,
    /// The module of the knowledge base's own file (`user` unless it is a module).
    pub main_module: String,
    /// Why no predicate could be proven anything (then everything is untracked).
    pub problem: Option<String>,
    /// Some clause sets an inference limit of its own (`call_with_inference_limit/3`):
    /// scryer 0.10 then counts differently with and without an outer counter, so
    /// every call stays under it (see `Counting`).
    pub nested_limits: bool,
    /// A predicate of `user` the knowledge base defines under a name Charon's wrapper
    /// keeps for itself (`$charon…`): loaded after the wrapper, it would replace it.
    pub reserved: Option<String>,
}

impl Analysis {
    /// The verdict for the predicate `name/arity`.
    pub(crate) fn verdict(&self, name: &str, arity: usize) -> Verdict {
        let effect = match &self.problem {
            Some(p) => Some((Level::Untracked, p.clone())),
            // An operation is called from `user`: its own definition, or the one a
            // module exports; the strongest effect of any candidate counts.
            None => self
                .effects
                .iter()
                .filter(|(pi, _)| pi.1 == name && pi.2 == arity)
                .map(|(_, e)| e)
                .filter(|e| e.level > Level::Pure)
                .max_by_key(|e| e.level)
                .map(|e| {
                    let reason = if e.site.1 == name && e.site.2 == arity {
                        e.reason.clone()
                    } else {
                        format!("{} in {}/{}", e.reason, e.site.1, e.site.2)
                    };
                    (e.level, reason)
                }),
        };
        let level = effect.as_ref().map_or(Level::Pure, |e| e.0);
        Verdict {
            access: match level {
                Level::Pure | Level::Volatile => Access::Read,
                Level::Journal => Access::Write(Replication::Journal),
                Level::Snapshot | Level::Untracked => Access::Write(Replication::Snapshot),
            },
            cacheable: level == Level::Pure,
            untracked: level == Level::Untracked,
            reason: effect.map(|e| e.1),
        }
    }
}

/// What one body may call.
#[derive(Debug, PartialEq, Eq, Hash)]
enum Callee {
    /// A predicate, in the module given by a qualification (else the caller's).
    Pred(Option<String>, String, usize),
    Effect(Level, String),
}

/// Analyses the reader's items (see the module docs).
pub(crate) fn analyse(items: &[PlTerm]) -> Analysis {
    let mut rules: Vec<(Pi, &PlTerm)> = Vec::new();
    let mut defined: HashSet<Pi> = HashSet::new();
    let mut modules = Vec::new();
    let mut problems = Vec::new();
    let mut main_module = "user".to_string();
    for item in items {
        match item {
            PlTerm::Compound(f, a) if f == "main" && a.len() == 1 => {
                main_module = atom_text(&a[0]).unwrap_or(main_module);
            }
            PlTerm::Compound(f, a) if f == "rule" && a.len() == 4 => {
                if let (Some(m), Some(name), Some(arity)) =
                    (atom_text(&a[0]), atom_text(&a[1]), int(&a[2]))
                {
                    let pi = (m, name, arity);
                    defined.insert(pi.clone());
                    rules.push((pi, &a[3]));
                }
            }
            PlTerm::Compound(f, a) if f == "defined" && a.len() == 3 => {
                if let (Some(m), Some(name), Some(arity)) =
                    (atom_text(&a[0]), atom_text(&a[1]), int(&a[2]))
                {
                    defined.insert((m, name, arity));
                }
            }
            // A directive's goal is analysed as the body of a predicate nobody calls:
            // only the rules it may assert (and the problems of unknown clauses)
            // matter.
            PlTerm::Compound(f, a) if f == "directive" && a.len() == 2 => {
                if let Some(m) = atom_text(&a[0]) {
                    rules.push(((m, "$directive".into(), 0), &a[1]));
                }
            }
            PlTerm::Compound(f, a) if f == "module" && a.len() == 1 => {
                if let Some(m) = atom_text(&a[0]) {
                    modules.push(m);
                }
            }
            PlTerm::Compound(f, a) if f == "problem" && a.len() == 1 => {
                problems.push(atom_text(&a[0]).unwrap_or_else(|| a[0].to_string()));
            }
            _ => problems.push(format!("the reader gave an unexpected item {item}")),
        }
    }
    for hook in ["term_expansion", "goal_expansion"] {
        if defined.iter().any(|pi| pi.1 == hook && pi.2 == 2) {
            problems.push(format!(
                "it defines {hook}/2, so its clauses as loaded may differ from the clauses \
                 Charon reads"
            ));
        }
    }

    let mut calls: HashMap<Pi, HashSet<Callee>> = HashMap::new();
    let mut asserted: Vec<(Pi, PlTerm)> = Vec::new();
    let mut pending: Vec<(Pi, PlTerm)> = rules
        .iter()
        .map(|(pi, body)| (pi.clone(), (*body).clone()))
        .collect();
    // Rules asserted at run time are analysed like the others (not rewritten: their
    // mutators are raw), and may assert more rules in turn.
    let mut seen_asserted = HashSet::new();
    let mut nested_limits = false;
    while let Some((pi, body)) = pending.pop() {
        let names: HashSet<Na> = defined.iter().map(|pi| (pi.1.clone(), pi.2)).collect();
        let mut found = Found {
            module: pi.0.clone(),
            names: &names,
            qualifier: None,
            callees: HashSet::new(),
            asserted: Vec::new(),
            problems: Vec::new(),
            sets_limits: false,
        };
        match &body {
            PlTerm::Compound(f, args) if f == "dcg" && args.len() == 1 => dcg(&args[0], &mut found),
            _ => goal(&body, 0, &mut found),
        }
        calls
            .entry(pi)
            .or_default()
            .extend(std::mem::take(&mut found.callees));
        problems.extend(std::mem::take(&mut found.problems));
        nested_limits |= found.sets_limits;
        let asserted_now = std::mem::take(&mut found.asserted);
        drop(found);
        for (head, rule_body) in asserted_now {
            if is_builtin(&head.1, head.2) {
                problems.push(format!(
                    "it asserts clauses for {}/{}, which Charon takes for a builtin",
                    head.1, head.2
                ));
            }
            defined.insert(head.clone());
            if seen_asserted.insert((head.clone(), rule_body.to_string())) {
                asserted.push((head.clone(), rule_body.clone()));
                pending.push((head, rule_body));
            }
        }
    }
    problems.sort();
    problems.dedup();
    let mut reserved: Vec<String> = defined
        .iter()
        .filter(|pi| pi.0 == "user" && pi.1.starts_with("$charon"))
        .map(|pi| format!("{}/{}", pi.1, pi.2))
        .collect();
    reserved.sort();

    Analysis {
        reserved: reserved.into_iter().next(),
        effects: closure(&calls, &defined),
        modules,
        main_module,
        problem: (!problems.is_empty()).then(|| problems.join("; ")),
        nested_limits,
    }
}

/// Each predicate's strongest effect, through everything it calls.
fn closure(calls: &HashMap<Pi, HashSet<Callee>>, defined: &HashSet<Pi>) -> HashMap<Pi, Effect> {
    let mut effects: HashMap<Pi, Effect> = HashMap::new();
    let raise = |effects: &mut HashMap<Pi, Effect>, pi: &Pi, e: Effect| {
        let stronger = effects.get(pi).is_none_or(|old| e.level > old.level);
        if stronger {
            effects.insert(pi.clone(), e);
        }
        stronger
    };
    for (pi, callees) in calls {
        for c in callees {
            let e = match c {
                Callee::Effect(level, reason) => Effect {
                    level: *level,
                    reason: reason.clone(),
                    site: pi.clone(),
                },
                Callee::Pred(m, n, a) if resolve(defined, pi, m, n, *a).is_empty() => Effect {
                    level: Level::Untracked,
                    reason: format!(
                        "it calls {n}/{a}, which is neither defined in the knowledge base nor \
                         known to Charon to be free of side effects"
                    ),
                    site: pi.clone(),
                },
                Callee::Pred(..) => continue,
            };
            raise(&mut effects, pi, e);
        }
    }
    loop {
        let mut changed = false;
        for (pi, callees) in calls {
            for c in callees {
                if let Callee::Pred(m, n, a) = c {
                    for q in resolve(defined, pi, m, n, *a) {
                        if let Some(e) = effects.get(&q).cloned() {
                            changed |= raise(&mut effects, pi, e);
                        }
                    }
                }
            }
        }
        if !changed {
            return effects;
        }
    }
}

/// The definitions a call of `name/arity` from `caller` (qualified with `module`,
/// if it is) may reach: the one in the module named, else the ones of every module
/// (it is then imported, and which one is not tracked).
fn resolve(
    defined: &HashSet<Pi>,
    caller: &Pi,
    module: &Option<String>,
    name: &str,
    arity: usize,
) -> Vec<Pi> {
    let home = module.as_deref().unwrap_or(&caller.0);
    let exact = (home.to_string(), name.to_string(), arity);
    if defined.contains(&exact) {
        return vec![exact];
    }
    defined
        .iter()
        .filter(|pi| pi.1 == name && pi.2 == arity)
        .cloned()
        .collect()
}

/// What one body was found to call.
struct Found<'a> {
    /// The module of the clause.
    module: String,
    /// Names defined anywhere in the knowledge base: they win over builtins.
    names: &'a HashSet<Na>,
    /// The module a qualification names, while inside one.
    qualifier: Option<String>,
    callees: HashSet<Callee>,
    /// Rules it may assert: (head, body).
    asserted: Vec<(Pi, PlTerm)>,
    problems: Vec<String>,
    /// It calls `call_with_inference_limit/3`.
    sets_limits: bool,
}

impl Found<'_> {
    fn effect(&mut self, level: Level, reason: impl Into<String>) {
        self.callees.insert(Callee::Effect(level, reason.into()));
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
    /// The module a clause goes to: its own qualification, else the one in force.
    fn home(&self, qualified: Option<String>) -> String {
        qualified
            .or_else(|| self.qualifier.clone())
            .unwrap_or_else(|| self.module.clone())
    }
}

fn clause_module(head: &PlTerm) -> Option<String> {
    match head {
        PlTerm::Compound(f, a) if f == ":" && a.len() == 2 => match &a[0] {
            PlTerm::Atom(m) => Some(m.clone()),
            _ => None,
        },
        _ => None,
    }
}

fn head_pi(t: &PlTerm) -> Option<Na> {
    match t {
        PlTerm::Atom(a) => Some((a.clone(), 0)),
        PlTerm::Compound(f, a) => Some((f.clone(), a.len())),
        _ => None,
    }
}

fn unqualify(t: &PlTerm) -> &PlTerm {
    match t {
        PlTerm::Compound(f, a) if f == ":" && a.len() == 2 => unqualify(&a[1]),
        _ => t,
    }
}

/// Collects what calling `t` (with `extra` arguments appended) may call.
fn goal(t: &PlTerm, extra: usize, out: &mut Found) {
    let (name, args): (&str, &[PlTerm]) = match t {
        PlTerm::Atom(a) => (a, &[]),
        PlTerm::Compound(f, args) => (f, args),
        PlTerm::Var(_) => {
            out.effect(Level::Untracked, "it calls a goal known only when it runs");
            return;
        }
        // A list or a string in goal position loads files.
        PlTerm::List(_) | PlTerm::Str(_) => {
            out.effect(Level::Untracked, "it loads files");
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
    let arity = args.len() + extra;
    if extra == 0 {
        match (name, args.len()) {
            ("," | ";" | "->" | "*->" | "|", 2)
            | ("\\+" | "call" | "once" | "ignore", 1)
            | ("forall" | "call_cleanup", 2)
            | ("setup_call_cleanup", 3) => {
                args.iter().for_each(|a| goal(a, 0, out));
                return;
            }
            ("findall", 3 | 4) | ("aggregate_all", 3) | ("bagof" | "setof", 3) => {
                goal(strip_carets(&args[1]), 0, out);
                return;
            }
            ("^", 2) => {
                goal(&args[1], 0, out);
                return;
            }
            // In a directive: the goal runs at load.
            ("initialization", 1 | 2) => {
                goal(&args[0], 0, out);
                return;
            }
            ("catch", 3) => {
                goal(&args[0], 0, out);
                goal(&args[2], 0, out);
                return;
            }
            ("call_with_inference_limit", 3) => {
                out.sets_limits = true;
                goal(&args[0], 0, out);
                return;
            }
            ("$charon_j_assertz" | "$charon_j_asserta", 2) => {
                out.effect(Level::Journal, format!("it calls {}/1", &name[10..]));
                let module = match &args[0] {
                    PlTerm::Atom(m) => Some(m.clone()),
                    _ => None,
                };
                out.asserts(module, Some(&args[1]), &name[10..]);
                return;
            }
            ("$charon_j_retract" | "$charon_j_retractall", 2) | ("$charon_j_bb_put", 2) => {
                let arity = if name.ends_with("bb_put") { 2 } else { 1 };
                out.effect(Level::Journal, format!("it calls {}/{arity}", &name[10..]));
                return;
            }
            _ => {}
        }
    }
    match (name, arity) {
        (":", _) => {
            let module = match &args[0] {
                PlTerm::Atom(m) => Some(m.clone()),
                _ => None,
            };
            let outer = std::mem::replace(&mut out.qualifier, module);
            goal(&args[1], extra, out);
            out.qualifier = outer;
        }
        _ if out.names.contains(&(name.to_string(), arity)) => {
            let q = out.qualifier.clone();
            out.callees.insert(Callee::Pred(q, name.to_string(), arity));
        }
        ("call", n) if n > 1 => goal(&args[0], extra + args.len() - 1, out),
        ("phrase", 2 | 3) => goal(&args[0], extra + 2, out),
        ("maplist", 2..=8) | ("foldl", 4..=7) => goal(&args[0], extra + args.len() - 1, out),
        ("include" | "exclude", 3) | ("partition", 4) => goal(&args[0], extra + 1, out),
        ("predsort", 3) => goal(&args[0], extra + 3, out),
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
        _ if PURE.contains(&(name, arity)) => {}
        _ if OUTPUT.contains(&(name, arity)) => {
            out.effect(Level::Volatile, format!("it prints ({name}/{arity})"))
        }
        _ if VOLATILE.contains(&(name, arity)) => out.effect(
            Level::Volatile,
            format!("its answers vary from call to call ({name}/{arity})"),
        ),
        _ if STATEFUL.contains(&(name, arity)) => out.effect(
            Level::Untracked,
            format!(
                "it calls {name}/{arity}, which changes state Charon cannot copy between workers"
            ),
        ),
        _ => {
            let q = out.qualifier.clone();
            out.callees.insert(Callee::Pred(q, name.to_string(), arity));
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
fn dcg(t: &PlTerm, out: &mut Found) {
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

fn atom_text(t: &PlTerm) -> Option<String> {
    match t {
        PlTerm::Atom(a) => Some(a.clone()),
        PlTerm::Str(s) => Some(s.clone()),
        PlTerm::List(l) if l.is_empty() => Some("[]".into()),
        _ => None,
    }
}

fn int(t: &PlTerm) -> Option<usize> {
    match t {
        PlTerm::Int(i) => i.parse().ok(),
        _ => None,
    }
}

fn is_builtin(name: &str, arity: usize) -> bool {
    let na = (name, arity);
    PURE.contains(&na) || OUTPUT.contains(&na) || VOLATILE.contains(&na) || STATEFUL.contains(&na)
}

/// Builtins and library predicates known to have no effect beyond their answer
/// (meta-predicates are handled above, by their goal arguments).
#[rustfmt::skip]
const PURE: &[(&str, usize)] = &[
    // Control and errors.
    ("true", 0), ("fail", 0), ("false", 0), ("!", 0), ("throw", 1),
    ("must_be", 2), ("can_be", 2), ("type_error", 2), ("domain_error", 2),
    ("instantiation_error", 1), ("existence_error", 2), ("permission_error", 3),
    ("representation_error", 1), ("resource_error", 1),
    // Unification, comparison, arithmetic.
    ("=", 2), ("\\=", 2), ("==", 2), ("\\==", 2), ("@<", 2), ("@>", 2), ("@=<", 2),
    ("@>=", 2), ("compare", 3), ("unify_with_occurs_check", 2), ("dif", 2), ("is", 2),
    ("=:=", 2), ("=\\=", 2), ("<", 2), (">", 2), ("=<", 2), (">=", 2), ("succ", 2),
    ("plus", 3), ("between", 3), ("numlist", 3),
    // Type checks and term inspection.
    ("var", 1), ("nonvar", 1), ("atom", 1), ("number", 1), ("integer", 1), ("float", 1),
    ("atomic", 1), ("compound", 1), ("callable", 1), ("is_list", 1), ("ground", 1),
    ("functor", 3), ("arg", 3), ("=..", 2), ("copy_term", 2), ("term_variables", 2),
    ("numbervars", 3),
    // Atoms, characters, numbers.
    ("atom_codes", 2), ("atom_chars", 2), ("char_code", 2), ("atom_length", 2),
    ("atom_concat", 3), ("sub_atom", 5), ("number_codes", 2), ("number_chars", 2),
    ("atom_number", 2), ("upcase_atom", 2), ("downcase_atom", 2), ("char_type", 2),
    ("code_type", 2), ("atomic_list_concat", 2), ("atomic_list_concat", 3),
    ("term_to_atom", 2), ("read_term_from_chars", 3), ("write_term_to_chars", 3),
    ("number_vars", 3),
    // Lists, sorting, pairs, ordered sets, association lists.
    ("member", 2), ("memberchk", 2), ("append", 2), ("append", 3), ("length", 2),
    ("reverse", 2), ("nth0", 3), ("nth1", 3), ("nth0", 4), ("nth1", 4), ("last", 2),
    ("msort", 2), ("sort", 2), ("sort", 4), ("keysort", 2), ("select", 3), ("selectchk", 3),
    ("select", 4), ("subtract", 3), ("delete", 3), ("exclude", 3), ("sum_list", 2),
    ("sumlist", 2), ("max_list", 2), ("min_list", 2), ("list_max", 2), ("list_min", 2),
    ("list_to_set", 2), ("permutation", 2), ("same_length", 2), ("transpose", 2),
    ("pairs_keys_values", 3), ("pairs_keys", 2), ("pairs_values", 2), ("max_member", 2),
    ("min_member", 2), ("nextto", 3), ("list_to_ord_set", 2), ("ord_union", 3),
    ("ord_subtract", 3), ("ord_memberchk", 2), ("ord_intersection", 3), ("ord_subset", 2),
    ("ord_del_element", 3), ("ord_add_element", 3), ("list_to_assoc", 2), ("put_assoc", 4),
    ("get_assoc", 3), ("empty_assoc", 1), ("assoc_to_list", 2), ("assoc_to_keys", 2),
    ("assoc_to_values", 2),
    // DCG helpers (with their two list arguments).
    ("seq", 3), ("seqq", 3), ("...", 2),
    // Constraints.
    ("#=", 2), ("#\\=", 2), ("#<", 2), ("#>", 2), ("#=<", 2), ("#>=", 2), ("in", 2),
    ("ins", 2), ("label", 1), ("labeling", 2), ("#<==>", 2), ("#==>", 2), ("#<==", 2),
    ("#\\/", 2), ("#/\\", 2), ("#\\", 1), ("tuples_in", 2), ("all_different", 1),
    ("all_distinct", 1), ("sum", 3), ("zcompare", 3), ("fd_dom", 2), ("fd_inf", 2),
    ("fd_sup", 2), ("fd_size", 2),
    // Reading the state.
    ("clause", 2), ("current_predicate", 1), ("predicate_property", 2), ("current_op", 3),
    ("bb_get", 2), ("current_prolog_flag", 2),
];

/// Builtins that print (the output goes to the log, never to the caller).
#[rustfmt::skip]
const OUTPUT: &[(&str, usize)] = &[
    ("write", 1), ("print", 1), ("writeq", 1), ("write_canonical", 1), ("write_term", 2),
    ("nl", 0), ("tab", 1), ("put_char", 1), ("format", 1), ("format", 2),
    ("portray_clause", 1), ("listing", 1), ("write", 2), ("writeq", 2), ("print", 2),
    ("write_canonical", 2), ("write_term", 3), ("nl", 1), ("tab", 2), ("put_char", 2),
    ("format", 3), ("portray_clause", 2), ("flush_output", 0), ("flush_output", 1),
];

/// Builtins whose answers vary between calls with the same arguments.
#[rustfmt::skip]
const VOLATILE: &[(&str, usize)] = &[
    ("random", 1), ("random_between", 3), ("random_member", 2), ("random_permutation", 2),
    ("random_integer", 3), ("maybe", 0), ("get_time", 1), ("current_time", 1),
    ("statistics", 2), ("sleep", 1),
];

/// Builtins that change state Charon does not copy between workers.
#[rustfmt::skip]
const STATEFUL: &[(&str, usize)] = &[
    ("op", 3), ("set_prolog_flag", 2), ("set_random", 1), ("b_setval", 2), ("nb_setval", 2),
    ("bb_b_put", 2), ("abolish", 1), ("erase", 1), ("consult", 1), ("use_module", 1),
    ("use_module", 2), ("ensure_loaded", 1), ("load_files", 2), ("bb_put", 2),
];

#[cfg(test)]
mod tests {
    use super::*;

    fn atom(a: &str) -> PlTerm {
        PlTerm::Atom(a.into())
    }
    fn var(v: &str) -> PlTerm {
        PlTerm::Var(v.into())
    }
    fn c(f: &str, args: Vec<PlTerm>) -> PlTerm {
        PlTerm::Compound(f.into(), args)
    }
    fn rule(name: &str, arity: usize, body: PlTerm) -> PlTerm {
        c(
            "rule",
            vec![
                atom("user"),
                atom(name),
                PlTerm::Int(arity.to_string()),
                body,
            ],
        )
    }
    fn defined(name: &str, arity: usize) -> PlTerm {
        c(
            "defined",
            vec![atom("user"), atom(name), PlTerm::Int(arity.to_string())],
        )
    }
    fn recorded(what: &str, arg: PlTerm) -> PlTerm {
        c(
            "call",
            vec![c(
                ":",
                vec![
                    atom("user"),
                    c(&format!("$charon_j_{what}"), vec![atom("user"), arg]),
                ],
            )],
        )
    }

    #[test]
    fn reads_writes_and_unknowns() {
        let items = vec![
            defined("item", 1),
            rule("add", 1, recorded("assertz", c("item", vec![var("X")]))),
            rule(
                "get",
                1,
                c(
                    ",",
                    vec![
                        c("item", vec![var("X")]),
                        c("member", vec![var("X"), var("L")]),
                    ],
                ),
            ),
            rule(
                "wrap",
                0,
                c(
                    "findall",
                    vec![atom("x"), c("add", vec![atom("a")]), var("L")],
                ),
            ),
            rule("meta", 1, c("call", vec![var("G")])),
            rule("odd", 1, c("mystery", vec![var("X")])),
            rule("say", 1, c("format", vec![atom("~w"), var("X")])),
            rule(
                "flag",
                0,
                c(
                    "set_prolog_flag",
                    vec![atom("double_quotes"), atom("codes")],
                ),
            ),
        ];
        let a = analyse(&items);
        assert_eq!(a.problem, None, "{:?}", a.problem);
        let v = |n: &str, ar| a.verdict(n, ar);
        assert_eq!(v("get", 1).access, Access::Read);
        assert!(v("get", 1).cacheable);
        assert_eq!(v("add", 1).access, Access::Write(Replication::Journal));
        assert_eq!(v("wrap", 0).access, Access::Write(Replication::Journal));
        assert!(v("wrap", 0).reason.expect("a reason").contains("add/1"));
        assert!(v("meta", 1).untracked);
        assert!(v("odd", 1).untracked);
        assert!(v("odd", 1).reason.expect("a reason").contains("mystery/1"));
        assert_eq!(v("say", 1).access, Access::Read);
        assert!(!v("say", 1).cacheable);
        assert!(v("flag", 0).untracked);
    }

    #[test]
    fn asserted_rules_are_analysed_and_unknown_clauses_fail_closed() {
        let rule_clause = c(
            ":-",
            vec![
                c("p", vec![var("X")]),
                c("bb_put", vec![atom("k"), var("X")]),
            ],
        );
        let items = vec![
            rule("install", 0, recorded("assertz", rule_clause)),
            rule("use", 1, c("p", vec![var("X")])),
        ];
        let a = analyse(&items);
        assert!(
            a.verdict("use", 1).untracked,
            "p/1 gets a rule that calls bb_put/2 raw"
        );

        let items = vec![rule(
            "each",
            1,
            c("maplist", vec![atom("assertz"), var("L")]),
        )];
        assert!(analyse(&items).verdict("each", 1).untracked);

        let items = vec![rule("put", 1, recorded("assertz", var("C")))];
        let a = analyse(&items);
        assert!(
            a.problem
                .as_deref()
                .expect("a problem")
                .contains("known only at run time")
        );
        assert!(a.verdict("put", 1).untracked);
    }

    #[test]
    fn effects_no_list_names_are_assumed_writes() {
        // Builtins with effects that a deny-list once missed: anything not on the
        // allow-lists is treated as a write, on one worker.
        for (name, args) in [
            ("uuid", vec![var("U")]),
            ("crypto_n_random_bytes", vec![atom("16"), var("B")]),
            ("directory_files", vec![atom("."), var("Fs")]),
            ("pid", vec![var("P")]),
            ("shell", vec![atom("ls")]),
        ] {
            let body = c(name, args);
            let qualified = c(":", vec![atom("os"), body.clone()]);
            for b in [body, qualified] {
                let a = analyse(&[rule("op", 0, b.clone())]);
                assert!(a.verdict("op", 0).untracked, "{b}");
            }
        }
    }

    #[test]
    fn reader_problems_and_expansion_hooks_make_everything_untracked() {
        let a = analyse(&[c("problem", vec![atom("syntax error")]), defined("get", 1)]);
        assert!(a.verdict("get", 1).untracked);
        let a = analyse(&[defined("term_expansion", 2), defined("get", 1)]);
        assert!(
            a.verdict("get", 1)
                .reason
                .expect("a reason")
                .contains("term_expansion/2")
        );
    }
}
