//! Starting the server: bind, serve, and shut down gracefully.

use std::future::Future;
use std::process::ExitCode;
use std::time::Duration;

use axum::body::Body;
use axum::http::Request;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tower::ServiceExt;

use crate::config::Config;
use crate::http::{AppState, router};

/// Serves the API on an already-bound listener until `shutdown` completes, then lets
/// in-flight requests finish. Readiness turns false as soon as shutdown begins.
///
/// HTTP/1.1 only, as `axum::serve` was built here. Each connection must send a request's
/// whole head within the request timeout (counted from the connection's start, and again
/// for each request on a kept-alive one, so idle connections close too), or it is closed:
/// with `axum::serve`, which sets hyper no timer, a client that never finished its headers
/// held its connection forever. The body and the handler are bounded by the same timeout
/// in the router.
///
/// # Errors
/// An I/O error from accepting connections.
pub async fn serve(
    listener: TcpListener,
    config: &Config,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let state = AppState::new(config);
    let readiness = std::sync::Arc::clone(&state.readiness);
    let head_timeout = state.limits.request_timeout.max(Duration::from_secs(1));
    let app = router(state);
    let delay = std::time::Duration::from_secs(config.shutdown_delay);
    let shutdown = async move {
        shutdown.await;
        readiness.set_not_ready();
        if !delay.is_zero() {
            tracing::info!(?delay, "shutdown requested: not ready, still serving");
            tokio::time::sleep(delay).await;
        }
        tracing::info!("shutting down: finishing in-flight requests");
    };
    let mut builder = http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(head_timeout);
    let graceful = GracefulShutdown::new();
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let stream = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => {
                    // Answers are small and written at once: do not let Nagle hold them.
                    let _ = stream.set_nodelay(true);
                    stream
                }
                Err(err) => {
                    // Out of file descriptors and the like: wait rather than spin.
                    tracing::warn!(%err, "accept failed");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let service = TowerToHyperService::new(
            app.clone()
                .map_request(|request: Request<Incoming>| request.map(Body::new)),
        );
        let connection = graceful.watch(builder.serve_connection(TokioIo::new(stream), service));
        tokio::spawn(async move {
            if let Err(err) = connection.await {
                tracing::debug!(%err, "connection ended with an error");
            }
        });
    }
    drop(listener);
    graceful.shutdown().await;
    Ok(())
}

/// Completes on Ctrl-C or SIGTERM.
pub async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(err) => {
                tracing::warn!(%err, "cannot listen for SIGTERM");
                std::future::pending::<()>().await;
            }
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = terminate => {},
    }
}

/// The `serve` command: logging, runtime, bind, serve until a signal. Exit 0 on a clean stop.
pub fn run_from_config(config: Config) -> ExitCode {
    crate::telemetry::init(config.log_format);
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(err) => {
            eprintln!("sudoku-service: cannot start the runtime: {err}");
            return ExitCode::FAILURE;
        }
    };
    runtime.block_on(async {
        let addr = config.listen_addr();
        let listener = match TcpListener::bind(addr).await {
            Ok(listener) => listener,
            Err(err) => {
                tracing::error!(%addr, %err, "cannot listen");
                return ExitCode::FAILURE;
            }
        };
        tracing::info!(addr = %listener.local_addr().unwrap_or(addr), "listening");
        match serve(listener, &config, shutdown_signal()).await {
            Ok(()) => {
                tracing::info!("stopped");
                ExitCode::SUCCESS
            }
            Err(err) => {
                tracing::error!(%err, "server failed");
                ExitCode::FAILURE
            }
        }
    })
}
