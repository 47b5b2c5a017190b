//! Work a write makes due, done beside the writes: folding the journal into the
//! file (`--persist`), and dumping the history's journal into a new base (see
//! `generation`). Both take seconds at 100,000 facts, and both run in a thread of
//! their own on an idle worker, one at a time (`Inner::beside`): with two workers,
//! the calls always keep one.
//!
//! # The journal into the file
//!
//! A write is durable once its record is in the journal; folding the journal into
//! the `.pl` (`crate::persist`, compaction) only keeps the journal short and the file
//! current. It lists the changed predicates on a worker, which takes seconds at
//! 100,000 facts, so no write waits for it: once a committed write leaves the
//! journal larger than the file, a thread of its own folds it. It takes the state of
//! one generation — a worker brought up to date, and the number of writes the
//! journal holds then — while no write can commit (the database lock shared, as a
//! read holds it), then lets writes go on while that worker lists the state. The
//! worker is the idle one furthest behind, brought close to the latest generation
//! first with no lock held (it may have to restore a large state): so the shared
//! lock is held for a few replayed changes only, and the calls keep the worker
//! that is up to date. The
//! file is replaced with the state of that generation, and the journal starts afresh
//! from it, holding the writes made since. Should the process stop between the two,
//! the `compacted` record says how many writes the new file holds (recovery rule 3).
//!
//! Folds never run two at once (`Inner::fold`). A fold that must happen now — at a
//! checkpoint, at shutdown, before a reload — holds the database lock exclusively
//! and waits for the one running.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::process::{Failure, Worker};
use super::{Engine, EngineError};

/// Where a fold starts: the journal's writes it covers, the predicates they
/// changed (`None`: any), and the module whose predicates the file holds.
pub(super) struct Point {
    pub(super) covered: usize,
    pub(super) touched: Option<Vec<crate::persist::Pi>>,
    pub(super) module: String,
}

impl Engine {
    /// After a committed write: once the journal has outgrown the file, folds it in
    /// a thread of its own (see the module docs), unless one is running. The write is
    /// durable already; a failure of the fold is logged, and it is tried again
    /// after a later write.
    pub(super) fn fold_if_due(&self) {
        let due = {
            let guard = self.inner.persist.lock().unwrap_or_else(|p| p.into_inner());
            guard.as_ref().is_some_and(|(p, _)| p.wants_compaction())
        };
        if due {
            self.beside_writes(|inner| &inner.folding, "charon-fold", |engine| {
                if let Err(e) = engine.fold_beside_writes() {
                    tracing::warn!(target: "charon::persist", "the journal was not folded into the file: {e}");
                }
            });
        }
    }

    /// After a committed change that left the history's journal larger than twice
    /// its base: dumps the state of an idle worker as the new base, in a thread of
    /// its own, unless one is running. Until it is installed, workers catch up from
    /// the old base; a failure is logged and tried again after a later write.
    pub(super) fn rebase_if_due(&self) {
        self.beside_writes(|inner| &inner.rebasing, "charon-rebase", |engine| {
            if let Err(e) = engine.rebase_beside_writes() {
                tracing::warn!(target: "charon::engine", "the history was not folded into a new base: {e}");
            }
        });
    }

    /// Runs `job` in a thread named `name`, unless the one `flag` marks is running.
    pub(super) fn beside_writes(
        &self,
        flag: fn(&super::Inner) -> &AtomicBool,
        name: &str,
        job: fn(&Engine),
    ) {
        if flag(&self.inner).swap(true, Ordering::AcqRel) {
            return;
        }
        let engine = self.clone();
        let spawned = std::thread::Builder::new()
            .name(name.into())
            .spawn(move || {
                {
                    // Waited for before any lock of the database is taken.
                    let _one = engine
                        .inner
                        .beside
                        .lock()
                        .unwrap_or_else(|p| p.into_inner());
                    job(&engine);
                }
                flag(&engine.inner).store(false, Ordering::Release);
            });
        if let Err(e) = spawned {
            flag(&self.inner).store(false, Ordering::Release);
            tracing::warn!(target: "charon::engine", "cannot start the thread {name}: {e}");
        }
    }

    /// Dumps a worker brought up to date (with no lock held: the journal only
    /// grows) as the base at its generation. Any generation after the current base
    /// will do: the writes committed meanwhile stay in the journal after it.
    fn rebase_beside_writes(&self) -> Result<(), EngineError> {
        let (generation, dump) =
            self.on_an_idle_worker(|engine, worker, deadline| engine.dump(worker, deadline))?;
        let mut h = self.history();
        // A write whose changes Charon could not see made a later base meanwhile.
        if generation > h.base() {
            h.install(dump, generation);
            self.inner.rebases.fetch_add(1, Ordering::Relaxed);
            tracing::debug!(target: "charon::engine", generation, "history folded into a new base");
        }
        Ok(())
    }

    /// Runs `job` beside the calls on the idle worker furthest behind (or the next
    /// one free), brought up to date with no lock held first; returns the
    /// generation it ran at with its result. Every generation is a committed one.
    pub(super) fn on_an_idle_worker<T>(
        &self,
        job: impl FnOnce(&Engine, &mut Worker, Instant) -> Result<T, Failure>,
    ) -> Result<(u64, T), EngineError> {
        let limit = self.inner.config.load_timeout.max(Duration::from_secs(120));
        let deadline = Instant::now() + limit;
        let mut worker = match self.try_acquire_furthest_behind() {
            Some(worker) => worker,
            None => self.acquire(deadline)?,
        };
        if let Err(f) = self.sync(&mut worker, deadline) {
            return Err(self.failed(worker, f, limit));
        }
        let generation = worker.generation;
        match job(self, &mut worker, deadline) {
            Ok(done) => {
                self.release(worker);
                Ok((generation, done))
            }
            Err(f) => Err(self.failed(worker, f, limit)),
        }
    }

    fn fold_beside_writes(&self) -> Result<(), EngineError> {
        let limit = self.inner.config.load_timeout.max(Duration::from_secs(120));
        let deadline = Instant::now() + limit;
        let mut attempts = 0;
        let (mut worker, point, folding) = loop {
            attempts += 1;
            self.warm_the_furthest_behind(deadline, limit);
            // No write commits while the worker is brought up to date and the
            // journal's writes are counted.
            let Some(_shared) = self.inner.database.try_read_until(deadline) else {
                return Err(EngineError::Waited(limit));
            };
            let folding = self.inner.fold.lock().unwrap_or_else(|p| p.into_inner());
            let Some(point) = self.fold_point() else {
                return Ok(());
            };
            // The one just warmed: the calls keep the one they use.
            let mut worker = match self.try_acquire_furthest_behind() {
                Some(worker) => worker,
                None => self.acquire(deadline)?,
            };
            if attempts < 5 && self.far_behind(worker.generation) {
                // The writes went on far while it was warmed (or the state was
                // dumped into a new base): catching up here would hold them up, so
                // it is warmed again with no lock held.
                self.release(worker);
                continue;
            }
            if let Err(f) = self.sync(&mut worker, deadline) {
                return Err(self.failed(worker, f, limit));
            }
            break (worker, point, folding);
        };
        let result = self.compact(&mut worker, point, deadline);
        self.release(worker);
        drop(folding);
        result
    }

    /// Brings the idle worker furthest behind up to date, with no lock held (it
    /// takes seconds when it must restore a large state), and gives it back.
    fn warm_the_furthest_behind(&self, deadline: Instant, limit: Duration) {
        let Some(mut behind) = self.try_acquire_furthest_behind() else {
            return;
        };
        match self.sync(&mut behind, deadline) {
            Ok(()) => self.release(behind),
            Err(f) => {
                let e = self.failed(behind, f, limit);
                tracing::debug!(target: "charon::persist", "a worker could not catch up before a fold: {e}");
            }
        }
    }
}
