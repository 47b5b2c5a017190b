//! Talking to PostgreSQL within bounds: connections that cannot hang (a first
//! question asked with a timeout of its own, the handshake on a thread given up
//! after a bound), statements given up the same way, and at most a few connections
//! left waiting for answers that never came.

use std::sync::Arc;
use std::sync::atomic::{AtomicU8, AtomicUsize, Ordering};
use std::time::Duration;

use postgres::{Client, NoTls};

use super::ReplicaConfig;

/// Why the log could not be read or written.
#[derive(Debug, Clone, thiserror::Error)]
#[error("{0}")]
pub(crate) struct LogError(pub(crate) String);

/// How long a connection attempt may take.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(3);

/// Helper threads whose statement was given up on (see [`bounded`]) and is still
/// waiting for PostgreSQL's answer, each holding a connection.
static GIVEN_UP: AtomicUsize = AtomicUsize::new(0);

/// Past this many connections given up and still waiting, no new connection is
/// made: a server that accepts connections and never answers would otherwise
/// gather one connection and one thread per write until it answered.
const MAX_GIVEN_UP: usize = 8;

/// Runs `work` on a thread of its own and waits at most `bound` for its result;
/// `None` when it did not end in time (or no thread could be started). A late
/// result is dropped on that thread when it comes (a connection in it is closed
/// then), and counted in [`GIVEN_UP`] until it does.
pub(super) fn bounded<T: Send + 'static>(
    bound: Duration,
    work: impl FnOnce() -> T + Send + 'static,
) -> Option<T> {
    const RUNNING: u8 = 0;
    const DONE: u8 = 1;
    const ABANDONED: u8 = 2;
    let state = Arc::new(AtomicU8::new(RUNNING));
    let (tx, rx) = std::sync::mpsc::sync_channel(1);
    let theirs = Arc::clone(&state);
    std::thread::Builder::new()
        .name("charon-log-io".into())
        .spawn(move || {
            let out = work();
            if theirs.swap(DONE, Ordering::AcqRel) == ABANDONED {
                GIVEN_UP.fetch_sub(1, Ordering::AcqRel);
            } else {
                let _ = tx.send(out);
            }
        })
        .ok()?;
    if let Ok(out) = rx.recv_timeout(bound) {
        return Some(out);
    }
    // Counted before the thread can see it abandoned, so it never goes below 0.
    GIVEN_UP.fetch_add(1, Ordering::AcqRel);
    match state.compare_exchange(RUNNING, ABANDONED, Ordering::AcqRel, Ordering::Acquire) {
        Ok(_) => None,
        Err(_) => {
            // It ended just now: its result is on its way.
            GIVEN_UP.fetch_sub(1, Ordering::AcqRel);
            rx.recv().ok()
        }
    }
}

/// A connection to the log's PostgreSQL: probed first (see [`answers`]), its
/// handshake bounded, never more than [`MAX_GIVEN_UP`] left waiting.
pub(super) fn connect(config: &ReplicaConfig) -> Result<Client, LogError> {
    let waiting = GIVEN_UP.load(Ordering::Acquire);
    if waiting >= MAX_GIVEN_UP {
        return Err(LogError(format!(
            "cannot connect to PostgreSQL: {waiting} earlier connections still wait for an \
             answer it never gave (a stopped or overloaded server); no new one is made until \
             it answers them"
        )));
    }
    let mut pg: postgres::Config = config
        .url
        .parse()
        .map_err(|_| LogError("the PostgreSQL connection string cannot be read".into()))?;
    if pg.get_connect_timeout().is_none() {
        pg.connect_timeout(CONNECT_TIMEOUT);
    }
    answers(&pg)?;
    // "relation … already exists, skipping" and the like are not worth a log line;
    // no statement waits for ever (a write's sets its own limit). The options of
    // the connection string come first and stay.
    let options = format!(
        "{} -c client_min_messages=warning -c statement_timeout=30000",
        pg.get_options().unwrap_or_default()
    );
    // A silent network fails the connection within seconds, never after the
    // kernel's quarter of an hour of retransmissions.
    pg.options(options.trim_start())
        .keepalives(true)
        .keepalives_idle(Duration::from_secs(10))
        .keepalives_interval(Duration::from_secs(2))
        .keepalives_retries(3)
        .tcp_user_timeout(Duration::from_secs(15))
        .application_name("charon");
    // The probe saw the server answer; the handshake that follows (startup,
    // authentication) is bounded too, on a thread of its own.
    let bound = pg.get_connect_timeout().copied().unwrap_or(CONNECT_TIMEOUT) + CONNECT_TIMEOUT;
    match bounded(bound, move || pg.connect(NoTls)) {
        Some(connected) => connected.map_err(|e| failed("cannot connect to PostgreSQL", &e)),
        None => Err(LogError(format!(
            "cannot connect to PostgreSQL: it accepted the connection but did not finish \
             the handshake within {} s (a stopped or overloaded server)",
            bound.as_secs()
        ))),
    }
}

/// Whether the server `pg` leads to (the first of its hosts that takes a
/// connection) answers PostgreSQL's first message within
/// [`CONNECT_TIMEOUT`]. The driver bounds the socket's connection only: a peer that
/// accepts it and never answers (a stopped server, whose kernel still accepts; a
/// proxy whose other side is gone) would hold the handshake, and a replica's
/// start, for ever. So an SSLRequest (8 bytes, answered by one byte, `S` or `N`,
/// by every PostgreSQL) goes first, on a connection of its own with a read timeout.
fn answers(pg: &postgres::Config) -> Result<(), LogError> {
    // The driver tries the hosts in order, going on past one it cannot reach: so
    // does the probe, and the first host that takes the connection decides.
    let ports = pg.get_ports();
    for (i, host) in pg.get_hosts().iter().enumerate() {
        let port = ports
            .get(i)
            .or_else(|| ports.first())
            .copied()
            .unwrap_or(5432);
        let (place, answer) = probe(host, port);
        match answer {
            Ok(b'S' | b'N') => return Ok(()),
            Ok(other) => {
                return Err(LogError(format!(
                    "cannot connect to PostgreSQL: {place} answered its first message with \
                     {other:#04x}, which no PostgreSQL server sends (is it PostgreSQL?)"
                )));
            }
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) =>
            {
                return Err(LogError(format!(
                    "cannot connect to PostgreSQL: {place} accepted the connection but did not \
                     answer within {} s (a stopped server, or a proxy whose other side is gone)",
                    CONNECT_TIMEOUT.as_secs()
                )));
            }
            // Refused, unreachable, …: the driver goes on to the next host, and its
            // own attempt says best why none took the connection.
            Err(_) => {}
        }
    }
    Ok(())
}

/// Asks `host` at `port` PostgreSQL's first question (an SSLRequest, within
/// [`CONNECT_TIMEOUT`]): where it was asked, and the one-byte answer.
fn probe(host: &postgres::config::Host, port: u16) -> (String, std::io::Result<u8>) {
    use std::io::{Read, Write};
    const SSL_REQUEST: [u8; 8] = [0, 0, 0, 8, 0x04, 0xd2, 0x16, 0x2f];
    fn ask<S: Read + Write>(mut s: S) -> std::io::Result<u8> {
        s.write_all(&SSL_REQUEST)?;
        let mut byte = [0u8];
        s.read_exact(&mut byte)?;
        Ok(byte[0])
    }
    match host {
        postgres::config::Host::Tcp(host) => {
            let place = format!("{host}:{port}");
            let answer = std::net::ToSocketAddrs::to_socket_addrs(&(host.as_str(), port))
                .and_then(|mut addrs| {
                    addrs
                        .next()
                        .ok_or_else(|| std::io::ErrorKind::NotFound.into())
                })
                .and_then(|addr| std::net::TcpStream::connect_timeout(&addr, CONNECT_TIMEOUT))
                .and_then(|s| {
                    s.set_read_timeout(Some(CONNECT_TIMEOUT))?;
                    s.set_write_timeout(Some(CONNECT_TIMEOUT))?;
                    ask(s)
                });
            (place, answer)
        }
        postgres::config::Host::Unix(dir) => {
            let path = dir.join(format!(".s.PGSQL.{port}"));
            let answer = std::os::unix::net::UnixStream::connect(&path).and_then(|s| {
                s.set_read_timeout(Some(CONNECT_TIMEOUT))?;
                s.set_write_timeout(Some(CONNECT_TIMEOUT))?;
                ask(s)
            });
            (path.display().to_string(), answer)
        }
    }
}

/// A message for `e` that never holds the connection string (the driver's
/// errors do not; the server's name the database and role at most).
pub(super) fn failed(what: &str, e: &postgres::Error) -> LogError {
    let why = match e.as_db_error() {
        Some(db) => db.message().to_string(),
        None => e.to_string(),
    };
    LogError(format!("{what}: {why}"))
}
