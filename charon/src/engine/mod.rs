//! The engine: a pool of worker processes, each owning one scryer-prolog `Machine`.
//!
//! Files by job: `config` (limits and settings), `process` (one worker process and
//! its pipes), `template` (the process that loads the knowledge base once and forks
//! every worker), `pool` (idle workers, recycling, replacement), `batch` (reads from
//! async callers, run in batches by one driver thread per worker), `generation` (the
//! history of committed changes and how a worker catches up), `outcome` (the one
//! decoder of the wrapper's results), `stream` (solutions sent on as they are
//! found), `protocol` and `worker` (the worker side).
//!
//! # Why processes
//!
//! scryer-prolog 0.10 has no interrupt API (its interrupt flag is crate-private and
//! global), a `Machine` is neither `Send` nor `Sync`, and memory is only given back when
//! a `Machine` is dropped. A goal that never yields can therefore only be stopped by
//! stopping what runs it. Each worker is a process talking JSON lines over pipes,
//! forked from a *template*: the running program itself, re-executed in worker mode
//! (see `worker`), which loads the knowledge base once and never runs a call. Workers
//! therefore start in about a millisecond, share the loaded clauses copy-on-write, and
//! all hold the same load-time state (see `template`):
//!
//! * **Wall-clock limit**: every call carries a deadline, set when it was admitted;
//!   waiting for the database lock and for a worker count against it. At the deadline
//!   a running worker is killed (`SIGKILL`, no core is left spinning), the call gets
//!   [`EngineError::TimeLimit`], and a replacement is started in the background.
//! * **Inferences** are bounded inside the engine by `call_with_inference_limit/3` in
//!   the KB-side wrapper (`wrapper/*.pl`, consulted as one text in the order of
//!   `WRAPPER`), which also runs every goal inside `catch/3`.
//! * **Memory** is bounded per worker with `RLIMIT_AS`; running out is reported as
//!   [`EngineError::MemoryLimit`]; a worker that dies (out of memory, deep recursion,
//!   a panic) dies alone and is replaced.
//! * **Answers** travel as text: the wrapper writes the result with the engine's own
//!   writer (linear, any depth) and the parent reads it back (`crate::term::read_term`,
//!   linear, no recursion); scryer's conversion of bound terms is quadratic in a list's
//!   length and is never used for answers.
//! * **Recycling**: after `recycle_after` calls, or when its memory has grown by
//!   `recycle_memory` since it loaded, a worker is replaced by a fresh fork caught up with
//!   the current dynamic database, so memory stays flat — one worker at a time, the
//!   replacement started (and caught up) before the old one leaves (`pool`).
//! * **Loading** has a deadline (`load_timeout`); the error names the
//!   `initialization/1` goal still running (the wrapper announces each on stderr).
//!
//! # Consistency
//!
//! Every worker holds the whole knowledge base. Reads run in parallel on any worker
//! (shared side of a read-write lock); writes take the exclusive side, so no other
//! call runs meanwhile. Which operations are which is decided by the analysis in
//! `analysis`, failing closed (`Access`). A write's changes reach the others as the
//! changes it recorded (`Replication::Journal`: the knowledge base is loaded with its
//! direct mutator calls rewritten to record, see `wrapper/rewriting.pl`) or, when Charon could
//! not see every change, as a full dump (`Replication::Snapshot`); see `generation`.
//! Workers catch up lazily, before their next call, or in the background when they
//! are started. A write that fails, throws or hits a limit after changing something
//! has its worker replaced, so a call's changes are applied whole or not at all.
//! When an operation may change state that cannot be copied between workers, the
//! knowledge base keeps a single worker.
//!
//! Trade-offs: a write costs its own run plus, on each other worker, the replay of
//! its changes; a fork (≈ 1 ms, plus catching up with the writes since the load) is
//! paid after a timeout, after a failed write and at recycling, and a whole load
//! only when the template itself is gone; each call pays a pipe round trip, and the engine
//! reads and compiles its query text, which is kept to one short goal: a stub the
//! wrapper file defines for each operation (`'$charon_o<N>'(Limit, Inputs…)`, see
//! `crate::kb`'s codec). To keep the round trip short, both ends check their pipe
//! without sleeping for up to 50 µs before blocking (a wake-up from a blocking read
//! costs 20–30 µs on a small VM), which spends a little CPU right after each
//! message. Under load, reads from async callers share the round trips instead
//! (`batch`): a batch of calls goes to a worker in one write, and a slow call gives
//! the calls behind it to another worker after 2 ms. Answers of reads can skip the
//! engine altogether (the answer cache of the call pipeline). With `persist`,
//! a write also rewrites the changed predicates in the knowledge base's file
//! before it answers (`crate::persist`).

mod batch;
mod call;
mod config;
mod fold;
mod generation;
mod handover;
mod outcome;
mod pool;
mod private_dir;
mod process;
mod protocol;
mod replicate;
mod stream;
mod template;
mod worker;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

pub use config::{Counting, EngineConfig, EngineError, Limits};

pub(crate) use outcome::Outcome;

pub(crate) use private_dir::PrivateDir;

use crate::cache::{Change, Freshness};
use crate::persist::Entry;
use generation::{History, UNKNOWN};
use process::{Failure, Files, Worker};
use protocol::{Request, Response};
use template::{ForkError, Template};

use crate::term::PlTerm;

const WRAPPER: &str = concat!(
    include_str!("wrapper/calls.pl"),
    include_str!("wrapper/changes.pl"),
    include_str!("wrapper/loading.pl"),
    include_str!("wrapper/analysis.pl"),
    include_str!("wrapper/explain.pl"),
    // Last: everything after its term_expansion clause would be rewritten too.
    include_str!("wrapper/rewriting.pl"),
);

/// How long a caller checks for an answer before sleeping on the pipe, when it is
/// the only call in flight. Under concurrency nobody spins: the cores are better
/// spent on the other calls (measured: 29.6k point calls/s without spinning against
/// 18.5k with it, at 16 connections on 2 cores).
const SPIN: Duration = Duration::from_micros(50);

/// How a call may touch the state, as the analysis found it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Access {
    /// Reads only: runs beside other reads, on any worker.
    Read,
    /// May change the state: runs alone; its changes reach the other workers as
    /// the given replication says.
    Write(Replication),
}

/// How a write's changes reach the other workers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Replication {
    /// As the changes it recorded (every change went through a recorded call).
    Journal,
    /// As a full dump of the state (Charon cannot see every change it makes).
    Snapshot,
}

/// The answer to one `run`.
#[derive(Debug, Clone)]
pub(crate) struct RunOutcome {
    /// How the call ended, decoded.
    pub outcome: Outcome,
    /// What the knowledge base printed.
    pub output: String,
}

struct Inner {
    config: EngineConfig,
    files: Files,
    idle: Mutex<Vec<Worker>>,
    available: Condvar,
    /// Reads share it, writes hold it alone; waiting for it counts against a call's
    /// deadline (hence `parking_lot`, whose locks can time out).
    database: parking_lot::RwLock<()>,
    history: Mutex<History>,
    /// Set when the knowledge base changes state Charon cannot replicate: the
    /// engine then keeps one worker, never recycled.
    single: std::sync::atomic::AtomicBool,
    /// The generation of the knowledge base's file, which a worker starts at when
    /// it loads it: 0, until `persist` folds the journal into the file.
    file_generation: AtomicU64,
    /// Odd while the file is being replaced (`persist`): a worker that loaded
    /// meanwhile cannot know which file it read (see `spawn_worker`).
    file_epoch: AtomicU64,
    /// The loaded process every worker is forked from (see `template`); `None`
    /// once it is gone, until a worker start loads another.
    template: Mutex<Option<Template>>,
    /// `--persist`: the file that follows the database, and the module whose
    /// dynamic predicates it holds.
    persist: Mutex<Option<(crate::persist::Persister, String)>>,
    /// Whether writes may start: closed while the file is handed over to the
    /// knowledge base loaded next (see `handover`).
    fence: Mutex<handover::Fence>,
    fence_changed: Condvar,
    /// Held by the fold of the journal into the file that runs (see `fold`).
    fold: Mutex<()>,
    /// Whether a fold beside the writes was started and has not ended.
    folding: std::sync::atomic::AtomicBool,
    /// Whether a new base of the history is being dumped beside the writes.
    rebasing: std::sync::atomic::AtomicBool,
    /// Why workers cannot be started now, when a call should hear it rather than
    /// wait for one (replicated mode: the file is no longer the log's).
    cannot_start: Mutex<Option<EngineError>>,
    /// Set while a replica's snapshot of the log is taken (see `replicate`).
    snapshotting: std::sync::atomic::AtomicBool,
    /// Replicated mode: the shared log (set once, at load).
    replica: std::sync::OnceLock<replicate::Replica>,
    /// Held by the work beside the writes that runs (a fold or a rebase): one at a
    /// time, so that it never takes more than one worker from the calls.
    beside: Mutex<()>,
    rebases: AtomicU64,
    /// Folds of the journal into the `--persist` file done.
    folds: AtomicU64,
    counter: AtomicU64,
    started: AtomicU64,
    /// Workers retired for recycling, and workers discarded (see `EngineStats`).
    recycled: AtomicU64,
    replaced: AtomicU64,
    calls: AtomicU64,
    /// Mirror of `generation.number`, readable without the lock.
    published: AtomicU64,
    /// Calls between the start of `run` and its end.
    in_flight: AtomicUsize,
    /// A recycled worker's replacement is starting (one at a time).
    recycling: std::sync::atomic::AtomicBool,
    /// The pid of a recycled worker to drop when it comes back (0: none).
    retired: std::sync::atomic::AtomicU32,
    /// Reads waiting to run in batches (`batch`).
    batcher: Arc<batch::Batcher>,
    /// Numbers the calls of batches.
    request_ids: AtomicU64,
    /// What each cached answer depends on: marked by every commit before it is
    /// published (see `crate::cache`). Set once the analysis is done.
    freshness: std::sync::OnceLock<Arc<Freshness>>,
}

impl Drop for Inner {
    fn drop(&mut self) {
        self.batcher.close();
    }
}

/// Counters of an engine since it started.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct EngineStats {
    /// Worker processes started (initial ones, replacements and recycled ones).
    pub workers_started: u64,
    /// Workers retired after their call count or memory growth (each replaced).
    pub workers_recycled: u64,
    /// Workers dropped and replaced because their state could not be trusted: a
    /// call past its time limit, a crash, a write that failed or was not saved.
    pub workers_replaced: u64,
    /// Calls answered or failed.
    pub calls: u64,
    /// Times the record of changes that workers catch up from was folded into a
    /// new base (a dump of the whole state, made beside the writes).
    pub state_rebases: u64,
    /// `--persist`: folds of the journal into the file done.
    pub persist_folds: u64,
    /// `--persist`: whether a fold of the journal into the file is due or running
    /// now (beside the writes).
    pub persist_folding: bool,
}

/// The worker pool behind a knowledge base.
#[derive(Clone)]
pub(crate) struct Engine {
    inner: Arc<Inner>,
}

impl std::fmt::Debug for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Engine")
            .field("config", &self.inner.config)
            .field("kb", &self.inner.files.kb)
            .finish()
    }
}

impl Engine {
    /// Starts the workers on `kb` (an absolute path), each loading the wrapper with
    /// `stubs` (clauses written for this knowledge base's operations) first. The
    /// first worker's load decides whether the knowledge base loads; the others start
    /// in parallel after it.
    pub(crate) fn start(
        kb: &Path,
        stubs: &str,
        config: EngineConfig,
    ) -> Result<Engine, EngineError> {
        let spawn_error = |e: std::io::Error| EngineError::Spawn(e.to_string());
        let dir = PrivateDir::new("charon").map_err(spawn_error)?;
        let wrapper = dir
            // The stubs go first: the wrapper ends with the knowledge base's rewriting
            // (a term_expansion clause), which must stay last.
            .write("wrapper.pl", format!("{stubs}\n{WRAPPER}").as_bytes())
            .map_err(spawn_error)?;
        let files = Files {
            dir,
            wrapper,
            kb: kb.to_path_buf(),
        };
        let mut template = Template::start(&files, &config.limits, config.load_timeout)?;
        let idle = (0..config.workers.max(1))
            .map(|_| template.fork().map_err(EngineError::from))
            .collect::<Result<Vec<_>, _>>()?;
        let initial = config.workers.max(1) as u64;
        Ok(Engine {
            inner: Arc::new(Inner {
                config,
                files,
                idle: Mutex::new(idle),
                available: Condvar::new(),
                database: parking_lot::RwLock::new(()),
                history: Mutex::new(History::new(
                    std::fs::metadata(kb).map_or(0, |m| m.len() as usize),
                )),
                single: std::sync::atomic::AtomicBool::new(false),
                file_generation: AtomicU64::new(0),
                file_epoch: AtomicU64::new(0),
                template: Mutex::new(Some(template)),
                persist: Mutex::new(None),
                fence: Mutex::default(),
                fence_changed: Condvar::new(),
                fold: Mutex::new(()),
                folding: std::sync::atomic::AtomicBool::new(false),
                rebasing: std::sync::atomic::AtomicBool::new(false),
                snapshotting: std::sync::atomic::AtomicBool::new(false),
                cannot_start: Mutex::new(None),
                rebases: AtomicU64::new(0),
                folds: AtomicU64::new(0),
                beside: Mutex::new(()),
                replica: std::sync::OnceLock::new(),
                counter: AtomicU64::new(0),
                started: AtomicU64::new(initial),
                recycled: AtomicU64::new(0),
                replaced: AtomicU64::new(0),
                calls: AtomicU64::new(0),
                published: AtomicU64::new(0),
                in_flight: AtomicUsize::new(0),
                recycling: std::sync::atomic::AtomicBool::new(false),
                retired: std::sync::atomic::AtomicU32::new(0),
                batcher: Arc::default(),
                request_ids: AtomicU64::new(1),
                freshness: std::sync::OnceLock::new(),
            }),
        })
    }

    /// The configuration in force.
    pub(crate) fn config(&self) -> &EngineConfig {
        &self.inner.config
    }

    /// Counters since start.
    pub(crate) fn stats(&self) -> EngineStats {
        EngineStats {
            workers_started: self.inner.started.load(Ordering::Relaxed),
            workers_recycled: self.inner.recycled.load(Ordering::Relaxed),
            workers_replaced: self.inner.replaced.load(Ordering::Relaxed),
            calls: self.inner.calls.load(Ordering::Relaxed),
            state_rebases: self.inner.rebases.load(Ordering::Relaxed),
            persist_folds: self.inner.folds.load(Ordering::Relaxed),
            persist_folding: self.inner.folding.load(Ordering::Relaxed),
        }
    }

    /// Process ids of the workers that are idle right now.
    pub(crate) fn idle_worker_pids(&self) -> Vec<u32> {
        let idle = self.inner.idle.lock().unwrap_or_else(|p| p.into_inner());
        idle.iter().map(Worker::pid).collect()
    }

    /// The current database generation: it changes whenever a mutating call commits.
    pub(crate) fn generation(&self) -> u64 {
        self.inner.published.load(Ordering::Acquire)
    }

    /// From now on, every commit marks the operations that can read what it
    /// changed, before it is published (see `crate::cache`).
    pub(crate) fn set_freshness(&self, freshness: Arc<Freshness>) {
        let _ = self.inner.freshness.set(freshness);
    }

    /// Marks what generation `number` changes (`None`: anything) before it is
    /// published.
    fn mark_changed(&self, what: Option<&[Change]>, number: u64) {
        if let Some(f) = self.inner.freshness.get() {
            f.changed(what, number);
        }
    }

    /// Reads the knowledge base (and the local files it loads) for the analysis of
    /// what its operations may do; see `'$charon_analyse'/2` in `wrapper/analysis.pl`.
    pub(crate) fn analyse(&self) -> Result<Vec<PlTerm>, EngineError> {
        // On a worker of its own, which then goes: reading the file grows its
        // memory, and a serving worker would keep that.
        let started = Instant::now();
        let mut worker = self.fork_worker()?;
        // The fork cuts the file short for the reader (see `analysis_text`): the
        // memory that takes goes with it.
        let request = Request::Analyse {
            file: self.inner.files.kb.display().to_string(),
            source: (self.inner.files.dir.path().join("analysis.pl"))
                .display()
                .to_string(),
        };
        let limit = Duration::from_secs(120);
        match worker.request(&request, limit) {
            Ok(Response::Analysis { items }) => {
                tracing::debug!(target: "charon::engine", items = items.len(), elapsed_ms = started.elapsed().as_millis() as u64, "knowledge base read for the analysis");
                Ok(items)
            }
            Ok(other) => Err(EngineError::Spawn(format!("unexpected answer {other:?}"))),
            Err(f) => Err(self.aside_failure(f, limit)),
        }
    }

    /// A worker of its own for read-only questions about the knowledge base as
    /// loaded (see [`Aside`]), forked on the first question.
    pub(crate) fn aside(&self) -> Aside<'_> {
        Aside {
            engine: self,
            worker: None,
        }
    }

    /// The error of a worker set aside (not serving) that failed.
    fn aside_failure(&self, failure: Failure, limit: Duration) -> EngineError {
        match failure {
            Failure::Timeout => EngineError::TimeLimit(limit),
            Failure::Died(m) => EngineError::Crashed(m),
            Failure::OutOfMemory => EngineError::MemoryLimit(self.inner.config.limits.memory),
        }
    }

    /// Makes `path` follow the dynamic predicates of `module` from now on (see
    /// `crate::persist`): opens its journal, applies the writes the journal holds
    /// that the file does not, and folds them into the file. `loaded`: the file as
    /// read before the engine loaded it (see `Persister::open`).
    pub(crate) fn enable_persist(
        &self,
        path: &Path,
        module: String,
        previous: Option<&crate::persist::Previous>,
        loaded: Option<&[u8]>,
    ) -> Result<(), EngineError> {
        let (persister, entries) =
            crate::persist::Persister::open(path, module.clone(), previous, loaded)
                .map_err(|e| EngineError::Persist(e.to_string()))?;
        let journal = persister.journal_path().display().to_string();
        {
            let mut h = self.history();
            for entry in entries {
                match entry {
                    Entry::Changes(text) => {
                        h.push(text.into());
                    }
                    Entry::Snapshot(text) => {
                        let dump = self.new_dump();
                        std::fs::write(&dump.0, text).map_err(|e| {
                            EngineError::Persist(format!("cannot apply {journal}: {e}"))
                        })?;
                        let number = h.number + 1;
                        h.install(dump, number);
                    }
                }
            }
            self.mark_changed(None, h.number);
            self.inner.published.store(h.number, Ordering::Release);
        }
        *self.inner.persist.lock().unwrap_or_else(|p| p.into_inner()) = Some((persister, module));
        self.checkpoint().map_err(|e| {
            // The knowledge base does not load: the file and its journal go back at
            // once (a worker being replaced in the background keeps the engine).
            self.release_persist();
            EngineError::Persist(format!("cannot apply the writes of {journal}: {e}"))
        })
    }

    /// With `persist`: folds the journal into the knowledge base's file, if it holds
    /// writes the file does not (runs alone, like a write).
    pub(crate) fn checkpoint(&self) -> Result<(), EngineError> {
        if !self.pending() {
            return Ok(());
        }
        let deadline =
            Instant::now() + self.inner.config.load_timeout.max(Duration::from_secs(120));
        let Some(_exclusive) = self.inner.database.try_write_until(deadline) else {
            return Err(EngineError::Waited(self.inner.config.load_timeout));
        };
        self.fold_journal(deadline)
    }

    /// With `persist`: whether the journal holds writes the file does not.
    pub(crate) fn pending(&self) -> bool {
        let guard = self.inner.persist.lock().unwrap_or_else(|p| p.into_inner());
        guard.as_ref().is_some_and(|(p, _)| p.pending())
    }

    /// [`checkpoint`](Self::checkpoint) with the database lock held.
    pub(super) fn fold_journal(&self, deadline: Instant) -> Result<(), EngineError> {
        if !self.pending() {
            return Ok(());
        }
        // A fold running beside the writes finishes first.
        let _folding = self.inner.fold.lock().unwrap_or_else(|p| p.into_inner());
        let mut worker = self.acquire(deadline)?;
        if let Err(f) = self.sync(&mut worker, deadline) {
            return Err(self.failed(worker, f, self.inner.config.load_timeout));
        }
        let Some(point) = self.fold_point() else {
            self.release(worker);
            return Ok(());
        };
        let result = self.compact(&mut worker, point, deadline);
        self.release(worker);
        result
    }

    /// With `persist`: stops following the file, releasing its journal (and its
    /// lock) even while background work still holds the engine.
    pub(crate) fn release_persist(&self) {
        self.inner
            .persist
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .take();
    }

    /// With `persist`: where a fold starts, taken while no write can commit (the
    /// database lock held, shared or exclusive).
    fn fold_point(&self) -> Option<fold::Point> {
        let guard = self.inner.persist.lock().unwrap_or_else(|p| p.into_inner());
        guard.as_ref().map(|(persister, module)| fold::Point {
            covered: persister.records(),
            touched: persister.touched(),
            module: module.clone(),
        })
    }

    /// Folds the journal's writes up to `point` into the file, listing the state on
    /// `worker` (which is at the generation of `point`). The journal is not locked
    /// while the state is listed: writes go on meanwhile, and stay in the journal.
    fn compact(
        &self,
        worker: &mut Worker,
        point: fold::Point,
        deadline: Instant,
    ) -> Result<(), EngineError> {
        if worker.generation == UNKNOWN {
            // Its state may not be the committed one: the journal keeps the writes.
            return Err(EngineError::Persist(
                "the worker's state is not known; the journal is folded later".into(),
            ));
        }
        let started = Instant::now();
        let listing = self.listing(worker, &point.module, point.touched, deadline)?;
        let listed_ms = started.elapsed().as_millis() as u64;
        let mut guard = self.inner.persist.lock().unwrap_or_else(|p| p.into_inner());
        let Some((persister, _)) = guard.as_mut() else {
            // Handed over or let go of meanwhile.
            return Ok(());
        };
        // Workers that load while the file is replaced cannot tell which one they read.
        self.inner.file_epoch.fetch_add(1, Ordering::AcqRel);
        let result = persister.compact(listing, point.covered);
        if result.is_ok() {
            self.inner
                .file_generation
                .store(worker.generation, Ordering::Release);
        }
        self.inner.file_epoch.fetch_add(1, Ordering::AcqRel);
        result.map_err(|e| EngineError::Persist(e.to_string()))?;
        self.inner.folds.fetch_add(1, Ordering::Relaxed);
        tracing::info!(target: "charon::persist", file = %persister.path().display(), listed_ms, elapsed_ms = started.elapsed().as_millis() as u64, "journal folded into the file");
        Ok(())
    }

    /// Writes the current database as a `.pl` at `to`: the knowledge base's file
    /// with the clauses of `module`'s dynamic predicates as they are now, written
    /// as `--persist` writes them (every other byte kept). State outside `module`
    /// (other modules' dynamic predicates, the blackboard) cannot be written into
    /// the file: it is left beside it, as the journal `--persist` would apply at
    /// load, and the path of that journal is returned.
    pub(crate) fn export(&self, to: &Path, module: &str) -> Result<Option<PathBuf>, EngineError> {
        let failed =
            |e: String| EngineError::Persist(format!("cannot export to {}: {e}", to.display()));
        if to.exists() {
            return Err(failed("the file exists; choose a new name".into()));
        }
        std::fs::copy(&self.inner.files.kb, to).map_err(|e| failed(e.to_string()))?;
        let written = (|| {
            let (mut persister, _) = crate::persist::Persister::open(to, module.into(), None, None)
                .map_err(|e| failed(e.to_string()))?;
            let deadline =
                Instant::now() + self.inner.config.load_timeout.max(Duration::from_secs(120));
            let mut worker = self.acquire(deadline)?;
            if let Err(f) = self.sync(&mut worker, deadline) {
                return Err(self.failed(worker, f, self.inner.config.load_timeout));
            }
            let listing = self.listing(&mut worker, module, None, deadline);
            self.release(worker);
            persister
                .compact(listing?, 0)
                .map_err(|e| failed(e.to_string()))?;
            Ok(persister.journal_path().to_path_buf())
        })();
        match written {
            Ok(journal) => {
                if crate::persist::leftover_journal(to).is_some() {
                    Ok(Some(journal))
                } else {
                    let _ = std::fs::remove_file(&journal);
                    Ok(None)
                }
            }
            Err(e) => {
                let _ = std::fs::remove_file(to);
                let _ = std::fs::remove_file(format!("{}.journal", to.display()));
                Err(e)
            }
        }
    }

    /// The clauses of `module`'s dynamic predicates that `touched` names (all of
    /// them when it is `None`), and the dynamic state outside the module, as the
    /// worker renders them.
    fn listing(
        &self,
        worker: &mut Worker,
        module: &str,
        touched: Option<Vec<crate::persist::Pi>>,
        deadline: Instant,
    ) -> Result<crate::persist::Listing, EngineError> {
        let n = self.inner.counter.fetch_add(1, Ordering::Relaxed);
        let file = self.inner.files.dir.path().join(format!("listing-{n}.pl"));
        let request = Request::Listing {
            file: file.display().to_string(),
            module: module.to_string(),
            predicates: touched,
        };
        let remaining = deadline
            .saturating_duration_since(Instant::now())
            .max(Duration::from_secs(5));
        let result = match worker.request(&request, remaining) {
            Ok(Response::Done { result }) => outcome::done(result),
            Ok(other) => Err(format!("unexpected answer {other:?}")),
            Err(_) => Err("the worker did not answer".into()),
        };
        let text = std::fs::read_to_string(&file);
        let _ = std::fs::remove_file(&file);
        result.map_err(|e| EngineError::Persist(format!("cannot list the clauses: {e}")))?;
        let text =
            text.map_err(|e| EngineError::Persist(format!("cannot list the clauses: {e}")))?;
        Ok(crate::persist::parse_listing(&text))
    }

    /// Refuses a write when the persisted file was edited by someone else.
    fn check_persisted(&self) -> Result<(), EngineError> {
        let mut guard = self.inner.persist.lock().unwrap_or_else(|p| p.into_inner());
        match guard.as_mut() {
            Some((p, _)) => p.check().map_err(|e| EngineError::Persist(e.to_string())),
            None => Ok(()),
        }
    }

    /// With `persist`, makes a write durable in the journal before it is committed
    /// (see `crate::persist`). An error means the write must not be acknowledged.
    fn record(&self, entry: &Entry, generation: u64) -> Result<(), EngineError> {
        let mut guard = self.inner.persist.lock().unwrap_or_else(|p| p.into_inner());
        let Some((persister, _)) = guard.as_mut() else {
            return Ok(());
        };
        persister.record(entry, generation).map_err(|e| {
            EngineError::Persist(format!(
                "the change could not be saved, so it was not made: {e}"
            ))
        })
    }

    /// The file `--persist` writes to and the generation last made durable.
    pub(crate) fn persisted(&self) -> Option<(PathBuf, u64)> {
        let guard = self.inner.persist.lock().unwrap_or_else(|p| p.into_inner());
        guard
            .as_ref()
            .map(|(p, _)| (p.path().to_path_buf(), p.generation))
    }

    /// Starts a worker: its state is the file as loaded, at the file's generation —
    /// or unknown when the file was replaced while it loaded (then `sync` restores
    /// the base, or starts another). It is forked from the template, which is
    /// loaded first if there is none (see `template`).
    fn spawn_worker(&self) -> Result<Worker, EngineError> {
        let worker = self.fork_worker()?;
        self.inner.started.fetch_add(1, Ordering::Relaxed);
        Ok(worker)
    }

    /// [`spawn_worker`](Self::spawn_worker) without counting it.
    fn fork_worker(&self) -> Result<Worker, EngineError> {
        let mut template = self
            .inner
            .template
            .lock()
            .unwrap_or_else(|p| p.into_inner());
        if let Some(t) = template.as_mut() {
            match t.fork() {
                Ok(worker) => return Ok(worker),
                Err(ForkError::Local(e)) => return Err(e),
                Err(ForkError::Gone(e)) => {
                    tracing::warn!(target: "charon::engine", "the template process is gone ({e}): loading the knowledge base again");
                    *template = None;
                }
            }
        }
        self.check_replicated_file()?;
        let before = self.inner.file_epoch.load(Ordering::Acquire);
        let generation = self.inner.file_generation.load(Ordering::Acquire);
        let mut t = Template::start(
            &self.inner.files,
            &self.inner.config.limits,
            self.inner.config.load_timeout,
        )?;
        let after = self.inner.file_epoch.load(Ordering::Acquire);
        let known = before == after && before.is_multiple_of(2) && generation != UNKNOWN;
        t.generation = if known { generation } else { UNKNOWN };
        let worker = t.fork().map_err(EngineError::from)?;
        // A template that cannot tell which file it loaded serves this one worker
        // (which `sync` then restores or replaces) and no other.
        if known {
            *template = Some(t);
        }
        Ok(worker)
    }

    /// Modules whose dynamic predicates are part of the replicated state.
    pub(crate) fn set_modules(&self, modules: Vec<String>) {
        self.history().modules = modules;
    }

    /// Keeps one worker from now on, never recycled: for knowledge bases that change
    /// state Charon cannot replicate between workers.
    pub(crate) fn restrict_to_one_worker(&self) {
        self.inner.single.store(true, Ordering::Release);
        {
            let mut idle = self.inner.idle.lock().unwrap_or_else(|p| p.into_inner());
            idle.truncate(1);
        }
        // A write that fails after changing something is undone by restoring the
        // dynamic database from the base (the one worker is not replaced: it holds
        // state no other could copy). The knowledge base as loaded has no dump yet.
        if self.history().base_file().is_none() {
            let deadline = Instant::now() + self.inner.config.load_timeout;
            let folded = self.acquire(deadline).map(|mut worker| {
                let folded = self.fold(&mut worker, deadline);
                self.release(worker);
                folded
            });
            if !matches!(folded, Ok(Ok(()))) {
                tracing::warn!(target: "charon::engine", "cannot dump the state as loaded: a write that fails after changing something will restart the worker");
            }
        }
    }

    fn failed(&self, worker: Worker, failure: Failure, limit: Duration) -> EngineError {
        self.discard(worker);
        // A replica that stopped on this failure (a record that did not apply)
        // says so, not that a worker stopped.
        if let Some(stopped) = self.diverged() {
            return stopped;
        }
        match failure {
            Failure::Timeout => EngineError::TimeLimit(limit),
            Failure::Died(m) => EngineError::Crashed(m),
            Failure::OutOfMemory => EngineError::MemoryLimit(self.inner.config.limits.memory),
        }
    }
}

/// The knowledge base's text as the analysis needs it. A fact `name(…).` right
/// after a fact of the same predicate adds nothing to what the analysis finds (a
/// run of facts is one `defined` item), but reading it costs as much as loading
/// it: such facts are left out, their line breaks kept so that every line keeps
/// its number. `None` when none is left out.
pub(super) fn analysis_text(src: &str) -> Option<String> {
    let mut out = String::new();
    let mut copied = 0;
    let mut previous: Option<(String, usize)> = None;
    for clause in charon_pldoc::clauses(src) {
        let same = clause.fact && clause.predicate.is_some() && clause.predicate == previous;
        if same {
            out.push_str(&src[copied..clause.bytes.start]);
            let lines = src[clause.bytes.clone()].matches('\n').count();
            out.extend(std::iter::repeat_n('\n', lines));
            copied = clause.bytes.end;
        }
        previous = if clause.fact { clause.predicate } else { None };
    }
    (copied > 0).then(|| {
        out.push_str(&src[copied..]);
        out
    })
}

/// Read-only questions asked on a worker of its own, which goes when this is
/// dropped: what they take (the heap of a copy of every clause they read, say)
/// stays with no serving worker. See [`Engine::aside`].
pub(crate) struct Aside<'e> {
    engine: &'e Engine,
    worker: Option<Worker>,
}

impl Aside<'_> {
    /// Runs `query` (text ending in `.`, as for [`Engine::run`]) with `limit`.
    pub(crate) fn ask(&mut self, query: String, limit: Duration) -> Result<Outcome, EngineError> {
        let worker = match &mut self.worker {
            Some(worker) => worker,
            none => none.insert(self.engine.fork_worker()?),
        };
        let request = Request::Run {
            query,
            spin_us: 0,
            changes: false,
            id: 0,
        };
        match worker.request(&request, limit) {
            Ok(Response::Ran { result, .. }) => Ok(Outcome::read(result.as_deref())),
            Ok(other) => Err(EngineError::Crashed(format!("unexpected answer {other:?}"))),
            Err(f) => {
                self.worker = None;
                Err(self.engine.aside_failure(f, limit))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn runs_of_facts_are_cut_to_their_first_with_every_line_kept() {
        let src = "f(1).\nf(2).\n% c\nf(3,\n  x).\nf(4,\n  y).\ng(1).\nf(5) :- true.\nf(6).\n";
        let out = super::analysis_text(src).expect("facts left out");
        assert_eq!(
            out,
            "f(1).\n\n% c\nf(3,\n  x).\n\n\ng(1).\nf(5) :- true.\nf(6).\n"
        );
        assert_eq!(out.lines().count(), src.lines().count());
        assert_eq!(super::analysis_text("f(1).\ng(1).\n"), None);
    }
}
