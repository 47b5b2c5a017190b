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
    /// Run one goal; what the wrapper wrote as its answer comes back. After
    /// answering, the worker checks for the next request without sleeping for
    /// `spin_us` µs. With
    /// `changes`, the changes the call recorded come back too (see `wrapper/changes.pl`).
    /// `id` names a call of a batch (0 otherwise), for `Cancel`.
    Run {
        query: String,
        spin_us: u64,
        changes: bool,
        #[serde(default)]
        id: u64,
    },
    /// Run one streaming query (`'$charon_all'/5` with `stream(Max, Key)`): every
    /// solution the wrapper writes as `'$charon_s'(Key, ok(T))` is sent on as it is
    /// found, in `Solutions` batches, before the `Ran` that ends the call (see
    /// `worker::Streaming`). A pure read: nothing is recorded.
    Stream { query: String, key: u64 },
    /// Skip the queued `Run`s whose `id` is at least `from` (the engine gave them to
    /// another worker): each is answered `Skipped` when its turn comes. No answer of
    /// its own.
    Cancel { from: u64 },
    /// Write the state calls can change (dynamic clauses of user, `modules` and every
    /// module a change touched; the blackboard) to `file`.
    Dump { file: String, modules: Vec<String> },
    /// Write the same state to `file` as change lists that recreate it on the
    /// knowledge base as loaded, one per line (the snapshot of a replicated log).
    Snapshot { file: String, modules: Vec<String> },
    /// Replace that state with `file`'s.
    Restore { file: String, modules: Vec<String> },
    /// Apply changes recorded by other workers (text of a list of change lists).
    Replay { changes: String },
    /// Write the clauses of `module`'s dynamic predicates named in `predicates` (all
    /// of them with `None`), and the dynamic state outside `module`, to `file`, for
    /// `--persist` (see `'$charon_listing'/4`).
    Listing {
        file: String,
        module: String,
        predicates: Option<Vec<(String, usize)>>,
    },
    /// Read `file` (and the local files it loads) for the analysis of effects;
    /// `file` cut short for it (see `analysis_text`) is written to `source` first.
    Analyse { file: String, source: String },
    /// To a template only: fork a worker, whose pipes follow on the template's
    /// socket (see `template`).
    Fork {},
}

/// Worker → parent.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Response {
    /// The KB loaded (`ok`), or not, with the engine's messages.
    Loaded { ok: bool, messages: String },
    /// The wrapper's result of a `Run` query as text (`write_canonical/2`), or
    /// `None` when the query wrote none.
    Ran {
        result: Option<String>,
        output: String,
        /// The recorded changes (text), when asked for.
        changes: Option<String>,
    },
    /// Solutions of a `Stream` found so far, each the text of `ok(T)`.
    Solutions { items: Vec<String> },
    /// `Dump`/`Restore`/`Replay` finished, with the wrapper's result (see
    /// `outcome::done`).
    Done { result: Option<PlTerm> },
    /// What `'$charon_analyse'/2` found (see `wrapper/analysis.pl`).
    Analysis { items: Vec<PlTerm> },
    /// A `Run` cancelled before it started.
    Skipped {},
    /// The template forked a worker, with this pid.
    Forked { pid: u32 },
    /// The engine panicked (the worker exits after sending this).
    Crashed { message: String },
}
