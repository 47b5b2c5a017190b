//! Who may call an HTTP server: Host and Origin checks (cross-site requests and DNS
//! rebinding refused, allowed hosts and origins accepted), CORS only where asked, and
//! the optional bearer token — on the HTTP API and on MCP over HTTP, through the
//! binary as a user runs it.

use serde_json::{Value, json};

use crate::util::{
    HttpServer, Reply, charon_bin, fixture, mcp_http_server, mcp_initialize, mcp_post, request,
};

fn problem_type(reply: &Reply) -> String {
    reply.problem().0
}

fn mixed(args: &[&str]) -> HttpServer {
    HttpServer::start(&fixture("state/mixed.pl"), args)
}

fn tags(port: u16) -> Value {
    let host = format!("127.0.0.1:{port}");
    let reply = request(port, "POST", "/all_tags", &[("Host", &host)], "");
    assert_eq!(reply.status, 200, "{}", reply.body);
    charon::json::from_str(&reply.body).expect("JSON")
}

/// The request a hostile page makes with a form: a simple request (no preflight).
fn form_post(port: u16, origin: &str, tag: &str) -> Reply {
    let host = format!("127.0.0.1:{port}");
    request(
        port,
        "POST",
        &format!("/tag?Tag={tag}"),
        &[
            ("Host", &host),
            ("Origin", origin),
            ("Content-Type", "application/x-www-form-urlencoded"),
        ],
        "",
    )
}

#[test]
fn a_cross_site_form_post_is_refused_and_changes_nothing() {
    let server = mixed(&[]);
    let port = server.port;
    let refused = form_post(port, "http://attacker.example", "pwned");
    assert_eq!(refused.status, 403, "{}", refused.body);
    assert_eq!(
        problem_type(&refused),
        "urn:charon:problem:forbidden-origin"
    );
    assert!(refused.body.contains("--allow-origin"), "{}", refused.body);
    assert_eq!(tags(port), json!([]), "the refused write did not run");
    for origin in ["null", "http://127.0.0.1.attacker.example"] {
        assert_eq!(form_post(port, origin, "pwned").status, 403, "{origin}");
    }
    // The same request from a page of the server itself (any loopback port) runs.
    let own = form_post(port, &format!("http://127.0.0.1:{port}"), "mine");
    assert_eq!(own.status, 200, "{}", own.body);
    assert_eq!(form_post(port, "http://localhost:5173", "dev").status, 200);
    assert_eq!(tags(port), json!(["mine", "dev"]));
}

#[test]
fn an_allowed_origin_may_call_and_only_cors_origins_may_read() {
    let server = mixed(&[
        "--allow-origin",
        "https://app.example",
        "--cors-origin",
        "https://ui.example",
    ]);
    let port = server.port;
    let allowed = form_post(port, "https://app.example", "a");
    assert_eq!(allowed.status, 200, "{}", allowed.body);
    assert_eq!(allowed.header("access-control-allow-origin"), None);
    let cors = form_post(port, "https://ui.example", "b");
    assert_eq!(cors.status, 200, "{}", cors.body);
    assert_eq!(
        cors.header("access-control-allow-origin"),
        Some("https://ui.example")
    );
    let host = format!("127.0.0.1:{port}");
    let preflight = request(
        port,
        "OPTIONS",
        "/tag",
        &[
            ("Host", &host),
            ("Origin", "https://ui.example"),
            ("Access-Control-Request-Method", "POST"),
            (
                "Access-Control-Request-Headers",
                "content-type, authorization",
            ),
        ],
        "",
    );
    assert_eq!(preflight.status, 204);
    assert!(
        preflight
            .header("access-control-allow-headers")
            .is_some_and(|h| h.contains("authorization"))
    );
    let foreign = form_post(port, "https://other.example", "c");
    assert_eq!(foreign.status, 403);
    assert_eq!(tags(port), json!(["a", "b"]));
}

#[test]
fn a_dns_rebinding_read_is_refused_unless_the_name_is_allowed() {
    let rebinding = |port: u16| {
        request(
            port,
            "GET",
            "/openapi.json",
            &[("Host", &format!("attacker.example:{port}"))],
            "",
        )
    };
    let server = mixed(&[]);
    let refused = rebinding(server.port);
    assert_eq!(refused.status, 403, "{}", refused.body);
    assert_eq!(problem_type(&refused), "urn:charon:problem:forbidden-host");
    assert!(
        refused.body.contains("--allow-host attacker.example"),
        "{}",
        refused.body
    );
    for host in ["localhost", "127.0.0.1", "[::1]"] {
        let reply = request(
            server.port,
            "GET",
            "/openapi.json",
            &[("Host", &format!("{host}:{}", server.port))],
            "",
        );
        assert_eq!(reply.status, 200, "{host}");
    }
    let named = mixed(&["--allow-host", "attacker.example"]);
    assert_eq!(rebinding(named.port).status, 200);
    // `*` accepts any host name, but still no other site's pages.
    let any = mixed(&["--allow-host", "*"]);
    assert_eq!(rebinding(any.port).status, 200);
    assert_eq!(
        form_post(any.port, "http://attacker.example", "x").status,
        403
    );
}

/// A cross-site link or image sends no Origin, but Sec-Fetch-Site says where it
/// comes from.
#[test]
fn a_cross_site_request_without_origin_is_refused() {
    let server = mixed(&[]);
    let port = server.port;
    let host = format!("127.0.0.1:{port}");
    let get = |site: &str| {
        request(
            port,
            "GET",
            "/openapi.json",
            &[("Host", &host), ("Sec-Fetch-Site", site)],
            "",
        )
    };
    for site in ["cross-site", "same-site"] {
        let reply = get(site);
        assert_eq!(reply.status, 403, "{site}");
        assert_eq!(problem_type(&reply), "urn:charon:problem:forbidden-origin");
    }
    for site in ["same-origin", "none"] {
        assert_eq!(get(site).status, 200, "{site}");
    }
    let bad_host = request(
        port,
        "GET",
        "/openapi.json",
        &[("Host", "localhost\u{e9}")],
        "",
    );
    assert_eq!(bad_host.status, 403);
}

#[test]
fn a_token_is_required_when_set_and_compared_whole() {
    let server = mixed(&["--token", "s3cret-token"]);
    let port = server.port;
    let host = format!("127.0.0.1:{port}");
    let call = |auth: Option<&str>| {
        let mut headers = vec![("Host", host.as_str())];
        if let Some(auth) = auth {
            headers.push(("Authorization", auth));
        }
        request(port, "POST", "/all_tags", &headers, "")
    };
    let none = call(None);
    assert_eq!(none.status, 401, "{}", none.body);
    assert_eq!(problem_type(&none), "urn:charon:problem:unauthorized");
    assert_eq!(
        none.header("www-authenticate"),
        Some(r#"Bearer realm="charon""#)
    );
    for wrong in [
        "Bearer s3cret",
        "Bearer s3cret-token-and-more",
        "Basic s3cret-token",
    ] {
        let reply = call(Some(wrong));
        assert_eq!(reply.status, 401, "{wrong}");
    }
    assert!(
        call(Some("Bearer nope"))
            .header("www-authenticate")
            .is_some_and(|h| h.contains("invalid_token"))
    );
    assert_eq!(call(Some("Bearer s3cret-token")).status, 200);
    assert_eq!(call(Some("bearer s3cret-token")).status, 200);
    // The probes need no token.
    assert_eq!(
        request(port, "GET", "/health", &[("Host", &host)], "").status,
        200
    );
    // The document declares the scheme.
    let doc = request(
        port,
        "GET",
        "/openapi.json",
        &[("Host", &host), ("Authorization", "Bearer s3cret-token")],
        "",
    );
    let doc: Value = charon::json::from_str(&doc.body).expect("JSON");
    assert_eq!(
        doc["components"]["securitySchemes"]["bearer"]["scheme"],
        "bearer"
    );
    assert_eq!(doc["security"], json!([{"bearer": []}]));
    assert_eq!(doc["paths"]["/health"]["get"]["security"], json!([]));
    // Without a token, the document says no security is required.
    let open = mixed(&[]);
    let doc = request(
        open.port,
        "GET",
        "/openapi.json",
        &[("Host", &format!("127.0.0.1:{}", open.port))],
        "",
    );
    let doc: Value = charon::json::from_str(&doc.body).expect("JSON");
    assert_eq!(doc["security"], json!([]));
    assert!(doc["components"].get("securitySchemes").is_none());
}

/// `charon mcp KB --port P` with CHARON_TOKEN set: `initialize` needs the token.
#[test]
fn mcp_over_http_takes_the_token_from_the_environment() {
    let server = mcp_http_server(
        &fixture("state/mixed.pl"),
        &[],
        &[("CHARON_TOKEN", "env-token")],
    );
    let port = server.port;
    let initialize = mcp_initialize("guard-test");
    let post = |auth: Option<&str>| match auth {
        Some(auth) => mcp_post(port, &initialize, &[("Authorization", auth)]),
        None => mcp_post(port, &initialize, &[]),
    };
    let refused = post(None);
    assert_eq!(refused.status, 401, "{}", refused.body);
    assert_eq!(post(Some("Bearer wrong")).status, 401);
    let admitted = post(Some("Bearer env-token"));
    assert_eq!(admitted.status, 200, "{}", admitted.body);
    let foreign = mcp_post(
        port,
        &initialize,
        &[
            ("Origin", "http://attacker.example"),
            ("Authorization", "Bearer env-token"),
        ],
    );
    assert_eq!(foreign.status, 403);
}

#[test]
fn an_empty_token_is_a_one_line_error() {
    let out = std::process::Command::new(charon_bin())
        .args(["http"])
        .arg(fixture("state/mixed.pl"))
        .args(["--port", "0", "--token", " "])
        .output()
        .expect("runs");
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("the token is empty"), "{stderr}");
}
