//! `--persist`: the knowledge base's file follows the dynamic database.
//!
//! After every write that changes dynamic predicates of the file's own module, the
//! clauses of each changed predicate are written back into the file in place of the
//! ones it had; every other byte (comments, PlDoc, directives, static clauses,
//! layout, other predicates) is kept. The file is replaced atomically: a temporary
//! file in the same directory is written and synced, renamed over the file, and the
//! directory is synced, so a crash at any instant leaves the old or the new file.
//! Writes are serialized by the engine (they run alone) and the file is written
//! before the call answers, so an answered write is on disk.
//!
//! An edit someone else makes to the file while Charon runs is never overwritten:
//! before each write Charon checks that the file is still the one it last read or
//! wrote, and if it is not, refuses the write (the database is not changed) until the
//! knowledge base is loaded again.

use std::collections::HashMap;
use std::io::Write;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

/// Why a write could not be persisted.
#[derive(Debug, Clone, thiserror::Error)]
#[non_exhaustive]
pub(crate) enum PersistError {
    /// The file changed on disk since Charon last read or wrote it.
    #[error(
        "{0} was changed by someone else since Charon loaded it; writes are refused so \
         that the edit is not overwritten: load the knowledge base again to continue"
    )]
    EditedElsewhere(PathBuf),
    /// Reading or writing the file failed.
    #[error("cannot write {path} back: {message}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What failed.
        message: String,
    },
}

/// What identifies the file's content cheaply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Stamp {
    len: u64,
    mtime_ns: i128,
    inode: u64,
}

fn stamp(path: &Path) -> std::io::Result<Stamp> {
    let m = std::fs::metadata(path)?;
    Ok(Stamp {
        len: m.len(),
        mtime_ns: i128::from(m.mtime()) * 1_000_000_000 + i128::from(m.mtime_nsec()),
        inode: m.ino(),
    })
}

/// The file a knowledge base persists to, and what Charon last knew of it.
#[derive(Debug)]
pub(crate) struct Persister {
    path: PathBuf,
    /// The content Charon last read or wrote, and its stamp.
    content: String,
    stamp: Stamp,
    /// The clauses of each dynamic predicate as last rendered, so that a predicate
    /// whose clauses did not change is left as written.
    rendered: HashMap<(String, usize), String>,
    /// The generation last written.
    pub(crate) generation: u64,
}

impl Persister {
    /// Starts following `path`; `rendered` holds the dynamic predicates' clauses as
    /// the engine renders them right after loading.
    pub(crate) fn new(
        path: &Path,
        rendered: HashMap<(String, usize), String>,
    ) -> Result<Persister, PersistError> {
        let io = |e: std::io::Error| PersistError::Io {
            path: path.to_path_buf(),
            message: e.to_string(),
        };
        let content = std::fs::read_to_string(path).map_err(io)?;
        let stamp = stamp(path).map_err(io)?;
        Ok(Persister {
            path: path.to_path_buf(),
            content,
            stamp,
            rendered,
            generation: 0,
        })
    }

    /// The file.
    pub(crate) fn path(&self) -> &Path {
        &self.path
    }

    /// Checks that nobody else changed the file since Charon last read or wrote it.
    pub(crate) fn check(&self) -> Result<(), PersistError> {
        let edited = || PersistError::EditedElsewhere(self.path.clone());
        match stamp(&self.path) {
            Ok(s) if s == self.stamp => Ok(()),
            // Touched, or replaced: compare the content itself.
            Ok(_) => match std::fs::read_to_string(&self.path) {
                Ok(text) if text == self.content => Ok(()),
                _ => Err(edited()),
            },
            Err(_) => Err(edited()),
        }
    }

    /// Writes the predicates whose clauses changed back to the file. `listing` holds
    /// the current clauses of every predicate that may have changed.
    pub(crate) fn write(
        &mut self,
        listing: HashMap<(String, usize), String>,
        generation: u64,
    ) -> Result<(), PersistError> {
        let changed: Vec<((String, usize), String)> = listing
            .into_iter()
            .filter(|(pi, text)| self.rendered.get(pi) != Some(text))
            .collect();
        if changed.is_empty() {
            self.generation = generation;
            return Ok(());
        }
        self.check()?;
        let mut text = self.content.clone();
        for (pi, clauses) in &changed {
            text = replace_clauses(&text, pi, clauses);
        }
        let io = |e: std::io::Error| PersistError::Io {
            path: self.path.clone(),
            message: e.to_string(),
        };
        write_atomically(&self.path, text.as_bytes()).map_err(io)?;
        self.stamp = stamp(&self.path).map_err(io)?;
        self.content = text;
        self.rendered.extend(changed);
        self.generation = generation;
        Ok(())
    }
}

/// `src` with the clauses of `pi` replaced by `clauses` (rendered clauses, one or
/// more lines each, ending in a newline; empty when none is left).
///
/// The clauses of `pi` come in runs (clauses with only layout between them); the
/// first run is replaced by `clauses`, the others are removed. With no clause in
/// the file, `clauses` goes after the directive that declares `pi` dynamic, or at
/// the end.
pub(crate) fn replace_clauses(src: &str, pi: &(String, usize), clauses: &str) -> String {
    let spans = charon_pldoc::clauses(src);
    let mut runs: Vec<std::ops::Range<usize>> = Vec::new();
    let mut previous_was_pi = false;
    for span in &spans {
        let is_pi = span.predicate.as_ref() == Some(pi);
        if is_pi {
            match runs.last_mut() {
                Some(run)
                    if previous_was_pi && src[run.end..span.bytes.start].trim().is_empty() =>
                {
                    run.end = span.bytes.end;
                }
                _ => runs.push(span.bytes.clone()),
            }
        }
        previous_was_pi = is_pi;
    }
    let block = clauses.trim_end_matches('\n');
    let Some(first) = runs.first().cloned() else {
        if block.is_empty() {
            return src.to_string();
        }
        let declaration = spans.iter().find(|s| {
            s.directive && {
                let t = &src[s.bytes.clone()];
                t.contains("dynamic") && mentions(t, &pi.0, pi.1)
            }
        });
        let mut out = String::with_capacity(src.len() + block.len() + 2);
        match declaration {
            Some(d) => {
                out.push_str(&src[..d.bytes.end]);
                out.push('\n');
                out.push_str(block);
                out.push_str(&src[d.bytes.end..]);
            }
            None => {
                // A predicate the file never declared: declare it, or it would load
                // back static and refuse the next change.
                out.push_str(src);
                if !src.ends_with('\n') && !src.is_empty() {
                    out.push('\n');
                }
                out.push_str(&format!(":- dynamic({}/{}).\n", quoted_atom(&pi.0), pi.1));
                out.push_str(block);
                out.push('\n');
            }
        }
        return out;
    };
    let mut out = String::with_capacity(src.len() + block.len());
    let mut at = 0;
    for (i, run) in runs.iter().enumerate() {
        out.push_str(&src[at..run.start]);
        if i == 0 {
            out.push_str(block);
        }
        at = run.end;
    }
    let _ = first;
    out.push_str(&src[at..]);
    out
}

/// `name` as Prolog source: bare when it is a plain lowercase name, else quoted.
fn quoted_atom(name: &str) -> String {
    let mut chars = name.chars();
    let plain = chars.next().is_some_and(|c| c.is_ascii_lowercase())
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_');
    if plain {
        return name.to_string();
    }
    let mut out = String::from("'");
    for c in name.chars() {
        match c {
            '\'' => out.push_str("\\'"),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c => out.push(c),
        }
    }
    out.push('\'');
    out
}

/// Whether directive text mentions `name/arity`.
fn mentions(text: &str, name: &str, arity: usize) -> bool {
    let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    [format!("{name}/{arity}"), format!("'{name}'/{arity}")]
        .iter()
        .any(|needle| compact.contains(needle.as_str()))
}

/// Replaces `path` with `bytes` so that a crash leaves the old or the new content.
fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let name = path
        .file_name()
        .map_or_else(|| "kb".into(), |n| n.to_string_lossy().into_owned());
    let tmp = dir.join(format!(".{name}.charon-{}.tmp", std::process::id()));
    let result = (|| {
        let mut file = std::fs::OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(true)
            .open(&tmp)?;
        file.write_all(bytes)?;
        if let Ok(m) = std::fs::metadata(path) {
            file.set_permissions(m.permissions())?;
        }
        file.sync_all()?;
        drop(file);
        std::fs::rename(&tmp, path)?;
        std::fs::File::open(dir)?.sync_all()
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// Splits the engine's listing (`'$charon_listing'/4` in `engine/wrapper.pl`) into
/// one text per predicate.
pub(crate) fn parse_listing(text: &str) -> HashMap<(String, usize), String> {
    let mut out: HashMap<(String, usize), String> = HashMap::new();
    let mut current: Option<(String, usize)> = None;
    for line in text.split_inclusive('\n') {
        if let Some(pi) = line.strip_prefix("%%charon ") {
            current = parse_pi(pi.trim_end());
            if let Some(pi) = &current {
                out.entry(pi.clone()).or_default();
            }
            continue;
        }
        if let Some(pi) = &current {
            out.entry(pi.clone()).or_default().push_str(line);
        }
    }
    out
}

/// `name/arity` as `writeq` prints it.
fn parse_pi(text: &str) -> Option<(String, usize)> {
    let (name, arity) = text.rsplit_once('/')?;
    let arity = arity.parse().ok()?;
    let name = match name.strip_prefix('\'').and_then(|n| n.strip_suffix('\'')) {
        Some(quoted) => quoted.replace("\\'", "'").replace("\\\\", "\\"),
        None => name.to_string(),
    };
    Some((name, arity))
}

#[cfg(test)]
mod tests {
    use super::*;

    const SRC: &str = "% head\n:- dynamic(p/1).\n:- dynamic(q/1).\n\np(1).\np(2). % two\n\nr :- p(_).\n\n/* tail */\np(3).\n";

    #[test]
    fn replaces_the_first_run_and_removes_the_others() {
        let out = replace_clauses(SRC, &("p".into(), 1), "p(9).\n");
        assert_eq!(
            out,
            "% head\n:- dynamic(p/1).\n:- dynamic(q/1).\n\np(9). % two\n\nr :- p(_).\n\n/* tail */\n\n"
        );
    }

    #[test]
    fn a_predicate_without_clauses_goes_after_its_declaration() {
        let out = replace_clauses(SRC, &("q".into(), 1), "q(a).\nq(b).\n");
        assert!(
            out.starts_with("% head\n:- dynamic(p/1).\n:- dynamic(q/1).\nq(a).\nq(b).\n\np(1).")
        );
        let out = replace_clauses("a.\n", &("z".into(), 0), "z.\n");
        assert_eq!(out, "a.\n:- dynamic(z/0).\nz.\n");
        let out = replace_clauses("a.\n", &("it's".into(), 1), "'it\\'s'(1).\n");
        assert_eq!(out, "a.\n:- dynamic('it\\'s'/1).\n'it\\'s'(1).\n");
    }

    #[test]
    fn listing_splits_by_predicate() {
        let l = parse_listing(
            "%%charon p/1\np(1).\np(2).\n%%charon 'it''s'/0\n%%charon 'a\\'b'/2\na(1, 2).\n",
        );
        assert_eq!(l[&("p".into(), 1)], "p(1).\np(2).\n");
        assert_eq!(l[&("a'b".into(), 2)], "a(1, 2).\n");
    }
}
