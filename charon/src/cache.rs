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

/// For each operation, the generation of the last committed change it can read: a
/// cached answer computed before that is stale (see the module docs).
#[derive(Debug, Default)]
pub(crate) struct Freshness {
    /// By operation index.
    marks: Vec<AtomicU64>,
    /// The operations that read each dependency.
    readers: HashMap<Dependency, Vec<usize>>,
    /// The operations that may read anything: every change marks them.
    anything: Vec<usize>,
}

impl Freshness {
    /// Marks for operations that read `reads[i]` each (`None`: an operation whose
    /// answers are never cached, which needs no mark).
    pub(crate) fn new(reads: &[Option<Reads>]) -> Freshness {
        let mut readers: HashMap<Dependency, Vec<usize>> = HashMap::new();
        let mut anything = Vec::new();
        for (op, r) in reads.iter().enumerate() {
            match r {
                Some(Reads::Only(deps)) => {
                    for d in deps {
                        readers.entry(d.clone()).or_default().push(op);
                    }
                }
                Some(Reads::Anything(_)) => anything.push(op),
                None => {}
            }
        }
        Freshness {
            marks: reads.iter().map(|_| AtomicU64::new(0)).collect(),
            readers,
            anything,
        }
    }

    /// Records that generation `generation` changes `what` (`None`: anything).
    /// Called before the generation is published.
    pub(crate) fn changed(&self, what: Option<&[Dependency]>, generation: u64) {
        let mark = |op: &usize| {
            self.marks[*op].fetch_max(generation, Ordering::AcqRel);
        };
        match what {
            None => self.marks.iter().for_each(|m| {
                m.fetch_max(generation, Ordering::AcqRel);
            }),
            Some(deps) => {
                deps.iter()
                    .filter_map(|d| self.readers.get(d))
                    .flatten()
                    .chain(&self.anything)
                    .for_each(mark);
            }
        }
    }

    /// The generation an answer of operation `op` must have been computed at, or
    /// after, to be fresh.
    pub(crate) fn since(&self, op: usize) -> u64 {
        self.marks
            .get(op)
            .map_or(u64::MAX, |m| m.load(Ordering::Acquire))
    }
}
