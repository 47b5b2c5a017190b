//! Bad input is answered in format: problem details on HTTP, JSON-RPC errors on MCP,
//! the same answer for the same mistake wherever the value comes from.

use serde_json::{Value, json};

use crate::util::{HttpServer, Reply, fixture, mcp_http_server, mcp_initialize, mcp_post, request};

fn post(port: u16, path: &str, content_type: &str, body: &str) -> Reply {
    let host = format!("127.0.0.1:{port}");
    request(
        port,
        "POST",
        path,
        &[("Host", &host), ("Content-Type", content_type)],
        body,
    )
}

#[test]
fn bad_arguments_are_refused_alike_from_query_and_body() {
    let server = HttpServer::start(&fixture("types.pl"), &[]);
    let port = server.port;
    // Bytes that are not UTF-8: refused, never replaced.
    let reply = post(port, "/echo_string?In=%FF%FE", "application/json", "");
    assert_eq!(reply.status, 400, "{}", reply.body);
    let (kind, detail) = reply.problem();
    assert_eq!(kind, "urn:charon:problem:bad-arguments");
    assert!(detail.contains("UTF-8"), "{detail}");
    // Valid UTF-8 (and `+` as a space) still reads as text.
    let reply = post(port, "/echo_string?In=%C3%BC+x", "application/json", "");
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert_eq!(reply.body, r#""ü x""#);
    // A key twice in a body, at the top or deeper, as a name twice in the query.
    for body in [r#"{"In":"a","In":"b"}"#, r#"{"In":{"k":1,"k":2}}"#] {
        let path = if body.contains("\"k\"") {
            "/echo_any"
        } else {
            "/echo_string"
        };
        let reply = post(port, path, "application/json", body);
        assert_eq!(reply.status, 400, "{body}: {}", reply.body);
        assert!(
            reply.problem().1.contains("appears twice"),
            "{}",
            reply.body
        );
    }
    let reply = post(port, "/echo_string?In=a&In=b", "application/json", "");
    assert_eq!(reply.status, 400);
    // JSON nested past the parser's limit: 400 in the query string as in a body.
    let deep = format!("{}{}", "[".repeat(130), "]".repeat(130));
    let in_query = post(
        port,
        &format!(
            "/echo_any?In={}",
            deep.replace('[', "%5B").replace(']', "%5D")
        ),
        "application/json",
        "",
    );
    let in_body = post(
        port,
        "/echo_any",
        "application/json",
        &format!(r#"{{"In":{deep}}}"#),
    );
    assert_eq!(in_query.status, 400, "{}", in_query.body);
    assert_eq!(in_body.status, 400, "{}", in_body.body);
    assert!(in_query.problem().1.contains("127 levels"));
    // Just under the limit, both answer.
    let fine = format!("{}{}", "[".repeat(100), "]".repeat(100));
    let reply = post(
        port,
        &format!(
            "/echo_any?In={}",
            fine.replace('[', "%5B").replace(']', "%5D")
        ),
        "application/json",
        "",
    );
    assert_eq!(reply.status, 200, "{}", reply.body);
    // Negative zero: the engine has none; documented to come back as 0.0.
    let reply = post(port, "/echo_float", "application/json", r#"{"In":-0.0}"#);
    assert_eq!(reply.status, 200);
    assert_eq!(charon::json::from_str(&reply.body).ok(), Some(json!(0.0)));
}

/// MCP over HTTP: a body that is not JSON is a JSON-RPC parse error (-32700), and
/// `arguments` that are not an object are invalid params (-32602) with the request's
/// id; the server answers normally afterwards.
#[test]
fn mcp_bad_messages_are_json_rpc_errors() {
    let server = mcp_http_server(&fixture("types.pl"), &[], &[]);
    let port = server.port;
    let send = |body: &str| mcp_post(port, body, &[]);
    let parse = send(r#"{"jsonrpc": "2.0", "id": 1, "method": "#);
    assert_eq!(parse.status, 400, "{}", parse.body);
    let error: Value = charon::json::from_str(&parse.body).expect("a JSON-RPC error");
    assert_eq!(error["error"]["code"], -32700);
    assert_eq!(error["id"], Value::Null);
    let params = send(
        r#"{"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "echo_int", "arguments": [1]}}"#,
    );
    assert_eq!(params.status, 200, "{}", params.body);
    let error: Value = charon::json::from_str(&params.body).expect("a JSON-RPC error");
    assert_eq!(error["error"]["code"], -32602);
    assert_eq!(error["id"], 7);
    let initialize = send(&mcp_initialize("bad-input-test"));
    assert_eq!(initialize.status, 200, "{}", initialize.body);
}

/// A POST to `target`, written by a thread of its own (the server answers and
/// closes before it has read a head past its limits, so the rest may never be
/// sent), the response read here.
fn request_sent_whole_or_not(port: u16, target: &str, host: &str) -> Reply {
    use std::io::Write as _;
    let stream = std::net::TcpStream::connect(("127.0.0.1", port)).expect("connects");
    let mut writer = stream.try_clone().expect("clone");
    let head = format!(
        "POST {target} HTTP/1.1\r\nHost: {host}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
    );
    let sending = std::thread::spawn(move || {
        let _ = writer.write_all(head.as_bytes());
    });
    let reply = crate::util::read_reply(stream);
    let _ = sending.join();
    reply
}

/// A request line or headers over the limits get problem details too (414, 431),
/// and the server answers normally afterwards.
#[test]
fn long_uris_and_large_headers_are_problems() {
    let server = HttpServer::start(&fixture("types.pl"), &[]);
    let port = server.port;
    let host = format!("127.0.0.1:{port}");
    let long = format!("/echo_string?In={}", "a".repeat(63_000));
    let reply = request(port, "POST", &long, &[("Host", &host)], "");
    assert_eq!(reply.status, 414, "{}", reply.body);
    assert_eq!(reply.problem().0, "urn:charon:problem:uri-too-long");
    let big = "b".repeat(70_000);
    let reply = request(
        port,
        "GET",
        "/health",
        &[("Host", &host), ("X-Big", &big)],
        "",
    );
    assert_eq!(reply.status, 431, "{}", reply.body);
    assert_eq!(reply.problem().0, "urn:charon:problem:headers-too-large");
    let names: Vec<String> = (0..150).map(|i| format!("X-Field-{i}")).collect();
    let mut many: Vec<(&str, &str)> = names.iter().map(|n| (n.as_str(), "v")).collect();
    many.push(("Host", &host));
    let reply = request(port, "GET", "/health", &many, "");
    assert_eq!(reply.status, 431, "{}", reply.body);
    // Past what the HTTP library can read at all (a URI over 64 KiB, a head over
    // its buffer), it answers by itself: the same problem details, and one status
    // for a long target whatever its length (past the read buffer too, where the
    // library itself says 431).
    for length in [
        64 << 10,
        70_000,
        200_000,
        (256 << 10) - 100,
        256 << 10,
        300_000,
        512 << 10,
        1 << 20,
    ] {
        let huge = format!("/echo_string?In={}", "a".repeat(length));
        let reply = request_sent_whole_or_not(port, &huge, &host);
        assert_eq!(reply.status, 414, "{length}: {}", reply.body);
        assert_eq!(reply.problem().0, "urn:charon:problem:uri-too-long");
    }
    // On a kept-alive connection, after a request whose body has many lines: the
    // long target of the next request is still 414.
    {
        use std::io::{BufRead, Read, Write};
        let mut conn = std::net::TcpStream::connect(("127.0.0.1", port)).expect("connects");
        conn.set_read_timeout(Some(std::time::Duration::from_secs(30)))
            .expect("timeout");
        let body = "{\"In\":\n\"x\"\n}".to_string();
        write!(
            conn,
            "POST /echo_string HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        )
        .expect("sends");
        let mut reader = std::io::BufReader::new(conn.try_clone().expect("clone"));
        let mut length = 0;
        loop {
            let mut line = String::new();
            reader.read_line(&mut line).expect("a head line");
            if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                length = v.trim().parse().expect("a length");
            }
            if line == "\r\n" {
                break;
            }
        }
        let mut first = vec![0; length];
        reader.read_exact(&mut first).expect("the first answer");
        let target = format!("/echo_string?In={}", "a".repeat(300_000));
        let mut writer = conn.try_clone().expect("clone");
        let head = format!("POST {target} HTTP/1.1\r\nHost: {host}\r\nContent-Length: 0\r\n\r\n");
        let sending = std::thread::spawn(move || {
            let _ = writer.write_all(head.as_bytes());
        });
        let mut rest = String::new();
        let _ = reader.read_to_string(&mut rest);
        let _ = sending.join();
        assert!(
            rest.starts_with("HTTP/1.1 414 "),
            "{}",
            &rest[..rest.len().min(300)]
        );
    }
    let huge = "h".repeat(300_000);
    let reply = request(
        port,
        "GET",
        "/health",
        &[("Host", &host), ("X-Big", &huge)],
        "",
    );
    assert_eq!(reply.status, 431, "{}", reply.body);
    assert_eq!(reply.problem().0, "urn:charon:problem:headers-too-large");
    let reply = request(port, "GET", "/he alth", &[("Host", &host)], "");
    assert_eq!(reply.status, 400, "{}", reply.body);
    assert_eq!(reply.problem().0, "urn:charon:problem:bad-request");
    let reply = request(port, "POST", "/echo_string?In=ok", &[("Host", &host)], "");
    assert_eq!(reply.status, 200, "{}", reply.body);
}
