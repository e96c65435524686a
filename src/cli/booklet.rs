//! `sudoku-service booklet`: a PDF booklet of generated puzzles written to a file, the
//! same bytes as `GET /booklet` answers for the same options and seed.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use sudoku::{Difficulty, GenerateOptions, generate};
use sudoku_print::{Booklet, BookletPuzzle, Paper, Solutions, booklet};

use crate::http::generator::draw_seed;

/// Write a PDF booklet of generated puzzles, reproducibly from a seed.
#[derive(Debug, Clone, clap::Args)]
pub struct BookletArgs {
    /// The PDF file to write.
    #[arg(long, short = 'o', value_name = "FILE")]
    pub output: PathBuf,

    /// How many puzzles, 1 to 200.
    #[arg(long, short = 'n', value_name = "N", default_value_t = 10,
          value_parser = clap::value_parser!(u16).range(1..=200))]
    pub count: u16,

    /// The difficulty: easy, medium, hard, expert or extreme; any when absent.
    #[arg(long, short = 'd', value_name = "DIFFICULTY")]
    pub difficulty: Option<Difficulty>,

    /// The seed: puzzle i (from 0) is generated from SEED + i, as `generate` and
    /// `GET /booklet` do. Random when absent (and printed).
    #[arg(long, value_name = "SEED")]
    pub seed: Option<u64>,

    /// Puzzles on a page.
    #[arg(long, value_name = "N", default_value = "4", value_parser = ["1", "2", "4", "6"])]
    pub per_page: String,

    /// The paper.
    #[arg(long, value_name = "PAPER", default_value = "a4", value_parser = ["a4", "letter"])]
    pub paper: String,

    /// Bigger digits, captions and page numbers, heavier lines.
    #[arg(long)]
    pub large_print: bool,

    /// Where the solutions go: on the last pages, or nowhere.
    #[arg(long, value_name = "WHERE", default_value = "back", value_parser = ["back", "none"])]
    pub solutions: String,

    /// The heading of the puzzle pages.
    #[arg(long, value_name = "TEXT", default_value = "Sudoku")]
    pub title: String,
}

impl BookletArgs {
    fn layout(&self) -> Booklet {
        Booklet {
            per_page: self.per_page.parse().unwrap_or(4),
            paper: if self.paper == "letter" {
                Paper::Letter
            } else {
                Paper::A4
            },
            large_print: self.large_print,
            solutions: if self.solutions == "none" {
                Solutions::None
            } else {
                Solutions::Back
            },
            title: self.title.trim().to_owned(),
        }
    }
}

/// Generates the puzzles on every core, draws the booklet and writes it; a line on
/// `stderr` says what was written.
pub fn run(args: &BookletArgs, mut stderr: impl Write) -> ExitCode {
    let started = Instant::now();
    let seed = args.seed.unwrap_or_else(draw_seed);
    let seeds: Vec<u64> = (0..u64::from(args.count))
        .map(|index| seed.wrapping_add(index))
        .collect();
    let threads = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
    let chunk = seeds.len().div_ceil(threads).max(1);
    let difficulty = args.difficulty;
    let made: Result<Vec<Vec<BookletPuzzle>>, _> = std::thread::scope(|scope| {
        let workers: Vec<_> = seeds
            .chunks(chunk)
            .map(|part| {
                scope.spawn(move || {
                    part.iter()
                        .map(|&seed| {
                            let options = GenerateOptions {
                                difficulty,
                                seed,
                                ..GenerateOptions::default()
                            };
                            generate(&options, &mut || true)
                                .map(|made| BookletPuzzle::of_generated(&made))
                        })
                        .collect::<Result<Vec<_>, _>>()
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|worker| {
                worker
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            })
            .collect()
    });
    let puzzles: Vec<BookletPuzzle> = match made {
        Ok(parts) => parts.into_iter().flatten().collect(),
        Err(error) => {
            let _ = writeln!(stderr, "booklet: {error}; try another seed or difficulty");
            return ExitCode::FAILURE;
        }
    };
    let pdf = match booklet(&puzzles, &args.layout()) {
        Ok(pdf) => pdf,
        Err(error) => {
            let _ = writeln!(stderr, "booklet: {error}");
            return ExitCode::FAILURE;
        }
    };
    if let Err(error) = std::fs::write(&args.output, &pdf) {
        let _ = writeln!(
            stderr,
            "booklet: cannot write {}: {error}",
            args.output.display()
        );
        return ExitCode::FAILURE;
    }
    let _ = writeln!(
        stderr,
        "booklet: {} puzzles (seed {seed}), {} bytes to {} in {:.2} s",
        args.count,
        pdf.len(),
        args.output.display(),
        started.elapsed().as_secs_f64()
    );
    ExitCode::SUCCESS
}
