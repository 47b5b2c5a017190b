//! Euclid-IR as people write it for the reference implementation: every construct
//! the reference reads is read here to the same meaning (checked against the
//! rewritten canonical form), rule identifiers reach every proof, and the
//! constructs the language leaves out are still refused with their workaround.

use charon::reason::{
    DiagnoseMode, DiagnoseRequest, DiagnoseResult, FailureKind, ProofNode, ReasonRequest,
    ReasonResult, Reasoner, WhatIfRequest, WhatIfResult,
};
use serde_json::{Value, json};

use crate::util::root;

fn reasoner() -> &'static Reasoner {
    static R: std::sync::OnceLock<Reasoner> = std::sync::OnceLock::new();
    R.get_or_init(|| Reasoner::new(charon::EngineConfig::default()).expect("reasoner"))
}

/// The solutions' bindings (the test fails if the request does).
fn answers(knowledge: &str, query: &str) -> Vec<Value> {
    try_answers(knowledge, query).unwrap_or_else(|e| panic!("{query}: {e}"))
}

/// The solutions' bindings, or the failure's message.
fn try_answers(knowledge: &str, query: &str) -> Result<Vec<Value>, String> {
    let mut req = ReasonRequest::new(knowledge, query);
    req.max_solutions = Some(1000);
    match reasoner().reason(&req) {
        ReasonResult::Answered(a) => Ok(a
            .solutions
            .iter()
            .map(|s| Value::Object(s.bindings.clone()))
            .collect()),
        ReasonResult::Failed(f) => Err(f.error.message),
    }
}

fn proofs(knowledge: &str, query: &str) -> Vec<ProofNode> {
    match reasoner().reason(&ReasonRequest::new(knowledge, query)) {
        ReasonResult::Answered(a) => a.solutions.into_iter().flat_map(|s| s.proofs).collect(),
        ReasonResult::Failed(f) => panic!("{query}: {:?}", f.error),
    }
}

fn walk<'a>(node: &'a ProofNode, out: &mut Vec<&'a ProofNode>) {
    out.push(node);
    for c in &node.children {
        walk(c, out);
    }
}

/// Each construct the reference reads, beside the same knowledge in the form
/// Charon always read: the answers must be identical (and not empty).
#[test]
fn every_construct_of_the_reference_reads_to_the_rewritten_meaning() {
    let cases: [(&str, &str, &str, &str); 18] = [
        (
            "single and double quoted strings are constants",
            "title(c1, 'Maintain separate accounts')\ntitle(c2, \"Patch \\\"fast\\\"\")",
            "title(c1, maintain)\ntitle(c2, patch)",
            "title($c, $t)",
        ),
        (
            "<= is =<",
            "n(1)\nn(5)\nsmall($x) IF n($x) AND $x <= 2",
            "n(1)\nn(5)\nsmall($x) IF n($x) AND $x =< 2",
            "small($x)",
        ),
        (
            "== and != on numbers",
            "n(1)\nn(5)\none($x) IF n($x) AND $x == 1\nnot_one($x) IF n($x) AND $x != 1",
            "n(1)\nn(5)\none($x) IF n($x) AND $x =:= 1\nnot_one($x) IF n($x) AND $x =\\= 1",
            "one($x) AND not_one($y)",
        ),
        (
            "keywords in any case",
            "p(a)\nq(a)\nq(b)\nr($x) if q($x) and not p($x)\ns($x) iF q($x) And Not p($x)",
            "p(a)\nq(a)\nq(b)\nr($x) IF q($x) AND NOT p($x)\ns($x) IF q($x) AND NOT p($x)",
            "r($x) AND s($y)",
        ),
        (
            "not(goal) with brackets",
            "p(a)\nq(a)\nq(b)\nr($x) IF q($x) AND not(p($x))",
            "p(a)\nq(a)\nq(b)\nr($x) IF q($x) AND NOT p($x)",
            "r($x)",
        ),
        (
            "capitalised names fold to lowercase",
            "Parent(Tom, Bob)\nParent(Bob, Ann)",
            "parent(tom, bob)\nparent(bob, ann)",
            "parent($x, $y)",
        ),
        (
            "% comments beside # and //",
            "% a comment\np(a) % after a fact\n# another\np(b) // and another",
            "p(a)\np(b)",
            "p($x)",
        ),
        (
            "hyphenated constants are one value",
            "member(alice, security-ops)\nmember(bob, platform-eng)",
            "member(alice, security_ops)\nmember(bob, platform_eng)",
            "member($u, $t)",
        ),
        (
            "ISO dates are one value",
            "due(a, 2026-07-01)\ndue(b, 2026-12-31)",
            "due(a, d20260701)\ndue(b, d20261231)",
            "due($x, $d)",
        ),
        (
            "@VERSION in any case, later versions",
            "@VERSION 2.0\np(a)",
            "@version 1.0\np(a)",
            "p($x)",
        ),
        (
            "non-ASCII names",
            "父(张三, 张伟)\n父(张伟, 张小明)\n祖父($x, $z) IF 父($x, $y) AND 父($y, $z)",
            "父(\"张三\", \"张伟\")\n父(\"张伟\", \"张小明\")\n祖父($x, $z) IF 父($x, $y) AND 父($y, $z)",
            "祖父($a, $b)",
        ),
        (
            "nested terms unify structurally",
            "step(cfg(q0, tape(a, b)), cfg(q1, tape(b, b)))\nstep(cfg(q1, tape(b, b)), cfg(halt, tape(b, b)))\n\
             run($c, $c) IF step($c, cfg(halt, $t))\nrun($c, $d) IF step($c, $n) AND run($n, $d)",
            "step(q0_ab, q1_bb)\nstep(q1_bb, halt_bb)\nhalts(q1_bb)\n\
             run($c, $c) IF halts($c)\nrun($c, $d) IF step($c, $n) AND run($n, $d)",
            "run($start, $last)",
        ),
        (
            "a final full stop",
            "p(a).\np(b) .\nq($x) IF p($x).",
            "p(a)\np(b)\nq($x) IF p($x)",
            "q($x)",
        ),
        (
            "AND at the start of a line continues the rule above",
            "n(0)\nn(3)\nbig($x) IF n($x)\n    AND $x > 1\n    and $x < 5\nn(7)",
            "n(0)\nn(3)\nbig($x) IF n($x) AND $x > 1 AND $x < 5\nn(7)",
            "big($x)",
        ),
        (
            "?- before a query",
            "p(a)\np(b)\n?- p($x)",
            "p(a)\np(b)\n? p($x)",
            "?- p($x)",
        ),
        (
            "decomposed accents (NFD) are the composed name (NFC)",
            "citta\u{300}(roma)\nin($x) IF citt\u{e0}($x)",
            "citt\u{e0}(roma)\nin($x) IF citt\u{e0}($x)",
            "citta\u{300}($x) AND in($y)",
        ),
        (
            "true in a body always holds, NOT false too",
            "p(a)\nt IF true\nq($x) IF p($x) AND true AND NOT false",
            "p(a)\nt\nq($x) IF p($x)",
            "t AND q($x)",
        ),
        (
            "== and != on constants",
            "team(alice, ops)\nteam(bob, dev)\nops($u) IF team($u, $t) AND $t == ops\nnot_ops($u) IF team($u, $t) AND ops != $t",
            "team(alice, ops)\nteam(bob, dev)\nops($u) IF team($u, ops)\nnot_ops($u) IF team($u, dev)",
            "ops($a) AND not_ops($b)",
        ),
    ];
    for (what, reference, rewritten, query) in cases {
        let got = try_answers(reference, query).unwrap_or_else(|e| panic!("{what}: {e}"));
        let want =
            try_answers(rewritten, query).unwrap_or_else(|e| panic!("{what} (rewritten): {e}"));
        assert!(!want.is_empty(), "{what}: the rewritten form must answer");
        assert_eq!(got.len(), want.len(), "{what}: {got:?} vs {want:?}");
        match what {
            // Values differ where the rewritten form had to rename them.
            "single and double quoted strings are constants" => assert_eq!(
                got,
                [
                    json!({"c": "c1", "t": "Maintain separate accounts"}),
                    json!({"c": "c2", "t": "Patch \"fast\""})
                ]
            ),
            "hyphenated constants are one value" => assert_eq!(
                got,
                [
                    json!({"u": "alice", "t": "security-ops"}),
                    json!({"u": "bob", "t": "platform-eng"})
                ]
            ),
            "ISO dates are one value" => assert_eq!(
                got,
                [
                    json!({"x": "a", "d": "2026-07-01"}),
                    json!({"x": "b", "d": "2026-12-31"})
                ]
            ),
            "non-ASCII names" => assert_eq!(got, [json!({"a": "张三", "b": "张小明"})]),
            "nested terms unify structurally" => assert_eq!(
                got[0],
                json!({"start": "cfg(q0,tape(a,b))", "last": "cfg(q1,tape(b,b))"}),
                "{got:?}"
            ),
            _ => assert_eq!(got, want, "{what}"),
        }
    }
}

#[test]
fn strings_are_constants_compared_and_printed_as_written() {
    // A quoted name and the bare name are one constant, as in Prolog.
    assert_eq!(answers("p('abc')", "p(abc)").len(), 1);
    assert_eq!(answers("p(abc)", "p(\"abc\")").len(), 1);
    // Case is kept inside quotes (names fold, strings do not).
    assert_eq!(answers("p('Abc')", "p(abc)").len(), 0);
    // A Prolog habit, `Who` for a variable, is answered as the constant, with a word.
    let ReasonResult::Answered(a) =
        reasoner().reason(&ReasonRequest::new("p(who)\np(ann)", "p(Who)"))
    else {
        panic!("answered")
    };
    assert_eq!(a.solution_count, 1);
    assert!(
        a.warnings
            .iter()
            .any(|w| w.contains("`Who`") && w.contains("$who")),
        "{:?}",
        a.warnings
    );
    // Text that looks like code is data.
    let kb = "note(n1, 'halt. :- shell(rm)')\nnote(n2, \"a # not a comment, % nor this\")";
    assert_eq!(
        answers(kb, "note($n, $t)"),
        [
            json!({"n": "n1", "t": "halt. :- shell(rm)"}),
            json!({"n": "n2", "t": "a # not a comment, % nor this"})
        ]
    );
    // Proofs print a string in quotes, a name bare.
    let p = proofs(
        "control(c1, 'Maintain separate accounts', high)\nurgent($t) IF control($c, $t, high)",
        "urgent($t)",
    );
    assert_eq!(p[0].goal, "urgent(\"Maintain separate accounts\")");
    assert_eq!(
        p[0].children[0].goal,
        "control(c1, \"Maintain separate accounts\", high)"
    );
    // An open quote is an error at its place.
    let f = match reasoner().reason(&ReasonRequest::new("p(a)\np('open)", "p($x)")) {
        ReasonResult::Failed(f) => f.error,
        other => panic!("{other:?}"),
    };
    assert_eq!((f.line, f.column), (Some(2), Some(3)), "{}", f.message);
}

#[test]
fn what_language_excludes_is_still_refused_with_its_workaround() {
    for (kb, construct) in [
        ("p($x) IF q($x) ; r($x)", "disjunction"),
        ("p($x) if q($x) or r($x)", "disjunction"),
        ("p([a, b])", "lists"),
        ("p($x) IF q($x) AND !", "cut"),
        ("p($n) IF findall($x, q($x), $n)", "findall/bagof/setof"),
        ("p($x) if q($x) and Assert(r($x))", "assert/retract"),
        ("p($x) IF lists:member($x)", "modules"),
        ("p($x) IF call(q)", "meta-calls"),
        ("p($x) IF q($x) AND $x = 1", "unification (=)"),
        ("p($x) IF q($x)\n  OR r($x)", "disjunction"),
        ("p($x) IF (q($x) OR r($x))", "disjunction"),
    ] {
        let f = match reasoner().reason(&ReasonRequest::new(kb, "p($x)")) {
            ReasonResult::Failed(f) => f.error,
            other => panic!("{kb}: {other:?}"),
        };
        assert_eq!(f.kind, FailureKind::Unsupported, "{kb}: {f:?}");
        assert_eq!(f.construct.as_deref(), Some(construct), "{kb}");
        assert!(f.message.contains(':'), "{kb}: {}", f.message);
    }
    // Keywords cannot name predicates; a keyword where only a constant fits is one.
    assert!(try_answers("is(a)", "is($x)").is_err());
    assert_eq!(
        answers("gate(or, 2)\ngate(and, 2)", "gate($g, 2)"),
        [json!({"g": "and"}), json!({"g": "or"})]
    );
}

/// `true` and `false` are the reference's reserved literals: goals that always and
/// never hold, refused as facts, heads and predicate names, plain data as arguments;
/// a query longer than the reference's 5,000 characters is refused unless the limit
/// is raised; goals in brackets are refused with what to write.
#[test]
fn reserved_literals_query_length_and_grouped_goals_as_the_reference_reads_them() {
    assert_eq!(
        answers("r($x) IF NOT true\nr(b) IF false\nr(c)", "r($x)"),
        [json!({"x": "c"})]
    );
    assert_eq!(answers("p(false, x)", "p($a, x)"), [json!({"a": "false"})]);
    assert_eq!(answers("p(a)", "true AND p($x)"), [json!({"x": "a"})]);
    assert!(answers("p(a)", "false AND p($x)").is_empty());
    for kb in ["true", "false IF p(a)", "true(x)", "p($x) IF false(x)"] {
        let e = try_answers(kb, "p($x)").expect_err(kb);
        assert!(e.contains("reserved literal"), "{kb}: {e}");
    }
    // The proof of `t IF true` shows the literal as a step of its own.
    let proof = &proofs("t IF true  # rule: T-1", "t")[0];
    assert_eq!(proof.rule_id.as_deref(), Some("T-1"));
    assert_eq!(proof.children[0].goal, "true");

    let long = format!("p({})", "a".repeat(4998));
    assert_eq!(long.chars().count(), 5001);
    let e = try_answers("p(a)", &long).expect_err("a 5,001-character query");
    assert!(e.contains("5001 characters, over the limit of 5000"), "{e}");
    let most = format!("p({})", "a".repeat(4997));
    assert!(try_answers("p(a)", &most).is_ok());
    let mut config = charon::reason::ReasonConfig::default();
    config.max_query_chars = 10_000;
    let raised = Reasoner::with_config(charon::EngineConfig::default(), config).expect("reasoner");
    let answered = raised.reason(&ReasonRequest::new("p(a)", long.as_str()));
    assert!(
        matches!(answered, ReasonResult::Answered(_)),
        "{answered:?}"
    );

    let e = try_answers("q(a)\np($x) IF (q($x) AND q($x))", "p($x)").expect_err("grouped goals");
    assert!(e.contains("brackets group arithmetic, not goals"), "{e}");
}

/// The audit example in `examples/reasoning/reference-style`: written the way the
/// reference's users write (quoted titles, capitals, hyphens, dates, lowercase
/// keywords, full stops, `# rule:` ids), answering with rule ids in the proofs.
#[test]
fn a_knowledge_base_in_the_reference_style_answers_with_rule_ids() {
    let dir = root().join("examples/reasoning/reference-style");
    let kb = std::fs::read_to_string(dir.join("audit.euclid")).expect("audit.euclid");
    let check = reasoner().check_kb(&kb);
    assert!(check.valid, "{:?}", check.issues);
    assert_eq!(
        answers(&kb, "privileged_without_mfa($u)"),
        [json!({"u": "bob"})]
    );
    assert_eq!(answers(&kb, "review_overdue($u)"), [json!({"u": "bob"})]);
    assert_eq!(
        answers(&kb, "must_follow(bob, $title)"),
        [
            json!({"title": "Maintain separate admin accounts"}),
            json!({"title": "Rotate service credentials"})
        ]
    );
    assert_eq!(
        answers(&kb, "member($u, \"Help Desk\")"),
        [json!({"u": "dave"})]
    );
    // Every rule node carries its rule's id; facts carry none.
    let mut ids = Vec::new();
    for (query, want) in [
        ("privileged_without_mfa(bob)", vec!["R-02", "R-01"]),
        ("review_overdue(bob)", vec!["R-03"]),
        ("must_follow(bob, $t)", vec!["R-04"]),
        ("outside_team(alice, $t)", vec!["R-05"]),
    ] {
        let trees = proofs(&kb, query);
        let mut nodes = Vec::new();
        for p in &trees {
            walk(p, &mut nodes);
        }
        let got: Vec<&str> = nodes.iter().filter_map(|n| n.rule_id.as_deref()).collect();
        for id in &want {
            assert!(got.contains(id), "{query}: {got:?}");
        }
        for n in &nodes {
            assert_eq!(
                n.rule_id.is_some(),
                n.kind == charon::reason::ProofKind::Rule,
                "{query}: {n:?}"
            );
        }
        ids.extend(want);
    }
    assert_eq!(ids.len(), 5);
    // The ids are in the JSON of the answer.
    let json = serde_json::to_string(
        &reasoner().reason(&ReasonRequest::new(kb.as_str(), "review_overdue($u)")),
    )
    .expect("json");
    assert!(json.contains("\"rule_id\":\"R-03\""), "{json}");
    // diagnose: why carries them in its proofs, why_not in its attempts.
    let why = reasoner().diagnose(&DiagnoseRequest::new(
        kb.as_str(),
        "privileged(carol)",
        DiagnoseMode::Why,
    ));
    let text = serde_json::to_string(&why).expect("json");
    assert!(
        matches!(why, DiagnoseResult::Diagnosed(_)) && text.contains("\"rule_id\":\"R-01\""),
        "{text}"
    );
    let why_not = reasoner().diagnose(&DiagnoseRequest::new(
        kb.as_str(),
        "privileged_without_mfa(alice)",
        DiagnoseMode::WhyNot,
    ));
    let text = serde_json::to_string(&why_not).expect("json");
    assert!(text.contains("\"rule_id\":\"R-02\""), "{text}");
    // what_if: several facts on one change line, proofs with ids on both sides.
    let w = reasoner().what_if(&WhatIfRequest::new(
        kb.as_str(),
        "+ member(erin, platform-eng) AND mfa_enabled(erin)\n- mfa_enabled(carol)",
        "privileged_without_mfa($u)",
    ));
    let WhatIfResult::Compared(w) = w else {
        panic!("{w:?}")
    };
    let text = serde_json::to_string(&w).expect("json");
    assert!(text.contains("\"rule_id\":\"R-02\""), "{text}");
    assert!(text.contains("carol"), "{text}");
    assert!(!text.contains("\"u\":\"erin\""), "erin has MFA: {text}");
}

#[test]
fn the_yaml_form_reads_the_query_key_ids_and_refuses_repeated_keys() {
    let dir = root().join("examples/reasoning/reference-style");
    let yaml = std::fs::read_to_string(dir.join("audit.yaml")).expect("audit.yaml");
    let mut req = ReasonRequest::new(yaml.as_str(), "");
    req.query = None;
    let ReasonResult::Answered(a) = reasoner().reason(&req) else {
        panic!("the knowledge's own query: {req:?}")
    };
    assert_eq!(
        a.solutions
            .iter()
            .map(|s| Value::Object(s.bindings.clone()))
            .collect::<Vec<_>>(),
        [json!({"who": "bob"})]
    );
    let mut nodes = Vec::new();
    walk(&a.solutions[0].proofs[0], &mut nodes);
    let ids: Vec<&str> = nodes.iter().filter_map(|n| n.rule_id.as_deref()).collect();
    assert_eq!(ids, ["R-02", "R-01"]);
    // A repeated key is refused, naming it: readers differ on which one wins.
    let twice = "facts:\n  - p(a)\nrules:\n  - q($x) IF p($x)\nfacts:\n  - p(b)\n";
    let f = match reasoner().reason(&ReasonRequest::new(twice, "p($x)")) {
        ReasonResult::Failed(f) => f.error,
        other => panic!("{other:?}"),
    };
    assert_eq!(f.kind, FailureKind::ParseError);
    assert!(
        f.message.contains("`facts`") && f.message.contains("twice"),
        "{}",
        f.message
    );
    assert_eq!(f.line, Some(5), "{f:?}");
    // `# rule:` on a fact is an error, as in the reference; on a line of its own
    // it is a comment (the reference ignores it), wherever it stands.
    assert!(try_answers("p(a)  # rule: R-9", "p($x)").is_err());
    for kb in [
        "# rule: R-1\np(a)",
        "p(a)\n# rule: R-1",
        "# rule: R-1\n# rule: R-2\nq($x) IF p($x)\np(a)",
    ] {
        let got = try_answers(kb, "p($x)").unwrap_or_else(|e| panic!("{kb:?}: {e}"));
        assert_eq!(got, [json!({"x": "a"})], "{kb:?}");
    }
    let ids: Vec<Option<String>> = proofs("# rule: R-1\nq($x) IF p($x)\np(a)", "q($x)")
        .iter()
        .map(|p| p.rule_id.clone())
        .collect();
    assert_eq!(ids, [None], "a comment line names no rule");
}

#[test]
fn check_kb_reports_recursion_without_a_base_case() {
    let kb = "edge(a, b)\nedge(a, b)\n\
              path($x, $y) IF edge($x, $z) AND path($z, $y)\n\
              loop_a($x) IF loop_b($x)\nloop_b($x) IF loop_a($x)\n\
              fine($x, $y) IF edge($x, $y)\nfine($x, $y) IF edge($x, $z) AND fine($z, $y)";
    let r = reasoner().check_kb(kb);
    let found: Vec<(&str, usize)> = r
        .issues
        .iter()
        .filter(|i| i.kind == "recursion_without_base_case")
        .map(|i| (i.message.split('`').nth(1).unwrap_or_default(), i.line))
        .collect();
    assert_eq!(found, [("loop_a/1", 4), ("loop_b/1", 5)], "{:?}", r.issues);
    // Direct recursion without a base case is the reference's `circular_rule`, an
    // error (so the knowledge is not valid), one per recursive rule.
    let circular: Vec<usize> = r
        .issues
        .iter()
        .filter(|i| i.kind == "circular_rule")
        .map(|i| i.line)
        .collect();
    assert_eq!(circular, [3], "{:?}", r.issues);
    assert!(!r.valid, "{:?}", r.issues);
    // A fact with variables is a base case, as in the reference's own test.
    let turing = "final(cfg(done, $t), cfg(done, $t))\n\
                  step(cfg(run, tape($l, cell(0, $r))), cfg(done, tape($l, cell(1, $r))))\n\
                  final($c, $f) IF step($c, $c2) AND final($c2, $f)";
    let based = reasoner().check_kb(turing);
    assert!(
        !based.issues.iter().any(|i| i.kind == "circular_rule"),
        "{:?}",
        based.issues
    );
    let circular = reasoner().check_kb("ancestor($x, $y) IF ancestor($x, $z) AND ancestor($z, $y)");
    assert!(
        !circular.valid && circular.issues.iter().any(|i| i.kind == "circular_rule"),
        "{:?}",
        circular.issues
    );
    // The other checks still run beside it.
    assert!(
        r.issues.iter().any(|i| i.kind == "duplicate_fact"),
        "{:?}",
        r.issues
    );
}

/// A proposal whose verification run was cut at the depth bound under a NOT is not
/// verified: the NOT may have held only because the search beneath it was cut.
#[test]
fn what_needs_does_not_call_a_proposal_verified_when_the_depth_bound_cut_it() {
    let mut kb = String::from(
        "banned(bob)\nallowed($u) IF user($u) AND NOT blocked($u)\nblocked($u) IF c1($u)\n",
    );
    for i in 1..30 {
        kb.push_str(&format!("c{i}($u) IF c{}($u)\n", i + 1));
    }
    kb.push_str("c30($u) IF banned($u)\n");
    let diagnose = |depth: u32| {
        let mut req = DiagnoseRequest::new(kb.as_str(), "allowed(bob)", DiagnoseMode::WhatNeeds);
        req.max_depth = Some(depth);
        match reasoner().diagnose(&req) {
            DiagnoseResult::Diagnosed(d) => d,
            DiagnoseResult::Failed(f) => panic!("{f:?}"),
        }
    };
    // Deep enough: bob is blocked, so adding user(bob) does not make it hold.
    let full = diagnose(50);
    assert_eq!(
        full.proposals.as_deref().map(<[_]>::len),
        Some(0),
        "{full:?}"
    );
    // Cut at 10: the NOT held only because the chain was cut; nothing is verified.
    let cut = diagnose(10);
    assert_eq!(cut.proposals.as_deref().map(<[_]>::len), Some(0), "{cut:?}");
    assert!(!cut.complete, "{cut:?}");
    assert!(
        cut.warnings.iter().any(|w| w.contains("max_depth 10")),
        "{:?}",
        cut.warnings
    );
}

/// Knowledge whose one answer has a proof of about 2^(n+1) nodes: each level
/// proves the level below twice.
fn doubling(n: usize) -> String {
    let mut kb = String::from("p0(a)\n");
    for i in 1..=n {
        kb.push_str(&format!("p{i}($x) IF p{}($x) AND p{}($x)\n", i - 1, i - 1));
    }
    kb
}

fn too_large(value: &Value) -> bool {
    value["ok"] == false && value["error"]["kind"] == "answer_too_large"
}

#[test]
fn answers_are_bounded_in_proof_nodes_and_bytes_through_the_rust_api() {
    let mut config = charon::reason::ReasonConfig::default();
    config.max_proof_nodes = 10_000;
    config.max_answer_bytes = 200_000;
    let small = Reasoner::with_config(charon::EngineConfig::default(), config).expect("reasoner");
    // Within both bounds: answered.
    let r = small.reason(&ReasonRequest::new(doubling(6), "p6(a)"));
    assert!(r.ok(), "{r:?}");
    // 2^15 nodes: past the node bound, named, and nothing else comes back.
    let r = small.reason(&ReasonRequest::new(doubling(14), "p14(a)"));
    let ReasonResult::Failed(f) = r else {
        panic!("{r:?}")
    };
    assert_eq!(f.error.kind, FailureKind::AnswerTooLarge);
    assert!(
        f.error.message.contains("10000 proof nodes") && f.error.message.contains("max_proofs"),
        "{}",
        f.error.message
    );
    // Under the node bound but past the bytes: long constants in every goal.
    let long = "x".repeat(300);
    let kb = format!(
        "{}\n{}",
        doubling(11).replace("p0(a)", &format!("p0({long})")),
        ""
    );
    let r = small.reason(&ReasonRequest::new(kb.as_str(), "p11($v)"));
    let ReasonResult::Failed(f) = r else {
        panic!("answered")
    };
    assert_eq!(f.error.kind, FailureKind::AnswerTooLarge);
    assert!(
        f.error.message.contains("200000 bytes"),
        "{}",
        f.error.message
    );
    // Asking for less gets an answer within the bound.
    let mut req = ReasonRequest::new(doubling(14), "p0($x)");
    req.max_proofs = Some(1);
    assert!(small.reason(&req).ok());
}

#[test]
fn answers_are_bounded_over_rest_and_mcp() {
    // REST.
    let server = crate::util::HttpServer::with_args(&["--reasoning", "--max-proof-nodes", "10000"]);
    let port = server.port;
    let big = json!({"knowledge": doubling(14), "query": "p14(a)"}).to_string();
    let fine = json!({"knowledge": doubling(6), "query": "p6(a)"}).to_string();
    let refused = crate::util::http(port, "POST", "/reason", Some(&big));
    let answered = crate::util::http(port, "POST", "/reason", Some(&fine));
    drop(server);
    let (status, body) = refused.expect("answer");
    assert_eq!(status, 200);
    assert!(body.len() < 2000, "{}", body.len());
    assert!(
        too_large(&serde_json::from_str(&body).expect("json")),
        "{body}"
    );
    let (status, body) = answered.expect("answer");
    assert_eq!(status, 200);
    assert!(body.contains("\"solution_count\":1"), "{body}");
    // MCP over stdio, with a byte bound.
    let mut s = crate::util::StdioSession::start(&[
        "mcp",
        "--reasoning",
        "--stdio",
        "--max-answer-bytes",
        "100000",
    ]);
    s.call(
        1,
        "reason",
        json!({"knowledge": doubling(12), "query": "p12(a)"}),
    );
    let r = s.answer(1);
    assert_eq!(r["isError"], true, "{r}");
    assert!(too_large(&r["structuredContent"]), "{r}");
    assert!(
        r["structuredContent"]["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("100000 bytes")),
        "{r}"
    );
    s.call(
        2,
        "reason",
        json!({"knowledge": doubling(6), "query": "p6(a)"}),
    );
    assert_eq!(s.answer(2)["isError"], false);
    // MCP over HTTP.
    let server = crate::util::mcp_http_server(
        &crate::util::fixture("types.pl"),
        &["--reasoning", "--max-proof-nodes", "10000"],
        &[],
    );
    let port = server.port;
    let opened = crate::util::mcp_post(port, &crate::util::mcp_initialize("bounds"), &[]);
    assert_eq!(opened.status, 200, "{}", opened.body);
    let session = opened
        .header("mcp-session-id")
        .expect("session")
        .to_string();
    let version = ("Mcp-Protocol-Version", "2025-06-18");
    let ack = crate::util::mcp_post(
        port,
        &json!({"jsonrpc": "2.0", "method": "notifications/initialized"}).to_string(),
        &[("Mcp-Session-Id", &session), version],
    );
    assert_eq!(ack.status, 202);
    let call = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "reason", "arguments": {"knowledge": doubling(14), "query": "p14(a)"}}})
    .to_string();
    let reply = crate::util::mcp_post(port, &call, &[("Mcp-Session-Id", &session), version]);
    assert_eq!(reply.status, 200, "{}", reply.body);
    let start = reply.body.find('{').expect("json");
    let end = reply.body.rfind('}').expect("json");
    let message: Value = serde_json::from_str(&reply.body[start..=end]).expect("json");
    assert!(
        too_large(&message["result"]["structuredContent"]),
        "{message}"
    );
}

/// Twelve requests whose answers take long to shape, all at once: liveness keeps
/// answering within 100 ms, because shaping runs on blocking threads.
#[test]
fn liveness_stays_fast_while_large_answers_are_shaped() {
    let server = crate::util::HttpServer::with_args(&[
        "--reasoning",
        "--workers",
        "2",
        "--answer-cache",
        "0",
    ]);
    let port = server.port;
    // Just under the default node bound: each answer is large, and takes shaping.
    let body = json!({"knowledge": doubling(15), "query": "p15(a)"}).to_string();
    let done = std::sync::atomic::AtomicUsize::new(0);
    let mut timings = Vec::new();
    std::thread::scope(|s| {
        for _ in 0..12 {
            s.spawn(|| {
                let r = crate::util::http(port, "POST", "/reason", Some(&body));
                assert!(r.is_some_and(|(status, _)| status == 200));
                done.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            });
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
        while done.load(std::sync::atomic::Ordering::SeqCst) < 12 {
            let started = std::time::Instant::now();
            let (status, _) = crate::util::http(port, "GET", "/health", None).expect("health");
            timings.push(started.elapsed());
            assert_eq!(status, 200);
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
    });
    drop(server);
    timings.sort();
    assert!(
        timings.len() >= 10,
        "the requests ended too soon to measure: {timings:?}"
    );
    let p99 = timings[(timings.len() * 99).div_ceil(100) - 1];
    assert!(
        p99 < std::time::Duration::from_millis(100),
        "p99 {p99:?}: {timings:?}"
    );
}

/// Nested terms, strings and the new comparisons where the diagnosis tools take the
/// search apart in Rust (found by a hostile review).
#[test]
fn nested_terms_and_strings_survive_the_diagnosis_tools() {
    let diagnose = |kb: &str, query: &str, mode| match reasoner()
        .diagnose(&DiagnoseRequest::new(kb, query, mode))
    {
        DiagnoseResult::Diagnosed(d) => serde_json::to_value(&d).expect("json"),
        DiagnoseResult::Failed(f) => panic!("{query}: {f:?}"),
    };
    // A goal that would bind a variable to a term holding it: no unifier (the
    // occurs check), not a cyclic substitution that never resolves.
    let d = diagnose("p($y, $y) IF q($y)", "p($x, f($x))", DiagnoseMode::WhyNot);
    assert_eq!(d["holds"], false, "{d}");
    // Structure unifies in why_not: the failing premise shows the nested value.
    let d = diagnose(
        "cfg(state(q0), tape(a))\nrun($s) IF cfg(state($s), tape($t)) AND done($t)",
        "run(q0)",
        DiagnoseMode::WhyNot,
    );
    assert!(d.to_string().contains("done(a)"), "{d}");
    // A `#` inside a string is the string's, not a renamed variable's mark.
    let d = diagnose(
        "ticket(\"INC#42\", open)\nclosed($t) IF ticket($t, closed)",
        "ticket(\"INC#42\", closed)",
        DiagnoseMode::WhyNot,
    );
    assert!(d.to_string().contains("INC#42"), "{d}");
    // A string that reads like a term and the term are two values.
    assert_eq!(answers("p('f(a)')\np(f(a))", "p($x)").len(), 2);
    // `!=` and `==` with an arithmetic side evaluate it, whatever the other side is.
    let kb = "n(alice, 1)\nn(bob, 2)\nnext($u, $m) IF n($u, $k) AND n($m, $j) AND $j == $k + 1\nodd($u) IF n($u, $k) AND $u != $k + 1";
    assert_eq!(
        answers(kb, "next($a, $b)"),
        [json!({"a": "alice", "b": "bob"})]
    );
    assert_eq!(answers(kb, "odd($u)").len(), 2);
    // `_` has no value to compare.
    assert!(try_answers("p(a)\nq($x) IF p($x) AND $x == f(_)", "q($x)").is_err());
    // The YAML directive line must carry a version.
    assert!(try_answers("@version banana\nfacts:\n  - p(a)\n", "p($x)").is_err());
    assert_eq!(
        answers("@version 2.0\nfacts:\n  - p(a)\n", "p($x)").len(),
        1
    );
}

/// Many proofs of one solution, one returned: only what is returned counts toward
/// the answer's bounds; and the recursion check stays linear on a long chain.
#[test]
fn bounds_count_what_is_returned_and_checks_stay_linear() {
    let mut kb = String::from("p IF q($x) AND r AND s AND t AND u AND v\nr\ns\nt\nu\nv\n");
    for i in 0..19_000 {
        kb.push_str(&format!("q({i})\n"));
    }
    let mut req = ReasonRequest::new(kb.as_str(), "p");
    req.max_proofs = Some(1);
    let ReasonResult::Answered(a) = reasoner().reason(&req) else {
        panic!("19,000 proofs of 7 nodes, one returned, fit the default bounds")
    };
    assert_eq!(a.solutions[0].proof_count, 19_000);
    assert_eq!(a.solutions[0].proofs.len(), 1);
    // A chain of 20,000 rules, named against the order it runs in.
    let mut chain = String::new();
    for i in (0..20_000).rev() {
        chain.push_str(&format!("a{i:05} IF a{:05}\n", i + 1));
    }
    chain.push_str("a20000\nloop IF loop\n");
    let r = reasoner().check_kb(&chain);
    let kinds: Vec<&str> = r
        .issues
        .iter()
        .filter(|i| i.kind == "circular_rule")
        .map(|i| i.message.as_str())
        .collect();
    assert_eq!(kinds.len(), 1, "{kinds:?}");
    assert!(kinds[0].contains("`loop`"), "{kinds:?}");
}

/// `s0(a)` and `n` rules `s{i}($x) IF s{i-1}($x)`: a proof `n + 1` nodes deep.
fn chain(n: usize) -> String {
    let mut kb = String::from("s0(a)\n");
    for i in 1..=n {
        kb.push_str(&format!("s{i}($x) IF s{}($x)\n", i - 1));
    }
    kb
}

/// A chain of 200 rules proved with `max_depth` 250 on every surface: the proof
/// nests about 400 JSON levels, past serde_json's default reader limit, and comes
/// back whole (the same text over REST, MCP over stdio and over HTTP as the Rust
/// API's result written by the same writer).
#[test]
fn a_200_step_chain_is_proved_at_max_depth_250_on_every_surface() {
    let kb = chain(200);
    let mut req = ReasonRequest::new(kb.as_str(), "s200(a)");
    req.max_depth = Some(250);
    // Rust API: a proof 201 nodes deep, a rule at each level down to the fact.
    let r = reasoner().reason(&req);
    let ReasonResult::Answered(a) = &r else {
        panic!("{r:?}")
    };
    let mut node = &a.solutions[0].proofs[0];
    let mut depth = 1;
    while let Some(child) = node.children.first() {
        node = child;
        depth += 1;
    }
    assert_eq!((depth, node.goal.as_str()), (201, "s0(a)"));
    let expected =
        charon::json::to_string(&serde_json::to_value(&r).expect("value")).expect("text");
    // A depth below the chain says so.
    let mut short = req.clone();
    short.max_depth = Some(150);
    let ReasonResult::Answered(cut) = reasoner().reason(&short) else {
        panic!("answered")
    };
    assert!(cut.depth_exhausted && cut.solution_count == 0);
    let body = json!({"knowledge": kb, "query": "s200(a)", "max_depth": 250}).to_string();
    // REST.
    let server = crate::util::HttpServer::with_args(&["--reasoning"]);
    let (status, text) =
        crate::util::http(server.port, "POST", "/reason", Some(&body)).expect("answer");
    drop(server);
    assert_eq!(status, 200);
    assert_eq!(text, expected);
    // MCP over stdio: the structured content is the same JSON.
    let mut s = crate::util::StdioSession::start(&["mcp", "--reasoning", "--stdio"]);
    s.call(
        1,
        "reason",
        json!({"knowledge": kb, "query": "s200(a)", "max_depth": 250}),
    );
    let line = s.raw_line();
    assert!(
        line.contains(&format!("\"structuredContent\":{expected}")),
        "{}",
        &line[..line.len().min(400)]
    );
    // MCP over HTTP.
    let server =
        crate::util::mcp_http_server(&crate::util::fixture("types.pl"), &["--reasoning"], &[]);
    let port = server.port;
    let opened = crate::util::mcp_post(port, &crate::util::mcp_initialize("deep"), &[]);
    let session = opened
        .header("mcp-session-id")
        .expect("session")
        .to_string();
    let version = ("Mcp-Protocol-Version", "2025-06-18");
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"}).to_string();
    crate::util::mcp_post(port, &initialized, &[("Mcp-Session-Id", &session), version]);
    let call = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "reason", "arguments": {"knowledge": kb, "query": "s200(a)", "max_depth": 250}}})
    .to_string();
    let reply = crate::util::mcp_post(port, &call, &[("Mcp-Session-Id", &session), version]);
    assert_eq!(reply.status, 200);
    assert!(
        reply
            .body
            .contains(&format!("\"structuredContent\":{expected}")),
        "{}",
        &reply.body[..reply.body.len().min(400)]
    );
    // The deepest request allowed is answered too, and past it is refused.
    let deepest = chain(500);
    let mut req = ReasonRequest::new(deepest.as_str(), "s500(a)");
    req.max_depth = Some(500);
    let r = reasoner().reason(&req);
    assert!(
        matches!(&r, ReasonResult::Answered(a) if a.solution_count == 1),
        "{r:?}"
    );
    req.max_depth = Some(501);
    let ReasonResult::Failed(f) = reasoner().reason(&req) else {
        panic!("refused")
    };
    assert_eq!(f.error.kind, FailureKind::InvalidRequest);
}

/// Euclid-IR text for `text` as a single-quoted constant: `\` and `'` escaped, a
/// line break and a tab written as `\n` and `\t` (an item is one line).
fn quoted(text: &str) -> String {
    let mut out = String::from("'");
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\'' => out.push_str("\\'"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c => out.push(c),
        }
    }
    out.push('\'');
    out
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]
    /// Any text written as a quoted constant comes back identical as a binding,
    /// is found again when asked for by value, and reads back from the proof's
    /// goal text.
    #[test]
    fn quoted_constants_come_back_identical(
        chars in proptest::collection::vec(proptest::prelude::any::<char>(), 1..24)
    ) {
        // A carriage return ends a line as a line break does; NUL is refused in
        // knowledge (with a message saying so).
        let text: String = chars.into_iter().filter(|c| !matches!(c, '\r' | '\0')).collect();
        proptest::prop_assume!(!text.is_empty());
        let kb = format!("note(n1, {})\nnote(n2, other)", quoted(&text));
        let got = try_answers(&kb, "note(n1, $t)").map_err(proptest::test_runner::TestCaseError::fail)?;
        proptest::prop_assert_eq!(&got, &vec![json!({"t": text.clone()})]);
        let found = try_answers(&kb, &format!("note($n, {})", quoted(&text)))
            .map_err(proptest::test_runner::TestCaseError::fail)?;
        proptest::prop_assert_eq!(found, vec![json!({"n": "n1"})]);
        // The proof shows the constant as Euclid-IR text that reads back as it.
        let p = proofs(&kb, "note(n1, $t)");
        let back = try_answers(&format!("{}\n", p[0].goal), "note(n1, $t)")
            .map_err(|e| proptest::test_runner::TestCaseError::fail(format!("{}: {e}", p[0].goal)))?;
        proptest::prop_assert_eq!(back, vec![json!({"t": text})]);
    }
}

/// Facts with variables, as the reference reads them (its Turing-machine example):
/// a fact holds for every value of its variables, and a proof shows the instance
/// that was used; check_kb counts such a fact as a base case; diagnose reads it.
#[test]
fn facts_with_variables_hold_for_every_value() {
    let kb = "final(cfg(done, $t), cfg(done, $t))\n\
              step(cfg(run, tape($l, cell(0, $r))), cfg(done, tape($l, cell(1, $r))))\n\
              final($c, $f) IF step($c, $c2) AND final($c2, $f)\n";
    let got = answers(kb, "final(cfg(run, tape(blank, cell(0, blank))), $end)");
    assert_eq!(
        got,
        [json!({"end": "cfg(done,tape(blank,cell(1,blank)))"})],
        "{got:?}"
    );
    let mut goals = Vec::new();
    for p in proofs(kb, "final(cfg(run, tape(blank, cell(0, blank))), $end)") {
        let mut nodes = Vec::new();
        walk(&p, &mut nodes);
        goals.extend(nodes.iter().map(|n| (n.goal.clone(), n.line)));
    }
    assert!(
        goals.contains(&(
            "step(cfg(run, tape(blank, cell(0, blank))), cfg(done, tape(blank, cell(1, blank))))"
                .to_string(),
            Some(2)
        )),
        "the fact's node shows the instance used: {goals:?}"
    );
    let r = reasoner().check_kb(kb);
    assert!(r.valid, "{:?}", r.issues);
    // The same constant on both sides, or no proof.
    assert_eq!(
        answers(kb, "final(cfg(done, x), cfg(done, y))"),
        Vec::<Value>::new()
    );
    assert_eq!(
        answers(kb, "final(cfg(done, x), cfg(done, x))"),
        [json!({})]
    );
    let why = reasoner().diagnose(&DiagnoseRequest::new(
        kb,
        "final(cfg(done, x), cfg(done, x))",
        DiagnoseMode::Why,
    ));
    assert!(matches!(why, DiagnoseResult::Diagnosed(_)), "{why:?}");
    let why_not = reasoner().diagnose(&DiagnoseRequest::new(
        kb,
        "final(cfg(done, x), cfg(done, y))",
        DiagnoseMode::WhyNot,
    ));
    assert!(
        matches!(why_not, DiagnoseResult::Diagnosed(_)),
        "{why_not:?}"
    );
}

/// What a hostile side-by-side review found where Charon and the reference (its
/// default backend, SWI-Prolog) still answered differently: each as the reference
/// answers it.
#[test]
fn the_reviews_cases_answer_as_the_reference_does() {
    let diagnose = |kb: &str, query: &str, mode: DiagnoseMode| match reasoner()
        .diagnose(&DiagnoseRequest::new(kb, query, mode))
    {
        DiagnoseResult::Diagnosed(d) => d,
        DiagnoseResult::Failed(f) => panic!("{query}: {f:?}"),
    };
    // `true` and `false` are no facts in what_if's modifications either.
    for change in ["+ p(b) AND false", "+ true AND true", "- false", "+ true"] {
        let w = reasoner().what_if(&WhatIfRequest::new("p(a)", change, "p($x)"));
        let WhatIfResult::Failed(f) = w else {
            panic!("{change}: accepted: {w:?}")
        };
        assert!(
            f.error.message.contains("reserved literal"),
            "{change}: {f:?}"
        );
    }

    // `p($x) IF false` declares a predicate with no cases yet: what_needs proposes
    // its facts, check_kb finds nothing to warn about, and `NOT true` is as false.
    let kb = "p($x) IF false\nr($x) IF p($x) AND s($x)\ns(1)";
    let needs = diagnose(kb, "r(1)", DiagnoseMode::WhatNeeds);
    let proposals: Vec<&[String]> = needs
        .proposals
        .iter()
        .flatten()
        .map(|p| &p.facts[..])
        .collect();
    assert_eq!(proposals, [["p(1)".to_string()]], "{needs:?}");
    let checked = reasoner().check_kb(kb);
    assert!(checked.issues.is_empty(), "{:?}", checked.issues);
    let checked = reasoner().check_kb("p($x, $y) IF NOT true");
    assert!(checked.issues.is_empty(), "{:?}", checked.issues);
    for never in ["false", "NOT true"] {
        let kb = format!("loop($x) IF loop($x)\nloop($x) IF {never}");
        let checked = reasoner().check_kb(&kb);
        assert!(
            checked
                .issues
                .iter()
                .any(|i| i.kind == "recursion_without_base_case"),
            "{never}: {:?}",
            checked.issues
        );
    }

    // Nested values in bindings are written as SWI-Prolog writes them.
    let kb = "w(k(\"Hello World\", 1.5, -2))\nw(k(if, \"and\"))\nw(k(\"it's\", \"a\\\\b\"))\n\
              w(k(\"Alice\", x, \"42\", \"\"))\nw(k(-0.0, 100000000000000.0))";
    assert_eq!(
        answers(kb, "w($x)"),
        [
            json!({"x": "k('Alice',x,'42','')"}),
            json!({"x": "k('Hello World',1.5,-2)"}),
            json!({"x": "k('it''s','a\\\\b')"}),
            json!({"x": "k(-0.0,100000000000000.0)"}),
            json!({"x": "k(if,and)"}),
        ]
    );
    // `-0.0` keeps its sign; `-0` is the integer 0.
    let zeros = answers("z(-0.0)\nz(-0)", "z($x)");
    assert!(zeros.contains(&json!({"x": 0})), "{zeros:?}");
    assert!(
        zeros.iter().any(|z| z["x"]
            .as_f64()
            .is_some_and(|f| f == 0.0 && f.is_sign_negative())),
        "{zeros:?}"
    );
    // `/` of integers that divide exactly is an integer, as SWI-Prolog computes it.
    assert_eq!(
        answers(
            "q(2)",
            "q($y) AND $y is 4 / 2 AND $h is 3 / 2 AND $n is -(9 / 3) AND $m is 7 / (0 - 2)"
        ),
        [json!({"y": 2, "h": 1.5, "n": -3, "m": -3.5})]
    );
    let e = try_answers("q(2)", "q($y) AND $z is $y / 0").expect_err("a zero divisor");
    assert!(e.contains("zero_divisor"), "{e}");

    // The query limit counts the goal itself, in NFC, as the reference does.
    let goal = format!("p({})", "a".repeat(4997));
    assert!(try_answers("p(a)", &format!("  ?- {goal}  \n")).is_ok());
    let decomposed = format!("p(a{})", "e\u{301}".repeat(3000));
    assert!(
        try_answers("p(a)", &decomposed).is_ok(),
        "6,004 characters, 3,004 in NFC"
    );
    let e = try_answers("p(a)", &format!("? {goal}a")).expect_err("5,001 characters");
    assert!(e.contains("the query is 5001 characters"), "{e}");

    // A line of full stops alone is blank: it neither ends an open rule nor hides
    // a leading AND from the rule above it.
    let kb =
        "s(1)\nt(1)\nr($x) IF s($x) AND\n.\n  t($x)\nu($x) IF s($x)\n.\n  AND t($x)  # rule: U-1";
    assert_eq!(answers(kb, "r($x)"), [json!({"x": 1})]);
    assert_eq!(proofs(kb, "u(1)")[0].rule_id.as_deref(), Some("U-1"));

    // An error in a quoted YAML value points at its character, past the quote.
    for (kb, column) in [
        ("facts:\n  - 'p(c, ??)'\n", 11),
        ("facts:\n  - \"p(c, ??)\"\n", 11),
        ("facts:\n  - p(c, ??)\n", 10),
    ] {
        let e = try_answers(kb, "p($x, $y)").expect_err(kb);
        assert!(
            e.contains(&format!("line 2, column {column}:")),
            "{kb}: {e}"
        );
    }

    // why_not of a ground goal whose rule compares with == or != says what failed.
    let kb = "same($x, $y) IF $x == $y\ndiff($x, $y) IF $x != $y";
    for (query, comparison) in [("same(a, b)", "a == b"), ("diff(a, a)", "a != a")] {
        let d = diagnose(kb, query, DiagnoseMode::WhyNot);
        assert!(!d.holds && !d.conclusion.contains('\u{0}'), "{d:?}");
        assert!(
            d.conclusion
                .contains(&format!("the comparison {comparison} is false")),
            "{d:?}"
        );
    }
}

/// Constants inside nested values, written in bindings as the reference's default
/// backend writes them: beside SWI-Prolog's own `term_string/2` on 400 generated
/// constants (letters of both cases and scripts, digits, symbol characters, solo
/// characters, quotes, backslashes, spaces, combining marks), every text the same.
#[test]
fn nested_constants_are_written_as_swi_prolog_writes_them() {
    const ALPHABET: &[char] = &[
        'a', 'b', 'z', 'A', 'Q', '0', '7', '_', ' ', '\'', '"', '\\', '#', '$', '&', '*', '+', '-',
        '.', '/', ':', '<', '=', '>', '?', '@', '^', '~', '!', ';', '[', ']', '{', '}', ',', '|',
        '`', '%', '(', ')', 'é', 'Ω', 'ß', '日', '٣', '\u{301}', 'ǅ',
    ];
    let mut seed: u64 = 0x5eed_cafe;
    let mut next = |n: usize| {
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((seed >> 33) as usize) % n
    };
    let texts: Vec<String> = (0..400)
        .map(|_| {
            (0..next(5))
                .map(|_| ALPHABET[next(ALPHABET.len())])
                .collect()
        })
        .collect();
    let mut kb = String::new();
    let mut script = String::from(":- initialization(main).\nmain :-\n");
    for (i, text) in texts.iter().enumerate() {
        let escaped: String = text
            .chars()
            .flat_map(|c| match c {
                '"' | '\\' => vec!['\\', c],
                c => vec![c],
            })
            .collect();
        kb.push_str(&format!("w({i}, k(\"{escaped}\", x))\n"));
        let codes: Vec<String> = text.chars().map(|c| (c as u32).to_string()).collect();
        script.push_str(&format!(
            "    atom_codes(A{i}, [{}]), term_string(k(A{i}, x), S{i}), writeln(S{i}),\n",
            codes.join(",")
        ));
    }
    script.push_str("    halt.\n");
    let dir = crate::util::TempDir::new("swi-atoms");
    let file = dir.0.join("atoms.pl");
    std::fs::write(&file, script).expect("write");
    let out = std::process::Command::new(crate::differential::swipl())
        .args(["-q", file.to_str().expect("utf-8")])
        .output()
        .expect("swipl runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let swi: Vec<String> = String::from_utf8(out.stdout)
        .expect("utf-8")
        .lines()
        .map(str::to_string)
        .collect();
    assert_eq!(swi.len(), texts.len());
    let mut req = ReasonRequest::new(kb.as_str(), "w($i, $x)");
    req.max_solutions = Some(1000);
    let ReasonResult::Answered(a) = reasoner().reason(&req) else {
        panic!("the knowledge is refused")
    };
    let mut charon = vec![String::new(); texts.len()];
    for s in &a.solutions {
        let i = s.bindings["i"].as_u64().expect("an index") as usize;
        charon[i] = s.bindings["x"].as_str().expect("text").to_string();
    }
    let differ: Vec<String> = (0..texts.len())
        .filter(|&i| charon[i] != swi[i])
        .map(|i| format!("{:?}: charon {} swi {}", texts[i], charon[i], swi[i]))
        .collect();
    assert!(
        differ.is_empty(),
        "{} differ:\n{}",
        differ.len(),
        differ.join("\n")
    );
}
