//! HTTP and OpenAPI through `Router::oneshot`: every answer shape, argument sources and
//! typing, every error status as problem+json, and every 200 validated against the
//! operation's 200 schema in the router's own OpenAPI document.

use std::sync::{Arc, OnceLock};
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::http::{Method, Request, StatusCode, header};
use charon::KnowledgeBase;
use charon::http::{HttpOptions, router_with};
use serde_json::{Value, json};
use tower::ServiceExt as _;

use crate::util::{config, exact, example, fixture};

/// A router with its OpenAPI document, whose schemas check every answer.
#[derive(Clone)]
pub struct Api {
    router: Router,
    doc: Arc<OnceLock<Value>>,
}

pub struct Reply {
    pub status: StatusCode,
    pub headers: axum::http::HeaderMap,
    pub body: Value,
}

impl Api {
    pub fn new(kb: KnowledgeBase, options: HttpOptions) -> Api {
        Api {
            router: router_with(Arc::new(kb), options),
            doc: Arc::new(OnceLock::new()),
        }
    }

    pub fn load(path: std::path::PathBuf) -> Api {
        Api::new(
            KnowledgeBase::load_with(path, config()).expect("loads"),
            HttpOptions::default(),
        )
    }

    async fn raw(&self, req: Request<Body>) -> Reply {
        let resp = self.router.clone().oneshot(req).await.expect("infallible");
        let status = resp.status();
        let headers = resp.headers().clone();
        let bytes = axum::body::to_bytes(resp.into_body(), usize::MAX)
            .await
            .expect("body");
        let body = if bytes.is_empty() {
            Value::Null
        } else {
            charon::json::from_slice(&bytes)
                .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&bytes)))
        };
        Reply {
            status,
            headers,
            body,
        }
    }

    pub async fn doc(&self) -> Value {
        if let Some(d) = self.doc.get() {
            return d.clone();
        }
        let r = self
            .raw(
                Request::get("/openapi.json")
                    .body(Body::empty())
                    .expect("req"),
            )
            .await;
        assert_eq!(r.status, StatusCode::OK);
        let _ = self.doc.set(r.body.clone());
        r.body
    }

    /// Sends a request; checks 200 bodies against the document and error bodies as
    /// problem details.
    pub async fn send(&self, method: Method, uri: &str, body: Option<Value>) -> Reply {
        let mut req = Request::builder().method(method.clone()).uri(uri);
        let body = match body {
            Some(v) => {
                req = req.header(header::CONTENT_TYPE, "application/json");
                Body::from(charon::json::to_string(&v).expect("json"))
            }
            None => Body::empty(),
        };
        let reply = self.raw(req.body(body).expect("request")).await;
        let path = uri.split('?').next().unwrap_or(uri);
        if reply.status == StatusCode::OK {
            self.check_answer(&method, path, &reply.body).await;
        } else {
            check_problem(&reply);
        }
        reply
    }

    async fn check_answer(&self, method: &Method, path: &str, body: &Value) {
        let doc = self.doc().await;
        let m = method.as_str().to_ascii_lowercase();
        let schema = &doc["paths"][path][m.as_str()]["responses"]["200"]["content"]["application/json"]
            ["schema"];
        assert!(schema.is_object(), "no 200 schema for {method} {path}");
        let validator = jsonschema::draft202012::new(schema).expect("valid schema");
        let body = &for_validator(body);
        let errors: Vec<String> = validator.iter_errors(body).map(|e| e.to_string()).collect();
        assert!(
            errors.is_empty(),
            "{method} {path} answered {body}, against {schema}: {errors:?}"
        );
    }

    pub async fn post(&self, path: &str, body: Value) -> Reply {
        self.send(Method::POST, path, Some(body)).await
    }
}

fn check_problem(reply: &Reply) {
    assert_eq!(
        reply
            .headers
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok()),
        Some("application/problem+json"),
        "{} {}",
        reply.status,
        reply.body
    );
    let b = &reply.body;
    assert!(
        b["type"]
            .as_str()
            .is_some_and(|t| t.starts_with("urn:charon:problem:")),
        "{b}"
    );
    assert!(
        b["title"].is_string() && b["detail"].as_str().is_some_and(|d| !d.is_empty()),
        "{b}"
    );
    assert_eq!(b["status"], json!(reply.status.as_u16()));
}

fn types() -> &'static Api {
    static API: OnceLock<Api> = OnceLock::new();
    API.get_or_init(|| Api::load(fixture("types.pl")))
}

#[tokio::test(flavor = "multi_thread")]
async fn every_determinism_and_output_count_has_its_shape() {
    let api = types();
    for (path, args, want) in [
        ("/det0", json!({"X": 1}), json!(true)),
        ("/det1", json!({"X": 1}), json!(2)),
        ("/det2", json!({"X": 2}), json!({"Y": 4, "Z": "even"})),
        ("/semi0", json!({"X": 1}), json!(true)),
        ("/semi0", json!({"X": 0}), json!(false)),
        ("/semi1", json!({"X": 1}), json!(2)),
        ("/semi1", json!({"X": 0}), json!(null)),
        ("/semi2", json!({"X": 1}), json!({"Y": 2, "Z": 3})),
        ("/semi2", json!({"X": 0}), json!(null)),
        ("/nd0", json!({"N": 2}), json!([true, true])),
        ("/nd0", json!({"N": 0}), json!([])),
        ("/nd1", json!({"N": 2}), json!([1, 2])),
        (
            "/nd2",
            json!({"N": 2}),
            json!([{"I": 1, "Sq": 1}, {"I": 2, "Sq": 4}]),
        ),
        ("/nd2", json!({"N": 0}), json!([])),
        ("/multi1", json!({"N": 1}), json!([1])),
        ("/failure0", json!({}), json!([])),
        ("/undeclared1", json!({"N": 3}), json!([1, 2, 3])),
        ("/one_solution_many", json!({}), json!([1])),
    ] {
        let r = api.post(path, args.clone()).await;
        assert_eq!(r.status, StatusCode::OK, "{path} {args}: {}", r.body);
        assert_eq!(r.body, want, "{path} {args}");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn det_failure_and_exceptions_are_problems_and_the_next_call_works() {
    let api = types();
    let r = api.post("/det_fails", json!({"X": 1})).await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
    assert_eq!(r.body["type"], "urn:charon:problem:det-failed");
    let r = api.post("/throws", json!({"X": 5})).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(r.body["type"], "urn:charon:problem:prolog-exception");
    assert!(
        r.body["detail"]
            .as_str()
            .is_some_and(|d| d.contains("my_error(5)"))
    );
    let r = api.post("/det1", json!({"X": 9})).await;
    assert_eq!((r.status, r.body), (StatusCode::OK, json!(10)));
    let r = api.post("/spin", json!({})).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(r.body["type"], "urn:charon:problem:inference-limit");
    let r = api.post("/nd1", json!({"N": 100000})).await;
    assert_eq!(r.body["type"], "urn:charon:problem:too-many-solutions");
    let r = api.post("/wrong_output", json!({})).await;
    assert_eq!(r.status, StatusCode::INTERNAL_SERVER_ERROR);
    assert_eq!(r.body["argument"], "X");
}

#[tokio::test(flavor = "multi_thread")]
async fn query_strings_are_typed_by_declaration_bodies_are_not() {
    let api = types();
    let r = api.send(Method::POST, "/echo_int?In=82", None).await;
    assert_eq!((r.status, r.body), (StatusCode::OK, json!(82)));
    let r = api.post("/echo_int", json!({"In": "82"})).await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    assert_eq!(r.body["argument"], "In");
    assert!(
        r.body["detail"]
            .as_str()
            .is_some_and(|d| d.contains("expected an integer"))
    );
    let r = api.send(Method::POST, "/echo_int?In=abc", None).await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    let r = api.send(Method::POST, "/echo_float?In=2.5", None).await;
    assert_eq!(r.body, json!(2.5));
    let r = api.send(Method::POST, "/echo_bool?In=true", None).await;
    assert_eq!(r.body, json!(true));
    let r = api.send(Method::POST, "/echo_atom?In=82", None).await;
    assert_eq!(r.body, json!("82"));
    // Lists: repeated keys or JSON text.
    let r = api
        .send(Method::POST, "/echo_list_int?In=1&In=2&In=3", None)
        .await;
    assert_eq!(r.body, json!([1, 2, 3]));
    let r = api
        .send(Method::POST, "/echo_list_int?In=%5B1%2C2%5D", None)
        .await;
    assert_eq!(r.body, json!([1, 2]));
    let r = api
        .send(Method::POST, "/echo_list_atom?In=a%20b&In=c", None)
        .await;
    assert_eq!(r.body, json!(["a b", "c"]));
    let r = api
        .send(Method::POST, "/echo_nested?In=%5B%5B%5B1%5D%5D%5D", None)
        .await;
    assert_eq!(r.body, json!([[[1]]]));
    let big = "123456789012345678901234567890";
    let r = api
        .send(Method::POST, &format!("/echo_int?In={big}"), None)
        .await;
    assert_eq!(exact(&r.body), big);
}

#[tokio::test(flavor = "multi_thread")]
async fn arguments_come_from_query_and_body_on_every_method() {
    let api = Api::load(example("library.pl"));
    // GET with a query string, and with a JSON body.
    let r = api.send(Method::GET, "/get_book?Id=sicp", None).await;
    assert_eq!(r.body["Year"], json!(1985));
    let r = api
        .send(Method::GET, "/get_book", Some(json!({"Id": "aop"})))
        .await;
    assert_eq!(r.body["Year"], json!(1986));
    // PUT with a query string, and with a body.
    let r = api
        .send(
            Method::PUT,
            "/put_book?Id=x&Title=T&Author=A&Year=2001",
            None,
        )
        .await;
    assert_eq!((r.status, r.body), (StatusCode::OK, json!(true)));
    let r = api
        .send(
            Method::PUT,
            "/put_book",
            Some(json!({"Id": "y", "Title": "U", "Author": "B", "Year": 2002})),
        )
        .await;
    assert_eq!(r.body, json!(true));
    let r = api
        .send(
            Method::PUT,
            "/put_book?Id=z&Year=2003",
            Some(json!({"Title": "V", "Author": "C"})),
        )
        .await;
    assert_eq!(r.body, json!(true));
    let r = api.send(Method::GET, "/get_books", None).await;
    assert_eq!(
        r.body,
        json!(["aop", "craft", "sicp", "taocp1", "x", "y", "z"])
    );
    // DELETE with a body, and with a query string.
    let r = api
        .send(Method::DELETE, "/delete_book", Some(json!({"Id": "x"})))
        .await;
    assert_eq!(r.body, json!(true));
    let r = api.send(Method::DELETE, "/delete_book?Id=x", None).await;
    assert_eq!(r.body, json!(false));
    // POST with a query string.
    let r = api.send(Method::POST, "/count_books", None).await;
    assert_eq!(r.body, json!(6));
}

#[tokio::test(flavor = "multi_thread")]
async fn bad_arguments_are_400_and_name_the_argument() {
    let api = types();
    for (uri, body, argument, words) in [
        ("/det2?X=1&X=2", None, Some("X"), "more than once"),
        (
            "/det2?X=1",
            Some(json!({"X": 1})),
            Some("X"),
            "both in the query string and in the body",
        ),
        (
            "/det2",
            Some(json!({"X": 1, "Q": 1})),
            Some("Q"),
            "unknown argument `Q`",
        ),
        ("/det2?Q=1&X=1", None, Some("Q"), "unknown argument `Q`"),
        (
            "/det2",
            Some(json!({})),
            Some("X"),
            "missing input argument `X`",
        ),
        (
            "/det2",
            Some(json!({"X": 1, "Y": 2})),
            Some("Y"),
            "`Y` is an output argument",
        ),
        ("/det2", Some(json!([1])), None, "JSON object"),
    ] {
        let r = api.send(Method::POST, uri, body.clone()).await;
        assert_eq!(r.status, StatusCode::BAD_REQUEST, "{uri} {body:?}");
        assert_eq!(r.body["type"], "urn:charon:problem:bad-arguments");
        assert_eq!(r.body["operation"], "det2");
        assert_eq!(r.body["argument"].as_str(), argument, "{}", r.body);
        assert!(
            r.body["detail"].as_str().is_some_and(|d| d.contains(words)),
            "{}",
            r.body
        );
    }
    let r = api
        .raw(
            Request::post("/det2")
                .header(header::CONTENT_TYPE, "application/json")
                .body(Body::from("{not json"))
                .expect("req"),
        )
        .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    check_problem(&r);
}

#[tokio::test(flavor = "multi_thread")]
async fn unknown_routes_wrong_methods_large_and_non_json_bodies() {
    let kb = KnowledgeBase::load_with(fixture("types.pl"), config()).expect("loads");
    let api = Api::new(kb, HttpOptions::default().with_body_limit(1024));
    let r = api.send(Method::GET, "/no_such_operation", None).await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
    let r = api.send(Method::GET, "/det1?X=1", None).await;
    assert_eq!(r.status, StatusCode::METHOD_NOT_ALLOWED);
    assert_eq!(
        r.headers.get(header::ALLOW).and_then(|v| v.to_str().ok()),
        Some("POST")
    );
    let r = api.send(Method::POST, "/openapi.json", None).await;
    assert_eq!(r.status, StatusCode::METHOD_NOT_ALLOWED);
    let r = api
        .post("/echo_string", json!({"In": "x".repeat(2000)}))
        .await;
    assert_eq!(r.status, StatusCode::PAYLOAD_TOO_LARGE);
    // (`send` sets no Content-Length, so the limit above held while reading.) A declared
    // length over the limit is refused before reading.
    let r = api
        .raw(
            Request::post("/det1")
                .header(header::CONTENT_LENGTH, "5000")
                .body(Body::from(" ".repeat(5000)))
                .expect("req"),
        )
        .await;
    assert_eq!(r.status, StatusCode::PAYLOAD_TOO_LARGE);
    check_problem(&r);
    let r = api
        .raw(
            Request::post("/det1")
                .header(header::CONTENT_TYPE, "text/plain")
                .body(Body::from("{\"X\":1}"))
                .expect("req"),
        )
        .await;
    assert_eq!(r.status, StatusCode::UNSUPPORTED_MEDIA_TYPE);
    check_problem(&r);
}

#[tokio::test(flavor = "multi_thread")]
async fn time_limit_is_504_and_a_full_queue_is_503() {
    let mut c = config();
    c.workers = 1;
    c.limits.time = Duration::from_secs(1);
    c.max_pending = 1;
    let kb = KnowledgeBase::load_with(fixture("types.pl"), c).expect("loads");
    let api = Api::new(kb, HttpOptions::default());
    let r = api.post("/nap", json!({"Seconds": 30})).await;
    assert_eq!(r.status, StatusCode::GATEWAY_TIMEOUT);
    assert_eq!(r.body["type"], "urn:charon:problem:time-limit");
    // One call holds the only place in the queue; the next is turned away. (If the
    // probe happens to run before the slow call took the place, try again.)
    let mut saw_503 = false;
    for _ in 0..20 {
        let slow = tokio::spawn({
            let api = api.clone();
            async move { api.post("/nap", json!({"Seconds": 30})).await.status }
        });
        tokio::time::sleep(Duration::from_millis(50)).await;
        let r = api.post("/det1", json!({"X": 1})).await;
        let slow = slow.await.expect("join");
        if r.status == StatusCode::SERVICE_UNAVAILABLE {
            assert_eq!(r.body["type"], "urn:charon:problem:overloaded");
            assert_eq!(slow, StatusCode::GATEWAY_TIMEOUT);
            saw_503 = true;
            break;
        }
    }
    assert!(saw_503, "a call was never refused while the queue was full");
    let r = api.post("/det1", json!({"X": 1})).await;
    assert_eq!((r.status, r.body), (StatusCode::OK, json!(2)));
}

#[tokio::test(flavor = "multi_thread")]
async fn hostile_strings_round_trip_over_http() {
    let api = types();
    let mut cases: Vec<String> = [
        "'), halt, ('",
        "\"",
        "\\",
        "\u{0}",
        "a\nb",
        "%",
        "&In=x",
        "é😀",
        "' ; true ; '",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    cases.push("x".repeat(10_000));
    for s in &cases {
        let r = api.post("/echo_atom", json!({"In": s})).await;
        assert_eq!(r.body, json!(s));
        let r = api.post("/echo_string", json!({"In": s})).await;
        assert_eq!(r.body, json!(s));
        let q: String = form_encode(s);
        let r = api
            .send(Method::POST, &format!("/echo_atom?In={q}"), None)
            .await;
        assert_eq!(r.body, json!(s), "query {q}");
    }
}

fn form_encode(s: &str) -> String {
    s.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn health_and_builtin_routes_cannot_be_shadowed() {
    let api = Api::load(fixture("report.pl"));
    let r = api.send(Method::GET, "/health", None).await;
    assert_eq!(r.status, StatusCode::OK);
    assert_eq!(r.body["status"], "ok");
    let doc = api.doc().await;
    assert_eq!(doc["paths"]["/health"]["get"]["operationId"], "health");
    assert!(doc["paths"]["/ok_plain"].is_object());
}

#[tokio::test(flavor = "multi_thread")]
async fn document_carries_pldoc_descriptions_and_exact_schemas() {
    let api = Api::load(example("meds.pl"));
    let doc = api.doc().await;
    assert_eq!(doc["openapi"], "3.1.0");
    let op = &doc["paths"]["/pim_check"]["post"];
    assert_eq!(op["operationId"], "pim_check");
    assert!(
        op["summary"]
            .as_str()
            .is_some_and(|s| s.starts_with("Screens a patient's medication list"))
    );
    let body = &op["requestBody"]["content"]["application/json"]["schema"];
    assert_eq!(body["required"], json!(["Age", "Drugs"]));
    assert_eq!(body["additionalProperties"], json!(false));
    assert_eq!(
        body["properties"]["Age"]["description"],
        "Age in completed years."
    );
    let ok = &op["responses"]["200"]["content"]["application/json"]["schema"];
    assert_eq!(ok["type"], "array");
    assert_eq!(ok["items"]["required"], json!(["Substance", "Reason"]));
    let get = &doc["paths"]["/get_interaction"]["get"];
    assert_eq!(get["parameters"][0]["name"], "First");
    assert_eq!(get["parameters"][0]["in"], "query");
    assert!(get["responses"]["200"]["content"]["application/json"]["schema"]["anyOf"].is_array());
    assert_eq!(
        op["responses"]["400"]["content"]["application/problem+json"]["schema"]["$ref"],
        "#/components/schemas/Problem"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn answers_of_every_example_fit_the_document() {
    let meds = Api::load(example("meds.pl"));
    for (method, uri, body) in [
        (
            Method::POST,
            "/pim_check",
            Some(json!({"Age": 82, "Drugs": ["diazepam", "doxylamine"]})),
        ),
        (
            Method::POST,
            "/is_pim",
            Some(json!({"Age": 82, "Drug": "diazepam"})),
        ),
        (
            Method::GET,
            "/get_interaction?First=aspirin&Second=warfarin",
            None,
        ),
        (
            Method::GET,
            "/get_interaction?First=aspirin&Second=water",
            None,
        ),
        (
            Method::POST,
            "/drug_class",
            Some(json!({"Drug": "aspirin"})),
        ),
        (
            Method::POST,
            "/screening_summary",
            Some(json!({"Age": 70, "Drugs": ["warfarin", "aspirin"]})),
        ),
        (Method::POST, "/ready", None),
    ] {
        let r = meds.send(method, uri, body).await;
        assert_eq!(r.status, StatusCode::OK, "{uri}: {}", r.body);
    }
    let library = Api::load(example("library.pl"));
    for (method, uri) in [
        (Method::GET, "/get_book?Id=sicp"),
        (Method::GET, "/get_book?Id=none"),
        (Method::GET, "/get_books"),
        (Method::GET, "/get_books_before?Year=1987"),
        (Method::POST, "/count_books"),
        (Method::DELETE, "/delete_book?Id=craft"),
    ] {
        let r = library.send(method, uri, None).await;
        assert_eq!(r.status, StatusCode::OK, "{uri}: {}", r.body);
    }
    let rbac = Api::load(example("rbac.pl"));
    for (method, uri, body) in [
        (
            Method::GET,
            "/get_user_has_permission?User=user_0042&Perm=deploy",
            None,
        ),
        (
            Method::POST,
            "/users_with_permission",
            Some(json!({"Perm": "deploy"})),
        ),
        (Method::GET, "/get_user_roles?User=user_0001", None),
    ] {
        let r = rbac.send(method, uri, body).await;
        assert_eq!(r.status, StatusCode::OK, "{uri}: {}", r.body);
    }
}

#[tokio::test]
async fn works_on_a_current_thread_runtime_too() {
    // Engine calls block in place on a multi-threaded runtime; here they must go to
    // the blocking pool instead (block_in_place would panic).
    let api = Api::load(fixture("types.pl"));
    let r = api.post("/det1", json!({"X": 1})).await;
    assert_eq!((r.status, r.body), (StatusCode::OK, json!(2)));
}

#[tokio::test(flavor = "multi_thread")]
async fn hostile_payloads_are_refused_and_the_server_stays_up() {
    let api = types();
    // Nesting deeper than the JSON parser allows.
    let deep = format!("{{\"In\": {}{}}}", "[".repeat(5000), "]".repeat(5000));
    let r = api
        .raw(
            Request::post("/echo_list")
                .header(header::CONTENT_TYPE, "application/json")
                .body(Body::from(deep))
                .expect("req"),
        )
        .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    check_problem(&r);
    // Thousands of unknown keys.
    let mut many = serde_json::Map::new();
    for i in 0..20_000 {
        many.insert(format!("K{i}"), json!(i));
    }
    let r = api.post("/det1", Value::Object(many)).await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    // A long query string of repeated keys.
    let uri = format!("/echo_list_int?{}", "In=1&".repeat(5_000));
    let r = api.send(Method::POST, &uri, None).await;
    assert_eq!(r.status, StatusCode::OK);
    assert_eq!(r.body.as_array().map(Vec::len), Some(5_000));
    // A goal that tries to run away, then a normal call.
    let r = api.post("/spin", json!({})).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    let r = api.post("/det1", json!({"X": 1})).await;
    assert_eq!((r.status, r.body), (StatusCode::OK, json!(2)));
}

/// The value with each integer past `u64` (held in `charon::json`'s private form: the
/// validator's serde_json, like the tests', cannot hold one) as the nearest float,
/// which the validator takes for the integer it is.
fn for_validator(value: &Value) -> Value {
    match value {
        Value::String(s) if exact(value) != serde_json::to_string(s).expect("json") => {
            let digits = exact(value);
            json!(digits.parse::<f64>().expect("an integer"))
        }
        Value::Array(items) => Value::Array(items.iter().map(for_validator).collect()),
        Value::Object(fields) => Value::Object(
            fields
                .iter()
                .map(|(k, v)| (k.clone(), for_validator(v)))
                .collect(),
        ),
        other => other.clone(),
    }
}
