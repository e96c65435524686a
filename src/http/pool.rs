//! Where solves run: a fixed number of solver slots on tokio's blocking pool, a bounded
//! waiting line in front of them, and a fast path that answers easy puzzles without either.
//! What a job does is its handler's; here is only where and when it runs.
//!
//! A search can take milliseconds (hundreds in a debug build), so it must not run on an
//! async worker, where it would hold up every other request on that thread; and an
//! unbounded queue would let a flood of hard puzzles grow latency without limit. So each
//! job takes a slot, a job that finds none waits in a line of bounded length, and one that
//! finds the line full is turned away at once ([`PoolError::Overloaded`]).

use std::collections::VecDeque;
use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use tokio::sync::{Notify, OwnedSemaphorePermit, Semaphore};

use super::error::ApiError;
use super::metrics::Metrics;
use sudoku::{BudgetExhausted, Solver};

/// Guesses a solve may make on an async worker before it moves to the blocking pool.
pub const INLINE_GUESS_BUDGET: u64 = 32;

/// Boards a batch's job takes at a time: small enough that the jobs end together (a
/// 17-clue part is a few tens of microseconds), large enough that taking one costs nothing
/// (16 measured faster than 32 and 8).
pub const BATCH_PART: usize = 16;

/// Why the pool ran no job, or got no answer from one.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PoolError {
    /// Every slot is busy and the waiting line is full: retry later.
    #[error("every solver slot is busy and the waiting line is full")]
    Overloaded,
    /// The job panicked (or the pool was shut); a bug, with what is known of it.
    #[error("a solver job failed: {0}")]
    Failed(String),
}

impl From<PoolError> for ApiError {
    fn from(error: PoolError) -> Self {
        match error {
            PoolError::Overloaded => ApiError::Overloaded,
            PoolError::Failed(reason) => ApiError::Internal(reason),
        }
    }
}

/// The solver slots, their waiting line, and the solver every job uses.
pub struct SolverPool {
    solver: Solver,
    slots: Arc<Semaphore>,
    slot_count: usize,
    waiting: Arc<AtomicUsize>,
    /// Of those waiting, the batches' jobs (see [`SolverPool::map_parts`]).
    batches_waiting: Arc<AtomicUsize>,
    max_waiting: usize,
    /// The batches with parts nobody has taken yet, oldest first.
    batches: Arc<Mutex<VecDeque<Arc<dyn Parts>>>>,
    metrics: Arc<Metrics>,
}

impl SolverPool {
    /// A pool of `slots` solver slots (at least one) and a waiting line of `max_waiting`,
    /// whose jobs use `solver` and are timed and counted in `metrics`.
    pub fn new(solver: Solver, slots: usize, max_waiting: usize, metrics: Arc<Metrics>) -> Self {
        let slot_count = slots.max(1);
        SolverPool {
            solver,
            slots: Arc::new(Semaphore::new(slot_count)),
            slot_count,
            waiting: Arc::new(AtomicUsize::new(0)),
            batches_waiting: Arc::new(AtomicUsize::new(0)),
            max_waiting,
            batches: Arc::new(Mutex::new(VecDeque::new())),
            metrics,
        }
    }

    /// Runs `job` on the async worker first, with at most [`INLINE_GUESS_BUDGET`] guesses:
    /// nearly every real puzzle is answered so, which is cheaper than the hand-off to the
    /// blocking pool and holds the worker for tens of microseconds at most. A job that runs
    /// out of them starts over in a slot, with the pool's full budget.
    ///
    /// # Errors
    /// As for [`SolverPool::run`], for the jobs that need a slot.
    pub async fn run_inline_first<T, F>(
        &self,
        job: F,
    ) -> Result<Result<T, BudgetExhausted>, PoolError>
    where
        F: Fn(&Solver) -> Result<T, BudgetExhausted> + Send + 'static,
        T: Send + 'static,
    {
        let budget = self.solver.guess_budget();
        let quick = {
            let _timer = self.metrics.solve_started();
            job(&Solver::with_budget(budget.min(INLINE_GUESS_BUDGET)))
        };
        if quick.is_ok() || budget <= INLINE_GUESS_BUDGET {
            return Ok(quick);
        }
        self.run(job).await
    }

    /// Runs `work` over `items` cut into parts of [`BATCH_PART`], and gives back each
    /// part's result in order; `work` gets the index of the part's first item.
    ///
    /// The parts go into a queue that every batch's jobs share. This batch starts up to one
    /// job per slot, but a job takes parts from the oldest batch in the queue, whichever
    /// started it, and goes on to the next batch when that one has none left. So with
    /// several batches in flight the slots pass from one to the next without a pause: when
    /// each batch's jobs ran its own parts only, a slot sat idle while it went back to the
    /// next batch's request and that request started a job on the blocking pool. A job
    /// stops at the end of a batch once its own batch has no part left to take and anyone
    /// but another batch's job waits for a slot, so batches never starve single requests
    /// for long; and this batch answers once its parts are done, whether or not its own
    /// jobs ever got a slot.
    ///
    /// A batch's whole per-board work (reading the board, solving it, writing its answer)
    /// goes in `work`: done in the handler before and after, it ran on one async worker per
    /// request while the slots waited.
    ///
    /// # Errors
    /// As for [`SolverPool::run`]: a job turned away fails the whole batch, and so does a
    /// part that panicked.
    pub async fn map_parts<T, R, F>(&self, items: Vec<T>, work: F) -> Result<Vec<R>, PoolError>
    where
        T: Send + Sync + 'static,
        R: Send + 'static,
        F: Fn(&Solver, usize, &[T]) -> R + Send + Sync + 'static,
    {
        let part_count = items.len().div_ceil(BATCH_PART);
        if part_count == 0 {
            return Ok(Vec::new());
        }
        let batch = Arc::new(Batch {
            items: items.into(),
            work,
            part_count,
            next_part: AtomicUsize::new(0),
            results: Mutex::new((0..part_count).map(|_| None).collect()),
            left: AtomicUsize::new(part_count),
            given_up: AtomicBool::new(false),
            finished: Notify::new(),
        });
        let queued: Arc<dyn Parts> = batch.clone();
        lock(&self.batches).push_back(Arc::clone(&queued));
        // Also when the request goes away: the jobs then skip what is left of it.
        let _give_up = GiveUp {
            batches: &self.batches,
            batch: &queued,
            given_up: &batch.given_up,
        };
        let jobs = self.slot_count.min(part_count);
        let mut started = 0;
        while started < jobs {
            tokio::select! {
                biased;
                () = batch.finished.notified() => break,
                slot = self.batch_slot() => {
                    // Not awaited: the job may outlive this request, working on the
                    // batches after it, and its own panics are caught part by part.
                    drop(self.spawn(slot?, self.batch_job(Arc::clone(&queued))));
                    started += 1;
                }
            }
        }
        if started == jobs {
            batch.finished.notified().await;
        }
        let results = std::mem::take(&mut *lock(&batch.results));
        results
            .into_iter()
            .map(|result| match result {
                Some(Ok(result)) => Ok(result),
                Some(Err(panic)) => Err(PoolError::Failed(panic)),
                None => Err(PoolError::Failed("a batch part was never run".into())),
            })
            .collect()
    }

    /// A slot for a batch's job, counted as such while it waits.
    async fn batch_slot(&self) -> Result<OwnedSemaphorePermit, PoolError> {
        self.batches_waiting.fetch_add(1, Ordering::AcqRel);
        let _counted = WaitingPlace(&self.batches_waiting);
        self.slot().await
    }

    /// What a job of batch `own` does in its slot: parts of the oldest batch queued, batch
    /// after batch, until none is left, or until `own` has no part left to take and
    /// someone else waits for the slot. Never before that: a batch whose jobs have all
    /// started counts on them to reach its parts.
    fn batch_job(&self, own: Arc<dyn Parts>) -> impl FnOnce(&Solver) + Send + 'static + use<> {
        let batches = Arc::clone(&self.batches);
        let (waiting, batches_waiting) =
            (Arc::clone(&self.waiting), Arc::clone(&self.batches_waiting));
        move |solver| {
            loop {
                let Some(batch) = lock(&batches).front().cloned() else {
                    return;
                };
                if batch.run_next(solver) {
                    continue;
                }
                {
                    let mut queue = lock(&batches);
                    if queue
                        .front()
                        .is_some_and(|front| Arc::ptr_eq(front, &batch))
                    {
                        queue.pop_front();
                    }
                }
                if own.exhausted()
                    && waiting.load(Ordering::Acquire) > batches_waiting.load(Ordering::Acquire)
                {
                    return;
                }
            }
        }
    }

    /// Runs `job` in a slot if one is free right now, without waiting in line: for work
    /// nobody waits on, which must never take a request's place.
    pub fn try_run<T, F>(
        &self,
        job: F,
    ) -> Option<impl Future<Output = Result<T, PoolError>> + use<T, F>>
    where
        F: FnOnce(&Solver) -> T + Send + 'static,
        T: Send + 'static,
    {
        let slot = Arc::clone(&self.slots).try_acquire_owned().ok()?;
        Some(self.spawn(slot, job))
    }

    /// Runs `job` in a solver slot on the blocking pool, inside the caller's tracing span.
    ///
    /// # Errors
    /// [`PoolError::Overloaded`] at once when every slot is busy and the line is full;
    /// [`PoolError::Failed`] when the job panicked.
    pub async fn run<T, F>(&self, job: F) -> Result<T, PoolError>
    where
        F: FnOnce(&Solver) -> T + Send + 'static,
        T: Send + 'static,
    {
        let slot = self.slot().await?;
        self.spawn(slot, job).await
    }

    /// Requests waiting for a slot right now.
    pub fn waiting(&self) -> usize {
        self.waiting.load(Ordering::Acquire)
    }

    /// A free slot, after a wait in line if there is room in it.
    async fn slot(&self) -> Result<OwnedSemaphorePermit, PoolError> {
        if let Ok(slot) = Arc::clone(&self.slots).try_acquire_owned() {
            return Ok(slot);
        }
        let _place = WaitingPlace::take(&self.waiting, self.max_waiting).inspect_err(|_| {
            self.metrics.count_overloaded();
        })?;
        Arc::clone(&self.slots)
            .acquire_owned()
            .await
            .map_err(|_| PoolError::Failed("the solver slots were closed".into()))
    }

    /// Starts `job` on the blocking pool in `slot`, which it gives back when it ends.
    fn spawn<T, F>(
        &self,
        slot: OwnedSemaphorePermit,
        job: F,
    ) -> impl Future<Output = Result<T, PoolError>> + use<T, F>
    where
        F: FnOnce(&Solver) -> T + Send + 'static,
        T: Send + 'static,
    {
        let solver = self.solver;
        let metrics = Arc::clone(&self.metrics);
        // Blocking threads have no span of their own: the job's log lines should still
        // carry the request id.
        let span = tracing::Span::current();
        let handle = tokio::task::spawn_blocking(move || {
            let _slot = slot;
            let _timer = metrics.solve_started();
            span.in_scope(|| job(&solver))
        });
        async move {
            handle
                .await
                .map_err(|err| PoolError::Failed(format!("solver task failed: {err}")))
        }
    }
}

/// A place in the waiting line, given back when dropped (also when the request is cancelled).
struct WaitingPlace<'a>(&'a AtomicUsize);

impl<'a> WaitingPlace<'a> {
    fn take(waiting: &'a AtomicUsize, max_waiting: usize) -> Result<WaitingPlace<'a>, PoolError> {
        let before = waiting.fetch_add(1, Ordering::AcqRel);
        // Taken before the check, so that two requests racing for the last place cannot
        // both get it; given back by the drop when over.
        let place = WaitingPlace(waiting);
        if before >= max_waiting {
            return Err(PoolError::Overloaded);
        }
        Ok(place)
    }
}

impl Drop for WaitingPlace<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

/// A batch's parts, as any batch job takes them (see [`SolverPool::map_parts`]).
trait Parts: Send + Sync {
    /// Runs the next part nobody has taken; false when none is left (or the batch was
    /// given up).
    fn run_next(&self, solver: &Solver) -> bool;

    /// Whether every part has been taken (or the batch was given up).
    fn exhausted(&self) -> bool;
}

/// One batch in the queue: its items, its work, and its parts' results as they come.
struct Batch<T, R, F> {
    items: Box<[T]>,
    work: F,
    part_count: usize,
    next_part: AtomicUsize,
    /// Each part's result, or the message of its panic.
    results: Mutex<Vec<Option<Result<R, String>>>>,
    /// Parts not yet done; the last to finish wakes the request.
    left: AtomicUsize,
    given_up: AtomicBool,
    finished: Notify,
}

impl<T, R, F> Parts for Batch<T, R, F>
where
    T: Send + Sync,
    R: Send,
    F: Fn(&Solver, usize, &[T]) -> R + Send + Sync,
{
    fn run_next(&self, solver: &Solver) -> bool {
        if self.given_up.load(Ordering::Acquire) {
            return false;
        }
        let part = self.next_part.fetch_add(1, Ordering::Relaxed);
        if part >= self.part_count {
            return false;
        }
        let start = part * BATCH_PART;
        let end = self.items.len().min(start + BATCH_PART);
        // Caught so that a panic fails this batch alone, not the job's slot and every
        // batch after it, and the request still hears of it instead of waiting forever.
        let result = std::panic::catch_unwind(AssertUnwindSafe(|| {
            (self.work)(solver, start, &self.items[start..end])
        }))
        .map_err(|panic| {
            let text = panic
                .downcast_ref::<&str>()
                .map(|text| (*text).to_owned())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            format!("a batch part panicked: {text}")
        });
        lock(&self.results)[part] = Some(result);
        if self.left.fetch_sub(1, Ordering::AcqRel) == 1 {
            self.finished.notify_one();
        }
        true
    }

    fn exhausted(&self) -> bool {
        self.given_up.load(Ordering::Acquire)
            || self.next_part.load(Ordering::Relaxed) >= self.part_count
    }
}

/// Marks a batch given up and takes it off the queue when dropped: its request has its
/// answer, or went away.
struct GiveUp<'a> {
    batches: &'a Mutex<VecDeque<Arc<dyn Parts>>>,
    batch: &'a Arc<dyn Parts>,
    given_up: &'a AtomicBool,
}

impl Drop for GiveUp<'_> {
    fn drop(&mut self) {
        self.given_up.store(true, Ordering::Release);
        lock(self.batches).retain(|queued| !Arc::ptr_eq(queued, self.batch));
    }
}

/// The lock, even if a holder panicked: the queue and the results stay consistent, as
/// each is changed in one step.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use super::*;
    use sudoku::{CLASSIC_PUZZLE, CLASSIC_SOLUTION, DEFAULT_GUESS_BUDGET, Grid, Verdict};

    /// What a search of one grid answers: a verdict, or the budget ran out first.
    type Analysis = Result<Verdict, BudgetExhausted>;

    /// The empty board: proving it has two solutions takes more guesses than the inline
    /// budget allows (checked below), so it always needs a slot.
    const HARD: Grid = Grid::EMPTY;

    fn grid(line: &str) -> Grid {
        Grid::from_line(line).unwrap()
    }

    fn pool(slots: usize, max_waiting: usize) -> Arc<SolverPool> {
        Arc::new(SolverPool::new(
            Solver::with_budget(DEFAULT_GUESS_BUDGET),
            slots,
            max_waiting,
            Arc::new(Metrics::new()),
        ))
    }

    /// A search of `grid`, on the async worker first.
    async fn analyze(pool: &SolverPool, grid: Grid) -> Result<Analysis, PoolError> {
        pool.run_inline_first(move |solver| solver.analyze(&grid))
            .await
    }

    /// Takes the pool's only slot until the returned sender is dropped or sent to.
    async fn hold_the_slot(
        pool: &Arc<SolverPool>,
    ) -> (
        std::sync::mpsc::Sender<()>,
        tokio::task::JoinHandle<Result<(), PoolError>>,
    ) {
        let (release, released) = std::sync::mpsc::channel::<()>();
        let (started, is_started) = tokio::sync::oneshot::channel();
        let holder = tokio::spawn({
            let pool = Arc::clone(pool);
            async move {
                pool.run(move |_| {
                    let _ = started.send(());
                    let _ = released.recv();
                })
                .await
            }
        });
        is_started.await.unwrap();
        (release, holder)
    }

    #[test]
    fn the_hard_grid_needs_more_than_the_inline_budget() {
        let count = Solver::default().count_solutions(&HARD, 2).unwrap();
        assert!(count.guesses > INLINE_GUESS_BUDGET, "{count:?}");
        let easy = Solver::default()
            .count_solutions(&grid(CLASSIC_PUZZLE), 2)
            .unwrap();
        assert!(easy.guesses <= INLINE_GUESS_BUDGET, "{easy:?}");
    }

    #[tokio::test]
    async fn an_easy_grid_is_answered_without_a_slot() {
        let pool = pool(1, 0);
        let (release, holder) = hold_the_slot(&pool).await;
        let verdict = analyze(&pool, grid(CLASSIC_PUZZLE)).await.unwrap().unwrap();
        assert_eq!(verdict, Verdict::Unique(grid(CLASSIC_SOLUTION)));
        release.send(()).unwrap();
        holder.await.unwrap().unwrap();
    }

    #[tokio::test]
    async fn a_hard_grid_is_turned_away_when_the_slots_and_the_line_are_full() {
        let pool = pool(1, 0);
        let (release, holder) = hold_the_slot(&pool).await;
        assert_eq!(analyze(&pool, HARD).await, Err(PoolError::Overloaded));
        release.send(()).unwrap();
        holder.await.unwrap().unwrap();
        let verdict = analyze(&pool, HARD).await.unwrap().unwrap();
        assert!(matches!(verdict, Verdict::Multiple(_)), "{verdict:?}");
    }

    #[tokio::test]
    async fn a_wait_given_up_gives_its_place_in_line_back() {
        let pool = pool(1, 1);
        let (release, holder) = hold_the_slot(&pool).await;
        {
            let waiting = analyze(&pool, HARD);
            tokio::pin!(waiting);
            // One poll takes the place and waits for the slot; then the wait is dropped.
            tokio::select! {
                biased;
                _ = &mut waiting => panic!("answered while the only slot was held"),
                () = std::future::ready(()) => {}
            }
            assert_eq!(pool.waiting(), 1);
        }
        assert_eq!(pool.waiting(), 0, "the place is given back");
        drop(release);
        holder.await.unwrap().unwrap();
    }

    /// Every grid's analysis, in order, each part's first index checked on the way.
    async fn analyze_all(pool: &SolverPool, grids: Vec<Grid>) -> Vec<Analysis> {
        let parts = pool
            .map_parts(grids, |solver, first, part: &[Grid]| {
                (
                    first,
                    part.iter().map(|g| solver.analyze(g)).collect::<Vec<_>>(),
                )
            })
            .await
            .unwrap();
        for (number, (first, _)) in parts.iter().enumerate() {
            assert_eq!(*first, number * BATCH_PART);
        }
        parts
            .into_iter()
            .flat_map(|(_, analyses)| analyses)
            .collect()
    }

    #[tokio::test]
    async fn a_batch_keeps_its_order_across_parts() {
        let pool = pool(3, 0);
        let grids = vec![
            grid(CLASSIC_PUZZLE),
            HARD,
            grid(CLASSIC_SOLUTION),
            HARD,
            grid(CLASSIC_PUZZLE),
        ];
        let analyses = analyze_all(&pool, grids.clone()).await;
        let expected: Vec<Analysis> = grids.iter().map(|g| Solver::default().analyze(g)).collect();
        assert_eq!(analyses, expected);
    }

    #[tokio::test]
    async fn a_batch_of_many_parts_keeps_its_order() {
        let pool = pool(2, 0);
        // A solved grid at every seventh place: its answer differs from the puzzle's.
        let grids: Vec<Grid> = (0..3 * BATCH_PART + 5)
            .map(|i| {
                grid(if i % 7 == 0 {
                    CLASSIC_SOLUTION
                } else {
                    CLASSIC_PUZZLE
                })
            })
            .collect();
        let analyses = analyze_all(&pool, grids.clone()).await;
        let expected: Vec<Analysis> = grids.iter().map(|g| Solver::default().analyze(g)).collect();
        assert_eq!(analyses, expected);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn batches_at_once_on_one_slot_each_get_their_own_answers() {
        let pool = pool(1, 8);
        let batches: Vec<Vec<Grid>> = (0..4)
            .map(|n| {
                (0..2 * BATCH_PART + n)
                    .map(|i| {
                        grid(if (i + n) % 5 == 0 {
                            CLASSIC_SOLUTION
                        } else {
                            CLASSIC_PUZZLE
                        })
                    })
                    .collect()
            })
            .collect();
        let answers = futures_join_all(batches.iter().map(|grids| {
            let pool = Arc::clone(&pool);
            let grids = grids.clone();
            async move { analyze_all(&pool, grids).await }
        }))
        .await;
        for (grids, analyses) in batches.iter().zip(answers) {
            let expected: Vec<Analysis> =
                grids.iter().map(|g| Solver::default().analyze(g)).collect();
            assert_eq!(analyses, expected);
        }
        assert!(lock(&pool.batches).is_empty(), "a batch left in the queue");
    }

    /// Runs the futures side by side on the runtime and collects their outputs in order.
    async fn futures_join_all<F>(futures: impl Iterator<Item = F>) -> Vec<F::Output>
    where
        F: Future + Send + 'static,
        F::Output: Send + 'static,
    {
        let handles: Vec<_> = futures.map(tokio::spawn).collect();
        let mut outputs = Vec::new();
        for handle in handles {
            outputs.push(handle.await.unwrap());
        }
        outputs
    }

    #[tokio::test]
    async fn a_part_that_panics_fails_its_batch_alone() {
        // A place in line: the failed batch may answer before its job has given the slot back.
        let pool = pool(1, 1);
        let failed = pool
            .map_parts(vec![0u8; 3 * BATCH_PART], |_, first, _| {
                assert!(first != BATCH_PART, "forced panic in the second part");
                first
            })
            .await;
        assert!(
            matches!(&failed, Err(PoolError::Failed(text)) if text.contains("forced panic")),
            "{failed:?}"
        );
        let firsts = pool
            .map_parts(vec![0u8; 2 * BATCH_PART], |_, first, _| first)
            .await;
        assert_eq!(firsts, Ok(vec![0, BATCH_PART]));
    }

    #[tokio::test]
    async fn a_batch_whose_request_went_away_is_never_worked_on() {
        let pool = pool(1, 1);
        let (release, holder) = hold_the_slot(&pool).await;
        let runs = Arc::new(AtomicUsize::new(0));
        {
            let counted = Arc::clone(&runs);
            let abandoned = pool.map_parts(vec![0u8; 4 * BATCH_PART], move |_, _, _| {
                counted.fetch_add(1, Ordering::Relaxed);
            });
            tokio::pin!(abandoned);
            tokio::select! {
                biased;
                _ = &mut abandoned => panic!("answered while the only slot was held"),
                () = std::future::ready(()) => {}
            }
            assert_eq!(lock(&pool.batches).len(), 1);
        }
        assert!(lock(&pool.batches).is_empty(), "still queued once dropped");
        release.send(()).unwrap();
        holder.await.unwrap().unwrap();
        let firsts = pool.map_parts(vec![0u8; 2], |_, first, _| first).await;
        assert_eq!(firsts, Ok(vec![0]));
        assert_eq!(runs.load(Ordering::Relaxed), 0);
    }

    #[tokio::test]
    async fn a_panicking_job_fails_and_gives_its_slot_back() {
        let pool = pool(1, 0);
        let failed = pool
            .run(|_| -> u8 { panic!("forced panic inside a job") })
            .await;
        assert!(matches!(failed, Err(PoolError::Failed(_))), "{failed:?}");
        assert_eq!(pool.run(|_| 7).await, Ok(7), "the slot is free again");
    }
}
