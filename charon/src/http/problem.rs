//! RFC 9457 problem details: every error the HTTP surface returns.

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

use crate::{CallError, EngineError};

/// Media type of problem details.
pub const PROBLEM_JSON: &str = "application/problem+json";

/// One problem: a stable `type` and `title` per kind, the status, a `detail` a
/// human can act on, and the operation/argument when there is one.
#[derive(Debug, Clone)]
pub struct Problem {
    status: StatusCode,
    slug: &'static str,
    title: &'static str,
    detail: String,
    extra: Vec<(&'static str, Value)>,
    allow: Option<&'static str>,
    /// Seconds after which the same request may succeed (`Retry-After`).
    retry_after: Option<u32>,
}

impl Problem {
    fn new(status: StatusCode, slug: &'static str, title: &'static str, detail: String) -> Self {
        Problem {
            status,
            slug,
            title,
            detail,
            extra: Vec::new(),
            allow: None,
            retry_after: None,
        }
    }

    fn retry_after(mut self, seconds: u32) -> Self {
        self.retry_after = Some(seconds);
        self
    }

    /// A problem of one kind: (status, slug of the `type`, title).
    fn of(kind: (StatusCode, &'static str, &'static str), detail: String) -> Self {
        Problem::new(kind.0, kind.1, kind.2, detail)
    }

    fn with(mut self, key: &'static str, value: impl Into<String>) -> Self {
        self.extra.push((key, Value::String(value.into())));
        self
    }

    /// A member of any JSON value (`with` is for strings).
    fn with_value(mut self, key: &'static str, value: Value) -> Self {
        self.extra.push((key, value));
        self
    }

    /// The status code.
    pub fn status(&self) -> StatusCode {
        self.status
    }

    /// The kind of problem: the last part of its `type` (`time-limit`, …).
    pub fn kind(&self) -> &'static str {
        self.slug
    }

    /// 400: the arguments are wrong.
    pub fn bad_arguments(operation: &str, argument: Option<&str>, detail: String) -> Self {
        let p = Problem::new(
            StatusCode::BAD_REQUEST,
            "bad-arguments",
            "Bad arguments",
            detail,
        )
        .with("operation", operation);
        match argument {
            Some(a) => p.with("argument", a),
            None => p,
        }
    }

    /// 404: no such route.
    pub fn not_found(path: &str) -> Self {
        Problem::new(
            StatusCode::NOT_FOUND,
            "not-found",
            "No such operation",
            format!("nothing is served at {path}; GET /openapi.json lists every operation"),
        )
    }

    /// 405: the route exists with another method.
    pub fn method_not_allowed(path: &str, method: &str, allow: &'static str) -> Self {
        let mut p = Problem::new(
            StatusCode::METHOD_NOT_ALLOWED,
            "method-not-allowed",
            "Method not allowed",
            format!("{path} does not take {method}; use {allow}"),
        );
        p.allow = Some(allow);
        p
    }

    /// 413: the body is over the limit.
    pub fn too_large(limit: usize) -> Self {
        Problem::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            "payload-too-large",
            "Request body too large",
            format!("the request body is larger than the limit of {limit} bytes"),
        )
    }

    /// 415: a body that is declared as something other than JSON.
    pub fn unsupported_media_type(found: &str) -> Self {
        Problem::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "unsupported-media-type",
            "Unsupported media type",
            format!(
                "the body is declared as `{found}`; send JSON (Content-Type: application/json)"
            ),
        )
    }

    /// A request the guard refuses before routing: 403 (a host or origin not
    /// accepted), 414 or 431 (over the size limits); see `guard`.
    pub(crate) fn refused(
        status: StatusCode,
        slug: &'static str,
        title: &'static str,
        detail: String,
    ) -> Self {
        Problem::new(status, slug, title, detail)
    }

    /// 401: no token, or the wrong one.
    pub fn unauthorized(detail: String) -> Self {
        Problem::new(
            StatusCode::UNAUTHORIZED,
            "unauthorized",
            "Unauthorized",
            detail,
        )
    }

    /// 503: the engine cannot take a call now (`GET /health/ready`).
    pub fn not_ready(detail: String) -> Self {
        Problem::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "not-ready",
            "Not ready",
            detail,
        )
    }

    /// 500: something failed inside the server.
    pub fn internal(detail: String) -> Self {
        Problem::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal",
            "Internal error",
            detail,
        )
    }

    /// The problem for a failed call: its type is the error's
    /// [`kind`](CallError::kind).
    pub fn from_call(error: &CallError) -> Self {
        let detail = error.to_string();
        let slug = error.kind();
        match error {
            CallError::UnknownOperation(name) => Problem::not_found(&format!("/{name}")),
            CallError::Arguments { operation, error } => {
                Problem::bad_arguments(operation, error.argument(), detail)
            }
            CallError::Exception { operation, .. } => {
                let kind = (StatusCode::UNPROCESSABLE_ENTITY, slug, "Prolog exception");
                Problem::of(kind, detail).with("operation", operation)
            }
            // A det operation without an answer for these arguments is "not found":
            // the request was well formed, the knowledge base has nothing for it.
            CallError::Paging {
                operation,
                argument,
                ..
            } => Problem::bad_arguments(operation, Some(argument), detail),
            CallError::NotStreamable { operation, .. } => {
                let kind = (
                    StatusCode::NOT_ACCEPTABLE,
                    slug,
                    "No stream of this operation",
                );
                Problem::of(kind, detail).with("operation", operation)
            }
            CallError::CursorStale { operation } => {
                let kind = (StatusCode::CONFLICT, slug, "Cursor stale");
                Problem::of(kind, detail).with("operation", operation)
            }
            CallError::CursorMismatch { operation, .. } => {
                let kind = (StatusCode::CONFLICT, slug, "Cursor of another call");
                Problem::of(kind, detail).with("operation", operation)
            }
            CallError::DetFailed { operation } => {
                let kind = (
                    StatusCode::NOT_FOUND,
                    slug,
                    "Deterministic operation failed",
                );
                let detail =
                    format!("{detail}: the knowledge base has no answer for these arguments");
                Problem::of(kind, detail).with("operation", operation)
            }
            CallError::InferenceLimit { operation, .. } => {
                let kind = (
                    StatusCode::UNPROCESSABLE_ENTITY,
                    slug,
                    "Inference limit exceeded",
                );
                Problem::of(kind, detail).with("operation", operation)
            }
            CallError::TooManySolutions { operation, .. } => {
                let kind = (StatusCode::UNPROCESSABLE_ENTITY, slug, "Too many solutions");
                Problem::of(kind, detail).with("operation", operation)
            }
            CallError::MemoryLimit { operation, .. } => {
                let kind = (
                    StatusCode::UNPROCESSABLE_ENTITY,
                    slug,
                    "Memory limit exceeded",
                );
                Problem::of(kind, detail).with("operation", operation)
            }
            CallError::AnswerTooDeep { operation, .. } => {
                let kind = (
                    StatusCode::UNPROCESSABLE_ENTITY,
                    slug,
                    "Answer nested too deeply",
                );
                Problem::of(kind, detail).with("operation", operation)
            }
            CallError::AnswerTooLarge { operation, .. } => {
                let kind = (StatusCode::UNPROCESSABLE_ENTITY, slug, "Answer too large");
                Problem::of(kind, detail).with("operation", operation)
            }
            CallError::NotTraceable { operation, .. } => {
                let kind = (
                    StatusCode::UNPROCESSABLE_ENTITY,
                    slug,
                    "Call cannot be explained",
                );
                Problem::of(kind, detail).with("operation", operation)
            }
            CallError::TimeLimit { operation, .. } => {
                let kind = (StatusCode::GATEWAY_TIMEOUT, slug, "Time limit exceeded");
                Problem::of(kind, detail).with("operation", operation)
            }
            CallError::Output {
                operation,
                argument,
                ..
            } => Problem::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                slug,
                "Answer does not fit its declared type",
                format!("{detail}; fix the predicate or its mode line"),
            )
            .with("operation", operation)
            .with("argument", argument),
            CallError::Overloaded { operation, .. } => {
                Problem::new(StatusCode::SERVICE_UNAVAILABLE, slug, "Overloaded", detail)
                    .with("operation", operation)
            }
            CallError::Decode { operation, .. } => Problem::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                slug,
                "Answer does not fit its Rust type",
                detail,
            )
            .with("operation", operation),
            CallError::Engine { operation, error } => {
                Problem::from_engine(operation, error, slug, detail)
            }
        }
    }

    /// The problem for a call the engine failed (`slug`: the error's kind): a write
    /// whose outcome is unknown, a replica stopped or cut off from the log, a
    /// reload, a time limit, a conflict on the file, or a failure.
    fn from_engine(
        operation: &str,
        error: &EngineError,
        slug: &'static str,
        detail: String,
    ) -> Self {
        let status = match error {
            EngineError::TimeLimit(_) | EngineError::Waited(_) => StatusCode::GATEWAY_TIMEOUT,
            EngineError::Persist(m) if m.contains("changed by someone else") => {
                StatusCode::CONFLICT
            }
            EngineError::OutcomeUnknown {
                transaction,
                record,
                ..
            } => {
                // Not 503: that status says "not made, send it again".
                return Problem::new(
                    StatusCode::BAD_GATEWAY,
                    slug,
                    "The write may or may not have been made",
                    detail,
                )
                .with("operation", operation)
                .with("transaction", transaction.clone())
                .with_value("record", json!(record));
            }
            EngineError::Diverged(_) => {
                return Problem::new(
                    StatusCode::SERVICE_UNAVAILABLE,
                    slug,
                    "This replica stopped serving: its state is not the log's",
                    detail,
                )
                .with("operation", operation);
            }
            EngineError::Replica(_) => {
                return Problem::new(
                    StatusCode::SERVICE_UNAVAILABLE,
                    slug,
                    "The replicas' log cannot be reached",
                    detail,
                )
                .with("operation", operation)
                .retry_after(1);
            }
            EngineError::Reloaded => {
                return Problem::new(
                    StatusCode::SERVICE_UNAVAILABLE,
                    slug,
                    "Reloaded; send the write again",
                    detail,
                )
                .with("operation", operation)
                .retry_after(1);
            }
            _ => StatusCode::INTERNAL_SERVER_ERROR,
        };
        Problem::new(status, slug, "Engine failure", detail).with("operation", operation)
    }

    /// The body as JSON.
    pub fn body(&self) -> Value {
        let mut body = json!({
            "type": format!("urn:charon:problem:{}", self.slug),
            "title": self.title,
            "status": self.status.as_u16(),
            "detail": self.detail,
        });
        if let Some(obj) = body.as_object_mut() {
            for (key, value) in &self.extra {
                obj.insert((*key).to_string(), value.clone());
            }
        }
        body
    }
}

impl IntoResponse for Problem {
    fn into_response(self) -> Response {
        // Charon's writer: a message quoting an argument keeps nothing private.
        let body = crate::json::to_vec(&self.body()).unwrap_or_default();
        let mut response = (self.status, body).into_response();
        let headers = response.headers_mut();
        headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(PROBLEM_JSON));
        if let Some(allow) = self.allow {
            headers.insert(header::ALLOW, HeaderValue::from_static(allow));
        }
        if let Some(seconds) = self.retry_after {
            headers.insert(header::RETRY_AFTER, HeaderValue::from(seconds));
        }
        response
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The arms that build their problem with a helper of their own (not from the
    /// error's kind) answer with the same type.
    #[test]
    fn a_failed_call_is_answered_with_the_problem_type_of_its_kind() {
        let operation = || "op".to_string();
        for error in [
            CallError::UnknownOperation(operation()),
            CallError::Arguments {
                operation: operation(),
                error: crate::kb::ArgumentError::NotAnObject,
            },
            CallError::Paging {
                operation: operation(),
                argument: "cursor",
                detail: "stale".into(),
            },
            CallError::DetFailed {
                operation: operation(),
            },
            CallError::Engine {
                operation: operation(),
                error: EngineError::Reloaded,
            },
        ] {
            assert_eq!(Problem::from_call(&error).kind(), error.kind(), "{error:?}");
        }
    }
}
