//! What each operation may do to the state, proven from the rules or assumed the
//! worst (fail closed).
//!
//! The input is what the engine's reader found in the knowledge base and the local
//! files it loads (`'$charon_analyse'/2` in `engine/wrapper/analysis.pl`): its rules as
//! loaded — direct calls of `assertz/1`, `asserta/1`, `retract/1`, `retractall/1`
//! and `bb_put/2` already rewritten into recorded calls (`'$charon_j_*'`) — the
//! predicates it defines, its modules, the goals it calls that nothing defines in
//! the loaded engine, and anything that kept it from reading.
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
//!
//! **Calls of undefined predicates.** A call of a predicate that no file defines
//! (no clauses, no `dynamic`/`discontiguous` declaration) and that the loaded engine
//! does not have either (not imported from a library, not a builtin: the reader
//! asks the engine) raises an existence error and changes nothing — typically a
//! typo. It reads nothing, and the error is the same at every call, so its answers
//! may even be cached — provided nothing can define the predicate later. An assert
//! of a clause for it makes it defined (then it is analysed as the rule asserted);
//! anything that may define predicates the analysis cannot see — a goal known only
//! at run time, a file loaded at run time, a predicate Charon does not know, a
//! change of the flag `unknown` — keeps every such call unknown, as above, and an
//! assert of a clause known only at run time already makes everything untracked.
//! The proven ones are reported as warnings (`Analysis::dangling`).
//!
//! **Load-time state.** Every worker loads the knowledge base itself, so the state
//! as loaded is the same in every worker only if every directive does the same at
//! every load. A directive (an `initialization/1` goal among them) that reaches
//! something whose result can differ from one load to the next — randomness, time,
//! statistics, a goal known only at run time, a file loaded at run time, a
//! predicate Charon does not know (it could read the environment, a file or the
//! OS) — makes the knowledge base *load-time volatile* (`Analysis::load_volatile`):
//! the engine keeps a single worker. Output, waiting, recorded and unrecorded
//! changes of data the directive computed deterministically, and builtins that set
//! state from their arguments alone (flags, operators, global variables) do the
//! same at every load.

mod body;
mod builtins;
mod keys;

use std::collections::{HashMap, HashSet};

use crate::cache::{Dependency, Reads};
use crate::engine::{Access, Replication};
use crate::term::PlTerm;
use body::{ANY_MODULE, Found, atom_text, dcg, goal, goal_text, int};
use builtins::is_builtin;

/// A predicate: module, name, arity.
type Pi = (String, String, usize);
/// A predicate name and arity, in no particular module.
type Na = (String, usize);
/// A rule's head arguments and body, when the reader gave them.
type Rule = Option<(Vec<PlTerm>, PlTerm)>;

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
    /// What each predicate's clauses call (for [`Analysis::reads`]).
    calls: HashMap<Pi, HashSet<Callee>>,
    /// The rules of each predicate (in any module), with their heads' arguments and
    /// bodies where the reader gave them (`None`: a DCG rule, a rule asserted), for
    /// [`Analysis::key_flows`].
    rules: HashMap<Na, Vec<Rule>>,
    /// The predicates the files define, and those asserted.
    defined: HashSet<Pi>,
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
    /// Calls of predicates that no file defines and nothing can define at run time,
    /// one warning each (`charon check` shows them): each raises an existence error.
    pub dangling: Vec<String>,
    /// Why the state as loaded may differ from one load to the next (a directive
    /// calls something volatile): each worker loads the knowledge base itself.
    pub load_volatile: Option<String>,
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

impl Analysis {
    /// The state the answers of `name/arity` can depend on: every predicate it can
    /// reach through its rules (by name and arity, in any module: a change in one
    /// module counts for all of them), itself included, and the state it inspects
    /// (`clause/2`, `predicate_property/2`, `current_predicate/1` of a predicate
    /// named in the rule, the blackboard). Anything, when the analysis could not
    /// read the knowledge base or a rule inspects a predicate known only when it runs.
    pub(crate) fn reads(&self, name: &str, arity: usize) -> Reads {
        if let Some(p) = &self.problem {
            return Reads::Anything(p.clone());
        }
        let mut found =
            std::collections::BTreeSet::from([Dependency::Predicate(name.to_string(), arity)]);
        let mut seen: HashSet<&Pi> = HashSet::new();
        let mut queue: Vec<Pi> = self
            .defined
            .iter()
            .filter(|pi| pi.1 == name && pi.2 == arity)
            .cloned()
            .collect();
        while let Some(pi) = queue.pop() {
            let Some((pi, callees)) = self.calls.get_key_value(&pi) else {
                continue;
            };
            if !seen.insert(pi) {
                continue;
            }
            for c in callees {
                match c {
                    Callee::Pred(m, n, a) => {
                        found.insert(Dependency::Predicate(n.clone(), *a));
                        queue.extend(resolve(&self.defined, pi, m, n, *a));
                    }
                    Callee::Reads(d) => {
                        found.insert(d.clone());
                    }
                    Callee::ReadsAny(why) => {
                        let site = format!("{}/{}", pi.1, pi.2);
                        return Reads::Anything(if pi.1 == name && pi.2 == arity {
                            why.clone()
                        } else {
                            format!("{why} in {site}")
                        });
                    }
                    Callee::Varies(_) | Callee::Effect(..) | Callee::DefinesAny(_) => {}
                }
            }
        }
        Reads::Only(found)
    }
}

/// What one body may call. (Ordered so that `Varies` comes first: the reason a
/// directive is volatile names what it calls itself before what it reaches.)
#[derive(Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Callee {
    /// Something whose result may differ from one load to the next, if it runs at
    /// load (randomness, time, a goal known only at run time, a file it loads).
    Varies(String),
    /// A predicate, in the module given by a qualification (else the caller's).
    Pred(Option<String>, String, usize),
    Effect(Level, String),
    /// Something that may define predicates the analysis does not see (or change
    /// what calling an undefined one does).
    DefinesAny(String),
    /// State it inspects without calling it (`clause/2`, `bb_get/2`, …).
    Reads(Dependency),
    /// State it inspects that is known only when it runs: the reason.
    ReadsAny(String),
}

/// Analyses the reader's items (see the module docs).
pub(crate) fn analyse(items: &[PlTerm]) -> Analysis {
    let Items {
        rules,
        mut heads,
        mut defined,
        undefined,
        directives,
        modules,
        mut problems,
        main_module,
    } = read_items(items);
    let (calls, nested_limits) = walk(&rules, &mut heads, &mut defined, &mut problems);
    problems.sort();
    problems.dedup();
    let mut reserved: Vec<String> = defined
        .iter()
        .filter(|pi| pi.0 == "user" && pi.1.starts_with("$charon"))
        .map(|pi| format!("{}/{}", pi.1, pi.2))
        .collect();
    reserved.sort();

    // A clause asserted that is known only at run time may define anything.
    let dangling = if problems.is_empty() {
        dangling(&calls, &defined, &undefined)
    } else {
        Dangling::default()
    };
    let load_volatile = directives.iter().find_map(|(pi, text)| {
        load_variance(&calls, &defined, &dangling, pi).map(|(what, site)| {
            let site = if site == *pi {
                String::new()
            } else {
                format!(" (in {}/{})", site.1, site.2)
            };
            format!(
                "the directive {text} at load calls {what}{site}, so workers could load \
                 different states"
            )
        })
    });
    let caller = |pi: &Pi| match directives.iter().find(|(d, _)| d == pi) {
        Some((_, text)) => format!("the directive {text}"),
        None if pi.0 == "user" || pi.0 == main_module => format!("{}/{}", pi.1, pi.2),
        None => format!("{}:{}/{}", pi.0, pi.1, pi.2),
    };
    let mut warnings: Vec<String> = dangling
        .sites
        .iter()
        .map(|(site, target)| {
            format!(
                "{} calls {}/{}, which no file defines: the call raises an existence error",
                caller(site),
                target.1,
                target.2
            )
        })
        .collect();
    warnings.sort();
    warnings.dedup();

    Analysis {
        reserved: reserved.into_iter().next(),
        effects: closure(&calls, &defined, &dangling),
        calls,
        rules: heads,
        defined,
        modules,
        main_module,
        problem: (!problems.is_empty()).then(|| problems.join("; ")),
        nested_limits,
        dangling: warnings,
        load_volatile,
    }
}

/// What the reader found, sorted by kind.
struct Items<'a> {
    /// Each rule's body (and each directive's goal), by the predicate it belongs to.
    rules: Vec<(Pi, &'a PlTerm)>,
    heads: HashMap<Na, Vec<Rule>>,
    defined: HashSet<Pi>,
    /// Goals that nothing defined when the reader ran: (module, name, arity).
    undefined: HashSet<Pi>,
    /// Each directive, as the body of a predicate of its own nobody calls, and its text.
    directives: Vec<(Pi, String)>,
    modules: Vec<String>,
    problems: Vec<String>,
    main_module: String,
}

/// The reader's items, sorted by kind; a knowledge base that defines term or
/// goal expansion is a problem (its clauses as loaded are not the ones read).
fn read_items(items: &[PlTerm]) -> Items<'_> {
    let mut rules: Vec<(Pi, &PlTerm)> = Vec::new();
    let mut heads: HashMap<Na, Vec<Rule>> = HashMap::new();
    let mut defined: HashSet<Pi> = HashSet::new();
    // Goals that nothing defined when the reader ran: (module, name, arity).
    let mut undefined: HashSet<Pi> = HashSet::new();
    // Each directive, as the body of a predicate of its own nobody calls, and its text.
    let mut directives: Vec<(Pi, String)> = Vec::new();
    let mut modules = Vec::new();
    let mut problems = Vec::new();
    let mut main_module = "user".to_string();
    for item in items {
        match item {
            PlTerm::Compound(f, a) if f == "main" && a.len() == 1 => {
                main_module = atom_text(&a[0]).unwrap_or(main_module);
            }
            PlTerm::Compound(f, a) if f == "rule" && (a.len() == 4 || a.len() == 5) => {
                if let (Some(m), Some(name), Some(arity)) =
                    (atom_text(&a[0]), atom_text(&a[1]), int(&a[2]))
                {
                    let head = match a.get(4) {
                        Some(PlTerm::Compound(f, args)) if f == "args" && args.len() == arity => {
                            Some((args.clone(), a[3].clone()))
                        }
                        Some(PlTerm::Atom(f)) if f == "args" && arity == 0 => {
                            Some((Vec::new(), a[3].clone()))
                        }
                        _ => None,
                    };
                    heads.entry((name.clone(), arity)).or_default().push(head);
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
            // the rules it may assert (and the problems of unknown clauses) matter,
            // and whether what it does can differ from one load to the next.
            PlTerm::Compound(f, a) if f == "directive" && a.len() == 2 => {
                if let Some(m) = atom_text(&a[0]) {
                    let pi = (m, format!("$directive {}", directives.len() + 1), 0);
                    directives.push((pi.clone(), goal_text(&a[1])));
                    rules.push((pi, &a[1]));
                }
            }
            PlTerm::Compound(f, a) if f == "undefined" && a.len() == 3 => {
                if let (Some(m), Some(name), Some(arity)) =
                    (atom_text(&a[0]), atom_text(&a[1]), int(&a[2]))
                {
                    undefined.insert((m, name, arity));
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

    Items {
        rules,
        heads,
        defined,
        undefined,
        directives,
        modules,
        problems,
        main_module,
    }
}

/// Every rule's calls, found by walking its body; rules asserted at run time
/// are walked too (and defined). Also whether any nested call sets limits.
fn walk(
    rules: &[(Pi, &PlTerm)],
    heads: &mut HashMap<Na, Vec<Rule>>,
    defined: &mut HashSet<Pi>,
    problems: &mut Vec<String>,
) -> (HashMap<Pi, HashSet<Callee>>, bool) {
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
            // Its head is not known: no argument of it is proven to carry a key.
            heads
                .entry((head.1.clone(), head.2))
                .or_default()
                .push(None);
            if seen_asserted.insert((head.clone(), rule_body.to_string())) {
                asserted.push((head.clone(), rule_body.clone()));
                pending.push((head, rule_body));
            }
        }
    }
    (calls, nested_limits)
}

/// The calls of predicates that nothing defines: which of them are proven to raise
/// an existence error (and so to read nothing), and which are not because something
/// may define predicates at run time.
#[derive(Debug, Default)]
struct Dangling {
    /// Proven: (module called in, name, arity).
    proven: HashSet<Pi>,
    /// Not proven, though nothing defines them now: something may at run time.
    blocked: HashSet<Pi>,
    /// What may define them, and where it is.
    why_blocked: Option<(String, Pi)>,
    /// The callers of the proven ones, for the warnings: (caller, callee).
    sites: Vec<(Pi, Pi)>,
}

/// The module a call of `name/arity` from `caller`, qualified with `module` if it
/// is, goes to.
fn home(caller: &Pi, module: &Option<String>, name: &str, arity: usize) -> Pi {
    let m = module.clone().unwrap_or_else(|| caller.0.clone());
    (m, name.to_string(), arity)
}

/// Finds the calls of predicates no file defines (none of the knowledge base's
/// files, clauses asserted included, and none the reader found in the loaded engine:
/// no library import, no builtin). Each raises an existence error and changes
/// nothing — unless something could define the predicate later: an assert of a
/// clause for it makes it defined (it is then in `defined`), and anything that may
/// define predicates the analysis does not see (a goal known only at run time, a
/// file loaded at run time, a predicate Charon does not know, a change of the
/// `unknown` flag) keeps every such call unknown, as it was (fail closed).
fn dangling(
    calls: &HashMap<Pi, HashSet<Callee>>,
    defined: &HashSet<Pi>,
    undefined: &HashSet<Pi>,
) -> Dangling {
    let mut open: Option<(String, Pi)> = None;
    let mut found = Vec::new();
    // In order, so that the reason given is the same from one load to the next.
    let mut sorted: Vec<_> = calls.iter().collect();
    sorted.sort_by(|a, b| a.0.cmp(b.0));
    for (pi, callees) in sorted {
        let mut callees: Vec<_> = callees.iter().collect();
        callees.sort();
        for c in callees {
            match c {
                Callee::DefinesAny(why) if open.is_none() => open = Some((why.clone(), pi.clone())),
                Callee::Pred(m, n, a) if resolve(defined, pi, m, n, *a).is_empty() => {
                    let target = home(pi, m, n, *a);
                    if !n.starts_with('$') && undefined.contains(&target) {
                        found.push((pi.clone(), target));
                    } else if open.is_none() {
                        open = Some((
                            format!("it calls {n}/{a}, which Charon does not know"),
                            pi.clone(),
                        ));
                    }
                }
                _ => {}
            }
        }
    }
    let targets = found.iter().map(|(_, t)| t.clone()).collect();
    match open {
        Some(why) => Dangling {
            blocked: targets,
            why_blocked: Some(why),
            ..Dangling::default()
        },
        None => Dangling {
            proven: targets,
            sites: found,
            ..Dangling::default()
        },
    }
}

/// What, reached from `start` (a directive), may make a load differ from another
/// (and the predicate whose body calls it), if anything does: something volatile,
/// or a predicate Charon does not know (it could read the clock, the environment
/// or a file). A call proven to raise an existence error does so at every load.
fn load_variance(
    calls: &HashMap<Pi, HashSet<Callee>>,
    defined: &HashSet<Pi>,
    dangling: &Dangling,
    start: &Pi,
) -> Option<(String, Pi)> {
    let mut seen = HashSet::new();
    let mut queue = std::collections::VecDeque::from([start.clone()]);
    while let Some(pi) = queue.pop_front() {
        if !seen.insert(pi.clone()) {
            continue;
        }
        let Some(callees) = calls.get(&pi) else {
            continue;
        };
        let mut callees: Vec<_> = callees.iter().collect();
        callees.sort();
        for c in callees {
            match c {
                Callee::Varies(what) => return Some((what.clone(), pi)),
                Callee::Pred(m, n, a) => {
                    let targets = resolve(defined, &pi, m, n, *a);
                    if targets.is_empty() {
                        if !dangling.proven.contains(&home(&pi, m, n, *a)) {
                            return Some((format!("{n}/{a}, which Charon does not know"), pi));
                        }
                    } else {
                        queue.extend(targets);
                    }
                }
                _ => {}
            }
        }
    }
    None
}

/// Each predicate's strongest effect, through everything it calls. A call proven to
/// raise an existence error (see [`dangling`]) reads nothing: the error is the same
/// at every call, so such an answer may be cached like any other.
fn closure(
    calls: &HashMap<Pi, HashSet<Callee>>,
    defined: &HashSet<Pi>,
    dangling: &Dangling,
) -> HashMap<Pi, Effect> {
    // In a fixed order: of two effects of one level, the first found is the one
    // reported, and `charon check` says the same at every run.
    let mut calls: Vec<(&Pi, Vec<&Callee>)> = calls
        .iter()
        .map(|(pi, callees)| {
            let mut callees: Vec<&Callee> = callees.iter().collect();
            callees.sort();
            (pi, callees)
        })
        .collect();
    calls.sort_by(|a, b| a.0.cmp(b.0));
    let mut effects: HashMap<Pi, Effect> = HashMap::new();
    let raise = |effects: &mut HashMap<Pi, Effect>, pi: &Pi, e: Effect| {
        let stronger = effects.get(pi).is_none_or(|old| e.level > old.level);
        if stronger {
            effects.insert(pi.clone(), e);
        }
        stronger
    };
    for (pi, callees) in &calls {
        let pi = *pi;
        for c in callees {
            let e = match c {
                Callee::Effect(level, reason) => Effect {
                    level: *level,
                    reason: reason.clone(),
                    site: pi.clone(),
                },
                Callee::Pred(m, n, a) if resolve(defined, pi, m, n, *a).is_empty() => {
                    let target = home(pi, m, n, *a);
                    if dangling.proven.contains(&target) {
                        continue;
                    }
                    let reason = match &dangling.why_blocked {
                        Some((why, site)) if dangling.blocked.contains(&target) => {
                            let site = if site == pi {
                                String::new()
                            } else {
                                format!(" in {}/{}", site.1, site.2)
                            };
                            format!(
                                "it calls {n}/{a}, which no file defines but something may \
                                 define at run time ({why}{site})"
                            )
                        }
                        _ => format!(
                            "it calls {n}/{a}, which is neither defined in the knowledge base \
                             nor known to Charon to be free of side effects"
                        ),
                    };
                    Effect {
                        level: Level::Untracked,
                        reason,
                        site: pi.clone(),
                    }
                }
                Callee::Pred(..)
                | Callee::Varies(_)
                | Callee::DefinesAny(_)
                | Callee::Reads(_)
                | Callee::ReadsAny(_) => continue,
            };
            raise(&mut effects, pi, e);
        }
    }
    loop {
        let mut changed = false;
        for (pi, callees) in &calls {
            let pi = *pi;
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
    if home != ANY_MODULE && defined.contains(&exact) {
        return vec![exact];
    }
    defined
        .iter()
        .filter(|pi| pi.1 == name && pi.2 == arity)
        .cloned()
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect()
}

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
    fn reads_are_what_a_predicate_can_reach_and_inspect() {
        let dep = |n: &str, a| Dependency::Predicate(n.into(), a);
        let items = vec![
            defined("grant", 2),
            defined("other", 1),
            rule("roles", 1, c("grant", vec![var("U"), var("R")])),
            rule("can", 1, c("roles", vec![var("U")])),
            rule(
                "peek",
                1,
                c("clause", vec![c("other", vec![var("X")]), atom("true")]),
            ),
            rule("any", 1, c("clause", vec![var("H"), atom("true")])),
            rule(
                "named",
                0,
                c(
                    "current_predicate",
                    vec![c("/", vec![atom("other"), PlTerm::Int("1".into())])],
                ),
            ),
            rule(
                "which",
                1,
                c(
                    "current_predicate",
                    vec![c("/", vec![var("N"), PlTerm::Int("1".into())])],
                ),
            ),
            rule("level", 1, c("bb_get", vec![atom("level"), var("L")])),
            // fact/1 in user and in m; lookup/2 calls it in a module named at run time.
            rule("fact", 1, c("base", vec![var("X")])),
            c(
                "rule",
                vec![
                    atom("m"),
                    atom("fact"),
                    PlTerm::Int("1".into()),
                    c("m_store", vec![var("X")]),
                ],
            ),
            c(
                "defined",
                vec![atom("m"), atom("m_store"), PlTerm::Int("1".into())],
            ),
            defined("base", 1),
            rule(
                "lookup",
                2,
                c(":", vec![var("M"), c("fact", vec![var("X")])]),
            ),
        ];
        let a = analyse(&items);
        let only = |n: &str, ar| match a.reads(n, ar) {
            Reads::Only(deps) => deps.into_iter().collect::<Vec<_>>(),
            Reads::Anything(why) => panic!("{n}/{ar} reads anything: {why}"),
        };
        assert_eq!(
            only("can", 1),
            [dep("can", 1), dep("grant", 2), dep("roles", 1)]
        );
        assert_eq!(only("peek", 1), [dep("other", 1), dep("peek", 1)]);
        assert_eq!(only("named", 0), [dep("named", 0), dep("other", 1)]);
        assert_eq!(only("level", 1), [dep("level", 1), Dependency::Blackboard]);
        assert!(
            only("lookup", 2).contains(&dep("m_store", 1)),
            "{:?}",
            only("lookup", 2)
        );
        for n in ["any", "which"] {
            assert!(matches!(a.reads(n, 1), Reads::Anything(_)), "{n}");
        }
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

    fn int(i: i64) -> PlTerm {
        PlTerm::Int(i.to_string())
    }
    fn undefined(name: &str, arity: usize) -> PlTerm {
        c(
            "undefined",
            vec![atom("user"), atom(name), PlTerm::Int(arity.to_string())],
        )
    }
    fn directive(goal: PlTerm) -> PlTerm {
        c("directive", vec![atom("user"), goal])
    }
    fn init(goal: PlTerm) -> PlTerm {
        directive(c("initialization", vec![goal]))
    }
    fn and(a: PlTerm, b: PlTerm) -> PlTerm {
        c(",", vec![a, b])
    }

    #[test]
    fn a_call_nothing_defines_is_a_read_and_a_warning() {
        let typo = rule("get", 1, c("x_typo", vec![var("X")]));
        let a = analyse(&[
            typo.clone(),
            undefined("x_typo", 1),
            rule("fine", 1, c("member", vec![var("X"), var("L")])),
            // Declarations and deterministic directives define nothing unseen.
            directive(c(
                "set_prolog_flag",
                vec![atom("double_quotes"), atom("codes")],
            )),
            init(c("format", vec![atom("loaded~n"), PlTerm::List(vec![])])),
        ]);
        assert_eq!(a.problem, None);
        let v = a.verdict("get", 1);
        assert_eq!(v.access, Access::Read, "{v:?}");
        assert!(v.cacheable && !v.untracked, "{v:?}");
        assert_eq!(
            a.dangling,
            vec![
                "get/1 calls x_typo/1, which no file defines: the call raises an existence \
                 error"
                    .to_string()
            ]
        );
        assert_eq!(a.load_volatile, None);

        // The reader did not find it undefined (a library predicate, a builtin
        // Charon has no list entry for): unknown, as before.
        let a = analyse(std::slice::from_ref(&typo));
        assert!(a.verdict("get", 1).untracked);
        assert!(a.dangling.is_empty());
        // Called through a meta-call with an argument added, which the reader does
        // not follow: unknown as well. (And a closure with no argument written.)
        let a = analyse(&[
            rule(
                "get",
                1,
                c("maplist", vec![atom("x_typo"), var("L"), var("M")]),
            ),
            undefined("x_typo", 1),
        ]);
        assert!(a.verdict("get", 1).untracked);
        let a = analyse(&[rule(
            "each",
            0,
            c("maplist", vec![atom("call"), var("Gs"), var("Xs")]),
        )]);
        assert!(a.verdict("each", 0).untracked);

        // Asserted with a known clause: defined, so analysed as a rule (no warning).
        let a = analyse(&[
            typo.clone(),
            undefined("x_typo", 1),
            rule("fix", 0, recorded("assertz", c("x_typo", vec![int(1)]))),
        ]);
        assert!(a.verdict("get", 1).cacheable);
        assert!(a.dangling.is_empty(), "{:?}", a.dangling);
    }

    #[test]
    fn a_call_nothing_defines_stays_unknown_when_something_could_define_it() {
        let typo = rule("get", 1, c("x_typo", vec![var("X")]));
        // Asserting a clause known only at run time: every operation is untracked.
        for put in [
            recorded("assertz", var("C")),
            c("assertz", vec![var("C")]),
            c("asserta", vec![var("C")]),
        ] {
            let a = analyse(&[typo.clone(), undefined("x_typo", 1), rule("put", 1, put)]);
            assert!(a.verdict("get", 1).untracked, "{:?}", a.verdict("get", 1));
            assert!(a.dangling.is_empty());
        }
        // Anything that may define predicates unseen, anywhere (a directive too).
        for (item, why) in [
            (
                rule("meta", 1, c("call", vec![var("G")])),
                "known only when it runs",
            ),
            (rule("load", 1, c("consult", vec![var("F")])), "consult/1"),
            (
                rule("files", 0, PlTerm::List(vec![atom("f")])),
                "loads files",
            ),
            (rule("odd", 1, c("mystery", vec![var("X")])), "mystery/1"),
            (
                rule(
                    "lax",
                    0,
                    c("set_prolog_flag", vec![atom("unknown"), atom("fail")]),
                ),
                "unknown",
            ),
            (
                rule("flag", 2, c("set_prolog_flag", vec![var("F"), var("V")])),
                "unknown",
            ),
            (
                init(c("ensure_loaded", vec![atom("more")])),
                "ensure_loaded/1",
            ),
        ] {
            let a = analyse(&[typo.clone(), undefined("x_typo", 1), item]);
            let v = a.verdict("get", 1);
            assert!(v.untracked, "{why}: {v:?}");
            let reason = v.reason.expect("a reason");
            assert!(
                reason.contains("x_typo/1")
                    && reason.contains("may define")
                    && reason.contains(why),
                "{reason}"
            );
            assert!(a.dangling.is_empty());
        }
    }

    #[test]
    fn a_directive_that_can_load_differently_is_load_time_volatile() {
        let get_seed = rule("get_seed", 1, c("seed", vec![var("X")]));
        let seeded = |g: PlTerm| init(and(g, c("assertz", vec![c("seed", vec![var("X")])])));
        let random = c("random_between", vec![int(1), int(1_000_000), var("X")]);
        let a = analyse(&[get_seed.clone(), seeded(random)]);
        let why = a.load_volatile.clone().expect("load-time volatile");
        assert!(
            why.contains("initialization((random_between(1, 1000000, X), assertz(seed(X))))")
                && why.contains("calls random_between/3")
                && why.contains("workers could load different states"),
            "{why}"
        );
        // The operation itself is still a read: it is the load that varies.
        assert_eq!(a.verdict("get_seed", 1).access, Access::Read);

        // Reached through the knowledge base's own predicates.
        let a = analyse(&[
            get_seed.clone(),
            init(atom("setup")),
            rule("setup", 0, and(atom("pick"), atom("true"))),
            rule("pick", 0, c("get_time", vec![var("T")])),
        ]);
        let why = a.load_volatile.expect("load-time volatile");
        assert!(why.contains("get_time/1 (in pick/0)"), "{why}");

        // A predicate Charon does not know, a goal known only at run time, a file.
        for (g, what) in [
            (c("getenv", vec![atom("HOME"), var("X")]), "getenv/2"),
            (c("call", vec![var("G")]), "known only when it runs"),
            (c("consult", vec![atom("more")]), "consult/1"),
            (
                c("statistics", vec![atom("runtime"), var("X")]),
                "statistics/2",
            ),
        ] {
            let a = analyse(&[get_seed.clone(), seeded(g)]);
            let why = a.load_volatile.expect("load-time volatile");
            assert!(why.contains(what), "{why}");
        }
    }

    #[test]
    fn deterministic_directives_are_not_load_time_volatile() {
        let get_seed = rule("get_seed", 1, c("seed", vec![var("X")]));
        let a = analyse(&[
            get_seed.clone(),
            init(c("assertz", vec![c("seed", vec![int(42)])])),
            init(recorded("assertz", c("seed", vec![int(7)]))),
            init(and(
                c("between", vec![int(1), int(3), var("X")]),
                c("format", vec![atom("~w~n"), PlTerm::List(vec![var("X")])]),
            )),
            init(c("sleep", vec![int(0)])),
            init(c("set_random", vec![c("seed", vec![int(1)])])),
            directive(c(
                "set_prolog_flag",
                vec![atom("double_quotes"), atom("codes")],
            )),
            // Raises an existence error at every load alike.
            init(atom("x_typo")),
            undefined("x_typo", 0),
        ]);
        assert_eq!(a.load_volatile, None);
        assert_eq!(a.problem, None);
        assert!(a.verdict("get_seed", 1).cacheable);
        assert_eq!(
            a.dangling,
            vec![
                "the directive initialization(x_typo) calls x_typo/0, which no file defines: \
                 the call raises an existence error"
                    .to_string()
            ]
        );
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
