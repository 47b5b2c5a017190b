//! Which calls run under scryer's inference counter (see [`Counting`]).
//!
//! Per operation, a tally of calls that ended within every limit and a flag that
//! sends it back under the counter for good. Only read-only operations whose
//! effects are all known are ever run without the counter: a write stopped late
//! would have made more changes than the limit allows.

use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};

use crate::analysis::Verdict;
use crate::engine::{Access, Counting, EngineError, Outcome, RunOutcome};

#[derive(Debug)]
pub(super) struct Counters {
    mode: Counting,
    /// The knowledge base sets inference limits of its own (then `mode` is strict).
    nested_limits: bool,
    ops: Vec<OpCounter>,
}

#[derive(Debug, Default)]
struct OpCounter {
    /// The operation may run without the counter at all.
    eligible: bool,
    /// Calls that ended within every limit (saturates at `PROMOTE_AFTER`).
    clean: AtomicU32,
    /// A call hit a limit or lost its worker: counted from now on.
    strict: AtomicBool,
}

impl Counters {
    /// `nested_limits`: the knowledge base calls `call_with_inference_limit/3`
    /// itself; every call then runs under the counter, which is reset first.
    pub(super) fn new(mode: Counting, nested_limits: bool, effects: &[Verdict]) -> Self {
        let ops = effects
            .iter()
            .map(|v| OpCounter {
                eligible: v.access == Access::Read && !v.untracked,
                ..OpCounter::default()
            })
            .collect();
        let mode = if nested_limits {
            Counting::Strict
        } else {
            mode
        };
        Counters {
            mode,
            nested_limits,
            ops,
        }
    }

    /// Whether the knowledge base sets inference limits of its own.
    pub(super) fn nested_limits(&self) -> bool {
        self.nested_limits
    }

    /// Whether the next call of operation `index` runs without the counter, its
    /// inferences checked when it ends.
    pub(super) fn uncounted(&self, index: usize, inferences: u64) -> bool {
        let op = &self.ops[index];
        inferences > 0
            && self.mode == Counting::Adaptive
            && op.eligible
            && op.clean.load(Ordering::Relaxed) >= Counting::PROMOTE_AFTER
            && !op.strict.load(Ordering::Relaxed)
    }

    /// Records how a call of operation `index` ended.
    pub(super) fn record(&self, index: usize, outcome: &Result<RunOutcome, EngineError>) {
        let op = &self.ops[index];
        if !op.eligible {
            return;
        }
        let runaway = match outcome {
            Ok(ran) => matches!(ran.outcome, Outcome::InferenceLimit | Outcome::MemoryLimit),
            // It never ran, or the replicas' log decided how it ended: nothing
            // learnt about the operation.
            Err(
                EngineError::Waited(_)
                | EngineError::Reloaded
                | EngineError::Replica(_)
                | EngineError::OutcomeUnknown { .. }
                | EngineError::Diverged(_),
            ) => return,
            Err(EngineError::Protocol(_) | EngineError::Persist(_)) => false,
            Err(_) => true,
        };
        if runaway {
            if !op.strict.swap(true, Ordering::Relaxed) && self.mode == Counting::Adaptive {
                tracing::info!(target: "charon::engine", operation = index, "a call hit a limit: this operation runs under the inference counter from now on");
            }
        } else if op.clean.load(Ordering::Relaxed) < Counting::PROMOTE_AFTER {
            op.clean.fetch_add(1, Ordering::Relaxed);
        }
    }
}
