//! Per-puzzle solve time (solve and prove uniqueness) over puzzle files, one thread.
//!
//! `cargo run --release --example latency -- [-n ROUNDS] FILE...` prints, per file, the
//! throughput and the p50, p99 and maximum time of one `Solver::analyze` call. Every puzzle
//! is timed in each of ROUNDS passes over the file (default 3, after one untimed pass that
//! warms caches and branch predictors), and its time is the best of its rounds: on a shared
//! machine a single timing can include a preemption of several milliseconds that says
//! nothing about the solver. The worst single timing is printed as well, for the record.

use std::time::{Duration, Instant};

use sudoku::Solver;

mod common;

fn main() {
    let (rounds, files) = common::rounds_and_files(3, "latency [-n ROUNDS] FILE...");
    let solver = Solver::default();
    for file in files {
        let puzzles = common::load_puzzles(&file);
        for puzzle in &puzzles {
            std::hint::black_box(solver.analyze(puzzle).ok());
        }
        let mut best = vec![Duration::MAX; puzzles.len()];
        let mut worst_single = Duration::ZERO;
        let mut fastest_round = Duration::MAX;
        for _ in 0..rounds {
            let started = Instant::now();
            for (puzzle, best) in puzzles.iter().zip(&mut best) {
                let t = Instant::now();
                std::hint::black_box(solver.analyze(std::hint::black_box(puzzle)).ok());
                let elapsed = t.elapsed();
                *best = (*best).min(elapsed);
                worst_single = worst_single.max(elapsed);
            }
            fastest_round = fastest_round.min(started.elapsed());
        }
        best.sort_unstable();
        let at = |q: f64| best[((best.len() - 1) as f64 * q).round() as usize];
        let micros = |d: Duration| d.as_secs_f64() * 1e6;
        println!(
            "{file}: {} puzzles, {:.0} puzzles/s, best of {rounds} per puzzle: p50 {:.1} us, \
             p99 {:.1} us, max {:.1} us; worst single timing {:.1} us",
            puzzles.len(),
            puzzles.len() as f64 / fastest_round.as_secs_f64(),
            micros(at(0.5)),
            micros(at(0.99)),
            micros(best[best.len() - 1]),
            micros(worst_single),
        );
    }
}
