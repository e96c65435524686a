//! The three wire forms of a board, read into a [`Grid`] and written back in the caller's form.
//!
//! A board arrives in one of three forms, named as `/generate?form=` names them: `string`,
//! an 81-character string; `chars`, 9 rows of 9 one-character strings (LeetCode's
//! `char[][]`); `numbers`, 9 rows of 9 integers (`0` or `null` empty). Errors point at the
//! offending cell with a JSON pointer and 0-based `row` and `col` fields; their sentences
//! name rows and cells as players do, from 1 (`row 1`, `r1c3`).

use serde::de::value::{MapAccessDeserializer, SeqAccessDeserializer};
use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use sudoku::{CELLS, CellName, Grid, ParseError, cell_value};

/// The form a board came in, which is the form its answer goes back in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BoardFormat {
    /// `"53..7...."`: one 81-character string.
    String,
    /// `[["5","3","."],...]`: rows of one-character strings.
    Chars,
    /// `[[5,3,0],...]`: rows of integers.
    Numbers,
}

impl BoardFormat {
    /// Every form, in the order the documentation lists them.
    pub const ALL: [BoardFormat; 3] = [
        BoardFormat::String,
        BoardFormat::Chars,
        BoardFormat::Numbers,
    ];

    /// What the cells of a grid in this form are, in words: "strings" or "integers".
    pub(super) fn cells_are(self) -> &'static str {
        match self {
            BoardFormat::Chars => "strings",
            BoardFormat::String | BoardFormat::Numbers => "integers",
        }
    }

    /// The form's name on the wire (`/generate?form=`) and in the documentation.
    pub fn name(self) -> &'static str {
        match self {
            BoardFormat::String => "string",
            BoardFormat::Chars => "chars",
            BoardFormat::Numbers => "numbers",
        }
    }
}

/// A board read off the wire: the grid and the form it came in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Board {
    /// The cells.
    pub grid: Grid,
    /// The caller's form.
    pub format: BoardFormat,
}

/// One thing wrong with a board, located as precisely as the input allows.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BoardError {
    /// JSON pointer to the offending value, relative to the request body.
    pub pointer: String,
    /// 0-based row, when one row is at fault.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub row: Option<usize>,
    /// 0-based column, when one cell is at fault.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub col: Option<usize>,
    /// What is wrong, in a sentence.
    pub message: String,
}

impl BoardError {
    /// An error about the value at `pointer` as a whole, no row or cell named.
    pub fn whole(pointer: &str, message: impl Into<String>) -> BoardError {
        BoardError {
            pointer: pointer.to_owned(),
            row: None,
            col: None,
            message: message.into(),
        }
    }

    pub(super) fn at_row(pointer: &str, row: usize, message: impl Into<String>) -> BoardError {
        BoardError {
            pointer: format!("{pointer}/{row}"),
            row: Some(row),
            col: None,
            message: message.into(),
        }
    }

    /// An error about one cell, located by `pointer` as given (a board string's cell is
    /// named by the fields only).
    pub(super) fn at_cell_of_line(
        pointer: &str,
        row: usize,
        col: usize,
        message: impl Into<String>,
    ) -> BoardError {
        BoardError {
            pointer: pointer.to_owned(),
            row: Some(row),
            col: Some(col),
            message: message.into(),
        }
    }

    pub(super) fn at_cell(
        pointer: &str,
        row: usize,
        col: usize,
        message: impl Into<String>,
    ) -> BoardError {
        Self::at_cell_of_line(&format!("{pointer}/{row}/{col}"), row, col, message)
    }
}

impl std::fmt::Display for BoardError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

const SHAPE_HINT: &str = "a board must be an 81-character string, 9 rows of 9 \
                          one-character strings, or 9 rows of 9 integers 0-9";

impl Board {
    /// Reads a board from a JSON value found at `pointer` (such as `/board`).
    ///
    /// # Errors
    /// A [`BoardError`] naming the first offending row or cell.
    pub fn from_json(value: &Value, pointer: &str) -> Result<Board, BoardError> {
        match value {
            Value::String(line) => Board::from_line(line, pointer),
            Value::Array(rows) => Board::from_rows(rows, pointer),
            other => Err(BoardError::whole(
                pointer,
                format!("{SHAPE_HINT}; found {}", kind_of(other)),
            )),
        }
    }

    fn from_line(line: &str, pointer: &str) -> Result<Board, BoardError> {
        if let Some(grid) = Grid::from_plain(line.as_bytes()) {
            return Ok(Board {
                grid,
                format: BoardFormat::String,
            });
        }
        // Unlike the command line, the wire form takes no surrounding whitespace.
        let count = line.chars().count();
        if count != CELLS {
            return Err(BoardError::whole(
                pointer,
                ParseError::WrongLength(count).to_string(),
            ));
        }
        let grid = Grid::from_line(line).map_err(|err| match err {
            ParseError::InvalidCell { row, col, .. } => BoardError {
                pointer: pointer.to_owned(),
                row: Some(row),
                col: Some(col),
                message: err.to_string(),
            },
            other => BoardError::whole(pointer, other.to_string()),
        })?;
        Ok(Board {
            grid,
            format: BoardFormat::String,
        })
    }

    fn from_rows(rows: &[Value], pointer: &str) -> Result<Board, BoardError> {
        if rows.len() != 9 {
            return Err(BoardError::whole(
                pointer,
                format!("a board must have 9 rows, found {}", rows.len()),
            ));
        }
        let mut cells = [0u8; CELLS];
        let mut format = None;
        for (row, value) in rows.iter().enumerate() {
            let Value::Array(row_cells) = value else {
                return Err(BoardError::at_row(
                    pointer,
                    row,
                    format!(
                        "row {} must be an array of 9 cells, found {}",
                        row + 1,
                        kind_of(value)
                    ),
                ));
            };
            if row_cells.len() != 9 {
                return Err(BoardError::at_row(
                    pointer,
                    row,
                    format!(
                        "row {} must have 9 cells, found {}",
                        row + 1,
                        row_cells.len()
                    ),
                ));
            }
            for (col, cell) in row_cells.iter().enumerate() {
                let (digit, cell_format) = read_cell(cell).map_err(|reason| {
                    BoardError::at_cell(
                        pointer,
                        row,
                        col,
                        format!("cell {}: {reason}", CellName(row * 9 + col)),
                    )
                })?;
                match (format, cell_format) {
                    (None, Some(f)) => format = Some(f),
                    (Some(a), Some(b)) if a != b => {
                        return Err(BoardError::at_cell(
                            pointer,
                            row,
                            col,
                            format!(
                                "cell {} is {}, but earlier cells are {}; \
                                 use one form for the whole board",
                                CellName(row * 9 + col),
                                kind_of(cell),
                                a.cells_are()
                            ),
                        ));
                    }
                    _ => {}
                }
                cells[row * 9 + col] = digit;
            }
        }
        let grid =
            Grid::from_cells(cells).map_err(|err| BoardError::whole(pointer, err.to_string()))?;
        Ok(Board {
            grid,
            // A board of nulls only is an integer board with every cell empty.
            format: format.unwrap_or(BoardFormat::Numbers),
        })
    }

    /// The grid `solution` written in this board's form.
    pub fn render(&self, solution: &Grid) -> Value {
        render(solution, self.format)
    }
}

/// A board as a request carries it, read as the body is parsed: the plain line form (81
/// bytes of `.` and digits) straight into its grid, with no `String` or [`Value`] built for
/// it; any other JSON value kept whole for [`Board::from_json`], which reads the other forms
/// and says what is wrong with a bad one. So a batch of a thousand lines costs a thousand
/// grids, not a thousand strings.
#[derive(Debug, Clone, PartialEq)]
pub enum WireBoard {
    /// The plain line form, already read.
    Plain(Grid),
    /// Anything else, as sent.
    Other(Value),
}

impl WireBoard {
    /// The board, as [`Board::from_json`] reads the value sent; `pointer` (computed only
    /// for a board that is not plain) locates it in the request.
    ///
    /// # Errors
    /// As for [`Board::from_json`].
    pub fn read(&self, pointer: impl FnOnce() -> String) -> Result<Board, BoardError> {
        match self {
            WireBoard::Plain(grid) => Ok(Board {
                grid: *grid,
                format: BoardFormat::String,
            }),
            WireBoard::Other(value) => Board::from_json(value, &pointer()),
        }
    }

    /// Whether the board has a side other than 9 ([`super::is_other_size`]).
    pub fn is_other_size(&self) -> bool {
        matches!(self, WireBoard::Other(value) if super::is_other_size(value))
    }

    /// The members of a batch entry that is f-puzzles data (`{"fpuzzles": F}`) rather
    /// than a board.
    pub fn fpuzzles_entry(&self) -> Option<&serde_json::Map<String, Value>> {
        match self {
            WireBoard::Other(Value::Object(members)) if members.contains_key("fpuzzles") => {
                Some(members)
            }
            _ => None,
        }
    }

    /// The board as sent, for the general engine: any side.
    ///
    /// # Errors
    /// As for [`super::SizedBoard::from_json`].
    pub fn read_sized(
        &self,
        pointer: impl FnOnce() -> String,
    ) -> Result<super::SizedBoard, BoardError> {
        match self {
            WireBoard::Plain(grid) => Ok(super::SizedBoard {
                cells: grid.cells().to_vec(),
                size: 9,
                format: BoardFormat::String,
            }),
            WireBoard::Other(value) => super::SizedBoard::from_json(value, &pointer()),
        }
    }
}

impl<'de> Deserialize<'de> for WireBoard {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<WireBoard, D::Error> {
        deserializer.deserialize_any(WireBoardVisitor)
    }
}

/// Every JSON value a board may be, the plain line caught on the way.
struct WireBoardVisitor;

impl<'de> Visitor<'de> for WireBoardVisitor {
    type Value = WireBoard;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a board")
    }

    fn visit_str<E: de::Error>(self, line: &str) -> Result<WireBoard, E> {
        Ok(match Grid::from_plain(line.as_bytes()) {
            Some(grid) => WireBoard::Plain(grid),
            None => WireBoard::Other(Value::String(line.to_owned())),
        })
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<WireBoard, A::Error> {
        Value::deserialize(SeqAccessDeserializer::new(seq)).map(WireBoard::Other)
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<WireBoard, A::Error> {
        Value::deserialize(MapAccessDeserializer::new(map)).map(WireBoard::Other)
    }

    fn visit_bool<E: de::Error>(self, value: bool) -> Result<WireBoard, E> {
        Ok(WireBoard::Other(Value::from(value)))
    }

    fn visit_i64<E: de::Error>(self, value: i64) -> Result<WireBoard, E> {
        Ok(WireBoard::Other(Value::from(value)))
    }

    fn visit_u64<E: de::Error>(self, value: u64) -> Result<WireBoard, E> {
        Ok(WireBoard::Other(Value::from(value)))
    }

    fn visit_f64<E: de::Error>(self, value: f64) -> Result<WireBoard, E> {
        Ok(WireBoard::Other(Value::from(value)))
    }

    fn visit_unit<E: de::Error>(self) -> Result<WireBoard, E> {
        Ok(WireBoard::Other(Value::Null))
    }
}

/// Reads one array cell: its digit and the form it implies (`None` for `null`).
fn read_cell(cell: &Value) -> Result<(u8, Option<BoardFormat>), String> {
    match cell {
        Value::Null => Ok((0, None)),
        Value::String(text) => {
            let mut chars = text.chars();
            match (chars.next(), chars.next()) {
                (Some(ch), None) => cell_value(ch)
                    .map(|digit| (digit, Some(BoardFormat::Chars)))
                    .ok_or_else(|| format!("{text:?} is not one of \"1\"-\"9\", \".\" or \"0\"")),
                _ => Err(format!(
                    "{text:?} must be exactly one character: \"1\"-\"9\", \".\" or \"0\""
                )),
            }
        }
        // JSON does not tell 5 from 5.0 (JSON Schema calls both integers), so a whole
        // float is read as its integer; 5.5 is not.
        Value::Number(number) => match number.as_u64().or_else(|| {
            number
                .as_f64()
                .filter(|f| f.fract() == 0.0 && (0.0..=9.0).contains(f))
                .map(|f| f as u64)
        }) {
            Some(digit @ 0..=9) => Ok((digit as u8, Some(BoardFormat::Numbers))),
            _ => Err(format!("{number} is not an integer from 0 to 9")),
        },
        other => Err(format!(
            "expected a digit (0-9) or a one-character string, found {}",
            kind_of(other)
        )),
    }
}

/// What kind of JSON value this is, for error messages (`an array`, `null`).
pub(super) fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Writes a grid in the given wire form; empty cells become `.`, `"."` or `0`.
pub fn render(grid: &Grid, format: BoardFormat) -> Value {
    match format {
        BoardFormat::String => Value::String(grid.to_line()),
        BoardFormat::Chars => Value::Array(
            grid.cells()
                .chunks(9)
                .map(|row| {
                    row.iter()
                        .map(|&d| Value::String(if d == 0 { ".".into() } else { d.to_string() }))
                        .collect()
                })
                .collect(),
        ),
        BoardFormat::Numbers => Value::Array(
            grid.cells()
                .chunks(9)
                .map(|row| row.iter().map(|&d| Value::from(d)).collect())
                .collect(),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use sudoku::CLASSIC_PUZZLE as LINE;

    fn digits_rows() -> Value {
        render(&Grid::from_line(LINE).unwrap(), BoardFormat::Numbers)
    }

    #[test]
    fn the_three_forms_read_to_the_same_grid() {
        let grid = Grid::from_line(LINE).unwrap();
        for format in [
            BoardFormat::String,
            BoardFormat::Chars,
            BoardFormat::Numbers,
        ] {
            let board = Board::from_json(&render(&grid, format), "/board").unwrap();
            assert_eq!(board, Board { grid, format }, "{format:?}");
        }
    }

    #[test]
    fn a_wire_board_reads_as_the_value_it_came_in_reads() {
        let grid = Grid::from_line(LINE).unwrap();
        let mut samples: Vec<Value> = [
            BoardFormat::String,
            BoardFormat::Chars,
            BoardFormat::Numbers,
        ]
        .into_iter()
        .map(|format| render(&grid, format))
        .collect();
        samples.extend([
            json!(LINE.replace('.', "0")),
            json!(format!(" {}", &LINE[1..])),
            json!(format!("{LINE}\n")),
            json!(LINE.replace('5', "x")),
            json!(LINE.replace('5', "\u{e9}")),
            json!(&LINE[1..]),
            json!(""),
            json!(null),
            json!(true),
            json!(7),
            json!(-7),
            json!(2.5),
            json!({"board": LINE}),
            json!([[1, 2], "x"]),
        ]);
        let mut plain = 0;
        for value in &samples {
            let text = serde_json::to_string(value).unwrap();
            let wire: WireBoard = serde_json::from_str(&text).unwrap();
            plain += usize::from(matches!(wire, WireBoard::Plain(_)));
            assert_eq!(
                wire.read(|| "/boards/3".into()),
                Board::from_json(value, "/boards/3"),
                "{text}"
            );
        }
        // The line and its 0-for-empty twin; an escaped line is read the long way.
        assert_eq!(plain, 2);
        let escaped: WireBoard =
            serde_json::from_str(&format!("\"\\u0035{}\"", &LINE[1..])).unwrap();
        assert_eq!(
            escaped.read(String::new),
            Ok(Board {
                grid,
                format: BoardFormat::String
            })
        );
    }

    #[test]
    fn a_line_of_81_bytes_but_fewer_characters_is_counted_in_characters() {
        // 27 three-byte characters: 81 bytes, which only the character count tells apart.
        let line = "\u{2460}".repeat(27);
        assert_eq!(line.len(), 81);
        let err = Board::from_json(&Value::String(line), "/board").unwrap_err();
        assert_eq!(
            err.message,
            "a board string must have 81 cells, found 27 characters"
        );
    }

    #[test]
    fn null_cells_are_empty_in_an_integer_board() {
        let mut rows = digits_rows();
        rows[0][2] = Value::Null;
        let board = Board::from_json(&rows, "/board").unwrap();
        assert_eq!(board.format, BoardFormat::Numbers);
        assert_eq!(board.grid.get(0, 2), 0);
    }

    #[test]
    fn errors_point_at_the_offending_cell() {
        // (case, board, expected pointer, row, column)
        type Case = (
            &'static str,
            Value,
            &'static str,
            Option<usize>,
            Option<usize>,
        );
        let cases: Vec<Case> = vec![
            ("ten", json!(10), "/board", None, None),
            (
                "eight rows",
                json!(vec![vec![0; 9]; 8]),
                "/board",
                None,
                None,
            ),
            (
                "short row",
                {
                    let mut rows = digits_rows();
                    rows[4] = json!([1, 2, 3]);
                    rows
                },
                "/board/4",
                Some(4),
                None,
            ),
            (
                "cell ten",
                {
                    let mut rows = digits_rows();
                    rows[2][7] = json!(10);
                    rows
                },
                "/board/2/7",
                Some(2),
                Some(7),
            ),
            (
                "negative",
                {
                    let mut rows = digits_rows();
                    rows[1][1] = json!(-1);
                    rows
                },
                "/board/1/1",
                Some(1),
                Some(1),
            ),
            (
                "float",
                {
                    let mut rows = digits_rows();
                    rows[0][0] = json!(1.5);
                    rows
                },
                "/board/0/0",
                Some(0),
                Some(0),
            ),
            (
                "two chars",
                {
                    let mut rows = digits_rows();
                    rows[8][8] = json!("55");
                    rows
                },
                "/board/8/8",
                Some(8),
                Some(8),
            ),
            (
                "mixed forms",
                {
                    let mut rows = digits_rows();
                    rows[3][3] = json!("5");
                    rows
                },
                "/board/3/3",
                Some(3),
                Some(3),
            ),
            (
                "bad char in line",
                json!(LINE.replacen('5', "x", 1)),
                "/board",
                Some(0),
                Some(0),
            ),
            ("short line", json!(&LINE[..80]), "/board", None, None),
        ];
        for (name, value, pointer, row, col) in cases {
            let err = Board::from_json(&value, "/board").expect_err(name);
            assert_eq!(
                (err.pointer.as_str(), err.row, err.col),
                (pointer, row, col),
                "{name}: {err}"
            );
        }
    }

    #[test]
    fn answers_come_back_in_the_callers_form() {
        let grid = Grid::from_line(LINE).unwrap();
        let chars = Board {
            grid,
            format: BoardFormat::Chars,
        }
        .render(&grid);
        assert_eq!(
            chars[0],
            json!(["5", "3", ".", ".", "7", ".", ".", ".", "."])
        );
        let digits = Board {
            grid,
            format: BoardFormat::Numbers,
        }
        .render(&grid);
        assert_eq!(digits[0], json!([5, 3, 0, 0, 7, 0, 0, 0, 0]));
    }
}
