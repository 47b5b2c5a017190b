//! Workers are forked from one template process that loaded the knowledge base:
//! they share its load and its pages; a worker that goes is replaced by another
//! fork, and when the template itself goes, the next start loads a new one — with
//! every committed write still there.

use std::time::{Duration, Instant};

use charon::KnowledgeBase;
use serde_json::json;

use crate::util::{config, fixture};

/// A field of `/proc/PID/status` or `/proc/PID/smaps_rollup` (in KiB for sizes);
/// `None` once the process is gone.
fn proc_field(pid: u32, file: &str, field: &str) -> Option<u64> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/{file}")).ok()?;
    text.lines()
        .find_map(|l| l.strip_prefix(field)?.strip_prefix(':'))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
}

pub(crate) fn parent_of(pid: u32) -> u32 {
    proc_field(pid, "status", "PPid").unwrap_or_else(|| panic!("process {pid} is gone")) as u32
}

/// The pids of the knowledge base's workers once `n` of them are idle.
pub(crate) fn idle_workers(kb: &KnowledgeBase, n: usize) -> Vec<u32> {
    let started = Instant::now();
    loop {
        let pids = kb.idle_worker_pids();
        if pids.len() == n {
            return pids;
        }
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "{} of {n} workers idle",
            pids.len()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

pub(crate) fn kill(pid: u32) {
    let status = std::process::Command::new("kill")
        .args(["-9", &pid.to_string()])
        .status()
        .expect("kill runs");
    assert!(status.success(), "kill -9 {pid}");
}

/// Calls until the call answers: a killed worker is found out by the call that
/// meets it, which fails before it ran (so a write can be sent again); the call
/// after it gets another worker.
fn answer(kb: &KnowledgeBase, name: &str, args: serde_json::Value) -> serde_json::Value {
    let started = Instant::now();
    loop {
        match kb.call(name, &args) {
            Ok(v) => return v,
            Err(e) => assert!(
                started.elapsed() < Duration::from_secs(60),
                "{name}: no answer: {e}"
            ),
        }
    }
}

fn notes(kb: &KnowledgeBase) -> serde_json::Value {
    answer(kb, "get_notes", json!({}))
}

#[test]
fn every_worker_is_a_fork_of_one_template_and_a_lost_template_is_loaded_again() {
    let kb = KnowledgeBase::load_with(
        fixture("counter.pl"),
        charon::EngineConfig {
            workers: 3,
            answer_cache: 0,
            ..config()
        },
    )
    .expect("loads");
    let pids = idle_workers(&kb, 3);
    let template = parent_of(pids[0]);
    assert!(
        pids.iter().all(|&p| parent_of(p) == template),
        "workers {pids:?} have different parents"
    );
    assert_eq!(parent_of(template), std::process::id(), "the template");

    kb.call("put_note", &json!({"X": "before"}))
        .expect("writes");
    // A worker that goes is replaced by another fork of the same template, which
    // catches up with the write.
    let killed = pids[0];
    kill(killed);
    for _ in 0..6 {
        assert_eq!(notes(&kb), json!(["before"]));
    }
    // The killed worker may still wait in the pool, found out by the call that
    // meets it: every other one is a fork of the same template.
    let live: Vec<u32> = idle_workers(&kb, 3)
        .into_iter()
        .filter(|&p| p != killed)
        .collect();
    assert!(live.len() >= 2, "{live:?}");
    assert!(live.iter().all(|&p| parent_of(p) == template));

    // Without the template, the next start loads the file again and catches up.
    kill(template);
    for &p in &live {
        kill(p);
    }
    assert_eq!(notes(&kb), json!(["before"]));
    answer(&kb, "put_note", json!({"X": "after"}));
    for _ in 0..6 {
        assert_eq!(notes(&kb), json!(["before", "after"]));
    }
    let reloaded: Vec<u32> = kb
        .idle_worker_pids()
        .into_iter()
        .filter_map(|p| proc_field(p, "status", "PPid").map(|parent| parent as u32))
        .filter(|&parent| parent != template && parent != 1)
        .collect();
    assert!(!reloaded.is_empty(), "no worker of a new template");
    for parent in reloaded {
        assert_eq!(parent_of(parent), std::process::id(), "a new template");
    }
}

/// The loaded clauses are shared: a forked worker's own memory is a small part of
/// what the template holds, also after it answered calls over the whole file.
#[test]
fn workers_share_the_loaded_clauses() {
    let dir = std::env::temp_dir().join(format!("charon-template-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("facts.pl");
    let mut text = String::from(
        "%! get_fact(+Id:int, -Value:int) is semidet.\n%  A value.\nget_fact(I, V) :- fact(I, V).\n\n",
    );
    for k in 0..50_000 {
        text.push_str(&format!("fact({k}, {}).\n", k * 7919 % 1_000_003));
    }
    std::fs::write(&file, text).expect("writes the file");
    let kb = KnowledgeBase::load_with(
        &file,
        charon::EngineConfig {
            workers: 2,
            answer_cache: 0,
            ..config()
        },
    )
    .expect("loads");
    for k in (0..50_000).step_by(97) {
        assert_eq!(
            kb.call("get_fact", &json!({"Id": k})).expect("answers"),
            json!(k * 7919 % 1_000_003)
        );
    }
    let pids = idle_workers(&kb, 2);
    let template = parent_of(pids[0]);
    let field = |p, f| proc_field(p, "smaps_rollup", f).expect("a live process");
    let loaded = field(template, "Rss");
    for p in pids {
        let own = field(p, "Private_Dirty") + field(p, "Private_Clean");
        assert!(
            own * 4 < loaded,
            "worker {p} holds {own} KiB of its own beside the template's {loaded} KiB"
        );
    }
    drop(kb);
    let _ = std::fs::remove_dir_all(&dir);
}
