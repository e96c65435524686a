//! Solve and prove uniqueness (`Solver::analyze`, counting up to two solutions) over a sample
//! of each committed puzzle set, one thread; throughput is reported in puzzles per second.
//!
//! `cargo bench --bench solver` (about half a minute per set).

// criterion's macros define undocumented items.
#![allow(missing_docs)]

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use sudoku::Solver;
use sudoku::puzzle_sets;

/// (set, puzzles in the sample): enough of each that one pass takes a few milliseconds.
const SAMPLES: [(&str, usize); 6] = [
    ("puzzles2_17_clue", 5000),
    ("puzzles3_magictour_top1465", 1465),
    ("puzzles5_forum_hardest_1905_11+", 1000),
    ("puzzles7_serg_benchmark", 5000),
    ("msolve_hardest_to_solve", 1000),
    ("sudoku_exchange_diabolical", 5000),
];

fn analyze_sets(c: &mut Criterion) {
    let solver = Solver::default();
    let mut group = c.benchmark_group("analyze");
    group.sample_size(20);
    for (name, count) in SAMPLES {
        let puzzles = puzzle_sets::spread(name, count);
        group.throughput(Throughput::Elements(puzzles.len() as u64));
        group.bench_with_input(BenchmarkId::from_parameter(name), &puzzles, |b, puzzles| {
            b.iter(|| {
                puzzles
                    .iter()
                    .filter(|puzzle| solver.analyze(puzzle).is_ok())
                    .count()
            });
        });
    }
    group.finish();
}

criterion_group!(
    name = benches;
    config = Criterion::default();
    targets = analyze_sets
);
criterion_main!(benches);
