//! What `solve` and `grade` share: each answers every puzzle line of its files (or stdin),
//! streaming, in input order, on all cores, then prints a summary. A command supplies only
//! what differs, through [`LineCommand`]: how one line is answered, written and counted.

use std::fmt;
use std::io::{self, Read, Write};
use std::num::NonZeroUsize;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use super::input::{self, Block, BlockReader, Input};
use super::pipeline::{self, Cancellation};
use super::progress::Progress;
use sudoku::{Grid, ParseError};

/// Blocks read ahead of the first one not yet written: enough that a slow puzzle does not
/// leave the other threads waiting, few enough that memory stays flat.
pub(super) const WINDOW_BLOCKS: NonZeroUsize = NonZeroUsize::new(256).unwrap();

/// A command that answers each puzzle line on its own.
pub(super) trait LineCommand: Sync {
    /// The subcommand, as its error messages name it.
    const NAME: &'static str;
    /// Lines handed to a worker at a time.
    const BLOCK_LINES: usize;

    /// What became of one input line.
    type Outcome: Send;
    /// The counts of outcomes, for the summary and the exit code.
    type Tally: Tally<Self::Outcome>;

    /// The outcome of a puzzle line: its grid, or why it is not one.
    fn answer(&self, puzzle: Result<Grid, ParseError>) -> Self::Outcome;

    /// The outcome of a puzzle line with its text, which is given (trimmed) when the line
    /// is no classic board: a command that reads boards of other sides reads it there.
    fn answer_line(&self, puzzle: Result<Grid, ParseError>, _text: &str) -> Self::Outcome {
        self.answer(puzzle)
    }

    /// What to report on stderr about `outcome`, if anything.
    fn diagnostic(outcome: &Self::Outcome) -> Option<&str>;

    /// Writes the answer to input line `line` to `out`: a JSON Line when `json`.
    fn write(
        out: &mut impl Write,
        json: bool,
        line: u64,
        outcome: &Self::Outcome,
    ) -> io::Result<()>;
}

/// The counts of a run's outcomes. Its `Display` form ends the summary line.
pub(super) trait Tally<Outcome>: Default + fmt::Display + Send {
    /// Counts one more outcome.
    fn add(&mut self, outcome: &Outcome);
    /// The puzzle lines counted.
    fn total(&self) -> u64;
    /// Whether the run exits 1.
    fn failed(&self) -> bool;
}

/// The options every line command has.
pub(super) struct Options<'a> {
    /// The files to read; stdin when none.
    pub(super) files: &'a [PathBuf],
    /// Whether to write JSON Lines.
    pub(super) json: bool,
    /// Worker threads; all cores when `None`.
    pub(super) threads: Option<NonZeroUsize>,
}

/// Runs `command` over `options.files` (or `stdin`), printing to `stdout` and the
/// diagnostics and summary to `stderr`, with a progress bar on the process's stderr when
/// `show_progress`. Returns the process exit code: 1 when the tally says the run failed, 2
/// when a file cannot be read or the output cannot be written, else 0.
pub(super) fn run<C: LineCommand>(
    command: &C,
    options: &Options<'_>,
    stdin: impl Read + Send,
    stdout: impl Write + Send,
    mut stderr: impl Write + Send,
    show_progress: bool,
) -> ExitCode {
    let threads = pipeline::threads(options.threads);
    let inputs = match input::open(C::NAME, options.files, stdin, &mut stderr) {
        Ok(inputs) => inputs,
        Err(code) => return code,
    };
    let mut sink = Sink::<C> {
        out: io::BufWriter::with_capacity(1 << 16, Box::new(stdout)),
        json: options.json,
        tally: C::Tally::default(),
    };
    let started = Instant::now();
    let progress = Progress::new(show_progress, None);
    for input in inputs {
        if let Err(err) = answer_input(command, input, threads, &mut sink, &mut stderr, &progress) {
            drop(progress);
            return input::ended_by(C::NAME, &err, &mut stderr);
        }
    }
    if let Err(err) = sink.out.flush() {
        drop(progress);
        return input::ended_by(C::NAME, &err, &mut stderr);
    }
    drop(progress);
    let seconds = started.elapsed().as_secs_f64();
    let total = sink.tally.total();
    let _ = writeln!(
        stderr,
        "{total} puzzles in {seconds:.3} s ({:.0} puzzles/s, {threads} threads): {}",
        total as f64 / seconds.max(1e-9),
        sink.tally,
    );
    if sink.tally.failed() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// Where the answers go, and their counts.
struct Sink<'a, C: LineCommand> {
    out: io::BufWriter<Box<dyn Write + Send + 'a>>,
    json: bool,
    tally: C::Tally,
}

/// Answers the lines of `block` in order, each outcome with its line number; blank lines
/// and `#` comments are counted in the numbering but have no outcome. Once the run is
/// cancelled it stops before the next puzzle, and what it returns is meaningless.
pub(super) fn answer_block<C: LineCommand>(
    command: &C,
    block: &Block,
    cancellation: Cancellation<'_>,
) -> Vec<(u64, C::Outcome)> {
    let mut outcomes = Vec::with_capacity(C::BLOCK_LINES);
    for (number, parsed, text) in block.puzzle_lines() {
        if cancellation.is_cancelled() {
            break;
        }
        outcomes.push((number, command.answer_line(parsed, &text)));
    }
    outcomes
}

/// Reads, answers and writes `input` one block of lines at a time on `threads` threads,
/// the answers in input order, and tallies them.
fn answer_input<C: LineCommand>(
    command: &C,
    input: Input<'_>,
    threads: NonZeroUsize,
    sink: &mut Sink<'_, C>,
    stderr: &mut (impl Write + Send),
    progress: &Progress,
) -> io::Result<()> {
    let Input { name, mut reader } = input;
    let mut blocks = BlockReader::new(C::BLOCK_LINES);
    pipeline::ordered_parallel(
        threads,
        WINDOW_BLOCKS,
        || blocks.read(&mut reader),
        |block, cancellation| answer_block(command, &block, cancellation),
        |outcomes| {
            for (number, outcome) in &outcomes {
                if let Some(reason) = C::diagnostic(outcome) {
                    progress.suspend(|| writeln!(stderr, "{name}:{number}: {reason}"))?;
                }
                sink.tally.add(outcome);
                C::write(&mut sink.out, sink.json, *number, outcome)?;
            }
            progress.inc(outcomes.len() as u64);
            Ok(())
        },
    )
}

/// What a run wrote, for unit tests: the exit code as a number (0, 1 or 2), stdout and
/// stderr.
#[cfg(test)]
pub(super) fn captured(
    run: impl FnOnce(&mut Vec<u8>, &mut Vec<u8>) -> ExitCode,
) -> (u8, String, String) {
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = run(&mut out, &mut err);
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
