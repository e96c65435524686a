//! What the commands that read puzzle files share: opening the files (or stdin), cutting
//! them into blocks of lines for [`super::pipeline::ordered_parallel`], and parsing a line.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use sudoku::{CELLS, Grid, ParseError, is_blank_or_comment};

/// One named input: a file or stdin.
pub(super) struct Input<'a> {
    /// How diagnostics name it: the path, or `<stdin>`.
    pub(super) name: String,
    pub(super) reader: Box<dyn BufRead + Send + 'a>,
}

/// The inputs of a command: each of `files`, or `stdin` when there is none. A file that
/// cannot be opened is reported on `stderr` as `sudoku-service COMMAND: PATH: reason`, and
/// the exit code for it (2) is the error.
pub(super) fn open<'a>(
    command: &str,
    files: &[PathBuf],
    stdin: impl Read + Send + 'a,
    stderr: &mut impl Write,
) -> Result<Vec<Input<'a>>, ExitCode> {
    if files.is_empty() {
        return Ok(vec![Input {
            name: "<stdin>".into(),
            reader: Box::new(BufReader::new(stdin)),
        }]);
    }
    files
        .iter()
        .map(|path| match File::open(path) {
            Ok(file) => Ok(Input {
                name: path.display().to_string(),
                reader: Box::new(BufReader::with_capacity(1 << 16, file)),
            }),
            Err(err) => {
                let _ = writeln!(
                    stderr,
                    "sudoku-service {command}: {}: {err}",
                    path.display()
                );
                Err(ExitCode::from(2))
            }
        })
        .collect()
}

/// The exit code for a run that ended with `err` reading or writing: quietly 0 when the
/// reader of the output went away (`| head`), as Unix tools do; else 2, with the error on
/// `stderr`.
pub(super) fn ended_by(command: &str, err: &io::Error, stderr: &mut impl Write) -> ExitCode {
    if err.kind() == io::ErrorKind::BrokenPipe {
        return ExitCode::SUCCESS;
    }
    let _ = writeln!(stderr, "sudoku-service {command}: {err}");
    ExitCode::from(2)
}

/// Raw input lines, numbered from 1: `text` holds them one after another, `lines` the
/// number of each and where it ends in `text`.
pub(super) struct Block {
    text: Vec<u8>,
    lines: Vec<(u64, usize)>,
}

impl Block {
    /// The puzzle lines of the block, each with its number and its grid or why it is not
    /// one; blank lines and `#` comments are skipped (but counted in the numbering).
    #[cfg(test)]
    pub(super) fn puzzles(&self) -> impl Iterator<Item = (u64, Result<Grid, ParseError>)> + '_ {
        self.puzzle_lines()
            .map(|(number, parsed, _)| (number, parsed))
    }

    /// As [`Block::puzzles`], with the text of each line that is no classic board (a
    /// board of another side, say), trimmed; empty for a classic one.
    pub(super) fn puzzle_lines(
        &self,
    ) -> impl Iterator<Item = (u64, Result<Grid, ParseError>, String)> + '_ {
        let mut start = 0;
        self.lines.iter().filter_map(move |&(number, end)| {
            let raw = &self.text[start..end];
            start = end;
            // The common plain form is parsed straight from the bytes; anything else goes
            // through `Grid::from_line` like any other text, and its error is reported.
            if let Some(grid) = parse_plain(raw) {
                return Some((number, Ok(grid), String::new()));
            }
            let text = String::from_utf8_lossy(raw);
            let trimmed = text.trim();
            (!is_blank_or_comment(trimmed)).then(|| {
                let parsed = Grid::from_line(trimmed);
                let kept = if parsed.is_err() {
                    trimmed.to_owned()
                } else {
                    String::new()
                };
                (number, parsed, kept)
            })
        })
    }

    /// The number of lines in the block, blank and comment lines included.
    #[cfg(test)]
    pub(super) fn len(&self) -> usize {
        self.lines.len()
    }
}

/// Splits an input into blocks of up to `lines` lines.
pub(super) struct BlockReader {
    lines: usize,
    line_number: u64,
}

impl BlockReader {
    /// A reader of blocks of up to `lines` lines, numbering them from 1.
    pub(super) fn new(lines: usize) -> BlockReader {
        BlockReader {
            lines,
            line_number: 0,
        }
    }

    /// The next block; `None` at the end of the input.
    pub(super) fn read(&mut self, input: &mut dyn BufRead) -> io::Result<Option<Block>> {
        let mut block = Block {
            text: Vec::with_capacity(self.lines * (CELLS + 1)),
            lines: Vec::with_capacity(self.lines),
        };
        while block.lines.len() < self.lines {
            if input.read_until(b'\n', &mut block.text)? == 0 {
                break;
            }
            self.line_number += 1;
            block.lines.push((self.line_number, block.text.len()));
        }
        Ok((!block.lines.is_empty()).then_some(block))
    }
}

/// The grid of a line of exactly 81 cell bytes once ASCII whitespace is trimmed; `None`
/// for anything else, which then takes the general path.
fn parse_plain(raw: &[u8]) -> Option<Grid> {
    Grid::from_plain(raw.trim_ascii())
}

#[cfg(test)]
mod tests {
    use super::*;
    use sudoku::CLASSIC_PUZZLE;

    #[test]
    fn the_plain_fast_path_parses_as_the_general_one() {
        let lines = [
            format!("{CLASSIC_PUZZLE}\n"),
            format!("  {CLASSIC_PUZZLE}\r\n"),
            CLASSIC_PUZZLE.replace('.', "0"),
            format!("\u{b}{CLASSIC_PUZZLE}"),
            format!("{CLASSIC_PUZZLE}\u{a0}"),
            format!("{CLASSIC_PUZZLE}1"),
            CLASSIC_PUZZLE[1..].to_string(),
            CLASSIC_PUZZLE.replace('5', "x"),
            // Just outside the digits, either side.
            CLASSIC_PUZZLE.replace('5', "/"),
            CLASSIC_PUZZLE.replace('5', ":"),
            CLASSIC_PUZZLE.replace('.', "\u{0}"),
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
    fn blocks_number_every_line_and_yield_only_the_puzzle_lines() {
        let text = format!("# header\n\n{CLASSIC_PUZZLE}\r\n12x\n  \n{CLASSIC_PUZZLE}");
        let mut reader = BlockReader::new(4);
        let mut input = text.as_bytes();
        let first = reader.read(&mut input).unwrap().unwrap();
        let second = reader.read(&mut input).unwrap().unwrap();
        assert!(reader.read(&mut input).unwrap().is_none());
        assert_eq!((first.len(), second.len()), (4, 2));
        let classic = Grid::from_line(CLASSIC_PUZZLE).unwrap();
        let numbered: Vec<(u64, Result<Grid, ParseError>)> =
            first.puzzles().chain(second.puzzles()).collect();
        assert_eq!(
            numbered,
            [
                (3, Ok(classic)),
                (4, Err(ParseError::WrongLength(3))),
                (6, Ok(classic))
            ]
        );
    }
}
