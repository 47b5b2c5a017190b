//! The log's tables in PostgreSQL, the transaction a write runs in, and the
//! connection a replica listens on.
//!
//! Tables (created if missing; `T` is [`ReplicaConfig::table`]):
//!
//! ```sql
//! CREATE TABLE T (seq bigint PRIMARY KEY, changes text NOT NULL,
//!                 committed_at timestamptz NOT NULL DEFAULT clock_timestamp());
//! CREATE TABLE T_base (id int PRIMARY KEY CHECK (id = 1), fingerprint text NOT NULL,
//!                      file text NOT NULL);
//! CREATE TABLE T_snapshot (seq bigint, part int, changes text NOT NULL,
//!                          taken_at timestamptz NOT NULL DEFAULT clock_timestamp(),
//!                          PRIMARY KEY (seq, part));
//! ```
//!
//! The role needs `CREATE` on the schema the first time (or the tables made by an
//! administrator), then `SELECT` and `INSERT` on the three, and `DELETE` on `T` and
//! `T_snapshot`. `T_base` holds the fingerprint (FNV-1a, 64 bits, and the length)
//! of the file the log began on.
//!
//! # Snapshots
//!
//! `T_snapshot` holds the state at one record `S` as change lists (its parts, in
//! order) that recreate it on the file as loaded, so a replica rebuilds from the
//! file, the snapshot and the records after it. A new snapshot replaces the last
//! one, and the records up to that last one are deleted with it: the log keeps the
//! records of two snapshots' spans at most, and a replica less than one span behind
//! replays records, never the whole state. The records it keeps are always a run
//! without gaps, ending at the newest.

use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

use postgres::{Client, Statement};

use super::ReplicaConfig;
use super::connect::{LogError, bounded, connect, failed};

/// One committed write: its number (the generation it makes), its change
/// record, and how long ago it was committed, by the database's clock.
#[derive(Debug, Clone)]
pub(crate) struct Record {
    pub(crate) seq: u64,
    pub(crate) changes: String,
    pub(crate) age: Duration,
    /// A part of the snapshot at `seq` (the parts come first, in order), not a
    /// record.
    pub(crate) snapshot: bool,
}

/// Why a write's commit did not answer "made".
#[derive(Debug, Clone)]
pub(crate) enum CommitError {
    /// The write was not made (its COMMIT was never sent, or PostgreSQL says its
    /// transaction aborted).
    NotMade(LogError),
    /// COMMIT was sent and its answer lost, and PostgreSQL could not say what
    /// became of the transaction: the write may have been made.
    Unknown {
        message: String,
        /// The transaction's id (`txid_current()`), which `txid_status()` answers
        /// for while PostgreSQL remembers it.
        transaction: String,
        /// The number of the record the write would be in the log.
        record: u64,
    },
}

/// An operation on the writer's connection that did not answer "done".
enum Bounded {
    Failed(postgres::Error),
    /// PostgreSQL did not answer within the bound; the connection was given up.
    TimedOut(Duration),
}

/// The log of one knowledge base, and the connection its writes go through.
pub(crate) struct Log {
    config: ReplicaConfig,
    /// `None` while disconnected: the next write connects again.
    writer: Mutex<Option<Writer>>,
    /// The advisory lock that makes writes run one at a time.
    key: i64,
}

impl Drop for Log {
    fn drop(&mut self) {
        // The synchronous client closes its connection on a runtime of its own, which
        // cannot start on a thread of an async runtime (where a server drops its
        // knowledge base as it shuts down): it is closed on a thread of its own.
        let writer = self
            .writer
            .get_mut()
            .unwrap_or_else(|p| p.into_inner())
            .take();
        if let Some(writer) = writer {
            let closing = std::thread::Builder::new()
                .name("charon-log-close".into())
                .spawn(move || drop(writer));
            if let Ok(closing) = closing {
                let _ = closing.join();
            }
        }
    }
}

impl std::fmt::Debug for Log {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Log").field("config", &self.config).finish()
    }
}

/// The connection writes go through, with their two statements prepared on it
/// once (each saves a round trip and a plan on every write).
struct Writer {
    client: Client,
    read: Statement,
    insert: Statement,
}

impl Writer {
    fn connect(config: &ReplicaConfig) -> Result<Writer, LogError> {
        let client = connect(config)?;
        let table = config.table.clone();
        bounded(config.answer_within, move || {
            Writer::prepare(client, &table)
        })
        .unwrap_or_else(|| {
            Err(LogError(format!(
                "cannot prepare the log's statements: PostgreSQL did not answer within {} ms",
                config.answer_within.as_millis()
            )))
        })
    }

    fn prepare(mut client: Client, table: &str) -> Result<Writer, LogError> {
        let read = client
            .prepare(&read_sql(table))
            .map_err(|e| failed("cannot prepare the log's statements", &e))?;
        let insert = client
            .prepare(&format!(
                "WITH record AS (INSERT INTO {table} (seq, changes) VALUES ($1, $2) RETURNING seq) \
                 SELECT pg_notify($3, seq::text), txid_current()::text FROM record"
            ))
            .map_err(|e| failed("cannot prepare the log's statements", &e))?;
        Ok(Writer {
            client,
            read,
            insert,
        })
    }
}

/// A write's transaction, holding the log's lock: committed with its record, or
/// rolled back when dropped.
pub(crate) struct Write<'a> {
    writer: MutexGuard<'a, Option<Writer>>,
    config: &'a ReplicaConfig,
    channel: String,
    open: bool,
    /// How long PostgreSQL may take to answer each of the write's statements
    /// (less when the call has less time left).
    bound: Duration,
    /// When the call must have its answer.
    deadline: Instant,
}

/// Runs `op` on the writer's connection in `slot`, waiting at most `bound` for
/// it. The driver has no time limit of its own on a statement, and a server that
/// stops answering (a stopped process, whose kernel still acknowledges every
/// byte; a frozen virtual machine) would hold the write, and the log's lock in
/// this process, until it resumed. So the statement runs on a thread of its own:
/// on time out the connection is given up (`slot` is left empty, and the next
/// write connects again), and the thread drops it once the server answers, which
/// closes it and so rolls back whatever it had begun.
fn within<T: Send + 'static>(
    slot: &mut Option<Writer>,
    bound: Duration,
    op: impl FnOnce(&mut Writer) -> Result<T, postgres::Error> + Send + 'static,
) -> Result<T, Bounded> {
    let mut writer = slot.take().expect("a connected writer");
    match bounded(bound, move || {
        let done = op(&mut writer);
        (writer, done)
    }) {
        Some((writer, done)) => {
            *slot = Some(writer);
            done.map_err(Bounded::Failed)
        }
        None => Err(Bounded::TimedOut(bound)),
    }
}

/// The message for an operation `what` that did not answer "done".
fn bounded_failed(what: &str, e: &Bounded) -> LogError {
    match e {
        Bounded::Failed(e) => failed(what, e),
        Bounded::TimedOut(bound) => LogError(format!(
            "{what}: PostgreSQL did not answer within {} ms (a stopped or overloaded server, or a network that drops packets); the connection was given up",
            bound.as_millis()
        )),
    }
}

impl Log {
    /// Connects, creates the tables if they are missing (unless the configuration
    /// says they must exist), and checks that the log was started on this file
    /// (`fingerprint` of its bytes; `file` names it in the error): a replica of
    /// another file would not agree with the others.
    pub(crate) fn open(
        config: &ReplicaConfig,
        fingerprint: &str,
        file: &str,
    ) -> Result<Log, LogError> {
        let table = &config.table;
        // Lower case only: PostgreSQL folds unquoted names (of the table, and of the
        // LISTEN channel) to lower case, where pg_notify and the lock's key would not.
        if table.is_empty()
            || table.len() > 40
            || !table
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
            || table.as_bytes()[0].is_ascii_digit()
        {
            return Err(LogError(format!(
                "the log's table name {table:?} must be 1 to 40 lower-case letters, digits \
                 or _ (not a digit first)"
            )));
        }
        let mut client = connect(config)?;
        if !config.create {
            let found: Option<String> = client
                .query_one("SELECT to_regclass($1)::text", &[&format!("{table}_base")])
                .map_err(|e| failed("cannot look for the log", &e))?
                .get(0);
            if found.is_none() {
                return Err(LogError(format!(
                    "there is no log {table} in this database (check --replicate-table)"
                )));
            }
        }
        // Under the log's lock: replicas starting at the same moment on a new log
        // would otherwise race in the catalog (two CREATE TABLE IF NOT EXISTS of one
        // name: "duplicate key … pg_type_typname_nsp_index" for one of them).
        client
            .batch_execute(&format!(
                "BEGIN; SELECT pg_advisory_xact_lock({key});\n\
                 CREATE TABLE IF NOT EXISTS {table} (seq bigint PRIMARY KEY, changes text NOT NULL, \
                 committed_at timestamptz NOT NULL DEFAULT clock_timestamp());\n\
                 CREATE TABLE IF NOT EXISTS {table}_base (id int PRIMARY KEY CHECK (id = 1), \
                 fingerprint text NOT NULL, file text NOT NULL);\n\
                 CREATE TABLE IF NOT EXISTS {table}_snapshot (seq bigint, part int, \
                 changes text NOT NULL, taken_at timestamptz NOT NULL DEFAULT clock_timestamp(), \
                 PRIMARY KEY (seq, part));\n\
                 COMMIT;",
                key = advisory_key(table)
            ))
            .map_err(|e| failed("cannot create the log's tables", &e))?;
        client
            .execute(
                &format!(
                    "INSERT INTO {table}_base (id, fingerprint, file) VALUES (1, $1, $2) \
                     ON CONFLICT (id) DO NOTHING"
                ),
                &[&fingerprint, &file],
            )
            .map_err(|e| failed("cannot record the log's base", &e))?;
        let row = client
            .query_one(
                &format!("SELECT fingerprint, file FROM {table}_base WHERE id = 1"),
                &[],
            )
            .map_err(|e| failed("cannot read the log's base", &e))?;
        let (base, base_file): (String, String) = (row.get(0), row.get(1));
        if base != fingerprint {
            return Err(LogError(format!(
                "the log {table} was started on another file ({base_file}, fingerprint {base}) \
                 than {file} (fingerprint {fingerprint}): every replica must load the same file; to \
                 start a new log on this one, use another table name"
            )));
        }
        Ok(Log {
            key: advisory_key(table),
            config: config.clone(),
            writer: Mutex::new(Some(Writer::prepare(client, table)?)),
        })
    }

    /// The name `pg_notify` uses for this log.
    fn channel(&self) -> String {
        self.config.table.clone()
    }

    /// Opens a write's transaction by `deadline`: takes the log's lock and returns
    /// the records after `applied`, which the write must apply before it runs.
    pub(crate) fn begin(
        &self,
        applied: u64,
        deadline: Instant,
    ) -> Result<(Write<'_>, Vec<Record>), LogError> {
        let mut guard = self.writer.lock().unwrap_or_else(|p| p.into_inner());
        if guard.as_ref().is_none_or(|w| w.client.is_closed()) {
            *guard = None;
            *guard = Some(Writer::connect(&self.config)?);
        }
        // The time left of the call, read again at each step: a reconnection below
        // takes some of it.
        let left = || {
            deadline
                .saturating_duration_since(Instant::now())
                .max(Duration::from_millis(100))
        };
        // A server that answers nothing must not hold the call to its end: each
        // statement may take the configured bound at most, except the wait for the
        // log's lock, which another replica's write may hold for as long as its call
        // runs (bounded by the server's statement_timeout, and here by the call's
        // time left).
        let answer_within = self.config.answer_within;
        let key = self.key;
        let start = |guard: &mut Option<Writer>| {
            let left = left();
            let open = format!(
                "BEGIN ISOLATION LEVEL READ COMMITTED; SET LOCAL statement_timeout = {0}; \
                 SET LOCAL idle_in_transaction_session_timeout = {0};",
                left.as_millis()
            );
            within(guard, left.min(answer_within), move |writer| {
                writer.client.batch_execute(&open)
            })
        };
        let mut opened = start(&mut guard);
        if matches!(opened, Err(Bounded::Failed(_)))
            && guard.as_ref().is_some_and(|w| w.client.is_closed())
        {
            // The connection was lost since the last write (PostgreSQL restarted,
            // or the network cut it), which the driver learns only when it sends:
            // no transaction was open on it, so nothing of this write was made,
            // and a new connection takes it.
            tracing::info!(target: "charon::replica", "the log's connection was lost since the last write; connecting again");
            *guard = None;
            *guard = Some(Writer::connect(&self.config)?);
            opened = start(&mut guard);
        }
        let begun = opened
            .and_then(|()| {
                within(&mut guard, left() + Duration::from_secs(1), move |writer| {
                    writer
                        .client
                        .batch_execute(&format!("SELECT pg_advisory_xact_lock({key});"))
                })
            })
            .and_then(|()| {
                within(&mut guard, left().min(answer_within), move |writer| {
                    let read = writer.read.clone();
                    read_after(&mut writer.client, &read, applied)
                })
            });
        match begun {
            Ok(records) => Ok((
                Write {
                    writer: guard,
                    config: &self.config,
                    channel: self.channel(),
                    open: true,
                    bound: self.config.answer_within,
                    deadline,
                },
                records,
            )),
            Err(e) => {
                if let Bounded::Failed(_) = e {
                    roll_back(&mut guard, left().min(answer_within));
                }
                Err(bounded_failed("cannot lock the log for a write", &e))
            }
        }
    }

    /// Every record after `applied`, on a connection of its own (`listener`).
    pub(crate) fn listen(&self) -> Result<Listener, LogError> {
        let mut client = connect(&self.config)?;
        client
            .batch_execute(&format!("LISTEN {};", self.channel()))
            .map_err(|e| failed("cannot listen to the log", &e))?;
        let read = client
            .prepare(&read_sql(&self.config.table))
            .map_err(|e| failed("cannot prepare the log's statements", &e))?;
        Ok(Listener {
            client,
            table: self.config.table.clone(),
            read,
        })
    }

    /// Reconnects the listener when its connection was lost.
    pub(crate) fn relisten(&self, listener: &mut Option<Listener>) -> Result<(), LogError> {
        if listener.as_ref().is_none_or(|l| l.client.is_closed()) {
            *listener = None;
            *listener = Some(self.listen()?);
        }
        Ok(())
    }
}

impl Write<'_> {
    /// How long the next statement may take: the configured bound, or the call's
    /// time left if that is less (never under 100 ms, so that a late write still
    /// learns what became of it).
    fn bound_now(&self) -> Duration {
        self.bound.min(
            self.deadline
                .saturating_duration_since(Instant::now())
                .max(Duration::from_millis(100)),
        )
    }

    /// Appends the write's record as number `seq`, notifies the replicas and
    /// commits: the write is made once this returns `Ok`.
    pub(crate) fn commit(mut self, seq: u64, changes: &str) -> Result<(), CommitError> {
        let not_made = |m: String| CommitError::NotMade(LogError(m));
        let seq_i64 = i64::try_from(seq).map_err(|_| not_made("the log is full".into()))?;
        let bound = self.bound_now();
        // One round trip for the record, the notification and the transaction's
        // id; one for the commit.
        let (changes, channel) = (changes.to_string(), self.channel.clone());
        let inserted = within(&mut self.writer, bound, move |writer| {
            let insert = writer.insert.clone();
            writer
                .client
                .query_one(&insert, &[&seq_i64, &changes, &channel])
        });
        self.open = false;
        let xid: String = match inserted {
            Ok(row) => row.get(1),
            Err(e) => {
                // Never committed: COMMIT was not sent (a connection given up is
                // closed once the server answers, which rolls its transaction back).
                if let Bounded::Failed(_) = e {
                    roll_back(&mut self.writer, bound);
                }
                let why = bounded_failed("the write's record could not be added to the log", &e);
                return Err(not_made(format!("{why}, so it was not made")));
            }
        };
        let committed_now = within(&mut self.writer, bound, |writer| {
            writer.client.batch_execute("COMMIT")
        });
        let Err(e) = committed_now else {
            return Ok(());
        };
        if let Bounded::Failed(_) = e {
            roll_back(&mut self.writer, bound);
        }
        // The commit may have happened with its answer lost: PostgreSQL knows
        // whether this transaction committed (by its id, never by the record's
        // text, which another replica's write may share).
        let why = bounded_failed("the write's commit to the log failed", &e);
        let unknown = |cause: String| CommitError::Unknown {
            message: format!(
                "{why}, and whether it was made is not known ({cause}): it was if \
                 PostgreSQL answers `committed` to SELECT txid_status({xid}) (its record \
                 is then number {seq} of the log; the number alone does not tell, since \
                 another write takes it if this one was not made); read before writing \
                 it again"
            ),
            transaction: xid.clone(),
            record: seq,
        };
        match committed(self.config, &xid, self.bound_now()) {
            Ok(Some(true)) => {
                tracing::warn!(target: "charon::replica", seq, "{why}, but its transaction committed: the write was made");
                Ok(())
            }
            Ok(Some(false)) => Err(not_made(format!("{why}, so it was not made"))),
            Ok(None) => Err(unknown(format!(
                "PostgreSQL does not know what became of its transaction {xid} yet"
            ))),
            Err(cannot) => Err(unknown(cannot.0)),
        }
    }
}

/// Rolls back what the connection in `slot` began, within `bound`; a connection
/// that does not answer, or is closed, is given up.
fn roll_back(slot: &mut Option<Writer>, bound: Duration) {
    if slot.is_none() {
        return;
    }
    let rolled = within(slot, bound, |writer| {
        writer.client.batch_execute("ROLLBACK")
    });
    if rolled.is_err() || slot.as_ref().is_some_and(|w| w.client.is_closed()) {
        *slot = None;
    }
}

impl Drop for Write<'_> {
    fn drop(&mut self) {
        if self.open {
            let bound = self.bound_now();
            roll_back(&mut self.writer, bound);
        }
    }
}

/// The right to store the log's next snapshot: a connection holding the
/// snapshot lock (one replica at a time takes one), and where the log stands.
pub(crate) struct Compaction {
    client: Client,
    table: String,
    /// The newest snapshot's record (0 for none), and the bytes of its parts.
    pub(crate) last: u64,
    pub(crate) last_bytes: u64,
    /// The bytes of the records after it.
    pub(crate) since_bytes: u64,
}

impl Log {
    /// The snapshot lock and where the log stands, on a connection of its own;
    /// `None` when another replica holds the lock (it is taking one).
    pub(crate) fn compaction(&self) -> Result<Option<Compaction>, LogError> {
        let mut client = connect(&self.config)?;
        let table = &self.config.table;
        // A lock of the session: let go when the connection closes, whatever
        // happens to this replica.
        let locked: bool = client
            .query_one("SELECT pg_try_advisory_lock($1)", &[&(self.key ^ 1)])
            .map_err(|e| failed("cannot take the snapshot lock", &e))?
            .get(0);
        if !locked {
            return Ok(None);
        }
        let row = client
            .query_one(
                &format!(
                    "WITH last AS (SELECT coalesce(max(seq), 0) AS seq FROM {table}_snapshot) \
                     SELECT last.seq, \
                       (SELECT coalesce(sum(octet_length(changes)), 0) FROM {table}_snapshot \
                        WHERE seq = last.seq)::bigint, \
                       (SELECT coalesce(sum(octet_length(changes)), 0) FROM {table} \
                        WHERE seq > last.seq)::bigint \
                     FROM last"
                ),
                &[],
            )
            .map_err(|e| failed("cannot read the log's size", &e))?;
        let count = |i: usize| row.get::<_, i64>(i).max(0) as u64;
        Ok(Some(Compaction {
            last: count(0),
            last_bytes: count(1),
            since_bytes: count(2),
            client,
            table: table.clone(),
        }))
    }
}

impl Compaction {
    /// Stores `parts` as the snapshot at record `seq`, in place of the last one,
    /// and deletes the records up to the last one; returns how many were deleted.
    pub(crate) fn store(mut self, seq: u64, parts: &[String]) -> Result<u64, LogError> {
        let table = &self.table;
        let seq = i64::try_from(seq).map_err(|_| LogError("the log is full".into()))?;
        let mut txn = self
            .client
            .transaction()
            .map_err(|e| failed("cannot store the snapshot", &e))?;
        let stored = (|| {
            txn.execute(
                &format!(
                    "INSERT INTO {table}_snapshot (seq, part, changes) \
                     SELECT $1, ord::int, changes FROM unnest($2::text[]) WITH ORDINALITY AS p(changes, ord)"
                ),
                &[&seq, &parts],
            )?;
            // The last snapshot's records go; the snapshots before this one go.
            let deleted = txn.execute(
                &format!(
                    "DELETE FROM {table} WHERE seq <= \
                     (SELECT coalesce(max(seq), 0) FROM {table}_snapshot WHERE seq < $1)"
                ),
                &[&seq],
            )?;
            txn.execute(
                &format!("DELETE FROM {table}_snapshot WHERE seq < $1"),
                &[&seq],
            )?;
            Ok::<_, postgres::Error>(deleted)
        })();
        match stored {
            Ok(deleted) => {
                txn.commit()
                    .map_err(|e| failed("cannot store the snapshot", &e))?;
                Ok(deleted)
            }
            Err(e) => Err(failed("cannot store the snapshot", &e)),
        }
    }
}

/// A connection that waits for the log's notifications.
pub(crate) struct Listener {
    client: Client,
    table: String,
    read: Statement,
}

impl Listener {
    /// Waits up to `timeout` for a notification (returns early on one).
    pub(crate) fn wait(&mut self, timeout: Duration) -> Result<(), LogError> {
        use postgres::fallible_iterator::FallibleIterator;
        let mut notifications = self.client.notifications();
        notifications
            .timeout_iter(timeout)
            .next()
            .map_err(|e| failed("lost the log's notifications", &e))?;
        // Take whatever else is pending now, so that one read serves them all.
        let mut pending = notifications.iter();
        while let Ok(Some(_)) = pending.next() {}
        Ok(())
    }

    /// The number of the last record in the log, or of its snapshot if that
    /// is newer (0 for none).
    pub(crate) fn head(&mut self) -> Result<u64, LogError> {
        let table = &self.table;
        let row = self
            .client
            .query_one(
                &format!(
                    "SELECT greatest((SELECT coalesce(max(seq), 0) FROM {table}), \
                     (SELECT coalesce(max(seq), 0) FROM {table}_snapshot))"
                ),
                &[],
            )
            .map_err(|e| failed("cannot read the log", &e))?;
        Ok(row.get::<_, i64>(0).max(0) as u64)
    }

    /// The records after `applied`, in order.
    pub(crate) fn read_after(&mut self, applied: u64) -> Result<Vec<Record>, LogError> {
        read_after(&mut self.client, &self.read, applied)
            .map_err(|e| failed("cannot read the log", &e))
    }
}

/// The statement that reads the records after `$1`, in order, preceded by the
/// parts of the snapshot when the record after `$1` was deleted with a snapshot
/// (it is below the first record the log keeps; a record missing above that is a
/// gap, which stops the replica): one statement, so the two are of one moment of
/// the log.
fn read_sql(table: &str) -> String {
    format!(
        "SELECT seq, changes, age, snapshot FROM ( \
               SELECT seq, part, changes, \
                 extract(epoch FROM clock_timestamp() - taken_at)::float8 AS age, true AS snapshot \
               FROM {table}_snapshot \
               WHERE seq = (SELECT max(seq) FROM {table}_snapshot) AND seq > $1 \
                 AND $1 + 1 < (SELECT min(seq) FROM {table}) \
               UNION ALL \
               SELECT seq, 0, changes, \
                 extract(epoch FROM clock_timestamp() - committed_at)::float8, false \
               FROM {table} WHERE seq > $1 \
             ) AS log ORDER BY snapshot DESC, seq, part"
    )
}

/// The records after `applied`, by [`read_sql`]'s statement prepared on `client`.
fn read_after(
    client: &mut Client,
    read: &Statement,
    applied: u64,
) -> Result<Vec<Record>, postgres::Error> {
    let after = i64::try_from(applied).unwrap_or(i64::MAX);
    let rows = client.query(read, &[&after])?;
    Ok(rows
        .iter()
        .map(|row| Record {
            seq: row.get::<_, i64>(0).max(0) as u64,
            changes: row.get(1),
            age: Duration::from_secs_f64(row.get::<_, f64>(2).max(0.0)),
            snapshot: row.get(3),
        })
        .collect())
}

/// Whether transaction `xid` committed (`None`: PostgreSQL cannot tell yet), asked
/// on a connection of its own (the write's may be gone), within `bound` (a
/// connection attempt aside).
fn committed(config: &ReplicaConfig, xid: &str, bound: Duration) -> Result<Option<bool>, LogError> {
    let mut client = connect(config)?;
    let xid = xid.to_string();
    bounded(bound + Duration::from_millis(500), move || {
        transaction_status(&mut client, &xid)
    })
    .unwrap_or_else(|| {
        Err(LogError(format!(
            "PostgreSQL did not answer txid_status within {} ms",
            bound.as_millis()
        )))
    })
}

/// [`committed`]'s question on `client`.
fn transaction_status(client: &mut Client, xid: &str) -> Result<Option<bool>, LogError> {
    let status: Option<String> = client
        .query_one("SELECT txid_status($1::text::bigint)", &[&xid])
        .map_err(|e| failed("cannot ask PostgreSQL about the write's transaction", &e))?
        .get(0);
    Ok(match status.as_deref() {
        Some("committed") => Some(true),
        Some("aborted") => Some(false),
        // "in progress" (the server has not seen the connection go yet): ask
        // again shortly.
        Some(_) => {
            std::thread::sleep(Duration::from_millis(500));
            let again: Option<String> = client
                .query_one("SELECT txid_status($1::text::bigint)", &[&xid])
                .map_err(|e| failed("cannot ask PostgreSQL about the write's transaction", &e))?
                .get(0);
            match again.as_deref() {
                Some("committed") => Some(true),
                Some("aborted") => Some(false),
                _ => None,
            }
        }
        None => None,
    })
}

/// The advisory lock's key for `table`: a stable hash of its name (FNV-1a), so
/// that every replica takes the same lock.
fn advisory_key(table: &str) -> i64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in b"charon:".iter().chain(table.as_bytes()) {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h as i64
}
