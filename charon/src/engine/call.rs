//! One call through the engine: the replica log's transaction (a replicated
//! write), the database lock, a worker in step with the state, the query run,
//! and a write settled — its changes recorded, replicated and committed to every
//! worker, or taken back.

use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use super::generation::{self, UNKNOWN};
use super::pool::InFlight;
use super::process::{Failure, Worker};
use super::protocol::{Request, Response};
use super::{Access, Engine, EngineError, Outcome, Replication, RunOutcome, SPIN};
use crate::persist::Entry;
use crate::replica::CommitError;

/// Whether the text of recorded changes is the empty list.
fn no_changes(text: &str) -> bool {
    text.trim_end().trim_end_matches('.').trim() == "[]"
}

/// What a write did, as its worker answered.
struct Made {
    replication: Replication,
    /// Whether it succeeded (its changes are kept only then).
    solved: bool,
    /// The changes it recorded, if any.
    changes: Option<String>,
}

impl Engine {
    /// Runs one query (text ending in `.`; the wrapper writes its answer) that must
    /// answer by `deadline`: waiting for the database lock and for a worker counts.
    /// Writes run alone and commit their changes for every worker; see the module
    /// docs.
    pub(crate) fn run(
        &self,
        query: String,
        access: Access,
        deadline: Instant,
    ) -> Result<RunOutcome, EngineError> {
        let limit = self.inner.config.limits.time;
        self.inner.calls.fetch_add(1, Ordering::Relaxed);
        let in_flight = InFlight::enter(&self.inner.in_flight);
        let spin = if in_flight.alone() {
            SPIN
        } else {
            Duration::ZERO
        };
        // Replicated: a write first opens its transaction of the log and takes the
        // log's lock, before the database lock, so that reads never wait for
        // PostgreSQL; it then runs on the state of every record committed before.
        let mut logged = None;
        if access != Access::Read
            && let Some(replica) = self.replica()
        {
            if let Some(stopped) = self.diverged().or_else(|| self.log_short()) {
                return Err(stopped);
            }
            let fetched = Instant::now();
            let (write, records) = replica
                .log
                .begin(self.generation(), deadline)
                .map_err(|e| {
                    self.contact(false);
                    EngineError::Replica(e.0)
                })?;
            self.contact(true);
            logged = Some((write, records, fetched));
        }
        let _shared;
        let _exclusive;
        if access == Access::Read {
            _shared = self.inner.database.try_read_until(deadline);
            if _shared.is_none() {
                return Err(EngineError::Waited(limit));
            }
        } else {
            // A write waits while the file is handed over (see `handover`), and never
            // holds the lock meanwhile: reads go on.
            _exclusive = loop {
                self.pass_fence(deadline)?;
                let Some(exclusive) = self.inner.database.try_write_until(deadline) else {
                    return Err(EngineError::Waited(limit));
                };
                if self.fence_open() {
                    break exclusive;
                }
            };
        }
        if let Some(stopped) = self.diverged() {
            return Err(stopped);
        }
        if access != Access::Read {
            self.check_persisted()?;
        }
        // Replicated: the records committed before the write's lock are applied
        // here (the follower may have applied some of them meanwhile).
        if let Some((_, records, fetched)) = logged.as_mut() {
            self.apply(std::mem::take(records), *fetched)?;
        }
        let mut logged = logged.map(|(write, _, _)| write);
        if Instant::now() >= deadline {
            return Err(EngineError::Waited(limit));
        }
        let mut worker = self.acquire(deadline)?;
        if let Err(f) = self.sync(&mut worker, deadline) {
            return Err(self.failed(worker, f, limit));
        }
        let started = Instant::now();
        let remaining = deadline.saturating_duration_since(started);
        let request = Request::Run {
            query,
            spin_us: spin.as_micros() as u64,
            // Every write drains the record, so that a snapshot write's recorded calls
            // never ride along with the next journal write.
            changes: access != Access::Read,
            id: 0,
        };
        match worker.request_spinning(&request, remaining, spin) {
            Ok(Response::Ran {
                result,
                output,
                changes,
            }) => {
                let outcome = Outcome::read(result.as_deref());
                let saved = match access {
                    Access::Write(replication) => {
                        let made = Made {
                            replication,
                            solved: outcome.is_solved(),
                            changes: changes.filter(|c| !c.is_empty()),
                        };
                        match self.settle(&mut worker, made, logged.take(), deadline) {
                            Ok(saved) => saved,
                            Err(f) => return Err(self.failed(worker, f, limit)),
                        }
                    }
                    Access::Read => Ok(()),
                };
                if worker.generation == UNKNOWN {
                    self.discard(worker);
                } else {
                    self.release_after(worker, 1, started.elapsed());
                }
                saved?;
                Ok(RunOutcome { outcome, output })
            }
            Ok(other) => {
                self.release(worker);
                Err(EngineError::Crashed(format!("unexpected answer {other:?}")))
            }
            Err(f) => Err(self.failed(worker, f, limit)),
        }
    }

    /// A write that ran, settled: its changes recorded (in the journal, the
    /// replica log), committed to every worker, or, when it failed or could not
    /// be saved, taken back (the worker marked for a fresh start). `Err` when the
    /// worker failed meanwhile; else whether the change was saved.
    fn settle(
        &self,
        worker: &mut Worker,
        made: Made,
        mut logged: Option<crate::replica::Write<'_>>,
        deadline: Instant,
    ) -> Result<Result<(), EngineError>, Failure> {
        let Made {
            replication,
            changes,
            ..
        } = made;
        let mut saved = Ok(());
        // Only a journal write's record is complete: a snapshot write may have
        // changed what it could not record.
        let unchanged =
            replication == Replication::Journal && changes.as_deref().is_some_and(no_changes);
        let single = self.inner.single.load(Ordering::Acquire);
        if !made.solved {
            // Its changes must not survive: a fresh worker takes its place —
            // unless it is the only one, holding state no other could copy:
            // then its dynamic database is put back as committed.
            if !unchanged {
                worker.generation = UNKNOWN;
                if single {
                    self.sync(worker, deadline)?;
                }
            }
        } else if let (Replication::Journal, Some(changes)) = (replication, &changes) {
            if !unchanged {
                let text = generation::changes_text(changes);
                let next = self.generation() + 1;
                saved = self.record(&Entry::Changes(text.to_string()), next);
                if saved.is_ok()
                    && let Some(write) = logged.take()
                {
                    saved = write.commit(next, &text).map_err(|e| {
                        self.contact(false);
                        match e {
                            CommitError::NotMade(e) => EngineError::Replica(e.0),
                            CommitError::Unknown {
                                message,
                                transaction,
                                record,
                            } => EngineError::OutcomeUnknown {
                                message,
                                transaction,
                                record,
                            },
                        }
                    });
                }
                if saved.is_ok() {
                    let bytes = text.len();
                    self.commit_changes(worker, text);
                    self.fold_if_due();
                    self.snapshot_if_due(bytes);
                } else {
                    // Not durable, so not made: the worker's state goes too.
                    worker.generation = UNKNOWN;
                }
            }
        } else if logged.is_some() {
            // Refused at load: a dump cannot be replicated.
            worker.generation = UNKNOWN;
            saved = Err(EngineError::Replica(
                "this write changed state the log cannot carry, so it was not made".into(),
            ));
        } else {
            let dump = self.dump(worker, deadline)?;
            if self.persisted().is_some() {
                saved = std::fs::read_to_string(&dump.0)
                    .map_err(|e| {
                        EngineError::Persist(format!(
                            "the change could not be saved, so it was not made: {e}"
                        ))
                    })
                    .and_then(|text| self.record(&Entry::Snapshot(text), self.generation() + 1));
            }
            if saved.is_ok() {
                self.commit_dump(worker, dump);
                self.fold_if_due();
            } else {
                worker.generation = UNKNOWN;
            }
        }
        Ok(saved)
    }
}
