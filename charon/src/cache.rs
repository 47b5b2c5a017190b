//! Answers of pure, read-only operations, kept until the database changes what
//! they read.
//!
//! An entry is tagged with the database generation seen *before* its call ran. A
//! lookup returns it only if no change the operation can read has committed since:
//! [`Freshness`] keeps, for each operation, the generation of the last committed
//! change to something it reads (the predicates it can reach through every rule, as
//! the analysis proves them; see `analysis::Analysis::reads`), and the engine moves
//! those marks *before* it publishes the generation a write commits. A change that
//! commits while a call runs therefore never leaves a stale answer behind: at worst
//! the entry is never used (and is evicted like any other). A write to a predicate
//! no rule of an operation reaches leaves that operation's answers in place; a write
//! whose changes Charon cannot name (a full dump), and an operation that may read
//! anything (`clause/2` on a head known only when it runs), fall back to the old
//! rule: every write forgets the answer.
//!
//! The cache is bounded by the bytes it holds (the key, which is the call's goal
//! text, and the answer's JSON), not by a count of entries: one call with a
//! megabyte argument weighs what a thousand small ones do. Admission and eviction
//! are `quick_cache`'s (CLOCK-Pro): keys seen once do not push out keys in use.

use std::collections::{BTreeSet, HashMap};
use std::hash::BuildHasher;
use std::sync::atomic::{AtomicU64, Ordering};

use quick_cache::Weighter;
use quick_cache::sync::Cache;
use serde_json::Value;

/// Bytes counted for an entry beyond its key and answer (the cache's own
/// bookkeeping, the `Value` nodes).
const ENTRY_OVERHEAD: u64 = 96;

#[derive(Clone)]
struct Weight;

/// What a cached value weighs, in bytes (about).
pub(crate) trait Weigh {
    fn weigh(&self) -> u64;
}

impl Weigh for Value {
    fn weigh(&self) -> u64 {
        json_bytes(self)
    }
}

impl<V: Weigh> Weighter<String, (u64, V)> for Weight {
    fn weight(&self, key: &String, value: &(u64, V)) -> u64 {
        ENTRY_OVERHEAD + key.len() as u64 + value.1.weigh()
    }
}

/// About the memory a JSON value holds, counted without recursion.
fn json_bytes(value: &Value) -> u64 {
    let mut total = 0u64;
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        total += 32;
        match v {
            Value::String(s) => total += s.len() as u64,
            Value::Number(_) => total += 8,
            Value::Array(items) => stack.extend(items.iter()),
            Value::Object(map) => {
                for (k, v) in map {
                    total += k.len() as u64 + 32;
                    stack.push(v);
                }
            }
            Value::Null | Value::Bool(_) => {}
        }
    }
    total
}

/// Counters of the answer cache since start.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct CacheStats {
    /// Calls answered from the cache.
    pub hits: u64,
    /// Cacheable calls that had to run.
    pub misses: u64,
    /// Entries held now.
    pub entries: u64,
    /// Bytes held now (keys and answers, estimated).
    pub bytes: u64,
    /// The bound on `bytes`.
    pub capacity: u64,
}

/// Answers by key, each tagged with the generation it was computed at (`V`: the
/// JSON answer of a call, or another cheap-to-clone answer with a known weight).
pub(crate) struct AnswerCache<V: Weigh + Clone = Value> {
    capacity: u64,
    entries: Option<Cache<String, (u64, V), Weight>>,
    hits: AtomicU64,
    misses: AtomicU64,
}

impl<V: Weigh + Clone> std::fmt::Debug for AnswerCache<V> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AnswerCache")
            .field("capacity", &self.capacity)
            .finish_non_exhaustive()
    }
}

impl<V: Weigh + Clone> AnswerCache<V> {
    /// A cache holding at most `capacity` bytes (0: no cache).
    pub(crate) fn new(capacity: u64) -> Self {
        // quick_cache sizes its tables from an estimate of the entry count; small
        // answers (a few hundred bytes) are the common case.
        let estimated = usize::try_from(capacity / 512)
            .unwrap_or(usize::MAX)
            .clamp(16, 1 << 20);
        AnswerCache {
            capacity,
            entries: (capacity > 0).then(|| Cache::with_weighter(estimated, capacity, Weight)),
            hits: AtomicU64::new(0),
            misses: AtomicU64::new(0),
        }
    }

    pub(crate) fn enabled(&self) -> bool {
        self.entries.is_some()
    }

    /// The answer under `key` if it was computed at generation `fresh_since` or
    /// later (the current generation, or the last change its operation can read: see
    /// [`Freshness::since`]).
    pub(crate) fn get(&self, key: &str, fresh_since: u64) -> Option<V> {
        let entries = self.entries.as_ref()?;
        let found = entries
            .get(key)
            .and_then(|(g, v)| (g >= fresh_since).then_some(v));
        let counter = if found.is_some() {
            &self.hits
        } else {
            &self.misses
        };
        counter.fetch_add(1, Ordering::Relaxed);
        found
    }

    pub(crate) fn insert(&self, key: String, generation: u64, value: V) {
        if let Some(entries) = &self.entries {
            entries.insert(key, (generation, value));
        }
    }

    pub(crate) fn stats(&self) -> CacheStats {
        CacheStats {
            hits: self.hits.load(Ordering::Relaxed),
            misses: self.misses.load(Ordering::Relaxed),
            entries: self.entries.as_ref().map_or(0, |c| c.len() as u64),
            bytes: self.entries.as_ref().map_or(0, |c| c.weight()),
            capacity: self.capacity,
        }
    }
}

/// Something an answer can depend on, which a write can change.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) enum Dependency {
    /// The clauses of every predicate of this name and arity, in any module.
    Predicate(String, usize),
    /// The blackboard (`bb_get/2`, `bb_put/2`).
    Blackboard,
}

impl std::fmt::Display for Dependency {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Dependency::Predicate(name, arity) => {
                write!(f, "{name}/{arity}")
            }
            Dependency::Blackboard => f.write_str("the blackboard"),
        }
    }
}

/// What an operation's answers depend on, as the analysis proves it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Reads {
    /// Only these.
    Only(BTreeSet<Dependency>),
    /// Anything: the reason.
    Anything(String),
}

/// How an operation's answers are scoped by keys: for some of the predicates it
/// reads, inputs of type atom or integer that every call of the predicate passes on
/// unchanged (see `analysis::keys`). A call's answer reads only the clauses whose
/// arguments there are its inputs' values (or not atomic), so a change to a clause
/// whose arguments there hold other atomic values cannot change it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct KeyScope {
    /// The sets of key positions in the operation's predicate, each sorted; a call
    /// has one key per set (the hash of its values there, see [`combine`]).
    pub sets: Vec<Vec<usize>>,
    /// The predicates read by key: the set their key is made of (an index into
    /// `sets`) and, for each of its positions, the argument of the predicate that
    /// holds it.
    pub through: HashMap<Dependency, (usize, Vec<usize>)>,
}

/// The key of several atomic values, in order.
pub(crate) fn combine(keys: &[u64]) -> u64 {
    KEY_HASH.hash_one(keys)
}

/// One recorded change: what it changed, and the first-level arguments of the
/// clause head it added or removed, each as a key when it is an atom or an integer
/// (see [`term_key`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Change {
    pub dep: Dependency,
    pub keys: Vec<Option<u64>>,
    /// A removal (`retract/1`, `retractall/1`): its record is the pattern, with the
    /// values the removed clause was matched with, so a clause with a variable
    /// there may have gone.
    pub removal: bool,
}

/// The key of an atomic term: atoms and integers (the only terms a key is taken
/// from) hash apart from each other and from everything else.
pub(crate) fn term_key(term: &crate::term::PlTerm) -> Option<u64> {
    use crate::term::PlTerm;
    match term {
        PlTerm::Atom(a) => Some(atom_key(a)),
        PlTerm::Int(digits) => Some(int_key(digits)),
        _ => None,
    }
}

/// The key of the atom named `text`.
pub(crate) fn atom_key(text: &str) -> u64 {
    keyed(b'a', text)
}

/// The key of the integer written `digits` (decimal, `-` for a negative one).
pub(crate) fn int_key(digits: &str) -> u64 {
    keyed(b'i', digits)
}

fn keyed(kind: u8, text: &str) -> u64 {
    KEY_HASH.hash_one((kind, text))
}

/// The hash keys are made with. Keys never leave the process (each replica and
/// each start computes its own), and a collision only makes two keys share their
/// marks (more misses, never a stale answer), so a fast fixed hash serves: SipHash
/// took a quarter of a cached call's time.
const KEY_HASH: foldhash::fast::FixedState =
    foldhash::fast::FixedState::with_seed(0x6368_6172_6f6e);

/// Buckets of key marks per operation scoped by key: keys that share a bucket
/// share their marks (more misses, never a stale answer).
const BUCKETS: usize = 4096;

/// For each operation, the generation of the last committed change it can read: a
/// cached answer computed before that is stale (see the module docs). An operation
/// scoped by a key ([`KeyScope`]) has a mark per bucket of keys too: a change to a
/// predicate it reads by key, of a clause whose argument there is another atomic
/// key, moves only that key's bucket.
#[derive(Debug, Default)]
pub(crate) struct Freshness {
    /// By operation index.
    marks: Vec<AtomicU64>,
    /// By operation index: the key buckets of an operation scoped by key.
    buckets: Vec<Option<Box<[AtomicU64]>>>,
    /// By operation index: the highest of its bucket marks.
    any_bucket: Vec<AtomicU64>,
    /// The operations that read each dependency (not by key).
    readers: HashMap<Dependency, Vec<usize>>,
    /// The operations that read each dependency by key, and where the key's values
    /// are in the dependency's arguments.
    keyed: HashMap<Dependency, Vec<(usize, Vec<usize>)>>,
    /// The operations that may read anything: every change marks them.
    anything: Vec<usize>,
    /// For each predicate read by key and each argument a key is in: whether a
    /// clause with something other than an atom or an integer there may exist (at
    /// load, or asserted since). Then a removal there may take a clause that held
    /// for every key, and forgets by the operation, not by the key. Only ever set.
    loose: HashMap<(Dependency, usize), std::sync::atomic::AtomicBool>,
}

impl Freshness {
    /// Marks for operations that read `reads[i]` each (`None`: an operation whose
    /// answers are never cached, which needs no mark), some of them by the key
    /// `scopes[i]`.
    /// `loose`: the (predicate, argument) pairs read by key where the state as
    /// loaded has a clause with a non-atomic argument (see `Freshness::loose`).
    pub(crate) fn new(
        reads: &[Option<Reads>],
        scopes: &[Option<KeyScope>],
        loose: &dyn Fn(&Dependency, usize) -> bool,
    ) -> Freshness {
        let mut readers: HashMap<Dependency, Vec<usize>> = HashMap::new();
        let mut keyed: HashMap<Dependency, Vec<(usize, Vec<usize>)>> = HashMap::new();
        let mut anything = Vec::new();
        for (op, r) in reads.iter().enumerate() {
            let scope = scopes.get(op).and_then(Option::as_ref);
            match r {
                Some(Reads::Only(deps)) => {
                    for d in deps {
                        match scope.and_then(|s| s.through.get(d)) {
                            Some((_, at)) => {
                                keyed.entry(d.clone()).or_default().push((op, at.clone()))
                            }
                            None => readers.entry(d.clone()).or_default().push(op),
                        }
                    }
                }
                Some(Reads::Anything(_)) => anything.push(op),
                None => {}
            }
        }
        let loose = keyed
            .iter()
            .flat_map(|(d, uses)| {
                uses.iter()
                    .flat_map(move |(_, at)| at.iter().map(move |&j| (d, j)))
            })
            .map(|(d, j)| {
                (
                    (d.clone(), j),
                    std::sync::atomic::AtomicBool::new(loose(d, j)),
                )
            })
            .collect();
        Freshness {
            loose,
            marks: reads.iter().map(|_| AtomicU64::new(0)).collect(),
            buckets: (0..reads.len())
                .map(|op| {
                    scopes
                        .get(op)
                        .and_then(Option::as_ref)
                        .map(|_| (0..BUCKETS).map(|_| AtomicU64::new(0)).collect())
                })
                .collect(),
            any_bucket: reads.iter().map(|_| AtomicU64::new(0)).collect(),
            readers,
            keyed,
            anything,
        }
    }

    /// Records that generation `generation` makes the changes `what` (`None`:
    /// anything). Called before the generation is published.
    pub(crate) fn changed(&self, what: Option<&[Change]>, generation: u64) {
        let mark = |op: &usize| {
            self.marks[*op].fetch_max(generation, Ordering::AcqRel);
        };
        let Some(changes) = what else {
            // Unrecorded changes may have added any clause anywhere.
            self.loose
                .values()
                .for_each(|l| l.store(true, Ordering::Release));
            self.marks.iter().for_each(|m| {
                m.fetch_max(generation, Ordering::AcqRel);
            });
            return;
        };
        let loose = |d: &Dependency, j: usize| {
            self.loose
                .get(&(d.clone(), j))
                .is_none_or(|l| l.load(Ordering::Acquire))
        };
        for change in changes {
            self.readers
                .get(&change.dep)
                .into_iter()
                .flatten()
                .for_each(mark);
            for (op, at) in self.keyed.get(&change.dep).into_iter().flatten() {
                let op = *op;
                let key: Option<Vec<u64>> =
                    if change.removal && at.iter().any(|&j| loose(&change.dep, j)) {
                        None
                    } else {
                        at.iter()
                            .map(|&j| change.keys.get(j).copied().flatten())
                            .collect()
                    };
                match (key.map(|k| combine(&k)), &self.buckets[op]) {
                    (Some(key), Some(buckets)) => {
                        // The bucket before the summary: a reader that sees the
                        // summary's new value sees the bucket's too.
                        buckets[bucket(key)].fetch_max(generation, Ordering::AcqRel);
                        self.any_bucket[op].fetch_max(generation, Ordering::AcqRel);
                    }
                    _ => mark(&op),
                }
            }
            if !change.removal {
                for (j, key) in change.keys.iter().enumerate() {
                    if key.is_none()
                        && let Some(l) = self.loose.get(&(change.dep.clone(), j))
                    {
                        l.store(true, Ordering::Release);
                    }
                }
            }
        }
        if !changes.is_empty() {
            self.anything.iter().for_each(mark);
        }
    }

    /// The generation an answer of operation `op` must have been computed at, or
    /// after, to be fresh, whatever its key.
    pub(crate) fn since(&self, op: usize) -> u64 {
        let Some(m) = self.marks.get(op) else {
            return u64::MAX;
        };
        m.load(Ordering::Acquire)
            .max(self.any_bucket[op].load(Ordering::Acquire))
    }

    /// [`since`](Self::since) for a call of `op` whose keys are `keys` (one per
    /// set of its [`KeyScope`]; `None`: a call without them, or an operation not
    /// scoped by key).
    pub(crate) fn since_key(&self, op: usize, keys: Option<&[u64]>) -> u64 {
        match (keys, self.buckets.get(op).and_then(Option::as_ref)) {
            (Some(keys), Some(buckets)) => keys
                .iter()
                .map(|&k| buckets[bucket(k)].load(Ordering::Acquire))
                .fold(self.marks[op].load(Ordering::Acquire), u64::max),
            _ => self.since(op),
        }
    }
}

fn bucket(key: u64) -> usize {
    (key % BUCKETS as u64) as usize
}
