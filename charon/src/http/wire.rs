//! Problem details for the requests the HTTP library answers by itself.
//!
//! hyper refuses some requests before any service sees them, with a response that
//! has a status and no body: a request target past 64 KiB (414), a head past its
//! read buffer (431), a request line it cannot parse (400). The guard answers the
//! same refusals with problem details below those sizes (see `guard`); past them,
//! [`ProblemsOnParseErrors`] — a wrapper of the connection hyper writes to —
//! replaces hyper's bare response with the same problem details, so that a client
//! gets a body it can read whatever the length of what it sent.
//!
//! One cause gets one status, whatever the length: a request target past hyper's
//! whole read buffer overflows it as a head too large would, and hyper answers
//! 431; the wrapper sees that the head's first line was still unfinished, longer
//! than any target the guard takes, and answers 414 `uri-too-long` as for a
//! shorter long target.

use std::io::IoSlice;
use std::pin::Pin;
use std::task::{Context, Poll};

use axum::http::StatusCode;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

use super::guard::MAX_URI_BYTES;
use super::problem::{PROBLEM_JSON, Problem};

/// A connection whose bodiless parse-error responses (written by hyper itself)
/// are replaced by problem details. Serve `ProblemsOnParseErrors::new(stream)` in
/// place of the stream.
#[derive(Debug)]
pub struct ProblemsOnParseErrors<IO> {
    inner: IO,
    /// A replacement response still to be written.
    pending: Vec<u8>,
    sent: usize,
    /// Bytes read since the last line feed.
    line: usize,
    /// Line feeds read since the last empty line (or the start): 0 while the
    /// request line of a head is being read.
    lines: usize,
}

impl<IO> ProblemsOnParseErrors<IO> {
    /// Wraps a connection.
    pub fn new(inner: IO) -> Self {
        ProblemsOnParseErrors {
            inner,
            pending: Vec::new(),
            sent: 0,
            line: 0,
            lines: 0,
        }
    }
}

impl<IO: AsyncRead + Unpin> AsyncRead for ProblemsOnParseErrors<IO> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let before = buf.filled().len();
        let polled = Pin::new(&mut self.inner).poll_read(cx, buf);
        for &b in &buf.filled()[before..] {
            if b == b'\n' {
                // An empty line ("\r\n") ends a head: the next line is a request line.
                self.lines = if self.line <= 1 { 0 } else { self.lines + 1 };
                self.line = 0;
            } else {
                self.line += 1;
            }
        }
        polled
    }
}

impl<IO> ProblemsOnParseErrors<IO> {
    /// A response to the last request (hyper writes its head first): what is read
    /// next is a new request, whatever the last one's body held (its newlines are
    /// no head lines).
    fn response_starts(&mut self, buf: &[u8]) {
        if buf.starts_with(b"HTTP/1.1 ") {
            self.line = 0;
            self.lines = 0;
        }
    }

    /// Whether the head being read is still in its request line, past the longest
    /// target the guard takes: then the target is what is too long.
    fn in_long_request_line(&self) -> bool {
        self.lines == 0 && self.line > MAX_URI_BYTES
    }
}

impl<IO: AsyncWrite + Unpin> ProblemsOnParseErrors<IO> {
    /// Writes what is left of a replacement; ready once it is all written.
    fn drain(&mut self, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        while self.sent < self.pending.len() {
            let n = std::task::ready!(
                Pin::new(&mut self.inner).poll_write(cx, &self.pending[self.sent..])
            )?;
            if n == 0 {
                return Poll::Ready(Err(std::io::ErrorKind::WriteZero.into()));
            }
            self.sent += n;
        }
        self.pending.clear();
        self.sent = 0;
        Poll::Ready(Ok(()))
    }
}

impl<IO: AsyncWrite + Unpin> AsyncWrite for ProblemsOnParseErrors<IO> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        std::task::ready!(self.drain(cx))?;
        let long_target = self.in_long_request_line();
        self.response_starts(buf);
        if let Some(replacement) = replacement(buf, long_target) {
            self.pending = replacement;
            // Taken whole: what hyper wrote is what the replacement stands for.
            let _ = self.drain(cx)?;
            return Poll::Ready(Ok(buf.len()));
        }
        Pin::new(&mut self.inner).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[IoSlice<'_>],
    ) -> Poll<std::io::Result<usize>> {
        std::task::ready!(self.drain(cx))?;
        let long_target = self.in_long_request_line();
        if let Some(first) = bufs.iter().find(|b| !b.is_empty()) {
            self.response_starts(first);
        }
        let mut full = bufs.iter().filter(|b| !b.is_empty());
        if let (Some(only), None) = (full.next(), full.next())
            && let Some(replacement) = replacement(only, long_target)
        {
            self.pending = replacement;
            let _ = self.drain(cx)?;
            return Poll::Ready(Ok(only.len()));
        }
        Pin::new(&mut self.inner).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        std::task::ready!(self.drain(cx))?;
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        std::task::ready!(self.drain(cx))?;
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

/// The problem-details response for `head`, if it is one of hyper's own parse-error
/// responses: a whole response head with status 400, 414 or 431 and an empty body.
/// (Charon's own responses of those statuses always have a body.) With
/// `long_target`, a 431 is a request target too long for hyper's buffer: 414.
fn replacement(head: &[u8], long_target: bool) -> Option<Vec<u8>> {
    let status = head.strip_prefix(b"HTTP/1.1 ")?.get(..3)?;
    let status: &[u8] = if status == b"431" && long_target {
        b"414"
    } else {
        status
    };
    let problem = match status {
        b"414" => Problem::refused(
            StatusCode::URI_TOO_LONG,
            "uri-too-long",
            "URI too long",
            format!(
                "the request target is longer than the server can read (the limit is \
                 {MAX_URI_BYTES} bytes): send the arguments in a JSON body instead"
            ),
        ),
        b"431" => Problem::refused(
            StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
            "headers-too-large",
            "Request header fields too large",
            "the request's head (request line and header fields) is larger than the \
             server can read: send fewer or shorter header fields, and the arguments in \
             a JSON body"
                .to_string(),
        ),
        b"400" => Problem::refused(
            StatusCode::BAD_REQUEST,
            "bad-request",
            "Bad request",
            "the request is not HTTP/1.1 the server can read (its request line or a \
             header field is malformed)"
                .to_string(),
        ),
        _ => return None,
    };
    let text = std::str::from_utf8(head).ok()?;
    let (fields, rest) = text.split_once("\r\n\r\n")?;
    let empty = fields
        .split("\r\n")
        .any(|f| f.eq_ignore_ascii_case("content-length: 0"));
    if !rest.is_empty() || !empty {
        return None;
    }
    let status_line = match status {
        b"414" => "HTTP/1.1 414 URI Too Long",
        _ => fields.split("\r\n").next()?,
    };
    let body = crate::json::to_vec(&problem.body()).ok()?;
    let mut out = format!(
        "{status_line}\r\ncontent-type: {PROBLEM_JSON}\r\ncontent-length: {}\r\nconnection: close\r\n\r\n",
        body.len()
    )
    .into_bytes();
    out.extend_from_slice(&body);
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::replacement;

    #[test]
    fn only_bodiless_parse_error_responses_are_replaced() {
        let bare = b"HTTP/1.1 414 URI Too Long\r\ncontent-length: 0\r\ndate: x\r\n\r\n";
        let text = String::from_utf8(replacement(bare, false).expect("replaced")).expect("text");
        assert!(text.starts_with("HTTP/1.1 414 URI Too Long\r\n"), "{text}");
        assert!(
            text.contains("content-type: application/problem+json"),
            "{text}"
        );
        let (_, body) = text.split_once("\r\n\r\n").expect("a body");
        let value: serde_json::Value = serde_json::from_str(body).expect("json");
        assert_eq!(value["type"], "urn:charon:problem:uri-too-long");
        assert!(text.contains(&format!("content-length: {}\r\n", body.len())));
        for kept in [
            &b"HTTP/1.1 414 URI Too Long\r\ncontent-length: 12\r\n\r\n"[..],
            b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n",
            b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\nleftover",
            b"{\"status\": 400}",
        ] {
            assert_eq!(
                replacement(kept, false),
                None,
                "{}",
                String::from_utf8_lossy(kept)
            );
        }
    }
}
