//! `charon http` and `charon mcp`: what a server serves (a knowledge base, the
//! reasoning tools, or both), how it reloads, and how it stops (a fold of the
//! database on SIGINT or SIGTERM, whoever sends it).

use std::process::ExitCode;

use anyhow::Context as _;
use charon::EngineConfig;

use super::{HttpArgs, LimitArgs, McpArgs, load};
use crate::logging::init_logging;

/// What a server serves: a knowledge base, a reasoner, or both.
type Served = (
    Option<std::sync::Arc<charon::KnowledgeBase>>,
    Option<std::sync::Arc<charon::reason::Reasoner>>,
);

/// What a server serves beside its knowledge base.
#[derive(Debug, Clone, Copy)]
struct Serving {
    /// The reasoning tools (`--reasoning`).
    reasoning: bool,
    /// `GET /metrics` (`--metrics`): without it, calls are not counted.
    metrics: bool,
}

/// The knowledge base and the reasoner a server serves (at least one of them).
fn served(
    kb: Option<&std::path::Path>,
    serving: Serving,
    limits: &LimitArgs,
) -> anyhow::Result<Served> {
    let config = limits.config()?;
    let kb = match kb {
        Some(path) => Some(std::sync::Arc::new(load_served(
            path,
            config.clone(),
            serving,
            None,
        )?)),
        None => None,
    };
    let reasoner = if serving.reasoning {
        let mut config = config;
        config.persist = false;
        config.replica = None;
        let reasoner = charon::reason::Reasoner::with_config(config, limits.reason_config())?;
        reasoner.count_calls(serving.metrics);
        Some(std::sync::Arc::new(reasoner))
    } else {
        None
    };
    Ok((kb, reasoner))
}

/// Loads the knowledge base a server serves, checked against the reasoning tools'
/// names when they are served too.
fn load_served(
    path: &std::path::Path,
    config: EngineConfig,
    serving: Serving,
    after: Option<&charon::Handover>,
) -> anyhow::Result<charon::KnowledgeBase> {
    let kb = load(path, config, after)?;
    kb.count_calls(serving.metrics);
    if serving.reasoning
        && let Some(name) = charon::reason::TOOL_NAMES
            .iter()
            .find(|n| kb.operation(n).is_some())
    {
        anyhow::bail!(
            "the knowledge base has an operation named `{name}`, the name of a reasoning tool: rename the predicate, or serve without --reasoning"
        );
    }
    Ok(kb)
}

/// How a server loads its knowledge base again (see `reload`).
fn reload_load(
    path: &std::path::Path,
    limits: &LimitArgs,
    serving: Serving,
) -> crate::reload::Load {
    let path = path.to_path_buf();
    let config = limits.config();
    std::sync::Arc::new(move |handover: &charon::Handover| {
        let config = config.as_ref().map_err(|e| anyhow::anyhow!("{e}"))?;
        load_served(&path, config.clone(), serving, Some(handover))
    })
}

/// SIGHUP asks a server to reload: until its handler is installed (once the
/// server is up), and for good where nothing reloads, it must not stop the process.
fn ignore_hangups() {
    // SAFETY: setting a signal's disposition to "ignore" has no preconditions.
    unsafe {
        libc::signal(libc::SIGHUP, libc::SIG_IGN);
    }
}

pub(super) fn http(args: HttpArgs) -> anyhow::Result<ExitCode> {
    ignore_hangups();
    init_logging(&args.common.log, args.common.log_format);
    let serving = Serving {
        reasoning: args.reasoning,
        metrics: args.metrics,
    };
    let (kb, reasoner) = served(args.kb.as_deref(), serving, &args.limits)?;
    let guard = args.guard.guard(&args.host)?;
    let state = charon::http::ReloadState::default();
    let mut options = charon::http::HttpOptions::default()
        .with_body_limit(args.body_limit)
        .with_guard(guard.clone())
        .with_explain(args.explain)
        .with_metrics(args.metrics);
    if kb.is_some() {
        options = options.with_reload_state(state.clone());
    }
    let routes =
        move |kb: Option<std::sync::Arc<charon::KnowledgeBase>>| match (kb, reasoner.clone()) {
            (Some(kb), Some(r)) => Ok(charon::http::router_with_reasoning(kb, r, options.clone())),
            (Some(kb), None) => Ok(charon::http::router_with(kb, options.clone())),
            (None, Some(r)) => Ok(charon::http::reasoning_router(r, options.clone())),
            (None, None) => Err(anyhow::anyhow!(
                "give a knowledge base (.pl), or --reasoning"
            )),
        };
    let slot = charon::http::ReloadableRouter::new(routes(kb.clone())?);
    let reloads: Option<Background> = match (kb, args.kb.as_deref()) {
        (Some(kb), Some(path)) => {
            let load = reload_load(path, &args.limits, serving);
            let (path, watch, slot) = (path.to_path_buf(), args.watch, slot.clone());
            let swap: crate::reload::Swap = Box::new(move |kb| {
                if let Ok(router) = routes(Some(kb)) {
                    slot.replace(router);
                }
                Box::pin(async {})
            });
            Some(Box::new(move || {
                crate::reload::reloader(path, watch, load, kb, state, swap)
            }))
        }
        _ => None,
    };
    serve(
        &args.host,
        args.port,
        &guard,
        args.limits.io_threads,
        move |_| slot.router(),
        reloads,
    )?;
    Ok(ExitCode::SUCCESS)
}

/// Work a server runs beside its connections (the reloads), made inside the
/// runtime before the server listens.
type Background = Box<
    dyn FnOnce() -> anyhow::Result<std::pin::Pin<Box<dyn std::future::Future<Output = ()> + Send>>>
        + Send,
>;

pub(super) fn mcp(args: McpArgs) -> anyhow::Result<ExitCode> {
    ignore_hangups();
    init_logging(&args.common.log, args.common.log_format);
    let serving = Serving {
        reasoning: args.reasoning,
        metrics: args.metrics,
    };
    let (kb, reasoner) = served(args.kb.as_deref(), serving, &args.limits)?;
    let explain = args.explain;
    let make = move |kb: Option<std::sync::Arc<charon::KnowledgeBase>>| {
        let server = match (kb, reasoner.clone()) {
            (Some(kb), Some(r)) => charon::mcp::McpServer::new(kb).with_reasoner(r),
            (Some(kb), None) => charon::mcp::McpServer::new(kb),
            (None, Some(r)) => charon::mcp::McpServer::reasoning(r),
            (None, None) => anyhow::bail!("give a knowledge base (.pl), or --reasoning"),
        };
        Ok(if explain {
            server.with_explain()
        } else {
            server
        })
    };
    let server = make(kb.clone())?;
    if args.stdio {
        runtime(args.limits.io_threads)?.block_on(charon::mcp::serve_stdio(server))?;
        return Ok(ExitCode::SUCCESS);
    }
    let host = args.host.unwrap_or_else(|| "127.0.0.1".into());
    let guard = args.guard.guard(&host)?;
    let options = charon::mcp::McpHttpOptions::default()
        .with_max_sessions(args.max_sessions)
        .with_idle_timeout(std::time::Duration::from_secs(
            args.session_idle_secs.max(1),
        ))
        .with_metrics(args.metrics);
    let server = charon::mcp::ReloadableMcp::new(server);
    let app = charon::mcp::reloadable_http_router(server.clone(), guard.clone(), options);
    let reloads: Option<Background> = match (kb, args.kb.as_deref()) {
        (Some(kb), Some(path)) => {
            let load = reload_load(path, &args.limits, serving);
            let (path, watch) = (path.to_path_buf(), args.watch);
            let swap: crate::reload::Swap = Box::new(move |kb| {
                let server = server.clone();
                let made = make(Some(kb));
                Box::pin(async move {
                    if let Ok(made) = made {
                        let told = server.replace(made).await;
                        tracing::info!(target: "charon::reload", "{told} MCP session(s) told that the tools changed");
                    }
                })
            });
            let state = charon::http::ReloadState::default();
            Some(Box::new(move || {
                crate::reload::reloader(path, watch, load, kb, state, swap)
            }))
        }
        _ => None,
    };
    serve(
        &host,
        args.port.unwrap_or(3000),
        &guard,
        args.limits.io_threads,
        move |_| app,
        reloads,
    )?;
    Ok(ExitCode::SUCCESS)
}

/// The runtime of the servers: `threads` worker threads (default: one per core).
fn runtime(threads: Option<usize>) -> anyhow::Result<tokio::runtime::Runtime> {
    let mut builder = tokio::runtime::Builder::new_multi_thread();
    if let Some(n) = threads {
        builder.worker_threads(n.max(1));
    }
    Ok(builder.enable_all().build()?)
}

/// Binds `host:port`, builds the app for the bound address, serves it until Ctrl-C
/// or SIGTERM. Warns when the address is not loopback and no token is required.
fn serve(
    host: &str,
    port: u16,
    guard: &charon::http::Guard,
    io_threads: Option<usize>,
    app: impl FnOnce(std::net::SocketAddr) -> axum::Router,
    background: Option<Background>,
) -> anyhow::Result<()> {
    runtime(io_threads)?.block_on(async move {
        // Handlers are installed before the address is announced, so a signal sent as
        // soon as the server is up is never lost.
        let shutdown = shutdown_signal()?;
        if let Some(background) = background {
            tokio::spawn(background()?);
        }
        let listener = tokio::net::TcpListener::bind((host, port))
            .await
            .with_context(|| format!("cannot bind {host}:{port}"))?;
        let addr = listener.local_addr()?;
        if !addr.ip().is_loopback() && !guard.requires_token() {
            tracing::warn!(
                "listening on {addr}, which is not a loopback address, with no token: the whole knowledge base is queryable by anyone who can reach this port; require a bearer token with --token (or CHARON_TOKEN)"
            );
        }
        if addr.ip().is_unspecified() {
            tracing::info!(
                "accepting requests for the host names {}; name others with --allow-host",
                guard.hosts().join(", ")
            );
        }
        tracing::info!("listening on http://{addr}");
        let app = app(addr);
        // hyper's own limits are set above Charon's (the guard answers a long URI or
        // large headers with problem details); past them hyper answers by itself,
        // and the connection wrapper gives its bare 400/414/431 the same problem
        // details.
        let mut builder =
            hyper_util::server::conn::auto::Builder::new(hyper_util::rt::TokioExecutor::new());
        builder
            .http1()
            .max_buf_size(charon::http::MAX_HEAD_BYTES * 4)
            .max_headers(charon::http::MAX_HEADERS * 4);
        let graceful = hyper_util::server::graceful::GracefulShutdown::new();
        let mut shutdown = std::pin::pin!(shutdown);
        loop {
            tokio::select! {
                accepted = listener.accept() => {
                    let stream = match accepted {
                        Ok((stream, _)) => stream,
                        Err(e) => {
                            // Out of file descriptors, say: wait rather than spin.
                            tracing::warn!("cannot accept a connection: {e}");
                            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
                            continue;
                        }
                    };
                    let service = hyper_util::service::TowerToHyperService::new(app.clone());
                    let connection = builder
                        .serve_connection_with_upgrades(
                            hyper_util::rt::TokioIo::new(charon::http::ProblemsOnParseErrors::new(stream)),
                            service,
                        )
                        .into_owned();
                    let connection = graceful.watch(connection);
                    tokio::spawn(async move {
                        let _ = connection.await;
                    });
                }
                () = &mut shutdown => break,
            }
        }
        drop(listener);
        graceful.shutdown().await;
        tracing::info!("stopped");
        anyhow::Ok(())
    })
}

/// A future that resolves on Ctrl-C (SIGINT) or SIGTERM; the handlers are installed
/// when this is called.
fn shutdown_signal() -> anyhow::Result<impl std::future::Future<Output = ()>> {
    use tokio::signal::unix::{SignalKind, signal};
    let mut interrupt = signal(SignalKind::interrupt())?;
    let mut terminate = signal(SignalKind::terminate())?;
    Ok(async move {
        tokio::select! {
            _ = interrupt.recv() => {}
            _ = terminate.recv() => {}
        }
        tracing::info!("shutting down");
    })
}
