//! An application that serves its own pages and mounts a Charon knowledge base:
//! the HTTP API under `/kb`, MCP under `/mcp`, both beside the app's routes, state,
//! fallback and layer.

use std::collections::HashMap;

use axum::Router;
use axum::extract::State;
use axum::http::{HeaderValue, StatusCode};
use axum::routing::{get, post};
use serde::{Deserialize, Serialize};

charon::knowledge_base!(Shop = "kb/shop.pl");

/// The app's own state (the knowledge base's routes do not need it).
#[derive(Clone, Debug)]
pub struct AppState {
    pub name: &'static str,
}

/// The app's own JSON: known fields plus any others, as floats. With serde_json's
/// `arbitrary_precision` turned on by a dependency, the flattened numbers would not
/// deserialize (`invalid type: map, expected f64`).
#[derive(Debug, Deserialize, Serialize, PartialEq)]
pub struct PriceList {
    pub currency: String,
    #[serde(flatten)]
    pub prices: HashMap<String, f64>,
}

/// The application.
pub fn app(shop: &Shop) -> Router {
    Router::new()
        .route("/", get(|State(s): State<AppState>| async move { s.name }))
        .route(
            "/prices",
            post(|axum::Json(list): axum::Json<PriceList>| async move {
                let sum: f64 = list.prices.values().sum();
                axum::Json(serde_json::json!({"currency": list.currency, "sum": sum}))
            }),
        )
        .nest("/kb", shop.router())
        .nest("/mcp", shop.mcp_router())
        .fallback(|| async { (StatusCode::NOT_FOUND, "the app's own 404") })
        .with_state(AppState { name: "corner shop" })
        .layer(axum::middleware::from_fn(
            |req: axum::extract::Request, next: axum::middleware::Next| async move {
                let mut resp = next.run(req).await;
                resp.headers_mut()
                    .insert("x-app", HeaderValue::from_static("corner-shop"));
                resp
            },
        ))
}
