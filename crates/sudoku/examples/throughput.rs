//! In-process solve throughput (solve and prove uniqueness), one thread, best of N passes.
//!
//! `cargo run --release --example throughput -- [-n PASSES] FILE...` prints puzzles per
//! second and guesses per puzzle per file; handy for A/B comparisons of the solver without process start-up or
//! line handling in the measurement.

use std::time::Instant;

use sudoku::Solver;

mod common;

fn main() {
    let (passes, files) = common::rounds_and_files(3, "throughput [-n PASSES] FILE...");
    let solver = Solver::default();
    for file in files {
        let puzzles = common::load_puzzles(&file);
        // Counted outside the timed passes, so the timing is of `analyze` alone.
        let guesses: u64 = puzzles
            .iter()
            .map(|puzzle| {
                solver
                    .count_solutions(puzzle, 2)
                    .map_or(0, |count| count.guesses)
            })
            .sum();
        let mut best = f64::INFINITY;
        for _ in 0..passes {
            let started = Instant::now();
            for puzzle in &puzzles {
                std::hint::black_box(solver.analyze(std::hint::black_box(puzzle)).ok());
            }
            best = best.min(started.elapsed().as_secs_f64());
        }
        println!(
            "{file}: {} puzzles, {:.0} puzzles/s ({:.2} us each), {:.2} guesses/puzzle, best of {passes}",
            puzzles.len(),
            puzzles.len() as f64 / best,
            best * 1e6 / puzzles.len() as f64,
            guesses as f64 / puzzles.len() as f64,
        );
    }
}
