//! The solutions of a `nondet` or `multi` operation a page at a time.
//!
//! A page is asked for by its size and, after the first, the cursor the previous
//! page gave. Cursors are stateless: the offset of the next solution, the state the
//! first page was computed from, and a fingerprint of the call (operation and
//! arguments) — nothing is kept in the server per client. A cursor taken before a
//! write that could change the answer (by the same analysis as the answer cache: a
//! change to something the operation reads) is refused with
//! [`CallError::CursorStale`]: pages of two states are never mixed. Solution order
//! is the engine's, the same at every call of the same state.
//!
//! What a page costs: the first page runs the goal for `size + 1` solutions only
//! (the extra one tells whether there is a next page). A later page of a read whose
//! answers are cached is a slice of the whole answer (computed once, and kept in the
//! answer cache like any other); an answer longer than the solution limit, or one
//! that is not cached, runs the goal for `offset + size + 1` solutions. Writes are
//! not paged: each page would run the write again.

use std::sync::Arc;

use serde_json::Value;

use super::{Call, CallError, KnowledgeBase, OpId};
use crate::engine::Access;

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
    fingerprint: u64,
    /// The whole answer's call.
    whole: Call,
    /// Whether a later page may be a slice of the whole answer (a cached read).
    sliced: bool,
}

impl KnowledgeBase {
    /// One page of `name`'s solutions for `args`: the first `size`, or the `size`
    /// after `cursor` (the [`Page::next`] of the page before). `size` is at least 1
    /// and at most the solution limit.
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
        let plan = self.plan(name, args, size, cursor)?;
        if plan.sliced && plan.offset > 0 {
            match self.invoke_exact(plan.whole.clone()) {
                Err(CallError::TooManySolutions { .. }) => {}
                whole => return plan.finish(whole?.value),
            }
        }
        let call = self.page_call(&plan, args)?;
        plan.finish(self.invoke_exact(call)?.value)
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
        let arrived = std::time::Instant::now();
        let plan = self.plan(name, args, size, cursor)?;
        if plan.sliced && plan.offset > 0 {
            match self.invoke_async_exact(plan.whole.clone(), arrived).await {
                Err(CallError::TooManySolutions { .. }) => {}
                whole => return plan.finish(whole?.value),
            }
        }
        let call = self.page_call(&plan, args)?;
        plan.finish(self.invoke_async_exact(call, arrived).await?.value)
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
        if self.effects[id.index()].access != Access::Read {
            return Err(refuse(
                "page_size",
                format!(
                    "{name} may change the state, so it is not paged (each page would run it again)"
                ),
            ));
        }
        let limit = self.engine.config().limits.solutions;
        if size == 0 || size > limit {
            return Err(refuse(
                "page_size",
                format!(
                    "the page size must be between 1 and the solution limit, {limit}; it is {size}"
                ),
            ));
        }
        let whole = self.prepare(id, args)?;
        let sliced = whole.cacheable;
        let stamp = self.stamp(id.index());
        let fingerprint = self.fingerprint(&whole.query);
        let offset = match cursor {
            None => 0,
            Some(text) => {
                let (offset, taken, print) = decode(text).ok_or_else(|| {
                    refuse(
                        "cursor",
                        "the cursor is not one this server gave: pass the `next` of the page before, unchanged".into(),
                    )
                })?;
                if print != fingerprint {
                    return Err(refuse(
                        "cursor",
                        format!(
                            "the cursor belongs to another call (another operation, other arguments, or a server that loaded another version of the knowledge base): page {name} with the arguments of its first page"
                        ),
                    ));
                }
                if taken != stamp {
                    return Err(CallError::CursorStale {
                        operation: name.to_string(),
                    });
                }
                offset
            }
        };
        Ok(Plan {
            id,
            offset,
            size,
            stamp,
            fingerprint,
            whole,
            sliced,
        })
    }

    /// The call of the first `offset + size + 1` solutions.
    fn page_call(&self, plan: &Plan, args: &Value) -> Result<Call, CallError> {
        let wanted = plan.offset.saturating_add(plan.size).saturating_add(1);
        self.prepare_first(plan.id, args, wanted)
    }

    /// The state an answer of operation `index` is computed from: the last change it
    /// can read if its answers are cached (see `crate::cache`), else the generation.
    fn stamp(&self, index: usize) -> u64 {
        if self.effects[index].cacheable {
            self.freshness.since(index)
        } else {
            self.engine.generation()
        }
    }

    /// A fingerprint of a call's goal on this knowledge base's file as loaded: a
    /// cursor is good for the same call on any server (or `charon call`) that loaded
    /// the same file, whose state then starts the same (with `--persist`, the file
    /// holds the writes made before the load).
    fn fingerprint(&self, query: &str) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::hash::DefaultHasher::new();
        (self.identity, query).hash(&mut h);
        h.finish()
    }
}

impl Plan {
    /// The page from the array of the first solutions (or all of them).
    fn finish(&self, value: Value) -> Result<Page, CallError> {
        let Value::Array(mut all) = value else {
            return Ok(Page {
                solutions: Vec::new(),
                next: None,
            });
        };
        let end = self.offset.saturating_add(self.size);
        let more = all.len() > end;
        all.truncate(end);
        let solutions = all.split_off(self.offset.min(all.len()));
        Ok(Page {
            solutions,
            next: more.then(|| encode(end, self.stamp, self.fingerprint)),
        })
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
        .public(operation.to_string())?
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
