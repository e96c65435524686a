//! What the router and its handlers share, built once from the configuration.
//!
//! A plain container: each handler and layer asks for the one part it needs
//! (`State<Arc<SolverPool>>`, `State<Limits>`, ...), which axum takes out of [`AppState`]
//! through [`FromRef`], so no part depends on the whole.

use std::sync::Arc;
use std::time::Duration;

use axum::extract::FromRef;
use axum::http::HeaderValue;

use super::auth::{ApiKeys, KeyFileError};
use super::caller::TrustedProxies;
use super::clock::Clock;
use super::daily::DailyPuzzles;
use super::gate::Gate;
use super::generator::Generator;
use super::limit::RateLimits;
use super::metrics::Metrics;
use super::pool::SolverPool;
use super::readiness::Readiness;
use crate::config::Config;
use sudoku::Solver;

/// Every part of the running service; cloning it clones handles, not the parts.
#[derive(Clone, FromRef)]
pub struct AppState {
    /// Where solves run.
    pub pool: Arc<SolverPool>,
    /// Where `/generate`'s puzzles come from (on the pool, with a stock).
    pub generator: Arc<Generator>,
    /// The daily puzzles' key and the last ones made (`/daily`).
    pub daily: Arc<DailyPuzzles>,
    /// What "today" is (the system's clock; a test sets its own before building the router).
    pub clock: Clock,
    /// Whether `/readyz` says ready.
    pub readiness: Arc<Readiness>,
    /// The Prometheus metrics, also fed by the pool.
    pub metrics: Arc<Metrics>,
    /// The sizes and deadline every request is held to.
    pub limits: Limits,
    /// The browser origins CORS lets in.
    pub cors: CorsOrigins,
    /// The API keys and the rate limits.
    pub gate: Arc<Gate>,
    /// False when `/metrics` is served on the admin address instead.
    #[from_ref(skip)]
    pub metrics_on_public_port: bool,
}

/// Why a server cannot start with a configuration.
#[derive(Debug, thiserror::Error)]
pub enum StartupError {
    /// The API keys file cannot be taken.
    #[error(transparent)]
    ApiKeys(#[from] KeyFileError),
}

/// The bounds on one request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Largest body in bytes, on every route but `/solve/batch`.
    pub body: usize,
    /// Largest `/solve/batch` body in bytes.
    pub batch_body: usize,
    /// Largest `/scan` body in bytes.
    pub scan_body: usize,
    /// Most pixels a `/scan` image may declare.
    pub scan_pixels: u64,
    /// Time a whole request may take, reading its body included.
    pub request_timeout: Duration,
    /// Logical steps one `/grade` applies at most.
    pub grade_steps: usize,
    /// Time `/generate` may search for a puzzle of the difficulty asked for.
    pub generate_deadline: Duration,
}

impl Limits {
    /// Time `/generate` may take for a board of side `size`: the deadline grows with the
    /// cells (a 25x25 has almost eight times a 9x9's), staying within the request's timeout.
    pub fn generate_deadline_for(&self, size: usize) -> Duration {
        let scale = (size * size).div_ceil(81).max(1) as u32;
        (self.generate_deadline * scale).min(
            self.request_timeout
                .mul_f64(0.9)
                .max(self.generate_deadline),
        )
    }
}

impl Limits {
    /// Time `/daily` may take to make a day's puzzle: most of the request's timeout. The
    /// same seed makes the same attempts on every try, so a search cut short by the shorter
    /// `/generate` deadline would fail again on the next; and it is made once a day, for
    /// every caller.
    pub fn daily_deadline(&self) -> Duration {
        self.request_timeout
            .mul_f64(0.9)
            .max(self.generate_deadline)
    }
}

/// The browser origins allowed by CORS.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CorsOrigins {
    /// Any origin (`*`).
    Any,
    /// Only these; origins that are not valid header values are left out.
    Only(Vec<HeaderValue>),
}

impl AppState {
    /// The state of a server with these settings: a fresh pool, generator, metrics and
    /// readiness.
    ///
    /// # Panics
    /// When [`AppState::try_new`] refuses the configuration (an API keys file that cannot
    /// be read); for tests and callers whose configuration names none.
    pub fn new(config: &Config) -> AppState {
        AppState::try_new(config).unwrap_or_else(|err| panic!("{err}"))
    }

    /// The state of a server with these settings, or why it cannot start.
    ///
    /// # Errors
    /// [`StartupError`] when the API keys file cannot be read or is malformed.
    pub fn try_new(config: &Config) -> Result<AppState, StartupError> {
        let keys = match &config.api_keys_file {
            Some(path) => ApiKeys::load(path)?,
            None => ApiKeys::off(),
        };
        let metrics = Arc::new(Metrics::new());
        let pool = Arc::new(SolverPool::new(
            Solver::with_budget(config.guess_budget),
            config.solve_slots(),
            config.max_queued_solves,
            Arc::clone(&metrics),
        ));
        let readiness = Arc::new(Readiness::default());
        let limits = config.rate_limit_quota().map(|quota| {
            RateLimits::new(quota, config.rate_limit_window(), config.rate_limit_clients)
        });
        let gate = Gate::new(
            keys,
            limits,
            TrustedProxies::new(config.trusted_proxies.clone(), config.forwarded_header),
            Arc::clone(&metrics),
            config.batch_body_limit,
        );
        Ok(AppState {
            generator: Arc::new(Generator::new(
                Arc::clone(&pool),
                Arc::clone(&readiness),
                config.generate_stock,
            )),
            daily: Arc::new(DailyPuzzles::new(config.daily_secret.as_ref())),
            clock: Clock::system(),
            pool,
            readiness,
            metrics,
            limits: Limits::from(config),
            cors: CorsOrigins::from(config),
            gate: Arc::new(gate),
            metrics_on_public_port: config.admin_listen.is_none(),
        })
    }
}

impl From<&Config> for Limits {
    fn from(config: &Config) -> Self {
        Limits {
            body: config.body_limit,
            batch_body: config.batch_body_limit,
            scan_body: config.scan_body_limit,
            scan_pixels: config.scan_max_pixels,
            request_timeout: config.request_timeout(),
            grade_steps: config.grade_step_budget,
            generate_deadline: config.generate_deadline(),
        }
    }
}

impl From<&Config> for CorsOrigins {
    fn from(config: &Config) -> Self {
        if config.cors_allows_any_origin() {
            CorsOrigins::Any
        } else {
            CorsOrigins::Only(
                config
                    .cors_origins
                    .iter()
                    .filter_map(|origin| HeaderValue::from_str(origin.trim()).ok())
                    .collect(),
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn larger_boards_get_a_longer_generate_deadline_within_the_request_timeout() {
        let limits = Limits {
            body: 1,
            batch_body: 1,
            scan_body: 1,
            scan_pixels: 1,
            request_timeout: Duration::from_secs(10),
            grade_steps: 1,
            generate_deadline: Duration::from_secs(2),
        };
        let deadlines: Vec<u64> = [4, 9, 12, 16, 25]
            .into_iter()
            .map(|size| limits.generate_deadline_for(size).as_secs())
            .collect();
        assert_eq!(deadlines, [2, 2, 4, 8, 9]);
        assert_eq!(limits.daily_deadline(), Duration::from_secs(9));
    }
}
