//! Database generations: how a committed change reaches every worker.
//!
//! A mutating call that succeeds makes its worker dump the dynamic database; the dump
//! is the next generation, and every other worker restores it before its next call.

use std::path::PathBuf;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use super::Engine;
use super::outcome;
use super::process::{Failure, Worker};
use super::protocol::{Request, Response};

/// The latest committed state of the dynamic database.
pub(super) struct Generation {
    pub(super) number: u64,
    /// The dump of that state; `None` for generation 0, the knowledge base as loaded.
    pub(super) file: Option<PathBuf>,
}

impl Engine {
    /// Dumps the worker's dynamic database as the next generation.
    pub(super) fn publish(&self, worker: &mut Worker, deadline: Instant) -> Result<(), Failure> {
        let n = self.inner.counter.fetch_add(1, Ordering::Relaxed);
        let file = self
            .inner
            .files
            .dir
            .path()
            .join(format!("generation-{n}.pl"));
        let remaining = deadline.saturating_duration_since(Instant::now());
        let request = Request::Dump {
            file: file.display().to_string(),
        };
        match worker.request(&request, remaining.max(Duration::from_secs(5)))? {
            Response::Done { result } => {
                outcome::done(result).map_err(|e| Failure::Died(format!("dump failed: {e}")))?
            }
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
    pub(super) fn sync(&self, worker: &mut Worker, deadline: Instant) -> Result<(), Failure> {
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
            Response::Done { result } => {
                outcome::done(result).map_err(|e| Failure::Died(format!("restore failed: {e}")))?;
                worker.generation = number;
                // Restoring asserts clauses, whose memory is only freed with the Machine.
                worker.calls += 100;
                Ok(())
            }
            other => Err(Failure::Died(format!("restore failed: {other:?}"))),
        }
    }
}
