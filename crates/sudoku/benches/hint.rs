//! Hints (`sudoku::hint::hint`: the uniqueness check against the givens, the player's
//! marks, the next logical step; then its English sentence, as `/hint` answers), one thread, over positions along the logical paths of
//! `sudoku_exchange_diabolical` puzzles. The per-hint distribution (p50, p99, max, against
//! the 5 ms target) is printed by `examples/hint_timing.rs`; this bench follows the
//! throughput of the same work from change to change.
//!
//! `cargo bench --bench hint`.

// criterion's macros define undocumented items.
#![allow(missing_docs)]

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use sudoku::Grid;
use sudoku::hint::{HintOptions, PencilMarks, hint};
use sudoku::logic::{Candidates, DEFAULT_WORK_BUDGET, next_step};
use sudoku::messages::{Language, describe, render};
use sudoku::puzzle_sets;

/// Puzzles of the sample, and the stride of the positions taken along each path.
const PUZZLES: usize = 40;
const EVERY: usize = 4;

/// (puzzle, board, full marks) at every `EVERY`-th position of each puzzle's path.
fn positions() -> Vec<(Grid, Grid, PencilMarks)> {
    let mut found = Vec::new();
    for puzzle in puzzle_sets::spread("sudoku_exchange_diabolical", PUZZLES) {
        let mut state = Candidates::from_grid(&puzzle).expect("a proper puzzle");
        for step_index in 0.. {
            if step_index % EVERY == 0 {
                found.push((
                    puzzle,
                    state.to_grid(),
                    std::array::from_fn(|c| state.mask(c)),
                ));
            }
            match next_step(&state, &mut DEFAULT_WORK_BUDGET.clone()) {
                Some(step) if !state.is_solved() => step.apply(&mut state),
                _ => break,
            }
        }
    }
    found
}

fn hints(c: &mut Criterion) {
    let positions = positions();
    let mut group = c.benchmark_group("hint");
    group.sample_size(10);
    group.throughput(Throughput::Elements(positions.len() as u64));
    for with_marks in [false, true] {
        let name = if with_marks {
            "full_marks"
        } else {
            "digits_only"
        };
        group.bench_with_input(
            BenchmarkId::from_parameter(name),
            &positions,
            |b, positions| {
                b.iter(|| {
                    positions
                        .iter()
                        .map(|(puzzle, board, marks)| {
                            let marks = with_marks.then_some(marks);
                            let answer = hint(
                                board,
                                &HintOptions {
                                    givens: Some(puzzle),
                                    marks,
                                    ..HintOptions::default()
                                },
                            )
                            .expect("a proper puzzle");
                            render(&describe(&answer, board, marks), Language::English).len()
                        })
                        .sum::<usize>()
                });
            },
        );
    }
    group.finish();
}

criterion_group!(
    name = benches;
    config = Criterion::default();
    targets = hints
);
criterion_main!(benches);
