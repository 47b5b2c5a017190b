//! `--persist`: the knowledge base's file follows the dynamic database, and no
//! acknowledged write is ever lost.
//!
//! # Design: a journal beside the file, compacted into it
//!
//! Rewriting the changed predicates in the `.pl` on every write costs the size of the
//! predicate per write (about 95 µs per clause: a second per write at 10,000
//! facts). Instead, every write that changed something is appended to a journal
//! beside the file (`library.pl` → `library.pl.journal`, see [`journal`]) and synced
//! (`fdatasync`) before it answers: a write costs its own size, whatever the size of
//! the knowledge base. The journal's records are the changes the engine already
//! replicates between workers (`assertz(M:C)`, `retract(M:C)`, …), written with
//! every operator ignored and floats exact, so they read back identically.
//!
//! The journal is *compacted* into the `.pl` when it outgrows the file (and at least
//! 1 MiB), when the knowledge base is checkpointed (`charon http` and `charon mcp`
//! do at shutdown; the library on drop, or with `KnowledgeBase::checkpoint`), and
//! at start when it holds writes. Compaction rewrites only the predicates whose
//! clauses changed, each in place of the clauses it had (every other byte of the
//! file is kept), then starts the journal afresh from the new file. Dynamic state
//! outside the file's own module (another module's dynamic predicates, the
//! blackboard) cannot be written into the file: it is carried over as the first
//! record of the new journal. The compaction a write makes due runs beside the
//! writes (`crate::engine`'s `fold`): it folds the writes up to one generation, and
//! the writes made while it listed that state follow the carried state in the new
//! journal (written in one atomic step).
//!
//! # Recovery rules (at load)
//!
//! 1. No journal: one is created; the file is the state.
//! 2. The journal's base is the file's content: its writes are applied in order.
//! 3. The file is the one a compaction named in a `compacted` record (the process
//!    stopped between replacing the file and resetting the journal): the writes the
//!    record says the file does not hold (those after the first `covered`; after
//!    the record, in journals that do not say) are applied.
//! 4. The file is neither, and the journal holds no write: someone edited the file
//!    while Charon was stopped; the edit is the state, the journal starts afresh.
//! 5. The file is neither, and the journal holds writes: Charon refuses to load and
//!    says so ([`PersistError::Diverged`]): it will not guess how to merge an edit
//!    with acknowledged writes. Delete the journal to keep the edit and drop them.
//!    One exception: a reload in place (`KnowledgeBase::load_after`) knows the file
//!    the writes were made on (the journal's base). When the edit left every
//!    predicate they change as it was (clauses and `dynamic` declaration), and
//!    changed no directive and no `term_expansion/2` or `goal_expansion/2` clause,
//!    the writes commute with the edit: the journal is first rewritten onto the
//!    edited file (atomically, so that a crash from then on applies them by rule 2),
//!    then they are applied. Otherwise [`PersistError::EditConflicts`] names what
//!    both changed.
//!
//! A record cut short at the end of the journal (a crash while it was being
//! written, before the write was acknowledged) is dropped; damage anywhere else is
//! an error. After the writes are applied the journal is compacted at once.
//!
//! # Other people's edits
//!
//! Before each write Charon checks that the file is still the one it last read or
//! wrote (size, time and inode; the content when those changed), and before each
//! compaction it compares the content itself. An edit made while Charon runs is
//! never overwritten: writes are refused until the knowledge base is loaded again
//! (the writes already acknowledged stay in the journal, and rule 5 applies). The
//! file must also still be as it was read before the engine loaded it when the
//! journal is opened ([`PersistError::ChangedWhileLoading`] otherwise), so that the
//! database and the file never start apart.
//!
//! # Files
//!
//! A symbolic link is followed: the file it points to is the one written, and the
//! journal lies beside that file. The file is replaced atomically (a temporary file
//! beside it, created with the file's mode and owner before any byte is written,
//! synced, renamed over it, the directory synced), so a crash at any instant leaves
//! the old or the new file. A write whose record cannot be made durable is not
//! acknowledged and leaves no trace: the record is cut back off the journal, and the
//! worker that made the change is replaced.

mod file;
mod journal;
mod place;

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};

pub(crate) use journal::Entry;
pub(crate) use place::{Pi, replace_clauses};

/// Why a write could not be persisted, or a persisted knowledge base not opened.
#[derive(Debug, Clone, thiserror::Error)]
#[non_exhaustive]
pub(crate) enum PersistError {
    /// The file changed on disk since Charon last read or wrote it.
    #[error(
        "{0} was changed by someone else since Charon loaded it; writes are refused so \
         that the edit is not overwritten: reload or restart to continue"
    )]
    EditedElsewhere(PathBuf),
    /// The file changed between the engine's load and the journal's opening: what
    /// the database holds is not known to be what the file says.
    #[error("{0} changed while it was loaded; load it again")]
    ChangedWhileLoading(PathBuf),
    /// Reading or writing a file failed.
    #[error("cannot write {path} back: {message}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What failed.
        message: String,
    },
    /// The journal cannot be read.
    #[error(
        "cannot read the journal {path}: {message}; move it away to start without it (its writes are then lost)"
    )]
    Journal {
        /// The journal.
        path: PathBuf,
        /// What is wrong with it.
        message: String,
    },
    /// The file was edited while the knowledge base ran, on predicates that writes
    /// not yet in the file changed too (a reload in place; see rule 5).
    #[error(
        "{kb} was edited while Charon ran, and {journal} holds {writes} acknowledged \
         write(s) that are not in the file and change what the edit changes too ({predicates}); \
         Charon will not guess how to merge them: the knowledge base loaded before keeps \
         serving (writes refused). Put back the file as Charon wrote it and make the edit \
         again on that, or delete the journal to keep the edit and drop the writes, then \
         reload"
    )]
    EditConflicts {
        /// The knowledge base's file.
        kb: PathBuf,
        /// Its journal.
        journal: PathBuf,
        /// Writes the journal holds.
        writes: usize,
        /// The predicates both changed (or why Charon cannot tell).
        predicates: String,
    },
    /// The file was edited while the journal held writes that are not in it.
    #[error(
        "{kb} was changed since Charon last wrote it, and {journal} holds {writes} \
         acknowledged write(s) that are not in it; Charon will not guess how to merge \
         them: put back the file Charon wrote to apply the writes, or delete the journal \
         to keep the edit and drop the writes"
    )]
    Diverged {
        /// The knowledge base's file.
        kb: PathBuf,
        /// Its journal.
        journal: PathBuf,
        /// Writes the journal holds.
        writes: usize,
    },
}

/// The journal is compacted into the file once it is larger than the file and
/// than this.
const COMPACT_AT: u64 = 1 << 20;

/// The file a knowledge base persists to, its journal, and what Charon last knew of
/// the file.
#[derive(Debug)]
pub(crate) struct Persister {
    path: PathBuf,
    /// The content Charon last read or wrote, and its stamp.
    content: String,
    stamp: file::Stamp,
    /// The module whose dynamic predicates the file holds.
    module: String,
    /// The clauses of each dynamic predicate as last written to the file, so that a
    /// predicate whose clauses did not change is left as written.
    rendered: HashMap<Pi, String>,
    /// The predicates of `module` the journal's writes changed (`None`: any of them,
    /// after a write Charon could not see change by change).
    touched: Option<BTreeSet<Pi>>,
    journal: journal::Journal,
    /// The generation last made durable.
    pub(crate) generation: u64,
    /// Set once an edit by someone else is seen: writes are refused from then on.
    edited: bool,
}

/// What a knowledge base that stopped following a file (a reload in place) left of
/// it: the file's content as it last read or wrote it, and the journal's bytes then.
#[derive(Debug, Clone)]
pub(crate) struct Previous {
    /// The file (symbolic links followed).
    pub(crate) path: PathBuf,
    /// The module whose dynamic predicates the file holds.
    pub(crate) module: String,
    pub(crate) content: String,
    pub(crate) journal: Vec<u8>,
}

impl Previous {
    /// Whether the file and its journal are still exactly as left: then the
    /// knowledge base that left them may take them back.
    pub(crate) fn untouched(&self) -> bool {
        std::fs::read(&self.path).is_ok_and(|t| t == self.content.as_bytes())
            && std::fs::read(journal::path_for(&self.path)).is_ok_and(|j| j == self.journal)
    }
}

/// The listing of the dynamic state, as `'$charon_listing'/4` writes it.
#[derive(Debug, Default)]
pub(crate) struct Listing {
    /// The clauses of the file's module's dynamic predicates, per predicate.
    pub(crate) predicates: HashMap<Pi, String>,
    /// The rest of the dynamic state, as changes that recreate it (`[]` when none).
    pub(crate) carry: String,
}

impl Persister {
    /// Starts following `path` (symbolic links followed), which holds the dynamic
    /// predicates of `module`, with its journal. Returns the writes of the journal
    /// that the file does not hold yet. `previous`: what the knowledge base loaded
    /// before this one left of the file (a reload in place); its pending writes
    /// apply to an edit of the file that left every predicate they change as it was.
    /// `loaded`: the file's content as it was read before the engine loaded it;
    /// the file must still hold it.
    pub(crate) fn open(
        path: &Path,
        module: String,
        previous: Option<&Previous>,
        loaded: Option<&[u8]>,
    ) -> Result<(Persister, Vec<Entry>), PersistError> {
        let io = |e: std::io::Error| PersistError::Io {
            path: path.to_path_buf(),
            message: e.to_string(),
        };
        let path = file::target(path).map_err(io)?;
        let content = std::fs::read_to_string(&path).map_err(io)?;
        if loaded.is_some_and(|l| l != content.as_bytes()) {
            return Err(PersistError::ChangedWhileLoading(path));
        }
        let stamp = file::stamp(&path).map_err(io)?;
        let previous = previous.filter(|p| p.path == path && p.module == module);
        let (mut journal, recovered) = journal::Journal::open(
            &path,
            content.as_bytes(),
            previous.map(|p| p.content.as_bytes()),
        )?;
        if let (true, Some(previous)) = (recovered.on_previous, previous) {
            // The writes commute with the edit when it left every predicate they
            // change as it was: they are applied to it, and the journal says so
            // before anything else happens (a crash then applies them again).
            let conflicts = conflicts(&previous.content, &content, &recovered.entries, &module);
            if !conflicts.is_empty() {
                return Err(PersistError::EditConflicts {
                    kb: path.clone(),
                    journal: journal.path().to_path_buf(),
                    writes: recovered.entries.len(),
                    predicates: conflicts.join(", "),
                });
            }
            journal
                .rebase(content.as_bytes(), &recovered.entries)
                .map_err(|e| PersistError::Io {
                    path: journal.path().to_path_buf(),
                    message: e.to_string(),
                })?;
            tracing::info!(target: "charon::persist", kb = %path.display(), writes = recovered.entries.len(), "the file was edited while writes were pending; the edit leaves what they change as it was, so they apply to it");
        }
        if recovered.torn > 0 {
            tracing::warn!(target: "charon::persist", journal = %journal.path().display(), bytes = recovered.torn, "dropped an unfinished record at the end of the journal (a write that was never acknowledged)");
        }
        if !recovered.entries.is_empty() {
            tracing::info!(target: "charon::persist", journal = %journal.path().display(), writes = recovered.entries.len(), "applying the journal's writes");
        }
        let mut persister = Persister {
            path,
            content,
            stamp,
            module,
            rendered: HashMap::new(),
            touched: Some(BTreeSet::new()),
            journal,
            generation: 0,
            edited: false,
        };
        for entry in &recovered.entries {
            persister.touch(entry);
        }
        Ok((persister, recovered.entries))
    }

    /// The file.
    pub(crate) fn path(&self) -> &Path {
        &self.path
    }

    /// What is left of the file for a knowledge base loaded after this one.
    pub(crate) fn leave(self) -> Previous {
        let journal = std::fs::read(self.journal.path()).unwrap_or_default();
        Previous {
            path: self.path,
            module: self.module,
            content: self.content,
            journal,
        }
    }

    /// Whether the file holds what Charon last read or wrote (a watcher's change
    /// that is Charon's own).
    pub(crate) fn file_is_own(&self) -> bool {
        std::fs::read(&self.path).is_ok_and(|t| t == self.content.as_bytes())
    }

    /// The journal.
    pub(crate) fn journal_path(&self) -> &Path {
        self.journal.path()
    }

    /// Checks that nobody else changed the file since Charon last read or wrote it.
    pub(crate) fn check(&mut self) -> Result<(), PersistError> {
        if self.edited {
            return Err(PersistError::EditedElsewhere(self.path.clone()));
        }
        let same = match file::stamp(&self.path) {
            Ok(s) if s == self.stamp => true,
            // Touched, or replaced: compare the content itself.
            Ok(_) => std::fs::read_to_string(&self.path).is_ok_and(|t| t == self.content),
            Err(_) => false,
        };
        if same {
            Ok(())
        } else {
            self.edited = true;
            Err(PersistError::EditedElsewhere(self.path.clone()))
        }
    }

    /// Makes one write durable: appends it to the journal and syncs. On error the
    /// write must not be acknowledged (the journal holds no trace of it).
    pub(crate) fn record(&mut self, entry: &Entry, generation: u64) -> Result<(), PersistError> {
        self.journal.append(entry).map_err(|e| PersistError::Io {
            path: self.journal.path().to_path_buf(),
            message: e.to_string(),
        })?;
        self.touch(entry);
        self.generation = generation;
        Ok(())
    }

    /// Notes the predicates of the file's module that `entry` changes.
    fn touch(&mut self, entry: &Entry) {
        let Some(touched) = self.touched.as_mut() else {
            return;
        };
        match entry {
            Entry::Changes(text) => match changed_predicates(text, &self.module) {
                Some(pis) => touched.extend(pis),
                None => self.touched = None,
            },
            Entry::Snapshot(_) => self.touched = None,
        }
    }

    /// The predicates to list for the next compaction (`None`: all of them).
    pub(crate) fn touched(&self) -> Option<Vec<Pi>> {
        self.touched.as_ref().map(|t| t.iter().cloned().collect())
    }

    /// Whether the journal has outgrown the file (see [`COMPACT_AT`]).
    pub(crate) fn wants_compaction(&self) -> bool {
        self.journal.bytes() > COMPACT_AT.max(self.content.len() as u64)
    }

    /// Whether the journal holds writes the file does not.
    pub(crate) fn pending(&self) -> bool {
        self.journal.entries > 0
    }

    /// The writes the journal holds, for [`compact`](Self::compact)'s `covered`.
    pub(crate) fn records(&self) -> usize {
        self.journal.records()
    }

    /// Folds the journal's first `covered` writes into the file (`listing` is the
    /// state after them): the predicates whose clauses differ from what the file
    /// holds are rewritten, and the journal starts afresh from the new file, holding
    /// `listing.carry` (state outside the file) and the writes made since, in one
    /// atomic step.
    pub(crate) fn compact(&mut self, listing: Listing, covered: usize) -> Result<(), PersistError> {
        let io = |path: &Path, e: std::io::Error| PersistError::Io {
            path: path.to_path_buf(),
            message: e.to_string(),
        };
        // The content itself, not the stamp: an edit that kept size and time is
        // caught here before anything is overwritten.
        match std::fs::read_to_string(&self.path) {
            Ok(text) if text == self.content => {}
            _ => {
                self.edited = true;
                return Err(PersistError::EditedElsewhere(self.path.clone()));
            }
        }
        let later = self
            .journal
            .writes_from(covered)
            .map_err(|message| PersistError::Journal {
                path: self.journal.path().to_path_buf(),
                message,
            })?;
        let mut changed: Vec<(Pi, String)> = listing
            .predicates
            .into_iter()
            .filter(|(pi, text)| self.rendered.get(pi) != Some(text))
            .collect();
        // In a fixed order, so that the same state always gives the same file.
        changed.sort();
        let mut text = self.content.clone();
        for (pi, clauses) in &changed {
            text = replace_clauses(&text, pi, clauses);
        }
        if text != self.content {
            self.journal
                .compacting(text.as_bytes(), covered)
                .map_err(|e| io(self.journal.path(), e))?;
            file::replace(&self.path, text.as_bytes()).map_err(|e| io(&self.path, e))?;
            self.stamp = file::stamp(&self.path).map_err(|e| io(&self.path, e))?;
            self.content = text;
        }
        self.rendered.extend(changed);
        // What the next fold lists: what the writes made since change.
        self.touched = Some(BTreeSet::new());
        for entry in &later {
            self.touch(entry);
        }
        let carry = listing.carry.trim();
        let kept: Vec<Entry> = (!carry.is_empty() && carry != "[]")
            .then(|| Entry::Changes(carry.to_string()))
            .into_iter()
            .chain(later)
            .collect();
        self.journal
            .rebase(self.content.as_bytes(), &kept)
            .map_err(|e| io(self.journal.path(), e))?;
        Ok(())
    }
}

/// The predicates that `entries` change and that `edited` says otherwise of than
/// `base` (see [`place::predicate_text`]); every one of them, and why, when the
/// entries cannot be read predicate by predicate. Fails closed on what can change
/// how unchanged text loads: a directive added, removed or changed (`op/3`,
/// `initialization/1`, `include/1`, …) or a clause of `term_expansion/2` or
/// `goal_expansion/2` is a conflict too.
fn conflicts(base: &str, edited: &str, entries: &[Entry], module: &str) -> Vec<String> {
    let mut changed = BTreeSet::new();
    for entry in entries {
        match entry {
            Entry::Changes(text) => match changed_predicates(text, module) {
                Some(pis) => changed.extend(pis),
                None => return vec!["a write Charon cannot read change by change".into()],
            },
            Entry::Snapshot(_) => {
                return vec!["a write recorded as a whole snapshot of the state".into()];
            }
        }
    }
    let mut found: Vec<String> = changed
        .into_iter()
        .filter(|pi| place::predicate_text(base, pi) != place::predicate_text(edited, pi))
        .map(|(name, arity)| format!("{name}/{arity}"))
        .collect();
    if place::directives(base) != place::directives(edited) {
        found.push("the directives (one can change how any clause loads)".into());
    }
    for hook in ["term_expansion", "goal_expansion"] {
        let pi = (hook.to_string(), 2);
        if place::predicate_text(base, &pi) != place::predicate_text(edited, &pi) {
            found.push(format!("{hook}/2 (it can change how any clause loads)"));
        }
    }
    found
}

/// The predicates of `module` that a change list changes; `None` when the text
/// cannot be read that way.
fn changed_predicates(text: &str, module: &str) -> Option<Vec<Pi>> {
    use crate::change::Changed;
    Some(
        crate::change::changed_by(text)?
            .into_iter()
            .filter_map(|c| match c {
                Changed::Clauses {
                    module: m,
                    name,
                    arity,
                    ..
                } if m == module => Some((name, arity)),
                _ => None,
            })
            .collect(),
    )
}

/// The journal beside `path` when it holds records (writes that may not be in the
/// file yet): loading the file without `persist` would not see them.
pub(crate) fn leftover_journal(path: &Path) -> Option<PathBuf> {
    let journal = journal::path_for(&file::target(path).ok()?);
    let text = std::fs::read(&journal).ok()?;
    let lines = text.iter().filter(|&&b| b == b'\n').count();
    (lines > 1).then_some(journal)
}

/// Splits the engine's listing (`'$charon_listing'/4` in `engine/wrapper/changes.pl`): a line
/// `%%charon <arity> <name's character codes, comma-separated>` before each
/// predicate's clauses, and `%%charon-carry` before the carried state.
pub(crate) fn parse_listing(text: &str) -> Listing {
    let mut out = Listing::default();
    let mut current: Option<Pi> = None;
    let mut carrying = false;
    for line in text.split_inclusive('\n') {
        if line.trim_end() == "%%charon-carry" {
            carrying = true;
            continue;
        }
        if carrying {
            out.carry.push_str(line);
            continue;
        }
        if let Some(pi) = line.strip_prefix("%%charon ") {
            current = parse_pi(pi.trim_end());
            if let Some(pi) = &current {
                out.predicates.entry(pi.clone()).or_default();
            }
            continue;
        }
        if let Some(pi) = &current {
            out.predicates.entry(pi.clone()).or_default().push_str(line);
        }
    }
    let carry = out.carry.trim_end().trim_end_matches('.').trim_end();
    out.carry = carry.to_string();
    out
}

/// `<arity> <codes>` as the listing writes a predicate indicator.
fn parse_pi(text: &str) -> Option<Pi> {
    let (arity, codes) = text.split_once(' ').unwrap_or((text, ""));
    let name = codes
        .split(',')
        .filter(|c| !c.is_empty())
        .map(|c| c.parse::<u32>().ok().and_then(char::from_u32))
        .collect::<Option<String>>()?;
    Some((name, arity.parse().ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn changes_name_the_predicates_they_touch() {
        let pis = changed_predicates(
            "[assertz(:(user,book(a,'T',[x],1))),retract(:(user,:-(r(_1),q(_1)))),\
             retractall(:(other,p(_2))),bb_put(k,1),assertz(:(user,z))]",
            "user",
        );
        assert_eq!(
            pis,
            Some(vec![("book".into(), 4), ("r".into(), 1), ("z".into(), 0)])
        );
        assert_eq!(changed_predicates("not a list", "user"), None);
    }

    #[test]
    fn listing_splits_by_predicate() {
        let l = parse_listing(
            "%%charon 1 112\np(1).\np(2).\n%%charon 0 105,39,115\n%%charon 2 97,39,98\na(1, 2).\n%%charon-carry\n[bb_put(k,1)] .\n",
        );
        assert_eq!(l.predicates[&("p".into(), 1)], "p(1).\np(2).\n");
        assert_eq!(l.predicates[&("a'b".into(), 2)], "a(1, 2).\n");
        assert_eq!(l.carry, "[bb_put(k,1)]");
    }
}
