//! The log's tables in PostgreSQL, the transaction a write runs in, and the
//! connection a replica listens on.
//!
//! Tables (created if missing; `T` is [`ReplicaConfig::table`]):
//!
//! ```sql
//! CREATE TABLE T (seq bigint PRIMARY KEY, changes text NOT NULL,
//!                 committed_at timestamptz NOT NULL DEFAULT clock_timestamp());
//! CREATE TABLE T_base (id int PRIMARY KEY CHECK (id = 1), sha256 text NOT NULL,
//!                      file text NOT NULL);
//! ```
//!
//! The role needs `CREATE` on the schema the first time (or the tables made by an
//! administrator), then `SELECT` and `INSERT` on both.

use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

use postgres::{Client, NoTls};

use super::ReplicaConfig;

/// One committed write: its number (the generation it makes), its change
/// record, and how long ago it was committed, by the database's clock.
#[derive(Debug, Clone)]
pub(crate) struct Record {
    pub(crate) seq: u64,
    pub(crate) changes: String,
    pub(crate) age: Duration,
}

/// Why the log could not be read or written.
#[derive(Debug, Clone, thiserror::Error)]
#[error("{0}")]
pub(crate) struct LogError(pub(crate) String);

/// How long a connection attempt may take.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(3);

/// The log of one knowledge base, and the connection its writes go through.
pub(crate) struct Log {
    config: ReplicaConfig,
    /// `None` while disconnected: the next write connects again.
    writer: Mutex<Option<Client>>,
    /// The advisory lock that makes writes run one at a time.
    key: i64,
}

impl std::fmt::Debug for Log {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Log").field("config", &self.config).finish()
    }
}

/// A write's transaction, holding the log's lock: committed with its record, or
/// rolled back when dropped.
pub(crate) struct Write<'a> {
    client: MutexGuard<'a, Option<Client>>,
    table: &'a str,
    channel: String,
    open: bool,
}

impl Log {
    /// Connects, creates the tables if they are missing, and checks that the log
    /// was started on this file (`sha256` of its bytes; `file` names it in the
    /// error): a replica of another file would not agree with the others.
    pub(crate) fn open(config: &ReplicaConfig, sha256: &str, file: &str) -> Result<Log, LogError> {
        let table = &config.table;
        if table.is_empty()
            || table.len() > 40
            || !table
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_')
            || table.as_bytes()[0].is_ascii_digit()
        {
            return Err(LogError(format!(
                "the log's table name {table:?} must be 1 to 40 letters, digits or _ (not first)"
            )));
        }
        let mut client = connect(config)?;
        client
            .batch_execute(&format!(
                "CREATE TABLE IF NOT EXISTS {table} (seq bigint PRIMARY KEY, changes text NOT NULL, \
                 committed_at timestamptz NOT NULL DEFAULT clock_timestamp());\n\
                 CREATE TABLE IF NOT EXISTS {table}_base (id int PRIMARY KEY CHECK (id = 1), \
                 sha256 text NOT NULL, file text NOT NULL);"
            ))
            .map_err(|e| failed("cannot create the log's tables", &e))?;
        client
            .execute(
                &format!(
                    "INSERT INTO {table}_base (id, sha256, file) VALUES (1, $1, $2) \
                     ON CONFLICT (id) DO NOTHING"
                ),
                &[&sha256, &file],
            )
            .map_err(|e| failed("cannot record the log's base", &e))?;
        let row = client
            .query_one(
                &format!("SELECT sha256, file FROM {table}_base WHERE id = 1"),
                &[],
            )
            .map_err(|e| failed("cannot read the log's base", &e))?;
        let (base, base_file): (String, String) = (row.get(0), row.get(1));
        if base != sha256 {
            return Err(LogError(format!(
                "the log {table} was started on another file ({base_file}, SHA-256 {base}) than \
                 {file} (SHA-256 {sha256}): every replica must load the same file; to start a \
                 new log on this one, use another table name"
            )));
        }
        Ok(Log {
            key: advisory_key(table),
            config: config.clone(),
            writer: Mutex::new(Some(client)),
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
        if guard.as_ref().is_none_or(Client::is_closed) {
            *guard = None;
            *guard = Some(connect(&self.config)?);
        }
        let left = deadline
            .saturating_duration_since(Instant::now())
            .max(Duration::from_millis(100));
        let client = guard.as_mut().expect("connected above");
        let begun = client
            .batch_execute(&format!(
                "BEGIN; SET LOCAL statement_timeout = {}; SELECT pg_advisory_xact_lock({});",
                left.as_millis(),
                self.key
            ))
            .and_then(|()| read_after(client, &self.config.table, applied));
        match begun {
            Ok(records) => Ok((
                Write {
                    client: guard,
                    table: &self.config.table,
                    channel: self.channel(),
                    open: true,
                },
                records,
            )),
            Err(e) => {
                let _ = client.batch_execute("ROLLBACK");
                if client.is_closed() {
                    *guard = None;
                }
                Err(failed("cannot lock the log for a write", &e))
            }
        }
    }

    /// Every record after `applied`, on a connection of its own (`listener`).
    pub(crate) fn listen(&self) -> Result<Listener, LogError> {
        let mut client = connect(&self.config)?;
        client
            .batch_execute(&format!("LISTEN {};", self.channel()))
            .map_err(|e| failed("cannot listen to the log", &e))?;
        Ok(Listener {
            client,
            table: self.config.table.clone(),
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
    /// Appends the write's record as number `seq`, notifies the replicas and
    /// commits: the write is made once this returns `Ok`.
    pub(crate) fn commit(mut self, seq: u64, changes: &str) -> Result<(), LogError> {
        let client = self.client.as_mut().expect("a write holds a connection");
        let seq_i64 = i64::try_from(seq).map_err(|_| LogError("the log is full".into()))?;
        // One round trip for the record and the notification, one for the commit.
        let done = client
            .execute(
                &format!(
                    "WITH record AS (INSERT INTO {} (seq, changes) VALUES ($1, $2) RETURNING seq) \
                     SELECT pg_notify($3, seq::text) FROM record",
                    self.table
                ),
                &[&seq_i64, &changes, &self.channel],
            )
            .and_then(|_| client.batch_execute("COMMIT"));
        self.open = false;
        done.map_err(|e| {
            let _ = client.batch_execute("ROLLBACK");
            failed(
                "the write could not be committed to the log, so it was not made",
                &e,
            )
        })
    }
}

impl Drop for Write<'_> {
    fn drop(&mut self) {
        if self.open
            && let Some(client) = self.client.as_mut()
            && client.batch_execute("ROLLBACK").is_err()
        {
            *self.client = None;
        }
    }
}

/// A connection that waits for the log's notifications.
pub(crate) struct Listener {
    client: Client,
    table: String,
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

    /// The records after `applied`, in order.
    pub(crate) fn read_after(&mut self, applied: u64) -> Result<Vec<Record>, LogError> {
        read_after(&mut self.client, &self.table, applied)
            .map_err(|e| failed("cannot read the log", &e))
    }
}

fn read_after(
    client: &mut Client,
    table: &str,
    applied: u64,
) -> Result<Vec<Record>, postgres::Error> {
    let after = i64::try_from(applied).unwrap_or(i64::MAX);
    let rows = client.query(
        &format!(
            "SELECT seq, changes, extract(epoch FROM clock_timestamp() - committed_at)::float8 \
             FROM {table} WHERE seq > $1 ORDER BY seq"
        ),
        &[&after],
    )?;
    Ok(rows
        .iter()
        .map(|row| Record {
            seq: row.get::<_, i64>(0).max(0) as u64,
            changes: row.get(1),
            age: Duration::from_secs_f64(row.get::<_, f64>(2).max(0.0)),
        })
        .collect())
}

fn connect(config: &ReplicaConfig) -> Result<Client, LogError> {
    let mut pg: postgres::Config = config
        .url
        .parse()
        .map_err(|_| LogError("the PostgreSQL connection string cannot be read".into()))?;
    if pg.get_connect_timeout().is_none() {
        pg.connect_timeout(CONNECT_TIMEOUT);
    }
    // "relation … already exists, skipping" and the like are not worth a log line.
    pg.options("-c client_min_messages=warning")
        .keepalives(true)
        .keepalives_idle(Duration::from_secs(10))
        .application_name("charon");
    pg.connect(NoTls)
        .map_err(|e| failed("cannot connect to PostgreSQL", &e))
}

/// A message for `e` that never holds the connection string (the driver's
/// errors do not; the server's name the database and role at most).
fn failed(what: &str, e: &postgres::Error) -> LogError {
    let why = match e.as_db_error() {
        Some(db) => db.message().to_string(),
        None => e.to_string(),
    };
    LogError(format!("{what}: {why}"))
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
