//! The state calls can change, and how a committed change reaches every worker.
//!
//! Generation 0 is the knowledge base as loaded. A write that changes something
//! commits the next generation, kept as the changes it made (the *journal*) — or,
//! when Charon cannot see what a call changed, as a full dump that becomes the new
//! *base*. A worker catches up by replaying the journal entries after its
//! generation; one that is behind the base, or whose state is unknown, restores the
//! base first. The journal is folded into a new base (one dump) once it outgrows
//! twice the last dump (and at least [`FOLD_AT`] bytes), so catching up costs the
//! size of the changes, amortised, never the size of the database per write.

use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use super::Engine;
use super::outcome;
use super::process::{Failure, Worker};
use super::protocol::{Request, Response};

/// The journal is never folded below this size.
const FOLD_AT: usize = 1 << 20;

/// Replayed changes are sent in requests of about this many bytes of text.
const REPLAY_CHUNK: usize = 16 << 10;

/// A worker whose state is unknown (it must restore the base before its next call).
pub(super) const UNKNOWN: u64 = u64::MAX;

/// A dump file, removed when the last holder lets go of it.
#[derive(Debug)]
pub(super) struct Dump(PathBuf);

impl Drop for Dump {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// The committed history of the state.
#[derive(Debug, Default)]
pub(super) struct History {
    /// The latest committed generation.
    pub(super) number: u64,
    /// The generation of the base.
    base: u64,
    /// The dump of the base; `None` for the knowledge base as loaded.
    base_file: Option<Arc<Dump>>,
    base_bytes: usize,
    /// Changes of generations `base + 1 ..= number`, as text of Prolog lists.
    journal: VecDeque<(u64, Arc<str>)>,
    journal_bytes: usize,
    /// Modules whose dynamic predicates are part of the state (besides `user`).
    pub(super) modules: Vec<String>,
}

impl History {
    /// The history of a knowledge base loaded from a file of `kb_bytes` bytes: the
    /// journal is not folded before it outgrows twice that.
    pub(super) fn new(kb_bytes: usize) -> History {
        History {
            base_bytes: kb_bytes,
            ..History::default()
        }
    }
}

/// What a worker needs to reach the latest generation.
struct CatchUp {
    restore: Option<Option<Arc<Dump>>>,
    base: u64,
    entries: Vec<Arc<str>>,
    number: u64,
}

impl Engine {
    pub(super) fn history(&self) -> std::sync::MutexGuard<'_, History> {
        self.inner.history.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Commits the changes a write made on `worker` (text from `'$charon_changes'/1`).
    /// Committed is committed: a failure to fold the journal afterwards is logged, and
    /// the worker is marked for a restore.
    pub(super) fn commit_changes(&self, worker: &mut Worker, changes: &str, deadline: Instant) {
        let text: Arc<str> = changes.trim_end().trim_end_matches('.').trim_end().into();
        let fold = {
            let mut h = self.history();
            h.number += 1;
            h.journal_bytes += text.len();
            let number = h.number;
            h.journal.push_back((number, text));
            worker.generation = h.number;
            self.inner.published.store(h.number, Ordering::Release);
            h.journal_bytes > FOLD_AT.max(2 * h.base_bytes)
        };
        if fold && let Err(failure) = self.fold(worker, deadline) {
            let why = match failure {
                Failure::Died(m) => m,
                Failure::Timeout => "timed out".into(),
                Failure::OutOfMemory => "out of memory".into(),
            };
            tracing::warn!(target: "charon::engine", "folding the journal failed: {why}");
            worker.generation = UNKNOWN;
        }
    }

    /// Commits a write whose changes Charon could not see: `worker`'s whole state
    /// becomes the new base.
    pub(super) fn commit_dump(
        &self,
        worker: &mut Worker,
        deadline: Instant,
    ) -> Result<(), Failure> {
        // Only writes commit, one at a time (exclusive lock): the number is stable.
        worker.generation = self.history().number + 1;
        self.fold(worker, deadline)?;
        let mut h = self.history();
        h.number = worker.generation;
        self.inner.published.store(h.number, Ordering::Release);
        Ok(())
    }

    /// Dumps `worker` as the new base, at the worker's generation.
    pub(super) fn fold(&self, worker: &mut Worker, deadline: Instant) -> Result<(), Failure> {
        let started = Instant::now();
        let n = self.inner.counter.fetch_add(1, Ordering::Relaxed);
        let file = self.inner.files.dir.path().join(format!("state-{n}.pl"));
        let modules = self.history().modules.clone();
        let request = Request::Dump {
            file: file.display().to_string(),
            modules,
        };
        let dump = Dump(file);
        done(worker.request(&request, remaining(deadline))?, "dump")?;
        let bytes = std::fs::metadata(&dump.0).map_or(0, |m| m.len() as usize);
        let mut h = self.history();
        h.base = worker.generation;
        h.base_file = Some(Arc::new(dump));
        h.base_bytes = bytes;
        let base = h.base;
        h.journal.retain(|(g, _)| *g > base);
        h.journal_bytes = h.journal.iter().map(|(_, t)| t.len()).sum();
        tracing::debug!(target: "charon::engine", generation = h.base, bytes, elapsed_us = started.elapsed().as_micros() as u64, "state dumped as the new base");
        Ok(())
    }

    /// Brings a worker to the latest generation.
    pub(super) fn sync(&self, worker: &mut Worker, deadline: Instant) -> Result<(), Failure> {
        let Some(plan) = self.catch_up(worker.generation) else {
            return Ok(());
        };
        let started = Instant::now();
        let from = worker.generation;
        let restored = plan.restore.is_some();
        if let Some(base_file) = plan.restore {
            match base_file {
                Some(dump) => {
                    let request = Request::Restore {
                        file: dump.0.display().to_string(),
                        modules: self.history().modules.clone(),
                    };
                    done(worker.request(&request, remaining(deadline))?, "restore")?;
                    // Restoring asserts clauses, whose memory is only freed with the Machine.
                    worker.calls += 100;
                }
                None => {
                    // Generation 0 is the knowledge base as loaded: a fresh worker has it.
                    *worker = self
                        .spawn_worker()
                        .map_err(|e| Failure::Died(e.to_string()))?;
                }
            }
            worker.generation = plan.base;
        }
        // In chunks: the engine parses a long query text far more slowly than the
        // same text in pieces.
        let mut chunk = String::new();
        for (i, entry) in plan.entries.iter().enumerate() {
            chunk.push(if chunk.is_empty() { '[' } else { ',' });
            chunk.push_str(entry);
            if chunk.len() >= REPLAY_CHUNK || i + 1 == plan.entries.len() {
                chunk.push_str("] .");
                let changes = std::mem::take(&mut chunk);
                done(
                    worker.request(&Request::Replay { changes }, remaining(deadline))?,
                    "replay",
                )?;
            }
        }
        worker.calls += plan.entries.len() as u64 / 64;
        tracing::debug!(target: "charon::engine", from, to = plan.number, restored, replayed = plan.entries.len(), elapsed_us = started.elapsed().as_micros() as u64, "worker caught up");
        worker.generation = plan.number;
        Ok(())
    }

    /// What a worker at `generation` must do to reach the latest one, if anything.
    fn catch_up(&self, generation: u64) -> Option<CatchUp> {
        let h = self.history();
        if generation == h.number {
            return None;
        }
        let restore = generation < h.base || generation > h.number;
        let from = if restore { h.base } else { generation };
        Some(CatchUp {
            restore: restore.then(|| h.base_file.clone()),
            base: h.base,
            // The journal is in generation order: find the first entry to replay
            // without walking the ones before it.
            entries: h
                .journal
                .range(h.journal.partition_point(|(g, _)| *g <= from)..)
                .map(|(_, t)| t.clone())
                .collect(),
            number: h.number,
        })
    }
}

fn remaining(deadline: Instant) -> Duration {
    deadline
        .saturating_duration_since(Instant::now())
        .max(Duration::from_secs(5))
}

fn done(response: Response, what: &str) -> Result<(), Failure> {
    match response {
        Response::Done { result } => {
            outcome::done(result).map_err(|e| Failure::Died(format!("{what} failed: {e}")))
        }
        other => Err(Failure::Died(format!("{what} failed: {other:?}"))),
    }
}
