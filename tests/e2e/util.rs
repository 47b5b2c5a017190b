//! Shared helpers: fixture paths, loaded knowledge bases, the binary.

use std::path::PathBuf;
use std::sync::OnceLock;

use charon::{EngineConfig, KnowledgeBase, Limits};

/// The workspace root.
/// JSON text of a value, integers of any size written exactly (the tests' serde_json,
/// like an application's, has no `arbitrary_precision`: see `charon::json`).
pub fn exact(value: &serde_json::Value) -> String {
    charon::json::to_string(value).expect("json")
}

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ has a parent")
        .to_path_buf()
}

/// A fixture under `tests/kbs/`.
pub fn fixture(name: &str) -> PathBuf {
    root().join("tests").join("kbs").join(name)
}

/// An example knowledge base under `examples/`.
pub fn example(name: &str) -> PathBuf {
    root().join("examples").join(name)
}

/// Test configuration: short limits so limit tests are quick, and no answer cache,
/// so that every call reaches the engine (the cache has tests of its own).
pub fn config() -> EngineConfig {
    EngineConfig {
        workers: 2,
        limits: Limits {
            inferences: 2_000_000,
            solutions: 1000,
            time: std::time::Duration::from_secs(3),
            memory: Some(1 << 30),
            ..Limits::default()
        },
        answer_cache: 0,
        ..EngineConfig::default()
    }
}

/// `tests/kbs/types.pl`, loaded once for the whole run (read-only fixture).
pub fn types_kb() -> &'static KnowledgeBase {
    static KB: OnceLock<KnowledgeBase> = OnceLock::new();
    KB.get_or_init(|| {
        KnowledgeBase::load_with(fixture("types.pl"), config()).expect("types.pl loads")
    })
}

/// The `charon` binary built next to this test binary.
pub fn charon_bin() -> PathBuf {
    let exe = std::env::current_exe().expect("current exe");
    let dir = exe
        .parent()
        .and_then(|d| d.parent())
        .expect("target/<profile>/deps/..");
    let bin = dir.join("charon");
    assert!(
        bin.exists(),
        "{} is missing: build it first (scripts/test.sh runs `cargo build --release -p charon-cli`)",
        bin.display()
    );
    bin
}

/// Runs the binary; returns (status code, stdout, stderr).
pub fn run_charon(args: &[&str]) -> (i32, String, String) {
    let out = std::process::Command::new(charon_bin())
        .args(args)
        .current_dir(root())
        .env_remove("RUST_LOG")
        .output()
        .expect("charon runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The 1-based line of the first line of `file` containing `needle`.
pub fn line_of(file: &std::path::Path, needle: &str) -> usize {
    std::fs::read_to_string(file)
        .expect("fixture readable")
        .lines()
        .position(|l| l.contains(needle))
        .map(|i| i + 1)
        .unwrap_or_else(|| panic!("{needle} not in {}", file.display()))
}

/// A JSON-RPC session with `charon mcp … --stdio` (one line per message), started in
/// `dir` and initialised. A watchdog kills the server after a minute, so a test that
/// waits for an answer that never comes fails instead of hanging.
pub struct StdioSession {
    child: std::sync::Arc<std::sync::Mutex<std::process::Child>>,
    stdin: Option<std::process::ChildStdin>,
    lines: std::io::Lines<std::io::BufReader<std::process::ChildStdout>>,
}

impl StdioSession {
    /// Starts `charon ARGS` from the workspace root.
    pub fn start(args: &[&str]) -> StdioSession {
        Self::start_in(&root(), args)
    }

    /// Starts `charon ARGS` from `dir`.
    pub fn start_in(dir: &std::path::Path, args: &[&str]) -> StdioSession {
        use std::io::BufRead as _;
        let mut child = std::process::Command::new(charon_bin())
            .args(args)
            .current_dir(dir)
            .env_remove("RUST_LOG")
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("charon mcp starts");
        let stdin = child.stdin.take().expect("stdin");
        let lines = std::io::BufReader::new(child.stdout.take().expect("stdout")).lines();
        let child = std::sync::Arc::new(std::sync::Mutex::new(child));
        let watched = std::sync::Arc::downgrade(&child);
        std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_secs(60));
            if let Some(child) = watched.upgrade() {
                let _ = child.lock().map(|mut c| c.kill());
            }
        });
        let mut session = StdioSession {
            child,
            stdin: Some(stdin),
            lines,
        };
        session.send(
            &serde_json::json!({"jsonrpc": "2.0", "id": 0, "method": "initialize",
            "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                       "clientInfo": {"name": "charon-e2e", "version": "1"}}}),
        );
        session.answer(0);
        session.send(&serde_json::json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        session
    }

    /// Sends one message.
    pub fn send(&mut self, message: &serde_json::Value) {
        use std::io::Write as _;
        let stdin = self.stdin.as_mut().expect("the session is open");
        writeln!(stdin, "{}", exact(message)).expect("send");
        stdin.flush().expect("flush");
    }

    /// Sends `tools/call` with request id `id`.
    pub fn call(&mut self, id: u64, tool: &str, arguments: serde_json::Value) {
        self.send(
            &serde_json::json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
                          "params": {"name": tool, "arguments": arguments}}),
        );
    }

    /// Reads until the answer to `id` arrives (answers to other ids are skipped);
    /// returns its `result`.
    pub fn answer(&mut self, id: u64) -> serde_json::Value {
        for line in self.lines.by_ref() {
            let message: serde_json::Value =
                charon::json::from_str(&line.expect("line")).expect("json-rpc");
            if message["id"] == id {
                return message["result"].clone();
            }
        }
        panic!("the server closed (or the watchdog stopped it) before answering {id}");
    }
}

impl StdioSession {
    /// The next message the server writes, as it wrote it (for answers too deep
    /// for a JSON reader with a nesting limit).
    pub fn raw_line(&mut self) -> String {
        match self.lines.next() {
            Some(line) => line.expect("line"),
            None => panic!("the server closed (or the watchdog stopped it)"),
        }
    }
}

impl StdioSession {
    /// Closes the server's stdin, as a client ends the session, and waits (a minute
    /// at most) for it to exit; asserts exit status 0.
    pub fn close(mut self) {
        drop(self.stdin.take());
        let mut child = self.child.lock().expect("lock");
        for _ in 0..1200 {
            if let Some(status) = child.try_wait().expect("wait") {
                assert_eq!(status.code(), Some(0), "{status:?}");
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        let _ = child.kill();
        panic!("the server did not exit within a minute of its stdin closing");
    }
}

impl Drop for StdioSession {
    fn drop(&mut self) {
        if let Ok(mut child) = self.child.lock() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// A free TCP port on the loopback interface (free when asked).
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

/// One HTTP/1.1 request to `127.0.0.1:port` (connection closed after it): the status
/// and the body, or `None` when the server did not answer.
pub fn http(port: u16, method: &str, path: &str, body: Option<&str>) -> Option<(u16, String)> {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(("127.0.0.1", port)).ok()?;
    stream
        .set_read_timeout(Some(std::time::Duration::from_secs(30)))
        .ok()?;
    let body = body.unwrap_or("");
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).ok()?;
    let mut response = String::new();
    stream.read_to_string(&mut response).ok()?;
    let status = response.split(' ').nth(1)?.parse().ok()?;
    let (_, body) = response.split_once("\r\n\r\n")?;
    Some((status, body.to_string()))
}

/// A response read whole: status, header lines (lower-case names), body.
pub struct Reply {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Reply {
    /// The problem's `type` and `detail`, asserting the problem+json media type.
    pub fn problem(&self) -> (String, String) {
        assert_eq!(
            self.header("content-type"),
            Some("application/problem+json"),
            "{}",
            self.body
        );
        let body: serde_json::Value = charon::json::from_str(&self.body).expect("JSON");
        (
            body["type"].as_str().unwrap_or_default().to_string(),
            body["detail"].as_str().unwrap_or_default().to_string(),
        )
    }

    /// The first header named `name` (lower case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// One HTTP/1.1 request to `127.0.0.1:port` with exactly the given headers (no Host
/// unless given), connection closed after it.
pub fn request(port: u16, method: &str, path: &str, headers: &[(&str, &str)], body: &str) -> Reply {
    let stream = std::net::TcpStream::connect(("127.0.0.1", port)).expect("connects");
    request_over(stream, method, path, headers, body)
}

/// [`request`] over a connection already open (so that timing it leaves out the
/// connection's set-up).
pub fn request_over(
    mut stream: std::net::TcpStream,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> Reply {
    use std::io::Write;
    stream
        .set_read_timeout(Some(std::time::Duration::from_secs(30)))
        .expect("timeout");
    let mut text = format!("{method} {path} HTTP/1.1\r\n");
    for (name, value) in headers {
        text.push_str(&format!("{name}: {value}\r\n"));
    }
    text.push_str(&format!(
        "Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    ));
    stream.write_all(text.as_bytes()).expect("sends");
    read_reply(stream)
}

/// Reads a whole response from `stream` (the server closes it after).
pub fn read_reply(mut stream: std::net::TcpStream) -> Reply {
    use std::io::Read;
    stream
        .set_read_timeout(Some(std::time::Duration::from_secs(30)))
        .expect("timeout");
    let mut response = String::new();
    stream.read_to_string(&mut response).expect("reads");
    let (head, body) = response.split_once("\r\n\r\n").expect("a response");
    let mut lines = head.lines();
    let status = lines
        .next()
        .and_then(|l| l.split(' ').nth(1))
        .and_then(|s| s.parse().ok())
        .expect("a status");
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    Reply {
        status,
        headers,
        body: body.to_string(),
    }
}

/// A JSON-RPC message posted to `/mcp` on `127.0.0.1:port` as an MCP client posts it
/// (Host, JSON, accepting JSON or an event stream), with `extra` headers.
pub fn mcp_post(port: u16, body: &str, extra: &[(&str, &str)]) -> Reply {
    let host = format!("127.0.0.1:{port}");
    let mut headers = vec![
        ("Host", host.as_str()),
        ("Content-Type", "application/json"),
        ("Accept", "application/json, text/event-stream"),
    ];
    headers.extend_from_slice(extra);
    request(port, "POST", "/mcp", &headers, body)
}

/// The `initialize` request of a client named `name`.
pub fn mcp_initialize(name: &str) -> String {
    serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": name, "version": "0"}}})
    .to_string()
}

/// `charon mcp KB --port P ARGS` (MCP over HTTP) running as a process, with `env`
/// set; listening when this returns; killed on drop.
pub fn mcp_http_server(kb: &std::path::Path, args: &[&str], env: &[(&str, &str)]) -> HttpServer {
    let port = free_port();
    let child = std::process::Command::new(charon_bin())
        .arg("mcp")
        .arg(kb)
        .args(["--port", &port.to_string(), "--log", "warn"])
        .args(args)
        .envs(env.iter().copied())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("charon mcp starts");
    let server = HttpServer { child, port };
    for _ in 0..600 {
        if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
            return server;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    panic!("charon mcp did not listen on {port}");
}

/// `charon http` running as a process; stopped on drop.
pub struct HttpServer {
    pub child: std::process::Child,
    pub port: u16,
}

impl HttpServer {
    /// Starts `charon http <kb> <args>` on a free port and waits for `/health`.
    pub fn start(kb: &std::path::Path, args: &[&str]) -> HttpServer {
        let mut all = vec![kb.to_str().expect("a UTF-8 path")];
        all.extend_from_slice(args);
        HttpServer::with_args(&all)
    }

    /// Starts `charon http <args>` on a free port and waits for `/health`.
    pub fn with_args(args: &[&str]) -> HttpServer {
        let port = free_port();
        let child = std::process::Command::new(charon_bin())
            .arg("http")
            .args(["--port", &port.to_string(), "--log", "warn"])
            .args(args)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("charon http starts");
        let server = HttpServer { child, port };
        for _ in 0..600 {
            if http(port, "GET", "/health", None).is_some_and(|(s, _)| s == 200) {
                return server;
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        panic!("charon http did not come up on port {port}");
    }
}

impl HttpServer {
    /// Kills it with SIGKILL, as a crash or an out-of-memory killer would: no
    /// checkpoint, no clean-up, nothing of its own stop runs.
    pub fn kill(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for HttpServer {
    /// Stops it as an operator would (SIGTERM, so that it removes its private
    /// files), and kills it if it has not exited within 10 s.
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            // SAFETY: a plain kill(2) of the test's own child process.
            unsafe { libc::kill(self.child.id() as i32, libc::SIGTERM) };
            let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
            while matches!(self.child.try_wait(), Ok(None)) && std::time::Instant::now() < deadline
            {
                std::thread::sleep(std::time::Duration::from_millis(10));
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A directory of its own under the system's temporary directory (`label` in its
/// name), removed on drop.
pub struct TempDir(pub PathBuf);

impl TempDir {
    pub fn new(label: &str) -> TempDir {
        use std::sync::atomic::{AtomicU64, Ordering};
        static N: AtomicU64 = AtomicU64::new(0);
        let dir = std::env::temp_dir().join(format!(
            "charon-{label}-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir_all(&dir).expect("temp dir");
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
