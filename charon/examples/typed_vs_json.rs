//! Instruction counts of Charon's own side of a call, typed against JSON, for
//! `scripts/bench-typed.sh`: the engine runs in a worker process, which callgrind does
//! not follow, so what it counts in this process is exactly the work of building the
//! call, the pipe round trip on this side, and turning the answer into JSON or Rust
//! types — the part in which the two kinds of call differ.
//!
//! ```sh
//! cargo run --release -p charon --example typed_vs_json -- typed point 1000
//! ```

use serde_json::json;

charon::knowledge_base!(Rbac = "../examples/rbac.pl");

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [kind, query, n] = args.as_slice() else {
        eprintln!("usage: typed_vs_json typed|json|none point|list N");
        std::process::exit(2);
    };
    let n: usize = n.parse().expect("N is a number");
    let config = charon::EngineConfig {
        workers: 1,
        answer_cache: 0,
        ..charon::EngineConfig::default()
    };
    let rbac = Rbac::load_with(config).expect("rbac loads");
    let kb = rbac.knowledge_base();
    let typed = rbac.blocking();
    let perms = ["deploy", "read_wiki", "merge", "read_audit_log"];
    for i in 0..n {
        let user = format!("user_{:04}", i % 1000);
        let perm = perms[i % perms.len()];
        match (kind.as_str(), query.as_str()) {
            ("typed", "point") => {
                std::hint::black_box(typed.get_user_has_permission(&user, perm).expect("point"));
            }
            ("json", "point") => {
                let args = json!({"User": user, "Perm": perm});
                std::hint::black_box(kb.call("get_user_has_permission", &args).expect("point"));
            }
            ("typed", "list") => {
                std::hint::black_box(typed.users_with_permission(perm).expect("list"));
            }
            ("json", "list") => {
                let args = json!({"Perm": perm});
                std::hint::black_box(kb.call("users_with_permission", &args).expect("list"));
            }
            ("none", _) => {}
            _ => panic!("unknown kind or query"),
        }
    }
}
