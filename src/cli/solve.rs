//! `sudoku-service solve`: solve files of puzzles, one per line, streaming, in input order.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::num::NonZeroUsize;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::Instant;

use crate::sudoku::{CELLS, Grid, Solver, Verdict};

/// Puzzles read before they are solved and written together; large enough to amortise
/// starting the worker threads, small enough that memory stays flat on huge files.
const CHUNK_LINES: usize = 8192;

/// Lines a worker claims at a time: small, so that when hard puzzles cluster in one part
/// of a chunk every core stays busy to its end; large enough that claiming costs nothing.
const BLOCK_LINES: usize = 32;

/// Options of the `solve` subcommand.
#[derive(Debug, Clone, clap::Args)]
pub struct SolveArgs {
    /// Puzzle files, one puzzle per line (81 cells, `.` or `0` empty); stdin when none.
    /// Blank lines and lines starting with `#` are skipped.
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,

    /// Print JSON Lines (`{"line", "status", "solution", "error"}`) instead of plain lines.
    #[arg(long)]
    pub json: bool,

    /// Worker threads (default: all cores).
    #[arg(long, short = 't', value_name = "N")]
    pub threads: Option<NonZeroUsize>,

    /// Guesses allowed per puzzle before the search gives up (reported as `unknown`).
    #[arg(long, value_name = "GUESSES", default_value_t = crate::sudoku::DEFAULT_GUESS_BUDGET)]
    pub budget: u64,
}

/// What became of one input line.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Outcome {
    Unique(Grid),
    Multiple(Grid),
    None,
    Invalid(String),
    /// The search budget ran out: neither a solution nor a proof there is none.
    Unknown(String),
}

impl Outcome {
    fn status(&self) -> &'static str {
        match self {
            Outcome::Unique(_) => "unique",
            Outcome::Multiple(_) => "multiple",
            Outcome::None => "none",
            Outcome::Invalid(_) => "invalid",
            Outcome::Unknown(_) => "unknown",
        }
    }

    fn solution(&self) -> Option<&Grid> {
        match self {
            Outcome::Unique(grid) | Outcome::Multiple(grid) => Some(grid),
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

/// One puzzle line as read: parsed already when it is the common plain form, otherwise the
/// trimmed text, parsed (and its error reported) by [`Grid::from_line`] like any other.
#[derive(Debug, Clone)]
enum Line {
    Grid(Grid),
    Text(String),
}

/// The grid of a line of exactly 81 cell bytes (`.`, `0`-`9`) once ASCII whitespace is
/// trimmed; `None` for anything else, which then takes the general path. Skips the UTF-8
/// check, the `String` and the character-by-character parse for the usual line.
fn parse_plain(raw: &[u8]) -> Option<Grid> {
    let line = raw.trim_ascii();
    let bytes: &[u8; CELLS] = line.try_into().ok()?;
    let mut cells = [0u8; CELLS];
    for (cell, &byte) in cells.iter_mut().zip(bytes) {
        *cell = match byte {
            b'.' => 0,
            b'0'..=b'9' => byte - b'0',
            _ => return None,
        };
    }
    Grid::from_cells(cells).ok()
}

fn solve_line(solver: &Solver, line: &Line) -> Outcome {
    let grid = match line {
        Line::Grid(grid) => *grid,
        Line::Text(text) => match Grid::from_line(text) {
            Ok(grid) => grid,
            Err(err) => return Outcome::Invalid(err.to_string()),
        },
    };
    match solver.analyze(&grid) {
        Ok(Verdict::Unique(solution)) => Outcome::Unique(solution),
        Ok(Verdict::Multiple(solution)) => Outcome::Multiple(solution),
        Ok(Verdict::None) => Outcome::None,
        Err(exhausted) => Outcome::Unknown(exhausted.to_string()),
    }
}

/// Solves `lines` on `threads` scoped threads (on this one when `threads` is 1), keeping
/// input order. Each worker claims the next block of [`BLOCK_LINES`] lines until none is
/// left, rather than taking a fixed share: hard puzzles come in clusters, and a fixed split
/// left one core idle while the other finished the hard part (forum_hardest on 2 threads:
/// 1.83x one thread with fixed halves, 1.90-1.98x with blocks, medians of interleaved runs).
/// Once `abandon` is set, workers stop before their next puzzle and the outcomes left are
/// meaningless.
fn solve_chunk(
    solver: &Solver,
    lines: &[(u64, Line)],
    threads: usize,
    abandon: &AtomicBool,
) -> Vec<Outcome> {
    // Each block of lines comes with the block of slots its outcomes go to, so the answers
    // land in input order without sorting or copying.
    let mut outcomes: Vec<Outcome> = lines.iter().map(|_| Outcome::None).collect();
    let blocks = Mutex::new(
        lines
            .chunks(BLOCK_LINES)
            .zip(outcomes.chunks_mut(BLOCK_LINES)),
    );
    let work = || {
        loop {
            // The lock is held only to take the next block, never while solving.
            let next = blocks.lock().unwrap_or_else(PoisonError::into_inner).next();
            let Some((part, slots)) = next else {
                return;
            };
            for ((_, line), slot) in part.iter().zip(slots) {
                if abandon.load(Ordering::Relaxed) {
                    return;
                }
                *slot = solve_line(solver, line);
            }
        }
    };
    if threads <= 1 {
        work();
    } else {
        std::thread::scope(|scope| {
            for _ in 0..threads {
                scope.spawn(work);
            }
        });
    }
    outcomes
}

#[derive(Default)]
struct Tally {
    unique: u64,
    multiple: u64,
    none: u64,
    invalid: u64,
    unknown: u64,
}

impl Tally {
    fn add(&mut self, outcome: &Outcome) {
        let counter = match outcome {
            Outcome::Unique(_) => &mut self.unique,
            Outcome::Multiple(_) => &mut self.multiple,
            Outcome::None => &mut self.none,
            Outcome::Invalid(_) => &mut self.invalid,
            Outcome::Unknown(_) => &mut self.unknown,
        };
        *counter += 1;
    }

    fn total(&self) -> u64 {
        self.unique + self.multiple + self.none + self.invalid + self.unknown
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

struct Writer<'a> {
    out: io::BufWriter<Box<dyn Write + 'a>>,
    json: bool,
}

impl Writer<'_> {
    fn write(&mut self, line: u64, outcome: &Outcome) -> io::Result<()> {
        if self.json {
            let record = JsonLine {
                line,
                status: outcome.status(),
                solution: outcome.solution().map(Grid::to_line),
                error: outcome.error(),
            };
            serde_json::to_writer(&mut self.out, &record)?;
            self.out.write_all(b"\n")
        } else {
            match outcome {
                Outcome::Unique(grid) | Outcome::Multiple(grid) => {
                    // Digits only: a solution has no empty cell. Written as bytes, without
                    // going through the formatting machinery (the `Display` form).
                    let mut line = [b'\n'; CELLS + 1];
                    for (out, &value) in line.iter_mut().zip(grid.cells()) {
                        *out = if value == 0 { b'.' } else { b'0' + value };
                    }
                    self.out.write_all(&line)
                }
                other => {
                    self.out.write_all(other.status().as_bytes())?;
                    self.out.write_all(b"\n")
                }
            }
        }
    }
}

/// One named input: a file or stdin.
struct Input<'a> {
    name: String,
    reader: Box<dyn BufRead + 'a>,
}

/// Runs the `solve` command over `args.files` (or `stdin`), printing to `stdout` and the
/// diagnostics and summary to `stderr`. Returns the process exit code: 0 when every line
/// parsed and was decided, 1 when any was invalid or undecided, 2 when a file cannot be read.
pub fn run(
    args: &SolveArgs,
    stdin: impl Read,
    stdout: impl Write,
    mut stderr: impl Write,
) -> ExitCode {
    let solver = Solver::with_budget(args.budget);
    let threads = args
        .threads
        .or_else(|| std::thread::available_parallelism().ok())
        .map_or(1, NonZeroUsize::get);
    let mut inputs: Vec<Input> = Vec::new();
    if args.files.is_empty() {
        inputs.push(Input {
            name: "<stdin>".into(),
            reader: Box::new(BufReader::new(stdin)),
        });
    }
    for path in &args.files {
        match File::open(path) {
            Ok(file) => inputs.push(Input {
                name: path.display().to_string(),
                reader: Box::new(BufReader::with_capacity(1 << 16, file)),
            }),
            Err(err) => {
                let _ = writeln!(stderr, "sudoku-service solve: {}: {err}", path.display());
                return ExitCode::from(2);
            }
        }
    }
    let mut writer = Writer {
        out: io::BufWriter::with_capacity(1 << 16, Box::new(stdout)),
        json: args.json,
    };
    let started = Instant::now();
    let mut tally = Tally::default();
    for input in inputs {
        if let Err(err) = solve_input(
            input,
            &solver,
            threads,
            &mut writer,
            &mut tally,
            &mut stderr,
        ) {
            if err.kind() == io::ErrorKind::BrokenPipe {
                // The reader went away (`| head`): stop quietly, as Unix tools do.
                return ExitCode::SUCCESS;
            }
            let _ = writeln!(stderr, "sudoku-service solve: {err}");
            return ExitCode::from(2);
        }
    }
    if let Err(err) = writer.out.flush() {
        if err.kind() == io::ErrorKind::BrokenPipe {
            return ExitCode::SUCCESS;
        }
        let _ = writeln!(stderr, "sudoku-service solve: {err}");
        return ExitCode::from(2);
    }
    let seconds = started.elapsed().as_secs_f64();
    let total = tally.total();
    let _ = writeln!(
        stderr,
        "{total} puzzles in {seconds:.3} s ({:.0} puzzles/s, {threads} threads): \
         unique {}, multiple {}, none {}, invalid {}, unknown {}",
        total as f64 / seconds.max(1e-9),
        tally.unique,
        tally.multiple,
        tally.none,
        tally.invalid,
        tally.unknown,
    );
    if tally.invalid > 0 || tally.unknown > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// Reads, solves and writes `input` one chunk at a time. With more than one thread, this
/// thread only reads and writes: while chunk `k` is being solved it writes the results of
/// chunk `k - 1` and reads chunk `k + 1`, so reading and writing never leave the solving
/// cores waiting. With one thread everything stays on this one: there is no second core
/// for the reading and writing to overlap with, only thread hand-overs to pay for.
fn solve_input(
    mut input: Input<'_>,
    solver: &Solver,
    threads: usize,
    writer: &mut Writer<'_>,
    tally: &mut Tally,
    stderr: &mut impl Write,
) -> io::Result<()> {
    let mut reader = ChunkReader::default();
    let mut report = |chunk: &Chunk, outcomes: &[Outcome]| -> io::Result<()> {
        for ((number, _), outcome) in chunk.iter().zip(outcomes) {
            if let Some(reason) = outcome.error() {
                writeln!(stderr, "{}:{number}: {reason}", input.name)?;
            }
            tally.add(outcome);
            writer.write(*number, outcome)?;
        }
        Ok(())
    };
    if threads <= 1 {
        loop {
            let chunk = reader.read(&mut input.reader)?;
            if chunk.is_empty() {
                return Ok(());
            }
            report(
                &chunk,
                &solve_chunk(solver, &chunk, 1, &AtomicBool::new(false)),
            )?;
        }
    }
    let solver = *solver;
    // Set when reading or writing fails (`| head` closing the pipe), so that the chunk in
    // flight is dropped at once rather than solved to the end for nobody.
    let abandon = &AtomicBool::new(false);
    std::thread::scope(|scope| {
        let mut pipeline = || -> io::Result<()> {
            let mut next = reader.read(&mut input.reader)?;
            let mut solved: Option<(Chunk, Vec<Outcome>)> = None;
            loop {
                let solving = (!next.is_empty()).then(|| {
                    let chunk = std::mem::take(&mut next);
                    scope.spawn(move || {
                        let outcomes = solve_chunk(&solver, &chunk, threads, abandon);
                        (chunk, outcomes)
                    })
                });
                if let Some((chunk, outcomes)) = solved.take() {
                    report(&chunk, &outcomes)?;
                }
                let Some(solving) = solving else {
                    return Ok(());
                };
                next = reader.read(&mut input.reader)?;
                solved = Some(
                    solving
                        .join()
                        .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
                );
            }
        };
        let result = pipeline();
        if result.is_err() {
            abandon.store(true, Ordering::Relaxed);
        }
        result
    })
}

/// Puzzle lines with their line numbers (from 1).
type Chunk = Vec<(u64, Line)>;

/// Splits an input into chunks of up to [`CHUNK_LINES`] puzzle lines, numbered from 1.
#[derive(Default)]
struct ChunkReader {
    raw: Vec<u8>,
    line_number: u64,
}

impl ChunkReader {
    /// The next chunk; empty at the end of the input.
    fn read(&mut self, input: &mut dyn BufRead) -> io::Result<Chunk> {
        let mut chunk = Vec::with_capacity(CHUNK_LINES);
        while chunk.len() < CHUNK_LINES {
            self.raw.clear();
            if input.read_until(b'\n', &mut self.raw)? == 0 {
                break;
            }
            self.line_number += 1;
            if let Some(grid) = parse_plain(&self.raw) {
                chunk.push((self.line_number, Line::Grid(grid)));
            } else {
                let text = String::from_utf8_lossy(&self.raw);
                let trimmed = text.trim();
                if !trimmed.is_empty() && !trimmed.starts_with('#') {
                    chunk.push((self.line_number, Line::Text(trimmed.to_owned())));
                }
            }
        }
        Ok(chunk)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run_on(input: &str, json: bool) -> (u8, String, String) {
        run_with_threads(input, json, 1)
    }

    fn run_with_threads(input: &str, json: bool, threads: usize) -> (u8, String, String) {
        let args = SolveArgs {
            files: vec![],
            json,
            threads: NonZeroUsize::new(threads),
            budget: crate::sudoku::DEFAULT_GUESS_BUDGET,
        };
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let code = run(&args, input.as_bytes(), &mut out, &mut err);
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

    const PUZZLE: &str =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
    const SOLUTION: &str =
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

    #[test]
    fn threads_change_nothing_but_the_speed() {
        // Solvable, unsolvable, malformed and comment lines mixed, over two chunks and a
        // tail that is not a whole block, so blocks and chunks end in every kind of place.
        let clash = format!("55{}", &PUZZLE[2..]);
        let mut input = String::new();
        for i in 0..CHUNK_LINES + 3 * BLOCK_LINES + 5 {
            let line = match i % 7 {
                0 => "12x",
                3 => "# comment",
                5 => &clash,
                _ => PUZZLE,
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
        let first_bad_in_second_chunk = CHUNK_LINES.next_multiple_of(7) + 1;
        let expected = format!("<stdin>:{first_bad_in_second_chunk}: expected 81 cells, found 3");
        assert!(one.2.contains(&expected), "{:?}", &one.2[..3]);
        for threads in [2, 3, 8] {
            assert_eq!(run(threads), one, "{threads} threads");
        }
    }

    #[test]
    fn comments_and_blank_lines_are_skipped_but_counted() {
        let (code, out, _) = run_on(&format!("# header\n\n{PUZZLE}\n"), true);
        assert_eq!(code, 0);
        assert_eq!(
            out,
            format!("{{\"line\":3,\"status\":\"unique\",\"solution\":\"{SOLUTION}\"}}\n")
        );
    }

    #[test]
    fn an_invalid_line_is_reported_and_the_rest_still_solved() {
        let (code, out, err) = run_on(&format!("12x\n{PUZZLE}"), false);
        assert_eq!(code, 1);
        assert_eq!(out, format!("invalid\n{SOLUTION}\n"));
        assert!(
            err.contains("<stdin>:1: expected 81 cells, found 3"),
            "{err}"
        );
    }

    #[test]
    fn the_plain_fast_path_parses_as_the_general_one() {
        let lines = [
            format!("{PUZZLE}\n"),
            format!("  {PUZZLE}\r\n"),
            PUZZLE.replace('.', "0"),
            format!("\u{b}{PUZZLE}"),
            format!("{PUZZLE}\u{a0}"),
            format!("{PUZZLE}1"),
            PUZZLE[1..].to_string(),
            PUZZLE.replace('5', "x"),
            "# comment".to_string(),
            String::new(),
        ];
        for line in &lines {
            let general = Grid::from_line(String::from_utf8_lossy(line.as_bytes()).trim());
            match parse_plain(line.as_bytes()) {
                Some(grid) => assert_eq!(general, Ok(grid), "{line:?}"),
                // Only the general path may accept or reject anything else.
                None => assert!(
                    line.trim_ascii().len() != CELLS || general.is_err(),
                    "{line:?}"
                ),
            }
        }
    }

    #[test]
    fn the_summary_counts_every_status() {
        let (_, _, err) = run_on(&format!("{PUZZLE}\n{}\nbad\n", ".".repeat(81)), false);
        assert!(
            err.contains("3 puzzles") && err.contains("unique 1, multiple 1, none 0, invalid 1"),
            "{err}"
        );
    }
}
