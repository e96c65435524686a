//! How long each board takes to decide (count its solutions up to two), one thread.
//!
//! `cargo run --release -p sudoku --example decide_timing -- [-n PASSES] FILE...` prints one
//! line a board (solutions up to 2, guesses, best of PASSES in microseconds), then per file the
//! board with the most guesses and the slowest one. For comparing boards without a solution
//! with a peer solver, board by board.

use std::time::Instant;

use sudoku::Solver;

mod common;

fn main() {
    let (passes, files) = common::rounds_and_files(5, "decide_timing [-n PASSES] FILE...");
    let solver = Solver::default();
    for file in files {
        let (mut most_guesses, mut slowest) = ((0, 0), (0.0f64, 0));
        let mut total = 0.0;
        let boards = common::load_puzzles(&file);
        for (number, board) in boards.iter().enumerate() {
            let decided = solver.count_solutions(board, 2);
            let (solutions, guesses) = match decided {
                Ok(count) => (count.solutions.to_string(), count.guesses),
                Err(exhausted) => ("budget".to_string(), exhausted.guesses),
            };
            let mut best = f64::INFINITY;
            for _ in 0..passes {
                let started = Instant::now();
                std::hint::black_box(solver.count_solutions(std::hint::black_box(board), 2).ok());
                best = best.min(started.elapsed().as_secs_f64() * 1e6);
            }
            total += best;
            most_guesses = most_guesses.max((guesses, number));
            if best > slowest.0 {
                slowest = (best, number);
            }
            println!("{} {solutions} {guesses} {best:.2}", board.to_line());
        }
        println!(
            "# {file}: {} boards, {:.2} us each on average; most guesses {} ({}), slowest {:.2} us ({})",
            boards.len(),
            total / boards.len() as f64,
            most_guesses.0,
            boards[most_guesses.1].to_line(),
            slowest.0,
            boards[slowest.1].to_line(),
        );
    }
}
