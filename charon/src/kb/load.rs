//! Loading a knowledge base, step by step ([`KnowledgeBase::start`]): the engine
//! started on the file; the analysis of what each operation reads and changes; the
//! state kept beside it (the journal of `--persist`, the replicas' log); the answer
//! cache's plan; and the counters.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicUsize;

use super::{KnowledgeBase, codec, counting};
use crate::LoadError;
use crate::analysis::{self, Analysis, Verdict};
use crate::cache::{AnswerCache, Freshness, KeyScope, Reads};
use crate::engine::{Access, Engine, EngineConfig, EngineError, PrivateDir, Replication};
use crate::pldoc::{self, Operation, Report};

/// Text that came from memory: the private directory holding it, and how messages
/// name that directory (its files are named as written in the source when `None`).
pub(super) type FromMemory = Option<(PrivateDir, Option<String>)>;

impl KnowledgeBase {
    /// Loads `abs` (named `display` in messages) with the operations of `report`.
    /// `temp`: text that came from memory (see [`FromMemory`]); `previous`: the
    /// journal of the knowledge base this one replaces, with `--persist`.
    pub(super) fn start(
        display: String,
        report: Report,
        abs: PathBuf,
        config: EngineConfig,
        temp: FromMemory,
        previous: Option<&crate::persist::Previous>,
    ) -> Result<Self, LoadError> {
        let started = std::time::Instant::now();
        let kb_name = display.clone();
        // With `persist`: the file as the engine is about to load it, which the
        // journal must find there still.
        let loaded = (config.persist && temp.is_none())
            .then(|| std::fs::read(&abs).ok())
            .flatten();
        let engine = start_engine(&abs, &display, &report, config, &temp)?;
        let temp = temp.map(|(dir, _)| dir);
        let found = analysed(&engine, &display, started)?;
        if let Some(problem) = &found.problem
            && !report.operations.is_empty()
        {
            tracing::warn!(target: "charon::analysis", kb = %kb_name, "cannot prove what the operations do ({problem}): every operation is treated as a write");
        }
        let (effects, single_worker) = verdicts(&report, &found);
        let state = State {
            abs: &abs,
            display: &display,
            from_memory: temp.is_some(),
            previous,
            loaded: loaded.as_deref(),
        };
        state.keep(&engine, &report, &effects, &found, single_worker.as_deref())?;
        if let Some(why) = &single_worker {
            engine.restrict_to_one_worker();
            if engine.config().workers > 1 {
                tracing::warn!(target: "charon::analysis", kb = %kb_name, "running one worker instead of {}: {why}", engine.config().workers);
            }
        }
        let CachePlan {
            reads,
            scopes,
            freshness,
        } = cache_plan(&engine, &report, &effects, &found);
        let counters = counters(&engine, &display, &found, &effects);
        let metrics = crate::metrics::CallMetrics::new(
            "operation",
            report
                .operations
                .iter()
                .map(|op| op.name.to_string())
                .collect(),
        );
        let kb = KnowledgeBase {
            main_module: found.main_module.clone(),
            display,
            identity: identity(&abs),
            path: abs,
            report,
            effects,
            counters,
            single_worker,
            warnings: found.dangling,
            cache: AnswerCache::new(engine.config().answer_cache),
            reads,
            scopes,
            freshness,
            metrics,
            pending: AtomicUsize::new(0),
            paging: super::page::TooLong::default(),
            serial: {
                static SERIAL: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
                SERIAL.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
            },
            traceable: std::sync::Mutex::new(None),
            engine,
            _temp: temp,
        };
        if cfg!(debug_assertions) {
            kb.warn_if_engine_unoptimised();
        }
        Ok(kb)
    }
}

/// The engine started on `abs`, its load errors naming the file as `display` (and
/// text from memory by the names it came with).
fn start_engine(
    abs: &Path,
    display: &str,
    report: &Report,
    config: EngineConfig,
    temp: &FromMemory,
) -> Result<Engine, LoadError> {
    let stubs = codec::stubs(&report.operations);
    Engine::start(abs, &stubs, config).map_err(|e| match e {
        EngineError::Load(m) => {
            let mut m = m.replace(&abs.display().to_string(), display);
            if let Some((dir, Some(root))) = temp {
                let prefix = format!("{}/", dir.path().display());
                let named = if root.is_empty() {
                    String::new()
                } else {
                    format!("{root}/")
                };
                m = m.replace(&prefix, &named);
            }
            LoadError::Consult(m)
        }
        other => LoadError::Engine(other),
    })
}

/// What the loaded program defines and calls, as the analysis reads it from the
/// engine; a predicate named like Charon's wrapper's refuses the load.
fn analysed(
    engine: &Engine,
    kb_name: &str,
    started: std::time::Instant,
) -> Result<Analysis, LoadError> {
    let items = engine.analyse().map_err(LoadError::Engine)?;
    let found = analysis::analyse(&items);
    tracing::debug!(target: "charon::engine", kb = %kb_name, elapsed_ms = started.elapsed().as_millis() as u64, "engine started and analysis done");
    if let Some(pi) = &found.reserved {
        return Err(LoadError::Consult(format!(
            "{kb_name} defines {pi}: names starting with $charon belong to Charon's \
             wrapper, which the knowledge base would replace; rename the predicate"
        )));
    }
    engine.set_modules(found.modules.clone());
    for warning in &found.dangling {
        tracing::warn!(target: "charon::analysis", kb = %kb_name, "{warning}");
    }
    Ok(found)
}

/// What each operation does (its verdict), and why the knowledge base must run on
/// one worker, if it must.
fn verdicts(report: &Report, found: &Analysis) -> (Vec<Verdict>, Option<String>) {
    let mut effects: Vec<Verdict> = report
        .operations
        .iter()
        .map(|op| found.verdict(&op.predicate, op.arity()))
        .collect();
    // Fail closed: workers are forks of one load, but when the template that
    // loaded it is lost (killed, out of memory), the next worker comes from a new
    // load, into a state that may differ from the one cached answers came from.
    if found.load_volatile.is_some() {
        for v in effects.iter_mut().filter(|v| v.cacheable) {
            v.cacheable = false;
            v.reason = Some(
                "the state as loaded can differ from one load to the next (see why it \
                 runs on one worker)"
                    .into(),
            );
        }
    }
    let untracked = report
        .operations
        .iter()
        .zip(&effects)
        .find(|(_, v)| v.untracked)
        .map(|(op, v)| {
            format!(
                "{} may change state Charon cannot copy between workers: {}",
                op.name,
                v.reason.as_deref().unwrap_or("unknown")
            )
        });
    // A load that can differ from another would give the workers of a reloaded
    // template a state different from the others' (see above).
    let single_worker = match (untracked, &found.load_volatile) {
        (Some(op), Some(load)) => Some(format!("{op}; and {load}")),
        (op, load) => op.or_else(|| load.clone()),
    };
    (effects, single_worker)
}

/// Where the database is kept beside the engine: the file and what loaded it.
struct State<'a> {
    abs: &'a Path,
    display: &'a str,
    /// The knowledge base came from text in memory, not a file of its own.
    from_memory: bool,
    previous: Option<&'a crate::persist::Previous>,
    /// The file's bytes as the engine loaded them (with `persist`).
    loaded: Option<&'a [u8]>,
}

impl State<'_> {
    /// Opens the journal (`--persist`) or joins the replicas' log, as configured;
    /// warns of a journal left beside the file when neither is on.
    fn keep(
        &self,
        engine: &Engine,
        report: &Report,
        effects: &[Verdict],
        found: &Analysis,
        single_worker: Option<&str>,
    ) -> Result<(), LoadError> {
        let (abs, kb_name) = (self.abs, self.display);
        if !engine.config().persist
            && !self.from_memory
            && let Some(journal) = crate::persist::leftover_journal(abs)
        {
            tracing::warn!(target: "charon::persist", kb = %kb_name, journal = %journal.display(), "the journal beside the file holds writes of an earlier --persist run that may not be in the file; they are not applied without --persist");
        }
        if engine.config().persist {
            if self.from_memory {
                return Err(LoadError::Persist(
                    "the knowledge base was loaded from text, not from a file of its own".into(),
                ));
            }
            if let Some(why) = database_outside_main(abs) {
                return Err(LoadError::Persist(why));
            }
            engine
                .enable_persist(abs, found.main_module.clone(), self.previous, self.loaded)
                .map_err(|e| LoadError::Persist(e.to_string()))?;
        }
        if let Some(replica) = engine.config().replica.clone() {
            replicable(engine, report, effects, single_worker).map_err(LoadError::Replica)?;
            let bytes = std::fs::read(abs).map_err(|e| LoadError::Replica(e.to_string()))?;
            let fingerprint = crate::replica::fingerprint(&bytes);
            engine
                .enable_replica(&replica, &fingerprint, kb_name)
                .map_err(|e| LoadError::Replica(e.to_string()))?;
        }
        Ok(())
    }
}

/// The answer cache's plan, by operation.
struct CachePlan {
    /// What each cacheable operation reads.
    reads: Vec<Option<Reads>>,
    /// How its answers are scoped by keys.
    scopes: Vec<Option<KeyScope>>,
    /// What a change makes stale (the engine has it too).
    freshness: Arc<Freshness>,
}

/// The answer cache's plan for the operations of `report`.
fn cache_plan(
    engine: &Engine,
    report: &Report,
    effects: &[Verdict],
    found: &Analysis,
) -> CachePlan {
    let reads: Vec<Option<Reads>> = report
        .operations
        .iter()
        .zip(effects)
        .map(|(op, v)| v.cacheable.then(|| found.reads(&op.predicate, op.arity())))
        .collect();
    let scopes: Vec<Option<KeyScope>> = report
        .operations
        .iter()
        .zip(&reads)
        .map(|(op, r)| match r {
            Some(Reads::Only(_)) => key_scope(op, found),
            _ => None,
        })
        .collect();
    // Whether a predicate read by key has a clause that is not atomic at the
    // key's argument, as loaded (asked of the engine; anything else than a
    // clear no counts as yes).
    let mut modules: Vec<String> = found.modules.clone();
    modules.extend([found.main_module.clone(), "user".to_string()]);
    modules.sort();
    modules.dedup();
    // On a worker set aside: each question copies the clauses it reads.
    let aside = std::cell::RefCell::new(engine.aside());
    let loose = |d: &crate::cache::Dependency, j: usize| -> bool {
        let crate::cache::Dependency::Predicate(name, arity) = d else {
            return true;
        };
        let mut query = String::from("'$charon_once'(sol,'$charon_loose'(");
        crate::term::write_atom(&mut query, name);
        query.push_str(&format!(",{arity},{},[", j + 1));
        for (i, m) in modules.iter().enumerate() {
            if i > 0 {
                query.push(',');
            }
            crate::term::write_atom(&mut query, m);
        }
        query.push_str("]),0,R).");
        !matches!(
            aside.borrow_mut().ask(query, engine.config().load_timeout),
            Ok(crate::engine::Outcome::Failed)
        )
    };
    let freshness = Arc::new(Freshness::new(&reads, &scopes, &loose));
    drop(aside);
    engine.set_freshness(Arc::clone(&freshness));
    CachePlan {
        reads,
        scopes,
        freshness,
    }
}

/// The inference counters of the operations.
fn counters(
    engine: &Engine,
    kb_name: &str,
    found: &Analysis,
    effects: &[Verdict],
) -> counting::Counters {
    let counting = engine.config().limits.counting;
    // Fail closed: a knowledge base may set inference limits of its own unless
    // the analysis saw every goal it can call (no problem, nothing untracked,
    // such as a goal built at run time) and none was call_with_inference_limit/3.
    let own_limits =
        found.nested_limits || found.problem.is_some() || effects.iter().any(|v| v.untracked);
    if own_limits && counting != crate::Counting::Strict {
        tracing::info!(target: "charon::analysis", kb = %kb_name, "every call runs under the inference counter: the knowledge base may set inference limits of its own (call_with_inference_limit/3)");
    }
    counting::Counters::new(counting, own_limits, effects)
}

/// A hash of the file's bytes as loaded: a reload of the same text is the same
/// knowledge base.
fn identity(abs: &Path) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::hash::DefaultHasher::new();
    std::fs::read(abs).unwrap_or_default().hash(&mut h);
    h.finish()
}

/// With `persist`, the database is written back into the main file alone: a file it
/// loads into the same module (include, consult, a file without a module
/// declaration) that declares dynamic predicates, or holds clauses of one, would
/// bring its own clauses back beside the written ones at the next load (an
/// acknowledged `retract` undone, facts doubled). Such a knowledge base is refused,
/// naming the file and predicate. A module's own dynamic predicates are carried in
/// the journal, as before.
fn database_outside_main(main: &Path) -> Option<String> {
    let text = std::fs::read_to_string(main).ok()?;
    // A file that cannot be followed fails the load anyway, in the engine.
    let Ok(mut files) = pldoc::knowledge_base_files(main, text, |_, _, _, _| Ok::<(), ()>(()))
    else {
        return None;
    };
    let main = files[0].0.clone();
    let main = main.as_path();
    // A module's own dynamic predicates are not the file's: their state is carried
    // in the journal, replacing what the module file loads.
    let is_module = |text: &str| {
        pldoc::clauses(text).first().is_some_and(|c| {
            c.directive && {
                let t: String = text[c.bytes.clone()].split_whitespace().collect();
                t.starts_with(":-module(")
            }
        })
    };
    files.retain(|(path, text)| path == main || !is_module(text));
    let mut dynamic = std::collections::HashSet::new();
    for (path, text) in &files {
        for clause in pldoc::clauses(text).into_iter().filter(|c| c.directive) {
            for (name, arity) in pldoc::dynamic_declared(&text[clause.bytes]) {
                if path != main {
                    return Some(format!(
                        "{} declares {name}/{arity} dynamic, but the database is written back into {} alone; move the declaration and the clauses of {name}/{arity} into that file",
                        path.display(),
                        main.display()
                    ));
                }
                dynamic.insert((name, arity));
            }
        }
    }
    for (path, text) in files.iter().skip(1) {
        for clause in pldoc::clauses(text) {
            if let Some((name, arity)) = clause.predicate
                && dynamic.contains(&(name.clone(), arity))
            {
                return Some(format!(
                    "{} holds clauses of the dynamic {name}/{arity}, but the database is written back into {} alone; move them into that file",
                    path.display(),
                    main.display()
                ));
            }
        }
    }
    None
}

/// How `op`'s answers are scoped by keys, if at all: for each predicate it reads,
/// the inputs of type atom or integer that carry a key into it (see
/// `analysis::keys` and `cache::KeyScope`).
fn key_scope(op: &Operation, found: &analysis::Analysis) -> Option<KeyScope> {
    let flows = found.key_flows(&op.predicate, op.arity());
    let keyable = |i: usize| {
        op.args.get(i).is_some_and(|a| {
            a.mode == pldoc::Mode::In && matches!(a.ty, pldoc::Type::Atom | pldoc::Type::Int)
        })
    };
    let mut sets: Vec<Vec<usize>> = Vec::new();
    let mut through = std::collections::HashMap::new();
    for ((name, arity), flow) in &flows {
        // For each key position, the first argument of the predicate it reaches.
        let mut at: std::collections::BTreeMap<usize, usize> = std::collections::BTreeMap::new();
        for &(i, j) in flow {
            if keyable(i) {
                at.entry(i).or_insert(j);
            }
        }
        if at.is_empty() {
            continue;
        }
        let positions: Vec<usize> = at.keys().copied().collect();
        let set = match sets.iter().position(|s| *s == positions) {
            Some(set) => set,
            None => {
                sets.push(positions);
                sets.len() - 1
            }
        };
        let dep = crate::cache::Dependency::Predicate(name.clone(), *arity);
        through.insert(dep, (set, at.values().copied().collect()));
    }
    (!through.is_empty()).then_some(KeyScope { sets, through })
}

/// Whether replicas of this knowledge base can share its writes through the log
/// of change records: not with `--persist` (the log is the database), not when an
/// operation may change state no change record carries (replicas would differ),
/// and not when it runs on one worker for that reason.
fn replicable(
    engine: &Engine,
    report: &Report,
    effects: &[Verdict],
    single_worker: Option<&str>,
) -> Result<(), String> {
    if engine.config().persist {
        return Err(
            "--persist and replication exclude each other: the log in PostgreSQL is the \
             database (`charon export` writes it out as a .pl)"
                .into(),
        );
    }
    if let Some((op, v)) = report
        .operations
        .iter()
        .zip(effects)
        .find(|(_, v)| v.untracked || v.access == Access::Write(Replication::Snapshot))
    {
        return Err(format!(
            "operation {} changes state that only a full dump of the database can copy ({}), \
             which the replicas' log cannot carry",
            op.name,
            v.reason.as_deref().unwrap_or("not proven otherwise")
        ));
    }
    if let Some(why) = single_worker {
        return Err(format!(
            "the knowledge base keeps state no change record carries: {why}"
        ));
    }
    Ok(())
}
