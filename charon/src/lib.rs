//! Charon: a Prolog knowledge base as typed APIs, on an embedded scryer-prolog engine.
//!
//! Every predicate documented with a PlDoc mode line becomes an [`Operation`]
//! (see [`pldoc`]). One operation set, many surfaces:
//!
//! * [`knowledge_base!`] turns a `.pl` file into typed Rust methods at compile time,
//!   plus the route and tool tables below, with no PlDoc parsing at run time;
//! * [`KnowledgeBase`] loads a file at run time and calls operations with JSON
//!   ([`KnowledgeBase::call`]);
//! * [`http::router`] serves them over HTTP (with the OpenAPI document of
//!   [`http::openapi`]) and [`mcp::McpServer`] over MCP.
//!
//! ```
//! charon::knowledge_base!(Meds = "../examples/meds.pl");
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let meds = Meds::load()?;
//! for hit in meds.blocking().pim_check(82, &["diazepam".to_string()])? {
//!     println!("{}: {}", hit.substance, hit.reason);
//! }
//! // The same call, untyped:
//! let json = meds.knowledge_base().call(
//!     "pim_check",
//!     &serde_json::json!({"Age": 82, "Drugs": ["diazepam"]}),
//! )?;
//! assert_eq!(json[0]["Substance"], "diazepam");
//! # Ok(())
//! # }
//! ```
//!
//! # One call pipeline
//!
//! Every surface calls operations the same way: [`KnowledgeBase::resolve`] turns a
//! name into an [`OpId`] once; [`KnowledgeBase::prepare`] checks the arguments and
//! builds a [`Call`]; [`KnowledgeBase::invoke`] (blocking) or
//! [`KnowledgeBase::invoke_async`] runs it: answer cache, admission control
//! ([`EngineConfig::max_pending`], the same limit for HTTP, MCP, typed methods and the
//! CLI), the engine, and the answer shaped by the declared determinism.
//!
//! # Worker processes, and the hook that serves them
//!
//! Calls run in worker processes (see [`engine`]): a goal that never yields can only be
//! stopped by killing what runs it. A worker is **this program itself**, started again
//! with `CHARON_WORKER=1` in its environment: a constructor in this crate (the `ctor`
//! crate, run before `main`) sees the variable, serves the worker protocol on
//! stdin/stdout and exits, so the program's `main` never runs in a worker. Without the
//! variable the constructor does nothing.
//!
//! This is a deliberate choice: applications, tests, examples, doc-tests and
//! benchmarks that link `charon` need no set-up call, no second binary to install and
//! no path to configure, and a worker runs exactly the code of the program that
//! started it. The alternatives were weighed: an explicit `charon::init()` at the top
//! of `main` (as procspawn asks) cannot be called from `#[test]` functions or
//! criterion benchmarks, which have no `main` of their own, and is easy to forget —
//! forgetting it would make every call hang until its time limit; a separate worker
//! binary would have to be found at run time and kept at the same version. What the
//! hook costs: a program that itself sets `CHARON_WORKER=1` would start as a worker
//! (the variable is removed before the worker serves, so programs the knowledge base
//! starts do not inherit it).
//!
//! # Layers
//!
//! Each module imports only from the layers below it (`scripts/import-circles.py`,
//! part of the test command, finds any file that imports one that imports it back):
//!
//! 1. the surfaces: [`http`] (with the `/metrics` text) and [`mcp`];
//! 2. the call pipeline of a knowledge base (`kb`: operations, arguments, answers)
//!    and the reasoning toolkit ([`reason`]);
//! 3. what they use: the static analysis of a `.pl` (`analysis`) and the call
//!    counters (`metrics`);
//! 4. the [`engine`]: worker processes, generations, folding and replication;
//! 5. the journal and the `.pl` it keeps current (`persist`) and the replicas' log
//!    in PostgreSQL (`replica`);
//! 6. a write's change record (`change`) and the answer cache (`cache`);
//! 7. values: [`term`], [`args`], [`json`]; and [`pldoc`], its own crate.
//!
//! * [`pldoc`]: PlDoc parsing, the operation model, JSON Schemas (no engine);
//! * [`term`]: JSON ↔ Prolog by declared type; [`args`]: arguments given as text;
//! * [`json`]: integers of any size and exact floats without a serde_json feature;
//! * [`engine`]: the worker processes that run scryer-prolog, and their limits;
//! * [`http`], [`mcp`]: the surfaces;
//! * [`reason`]: the reasoning toolkit (Euclid-IR knowledge answered with proof
//!   trees), served by the same surfaces.

mod analysis;
pub mod args;
mod cache;
mod change;
pub mod engine;
pub mod http;
pub mod json;
mod kb;
pub mod mcp;
mod metrics;
mod persist;
pub mod reason;
mod replica;
pub mod term;

pub use cache::CacheStats;
pub use charon_pldoc as pldoc;
pub use engine::{Counting, EngineConfig, EngineError, EngineStats, Limits};
pub use kb::{
    Answer, ArgumentError, CacheScope, Call, CallError, DEFAULT_PAGE_SIZE, EXPLAIN_DEPTH,
    EXPLAIN_MAX_BYTES, EXPLAIN_MAX_NODES, Effects, ExplainRequest, Explanation, Handover,
    KnowledgeBase, LoadError, OpId, Page, Pages, SolutionStream, SourceFiles, StreamEnd, Streamed,
    explain_input_schema, explain_output_schema,
};
pub use pldoc::{Operation, Report};
pub use replica::{ReplicaConfig, ReplicaStatus};

/// The embedded engine: the `charon-scryer-prolog` crate, scryer-prolog 0.10.0 with
/// Charon's fixes (its `CHARON.md` lists them), by its package name and the exact
/// version pinned in the workspace's Cargo.toml (a test checks both).
pub const ENGINE_VERSION: &str = "charon-scryer-prolog 0.10.0-charon.1";

/// Charon's version and its engine's, as `charon --version` prints them.
pub const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (embedded engine: charon-scryer-prolog 0.10.0-charon.1, scryer-prolog 0.10.0 with Charon's fixes)"
);

#[doc = include_str!("knowledge_base.md")]
pub use charon_macros::knowledge_base;

/// What the code generated by [`knowledge_base!`] uses; not a public API.
#[doc(hidden)]
pub mod __private {
    pub use crate::pldoc;
    pub use axum;
    pub use serde;
    pub use serde_json;
    pub use std::sync::Arc;

    use crate::{CallError, KnowledgeBase, OpId};

    /// A typed argument as JSON (the one conversion of values to Prolog then applies).
    pub fn input<T: serde::Serialize + ?Sized>(value: &T) -> serde_json::Value {
        serde_json::to_value(value).unwrap_or(serde_json::Value::Null)
    }

    /// A `list(atom)`/`list(string)` argument as JSON: any slice of text (`&[&str]`,
    /// `&[String]`, `&Vec<String>`, …).
    pub fn text_list<T: AsRef<str>>(items: &[T]) -> serde_json::Value {
        serde_json::Value::Array(
            items
                .iter()
                .map(|s| serde_json::Value::String(s.as_ref().to_string()))
                .collect(),
        )
    }

    /// A float argument as JSON. One that JSON cannot carry (NaN, ±inf) becomes its
    /// name as a string, so the argument check says "found string \"NaN\"".
    pub fn float_input(value: &f64) -> serde_json::Value {
        match serde_json::Number::from_f64(*value) {
            Some(n) => serde_json::Value::Number(n),
            None => serde_json::Value::String(value.to_string()),
        }
    }

    fn decode<T: serde::de::DeserializeOwned>(
        kb: &KnowledgeBase,
        id: OpId,
        value: serde_json::Value,
    ) -> Result<T, CallError> {
        let op = kb.op(id);
        let operation = || op.map_or_else(|| "?".into(), |op| op.name.to_string());
        // The one way a well-typed answer can miss its Rust type: an `int` beyond i64.
        // Checked first (numbers only), so that the error can name the value.
        if op.is_some_and(|op| op.outputs().any(|a| mentions_int(&a.ty)))
            && let Some(n) = beyond_i64(&value)
        {
            return Err(CallError::Decode {
                operation: operation(),
                message: format!(
                    "the answer holds the integer {n}, which does not fit in i64; declare the output `any` to receive it as a JSON number{}",
                    if crate::json::native() {
                        ""
                    } else {
                        " (with serde_json's `arbitrary_precision` feature on in your application)"
                    }
                ),
            });
        }
        // An `any` output past what the application's serde_json holds.
        if let Err(digits) = crate::json::public(&value) {
            return Err(CallError::Decode {
                operation: operation(),
                message: crate::json::beyond_serde_json(&digits),
            });
        }
        // By value: strings move into the answer instead of being copied.
        T::deserialize(value).map_err(|e| CallError::Decode {
            operation: operation(),
            message: e.to_string(),
        })
    }

    /// An integer of the answer past `i64`, as text.
    fn beyond_i64(value: &serde_json::Value) -> Option<String> {
        match value {
            serde_json::Value::Number(n)
                if n.as_i64().is_none() && crate::term::is_integer_text(&n.to_string()) =>
            {
                Some(n.to_string())
            }
            serde_json::Value::Array(items) => items.iter().find_map(beyond_i64),
            serde_json::Value::Object(fields) => fields.values().find_map(beyond_i64),
            other => crate::json::marked(other).map(str::to_string),
        }
    }

    fn mentions_int(ty: &crate::pldoc::Type) -> bool {
        match ty {
            crate::pldoc::Type::Int => true,
            crate::pldoc::Type::List(inner) => mentions_int(inner),
            _ => false,
        }
    }

    /// The id of the operation at `index` of a knowledge base built from the model the
    /// generated code was compiled with.
    pub fn op_id(kb: &KnowledgeBase, index: usize) -> Result<OpId, CallError> {
        kb.op_id(index)
            .ok_or_else(|| CallError::UnknownOperation(format!("#{index}")))
    }

    /// The call of a generated method: the operation at `index`, input values in
    /// mode-line order.
    fn typed_call(
        kb: &KnowledgeBase,
        index: usize,
        inputs: &[serde_json::Value],
    ) -> Result<(OpId, crate::Call), CallError> {
        let id = op_id(kb, index)?;
        let refs: Vec<&serde_json::Value> = inputs.iter().collect();
        Ok((id, kb.prepare_inputs(id, &refs)?))
    }

    /// A typed call from async code.
    pub async fn call_async<T: serde::de::DeserializeOwned>(
        kb: &Arc<KnowledgeBase>,
        index: usize,
        inputs: &[serde_json::Value],
    ) -> Result<T, CallError> {
        let (id, call) = typed_call(kb, index, inputs)?;
        let answer = kb
            .invoke_async_exact(call, std::time::Instant::now())
            .await?;
        decode(kb, id, answer.value)
    }

    /// A typed call that blocks.
    pub fn call_blocking<T: serde::de::DeserializeOwned>(
        kb: &KnowledgeBase,
        index: usize,
        inputs: &[serde_json::Value],
    ) -> Result<T, CallError> {
        let (id, call) = typed_call(kb, index, inputs)?;
        decode(kb, id, kb.invoke_exact(call)?.value)
    }
}
