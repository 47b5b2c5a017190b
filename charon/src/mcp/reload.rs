//! An MCP server whose knowledge base is replaced while it serves (hot reload).
//!
//! Every session's handler is a [`ReloadableMcp`] sharing one cell: a request sees
//! the server current when it arrived, and a call in flight finishes on the one it
//! started with. [`ReloadableMcp::replace`] swaps the cell, then tells the client
//! of every open session that the tools changed
//! (`notifications/tools/list_changed`; the capability is declared).

use std::sync::{Arc, Mutex, RwLock};

use rmcp::ErrorData as McpError;
use rmcp::handler::server::ServerHandler;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, ListResourcesResult, ListToolsResult,
    PaginatedRequestParams, ReadResourceRequestParams, ReadResourceResponse, ServerConfig, Tool,
};
use rmcp::service::{NotificationContext, Peer, RequestContext, RoleServer};

use super::McpServer;

/// An [`McpServer`] that can be replaced while sessions are open.
#[derive(Clone)]
pub struct ReloadableMcp {
    current: Arc<RwLock<McpServer>>,
    /// The clients of the sessions initialized so far (closed ones are dropped
    /// when found closed).
    peers: Arc<Mutex<Vec<Peer<RoleServer>>>>,
}

impl std::fmt::Debug for ReloadableMcp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ReloadableMcp")
            .field("current", &self.current())
            .finish_non_exhaustive()
    }
}

impl ReloadableMcp {
    /// Serves `server` until it is replaced.
    pub fn new(server: McpServer) -> Self {
        ReloadableMcp {
            // Served by Charon's own transports (`charon mcp --watch`).
            current: Arc::new(RwLock::new(server.ordered())),
            peers: Arc::default(),
        }
    }

    /// The server requests are given to now.
    pub fn current(&self) -> McpServer {
        self.current
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }

    /// Serves `server` from now on, and tells every open session's client that the
    /// tools changed (each within 5 s, or not at all). Returns how many clients were
    /// told.
    pub async fn replace(&self, server: McpServer) -> usize {
        *self.current.write().unwrap_or_else(|p| p.into_inner()) = server.ordered();
        let peers: Vec<Peer<RoleServer>> = {
            let mut peers = self.peers.lock().unwrap_or_else(|p| p.into_inner());
            peers.retain(|p| !p.is_transport_closed());
            peers.clone()
        };
        // Each in a task of its own, under a time limit: a client that does not
        // read its stream must not hold the others (or the next reload) back.
        let tasks: Vec<_> = peers
            .into_iter()
            .map(|peer| {
                tokio::spawn(async move {
                    let told = tokio::time::timeout(
                        std::time::Duration::from_secs(5),
                        peer.notify_tool_list_changed(),
                    )
                    .await;
                    matches!(told, Ok(Ok(())))
                })
            })
            .collect();
        let mut told = 0;
        for task in tasks {
            if matches!(task.await, Ok(true)) {
                told += 1;
            }
        }
        told
    }
}

impl ServerHandler for ReloadableMcp {
    fn get_info(&self) -> ServerConfig {
        self.current().get_info()
    }

    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        let mut peers = self.peers.lock().unwrap_or_else(|p| p.into_inner());
        peers.retain(|p| !p.is_transport_closed());
        peers.push(context.peer);
    }

    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        self.current().list_tools(request, context).await
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.current().get_tool(name)
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        self.current().call_tool(request, context).await
    }

    async fn list_resources(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, McpError> {
        self.current().list_resources(request, context).await
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, McpError> {
        self.current().read_resource(request, context).await
    }
}
