//! A clean stop folds every acknowledged write into the `.pl`, however it is
//! signalled: SIGINT or SIGTERM to the server alone, or to its whole process group
//! (Ctrl-C in a terminal, a service manager stopping a unit), where the workers get
//! the signal too and must outlive the server's shutdown. And `charon://source`
//! serves the file as that stop writes it, journal included, without writing it.

use std::os::unix::process::CommandExt as _;
use std::process::{Command, Stdio};
use std::time::Duration;

use charon::KnowledgeBase;
use serde_json::{Value, json};

use crate::util::{StdioSession, TempDir, charon_bin, config, example, free_port, http};

/// Values that try to end the clause, the file or the string they are written in.
const HOSTILE_TITLE: &str = "it's \"quoted\"\n'), halt. %\u{0}\u{1F600} \\ end";

fn library(label: &str) -> (TempDir, std::path::PathBuf) {
    let dir = TempDir::new(label);
    let path = dir.0.join("library.pl");
    std::fs::copy(example("library.pl"), &path).expect("copy");
    (dir, path)
}

/// `charon http PATH --persist` in a process group of its own (as a shell starts a
/// job), with two workers; listening when this returns.
fn serve(path: &std::path::Path) -> (std::process::Child, u16) {
    let port = free_port();
    let child = Command::new(charon_bin())
        .args([
            "http",
            path.to_str().expect("utf-8"),
            "--persist",
            "--workers",
            "2",
        ])
        .args(["--port", &port.to_string(), "--log", "warn"])
        .process_group(0)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("charon http starts");
    for _ in 0..600 {
        if http(port, "GET", "/health", None).is_some_and(|(s, _)| s == 200) {
            return (child, port);
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let mut child = child;
    let _ = child.kill();
    let _ = child.wait();
    panic!("charon http did not come up");
}

/// Whether a process `pid` is still there (not yet reaped counts).
fn alive(pid: i32) -> bool {
    // SAFETY: signal 0 only checks.
    unsafe { libc::kill(pid, 0) == 0 }
}

/// The processes of group `pgid` (from /proc).
fn group_members(pgid: i32) -> Vec<i32> {
    let mut pids = Vec::new();
    for entry in std::fs::read_dir("/proc").expect("/proc").flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<i32>() else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
            continue;
        };
        // pid (comm) state ppid pgrp …; comm may hold spaces and parentheses.
        let fields: Vec<&str> = stat
            .rsplit_once(')')
            .map_or("", |(_, r)| r)
            .split_whitespace()
            .collect();
        if fields.get(2).and_then(|g| g.parse::<i32>().ok()) == Some(pgid) && fields[0] != "Z" {
            pids.push(pid);
        }
    }
    pids
}

/// One write with hostile values, a stop by `signal` sent to `group` or the server
/// alone: the server exits 0, leaves no process behind, and the file alone (read
/// without the journal) holds the write.
fn stop_keeps_the_write(signal: i32, group: bool) {
    let (_dir, path) = library("stop");
    let (mut child, port) = serve(&path);
    let pid = child.id() as i32;
    let body = json!({"Id": "hostile", "Title": HOSTILE_TITLE, "Author": "O'Brien", "Year": 1999});
    let (status, answer) = http(port, "PUT", "/put_book", Some(&body.to_string())).expect("answer");
    assert_eq!(status, 200, "{answer}");
    let (status, answer) = http(port, "DELETE", "/delete_book?Id=aop", None).expect("answer");
    assert_eq!(status, 200, "{answer}");
    let members = group_members(pid);
    assert!(
        members.len() >= 3,
        "the server and its workers: {members:?}"
    );
    // SAFETY: signalling the group (or the process) this test started.
    let sent = unsafe { libc::kill(if group { -pid } else { pid }, signal) };
    assert_eq!(sent, 0);
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait());
    });
    let status = rx
        .recv_timeout(Duration::from_secs(60))
        .expect("the server stops within a minute")
        .expect("waited");
    assert_eq!(
        status.code(),
        Some(0),
        "signal {signal}, group {group}: {status:?}"
    );
    // No worker outlives the server for long.
    for _ in 0..100 {
        if members.iter().all(|&p| !alive(p)) {
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let left: Vec<i32> = members.into_iter().filter(|&p| alive(p)).collect();
    assert!(left.is_empty(), "processes left behind: {left:?}");
    // The file alone: no journal read.
    let kb = KnowledgeBase::load_with(&path, config()).expect("the file loads");
    let got = kb
        .call("get_book", &json!({"Id": "hostile"}))
        .expect("get_book");
    assert_eq!(got["Title"], json!(HOSTILE_TITLE), "{got}");
    assert_eq!(got["Author"], json!("O'Brien"));
    assert_eq!(
        kb.call("get_book", &json!({"Id": "aop"}))
            .expect("get_book"),
        Value::Null
    );
}

#[test]
fn sigint_to_the_process_group_folds_the_writes_into_the_file() {
    stop_keeps_the_write(libc::SIGINT, true);
}

#[test]
fn sigterm_to_the_process_group_folds_the_writes_into_the_file() {
    stop_keeps_the_write(libc::SIGTERM, true);
}

#[test]
fn sigint_to_the_server_alone_folds_the_writes_into_the_file() {
    stop_keeps_the_write(libc::SIGINT, false);
}

#[test]
fn sigterm_to_the_server_alone_folds_the_writes_into_the_file() {
    stop_keeps_the_write(libc::SIGTERM, false);
}

/// `charon://source` over MCP: the state as persisted (the file with the journal's
/// writes folded in), equal to the file a clean stop then leaves.
#[test]
fn the_source_resource_is_the_file_a_clean_stop_writes() {
    let (dir, path) = library("source");
    let mut session = StdioSession::start_in(
        &dir.0,
        &["mcp", "--stdio", path.to_str().expect("utf-8"), "--persist"],
    );
    let before = std::fs::read_to_string(&path).expect("read");
    // Nothing to fold yet: the file as it is, byte for byte.
    session.send(
        &json!({"jsonrpc": "2.0", "id": 1, "method": "resources/read",
                         "params": {"uri": "charon://source"}}),
    );
    assert_eq!(session.answer(1)["contents"][0]["text"], json!(before));
    session.call(
        2,
        "put_book",
        json!({"Id": "src", "Title": HOSTILE_TITLE, "Author": "A", "Year": 2001}),
    );
    assert_eq!(session.answer(2)["isError"], json!(false));
    session.send(
        &json!({"jsonrpc": "2.0", "id": 3, "method": "resources/read",
                         "params": {"uri": "charon://source"}}),
    );
    let read = session.answer(3);
    let served = read["contents"][0]["text"]
        .as_str()
        .expect("text")
        .to_string();
    assert_ne!(served, before, "the source still is the file as loaded");
    assert!(served.contains("book(src,"), "{served}");
    // Reading it wrote nothing: the file waits for its fold, the write is in the
    // journal; a second read serves the same text.
    assert_eq!(std::fs::read_to_string(&path).expect("read"), before);
    session.send(
        &json!({"jsonrpc": "2.0", "id": 4, "method": "resources/read",
                         "params": {"uri": "charon://source"}}),
    );
    assert_eq!(session.answer(4)["contents"][0]["text"], json!(served));
    // A clean stop: stdin closed.
    session.close();
    let after = std::fs::read_to_string(&path).expect("read");
    assert_eq!(served, after);
}

/// The workers take no stop signal (above), but a program the knowledge base runs
/// (shell/2) does not inherit that: it gets SIGHUP, SIGINT and SIGTERM at their
/// defaults, so Ctrl-C stops it as it stops any program.
#[test]
fn programs_the_knowledge_base_runs_take_stop_signals() {
    let dir = TempDir::new("shell-signals");
    let path = dir.0.join("shell.pl");
    std::fs::write(
        &path,
        ":- use_module(library(os)).\n\n\
         %! ignored(-Status:integer) is det.\n\
         %  1 when a program run from here ignores SIGHUP, SIGINT or SIGTERM, else 0.\n\
         ignored(Status) :-\n    \
         shell(\"m=$(sed -n 's/^SigIgn:[[:space:]]*//p' /proc/self/status); \
         exit $(( (0x$m & 0x4003) != 0 ))\", Status).\n",
    )
    .expect("write");
    let kb = KnowledgeBase::load_with(&path, config()).expect("the knowledge base loads");
    assert_eq!(kb.call("ignored", &json!({})).expect("ignored"), json!(0));
}
