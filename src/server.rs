//! Starting the server: bind, serve, and shut down gracefully.

use std::future::Future;
use std::process::ExitCode;

use tokio::net::TcpListener;

use crate::config::Config;
use crate::http::{AppState, router_with_state};

/// Serves the API on an already-bound listener until `shutdown` completes, then lets
/// in-flight requests finish. Readiness turns false as soon as shutdown begins.
///
/// # Errors
/// An I/O error from accepting connections.
pub async fn serve(
    listener: TcpListener,
    config: &Config,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let state = AppState::new(config);
    let app = router_with_state(config, state.clone());
    let draining = state.clone();
    let delay = std::time::Duration::from_secs(config.shutdown_delay);
    axum::serve(listener, app)
        .with_graceful_shutdown(async move {
            shutdown.await;
            draining.set_not_ready();
            if !delay.is_zero() {
                tracing::info!(?delay, "shutdown requested: not ready, still serving");
                tokio::time::sleep(delay).await;
            }
            tracing::info!("shutting down: finishing in-flight requests");
        })
        .await
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
