//! The journal beside a persisted knowledge base: every acknowledged write, appended
//! and synced before the write answers, until a compaction folds them into the file.
//!
//! The journal is text. Its first line names it and the knowledge base content it
//! follows (`charon-journal 1 base <hash> <bytes>`); then come records, each a header
//! line `<kind> <bytes> <hash>` and a payload of exactly that many bytes and a
//! newline. Kinds: `changes` (a Prolog list of the changes one write made, as the
//! engine replicates them between workers: `assertz(M:C)`, `retract(M:C)`, …),
//! `snapshot` (the whole dynamic state, after a write whose changes Charon could not
//! record one by one) and `compacted` (the payload `<hash> <bytes> <covered>` names
//! the file that the first `covered` writes of the journal were folded into; without
//! `<covered>`, as journals written before folds ran beside writes have it, every
//! write before the record). Recovery rules: see [`super`].

use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use super::PersistError;
use super::file;
use crate::change::fnv;

const MAGIC: &str = "charon-journal 1";

/// The identity of a file's content: its hash and length.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Identity {
    hash: u64,
    len: u64,
}

impl Identity {
    pub(super) fn of(bytes: &[u8]) -> Identity {
        Identity {
            hash: fnv(bytes),
            len: bytes.len() as u64,
        }
    }

    fn text(self) -> String {
        format!("{:016x} {}", self.hash, self.len)
    }

    fn parse(text: &str) -> Option<Identity> {
        let (hash, len) = text.trim().split_once(' ')?;
        Some(Identity {
            hash: u64::from_str_radix(hash, 16).ok()?,
            len: len.parse().ok()?,
        })
    }
}

/// A `compacted` record's payload: the file's identity, and how many of the
/// journal's writes it holds (`None`: those before the record).
fn marker(payload: &str) -> Option<(Identity, Option<usize>)> {
    let mut parts = payload.split_whitespace();
    let identity = Identity::parse(&format!("{} {}", parts.next()?, parts.next()?))?;
    let covered = match parts.next() {
        Some(n) => Some(n.parse().ok()?),
        None => None,
    };
    parts.next().is_none().then_some((identity, covered))
}

/// A write to apply again after a restart.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Entry {
    /// The changes of one write (a Prolog list, no final `.`).
    Changes(String),
    /// The whole dynamic state (`'$charon_dump'/3`'s format).
    Snapshot(String),
}

impl Entry {
    /// The record's kind and payload.
    fn record(&self) -> (&'static str, &str) {
        match self {
            Entry::Changes(t) => ("changes", t.as_str()),
            Entry::Snapshot(t) => ("snapshot", t.as_str()),
        }
    }
}

/// What recovery found.
#[derive(Debug, Default)]
pub(super) struct Recovered {
    /// Writes not yet in the file, oldest first.
    pub(super) entries: Vec<Entry>,
    /// Bytes of an unfinished last record that were dropped (never acknowledged).
    pub(super) torn: usize,
    /// The writes were made on the `previous` content given to [`Journal::open`],
    /// which the file no longer holds: they are to apply to an edit of it (see
    /// [`Journal::rebase`]).
    pub(super) on_previous: bool,
}

/// An open journal, positioned at its end.
#[derive(Debug)]
pub(super) struct Journal {
    path: PathBuf,
    file: std::fs::File,
    bytes: u64,
    /// Writes appended since the base.
    pub(super) entries: usize,
    /// The writes the file holds, applied or not (the index a compaction's
    /// `covered` counts in).
    records: usize,
}

/// The journal's path for a knowledge base's file.
pub(super) fn path_for(kb: &Path) -> PathBuf {
    let mut name = kb.file_name().unwrap_or_default().to_os_string();
    name.push(".journal");
    kb.with_file_name(name)
}

impl Journal {
    /// Opens (or creates) the journal of `kb`, whose content is `content`, and finds
    /// the writes that are not in it yet (see the recovery rules in [`super`]). A
    /// torn last record is cut off. `previous`: the content the knowledge base loaded
    /// before this one last read or wrote (a reload in place), whose writes may be
    /// pending against an edit of it.
    pub(super) fn open(
        kb: &Path,
        content: &[u8],
        previous: Option<&[u8]>,
    ) -> Result<(Journal, Recovered), PersistError> {
        let path = path_for(kb);
        let io = |e: std::io::Error| PersistError::Io {
            path: path.clone(),
            message: e.to_string(),
        };
        let current = Identity::of(content);
        let mut text = Vec::new();
        let mut file = match std::fs::OpenOptions::new()
            .read(true)
            .append(true)
            .open(&path)
        {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                let like = std::fs::metadata(kb).map_err(io)?;
                let mut f = file::create_like(&path, &like).map_err(io)?;
                f.write_all(header(current).as_bytes()).map_err(io)?;
                f.sync_all().map_err(io)?;
                file::sync_dir(path.parent().unwrap_or(Path::new("."))).map_err(io)?;
                let journal = Journal::append_to(path.clone()).map_err(io)?;
                return Ok((journal, Recovered::default()));
            }
            Err(e) => return Err(io(e)),
        };
        // Locked before it is read: another process may be appending to it.
        lock(&file).map_err(io)?;
        file.read_to_end(&mut text).map_err(io)?;
        let parsed = parse(&text).map_err(|message| PersistError::Journal {
            path: path.clone(),
            message,
        })?;
        let changes = parsed.records.iter().filter(|r| r.0 != "compacted").count();
        let mut on_previous = false;
        let entries = if parsed.base == current {
            // The file as the journal started from it: every write is still to apply.
            entries_after(&parsed.records, 0)
        } else if let Some((k, covered)) =
            parsed
                .records
                .iter()
                .enumerate()
                .rev()
                .find_map(|(k, r)| match marker(&r.1) {
                    Some((identity, covered)) if r.0 == "compacted" && identity == current => {
                        Some((k, covered))
                    }
                    _ => None,
                })
        {
            // A compaction wrote the file and stopped before it reset the journal:
            // the writes it did not hold are still to apply.
            match covered {
                Some(covered) => writes_from(&parsed.records, covered),
                None => entries_after(&parsed.records, k + 1),
            }
        } else if changes > 0 && previous.is_some_and(|p| Identity::of(p) == parsed.base) {
            // Edited while the knowledge base ran: the caller decides whether the
            // writes still apply.
            on_previous = true;
            entries_after(&parsed.records, 0)
        } else if changes == 0 {
            // Edited while nothing was pending: the edit is the knowledge base now.
            Vec::new()
        } else {
            return Err(PersistError::Diverged {
                kb: kb.to_path_buf(),
                journal: path,
                writes: changes,
            });
        };
        if parsed.valid < text.len() {
            file.set_len(parsed.valid as u64).map_err(io)?;
            file.sync_all().map_err(io)?;
        }
        let mut journal = Journal {
            path: path.clone(),
            file,
            bytes: parsed.valid as u64,
            entries: 0,
            records: changes,
        };
        journal.entries = entries.len();
        if parsed.base != current && entries.is_empty() {
            // Nothing pending against another base: start afresh from this file.
            journal.reset(content).map_err(io)?;
        }
        Ok((
            journal,
            Recovered {
                entries,
                torn: text.len() - parsed.valid,
                on_previous,
            },
        ))
    }

    /// Starts the journal afresh from a file of content `content`, holding
    /// `entries` (atomically): writes made on an earlier content that apply to this
    /// one as well, so that a crash from now on applies them to it.
    pub(super) fn rebase(&mut self, content: &[u8], entries: &[Entry]) -> std::io::Result<()> {
        let mut text = header(Identity::of(content));
        for entry in entries {
            let (kind, payload) = entry.record();
            text.push_str(&record(kind, payload));
        }
        file::replace(&self.path, text.as_bytes())?;
        *self = Journal::append_to(self.path.clone())?;
        self.entries = entries.len();
        self.records = entries.len();
        Ok(())
    }

    /// The writes the journal's file holds (see [`compacting`](Self::compacting)).
    pub(super) fn records(&self) -> usize {
        self.records
    }

    /// The writes of the journal's file from the `covered`-th on (read back from
    /// the file).
    pub(super) fn writes_from(&self, covered: usize) -> Result<Vec<Entry>, String> {
        let text = std::fs::read(&self.path).map_err(|e| e.to_string())?;
        let parsed = parse(&text)?;
        Ok(writes_from(&parsed.records, covered))
    }

    fn append_to(path: PathBuf) -> std::io::Result<Journal> {
        let file = std::fs::OpenOptions::new().append(true).open(&path)?;
        lock(&file)?;
        let bytes = file.metadata()?.len();
        Ok(Journal {
            path,
            file,
            bytes,
            entries: 0,
            records: 0,
        })
    }

    /// The journal's file.
    pub(super) fn path(&self) -> &Path {
        &self.path
    }

    /// Its size in bytes.
    pub(super) fn bytes(&self) -> u64 {
        self.bytes
    }

    /// Appends a write and makes it durable (`fdatasync`) before returning. On
    /// failure the journal is cut back to what it held, so that a write that was not
    /// acknowledged leaves no record.
    pub(super) fn append(&mut self, entry: &Entry) -> std::io::Result<()> {
        let (kind, payload) = entry.record();
        self.append_record(kind, payload)?;
        self.entries += 1;
        self.records += 1;
        Ok(())
    }

    /// Records that the file is about to become `content` (before it is replaced),
    /// which holds the first `covered` writes of the journal (see
    /// [`records`](Self::records)).
    pub(super) fn compacting(&mut self, content: &[u8], covered: usize) -> std::io::Result<()> {
        let payload = format!("{} {covered}", Identity::of(content).text());
        self.append_record("compacted", &payload)
    }

    fn append_record(&mut self, kind: &str, payload: &str) -> std::io::Result<()> {
        let record = record(kind, payload);
        let result = self
            .file
            .write_all(record.as_bytes())
            .and_then(|()| self.file.sync_data());
        match result {
            Ok(()) => {
                self.bytes += record.len() as u64;
                Ok(())
            }
            Err(e) => {
                let _ = self.file.set_len(self.bytes);
                Err(e)
            }
        }
    }

    /// Starts the journal afresh from a file of content `content` (atomically).
    pub(super) fn reset(&mut self, content: &[u8]) -> std::io::Result<()> {
        file::replace(&self.path, header(Identity::of(content)).as_bytes())?;
        *self = Journal::append_to(self.path.clone())?;
        Ok(())
    }
}

/// Takes the journal for this process: two processes (or two knowledge bases in one)
/// persisting one file would each fold writes the other cannot see.
fn lock(file: &std::fs::File) -> std::io::Result<()> {
    use std::os::fd::AsRawFd;
    // SAFETY: flock on a descriptor this function borrows; no memory is involved.
    let r = unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) };
    if r == 0 {
        return Ok(());
    }
    let e = std::io::Error::last_os_error();
    if e.raw_os_error() == Some(libc::EWOULDBLOCK) {
        return Err(std::io::Error::new(
            std::io::ErrorKind::WouldBlock,
            "another Charon knowledge base persists this file (its journal is locked); \
             stop it first",
        ));
    }
    Err(e)
}

fn header(base: Identity) -> String {
    format!("{MAGIC} base {}\n", base.text())
}

fn record(kind: &str, payload: &str) -> String {
    format!(
        "{kind} {} {:016x}\n{payload}\n",
        payload.len(),
        checksum(kind, payload.as_bytes())
    )
}

fn checksum(kind: &str, payload: &[u8]) -> u64 {
    let mut bytes = Vec::with_capacity(kind.len() + 1 + payload.len());
    bytes.extend_from_slice(kind.as_bytes());
    bytes.push(b' ');
    bytes.extend_from_slice(payload);
    fnv(&bytes)
}

/// A journal read back: its base, its whole records (kind, payload), and how many
/// bytes of it are valid.
#[derive(Debug)]
struct Parsed {
    base: Identity,
    records: Vec<(String, String)>,
    valid: usize,
}

/// The writes among `records` from the `covered`-th write on.
fn writes_from(records: &[(String, String)], covered: usize) -> Vec<Entry> {
    entries_after(records, 0)
        .into_iter()
        .skip(covered)
        .collect()
}

fn entries_after(records: &[(String, String)], from: usize) -> Vec<Entry> {
    records[from..]
        .iter()
        .filter_map(|(kind, payload)| match kind.as_str() {
            "changes" => Some(Entry::Changes(payload.clone())),
            "snapshot" => Some(Entry::Snapshot(payload.clone())),
            _ => None,
        })
        .collect()
}

/// Reads a journal. A damaged record is a torn write when nothing valid follows
/// it (the records after `valid` are dropped); anywhere else it is an error.
fn parse(text: &[u8]) -> Result<Parsed, String> {
    let line_end = |from: usize| {
        text[from..]
            .iter()
            .position(|&b| b == b'\n')
            .map(|i| from + i)
    };
    let first = line_end(0).ok_or("it has no header line")?;
    let head = std::str::from_utf8(&text[..first]).map_err(|_| "its header is not text")?;
    let base = head
        .strip_prefix(MAGIC)
        .and_then(|rest| rest.trim().strip_prefix("base "))
        .and_then(Identity::parse)
        .ok_or_else(|| format!("its first line is not a Charon journal header: {head:?}"))?;
    let mut records = Vec::new();
    let mut at = first + 1;
    while at < text.len() {
        match read_record(text, at) {
            Some((kind, payload, next)) => {
                records.push((kind, payload));
                at = next;
            }
            None => {
                // Torn if no later position holds a valid record.
                let later = (at + 1..text.len())
                    .filter(|&i| text[i - 1] == b'\n')
                    .any(|i| read_record(text, i).is_some());
                if later {
                    return Err(format!(
                        "the record at byte {at} is damaged and valid records follow it; \
                         the journal is corrupt"
                    ));
                }
                return Ok(Parsed {
                    base,
                    records,
                    valid: at,
                });
            }
        }
    }
    Ok(Parsed {
        base,
        records,
        valid: text.len(),
    })
}

/// The record at `at`: kind, payload and where the next one starts.
fn read_record(text: &[u8], at: usize) -> Option<(String, String, usize)> {
    let end = at + text[at..].iter().take(128).position(|&b| b == b'\n')?;
    let head = std::str::from_utf8(&text[at..end]).ok()?;
    let mut parts = head.split(' ');
    let kind = parts.next()?;
    if !matches!(kind, "changes" | "snapshot" | "compacted") {
        return None;
    }
    let len: usize = parts.next()?.parse().ok()?;
    let sum = u64::from_str_radix(parts.next()?, 16).ok()?;
    let start = end + 1;
    let stop = start.checked_add(len)?;
    if stop >= text.len() || text[stop] != b'\n' {
        return None;
    }
    let payload = &text[start..stop];
    if checksum(kind, payload) != sum {
        return None;
    }
    Some((
        kind.to_string(),
        String::from_utf8(payload.to_vec()).ok()?,
        stop + 1,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir() -> PathBuf {
        use std::sync::atomic::{AtomicU64, Ordering};
        static N: AtomicU64 = AtomicU64::new(0);
        let d = std::env::temp_dir().join(format!(
            "charon-journal-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir_all(&d).expect("dir");
        d
    }

    /// A directory with a knowledge base `kb.pl` holding `a.`.
    fn kb_a() -> (PathBuf, PathBuf) {
        let d = dir();
        let kb = d.join("kb.pl");
        std::fs::write(&kb, "a.\n").expect("write");
        (d, kb)
    }

    #[test]
    fn writes_come_back_and_a_torn_tail_is_dropped() {
        let (d, kb) = kb_a();
        let (mut j, r) = Journal::open(&kb, b"a.\n", None).expect("open");
        assert!(r.entries.is_empty());
        j.append(&Entry::Changes("[assertz(user:p('\\n'))]".into()))
            .expect("append");
        j.append(&Entry::Snapshot("decl(user,p/1).\n".into()))
            .expect("append");
        drop(j);
        // A torn third record.
        let mut f = std::fs::OpenOptions::new()
            .append(true)
            .open(path_for(&kb))
            .expect("open");
        f.write_all(b"changes 40 0000000000000000\n[assertz(")
            .expect("write");
        drop(f);
        let (j, r) = Journal::open(&kb, b"a.\n", None).expect("open again");
        assert_eq!(
            r.entries,
            vec![
                Entry::Changes("[assertz(user:p('\\n'))]".into()),
                Entry::Snapshot("decl(user,p/1).\n".into())
            ]
        );
        assert!(r.torn > 0);
        assert_eq!(
            j.bytes(),
            std::fs::metadata(path_for(&kb)).expect("m").len()
        );
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn a_write_that_cannot_be_made_durable_leaves_no_record() {
        let (d, kb) = kb_a();
        let (mut j, _) = Journal::open(&kb, b"a.\n", None).expect("open");
        // A device that is always full stands in for a full disk.
        j.file = std::fs::OpenOptions::new()
            .append(true)
            .open("/dev/full")
            .expect("/dev/full");
        assert!(
            j.append(&Entry::Changes("[assertz(user:b)]".into()))
                .is_err()
        );
        assert_eq!(j.entries, 0);
        let (_, r) = Journal::open(&kb, b"a.\n", None).expect("open again");
        assert!(r.entries.is_empty());
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn a_second_owner_is_refused() {
        let (d, kb) = kb_a();
        let (_j, _) = Journal::open(&kb, b"a.\n", None).expect("open");
        let err = Journal::open(&kb, b"a.\n", None).expect_err("locked");
        assert!(err.to_string().contains("another Charon"), "{err}");
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn a_compaction_that_stopped_halfway_is_recognised() {
        let (d, kb) = kb_a();
        let (mut j, _) = Journal::open(&kb, b"a.\n", None).expect("open");
        j.append(&Entry::Changes("[assertz(user:b)]".into()))
            .expect("append");
        j.compacting(b"a.\nb.\n", 1).expect("mark");
        drop(j);
        // The file was not replaced: the write is applied again.
        let (j, r) = Journal::open(&kb, b"a.\n", None).expect("open");
        assert_eq!(r.entries, vec![Entry::Changes("[assertz(user:b)]".into())]);
        drop(j);
        // The file was replaced, the journal not reset: nothing is pending (and the
        // journal starts afresh from the file).
        let (mut j, r) = Journal::open(&kb, b"a.\nb.\n", None).expect("open");
        assert!(r.entries.is_empty());
        assert_eq!(j.records(), 0);
        // A fold that ran beside writes holds the first of two: the second applies.
        j.append(&Entry::Changes("[assertz(user:c)]".into()))
            .expect("append");
        j.append(&Entry::Changes("[assertz(user:d)]".into()))
            .expect("append");
        assert_eq!(j.records(), 2);
        j.compacting(b"a.\nb.\nc.\n", 1).expect("mark");
        assert_eq!(
            j.writes_from(1).expect("read back"),
            vec![Entry::Changes("[assertz(user:d)]".into())]
        );
        drop(j);
        let (_, r) = Journal::open(&kb, b"a.\nb.\nc.\n", None).expect("open");
        assert_eq!(r.entries, vec![Entry::Changes("[assertz(user:d)]".into())]);
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn an_edit_while_writes_are_pending_is_refused_and_damage_in_the_middle_too() {
        let (d, kb) = kb_a();
        let (mut j, _) = Journal::open(&kb, b"a.\n", None).expect("open");
        j.append(&Entry::Changes("[assertz(user:b)]".into()))
            .expect("append");
        j.append(&Entry::Changes("[assertz(user:c)]".into()))
            .expect("append");
        drop(j);
        let err = Journal::open(&kb, b"edited.\n", None).expect_err("diverged");
        assert!(
            matches!(err, PersistError::Diverged { writes: 2, .. }),
            "{err}"
        );
        let p = path_for(&kb);
        let mut text = std::fs::read(&p).expect("read");
        let at = text
            .windows(5)
            .position(|w| w == b"(user")
            .expect("payload");
        text[at + 1] = b'X';
        std::fs::write(&p, &text).expect("write");
        let err = Journal::open(&kb, b"a.\n", None).expect_err("corrupt");
        assert!(matches!(err, PersistError::Journal { .. }), "{err}");
        let _ = std::fs::remove_dir_all(&d);
    }
}
