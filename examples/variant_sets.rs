//! How long the general engine takes on each board of a set, in-process, one thread: the
//! side of the comparison with OR-tools CP-SAT that has no HTTP in it.
//!
//! `cargo run --release --example variant_sets -- [-n PASSES] FILE...` reads lines of N×N
//! characters or JSON lines `{"board", "rules"}` / `{"fpuzzles"}` (`#` lines skipped), read
//! exactly as `/solve` reads a body, and counts each board's solutions up to two (best of
//! PASSES). Prints per file the median, 90th percentile and worst time, and the guesses in
//! all and at most.

use std::time::Instant;

use sudoku::variant::count_variant_solutions;
use sudoku_service::http::puzzle::request_input;
use sudoku_service::http::wire::BoardRequest;

/// The guesses a board may take (`VARIANT_BUDGET` in the environment): far more than the
/// service allows, so that the figures show what a board costs, not where it was cut.
fn budget() -> u64 {
    std::env::var("VARIANT_BUDGET")
        .ok()
        .and_then(|budget| budget.parse().ok())
        .unwrap_or(10_000_000)
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut passes = 3;
    if args.len() >= 2 && args[0] == "-n" {
        passes = args[1].parse().unwrap_or(0);
        args.drain(..2);
    }
    if passes == 0 || args.is_empty() {
        eprintln!("usage: variant_sets [-n PASSES] FILE...");
        std::process::exit(2);
    }
    println!("| set | boards | median (ms) | p90 (ms) | worst (ms) | guesses | most guesses |");
    println!("|---|---:|---:|---:|---:|---:|---:|");
    for file in args {
        let text = std::fs::read_to_string(&file).unwrap_or_else(|err| {
            eprintln!("{file}: {err}");
            std::process::exit(2);
        });
        let (mut times, mut all_guesses, mut most_guesses) = (Vec::new(), 0, 0);
        for (number, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let body = if line.starts_with('{') {
                line.to_owned()
            } else {
                serde_json::json!({ "board": line }).to_string()
            };
            let read = serde_json::from_str::<BoardRequest>(&body)
                .map_err(|err| err.to_string())
                .and_then(|request| request_input(&request).map_err(|err| err.to_string()));
            let puzzle = match read {
                Ok((_, puzzle)) => puzzle,
                Err(err) => {
                    eprintln!("{file}:{}: {err}", number + 1);
                    std::process::exit(2);
                }
            };
            let mut best = f64::INFINITY;
            let mut guesses = 0;
            for _ in 0..passes {
                let started = Instant::now();
                let counted = count_variant_solutions(std::hint::black_box(&puzzle), 2, budget());
                best = best.min(started.elapsed().as_secs_f64() * 1e3);
                guesses = counted.map_or(budget(), |count| count.guesses);
            }
            times.push(best);
            all_guesses += guesses;
            most_guesses = most_guesses.max(guesses);
        }
        times.sort_by(f64::total_cmp);
        let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
        println!(
            "| {file} | {} | {:.3} | {:.3} | {:.3} | {all_guesses} | {most_guesses} |",
            times.len(),
            at(0.5),
            at(0.9),
            at(1.0)
        );
    }
}
