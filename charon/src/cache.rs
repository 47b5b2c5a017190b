//! Answers of pure, read-only operations, kept until the database changes.
//!
//! An entry is tagged with the database generation seen *before* its call ran; a
//! lookup only returns entries of the current generation. A change that commits while
//! a call runs therefore never leaves a stale answer behind: at worst the entry is
//! never used (and is evicted like any other).
//!
//! The cache is bounded by the bytes it holds (the key, which is the call's goal
//! text, and the answer's JSON), not by a count of entries: one call with a
//! megabyte argument weighs what a thousand small ones do. Admission and eviction
//! are `quick_cache`'s (CLOCK-Pro): keys seen once do not push out keys in use.

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

    pub(crate) fn get(&self, key: &str, generation: u64) -> Option<V> {
        let entries = self.entries.as_ref()?;
        let found = entries
            .get(key)
            .and_then(|(g, v)| (g == generation).then_some(v));
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
