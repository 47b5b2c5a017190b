//! Answers of pure, read-only operations, kept until the database changes.
//!
//! An entry is tagged with the database generation seen *before* its call ran; a
//! lookup only returns entries of the current generation. A change that commits while
//! a call runs therefore never leaves a stale answer behind: at worst the entry is
//! never used.

use std::collections::HashMap;
use std::sync::RwLock;

use serde_json::Value;

#[derive(Debug)]
pub(crate) struct AnswerCache {
    capacity: usize,
    entries: RwLock<HashMap<String, (u64, Value)>>,
}

impl AnswerCache {
    pub(crate) fn new(capacity: usize) -> Self {
        AnswerCache {
            capacity,
            entries: RwLock::new(HashMap::new()),
        }
    }

    pub(crate) fn enabled(&self) -> bool {
        self.capacity > 0
    }

    pub(crate) fn get(&self, key: &str, generation: u64) -> Option<Value> {
        let entries = self.entries.read().unwrap_or_else(|p| p.into_inner());
        match entries.get(key) {
            Some((g, v)) if *g == generation => Some(v.clone()),
            _ => None,
        }
    }

    pub(crate) fn insert(&self, key: String, generation: u64, value: Value) {
        let mut entries = self.entries.write().unwrap_or_else(|p| p.into_inner());
        if entries.len() >= self.capacity {
            // Simple and bounded: start over rather than track recency.
            entries.clear();
        }
        entries.insert(key, (generation, value));
    }
}
