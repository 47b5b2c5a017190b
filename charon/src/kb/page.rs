//! The solutions of a `nondet` or `multi` read a page at a time.
//!
//! A page is asked for by its size and, after the first, the cursor the previous
//! page gave. Cursors are stateless: the offset of the next solution, the state the
//! answer was computed from, and a fingerprint of the call (operation and
//! arguments) and of the knowledge base's file as loaded — nothing is kept in the
//! server per client. A cursor taken before a write that could change the answer (by
//! the same analysis as the answer cache: a change to something the operation reads)
//! is refused with [`CallError::CursorStale`], and so is a page during which such a
//! write committed: pages of two states are never mixed. While no write has
//! committed, a cursor is good on every server (or `charon call`) that loaded the
//! same file; after one, only on the server that gave it.
//!
//! Only pure reads have pages: a write would run again for each page, and a read
//! whose answers vary from call to call (randomness, time) would give pages that do
//! not fit together.
//!
//! What a page costs: the engine finds the solutions up to the end of the page and
//! collects only the page's (plus one, which tells whether there is a next page),
//! under the call's limits. A later page of a read whose answers are cached is a
//! slice of the whole answer instead (computed once, and kept in the answer cache
//! like any other), unless the whole answer is longer than the solution limit.

use std::sync::Arc;
use std::time::Instant;

use serde_json::Value;

use super::{Call, CallError, KnowledgeBase, OpId};

/// The page size when a request gives a cursor and no size.
pub const DEFAULT_PAGE_SIZE: usize = 100;

/// One page of an operation's solutions.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Page {
    /// This page's solutions, in the operation's order (as the whole answer's
    /// array holds them).
    pub solutions: Vec<Value>,
    /// The cursor of the next page; `None` on the last page.
    pub next: Option<String>,
}

/// A page request, checked: where it starts and what it must match.
struct Plan {
    id: OpId,
    offset: usize,
    size: usize,
    stamp: u64,
    /// The call's keys (see `cache::KeyScope`): stamps are taken for them.
    key: Option<Vec<u64>>,
    fingerprint: u64,
    /// The whole answer's call, when a later page may be a slice of it (a cached
    /// read whose whole answer is not known to be over the solution limit).
    whole: Option<Call>,
}

impl KnowledgeBase {
    /// Whether `name` answers in pages ([`page`](Self::page)): a `nondet` or
    /// `multi` operation proven to be a pure read.
    pub fn is_pageable(&self, name: &str) -> bool {
        self.resolve(name).is_some_and(|id| {
            self.effects[id.index()].cacheable
                && self.op(id).is_some_and(|op| op.determinism.is_many())
        })
    }

    /// One page of `name`'s solutions for `args`: the first `size`, or the `size`
    /// after `cursor` (the [`Page::next`] of the page before). `size` is at least 1;
    /// past the solution limit it counts as the limit.
    pub fn page(
        &self,
        name: &str,
        args: &Value,
        size: usize,
        cursor: Option<&str>,
    ) -> Result<Page, CallError> {
        self.page_exact(name, args, size, cursor)
            .and_then(|page| page.public(name))
    }

    /// [`page`](Self::page) for an application that forwards answers as JSON text
    /// (see [`invoke_exact`](Self::invoke_exact)).
    pub fn page_exact(
        &self,
        name: &str,
        args: &Value,
        size: usize,
        cursor: Option<&str>,
    ) -> Result<Page, CallError> {
        let started = Instant::now();
        let plan = self.counted_plan(name, args, size, cursor)?;
        let result = (|| {
            if let Some(whole) = plan.whole.clone() {
                match self.invoke_unmetered(whole) {
                    Ok(answer) => return self.finish_page(&plan, answer.value, true, cursor),
                    Err(e) => self.whole_failed(&plan, &e),
                }
            }
            let window = self.window_call(&plan, args)?;
            let answer = self.invoke_unmetered(window)?;
            self.finish_page(&plan, answer.value, false, cursor)
        })();
        self.metrics
            .record_call(plan.id.index(), started.elapsed(), &result);
        result
    }

    /// [`page`](Self::page) from async code (see
    /// [`invoke_async`](Self::invoke_async)).
    pub async fn page_async(
        self: &Arc<Self>,
        name: &str,
        args: &Value,
        size: usize,
        cursor: Option<&str>,
    ) -> Result<Page, CallError> {
        self.page_async_exact(name, args, size, cursor)
            .await
            .and_then(|page| page.public(name))
    }

    /// [`page_async`](Self::page_async) for Charon's own surfaces, which write
    /// integers of any size exactly.
    pub(crate) async fn page_async_exact(
        self: &Arc<Self>,
        name: &str,
        args: &Value,
        size: usize,
        cursor: Option<&str>,
    ) -> Result<Page, CallError> {
        let started = Instant::now();
        let plan = self.counted_plan(name, args, size, cursor)?;
        let result = async {
            if let Some(whole) = plan.whole.clone() {
                match self.invoke_async_unmetered(whole, started).await {
                    Ok(answer) => return self.finish_page(&plan, answer.value, true, cursor),
                    Err(e) => self.whole_failed(&plan, &e),
                }
            }
            let window = self.window_call(&plan, args)?;
            let answer = self.invoke_async_unmetered(window, started).await?;
            self.finish_page(&plan, answer.value, false, cursor)
        }
        .await;
        self.metrics
            .record_call(plan.id.index(), started.elapsed(), &result);
        result
    }

    /// `name`'s solutions for `args` one by one, fetched lazily `size` at a time:
    /// a page is asked for only when the solutions before it have been taken. An
    /// error (a write between pages: [`CallError::CursorStale`]) ends the iteration.
    pub fn pages<'a>(&'a self, name: &str, args: &Value, size: usize) -> Pages<'a> {
        Pages {
            kb: self,
            name: name.to_string(),
            args: args.clone(),
            size,
            buffered: std::collections::VecDeque::new(),
            next: Some(None),
        }
    }

    /// [`plan`](Self::plan), counting a refused request in the metrics (by its
    /// problem type: `bad-arguments`, `cursor-stale`, …).
    fn counted_plan(
        &self,
        name: &str,
        args: &Value,
        size: usize,
        cursor: Option<&str>,
    ) -> Result<Plan, CallError> {
        let plan = self.plan(name, args, size, cursor);
        if let (Err(e), Some(id)) = (&plan, self.resolve(name))
            && !matches!(e, CallError::Arguments { .. })
        {
            // (Arguments are counted where they are checked: `prepare`.)
            self.metrics.refused(id.index(), e.kind());
        }
        plan
    }

    /// Checks a page request against the operation and the cursor.
    fn plan(
        &self,
        name: &str,
        args: &Value,
        size: usize,
        cursor: Option<&str>,
    ) -> Result<Plan, CallError> {
        let id = self
            .resolve(name)
            .ok_or_else(|| CallError::UnknownOperation(name.to_string()))?;
        let op = self.checked(id)?;
        let refuse = |argument: &'static str, detail: String| CallError::Paging {
            operation: name.to_string(),
            argument,
            detail,
        };
        if !op.determinism.is_many() {
            return Err(refuse(
                "page_size",
                format!(
                    "{name} is {}: only nondet and multi operations have pages",
                    op.determinism
                ),
            ));
        }
        if !self.effects[id.index()].cacheable {
            return Err(refuse(
                "page_size",
                format!(
                    "{name} has no pages: only pure reads do (it may change the state, or its \
                     answers vary from call to call, so pages of it would not fit together)"
                ),
            ));
        }
        if size == 0 {
            return Err(refuse(
                "page_size",
                "the page size must be at least 1".into(),
            ));
        }
        let size = size.min(self.engine.config().limits.solutions.max(1));
        let whole = self.prepare(id, args)?;
        let key = whole.key.clone();
        let stamp = self.stamp(id.index(), key.as_deref());
        let fingerprint = self.fingerprint(&whole.query, stamp);
        let offset = match cursor {
            None => 0,
            Some(text) => {
                let mismatch = |detail: &str| CallError::CursorMismatch {
                    operation: name.to_string(),
                    detail: detail.to_string(),
                };
                let (offset, taken, print) = decode(text).ok_or_else(|| {
                    mismatch("the cursor is not one this server gave: pass the next cursor of the page before, unchanged")
                })?;
                if taken != stamp {
                    return Err(CallError::CursorStale {
                        operation: name.to_string(),
                    });
                }
                if print != fingerprint {
                    return Err(mismatch(
                        "the cursor belongs to another call (another operation, other arguments, or another server): give the arguments of the first page",
                    ));
                }
                offset
            }
        };
        let sliced = whole.cacheable && offset > 0 && !self.paging.too_long(fingerprint);
        Ok(Plan {
            id,
            offset,
            size,
            stamp,
            key,
            fingerprint,
            whole: sliced.then_some(whole),
        })
    }

    /// The whole answer failed: an answer past the solution limit is remembered
    /// (the next pages go straight to their window); any failure leaves the page to
    /// its window, which stops before what made the whole answer fail.
    fn whole_failed(&self, plan: &Plan, error: &CallError) {
        if matches!(error, CallError::TooManySolutions { .. }) {
            self.paging.remember_too_long(plan.fingerprint);
        }
    }

    /// The call of the page's solutions and one more.
    fn window_call(&self, plan: &Plan, args: &Value) -> Result<Call, CallError> {
        self.prepare_window(plan.id, args, plan.offset, plan.size.saturating_add(1))
    }

    /// The page from the whole answer (`whole`) or from the page's window, checked
    /// against the state it was asked for.
    fn finish_page(
        &self,
        plan: &Plan,
        value: Value,
        whole: bool,
        cursor: Option<&str>,
    ) -> Result<Page, CallError> {
        // A write that committed meanwhile may have changed what this page holds.
        if cursor.is_some() && self.stamp(plan.id.index(), plan.key.as_deref()) != plan.stamp {
            let name = self.op(plan.id).map(|op| op.name.to_string());
            return Err(CallError::CursorStale {
                operation: name.unwrap_or_default(),
            });
        }
        let Value::Array(mut solutions) = value else {
            return Ok(Page {
                solutions: Vec::new(),
                next: None,
            });
        };
        if whole {
            solutions.drain(..plan.offset.min(solutions.len()));
        }
        let more = solutions.len() > plan.size;
        solutions.truncate(plan.size);
        let end = plan.offset.saturating_add(plan.size);
        Ok(Page {
            solutions,
            next: more.then(|| encode(end, plan.stamp, plan.fingerprint)),
        })
    }

    /// The state an answer of operation `index` for a call with `key` is computed
    /// from: the generation of the last change it can read (see `crate::cache`).
    fn stamp(&self, index: usize, key: Option<&[u64]>) -> u64 {
        self.freshness.since_key(index, key)
    }

    /// A fingerprint of a call's goal on this knowledge base's file as loaded, and
    /// — once a write has changed what it reads (`stamp > 0`) — on this process: the
    /// state as loaded is the same wherever the same file is loaded; later states
    /// are this server's own.
    fn fingerprint(&self, query: &str, stamp: u64) -> u64 {
        use std::hash::{BuildHasher, Hash, Hasher};
        static EPOCH: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
        let epoch =
            *EPOCH.get_or_init(|| std::collections::hash_map::RandomState::new().hash_one(0u8));
        let mut h = std::hash::DefaultHasher::new();
        (self.identity, query, if stamp > 0 { epoch } else { 0 }).hash(&mut h);
        h.finish()
    }
}

/// Whole answers found to be longer than the solution limit, so that the next pages
/// of the same call do not try them again (bounded: forgotten all at once when
/// full).
#[derive(Debug, Default)]
pub(crate) struct TooLong(std::sync::Mutex<std::collections::HashSet<u64>>);

impl TooLong {
    const MAX: usize = 4096;

    fn too_long(&self, fingerprint: u64) -> bool {
        self.0
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .contains(&fingerprint)
    }

    fn remember_too_long(&self, fingerprint: u64) {
        let mut set = self.0.lock().unwrap_or_else(|p| p.into_inner());
        if set.len() >= Self::MAX {
            set.clear();
        }
        set.insert(fingerprint);
    }
}

impl Page {
    /// Refused if it holds an integer the application's serde_json cannot hold
    /// (see [`crate::json`]).
    fn public(self, operation: &str) -> Result<Page, CallError> {
        let Page { solutions, next } = self;
        let value = super::Answer {
            value: Value::Array(solutions),
            output: String::new(),
        }
        .public(operation)?
        .value;
        let Value::Array(solutions) = value else {
            unreachable!("an array stays an array");
        };
        Ok(Page { solutions, next })
    }
}

/// `offset.stamp.fingerprint`, in hexadecimal.
fn encode(offset: usize, stamp: u64, fingerprint: u64) -> String {
    format!("{offset:x}.{stamp:x}.{fingerprint:016x}")
}

fn decode(text: &str) -> Option<(usize, u64, u64)> {
    let mut parts = text.split('.');
    let offset = usize::from_str_radix(parts.next()?, 16).ok()?;
    let stamp = u64::from_str_radix(parts.next()?, 16).ok()?;
    let fingerprint = u64::from_str_radix(parts.next()?, 16).ok()?;
    parts
        .next()
        .is_none()
        .then_some((offset, stamp, fingerprint))
}

/// The iterator of [`KnowledgeBase::pages`].
#[derive(Debug)]
pub struct Pages<'a> {
    kb: &'a KnowledgeBase,
    name: String,
    args: Value,
    size: usize,
    buffered: std::collections::VecDeque<Value>,
    /// The cursor of the next page to fetch (`Some(None)`: the first); `None` once
    /// the last page is fetched or an error ended the iteration.
    next: Option<Option<String>>,
}

impl Iterator for Pages<'_> {
    type Item = Result<Value, CallError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(solution) = self.buffered.pop_front() {
                return Some(Ok(solution));
            }
            let cursor = self.next.take()?;
            match self
                .kb
                .page(&self.name, &self.args, self.size, cursor.as_deref())
            {
                Ok(page) => {
                    self.buffered.extend(page.solutions);
                    self.next = page.next.map(Some);
                }
                Err(e) => return Some(Err(e)),
            }
        }
    }
}
