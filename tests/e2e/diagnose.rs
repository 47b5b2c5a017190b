//! The reasoning toolkit, part 2: diagnose (why, why_not, what_needs), what_if, and
//! explain for a `.pl` knowledge base's operations, through the Rust API, REST (the
//! binary, answers checked against its OpenAPI document) and MCP over stdio.

use std::sync::OnceLock;

use charon::reason::{
    DiagnoseMode, DiagnoseRequest, DiagnoseResult, Diagnosis, FailReason, FailedGoal, ProofKind,
    ProofNode, ReasonRequest, ReasonResult, Reasoner, WhatIfRequest, WhatIfResult,
};

use crate::reason::{ReasoningServer, valid_against_document};
use crate::util::{StdioSession, root};

fn reasoner() -> &'static Reasoner {
    static R: OnceLock<Reasoner> = OnceLock::new();
    R.get_or_init(|| Reasoner::new(charon::EngineConfig::default()).expect("reasoner"))
}

/// Deploy rights through two rule levels, a negation and a comparison.
const ACCESS: &str = "\
engineer(alice)
engineer(bob)
engineer(dave)
background_check(alice, passed)
background_check(bob, pending)
background_check(dave, passed)
suspended(alice)
tenure(dave, 2)
can_deploy($u) IF engineer($u) AND cleared($u)
cleared($u) IF background_check($u, passed) AND NOT suspended($u) AND senior($u)
senior($u) IF tenure($u, $y) AND $y >= 3
";

fn diagnose(knowledge: &str, query: &str, mode: DiagnoseMode) -> Diagnosis {
    match reasoner().diagnose(&DiagnoseRequest::new(knowledge, query, mode)) {
        DiagnoseResult::Diagnosed(d) => *d,
        DiagnoseResult::Failed(f) => panic!("{query}: {:?}", f.error),
    }
}

/// The trace node of the goal that failed at `path` (attempt index, because index).
fn follow<'a>(node: &'a FailedGoal, path: &[(usize, usize)]) -> &'a FailedGoal {
    let mut node = node;
    for &(a, b) in path {
        node = &node.attempts[a].because[b];
    }
    node
}

fn holds(knowledge: &str, query: &str) -> usize {
    match reasoner().reason(&ReasonRequest::new(knowledge, query)) {
        ReasonResult::Answered(a) => a.solution_count,
        ReasonResult::Failed(f) => panic!("{query}: {:?}", f.error),
    }
}

#[test]
fn why_not_names_the_failing_premise_two_rule_levels_down() {
    let d = diagnose(ACCESS, "can_deploy(bob)", DiagnoseMode::WhyNot);
    assert!(!d.holds && d.complete, "{d:?}");
    let trace = d.trace.as_ref().expect("trace");
    assert_eq!(trace.goal, "can_deploy(bob)");
    assert_eq!(trace.reason, FailReason::RulesFailed);
    // Level 1: can_deploy's rule got past engineer(bob) and failed at cleared(bob).
    let first = &trace.attempts[0];
    assert_eq!((first.line, first.failed_at), (9, 2), "{first:?}");
    assert_eq!(first.failed_goal, "cleared(bob)");
    assert_eq!(first.bindings["u"], "bob");
    // Level 2: cleared's rule failed at its first goal, with bob's value.
    let cleared = follow(trace, &[(0, 0)]);
    assert_eq!(cleared.goal, "cleared(bob)");
    let second = &cleared.attempts[0];
    assert_eq!((second.line, second.failed_at), (10, 1), "{second:?}");
    let premise = follow(trace, &[(0, 0), (0, 0)]);
    assert_eq!(premise.goal, "background_check(bob, passed)");
    assert_eq!(premise.reason, FailReason::NoMatchingFact);
    assert_eq!(premise.closest, ["background_check(bob, pending) (line 5)"]);
    assert_eq!(
        d.findings,
        ["no fact matches background_check(bob, passed) (3 fact(s) of background_check/2 exist)"]
    );
    assert!(
        d.conclusion.contains("background_check(bob, passed)"),
        "{}",
        d.conclusion
    );

    // A NOT that failed shows the proof of what it negated.
    let d = diagnose(ACCESS, "can_deploy(alice)", DiagnoseMode::WhyNot);
    let negation = follow(d.trace.as_ref().expect("trace"), &[(0, 0), (0, 0)]);
    assert_eq!(
        negation.reason,
        FailReason::NegatedGoalHolds,
        "{negation:?}"
    );
    assert_eq!(negation.goal, "NOT suspended(alice)");
    let proof = negation.proof.as_ref().expect("proof of suspended(alice)");
    assert_eq!(
        (proof.kind, proof.goal.as_str()),
        (ProofKind::Fact, "suspended(alice)")
    );

    // Three levels: a comparison with the value that reached it.
    let d = diagnose(ACCESS, "can_deploy(dave)", DiagnoseMode::WhyNot);
    let comparison = follow(d.trace.as_ref().expect("trace"), &[(0, 0), (0, 0), (0, 0)]);
    assert_eq!(comparison.reason, FailReason::ComparisonFalse, "{d:?}");
    assert_eq!(comparison.goal, "2 >= 3");
}

#[test]
fn why_not_on_an_undefined_predicate_says_so() {
    let d = diagnose("human(socrates)", "mortal(plato)", DiagnoseMode::WhyNot);
    let trace = d.trace.expect("trace");
    assert_eq!(trace.reason, FailReason::Undefined);
    assert!(trace.message.contains("`mortal/1`"), "{}", trace.message);
    // Deeper down too, and an arity slip is named as one.
    let d = diagnose(
        "human(socrates)\nmortal($x) IF human($x) AND alive($x)",
        "mortal(socrates)",
        DiagnoseMode::WhyNot,
    );
    let below = follow(d.trace.as_ref().expect("trace"), &[(0, 0)]);
    assert_eq!(
        (below.goal.as_str(), below.reason),
        ("alive(socrates)", FailReason::Undefined)
    );
    let d = diagnose(
        "human(socrates)",
        "human(socrates, greek)",
        DiagnoseMode::WhyNot,
    );
    assert!(
        d.trace
            .expect("trace")
            .message
            .contains("defined with 1 argument"),
        "the arity mismatch is named"
    );
}

#[test]
fn why_returns_the_proofs_and_a_failing_goal_gets_its_trace() {
    let d = diagnose(
        ACCESS,
        "engineer($u) AND background_check($u, passed)",
        DiagnoseMode::Why,
    );
    assert!(d.holds);
    assert_eq!(d.solutions.len(), 2);
    let proof = &d.solutions[0].proofs[0];
    assert_eq!(proof.kind, ProofKind::Query);
    assert!(proof.children.iter().all(|c| c.kind == ProofKind::Fact));
    let d = diagnose(ACCESS, "can_deploy(bob)", DiagnoseMode::Why);
    assert!(!d.holds && d.solutions.is_empty());
    assert!(
        d.trace.is_some(),
        "why on a goal that fails explains the failure"
    );
}

#[test]
fn what_needs_proposes_minimal_facts_that_make_the_goal_hold() {
    let d = diagnose(
        "human(socrates)\nmortal($x) IF human($x)",
        "mortal(plato)",
        DiagnoseMode::WhatNeeds,
    );
    let proposals = d.proposals.expect("proposals");
    assert_eq!(proposals[0].facts, ["human(plato)"]);

    // Over two rule levels, a NOT and a comparison: carol is unknown.
    let d = diagnose(ACCESS, "can_deploy(carol)", DiagnoseMode::WhatNeeds);
    let proposals = d.proposals.clone().expect("proposals");
    assert!(!proposals.is_empty(), "{d:?}");
    for p in &proposals {
        // Re-run the query with the proposal added: it holds.
        let added = format!("{ACCESS}{}\n", p.facts.join("\n"));
        assert!(
            holds(&added, "can_deploy(carol)") > 0,
            "{:?} does not make it hold",
            p.facts
        );
        // Minimal: without any one of the facts it does not.
        assert!(p.minimal);
        for i in 0..p.facts.len() {
            let fewer: Vec<&str> = p
                .facts
                .iter()
                .enumerate()
                .filter(|(j, _)| *j != i)
                .map(|(_, f)| f.as_str())
                .collect();
            let knowledge = format!("{ACCESS}{}\n", fewer.join("\n"));
            assert_eq!(
                holds(&knowledge, "can_deploy(carol)"),
                0,
                "{fewer:?} is enough"
            );
        }
    }
    // One missing fact per premise, the tenure chosen to pass the comparison.
    assert_eq!(
        proposals[0].facts,
        [
            "background_check(carol, passed)",
            "engineer(carol)",
            "tenure(carol, 3)"
        ]
    );
    // alice is suspended: no set of added facts can undo a NOT that fails.
    let d = diagnose(ACCESS, "can_deploy(alice)", DiagnoseMode::WhatNeeds);
    for p in d.proposals.expect("proposals") {
        let added = format!("{ACCESS}{}\n", p.facts.join("\n"));
        assert!(holds(&added, "can_deploy(alice)") > 0, "{:?}", p.facts);
    }
    // A goal that holds needs nothing.
    let d = diagnose(ACCESS, "engineer(bob)", DiagnoseMode::WhatNeeds);
    assert!(d.holds && d.proposals.expect("proposals").is_empty());
}

const RBAC: &str = "\
has_role(ann, dev)
has_role(bob, intern)
has_role(cat, dev)
role_permission(dev, deploy)
role_permission(senior_dev, deploy)
role_permission(intern, read)
user_has_permission($u, $p) IF has_role($u, $r) AND role_permission($r, $p)
";

fn binding(user: &str) -> serde_json::Map<String, serde_json::Value> {
    let mut m = serde_json::Map::new();
    m.insert("u".into(), user.into());
    m
}

fn what_if(modifications: &str, query: &str) -> WhatIfResult {
    reasoner().what_if(&WhatIfRequest::new(RBAC, modifications, query))
}

#[test]
fn what_if_reports_exact_counts_and_what_appeared_and_disappeared() {
    let WhatIfResult::Compared(w) = what_if(
        "# promote bob, and ann leaves\n- has_role(bob, intern)\n+ has_role(bob, senior_dev)\n- has_role(ann, dev)\n",
        "user_has_permission($u, deploy)",
    ) else {
        panic!("not compared")
    };
    assert_eq!((w.before_count, w.after_count, w.delta), (2, 2, 0));
    assert_eq!(w.appeared, [binding("bob")]);
    assert_eq!(w.disappeared, [binding("ann")]);
    assert_eq!(w.unchanged, 1);
    assert_eq!(w.applied.len(), 3);
    // The added fact's proof node has no line: it is not in the knowledge.
    let bob = &w
        .after
        .solutions
        .iter()
        .find(|s| s.bindings["u"] == "bob")
        .expect("bob")
        .proofs[0];
    let added: &ProofNode = &bob.children[0];
    assert_eq!(
        (added.goal.as_str(), added.line),
        ("has_role(bob, senior_dev)", None)
    );
    // The counts agree with reason on the changed knowledge.
    let changed = RBAC
        .replace("has_role(bob, intern)\n", "has_role(bob, senior_dev)\n")
        .replace("has_role(ann, dev)\n", "");
    assert_eq!(
        holds(&changed, "user_has_permission($u, deploy)"),
        w.after_count
    );
}

#[test]
fn removing_a_fact_that_is_not_there_is_an_error() {
    let WhatIfResult::Failed(f) = what_if(
        "+ has_role(dan, dev)\n- has_role(bob, senior_dev)",
        "user_has_permission($u, deploy)",
    ) else {
        panic!("a missing fact was removed silently")
    };
    assert_eq!(f.error.line, Some(2));
    assert!(
        f.error.message.contains("matches no fact"),
        "{}",
        f.error.message
    );
    for bad in [
        "has_role(dan, dev)",
        "+ r($x) IF s($x)",
        "+ has_role($u, dev)",
        "",
    ] {
        let r = what_if(bad, "user_has_permission($u, deploy)");
        assert!(!r.ok(), "{bad:?} was accepted");
    }
}

#[test]
fn rest_diagnose_and_what_if_are_in_the_openapi_document() {
    let server = ReasoningServer::start(&[]);
    let (_, text) = crate::util::http(server.1, "GET", "/openapi.json", None).expect("doc");
    let doc: serde_json::Value = charon::json::from_str(&text).expect("json");
    for body in [
        serde_json::json!({"knowledge": ACCESS, "query": "can_deploy(bob)", "mode": "why_not"}),
        serde_json::json!({"knowledge": ACCESS, "query": "can_deploy(carol)", "mode": "what_needs"}),
        serde_json::json!({"knowledge": ACCESS, "query": "engineer($u)", "mode": "why"}),
        serde_json::json!({"knowledge": ACCESS, "query": "can_deploy(", "mode": "why"}),
    ] {
        let (status, d) = server.post("/diagnose", &body);
        assert_eq!(status, 200, "{d}");
        valid_against_document(&doc, "/diagnose", &d);
    }
    let (_, d) = server.post(
        "/diagnose",
        &serde_json::json!({"knowledge": ACCESS, "query": "can_deploy(bob)", "mode": "why_not"}),
    );
    assert_eq!(
        d["trace"]["attempts"][0]["because"][0]["attempts"][0]["because"][0]["reason"],
        "no_matching_fact"
    );
    let (status, w) = server.post(
        "/what-if",
        &serde_json::json!({"base_knowledge": RBAC, "modifications": "+ has_role(dan, dev)", "query": "user_has_permission($u, deploy)"}),
    );
    assert_eq!(status, 200);
    assert_eq!(
        (w["before_count"].as_u64(), w["after_count"].as_u64()),
        (Some(2), Some(3))
    );
    valid_against_document(&doc, "/what-if", &w);
    let (status, w) = server.post(
        "/what-if",
        &serde_json::json!({"base_knowledge": RBAC, "modifications": "- has_role(dan, dev)", "query": "user_has_permission($u, deploy)"}),
    );
    assert_eq!((status, &w["ok"]), (200, &serde_json::json!(false)), "{w}");
    valid_against_document(&doc, "/what-if", &w);
    let (status, _) = server.post(
        "/diagnose",
        &serde_json::json!({"knowledge": ACCESS, "mode": "maybe"}),
    );
    assert_eq!(status, 400);
}

#[test]
fn mcp_over_stdio_runs_diagnose_and_what_if() {
    let mut s = StdioSession::start(&["mcp", "--reasoning", "--stdio"]);
    s.call(
        1,
        "diagnose",
        serde_json::json!({"knowledge": ACCESS, "query": "can_deploy(bob)", "mode": "why_not"}),
    );
    let r = s.answer(1);
    assert_eq!(r["isError"], false, "{r}");
    assert_eq!(r["structuredContent"]["holds"], false);
    s.call(
        2,
        "what_if",
        serde_json::json!({"base_knowledge": RBAC, "modifications": "- has_role(zed, dev)", "query": "user_has_permission($u, deploy)"}),
    );
    let r = s.answer(2);
    assert_eq!(r["isError"], true, "{r}");
    assert_eq!(r["structuredContent"]["error"]["line"], 1, "{r}");
}

fn leaves_are_facts(node: &ProofNode) -> bool {
    if node.children.is_empty() {
        return matches!(node.kind, ProofKind::Fact | ProofKind::Builtin);
    }
    node.kind == ProofKind::Rule && node.children.iter().all(leaves_are_facts)
}

#[test]
fn explain_returns_a_proof_tree_for_a_call_on_rbac() {
    let kb = charon::KnowledgeBase::load(root().join("examples/rbac.pl")).expect("rbac.pl");
    let args = serde_json::json!({"User": "user_0006", "Perm": "merge"});
    let id = kb.resolve("get_user_has_permission").expect("op");
    let e = kb.explain(id, &args).expect("explained");
    // The answer is the plain call's.
    assert_eq!(
        e.result,
        kb.call("get_user_has_permission", &args).expect("call")
    );
    assert_eq!(e.proofs.len(), 1);
    let proof = &e.proofs[0];
    assert_eq!(proof.goal, "get_user_has_permission(user_0006,merge)");
    assert!(leaves_are_facts(proof), "{proof:?}");
    // A nondet operation: one proof per solution, in the answer's order.
    let args = serde_json::json!({"User": "user_0006"});
    let e = kb
        .explain(kb.resolve("get_user_roles").expect("op"), &args)
        .expect("explained");
    let plain = kb.call("get_user_roles", &args).expect("call");
    assert_eq!(e.result, plain);
    assert_eq!(e.proofs.len(), plain.as_array().expect("list").len());
    for (proof, role) in e.proofs.iter().zip(plain.as_array().expect("list")) {
        assert_eq!(
            proof.goal,
            format!("get_user_roles(user_0006,{})", role.as_str().expect("atom"))
        );
        assert!(leaves_are_facts(proof));
    }
    // Only what the tracer can follow is offered, checked without running it.
    assert_eq!(
        kb.explainable(),
        ["get_user_has_permission", "get_user_roles"]
    );
    // findall is outside the subset: refused, with the construct named.
    let err = kb
        .explain(
            kb.resolve("users_with_permission").expect("op"),
            &serde_json::json!({"Perm": "deploy"}),
        )
        .expect_err("findall is not traced");
    assert!(
        matches!(err, charon::CallError::NotTraceable { .. }),
        "{err}"
    );
    assert!(err.to_string().contains("findall"), "{err}");
}

#[test]
fn explain_on_http_and_mcp_is_opt_in_and_in_the_document() {
    let kb = root().join("examples/rbac.pl");
    let kb = kb.to_str().expect("utf-8 path");
    let server = ReasoningServer::start(&[kb, "--explain"]);
    let (_, text) = crate::util::http(server.1, "GET", "/openapi.json", None).expect("doc");
    let doc: serde_json::Value = charon::json::from_str(&text).expect("json");
    let (status, e) = server.post(
        "/explain",
        &serde_json::json!({"operation": "get_user_has_permission", "arguments": {"User": "user_0006", "Perm": "merge"}}),
    );
    assert_eq!(status, 200, "{e}");
    valid_against_document(&doc, "/explain", &e);
    let offered: Vec<&str> = doc["paths"]["/explain"]["post"]["requestBody"]["content"]
        ["application/json"]["schema"]["oneOf"]
        .as_array()
        .expect("one alternative per operation")
        .iter()
        .filter_map(|a| a["properties"]["operation"]["const"].as_str())
        .collect();
    assert_eq!(offered, ["get_user_has_permission", "get_user_roles"]);
    assert_eq!(e["result"], true);
    let (status, p) = server.post(
        "/explain",
        &serde_json::json!({"operation": "users_with_permission", "arguments": {"Perm": "deploy"}}),
    );
    assert_eq!(status, 422, "{p}");
    assert_eq!(p["type"], "urn:charon:problem:not-traceable");
    let (status, _) = server.post("/explain", &serde_json::json!({"operation": "nope"}));
    assert_eq!(status, 400);
    drop(server);
    // Without --explain there is no such route.
    let plain = ReasoningServer::start(&[kb]);
    let (status, _) = plain.post(
        "/explain",
        &serde_json::json!({"operation": "get_user_roles"}),
    );
    assert_eq!(status, 404);

    let mut s = StdioSession::start(&["mcp", kb, "--explain", "--stdio"]);
    s.call(
        1,
        "explain",
        serde_json::json!({"operation": "get_user_roles", "arguments": {"User": "user_0006"}}),
    );
    let r = s.answer(1);
    assert_eq!(r["isError"], false, "{r}");
    assert_eq!(r["structuredContent"]["proofs"][0]["kind"], "rule", "{r}");
}

#[test]
fn the_command_line_diagnoses_and_compares_as_the_readme_shows() {
    let access = root().join("examples/reasoning/access.euclid");
    let access = access.to_str().expect("utf-8 path");
    let (code, out, _) = crate::util::run_charon(&["diagnose", access, "can_deploy(bob)"]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("goal 1 failed: background_check(bob, passed)")
            && out.contains("closest fact: background_check(bob, pending) (line 8)"),
        "{out}"
    );
    let (code, out, _) = crate::util::run_charon(&[
        "diagnose",
        access,
        "can_deploy(carol)",
        "--mode",
        "what-needs",
    ]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("add background_check(carol, passed) and engineer(carol) and tenure(carol, 3)   [verified: 1 solution(s); minimal]"),
        "{out}"
    );
    let (code, out, _) =
        crate::util::run_charon(&["diagnose", access, "can_deploy(bob)", "--json"]);
    assert_eq!(code, 0);
    let json: serde_json::Value = charon::json::from_str(&out).expect("json");
    assert_eq!(json["mode"], "why_not");
    let team = root().join("examples/reasoning/team.euclid");
    let changes = root().join("examples/reasoning/promote-bob.changes");
    let (code, out, _) = crate::util::run_charon(&[
        "what-if",
        team.to_str().expect("path"),
        changes.to_str().expect("path"),
    ]);
    assert_eq!(code, 0, "{out}");
    assert_eq!(
        out,
        "? user_has_permission($u, deploy)  before: 2, after: 2 (+0)\n  + $u = bob\n  - $u = ann\n"
    );
    // A change that removes a fact not there: exit 1, the line named.
    let dir = std::env::temp_dir().join(format!("charon-what-if-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let bad = dir.join("bad.changes");
    std::fs::write(&bad, "+ has_role(dan, dev)\n- has_role(zed, dev)\n").expect("write");
    let (code, _, err) = crate::util::run_charon(&[
        "what-if",
        team.to_str().expect("path"),
        bad.to_str().expect("path"),
    ]);
    assert_eq!(code, 1);
    assert!(
        err.contains("line 2") && err.contains("matches no fact"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Knowledge whose search trees are exponential, though each engine question is
/// small: the diagnosis stays bounded, says it is incomplete, and the process lives.
#[test]
fn exponential_knowledge_is_diagnosed_within_bounds() {
    // what_needs: a :- b×100, b :- c×100, c :- d×100, d undefined (10^6 goals deep).
    let wide = |head: &str, goal: &str| format!("{head} IF {}\n", vec![goal; 100].join(" AND "));
    let knowledge = format!("{}{}{}", wide("a", "b"), wide("b", "c"), wide("c", "d"));
    let started = std::time::Instant::now();
    let d = diagnose(&knowledge, "a", DiagnoseMode::WhatNeeds);
    assert!(!d.holds);
    // One fact (d) makes it hold, and it is found (and verified), or the search says
    // it was cut short.
    let proposals = d.proposals.clone().expect("proposals");
    assert!(
        proposals.iter().any(|p| p.facts == ["d"]) || !d.complete,
        "{d:?}"
    );
    // why_not over 2^16 paths: a_k IF a_{k+1}, a_k IF t AND a_{k+1}.
    let mut chain = String::from("t\n");
    for k in 0..16 {
        chain.push_str(&format!("a{k} IF a{}\na{k} IF t AND a{}\n", k + 1, k + 1));
    }
    let d = diagnose(&chain, "a0", DiagnoseMode::WhyNot);
    let text = serde_json::to_string(&d).expect("json");
    assert!(text.len() < 2_000_000, "the trace is {} bytes", text.len());
    assert!(started.elapsed() < std::time::Duration::from_secs(60));
    // A NUL never reaches the program cache (its derived keys start with one).
    let r = reasoner().reason(&ReasonRequest::new("\u{0}what_if\u{0}e0:", "p($x)"));
    assert!(!r.ok());
    // An added fact may be taken back in the same list of changes.
    let WhatIfResult::Compared(w) = what_if(
        "+ has_role(dan, dev)\n- has_role(dan, dev)",
        "user_has_permission($u, deploy)",
    ) else {
        panic!("refused")
    };
    assert_eq!(w.delta, 0);
}

#[test]
fn explain_refuses_when_the_file_is_not_what_was_loaded() {
    // p/1 is split without a discontiguous declaration: the engine keeps the later
    // group only, while the file holds both; explaining would show p(1).
    let kb = charon::KnowledgeBase::from_source(
        "split.pl",
        "%! get_p(-X:int) is nondet.\nget_p(X) :- p(X).\np(1).\nq(a).\np(2).\n",
    )
    .expect("loads");
    let id = kb.resolve("get_p").expect("op");
    // The engine kept the later group only (the trap this guards against).
    let plain = kb.call("get_p", &serde_json::json!({})).expect("call");
    assert_eq!(plain, serde_json::json!([2]));
    match kb.explain(id, &serde_json::json!({})) {
        Err(charon::CallError::NotTraceable { reason, .. }) => {
            assert!(reason.contains("discontiguous"), "{reason}")
        }
        other => panic!("explained with clauses the engine does not run: {other:?}"),
    }
}

#[test]
fn charon_call_explain_prints_the_answer_with_its_proofs() {
    let kb = root().join("examples/rbac.pl");
    let kb = kb.to_str().expect("utf-8 path");
    let (code, out, err) = crate::util::run_charon(&[
        "call",
        "--explain",
        kb,
        "get_user_has_permission",
        "--User",
        "user_0006",
        "--Perm",
        "merge",
    ]);
    assert_eq!(code, 0, "{err}");
    let json: serde_json::Value = charon::json::from_str(&out).expect("json");
    assert_eq!(json["result"], true);
    assert_eq!(json["proofs"][0]["kind"], "rule", "{json}");
    let (code, _, err) = crate::util::run_charon(&[
        "call",
        "--explain",
        kb,
        "users_with_permission",
        "--Perm",
        "deploy",
    ]);
    assert_eq!(code, 3);
    assert!(err.contains("findall"), "{err}");
}

#[test]
fn an_explanation_past_the_proof_bound_is_refused_and_a_smaller_one_answered() {
    // Each level proves the level below twice: 2^(N+1) rule nodes and their
    // comparisons, 50 rule levels at most.
    // The tracer interprets every step: a roomier inference limit than the default,
    // and time enough on a loaded 2-core machine (the bound under test is the
    // proof's size, not time).
    let mut config = charon::EngineConfig::default();
    config.limits.inferences = 500_000_000;
    config.limits.time = std::time::Duration::from_secs(60);
    let kb = charon::KnowledgeBase::from_source_with(
        "wide.pl",
        "%! wide(+N:int) is det.\nwide(0).\nwide(N) :- N > 0, M is N - 1, wide(M), wide(M).\n",
        config,
    )
    .expect("loads");
    let id = kb.resolve("wide").expect("op");
    let small = kb
        .explain(id, &serde_json::json!({"N": 6}))
        .expect("a small tree is explained");
    assert_eq!(small.proofs.len(), 1);
    match kb.explain(id, &serde_json::json!({"N": 15})) {
        Err(e @ charon::CallError::AnswerTooLarge { .. }) => {
            assert!(e.to_string().contains("100000 proof nodes"), "{e}");
        }
        other => panic!("an explanation of about 130,000 nodes: {other:?}"),
    }
    // The knowledge base keeps answering.
    assert_eq!(
        kb.call("wide", &serde_json::json!({"N": 3})).expect("call"),
        serde_json::json!(true)
    );
}

#[test]
fn explain_carries_lines_and_rule_ids_from_the_file() {
    let kb = charon::KnowledgeBase::from_source(
        "access.pl",
        "%! can_access(+User:atom, +Res:atom) is semidet.\n\
         % rule: ACC-1\n\
         can_access(U, R) :- role(U, Ro), grants(Ro, R).\n\
         can_access(U, R) :- owner(U, R).   % rule: ACC-2\n\
         can_access(U, R) :- guest(U, R).\n\
         guest(carol, lobby).\n\
         role(alice, admin).\n\
         grants(admin, db).\n\
         owner(bob, wiki).\n",
    )
    .expect("loads");
    let id = kb.resolve("can_access").expect("op");
    let e = kb
        .explain(id, &serde_json::json!({"User": "alice", "Res": "db"}))
        .expect("explained");
    let rule = &e.proofs[0];
    assert_eq!(
        (rule.line, rule.rule_id.as_deref()),
        (Some(3), Some("ACC-1")),
        "{rule:?}"
    );
    let lines: Vec<Option<usize>> = rule.children.iter().map(|c| c.line).collect();
    assert_eq!(lines, [Some(7), Some(8)]);
    assert!(rule.children.iter().all(|c| c.rule_id.is_none()));
    let e = kb
        .explain(id, &serde_json::json!({"User": "bob", "Res": "wiki"}))
        .expect("explained");
    assert_eq!(
        e.proofs[0].rule_id.as_deref(),
        Some("ACC-2"),
        "{:?}",
        e.proofs[0]
    );
    // The rule below a rule with a trailing id has none of its own.
    let e = kb
        .explain(id, &serde_json::json!({"User": "carol", "Res": "lobby"}))
        .expect("explained");
    assert_eq!(
        (e.proofs[0].line, e.proofs[0].rule_id.as_deref()),
        (Some(5), None)
    );
}
