//! The errors of loading a knowledge base and of calling its operations.

use std::path::PathBuf;
use std::time::Duration;

use crate::engine::EngineError;
use crate::term::{InputTypeError, OutputTypeError};

/// Why a knowledge base did not load.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LoadError {
    /// The file could not be read.
    #[error("cannot read {path}")]
    Read {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
    /// The engine rejected the file (syntax error, failed directive); the message
    /// names `file:line` where the engine gives one.
    #[error("{0}")]
    Consult(String),
    /// Files given in memory ([`SourceFiles`](crate::SourceFiles)) cannot be laid
    /// out: none given, or a path that is not relative or leaves the directory.
    #[error("{0}")]
    Sources(String),
    /// The engine could not be started.
    #[error(transparent)]
    Engine(EngineError),
    /// `persist` was asked for a knowledge base that has no file of its own (loaded
    /// from text), or its file cannot be followed.
    #[error("cannot persist: {0}")]
    Persist(String),
    /// Replicated mode was asked for a knowledge base whose writes cannot be
    /// replicated, or its log cannot be joined.
    #[error("cannot replicate: {0}")]
    Replica(String),
    /// A file loaded in place of a compiled-in knowledge base does not declare the
    /// same operations (see [`KnowledgeBase::load_matching`](crate::KnowledgeBase::load_matching)).
    #[error("{path}: its operations differ from the compiled-in knowledge base: {difference}")]
    ModelMismatch {
        /// The file.
        path: PathBuf,
        /// The first difference found.
        difference: String,
    },
}

/// What is wrong with the arguments of a call.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ArgumentError {
    /// The arguments are not a JSON object.
    #[error("arguments must be a JSON object keyed by argument name")]
    NotAnObject,
    /// A key that is not an argument of the operation.
    #[error("unknown argument `{0}`")]
    Unknown(String),
    /// An input argument is missing.
    #[error("missing input argument `{0}`")]
    Missing(String),
    /// A value was given for an output argument.
    #[error("`{0}` is an output argument and cannot be given")]
    Output(String),
    /// A value does not fit the declared type.
    #[error("argument `{name}`: {error}")]
    Type {
        /// The argument.
        name: String,
        /// What was expected and found.
        error: InputTypeError,
    },
}

impl ArgumentError {
    /// The argument this error is about, if it is about one.
    pub fn argument(&self) -> Option<&str> {
        match self {
            ArgumentError::NotAnObject => None,
            ArgumentError::Unknown(n) | ArgumentError::Missing(n) | ArgumentError::Output(n) => {
                Some(n)
            }
            ArgumentError::Type { name, .. } => Some(name),
        }
    }
}

/// Why a call did not produce an answer.
#[derive(Debug, Clone, thiserror::Error)]
#[non_exhaustive]
pub enum CallError {
    /// No operation has that name.
    #[error("no operation named `{0}`")]
    UnknownOperation(String),
    /// Bad arguments.
    #[error("{operation}: {error}")]
    Arguments {
        /// The operation.
        operation: String,
        /// What is wrong.
        error: ArgumentError,
    },
    /// The goal raised a Prolog exception.
    #[error("{operation} raised a Prolog exception: {term}")]
    Exception {
        /// The operation.
        operation: String,
        /// The exception term, as Prolog text.
        term: String,
    },
    /// A `det` operation failed.
    #[error("{operation} is declared det but failed")]
    DetFailed {
        /// The operation.
        operation: String,
    },
    /// The inference limit was reached.
    #[error("{operation} exceeded the limit of {limit} inferences")]
    InferenceLimit {
        /// The operation.
        operation: String,
        /// The limit in force.
        limit: u64,
    },
    /// A page request that cannot be answered (see
    /// [`KnowledgeBase::page`](crate::KnowledgeBase::page)): the page size or the
    /// cursor is wrong, or the operation has no pages.
    #[error("{operation}: {detail}")]
    Paging {
        /// The operation.
        operation: String,
        /// What is wrong: `page_size` or `cursor`.
        argument: &'static str,
        /// What is wrong, and what to do.
        detail: String,
    },
    /// A stream asked of an operation that has none (see
    /// [`KnowledgeBase::stream`](crate::KnowledgeBase::stream)): only `nondet` and
    /// `multi` pure reads stream.
    #[error("{operation}: {detail}")]
    NotStreamable {
        /// The operation.
        operation: String,
        /// Why, and what to do.
        detail: String,
    },
    /// A page's cursor was taken before a write that may have changed the answer:
    /// the pages would mix two states. Start again from the first page.
    #[error(
        "{operation}: the answer may have changed since the cursor was taken (a write changed what it reads); ask for the first page again"
    )]
    CursorStale {
        /// The operation.
        operation: String,
    },
    /// A page's cursor that is not one of this call's: made up, changed, or given
    /// with other arguments, another operation, or another server.
    #[error("{operation}: {detail}")]
    CursorMismatch {
        /// The operation.
        operation: String,
        /// What is wrong, and what to do.
        detail: String,
    },
    /// More solutions than the limit.
    #[error("{operation} has more than {limit} solutions (the solution limit)")]
    TooManySolutions {
        /// The operation.
        operation: String,
        /// The limit in force.
        limit: usize,
    },
    /// The wall-clock limit was reached.
    #[error("{operation} ran longer than the time limit of {limit:?} and was stopped")]
    TimeLimit {
        /// The operation.
        operation: String,
        /// The limit in force.
        limit: Duration,
    },
    /// The call ran out of memory: the engine raised `resource_error(memory)` or
    /// its worker died for want of memory ([`Limits::memory`](crate::Limits)), its
    /// stack among it.
    #[error("{operation} ran out of memory{} and was stopped", limit.map(|b| format!(" (the limit is {} MiB per worker)", b >> 20)).unwrap_or_default())]
    MemoryLimit {
        /// The operation.
        operation: String,
        /// The limit in force, in bytes.
        limit: Option<u64>,
    },
    /// The answer nests terms deeper than Charon delivers (lists count as one
    /// level, whatever their length).
    #[error(
        "{operation}: the answer nests terms more than {limit} levels deep; return a flatter term"
    )]
    AnswerTooDeep {
        /// The operation.
        operation: String,
        /// The depth limit.
        limit: usize,
    },
    /// An explanation would be larger than allowed (its proof trees hold more
    /// nodes, or more bytes, than [`EXPLAIN_MAX_NODES`](crate::EXPLAIN_MAX_NODES)
    /// or [`EXPLAIN_MAX_BYTES`](crate::EXPLAIN_MAX_BYTES)).
    #[error(
        "{operation}: the explanation would hold more than {limit}; narrow the call (fewer solutions, smaller inputs)"
    )]
    AnswerTooLarge {
        /// The operation.
        operation: String,
        /// The limit passed, with its unit.
        limit: String,
    },
    /// An output value does not fit its declared type.
    #[error("{operation}: output `{argument}` {error}")]
    Output {
        /// The operation.
        operation: String,
        /// The output argument.
        argument: String,
        /// What was declared and found.
        error: OutputTypeError,
    },
    /// Too many calls are already in the engine or waiting for it
    /// ([`EngineConfig::max_pending`](crate::EngineConfig::max_pending)).
    #[error("{operation}: {limit} calls are already waiting for the engine; retry shortly")]
    Overloaded {
        /// The operation.
        operation: String,
        /// The limit in force.
        limit: usize,
    },
    /// The answer does not fit the Rust type of a generated method (an `int` beyond
    /// `i64`, say), or holds an integer the build's serde_json cannot (see
    /// [`crate::json`]).
    #[error("{operation}: the answer does not fit its Rust type: {message}")]
    Decode {
        /// The operation.
        operation: String,
        /// What serde said.
        message: String,
    },
    /// The call cannot be explained: it uses Prolog the tracer does not follow
    /// (or it changes the database), or its proof is deeper than the tracer goes.
    #[error("{operation} cannot be explained: {reason}")]
    NotTraceable {
        /// The operation.
        operation: String,
        /// Why, and what to do.
        reason: String,
    },
    /// The engine process stopped during the call (memory, stack, panic).
    #[error("{operation}: {error}")]
    Engine {
        /// The operation.
        operation: String,
        /// What happened.
        error: EngineError,
    },
}

impl CallError {
    /// The kind of failure, by name: the problem type an HTTP client gets
    /// (`urn:charon:problem:<kind>`), and the `outcome` label of the call metrics.
    pub fn kind(&self) -> &'static str {
        match self {
            CallError::UnknownOperation(_) => "not-found",
            CallError::Arguments { .. } | CallError::Paging { .. } => "bad-arguments",
            CallError::Exception { .. } => "prolog-exception",
            CallError::NotStreamable { .. } => "not-streamable",
            CallError::CursorStale { .. } => "cursor-stale",
            CallError::CursorMismatch { .. } => "cursor-mismatch",
            CallError::DetFailed { .. } => "det-failed",
            CallError::InferenceLimit { .. } => "inference-limit",
            CallError::TooManySolutions { .. } => "too-many-solutions",
            CallError::MemoryLimit { .. } => "memory-limit",
            CallError::AnswerTooDeep { .. } => "answer-too-deep",
            CallError::AnswerTooLarge { .. } => "answer-too-large",
            CallError::NotTraceable { .. } => "not-traceable",
            CallError::TimeLimit { .. } => "time-limit",
            CallError::Output { .. } => "output-type",
            CallError::Overloaded { .. } => "overloaded",
            CallError::Decode { .. } => "decode",
            CallError::Engine { error, .. } => match error {
                EngineError::OutcomeUnknown { .. } => "write-outcome-unknown",
                EngineError::Diverged(_) => "replica-stopped",
                EngineError::Replica(_) => "replica-unavailable",
                EngineError::Reloaded => "reloaded",
                _ => "engine-failure",
            },
        }
    }
}
