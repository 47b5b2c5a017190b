//! The `charon` binary, run as a process.

use crate::util::{fixture, run_charon};

#[test]
fn check_on_a_clean_kb_exits_zero_and_prints_the_report() {
    let (code, stdout, stderr) = run_charon(&["check", "examples/meds.pl"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("examples/meds.pl:"), "{stdout}");
    assert!(stdout.contains(
        "exposed pim_check(+Age:int, +Drugs:list(atom), -Substance:atom, -Reason:string) is nondet"
    ));
    assert!(stdout.contains("exposed ready is semidet"));
    assert!(stdout.contains("0 documented predicate(s) not exposed"));
}

#[test]
fn check_on_every_example_exits_zero() {
    for kb in [
        "examples/meds.pl",
        "examples/library.pl",
        "examples/rbac.pl",
    ] {
        let (code, _, stderr) = run_charon(&["check", kb]);
        assert_eq!(code, 0, "{kb}: {stderr}");
    }
}

#[test]
fn check_with_unexposed_predicates_exits_non_zero_with_reasons() {
    let path = fixture("report.pl");
    let (code, stdout, _) = run_charon(&["check", path.to_str().expect("utf-8")]);
    assert_eq!(code, 1);
    assert!(stdout.contains("report.pl:"), "{stdout}");
    assert!(
        stdout.contains("bad_query_mode/1 is not exposed: argument `X` has mode `?`"),
        "{stdout}"
    );
    assert!(stdout.contains("clash/2 is not exposed"), "{stdout}");
}

#[test]
fn a_syntax_error_names_file_and_line_and_exits_non_zero() {
    let dir = std::env::temp_dir().join(format!("charon-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let kb = dir.join("broken.pl");
    std::fs::write(&kb, "ok(1).\n\n%! p(+X:int) is det.\np(X :- .\n").expect("write");
    let (code, stdout, stderr) = run_charon(&["check", kb.to_str().expect("utf-8")]);
    assert_ne!(code, 0);
    assert!(stdout.is_empty(), "{stdout}");
    let line = stderr.lines().last().unwrap_or_default();
    assert!(line.starts_with("charon: "), "{stderr}");
    assert!(line.contains("broken.pl:4: syntax error"), "{stderr}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_missing_file_is_a_one_line_error() {
    let (code, _, stderr) = run_charon(&["check", "no/such/kb.pl"]);
    assert_ne!(code, 0);
    assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
    assert!(stderr.contains("cannot read no/such/kb.pl"), "{stderr}");
}

#[test]
fn help_explains_every_flag_with_an_example() {
    let (code, stdout, _) = run_charon(&["--help"]);
    assert_eq!(code, 0);
    assert!(stdout.contains("check"));
    let (code, stdout, _) = run_charon(&["check", "--help"]);
    assert_eq!(code, 0);
    for flag in [
        "--log",
        "--timeout-ms",
        "--max-inferences",
        "--max-solutions",
        "--workers",
    ] {
        assert!(stdout.contains(flag), "{flag} missing from:\n{stdout}");
    }
    assert!(stdout.matches("Example").count() >= 6, "{stdout}");
    let (code, stdout, _) = run_charon(&["http", "--help"]);
    assert_eq!(code, 0);
    for flag in [
        "--host",
        "--port",
        "--body-limit",
        "--max-pending",
        "--log",
        "--timeout-ms",
    ] {
        assert!(stdout.contains(flag), "{flag} missing from:\n{stdout}");
    }
}

#[test]
fn openapi_prints_nothing_but_the_document() {
    let (code, stdout, _) = run_charon(&["openapi", "examples/meds.pl"]);
    assert_eq!(code, 0);
    let doc: serde_json::Value =
        charon::json::from_str(&stdout).expect("stdout is exactly one JSON document");
    assert_eq!(doc["openapi"], "3.1.0");
    assert!(doc["paths"]["/pim_check"]["post"].is_object());

    let file = std::env::temp_dir().join(format!("charon-openapi-{}.json", std::process::id()));
    let (code, stdout, _) = run_charon(&[
        "openapi",
        "examples/library.pl",
        file.to_str().expect("utf-8"),
    ]);
    assert_eq!(code, 0);
    assert!(stdout.is_empty(), "{stdout}");
    let written: serde_json::Value =
        charon::json::from_str(&std::fs::read_to_string(&file).expect("written")).expect("json");
    assert!(written["paths"]["/put_book"]["put"].is_object());
    let _ = std::fs::remove_file(file);
}

/// Starts `charon http` and reads its stderr until it logs the address it listens on.
fn start_http(
    args: &[&str],
) -> (
    std::process::Child,
    String,
    std::sync::mpsc::Receiver<String>,
) {
    use std::io::BufRead as _;
    let mut child = std::process::Command::new(crate::util::charon_bin())
        .args(args)
        .current_dir(crate::util::root())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("charon http starts");
    let stderr = child.stderr.take().expect("stderr");
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(stderr)
            .lines()
            .map_while(Result::ok)
        {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let mut seen = String::new();
    loop {
        let Ok(line) = rx.recv_timeout(std::time::Duration::from_secs(60)) else {
            let _ = child.kill();
            let _ = child.wait();
            panic!("no listening line; stderr so far:\n{seen}");
        };
        seen.push_str(&line);
        seen.push('\n');
        if line.contains("listening on http://") {
            return (child, seen, rx);
        }
    }
}

fn sigterm(child: &mut std::process::Child, stderr: &std::sync::mpsc::Receiver<String>) -> i32 {
    let status = std::process::Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .expect("kill");
    assert!(status.success());
    let code = child.wait().expect("exits").code().unwrap_or(-1);
    let rest: Vec<String> = stderr.try_iter().collect();
    assert!(code == 0, "exit {code}; stderr:\n{}", rest.join("\n"));
    code
}

#[test]
fn http_on_a_non_loopback_address_warns_and_stops_on_sigterm() {
    let (mut child, stderr, _rx) = start_http(&[
        "http",
        "examples/meds.pl",
        "--host",
        "0.0.0.0",
        "--port",
        "0",
    ]);
    assert!(
        stderr.contains("not a loopback address") && stderr.contains("anyone who can reach"),
        "{stderr}"
    );
    assert_eq!(sigterm(&mut child, &_rx), 0, "graceful shutdown exits 0");
}

#[test]
fn http_serves_the_knowledge_base() {
    use std::io::{Read as _, Write as _};
    let (mut child, stderr, _rx) = start_http(&["http", "examples/meds.pl", "--port", "0"]);
    assert!(!stderr.contains("loopback"), "{stderr}");
    let addr = stderr
        .split("listening on http://")
        .nth(1)
        .and_then(|s| s.split_whitespace().next())
        .expect("address")
        .to_string();
    let mut conn = std::net::TcpStream::connect(&addr).expect("connects");
    write!(
        conn,
        "GET /get_interaction?First=aspirin&Second=warfarin HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .expect("request");
    let mut response = String::new();
    conn.read_to_string(&mut response).expect("response");
    assert!(response.starts_with("HTTP/1.1 200"), "{response}");
    assert!(response.ends_with("\"major\""), "{response}");
    assert_eq!(sigterm(&mut child, &_rx), 0);
}

#[test]
fn http_with_a_broken_kb_exits_non_zero_and_binds_nothing() {
    let dir = std::env::temp_dir().join(format!("charon-http-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let kb = dir.join("broken.pl");
    std::fs::write(&kb, "p(X :- .\n").expect("write");
    let port = {
        let probe = std::net::TcpListener::bind("127.0.0.1:0").expect("free port");
        probe.local_addr().expect("addr").port()
    };
    let (code, _, stderr) = run_charon(&[
        "http",
        kb.to_str().expect("utf-8"),
        "--port",
        &port.to_string(),
    ]);
    assert_ne!(code, 0);
    assert!(stderr.contains("broken.pl:1: syntax error"), "{stderr}");
    assert!(!stderr.contains("listening"), "{stderr}");
    std::net::TcpListener::bind(("127.0.0.1", port)).expect("the port is still free");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn mcp_stdio_cannot_be_combined_with_host_or_port() {
    let (code, _, stderr) = run_charon(&["mcp", "examples/meds.pl", "--stdio", "--port", "4000"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("--stdio") && stderr.contains("--port"),
        "{stderr}"
    );
    let (code, _, stderr) =
        run_charon(&["mcp", "examples/meds.pl", "--stdio", "--host", "0.0.0.0"]);
    assert_eq!(code, 2, "{stderr}");
}

#[test]
fn mcp_on_a_non_loopback_address_warns() {
    let (mut child, stderr, rx) = start_http(&[
        "mcp",
        "examples/meds.pl",
        "--host",
        "0.0.0.0",
        "--port",
        "0",
    ]);
    assert!(stderr.contains("not a loopback address"), "{stderr}");
    assert_eq!(sigterm(&mut child, &rx), 0);
}

#[test]
fn a_failing_directive_is_a_one_line_load_error() {
    let dir = std::env::temp_dir().join(format!("charon-directive-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let kb = dir.join("needs.pl");
    std::fs::write(
        &kb,
        ":- use_module(library(nonexistent)).\n%! p(-X:int) is det.\np(1).\n",
    )
    .expect("write");
    let (code, stdout, stderr) = run_charon(&["check", kb.to_str().expect("utf-8")]);
    assert_ne!(code, 0);
    assert!(stdout.is_empty(), "{stdout}");
    assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("needs.pl:1: the knowledge base failed to load"),
        "{stderr}"
    );
    assert!(stderr.contains("existence_error"), "{stderr}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn rust_log_overrides_the_log_flag() {
    let out = std::process::Command::new(crate::util::charon_bin())
        .args(["openapi", "examples/meds.pl", "--log", "error"])
        .current_dir(crate::util::root())
        .env("RUST_LOG", "info")
        .output()
        .expect("runs");
    assert!(out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("operation(s) exposed"), "{stderr}");
    let (_, _, quiet) = run_charon(&["openapi", "examples/meds.pl", "--log", "error"]);
    assert!(!quiet.contains("operation(s) exposed"), "{quiet}");
}
