//! `sudoku-service generate`: generate puzzles of a difficulty, one per line, streaming, in
//! order, on all cores, reproducibly from a seed.

use std::hash::{BuildHasher, RandomState};
use std::io::{self, Write};
use std::num::NonZeroUsize;
use std::process::ExitCode;
use std::time::Instant;

use super::grade::GradeJson;
use super::input;
use super::pipeline;
use super::progress::Progress;
use sudoku::generate::DEFAULT_MAX_ATTEMPTS;
use sudoku::{Difficulty, GenerateError, GenerateOptions, Generated, Symmetry, generate};

/// Puzzles generated ahead of the first one not yet written: each takes from a tenth of a
/// millisecond to a second, so a slow one does not leave the other threads waiting.
const WINDOW: NonZeroUsize = NonZeroUsize::new(64).unwrap();

// clap shows this doc as the subcommand's own `--help` summary (the options are built only
// when the subcommand runs, see `Command`), and the variant's doc in the top-level list.
/// Generate puzzles of a difficulty, one per line, reproducibly from a seed.
#[derive(Debug, Clone, clap::Args)]
pub struct GenerateArgs {
    /// How many puzzles to generate.
    #[arg(long, short = 'n', value_name = "N", default_value_t = 1)]
    pub count: u64,

    /// The difficulty: easy, medium, hard, expert or extreme; any when absent.
    #[arg(long, short = 'd', value_name = "DIFFICULTY")]
    pub difficulty: Option<Difficulty>,

    /// The seed: puzzle i (from 0) is generated from SEED + i (wrapping at 2^64), so a run
    /// is the same on every machine and thread count, and `--seed S+k` starts at its k-th
    /// puzzle. Random when absent (and printed in the summary).
    #[arg(long, value_name = "SEED")]
    pub seed: Option<u64>,

    /// The symmetry of the clues: none, rotational (half-turn), diagonal (main diagonal)
    /// or mirror (left-right).
    #[arg(long, value_name = "SYMMETRY", default_value_t = Symmetry::None)]
    pub symmetry: Symmetry,

    /// `true`: no clue (no symmetric pair of clues) can be removed without a second
    /// solution. `false`: a clue may stay when removing it would make the puzzle harder
    /// than the difficulty asked for.
    #[arg(long, value_name = "true|false", default_value_t = true, action = clap::ArgAction::Set)]
    pub minimal: bool,

    /// Print JSON Lines (`{"index", "puzzle", "solution", "seed", "attempts", "clues",
    /// "symmetry", "rating", "difficulty", "solved_by_logic", "stuck", "steps",
    /// "techniques"}`, or `{"index", "seed", "error"}`) instead of puzzle lines.
    #[arg(long)]
    pub json: bool,

    /// Worker threads (default: all cores).
    #[arg(long, short = 't', value_name = "N")]
    pub threads: Option<NonZeroUsize>,

    /// Attempts per puzzle (each from its own seed) before giving up on its difficulty.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_ATTEMPTS)]
    pub attempts: u32,
}

/// The seed of puzzle `index` of a run from `seed`.
pub fn seed_of(seed: u64, index: u64) -> u64 {
    seed.wrapping_add(index)
}

/// One puzzle of the run: its index, its seed, and what came of it.
type Made = (u64, u64, Result<Generated, GenerateError>);

#[derive(serde::Serialize)]
struct JsonPuzzle {
    index: u64,
    puzzle: String,
    solution: String,
    /// The seed of the attempt that made it: `--seed` with it, and the same options,
    /// makes it first.
    seed: u64,
    attempts: u32,
    clues: usize,
    symmetry: &'static str,
    #[serde(flatten)]
    grade: GradeJson,
}

#[derive(serde::Serialize)]
struct JsonFailure {
    index: u64,
    seed: u64,
    error: String,
}

fn write_one(out: &mut impl Write, json: bool, made: &Made) -> io::Result<()> {
    let (index, seed, result) = made;
    match (result, json) {
        (Ok(generated), false) => writeln!(out, "{}", generated.puzzle),
        (Ok(generated), true) => {
            let record = JsonPuzzle {
                index: *index,
                puzzle: generated.puzzle.to_line(),
                solution: generated.solution.to_line(),
                seed: generated.seed,
                attempts: generated.attempts,
                clues: generated.clues,
                symmetry: generated.symmetry.as_str(),
                grade: (&generated.grade).into(),
            };
            serde_json::to_writer(&mut *out, &record)?;
            out.write_all(b"\n")
        }
        // Nothing on the plain output, so that it stays a file of puzzles; the reason
        // goes to stderr.
        (Err(_), false) => Ok(()),
        (Err(err), true) => {
            let record = JsonFailure {
                index: *index,
                seed: *seed,
                error: err.to_string(),
            };
            serde_json::to_writer(&mut *out, &record)?;
            out.write_all(b"\n")
        }
    }
}

/// Runs the `generate` command, printing the puzzles to `stdout` and the diagnostics and
/// summary to `stderr`, with a progress bar on the process's stderr when `show_progress`.
/// Returns the process exit code: 0 when every puzzle came, 1 when the attempts ran out
/// for any, 2 when the output cannot be written.
pub fn run(
    args: &GenerateArgs,
    stdout: impl Write + Send,
    mut stderr: impl Write + Send,
    show_progress: bool,
) -> ExitCode {
    let threads = pipeline::threads(args.threads);
    // The standard library's hasher keys come from the operating system's randomness.
    let seed = args
        .seed
        .unwrap_or_else(|| RandomState::new().hash_one(std::process::id()));
    let options = GenerateOptions {
        difficulty: args.difficulty,
        symmetry: args.symmetry,
        minimal: args.minimal,
        seed,
        max_attempts: args.attempts,
    };
    let mut out = io::BufWriter::new(stdout);
    let started = Instant::now();
    let progress = Progress::new(show_progress, Some(args.count));
    let (mut made, mut missed, mut attempts) = (0u64, 0u64, 0u64);
    let mut next = 0;
    let ran = pipeline::ordered_parallel(
        threads,
        WINDOW,
        || {
            let index = next;
            next += 1;
            Ok((index < args.count).then_some(index))
        },
        |index, cancellation| {
            let options = GenerateOptions {
                seed: seed_of(seed, index),
                ..options
            };
            let result = generate(&options, &mut || !cancellation.is_cancelled());
            (index, options.seed, result)
        },
        |one: Made| {
            match &one.2 {
                Ok(generated) => {
                    made += 1;
                    attempts += u64::from(generated.attempts);
                }
                Err(err) => {
                    missed += 1;
                    attempts += u64::from(args.attempts.max(1));
                    let (index, seed) = (one.0, one.1);
                    progress.suspend(|| writeln!(stderr, "puzzle {index} (seed {seed}): {err}"))?;
                }
            }
            write_one(&mut out, args.json, &one)?;
            // Each line as it comes: puzzles are slow enough that a reader should not
            // wait for a buffer to fill.
            out.flush()?;
            progress.inc(1);
            Ok(())
        },
    );
    drop(progress);
    if let Err(err) = ran.and_then(|()| out.flush()) {
        return input::ended_by("generate", &err, &mut stderr);
    }
    let _ = writeln!(
        stderr,
        "{made} puzzles in {:.3} s ({threads} threads, seed {seed}): {attempts} attempts, \
         not found {missed}",
        started.elapsed().as_secs_f64(),
    );
    if missed > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sudoku::{Grid, Solver, Verdict};

    fn args(count: u64, threads: usize) -> GenerateArgs {
        GenerateArgs {
            count,
            difficulty: Some(Difficulty::Easy),
            seed: Some(7),
            symmetry: Symmetry::Rotational,
            minimal: true,
            json: false,
            threads: NonZeroUsize::new(threads),
            attempts: DEFAULT_MAX_ATTEMPTS,
        }
    }

    fn run_on(args: &GenerateArgs) -> (ExitCode, String, String) {
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let code = run(args, &mut out, &mut err, false);
        (
            code,
            String::from_utf8(out).unwrap(),
            String::from_utf8(err).unwrap(),
        )
    }

    #[test]
    fn puzzle_i_is_the_puzzle_of_seed_plus_i_whatever_the_threads() {
        let (code, out, err) = run_on(&args(12, 1));
        assert_eq!(code, ExitCode::SUCCESS, "{err}");
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 12);
        for (i, line) in lines.iter().enumerate() {
            let options = GenerateOptions {
                difficulty: Some(Difficulty::Easy),
                symmetry: Symmetry::Rotational,
                seed: 7 + i as u64,
                ..GenerateOptions::default()
            };
            let expected = generate(&options, &mut || true).unwrap();
            assert_eq!(*line, expected.puzzle.to_line(), "puzzle {i}");
            let grid = Grid::from_line(line).unwrap();
            assert!(matches!(
                Solver::default().analyze(&grid),
                Ok(Verdict::Unique(_))
            ));
        }
        assert_eq!(run_on(&args(12, 3)).1, out);
        // A later seed starts further along the same run.
        let later = GenerateArgs {
            seed: Some(10),
            ..args(4, 2)
        };
        assert_eq!(run_on(&later).1.lines().collect::<Vec<_>>(), lines[3..7]);
        assert!(
            err.contains("12 puzzles") && err.contains("seed 7"),
            "{err}"
        );
    }

    #[test]
    fn a_difficulty_not_found_in_time_is_reported_and_the_rest_still_come() {
        // One attempt each: an extreme puzzle is rare enough that some seeds miss it.
        let args = GenerateArgs {
            difficulty: Some(Difficulty::Extreme),
            attempts: 1,
            json: true,
            ..args(40, 2)
        };
        let (code, out, err) = run_on(&args);
        assert_eq!(code, ExitCode::from(1));
        let records: Vec<serde_json::Value> = out
            .lines()
            .map(|line| serde_json::from_str(line).unwrap())
            .collect();
        assert_eq!(records.len(), 40);
        let indexes: Vec<u64> = records
            .iter()
            .map(|r| r["index"].as_u64().unwrap())
            .collect();
        assert_eq!(indexes, (0..40).collect::<Vec<_>>());
        let missed: Vec<&serde_json::Value> = records
            .iter()
            .filter(|r| r.get("error").is_some())
            .collect();
        assert!(!missed.is_empty(), "{out}");
        for record in &missed {
            assert_eq!(
                record["error"],
                "no extreme puzzle within the budget of 1 attempt"
            );
            assert_eq!(record["seed"], 7 + record["index"].as_u64().unwrap());
            assert!(err.contains(&format!("puzzle {} (seed ", record["index"])));
        }
        for record in records.iter().filter(|r| r.get("puzzle").is_some()) {
            assert_eq!(record["difficulty"], "extreme");
            assert_eq!(record["attempts"], 1);
        }
    }
}
