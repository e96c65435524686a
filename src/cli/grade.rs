//! `sudoku-service grade`: grade files of puzzles, one per line, streaming, in input order.

use std::io::{self, Read, Write};
use std::num::NonZeroUsize;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use super::input::{self, Block, BlockReader, Input};
use super::pipeline::{self, Cancellation};
use super::progress::Progress;
use sudoku::grade::{DEFAULT_STEP_BUDGET, GradeOptions, grade};
use sudoku::{Difficulty, Grade, GradeError, Solver};

/// Lines handed to a worker at a time: grading takes from a tenth of a millisecond to tens
/// of them, a hundred times solving, so blocks are small to keep every core busy to the end.
const BLOCK_LINES: usize = 4;

/// Blocks read ahead of the first one not yet written (1,024 lines), as for `solve`: a slow
/// puzzle does not leave the other threads waiting, and memory stays flat.
const WINDOW_BLOCKS: NonZeroUsize = NonZeroUsize::new(256).unwrap();

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
enum Outcome {
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

/// Grades the puzzles of `block` in order, each outcome with its line number. Once the run
/// is cancelled it stops before the next puzzle, and what it returns is meaningless.
fn grade_block(
    solver: &Solver,
    steps: usize,
    block: &Block,
    cancellation: Cancellation<'_>,
) -> Vec<(u64, Outcome)> {
    let mut outcomes = Vec::with_capacity(BLOCK_LINES);
    for (number, parsed) in block.puzzles() {
        if cancellation.is_cancelled() {
            break;
        }
        let outcome = match parsed.map(|grid| {
            grade(
                &grid,
                &GradeOptions {
                    solver: *solver,
                    step_budget: steps,
                },
            )
        }) {
            Ok(Ok(grade)) => Outcome::Graded(grade),
            Ok(Err(GradeError::NoSolution)) => Outcome::None,
            Ok(Err(GradeError::MultipleSolutions)) => Outcome::Multiple,
            Ok(Err(GradeError::SearchLimit(exhausted))) => Outcome::Unknown(exhausted.to_string()),
            Err(err) => Outcome::Invalid(err.to_string()),
        };
        outcomes.push((number, outcome));
    }
    outcomes
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

struct Writer<'a> {
    out: io::BufWriter<Box<dyn Write + Send + 'a>>,
    json: bool,
}

impl Writer<'_> {
    fn write(&mut self, line: u64, outcome: &Outcome) -> io::Result<()> {
        if self.json {
            let record = JsonLine {
                line,
                status: outcome.status(),
                grade: match outcome {
                    Outcome::Graded(grade) => Some(grade.into()),
                    _ => None,
                },
                error: outcome.error(),
            };
            serde_json::to_writer(&mut self.out, &record)?;
            return self.out.write_all(b"\n");
        }
        match outcome {
            Outcome::Graded(grade) => {
                write!(self.out, "{} {}", grade.rating, grade.difficulty)?;
                if let Some(why) = unfinished(grade) {
                    write!(self.out, " {why}")?;
                }
                self.out.write_all(b"\n")
            }
            other => writeln!(self.out, "{}", other.status()),
        }
    }
}

#[derive(Default)]
struct Tally {
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

    fn ungraded(&self) -> u64 {
        self.none + self.multiple + self.invalid + self.unknown
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
    mut stderr: impl Write + Send,
    show_progress: bool,
) -> ExitCode {
    let solver = Solver::default();
    let threads = args
        .threads
        .or_else(|| std::thread::available_parallelism().ok())
        .unwrap_or(NonZeroUsize::MIN);
    let inputs = match input::open("grade", &args.files, stdin, &mut stderr) {
        Ok(inputs) => inputs,
        Err(code) => return code,
    };
    let mut writer = Writer {
        out: io::BufWriter::with_capacity(1 << 16, Box::new(stdout)),
        json: args.json,
    };
    let started = Instant::now();
    let mut tally = Tally::default();
    let progress = Progress::new(show_progress, None);
    for input in inputs {
        let graded = grade_input(
            input,
            (&solver, args.steps),
            threads,
            &mut writer,
            &mut tally,
            (&mut stderr, &progress),
        );
        if let Err(err) = graded {
            drop(progress);
            return input::ended_by("grade", &err, &mut stderr);
        }
    }
    if let Err(err) = writer.out.flush() {
        drop(progress);
        return input::ended_by("grade", &err, &mut stderr);
    }
    drop(progress);
    let seconds = started.elapsed().as_secs_f64();
    let total = tally.total();
    let bands: Vec<String> = Difficulty::ALL
        .iter()
        .zip(tally.graded)
        .map(|(difficulty, count)| format!("{difficulty} {count}"))
        .collect();
    let _ = writeln!(
        stderr,
        "{total} puzzles in {seconds:.3} s ({:.0} puzzles/s, {threads} threads): {} \
         (logic unfinished {}); none {}, multiple {}, invalid {}, unknown {}",
        total as f64 / seconds.max(1e-9),
        bands.join(", "),
        tally.unfinished,
        tally.none,
        tally.multiple,
        tally.invalid,
        tally.unknown,
    );
    if tally.ungraded() > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// Reads, grades and writes `input` one block of lines at a time on `threads` threads, the
/// answers in input order, and tallies them.
fn grade_input(
    input: Input<'_>,
    (solver, steps): (&Solver, usize),
    threads: NonZeroUsize,
    writer: &mut Writer<'_>,
    tally: &mut Tally,
    (stderr, progress): (&mut (impl Write + Send), &Progress),
) -> io::Result<()> {
    let Input { name, mut reader } = input;
    let mut blocks = BlockReader::new(BLOCK_LINES);
    pipeline::ordered_parallel(
        threads,
        WINDOW_BLOCKS,
        || blocks.read(&mut reader),
        |block, cancellation| grade_block(solver, steps, &block, cancellation),
        |outcomes| {
            for (number, outcome) in &outcomes {
                let diagnostic = match outcome {
                    Outcome::None => Some("the puzzle has no solution"),
                    Outcome::Multiple => Some("the puzzle has more than one solution"),
                    other => other.error(),
                };
                if let Some(reason) = diagnostic {
                    progress.suspend(|| writeln!(stderr, "{name}:{number}: {reason}"))?;
                }
                tally.add(outcome);
                writer.write(*number, outcome)?;
            }
            progress.inc(outcomes.len() as u64);
            Ok(())
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use sudoku::{CLASSIC_PUZZLE, CLASSIC_SOLUTION};

    fn run_with_threads(input: &str, json: bool, threads: usize) -> (u8, String, String) {
        let args = GradeArgs {
            files: vec![],
            json,
            threads: NonZeroUsize::new(threads),
            steps: DEFAULT_STEP_BUDGET,
        };
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let code = run(&args, input.as_bytes(), &mut out, &mut err, false);
        let code = if code == ExitCode::SUCCESS {
            0
        } else if code == ExitCode::from(1) {
            1
        } else {
            2
        };
        (
            code,
            String::from_utf8(out).unwrap(),
            String::from_utf8(err).unwrap(),
        )
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
        assert!(err.contains("<stdin>:4: expected 81 cells, found 3"));
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
