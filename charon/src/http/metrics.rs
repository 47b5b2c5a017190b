//! Metrics a Prometheus server can scrape: what the knowledge base's operations
//! and the reasoning tools are doing, in the OpenMetrics text format (which
//! Prometheus reads; `GET /metrics` when enabled, see
//! [`HttpOptions::with_metrics`](crate::http::HttpOptions::with_metrics)), from
//! the counters of `crate::metrics`.
//!
//! Every call is counted where every surface meets, [`KnowledgeBase::invoke`]
//! and its async forms (HTTP, MCP, the Rust API and the generated functions
//! alike): by operation and outcome (`ok`, or the problem type an HTTP client
//! would get: `time-limit`, `det-failed`, …), with its duration in a histogram
//! (answers from the cache included), and limits hit by kind. The engine's own
//! counters — workers started, recycled and replaced, the answer cache, the calls
//! waiting — are read when the metrics are written. The collection is a few
//! atomic operations per call, on by default; a server that does not serve the
//! metrics turns it off ([`KnowledgeBase::count_calls`], as `charon http` and
//! `charon mcp` do without `--metrics`).
//!
//! | metric | type | labels |
//! |---|---|---|
//! | `charon_calls_total` | counter | `operation`, `outcome` |
//! | `charon_call_duration_seconds` | histogram | `operation` |
//! | `charon_limit_hits_total` | counter | `kind` |
//! | `charon_reasoning_calls_total` | counter | `tool`, `outcome` |
//! | `charon_reasoning_duration_seconds` | histogram | `tool` |
//! | `charon_cache_hits_total`, `charon_cache_misses_total` | counter | |
//! | `charon_cache_bytes`, `charon_cache_entries` | gauge | |
//! | `charon_workers_started_total`, `charon_workers_recycled_total`, `charon_workers_replaced_total` | counter | |
//! | `charon_calls_pending` | gauge | |
//! | `charon_database_generation` | gauge | |
//! | `charon_replica_log_head`, `charon_replica_connected`, `charon_replica_lag_seconds` | gauge | (replicated mode) |
//! | `charon_mcp_sessions` | gauge | |
//!
//! [`KnowledgeBase::invoke`]: crate::KnowledgeBase::invoke
//! [`KnowledgeBase::count_calls`]: crate::KnowledgeBase::count_calls

use prometheus_client::metrics::counter::ConstCounter;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::registry::Registry;

use axum::http::header;
use axum::response::{IntoResponse, Response};

/// The media type of what [`render`] writes.
pub const CONTENT_TYPE: &str = "application/openmetrics-text; version=1.0.0; charset=utf-8";

/// The media type of what [`render_prometheus`] writes: Prometheus's text format.
pub const PROMETHEUS_CONTENT_TYPE: &str = "text/plain; version=0.0.4; charset=utf-8";

/// What [`render`] writes: the knowledge base's metrics, the reasoning tools', and
/// the count of open MCP sessions, each if there is one.
#[derive(Debug, Default, Clone, Copy)]
pub struct Sources<'a> {
    /// The knowledge base whose operations are served.
    pub kb: Option<&'a crate::KnowledgeBase>,
    /// The reasoning tools, if served.
    pub reasoner: Option<&'a crate::reason::Reasoner>,
    /// Open MCP sessions, if MCP is served over HTTP.
    pub mcp_sessions: Option<usize>,
}

/// The metrics of `sources` in the OpenMetrics text format ([`CONTENT_TYPE`]).
pub fn render(sources: Sources<'_>) -> String {
    let mut registry = Registry::with_prefix("charon");
    if let Some(kb) = sources.kb {
        let m = kb.call_metrics();
        m.register(&mut registry, "call", "Calls of operations");
        let cache = kb.cache_stats();
        let engine = kb.stats();
        counter(
            &mut registry,
            "cache_hits",
            "Calls answered from the answer cache",
            cache.hits,
        );
        counter(
            &mut registry,
            "cache_misses",
            "Cacheable calls that had to run",
            cache.misses,
        );
        gauge(
            &mut registry,
            "cache_bytes",
            "Bytes the answer cache holds (keys and answers, estimated)",
            cache.bytes,
        );
        gauge(
            &mut registry,
            "cache_entries",
            "Answers the answer cache holds",
            cache.entries,
        );
        counter(
            &mut registry,
            "workers_started",
            "Engine worker processes started (first ones, replacements and recycled ones)",
            engine.workers_started,
        );
        counter(
            &mut registry,
            "workers_recycled",
            "Engine workers replaced after their call count or memory growth",
            engine.workers_recycled,
        );
        counter(
            &mut registry,
            "workers_replaced",
            "Engine workers killed or lost (a time limit, a crash, an unknown state) and replaced",
            engine.workers_replaced,
        );
        gauge(
            &mut registry,
            "calls_pending",
            "Calls admitted and not finished (waiting for or running on the engine)",
            kb.pending() as u64,
        );
        gauge(
            &mut registry,
            "database_generation",
            "The dynamic database's generation: it moves with every write that changed something",
            kb.generation(),
        );
        if let Some(replica) = kb.replica_status() {
            gauge(
                &mut registry,
                "replica_log_head",
                "Replicated mode: the last record known to be in the shared log",
                replica.head,
            );
            gauge(
                &mut registry,
                "replica_connected",
                "Replicated mode: 1 while PostgreSQL answers, 0 when it does not",
                u64::from(replica.connected),
            );
            let lag = Gauge::<f64, std::sync::atomic::AtomicU64>::default();
            lag.set(replica.lag_secs);
            registry.register(
                "replica_lag_seconds",
                "Replicated mode: seconds from the commit of the records applied last to their application here",
                lag,
            );
        }
    }
    if let Some(reasoner) = sources.reasoner {
        reasoner.call_metrics().register(
            &mut registry,
            "reasoning",
            "Calls of the reasoning tools",
        );
    }
    if let Some(n) = sources.mcp_sessions {
        gauge(
            &mut registry,
            "mcp_sessions",
            "Open MCP sessions over HTTP",
            n as u64,
        );
    }
    let mut text = String::new();
    // Writing to a String cannot fail.
    let _ = prometheus_client::encoding::text::encode(&mut text, &registry);
    text
}

/// The metrics of `sources` in Prometheus's text format, version 0.0.4
/// ([`PROMETHEUS_CONTENT_TYPE`]), for scrapers that ask for it: [`render`]'s
/// OpenMetrics text with the differences of that format undone. A counter's
/// family is named with its `_total` suffix there (else the Prometheus parser
/// reads it as `unknown`), and the format has no `# UNIT` lines and no `# EOF`.
pub fn render_prometheus(sources: Sources<'_>) -> String {
    to_prometheus_text(&render(sources))
}

fn to_prometheus_text(openmetrics: &str) -> String {
    let counters: std::collections::HashSet<&str> = openmetrics
        .lines()
        .filter_map(|l| l.strip_prefix("# TYPE ")?.strip_suffix(" counter"))
        .collect();
    let mut out = String::with_capacity(openmetrics.len() + 64);
    for line in openmetrics.lines() {
        if line == "# EOF" || line.starts_with("# UNIT ") {
            continue;
        }
        let renamed = ["# TYPE ", "# HELP "].iter().find_map(|prefix| {
            let rest = line.strip_prefix(prefix)?;
            let (name, tail) = rest.split_once(' ')?;
            counters
                .contains(name)
                .then(|| format!("{prefix}{name}_total {tail}"))
        });
        match renamed {
            Some(line) => out.push_str(&line),
            None => out.push_str(line),
        }
        out.push('\n');
    }
    out
}

fn counter(registry: &mut Registry, name: &str, help: &str, value: u64) {
    registry.register(name, help, ConstCounter::new(value));
}

fn gauge(registry: &mut Registry, name: &str, help: &str, value: u64) {
    let gauge = Gauge::<i64>::default();
    gauge.set(i64::try_from(value).unwrap_or(i64::MAX));
    registry.register(name, help, gauge);
}

/// Which format a scraper's `Accept` header asks for: Prometheus's text format
/// (`true`) by default — no header, `*/*`, `text/plain` — and OpenMetrics when it
/// is asked for (`application/openmetrics-text` with a quality above zero, and not
/// below `text/plain`'s: Prometheus itself lists both, OpenMetrics first).
fn wants_prometheus_text(accept: Option<&header::HeaderValue>) -> bool {
    let text = super::ndjson::accept_quality(accept, "text/plain");
    let open = super::ndjson::accept_quality(accept, "application/openmetrics-text");
    open.is_none_or(|open| open <= 0.0 || text.is_some_and(|text| text > open))
}

/// `GET /metrics`: the metrics of `sources` in the format the `Accept` header asks
/// for (OpenMetrics, or Prometheus's text format; see [`wants_prometheus_text`]).
pub(crate) fn response(sources: Sources<'_>, headers: &axum::http::HeaderMap) -> Response {
    let (content_type, text) = if wants_prometheus_text(headers.get(header::ACCEPT)) {
        (PROMETHEUS_CONTENT_TYPE, render_prometheus(sources))
    } else {
        (CONTENT_TYPE, render(sources))
    };
    (
        [
            (header::CONTENT_TYPE, content_type),
            (header::VARY, "accept"),
        ],
        text,
    )
        .into_response()
}
