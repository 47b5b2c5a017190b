//! Which documented predicates are exposed, and why the others are not.

use charon::pldoc::{self, Determinism, Mode, Reason, Type};

use crate::util::{fixture, line_of};

fn report() -> pldoc::Report {
    let path = fixture("report.pl");
    let text = std::fs::read_to_string(&path).expect("fixture");
    pldoc::analyse("report.pl", &text)
}

/// The rejection of `pi` (`name/arity`), checking its location is the mode line.
fn rejected(pi: &str, mode_line_needle: &str) -> Reason {
    let r = report();
    let rej = r
        .rejections
        .iter()
        .find(|x| x.predicate == pi)
        .unwrap_or_else(|| panic!("{pi} not rejected; report:\n{r}"));
    assert_eq!(rej.location.file, "report.pl");
    assert_eq!(
        rej.location.line,
        line_of(&fixture("report.pl"), mode_line_needle),
        "{rej}"
    );
    assert!(rej.to_string().starts_with(&format!(
        "report.pl:{}:{}: ",
        rej.location.line, rej.location.column
    )));
    // The column and byte offset point at the same character of the mode line.
    let text = std::fs::read_to_string(fixture("report.pl")).expect("fixture");
    let line = text.lines().nth(rej.location.line - 1).expect("line");
    let at_column: String = line.chars().skip(rej.location.column - 1).collect();
    assert!(text[rej.location.offset..].starts_with(&at_column), "{rej}");
    assert!(!at_column.starts_with(char::is_whitespace), "{rej}");
    assert!(rej.location.snippet(&text).contains(line), "{rej}");
    rej.reason.clone()
}

#[test]
fn accepted_forms_parse_into_operations() {
    let r = report();
    let names: Vec<&str> = r.operations.iter().map(|o| o.name.as_ref()).collect();
    assert_eq!(
        names,
        [
            "ok_plain",
            "ok_block",
            "ok_zero",
            "ok_undeclared",
            "ok_gap",
            "ok_before_clause"
        ]
    );

    let plain = r.operation("ok_plain").expect("ok_plain");
    assert_eq!(plain.determinism, Determinism::Det);
    assert_eq!(
        plain.description,
        "A description over\ntwo lines.\n\nSecond paragraph."
    );
    assert_eq!(plain.args[0].name, "A");
    assert_eq!(plain.args[0].mode, Mode::In);
    assert_eq!(
        plain.args[0].doc.as_deref(),
        Some("First argument, continued.")
    );
    assert_eq!(
        plain.args[1].ty,
        Type::List(Box::new(Type::List(Box::new(Type::Atom))))
    );
    assert_eq!(plain.args[1].mode, Mode::Out);
    assert_eq!(
        plain.location.line,
        line_of(&fixture("report.pl"), "%! ok_plain")
    );

    let block = r.operation("ok_block").expect("ok_block");
    assert_eq!(block.determinism, Determinism::Semidet);
    assert_eq!(block.args[0].ty, Type::String);
    assert_eq!(block.description, "Documented with a block comment.");
    assert_eq!(block.args[0].doc.as_deref(), Some("Who."));

    let zero = r.operation("ok_zero").expect("ok_zero");
    assert!(zero.args.is_empty());
    assert_eq!(
        r.operation("ok_undeclared").expect("u").determinism,
        Determinism::Undeclared
    );
    assert_eq!(
        r.operation("ok_undeclared").expect("u").args[0].ty,
        Type::Bool
    );
    assert_eq!(r.operation("ok_gap").expect("gap").args[0].ty, Type::Number);
}

#[test]
fn query_mode_is_rejected() {
    assert_eq!(
        rejected("bad_query_mode/1", "%! bad_query_mode"),
        Reason::ArgMode {
            arg: "X".into(),
            mode: "?".into()
        }
    );
}

#[test]
fn at_mode_is_rejected() {
    assert_eq!(
        rejected("bad_at_mode/1", "%! bad_at_mode"),
        Reason::ArgMode {
            arg: "X".into(),
            mode: "@".into()
        }
    );
}

#[test]
fn missing_mode_is_rejected() {
    assert_eq!(
        rejected("bad_no_mode/1", "%! bad_no_mode"),
        Reason::ArgMode {
            arg: "X".into(),
            mode: String::new()
        }
    );
}

#[test]
fn compound_stream_custom_and_nested_types_are_rejected() {
    for (pi, needle, ty, bad) in [
        ("bad_compound/1", "%! bad_compound", "compound", "compound"),
        ("bad_stream/1", "%! bad_stream", "stream", "stream"),
        ("bad_custom/1", "%! bad_custom", "patient", "patient"),
        ("bad_nested/1", "%! bad_nested", "list(stream)", "stream"),
    ] {
        let arg = if pi.starts_with("bad_stream") {
            "S"
        } else {
            "X"
        };
        assert_eq!(
            rejected(pi, needle),
            Reason::ArgType {
                arg: arg.into(),
                ty: ty.into(),
                bad: bad.into()
            }
        );
    }
}

#[test]
fn missing_type_is_rejected() {
    assert_eq!(
        rejected("bad_no_type/1", "%! bad_no_type"),
        Reason::MissingType { arg: "X".into() }
    );
}

#[test]
fn arity_mismatch_is_rejected() {
    assert_eq!(
        rejected("bad_arity/2", "%! bad_arity"),
        Reason::ArityMismatch {
            declared: 2,
            found: 1
        }
    );
}

#[test]
fn block_not_followed_by_its_clauses_is_rejected() {
    let other = rejected("bad_followed/1", "%! bad_followed");
    assert!(
        matches!(&other, Reason::NotFollowedByClauses { found } if found.contains("something_else/1")),
        "{other:?}"
    );
    let later = rejected("bad_later_first/1", "%! bad_later_first");
    assert!(
        matches!(&later, Reason::NotFollowedByClauses { found } if found.contains("later clause")),
        "{later:?}"
    );
    let directive = rejected("bad_directive/1", "%! bad_directive");
    assert!(
        matches!(&directive, Reason::NotFollowedByClauses { found } if found.contains("directive")),
        "{directive:?}"
    );
    let end = rejected("bad_at_end/1", "%! bad_at_end");
    assert!(
        matches!(&end, Reason::NotFollowedByClauses { found } if found.contains("end of the file")),
        "{end:?}"
    );
    // A block followed by its first clause, with comments between, is fine.
    assert!(report().operation("ok_before_clause").is_some());
}

#[test]
fn name_clash_rejects_both() {
    let a = rejected("clash/1", "%! clash(+X:int) is det.");
    let b = rejected("clash/2", "%! clash(+X:int, +Y:int)");
    assert!(matches!(a, Reason::NameClash { other, .. } if other == "clash/2"));
    assert!(matches!(b, Reason::NameClash { other, .. } if other == "clash/1"));
}

#[test]
fn invalid_tool_name_is_rejected() {
    assert_eq!(rejected("bad name/1", "%! 'bad name'"), Reason::InvalidName);
}

#[test]
fn builtin_route_name_is_rejected() {
    assert_eq!(rejected("health/0", "%! health"), Reason::ReservedName);
}

#[test]
fn unknown_determinism_and_malformed_lines_are_rejected() {
    assert_eq!(
        rejected("bad_det/1", "%! bad_det"),
        Reason::UnknownDeterminism("sometimes".into())
    );
    assert!(matches!(
        rejected("bad_syntax", "%! bad_syntax"),
        Reason::MalformedModeLine(_)
    ));
}

#[test]
fn undocumented_predicates_are_not_reported() {
    let r = report();
    assert!(
        r.rejections
            .iter()
            .all(|x| !x.predicate.starts_with("undocumented"))
    );
    assert!(
        r.rejections
            .iter()
            .all(|x| !x.predicate.starts_with("something_else"))
    );
}

#[test]
fn knowledge_base_carries_the_same_report() {
    let kb = charon::KnowledgeBase::load_with(fixture("report.pl"), crate::util::config())
        .expect("report.pl loads");
    let direct = report();
    assert_eq!(kb.operations().len(), direct.operations.len());
    assert_eq!(kb.report().rejections.len(), direct.rejections.len());
    assert!(!kb.report().is_clean());
    assert_eq!(
        kb.call("ok_plain", &serde_json::json!({"A": 1}))
            .expect("callable"),
        serde_json::json!([])
    );
}

/// `@charon skip` leaves a documented predicate out without a rejection (a helper
/// whose mode no operation can have); `@charon name` exposes a predicate under
/// another name on every surface (route, tool, JSON calls, explain), calling the
/// predicate it documents.
#[test]
fn a_pldoc_tag_skips_or_renames_an_operation() {
    use serde_json::json;
    let src = "%! in_list(?X, +L) is nondet.\n%\n%  A helper.\n%  @charon skip\n\
               in_list(X, [X|_]).\nin_list(X, [_|T]) :- in_list(X, T).\n\n\
               %! dup(+X:int, -Y:int) is det.\ndup(X, Y) :- Y is X * 2.\n\n\
               %! dup(+X:int, +N:int, -Y:int) is det.\n%\n%  @charon name dup_times\n\
               dup(X, N, Y) :- Y is X * N.\n\n\
               %! odd(-X:int) is det.\n%  @charon rename odd\nodd(1).\n";
    let report = pldoc::analyse("tags.pl", src);
    let names: Vec<&str> = report.operations.iter().map(|o| o.name.as_ref()).collect();
    assert_eq!(names, ["dup", "dup_times"]);
    assert_eq!(report.operations[1].predicate, "dup");
    // An unknown tag is a rejection that says what the tags are.
    assert_eq!(report.rejections.len(), 1, "{report}");
    assert!(
        matches!(&report.rejections[0].reason, Reason::UnknownTag(t) if t == "rename odd"),
        "{report}"
    );
    let kb = charon::KnowledgeBase::from_source_with("tags.pl", src, crate::util::config())
        .expect("loads");
    assert_eq!(kb.call("dup", &json!({"X": 4})).expect("dup"), json!(8));
    assert_eq!(
        kb.call("dup_times", &json!({"X": 4, "N": 3}))
            .expect("dup_times"),
        json!(12)
    );
    assert_eq!(kb.explainable(), ["dup", "dup_times"]);
    let id = kb.resolve("dup_times").expect("id");
    let explained = kb.explain(id, &json!({"X": 2, "N": 5})).expect("explain");
    assert_eq!(explained.result, json!(10));
    let kb = std::sync::Arc::new(kb);
    let server = charon::mcp::McpServer::new(kb.clone());
    let tools: Vec<&str> = server.tools().iter().map(|t| t.name.as_ref()).collect();
    assert_eq!(tools, ["dup", "dup_times"]);
    let doc = charon::http::openapi::document("tags.pl", kb.operations());
    assert!(doc["paths"]["/dup_times"]["post"].is_object(), "{doc}");
    // Over HTTP, the renamed operation answers at its route.
    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    let (status, body) = runtime.block_on(async {
        use tower::ServiceExt as _;
        let request = axum::http::Request::post("/dup_times")
            .header("content-type", "application/json")
            .header("host", "localhost")
            .body(axum::body::Body::from(r#"{"X": 4, "N": 3}"#))
            .expect("request");
        let response = charon::http::router(kb.clone())
            .oneshot(request)
            .await
            .expect("infallible");
        let status = response.status();
        let bytes = axum::body::to_bytes(response.into_body(), 1 << 20)
            .await
            .expect("body");
        (status, String::from_utf8_lossy(&bytes).into_owned())
    });
    assert_eq!((status.as_u16(), body.as_str()), (200, "12"));
}
