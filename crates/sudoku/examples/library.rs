//! The core as a library, without the service: read a puzzle, check it, solve it, grade it,
//! ask for a hint and the whole explanation in words, and generate a new one.
//!
//! `cargo run -p sudoku --example library [PUZZLE]` (81 characters, `.` or `0` for an empty
//! cell; the classic puzzle when none is given).

use std::process::ExitCode;

use sudoku::messages::{Language, describe, describe_path, render};
use sudoku::{
    CLASSIC_PUZZLE, Difficulty, GenerateOptions, GradeOptions, Grid, HintOptions, Solver, Symmetry,
    Verdict, explain, find_conflicts, generate, grade, hint,
};

fn main() -> ExitCode {
    let line = std::env::args().nth(1);
    let puzzle: Grid = match line.as_deref().unwrap_or(CLASSIC_PUZZLE).parse() {
        Ok(grid) => grid,
        Err(err) => {
            eprintln!("not a puzzle: {err}");
            return ExitCode::FAILURE;
        }
    };
    println!("puzzle   {}", puzzle.to_line());

    for conflict in find_conflicts(&puzzle) {
        println!(
            "clash    {} {} holds {} twice",
            conflict.unit.name(),
            conflict.index + 1,
            conflict.digit
        );
    }
    match Solver::default().analyze(&puzzle) {
        Ok(Verdict::Unique(solution)) => println!("solution {}", solution.to_line()),
        Ok(Verdict::Multiple(first)) => {
            println!("several solutions, one is {}", first.to_line());
            return ExitCode::FAILURE;
        }
        Ok(Verdict::None) => {
            println!("no solution");
            return ExitCode::FAILURE;
        }
        Err(exhausted) => {
            println!("undecided: {exhausted}");
            return ExitCode::FAILURE;
        }
    }

    // One solution, so grading, hints and explanations cannot fail from here on.
    let options = GradeOptions::default();
    if let Ok(graded) = grade(&puzzle, &options) {
        println!("grade    {} (SE {})", graded.difficulty, graded.rating);
    }
    let asking = HintOptions {
        givens: Some(&puzzle),
        ..HintOptions::default()
    };
    if let Ok(next) = hint(&puzzle, &asking) {
        let sentence = render(&describe(&next, &puzzle, None), Language::English);
        println!("hint     {sentence}");
    }
    if let Ok(explanation) = explain(&puzzle, &options) {
        let messages = describe_path(&puzzle, &explanation.steps);
        println!(
            "path     {} steps; the first three:",
            explanation.steps.len()
        );
        for message in messages.iter().take(3) {
            println!("         {}", render(message, Language::English));
        }
    }

    let wanted = GenerateOptions {
        difficulty: Some(Difficulty::Medium),
        symmetry: Symmetry::Rotational,
        seed: 1,
        ..GenerateOptions::default()
    };
    match generate(&wanted, &mut || true) {
        Ok(new) => println!(
            "new      {} ({} clues, {})",
            new.puzzle.to_line(),
            new.clues,
            new.grade.difficulty
        ),
        Err(err) => println!("no new puzzle: {err}"),
    }
    ExitCode::SUCCESS
}
