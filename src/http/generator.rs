//! Where `/generate`'s puzzles come from: made on request within a deadline, or taken from
//! a small stock made in the background.
//!
//! A puzzle of a given difficulty takes as many attempts as it takes: an easy or medium
//! one comes within a few, an expert or extreme one may take hundreds (seconds of work).
//! A request with a seed must get that seed's puzzle, so it is made on request. One
//! without a seed may get any puzzle of its kind, so the [`Generator`] keeps up to
//! `capacity` puzzles ready for each kind (difficulty, symmetry, minimal) it has been
//! asked for, and makes more after each one it hands out.
//!
//! The stock is only made when nobody else needs the solver slots: its jobs take a slot
//! only when one is free (never a place in the waiting line), give up between two
//! attempts as soon as a request waits for a slot, and stop once shutdown has begun.
//! Kinds are stocked only once asked for, so a server that is never asked for an extreme
//! puzzle never spends time making one.

use std::collections::hash_map::RandomState;
use std::collections::{HashMap, VecDeque};
use std::hash::BuildHasher;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::sync::Notify;

use super::pool::{PoolError, SolverPool};
use super::readiness::Readiness;
use sudoku::variant::{GeneratedVariant, VariantGenerateError, VariantOptions, generate_variant};
use sudoku::{GenerateError, GenerateOptions, Generated, generate};

/// How long one background job may search for a puzzle: long enough for the rarest
/// difficulty on a slow machine, short enough that a search that cannot succeed (under
/// constant load) is given up and tried again from another seed.
const STOCK_JOB_DEADLINE: Duration = Duration::from_secs(30);

/// How long the stock waits before it tries again when no slot was free or a job gave up.
const STOCK_RETRY: Duration = Duration::from_millis(200);

/// What a puzzle of the stock must be: the options a request asks for, with the seed left
/// out (each puzzle of the stock comes from a seed of its own).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct Kind(GenerateOptions);

impl Kind {
    fn of(options: &GenerateOptions) -> Kind {
        Kind(GenerateOptions {
            seed: 0,
            ..*options
        })
    }

    fn options(self, seed: u64) -> GenerateOptions {
        GenerateOptions { seed, ..self.0 }
    }
}

/// A fresh seed for a request that brings none: the hash of a constant under a new
/// `RandomState`, whose keys std draws from the operating system's randomness once per
/// thread and steps for every new instance, so that no two seeds drawn are alike.
pub fn draw_seed() -> u64 {
    RandomState::new().hash_one(0u8)
}

/// The generator of `/generate`: the solver pool, and the stock of ready puzzles.
pub struct Generator {
    pool: Arc<SolverPool>,
    readiness: Arc<Readiness>,
    capacity: usize,
    shelves: Mutex<HashMap<Kind, VecDeque<Generated>>>,
    restock: Notify,
    stocking: AtomicBool,
}

impl Generator {
    /// A generator on `pool` keeping up to `capacity` puzzles ready per kind asked for
    /// (none when 0), that stops stocking once `readiness` turns false.
    pub fn new(pool: Arc<SolverPool>, readiness: Arc<Readiness>, capacity: usize) -> Generator {
        Generator {
            pool,
            readiness,
            capacity,
            shelves: Mutex::new(HashMap::new()),
            restock: Notify::new(),
            stocking: AtomicBool::new(false),
        }
    }

    /// A puzzle as `options` ask: from `options.seed` when `seeded`; otherwise from the
    /// stock when it has one, else from `options.seed` all the same (a seed drawn by the
    /// caller). Attempts after the first stop once `deadline` has passed.
    ///
    /// # Errors
    /// As for [`SolverPool::run`].
    pub async fn generate(
        self: &Arc<Self>,
        options: GenerateOptions,
        seeded: bool,
        deadline: Instant,
    ) -> Result<Result<Generated, GenerateError>, PoolError> {
        if seeded || self.capacity == 0 {
            return self.make(options, deadline).await;
        }
        let kind = Kind::of(&options);
        if let Some(ready) = self.take(kind) {
            return Ok(Ok(ready));
        }
        self.make(options, deadline).await
    }

    /// Makes a puzzle in a slot, with no attempt after the first once `deadline` has passed
    /// (an attempt is not cut short, so the answer may come a little after it).
    async fn make(
        &self,
        options: GenerateOptions,
        deadline: Instant,
    ) -> Result<Result<Generated, GenerateError>, PoolError> {
        self.pool
            .run(move |_| generate(&options, &mut || Instant::now() < deadline))
            .await
    }

    /// A puzzle of another size or a variant, made on the pool within `deadline` (never
    /// from stock: these are asked for rarely enough that each is made to order).
    ///
    /// # Errors
    /// The pool's error when it has no slot, or the generator's when the deadline passes.
    pub async fn generate_variant(
        &self,
        options: VariantOptions,
        deadline: Instant,
    ) -> Result<Result<GeneratedVariant, VariantGenerateError>, PoolError> {
        self.pool
            .run(move |_| generate_variant(&options, &mut || Instant::now() < deadline))
            .await
    }

    /// Puzzles ready now for every kind.
    pub fn stocked(&self) -> usize {
        self.lock().values().map(VecDeque::len).sum()
    }

    /// Takes a ready puzzle of `kind`, if any, and has the stock made up.
    fn take(self: &Arc<Self>, kind: Kind) -> Option<Generated> {
        let ready = self.lock().entry(kind).or_default().pop_front();
        if !self.stocking.swap(true, Ordering::AcqRel) {
            // Started on the first request that wants stock, inside the server's runtime.
            tokio::spawn(Arc::clone(self).stock());
        }
        self.restock.notify_one();
        ready
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<Kind, VecDeque<Generated>>> {
        // A panic while the lock was held left the map as it was between two operations.
        self.shelves
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The kind asked for with the fewest puzzles ready, when one has fewer than wanted.
    fn shortest(&self) -> Option<Kind> {
        self.lock()
            .iter()
            .filter(|(_, ready)| ready.len() < self.capacity)
            .min_by_key(|(_, ready)| ready.len())
            .map(|(kind, _)| *kind)
    }

    /// Makes up the stock, one puzzle at a time, for as long as the server runs.
    async fn stock(self: Arc<Self>) {
        while self.readiness.is_ready() {
            let Some(kind) = self.shortest() else {
                self.restock.notified().await;
                continue;
            };
            let pool = Arc::clone(&self.pool);
            let readiness = Arc::clone(&self.readiness);
            let options = kind.options(draw_seed());
            let job = self.pool.try_run(move |_| {
                let deadline = Instant::now() + STOCK_JOB_DEADLINE;
                generate(&options, &mut || {
                    pool.waiting() == 0 && readiness.is_ready() && Instant::now() < deadline
                })
            });
            match job {
                Some(job) => match job.await {
                    Ok(Ok(made)) => self.lock().entry(kind).or_default().push_back(made),
                    Ok(Err(_)) | Err(_) => tokio::time::sleep(STOCK_RETRY).await,
                },
                None => tokio::time::sleep(STOCK_RETRY).await,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::http::metrics::Metrics;
    use sudoku::{Difficulty, Solver};

    fn generator(capacity: usize) -> Arc<Generator> {
        let pool = Arc::new(SolverPool::new(
            Solver::default(),
            1,
            4,
            Arc::new(Metrics::new()),
        ));
        Arc::new(Generator::new(pool, Arc::default(), capacity))
    }

    fn easy() -> GenerateOptions {
        GenerateOptions {
            difficulty: Some(Difficulty::Easy),
            ..GenerateOptions::default()
        }
    }

    #[test]
    fn drawn_seeds_differ() {
        let seeds: std::collections::BTreeSet<u64> = (0..100).map(|_| draw_seed()).collect();
        assert_eq!(seeds.len(), 100);
    }

    #[tokio::test]
    async fn a_seeded_request_gets_its_seed_and_leaves_the_stock_alone() {
        let generator = generator(2);
        let far = Instant::now() + Duration::from_secs(3600);
        let made = generator
            .generate(easy(), true, far)
            .await
            .unwrap()
            .unwrap();
        let again = generate(&easy(), &mut || true).unwrap();
        assert_eq!(made.puzzle, again.puzzle);
        assert!(!generator.stocking.load(Ordering::Acquire));
        assert_eq!(generator.stocked(), 0);
    }

    #[tokio::test]
    async fn an_unseeded_request_has_its_kind_stocked_for_the_next() {
        let generator = generator(2);
        let far = Instant::now() + Duration::from_secs(3600);
        let first = generator
            .generate(easy(), false, far)
            .await
            .unwrap()
            .unwrap();
        assert_eq!(first.grade.difficulty, Difficulty::Easy);
        // The stock is made in the background, one puzzle per job.
        while generator.stocked() < 2 {
            tokio::task::yield_now().await;
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
        let taken = generator
            .generate(easy(), false, far)
            .await
            .unwrap()
            .unwrap();
        assert_eq!(taken.grade.difficulty, Difficulty::Easy);
        assert!(taken.attempts >= 1);
        // Its seed makes it again, at once.
        let options = GenerateOptions {
            seed: taken.seed,
            ..easy()
        };
        assert_eq!(
            generate(&options, &mut || false).unwrap().puzzle,
            taken.puzzle
        );
    }
}
