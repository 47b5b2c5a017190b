//! The call pipeline every surface uses: HTTP, MCP, the methods `knowledge_base!`
//! generates and the CLI.
//!
//! 1. **Resolve** an operation once, by name, to an [`OpId`].
//! 2. **Prepare** a [`Call`]: the arguments are checked against the declared types and
//!    turned into the goal text (from a JSON object, or from typed input values).
//! 3. **Invoke** it, blocking ([`KnowledgeBase::invoke`]) or async
//!    ([`KnowledgeBase::invoke_async`]): a cached answer is returned at once;
//!    otherwise the call is admitted (at most `max_pending` at a time, else
//!    [`CallError::Overloaded`]), run on the engine, and its outcome shaped into JSON.
//!    Async reads do not take a thread of their own: they wait in the engine's
//!    queue and run in batches (see `engine::batch`).

use std::ops::Deref;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use serde_json::Value;

use super::{CallError, KnowledgeBase, codec};
use crate::engine::{Access, EngineError, RunOutcome};
use crate::pldoc::Operation;

/// How long past its deadline an async caller waits for a call that has not
/// started: the engine itself answers at the deadline once a call runs.
const DEADLINE_GRACE: Duration = Duration::from_millis(20);

/// Waits for the engine's answer to a call due by `deadline`; `None` when it has
/// not come `DEADLINE_GRACE` after. The engine answers a running call at its
/// deadline itself: this bound is for a call still waiting to start, which then
/// finds its deadline passed and is answered at once. Outside tokio there is no
/// timer, and none is needed: the engine always answers.
async fn wait_until<T>(
    receive: tokio::sync::oneshot::Receiver<T>,
    deadline: Instant,
) -> Option<Result<T, tokio::sync::oneshot::error::RecvError>> {
    if tokio::runtime::Handle::try_current().is_err() {
        return Some(receive.await);
    }
    let late = tokio::time::Instant::from_std(deadline + DEADLINE_GRACE);
    tokio::time::timeout_at(late, receive).await.ok()
}

/// An operation of one knowledge base, resolved once by [`KnowledgeBase::resolve`].
/// It is only valid for the knowledge base that made it: another one refuses it as an
/// unknown operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct OpId {
    /// Which knowledge base made it.
    kb: u64,
    /// The operation's index in [`KnowledgeBase::operations`].
    index: usize,
}

impl OpId {
    /// The index of the operation in [`KnowledgeBase::operations`].
    pub fn index(self) -> usize {
        self.index
    }
}

/// A call whose arguments are checked and whose goal is built, ready to invoke.
#[derive(Debug, Clone)]
pub struct Call {
    op: OpId,
    /// The goal, its inference limit under the counter (also the cache key).
    pub(super) query: String,
    /// Where the limit starts in `query`.
    limit_at: usize,
    pub(super) cacheable: bool,
    generation: u64,
    /// The call's keys, when its operation's answers are scoped by keys (see
    /// `cache::KeyScope`).
    pub(super) key: Option<Vec<u64>>,
}

impl Call {
    /// The operation called.
    pub fn operation(&self) -> OpId {
        self.op
    }

    /// Splits the call into its goal, for the engine (`uncounted`: its inferences
    /// checked at the end rather than counted), and what shaping the answer needs
    /// afterwards.
    fn dispatch(self, uncounted: bool) -> (String, Sent) {
        let (query, key) = if uncounted {
            let query = codec::uncounted(&self.query, self.limit_at);
            (query, self.cacheable.then_some(self.query))
        } else {
            let key = self.cacheable.then(|| self.query.clone());
            (self.query, key)
        };
        let sent = Sent {
            op: self.op,
            key,
            generation: self.generation,
        };
        (query, sent)
    }
}

/// A call whose goal went to the engine.
struct Sent {
    op: OpId,
    /// The cache key (the goal) of a cacheable call.
    key: Option<String>,
    /// The generation seen before the call ran: the answer is cached under it
    /// (see `cache`).
    generation: u64,
}

/// A call's answer and what the knowledge base printed while computing it.
#[derive(Debug, Clone, PartialEq)]
pub struct Answer {
    /// The JSON answer, shaped by the declared determinism.
    pub value: Value,
    /// Text the goal wrote with `write/1`, `format/2`, … (also logged).
    pub output: String,
}

impl Answer {
    /// The answer as the public API hands it out: refused if it holds an integer the
    /// application's serde_json cannot (see [`crate::json`]).
    pub(super) fn public(self, operation: &str) -> Result<Answer, CallError> {
        match crate::json::public(&self.value) {
            Ok(()) => Ok(self),
            Err(digits) => Err(CallError::Decode {
                operation: operation.to_string(),
                message: crate::json::beyond_serde_json(&digits),
            }),
        }
    }
}

/// Holds one place among the `max_pending` calls admitted to the engine, until it
/// drops (`K` is `&KnowledgeBase` or, to cross into the blocking pool, an `Arc`).
pub(super) struct Admission<K: Deref<Target = KnowledgeBase>>(pub(super) K);

impl<K: Deref<Target = KnowledgeBase>> Drop for Admission<K> {
    fn drop(&mut self) {
        self.0.pending.fetch_sub(1, Ordering::AcqRel);
    }
}

/// Takes a place among the `max_pending` admitted calls, or says the engine is full.
/// (Compare-and-swap: a refused call never holds a place, even briefly.)
pub(super) fn admit<K: Deref<Target = KnowledgeBase>>(
    kb: K,
    operation: String,
) -> Result<Admission<K>, CallError> {
    let limit = kb.engine.config().max_pending.max(1);
    match kb
        .pending
        .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| {
            (n < limit).then_some(n + 1)
        }) {
        Ok(_) => Ok(Admission(kb)),
        Err(_) => Err(CallError::Overloaded { operation, limit }),
    }
}

impl KnowledgeBase {
    /// The operation named `name`, resolved to an id.
    pub fn resolve(&self, name: &str) -> Option<OpId> {
        self.report
            .operations
            .iter()
            .position(|op| op.name == name)
            .map(|index| OpId {
                kb: self.serial,
                index,
            })
    }

    /// The id of the operation at `index` of [`operations`](Self::operations), if
    /// there is one (generated code knows the indices at compile time).
    pub fn op_id(&self, index: usize) -> Option<OpId> {
        (index < self.report.operations.len()).then_some(OpId {
            kb: self.serial,
            index,
        })
    }

    /// The operation with this id; `None` if another knowledge base made the id.
    pub fn op(&self, id: OpId) -> Option<&Operation> {
        (id.kb == self.serial)
            .then(|| self.report.operations.get(id.index))
            .flatten()
    }

    pub(super) fn checked(&self, id: OpId) -> Result<&Operation, CallError> {
        self.op(id).ok_or_else(|| {
            CallError::UnknownOperation(format!(
                "#{} (an id made by another knowledge base)",
                id.index
            ))
        })
    }

    /// The operation of a call this knowledge base prepared (ids are checked in
    /// `prepare_inputs`, and a `Call` cannot be made otherwise).
    fn call_op(&self, call: &Call) -> Result<&Operation, CallError> {
        self.checked(call.op)
    }

    /// Checks a JSON object of arguments (keyed by the PlDoc names) and builds the call.
    pub fn prepare(&self, id: OpId, args: &Value) -> Result<Call, CallError> {
        let op = self.checked(id)?;
        let inputs = codec::inputs_of(op, args).map_err(|error| CallError::Arguments {
            operation: op.name.to_string(),
            error,
        });
        let call = inputs.and_then(|inputs| self.prepare_inputs(id, &inputs));
        if call.is_err() {
            // Counted here: a call refused for its arguments never reaches `invoke`.
            self.metrics.refused(id.index, "bad-arguments");
        }
        call
    }

    /// Builds the call from input values in mode-line order (the typed methods'
    /// path: their arguments are already the right ones, only values are checked).
    #[doc(hidden)]
    pub fn prepare_inputs(&self, id: OpId, inputs: &[&Value]) -> Result<Call, CallError> {
        let solutions = codec::Collect::Upto(self.engine.config().limits.solutions);
        self.prepare_collecting(id, inputs, solutions)
    }

    /// The call of `take` solutions after the first `skip` of a `nondet`/`multi`
    /// operation (a page: see `page`).
    pub(super) fn prepare_window(
        &self,
        id: OpId,
        args: &Value,
        skip: usize,
        take: usize,
    ) -> Result<Call, CallError> {
        let op = self.checked(id)?;
        let inputs = codec::inputs_of(op, args).map_err(|error| CallError::Arguments {
            operation: op.name.to_string(),
            error,
        })?;
        self.prepare_collecting(id, &inputs, codec::Collect::Window(skip, take))
    }

    /// The goal of a stream of `name`'s solutions, each written with `key` (see
    /// `kb::stream`).
    pub(super) fn prepare_stream(
        &self,
        id: OpId,
        args: &Value,
        key: u64,
    ) -> Result<String, CallError> {
        let op = self.checked(id)?;
        let inputs = codec::inputs_of(op, args).map_err(|error| {
            self.metrics.refused(id.index, "bad-arguments");
            CallError::Arguments {
                operation: op.name.to_string(),
                error,
            }
        })?;
        self.prepare_collecting(id, &inputs, codec::Collect::Stream(key))
            .map(|call| call.query)
    }

    fn prepare_collecting(
        &self,
        id: OpId,
        inputs: &[&Value],
        solutions: codec::Collect,
    ) -> Result<Call, CallError> {
        let op = self.checked(id)?;
        let limits = &self.engine.config().limits;
        let reset = self.counters.nested_limits();
        let (query, limit_at) =
            codec::build_query(op, id.index, inputs, limits.inferences, reset, solutions).map_err(
                |error| CallError::Arguments {
                    operation: op.name.to_string(),
                    error,
                },
            )?;
        let key = self.scopes[id.index]
            .as_ref()
            .and_then(|scope| super::call_keys(op, scope, inputs));
        Ok(Call {
            op: id,
            query,
            limit_at,
            cacheable: self.cache.enabled() && self.effects[id.index].cacheable,
            generation: self.engine.generation(),
            key,
        })
    }

    /// A replica that stopped (its state is not the log's) answers nothing, not even
    /// from the cache.
    pub(super) fn serving(&self, operation: &str) -> Result<(), CallError> {
        match self.engine.stopped() {
            Some(error) => Err(CallError::Engine {
                operation: operation.to_string(),
                error,
            }),
            None => Ok(()),
        }
    }

    /// Runs a call, blocking the thread until it answers or a limit is hit.
    ///
    /// An integer past `i64`/`u64` in the answer is an error unless the build's
    /// serde_json holds numbers of any size (its `arbitrary_precision` feature, which
    /// Charon leaves to the application: see [`crate::json`]).
    pub fn invoke(&self, call: Call) -> Result<Answer, CallError> {
        let op = &self.call_op(&call)?.name;
        self.invoke_exact(call)?.public(op)
    }

    /// [`invoke`](Self::invoke) for an application that forwards answers as JSON
    /// text: an integer past `i64`/`u64` is kept in the form [`crate::json::to_string`]
    /// writes exactly (see [`crate::json`]); write the answer with `charon::json`,
    /// not with serde_json.
    pub fn invoke_exact(&self, call: Call) -> Result<Answer, CallError> {
        let (index, started) = (call.op.index, Instant::now());
        let result = self.invoke_unmetered(call);
        self.metrics.record_call(index, started.elapsed(), &result);
        result
    }

    pub(super) fn invoke_unmetered(&self, call: Call) -> Result<Answer, CallError> {
        let operation = &self.call_op(&call)?.name;
        self.serving(operation)?;
        if let Some(answer) = self.cached(&call) {
            return Ok(answer);
        }
        let deadline = Instant::now() + self.engine.config().limits.time;
        let _admitted = admit(self, operation.to_string())?;
        self.run(call, deadline)
    }

    /// Runs a call from async code, on any executor. The engine work happens on
    /// another thread — tokio's blocking pool inside a tokio runtime, a thread of its
    /// own elsewhere — so the caller's other futures keep running meanwhile; a cached
    /// answer comes back without leaving the task.
    pub async fn invoke_async(self: &Arc<Self>, call: Call) -> Result<Answer, CallError> {
        self.invoke_async_since(call, Instant::now()).await
    }

    /// [`invoke_async`](Self::invoke_async) for a request that arrived at `arrived`:
    /// the time limit runs from then, so time a transport spent before handing the
    /// call over (queueing a session's messages, say) counts too.
    pub async fn invoke_async_since(
        self: &Arc<Self>,
        call: Call,
        arrived: Instant,
    ) -> Result<Answer, CallError> {
        let op = &self.call_op(&call)?.name;
        self.invoke_async_exact(call, arrived).await?.public(op)
    }

    /// [`invoke_async_since`](Self::invoke_async_since) for Charon's own surfaces,
    /// which write integers of any size exactly (see [`crate::json`]).
    pub(crate) async fn invoke_async_exact(
        self: &Arc<Self>,
        call: Call,
        arrived: Instant,
    ) -> Result<Answer, CallError> {
        let (index, started) = (call.op.index, Instant::now());
        let result = self.invoke_async_unmetered(call, arrived).await;
        self.metrics.record_call(index, started.elapsed(), &result);
        result
    }

    pub(super) async fn invoke_async_unmetered(
        self: &Arc<Self>,
        call: Call,
        arrived: Instant,
    ) -> Result<Answer, CallError> {
        let operation = &self.call_op(&call)?.name;
        self.serving(operation)?;
        if let Some(answer) = self.cached(&call) {
            return Ok(answer);
        }
        let operation = operation.to_string();
        // The time limit runs from the request's arrival: waiting for a thread, the
        // database lock and a worker all count.
        let limit = self.engine.config().limits.time;
        let deadline = arrived + limit;
        // The place is given back when the engine work ends, even if this future
        // was dropped meanwhile (the engine is busy until then).
        let admitted = admit(Arc::clone(self), operation.clone())?;
        let failed = |why: &str| CallError::Engine {
            operation: operation.clone(),
            error: EngineError::Crashed(why.into()),
        };
        let late = || CallError::TimeLimit {
            operation: operation.clone(),
            limit,
        };
        if self.effects[call.op.index].access == Access::Read {
            // Reads wait in the engine's queue and run in batches (no thread of
            // their own); the answer is shaped here, on the caller's task.
            let uncounted = self.uncounted(call.op.index);
            let (query, sent) = call.dispatch(uncounted);
            let outcome = self
                .read_batched(query, deadline, admitted, &operation, Some(sent.op.index))
                .await?;
            return self.finish(sent, outcome);
        }
        let (send, receive) = tokio::sync::oneshot::channel();
        let work = move || {
            let result = admitted.0.run(call, deadline);
            // Give the place back before the caller sees the answer, so its next call
            // is never refused for a place this one still held.
            drop(admitted);
            let _ = send.send(result);
        };
        let spawned = match tokio::runtime::Handle::try_current() {
            Ok(runtime) => {
                drop(runtime.spawn_blocking(work));
                Ok(())
            }
            Err(_) => std::thread::Builder::new()
                .name("charon-call".into())
                .spawn(work)
                .map(drop),
        };
        spawned.map_err(|e| failed(&format!("cannot start the call's thread: {e}")))?;
        wait_until(receive, deadline)
            .await
            .ok_or_else(late)?
            .unwrap_or_else(|_| Err(failed("the call's thread failed")))
    }

    /// Queues a read for the engine's batches and waits for its outcome (or for the
    /// deadline, if it never started). The admission place is given back when the
    /// engine is done with it, and how a call of operation `op` ended is recorded
    /// then (for inference counting), even if nobody waits for it any more.
    async fn read_batched<K: Deref<Target = KnowledgeBase> + Send + 'static>(
        &self,
        query: String,
        deadline: Instant,
        admitted: Admission<K>,
        operation: &str,
        op: Option<usize>,
    ) -> Result<Result<RunOutcome, EngineError>, CallError> {
        let (send, receive) = tokio::sync::oneshot::channel();
        self.engine.submit_read(
            query,
            deadline,
            Box::new(move |result| {
                if let Some(index) = op {
                    admitted.0.counters.record(index, &result);
                }
                drop(admitted);
                let _ = send.send(result);
            }),
        );
        wait_until(receive, deadline)
            .await
            .ok_or_else(|| CallError::TimeLimit {
                operation: operation.to_string(),
                limit: self.engine.config().limits.time,
            })?
            .map_err(|_| CallError::Engine {
                operation: operation.to_string(),
                error: EngineError::Crashed("the engine dropped the call".into()),
            })
    }

    /// Runs a read-only goal the crate built itself (no operation of this knowledge
    /// base: the reasoning toolkit's), blocking, with the same admission control and
    /// limits as a call; `label` names it in errors.
    pub(crate) fn run_read(&self, query: String, label: &str) -> Result<RunOutcome, CallError> {
        let deadline = Instant::now() + self.engine.config().limits.time;
        let _admitted = admit(self, label.to_string())?;
        self.engine
            .run(query, Access::Read, deadline)
            .map_err(|e| engine_error(label, e))
    }

    /// [`run_read`](Self::run_read) from async code, in the engine's batches; the
    /// time limit runs from `arrived`.
    pub(crate) async fn run_read_async(
        self: &Arc<Self>,
        query: String,
        label: &str,
        arrived: Instant,
    ) -> Result<RunOutcome, CallError> {
        let deadline = arrived + self.engine.config().limits.time;
        let admitted = admit(Arc::clone(self), label.to_string())?;
        self.read_batched(query, deadline, admitted, label, None)
            .await?
            .map_err(|e| engine_error(label, e))
    }

    /// Calls operation `name` with a JSON object of arguments; returns the JSON
    /// answer (blocking).
    pub fn call(&self, name: &str, args: &Value) -> Result<Value, CallError> {
        self.call_full(name, args).map(|a| a.value)
    }

    /// Like [`call`](Self::call), also returning what the goal printed.
    pub fn call_full(&self, name: &str, args: &Value) -> Result<Answer, CallError> {
        let id = self
            .resolve(name)
            .ok_or_else(|| CallError::UnknownOperation(name.to_string()))?;
        self.invoke(self.prepare(id, args)?)
    }

    /// [`call`](Self::call), integers of any size kept as
    /// [`invoke_exact`](Self::invoke_exact) keeps them.
    pub fn call_exact(&self, name: &str, args: &Value) -> Result<Value, CallError> {
        let id = self
            .resolve(name)
            .ok_or_else(|| CallError::UnknownOperation(name.to_string()))?;
        self.invoke_exact(self.prepare(id, args)?).map(|a| a.value)
    }

    /// Calls operation `name` with a JSON object of arguments from async code.
    pub async fn call_async(
        self: &Arc<Self>,
        name: &str,
        args: &Value,
    ) -> Result<Value, CallError> {
        let id = self
            .resolve(name)
            .ok_or_else(|| CallError::UnknownOperation(name.to_string()))?;
        let call = self.prepare(id, args)?;
        self.invoke_async(call).await.map(|a| a.value)
    }

    /// The cached answer of a call, if the cache holds one for the current state of
    /// the database.
    fn cached(&self, call: &Call) -> Option<Answer> {
        if !call.cacheable {
            return None;
        }
        let value = self.cache.get(
            &call.query,
            self.freshness.since_key(call.op.index, call.key.as_deref()),
        )?;
        Some(Answer {
            value,
            output: String::new(),
        })
    }

    /// Whether the next call of the operation at `index` runs without the inference
    /// counter (see `counting`).
    fn uncounted(&self, index: usize) -> bool {
        let inferences = self.engine.config().limits.inferences;
        self.counters.uncounted(index, inferences)
    }

    /// Runs a call on the engine; it must answer by `deadline`.
    fn run(&self, call: Call, deadline: Instant) -> Result<Answer, CallError> {
        let access = self.effects[call.op.index].access;
        let uncounted = self.uncounted(call.op.index);
        let (query, sent) = call.dispatch(uncounted);
        let outcome = self.engine.run(query, access, deadline);
        self.counters.record(sent.op.index, &outcome);
        self.finish(sent, outcome)
    }

    /// Shapes the engine's outcome of a call into its answer, and caches it if the
    /// call is cacheable.
    fn finish(
        &self,
        sent: Sent,
        outcome: Result<RunOutcome, EngineError>,
    ) -> Result<Answer, CallError> {
        let Sent {
            op: id,
            key,
            generation,
        } = sent;
        let op = self.checked(id)?;
        let outcome = outcome.map_err(|error| engine_error(&op.name, error))?;
        if !outcome.output.is_empty() {
            tracing::info!(target: "charon::kb_output", operation = %op.name, "{}", outcome.output.trim_end());
        }
        let value = codec::shape(op, outcome.outcome, &self.engine.config().limits)?;
        if let Some(key) = key {
            self.cache.insert(key, generation, value.clone());
        }
        Ok(Answer {
            value,
            output: outcome.output,
        })
    }

    /// Checks that the engine answers a trivial goal within the time limit.
    pub fn ping(&self) -> Result<(), CallError> {
        self.ping_within(self.engine.config().limits.time)
    }

    /// Checks that the engine answers a trivial goal within `wait`.
    pub(crate) fn ping_within(&self, wait: Duration) -> Result<(), CallError> {
        let engine_error = |error| CallError::Engine {
            operation: "health".into(),
            error,
        };
        let outcome = self
            .engine
            .run(
                "'$charon_once'(sol,true,1000,R).".into(),
                Access::Read,
                Instant::now() + wait,
            )
            .map_err(engine_error)?;
        match outcome.outcome {
            crate::engine::Outcome::Solved(_) => Ok(()),
            other => Err(CallError::Exception {
                operation: "health".into(),
                term: format!("{other:?}"),
            }),
        }
    }
}

/// The call error for an engine failure of `operation`.
pub(super) fn engine_error(operation: &str, error: EngineError) -> CallError {
    match error {
        EngineError::TimeLimit(limit) | EngineError::Waited(limit) => CallError::TimeLimit {
            operation: operation.to_string(),
            limit,
        },
        EngineError::MemoryLimit(limit) => CallError::MemoryLimit {
            operation: operation.to_string(),
            limit,
        },
        error => CallError::Engine {
            operation: operation.to_string(),
            error,
        },
    }
}
