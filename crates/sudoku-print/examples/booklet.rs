//! Generates a booklet of medium puzzles and writes it, timing generation and drawing:
//! `cargo run --release -p sudoku-print --example booklet -- [COUNT] [OUT.pdf]`.

use std::time::Instant;

use sudoku::{Difficulty, GenerateOptions, generate};
use sudoku_print::{Booklet, BookletPuzzle, booklet};

fn main() {
    let mut args = std::env::args().skip(1);
    let count: usize = args.next().and_then(|n| n.parse().ok()).unwrap_or(100);
    let out = args.next().unwrap_or_else(|| "booklet.pdf".to_owned());
    let started = Instant::now();
    let puzzles: Vec<BookletPuzzle> = (0..count as u64)
        .map(|i| {
            let options = GenerateOptions {
                difficulty: Some(Difficulty::Medium),
                seed: 2026 + i,
                ..GenerateOptions::default()
            };
            let made = generate(&options, &mut || true).expect("a medium puzzle");
            BookletPuzzle::of_generated(&made)
        })
        .collect();
    let generated = started.elapsed();
    let drawing = Instant::now();
    let pdf = booklet(&puzzles, &Booklet::default()).expect("a booklet");
    let drawn = drawing.elapsed();
    let total = started.elapsed();
    std::fs::write(&out, &pdf).expect("the booklet written");
    println!(
        "{count} puzzles: generated in {:.3} s, booklet drawn in {:.3} s, {:.3} s in all; {} bytes to {out}",
        generated.as_secs_f64(),
        drawn.as_secs_f64(),
        total.as_secs_f64(),
        pdf.len()
    );
}
