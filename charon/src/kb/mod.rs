//! [`KnowledgeBase`]: a knowledge base loaded into the engine, and its operations.
//!
//! Two ways in, one result: [`KnowledgeBase::load`] reads a `.pl` file and its PlDoc
//! at run time; [`KnowledgeBase::from_model`] takes operations that were read before
//! (by `knowledge_base!` at compile time) plus the source text, and parses no PlDoc.
//! Calls go through the one pipeline in `call`; `codec` turns JSON into goals and
//! outcomes into JSON.

mod call;
mod codec;
mod counting;
mod error;
mod explain;
mod load;
mod page;
mod stream;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicUsize;

pub use call::{Answer, Call, OpId};
pub use error::{ArgumentError, CallError, LoadError};
pub use explain::{
    EXPLAIN_DEPTH, EXPLAIN_MAX_BYTES, EXPLAIN_MAX_NODES, ExplainRequest, Explanation,
    explain_input_schema, explain_output_schema,
};
use page::TooLong;
pub use page::{DEFAULT_PAGE_SIZE, Page, Pages};
pub use stream::{SolutionStream, StreamEnd, Streamed};

use crate::analysis::Verdict;
use crate::cache::{AnswerCache, Freshness, KeyScope, Reads};
use crate::engine::{Access, Engine, EngineConfig, EngineError, PrivateDir, Replication};
use crate::pldoc::{self, Operation, Rejection, Report};

/// What an operation may do to the knowledge base's state, as Charon proved it or
/// assumed it (fail closed).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Effects {
    /// Proven to only read the state: runs beside other reads, answers may be cached.
    Read,
    /// Reads only, but its answers vary between calls (it prints, reads the clock or
    /// uses randomness): runs beside other reads, never cached.
    VolatileRead {
        /// What makes it volatile.
        reason: String,
    },
    /// Proven to change the state only in ways Charon replicates: runs alone, and its
    /// changes reach every worker before the next call.
    Write {
        /// What it changes.
        reason: String,
        /// How its changes reach the other workers: `"recorded changes"` or `"full
        /// dump"`.
        replicated_by: &'static str,
    },
    /// Not proven safe, so treated as a write that may touch state Charon cannot
    /// copy between workers: the engine runs a single worker.
    AssumedWrite {
        /// Why nothing better could be proven.
        reason: String,
    },
}

impl Effects {
    fn of(v: &Verdict) -> Effects {
        let reason = v.reason.clone().unwrap_or_default();
        match v.access {
            _ if v.untracked => Effects::AssumedWrite { reason },
            Access::Read if v.cacheable => Effects::Read,
            Access::Read => Effects::VolatileRead { reason },
            Access::Write(r) => Effects::Write {
                reason,
                replicated_by: match r {
                    Replication::Journal => "recorded changes",
                    Replication::Snapshot => "full dump",
                },
            },
        }
    }
}

/// What the cached answers of a read depend on, as Charon proved it: a write that
/// changes none of it leaves them in the cache.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum CacheScope {
    /// The clauses of these predicates (`name/arity`, in any module) and, if it is
    /// listed, the blackboard: every predicate the operation can reach. A predicate
    /// read by key is listed as `name/arity (for the same Arg)`: a change to its
    /// clauses for another value of the input `Arg` leaves the answer cached.
    Reads(Vec<String>),
    /// Anything: every write forgets its answers.
    Anything {
        /// Why nothing narrower could be proven.
        reason: String,
    },
}

/// A knowledge base loaded into the engine, with its operations.
#[derive(Debug)]
pub struct KnowledgeBase {
    /// The module whose dynamic predicates the file holds (`user` unless it is a
    /// module file).
    main_module: String,
    display: String,
    path: PathBuf,
    report: Report,
    effects: Vec<Verdict>,
    /// Which operations' calls run under the inference counter.
    counters: counting::Counters,
    /// Why the engine runs one worker, if it must.
    single_worker: Option<String>,
    /// What the analysis warns about (calls of predicates no file defines).
    warnings: Vec<String>,
    cache: AnswerCache,
    /// What each cacheable operation reads (`None` for the others).
    reads: Vec<Option<Reads>>,
    /// The operations whose answers are scoped by a key (see `cache::KeyScope`).
    scopes: Vec<Option<KeyScope>>,
    /// When each operation's cached answers were last made stale.
    freshness: Arc<Freshness>,
    /// Calls by operation and outcome, durations (see `crate::metrics`).
    metrics: crate::metrics::CallMetrics,
    pending: AtomicUsize,
    /// Tells this knowledge base's [`OpId`]s from another's.
    serial: u64,
    /// A fingerprint of the file as loaded (its bytes): a page cursor is good for
    /// any server that loaded the same file, and for no other (see `page`).
    identity: u64,
    /// Calls whose whole answer is longer than the solution limit (see `page`).
    paging: TooLong,
    /// The operations the tracer can explain (see `explain`), found on first use.
    traceable: std::sync::Mutex<Option<Vec<String>>>,
    engine: Engine,
    /// The private directory holding source text that came from memory (removed on
    /// drop, after the engine).
    _temp: Option<PrivateDir>,
}

/// A knowledge base's file on its way to the one loaded after it (see
/// [`KnowledgeBase::hand_over`]). Dropped without [`complete`](Self::complete), the
/// knowledge base it came from takes the file back.
#[must_use = "dropping a handover gives the file back at once"]
pub struct Handover {
    engine: Engine,
    previous: Option<crate::persist::Previous>,
    done: bool,
}

impl Handover {
    /// The new knowledge base serves: the old one refuses every write from now on
    /// (with [`EngineError::Reloaded`](crate::EngineError::Reloaded)).
    pub fn complete(mut self) {
        self.done = true;
        self.engine.complete_hand_over();
    }
}

impl Drop for Handover {
    fn drop(&mut self) {
        if !self.done {
            self.engine.resume(self.previous.take());
        }
    }
}

impl std::fmt::Debug for Handover {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Handover")
            .field("file", &self.previous.as_ref().map(|p| &p.path))
            .finish()
    }
}

impl Drop for KnowledgeBase {
    /// With `persist`, the file is left current: the journal is folded into it.
    fn drop(&mut self) {
        if let Err(e) = self.engine.checkpoint() {
            tracing::warn!(target: "charon::persist", "the journal was not folded into the file at shutdown (its writes are kept and applied at the next load): {e}");
        }
        self.engine.release_persist();
    }
}

impl KnowledgeBase {
    /// Loads `path` with the default configuration.
    pub fn load(path: impl AsRef<Path>) -> Result<Self, LoadError> {
        Self::load_with(path, EngineConfig::default())
    }

    /// Loads `path` with `config`; its PlDoc is read now.
    pub fn load_with(path: impl AsRef<Path>, config: EngineConfig) -> Result<Self, LoadError> {
        let path = path.as_ref();
        let (text, abs) = read(path)?;
        let display = path.display().to_string();
        let report = pldoc::analyse(&display, &text);
        Self::start(display, report, abs, config, None, None)
    }

    /// Loads `path` in place of a knowledge base whose operations are known (compiled
    /// in by `knowledge_base!`): the file must declare exactly those operations (same
    /// names, arguments, types and determinism, in the same order), else
    /// [`LoadError::ModelMismatch`]. Its documentation may differ.
    pub fn load_matching(
        path: impl AsRef<Path>,
        expected: &[Operation],
        config: EngineConfig,
    ) -> Result<Self, LoadError> {
        let path = path.as_ref();
        let (text, abs) = read(path)?;
        let display = path.display().to_string();
        let report = pldoc::analyse(&display, &text);
        if let Some(difference) = difference(expected, &report.operations) {
            return Err(LoadError::ModelMismatch {
                path: path.to_path_buf(),
                difference,
            });
        }
        Self::start(display, report, abs, config, None, None)
    }

    /// Loads `path` with `config` to take the place of the knowledge base that
    /// `handover` came from (a reload in place; see [`hand_over`](Self::hand_over)).
    /// With `persist`, it takes over the file and its journal: writes the journal
    /// holds that the file does not are applied (to an edit of the file, too, when
    /// the edit left what they change as it was; otherwise it refuses to load, with
    /// [`LoadError::Persist`] naming the predicates both changed).
    pub fn load_after(
        path: impl AsRef<Path>,
        config: EngineConfig,
        handover: &Handover,
    ) -> Result<Self, LoadError> {
        let path = path.as_ref();
        let (text, abs) = read(path)?;
        let display = path.display().to_string();
        let report = pldoc::analyse(&display, &text);
        Self::start(
            display,
            report,
            abs,
            config,
            None,
            handover.previous.as_ref(),
        )
    }

    /// Loads a knowledge base from source text; `name` is used in report locations.
    pub fn from_source(name: &str, text: &str) -> Result<Self, LoadError> {
        Self::from_source_with(name, text, EngineConfig::default())
    }

    /// Loads a knowledge base from source text with `config`; its PlDoc is read now.
    pub fn from_source_with(
        name: &str,
        text: &str,
        config: EngineConfig,
    ) -> Result<Self, LoadError> {
        let report = pldoc::analyse(name, text);
        let (abs, temp) = temp_file(text)?;
        Self::start(
            name.to_string(),
            report,
            abs,
            config,
            Some((temp, None)),
            None,
        )
    }

    /// A knowledge base from operations read before (no PlDoc parsing now) and the
    /// source text they were read from; `file` names it in messages. For a knowledge
    /// base of several files, see [`from_model_files`](Self::from_model_files).
    pub fn from_model(
        file: &str,
        source: &str,
        operations: Vec<Operation>,
        config: EngineConfig,
    ) -> Result<Self, LoadError> {
        let (abs, temp) = temp_file(source)?;
        Self::start(
            file.to_string(),
            model(operations),
            abs,
            config,
            Some((temp, None)),
            None,
        )
    }

    /// A knowledge base of several files held in memory, its PlDoc read now from the
    /// main file (the first). The files are laid out as on disk, so that the main
    /// file's `:- include(…)`, `consult`, `ensure_loaded` and `use_module` of its
    /// siblings find them; nothing is read from the disk.
    pub fn from_sources_with(
        sources: SourceFiles<'_>,
        config: EngineConfig,
    ) -> Result<Self, LoadError> {
        let (main, text) = sources.main()?;
        let report = pldoc::analyse(&sources.display(main), text);
        Self::from_files(sources, report, config)
    }

    /// A knowledge base from operations read before (no PlDoc parsing now) and the
    /// files they were read from, held in memory (the main file first). This is how
    /// `knowledge_base!` loads the files it compiled in.
    pub fn from_model_files(
        sources: SourceFiles<'_>,
        operations: Vec<Operation>,
        config: EngineConfig,
    ) -> Result<Self, LoadError> {
        Self::from_files(sources, model(operations), config)
    }

    fn from_files(
        sources: SourceFiles<'_>,
        report: Report,
        config: EngineConfig,
    ) -> Result<Self, LoadError> {
        let (main, _) = sources.main()?;
        let err = |source| LoadError::Read {
            path: std::env::temp_dir(),
            source,
        };
        let dir = PrivateDir::new("charon-src").map_err(err)?;
        for (path, text) in sources.files {
            sources.check(path)?;
            dir.write_at(path, text.as_bytes()).map_err(err)?;
        }
        let abs = dir.path().join(main);
        let display = sources.display(main);
        let root = sources.root.to_string();
        Self::start(display, report, abs, config, Some((dir, Some(root))), None)
    }

    /// In a debug build of the application, says once if the engine itself was
    /// compiled without optimisation (scryer-prolog is then some 25 times slower:
    /// seconds to load, milliseconds a call) and what to add to Cargo.toml. A
    /// crate's `[profile.dev.package.…]` settings apply to its own builds only, so
    /// every application must add it; this is how it learns that it should.
    fn warn_if_engine_unoptimised(&self) {
        // Once per process: the engine is the same for every knowledge base.
        static CHECKED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
        if CHECKED.swap(true, std::sync::atomic::Ordering::Relaxed) {
            return;
        }
        // 20,000 steps of the engine: about 10 ms optimised, a quarter of a second
        // and more without.
        let started = std::time::Instant::now();
        let ran = self.run_read(
            "'$charon_once'(x,(between(1,20000,_),fail;true),0,_).".into(),
            "the engine speed check",
        );
        let took = started.elapsed();
        tracing::debug!(target: "charon::engine", took_ms = took.as_millis() as u64, "engine speed check");
        if ran.is_ok() && took > std::time::Duration::from_millis(150) {
            tracing::warn!(target: "charon::engine", "the Prolog engine (scryer-prolog) was compiled without optimisation, which makes loading and every call many times slower; add to the application's Cargo.toml (the application's own crate stays a debug build):\n\n[profile.dev.package.\"*\"]\nopt-level = 3\ncodegen-units = 16\ndebug-assertions = false\noverflow-checks = false\ndebug = false\n");
        }
    }

    /// The exposed operations, in file order; an operation's [`OpId`] is its index.
    pub fn operations(&self) -> &[Operation] {
        &self.report.operations
    }

    /// The operation named `name`.
    pub fn operation(&self, name: &str) -> Option<&Operation> {
        self.resolve(name).and_then(|id| self.op(id))
    }

    /// The exposure report: operations, and documented predicates not exposed.
    pub fn report(&self) -> &Report {
        &self.report
    }

    /// Documented predicates that are not exposed, with the reason.
    pub fn rejections(&self) -> &[Rejection] {
        &self.report.rejections
    }

    /// The name of the knowledge base: its file name (or the name given to
    /// [`from_source`](Self::from_source)).
    pub fn title(&self) -> String {
        Path::new(&self.display).file_name().map_or_else(
            || self.display.clone(),
            |n| n.to_string_lossy().into_owned(),
        )
    }

    /// The file the engine consulted.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Whether calls of `name` may change the database (and so run alone): proven
    /// writes and operations Charon could not prove to be reads.
    pub fn is_mutating(&self, name: &str) -> bool {
        self.resolve(name)
            .is_some_and(|id| self.effects[id.index()].access != Access::Read)
    }

    /// What the operation `name` may do to the state, and why Charon thinks so.
    pub fn effects(&self, name: &str) -> Option<Effects> {
        self.resolve(name)
            .map(|id| Effects::of(&self.effects[id.index()]))
    }

    /// Why the engine runs a single worker whatever the configuration says, if it
    /// does: an operation may change state that cannot be copied between workers,
    /// or a directive may load a different state at each load (each worker loads
    /// the knowledge base itself).
    pub fn single_worker_reason(&self) -> Option<&str> {
        self.single_worker.as_deref()
    }

    /// What the analysis of the rules warns about, one line each: calls of
    /// predicates that no file defines (each raises an existence error, typically a
    /// typo; `charon check` prints them).
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    /// Whether the next call of `name` runs under the engine's inference counter
    /// (see [`Counting`](crate::Counting)); `None` for an unknown operation.
    pub fn is_counted(&self, name: &str) -> Option<bool> {
        let id = self.resolve(name)?;
        let inferences = self.engine.config().limits.inferences;
        Some(inferences > 0 && !self.counters.uncounted(id.index(), inferences))
    }

    /// Whether answers of `name` may be cached: it neither changes the database nor
    /// has other effects (output, time, randomness), so the same arguments give the
    /// same answer until the database changes.
    pub fn is_cacheable(&self, name: &str) -> bool {
        self.resolve(name)
            .is_some_and(|id| self.effects[id.index()].cacheable)
    }

    /// What the cached answers of `name` depend on: `None` for an operation whose
    /// answers are not cached (or an unknown one).
    pub fn cache_scope(&self, name: &str) -> Option<CacheScope> {
        let id = self.resolve(name)?;
        let scope = self.scopes[id.index()].as_ref();
        let op = self.op(id)?;
        let keyed = |d: &crate::cache::Dependency| {
            let (set, _) = scope?.through.get(d)?;
            let names: Vec<&str> = scope?.sets[*set]
                .iter()
                .map(|&p| op.args[p].name.as_ref())
                .collect();
            Some(format!("{d} (for the same {})", names.join(" and ")))
        };
        Some(match self.reads[id.index()].as_ref()? {
            Reads::Only(deps) => CacheScope::Reads(
                deps.iter()
                    .map(|d| keyed(d).unwrap_or_else(|| d.to_string()))
                    .collect(),
            ),
            Reads::Anything(reason) => CacheScope::Anything {
                reason: reason.clone(),
            },
        })
    }

    /// Whether calls are counted for the metrics ([`crate::http::metrics`]; on by
    /// default). Counting costs a few atomic operations per call; a server that
    /// does not serve the metrics can turn it off.
    pub fn count_calls(&self, on: bool) {
        self.metrics.set_counting(on);
    }

    /// The calls counted for the metrics (see `crate::metrics`).
    pub(crate) fn call_metrics(&self) -> &crate::metrics::CallMetrics {
        &self.metrics
    }

    /// The database generation: it changes with every write that changed something.
    pub fn generation(&self) -> u64 {
        self.engine.generation()
    }

    /// With `persist`: the file the database is written back to, and the generation
    /// last made durable (every acknowledged write is durable in the file's journal).
    pub fn persisted(&self) -> Option<(PathBuf, u64)> {
        self.engine.persisted()
    }

    /// With `persist`: whether the journal holds writes the file does not (a fold
    /// would change the file).
    pub(crate) fn journal_pending(&self) -> bool {
        self.engine.pending()
    }

    /// Writes the current database as a new `.pl` file at `to` (which must not
    /// exist): the knowledge base's file with its dynamic predicates' clauses as
    /// they are now, written as `--persist` writes them. In replicated mode this
    /// is the shared database as this replica applied it (`charon export`), so the
    /// data never lives only in PostgreSQL. Dynamic state outside the file's own
    /// module is left beside it as the journal `--persist` applies at load; its
    /// path is returned then.
    pub fn export(&self, to: impl AsRef<Path>) -> Result<Option<PathBuf>, EngineError> {
        self.engine.export(to.as_ref(), &self.main_module)
    }

    /// In replicated mode ([`EngineConfig::replica`]): how far this replica got in
    /// the shared log, and whether PostgreSQL answers.
    pub fn replica_status(&self) -> Option<crate::ReplicaStatus> {
        self.engine.replica_status()
    }

    /// Prepares a reload in place: with `persist`, writes stop (they wait; reads go
    /// on), the journal is folded into the file, and the file is let go, to be
    /// taken over by the knowledge base that [`load_after`](Self::load_after) loads.
    /// Then either [`Handover::complete`] once the new one serves (writes still
    /// waiting here fail with [`EngineError::Reloaded`](crate::EngineError::Reloaded),
    /// never made, to be sent again), or drop the handover to keep this one (it takes
    /// the file back, and writes go on, if nobody changed the file or its journal
    /// meanwhile; else they stay refused). Without `persist` nothing stops.
    ///
    /// ```no_run
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// use charon::{EngineConfig, KnowledgeBase};
    /// let config = EngineConfig { persist: true, ..EngineConfig::default() };
    /// let old = KnowledgeBase::load_with("library.pl", config.clone())?;
    /// // … the file is edited …
    /// let handover = old.hand_over()?;
    /// let new = KnowledgeBase::load_after("library.pl", config, &handover)?;
    /// handover.complete(); // from here on, calls go to `new`
    /// # Ok(()) }
    /// ```
    pub fn hand_over(&self) -> Result<Handover, crate::engine::EngineError> {
        let deadline = std::time::Instant::now() + self.engine.config().load_timeout;
        let previous = self.engine.hand_over(deadline)?;
        Ok(Handover {
            engine: self.engine.clone(),
            previous,
            done: false,
        })
    }

    /// Whether this knowledge base follows its file (`persist`) and the file holds
    /// what it last read or wrote: a change seen on the file is then its own (a
    /// journal folded into it), not an edit. `false` without `persist`, and once the
    /// file was edited or handed over.
    pub fn file_is_own(&self) -> bool {
        self.engine.file_is_own()
    }

    /// With `persist`: folds the writes the journal holds into the `.pl` file now, so
    /// that the file alone is the current database (it runs alone, like a write).
    /// Writes are durable without it; it also happens when the journal outgrows the
    /// file, when the knowledge base is dropped, and at the next load. Without
    /// `persist`, or with nothing to fold, it does nothing.
    pub fn checkpoint(&self) -> Result<(), crate::engine::EngineError> {
        self.engine.checkpoint()
    }

    /// Engine counters (workers started, calls).
    pub fn stats(&self) -> crate::engine::EngineStats {
        self.engine.stats()
    }

    /// Answer cache counters (hits, misses, entries, bytes held).
    pub fn cache_stats(&self) -> crate::cache::CacheStats {
        self.cache.stats()
    }

    /// Calls admitted to the engine right now (running or waiting for a worker).
    pub fn pending(&self) -> usize {
        self.pending.load(std::sync::atomic::Ordering::Acquire)
    }

    /// Whether the engine can take a call now: a place among `max_pending` is free
    /// and a worker is idle, or answers a trivial goal within `wait`. This is
    /// readiness; the process being up (liveness) needs no engine at all.
    pub fn ready(&self, wait: std::time::Duration) -> Result<(), String> {
        if let Some(why) = self.replica_status().and_then(|s| s.diverged) {
            return Err(format!("this replica stopped serving: {why}"));
        }
        let limit = self.engine.config().max_pending.max(1);
        let pending = self.pending();
        if pending >= limit {
            return Err(format!(
                "{pending} calls are already waiting for the engine (the limit is {limit})"
            ));
        }
        if !self.engine.idle_worker_pids().is_empty() {
            return Ok(());
        }
        self.ping_within(wait).map_err(|e| match e {
            CallError::Engine {
                error: EngineError::TimeLimit(_) | EngineError::Waited(_),
                ..
            } => format!("no engine worker became free within {wait:?}"),
            other => other.to_string(),
        })
    }

    /// Process ids of the engine workers that are idle at this moment (for
    /// monitoring; busy workers are not listed).
    pub fn idle_worker_pids(&self) -> Vec<u32> {
        self.engine.idle_worker_pids()
    }

    /// The engine configuration in force.
    pub fn config(&self) -> &EngineConfig {
        self.engine.config()
    }
}

fn read(path: &Path) -> Result<(String, PathBuf), LoadError> {
    let err = |source| LoadError::Read {
        path: path.to_path_buf(),
        source,
    };
    let text = std::fs::read_to_string(path).map_err(err)?;
    let abs = std::path::absolute(path).map_err(err)?;
    Ok((text, abs))
}

/// The files of a knowledge base held in memory, as `knowledge_base!` compiles them
/// in: the main file first, then the files it loads, each by its path relative to
/// one directory (`/`-separated, no `..`), so that they find each other as on disk.
///
/// ```
/// let sources = charon::SourceFiles {
///     root: "kb",
///     files: &[
///         ("shop.pl", ":- include('prices.pl').\n%! price(+Item:atom, -P:float) is semidet.\n"),
///         ("prices.pl", "price(apple, 0.5).\n"),
///     ],
/// };
/// # let _ = sources;
/// ```
#[derive(Debug, Clone, Copy)]
pub struct SourceFiles<'a> {
    /// How messages name the directory the paths are relative to (`"kb"` makes the
    /// main file `kb/shop.pl` in a load error; `""` names the files alone).
    pub root: &'a str,
    /// `(path, text)` of each file, the main file first.
    pub files: &'a [(&'a str, &'a str)],
}

impl SourceFiles<'_> {
    fn main(&self) -> Result<(&str, &str), LoadError> {
        self.files
            .first()
            .map(|(path, text)| (*path, *text))
            .ok_or_else(|| invalid("no files were given".into()))
    }

    /// How messages name `path`.
    fn display(&self, path: &str) -> String {
        if self.root.is_empty() {
            path.to_string()
        } else {
            format!("{}/{path}", self.root)
        }
    }

    fn check(&self, path: &str) -> Result<(), LoadError> {
        let plain = !path.is_empty()
            && Path::new(path)
                .components()
                .all(|c| matches!(c, std::path::Component::Normal(_)));
        if plain {
            Ok(())
        } else {
            Err(invalid(format!(
                "`{path}`: the path of a file held in memory must be relative, without `.` or `..`"
            )))
        }
    }
}

/// The keys of a call of an operation scoped by `scope`, from its input values in
/// mode-line order: one per set of key positions (`None` when a value there is not
/// an atom or an integer: the call then counts as every key).
pub(crate) fn call_keys(
    op: &Operation,
    scope: &KeyScope,
    inputs: &[&serde_json::Value],
) -> Option<Vec<u64>> {
    let key_of = |position: usize| -> Option<u64> {
        let ordinal = op.args[..position]
            .iter()
            .filter(|a| a.mode == pldoc::Mode::In)
            .count();
        let value = inputs.get(ordinal)?;
        match op.args.get(position)?.ty {
            pldoc::Type::Atom => value.as_str().map(crate::cache::atom_key),
            pldoc::Type::Int => value
                .as_i64()
                .map(|n| n.to_string())
                .or_else(|| value.as_u64().map(|n| n.to_string()))
                .map(|digits| crate::cache::int_key(&digits)),
            _ => None,
        }
    };
    scope
        .sets
        .iter()
        .map(|set| {
            set.iter()
                .map(|&p| key_of(p))
                .collect::<Option<Vec<u64>>>()
                .map(|keys| crate::cache::combine(&keys))
        })
        .collect()
}

fn model(operations: Vec<Operation>) -> Report {
    Report {
        operations,
        rejections: Vec::new(),
    }
}

fn invalid(message: String) -> LoadError {
    LoadError::Sources(message)
}

/// Writes source text to a file in a private directory: the engine consults files only
/// (a string consult with an error in it aborts the process), and workers re-read it
/// whenever one starts, so nobody else may be able to replace it.
fn temp_file(text: &str) -> Result<(PathBuf, PrivateDir), LoadError> {
    let err = |source| LoadError::Read {
        path: std::env::temp_dir(),
        source,
    };
    let dir = PrivateDir::new("charon-src").map_err(err)?;
    let file = dir.write("kb.pl", text.as_bytes()).map_err(err)?;
    Ok((file, dir))
}

/// The first way `found` differs from `expected` in what a caller relies on (names,
/// arguments, types, determinism, order), if any.
fn difference(expected: &[Operation], found: &[Operation]) -> Option<String> {
    for (i, want) in expected.iter().enumerate() {
        match found.get(i) {
            None => {
                return Some(format!(
                    "operation {} ({}) is missing",
                    i + 1,
                    want.signature()
                ));
            }
            Some(got) => {
                let same_args = want.args.len() == got.args.len()
                    && want
                        .args
                        .iter()
                        .zip(&got.args)
                        .all(|(a, b)| a.name == b.name && a.mode == b.mode && a.ty == b.ty);
                if want.name != got.name
                    || want.predicate != got.predicate
                    || !same_args
                    || want.determinism != got.determinism
                {
                    return Some(format!(
                        "expected `{}`, found `{}` at {}",
                        want.signature(),
                        got.signature(),
                        got.location
                    ));
                }
            }
        }
    }
    found.get(expected.len()).map(|extra| {
        format!(
            "it has an extra operation `{}` at {}",
            extra.signature(),
            extra.location
        )
    })
}
