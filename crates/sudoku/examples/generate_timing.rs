//! How long generating a puzzle takes, per difficulty, on one thread.
//!
//! `cargo run --release --example generate_timing -- [SEEDS] [SYMMETRY] [MINIMAL]` generates
//! one puzzle for each seed `0..SEEDS` (default 200) and each difficulty, with the symmetry
//! given (default `none`) and `minimal` true or false (default true), and prints per
//! difficulty the median, 99th percentile and largest time per puzzle, the mean and largest
//! number of attempts, the mean number of clues, and how many seeds found none within the
//! default attempt budget. "any" is no difficulty asked for: one attempt, always.

use std::time::Instant;

use sudoku::{Difficulty, GenerateOptions, Symmetry, generate};

fn main() {
    let mut args = std::env::args().skip(1);
    let seeds: u64 = args
        .next()
        .map_or(200, |s| s.parse().expect("SEEDS: a number"));
    let symmetry: Symmetry = args.next().map_or(Symmetry::None, |s| {
        s.parse().unwrap_or_else(|e| panic!("{e}"))
    });
    let minimal: bool = args
        .next()
        .map_or(Ok(true), |s| s.parse())
        .expect("MINIMAL: true or false");
    println!("{seeds} seeds, symmetry {symmetry}, minimal {minimal}, one thread");
    println!("difficulty  p50 ms  p99 ms  max ms  attempts mean/max  clues mean  not found");
    let wanted = std::iter::once(None).chain(Difficulty::ALL.into_iter().map(Some));
    for difficulty in wanted {
        let mut times = Vec::new();
        let (mut attempts, mut most_attempts, mut clues, mut found) = (0u64, 0, 0, 0u64);
        for seed in 0..seeds {
            let options = GenerateOptions {
                difficulty,
                symmetry,
                minimal,
                seed,
                ..GenerateOptions::default()
            };
            let started = Instant::now();
            let result = generate(&options, &mut || true);
            times.push(started.elapsed().as_secs_f64() * 1e3);
            match result {
                Ok(generated) => {
                    found += 1;
                    attempts += u64::from(generated.attempts);
                    most_attempts = most_attempts.max(generated.attempts);
                    clues += generated.clues;
                }
                Err(_) => {
                    attempts += u64::from(options.max_attempts);
                    most_attempts = options.max_attempts;
                }
            }
        }
        times.sort_by(f64::total_cmp);
        let pct = |p: f64| times[((times.len() - 1) as f64 * p).round() as usize];
        println!(
            "{:<10} {:>7.2} {:>7.2} {:>7.2}  {:>8.1}/{:<6} {:>10.1}  {:>9}",
            difficulty.map_or("any", Difficulty::as_str),
            pct(0.5),
            pct(0.99),
            pct(1.0),
            attempts as f64 / seeds as f64,
            most_attempts,
            clues as f64 / found.max(1) as f64,
            seeds - found,
        );
    }
}
