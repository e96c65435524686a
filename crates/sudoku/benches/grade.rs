//! Grading (`sudoku::grade::grade`: uniqueness, then the logical solver to the end) and
//! generation, one thread. The per-puzzle distribution the service promises (median and p99
//! on `sudoku_exchange_diabolical`) is printed by `examples/grade_agreement.rs`; these
//! benches follow the throughput of the same work from change to change.
//!
//! `cargo bench --bench grade`.

// criterion's macros define undocumented items.
#![allow(missing_docs)]

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use sudoku::generate::{GenerateOptions, generate};
use sudoku::grade::{Difficulty, GradeOptions, grade};
use sudoku::puzzle_sets;

/// (set, puzzles in the sample): the sets of proper puzzles the logic grades to the end, or
/// (`forum_hardest`) up to its budget.
const SAMPLES: [(&str, usize); 3] = [
    ("sudoku_exchange_diabolical", 500),
    ("puzzles2_17_clue", 500),
    ("puzzles5_forum_hardest_1905_11+", 20),
];

fn grade_sets(c: &mut Criterion) {
    let mut group = c.benchmark_group("grade");
    group.sample_size(10);
    for (name, count) in SAMPLES {
        let puzzles = puzzle_sets::spread(name, count);
        group.throughput(Throughput::Elements(puzzles.len() as u64));
        group.bench_with_input(BenchmarkId::from_parameter(name), &puzzles, |b, puzzles| {
            b.iter(|| {
                puzzles
                    .iter()
                    .filter(|puzzle| grade(puzzle, &GradeOptions::default()).is_ok())
                    .count()
            });
        });
    }
    group.finish();
}

fn generate_difficulties(c: &mut Criterion) {
    let mut group = c.benchmark_group("generate");
    group.sample_size(10);
    for difficulty in [Difficulty::Easy, Difficulty::Medium, Difficulty::Hard] {
        group.bench_function(difficulty.as_str(), |b| {
            let mut seed = 0;
            b.iter(|| {
                seed += 1;
                let options = GenerateOptions {
                    difficulty: Some(difficulty),
                    seed,
                    ..GenerateOptions::default()
                };
                generate(&options, &mut || true).is_ok()
            });
        });
    }
    group.finish();
}

criterion_group!(
    name = benches;
    config = Criterion::default();
    targets = grade_sets, generate_difficulties
);
criterion_main!(benches);
