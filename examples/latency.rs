//! Per-puzzle solve time (solve and prove uniqueness) over puzzle files, one thread.
//!
//! `cargo run --release --example latency -- FILE...` prints, per file, the throughput and
//! the p50, p99 and maximum time of one `Solver::analyze` call. Each puzzle is timed on its
//! own after one untimed pass over the file (so caches and branch predictors are warm).

use std::time::{Duration, Instant};

use sudoku_service::sudoku::{Grid, Solver};

fn main() {
    let files: Vec<String> = std::env::args().skip(1).collect();
    if files.is_empty() {
        eprintln!("usage: latency FILE...");
        std::process::exit(2);
    }
    let solver = Solver::default();
    for file in files {
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
        let mut times: Vec<Duration> = Vec::with_capacity(puzzles.len());
        let started = Instant::now();
        for puzzle in &puzzles {
            let t = Instant::now();
            std::hint::black_box(solver.analyze(std::hint::black_box(puzzle)).ok());
            times.push(t.elapsed());
        }
        let total = started.elapsed();
        times.sort_unstable();
        let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
        println!(
            "{file}: {} puzzles, {:.0} puzzles/s, p50 {:.1} us, p99 {:.1} us, max {:.1} us",
            puzzles.len(),
            puzzles.len() as f64 / total.as_secs_f64(),
            at(0.5).as_secs_f64() * 1e6,
            at(0.99).as_secs_f64() * 1e6,
            times[times.len() - 1].as_secs_f64() * 1e6,
        );
    }
}
