//! Who may talk to the server: `Host` and `Origin` checks, an optional bearer token,
//! and CORS for the origins that are named.
//!
//! Binding to loopback does not keep a local server private from the user's own
//! browser: any page can send a "simple" cross-site `POST` (a form) without a CORS
//! preflight, and a DNS-rebinding page can read `GET` answers under its own host
//! name. So every request is checked, before routing. (A router mounted in an
//! application, with [`HttpOptions`](super::HttpOptions)' default [`Guard::open`],
//! leaves the host name to the application — it serves its own names — and keeps
//! the origin checks; `charon http` starts from [`Guard::for_bind`], all checks on.)
//!
//! 1. **Host**: the `Host` header (or the URI's authority) must name an accepted host:
//!    the loopback names by default (`localhost`, `127.0.0.1`, `[::1]`, any port), plus
//!    the address the server is bound to and the names given with
//!    [`Guard::allow_host`]. A rebinding page's requests carry its own host name and
//!    are refused. A request with no host at all (in-process calls, HTTP/1.0 tools)
//!    passes: a browser always sends one.
//! 2. **Origin**: when present, it must name an accepted host (same-origin pages), or
//!    be listed with [`Guard::allow_origin`] or [`Guard::allow_cors`]. A cross-site
//!    form or script is refused whatever the method, and so is `Origin: null`. A
//!    browser request without Origin (a cross-site link or image) is refused when its
//!    `Sec-Fetch-Site` says it comes from another site. (`allow_host("*")` accepts
//!    any host but no origin beyond the named ones.)
//! 3. **Token** ([`Guard::with_token`]): `Authorization: Bearer <token>`, compared in
//!    constant time; otherwise 401 with `WWW-Authenticate`. The liveness and
//!    readiness probes (`/health`, `/health/ready`) and the docs page (`/docs`, which
//!    holds no data and asks for the token) need none.
//! 4. **CORS** is off unless origins are named with [`Guard::allow_cors`]: those get
//!    `Access-Control-Allow-Origin` and answered preflights; no other origin does.
//!
//! Refusals are `403 forbidden-host` / `403 forbidden-origin` / `401 unauthorized`
//! problem details that say which option would accept the request.

use std::sync::Arc;

use axum::body::Body;
use axum::extract::Request;
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::Problem;

/// Longest request target (path and query) answered; longer is 414 problem details.
/// (Past 64 KiB the HTTP library cannot hold a URI at all and answers 414 by
/// itself, or 431 when the target overflows its whole read buffer; served through
/// [`ProblemsOnParseErrors`](super::ProblemsOnParseErrors), as `charon http` does,
/// both are the same 414 problem details.)
pub const MAX_URI_BYTES: usize = 60 * 1024;
/// Most header fields in a request; more is 431 problem details.
pub const MAX_HEADERS: usize = 100;
/// Most bytes of header fields (names and values); more is 431 problem details.
pub const MAX_HEAD_BYTES: usize = 64 * 1024;

/// Host names accepted on every server, with any port.
const LOOPBACK: &[&str] = &["localhost", "127.0.0.1", "[::1]"];

/// The access policy of an HTTP server; see the module docs. The default accepts the
/// loopback names only, no cross-site origin, no token.
#[derive(Clone, PartialEq, Eq)]
pub struct Guard {
    /// Accepted host names (lower case, IPv6 in brackets), any port.
    hosts: Vec<String>,
    /// Origins accepted besides those of accepted hosts (`scheme://host[:port]`).
    origins: Vec<String>,
    /// Origins that get CORS headers.
    cors: Vec<String>,
    token: Option<String>,
    /// Pages of the host a request is for may call ([`Guard::open`] only: with
    /// named hosts, an accepted host's pages are its pages already).
    same_origin: bool,
}

impl std::fmt::Debug for Guard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Guard")
            .field("hosts", &self.hosts)
            .field("origins", &self.origins)
            .field("cors", &self.cors)
            .field("token", &self.token.as_ref().map(|_| "<set>"))
            .field("same_origin", &self.same_origin)
            .finish()
    }
}

impl Default for Guard {
    fn default() -> Self {
        Guard {
            hosts: LOOPBACK.iter().map(|h| (*h).to_string()).collect(),
            origins: Vec::new(),
            cors: Vec::new(),
            token: None,
            same_origin: false,
        }
    }
}

impl Guard {
    /// The policy of a router mounted in an application, the default of
    /// [`HttpOptions`](super::HttpOptions): which host names reach the application
    /// is its own business, so every `Host` is accepted; pages of the host a
    /// request is for (same-origin) may call, other sites' pages may not unless
    /// named with [`allow_origin`](Self::allow_origin) or
    /// [`allow_cors`](Self::allow_cors); no token unless
    /// [`with_token`](Self::with_token). A server of its own (as `charon http`
    /// runs) should start from [`for_bind`](Self::for_bind), which also refuses
    /// host names it was not given (DNS rebinding).
    ///
    /// Accepting every host name leaves the defence against DNS rebinding to the
    /// application, as for its own routes: an application reachable on a loopback
    /// or private address under no name of its own should name its hosts
    /// ([`for_bind`](Self::for_bind), [`allow_host`](Self::allow_host)).
    pub fn open() -> Self {
        Guard {
            same_origin: true,
            ..Guard::default().allow_host("*")
        }
    }

    /// Whether pages of the host a request is for may call whatever that host is
    /// (set by [`open`](Self::open)).
    pub fn accepts_same_origin(&self) -> bool {
        self.same_origin
    }

    /// The policy for a server bound to `host`: the loopback names, plus `host` itself
    /// unless it is a wildcard address (`0.0.0.0`, `::`), which names no host a
    /// client could send — name those with [`allow_host`](Self::allow_host).
    pub fn for_bind(host: &str) -> Self {
        let guard = Guard::default();
        let name = host_name(host);
        if name == "0.0.0.0" || name == "[::]" || name.is_empty() {
            guard
        } else {
            guard.allow_host(&name)
        }
    }

    /// Also accepts requests for `host` (a name or address; a port, if given, is
    /// ignored: any port is accepted). `*` accepts any host, which turns the
    /// DNS-rebinding defence off.
    pub fn allow_host(mut self, host: &str) -> Self {
        let name = host_name(host);
        if !self.hosts.contains(&name) {
            self.hosts.push(name);
        }
        self
    }

    /// Also accepts requests from pages of `origin` (`https://app.example`), without
    /// giving it CORS headers (its scripts still cannot read the answers).
    pub fn allow_origin(mut self, origin: &str) -> Self {
        let origin = normalise_origin(origin);
        if !self.origins.contains(&origin) {
            self.origins.push(origin);
        }
        self
    }

    /// Accepts requests from `origin` and lets its scripts read the answers (CORS).
    pub fn allow_cors(mut self, origin: &str) -> Self {
        let origin = normalise_origin(origin);
        if !self.cors.contains(&origin) {
            self.cors.push(origin);
        }
        self
    }

    /// Requires `Authorization: Bearer <token>` on every request but the health
    /// probes.
    pub fn with_token(mut self, token: impl Into<String>) -> Self {
        self.token = Some(token.into());
        self
    }

    /// Whether a token is required.
    pub fn requires_token(&self) -> bool {
        self.token.is_some()
    }

    /// The accepted host names.
    pub fn hosts(&self) -> &[String] {
        &self.hosts
    }

    /// Origins accepted besides those of the accepted hosts (CORS ones included).
    pub fn origins(&self) -> impl Iterator<Item = &str> {
        self.origins.iter().chain(&self.cors).map(String::as_str)
    }

    fn host_allowed(&self, name: &str) -> bool {
        self.hosts.iter().any(|h| h == "*" || h == name)
    }

    fn origin_allowed(&self, origin: &str, host: Option<&str>) -> bool {
        if self.origins.iter().chain(&self.cors).any(|o| o == origin) {
            return true;
        }
        // A page of an accepted host, named (the server's own pages among them), or
        // under `Guard::open` of the host the request is for (same-origin):
        // `--allow-host '*'` turns off the rebinding defence, not this one.
        match origin.split_once("://") {
            Some(("http" | "https", rest)) => {
                let name = host_name(rest);
                self.hosts.contains(&name) || (self.same_origin && host == Some(name.as_str()))
            }
            _ => false,
        }
    }

    /// Checks a request's host and origin; `Some` is the refusal to send.
    fn refusal(&self, req: &Request) -> Option<Response> {
        let headers = req.headers();
        let target = req.uri().path_and_query().map_or(0, |p| p.as_str().len());
        if target > MAX_URI_BYTES {
            return Some(Problem::refused(
                StatusCode::URI_TOO_LONG,
                "uri-too-long",
                "URI too long",
                format!("the request target is {target} bytes, over the limit of {MAX_URI_BYTES}: send the arguments in a JSON body instead"),
            )
            .into_response());
        }
        let bytes: usize = headers
            .iter()
            .map(|(name, value)| name.as_str().len() + value.len())
            .sum();
        if headers.len() > MAX_HEADERS || bytes > MAX_HEAD_BYTES {
            return Some(Problem::refused(
                StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
                "headers-too-large",
                "Request header fields too large",
                format!("the request has {} header fields of {bytes} bytes; the limits are {MAX_HEADERS} fields and {MAX_HEAD_BYTES} bytes", headers.len()),
            )
            .into_response());
        }
        let host = match headers.get(header::HOST) {
            // Not text: no accepted host looks like that.
            Some(h) => Some(h.to_str().unwrap_or("(not text)").to_string()),
            None => req.uri().authority().map(|a| a.to_string()),
        };
        let host = host.map(|h| host_name(&h));
        if let Some(name) = &host {
            let name = name.clone();
            if !self.host_allowed(&name) {
                return Some(Problem::refused(
                    StatusCode::FORBIDDEN,
                    "forbidden-host",
                    "Host not accepted",
                    format!(
                        "requests for host `{name}` are not accepted (a defence against DNS rebinding); if clients reach this server under that name, start it with --allow-host {name} (in a Rust app: Guard::allow_host, or Guard::open to leave the host to the app)"
                    ),
                )
                .into_response());
            }
        }
        // Browsers send no Origin on a cross-site GET (a link, an image, a GET form)
        // but do send Sec-Fetch-Site: anything but a same-origin or user-typed
        // request is refused the same way.
        if !headers.contains_key(header::ORIGIN)
            && let Some(site) = headers.get("sec-fetch-site")
            && !matches!(site.to_str(), Ok("same-origin" | "none"))
        {
            let site = site.to_str().unwrap_or("(not text)");
            return Some(Problem::refused(
                    StatusCode::FORBIDDEN,
                "forbidden-origin",
                "Origin not accepted",
                format!(
                    "a request a browser sent for a page of another site (Sec-Fetch-Site: {site}) is not accepted; pages of other sites must send their Origin and be allowed with --allow-origin"
                ),
            )
            .into_response());
        }
        if let Some(origin) = headers.get(header::ORIGIN) {
            let origin = origin.to_str().unwrap_or("(not text)");
            if !self.origin_allowed(&normalise_origin(origin), host.as_deref()) {
                return Some(Problem::refused(
                    StatusCode::FORBIDDEN,
                    "forbidden-origin",
                    "Origin not accepted",
                    format!(
                        "requests from pages of `{origin}` are not accepted (a defence against cross-site requests); to accept them start the server with --allow-origin {origin}, or --cors-origin {origin} to let its scripts read the answers too (in a Rust app: Guard::allow_origin, Guard::allow_cors)"
                    ),
                )
                .into_response());
            }
        }
        None
    }

    /// Checks the token, if one is required; `Some` is the 401 to send.
    fn unauthorised(&self, headers: &HeaderMap) -> Option<Response> {
        let token = self.token.as_ref()?;
        let given = headers
            .get(header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| {
                let (scheme, rest) = v.split_once(' ')?;
                scheme.eq_ignore_ascii_case("bearer").then(|| rest.trim())
            });
        let (challenge, detail) = match given {
            Some(given) if constant_time_eq(given.as_bytes(), token.as_bytes()) => {
                return None;
            }
            Some(_) => (
                r#"Bearer realm="charon", error="invalid_token""#,
                "the bearer token is not the one this server was started with",
            ),
            None => (
                r#"Bearer realm="charon""#,
                "this server requires a token: send `Authorization: Bearer <token>` with the token it was started with (--token or CHARON_TOKEN)",
            ),
        };
        let mut response = Problem::unauthorized(detail.to_string()).into_response();
        response.headers_mut().insert(
            header::WWW_AUTHENTICATE,
            HeaderValue::from_static(challenge),
        );
        Some(response)
    }
}

/// The middleware: see the module docs. Health probes skip the token.
pub(super) async fn guard(guard: Arc<Guard>, req: Request, next: Next) -> Response {
    if let Some(refusal) = guard.refusal(&req) {
        return refusal;
    }
    let cors_origin = req
        .headers()
        .get(header::ORIGIN)
        .and_then(|o| o.to_str().ok())
        .map(normalise_origin)
        .filter(|o| guard.cors.contains(o));
    if let Some(origin) = &cors_origin
        && req.method() == Method::OPTIONS
        && req
            .headers()
            .contains_key(header::ACCESS_CONTROL_REQUEST_METHOD)
    {
        return with_cors(preflight(), origin);
    }
    let path = req.uri().path();
    // The probes, and the docs page (no data of its own: it asks for the token).
    let probe = path == "/health" || path == "/health/ready" || path == "/docs";
    if !probe && let Some(refusal) = guard.unauthorised(req.headers()) {
        return match &cors_origin {
            Some(origin) => with_cors(refusal, origin),
            None => refusal,
        };
    }
    let response = next.run(req).await;
    match &cors_origin {
        Some(origin) => with_cors(response, origin),
        None => response,
    }
}

/// The answer to a CORS preflight from an accepted origin.
fn preflight() -> Response {
    let mut response = Response::new(Body::empty());
    *response.status_mut() = StatusCode::NO_CONTENT;
    let headers = response.headers_mut();
    headers.insert(
        header::ACCESS_CONTROL_ALLOW_METHODS,
        HeaderValue::from_static("GET, HEAD, POST, PUT, DELETE"),
    );
    headers.insert(
        header::ACCESS_CONTROL_ALLOW_HEADERS,
        HeaderValue::from_static(
            "authorization, content-type, accept, mcp-session-id, mcp-protocol-version, last-event-id",
        ),
    );
    headers.insert(
        header::ACCESS_CONTROL_MAX_AGE,
        HeaderValue::from_static("600"),
    );
    response
}

fn with_cors(mut response: Response, origin: &str) -> Response {
    let headers = response.headers_mut();
    if let Ok(value) = HeaderValue::from_str(origin) {
        headers.insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, value);
    }
    headers.insert(
        header::ACCESS_CONTROL_EXPOSE_HEADERS,
        HeaderValue::from_static("mcp-session-id, www-authenticate, charon-next-cursor"),
    );
    headers.append(header::VARY, HeaderValue::from_static("Origin"));
    response
}

/// The host name of `authority` (`host[:port]`, `[v6][:port]`), lower case.
fn host_name(authority: &str) -> String {
    let authority = authority.trim().trim_end_matches('/');
    let authority = authority.rsplit('@').next().unwrap_or(authority);
    let name = if let Some(rest) = authority.strip_prefix('[') {
        match rest.split_once(']') {
            Some((v6, _)) => format!("[{v6}]"),
            None => authority.to_string(),
        }
    } else if authority.matches(':').count() > 1 {
        // A bare IPv6 address.
        format!("[{authority}]")
    } else {
        authority.split(':').next().unwrap_or(authority).to_string()
    };
    name.to_ascii_lowercase()
}

/// An origin as browsers send it: lower case, no trailing slash, default port left out.
fn normalise_origin(origin: &str) -> String {
    let origin = origin.trim().trim_end_matches('/').to_ascii_lowercase();
    origin
        .strip_suffix(":80")
        .filter(|o| o.starts_with("http://"))
        .or_else(|| {
            origin
                .strip_suffix(":443")
                .filter(|o| o.starts_with("https://"))
        })
        .map_or_else(|| origin.clone(), str::to_string)
}

/// Compares in time that depends on the lengths only, not on where they differ.
fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    let mut diff = a.len() ^ b.len();
    for i in 0..a.len().max(b.len()) {
        let x = a.get(i).copied().unwrap_or(0);
        let y = b.get(i).copied().unwrap_or(0);
        diff |= usize::from(x ^ y);
    }
    diff == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn host_names_drop_ports_and_keep_brackets() {
        assert_eq!(host_name("LocalHost:3000"), "localhost");
        assert_eq!(host_name("[::1]:8080"), "[::1]");
        assert_eq!(host_name("::1"), "[::1]");
        assert_eq!(host_name("example.org"), "example.org");
    }

    #[test]
    fn origins_of_accepted_hosts_pass_and_others_do_not() {
        let guard = Guard::for_bind("127.0.0.1").allow_host("api.example");
        assert!(guard.origin_allowed("http://localhost:5173", None));
        assert!(guard.origin_allowed("https://api.example", None));
        assert!(!guard.origin_allowed("http://attacker.example", None));
        assert!(!guard.origin_allowed("null", None));
        let any = guard.clone().allow_host("*");
        assert!(
            !any.origin_allowed("http://attacker.example", None),
            "* is for hosts only"
        );
        let guard = guard.allow_origin("https://App.example:443/");
        assert!(guard.origin_allowed(&normalise_origin("https://app.example"), None));
        // Same-origin: a page of the host the request is for, when that host is
        // accepted (any host, for a router mounted in an app).
        let open = Guard::open();
        assert!(open.origin_allowed("https://myapp.example.com", Some("myapp.example.com")));
        let star = Guard::default().allow_host("*");
        assert!(!star.origin_allowed("https://myapp.example.com", Some("myapp.example.com")));
        assert!(!open.origin_allowed("https://attacker.example", Some("myapp.example.com")));
        assert!(!open.origin_allowed("https://myapp.example.com", None));
    }

    #[test]
    fn tokens_compare_whole() {
        assert!(constant_time_eq(b"secret", b"secret"));
        assert!(!constant_time_eq(b"secret", b"secreT"));
        assert!(!constant_time_eq(b"secret", b"secret-and-more"));
        assert!(!constant_time_eq(b"", b"x"));
    }
}
