//! The engine's side of replicated mode (see `crate::replica`): a write runs inside
//! a transaction of the shared log and is committed there before it is here; the
//! records other replicas commit are applied by a thread of their own; the
//! replica whose write makes a snapshot due takes it, beside the writes.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::time::{Duration, Instant};

use super::{Engine, EngineError, Inner};
use crate::replica::{Log, POLL, Record, ReplicaConfig, ReplicaStatus};

/// A replica's log and how far it got.
pub(super) struct Replica {
    pub(super) log: Log,
    status: Mutex<Status>,
    /// Bytes of the records applied here since the last snapshot this replica
    /// knows of (the log's own count decides, see [`Engine::snapshot_if_due`]).
    since_snapshot: AtomicU64,
    compact_after: u64,
    /// When a snapshot is due by what this replica knows: `compact_after`, or
    /// twice the last snapshot's bytes if that is more (checked in the log
    /// before one is taken).
    due_after: AtomicU64,
    /// The fingerprint of the file the log began on.
    fingerprint: String,
}

struct Status {
    head: u64,
    snapshot: u64,
    connected: bool,
    last_contact: Instant,
    lag: Duration,
    diverged: Option<String>,
    /// The log looked shorter than what this replica applied, at the last look:
    /// writes wait (a write now would number its record past the log's end).
    short: Option<String>,
}

impl Engine {
    /// Joins the log of `config`: checks that it was started on this file
    /// (`fingerprint` of its bytes, `file` to name it), applies every record in it,
    /// and starts the thread that applies the records other replicas commit.
    pub(crate) fn enable_replica(
        &self,
        config: &ReplicaConfig,
        fingerprint: &str,
        file: &str,
    ) -> Result<(), EngineError> {
        let log = Log::open(config, fingerprint, file).map_err(|e| EngineError::Replica(e.0))?;
        let mut listener = log.listen().map_err(|e| EngineError::Replica(e.0))?;
        let records = listener
            .read_after(self.generation())
            .map_err(|e| EngineError::Replica(e.0))?;
        let replica = Replica {
            log,
            since_snapshot: AtomicU64::new(0),
            compact_after: config.compact_after,
            due_after: AtomicU64::new(config.compact_after),
            fingerprint: fingerprint.to_string(),
            status: Mutex::new(Status {
                head: 0,
                snapshot: 0,
                connected: true,
                last_contact: Instant::now(),
                lag: Duration::ZERO,
                diverged: None,
                short: None,
            }),
        };
        if self.inner.replica.set(replica).is_err() {
            return Err(EngineError::Replica("already replicated".into()));
        }
        self.apply(records, Instant::now())?;
        tracing::info!(target: "charon::replica", table = %config.table, applied = self.generation(), "joined the log");
        let weak = Arc::downgrade(&self.inner);
        std::thread::Builder::new()
            .name("charon-replica".into())
            .spawn(move || follow(weak, Some(listener)))
            .map_err(|e| EngineError::Replica(format!("cannot start following the log: {e}")))?;
        Ok(())
    }

    /// In replicated mode, before workers load the knowledge base again (a new
    /// template): the file must still be the one the log began on, or they would
    /// apply the log to another state. Nothing is served until it is put back.
    pub(super) fn check_replicated_file(&self) -> Result<(), EngineError> {
        let Some(replica) = self.replica() else {
            return Ok(());
        };
        let bytes = std::fs::read(&self.inner.files.kb).map_err(|e| {
            EngineError::Replica(format!("cannot read the knowledge base again: {e}"))
        })?;
        if crate::replica::fingerprint(&bytes) != replica.fingerprint {
            return Err(EngineError::Replica(format!(
                "{} changed since this replica loaded it, and the log began on the file as \
                 it was: put it back (or start a new log on the new file, with another \
                 --replicate-table)",
                self.inner.files.kb.display()
            )));
        }
        Ok(())
    }

    pub(super) fn replica(&self) -> Option<&Replica> {
        self.inner.replica.get()
    }

    /// In replicated mode, how far this replica got.
    pub(crate) fn replica_status(&self) -> Option<ReplicaStatus> {
        let replica = self.replica()?;
        let s = replica.status.lock().unwrap_or_else(|p| p.into_inner());
        let applied = self.generation();
        Some(ReplicaStatus {
            applied,
            head: s.head.max(applied),
            snapshot: s.snapshot,
            connected: s.connected,
            last_contact_secs: s.last_contact.elapsed().as_secs_f64(),
            lag_secs: s.lag.as_secs_f64(),
            diverged: s.diverged.clone(),
            writes_paused: s.short.clone(),
        })
    }

    /// Why this replica serves nothing any more, if it stopped.
    pub(crate) fn stopped(&self) -> Option<EngineError> {
        self.diverged()
    }

    /// Why this replica serves nothing any more, if it stopped.
    pub(super) fn diverged(&self) -> Option<EngineError> {
        let replica = self.replica()?;
        let s = replica.status.lock().unwrap_or_else(|p| p.into_inner());
        s.diverged.as_ref().map(|why| {
            EngineError::Diverged(format!(
                "this replica stopped serving: {why}; its state is not the log's (restart it \
                 once the cause is fixed)"
            ))
        })
    }

    /// Why a write cannot be made now although the replica serves: the log looked
    /// shorter than what it applied (see `follow`).
    pub(super) fn log_short(&self) -> Option<EngineError> {
        let replica = self.replica()?;
        let s = replica.status.lock().unwrap_or_else(|p| p.into_inner());
        s.short.as_ref().map(|why| {
            EngineError::Replica(format!(
                "{why}; the write was not made: send it again shortly"
            ))
        })
    }

    fn set_short(&self, why: Option<String>) {
        if let Some(replica) = self.replica() {
            replica
                .status
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .short = why;
        }
    }

    /// Stops serving: a record did not apply here as it did where it was written.
    /// Writes no longer wait for the log (`short`): they are refused, with the
    /// reason the replica stopped.
    pub(super) fn diverge(&self, why: String) {
        if let Some(replica) = self.replica() {
            tracing::error!(target: "charon::replica", "this replica stops serving: {why}");
            let mut s = replica.status.lock().unwrap_or_else(|p| p.into_inner());
            s.diverged.get_or_insert(why);
            s.short = None;
        }
    }

    /// Stops serving (see [`diverge`](Self::diverge)), and the error of the call
    /// that found why: the one every call gets from now on (`replica-stopped`), not
    /// "try again".
    fn stop(&self, why: String) -> EngineError {
        self.diverge(why.clone());
        self.diverged().unwrap_or(EngineError::Diverged(why))
    }

    /// Records that the log holds record `seq`.
    fn saw(&self, seq: u64) {
        if let Some(replica) = self.replica() {
            let mut s = replica.status.lock().unwrap_or_else(|p| p.into_inner());
            s.head = s.head.max(seq);
        }
    }

    /// Records that PostgreSQL answered (or did not).
    pub(super) fn contact(&self, ok: bool) {
        if let Some(replica) = self.replica() {
            let mut s = replica.status.lock().unwrap_or_else(|p| p.into_inner());
            s.connected = ok;
            if ok {
                s.last_contact = Instant::now();
            }
        }
    }

    /// Applies the records after the latest generation, in order (the database lock
    /// held, or no call running yet). `fetched`: when they were read, for the lag.
    pub(super) fn apply(&self, records: Vec<Record>, fetched: Instant) -> Result<(), EngineError> {
        let mut newest = None;
        let parts = records.iter().take_while(|r| r.snapshot).count();
        let mut records = records.into_iter();
        if parts > 0 {
            let snapshot: Vec<Record> = records.by_ref().take(parts).collect();
            let seq = snapshot[0].seq;
            if seq > self.generation() {
                if let Some(bad) = snapshot
                    .iter()
                    .position(|p| p.seq != seq || crate::change::changed_by(&p.changes).is_none())
                {
                    let why = format!(
                        "part {} of the log's snapshot {seq} is not a change list",
                        bad + 1
                    );
                    return Err(self.stop(why));
                }
                let bytes = snapshot.iter().map(|p| p.changes.len() as u64).sum();
                self.commit_snapshot(
                    snapshot.into_iter().map(|p| p.changes.into()).collect(),
                    seq,
                );
                self.snapshot_known(seq, bytes);
                tracing::info!(target: "charon::replica", seq, parts, "applied the log's snapshot");
            }
        }
        for record in records {
            let next = self.generation() + 1;
            if record.seq < next {
                continue;
            }
            if record.seq > next {
                let why = format!(
                    "record {} of the log came after record {} (the log lost records)",
                    record.seq,
                    next - 1
                );
                return Err(self.stop(why));
            }
            if crate::change::changed_by(&record.changes).is_none() {
                let why = format!("record {} of the log is not a change list", record.seq);
                return Err(self.stop(why));
            }
            if let Some(replica) = self.replica() {
                replica
                    .since_snapshot
                    .fetch_add(record.changes.len() as u64, Ordering::Relaxed);
            }
            self.commit_text(record.changes.into());
            newest = Some(record.age);
        }
        if let Some(replica) = self.replica() {
            let mut s = replica.status.lock().unwrap_or_else(|p| p.into_inner());
            s.head = s.head.max(self.generation());
            if let Some(age) = newest {
                s.lag = age + fetched.elapsed();
            }
        }
        Ok(())
    }
}

impl Engine {
    /// Records that the log holds a snapshot of `bytes` at `seq`.
    fn snapshot_known(&self, seq: u64, bytes: u64) {
        if let Some(replica) = self.replica() {
            replica.since_snapshot.store(0, Ordering::Relaxed);
            replica
                .due_after
                .store(replica.compact_after.max(2 * bytes), Ordering::Relaxed);
            let mut s = replica.status.lock().unwrap_or_else(|p| p.into_inner());
            s.snapshot = s.snapshot.max(seq);
        }
    }

    /// After this replica committed a write of `bytes`: once the records since
    /// the last snapshot may have outgrown [`ReplicaConfig::compact_after`] (and
    /// twice the last snapshot), takes
    /// a snapshot in a thread of its own (see `crate::replica`), unless one runs.
    pub(super) fn snapshot_if_due(&self, bytes: usize) {
        let Some(replica) = self.replica() else {
            return;
        };
        let since = replica
            .since_snapshot
            .fetch_add(bytes as u64, Ordering::Relaxed)
            + bytes as u64;
        if since > replica.due_after.load(Ordering::Relaxed) {
            self.beside_writes(|inner| &inner.snapshotting, "charon-snapshot", |engine| {
                if let Err(e) = engine.take_snapshot() {
                    tracing::warn!(target: "charon::replica", "no snapshot of the log was taken: {e}");
                }
                // Still due by this replica's count: the snapshot failed, or another
                // replica holds the lock. Not again before as many bytes more.
                let replica = engine.replica().expect("replicated");
                let since = replica.since_snapshot.load(Ordering::Relaxed);
                if since > replica.due_after.load(Ordering::Relaxed) {
                    replica
                        .due_after
                        .store(since + replica.compact_after, Ordering::Relaxed);
                }
            });
        }
    }

    /// Takes the log's snapshot if the log says it is due: the state of a worker
    /// brought up to date with no lock held (every generation here is a committed
    /// record), stored in place of the last snapshot.
    fn take_snapshot(&self) -> Result<(), EngineError> {
        let replica = self.replica().expect("snapshots only when replicated");
        let Some(compaction) = replica
            .log
            .compaction()
            .map_err(|e| EngineError::Replica(e.0))?
        else {
            return Ok(()); // another replica is taking one
        };
        let due_after = replica.compact_after.max(2 * compaction.last_bytes);
        replica
            .since_snapshot
            .store(compaction.since_bytes, Ordering::Relaxed);
        replica.due_after.store(due_after, Ordering::Relaxed);
        if compaction.since_bytes <= due_after {
            return Ok(());
        }
        let started = Instant::now();
        let (seq, parts) =
            self.on_an_idle_worker(|engine, worker, deadline| engine.snapshot(worker, deadline))?;
        if seq <= compaction.last {
            return Ok(());
        }
        // Storing it deletes records: every part must read back as a change list
        // first, as the replicas that apply it will read it.
        if let Some(bad) = parts
            .iter()
            .position(|p| crate::change::changed_by(p).is_none())
            .or(parts.is_empty().then_some(0))
        {
            return Err(EngineError::Replica(format!(
                "part {} of the snapshot at record {seq} does not read back as a change list \
                 (a term nested deeper than an answer may be?); the records are kept",
                bad + 1
            )));
        }
        let bytes: usize = parts.iter().map(String::len).sum();
        let deleted = compaction
            .store(seq, &parts)
            .map_err(|e| EngineError::Replica(e.0))?;
        self.snapshot_known(seq, bytes as u64);
        tracing::info!(target: "charon::replica", seq, parts = parts.len(), bytes, deleted, elapsed_ms = started.elapsed().as_millis() as u64, "took the log's snapshot");
        Ok(())
    }
}

/// How long the log may look shorter than what a replica applied before the
/// replica stops (see `follow`).
const SHORT_LOG_GRACE: Duration = Duration::from_secs(10);

/// Follows the log: waits for a notification (or [`POLL`]), reads the records
/// after the latest generation, and applies them with the database lock held.
/// Ends when the engine is gone.
fn follow(weak: Weak<Inner>, mut listener: Option<crate::replica::Listener>) {
    // Since when the log has looked shorter than what this replica applied.
    let mut short_since: Option<Instant> = None;
    loop {
        let Some(inner) = weak.upgrade() else { return };
        let engine = Engine { inner };
        let step = (|| {
            let reconnected = listener.is_none();
            engine
                .replica()
                .expect("followed only when replicated")
                .log
                .relisten(&mut listener)?;
            let l = listener.as_mut().expect("listening");
            let fetched = Instant::now();
            if reconnected || short_since.is_some() {
                // The log must still hold every record applied here (a log that lost
                // its tail would have records renumbered under this replica). Just
                // after PostgreSQL comes back, the last record may not be visible
                // yet (a commit whose answer was lost and that txid_status already
                // reports committed): only a log that stays short stops the replica.
                let head = l.head()?;
                let applied = engine.generation();
                if head >= applied {
                    short_since = None;
                    engine.set_short(None);
                } else if short_since.get_or_insert_with(Instant::now).elapsed() >= SHORT_LOG_GRACE
                {
                    engine.diverge(format!(
                        "the log holds {head} records, and this replica applied {applied} \
                         (for {} s: the log lost records)",
                        SHORT_LOG_GRACE.as_secs()
                    ));
                } else {
                    engine.set_short(Some(format!(
                        "the log holds {head} records, and this replica applied {applied}"
                    )));
                    tracing::warn!(target: "charon::replica", head, applied, "the log holds fewer records than this replica applied; looking again");
                }
            }
            let records = l.read_after(engine.generation())?;
            engine.contact(true);
            if let Some(last) = records.last() {
                engine.saw(last.seq);
                // Reads wait for the lock only while the records are pushed.
                let limit = Instant::now() + Duration::from_secs(5);
                match engine.inner.database.try_write_until(limit) {
                    Some(exclusive) => {
                        let applied = engine.apply(records, fetched);
                        drop(exclusive);
                        match applied {
                            Err(e) => tracing::error!(target: "charon::replica", "{e}"),
                            Ok(()) => engine.check_applied(),
                        }
                    }
                    None => {
                        tracing::warn!(target: "charon::replica", "the database lock was busy for 5 s; the records are applied at the next round")
                    }
                }
            }
            Ok::<_, crate::replica::LogError>(())
        })();
        if let Err(e) = step {
            engine.contact(false);
            listener = None;
            tracing::warn!(target: "charon::replica", "{e}; trying again");
        }
        let diverged = engine.diverged().is_some();
        drop(engine);
        if diverged {
            return;
        }
        match listener.as_mut() {
            Some(l) => {
                if l.wait(POLL).is_err() {
                    listener = None;
                }
            }
            None => std::thread::sleep(POLL),
        }
    }
}

impl Engine {
    /// Brings an idle worker up to the records just applied, so that a record that
    /// does not apply here stops the replica now (`sync` reports it), with
    /// `/health/ready` failing and every call refused at once, rather than at the
    /// next call, which would wait for a worker that cannot catch up. When every
    /// worker is busy, the calls that release them catch up instead.
    fn check_applied(&self) {
        let Some(mut worker) = self.try_acquire_furthest_behind() else {
            return;
        };
        let limit = self.inner.config.limits.time;
        match self.sync(&mut worker, Instant::now() + limit) {
            Ok(()) => self.release(worker),
            Err(f) => {
                let e = self.failed(worker, f, limit);
                tracing::warn!(target: "charon::replica", "a worker could not catch up with the log: {e}");
            }
        }
    }

    /// Whether the engine follows a log.
    pub(crate) fn replicated(&self) -> bool {
        self.inner.replica.get().is_some()
    }
}
