//! An existing axum application that uses a knowledge base three ways: it mounts the
//! generated HTTP API under `/kb` and MCP over HTTP at `/mcp` next to its own routes,
//! and one of its own handlers calls a typed method. Everything sits behind the application's own tower layers.
//!
//! ```sh
//! cargo run --release -p charon-example-axum            # serves on 127.0.0.1:3000
//! curl 'localhost:3000/kb/get_interaction?First=aspirin&Second=warfarin'
//! curl 'localhost:3000/screen?age=82&drug=diazepam&drug=warfarin'
//! ```

use axum::Router;
use axum::extract::{Query, Request, State};
use axum::http::{HeaderValue, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use tower::limit::ConcurrencyLimitLayer;

// The typed API of examples/meds.pl, compiled in (path relative to this crate).
charon::knowledge_base!(Meds = "kb/meds.pl");

/// The application: its own routes (one of them calling the knowledge base through a
/// typed method), the generated API nested under `/kb`, and two layers over all of it.
fn app(meds: Meds) -> Router {
    Router::new()
        .route("/", get(|| async { "pharmacy app: see /kb/openapi.json" }))
        .route("/screen", get(screen))
        .nest("/kb", meds.router())
        .nest("/mcp", meds.mcp_router()) // MCP over HTTP at /mcp
        .with_state(meds)
        .layer(middleware::from_fn(served_by))
        .layer(ConcurrencyLimitLayer::new(256))
}

/// `GET /screen?age=82&drug=a&drug=b`: the application's own answer format, built
/// from a typed call.
async fn screen(State(meds): State<Meds>, Query(query): Query<Vec<(String, String)>>) -> Response {
    let mut age = None;
    let mut drugs = Vec::new();
    for (key, value) in query {
        match key.as_str() {
            "age" => age = value.parse::<i64>().ok(),
            "drug" => drugs.push(value),
            _ => {}
        }
    }
    let Some(age) = age else {
        return (StatusCode::BAD_REQUEST, "give ?age=N&drug=…").into_response();
    };
    match meds.screening_summary(age, &drugs).await {
        Ok(summary) if summary.flagged.is_empty() => "nothing flagged".into_response(),
        Ok(summary) => format!(
            "flagged: {}; interacting pairs: {}",
            summary.flagged.join(", "),
            summary.interactions
        )
        .into_response(),
        Err(e) => (StatusCode::INTERNAL_SERVER_ERROR, e.to_string()).into_response(),
    }
}

async fn served_by(request: Request, next: Next) -> Response {
    let mut response = next.run(request).await;
    response
        .headers_mut()
        .insert("x-served-by", HeaderValue::from_static("pharmacy-app"));
    response
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let meds = Meds::load()?;
    let port = std::env::var("PORT").unwrap_or_else(|_| "3000".into());
    let listener = tokio::net::TcpListener::bind(format!("127.0.0.1:{port}")).await?;
    eprintln!(
        "serving {} on http://{}/",
        Meds::FILE,
        listener.local_addr()?
    );
    axum::serve(listener, app(meds)).await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::body::Body;
    use tower::ServiceExt as _;

    async fn get(app: &Router, uri: &str) -> (StatusCode, Option<HeaderValue>, String) {
        let response = app
            .clone()
            .oneshot(Request::get(uri).body(Body::empty()).expect("request"))
            .await
            .expect("infallible");
        let status = response.status();
        let stamp = response.headers().get("x-served-by").cloned();
        let body = axum::body::to_bytes(response.into_body(), usize::MAX)
            .await
            .expect("body");
        (status, stamp, String::from_utf8_lossy(&body).into_owned())
    }

    #[tokio::test(flavor = "multi_thread")]
    async fn own_routes_typed_calls_and_generated_routes_share_the_layers() {
        let app = app(Meds::load().expect("meds.pl loads"));
        let stamp = Some(HeaderValue::from_static("pharmacy-app"));
        assert_eq!(
            get(&app, "/").await,
            (
                StatusCode::OK,
                stamp.clone(),
                "pharmacy app: see /kb/openapi.json".into()
            )
        );
        assert_eq!(
            get(
                &app,
                "/screen?age=82&drug=diazepam&drug=warfarin&drug=aspirin"
            )
            .await,
            (
                StatusCode::OK,
                stamp.clone(),
                "flagged: diazepam; interacting pairs: 1".into()
            )
        );
        assert_eq!(
            get(&app, "/kb/get_interaction?First=aspirin&Second=warfarin").await,
            (StatusCode::OK, stamp.clone(), "\"major\"".into())
        );
        let (status, s, doc) = get(&app, "/kb/openapi.json").await;
        assert_eq!((status, s), (StatusCode::OK, stamp.clone()));
        assert!(doc.contains("\"/pim_check\""));
        let (status, s, body) = get(&app, "/kb/no_such_route").await;
        assert_eq!((status, s), (StatusCode::NOT_FOUND, stamp));
        assert!(body.contains("urn:charon:problem:not-found"));
    }
}
