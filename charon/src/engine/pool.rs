//! The pool of idle workers: taking one for a call, giving it back, retiring it
//! after `recycle_after` calls, and starting replacements in the background.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use super::process::{Failure, Worker};
use super::{Engine, EngineError};

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

    /// Gives a worker back after a call, or retires it when it is due for recycling.
    pub(super) fn release(&self, mut worker: Worker) {
        worker.calls += 1;
        if worker.calls >= self.inner.config.recycle_after
            && !self.inner.single.load(Ordering::Acquire)
        {
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

    /// Starts a worker in place of one that is gone, retrying with back-off. The new
    /// worker catches up with the state before it joins the pool, so no call waits
    /// for that.
    pub(super) fn replace_in_background(&self) {
        let engine = self.clone();
        std::thread::spawn(move || {
            let mut delay = Duration::from_millis(100);
            loop {
                let started = engine.spawn_worker().and_then(|mut w| {
                    let deadline = Instant::now() + Duration::from_secs(600);
                    match engine.sync(&mut w, deadline) {
                        Ok(()) => Ok(w),
                        Err(Failure::Timeout) => {
                            Err(EngineError::Spawn("catching up timed out".into()))
                        }
                        Err(Failure::Died(m)) => Err(EngineError::Spawn(m)),
                    }
                });
                match started {
                    Ok(w) => {
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
