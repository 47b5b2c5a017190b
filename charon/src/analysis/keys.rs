//! Which arguments of an operation carry a *key* into the predicates it reads: the
//! ground input the call passes, unchanged, as the same argument of every call of
//! that predicate it can make (through every rule on the way). A write that
//! changes only clauses whose argument there is another atomic key cannot change
//! the answer of a call for this one, so the answer cache forgets by key (see
//! `cache::Freshness`).
//!
//! `flows(op, D)` is the set of pairs (i, j): at every call of D that a call of op
//! can reach, D's argument j is op's argument i. It is the greatest fixpoint of:
//! for each predicate Q on a path to D, the intersection over its rules, and over
//! each call site in a rule's body of a predicate R on a path to D, of the pairs
//! (i, j) where Q's head argument i is a variable X, the site's argument k is X
//! itself, and (k, j) is in flows(R, D) (or k = j when R is D). Anything the
//! reading cannot follow leaves no pair: a rule whose head or body is not known (a
//! DCG rule, a rule asserted at run time), a body that names a predicate on the
//! path anywhere but as a plain call (a closure passed to `maplist/2`, a goal
//! built at run time). Modules are merged by name and arity, as `Analysis::reads`
//! merges them.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

use super::{Analysis, Callee, Na};
use crate::term::PlTerm;

/// Pairs (argument of the caller, argument of the predicate read).
pub(crate) type Flow = BTreeSet<(usize, usize)>;

/// Rules looked at, at most, for one operation: past this no key is claimed.
const MAX_RULES: usize = 20_000;

impl Analysis {
    /// For each predicate `name/arity` can read (itself included), the arguments of
    /// it that carry a key there (see the module docs); predicates without any are
    /// left out.
    pub(crate) fn key_flows(&self, name: &str, arity: usize) -> BTreeMap<Na, Flow> {
        let op: Na = (name.to_string(), arity);
        if self.problem.is_some() {
            return BTreeMap::new();
        }
        // The call graph by name and arity.
        let mut succ: HashMap<Na, HashSet<Na>> = HashMap::new();
        for (pi, callees) in &self.calls {
            for c in callees {
                if let Callee::Pred(_, n, a) = c {
                    succ.entry((pi.1.clone(), pi.2))
                        .or_default()
                        .insert((n.clone(), *a));
                }
            }
        }
        let mut reach: HashSet<Na> = HashSet::from([op.clone()]);
        let mut todo = vec![op.clone()];
        while let Some(q) = todo.pop() {
            for r in succ.get(&q).into_iter().flatten() {
                if reach.insert(r.clone()) {
                    todo.push(r.clone());
                }
            }
        }
        let rules: usize = reach
            .iter()
            .map(|q| self.rules.get(q).map_or(0, Vec::len))
            .sum();
        if rules > MAX_RULES {
            return BTreeMap::new();
        }
        let mut out = BTreeMap::new();
        for d in &reach {
            let flow = self.flow_to(&op, d, &reach, &succ);
            if !flow.is_empty() {
                out.insert(d.clone(), flow);
            }
        }
        out
    }

    /// flows(op, d), over the predicates `reach` holds.
    fn flow_to(
        &self,
        op: &Na,
        d: &Na,
        reach: &HashSet<Na>,
        succ: &HashMap<Na, HashSet<Na>>,
    ) -> Flow {
        // The predicates on a path to d (d included when it calls itself).
        let mut to_d: HashSet<Na> = HashSet::new();
        let mut changed = true;
        while changed {
            changed = false;
            for q in reach {
                if !to_d.contains(q)
                    && succ
                        .get(q)
                        .is_some_and(|s| s.contains(d) || s.iter().any(|r| to_d.contains(r)))
                {
                    to_d.insert(q.clone());
                    changed = true;
                }
            }
        }
        let names: HashSet<&str> = to_d
            .iter()
            .map(|q| q.0.as_str())
            .chain([d.0.as_str()])
            .collect();
        // `None`: every pair (the top, where the fixpoint starts).
        let mut flows: HashMap<Na, Option<Flow>> = to_d.iter().map(|q| (q.clone(), None)).collect();
        let all = |from: usize| -> Flow {
            (0..from)
                .flat_map(|i| (0..d.1).map(move |j| (i, j)))
                .collect()
        };
        let mut changed = true;
        while changed {
            changed = false;
            for q in &to_d {
                let mut flow = all(q.1);
                for rule in self.rules.get(q).into_iter().flatten() {
                    let Some((head, body)) = rule else {
                        flow.clear();
                        break;
                    };
                    let mut sites = Vec::new();
                    let on_path = |n: &str, a: usize| is_on_path(n, a, d, &to_d);
                    if !call_sites(body, &on_path, &names, &mut sites) {
                        flow.clear();
                        break;
                    }
                    for site in sites {
                        let (r, args) = site_of(site);
                        let through: Flow = if &r == d && !to_d.contains(d) {
                            (0..d.1).map(|j| (j, j)).collect()
                        } else {
                            let mut f =
                                flows.get(&r).cloned().flatten().unwrap_or_else(|| all(r.1));
                            if &r == d {
                                f.retain(|(k, j)| k == j);
                            }
                            f
                        };
                        let here: Flow = through
                            .iter()
                            .flat_map(|(k, j)| {
                                let x = &args[*k];
                                head.iter().enumerate().filter_map(move |(i, h)| {
                                    (matches!(h, PlTerm::Var(_)) && h == x).then_some((i, *j))
                                })
                            })
                            .collect();
                        flow.retain(|p| here.contains(p));
                    }
                }
                // Only ever narrower: the fixpoint is reached.
                if let Some(Some(old)) = flows.get(q) {
                    flow.retain(|p| old.contains(p));
                }
                if flows.get(q) != Some(&Some(flow.clone())) {
                    flows.insert(q.clone(), Some(flow));
                    changed = true;
                }
            }
        }
        // The operation's own call: op(A1, …) with its inputs as they are.
        if op == d && !to_d.contains(d) {
            return (0..d.1).map(|j| (j, j)).collect();
        }
        let mut flow = flows.get(op).cloned().flatten().unwrap_or_default();
        if op == d {
            flow.retain(|(i, j)| i == j);
        }
        flow
    }
}

/// Whether `name/arity` is `d` or on a path to it.
fn is_on_path(name: &str, arity: usize, d: &Na, to_d: &HashSet<Na>) -> bool {
    (d.0 == name && d.1 == arity) || to_d.contains(&(name.to_string(), arity))
}

/// The predicate a call site calls and its arguments.
fn site_of(goal: &PlTerm) -> (Na, &[PlTerm]) {
    match goal {
        PlTerm::Compound(n, args) => ((n.clone(), args.len()), args.as_slice()),
        PlTerm::Atom(n) => ((n.clone(), 0), &[]),
        _ => ((String::new(), 0), &[]),
    }
}

/// Collects the plain calls in `body` of predicates `on_path` accepts, through the
/// control constructs and the meta-predicates whose goal arguments are known.
/// `false` when a goal is known only when it runs, or one of `names` (the
/// predicates on the path) stands anywhere else, at any arity (a closure, data that
/// may become a goal).
fn call_sites<'a>(
    body: &'a PlTerm,
    on_path: &dyn Fn(&str, usize) -> bool,
    names: &HashSet<&str>,
    out: &mut Vec<&'a PlTerm>,
) -> bool {
    let (name, args): (&str, &[PlTerm]) = match body {
        PlTerm::Atom(a) => (a, &[]),
        PlTerm::Compound(f, a) => (f, a),
        PlTerm::Var(_) => return false,
        _ => return true,
    };
    let goals = |indices: &[usize], data: &[usize], out: &mut Vec<&'a PlTerm>| {
        indices
            .iter()
            .all(|&i| call_sites(&args[i], on_path, names, out))
            && data.iter().all(|&i| !mentions(&args[i], names))
    };
    match (name, args.len()) {
        ("," | ";" | "->" | "*->", 2) | ("forall", 2) => goals(&[0, 1], &[], out),
        ("\\+" | "call" | "once" | "ignore", 1) => goals(&[0], &[], out),
        ("catch", 3) => goals(&[0, 2], &[1], out),
        (":", 2) => goals(&[1], &[0], out),
        ("findall", 3) | ("aggregate_all", 3) => goals(&[1], &[0, 2], out),
        ("findall", 4) => goals(&[1], &[0, 2, 3], out),
        ("bagof" | "setof", 3) => {
            let mut g = &args[1];
            while let PlTerm::Compound(f, a) = g
                && f == "^"
                && a.len() == 2
            {
                if mentions(&a[0], names) {
                    return false;
                }
                g = &a[1];
            }
            call_sites(g, on_path, names, out)
                && !mentions(&args[0], names)
                && !mentions(&args[2], names)
        }
        _ => {
            if args.iter().any(|a| mentions(a, names)) {
                return false;
            }
            if on_path(name, args.len()) {
                out.push(body);
            }
            true
        }
    }
}

/// Whether the name of a predicate on the path (at any arity: a closure gets
/// arguments added) stands anywhere in `t`.
fn mentions(t: &PlTerm, names: &HashSet<&str>) -> bool {
    let mut stack = vec![t];
    while let Some(t) = stack.pop() {
        match t {
            PlTerm::Atom(a) if names.contains(a.as_str()) => return true,
            PlTerm::Compound(f, args) => {
                if names.contains(f.as_str()) {
                    return true;
                }
                stack.extend(args);
            }
            PlTerm::List(items) => stack.extend(items),
            _ => {}
        }
    }
    false
}
