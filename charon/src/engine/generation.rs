//! The state calls can change, and how a committed change reaches every worker.
//!
//! Generation 0 is the knowledge base as loaded. A write that changes something
//! commits the next generation, kept as the changes it made (the *journal*) — or,
//! when Charon cannot see what a call changed, as a full dump that becomes the new
//! *base*. A worker catches up by replaying the journal entries after its
//! generation; one that is behind the base, or whose state is unknown, restores the
//! base first. The journal is folded into a new base (one dump) once it outgrows
//! twice the last dump (and at least [`FOLD_AT`] bytes), so catching up costs the
//! size of the changes, amortised, never the size of the database per write. The
//! dump takes seconds at 100,000 facts: it is made beside the writes, on an idle
//! worker, never by the write that made it due (see `fold`).

use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use super::Engine;
use super::outcome;
use super::process::{Failure, Worker};
use super::protocol::{Request, Response};
use crate::cache::{Change, Dependency};
use crate::change::{Changed, changed_by};

/// The journal is never folded below this size.
const FOLD_AT: usize = 1 << 20;

/// Replayed changes are sent in requests of about this many bytes of text.
const REPLAY_CHUNK: usize = 16 << 10;

/// A worker whose state is unknown (it must restore the base before its next call).
pub(super) const UNKNOWN: u64 = u64::MAX;

/// A dump file, removed when the last holder lets go of it.
#[derive(Debug)]
pub(super) struct Dump(pub(super) PathBuf);

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

impl History {
    /// The dump of the base, if the base is not the knowledge base as loaded.
    pub(super) fn base_file(&self) -> Option<&Arc<Dump>> {
        self.base_file.as_ref()
    }

    /// Appends the changes of the next generation; returns its number.
    pub(super) fn push(&mut self, text: Arc<str>) -> u64 {
        self.number += 1;
        self.journal_bytes += text.len();
        let number = self.number;
        self.journal.push_back((number, text));
        number
    }

    /// Appends changes as generation `number`, which may skip generations (a
    /// replica's snapshot of the log, which comes in parts: every part has the
    /// same number) but never goes back.
    pub(super) fn push_at(&mut self, text: Arc<str>, number: u64) {
        debug_assert!(number >= self.number);
        self.number = self.number.max(number);
        self.journal_bytes += text.len();
        self.journal.push_back((number, text));
    }

    /// Whether the journal has outgrown twice the base (and [`FOLD_AT`]): a new
    /// base is due.
    pub(super) fn rebase_due(&self) -> bool {
        self.journal_bytes > FOLD_AT.max(2 * self.base_bytes)
    }

    /// The generation of the base.
    pub(super) fn base(&self) -> u64 {
        self.base
    }

    /// Makes `dump` the base, at `generation`: the journal before it is dropped.
    pub(super) fn install(&mut self, dump: Dump, generation: u64) {
        let bytes = std::fs::metadata(&dump.0).map_or(0, |m| m.len() as usize);
        self.base = generation;
        self.number = self.number.max(generation);
        self.base_file = Some(Arc::new(dump));
        self.base_bytes = bytes;
        self.journal.retain(|(g, _)| *g > generation);
        self.journal_bytes = self.journal.iter().map(|(_, t)| t.len()).sum();
    }
}

/// The text of a write's recorded changes as history and journal keep it: a Prolog
/// list, without the final `.` the worker's text ends with.
pub(super) fn changes_text(changes: &str) -> Arc<str> {
    changes.trim_end().trim_end_matches('.').trim_end().into()
}

/// What the answer cache must forget after a change list: `None` for anything.
fn changed(text: &str) -> Option<Vec<Change>> {
    let mut changes: Vec<Change> = changed_by(text)?
        .into_iter()
        .map(|c| match c {
            Changed::Clauses {
                name,
                arity,
                keys,
                removal,
                ..
            } => Change {
                dep: Dependency::Predicate(name, arity),
                keys,
                removal,
            },
            Changed::Blackboard => Change {
                dep: Dependency::Blackboard,
                keys: Vec::new(),
                removal: false,
            },
        })
        .collect();
    changes.dedup();
    Some(changes)
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

    /// Commits the changes a write made on `worker` (text from `'$charon_changes'/1`,
    /// without its final `.`, see [`changes_text`]). A journal that outgrew its
    /// base is dumped into a new one beside the writes (`fold`), never by the write.
    pub(super) fn commit_changes(&self, worker: &mut Worker, text: Arc<str>) {
        worker.generation = self.commit_text(text);
    }

    /// Commits a change list as the next generation, which it returns; workers
    /// catch up with it at their next call.
    pub(super) fn commit_text(&self, text: Arc<str>) -> u64 {
        // Read before the history lock: its cost is the size of the change.
        let changed = self.inner.freshness.get().map(|_| changed(&text));
        let (number, due) = {
            let mut h = self.history();
            let number = h.push(text);
            self.mark_changed(changed.as_ref().and_then(Option::as_deref), number);
            self.inner.published.store(number, Ordering::Release);
            (number, h.rebase_due())
        };
        if due {
            self.rebase_if_due();
        }
        number
    }

    /// Commits the parts of a snapshot of the replicated log (change lists that
    /// recreate the whole state on the knowledge base as loaded) as generation
    /// `number`: a worker behind it replays every part.
    pub(super) fn commit_snapshot(&self, parts: Vec<Arc<str>>, number: u64) {
        let mut h = self.history();
        for part in parts {
            h.push_at(part, number);
        }
        self.mark_changed(None, number);
        self.inner.published.store(number, Ordering::Release);
        let due = h.rebase_due();
        drop(h);
        if due {
            self.rebase_if_due();
        }
    }

    /// Commits a write whose changes Charon could not see: `dump` (of the worker that
    /// ran it, see [`Engine::dump`]) becomes the new base.
    pub(super) fn commit_dump(&self, worker: &mut Worker, dump: Dump) {
        let mut h = self.history();
        let number = h.number + 1;
        h.install(dump, number);
        worker.generation = number;
        self.mark_changed(None, number);
        self.inner.published.store(number, Ordering::Release);
    }

    /// Dumps `worker` as the new base, at the worker's generation.
    pub(super) fn fold(&self, worker: &mut Worker, deadline: Instant) -> Result<(), Failure> {
        let dump = self.dump(worker, deadline)?;
        self.history().install(dump, worker.generation);
        Ok(())
    }

    /// Writes `worker`'s whole state to a new dump file.
    pub(super) fn dump(&self, worker: &mut Worker, deadline: Instant) -> Result<Dump, Failure> {
        let started = Instant::now();
        let dump = self.new_dump();
        let request = Request::Dump {
            file: dump.0.display().to_string(),
            modules: self.history().modules.clone(),
        };
        done(worker.request(&request, remaining(deadline))?, "dump")?;
        tracing::debug!(target: "charon::engine", elapsed_us = started.elapsed().as_micros() as u64, "state dumped");
        Ok(dump)
    }

    /// `worker`'s whole state as change lists that recreate it on the knowledge
    /// base as loaded (see `'$charon_snapshot'/3`), each a Prolog list without
    /// its final `.`.
    pub(super) fn snapshot(
        &self,
        worker: &mut Worker,
        deadline: Instant,
    ) -> Result<Vec<String>, Failure> {
        let dump = self.new_dump();
        let request = Request::Snapshot {
            file: dump.0.display().to_string(),
            modules: self.history().modules.clone(),
        };
        done(worker.request(&request, remaining(deadline))?, "snapshot")?;
        let text = std::fs::read_to_string(&dump.0)
            .map_err(|e| Failure::Died(format!("cannot read the snapshot: {e}")))?;
        // One list per line: the writer escapes every line break inside a term.
        Ok(text
            .lines()
            .filter(|line| !line.trim().is_empty())
            .map(|line| changes_text(line).to_string())
            .collect())
    }

    /// A fresh dump file name in the engine's private directory (nothing written).
    pub(super) fn new_dump(&self) -> Dump {
        let n = self.inner.counter.fetch_add(1, Ordering::Relaxed);
        Dump(self.inner.files.dir.path().join(format!("state-{n}.pl")))
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
                    // The base is the knowledge base as loaded: a fresh worker loads the
                    // file, at the file's generation (which `persist` moves on when it
                    // folds the journal into the file), and catches up from there. It
                    // cannot tell which file it read if the file was replaced meanwhile:
                    // then it is started again.
                    for _ in 0..3 {
                        *worker = self
                            .spawn_worker()
                            .map_err(|e| Failure::Died(e.to_string()))?;
                        if worker.generation != UNKNOWN {
                            return self.sync(worker, deadline);
                        }
                    }
                    return Err(Failure::Died(
                        "the knowledge base's file kept changing while workers loaded it".into(),
                    ));
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
                let replayed = done(
                    worker.request(&Request::Replay { changes }, remaining(deadline))?,
                    "replay",
                );
                if let Err(Failure::Died(why)) = &replayed
                    && self.replicated()
                {
                    // A record the replica that wrote it applied does not apply here.
                    self.diverge(format!("a record of the log did not apply: {why}"));
                }
                replayed?;
            }
        }
        worker.calls += plan.entries.len() as u64 / 64;
        tracing::debug!(target: "charon::engine", from, to = plan.number, restored, replayed = plan.entries.len(), elapsed_us = started.elapsed().as_micros() as u64, "worker caught up");
        worker.generation = plan.number;
        Ok(())
    }

    /// Whether a worker at `generation` is far behind the latest one: it must
    /// restore a whole state, or replay more than a few dozen changes.
    pub(super) fn far_behind(&self, generation: u64) -> bool {
        self.catch_up(generation)
            .is_some_and(|plan| plan.restore.is_some() || plan.entries.len() > 32)
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
