//! The 81-cell grid and its one-line text form.

use std::fmt;
use std::str::FromStr;

/// Number of cells in a 9x9 grid.
pub const CELLS: usize = 81;

/// The puzzle of Wikipedia's Sudoku article: the README's and the API reference's example,
/// and the one puzzle every test suite reaches for first.
pub const CLASSIC_PUZZLE: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

/// The unique solution of [`CLASSIC_PUZZLE`].
pub const CLASSIC_SOLUTION: &str =
    "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

/// Why a line or a cell array is not a grid.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    /// The line does not hold exactly 81 cells; carries the number of characters found.
    #[error(
        "a board string must have 81 cells, found {} {}",
        .0,
        if *.0 == 1 { "character" } else { "characters" }
    )]
    WrongLength(usize),
    /// A cell holds something other than `1`-`9`, `.` or `0` (0-based row and column).
    #[error(
        "invalid cell {found:?} at {} (character {} of 81; expected 1-9, '.' or '0')",
        CellName(row * 9 + col),
        row * 9 + col + 1
    )]
    InvalidCell {
        /// 0-based row of the offending cell.
        row: usize,
        /// 0-based column of the offending cell.
        col: usize,
        /// The character found there.
        found: char,
    },
    /// A numeric cell is outside `0..=9` (0-based row and column).
    #[error("invalid value {found} at {} (expected 0-9)", CellName(row * 9 + col))]
    InvalidValue {
        /// 0-based row of the offending cell.
        row: usize,
        /// 0-based column of the offending cell.
        col: usize,
        /// The value found there.
        found: u8,
    },
}

/// A cell as players write it, 1-based: `r3c5` is row 3, column 5. Every sentence meant for
/// people names cells so; fields of data stay 0-based.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CellName(pub usize);

impl fmt::Display for CellName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "r{}c{}", self.0 / 9 + 1, self.0 % 9 + 1)
    }
}

/// A 9x9 Sudoku grid, row-major; each cell is `0` (empty) or a digit `1..=9`.
///
/// A `Grid` always holds in-range values, but it may break the Sudoku rules:
/// see [`crate::find_conflicts`].
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Grid {
    cells: [u8; CELLS],
}

impl Grid {
    /// The grid with every cell empty.
    pub const EMPTY: Grid = Grid { cells: [0; CELLS] };

    /// Builds a grid from 81 row-major values, `0` meaning empty.
    ///
    /// # Errors
    /// [`ParseError::InvalidValue`] names the first value above 9.
    pub fn from_cells(cells: [u8; CELLS]) -> Result<Grid, ParseError> {
        match cells.iter().position(|&v| v > 9) {
            Some(i) => Err(ParseError::InvalidValue {
                row: i / 9,
                col: i % 9,
                found: cells[i],
            }),
            None => Ok(Grid { cells }),
        }
    }

    /// Parses an 81-character line, row by row: `1`-`9` are givens, `.` or `0` empty cells.
    /// Surrounding whitespace (such as a trailing `\r`) is ignored.
    ///
    /// # Errors
    /// [`ParseError::WrongLength`] with the number of characters found, or
    /// [`ParseError::InvalidCell`] naming the first bad character and where it is.
    pub fn from_line(line: &str) -> Result<Grid, ParseError> {
        let line = line.trim();
        if let Some(grid) = Grid::from_plain(line.as_bytes()) {
            return Ok(grid);
        }
        // Length first: a line of the wrong length is reported as such, not by its first oddity.
        let count = line.chars().count();
        if count != CELLS {
            return Err(ParseError::WrongLength(count));
        }
        let mut cells = [0u8; CELLS];
        for (i, (cell, ch)) in cells.iter_mut().zip(line.chars()).enumerate() {
            *cell = cell_value(ch).ok_or(ParseError::InvalidCell {
                row: i / 9,
                col: i % 9,
                found: ch,
            })?;
        }
        Ok(Grid { cells })
    }

    /// The grid of exactly 81 cell bytes (`.`, `0`-`9`), nothing around them; `None` for
    /// anything else, which [`Grid::from_line`] then reads character by character to say
    /// what is wrong. Skips the UTF-8 decoding and the per-character parse for the usual
    /// line: the command line and the HTTP boards read most of their puzzles this way.
    // `&`, not `&&`: the lazy form puts back the branch per byte the loop is written to avoid.
    #[allow(clippy::needless_bitwise_bool)]
    pub fn from_plain(bytes: &[u8]) -> Option<Grid> {
        let bytes: &[u8; CELLS] = bytes.try_into().ok()?;
        // Without a branch per byte: `.` against a digit was a coin toss for the branch
        // predictor, about 24 mispredictions a puzzle, and this way the loop vectorizes.
        let mut cells = [0u8; CELLS];
        let mut bad = false;
        for (cell, &byte) in cells.iter_mut().zip(bytes) {
            let digit = byte.wrapping_sub(b'0');
            let dot = byte == b'.';
            bad |= !dot & (digit > 9);
            *cell = if dot { 0 } else { digit };
        }
        (!bad).then_some(Grid { cells })
    }

    /// The 81-character line, `.` for empty cells.
    pub fn to_line(&self) -> String {
        // Every byte is ASCII, so the check passes; built from the bytes rather than through
        // `Display`, whose formatter machinery cost more than the line itself.
        String::from_utf8(self.line_bytes().to_vec()).unwrap_or_default()
    }

    /// The 81 bytes of [`Grid::to_line`].
    pub fn line_bytes(&self) -> [u8; CELLS] {
        let mut line = [b'.'; CELLS];
        for (out, &v) in line.iter_mut().zip(self.cells.iter()) {
            if v != 0 {
                *out = b'0' + v;
            }
        }
        line
    }

    /// The 81 row-major values, `0` meaning empty.
    pub fn cells(&self) -> &[u8; CELLS] {
        &self.cells
    }

    /// The value at a 0-based (row, col), `0` meaning empty.
    ///
    /// # Panics
    /// When `row` or `col` is 9 or more.
    pub fn get(&self, row: usize, col: usize) -> u8 {
        assert!(row < 9 && col < 9, "cell ({row}, {col}) is off the grid");
        self.cells[row * 9 + col]
    }

    /// Number of filled cells.
    pub fn given_count(&self) -> usize {
        self.cells.iter().filter(|&&v| v != 0).count()
    }

    /// True when no cell is empty.
    pub fn is_complete(&self) -> bool {
        self.cells.iter().all(|&v| v != 0)
    }

    /// True when every filled cell of `self` holds the same digit in `other`.
    pub fn is_kept_by(&self, other: &Grid) -> bool {
        self.cells
            .iter()
            .zip(other.cells.iter())
            .all(|(&given, &v)| given == 0 || given == v)
    }
}

/// The value of one line character: `Some(0)` for an empty cell, `None` when not a cell.
pub fn cell_value(ch: char) -> Option<u8> {
    match ch {
        '.' | '0' => Some(0),
        '1'..='9' => Some(ch as u8 - b'0'),
        _ => None,
    }
}

/// The puzzles in the text of a puzzle file, one per line, each with its line number (from
/// 1): blank lines and lines starting with `#` are skipped, the others parsed with
/// [`Grid::from_line`]. Reading the file is the caller's business.
pub fn puzzle_lines(text: &str) -> impl Iterator<Item = (usize, Result<Grid, ParseError>)> + '_ {
    text.lines().enumerate().filter_map(|(i, line)| {
        let line = line.trim();
        (!is_blank_or_comment(line)).then(|| (i + 1, Grid::from_line(line)))
    })
}

/// Whether a trimmed line of a puzzle file holds no puzzle: blank, or a `#` comment.
pub fn is_blank_or_comment(trimmed: &str) -> bool {
    trimmed.is_empty() || trimmed.starts_with('#')
}

impl FromStr for Grid {
    type Err = ParseError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Grid::from_line(s)
    }
}

impl fmt::Display for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Every byte is ASCII, so this never fails.
        f.write_str(std::str::from_utf8(&self.line_bytes()).map_err(|_| fmt::Error)?)
    }
}

impl fmt::Debug for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Grid({self})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn puzzle_lines_skip_comments_and_blanks_and_keep_line_numbers() {
        let puzzle = ".".repeat(81);
        let text = format!("# header\n\n  {puzzle}\r\n   \n12x\n#{puzzle}\n{puzzle}");
        let lines: Vec<(usize, Result<Grid, ParseError>)> = puzzle_lines(&text).collect();
        assert_eq!(
            lines,
            vec![
                (3, Ok(Grid::EMPTY)),
                (5, Err(ParseError::WrongLength(3))),
                (7, Ok(Grid::EMPTY)),
            ]
        );
    }

    #[test]
    fn from_line_round_trips_through_display() {
        let grid = Grid::from_line(CLASSIC_PUZZLE).unwrap();
        assert_eq!(grid.to_line(), CLASSIC_PUZZLE);
        assert_eq!(grid.get(0, 0), 5);
        assert_eq!(grid.get(0, 2), 0);
        assert_eq!(grid.get(8, 8), 9);
        assert_eq!(grid.given_count(), 30);
    }

    #[test]
    fn zero_is_read_as_an_empty_cell() {
        let zeros = CLASSIC_PUZZLE.replace('.', "0");
        assert_eq!(
            Grid::from_line(&zeros).unwrap(),
            Grid::from_line(CLASSIC_PUZZLE).unwrap()
        );
    }

    #[test]
    fn short_and_long_lines_report_the_count_found() {
        assert_eq!(
            Grid::from_line(&CLASSIC_PUZZLE[..80]),
            Err(ParseError::WrongLength(80))
        );
        assert_eq!(
            Grid::from_line(&format!("{CLASSIC_PUZZLE}1")),
            Err(ParseError::WrongLength(82))
        );
        assert_eq!(Grid::from_line(""), Err(ParseError::WrongLength(0)));
    }

    #[test]
    fn a_bad_character_is_reported_with_its_row_and_column() {
        let mut bad = CLASSIC_PUZZLE.to_string();
        bad.replace_range(12..13, "x");
        assert_eq!(
            Grid::from_line(&bad),
            Err(ParseError::InvalidCell {
                row: 1,
                col: 3,
                found: 'x'
            })
        );
    }

    #[test]
    fn multibyte_characters_count_as_one_cell() {
        let mut bad = CLASSIC_PUZZLE.to_string();
        bad.replace_range(0..1, "１");
        assert_eq!(
            Grid::from_line(&bad),
            Err(ParseError::InvalidCell {
                row: 0,
                col: 0,
                found: '１'
            })
        );
    }

    #[test]
    fn from_cells_rejects_values_above_nine() {
        let mut cells = [0u8; CELLS];
        cells[40] = 10;
        assert_eq!(
            Grid::from_cells(cells),
            Err(ParseError::InvalidValue {
                row: 4,
                col: 4,
                found: 10
            })
        );
    }

    #[test]
    fn is_kept_by_checks_only_filled_cells() {
        let puzzle = Grid::from_line(CLASSIC_PUZZLE).unwrap();
        assert!(puzzle.is_kept_by(&puzzle));
        assert!(Grid::EMPTY.is_kept_by(&puzzle));
        assert!(!puzzle.is_kept_by(&Grid::EMPTY));
    }
}
