//! The reasoning toolkit through its Rust API: Euclid-IR parsing (text and YAML),
//! proofs, honest limits, determinism, the allow-list, check_kb.

use std::sync::{Arc, OnceLock};

use crate::util::{StdioSession, charon_bin, free_port, http, root, run_charon};

use charon::reason::{
    CheckResult, FailureKind, ProofKind, ProofNode, ReasonRequest, ReasonResult, Reasoner,
};

/// One reasoner for the module's tests (its workers start once).
fn reasoner() -> &'static Reasoner {
    static R: OnceLock<Reasoner> = OnceLock::new();
    R.get_or_init(|| Reasoner::new(charon::EngineConfig::default()).expect("reasoner"))
}

const FAMILY: &str = "\
@version 1.0
parent(tom, bob)          # facts
parent(bob, ann)
// rules
ancestor($x, $y) IF parent($x, $y)
ancestor($x, $y) IF parent($x, $z) AND
    ancestor($z, $y)
? ancestor(tom, $who)
";

fn answered(r: ReasonResult) -> charon::reason::Answers {
    match r {
        ReasonResult::Answered(a) => a,
        ReasonResult::Failed(f) => panic!("failed: {:?}", f.error),
    }
}

fn failure(r: ReasonResult) -> charon::reason::Failure {
    match r {
        ReasonResult::Failed(f) => f.error,
        ReasonResult::Answered(a) => panic!("answered: {a:?}"),
    }
}

fn leaves(node: &ProofNode, out: &mut Vec<ProofKind>) {
    if node.children.is_empty() {
        out.push(node.kind);
    }
    for c in &node.children {
        leaves(c, out);
    }
}

#[test]
fn ancestor_has_both_solutions_with_proofs_ending_in_facts() {
    let a = answered(reasoner().reason(&ReasonRequest::new(FAMILY, "ancestor(tom, $who)")));
    assert_eq!(a.solution_count, 2);
    assert!(!a.truncated && !a.depth_exhausted);
    let who: Vec<&str> = a
        .solutions
        .iter()
        .map(|s| s.bindings["who"].as_str().expect("test value"))
        .collect();
    assert_eq!(who, ["ann", "bob"]);
    let ann = &a.solutions[0].proofs[0];
    assert_eq!(ann.kind, ProofKind::Rule);
    assert_eq!(ann.goal, "ancestor(tom, ann)");
    assert_eq!(ann.line, Some(6));
    let kids: Vec<&str> = ann.children.iter().map(|c| c.goal.as_str()).collect();
    assert_eq!(kids, ["parent(tom, bob)", "ancestor(bob, ann)"]);
    for s in &a.solutions {
        let mut l = Vec::new();
        leaves(&s.proofs[0], &mut l);
        assert!(l.iter().all(|k| *k == ProofKind::Fact), "{l:?}");
    }
    // The knowledge's own query is used when none is given.
    let mut req = ReasonRequest::new(FAMILY, "x");
    req.query = None;
    assert_eq!(answered(reasoner().reason(&req)).solution_count, 2);
}

#[test]
fn negation_and_comparison_are_proof_nodes() {
    let kb = "user(ann)\nuser(bob)\nactive(ann)\nlast_login(ann, 120)\nlast_login(bob, 10)\n\
              blocked($u) IF user($u) AND NOT active($u)\n\
              stale($u) IF last_login($u, $d) AND $d > 90\n\
              next($u, $n) IF last_login($u, $d) AND $n is $d + 1";
    let a = answered(reasoner().reason(&ReasonRequest::new(kb, "blocked($u)")));
    assert_eq!(a.solutions.len(), 1);
    let p = &a.solutions[0].proofs[0];
    assert_eq!(p.children[1].kind, ProofKind::Negation);
    assert_eq!(p.children[1].goal, "NOT active(bob)");
    // A NOT is shown as it was checked: over `_` where its variable had no value.
    let a = answered(reasoner().reason(&ReasonRequest::new(
        "p(a)\np(b)\nq(b)\nt IF NOT s($x) AND p($x)\nu IF p($x) AND NOT s($x)",
        "t",
    )));
    assert_eq!(
        a.solutions[0].proofs[0].children[0].goal, "NOT s(_)",
        "{a:?}"
    );
    assert!(
        a.warnings.iter().any(|w| w.contains("NOT s($x)")),
        "{:?}",
        a.warnings
    );
    let a = answered(reasoner().reason(&ReasonRequest::new(
        "p(a)\np(b)\nq(b)\nt IF NOT s($x) AND p($x)\nu IF p($x) AND NOT s($x)",
        "u",
    )));
    assert_eq!(
        a.solutions[0].proofs[0].children[1].goal, "NOT s(a)",
        "{a:?}"
    );
    let a = answered(reasoner().reason(&ReasonRequest::new(kb, "stale($u)")));
    assert_eq!(a.solutions[0].bindings["u"], "ann");
    let c = &a.solutions[0].proofs[0].children[1];
    assert_eq!(
        (c.kind, c.goal.as_str()),
        (ProofKind::Comparison, "120 > 90")
    );
    let a = answered(reasoner().reason(&ReasonRequest::new(kb, "next(bob, $n)")));
    assert_eq!(a.solutions[0].bindings["n"], 11);
    assert_eq!(a.solutions[0].proofs[0].children[1].goal, "11 is 10 + 1");
}

#[test]
fn yaml_gives_the_same_answers_as_text() {
    let yaml = "version: \"1.0\"\nfacts:\n  - parent(tom, bob)\n  - parent(bob, ann)\nrules:\n  - head: ancestor($x, $y)\n    body: [ parent($x, $y) ]\n  - head: ancestor($x, $y)\n    body:\n      - parent($x, $z)\n      - ancestor($z, $y)\nqueries:\n  - ? ancestor(tom, $who)\n";
    let t = answered(reasoner().reason(&ReasonRequest::new(FAMILY, "ancestor(tom, $who)")));
    let mut req = ReasonRequest::new(yaml, "");
    req.query = None;
    let y = answered(reasoner().reason(&req));
    assert_eq!(t.solutions.len(), y.solutions.len());
    for (a, b) in t.solutions.iter().zip(&y.solutions) {
        assert_eq!(a.bindings, b.bindings);
        assert_eq!(a.proofs[0].goal, b.proofs[0].goal);
    }
}

#[test]
fn every_unsupported_construct_is_named_with_line_and_column() {
    let cases = [
        ("p($x) IF q($x) ; r($x)", "disjunction"),
        ("p($x) IF q($x) OR r($x)", "disjunction"),
        ("p([a, b])", "lists"),
        ("p($x) IF q($x) AND !", "cut"),
        ("p($n) IF findall($x, q($x), $n)", "findall/bagof/setof"),
        ("p($x) IF q($x) AND assert(r($x))", "assert/retract"),
        ("p($x) IF lists:member($x)", "modules"),
        ("p($x) IF use_module(lib)", "modules"),
        ("p($x) IF call(q)", "meta-calls"),
    ];
    for (kb, construct) in cases {
        let f = failure(reasoner().reason(&ReasonRequest::new(kb, "p($x)")));
        assert_eq!(f.kind, FailureKind::Unsupported, "{kb}: {f:?}");
        assert_eq!(f.construct.as_deref(), Some(construct), "{kb}");
        assert_eq!(f.line, Some(1), "{kb}");
        assert!(f.column.is_some_and(|c| c > 1), "{kb}: {f:?}");
        assert!(
            f.message.contains(':'),
            "{kb}: a workaround follows: {}",
            f.message
        );
    }
    let f = failure(reasoner().reason(&ReasonRequest::new(
        "parent(tom, bob)\n\nparent(_bob, ann)",
        "parent($a, $b)",
    )));
    assert_eq!(
        (f.kind, f.line, f.column),
        (FailureKind::ParseError, Some(3), Some(8))
    );
    assert!(f.message.contains("bob"), "{}", f.message);
}

#[test]
fn left_recursion_reports_the_depth_limit_not_no_solutions() {
    let kb = "edge(a, b)\nedge(b, c)\npath($x, $y) IF path($x, $z) AND edge($z, $y)\npath($x, $y) IF edge($x, $y)";
    let a = answered(reasoner().reason(&ReasonRequest::new(kb, "path(a, $y)")));
    assert!(a.depth_exhausted, "{a:?}");
    assert!(!a.warnings.is_empty());
    let who: Vec<&str> = a
        .solutions
        .iter()
        .map(|s| s.bindings["y"].as_str().expect("test value"))
        .collect();
    assert_eq!(who, ["b", "c"]);
}

#[test]
fn two_runs_give_byte_identical_json_and_duplicates_merge() {
    let kb = "has_role(u1, admin)\ngrant(u1, delete)\nrole_perm(admin, delete)\n\
              can($u, $p) IF has_role($u, $r) AND role_perm($r, $p)\ncan($u, $p) IF grant($u, $p)";
    let fresh = Reasoner::new(charon::EngineConfig::default()).expect("reasoner");
    let one = serde_json::to_string(&reasoner().reason(&ReasonRequest::new(kb, "can($u, $p)")))
        .expect("test value");
    let two = serde_json::to_string(&fresh.reason(&ReasonRequest::new(kb, "can($u, $p)")))
        .expect("test value");
    assert_eq!(one, two);
    let a: serde_json::Value = charon::json::from_str(&one).expect("test value");
    assert_eq!(a["solution_count"], 1, "{a}");
    assert_eq!(a["solutions"][0]["proof_count"], 2);
}

#[test]
fn truncated_says_more_exist() {
    let kb = (1..=20).map(|i| format!("n({i})\n")).collect::<String>();
    let mut req = ReasonRequest::new(kb, "n($x)");
    req.max_solutions = Some(5);
    let a = answered(reasoner().reason(&req));
    assert_eq!(
        (a.solutions.len(), a.solution_count, a.truncated),
        (5, 20, true)
    );
    let xs: Vec<i64> = a
        .solutions
        .iter()
        .map(|s| s.bindings["x"].as_i64().expect("test value"))
        .collect();
    assert_eq!(xs, [1, 2, 3, 4, 5]);
}

#[test]
fn knowledge_cannot_reach_prolog_builtins() {
    // The names of built-ins people reach for are refused by name ...
    for name in [
        "halt", "shell", "write", "format", "open", "consult", "assertz", "call", "findall",
    ] {
        let kb = format!("p($x) IF q($x) AND {name}($x)");
        let f = failure(reasoner().reason(&ReasonRequest::new(kb.as_str(), "p($x)")));
        assert_eq!(f.kind, FailureKind::Unsupported, "{name}: {f:?}");
        let f = failure(reasoner().reason(&ReasonRequest::new("q(a)", format!("{name}(a)"))));
        assert_eq!(f.kind, FailureKind::Unsupported, "{name} in a query: {f:?}");
    }
    // ... and any other name is the knowledge's own predicate, never the built-in.
    let kb = "atom_length(abc, 99)
p($x) IF atom_length($x, 3)
q($x) IF number_codes($x, $y)
r IF garbage_collect";
    let a = answered(reasoner().reason(&ReasonRequest::new(kb, "atom_length(abc, $n)")));
    assert_eq!(a.solutions[0].bindings["n"], 99, "a fact, not the built-in");
    assert_eq!(
        answered(reasoner().reason(&ReasonRequest::new(kb, "p($x)"))).solution_count,
        0
    );
    let a = answered(reasoner().reason(&ReasonRequest::new(kb, "q(abc)")));
    assert_eq!(a.solution_count, 0, "number_codes/2 is undefined here");
    assert!(
        a.warnings.iter().any(|w| w.contains("number_codes/2")),
        "{:?}",
        a.warnings
    );
    assert_eq!(
        answered(reasoner().reason(&ReasonRequest::new(kb, "r"))).solution_count,
        0
    );
    // Quoted text is a constant, never a variable or code.
    for q in ["p('$x')", "p(\"halt\")", "p('x) :- halt. p(y')"] {
        let a = answered(reasoner().reason(&ReasonRequest::new(kb, q)));
        assert_eq!(a.solution_count, 0, "{q}");
    }
    // Operator tricks do not parse.
    for q in [
        "p($x) , halt",
        "p($x)). halt",
        "p(\\x)",
        "p(x) :- halt",
        "p($x) AND 0'a > 1",
        "p(0x10)",
        "p(1e9)",
        "p($x) AND $x = y",
        "{p(x)}",
        "p(x). halt",
        "p(@x)",
    ] {
        let r = reasoner().reason(&ReasonRequest::new(kb, q));
        assert!(!r.ok(), "{q}: {r:?}");
    }
    // The engine still answers.
    assert!(
        reasoner()
            .reason(&ReasonRequest::new(kb, "atom_length($a, $b)"))
            .ok()
    );
}

#[test]
fn limits_are_reported_as_limits() {
    let kb = "big($x) IF big($x)";
    let mut req = ReasonRequest::new(kb, "big(a)");
    req.max_depth = Some(60);
    let a = answered(reasoner().reason(&req));
    assert!(a.depth_exhausted && a.solution_count == 0);
    req.max_depth = Some(1000);
    assert_eq!(
        failure(reasoner().reason(&req)).kind,
        FailureKind::InvalidRequest
    );
    // A combinatorial search hits the inference limit.
    let mut kb = String::new();
    for i in 0..40 {
        kb.push_str(&format!("n({i})\n"));
    }
    kb.push_str("t($a, $b, $c, $d, $e) IF n($a) AND n($b) AND n($c) AND n($d) AND n($e) AND $a + $b + $c + $d + $e < 0");
    let config = charon::EngineConfig {
        limits: charon::Limits {
            inferences: 100_000,
            ..charon::Limits::default()
        },
        workers: 1,
        ..charon::EngineConfig::default()
    };
    let small = Reasoner::new(config).expect("reasoner");
    let f = failure(small.reason(&ReasonRequest::new(kb, "t($a, $b, $c, $d, $e)")));
    assert_eq!(f.kind, FailureKind::InferenceLimit, "{f:?}");
    let big = "p(a)\n".repeat(200_000);
    assert_eq!(
        failure(small.reason(&ReasonRequest::new(big, "p($x)"))).kind,
        FailureKind::TooLarge
    );
    let f = failure(small.reason(&ReasonRequest::new(
        "v(a)\nbad($x) IF v($x) AND $x > 3",
        "bad($x)",
    )));
    assert_eq!(f.kind, FailureKind::Arithmetic, "{f:?}");
    // A head variable compared before anything binds it: fine when the caller
    // gives it a value, an arithmetic failure (not a crash) when not.
    let kb = "v(5)\nbad($x) IF $x > 3 AND v($x)\nother(a)";
    let a = answered(small.reason(&ReasonRequest::new(kb, "bad(5)")));
    assert_eq!(a.solution_count, 1);
    assert!(
        a.warnings.iter().any(|w| w.contains("$x")),
        "{:?}",
        a.warnings
    );
    assert_eq!(
        answered(small.reason(&ReasonRequest::new(kb, "other($y)"))).solution_count,
        1
    );
    let f = failure(small.reason(&ReasonRequest::new(kb, "bad($x)")));
    assert_eq!(f.kind, FailureKind::Arithmetic, "{f:?}");
}

#[test]
fn hostile_shapes_are_refused_cleanly_and_the_engine_stays_up() {
    // Deep brackets, long operator chains, wide atoms: parse errors, not crashes.
    let deep = format!(
        "q(1)\np($y) IF q($x) AND $y is {}$x{}",
        "(".repeat(5000),
        ")".repeat(5000)
    );
    let long = format!(
        "q(1)\np($y) IF q($x) AND $y is $x{}",
        " + 1".repeat(100_000)
    );
    let wide = format!("p({})", vec!["a"; 1100].join(", "));
    let signs = format!("q(1)\np($y) IF q($x) AND $y is {}$x", "- ".repeat(5000));
    for kb in [&deep, &long, &wide, &signs] {
        let f = failure(reasoner().reason(&ReasonRequest::new(kb.as_str(), "p($y)")));
        assert_eq!(f.kind, FailureKind::ParseError, "{}", f.message);
        assert!(!reasoner().check_kb(kb).ok);
    }
    // Too many proofs: stopped and said, not gigabytes.
    let digits = (0..10).map(|i| format!("n({i})\n")).collect::<String>();
    let mut req = ReasonRequest::new(
        digits.as_str(),
        "n($a) AND n($b) AND n($c) AND n($d) AND n($e) AND n($f)",
    );
    req.max_solutions = Some(1);
    assert_eq!(
        failure(reasoner().reason(&req)).kind,
        FailureKind::TooManyAnswers
    );
    // Constants are not numbers, whatever the engine calls pi or e.
    let kb = "v(pi)\nv(e)\nv(3)\nbig($c) IF v($c) AND $c > 2";
    let f = failure(reasoner().reason(&ReasonRequest::new(kb, "big($c)")));
    assert_eq!(f.kind, FailureKind::Arithmetic, "{f:?}");
    // Numbers the engine would read differently are refused with a reason.
    for (kb, words) in [
        ("n(1e10)", "exponent"),
        ("n(0x1F)", "decimal"),
        ("n(0'a)", "decimal"),
        ("{\"facts\": []}", "JSON"),
    ] {
        let f = failure(reasoner().reason(&ReasonRequest::new(kb, "n($x)")));
        assert!(f.message.contains(words), "{kb}: {}", f.message);
    }
    let huge = format!("n({}.5)", "9".repeat(400));
    assert_eq!(
        failure(reasoner().reason(&ReasonRequest::new(huge, "n($x)"))).kind,
        FailureKind::ParseError
    );
    // A typo or a wrong arity in the query is answered, with a warning that says so.
    let a = answered(reasoner().reason(&ReasonRequest::new(FAMILY, "parnet(tom, $x)")));
    assert!(
        a.warnings.iter().any(|w| w.contains("parnet/2")),
        "{:?}",
        a.warnings
    );
    let a = answered(reasoner().reason(&ReasonRequest::new(FAMILY, "parent($x)")));
    assert!(
        a.warnings.iter().any(|w| w.contains("with 2")),
        "{:?}",
        a.warnings
    );
    // YAML: items of a block list stay items; a second document is refused.
    let yaml = "facts:\n  - p(a)#(\n  - q(b)\n  - q(c)\n";
    assert_eq!(
        answered(reasoner().reason(&ReasonRequest::new(yaml, "q($x)"))).solution_count,
        2
    );
    assert!(
        !reasoner()
            .check_kb("facts:\n  - p(a)\n---\nfacts:\n  - q(b)\n")
            .ok
    );
    // Integers sort exactly, beyond what a float can tell apart.
    let kb = "n(-9007199254740993)\nn(-9007199254740992)\nn(100000000000000000000000000000001)\nn(100000000000000000000000000000000)";
    let a = answered(reasoner().reason(&ReasonRequest::new(kb, "n($x)")));
    let xs: Vec<String> = a
        .solutions
        .iter()
        .map(|s| crate::util::exact(&s.bindings["x"]))
        .collect();
    assert_eq!(
        xs,
        [
            "-9007199254740993",
            "-9007199254740992",
            "100000000000000000000000000000000",
            "100000000000000000000000000000001"
        ]
    );
    assert!(
        reasoner()
            .reason(&ReasonRequest::new(FAMILY, "ancestor(tom, $who)"))
            .ok()
    );
}

#[test]
fn check_kb_finds_the_classic_mistakes() {
    let kb = "parent(tom, bob)\nparent(tom, bob)\nparent(tom, bob, x)\n\
              p($x) IF q($x) AND NOT p($x)\nq($x) IF parent($x, $y) AND $z > 1\n\
              r($x, $w) IF ghost($x)\n? missing(tom)";
    let c: CheckResult = reasoner().check_kb(kb);
    assert!(c.ok && !c.valid, "{c:?}");
    let kinds: Vec<&str> = c.issues.iter().map(|i| i.kind.as_str()).collect();
    for k in [
        "duplicate_fact",
        "arity_mismatch",
        "negation_cycle",
        "unbound_in_comparison",
        "undefined_predicate",
        "unsafe_variable",
        "singleton_variable",
    ] {
        assert!(kinds.contains(&k), "{k} missing from {kinds:?}");
    }
    assert_eq!(c.facts, 3);
    let bad = reasoner().check_kb("p(x) IF q(x) ; r(x)");
    assert!(!bad.ok && bad.error.is_some());
    let ok = reasoner().check_kb(FAMILY);
    assert!(ok.ok && ok.valid && ok.issues.is_empty(), "{ok:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn async_calls_agree_with_blocking_ones() {
    let r = Arc::new(Reasoner::new(charon::EngineConfig::default()).expect("reasoner"));
    let req = ReasonRequest::new(FAMILY, "ancestor($a, $b)");
    let blocking = serde_json::to_string(&r.reason(&req)).expect("test value");
    let mut tasks = Vec::new();
    for _ in 0..8 {
        let r = Arc::clone(&r);
        let req = req.clone();
        tasks.push(tokio::spawn(async move {
            serde_json::to_string(&r.reason_async(&req, std::time::Instant::now()).await)
                .expect("test value")
        }));
    }
    for t in tasks {
        assert_eq!(t.await.expect("test value"), blocking);
    }
}

// --- The surfaces: HTTP (router and binary), MCP over stdio, the command line ---

/// `charon http --reasoning` (no knowledge base) on a free port; killed on drop.
pub(crate) struct ReasoningServer(std::process::Child, pub(crate) u16);

impl ReasoningServer {
    pub(crate) fn start(args: &[&str]) -> ReasoningServer {
        let port = free_port();
        let child = std::process::Command::new(charon_bin())
            .args([
                "http",
                "--reasoning",
                "--port",
                &port.to_string(),
                "--log",
                "warn",
            ])
            .args(args)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("charon http --reasoning starts");
        let server = ReasoningServer(child, port);
        for _ in 0..600 {
            if http(port, "GET", "/health", None).is_some_and(|(s, _)| s == 200) {
                return server;
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        panic!("charon http --reasoning did not come up");
    }

    pub(crate) fn post(&self, path: &str, body: &serde_json::Value) -> (u16, serde_json::Value) {
        let (status, text) = http(self.1, "POST", path, Some(&body.to_string())).expect("answer");
        (status, charon::json::from_str(&text).expect("JSON body"))
    }
}

impl Drop for ReasoningServer {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Checks `body` against the 200 schema of `POST path` in the served document.
pub(crate) fn valid_against_document(
    doc: &serde_json::Value,
    path: &str,
    body: &serde_json::Value,
) {
    let mut schema = doc["paths"][path]["post"]["responses"]["200"]["content"]["application/json"]
        ["schema"]
        .clone();
    assert!(schema.is_object(), "no 200 schema for {path}");
    // The proof node lives in the document's components; resolve it from there.
    schema["components"] = doc["components"].clone();
    let validator = jsonschema::draft202012::new(&schema).expect("valid schema");
    let errors: Vec<String> = validator.iter_errors(body).map(|e| e.to_string()).collect();
    assert!(errors.is_empty(), "{path} answered {body}: {errors:?}");
}

#[test]
fn rest_reason_and_check_kb_are_in_the_openapi_document() {
    let server = ReasoningServer::start(&[]);
    let (status, text) = http(server.1, "GET", "/openapi.json", None).expect("document");
    assert_eq!(status, 200);
    let doc: serde_json::Value = charon::json::from_str(&text).expect("json");
    assert!(doc["paths"]["/reason"]["post"].is_object());
    assert!(doc["paths"]["/check-kb"]["post"].is_object());
    let (status, a) = server.post(
        "/reason",
        &serde_json::json!({"knowledge": FAMILY, "query": "ancestor(tom, $who)"}),
    );
    assert_eq!(status, 200);
    assert_eq!(a["solution_count"], 2);
    valid_against_document(&doc, "/reason", &a);
    // Failures are results too, and valid ones.
    for body in [
        serde_json::json!({"knowledge": "p(x) IF q(x) ; r(x)", "query": "p(x)"}),
        serde_json::json!({"knowledge": FAMILY, "query": "ancestor(tom, _who)"}),
        serde_json::json!({"knowledge": FAMILY, "query": "ancestor(tom, $who)", "max_depth": 1000}),
    ] {
        let (status, f) = server.post("/reason", &body);
        assert_eq!(status, 200, "{f}");
        assert_eq!(f["ok"], false, "{f}");
        assert!(
            f["error"]["message"].as_str().is_some_and(|m| m.len() > 20),
            "{f}"
        );
        valid_against_document(&doc, "/reason", &f);
    }
    let (status, c) = server.post(
        "/check-kb",
        &serde_json::json!({"knowledge": "p(a)\np(a)\nq($x) IF r($x)"}),
    );
    assert_eq!(status, 200);
    assert_eq!(c["valid"], true, "{c}");
    assert_eq!(c["issues"].as_array().map(Vec::len), Some(2), "{c}");
    valid_against_document(&doc, "/check-kb", &c);
    // What is wrong with the request itself is a problem, as for operations.
    let (status, text) =
        http(server.1, "POST", "/reason", Some("{\"knowledge\": 3}")).expect("answer");
    assert_eq!(status, 400, "{text}");
    // An integer past 64 bits is no text either, nor any other input (found by
    // schemathesis: it passed for the knowledge text).
    for body in [
        r#"{"knowledge": -281193589459940506443613995008}"#,
        r#"{"knowledge": "p(a)", "query": "p($x)", "max_depth": 281193589459940506443613995008}"#,
    ] {
        let (status, text) = http(server.1, "POST", "/reason", Some(body)).expect("answer");
        assert_eq!(status, 400, "{body}: {text}");
        assert!(text.contains("281193589459940506443613995008"), "{text}");
    }
    let (status, _) = http(
        server.1,
        "POST",
        "/reason",
        Some("{\"knowledge\": \"p(a)\", \"bogus\": 1}"),
    )
    .expect("answer");
    assert_eq!(status, 400);
    // The input is an object: an array of the fields in order is refused too.
    for (path, body) in [
        ("/check-kb", r#"["p(a)"]"#),
        ("/reason", r#"["p(a)", "p($x)"]"#),
    ] {
        let (status, text) = http(server.1, "POST", path, Some(body)).expect("answer");
        assert_eq!(status, 400, "{path}: {text}");
        assert!(text.contains("JSON object"), "{text}");
    }
    let (status, _) = http(server.1, "GET", "/reason", None).expect("answer");
    assert_eq!(status, 405);
}

#[test]
fn rest_serves_a_knowledge_base_and_the_reasoning_tools_together() {
    let kb = root().join("examples/rbac.pl");
    let server = crate::util::HttpServer::start(&kb, &["--reasoning"]);
    let port = server.port;
    let doc = http(port, "GET", "/openapi.json", None).map(|(_, t)| t);
    let reason = http(
        port,
        "POST",
        "/reason",
        Some(&serde_json::json!({"knowledge": "p(a)", "query": "p($x)"}).to_string()),
    );
    drop(server);
    let doc: serde_json::Value = charon::json::from_str(&doc.expect("doc")).expect("json");
    let paths = doc["paths"].as_object().expect("paths");
    assert!(
        paths.contains_key("/reason") && paths.contains_key("/get_user_has_permission"),
        "{:?}",
        paths.keys()
    );
    let (status, body) = reason.expect("answer");
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("\"solution_count\":1"), "{body}");
}

#[test]
fn mcp_over_stdio_lists_and_runs_the_reasoning_tools() {
    let mut s = StdioSession::start(&["mcp", "--reasoning", "--stdio"]);
    s.send(&serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}));
    let tools = s.answer(1);
    let names: Vec<&str> = tools["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .filter_map(|t| t["name"].as_str())
        .collect();
    assert_eq!(names, ["reason", "diagnose", "what_if", "check_kb"]);
    s.call(
        2,
        "reason",
        serde_json::json!({"knowledge": FAMILY, "query": "ancestor(tom, $who)"}),
    );
    let r = s.answer(2);
    assert_eq!(r["isError"], false, "{r}");
    assert_eq!(r["structuredContent"]["solution_count"], 2, "{r}");
    s.call(
        3,
        "reason",
        serde_json::json!({"knowledge": "p([a])", "query": "p($x)"}),
    );
    let r = s.answer(3);
    assert_eq!(r["isError"], true, "{r}");
    assert_eq!(r["structuredContent"]["error"]["construct"], "lists", "{r}");
    s.call(
        4,
        "check_kb",
        serde_json::json!({"knowledge": "p($x) IF NOT p($x)"}),
    );
    let r = s.answer(4);
    assert_eq!(r["structuredContent"]["valid"], false, "{r}");
    s.call(5, "reason", serde_json::json!({"knowledge": 3}));
    let r = s.answer(5);
    assert_eq!(r["isError"], true, "{r}");
}

#[test]
fn the_command_line_draws_proofs_and_says_what_is_wrong() {
    let dir = std::env::temp_dir().join(format!("charon-reason-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let file = dir.join("family.euclid");
    std::fs::write(&file, FAMILY).expect("write");
    let path = file.to_string_lossy().to_string();
    let (code, out, _) = run_charon(&["reason", &path]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("(2 solutions)"), "{out}");
    assert!(
        out.contains("└─ ancestor(tom, ann)   [rule, line 6]"),
        "{out}"
    );
    assert!(
        out.contains("├─ parent(tom, bob)   [fact, line 2]"),
        "{out}"
    );
    // A rule's id, when the knowledge gives one, is in the tree too.
    let named = dir.join("named.euclid");
    std::fs::write(
        &named,
        "parent(tom, bob)\nancestor($x, $y) IF parent($x, $y)   # rule: ANC-1\n",
    )
    .expect("write");
    let (code, out, _) = run_charon(&["reason", &named.to_string_lossy(), "ancestor(tom, $who)"]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("└─ ancestor(tom, bob)   [rule ANC-1, line 2]"),
        "{out}"
    );
    let (code, out, _) = run_charon(&["reason", &path, "ancestor($a, ann)", "--json"]);
    assert_eq!(code, 0);
    let json: serde_json::Value = charon::json::from_str(&out).expect("json");
    assert_eq!(json["solution_count"], 2);
    let (code, out, err) = run_charon(&["reason", &path, "ancestor(tom, _who)"]);
    assert_eq!(code, 1);
    assert!(out.is_empty() && err.contains("line 1, column 15"), "{err}");
    std::fs::write(&file, "p(a)\nq($x) IF p($x) AND $y > 2").expect("write");
    let (code, out, _) = run_charon(&["check-kb", &path]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains(":2:") && out.contains("unbound_in_comparison"),
        "{out}"
    );
    let (_, version, _) = run_charon(&["--version"]);
    assert!(version.contains(charon::ENGINE_VERSION), "{version}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_engine_version_named_is_the_one_built_in() {
    let manifest = std::fs::read_to_string(root().join("Cargo.toml")).expect("Cargo.toml");
    let line = manifest
        .lines()
        .find(|l| l.starts_with("scryer-prolog"))
        .expect("the engine in [workspace.dependencies]");
    let field = |name: &str| {
        line.split(&format!("{name} = \""))
            .nth(1)
            .and_then(|v| v.split('"').next())
    };
    let package = field("package").expect("the engine's package name");
    let pinned = field("version")
        .and_then(|v| v.strip_prefix('='))
        .expect("the engine pinned with =");
    assert_eq!(charon::ENGINE_VERSION, format!("{package} {pinned}"));
    let engine = std::fs::read_to_string(root().join("vendor/scryer-prolog/Cargo.toml"))
        .expect("the engine's Cargo.toml");
    assert!(
        engine.contains(&format!("name = \"{package}\"\nversion = \"{pinned}\"")),
        "vendor/scryer-prolog is not {package} {pinned}"
    );
    assert!(charon::VERSION.contains(charon::ENGINE_VERSION));
}

// --- The examples: IT security (small and large), RBAC-1000, the evaluation set ---

#[test]
fn it_security_questions_get_their_expected_answers() {
    let dir = root().join("examples/reasoning/it-security");
    let questions: serde_json::Value = charon::json::from_str(
        &std::fs::read_to_string(dir.join("questions.json")).expect("questions.json"),
    )
    .expect("json");
    let mut asked = 0;
    for variant in questions["variants"].as_array().expect("variants") {
        let file = variant["file"].as_str().expect("file");
        let knowledge = std::fs::read_to_string(dir.join(file)).expect("knowledge");
        assert!(reasoner().check_kb(&knowledge).valid, "{file}");
        for q in variant["questions"].as_array().expect("questions") {
            let mut req =
                ReasonRequest::new(knowledge.as_str(), q["query"].as_str().expect("query"));
            req.max_solutions = Some(1000);
            let a = answered(reasoner().reason(&req));
            assert!(!a.depth_exhausted && !a.truncated, "{}", q["id"]);
            let got: Vec<serde_json::Value> = a
                .solutions
                .iter()
                .map(|s| serde_json::Value::Object(s.bindings.clone()))
                .collect();
            assert_eq!(
                serde_json::Value::Array(got),
                q["expected"],
                "{} ({file})",
                q["id"]
            );
            asked += 1;
        }
    }
    assert!(asked >= 16, "{asked}");
}

#[test]
fn the_evaluation_answers_are_what_reason_says() {
    let dir = root().join("examples/reasoning/evals");
    let checks: serde_json::Value = charon::json::from_str(
        &std::fs::read_to_string(dir.join("evaluation.check.json")).expect("check file"),
    )
    .expect("json");
    let xml = std::fs::read_to_string(dir.join("evaluation.xml")).expect("xml");
    let answers: Vec<&str> = xml
        .split("<answer>")
        .skip(1)
        .filter_map(|s| s.split("</answer>").next())
        .collect();
    let checks = checks.as_array().expect("array");
    assert_eq!((checks.len(), answers.len()), (10, 10));
    for (check, xml_answer) in checks.iter().zip(answers) {
        let knowledge = check["knowledge"].as_str().expect("knowledge");
        let a = answered(reasoner().reason(&ReasonRequest::new(
            knowledge,
            check["query"].as_str().expect("query"),
        )));
        let derive = check["derive"].as_str().expect("derive");
        let got = match derive {
            "count" => a.solution_count.to_string(),
            "holds" => if a.solution_count > 0 { "yes" } else { "no" }.to_string(),
            d => {
                let var = d.strip_prefix("binding:").expect("binding:VAR");
                let mut values: Vec<String> = a
                    .solutions
                    .iter()
                    .map(|s| match &s.bindings[var] {
                        serde_json::Value::String(t) => t.clone(),
                        other => other.to_string(),
                    })
                    .collect();
                values.sort();
                values.join(", ")
            }
        };
        assert_eq!(
            got,
            check["answer"].as_str().expect("answer"),
            "{}",
            check["query"]
        );
        assert_eq!(xml_answer, got, "the XML answer for {}", check["query"]);
    }
}

#[test]
fn rbac_1000_counts_are_exact() {
    let out = std::env::temp_dir().join(format!("charon-rbac-reason-{}", std::process::id()));
    let status = std::process::Command::new("python3")
        .arg(root().join("bench/reason/gen_rbac.py"))
        .arg("--out")
        .arg(&out)
        .stdout(std::process::Stdio::null())
        .status()
        .expect("python3 runs the generator");
    assert!(status.success());
    let knowledge = std::fs::read_to_string(out.join("rbac_1000.euclid")).expect("knowledge");
    let expected: serde_json::Value = charon::json::from_str(
        &std::fs::read_to_string(out.join("expected.json")).expect("expected"),
    )
    .expect("json");
    let by_perm = expected["users_by_permission"]
        .as_object()
        .expect("users_by_permission");
    assert_eq!(by_perm.len(), 16);
    for (perm, users) in by_perm {
        let mut req = ReasonRequest::new(
            knowledge.as_str(),
            format!("user_has_permission($u, {perm})"),
        );
        req.max_solutions = Some(1000);
        req.max_proofs = Some(1);
        let a = answered(reasoner().reason(&req));
        let got: Vec<&str> = a
            .solutions
            .iter()
            .filter_map(|s| s.bindings["u"].as_str())
            .collect();
        let want: Vec<&str> = users
            .as_array()
            .expect("users")
            .iter()
            .filter_map(|u| u.as_str())
            .collect();
        assert_eq!(got, want, "{perm}");
    }
    assert_eq!(by_perm["delete_repo"].as_array().map(Vec::len), Some(31));
    let a = answered(reasoner().reason(&ReasonRequest::new(
        knowledge.as_str(),
        "user_has_permission(user_0042, deploy)",
    )));
    assert_eq!(a.solution_count, 0);
    let a = answered(reasoner().reason(&ReasonRequest::new(
        knowledge.as_str(),
        "user_has_permission(user_0015, delete_repo)",
    )));
    assert_eq!(
        (a.solution_count, a.solutions[0].proof_count),
        (1, 2),
        "admin role and direct grant"
    );
    let _ = std::fs::remove_dir_all(&out);
}
