//! Reads from async callers, run in batches.
//!
//! A call that goes through [`Engine::run`] costs at least four thread wake-ups: a
//! thread to run it on, the worker reading the request, that thread reading the
//! answer, and the caller's task. On a small machine a wake-up costs more than a
//! point query itself. Reads submitted with [`Engine::submit_read`] skip most of
//! them: they wait in one queue, and one driver thread per worker takes a share of
//! the queue, writes the requests to its worker in a single write, and reads the
//! answers as they come. Under load a wake-up then serves a whole batch.
//!
//! The rules are those of `run`: a batch runs under the shared side of the database
//! lock, on a worker brought up to date first, and each call keeps its own deadline.
//! The worker answers in order, so the call whose answer is late is the one
//! running: it gets the time limit (or the crash) and the worker is replaced; the
//! calls after it never started and go back to the front of the queue.

use std::collections::VecDeque;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Condvar, Mutex, MutexGuard, Weak};
use std::time::{Duration, Instant};

use super::outcome::Outcome;
use super::protocol::{Request, Response};
use super::{Engine, EngineError, Inner, RunOutcome, SPIN};

/// What a submitted read is answered with.
pub(crate) type Reply = Box<dyn FnOnce(Result<RunOutcome, EngineError>) + Send>;

/// At most this many calls go to a worker in one batch, so that one batch never
/// holds up the calls behind it for long.
const MAX_BATCH: usize = 64;

/// How long a driver waits for one answer of a batch before it gives the calls
/// behind it to other workers: a slow call holds up no more than this.
const PATIENCE: Duration = Duration::from_millis(2);

/// At most this many bytes of requests go to a worker in one batch: the smallest
/// pipe Linux makes (one page, once a user's pipe quota is spent) holds them, so
/// writing a batch never waits for a worker that is busy with its first call. A
/// larger call goes alone: the worker is idle then, and reads it whole.
const MAX_BATCH_BYTES: usize = 4096;

/// Appends a request as one JSON line.
fn push_line(lines: &mut Vec<u8>, request: &Request) {
    // Serialising a request of strings and numbers cannot fail.
    let _ = serde_json::to_writer(&mut *lines, request);
    lines.push(b'\n');
}

/// One read waiting for a worker.
struct Job {
    query: String,
    deadline: Instant,
    reply: Reply,
}

/// The queue of reads and the drivers that serve it. It lives apart from the engine
/// so that drivers can wait on it without keeping the engine alive.
#[derive(Default)]
pub(super) struct Batcher {
    queue: Mutex<Queue>,
    ready: Condvar,
    started: std::sync::OnceLock<()>,
}

#[derive(Default)]
struct Queue {
    jobs: VecDeque<Job>,
    /// Drivers asleep on `ready` (nobody to wake: no system call).
    sleeping: usize,
    /// The engine is gone: drivers stop.
    closed: bool,
}

impl Batcher {
    fn lock(&self) -> MutexGuard<'_, Queue> {
        self.queue.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Stops the drivers; calls still queued are answered as crashed.
    pub(super) fn close(&self) {
        let jobs = {
            let mut queue = self.lock();
            queue.closed = true;
            std::mem::take(&mut queue.jobs)
        };
        self.ready.notify_all();
        for job in jobs {
            (job.reply)(Err(EngineError::Crashed("the engine stopped".into())));
        }
    }

    /// Puts calls back at the front of the queue, in their order.
    fn requeue(&self, jobs: impl DoubleEndedIterator<Item = Job>) {
        let mut queue = self.lock();
        let before = queue.jobs.len();
        for job in jobs.rev() {
            queue.jobs.push_front(job);
        }
        let wake = queue.sleeping > 0 && queue.jobs.len() > before;
        drop(queue);
        if wake {
            self.ready.notify_one();
        }
    }

    /// Answers the calls whose deadline has passed.
    fn expire(&self, limit: Duration) {
        let now = Instant::now();
        let expired: Vec<Job> = {
            let mut queue = self.lock();
            if !queue.jobs.iter().any(|job| job.deadline <= now) {
                return;
            }
            let (late, keep): (Vec<Job>, Vec<Job>) = std::mem::take(&mut queue.jobs)
                .into_iter()
                .partition(|job| job.deadline <= now);
            queue.jobs = keep.into();
            late
        };
        for job in expired {
            (job.reply)(Err(EngineError::Waited(limit)));
        }
    }
}

impl Engine {
    /// Runs a read-only query (text ending in `.`; the wrapper writes its answer) by
    /// `deadline`, in a batch with other reads; `reply` gets the outcome on a driver
    /// thread. For operations the analysis proved read-only
    /// ([`Access::Read`](super::Access)).
    pub(crate) fn submit_read(&self, query: String, deadline: Instant, reply: Reply) {
        let batcher = &self.inner.batcher;
        batcher.started.get_or_init(|| self.start_drivers());
        let mut queue = batcher.lock();
        if queue.closed {
            drop(queue);
            reply(Err(EngineError::Crashed("the engine stopped".into())));
            return;
        }
        self.inner.calls.fetch_add(1, Ordering::Relaxed);
        self.inner.in_flight.fetch_add(1, Ordering::AcqRel);
        let engine = Arc::downgrade(&self.inner);
        let counted: Reply = Box::new(move |result| {
            if let Some(inner) = engine.upgrade() {
                inner.in_flight.fetch_sub(1, Ordering::AcqRel);
            }
            reply(result);
        });
        queue.jobs.push_back(Job {
            query,
            deadline,
            reply: counted,
        });
        let wake = queue.sleeping > 0;
        drop(queue);
        if wake {
            batcher.ready.notify_one();
        }
    }

    fn start_drivers(&self) {
        for n in 0..self.inner.config.workers.max(1) {
            let engine = Arc::downgrade(&self.inner);
            let batcher = Arc::clone(&self.inner.batcher);
            let spawned = std::thread::Builder::new()
                .name(format!("charon-batch-{n}"))
                .spawn(move || drive(&engine, &batcher));
            if let Err(e) = spawned {
                tracing::error!(target: "charon::engine", "cannot start a batch driver: {e}");
            }
        }
    }

    /// Takes a worker and runs one batch from the queue on it.
    fn serve_batch(&self) {
        let batcher = &self.inner.batcher;
        let limit = self.inner.config.limits.time;
        let Some(first) = batcher.lock().jobs.front().map(|job| job.deadline) else {
            return;
        };
        let Some(_shared) = self.inner.database.try_read_until(first) else {
            batcher.expire(limit);
            return;
        };
        let Ok(mut worker) = self.acquire(first) else {
            batcher.expire(limit);
            return;
        };
        if let Err(f) = self.sync(&mut worker, first) {
            // The worker could not catch up: that is its failure, not the calls'.
            let _ = self.failed(worker, f, limit);
            batcher.expire(limit);
            return;
        }
        let mut jobs = self.take_share();
        if jobs.is_empty() {
            self.release_after(worker, 0, Duration::ZERO);
            return;
        }
        let alone = jobs.len() == 1 && self.inner.in_flight.load(Ordering::Acquire) == 1;
        let spin = if alone { SPIN } else { Duration::ZERO };
        let first_id = self
            .inner
            .request_ids
            .fetch_add(jobs.len() as u64, Ordering::Relaxed);
        let (lines, taken) = batch_lines(&jobs, first_id, spin);
        batcher.requeue(jobs.split_off(taken).into_iter());
        let calls = jobs.len() as u64;
        let started = Instant::now();
        if worker.send(&lines).is_err() {
            // Nothing ran: the calls wait for another worker.
            self.discard(worker);
            batcher.requeue(jobs.into_iter());
            return;
        }
        let mut pending: VecDeque<(u64, Job)> = (first_id..).zip(jobs).collect();
        // Deadlines of the calls given to other workers, whose answers (`Skipped`,
        // or a duplicate when the worker had started one) are still to come.
        let mut given_away = Vec::new();
        while let Some((_, job)) = pending.pop_front() {
            let mut response = None;
            if let Some(&(next, _)) = pending.front() {
                let patience = (Instant::now() + PATIENCE).min(job.deadline);
                match worker.try_receive(patience, spin) {
                    Ok(Some(r)) => response = Some(Ok(r)),
                    Ok(None) => {
                        // A slow call: the calls behind it go to other workers.
                        let mut cancel = Vec::new();
                        push_line(&mut cancel, &Request::Cancel { from: next });
                        let tail: Vec<Job> = pending.drain(..).map(|(_, job)| job).collect();
                        given_away.extend(tail.iter().map(|job| job.deadline));
                        batcher.requeue(tail.into_iter());
                        if let Err(f) = worker.send(&cancel) {
                            response = Some(Err(f));
                        }
                    }
                    Err(f) => response = Some(Err(f)),
                }
            }
            let response = match response {
                Some(response) => response,
                None => worker.receive(job.deadline, spin),
            };
            match response {
                Ok(Response::Ran { result, output, .. }) => (job.reply)(Ok(RunOutcome {
                    outcome: Outcome::read(result.as_deref()),
                    output,
                })),
                Ok(other) => {
                    worker.kill();
                    self.discard(worker);
                    (job.reply)(Err(EngineError::Crashed(format!(
                        "unexpected answer {other:?}"
                    ))));
                    batcher.requeue(pending.into_iter().map(|(_, job)| job));
                    return;
                }
                Err(f) => {
                    (job.reply)(Err(self.failed(worker, f, limit)));
                    batcher.requeue(pending.into_iter().map(|(_, job)| job));
                    return;
                }
            }
        }
        for deadline in given_away {
            match worker.receive(deadline, Duration::ZERO) {
                Ok(Response::Skipped {} | Response::Ran { .. }) => {}
                Ok(_) => {
                    worker.kill();
                    self.discard(worker);
                    return;
                }
                Err(f) => {
                    let _ = self.failed(worker, f, limit);
                    return;
                }
            }
        }
        self.release_after(worker, calls, started.elapsed());
    }

    /// This driver's share of the queue: the calls whose deadline passed are
    /// answered, then up to an even share among the workers is taken (so that every
    /// worker gets some while others are busy), at most `MAX_BATCH` calls (and
    /// `serve_batch` sends at most `MAX_BATCH_BYTES` of them).
    fn take_share(&self) -> Vec<Job> {
        let batcher = &self.inner.batcher;
        batcher.expire(self.inner.config.limits.time);
        let mut queue = batcher.lock();
        let workers = self.inner.config.workers.max(1);
        let share = queue.jobs.len().div_ceil(workers).clamp(1, MAX_BATCH);
        let n = share.min(queue.jobs.len());
        queue.jobs.drain(..n).collect()
    }
}

/// A driver: waits for reads and serves them while the engine lives.
fn drive(engine: &Weak<Inner>, batcher: &Batcher) {
    loop {
        {
            let mut queue = batcher.lock();
            while queue.jobs.is_empty() && !queue.closed {
                queue.sleeping += 1;
                queue = batcher.ready.wait(queue).unwrap_or_else(|p| p.into_inner());
                queue.sleeping -= 1;
            }
            if queue.closed {
                return;
            }
        }
        let Some(inner) = engine.upgrade() else {
            return;
        };
        Engine { inner }.serve_batch();
    }
}

/// The requests of `jobs` as lines, numbered from `first_id`: as many as fit in
/// [`MAX_BATCH_BYTES`] (one at least), and how many that is.
fn batch_lines(jobs: &[Job], first_id: u64, spin: Duration) -> (Vec<u8>, usize) {
    let mut lines = Vec::new();
    let mut taken = 0;
    for (id, job) in (first_id..).zip(jobs) {
        let request = Request::Run {
            query: job.query.clone(),
            spin_us: spin.as_micros() as u64,
            changes: false,
            id,
        };
        let before = lines.len();
        push_line(&mut lines, &request);
        if taken > 0 && lines.len() > MAX_BATCH_BYTES {
            lines.truncate(before);
            break;
        }
        taken += 1;
    }
    (lines, taken)
}
