//! How long generating a puzzle of each size and 9x9 variant takes, one thread.
//!
//! `cargo run --release -p sudoku --example variant_generate_timing -- [-n PUZZLES] KIND...`
//! where a KIND is a side (`16`) or a 9x9 variant (`killer`); makes PUZZLES puzzles of each
//! from seeds 1, 2, ... and prints the median, 99th percentile and worst time, and the clues.

use std::time::Instant;

use sudoku::Symmetry;
use sudoku::variant::{VariantKind, VariantOptions, generate_variant};

mod common;

fn main() {
    let (count, kinds) =
        common::rounds_and_files(20, "variant_generate_timing [-n PUZZLES] SIZE|VARIANT...");
    for name in kinds {
        let (size, kind) = match (name.parse::<usize>(), VariantKind::from_name(&name)) {
            (Ok(size), _) => (size, VariantKind::Classic),
            (_, Some(kind)) => (9, kind),
            _ => {
                eprintln!("{name}: neither a size nor a variant");
                std::process::exit(2);
            }
        };
        let mut times = Vec::new();
        let mut clues = Vec::new();
        for seed in 1..=count as u64 {
            let options = VariantOptions {
                size,
                kind,
                symmetry: Symmetry::None,
                seed,
            };
            let started = Instant::now();
            let made = generate_variant(&options, &mut || true).expect("a puzzle");
            times.push(started.elapsed().as_secs_f64() * 1e3);
            clues.push(made.clues);
        }
        times.sort_by(f64::total_cmp);
        let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
        let mean_clues = clues.iter().sum::<usize>() as f64 / clues.len() as f64;
        println!(
            "{name}: {count} puzzles, median {:.1} ms, p99 {:.1} ms, worst {:.1} ms, clues {mean_clues:.1} on average",
            at(0.5),
            at(0.99),
            at(1.0)
        );
    }
}
