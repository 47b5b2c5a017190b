//! Memory stays flat over a million calls because workers are recycled, and the
//! dynamic database survives every recycling.

use charon::KnowledgeBase;
use serde_json::json;

use crate::util::{config, fixture};

/// Resident memory, in KiB, of a process.
fn rss_kib(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1).map(str::to_string))
        })
        .and_then(|v| v.parse().ok())
        .unwrap_or(0)
}

/// Resident memory of the knowledge base's workers, once all of them are idle (a
/// replacement may be starting up); other tests' workers are not counted.
fn workers_rss_kib(kb: &KnowledgeBase, workers: usize) -> u64 {
    let started = std::time::Instant::now();
    loop {
        let pids = kb.idle_worker_pids();
        if pids.len() == workers {
            return pids.iter().map(|&p| rss_kib(p)).sum();
        }
        assert!(started.elapsed().as_secs() < 30, "workers did not settle");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

fn calls(kb: &KnowledgeBase, n: usize) {
    std::thread::scope(|s| {
        for _ in 0..4 {
            s.spawn(|| {
                for _ in 0..n / 4 {
                    assert_eq!(
                        kb.call("get_counter", &json!({})).expect("point call"),
                        json!(0)
                    );
                }
            });
        }
    });
}

#[test]
fn memory_stays_flat_over_a_million_calls_and_dynamic_facts_survive() {
    let mut c = config();
    c.recycle_after = 20_000;
    let kb = KnowledgeBase::load_with(fixture("counter.pl"), c).expect("loads");
    kb.call("put_note", &json!({"X": "survivor"}))
        .expect("note");

    calls(&kb, 100_000);
    let warm = workers_rss_kib(&kb, 2);
    calls(&kb, 900_000);
    let after = workers_rss_kib(&kb, 2);

    let stats = kb.stats();
    assert!(stats.calls >= 1_000_000, "{stats:?}");
    // Every 20,000 calls would be 50 replacements; a worker past its count keeps
    // serving while another's replacement loads (one at a time), so fewer happen
    // when calls are fast (41 workers started in a run where a call took ~10 µs).
    // Half of them is plenty to keep memory flat.
    assert!(
        stats.workers_started >= 2 + 25,
        "workers were not recycled: {stats:?}"
    );
    assert!(
        after <= warm + 20 * 1024,
        "workers' memory grew from {warm} KiB to {after} KiB over 900,000 calls"
    );
    assert!(warm > 1024, "measured nothing ({warm} KiB)");
    assert_eq!(
        kb.call("get_notes", &json!({})).expect("notes"),
        json!(["survivor"])
    );
}
