//! An existing axum application that mounts a knowledge base under `/kb`, next to
//! its own routes, all behind one middleware layer of its own.
//!
//! ```sh
//! cargo run --release -p charon-example-axum            # serves on 127.0.0.1:3000
//! curl 'localhost:3000/kb/get_interaction?First=aspirin&Second=warfarin'
//! ```

use std::sync::Arc;

use axum::Router;
use axum::extract::Request;
use axum::http::HeaderValue;
use axum::middleware::{self, Next};
use axum::response::Response;
use axum::routing::get;

/// The application: its own routes, the knowledge base nested under `/kb`, and a
/// layer that stamps every response (the knowledge base's included).
fn app(kb: Arc<charon::KnowledgeBase>) -> Router {
    Router::new()
        .route("/", get(|| async { "pharmacy app: see /kb/openapi.json" }))
        .route("/version", get(|| async { env!("CARGO_PKG_VERSION") }))
        .nest("/kb", charon::http::router(kb))
        .layer(middleware::from_fn(served_by))
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
    let path = std::env::args()
        .nth(1)
        .unwrap_or_else(|| concat!(env!("CARGO_MANIFEST_DIR"), "/../meds.pl").to_string());
    let kb = Arc::new(charon::KnowledgeBase::load(&path)?);
    let port = std::env::var("PORT").unwrap_or_else(|_| "3000".into());
    let listener = tokio::net::TcpListener::bind(format!("127.0.0.1:{port}")).await?;
    eprintln!("serving {path} on http://{}/kb", listener.local_addr()?);
    axum::serve(listener, app(kb)).await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::body::Body;
    use axum::http::StatusCode;
    use tower::ServiceExt as _;

    fn kb() -> Arc<charon::KnowledgeBase> {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../meds.pl");
        Arc::new(charon::KnowledgeBase::load(path).expect("meds.pl loads"))
    }

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
    async fn own_routes_and_knowledge_base_routes_share_the_layer() {
        let app = app(kb());
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
