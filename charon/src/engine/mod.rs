//! The engine: a pool of worker processes, each owning one scryer-prolog `Machine`.
//!
//! # Why processes
//!
//! scryer-prolog 0.10 has no interrupt API (its interrupt flag is crate-private and
//! global), a `Machine` is neither `Send` nor `Sync`, and memory is only given back when
//! a `Machine` is dropped. A goal that never yields can therefore only be stopped by
//! stopping what runs it. Each worker is a child process (the running program itself,
//! re-executed in worker mode, see `worker`), talking JSON lines over pipes:
//!
//! * **Wall-clock limit**: the caller waits for the answer with a deadline; at the
//!   deadline the worker is killed (`SIGKILL`, no core is left spinning), the call gets
//!   [`EngineError::TimeLimit`], and a replacement is started in the background.
//! * **Inferences** are bounded inside the engine by `call_with_inference_limit/3` in
//!   the KB-side wrapper (`wrapper.pl`), which also runs every goal inside `catch/3`.
//! * **Memory** is bounded per worker with `RLIMIT_AS`; a worker that runs out, or
//!   panics (deep recursion), dies alone and is replaced.
//! * **Recycling**: after `recycle_after` calls a worker is replaced by a fresh one
//!   loaded with the current dynamic database, so memory stays flat.
//!
//! # Consistency
//!
//! Every worker holds the whole knowledge base. Calls that cannot change the database
//! run in parallel on any worker (shared side of a read-write lock). Calls that can
//! (found by a static analysis of the rules: they reach `assertz/1`, `retract/1`, … or
//! call a goal that is not known until run time) take the exclusive side: no other
//! call runs meanwhile. When such a call succeeds, its worker dumps the dynamic
//! database, the dump becomes the new *generation*, and every other worker restores it
//! before its next call. When it fails, throws or hits a limit, its worker is restored
//! to the previous generation, so a call's changes are applied whole or not at all.
//!
//! Trade-offs: a mutating call costs a dump of the dynamic database and one restore
//! per worker; process start-up (≈ 0.1 s) is paid at load, after a timeout and at
//! recycling; each call pays a pipe round trip. To keep that round trip short, both
//! ends check their pipe without sleeping for up to 50 µs before blocking (a wake-up
//! from a blocking read costs 20–30 µs on a small VM), which spends a little CPU
//! right after each message. Answers of pure read-only operations can skip the
//! engine altogether (see `KnowledgeBase::cached`).

mod protocol;
mod worker;

use std::io::{BufRead, BufReader, Read, Write};
use std::os::fd::AsRawFd;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, RwLock};
use std::time::{Duration, Instant};

use protocol::{Request, Response};

use crate::term::PlTerm;

const WRAPPER: &str = include_str!("wrapper.pl");

/// How long a caller checks for an answer before sleeping on the pipe, when it is
/// the only call in flight. Under concurrency nobody spins: the cores are better
/// spent on the other calls (measured: 29.6k point calls/s without spinning against
/// 18.5k with it, at 16 connections on 2 cores).
const SPIN: Duration = Duration::from_micros(50);

/// Limits on one call; all configurable (SPEC §4).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limits {
    /// Inferences per call (`call_with_inference_limit/3`).
    pub inferences: u64,
    /// Solutions collected for a many-solution operation.
    pub solutions: usize,
    /// Wall-clock time per call, waiting for a free worker included.
    pub time: Duration,
    /// Address space of one worker process, in bytes (`None`: unlimited).
    pub memory: Option<u64>,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            inferences: 10_000_000,
            solutions: 10_000,
            time: Duration::from_secs(10),
            memory: Some(4 << 30),
        }
    }
}

/// How the engine runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EngineConfig {
    /// Worker processes; reads run in parallel on them. Default: one per core.
    pub workers: usize,
    /// Replace a worker after this many calls (memory is only freed with its Machine).
    pub recycle_after: u64,
    /// Per-call limits.
    pub limits: Limits,
    /// Answers of pure read-only operations kept until the database changes
    /// (0 turns the cache off).
    pub answer_cache: usize,
}

impl Default for EngineConfig {
    fn default() -> Self {
        EngineConfig {
            workers: std::thread::available_parallelism().map_or(2, |n| n.get()),
            recycle_after: 50_000,
            limits: Limits::default(),
            answer_cache: 4096,
        }
    }
}

/// What went wrong in the engine itself.
#[derive(Debug, Clone, thiserror::Error)]
#[non_exhaustive]
pub enum EngineError {
    /// The call ran past the wall-clock limit; its worker was killed.
    #[error("the call ran longer than the time limit of {0:?} and was stopped")]
    TimeLimit(Duration),
    /// The worker died (memory limit, stack exhaustion, engine panic).
    #[error("the engine stopped while running the call ({0}); it has been restarted")]
    Crashed(String),
    /// A worker could not be started.
    #[error("cannot start an engine worker: {0}")]
    Spawn(String),
    /// The knowledge base did not load.
    #[error("{0}")]
    Load(String),
}

/// The answer to one `run`.
#[derive(Debug, Clone)]
pub(crate) struct RunOutcome {
    /// The binding of `R`, `None` if the query failed.
    pub result: Option<PlTerm>,
    /// What the knowledge base printed.
    pub output: String,
}

struct Worker {
    child: Child,
    stdin: ChildStdin,
    stdout: ChildStdout,
    /// Bytes read from `stdout` that are not yet a whole line.
    pending: Vec<u8>,
    calls: u64,
    generation: u64,
}

enum Failure {
    Timeout,
    Died(String),
}

impl Worker {
    fn spawn(files: &Files, limits: &Limits) -> Result<Worker, EngineError> {
        let exe = std::env::current_exe().map_err(|e| EngineError::Spawn(e.to_string()))?;
        let mut cmd = Command::new(exe);
        cmd.env(worker::WORKER_ENV, "1")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if let Some(bytes) = limits.memory {
            cmd.env(worker::MEMORY_ENV, bytes.to_string());
        }
        let mut child = cmd.spawn().map_err(|e| EngineError::Spawn(e.to_string()))?;
        let (Some(stdin), Some(stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            return Err(EngineError::Spawn("worker pipes missing".into()));
        };
        let pid = child.id();
        std::thread::Builder::new()
            .name(format!("charon-worker-{pid}-err"))
            .spawn(move || {
                for line in BufReader::new(stderr).lines() {
                    let Ok(line) = line else { break };
                    if line.contains("discontiguous") {
                        // scryer keeps only the last group of such clauses.
                        tracing::warn!(target: "charon::engine", worker = pid, "{line} (only the last group of clauses is kept: declare the predicate `:- discontiguous(Name/Arity).` to keep them all)");
                    } else {
                        tracing::warn!(target: "charon::engine", worker = pid, "{line}");
                    }
                }
            })
            .map_err(|e| EngineError::Spawn(e.to_string()))?;
        let mut worker = Worker {
            child,
            stdin,
            stdout,
            pending: Vec::new(),
            calls: 0,
            generation: 0,
        };
        let load = Request::Load {
            wrapper: files.wrapper.display().to_string(),
            kb: files.kb.display().to_string(),
        };
        match worker.request(&load, Duration::from_secs(120)) {
            Ok(Response::Loaded { ok: true, messages }) => {
                if !messages.trim().is_empty() {
                    tracing::warn!(target: "charon::engine", "{}", messages.trim());
                }
                Ok(worker)
            }
            Ok(Response::Loaded {
                ok: false,
                messages,
            }) => {
                worker.kill();
                Err(EngineError::Load(load_message(&files.kb, &messages)))
            }
            Ok(other) => {
                worker.kill();
                Err(EngineError::Spawn(format!("unexpected answer {other:?}")))
            }
            Err(Failure::Timeout) => Err(EngineError::Spawn("worker did not start".into())),
            Err(Failure::Died(m)) => Err(EngineError::Spawn(m)),
        }
    }

    fn request(&mut self, request: &Request, timeout: Duration) -> Result<Response, Failure> {
        self.request_spinning(request, timeout, Duration::ZERO)
    }

    /// Like `request`, checking for the answer without sleeping for `spin` first.
    fn request_spinning(
        &mut self,
        request: &Request,
        timeout: Duration,
        spin: Duration,
    ) -> Result<Response, Failure> {
        let mut line = serde_json::to_vec(request).map_err(|e| Failure::Died(e.to_string()))?;
        line.push(b'\n');
        if let Err(e) = self
            .stdin
            .write_all(&line)
            .and_then(|()| self.stdin.flush())
        {
            self.kill();
            return Err(Failure::Died(format!("worker pipe closed: {e}")));
        }
        match self.read_line(Instant::now() + timeout, spin) {
            Ok(line) => match serde_json::from_slice::<Response>(&line) {
                Ok(Response::Crashed { message }) => {
                    self.kill();
                    Err(Failure::Died(message))
                }
                Ok(r) => Ok(r),
                Err(e) => {
                    self.kill();
                    Err(Failure::Died(format!("bad worker answer: {e}")))
                }
            },
            Err(Failure::Timeout) => {
                self.kill();
                Err(Failure::Timeout)
            }
            Err(died) => {
                self.kill();
                Err(died)
            }
        }
    }

    /// Reads one line from the worker, waiting at most until `deadline`. The caller's
    /// thread reads the pipe itself (no reader thread: one wake-up less per call).
    fn read_line(&mut self, deadline: Instant, spin: Duration) -> Result<Vec<u8>, Failure> {
        let mut spin_until = Instant::now() + spin;
        let mut scanned = 0;
        loop {
            if let Some(pos) = self.pending[scanned..].iter().position(|&b| b == b'\n') {
                let rest = self.pending.split_off(scanned + pos + 1);
                let mut line = std::mem::replace(&mut self.pending, rest);
                line.pop();
                return Ok(line);
            }
            scanned = self.pending.len();
            let remaining = deadline.saturating_duration_since(Instant::now());
            let mut pfd = libc::pollfd {
                fd: self.stdout.as_raw_fd(),
                events: libc::POLLIN,
                revents: 0,
            };
            let ms = i32::try_from(remaining.as_millis().max(1)).unwrap_or(i32::MAX);
            // Most answers arrive within microseconds: check without sleeping for a
            // short while first, since a wake-up from poll costs tens of microseconds.
            let mut ready = 0;
            while Instant::now() < spin_until {
                // SAFETY: one valid pollfd for a descriptor this worker owns.
                ready = unsafe { libc::poll(&mut pfd, 1, 0) };
                if ready != 0 {
                    break;
                }
                std::hint::spin_loop();
            }
            spin_until = Instant::now();
            if ready == 0 {
                // SAFETY: as above.
                ready = unsafe { libc::poll(&mut pfd, 1, ms) };
            }
            if ready < 0 {
                if std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted {
                    continue;
                }
                return Err(Failure::Died("poll failed".into()));
            }
            if ready == 0 {
                if remaining.is_zero() {
                    return Err(Failure::Timeout);
                }
                continue;
            }
            let mut chunk = [0u8; 64 * 1024];
            match self.stdout.read(&mut chunk) {
                Ok(0) => {
                    let status = self.child.wait().map(|s| s.to_string()).unwrap_or_default();
                    return Err(Failure::Died(format!("worker exited ({status})")));
                }
                Ok(n) => self.pending.extend_from_slice(&chunk[..n]),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(Failure::Died(format!("worker pipe: {e}"))),
            }
        }
    }

    fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Turns scryer's consult messages into `file:line: why`.
fn load_message(kb: &Path, messages: &str) -> String {
    let file = kb.display();
    // scryer reports `error(syntax_error(What),read_term/3:Line)`.
    if let Some(start) = messages.find("syntax_error(") {
        let rest = &messages[start + "syntax_error(".len()..];
        let what = rest.split(')').next().unwrap_or("unknown");
        let line = rest
            .split(':')
            .nth(1)
            .map(|l| {
                l.chars()
                    .take_while(char::is_ascii_digit)
                    .collect::<String>()
            })
            .filter(|l| !l.is_empty());
        let what = what.replace('_', " ");
        return match line {
            Some(line) => format!("{file}:{line}: syntax error: {what}"),
            None => format!("{file}: syntax error: {what}"),
        };
    }
    // One line: the binary prints this as its one-line cause.
    let detail = messages
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("; ");
    if detail.is_empty() {
        format!("{file}: the knowledge base failed to load")
    } else {
        format!("{file}: the knowledge base failed to load: {detail}")
    }
}

/// Counts a call in flight for as long as it lives.
struct InFlight<'a> {
    counter: &'a std::sync::atomic::AtomicUsize,
    alone: bool,
}

impl<'a> InFlight<'a> {
    fn enter(counter: &'a std::sync::atomic::AtomicUsize) -> Self {
        let before = counter.fetch_add(1, Ordering::AcqRel);
        InFlight {
            counter,
            alone: before == 0,
        }
    }

    fn alone(&self) -> bool {
        self.alone
    }
}

impl Drop for InFlight<'_> {
    fn drop(&mut self) {
        self.counter.fetch_sub(1, Ordering::AcqRel);
    }
}

/// Files the workers read.
#[derive(Debug)]
struct Files {
    dir: PathBuf,
    wrapper: PathBuf,
    kb: PathBuf,
}

impl Drop for Files {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

struct Generation {
    number: u64,
    file: Option<PathBuf>,
}

struct Inner {
    config: EngineConfig,
    files: Files,
    idle: Mutex<Vec<Worker>>,
    available: Condvar,
    database: RwLock<()>,
    generation: Mutex<Generation>,
    counter: AtomicU64,
    started: AtomicU64,
    calls: AtomicU64,
    /// Mirror of `generation.number`, readable without the lock.
    published: AtomicU64,
    /// Calls between the start of `run` and its end.
    in_flight: std::sync::atomic::AtomicUsize,
}

/// Counters of an engine since it started.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct EngineStats {
    /// Worker processes started (initial ones, replacements and recycled ones).
    pub workers_started: u64,
    /// Calls answered or failed.
    pub calls: u64,
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

static POOLS: AtomicU64 = AtomicU64::new(0);

impl Engine {
    /// Starts the workers on `kb` (an absolute path). The first worker's load decides
    /// whether the knowledge base loads; the others start in parallel after it.
    pub(crate) fn start(kb: &Path, config: EngineConfig) -> Result<Engine, EngineError> {
        let dir = std::env::temp_dir().join(format!(
            "charon-{}-{}",
            std::process::id(),
            POOLS.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir_all(&dir).map_err(|e| EngineError::Spawn(e.to_string()))?;
        let wrapper = dir.join("wrapper.pl");
        std::fs::write(&wrapper, WRAPPER).map_err(|e| EngineError::Spawn(e.to_string()))?;
        let files = Files {
            dir,
            wrapper,
            kb: kb.to_path_buf(),
        };
        let first = Worker::spawn(&files, &config.limits)?;
        let rest: Vec<Result<Worker, EngineError>> = std::thread::scope(|s| {
            let handles: Vec<_> = (1..config.workers.max(1))
                .map(|_| s.spawn(|| Worker::spawn(&files, &config.limits)))
                .collect();
            handles
                .into_iter()
                .map(|h| {
                    h.join()
                        .unwrap_or_else(|_| Err(EngineError::Spawn("spawn panicked".into())))
                })
                .collect()
        });
        let mut idle = vec![first];
        for w in rest {
            idle.push(w?);
        }
        let initial = config.workers.max(1) as u64;
        Ok(Engine {
            inner: Arc::new(Inner {
                config,
                files,
                idle: Mutex::new(idle),
                available: Condvar::new(),
                database: RwLock::new(()),
                generation: Mutex::new(Generation {
                    number: 0,
                    file: None,
                }),
                counter: AtomicU64::new(0),
                started: AtomicU64::new(initial),
                calls: AtomicU64::new(0),
                published: AtomicU64::new(0),
                in_flight: std::sync::atomic::AtomicUsize::new(0),
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
            calls: self.inner.calls.load(Ordering::Relaxed),
        }
    }

    /// Process ids of the workers that are idle right now.
    pub(crate) fn idle_worker_pids(&self) -> Vec<u32> {
        let idle = self.inner.idle.lock().unwrap_or_else(|p| p.into_inner());
        idle.iter().map(|w| w.child.id()).collect()
    }

    /// The current database generation: it changes whenever a mutating call commits.
    pub(crate) fn generation(&self) -> u64 {
        self.inner.published.load(Ordering::Acquire)
    }

    /// Reads the rules of the knowledge base, for the mutation analysis.
    pub(crate) fn rules(&self) -> Result<Vec<(String, usize, PlTerm)>, EngineError> {
        let deadline = Instant::now() + Duration::from_secs(60);
        let mut worker = self.acquire(deadline)?;
        let request = Request::Rules {
            file: self.inner.files.kb.display().to_string(),
        };
        match worker.request(&request, Duration::from_secs(60)) {
            Ok(Response::Rules { rules }) => {
                self.release(worker);
                Ok(rules)
            }
            Ok(other) => {
                self.release(worker);
                Err(EngineError::Spawn(format!("unexpected answer {other:?}")))
            }
            Err(f) => Err(self.failed(f, Duration::from_secs(60))),
        }
    }

    /// Runs one query (text ending in `.`, binding `R`). `mutating` calls run alone and
    /// publish their changes to every worker; see the module docs.
    pub(crate) fn run(&self, query: String, mutating: bool) -> Result<RunOutcome, EngineError> {
        let limit = self.inner.config.limits.time;
        let deadline = Instant::now() + limit;
        self.inner.calls.fetch_add(1, Ordering::Relaxed);
        let in_flight = InFlight::enter(&self.inner.in_flight);
        let spin = if in_flight.alone() {
            SPIN
        } else {
            Duration::ZERO
        };
        let _shared;
        let _exclusive;
        if mutating {
            _exclusive = self
                .inner
                .database
                .write()
                .unwrap_or_else(|p| p.into_inner());
        } else {
            _shared = self
                .inner
                .database
                .read()
                .unwrap_or_else(|p| p.into_inner());
        }
        let mut worker = self.acquire(deadline)?;
        if let Err(f) = self.sync(&mut worker, deadline) {
            return Err(self.failed(f, limit));
        }
        let remaining = deadline.saturating_duration_since(Instant::now());
        let request = Request::Run {
            query,
            spin_us: spin.as_micros() as u64,
        };
        match worker.request_spinning(&request, remaining, spin) {
            Ok(Response::Ran { result, output }) => {
                if mutating {
                    let committed = matches!(&result, Some(PlTerm::Compound(ok, _)) if ok == "ok");
                    if committed {
                        if let Err(f) = self.publish(&mut worker, deadline) {
                            return Err(self.failed(f, limit));
                        }
                    } else {
                        // Roll back: restore the last published generation before reuse.
                        worker.generation = u64::MAX;
                    }
                }
                self.release(worker);
                Ok(RunOutcome { result, output })
            }
            Ok(other) => {
                self.release(worker);
                Err(EngineError::Crashed(format!("unexpected answer {other:?}")))
            }
            Err(f) => Err(self.failed(f, limit)),
        }
    }

    fn failed(&self, failure: Failure, limit: Duration) -> EngineError {
        self.replace_in_background();
        match failure {
            Failure::Timeout => EngineError::TimeLimit(limit),
            Failure::Died(m) => EngineError::Crashed(m),
        }
    }

    /// Dumps the worker's dynamic database as the next generation.
    fn publish(&self, worker: &mut Worker, deadline: Instant) -> Result<(), Failure> {
        let n = self.inner.counter.fetch_add(1, Ordering::Relaxed);
        let file = self.inner.files.dir.join(format!("generation-{n}.pl"));
        let remaining = deadline.saturating_duration_since(Instant::now());
        let request = Request::Dump {
            file: file.display().to_string(),
        };
        match worker.request(&request, remaining.max(Duration::from_secs(5)))? {
            Response::Done { error: None } => {}
            other => return Err(Failure::Died(format!("dump failed: {other:?}"))),
        }
        let mut generation = self
            .inner
            .generation
            .lock()
            .unwrap_or_else(|p| p.into_inner());
        if let Some(old) = generation.file.replace(file) {
            let _ = std::fs::remove_file(old);
        }
        generation.number += 1;
        self.inner
            .published
            .store(generation.number, Ordering::Release);
        worker.generation = generation.number;
        Ok(())
    }

    /// Brings a worker to the current generation.
    fn sync(&self, worker: &mut Worker, deadline: Instant) -> Result<(), Failure> {
        let (number, file) = {
            let g = self
                .inner
                .generation
                .lock()
                .unwrap_or_else(|p| p.into_inner());
            (g.number, g.file.clone())
        };
        if worker.generation == number {
            return Ok(());
        }
        let Some(file) = file else {
            // Generation 0 is the knowledge base as loaded: only a fresh worker has it.
            *worker = Worker::spawn(&self.inner.files, &self.inner.config.limits)
                .map_err(|e| Failure::Died(e.to_string()))?;
            self.inner.started.fetch_add(1, Ordering::Relaxed);
            return Ok(());
        };
        let remaining = deadline.saturating_duration_since(Instant::now());
        let request = Request::Restore {
            file: file.display().to_string(),
        };
        match worker.request(&request, remaining.max(Duration::from_secs(5)))? {
            Response::Done { error: None } => {
                worker.generation = number;
                // Restoring asserts clauses, whose memory is only freed with the Machine.
                worker.calls += 100;
                Ok(())
            }
            other => Err(Failure::Died(format!("restore failed: {other:?}"))),
        }
    }

    fn acquire(&self, deadline: Instant) -> Result<Worker, EngineError> {
        let mut idle = self.inner.idle.lock().unwrap_or_else(|p| p.into_inner());
        loop {
            if let Some(w) = idle.pop() {
                return Ok(w);
            }
            let remaining = deadline.saturating_duration_since(Instant::now());
            if remaining.is_zero() {
                return Err(EngineError::TimeLimit(self.inner.config.limits.time));
            }
            idle = self
                .inner
                .available
                .wait_timeout(idle, remaining)
                .unwrap_or_else(|p| p.into_inner())
                .0;
        }
    }

    fn release(&self, mut worker: Worker) {
        worker.calls += 1;
        if worker.calls >= self.inner.config.recycle_after {
            // Memory is only freed with the Machine: retire this worker and start a
            // fresh one (it catches up with the current generation on first use).
            drop(worker);
            self.replace_in_background();
            tracing::debug!(target: "charon::engine", "recycling a worker");
            return;
        }
        self.put_back(worker);
    }

    fn put_back(&self, worker: Worker) {
        let mut idle = self.inner.idle.lock().unwrap_or_else(|p| p.into_inner());
        idle.push(worker);
        drop(idle);
        self.inner.available.notify_one();
    }

    fn replace_in_background(&self) {
        let engine = self.clone();
        std::thread::spawn(move || {
            let mut delay = Duration::from_millis(100);
            loop {
                match Worker::spawn(&engine.inner.files, &engine.inner.config.limits) {
                    Ok(w) => {
                        engine.inner.started.fetch_add(1, Ordering::Relaxed);
                        engine.put_back(w);
                        return;
                    }
                    Err(e) => {
                        tracing::error!(target: "charon::engine", "cannot restart a worker: {e}");
                        std::thread::sleep(delay);
                        delay = (delay * 2).min(Duration::from_secs(10));
                    }
                }
            }
        });
    }
}
