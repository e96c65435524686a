//! `sudoku-service grade`: grade files of puzzles, one per line, streaming, in input order.

use std::fmt;
use std::io::{self, Read, Write};
use std::num::NonZeroUsize;
use std::path::PathBuf;
use std::process::ExitCode;

use super::lines::{self, LineCommand, Options};
use sudoku::grade::{DEFAULT_STEP_BUDGET, GradeOptions, grade};
use sudoku::{Difficulty, Grade, GradeError, Grid, ParseError, Solver};

/// Lines handed to a worker at a time: grading takes from a tenth of a millisecond to tens
/// of them, a hundred times solving, so blocks are small to keep every core busy to the end.
const BLOCK_LINES: usize = 4;

// clap shows this doc as the subcommand's own `--help` summary (the options are built only
// when the subcommand runs, see `Command`), and the variant's doc in the top-level list.
/// Grade puzzle files (or stdin), one puzzle per line: the Sudoku Explainer rating and
/// difficulty a person would meet.
#[derive(Debug, Clone, clap::Args)]
pub struct GradeArgs {
    /// Puzzle files, one puzzle per line (81 cells, `.` or `0` empty); stdin when none.
    /// Blank lines and lines starting with `#` are skipped.
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,

    /// Print JSON Lines (`{"line", "status", "rating", "difficulty", "solved_by_logic",
    /// "stuck", "steps", "techniques", "error"}`) instead of `RATING DIFFICULTY` lines.
    #[arg(long)]
    pub json: bool,

    /// Worker threads (default: all cores).
    #[arg(long, short = 't', value_name = "N")]
    pub threads: Option<NonZeroUsize>,

    /// Logical steps allowed per puzzle; a puzzle not finished within them is reported
    /// with the rating reached (`out_of_steps`).
    #[arg(long, value_name = "STEPS", default_value_t = DEFAULT_STEP_BUDGET)]
    pub steps: usize,
}

/// What became of one input line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Outcome {
    Graded(Grade),
    None,
    Multiple,
    Invalid(String),
    /// The search budget ran out before uniqueness could be told.
    Unknown(String),
}

impl Outcome {
    fn status(&self) -> &'static str {
        match self {
            Outcome::Graded(_) => "graded",
            Outcome::None => "none",
            Outcome::Multiple => "multiple",
            Outcome::Invalid(_) => "invalid",
            Outcome::Unknown(_) => "unknown",
        }
    }

    fn error(&self) -> Option<&str> {
        match self {
            Outcome::Invalid(reason) | Outcome::Unknown(reason) => Some(reason),
            _ => None,
        }
    }
}

/// Why the logic stopped short of the solution, as a word: `stuck` (no technique applies)
/// or `out_of_steps`; `None` when it solved the puzzle.
fn unfinished(grade: &Grade) -> Option<&'static str> {
    match (grade.solved_by_logic, grade.stuck) {
        (true, _) => None,
        (false, true) => Some("stuck"),
        (false, false) => Some("out_of_steps"),
    }
}

/// One technique of a grade in JSON.
#[derive(serde::Serialize)]
pub(super) struct TechniqueJson {
    name: &'static str,
    rating: f64,
    count: usize,
}

/// The fields of a grade in JSON, shared with `generate`.
#[derive(serde::Serialize)]
pub(super) struct GradeJson {
    rating: f64,
    difficulty: &'static str,
    solved_by_logic: bool,
    stuck: bool,
    steps: usize,
    techniques: Vec<TechniqueJson>,
}

impl From<&Grade> for GradeJson {
    fn from(grade: &Grade) -> Self {
        GradeJson {
            rating: grade.rating.value(),
            difficulty: grade.difficulty.as_str(),
            solved_by_logic: grade.solved_by_logic,
            stuck: grade.stuck,
            steps: grade.steps,
            techniques: grade
                .techniques
                .iter()
                .map(|used| TechniqueJson {
                    name: used.name(),
                    rating: used.rating.value(),
                    count: used.count,
                })
                .collect(),
        }
    }
}

#[derive(serde::Serialize)]
struct JsonLine<'a> {
    line: u64,
    status: &'a str,
    #[serde(flatten)]
    grade: Option<GradeJson>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<&'a str>,
}

/// The `grade` command: each puzzle line graded, and its difficulties counted.
struct Grading {
    solver: Solver,
    steps: usize,
}

impl LineCommand for Grading {
    const NAME: &'static str = "grade";
    const BLOCK_LINES: usize = BLOCK_LINES;
    type Outcome = Outcome;
    type Tally = Tally;

    fn answer(&self, puzzle: Result<Grid, ParseError>) -> Outcome {
        match puzzle.map(|grid| {
            let options = GradeOptions {
                solver: self.solver,
                step_budget: self.steps,
            };
            grade(&grid, &options)
        }) {
            Ok(Ok(grade)) => Outcome::Graded(grade),
            Ok(Err(GradeError::NoSolution)) => Outcome::None,
            Ok(Err(GradeError::MultipleSolutions)) => Outcome::Multiple,
            Ok(Err(GradeError::SearchLimit(exhausted))) => Outcome::Unknown(exhausted.to_string()),
            Err(err) => Outcome::Invalid(err.to_string()),
        }
    }

    fn diagnostic(outcome: &Outcome) -> Option<&str> {
        match outcome {
            Outcome::None => Some("the puzzle has no solution"),
            Outcome::Multiple => Some("the puzzle has more than one solution"),
            other => other.error(),
        }
    }

    fn write(out: &mut impl Write, json: bool, line: u64, outcome: &Outcome) -> io::Result<()> {
        if json {
            let record = JsonLine {
                line,
                status: outcome.status(),
                grade: match outcome {
                    Outcome::Graded(grade) => Some(grade.into()),
                    _ => None,
                },
                error: outcome.error(),
            };
            serde_json::to_writer(&mut *out, &record)?;
            return out.write_all(b"\n");
        }
        match outcome {
            Outcome::Graded(grade) => {
                write!(out, "{} {}", grade.rating, grade.difficulty)?;
                if let Some(why) = unfinished(grade) {
                    write!(out, " {why}")?;
                }
                out.write_all(b"\n")
            }
            other => writeln!(out, "{}", other.status()),
        }
    }
}

#[derive(Default)]
pub(super) struct Tally {
    /// Graded puzzles per difficulty, easiest first.
    graded: [u64; 5],
    /// Graded puzzles the logic did not finish.
    unfinished: u64,
    none: u64,
    multiple: u64,
    invalid: u64,
    unknown: u64,
}

impl Tally {
    fn ungraded(&self) -> u64 {
        self.none + self.multiple + self.invalid + self.unknown
    }
}

impl lines::Tally<Outcome> for Tally {
    fn add(&mut self, outcome: &Outcome) {
        let counter = match outcome {
            Outcome::Graded(grade) => {
                self.unfinished += u64::from(!grade.solved_by_logic);
                &mut self.graded[grade.difficulty as usize]
            }
            Outcome::None => &mut self.none,
            Outcome::Multiple => &mut self.multiple,
            Outcome::Invalid(_) => &mut self.invalid,
            Outcome::Unknown(_) => &mut self.unknown,
        };
        *counter += 1;
    }

    fn total(&self) -> u64 {
        self.graded.iter().sum::<u64>() + self.ungraded()
    }

    fn failed(&self) -> bool {
        self.ungraded() > 0
    }
}

impl fmt::Display for Tally {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (nth, (difficulty, count)) in Difficulty::ALL.iter().zip(self.graded).enumerate() {
            let separator = if nth == 0 { "" } else { ", " };
            write!(f, "{separator}{difficulty} {count}")?;
        }
        write!(
            f,
            " (logic unfinished {}); none {}, multiple {}, invalid {}, unknown {}",
            self.unfinished, self.none, self.multiple, self.invalid, self.unknown,
        )
    }
}

/// Runs the `grade` command over `args.files` (or `stdin`), printing to `stdout` and the
/// diagnostics and summary to `stderr`, with a progress bar on the process's stderr when
/// `show_progress`. Returns the process exit code: 0 when every puzzle was graded, 1 when a
/// line was not a puzzle or its puzzle had no or several solutions (or the search gave up),
/// 2 when a file cannot be read or the output cannot be written.
pub fn run(
    args: &GradeArgs,
    stdin: impl Read + Send,
    stdout: impl Write + Send,
    stderr: impl Write + Send,
    show_progress: bool,
) -> ExitCode {
    let grading = Grading {
        solver: Solver::default(),
        steps: args.steps,
    };
    let options = Options {
        files: &args.files,
        json: args.json,
        threads: args.threads,
    };
    lines::run(&grading, &options, stdin, stdout, stderr, show_progress)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::lines::WINDOW_BLOCKS;
    use sudoku::{CLASSIC_PUZZLE, CLASSIC_SOLUTION};

    fn run_with_threads(input: &str, json: bool, threads: usize) -> (u8, String, String) {
        let args = GradeArgs {
            files: vec![],
            json,
            threads: NonZeroUsize::new(threads),
            steps: DEFAULT_STEP_BUDGET,
        };
        lines::captured(|out, err| run(&args, input.as_bytes(), out, err, false))
    }

    #[test]
    fn each_line_gets_its_rating_and_difficulty_or_what_kept_it_from_one() {
        let input = format!(
            "{CLASSIC_PUZZLE}\n# comment\n{}\nbad\n55{}\n{CLASSIC_SOLUTION}\n",
            ".".repeat(81),
            &CLASSIC_PUZZLE[2..]
        );
        let (code, out, err) = run_with_threads(&input, false, 1);
        assert_eq!(code, 1, "{err}");
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 5, "{out}");
        let (rating, difficulty) = lines[0].split_once(' ').unwrap();
        assert!(rating.parse::<f64>().unwrap() <= 2.3, "{out}");
        assert_eq!(difficulty, "easy");
        assert_eq!(lines[1..], ["multiple", "invalid", "none", "0.0 easy"]);
        assert!(err.contains("<stdin>:3: the puzzle has more than one solution"));
        assert!(err.contains("<stdin>:4: a board string must have 81 cells, found 3 characters"));
        assert!(err.contains("<stdin>:5: the puzzle has no solution"));
        assert!(
            err.contains("5 puzzles") && err.contains("easy 2,"),
            "{err}"
        );
    }

    #[test]
    fn a_puzzle_the_logic_cannot_finish_says_why_after_its_rating() {
        // The 17-clue BUG+1 puzzle of the logic tests, with too few steps to finish.
        let bug =
            "................12..3.45.................63.417.2.................81..7.3.4...6..";
        let args = GradeArgs {
            files: vec![],
            json: false,
            threads: NonZeroUsize::new(1),
            steps: 3,
        };
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let code = run(&args, bug.as_bytes(), &mut out, &mut err, false);
        assert_eq!(code, ExitCode::SUCCESS);
        let out = String::from_utf8(out).unwrap();
        assert!(out.ends_with(" out_of_steps\n"), "{out}");
    }

    #[test]
    fn threads_change_nothing_but_the_speed() {
        let mut input = String::new();
        for i in 0..3 * BLOCK_LINES * WINDOW_BLOCKS.get() / 64 + 3 {
            input.push_str(match i % 5 {
                0 => "x",
                1 => "................12..3.45.................63.417.2.................81..7.3.4...6..",
                _ => CLASSIC_PUZZLE,
            });
            input.push('\n');
        }
        let run = |threads| {
            let (code, out, err) = run_with_threads(&input, true, threads);
            // The diagnostics without the summary, whose last line has the timing.
            let lines: Vec<String> = err.lines().map(str::to_owned).collect();
            (code, out, lines[..lines.len() - 1].to_vec())
        };
        let one = run(1);
        assert_eq!(one.1.lines().count(), input.lines().count());
        assert_eq!(run(2), one);
        assert_eq!(run(3), one);
    }
}
