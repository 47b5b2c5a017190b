//! Messages between the pool and a worker process: one JSON object per line.
//!
//! Enums are externally tagged: serde buffers internally tagged content, which loses
//! numbers under serde_json's `arbitrary_precision`.

use serde::{Deserialize, Serialize};

use crate::term::PlTerm;

/// Parent → worker.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Request {
    /// Consult the wrapper, then the knowledge base.
    Load { wrapper: String, kb: String },
    /// Run one goal; the binding of its variable `R` comes back. After answering, the
    /// worker checks for the next request without sleeping for `spin_us` µs.
    Run { query: String, spin_us: u64 },
    /// Write the dynamic database to `file`.
    Dump { file: String },
    /// Replace the dynamic database with the clauses in `file`.
    Restore { file: String },
    /// List the rules of `file` (head name, arity, body) for the mutation analysis.
    Rules { file: String },
}

/// Worker → parent.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Response {
    /// The KB loaded (`ok`), or not, with the engine's messages.
    Loaded { ok: bool, messages: String },
    /// The binding of `R` in a `Run` query, or `None` when the query failed.
    Ran {
        result: Option<PlTerm>,
        output: String,
    },
    /// `Dump`/`Restore` finished, with the wrapper's result (see `outcome::done`).
    Done { result: Option<PlTerm> },
    /// Rules as `(name, arity, body)`.
    Rules { rules: Vec<(String, usize, PlTerm)> },
    /// The engine panicked (the worker exits after sending this).
    Crashed { message: String },
}
