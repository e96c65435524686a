//! Per-puzzle solve time (solve and prove uniqueness) over puzzle files, one thread.
//!
//! `cargo run --release --example latency -- [-n ROUNDS] FILE...` prints, per file, the
//! throughput and the p50, p99 and maximum time of one `Solver::analyze` call. Every puzzle
//! is timed in each of ROUNDS passes over the file (default 3, after one untimed pass that
//! warms caches and branch predictors), and its time is the best of its rounds: on a shared
//! machine a single timing can include a preemption of several milliseconds that says
//! nothing about the solver. The worst single timing is printed as well, for the record.

use std::time::{Duration, Instant};

use sudoku_service::sudoku::{Grid, Solver};

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut rounds = 3;
    if args.len() >= 2 && args[0] == "-n" {
        rounds = args[1].parse().expect("a number of rounds");
        args.drain(..2);
    }
    if args.is_empty() || rounds == 0 {
        eprintln!("usage: latency [-n ROUNDS] FILE...");
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
