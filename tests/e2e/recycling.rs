//! Memory stays flat over a million calls because workers are recycled, and the
//! dynamic database survives every recycling.

use charon::KnowledgeBase;
use serde_json::json;

use crate::util::{config, fixture};

/// Resident memory, in KiB, of this process and its children (the workers).
fn tree_rss_kib() -> u64 {
    let me = std::process::id().to_string();
    let rss = |pid: &str| -> u64 {
        std::fs::read_to_string(format!("/proc/{pid}/status"))
            .ok()
            .and_then(|s| {
                s.lines()
                    .find(|l| l.starts_with("VmRSS:"))
                    .and_then(|l| l.split_whitespace().nth(1).map(str::to_string))
            })
            .and_then(|v| v.parse().ok())
            .unwrap_or(0)
    };
    let mut total = rss(&me);
    for entry in std::fs::read_dir("/proc").expect("/proc").flatten() {
        let pid = entry.file_name().to_string_lossy().into_owned();
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        if let Some((_, rest)) = stat.rsplit_once(')')
            && rest.split_whitespace().nth(1) == Some(me.as_str())
        {
            total += rss(&pid);
        }
    }
    total
}

/// The smallest of a few samples (a replacement worker may be starting up).
fn settled_rss_kib() -> u64 {
    (0..5)
        .map(|_| {
            std::thread::sleep(std::time::Duration::from_millis(300));
            tree_rss_kib()
        })
        .min()
        .unwrap_or(0)
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
    let warm = settled_rss_kib();
    calls(&kb, 900_000);
    let after = settled_rss_kib();

    let stats = kb.stats();
    assert!(stats.calls >= 1_000_000, "{stats:?}");
    assert!(
        stats.workers_started >= 2 + 40,
        "workers were not recycled: {stats:?}"
    );
    assert!(
        after <= warm + 20 * 1024,
        "memory grew from {warm} KiB to {after} KiB over 900,000 calls"
    );
    assert_eq!(
        kb.call("get_notes", &json!({})).expect("notes"),
        json!(["survivor"])
    );
}
