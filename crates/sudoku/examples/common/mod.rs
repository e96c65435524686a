//! What the measuring examples share: their command line and reading puzzle files.

use sudoku::Grid;
use sudoku::puzzle_sets;

/// `[-n ROUNDS] FILE...` from the command line, with `default_rounds` when `-n` is absent;
/// prints `usage` and exits 2 when there is no file or `ROUNDS` is not a positive number.
pub(crate) fn rounds_and_files(default_rounds: usize, usage: &str) -> (usize, Vec<String>) {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut rounds = Some(default_rounds);
    if args.len() >= 2 && args[0] == "-n" {
        rounds = args[1].parse().ok();
        args.drain(..2);
    }
    match rounds {
        Some(rounds) if rounds > 0 && !args.is_empty() => (rounds, args),
        _ => {
            eprintln!("usage: {usage}");
            std::process::exit(2);
        }
    }
}

/// Every puzzle of a puzzle file; exits 2 naming the file (and line) when it cannot be read
/// or a line is not a puzzle.
#[allow(dead_code, reason = "the examples of other sizes read their own lines")]
pub(crate) fn load_puzzles(file: &str) -> Vec<Grid> {
    match puzzle_sets::read(file) {
        Ok(puzzles) => puzzles.into_iter().map(|(_, grid)| grid).collect(),
        Err(err) => {
            eprintln!("{err}");
            std::process::exit(2);
        }
    }
}
