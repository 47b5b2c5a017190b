//! Streamed answers: `Accept: application/x-ndjson` on a streaming operation.
//!
//! One JSON object per line, each with one key:
//!
//! ```text
//! {"solution": …}        one per solution, in order, shaped as the whole answer's elements
//! {"end": {"status": "complete", "solutions": N}}
//! {"end": {"status": "truncated", "solutions": N, "limit": N}}
//! {"error": {…problem details…}}
//! ```
//!
//! The last line always says how the stream ended: a body that stops without an
//! `end` or `error` line was cut off (the connection, not the answer). An error
//! before the first solution is an ordinary problem response with its status (400,
//! 406, 408, 422, 503, …); once solutions have gone out the status is 200, and an
//! error is the last line.

use std::pin::Pin;
use std::task::{Context, Poll};

use axum::body::{Body, Bytes};
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

use super::Problem;
use crate::{CallError, Operation, SolutionStream, StreamEnd, Streamed};

/// The media type of streamed answers.
pub const NDJSON: &str = "application/x-ndjson";

/// Bytes gathered into one chunk of the body while solutions are ready.
const CHUNK: usize = 64 << 10;

/// Whether `accept` (an `Accept` header) asks for a stream: it names
/// `application/x-ndjson` with a quality above zero, and at least as high as any it
/// gives JSON.
pub(crate) fn wants_stream(accept: Option<&HeaderValue>) -> bool {
    accept_quality(accept, NDJSON).is_some_and(|q| q > 0.0 && q >= json_quality(accept))
}

/// Whether `accept` takes plain JSON too (`application/json`, `application/*`,
/// `*/*`, with a quality above zero).
pub(crate) fn takes_json(accept: Option<&HeaderValue>) -> bool {
    json_quality(accept) > 0.0
}

/// The highest quality `accept` gives a range JSON falls in.
fn json_quality(accept: Option<&HeaderValue>) -> f32 {
    ["application/json", "application/*", "*/*"]
        .iter()
        .filter_map(|range| accept_quality(accept, range))
        .fold(0.0, f32::max)
}

/// The quality the `Accept` header gives the media range `range`, named exactly.
pub(crate) fn accept_quality(accept: Option<&HeaderValue>, range: &str) -> Option<f32> {
    let text = accept?.to_str().ok()?;
    text.split(',').find_map(|item| {
        let mut parts = item.split(';');
        let media = parts.next()?.trim();
        if !media.eq_ignore_ascii_case(range) {
            return None;
        }
        let q = parts
            .filter_map(|p| {
                let (name, value) = p.split_once('=')?;
                name.trim().eq_ignore_ascii_case("q").then_some(value)
            })
            .find_map(|q| q.trim().parse::<f32>().ok())
            .unwrap_or(1.0);
        Some(q)
    })
}

/// The response of a stream of `op`'s solutions: waits for its first item, so that
/// an error before any solution keeps its own status.
pub(crate) async fn response(mut stream: SolutionStream, op: Operation) -> Response {
    let first = match stream.next().await {
        Some(Err(e)) => return Problem::from_call(&e).into_response(),
        Some(Ok(item)) => item,
        None => return Problem::internal("the stream ended without a word".into()).into_response(),
    };
    let body = Lines {
        stream,
        op,
        first: Some(first),
        done: false,
    };
    (
        [
            (header::CONTENT_TYPE, HeaderValue::from_static(NDJSON)),
            (header::VARY, HeaderValue::from_static("accept")),
        ],
        Body::from_stream(body),
    )
        .into_response()
}

/// The body: the stream's items as lines, gathered into chunks.
struct Lines {
    stream: SolutionStream,
    /// Whose solutions: their keys are written in its declared order.
    op: Operation,
    first: Option<Streamed>,
    done: bool,
}

impl Lines {
    fn write(op: &Operation, item: Result<Streamed, CallError>, out: &mut Vec<u8>) -> bool {
        let (value, last) = match item {
            Ok(Streamed::Solution(mut v)) => {
                crate::json::in_declared_order(op, &mut v);
                (json!({ "solution": v }), false)
            }
            Ok(Streamed::End(end)) => (json!({ "end": end_json(end) }), true),
            Err(e) => (json!({ "error": Problem::from_call(&e).body() }), true),
        };
        match crate::json::to_vec(&value) {
            Ok(bytes) => out.extend_from_slice(&bytes),
            Err(e) => {
                let problem = Problem::internal(format!("a solution could not be written: {e}"));
                let line = json!({ "error": problem.body() });
                out.extend_from_slice(line.to_string().as_bytes());
                out.push(b'\n');
                return true;
            }
        }
        out.push(b'\n');
        last
    }
}

fn end_json(end: StreamEnd) -> Value {
    match end {
        StreamEnd::Complete { solutions } => {
            json!({ "status": "complete", "solutions": solutions })
        }
        StreamEnd::Truncated { solutions, limit } => {
            json!({ "status": "truncated", "solutions": solutions, "limit": limit })
        }
        // A stream stops so only when its consumer, this body, is gone: never
        // written.
        StreamEnd::Stopped { solutions } => json!({ "status": "stopped", "solutions": solutions }),
    }
}

impl futures_core::Stream for Lines {
    type Item = Result<Bytes, std::convert::Infallible>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = self.get_mut();
        if this.done {
            return Poll::Ready(None);
        }
        let mut out = Vec::new();
        if let Some(first) = this.first.take() {
            this.done = Lines::write(&this.op, Ok(first), &mut out);
        }
        while !this.done && out.len() < CHUNK {
            match futures_core::Stream::poll_next(Pin::new(&mut this.stream), cx) {
                Poll::Ready(Some(item)) => this.done = Lines::write(&this.op, item, &mut out),
                Poll::Ready(None) => this.done = true,
                Poll::Pending => break,
            }
        }
        if out.is_empty() {
            return if this.done {
                Poll::Ready(None)
            } else {
                Poll::Pending
            };
        }
        Poll::Ready(Some(Ok(Bytes::from(out))))
    }
}
