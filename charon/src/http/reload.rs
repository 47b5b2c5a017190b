//! Hot reload as the HTTP layer sees it: the routes swapped while a server runs,
//! and how the reloads went (`GET /health` shows it).

use std::sync::Arc;

use axum::Router;
use axum::extract::Request;
use serde_json::{Value, json};

/// How the hot reloads of a server went (see [`ReloadableRouter`]): shared by the
/// code that reloads and every router it builds, whose `GET /health` shows it as
/// `reload` — the reloads done, and the error of the last one if it failed (the
/// knowledge base loaded before it is still served then).
#[derive(Debug, Clone, Default)]
pub struct ReloadState(Arc<std::sync::Mutex<(u64, Option<String>)>>);

/// The same state (shared), not an equal one.
impl PartialEq for ReloadState {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for ReloadState {}

impl ReloadState {
    /// A reload swapped in a new knowledge base.
    pub fn succeeded(&self) {
        let mut state = self.0.lock().unwrap_or_else(|p| p.into_inner());
        state.0 += 1;
        state.1 = None;
    }

    /// A reload failed with `error`; the old knowledge base keeps serving.
    pub fn failed(&self, error: String) {
        self.0.lock().unwrap_or_else(|p| p.into_inner()).1 = Some(error);
    }

    /// The error of the last reload, if it failed.
    pub fn error(&self) -> Option<String> {
        self.0.lock().unwrap_or_else(|p| p.into_inner()).1.clone()
    }

    pub(super) fn json(&self) -> Value {
        let (reloads, error) = self.0.lock().unwrap_or_else(|p| p.into_inner()).clone();
        match error {
            None => json!({"status": "ok", "reloads": reloads}),
            Some(error) => json!({"status": "failed", "reloads": reloads, "error": error,
                "serving": "the knowledge base loaded before the failed reload"}),
        }
    }
}

/// A router whose routes are replaced while it serves (hot reload): each request
/// goes to the router current when it arrives, and a request in flight finishes
/// on the one it started with (which keeps its knowledge base alive until then).
#[derive(Debug, Clone)]
pub struct ReloadableRouter(Arc<std::sync::RwLock<Router>>);

impl ReloadableRouter {
    /// Serves `router` until it is replaced.
    pub fn new(router: Router) -> Self {
        ReloadableRouter(Arc::new(std::sync::RwLock::new(router)))
    }

    /// Serves `router` from now on.
    pub fn replace(&self, router: Router) {
        *self.0.write().unwrap_or_else(|p| p.into_inner()) = router;
    }

    /// The router to serve: it hands each request to the current routes.
    pub fn router(&self) -> Router {
        let slot = self.0.clone();
        Router::new().fallback(move |req: Request| {
            let current = slot.read().unwrap_or_else(|p| p.into_inner()).clone();
            async move {
                use tower::ServiceExt;
                match current.oneshot(req).await {
                    Ok(response) => response,
                    Err(never) => match never {},
                }
            }
        })
    }
}
