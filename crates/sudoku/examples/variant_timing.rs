//! How long the general engine takes to decide each board of a file of boards of any side
//! (count its solutions up to two), one thread.
//!
//! `cargo run --release -p sudoku --example variant_timing -- [-n PASSES] FILE...` reads lines
//! of N×N characters (`1`-`9`, then `A`-`P`; `.` or `0` empty; `#` lines skipped), decides each
//! under the classic rules of its side, and prints a line a board (solutions up to 2,
//! guesses, best of PASSES in microseconds), then per file the median, 90th percentile and
//! worst time and the most guesses.

use std::time::Instant;

use sudoku::variant::{Puzzle, Rules, char_digit, count_variant_solutions, side_of};

mod common;

fn budget() -> u64 {
    std::env::var("VARIANT_BUDGET")
        .ok()
        .and_then(|b| b.parse().ok())
        .unwrap_or(10_000_000)
}

fn main() {
    let (passes, files) = common::rounds_and_files(3, "variant_timing [-n PASSES] FILE...");
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap_or_else(|err| {
            eprintln!("{file}: {err}");
            std::process::exit(2);
        });
        let mut times = Vec::new();
        let mut most_guesses = 0;
        for (number, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let side = side_of(line.chars().count()).unwrap_or_else(|| {
                eprintln!("{file}:{}: not a square board", number + 1);
                std::process::exit(2);
            });
            let cells: Vec<u8> = line
                .chars()
                .map(|c| char_digit(c, side).expect("a digit of the board's side"))
                .collect();
            let puzzle = Puzzle::new(cells, &Rules::default()).expect("a board the engine takes");
            let mut best = f64::INFINITY;
            let mut outcome = String::new();
            for _ in 0..passes {
                let started = Instant::now();
                let counted = count_variant_solutions(std::hint::black_box(&puzzle), 2, budget());
                best = best.min(started.elapsed().as_secs_f64() * 1e6);
                outcome = match counted {
                    Ok(count) => {
                        most_guesses = most_guesses.max(count.guesses);
                        format!("{} {}", count.solutions, count.guesses)
                    }
                    Err(exhausted) => format!("budget {}", exhausted.guesses),
                };
            }
            times.push(best);
            println!("{line} {outcome} {best:.1}");
        }
        if times.is_empty() {
            println!("{file}: no boards");
            continue;
        }
        times.sort_by(f64::total_cmp);
        let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
        println!(
            "{file}: {} boards, median {:.1} us, p90 {:.1} us, worst {:.1} us, most guesses {most_guesses}",
            times.len(),
            at(0.5),
            at(0.9),
            at(1.0)
        );
    }
}
