//! Starting the server: bind, serve, and shut down gracefully.

pub mod connections;

use std::future::Future;
use std::process::ExitCode;
use std::time::Duration;

use std::net::SocketAddr;
use std::sync::Arc;

use axum::Router;
use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::Request;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::{GracefulShutdown, Watcher};
use hyper_util::service::TowerToHyperService;
use tokio::net::{TcpListener, TcpStream};
use tower::ServiceExt;

use prometheus_client::metrics::counter::Counter;

use crate::config::Config;
use crate::http::gate::Gate;
use crate::http::metrics::ConnectionCounters;
use crate::http::{self, AppState, router};
use connections::{
    ADMIN_CONNECTIONS, Budget, OVERFLOW_CONNECTIONS, OVERFLOW_TIMEOUT, Slot, WriteDeadline,
};

/// Serves the API on an already-bound listener until `shutdown` completes, then lets
/// in-flight requests finish. Readiness turns false as soon as shutdown begins.
///
/// HTTP/1.1 only, as `axum::serve` was built here. Each connection must send a request's
/// whole head within the request timeout (its first byte within that time of the
/// connection's start, then the rest within that time again, and the same for each request
/// on a kept-alive one, so idle connections close too), or it is closed: with
/// `axum::serve`, which sets hyper no timer, a client that never finished its headers held
/// its connection forever. The body and the handler are bounded by the same timeout in the
/// router. An answer the client reads none of for the write timeout closes its connection.
///
/// Connections are counted: past the public cap (`--max-connections`) a few more get one
/// answer each (the probes theirs, everything else 503 `overloaded`) and the rest are
/// closed unanswered; the admin address takes its own few. File descriptors for those are
/// kept back from the cap, so that a flood never leaves the process unable to accept.
///
/// # Errors
/// An I/O error from accepting connections, or `InvalidInput` when the configuration is
/// refused (see [`AppState::try_new`]).
pub async fn serve(
    listener: TcpListener,
    config: &Config,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    serve_with_admin(listener, None, config, shutdown).await
}

/// [`serve`], and the admin router (`/metrics` and the probes) on `admin` when given; one
/// shutdown drains both.
///
/// While it serves, the rate limiter forgets idle clients every [`SWEEP_INTERVAL`], and
/// SIGHUP reads the API keys file again (a file that cannot be taken keeps the old keys;
/// without one it is logged and nothing else happens).
///
/// # Errors
/// As [`serve`].
pub async fn serve_with_admin(
    listener: TcpListener,
    admin: Option<TcpListener>,
    config: &Config,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let mut state = AppState::try_new(config)
        .map_err(|err| std::io::Error::new(std::io::ErrorKind::InvalidInput, err))?;
    // Whatever the configuration said, the metrics go where the admin listener is.
    state.metrics_on_public_port = admin.is_none();
    if state.gate.keys().is_on() {
        tracing::info!(keys = state.gate.keys().len(), "API keys required");
    }
    // Whether there is one, never what it is.
    if config.daily_secret.is_none() {
        tracing::info!(
            "daily puzzles without a secret: anyone can compute them ahead (set SUDOKU_DAILY_SECRET)"
        );
    }
    if let Some(quota) = config.rate_limit_quota() {
        tracing::info!(
            quota,
            window_s = config.rate_limit_window,
            trusted_proxies = config.trusted_proxies.len(),
            "per-client rate limit on"
        );
    }
    let cap = connections::connection_cap(
        config.max_connections,
        connections::raise_descriptor_limit(),
    )
    .map_err(|err| std::io::Error::new(std::io::ErrorKind::InvalidInput, err))?;
    tracing::info!(
        max_connections = cap,
        write_timeout_s = config.write_timeout,
        "connections bounded"
    );
    let readiness = std::sync::Arc::clone(&state.readiness);
    let head_timeout = state.limits.request_timeout.max(Duration::from_secs(1));
    let write_timeout = Duration::from_secs(config.write_timeout);
    let background = Background::start(&state.gate);
    let metrics = Arc::clone(&state.metrics);
    let public = metrics.public_connections();
    let overflow_door = Door::new(
        http::admin::overflow_router(state.clone()),
        (OVERFLOW_TIMEOUT, OVERFLOW_TIMEOUT),
        Budget::new(
            OVERFLOW_CONNECTIONS,
            public.open.clone(),
            public.evicted.clone(),
        ),
        public,
    )
    .one_request_each();
    let public_door = Door::new(
        router(state.clone()),
        (head_timeout, write_timeout),
        Budget::new(cap, public.open.clone(), public.evicted.clone()),
        public,
    )
    .overflowing_into(overflow_door);
    let admin = admin.map(|listener| {
        let counters = metrics.admin_connections();
        let door = Door::new(
            http::admin::router(state),
            (head_timeout, write_timeout),
            Budget::new(
                ADMIN_CONNECTIONS,
                counters.open.clone(),
                counters.evicted.clone(),
            ),
            counters,
        );
        (listener, door)
    });
    let delay = std::time::Duration::from_secs(config.shutdown_delay);
    let drain_limit = Duration::from_secs(config.shutdown_timeout);
    let shutdown = async move {
        shutdown.await;
        readiness.set_not_ready();
        if !delay.is_zero() {
            tracing::info!(?delay, "shutdown requested: not ready, still serving");
            tokio::time::sleep(delay).await;
        }
        tracing::info!("shutting down: finishing in-flight requests");
    };
    let drain = Drain::default();
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let (accepted, door) = tokio::select! {
            accepted = listener.accept() => (accepted, &public_door),
            (accepted, door) = accept_admin(admin.as_ref()) => (accepted, door),
            () = &mut shutdown => break,
        };
        let (stream, peer) = match accepted {
            Ok(accepted) => accepted,
            Err(err) => {
                // Out of file descriptors and the like: wait rather than spin.
                tracing::warn!(%err, "accept failed");
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        if let Some(admission) = door.budget.admit() {
            door.serve(stream, peer, admission.slot, &drain);
            if admission.closed_another {
                // The closed connection's task runs first and gives its descriptor back.
                tokio::task::yield_now().await;
            }
            continue;
        }
        door.refused.inc();
        // Past the public cap, a few more get an answer; past those, and past the admin
        // address's cap, the connection is closed unanswered.
        if let Some(overflow) = &door.overflow
            && let Some(admission) = overflow.budget.admit()
        {
            overflow.serve(stream, peer, admission.slot, &drain);
        }
    }
    drop(listener);
    drop(admin);
    tokio::select! {
        () = drain.run() => {}
        () = tokio::time::sleep(drain_limit) => {
            tracing::warn!(?drain_limit, "drain time is up: closing the connections left");
        }
        () = shutdown_signal() => {
            tracing::warn!("a second signal: closing the connections left");
        }
    }
    background.stop();
    Ok(())
}

/// The most a request head may take, hyper's read buffer: nginx's default too (8 KiB for
/// the request line, 4 × 8 KiB for headers); hyper's own, 408 KiB, times the connection
/// cap would let slow heads hold gigabytes.
pub const MAX_HEAD_BYTES: usize = 32 * 1024;

/// One way in: the router connections are served with, how long a request head and an
/// unread answer may take, and how many connections may be open at once.
struct Door {
    app: Router,
    builder: http1::Builder,
    head_timeout: Duration,
    write_timeout: Duration,
    budget: Budget,
    refused: Counter,
    write_stalled: Counter,
    /// Where connections go past the budget; without one they are closed unanswered.
    overflow: Option<Box<Door>>,
}

impl Door {
    /// A door to `app`: request heads within the first of `timeouts`, answers read within
    /// the second, as many connections at once as `budget` has room for.
    fn new(
        app: Router,
        (head_timeout, write_timeout): (Duration, Duration),
        budget: Budget,
        counters: &ConnectionCounters,
    ) -> Door {
        let mut builder = http1::Builder::new();
        builder
            .timer(TokioTimer::new())
            .header_read_timeout(head_timeout)
            .max_buf_size(MAX_HEAD_BYTES);
        Door {
            app,
            builder,
            head_timeout,
            write_timeout,
            budget,
            refused: counters.refused.clone(),
            write_stalled: counters.write_stalled.clone(),
            overflow: None,
        }
    }

    /// The same door, sending connections past its budget to `overflow`.
    fn overflowing_into(mut self, overflow: Door) -> Door {
        self.overflow = Some(Box::new(overflow));
        self
    }

    /// The same door, closing each connection after its first answer.
    fn one_request_each(mut self) -> Door {
        self.builder.keep_alive(false);
        self
    }

    /// Serves the connection on its own task, holding `slot` until it ends. Until its first
    /// byte comes it is only waited on, within the request head's timeout, and its slot may
    /// go to a newer connection (see [`Budget`]): hyper's buffers (16 KB a connection) are
    /// made for clients that speak, not for an idle flood.
    fn serve(&self, stream: TcpStream, peer: SocketAddr, slot: Slot, drain: &Drain) {
        // Answers are small and written at once: do not let Nagle hold them.
        let _ = stream.set_nodelay(true);
        let app = self.app.clone();
        let builder = self.builder.clone();
        let (head_timeout, write_timeout) = (self.head_timeout, self.write_timeout);
        let write_stalled = self.write_stalled.clone();
        let (watcher, mut drain_started) = drain.watch();
        let mut waiting = self.budget.until_first_byte(slot);
        tokio::spawn(async move {
            // A peek, not `readable()`, which a fresh socket answers at once.
            let mut first = [0];
            let spoke = tokio::select! {
                peeked = stream.peek(&mut first) => matches!(peeked, Ok(1)),
                () = tokio::time::sleep(head_timeout) => false,
                _ = drain_started.changed() => false,
                () = waiting.closed() => false,
            };
            // Gone to a newer connection while the first byte came, or closed.
            let Some(slot) = spoke.then(|| waiting.spoke()).flatten() else {
                return;
            };
            // Boxed: the spawned task is as large as its largest state, and a waiting
            // connection need not carry a served one's.
            Box::pin(async move {
                // The peer address, for the rate limit's client, as axum's `ConnectInfo`.
                let service =
                    TowerToHyperService::new(app.map_request(move |request: Request<Incoming>| {
                        let mut request = request.map(Body::new);
                        request.extensions_mut().insert(ConnectInfo(peer));
                        request
                    }));
                let stream = WriteDeadline::new(stream, write_timeout, write_stalled);
                let connection =
                    watcher.watch(builder.serve_connection(TokioIo::new(stream), service));
                if let Err(err) = connection.await {
                    tracing::debug!(%err, "connection ended with an error");
                }
            })
            .await;
            drop(slot);
        });
    }
}

/// The connections' drain: hyper's graceful shutdown for those that have spoken, and a
/// signal for those still waiting for their first byte, which are closed at once.
#[derive(Default)]
struct Drain {
    graceful: GracefulShutdown,
    started: tokio::sync::watch::Sender<()>,
}

impl Drain {
    /// What a new connection watches: hyper's shutdown, and the drain's start.
    fn watch(&self) -> (Watcher, tokio::sync::watch::Receiver<()>) {
        (self.graceful.watcher(), self.started.subscribe())
    }

    /// Starts the drain; completes once every connection has ended.
    async fn run(self) {
        self.started.send_replace(());
        self.graceful.shutdown().await;
    }
}

/// How often the rate limiter forgets the clients whose bucket is full again.
pub const SWEEP_INTERVAL: Duration = Duration::from_secs(10);

/// The next connection on the admin listener, with its door; never, without one.
async fn accept_admin(
    admin: Option<&(TcpListener, Door)>,
) -> (std::io::Result<(TcpStream, SocketAddr)>, &Door) {
    match admin {
        Some((listener, door)) => (listener.accept().await, door),
        None => std::future::pending().await,
    }
}

/// The tasks that run beside the connections: the limiter's sweep, the keys' reload.
struct Background(Vec<tokio::task::JoinHandle<()>>);

impl Background {
    fn start(gate: &Arc<Gate>) -> Background {
        let mut tasks = Vec::new();
        if gate.limits().is_some() {
            let gate = Arc::clone(gate);
            tasks.push(tokio::spawn(async move {
                let mut ticks = tokio::time::interval(SWEEP_INTERVAL);
                ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
                loop {
                    ticks.tick().await;
                    if let Some(limits) = gate.limits() {
                        limits.sweep();
                    }
                }
            }));
        }
        #[cfg(unix)]
        tasks.push(tokio::spawn(reload_keys_on_hangup(Arc::clone(gate))));
        Background(tasks)
    }

    fn stop(self) {
        for task in self.0 {
            task.abort();
        }
    }
}

/// Set by a SIGHUP that came before the server listened for them (see [`catch_hangups`]).
#[cfg(unix)]
static EARLY_HANGUP: std::sync::OnceLock<Arc<std::sync::atomic::AtomicBool>> =
    std::sync::OnceLock::new();

/// Whether SIGHUP ends the process: true for every command but the server's.
#[cfg(unix)]
static HANGUP_ENDS_THE_PROCESS: std::sync::OnceLock<Arc<std::sync::atomic::AtomicBool>> =
    std::sync::OnceLock::new();

/// Catches SIGHUP from here on, for `main` to call first: its default action ends the
/// process, and an operator's reload may come while the server is still starting. One that
/// comes before the server listens is handled as soon as it does.
pub fn catch_hangups() {
    #[cfg(unix)]
    {
        use signal_hook::consts::SIGHUP;
        use std::sync::atomic::AtomicBool;
        let early = EARLY_HANGUP.get_or_init(|| Arc::new(AtomicBool::new(false)));
        let ends = HANGUP_ENDS_THE_PROCESS.get_or_init(|| Arc::new(AtomicBool::new(false)));
        // Only fails for signals that cannot be caught, which SIGHUP is not.
        let _ = signal_hook::flag::register_conditional_default(SIGHUP, Arc::clone(ends));
        let _ = signal_hook::flag::register(SIGHUP, Arc::clone(early));
    }
}

/// SIGHUP ends the process again, as it should a command line whose terminal has closed.
pub fn let_hangups_end_the_process() {
    #[cfg(unix)]
    if let Some(ends) = HANGUP_ENDS_THE_PROCESS.get() {
        use std::sync::atomic::Ordering::SeqCst;
        ends.store(true, SeqCst);
        // One that came while the command line was read ends the process now, as it would
        // have then.
        if EARLY_HANGUP
            .get()
            .is_some_and(|early| early.swap(false, SeqCst))
        {
            let _ = signal_hook::low_level::emulate_default_handler(signal_hook::consts::SIGHUP);
        }
    }
}

/// Reads the API keys file again on each SIGHUP (and once for one that came before this
/// listened); requests in flight and open connections carry on, and a file that cannot be
/// taken leaves the old keys in force. Without a keys file it says there is nothing to do.
#[cfg(unix)]
async fn reload_keys_on_hangup(gate: Arc<Gate>) {
    use tokio::signal::unix::{SignalKind, signal};
    let mut hangups = match signal(SignalKind::hangup()) {
        Ok(hangups) => hangups,
        Err(err) => {
            tracing::warn!(%err, "cannot listen for SIGHUP: the API keys will not be reloaded");
            return;
        }
    };
    let early = EARLY_HANGUP
        .get()
        .is_some_and(|early| early.swap(false, std::sync::atomic::Ordering::SeqCst));
    if early {
        reload_keys(&gate);
    }
    while hangups.recv().await.is_some() {
        reload_keys(&gate);
    }
}

#[cfg(unix)]
fn reload_keys(gate: &Gate) {
    if !gate.keys().is_on() {
        tracing::info!("SIGHUP: no API keys file is set, nothing to reload");
        return;
    }
    match gate.keys().reload() {
        Ok(count) => tracing::info!(keys = count, "API keys reloaded"),
        Err(err) => tracing::error!(%err, "API keys not reloaded: the old ones stay"),
    }
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
pub fn run_from_config(config: &Config) -> ExitCode {
    // Dropped last, once everything is logged: it writes out the lines still queued.
    let _log_writer = crate::telemetry::init(config.log_format);
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
    let code = runtime.block_on(async {
        let addr = config.listen_addr();
        let listener = match TcpListener::bind(addr).await {
            Ok(listener) => listener,
            Err(err) => {
                tracing::error!(%addr, %err, "cannot listen");
                return ExitCode::FAILURE;
            }
        };
        tracing::info!(addr = %listener.local_addr().unwrap_or(addr), "listening");
        let admin = match config.admin_listen {
            Some(addr) => match TcpListener::bind(addr).await {
                Ok(admin) => {
                    tracing::info!(addr = %admin.local_addr().unwrap_or(addr), "admin listening");
                    Some(admin)
                }
                Err(err) => {
                    tracing::error!(%addr, %err, "cannot listen on the admin address");
                    return ExitCode::FAILURE;
                }
            },
            None => None,
        };
        match serve_with_admin(listener, admin, config, shutdown_signal()).await {
            Ok(()) => {
                tracing::info!("stopped");
                ExitCode::SUCCESS
            }
            Err(err) => {
                tracing::error!(%err, "server failed");
                ExitCode::FAILURE
            }
        }
    });
    // A solver job still running when the drain ended is not waited for long.
    runtime.shutdown_timeout(Duration::from_secs(1));
    code
}
