//! How the engine runs: worker count, recycling, per-call limits, admission.

use std::time::Duration;

/// Limits on one call; all configurable.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limits {
    /// Inferences per call (`call_with_inference_limit/3`); 0 counts none, leaving
    /// the wall-clock limit alone. Counting costs: scryer 0.10 keeps the count in
    /// big integers, about a third of a long goal's time. Without it a runaway call
    /// is stopped by the time limit, which kills and replaces its worker.
    pub inferences: u64,
    /// How the inference limit is enforced on read-only operations.
    pub counting: Counting,
    /// Solutions collected for a many-solution operation.
    pub solutions: usize,
    /// Solutions of one streamed answer (`KnowledgeBase::stream`): a stream keeps
    /// none of them, so this bounds its length rather than its memory; past it the
    /// stream ends as truncated.
    pub streamed: usize,
    /// Wall-clock time per call, waiting for a free worker included.
    pub time: Duration,
    /// Address space of one worker process, in bytes (`None`: unlimited).
    pub memory: Option<u64>,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            inferences: 10_000_000,
            counting: Counting::default(),
            solutions: 10_000,
            streamed: 1_000_000,
            time: Duration::from_secs(10),
            memory: Some(4 << 30),
        }
    }
}

/// How the inference limit is enforced on the calls of read-only operations (writes
/// always run under the counter).
///
/// Both give every call that ends within the time limit the same answer: a call that
/// used more inferences than the limit is an inference-limit error either way, to the
/// inference. They differ in what stops a call that does not (the counter, or the
/// wall clock), and in what counting costs. A knowledge base that sets inference
/// limits of its own (`call_with_inference_limit/3`), or may (a goal built at run
/// time), is always counted: scryer 0.10 counts its goals differently without an
/// outer counter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum Counting {
    /// Every call runs under scryer's inference counter, which stops it at the limit.
    /// The counter costs about a third of an inference-heavy goal's time.
    Strict,
    /// An operation's calls run under the counter until
    /// [`PROMOTE_AFTER`](Self::PROMOTE_AFTER) of them have ended within every limit.
    /// From then on they run without it: the engine's running total of inferences is
    /// read before and after, and a call that used more than the limit gets the
    /// inference-limit error it would have got under the counter (what it printed
    /// meanwhile is not cut short). A call of such an operation that never ends is
    /// stopped by the wall-clock limit (or the memory limit; its worker is
    /// replaced), and the operation goes back under the counter for good, as it does
    /// after any limit hit, memory exhaustion or lost worker; a call that timed out
    /// waiting for a worker, never having run, changes nothing. Until the first
    /// runaway call ends, runaway calls of the operation sent meanwhile run without
    /// the counter too, each holding a worker to its own time limit. Any caller can
    /// make the 100 clean calls, so count on this once per operation: a runaway
    /// argument costs the workers about two time limits and their reloads.
    #[default]
    Adaptive,
}

impl Counting {
    /// Calls of an operation that must end within every limit, under the counter,
    /// before [`Counting::Adaptive`] runs it without.
    pub const PROMOTE_AFTER: u32 = 100;
}

/// How a knowledge base runs its calls.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EngineConfig {
    /// Worker processes; reads run in parallel on them. Default: one per core.
    pub workers: usize,
    /// Replace a worker after this many calls (memory is only freed with its Machine:
    /// about 200 bytes of a small call stay behind, 50 MB at the default 250,000, and
    /// more for calls with large inputs; `recycle_memory` is the bound). Each
    /// replacement loads the knowledge base again, so a short period costs load time
    /// (and tail latency) under heavy traffic: 50,000 cost 3–8 % of the point
    /// throughput on a 2-core machine and raised its p99 by 60 %.
    pub recycle_after: u64,
    /// Replace a worker whose resident memory has grown by more than this many bytes
    /// since it loaded (0: never for memory): a call that built a large term leaves
    /// the memory with the Machine. Checked after slow calls and every 1,000 calls.
    pub recycle_memory: u64,
    /// Time a worker may take to load the knowledge base, directives included; a
    /// load that takes longer fails, naming the directive still running.
    pub load_timeout: Duration,
    /// Per-call limits.
    pub limits: Limits,
    /// Bytes of answers of pure read-only operations kept until the database
    /// changes (keys and answers counted; 0 turns the cache off).
    pub answer_cache: u64,
    /// Calls that may be in the engine or waiting for it at once, on every surface
    /// together; one more is refused at once with [`CallError::Overloaded`]
    /// (HTTP 503). Cached answers do not count.
    ///
    /// [`CallError::Overloaded`]: crate::CallError::Overloaded
    pub max_pending: usize,
    /// Keep the dynamic database in the knowledge base's file (`--persist`): every
    /// write that changed something is synced to a journal beside the file before it
    /// answers, and the journal is folded into the file (atomically, every other byte
    /// kept) when it grows, on [`KnowledgeBase::checkpoint`], on drop and at the next
    /// load; writes are refused once someone else has edited the file. Only for
    /// knowledge bases loaded from a file (else [`LoadError::Persist`]). The design
    /// and its recovery rules are in the `persist` module's source.
    ///
    /// [`KnowledgeBase::checkpoint`]: crate::KnowledgeBase::checkpoint
    ///
    /// [`LoadError::Persist`]: crate::LoadError::Persist
    pub persist: bool,
    /// Share the dynamic database with other replicas through a log in PostgreSQL
    /// (`--replicate` in the command line): every write is committed to the log
    /// before it answers, and every replica applies the log in its order. See
    /// [`ReplicaConfig`](crate::ReplicaConfig) and the `replica` module's docs.
    pub replica: Option<crate::ReplicaConfig>,
}

impl Default for EngineConfig {
    fn default() -> Self {
        EngineConfig {
            workers: std::thread::available_parallelism().map_or(2, |n| n.get()),
            recycle_after: 250_000,
            recycle_memory: 512 << 20,
            load_timeout: Duration::from_secs(60),
            limits: Limits::default(),
            answer_cache: 64 << 20,
            max_pending: 1024,
            persist: false,
            replica: None,
        }
    }
}

/// What went wrong in the engine itself.
#[derive(Debug, Clone, thiserror::Error)]
#[non_exhaustive]
pub enum EngineError {
    /// The call ran past the wall-clock limit; its worker was killed.
    #[error("the call ran longer than the time limit of {0:?} and was stopped")]
    TimeLimit(Duration),
    /// The call's time limit passed while it waited for the engine (a free worker,
    /// the database lock): it never started.
    #[error("the call waited for the engine for its whole time limit of {0:?} and did not start")]
    Waited(Duration),
    /// The worker ran out of memory (its limit in bytes, if one was set) and was
    /// replaced.
    #[error("the call ran out of memory and was stopped")]
    MemoryLimit(Option<u64>),
    /// The worker's answer could not be read.
    #[error("the engine's answer could not be read: {0}")]
    Protocol(String),
    /// The worker died (an engine panic; a stack that could not grow is a
    /// [`MemoryLimit`](Self::MemoryLimit)).
    #[error("the engine stopped while running the call ({0}); it has been restarted")]
    Crashed(String),
    /// A worker could not be started.
    #[error("cannot start an engine worker: {0}")]
    Spawn(String),
    /// The knowledge base did not load.
    #[error("{0}")]
    Load(String),
    /// `--persist`: the file could not be written, or was edited by someone else.
    #[error("{0}")]
    Persist(String),
    /// The knowledge base was reloaded (its file handed over to the new one) before
    /// this write could start: it was not made. Sent again, it reaches the new one.
    #[error(
        "the knowledge base was reloaded before this write could start, so it was not made: send it again"
    )]
    Reloaded,
    /// Replicated mode: the log in PostgreSQL could not be reached or written (a
    /// write was not made), or this replica stopped serving.
    #[error("{0}")]
    Replica(String),
    /// Replicated mode: a write's COMMIT was sent to the log and its answer lost,
    /// and PostgreSQL could not say whether the transaction committed. The write
    /// may have been made: it was if PostgreSQL answers `committed` to `SELECT
    /// txid_status(transaction)` (its record is then number `record`; the number
    /// alone does not tell, since another write takes it if this one was not
    /// made). Never send it again without reading first.
    #[error("{message}")]
    OutcomeUnknown {
        /// What happened, and how to settle it.
        message: String,
        /// The write's transaction id in PostgreSQL.
        transaction: String,
        /// The number the write's record has in the log if it was made.
        record: u64,
    },
    /// Replicated mode: this replica stopped serving, because a record of the log
    /// did not apply here as it did where it was written (or the log lost
    /// records): its state is not the log's, and it answers nothing until it is
    /// restarted.
    #[error("{0}")]
    Diverged(String),
}
