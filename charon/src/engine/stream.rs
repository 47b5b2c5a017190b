//! Streaming calls: the solutions of a read as they are found (`Request::Stream`).
//!
//! A stream takes a worker like any read: admitted, its deadline set, the worker
//! caught up with the committed database under the shared lock. Unlike a read it
//! lets go of the lock once the worker is caught up: the worker holds its own copy
//! of the database, so the stream reads one state from start to end (as of when it
//! started), while writes commit meanwhile on the others. A stream of a million
//! solutions therefore never holds writes back.
//!
//! Batches of solutions come back as the worker finds them (see `worker::Streaming`)
//! and go to the consumer one at a time; the pipe's buffer is the only queue, so a
//! consumer that reads slowly slows the search, and memory stays flat on both
//! sides. A consumer that stops early, and a stream that reaches its deadline, end
//! with the worker killed and replaced in the background.

use std::ops::ControlFlow;
use std::sync::atomic::Ordering;
use std::time::Instant;

use super::pool::InFlight;
use super::protocol::{Request, Response};
use super::{Engine, EngineError, Outcome, RunOutcome};

impl Engine {
    /// Runs a streaming query (`'$charon_all'/5` with `stream(Max, key)`), giving
    /// each batch of solutions (the texts of `ok(T)`) to `on_batch` as it comes.
    /// `Ok(None)`: `on_batch` stopped the stream.
    pub(crate) fn stream(
        &self,
        query: String,
        key: u64,
        deadline: Instant,
        on_batch: &mut dyn FnMut(Vec<String>) -> ControlFlow<()>,
    ) -> Result<Option<RunOutcome>, EngineError> {
        let limit = self.inner.config.limits.time;
        self.inner.calls.fetch_add(1, Ordering::Relaxed);
        let _in_flight = InFlight::enter(&self.inner.in_flight);
        let mut worker = {
            let Some(_shared) = self.inner.database.try_read_until(deadline) else {
                return Err(EngineError::Waited(limit));
            };
            let mut worker = self.acquire(deadline)?;
            if let Err(f) = self.sync(&mut worker, deadline) {
                return Err(self.failed(worker, f, limit));
            }
            worker
        };
        let started = Instant::now();
        let request = Request::Stream { query, key };
        let mut line = serde_json::to_vec(&request).map_err(|e| {
            EngineError::Protocol(format!("the stream request could not be written: {e}"))
        })?;
        line.push(b'\n');
        if let Err(f) = worker.send(&line) {
            return Err(self.failed(worker, f, limit));
        }
        loop {
            match worker.receive(deadline, std::time::Duration::ZERO) {
                Ok(Response::Solutions { items }) => {
                    // A consumer that panics must not take the worker with it
                    // unreplaced.
                    let flow =
                        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| on_batch(items)));
                    match flow {
                        Ok(ControlFlow::Continue(())) => {}
                        Ok(ControlFlow::Break(())) => {
                            self.discard(worker);
                            return Ok(None);
                        }
                        Err(panic) => {
                            self.discard(worker);
                            std::panic::resume_unwind(panic);
                        }
                    }
                }
                Ok(Response::Ran { result, output, .. }) => {
                    self.release_after(worker, 1, started.elapsed());
                    let outcome = Outcome::read(result.as_deref());
                    return Ok(Some(RunOutcome { outcome, output }));
                }
                Ok(other) => {
                    self.discard(worker);
                    return Err(EngineError::Crashed(format!("unexpected answer {other:?}")));
                }
                Err(f) => return Err(self.failed(worker, f, limit)),
            }
        }
    }
}
