//! In-process solve throughput (solve and prove uniqueness), one thread, best of N passes.
//!
//! `cargo run --release --example throughput -- [-n PASSES] FILE...` prints puzzles per
//! second and guesses per puzzle per file; handy for A/B comparisons of the solver without process start-up or
//! line handling in the measurement.

use std::time::Instant;

use sudoku_service::sudoku::{Grid, Solver};

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut passes = 3;
    if args.len() >= 2 && args[0] == "-n" {
        passes = args[1].parse().expect("a number of passes");
        args.drain(..2);
    }
    if args.is_empty() {
        eprintln!("usage: throughput [-n PASSES] FILE...");
        std::process::exit(2);
    }
    let solver = Solver::default();
    for file in args {
        let text = std::fs::read_to_string(&file).unwrap_or_else(|err| {
            eprintln!("{file}: {err}");
            std::process::exit(2);
        });
        let puzzles: Vec<Grid> = text
            .lines()
            .map(str::trim)
            .filter(|line| !line.is_empty() && !line.starts_with('#'))
            .map(|line| Grid::from_line(line).expect("a puzzle line"))
            .collect();
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
