//! The solutions of a `nondet` or `multi` read as they are found: a stream.
//!
//! Where a page re-runs the search up to its window, a stream runs it once, start
//! to end, and hands each solution on as the engine finds it: the engine keeps
//! none (see `engine::stream`), and neither does this side, so memory stays flat
//! for an answer of any length. The call's limits hold for the whole stream: its
//! time and inferences, and [`Limits::streamed`](crate::Limits::streamed)
//! solutions, past which it ends as [`StreamEnd::Truncated`]. A stream reads the
//! state of the database as of its start; writes committed meanwhile do not reach
//! it (and are not held back by it).
//!
//! Only pure reads stream, as only they page: a write would commit nothing a
//! client could trust once half its solutions were gone.
//!
//! Solutions are decoded into JSON on the thread that reads the engine, never on an
//! async executor; [`KnowledgeBase::stream_async`] hands them over a channel of two
//! batches, so a consumer that stops reading stops the search (and one that goes
//! away ends it).

use std::ops::ControlFlow;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Instant;

use serde_json::Value;

use super::{CallError, KnowledgeBase, OpId, codec};
use crate::engine::Outcome;
use crate::term::ReadError;

/// How a stream ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum StreamEnd {
    /// Every solution was sent.
    Complete {
        /// How many.
        solutions: u64,
    },
    /// `limit` solutions were sent and there are more
    /// ([`Limits::streamed`](crate::Limits::streamed)).
    Truncated {
        /// How many were sent (the limit).
        solutions: u64,
        /// The limit in force.
        limit: usize,
    },
    /// The consumer stopped it.
    Stopped {
        /// How many were sent.
        solutions: u64,
    },
}

/// One item of a [`SolutionStream`].
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Streamed {
    /// The next solution, shaped as an element of the whole answer's array.
    Solution(Value),
    /// The end; nothing follows.
    End(StreamEnd),
}

/// How long past its deadline a stream's end waits for a consumer that does not
/// read.
const END_GRACE: std::time::Duration = std::time::Duration::from_secs(1);

/// A stream checked and ready to run.
struct Planned {
    id: OpId,
    query: String,
    key: u64,
}

impl KnowledgeBase {
    /// Whether `name` streams ([`stream`](Self::stream)): a `nondet` or `multi`
    /// operation proven to be a pure read (the operations that page).
    pub fn is_streamable(&self, name: &str) -> bool {
        // On a single worker, holding state no other can copy, a stream cut short
        // (which ends its worker) would lose that state.
        self.is_pageable(name) && self.single_worker.is_none()
    }

    /// Runs `name` for `args`, giving each solution to `on_solution` as the engine
    /// finds it, blocking until the stream ends. `on_solution` may stop the stream
    /// ([`ControlFlow::Break`]). Errors before the first solution (an unknown
    /// operation, bad arguments, an operation that does not stream, an overloaded
    /// engine) and during the stream (a limit, an exception) are `Err`; solutions
    /// already given stay given.
    pub fn stream(
        &self,
        name: &str,
        args: &Value,
        mut on_solution: impl FnMut(Value) -> ControlFlow<()>,
    ) -> Result<StreamEnd, CallError> {
        let planned = self.plan_stream(name, args)?;
        self.serving(name)?;
        let _admitted = super::call::admit(self, name.to_string()).inspect_err(|e| {
            self.metrics.refused(planned.id.index(), e.kind());
        })?;
        let mut given = 0;
        let mut public = |batch: Vec<Value>| {
            for solution in batch {
                let checked = super::Answer {
                    value: solution,
                    output: String::new(),
                }
                .public(name)?;
                given += 1;
                if on_solution(checked.value).is_break() {
                    return Ok(ControlFlow::Break(()));
                }
            }
            Ok(ControlFlow::Continue(()))
        };
        match self.run_stream(planned, Instant::now(), &mut public)? {
            // The rest of the batch it stopped in was never given.
            StreamEnd::Stopped { .. } => Ok(StreamEnd::Stopped { solutions: given }),
            end => Ok(end),
        }
    }

    /// [`stream`](Self::stream) from async code: the search runs on a thread of
    /// its own (tokio's blocking pool inside a tokio runtime), and its solutions
    /// come through the returned [`SolutionStream`]. Dropping it ends the search.
    pub fn stream_async(
        self: &Arc<Self>,
        name: &str,
        args: &Value,
    ) -> Result<SolutionStream, CallError> {
        self.stream_async_from(name, args, Instant::now(), false)
    }

    /// [`stream_async`](Self::stream_async) for Charon's own surfaces: integers of
    /// any size are kept (see [`crate::json`]), and the time limit runs from
    /// `arrived`.
    pub(crate) fn stream_async_from(
        self: &Arc<Self>,
        name: &str,
        args: &Value,
        arrived: Instant,
        exact: bool,
    ) -> Result<SolutionStream, CallError> {
        let planned = self.plan_stream(name, args)?;
        let admitted = super::call::admit(Arc::clone(self), name.to_string()).inspect_err(|e| {
            self.metrics.refused(planned.id.index(), e.kind());
        })?;
        let (send, receive) = tokio::sync::mpsc::channel::<Item>(2);
        let operation = name.to_string();
        let name = name.to_string();
        let deadline = arrived + self.engine.config().limits.time;
        let handle = tokio::runtime::Handle::try_current().ok();
        let work = move || {
            let kb = &admitted.0;
            // A consumer that does not read holds the search until the deadline,
            // and then the stream ends with the time limit; the end waits a
            // little longer.
            let deliver = |item: Item, until: Instant| match &handle {
                Some(handle) => handle.block_on(async {
                    let late = tokio::time::Instant::from_std(until);
                    match tokio::time::timeout_at(late, send.send(item)).await {
                        Ok(Ok(())) => Delivery::Sent,
                        Ok(Err(_)) => Delivery::Closed,
                        Err(_) => Delivery::Late,
                    }
                }),
                None => {
                    let mut item = item;
                    loop {
                        match send.try_send(item) {
                            Ok(()) => return Delivery::Sent,
                            Err(tokio::sync::mpsc::error::TrySendError::Closed(_)) => {
                                return Delivery::Closed;
                            }
                            Err(tokio::sync::mpsc::error::TrySendError::Full(back)) => {
                                if Instant::now() >= until {
                                    return Delivery::Late;
                                }
                                item = back;
                                std::thread::sleep(std::time::Duration::from_millis(1));
                            }
                        }
                    }
                }
            };
            let mut forward = |batch: Vec<Value>| -> Result<ControlFlow<()>, CallError> {
                let batch = if exact {
                    batch
                } else {
                    let value = super::Answer {
                        value: Value::Array(batch),
                        output: String::new(),
                    }
                    .public(&name)?
                    .value;
                    match value {
                        Value::Array(batch) => batch,
                        _ => unreachable!("an array stays an array"),
                    }
                };
                match deliver(Item::Batch(batch), deadline) {
                    Delivery::Sent => Ok(ControlFlow::Continue(())),
                    Delivery::Closed => Ok(ControlFlow::Break(())),
                    Delivery::Late => Err(CallError::TimeLimit {
                        operation: name.clone(),
                        limit: kb.engine.config().limits.time,
                    }),
                }
            };
            let end = kb.run_stream(planned, arrived, &mut forward);
            deliver(Item::End(end), deadline + END_GRACE);
        };
        match tokio::runtime::Handle::try_current() {
            Ok(runtime) => drop(runtime.spawn_blocking(work)),
            Err(_) => {
                std::thread::Builder::new()
                    .name("charon-stream".into())
                    .spawn(work)
                    .map_err(|e| CallError::Engine {
                        operation,
                        error: crate::EngineError::Crashed(format!(
                            "cannot start the stream's thread: {e}"
                        )),
                    })?;
            }
        }
        Ok(SolutionStream {
            receive,
            buffered: std::collections::VecDeque::new(),
            done: false,
        })
    }

    /// Checks a stream request: the operation streams, the arguments are right.
    fn plan_stream(&self, name: &str, args: &Value) -> Result<Planned, CallError> {
        let id = self
            .resolve(name)
            .ok_or_else(|| CallError::UnknownOperation(name.to_string()))?;
        let op = self.checked(id)?;
        let refuse = |detail: String| {
            self.metrics.refused(id.index(), "not-streamable");
            CallError::NotStreamable {
                operation: name.to_string(),
                detail,
            }
        };
        if !op.determinism.is_many() {
            return Err(refuse(format!(
                "{name} is {}: only nondet and multi operations stream; ask for JSON",
                op.determinism
            )));
        }
        if !self.effects[id.index()].cacheable {
            return Err(refuse(format!(
                "{name} does not stream: only pure reads do (it may change the state, or its \
                 answers vary from call to call); ask for JSON"
            )));
        }
        if self.single_worker.is_some() {
            return Err(refuse(format!(
                "{name} does not stream: this knowledge base runs on one worker, whose state \
                 a stream cut short would lose; ask for JSON"
            )));
        }
        let key = stream_key();
        let query = self.prepare_stream(id, args, key)?;
        Ok(Planned { id, query, key })
    }

    /// Runs a planned stream, handing `on_batch` the solutions, decoded, a batch at
    /// a time; counted in the metrics as one call.
    fn run_stream(
        &self,
        planned: Planned,
        arrived: Instant,
        on_batch: &mut dyn FnMut(Vec<Value>) -> Result<ControlFlow<()>, CallError>,
    ) -> Result<StreamEnd, CallError> {
        let Planned { id, query, key } = planned;
        let op = self.checked(id)?;
        let deadline = arrived + self.engine.config().limits.time;
        let started = Instant::now();
        let mut sent: u64 = 0;
        // An error decoding a solution ends the stream with it.
        let mut failed: Option<CallError> = None;
        let mut stopped = false;
        // Past the limit the engine stops the worker (see `engine/wrapper/calls.pl`: the search
        // itself keeps no count).
        let limit = self.engine.config().limits.streamed;
        let mut truncated = false;
        let mut decode = |mut texts: Vec<String>| {
            let room = usize::try_from(limit as u64 - sent.min(limit as u64)).unwrap_or(0);
            if texts.len() > room {
                texts.truncate(room);
                truncated = true;
            }
            // The solutions before one that does not decode still go out.
            let mut batch = Vec::with_capacity(texts.len());
            let mut bad = None;
            for text in &texts {
                match decode_solution(op, text) {
                    Ok(value) => batch.push(value),
                    Err(e) => {
                        bad = Some(e);
                        break;
                    }
                }
            }
            let n = batch.len() as u64;
            let flow = on_batch(batch).and_then(|flow| {
                sent += n;
                match bad {
                    Some(e) if flow.is_continue() => Err(e),
                    _ => Ok(flow),
                }
            });
            match flow {
                Ok(ControlFlow::Continue(())) if truncated => ControlFlow::Break(()),
                Ok(ControlFlow::Continue(())) => ControlFlow::Continue(()),
                Ok(ControlFlow::Break(())) => {
                    stopped = true;
                    ControlFlow::Break(())
                }
                Err(e) => {
                    failed = Some(e);
                    ControlFlow::Break(())
                }
            }
        };
        let result = self
            .engine
            .stream(query, key, deadline, &mut decode)
            .map_err(|e| super::call::engine_error(&op.name, e));
        let result = match (result, failed) {
            (_, Some(e)) => Err(e),
            (Err(e), None) => Err(e),
            (Ok(_), None) if truncated && !stopped => Ok(StreamEnd::Truncated {
                solutions: sent,
                limit,
            }),
            (Ok(None), None) => Ok(StreamEnd::Stopped { solutions: sent }),
            (Ok(Some(_)), None) if stopped => Ok(StreamEnd::Stopped { solutions: sent }),
            (Ok(Some(run)), None) => {
                if !run.output.is_empty() {
                    tracing::info!(target: "charon::kb_output", operation = %op.name, "{}", run.output.trim_end());
                }
                let limits = &self.engine.config().limits;
                match run.outcome {
                    Outcome::Solved(_) => Ok(StreamEnd::Complete { solutions: sent }),
                    other => match codec::shape(op, other, limits) {
                        Err(e) => Err(e),
                        Ok(_) => Ok(StreamEnd::Complete { solutions: sent }),
                    },
                }
            }
        };
        let metered = result.as_ref().map(|_| ()).map_err(Clone::clone);
        self.metrics
            .record_call(id.index(), started.elapsed(), &metered);
        result
    }
}

/// A fresh key for a stream's solution lines (see `worker::Streaming`): a goal
/// cannot print what it cannot know.
fn stream_key() -> u64 {
    use std::hash::BuildHasher;
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    std::collections::hash_map::RandomState::new().hash_one(n) >> 1
}

/// One solution's text, `ok(sol(…))`, as the JSON element of the whole answer.
fn decode_solution(op: &crate::Operation, text: &str) -> Result<Value, CallError> {
    let depth = crate::term::MAX_ANSWER_DEPTH;
    let outcome = match crate::term::read_term(text, depth + 2) {
        Ok(term) => Outcome::decode(Some(term)),
        Err(ReadError::TooDeep(_)) => Outcome::Unreadable(ReadError::TooDeep(depth)),
        Err(e) => Outcome::Unreadable(e),
    };
    match outcome {
        Outcome::Solved(sol) => codec::solution(op, &sol),
        // Unreadable (nested too deep): the error of the whole answer.
        other => codec::shape(op, other, &Default::default()).and_then(|_| {
            Err(CallError::Exception {
                operation: op.name.to_string(),
                term: format!("charon_unexpected_solution({text})"),
            })
        }),
    }
}

/// How handing a batch to the consumer went.
enum Delivery {
    Sent,
    /// The consumer is gone.
    Closed,
    /// The consumer did not take it before the deadline.
    Late,
}

enum Item {
    Batch(Vec<Value>),
    End(Result<StreamEnd, CallError>),
}

/// The solutions of [`KnowledgeBase::stream_async`], in order, then how the stream
/// ended: [`Streamed::End`], or an error; nothing after either. It implements
/// `futures_core::Stream`; [`next`](Self::next) needs nothing else.
#[derive(Debug)]
pub struct SolutionStream {
    receive: tokio::sync::mpsc::Receiver<Item>,
    buffered: std::collections::VecDeque<Value>,
    done: bool,
}

impl std::fmt::Debug for Item {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Item::Batch(b) => write!(f, "Batch({})", b.len()),
            Item::End(e) => write!(f, "End({e:?})"),
        }
    }
}

impl SolutionStream {
    /// The next item; `None` after the end.
    pub async fn next(&mut self) -> Option<Result<Streamed, CallError>> {
        std::future::poll_fn(|cx| Pin::new(&mut *self).poll_item(cx)).await
    }

    fn poll_item(&mut self, cx: &mut Context<'_>) -> Poll<Option<Result<Streamed, CallError>>> {
        loop {
            if let Some(solution) = self.buffered.pop_front() {
                return Poll::Ready(Some(Ok(Streamed::Solution(solution))));
            }
            if self.done {
                return Poll::Ready(None);
            }
            match self.receive.poll_recv(cx) {
                Poll::Pending => return Poll::Pending,
                Poll::Ready(Some(Item::Batch(batch))) => self.buffered.extend(batch),
                Poll::Ready(Some(Item::End(end))) => {
                    self.done = true;
                    return Poll::Ready(Some(end.map(Streamed::End)));
                }
                Poll::Ready(None) => {
                    self.done = true;
                    return Poll::Ready(Some(Err(CallError::Engine {
                        operation: String::new(),
                        error: crate::EngineError::Crashed("the stream's thread stopped".into()),
                    })));
                }
            }
        }
    }
}

impl futures_core::Stream for SolutionStream {
    type Item = Result<Streamed, CallError>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        self.get_mut().poll_item(cx)
    }
}
