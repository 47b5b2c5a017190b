//! A write's change record, the layer below the engine, the journal (`persist`) and
//! the replica log (`replica`), which all read it: what a write changed
//! ([`Changed`], read by [`changed_by`] from the change list the wrapper records),
//! and the hash ([`fnv`]) that names a file's content and checks records. It
//! imports nothing of Charon but the term reader and the answer cache's keys.

/// A 64-bit FNV-1a hash: names a file's content in the journal, and checks
/// journal records. Not a defence against someone who can write the files (they
/// can write anything); a guard against torn writes and honest mix-ups.
pub(crate) fn fnv(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// One recorded change, as [`changed_by`] reads it from a change list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Changed {
    /// A clause of `name/arity` in `module` was added or removed.
    Clauses {
        module: String,
        name: String,
        arity: usize,
        /// The head's arguments, each as a key when atomic (see
        /// [`crate::cache::term_key`]).
        keys: Vec<Option<u64>>,
        /// `retract/1` or `retractall/1`.
        removal: bool,
    },
    /// A blackboard key was set.
    Blackboard,
}

/// What a change list (`[assertz(M:C), retract(M:C), retractall(M:H), bb_put(K, V),
/// …]`, as the wrapper records it) changes; `None` when the text cannot be read
/// that way — or nests deeper than an answer may (a term that deep could not even be
/// dropped safely once read): then everything counts as changed.
pub(crate) fn changed_by(text: &str) -> Option<Vec<Changed>> {
    use crate::term::PlTerm;
    let depth = crate::term::MAX_ANSWER_DEPTH + 8;
    let PlTerm::List(changes) = crate::term::read_term(text, depth).ok()? else {
        return None;
    };
    changes
        .iter()
        .map(|change| {
            let PlTerm::Compound(kind, args) = change else {
                return None;
            };
            if kind == "bb_put" {
                return Some(Changed::Blackboard);
            }
            let [PlTerm::Compound(colon, qualified)] = args.as_slice() else {
                return None;
            };
            let [PlTerm::Atom(module), clause] = qualified.as_slice() else {
                return None;
            };
            if colon != ":" {
                return None;
            }
            let head = match clause {
                PlTerm::Compound(neck, parts) if neck == ":-" && parts.len() == 2 => &parts[0],
                other => other,
            };
            let (name, arity, keys) = match head {
                PlTerm::Atom(name) => (name.clone(), 0, Vec::new()),
                PlTerm::Compound(name, args) => (
                    name.clone(),
                    args.len(),
                    args.iter().map(crate::cache::term_key).collect(),
                ),
                // A list or a string as a head: '.'/2 (nothing a file would hold).
                _ => return None,
            };
            Some(Changed::Clauses {
                module: module.clone(),
                name,
                arity,
                keys,
                removal: kind.starts_with("retract"),
            })
        })
        .collect()
}
