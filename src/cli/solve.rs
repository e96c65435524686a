//! `sudoku-service solve`: solve files of puzzles, one per line, streaming, in input order.

use std::fmt;
use std::io::{self, Read, Write};
use std::num::NonZeroUsize;
use std::path::PathBuf;
use std::process::ExitCode;

use super::lines::{self, LineCommand, Options};
use crate::http::extract::parse_json;
use crate::http::puzzle::request_input;
use crate::http::wire::BoardRequest;
use sudoku::variant::{self, Puzzle, Rules, VariantVerdict};
use sudoku::{CELLS, Grid, ParseError, Solver, Verdict};

/// Lines handed to a worker at a time: small, so that when hard puzzles cluster every core
/// stays busy to the end; large enough that handing them over costs nothing.
const BLOCK_LINES: usize = 32;

// clap shows this doc as the subcommand's own `--help` summary (the options are built only
// when the subcommand runs, see `Command`), and the variant's doc in the top-level list.
/// Solve puzzle files (or stdin), one puzzle per line, proving uniqueness.
#[derive(Debug, Clone, clap::Args)]
pub struct SolveArgs {
    /// Puzzle files, one puzzle per line (81 cells, `.` or `0` empty; or N×N cells for a
    /// side N from 4 to 25, digits past 9 as `A`-`P`; or a JSON object as `/solve` takes
    /// it, `{"board", "rules"}` or `{"fpuzzles"}`); stdin when none. Blank lines and lines
    /// starting with `#` are skipped.
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,

    /// Print JSON Lines (`{"line", "status", "solution", "error"}`) instead of plain lines.
    #[arg(long)]
    pub json: bool,

    /// Worker threads (default: all cores).
    #[arg(long, short = 't', value_name = "N")]
    pub threads: Option<NonZeroUsize>,

    /// Guesses allowed per puzzle before the search gives up (reported as `unknown`).
    #[arg(long, value_name = "GUESSES", default_value_t = sudoku::DEFAULT_GUESS_BUDGET)]
    pub budget: u64,
}

/// What became of one input line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Outcome {
    Unique(Grid),
    Multiple(Grid),
    /// A board of another side with one solution, written as its line.
    UniqueOther(String),
    /// A board of another side with several; the first found, written as its line.
    MultipleOther(String),
    None,
    Invalid(String),
    /// The search budget ran out: neither a solution nor a proof there is none.
    Unknown(String),
}

impl Outcome {
    fn status(&self) -> &'static str {
        match self {
            Outcome::Unique(_) | Outcome::UniqueOther(_) => "unique",
            Outcome::Multiple(_) | Outcome::MultipleOther(_) => "multiple",
            Outcome::None => "none",
            Outcome::Invalid(_) => "invalid",
            Outcome::Unknown(_) => "unknown",
        }
    }

    fn solution(&self) -> Option<String> {
        match self {
            Outcome::Unique(grid) | Outcome::Multiple(grid) => Some(grid.to_line()),
            Outcome::UniqueOther(line) | Outcome::MultipleOther(line) => Some(line.clone()),
            _ => None,
        }
    }

    fn error(&self) -> Option<&str> {
        match self {
            Outcome::Invalid(reason) | Outcome::Unknown(reason) => Some(reason),
            _ => None,
        }
    }
}

/// The `solve` command: each puzzle line solved, and its solutions counted.
pub(super) struct Solving {
    solver: Solver,
}

impl Solving {
    /// A line of N×N cells for another side than 9, solved by the general engine under the
    /// classic rules of its side.
    fn answer_other_side(&self, text: &str) -> Outcome {
        let chars: Vec<char> = text.chars().collect();
        let Some(side) = variant::side_of(chars.len()) else {
            return Outcome::Invalid(ParseError::WrongLength(chars.len()).to_string());
        };
        let mut cells = Vec::with_capacity(chars.len());
        for (index, &c) in chars.iter().enumerate() {
            match variant::char_digit(c, side) {
                Some(digit) => cells.push(digit),
                None => {
                    return Outcome::Invalid(format!(
                        "invalid cell {c:?} at {} (character {} of {}): a {side}x{side} board takes \
                         digits 1 to {side} (past 9 as letters from A), \".\" or \"0\"",
                        variant::CellLabel(index / side, index % side),
                        index + 1,
                        chars.len()
                    ));
                }
            }
        }
        match Puzzle::new(cells, &Rules::default()) {
            Ok(puzzle) => self.solve_general(&puzzle),
            Err(error) => Outcome::Invalid(error.to_string()),
        }
    }

    /// A JSON line, `{"board", "rules"?}` or `{"fpuzzles"}` as `/solve` takes them, read as
    /// the server reads it and solved by the general engine.
    fn answer_json(&self, text: &str) -> Outcome {
        match parse_json::<BoardRequest>(text.as_bytes())
            .and_then(|request| request_input(&request))
        {
            Ok((_, puzzle)) => self.solve_general(&puzzle),
            Err(error) => Outcome::Invalid(error.to_string()),
        }
    }

    /// A puzzle solved by the general engine, with the budget scaled down by its cells as
    /// the server scales it; the solution written as its line.
    fn solve_general(&self, puzzle: &Puzzle) -> Outcome {
        let budget = variant::scaled_budget(self.solver.guess_budget(), puzzle.size());
        let line = |cells: &[u8]| cells.iter().map(|&d| variant::digit_char(d)).collect();
        match variant::solve_variant(puzzle, budget) {
            Ok(VariantVerdict::Unique(cells)) => Outcome::UniqueOther(line(&cells)),
            Ok(VariantVerdict::Multiple(cells)) => Outcome::MultipleOther(line(&cells)),
            Ok(VariantVerdict::None) => Outcome::None,
            Err(exhausted) => Outcome::Unknown(exhausted.to_string()),
        }
    }
}

impl LineCommand for Solving {
    const NAME: &'static str = "solve";
    const BLOCK_LINES: usize = BLOCK_LINES;
    type Outcome = Outcome;
    type Tally = Tally;

    fn answer(&self, puzzle: Result<Grid, ParseError>) -> Outcome {
        let grid = match puzzle {
            Ok(grid) => grid,
            Err(err) => return Outcome::Invalid(err.to_string()),
        };
        match self.solver.analyze(&grid) {
            Ok(Verdict::Unique(solution)) => Outcome::Unique(solution),
            Ok(Verdict::Multiple(solution)) => Outcome::Multiple(solution),
            Ok(Verdict::None) => Outcome::None,
            Err(exhausted) => Outcome::Unknown(exhausted.to_string()),
        }
    }

    fn answer_line(&self, puzzle: Result<Grid, ParseError>, text: &str) -> Outcome {
        match puzzle {
            Err(_) if text.starts_with('{') => self.answer_json(text),
            Err(ParseError::WrongLength(count))
                if variant::side_of(count).is_some_and(|side| side != 9) =>
            {
                self.answer_other_side(text)
            }
            classic => self.answer(classic),
        }
    }

    fn diagnostic(outcome: &Outcome) -> Option<&str> {
        outcome.error()
    }

    fn write(out: &mut impl Write, json: bool, line: u64, outcome: &Outcome) -> io::Result<()> {
        if json {
            let record = JsonLine {
                line,
                status: outcome.status(),
                solution: outcome.solution(),
                error: outcome.error(),
            };
            serde_json::to_writer(&mut *out, &record)?;
            return out.write_all(b"\n");
        }
        match outcome {
            Outcome::Unique(grid) | Outcome::Multiple(grid) => {
                // Digits only: a solution has no empty cell. Written as bytes, without
                // going through the formatting machinery (the `Display` form).
                let mut line = [b'\n'; CELLS + 1];
                for (out, &value) in line.iter_mut().zip(grid.cells()) {
                    *out = if value == 0 { b'.' } else { b'0' + value };
                }
                out.write_all(&line)
            }
            Outcome::UniqueOther(line) | Outcome::MultipleOther(line) => {
                out.write_all(line.as_bytes())?;
                out.write_all(b"\n")
            }
            other => {
                out.write_all(other.status().as_bytes())?;
                out.write_all(b"\n")
            }
        }
    }
}

#[derive(Default)]
pub(super) struct Tally {
    unique: u64,
    multiple: u64,
    none: u64,
    invalid: u64,
    unknown: u64,
}

impl lines::Tally<Outcome> for Tally {
    fn add(&mut self, outcome: &Outcome) {
        let counter = match outcome {
            Outcome::Unique(_) | Outcome::UniqueOther(_) => &mut self.unique,
            Outcome::Multiple(_) | Outcome::MultipleOther(_) => &mut self.multiple,
            Outcome::None => &mut self.none,
            Outcome::Invalid(_) => &mut self.invalid,
            Outcome::Unknown(_) => &mut self.unknown,
        };
        *counter += 1;
    }

    fn total(&self) -> u64 {
        self.unique + self.multiple + self.none + self.invalid + self.unknown
    }

    /// Puzzles with no or several solutions are answers too; only a line that is no puzzle,
    /// or one the search gave up on, fails the run.
    fn failed(&self) -> bool {
        self.invalid > 0 || self.unknown > 0
    }
}

impl fmt::Display for Tally {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unique {}, multiple {}, none {}, invalid {}, unknown {}",
            self.unique, self.multiple, self.none, self.invalid, self.unknown,
        )
    }
}

#[derive(serde::Serialize)]
struct JsonLine<'a> {
    line: u64,
    status: &'a str,
    solution: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<&'a str>,
}

/// Runs the `solve` command over `args.files` (or `stdin`), printing to `stdout` and the
/// diagnostics and summary to `stderr`, with a progress bar on the process's stderr when
/// `show_progress` (`main` passes whether it is a terminal). Returns the process exit code:
/// 0 when every line parsed and was decided, 1 when any was invalid or undecided, 2 when a
/// file cannot be read or the output cannot be written.
pub fn run(
    args: &SolveArgs,
    stdin: impl Read + Send,
    stdout: impl Write + Send,
    stderr: impl Write + Send,
    show_progress: bool,
) -> ExitCode {
    let solving = Solving {
        solver: Solver::with_budget(args.budget),
    };
    let options = Options {
        files: &args.files,
        json: args.json,
        threads: args.threads,
    };
    lines::run(&solving, &options, stdin, stdout, stderr, show_progress)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::input::BlockReader;
    use crate::cli::lines::{WINDOW_BLOCKS, answer_block};
    use crate::cli::pipeline::Cancellation;
    use std::sync::atomic::AtomicBool;
    use sudoku::{CLASSIC_PUZZLE, CLASSIC_SOLUTION};

    fn run_on(input: &str, json: bool) -> (u8, String, String) {
        run_with_threads(input, json, 1)
    }

    fn run_with_threads(input: &str, json: bool, threads: usize) -> (u8, String, String) {
        let args = SolveArgs {
            files: vec![],
            json,
            threads: NonZeroUsize::new(threads),
            budget: sudoku::DEFAULT_GUESS_BUDGET,
        };
        lines::captured(|out, err| run(&args, input.as_bytes(), out, err, false))
    }

    #[test]
    fn threads_change_nothing_but_the_speed() {
        // Solvable, unsolvable, malformed and comment lines mixed, beyond one window of
        // blocks and with a tail that is not a whole block. Now and then a hard puzzle
        // (forum_hardest's first) holds its block up, so that later blocks finish first.
        let hard =
            "98.7..6..75..4......3..8.7.5....7.3...94.........2.1..3.......1.9...5.8...52....6";
        let clash = format!("55{}", &CLASSIC_PUZZLE[2..]);
        let window_lines = WINDOW_BLOCKS.get() * BLOCK_LINES;
        let mut input = String::new();
        for i in 0..window_lines + 3 * BLOCK_LINES + 5 {
            let line = match i % 7 {
                _ if i % 301 == 0 => hard,
                0 => "12x",
                3 => "# comment",
                5 => &clash,
                _ => CLASSIC_PUZZLE,
            };
            input.push_str(line);
            input.push('\n');
        }
        // The diagnostics without the summary, whose last line has the timing.
        let run = |threads| {
            let (code, out, err) = run_with_threads(&input, true, threads);
            let diagnostics: Vec<String> = err.lines().map(str::to_owned).collect();
            (code, out, diagnostics[..diagnostics.len() - 1].to_vec())
        };
        let one = run(1);
        assert_eq!(one.0, 1);
        let puzzles = input.lines().filter(|line| !line.starts_with('#')).count();
        assert_eq!(one.1.lines().count(), puzzles);
        let first_bad_past_the_window = window_lines.next_multiple_of(7) + 1;
        let expected = format!(
            "<stdin>:{first_bad_past_the_window}: a board string must have 81 cells, found 3 characters"
        );
        assert!(one.2.contains(&expected), "{:?}", &one.2[..3]);
        for threads in [2, 3, 8] {
            assert_eq!(run(threads), one, "{threads} threads");
        }
    }

    #[test]
    fn a_cancelled_block_stops_before_its_next_puzzle() {
        let text = format!("{CLASSIC_PUZZLE}\n").repeat(BLOCK_LINES);
        let block = BlockReader::new(BLOCK_LINES)
            .read(&mut text.as_bytes())
            .unwrap()
            .unwrap();
        let solving = Solving {
            solver: Solver::default(),
        };
        let going_on = answer_block(&solving, &block, Cancellation::new(&AtomicBool::new(false)));
        assert_eq!(going_on.len(), BLOCK_LINES);
        let cancelled = answer_block(&solving, &block, Cancellation::new(&AtomicBool::new(true)));
        assert_eq!(cancelled, []);
    }

    /// Output that takes nothing: every write fails with `kind`.
    struct Refusing(io::ErrorKind);

    impl Write for Refusing {
        fn write(&mut self, _: &[u8]) -> io::Result<usize> {
            Err(self.0.into())
        }
        fn flush(&mut self) -> io::Result<()> {
            Err(self.0.into())
        }
    }

    #[test]
    fn a_closed_output_ends_the_run_quietly_and_any_other_write_error_loudly() {
        // Far more answers than the output buffer holds, on several threads.
        let input = format!("{CLASSIC_PUZZLE}\n").repeat(4 * WINDOW_BLOCKS.get() * BLOCK_LINES);
        let args = |threads| SolveArgs {
            files: vec![],
            json: false,
            threads: NonZeroUsize::new(threads),
            budget: sudoku::DEFAULT_GUESS_BUDGET,
        };
        for threads in [1, 2] {
            let mut stderr = Vec::new();
            let closed = Refusing(io::ErrorKind::BrokenPipe);
            let code = run(&args(threads), input.as_bytes(), closed, &mut stderr, false);
            assert_eq!(code, ExitCode::SUCCESS, "{threads} threads");
            assert_eq!(String::from_utf8(stderr).unwrap(), "", "{threads} threads");

            let mut stderr = Vec::new();
            let full = Refusing(io::ErrorKind::StorageFull);
            let code = run(&args(threads), input.as_bytes(), full, &mut stderr, false);
            assert_eq!(code, ExitCode::from(2), "{threads} threads");
            let stderr = String::from_utf8(stderr).unwrap();
            assert!(stderr.starts_with("sudoku-service solve: "), "{stderr}");
            assert_eq!(stderr.lines().count(), 1, "no summary after it: {stderr}");
        }
    }

    #[test]
    fn comments_and_blank_lines_are_skipped_but_counted() {
        let (code, out, _) = run_on(&format!("# header\n\n{CLASSIC_PUZZLE}\n"), true);
        assert_eq!(code, 0);
        assert_eq!(
            out,
            format!("{{\"line\":3,\"status\":\"unique\",\"solution\":\"{CLASSIC_SOLUTION}\"}}\n")
        );
    }

    #[test]
    fn an_invalid_line_is_reported_and_the_rest_still_solved() {
        let (code, out, err) = run_on(&format!("12x\n{CLASSIC_PUZZLE}"), false);
        assert_eq!(code, 1);
        assert_eq!(out, format!("invalid\n{CLASSIC_SOLUTION}\n"));
        assert!(
            err.contains("<stdin>:1: a board string must have 81 cells, found 3 characters"),
            "{err}"
        );
    }

    #[test]
    fn the_summary_counts_every_status() {
        let (_, _, err) = run_on(
            &format!("{CLASSIC_PUZZLE}\n{}\nbad\n", ".".repeat(81)),
            false,
        );
        assert!(
            err.contains("3 puzzles") && err.contains("unique 1, multiple 1, none 0, invalid 1"),
            "{err}"
        );
    }
}
