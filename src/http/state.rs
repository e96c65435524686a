//! Shared state of the handlers: the solver and the limits around it.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use tokio::sync::Semaphore;
use tracing::Instrument;

use super::error::ApiError;
use super::metrics::Metrics;
use crate::config::Config;
use crate::sudoku::{BudgetExhausted, Grid, Solver, Verdict};

/// Guesses a solve may make on an async worker before it moves to the blocking pool.
pub const INLINE_GUESS_BUDGET: u64 = 32;

/// What every handler shares; cheap to clone.
#[derive(Clone)]
pub struct AppState {
    inner: Arc<Inner>,
}

struct Inner {
    solver: Solver,
    slots: Arc<Semaphore>,
    slot_count: usize,
    waiting: AtomicUsize,
    max_waiting: usize,
    ready: AtomicBool,
    body_limit: usize,
    request_timeout_secs: u64,
    metrics: Arc<Metrics>,
}

impl AppState {
    /// State for a server with these settings.
    pub fn new(config: &Config) -> AppState {
        AppState {
            inner: Arc::new(Inner {
                solver: Solver::with_budget(config.guess_budget),
                slots: Arc::new(Semaphore::new(config.solve_slots())),
                slot_count: config.solve_slots(),
                waiting: AtomicUsize::new(0),
                max_waiting: config.max_queued_solves,
                ready: AtomicBool::new(true),
                body_limit: config.body_limit,
                request_timeout_secs: config.request_timeout,
                metrics: Arc::new(Metrics::new()),
            }),
        }
    }

    /// The configured body limit in bytes.
    pub fn body_limit(&self) -> usize {
        self.inner.body_limit
    }

    /// The configured request deadline in seconds.
    pub fn request_timeout_secs(&self) -> u64 {
        self.inner.request_timeout_secs
    }

    /// The service's metrics.
    pub fn metrics(&self) -> &Metrics {
        &self.inner.metrics
    }

    /// True until shutdown begins.
    pub fn is_ready(&self) -> bool {
        self.inner.ready.load(Ordering::Relaxed)
    }

    /// Marks the server as going away, so readiness probes fail while it drains.
    pub fn set_not_ready(&self) {
        self.inner.ready.store(false, Ordering::Relaxed);
    }

    /// Runs `job` on the blocking pool once a solver slot is free, carrying the current
    /// tracing span. When every slot is busy and the waiting line is full it answers
    /// [`ApiError::Overloaded`] at once instead of queueing without bound.
    ///
    /// # Errors
    /// [`ApiError::Overloaded`] as above; [`ApiError::Internal`] if the job panicked.
    pub async fn run_solver<T, F>(&self, job: F) -> Result<T, ApiError>
    where
        F: FnOnce(&Solver) -> T + Send + 'static,
        T: Send + 'static,
    {
        let permit = match Arc::clone(&self.inner.slots).try_acquire_owned() {
            Ok(permit) => permit,
            Err(_) => {
                let _place = WaitingPlace::take(&self.inner).inspect_err(|_| {
                    self.inner.metrics.count_overloaded();
                })?;
                Arc::clone(&self.inner.slots)
                    .acquire_owned()
                    .await
                    .map_err(|_| ApiError::Internal("solver slots closed".into()))?
            }
        };
        let solver = self.inner.solver;
        let metrics = Arc::clone(&self.inner.metrics);
        let span = tracing::Span::current();
        tokio::task::spawn_blocking(move || {
            let _permit = permit;
            let _timer = metrics.solve_started();
            span.in_scope(|| job(&solver))
        })
        .in_current_span()
        .await
        .map_err(|err| ApiError::Internal(format!("solver task failed: {err}")))
    }

    /// Solves and proves uniqueness of one grid. Puzzles that need at most
    /// [`INLINE_GUESS_BUDGET`] guesses (nearly all real ones) are answered on the async
    /// worker, which is cheaper than the hand-off to the blocking pool and holds the worker
    /// for tens of microseconds at most; harder ones start over on the pool, within the
    /// semaphore and with the full budget.
    ///
    /// # Errors
    /// As for [`AppState::run_solver`].
    pub async fn analyze(&self, grid: Grid) -> Result<Result<Verdict, BudgetExhausted>, ApiError> {
        let budget = self.inner.solver.guess_budget();
        let quick = {
            let _timer = self.inner.metrics.solve_started();
            Solver::with_budget(budget.min(INLINE_GUESS_BUDGET)).analyze(&grid)
        };
        if quick.is_ok() || budget <= INLINE_GUESS_BUDGET {
            return Ok(quick);
        }
        self.run_solver(move |solver| solver.analyze(&grid)).await
    }

    /// Solves and proves uniqueness of every grid, spread over all solver slots, keeping
    /// order. Each part takes one slot, so a batch never starves single solves for long.
    ///
    /// # Errors
    /// [`ApiError::Overloaded`] or [`ApiError::Internal`] as for [`AppState::run_solver`].
    pub async fn analyze_all(
        &self,
        grids: Vec<Grid>,
    ) -> Result<Vec<Result<Verdict, BudgetExhausted>>, ApiError> {
        let parts = self.inner.slot_count.clamp(1, grids.len().max(1));
        let per_part = grids.len().div_ceil(parts).max(1);
        let mut tasks = Vec::with_capacity(parts);
        for part in grids.chunks(per_part) {
            let part = part.to_vec();
            let state = self.clone();
            tasks.push(tokio::spawn(
                async move {
                    state
                        .run_solver(move |solver| {
                            part.iter()
                                .map(|grid| solver.analyze(grid))
                                .collect::<Vec<_>>()
                        })
                        .await
                }
                .in_current_span(),
            ));
        }
        let mut verdicts = Vec::with_capacity(grids.len());
        for task in tasks {
            let part = task
                .await
                .map_err(|err| ApiError::Internal(format!("batch task failed: {err}")))??;
            verdicts.extend(part);
        }
        Ok(verdicts)
    }
}

/// A place in the waiting line, given back when dropped (also when the request is cancelled).
struct WaitingPlace<'a>(&'a AtomicUsize);

impl<'a> WaitingPlace<'a> {
    fn take(inner: &'a Inner) -> Result<WaitingPlace<'a>, ApiError> {
        let before = inner.waiting.fetch_add(1, Ordering::AcqRel);
        let place = WaitingPlace(&inner.waiting);
        if before >= inner.max_waiting {
            return Err(ApiError::Overloaded);
        }
        Ok(place)
    }
}

impl Drop for WaitingPlace<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}
