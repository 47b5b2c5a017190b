//! The pool of idle workers: taking one for a call, giving it back, recycling one
//! at a time (the replacement starts before the old one leaves), and starting
//! replacements for failed workers in the background.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use super::process::{Failure, Worker};
use super::{Engine, EngineError};

/// A call at least this long may have grown its worker's memory: check it.
const SLOW_CALL: Duration = Duration::from_millis(20);

/// Counts a call in flight for as long as it lives.
pub(super) struct InFlight<'a> {
    counter: &'a AtomicUsize,
    alone: bool,
}

impl<'a> InFlight<'a> {
    pub(super) fn enter(counter: &'a AtomicUsize) -> Self {
        let before = counter.fetch_add(1, Ordering::AcqRel);
        InFlight {
            counter,
            alone: before == 0,
        }
    }

    /// Whether no other call was in flight when this one entered.
    pub(super) fn alone(&self) -> bool {
        self.alone
    }
}

impl Drop for InFlight<'_> {
    fn drop(&mut self) {
        self.counter.fetch_sub(1, Ordering::AcqRel);
    }
}

impl Engine {
    /// Takes an idle worker, waiting until `deadline` for one.
    pub(super) fn acquire(&self, deadline: Instant) -> Result<Worker, EngineError> {
        let mut idle = self.inner.idle.lock().unwrap_or_else(|p| p.into_inner());
        loop {
            if let Some(w) = idle.pop() {
                return Ok(w);
            }
            let remaining = deadline.saturating_duration_since(Instant::now());
            if remaining.is_zero() {
                let why = self
                    .inner
                    .cannot_start
                    .lock()
                    .unwrap_or_else(|p| p.into_inner());
                return Err(why
                    .clone()
                    .unwrap_or(EngineError::Waited(self.inner.config.limits.time)));
            }
            idle = self
                .inner
                .available
                .wait_timeout(idle, remaining)
                .unwrap_or_else(|p| p.into_inner())
                .0;
        }
    }

    /// An idle worker furthest behind the latest generation, if one is idle now
    /// (background work that brings it up to date leaves calls the ones that are).
    pub(super) fn try_acquire_furthest_behind(&self) -> Option<Worker> {
        let mut idle = self.inner.idle.lock().unwrap_or_else(|p| p.into_inner());
        let (i, _) = idle
            .iter()
            .enumerate()
            .filter(|(_, w)| w.generation != super::UNKNOWN)
            .min_by_key(|(_, w)| w.generation)?;
        Some(idle.remove(i))
    }

    /// Gives a worker back after a call. A worker due for recycling (after
    /// `recycle_after` calls, or when its memory grew by `recycle_memory` since it
    /// loaded) keeps serving while its replacement starts; the replacement takes its
    /// place once it has loaded and caught up. One worker is recycled at a time, so
    /// the pool never runs short because of recycling.
    pub(super) fn release(&self, worker: Worker) {
        self.release_after(worker, 1, Duration::ZERO);
    }

    /// [`release`](Self::release) after `calls` calls (a batch, or none) that took
    /// `elapsed`: memory is checked after slow calls (only they can have built much)
    /// and every 1,000 calls.
    pub(super) fn release_after(&self, mut worker: Worker, calls: u64, elapsed: Duration) {
        let before = worker.calls;
        worker.calls += calls;
        if self.take_retired(worker.pid()) {
            drop(worker);
            return;
        }
        if !self.inner.single.load(Ordering::Acquire) {
            let config = &self.inner.config;
            let mut why = None;
            if worker.calls >= config.recycle_after {
                why = Some(format!("after {} calls", worker.calls));
            } else if config.recycle_memory > 0
                && (elapsed >= SLOW_CALL || worker.calls / 1000 != before / 1000)
                && let Some(rss) = worker.rss()
                && rss > worker.loaded_rss + config.recycle_memory
            {
                why = Some(format!(
                    "its memory grew from {} MiB to {} MiB",
                    worker.loaded_rss >> 20,
                    rss >> 20
                ));
            }
            if let Some(why) = why
                && !self.inner.recycling.swap(true, Ordering::AcqRel)
            {
                tracing::info!(target: "charon::engine", worker = worker.pid(), "recycling a worker: {why}");
                self.inner.recycled.fetch_add(1, Ordering::Relaxed);
                self.start_replacement(worker.pid());
            }
        }
        self.put_back(worker);
    }

    fn put_back(&self, worker: Worker) {
        let mut idle = self.inner.idle.lock().unwrap_or_else(|p| p.into_inner());
        idle.push(worker);
        drop(idle);
        self.inner.available.notify_one();
    }

    /// Whether `pid` is a recycled worker whose replacement has joined the pool (it
    /// leaves the pool now); clears the mark.
    fn take_retired(&self, pid: u32) -> bool {
        self.inner
            .retired
            .compare_exchange(pid, 0, Ordering::AcqRel, Ordering::Acquire)
            .is_ok()
    }

    /// Lets go of a worker that must not serve again (it failed, or its state is
    /// unknown), starting its replacement unless it was being recycled anyway.
    pub(super) fn discard(&self, worker: Worker) {
        let pid = worker.pid();
        drop(worker);
        if !self.take_retired(pid) {
            self.inner.replaced.fetch_add(1, Ordering::Relaxed);
            self.replace_in_background();
        }
    }

    /// Starts the replacement of a worker due for recycling; see `release`.
    fn start_replacement(&self, old: u32) {
        let engine = self.clone();
        std::thread::spawn(move || {
            let fresh = engine.start_caught_up();
            let mut idle = engine.inner.idle.lock().unwrap_or_else(|p| p.into_inner());
            let retired = match idle.iter().position(|w| w.pid() == old) {
                Some(i) => Some(idle.swap_remove(i)),
                None => {
                    // Busy: it leaves when it comes back (`take_retired`).
                    engine.inner.retired.store(old, Ordering::Release);
                    None
                }
            };
            idle.push(fresh);
            drop(idle);
            engine.inner.available.notify_one();
            engine.inner.recycling.store(false, Ordering::Release);
            drop(retired);
        });
    }

    /// Starts a worker and brings it to the current generation, retrying with
    /// back-off until that works.
    fn start_caught_up(&self) -> Worker {
        let mut delay = Duration::from_millis(100);
        loop {
            let started = self.spawn_worker().and_then(|mut w| {
                let deadline = Instant::now() + Duration::from_secs(600);
                match self.sync(&mut w, deadline) {
                    Ok(()) => Ok(w),
                    Err(Failure::Timeout) => {
                        Err(EngineError::Spawn("catching up timed out".into()))
                    }
                    Err(Failure::Died(m)) => Err(EngineError::Spawn(m)),
                    Err(Failure::OutOfMemory) => {
                        Err(EngineError::Spawn("catching up ran out of memory".into()))
                    }
                }
            });
            let mut why = self
                .inner
                .cannot_start
                .lock()
                .unwrap_or_else(|p| p.into_inner());
            *why = match &started {
                Err(e @ EngineError::Replica(_)) => Some(e.clone()),
                _ => None,
            };
            drop(why);
            match started {
                Ok(w) => return w,
                Err(e) => {
                    tracing::error!(target: "charon::engine", "cannot restart a worker: {e}");
                    std::thread::sleep(delay);
                    delay = (delay * 2).min(Duration::from_secs(10));
                }
            }
        }
    }

    /// Starts a worker in place of one that is gone. The new worker catches up
    /// with the state before it joins the pool, so no call waits for that.
    pub(super) fn replace_in_background(&self) {
        let engine = self.clone();
        std::thread::spawn(move || {
            let w = engine.start_caught_up();
            engine.put_back(w);
        });
    }
}
