//! The call counters that the knowledge base's operations and the reasoning tools
//! feed: by name and outcome (`ok`, or the problem type, [`CallError::kind`]),
//! durations in a histogram, limits hit by kind. Plain counters: they import no
//! surface; `crate::http::metrics` renders them for `GET /metrics`.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::histogram::{Histogram, exponential_buckets};
use prometheus_client::registry::Registry;

use crate::CallError;

type Labels = Vec<(String, String)>;

/// A duration histogram family: 25 µs to about 100 s, each bucket 4× the last.
type Durations = Family<Labels, Histogram, fn() -> Histogram>;

fn durations() -> Histogram {
    Histogram::new(exponential_buckets(25e-6, 4.0, 12))
}

/// Problem types that are limits (`charon_limit_hits_total`).
const LIMITS: &[&str] = &[
    "time-limit",
    "inference-limit",
    "memory-limit",
    "too-many-solutions",
    "answer-too-deep",
    "answer-too-large",
    "too-many-answers",
    "overloaded",
];

/// The call metrics of one set of named things (operations, or reasoning tools).
#[derive(Debug)]
pub(crate) struct CallMetrics {
    /// `calls_total` by name and outcome.
    calls: Family<Labels, Counter>,
    duration: Durations,
    limits: Family<Labels, Counter>,
    /// By index: the `ok` counter and the histogram, looked up once.
    fast: Vec<(Counter, Histogram)>,
    names: Vec<String>,
    /// The label naming the thing: `operation` or `tool`.
    label: &'static str,
    /// Whether calls are counted (see [`set_counting`](Self::set_counting)).
    counting: AtomicBool,
}

impl CallMetrics {
    /// Metrics for the things `names` (by index), labelled `label`.
    pub(crate) fn new(label: &'static str, names: Vec<String>) -> CallMetrics {
        let calls = Family::<Labels, Counter>::default();
        let duration: Durations = Family::new_with_constructor(durations);
        let fast = names
            .iter()
            .map(|n| {
                (
                    calls
                        .get_or_create(&vec![
                            (label.to_string(), n.clone()),
                            ("outcome".into(), "ok".into()),
                        ])
                        .clone(),
                    duration
                        .get_or_create(&vec![(label.to_string(), n.clone())])
                        .clone(),
                )
            })
            .collect();
        CallMetrics {
            calls,
            duration,
            limits: Family::default(),
            fast,
            names,
            label,
            counting: AtomicBool::new(true),
        }
    }

    /// Counts calls from now on, or stops counting them (the `call` log line is
    /// written either way).
    pub(crate) fn set_counting(&self, on: bool) {
        self.counting.store(on, Ordering::Relaxed);
    }

    /// Counts a call of thing `index` that took `took` and ended with `error`
    /// (`None`: an answer), named by its problem type.
    pub(crate) fn record(&self, index: usize, took: Duration, error: Option<&str>) {
        let Some((ok, histogram)) = self.fast.get(index) else {
            return;
        };
        let (outcome, duration_us) = (error.unwrap_or("ok"), took.as_micros() as u64);
        if self.label == "operation" {
            tracing::debug!(target: "charon::call", operation = %self.names[index], outcome, duration_us, "call");
        } else {
            tracing::debug!(target: "charon::call", tool = %self.names[index], outcome, duration_us, "call");
        }
        if !self.counting.load(Ordering::Relaxed) {
            return;
        }
        histogram.observe(took.as_secs_f64());
        match error {
            None => {
                ok.inc();
            }
            Some(kind) => {
                let name = self.names[index].clone();
                self.calls
                    .get_or_create(&vec![
                        (self.label.to_string(), name),
                        ("outcome".into(), kind.to_string()),
                    ])
                    .inc();
                if LIMITS.contains(&kind) {
                    self.limits
                        .get_or_create(&vec![("kind".into(), kind.to_string())])
                        .inc();
                }
            }
        }
    }

    /// Counts a call refused before it ran (its arguments): like any other call, it
    /// gets its log line and its place in the duration histogram (no time spent),
    /// so that the histogram's count is the calls' count.
    pub(crate) fn refused(&self, index: usize, kind: &str) {
        self.record(index, Duration::ZERO, Some(kind));
    }

    /// [`record`](Self::record) for a call's result.
    pub(crate) fn record_call<T>(
        &self,
        index: usize,
        took: Duration,
        result: &Result<T, CallError>,
    ) {
        self.record(index, took, result.as_ref().err().map(CallError::kind));
    }

    /// Registers these metrics in `registry`: as the operations' calls (`prefix`
    /// `call`) or the reasoning tools' (any other), described as `what`.
    pub(crate) fn register(&self, registry: &mut Registry, prefix: &str, what: &str) {
        let (calls, duration) = match prefix {
            "call" => ("calls", "call_duration_seconds"),
            _ => ("reasoning_calls", "reasoning_duration_seconds"),
        };
        registry.register(
            calls,
            format!("{what}, by outcome (ok, or the problem type)"),
            self.calls.clone(),
        );
        registry.register(
            duration,
            format!("{what}: time from the call to its answer, in seconds"),
            self.duration.clone(),
        );
        if prefix == "call" {
            registry.register(
                "limit_hits",
                "Calls stopped by a limit, by kind",
                self.limits.clone(),
            );
        } else {
            registry.register(
                "reasoning_limit_hits",
                "Reasoning calls stopped by a limit, by kind",
                self.limits.clone(),
            );
        }
    }
}
