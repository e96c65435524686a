//! Time of one hint, as `POST /hint` computes it (the uniqueness check against the givens,
//! the player's marks, the next logical step, its English sentences), over positions of
//! puzzle files, one thread.
//!
//! `cargo run --release --example hint_timing -- [-n ROUNDS] FILE...` takes
//! `HINT_TIMING_PUZZLES` puzzles spread over each file (default 300) and, for each, the
//! positions along its logical path (the puzzle, then every `HINT_TIMING_EVERY`-th step,
//! default 4), and times two hints at each: a player who sends digits only, and one who
//! sends full pencil marks (the logic's own candidates there). Each hint is timed in each
//! of ROUNDS passes (default 3, after an untimed one) and its time is the best of its
//! rounds, since a single timing on a shared machine may hold a preemption. Prints p50,
//! p99 and max per file and kind of player, and the techniques of the slowest hints: the
//! target is 5 ms at p99 on `sudoku_exchange_diabolical`.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use sudoku::Grid;
use sudoku::hint::{Hint, HintOptions, PencilMarks, hint};
use sudoku::logic::{Candidates, DEFAULT_WORK_BUDGET, next_step};
use sudoku::messages::{Language, describe, describe_reasons, render};

mod common;

/// One position of a puzzle's path, as a player would send it.
struct Position {
    puzzle: Grid,
    board: Grid,
    marks: PencilMarks,
}

fn env_number(name: &str, default: usize) -> usize {
    std::env::var(name).map_or(default, |v| {
        v.parse()
            .ok()
            .filter(|&n| n > 0)
            .unwrap_or_else(|| panic!("{name}: a positive number"))
    })
}

/// The puzzle and every `every`-th position along its logical path.
fn positions(puzzle: &Grid, every: usize) -> Vec<Position> {
    let mut state = Candidates::from_grid(puzzle).expect("a proper puzzle");
    let mut found = Vec::new();
    for step_index in 0.. {
        if step_index % every == 0 {
            found.push(Position {
                puzzle: *puzzle,
                board: state.to_grid(),
                marks: std::array::from_fn(|c| state.mask(c)),
            });
        }
        match next_step(&state, &mut DEFAULT_WORK_BUDGET.clone()) {
            Some(step) if !state.is_solved() => step.apply(&mut state),
            _ => break,
        }
    }
    found
}

/// What a hint was, for the table of the slowest.
fn kind(answer: &Hint) -> &'static str {
    match answer {
        Hint::Step(step) => step.technique.name(),
        Hint::Deduction { placement, .. } => placement.technique.name(),
        Hint::Stuck { .. } => "stuck (reveal)",
        Hint::Solved => "solved",
        Hint::WrongDigit { .. } => "wrong digit",
        Hint::WrongPencilMarks { .. } => "wrong pencil marks",
    }
}

fn main() {
    let (rounds, files) = common::rounds_and_files(3, "hint_timing [-n ROUNDS] FILE...");
    let count = env_number("HINT_TIMING_PUZZLES", 300);
    let every = env_number("HINT_TIMING_EVERY", 4);
    for file in files {
        let all = common::load_puzzles(&file);
        let stride = (all.len() / count).max(1);
        let sample: Vec<Position> = all
            .iter()
            .step_by(stride)
            .take(count)
            .flat_map(|puzzle| positions(puzzle, every))
            .collect();
        for with_marks in [false, true] {
            // What the pool's task does for `/hint`: the hint, then its sentence.
            let ask = |p: &Position| {
                let marks = with_marks.then_some(&p.marks);
                let answer = hint(
                    &p.board,
                    &HintOptions {
                        givens: Some(&p.puzzle),
                        marks,
                        ..HintOptions::default()
                    },
                )
                .expect("a proper puzzle");
                let mut sentence = render(&describe(&answer, &p.board, marks), Language::English);
                for reason in describe_reasons(&answer, &p.board) {
                    sentence.push_str(&render(&reason, Language::English));
                }
                (answer, sentence)
            };
            let answers: Vec<Hint> = sample.iter().map(|p| ask(p).0).collect();
            let mut best = vec![Duration::MAX; sample.len()];
            for _ in 0..rounds {
                for (position, best) in sample.iter().zip(&mut best) {
                    let started = Instant::now();
                    std::hint::black_box(ask(std::hint::black_box(position)));
                    *best = (*best).min(started.elapsed());
                }
            }
            let mut order: Vec<usize> = (0..sample.len()).collect();
            order.sort_by_key(|&i| best[i]);
            let at = |q: f64| best[order[((order.len() - 1) as f64 * q).round() as usize]];
            let ms = |d: Duration| d.as_secs_f64() * 1e3;
            let player = if with_marks {
                "full marks"
            } else {
                "digits only"
            };
            println!(
                "{file}, {player}: {} positions of {} puzzles, best of {rounds}: p50 {:.3} ms, \
                 p99 {:.3} ms, max {:.3} ms",
                sample.len(),
                all.len().min(count),
                ms(at(0.5)),
                ms(at(0.99)),
                ms(at(1.0)),
            );
            // Which techniques the slowest 1% answered with, and the five slowest.
            let tail = &order[order.len() - order.len().div_ceil(100)..];
            let mut techniques: BTreeMap<&str, usize> = BTreeMap::new();
            for &i in tail {
                *techniques.entry(kind(&answers[i])).or_default() += 1;
            }
            println!(
                "  slowest 1% ({} hints) by answer: {techniques:?}",
                tail.len()
            );
            for &i in order.iter().rev().take(5) {
                println!(
                    "  {:.3} ms {} at {}",
                    ms(best[i]),
                    kind(&answers[i]),
                    sample[i].board
                );
            }
        }
    }
}
