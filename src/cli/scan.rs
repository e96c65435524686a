//! `sudoku-service scan`: photos of puzzles read into boards, as `POST /scan` reads them.

use std::io::Write;
use std::num::NonZeroUsize;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde::Serialize;
use serde_json::{Value, json};
use sudoku::Solver;
use sudoku_scan::{Limits, Scanner};

use crate::config::DEFAULT_SCAN_MAX_PIXELS;
use crate::http::error::ApiError;
use crate::http::wire::{BoardFormat, ScanResponse, unique_solution};

// clap shows this doc as the subcommand's own `--help` summary (the options are built only
// when the subcommand runs, see `Command`), and the variant's doc in the top-level list.
/// Read puzzles from photos (JPEG, PNG or WebP): one 81-character line of givens per image.
#[derive(Debug, Clone, clap::Args)]
pub struct ScanArgs {
    /// The photos, read in this order; their lines come out in the same order.
    #[arg(value_name = "IMAGE", required = true)]
    pub images: Vec<PathBuf>,

    /// Print JSON Lines instead: `/scan`'s whole answer for each image, with its `image`
    /// path, or the `image` and an `error` (`code` and `detail`) when it cannot be read.
    #[arg(long)]
    pub json: bool,

    /// Add the givens' solution (`/solve`'s answer) to the JSON when it is unique.
    #[arg(long, requires = "json")]
    pub solve: bool,

    /// Most pixels an image may declare; larger ones are refused before decoding.
    #[arg(long, value_name = "PIXELS", default_value_t = DEFAULT_SCAN_MAX_PIXELS)]
    pub max_pixels: u64,

    /// Worker threads (default: all cores).
    #[arg(long, short = 't', value_name = "N")]
    pub threads: Option<NonZeroUsize>,
}

/// What one image gave.
type Reading = Result<ScanResponse, ApiError>;

/// A line of `--json`: the image's path, then `/scan`'s answer or the error.
#[derive(Serialize)]
struct JsonLine<'a> {
    image: String,
    #[serde(flatten)]
    answer: Option<&'a ScanResponse>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<Value>,
}

/// Scans every image (on every core, answers in input order) and prints one line each;
/// exits 1 when any image could not be read, after saying why on `stderr`.
pub fn run(args: &ScanArgs, mut stdout: impl Write, mut stderr: impl Write) -> ExitCode {
    let readings = read_all(args);
    let mut failed = 0;
    for (image, reading) in args.images.iter().zip(&readings) {
        let printed = match reading {
            Ok(answer) if args.json => {
                let line = JsonLine {
                    image: image.display().to_string(),
                    answer: Some(answer),
                    error: None,
                };
                write_json_line(&mut stdout, &line)
            }
            Ok(answer) => writeln!(stdout, "{}", answer.board.as_str().unwrap_or_default()),
            Err(error) => {
                failed += 1;
                let said = writeln!(stderr, "{}: {error}", image.display());
                if args.json {
                    let line = JsonLine {
                        image: image.display().to_string(),
                        answer: None,
                        error: Some(json!({ "code": error.code(), "detail": error.to_string() })),
                    };
                    said.and_then(|()| write_json_line(&mut stdout, &line))
                } else {
                    said
                }
            }
        };
        if printed.is_err() {
            // The reader went away (a closed pipe): nothing more can be said.
            return ExitCode::FAILURE;
        }
    }
    if failed > 0 {
        let _ = writeln!(
            stderr,
            "{failed} of {} images could not be read",
            args.images.len()
        );
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}

/// Writes the line as JSON; written directly, not through a `Value`, its confidences keep the
/// three decimals they were rounded to (as `f64` they would gain float noise).
fn write_json_line(out: &mut impl Write, line: &JsonLine) -> std::io::Result<()> {
    serde_json::to_writer(&mut *out, line)?;
    out.write_all(b"\n")
}

/// Every image's reading, in input order, shared out to the threads an image at a time.
fn read_all(args: &ScanArgs) -> Vec<Reading> {
    let threads = args
        .threads
        .or_else(|| std::thread::available_parallelism().ok())
        .map_or(1, NonZeroUsize::get)
        .min(args.images.len())
        .max(1);
    let scanner = Scanner::new();
    let limits = Limits {
        max_pixels: args.max_pixels,
    };
    let next = AtomicUsize::new(0);
    let mut readings: Vec<(usize, Reading)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let solver = Solver::default();
                    let mut done = Vec::new();
                    loop {
                        let index = next.fetch_add(1, Ordering::Relaxed);
                        let Some(image) = args.images.get(index) else {
                            return done;
                        };
                        done.push((index, read_one(image, &scanner, limits, &solver, args)));
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|worker| worker.join().unwrap_or_default())
            .collect()
    });
    readings.sort_by_key(|(index, _)| *index);
    readings.into_iter().map(|(_, reading)| reading).collect()
}

/// One image read from its file and scanned; the answer as `/scan` gives it.
fn read_one(
    image: &Path,
    scanner: &Scanner,
    limits: Limits,
    solver: &Solver,
    args: &ScanArgs,
) -> Reading {
    let bytes = std::fs::read(image)
        .map_err(|error| ApiError::InvalidImage(format!("cannot read the file: {error}")))?;
    let scan = scanner.scan(&bytes, &limits)?;
    let solution = args.solve.then(|| unique_solution(&scan, solver)).flatten();
    Ok(ScanResponse::new(
        &scan,
        BoardFormat::String,
        solution.as_ref(),
    ))
}
