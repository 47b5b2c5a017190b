//! Replicas that share one writable knowledge base through PostgreSQL.
//!
//! # Design: one ordered log of change records
//!
//! Every replica loads the same `.pl` file. Its writes are the engine's change
//! records (`assertz(M:C)`, `retract(M:C)`, … — what already reaches every worker
//! of one process), and PostgreSQL holds them in one table, numbered: record `n`
//! is generation `n` of every replica's database. A write on any replica
//!
//! 1. opens a transaction and takes the log's advisory lock
//!    (`pg_advisory_xact_lock`), so that writes of all replicas run one at a time;
//! 2. applies the records it has not applied yet (so it runs on the latest state:
//!    no lost update when two replicas write at once);
//! 3. runs on a local worker; if it changed something, inserts its record as the
//!    next number and notifies the other replicas (`pg_notify`);
//! 4. commits, and only then answers. A write whose commit fails was not made: the
//!    worker that ran it is replaced and the caller gets a 503 to retry.
//!
//! The replica that wrote answers its next read from the new state
//! (read-your-writes). The others apply the record when the notification arrives,
//! or at their next poll (every [`POLL`]): the lag is bounded by that, and shown in
//! `GET /health` and `/metrics`. Reads never touch PostgreSQL.
//!
//! The primary key on the record's number makes a second record of the same
//! number impossible even without the lock, and the `base` row names the file the
//! log was started on (a fingerprint of its bytes: FNV-1a and the length, which
//! tells another file from this one, not a forgery): a replica that loaded another
//! file is refused at start. A commit whose answer is lost is looked up by its
//! transaction's id (`txid_status`): the write is made if that transaction
//! committed.
//!
//! # Joining
//!
//! A replica that starts (or restarts after a crash) loads the file, applies the
//! log's snapshot if the log has one and no longer holds the records before it,
//! then the records after, and is ready (`GET /health/ready`) only once it has caught up. While
//! PostgreSQL cannot be reached, writes fail at once (503 with `Retry-After`),
//! reads go on from the state as last applied, and the lag grows; when it is back,
//! the replica catches up without a restart.
//!
//! # Snapshots
//!
//! Once the records since the last snapshot outgrow [`ReplicaConfig::compact_after`]
//! bytes (and twice the last snapshot), the replica whose write made it so takes
//! one beside the writes: an idle worker writes its state at some record `S` as
//! change lists — the same records as any write's, `retractall` and `assertz` of
//! every dynamic predicate, `bb_put` of every key — and they replace the last
//! snapshot in PostgreSQL, in one transaction with the deletion of the records up
//! to that last one. So the log stays about three times the state at most, and a
//! replica is always rebuilt from the file, the snapshot and the records after it.
//! The tables are described in `log`.
//!
//! # What cannot be replicated
//!
//! A knowledge base whose writes change state Charon cannot record as change
//! records (the analysis classes them as full dumps, or keeps one worker) is
//! refused in replicated mode at start, with the reason: its replicas would not
//! agree. So is `--persist` with replication: the log is the database; `charon
//! export` writes it out as a `.pl`.

mod connect;
mod log;

pub(crate) use connect::LogError;
pub(crate) use log::{CommitError, Listener, Log, Record, Write};

/// How a knowledge base shares its writes with other replicas through PostgreSQL
/// (see the `replica` module's docs).
#[derive(Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ReplicaConfig {
    /// A libpq connection string or URL (`postgresql://user:pass@host/db`); it may
    /// hold a password, so it is never logged or shown.
    pub url: String,
    /// The name of the log's table (letters, digits and `_`; default `charon_log`):
    /// replicas that share a knowledge base share it; another knowledge base on the
    /// same database uses another.
    pub table: String,
    /// Whether the log's tables are created when they are missing (`false` for
    /// `charon export`, which reads a log that must exist).
    pub create: bool,
    /// A snapshot is taken once the records after the last one hold more than
    /// this many bytes of change text (and more than twice the last snapshot);
    /// default 1 MiB.
    pub compact_after: u64,
    /// How long PostgreSQL may take to answer each statement of a write (default
    /// 5 s, and never more than the call has left): a server that stops answering
    /// fails the write within this, saying so, instead of holding it to its time
    /// limit.
    pub answer_within: std::time::Duration,
}

impl ReplicaConfig {
    /// Replication through the database at `url`, in the table `charon_log`.
    pub fn new(url: impl Into<String>) -> ReplicaConfig {
        ReplicaConfig {
            url: url.into(),
            table: "charon_log".into(),
            create: true,
            compact_after: 1 << 20,
            answer_within: std::time::Duration::from_secs(5),
        }
    }

    /// The same, giving PostgreSQL `bound` to answer each statement of a write
    /// (see [`ReplicaConfig::answer_within`]).
    pub fn with_answer_within(mut self, bound: std::time::Duration) -> ReplicaConfig {
        self.answer_within = bound;
        self
    }

    /// The same, taking snapshots after `bytes` of records (see
    /// [`ReplicaConfig::compact_after`]).
    pub fn with_compact_after(mut self, bytes: u64) -> ReplicaConfig {
        self.compact_after = bytes;
        self
    }

    /// The same, for a log that must exist already.
    pub fn existing(mut self) -> ReplicaConfig {
        self.create = false;
        self
    }

    /// The same, with the log in `table`.
    pub fn with_table(mut self, table: impl Into<String>) -> ReplicaConfig {
        self.table = table.into();
        self
    }
}

impl std::fmt::Debug for ReplicaConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ReplicaConfig")
            .field("url", &"(hidden)")
            .field("table", &self.table)
            .field("create", &self.create)
            .field("compact_after", &self.compact_after)
            .field("answer_within", &self.answer_within)
            .finish()
    }
}

/// How far behind the log a replica is, for `GET /health` and `/metrics`.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct ReplicaStatus {
    /// The last record applied here (the database's generation).
    pub applied: u64,
    /// The last record known to be in the log.
    pub head: u64,
    /// The record of the newest snapshot this replica took or applied (0 for
    /// none).
    pub snapshot: u64,
    /// Whether the last exchange with PostgreSQL succeeded.
    pub connected: bool,
    /// Seconds since PostgreSQL last answered this replica.
    pub last_contact_secs: f64,
    /// Seconds between the commit of the records applied last and their
    /// application here (0 when none was ever applied from another replica).
    pub lag_secs: f64,
    /// Why this replica stopped serving, if it did: a record that did not apply
    /// here as it did where it was written.
    pub diverged: Option<String>,
    /// Why writes are refused for now while the replica serves reads: the log
    /// looked shorter than what it applied at the last look (just after
    /// PostgreSQL comes back, a commit may not be visible yet). Cleared once the
    /// log holds every record applied here; the replica stops (`diverged`) if it
    /// stays short, and then this is cleared: writes are refused for good.
    pub writes_paused: Option<String>,
}

/// The fingerprint of a knowledge base's bytes the log's base row holds (FNV-1a,
/// 64 bits, and the length): it tells another file from this one, not a forgery.
pub(crate) fn fingerprint(bytes: &[u8]) -> String {
    format!("{:016x}-{}", crate::change::fnv(bytes), bytes.len())
}

/// How often a replica looks at the log when no notification came.
pub(crate) const POLL: std::time::Duration = std::time::Duration::from_millis(500);
