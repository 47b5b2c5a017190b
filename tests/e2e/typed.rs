//! `charon::knowledge_base!`: typed methods for every declared type and determinism,
//! blocking and async, compared with the dynamic JSON calls of the same knowledge base;
//! the compiled model against the run-time one; files loaded in place of the compiled
//! text; the generated router and MCP server.

use std::sync::{Arc, OnceLock};

use axum::body::Body;
use axum::http::{Request, StatusCode};
use charon::{CallError, KnowledgeBase, LoadError};
use serde_json::{Value, json};
use tower::ServiceExt as _;

use crate::util::{config, fixture};

charon::knowledge_base!("kbs/types.pl");
charon::knowledge_base!(pub(crate) Pharmacy = "../examples/meds.pl");

fn kb() -> &'static Types {
    static KB: OnceLock<Types> = OnceLock::new();
    KB.get_or_init(|| Types::load_with(config()).expect("types.pl loads"))
}

/// The dynamic JSON answer of the same call, for comparison.
fn dynamic(name: &str, args: Value) -> Value {
    kb().knowledge_base().call(name, &args).expect(name)
}

#[test]
fn every_declared_type_round_trips_through_typed_methods() {
    let b = kb().blocking();
    assert_eq!(
        b.echo_atom("it's \"quoted\"").expect("atom"),
        "it's \"quoted\""
    );
    assert_eq!(b.echo_string("text ✓").expect("string"), "text ✓");
    assert_eq!(b.echo_text("").expect("text"), "");
    assert_eq!(b.echo_int(i64::MIN).expect("int"), i64::MIN);
    assert_eq!(b.echo_integer(42).expect("integer"), 42);
    assert_eq!(b.echo_float(0.1).expect("float"), 0.1);
    assert_eq!(b.echo_number(-2.5).expect("number"), -2.5);
    assert!(b.echo_bool(true).expect("bool"));
    assert!(!b.echo_boolean(false).expect("boolean"));
    assert_eq!(b.echo_list_int(&[1, 2, 3]).expect("list(int)"), [1, 2, 3]);
    let atoms = ["a".to_string(), "b c".to_string()];
    assert_eq!(b.echo_list_atom(&atoms).expect("list(atom)"), atoms);
    assert_eq!(b.echo_list_string(&atoms).expect("list(string)"), atoms);
    let nested = vec![vec![vec![1, 2], vec![]], vec![vec![3]]];
    assert_eq!(b.echo_nested(&nested).expect("nested"), nested);
    let anys = [json!(1), json!("x"), json!([true, 2.5])];
    assert_eq!(b.echo_list(&anys).expect("list"), anys);
    assert_eq!(
        b.echo_any(&json!(["a", [1, false]])).expect("any"),
        json!(["a", [1, false]])
    );
}

#[test]
fn return_types_follow_the_declared_determinism() {
    let b = kb().blocking();
    // det: () without outputs, the value with one, a struct with several.
    b.det0(1).expect("det0");
    assert_eq!(b.det1(1).expect("det1"), 2);
    let two = b.det2(4).expect("det2");
    assert_eq!((two.y, two.z.as_str()), (8, "even"));
    // semidet: bool without outputs, Option otherwise.
    assert!(b.semi0(1).expect("semi0"));
    assert!(!b.semi0(-1).expect("semi0"));
    assert_eq!(b.semi1(2).expect("semi1"), Some(4));
    assert_eq!(b.semi1(-2).expect("semi1"), None);
    let s = b.semi2(2).expect("semi2").expect("some");
    assert_eq!((s.y, s.z), (4, 6));
    // many: the count without outputs, a Vec otherwise.
    assert_eq!(b.nd0(3).expect("nd0"), 3);
    assert_eq!(b.nd1(3).expect("nd1"), [1, 2, 3]);
    let squares: Vec<(i64, i64)> = b
        .nd2(3)
        .expect("nd2")
        .into_iter()
        .map(|s| (s.i, s.sq))
        .collect();
    assert_eq!(squares, [(1, 1), (2, 4), (3, 9)]);
    assert_eq!(b.multi1(2).expect("multi1"), [1, 2]);
    assert_eq!(b.failure0().expect("failure0"), 0);
    assert_eq!(b.undeclared1(2).expect("undeclared1"), [1, 2]);
}

#[test]
fn typed_answers_equal_the_dynamic_json_answers() {
    let b = kb().blocking();
    let cases: Vec<(&str, Value, Value)> = vec![
        (
            "det2",
            json!({"X": 4}),
            serde_json::to_value(b.det2(4).expect("det2")).expect("json"),
        ),
        (
            "semi2",
            json!({"X": 2}),
            serde_json::to_value(b.semi2(2).expect("semi2")).expect("json"),
        ),
        (
            "semi2",
            json!({"X": -2}),
            serde_json::to_value(b.semi2(-2).expect("semi2")).expect("json"),
        ),
        (
            "nd2",
            json!({"N": 3}),
            serde_json::to_value(b.nd2(3).expect("nd2")).expect("json"),
        ),
        ("semi0", json!({"X": 1}), json!(b.semi0(1).expect("semi0"))),
        (
            "echo_float",
            json!({"In": 1e300}),
            json!(b.echo_float(1e300).expect("float")),
        ),
    ];
    for (name, args, typed) in cases {
        assert_eq!(dynamic(name, args.clone()), typed, "{name} {args}");
    }
}

#[test]
fn errors_are_typed() {
    let b = kb().blocking();
    assert!(matches!(b.det_fails(1), Err(CallError::DetFailed { .. })));
    assert!(matches!(b.throws(1), Err(CallError::Exception { .. })));
    assert!(matches!(b.wrong_output(), Err(CallError::Output { .. })));
    // An `int` beyond i64 is an error that names it, never a truncated number.
    match b.big() {
        Err(CallError::Decode { operation, message }) => {
            assert_eq!(operation, "big");
            assert!(
                message.contains("1267650600228229401496703205376"),
                "{message}"
            );
        }
        other => panic!("expected a decode error, got {other:?}"),
    }
    // A float that JSON cannot carry is refused as a bad argument.
    assert!(matches!(
        b.echo_float(f64::NAN),
        Err(CallError::Arguments { .. })
    ));
}

#[tokio::test(flavor = "multi_thread")]
async fn async_methods_from_a_runtime() {
    let kb = kb();
    let (a, b, c) = tokio::join!(kb.det1(1), kb.nd1(4), kb.echo_atom("x"));
    assert_eq!(a.expect("det1"), 2);
    assert_eq!(b.expect("nd1"), [1, 2, 3, 4]);
    assert_eq!(c.expect("echo_atom"), "x");
}

#[tokio::test(flavor = "current_thread")]
async fn a_slow_call_does_not_stall_other_futures_on_a_single_thread_runtime() {
    let kb = kb();
    let ticks = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let ticker = {
        let ticks = ticks.clone();
        async move {
            for _ in 0..10 {
                tokio::time::sleep(std::time::Duration::from_millis(20)).await;
                ticks.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            }
        }
    };
    // nap(1) holds a worker for a second; the ticker keeps ticking meanwhile.
    let (napped, ()) = tokio::join!(kb.nap(1), ticker);
    napped.expect("nap");
    assert_eq!(ticks.load(std::sync::atomic::Ordering::SeqCst), 10);
}

/// Polls a future to completion on this thread, with no async runtime at all.
fn block_on<F: std::future::Future>(future: F) -> F::Output {
    struct Unpark(std::thread::Thread);
    impl std::task::Wake for Unpark {
        fn wake(self: Arc<Self>) {
            self.0.unpark();
        }
    }
    let waker = std::task::Waker::from(Arc::new(Unpark(std::thread::current())));
    let mut context = std::task::Context::from_waker(&waker);
    let mut future = std::pin::pin!(future);
    loop {
        if let std::task::Poll::Ready(output) = future.as_mut().poll(&mut context) {
            return output;
        }
        std::thread::park();
    }
}

#[test]
fn async_methods_need_no_tokio_runtime() {
    assert_eq!(block_on(kb().det1(41)).expect("det1"), 42);
    assert_eq!(block_on(kb().nd1(2)).expect("nd1"), [1, 2]);
}

#[test]
fn a_call_prepared_by_one_knowledge_base_is_refused_by_another() {
    let a = kb().knowledge_base();
    let b = KnowledgeBase::load_with(fixture("types.pl"), config()).expect("loads");
    let id = a.resolve("det1").expect("det1");
    assert!(b.op(id).is_none());
    let call = a.prepare(id, &json!({"X": 1})).expect("prepares");
    assert!(matches!(
        b.invoke(call),
        Err(CallError::UnknownOperation(_))
    ));
    assert!(matches!(
        b.prepare(id, &json!({"X": 1})),
        Err(CallError::UnknownOperation(_))
    ));
}

#[test]
fn the_compiled_model_equals_the_run_time_analysis() {
    for (compiled, file) in [
        (Types::operations(), "kbs/types.pl"),
        (Pharmacy::operations(), "../examples/meds.pl"),
    ] {
        let text = std::fs::read_to_string(crate::util::root().join("tests").join(file))
            .expect("readable");
        let analysed = charon::pldoc::analyse(file, &text);
        assert_eq!(compiled, analysed.operations.as_slice(), "{file}");
    }
    assert_eq!(Types::FILE, "kbs/types.pl");
    assert_eq!(
        Types::SOURCE,
        std::fs::read_to_string(fixture("types.pl")).expect("readable")
    );
    assert_eq!(kb().knowledge_base().operations(), Types::operations());
}

#[test]
fn a_file_loads_in_place_of_the_compiled_text_only_if_its_operations_match() {
    let dir = std::env::temp_dir().join(format!("charon-typed-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    // Same operations, other clauses and other documentation: accepted.
    let same = dir.join("same.pl");
    let text = Types::SOURCE
        .replace("det1(X, Y) :- Y is X + 1.", "det1(X, Y) :- Y is X + 100.")
        .replace("%  What Prolog received", "%  Now documented differently");
    std::fs::write(&same, text).expect("write");
    let other = Types::load_file(&same, config()).expect("same operations load");
    assert_eq!(other.blocking().det1(1).expect("det1"), 101);
    // A changed type: refused, naming the difference.
    let changed = dir.join("changed.pl");
    std::fs::write(
        &changed,
        Types::SOURCE.replace(
            "%! det1(+X:int, -Y:int) is det.",
            "%! det1(+X:int, -Y:atom) is det.",
        ),
    )
    .expect("write");
    match Types::load_file(&changed, config()) {
        Err(LoadError::ModelMismatch { difference, .. }) => {
            assert!(
                difference.contains("det1(+X:int, -Y:int) is det"),
                "{difference}"
            );
            assert!(difference.contains("-Y:atom"), "{difference}");
        }
        other => panic!("expected a mismatch, got {other:?}"),
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread")]
async fn the_generated_router_and_mcp_server_serve_the_compiled_operations() {
    let meds = Pharmacy::load_with(config()).expect("meds loads");
    let app = axum::Router::new().nest("/kb", meds.router());
    let response = app
        .oneshot(
            Request::get("/kb/get_interaction?First=aspirin&Second=warfarin")
                .body(Body::empty())
                .expect("request"),
        )
        .await
        .expect("response");
    assert_eq!(response.status(), StatusCode::OK);
    let body = axum::body::to_bytes(response.into_body(), 1 << 20)
        .await
        .expect("body");
    assert_eq!(
        charon::json::from_slice(&body).expect("json"),
        json!("major")
    );
    assert_eq!(
        meds.get_interaction("aspirin", "warfarin")
            .await
            .expect("typed"),
        Some("major".to_string())
    );

    let dynamic =
        KnowledgeBase::load_with(crate::util::example("meds.pl"), config()).expect("loads");
    let tools =
        |server: charon::mcp::McpServer| serde_json::to_value(server.tools()).expect("tools json");
    assert_eq!(
        tools(meds.mcp_server()),
        tools(charon::mcp::McpServer::new(Arc::new(dynamic)))
    );
}

/// Generated code names everything by absolute path: shadowing the prelude and
/// `serde` in the calling module changes nothing.
#[allow(dead_code, non_camel_case_types)]
mod shadowed {
    struct Result;
    struct Option;
    struct String;
    struct Vec;
    struct Box;
    mod serde {}
    mod charon_private {}
    charon::knowledge_base!(Library = "../examples/library.pl");

    #[test]
    fn a_shadowed_module_still_gets_a_working_type() {
        let lib = Library::load_with(crate::util::config()).expect("library loads");
        let book = lib.blocking().get_book("sicp").expect("get_book");
        assert!(book.is_some_and(|b| b.year > 1900));
    }
}
