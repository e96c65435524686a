//! Solve and prove uniqueness (`Solver::analyze`, counting up to two solutions) over a sample
//! of each shared puzzle set, one thread; throughput is reported in puzzles per second.
//!
//! `cargo bench --bench solver` (about half a minute per set).

// criterion's macros define undocumented items.
#![allow(missing_docs)]

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use sudoku_service::sudoku::{Grid, Solver};

const SETS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data/puzzles/");

/// (set, puzzles in the sample): enough of each that one pass takes a few milliseconds.
const SAMPLES: [(&str, usize); 6] = [
    ("puzzles2_17_clue", 5000),
    ("puzzles3_magictour_top1465", 1465),
    ("puzzles5_forum_hardest_1905_11+", 1000),
    ("puzzles7_serg_benchmark", 5000),
    ("msolve_hardest_to_solve", 1000),
    ("sudoku_exchange_diabolical", 5000),
];

/// `count` puzzles spread evenly over the set.
fn sample(name: &str, count: usize) -> Vec<Grid> {
    let path = format!("{SETS}{name}");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|err| panic!("{path}: {err}"));
    let lines: Vec<&str> = text
        .lines()
        .filter(|line| !line.trim().is_empty() && !line.starts_with('#'))
        .collect();
    let step = (lines.len() / count).max(1);
    lines
        .iter()
        .step_by(step)
        .take(count)
        .map(|line| Grid::from_line(line).expect("a puzzle line"))
        .collect()
}

fn analyze_sets(c: &mut Criterion) {
    let solver = Solver::default();
    let mut group = c.benchmark_group("analyze");
    group.sample_size(20);
    for (name, count) in SAMPLES {
        let puzzles = sample(name, count);
        group.throughput(Throughput::Elements(puzzles.len() as u64));
        group.bench_with_input(BenchmarkId::from_parameter(name), &puzzles, |b, puzzles| {
            b.iter(|| {
                puzzles
                    .iter()
                    .filter(|puzzle| solver.analyze(puzzle).is_ok())
                    .count()
            })
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
