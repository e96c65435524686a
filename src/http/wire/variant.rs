//! Boards of every size and their rules on the wire: the `"rules"` object beside
//! `"board"`, and boards of N×N cells for a side N from 4 to 25 in the three forms the
//! classic board has (N×N characters, `1`-`9` then `A`-`P` in either case; N rows of N
//! one-character strings; N rows of N integers). A classic 9x9 board without rules takes
//! the classic path ([`super::Board`]); this one reads everything else.

use serde::Deserialize;
use serde::de::value::MapAccessDeserializer;
use serde::de::{Deserializer, MapAccess, Visitor};
use serde_json::Value;

use sudoku::variant::{
    BoxShape, CellLabel, Diagonal, MAX_SIZE, MIN_SIZE, Puzzle, Rules, RulesError, VariantCell,
    VariantConflict, char_digit, digit_char, side_of,
};

use super::board::kind_of;
use super::{BoardError, BoardFormat, CellRef, ConflictBody};

/// A cell in the rules: `{"row", "col"}`, 0-based.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(deny_unknown_fields, remote = "Self")]
pub struct CellBody {
    /// 0-based row.
    pub row: usize,
    /// 0-based column.
    pub col: usize,
}

/// `{"rows", "cols"}`: the box shape.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(deny_unknown_fields, remote = "Self")]
pub struct BoxBody {
    /// Rows of a box.
    pub rows: usize,
    /// Columns of a box.
    pub cols: usize,
}

/// `"main"` or `"anti"`.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DiagonalBody {
    /// Top-left to bottom-right.
    Main,
    /// Top-right to bottom-left.
    Anti,
}

/// `{"sum"?, "cells"}`: a killer cage.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, remote = "Self")]
pub struct CageBody {
    /// What its digits add up to, when the cage says.
    #[serde(default, deserialize_with = "present")]
    pub sum: Option<u32>,
    /// Its cells.
    pub cells: Vec<CellBody>,
}

/// The `"rules"` object: everything beside the classic rules of the board's size.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, remote = "Self")]
pub struct RulesBody {
    /// The box shape, when the size allows several.
    #[serde(default, rename = "box", deserialize_with = "present")]
    pub box_shape: Option<BoxBody>,
    /// Jigsaw: N rows of N region numbers 0..N, replacing the boxes.
    #[serde(default, deserialize_with = "present")]
    pub regions: Option<Vec<Vec<usize>>>,
    /// X-sudoku: the diagonals holding every digit once.
    #[serde(default)]
    pub diagonals: Vec<DiagonalBody>,
    /// Groups of N cells holding every digit once.
    #[serde(default)]
    pub extra_regions: Vec<Vec<CellBody>>,
    /// Killer cages.
    #[serde(default)]
    pub cages: Vec<CageBody>,
    /// Equal digits never a knight's move apart.
    #[serde(default)]
    pub anti_knight: bool,
    /// Equal digits never a king's move apart.
    #[serde(default)]
    pub anti_king: bool,
    /// Cells holding odd digits.
    #[serde(default)]
    pub odd: Vec<CellBody>,
    /// Cells holding even digits.
    #[serde(default)]
    pub even: Vec<CellBody>,
    /// Bulb first; digits strictly increase along each.
    #[serde(default)]
    pub thermometers: Vec<Vec<CellBody>>,
}

/// An optional member that, when present, must be a value of its type: serde reads `null`
/// as absent, which the spec does not allow.
pub(super) fn present<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
    deserializer: D,
) -> Result<Option<T>, D::Error> {
    T::deserialize(deserializer).map(Some)
}

/// `Deserialize` for a body read only from a JSON object: serde's derive (kept as the
/// type's inherent `deserialize` by `remote = "Self"`) also takes an array of the fields in
/// order, which the spec does not allow.
macro_rules! from_objects_only {
    ($($body:ident),*) => {$(
        impl<'de> Deserialize<'de> for $body {
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                struct Object;
                impl<'de> Visitor<'de> for Object {
                    type Value = $body;
                    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                        f.write_str("an object")
                    }
                    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<$body, A::Error> {
                        $body::deserialize(MapAccessDeserializer::new(map))
                    }
                }
                deserializer.deserialize_map(Object)
            }
        }
    )*};
}

from_objects_only!(CellBody, BoxBody, CageBody, RulesBody);

fn cells(list: &[CellBody]) -> Vec<VariantCell> {
    list.iter()
        .map(|c| VariantCell {
            row: c.row,
            col: c.col,
        })
        .collect()
}

/// Whether `count` lies in `range`, or the error saying how many `unit` `what` must have.
fn count_in(
    count: usize,
    range: std::ops::RangeInclusive<usize>,
    pointer: &str,
    what: &str,
    unit: &str,
) -> Result<(), BoardError> {
    if range.contains(&count) {
        return Ok(());
    }
    Err(BoardError::whole(
        pointer,
        format!(
            "{what} must have {} to {} {unit}, found {count}",
            range.start(),
            range.end()
        ),
    ))
}

impl RulesBody {
    /// Checks what the rules must be on a board of any side (a thermometer of two cells or
    /// more, a cage of 1 to 25, 4 to 25 rows of regions, ...): what the spec's schema says
    /// of them, so that a batch's rules that fit no board fail the whole request. How the
    /// rules fit one board is [`read_puzzle`]'s to say.
    ///
    /// # Errors
    /// The first member out of its range, with its pointer.
    pub fn check_shape(&self) -> Result<(), BoardError> {
        let sides = MIN_SIZE..=MAX_SIZE;
        if let Some(shape) = self.box_shape {
            count_in(shape.rows, 1..=MAX_SIZE, "/rules/box/rows", "a box", "rows")?;
            count_in(
                shape.cols,
                1..=MAX_SIZE,
                "/rules/box/cols",
                "a box",
                "columns",
            )?;
        }
        if let Some(rows) = &self.regions {
            count_in(
                rows.len(),
                sides.clone(),
                "/rules/regions",
                "the regions",
                "rows",
            )?;
            for (r, row) in rows.iter().enumerate() {
                let at = format!("/rules/regions/{r}");
                count_in(
                    row.len(),
                    sides.clone(),
                    &at,
                    &format!("row {} of the regions", r + 1),
                    "numbers",
                )?;
                if let Some(c) = row.iter().position(|&region| region >= MAX_SIZE) {
                    return Err(BoardError::whole(
                        &format!("/rules/regions/{r}/{c}"),
                        format!(
                            "region numbers run from 0 to {}, found {}",
                            MAX_SIZE - 1,
                            row[c]
                        ),
                    ));
                }
            }
        }
        for (i, region) in self.extra_regions.iter().enumerate() {
            let at = format!("/rules/extra_regions/{i}");
            count_in(
                region.len(),
                sides.clone(),
                &at,
                &format!("extra region {}", i + 1),
                "cells",
            )?;
        }
        for (i, cage) in self.cages.iter().enumerate() {
            let at = format!("/rules/cages/{i}/cells");
            count_in(
                cage.cells.len(),
                1..=MAX_SIZE,
                &at,
                &format!("cage {}", i + 1),
                "cells",
            )?;
            if let Some(sum) = cage.sum.filter(|&sum| sum == 0 || sum > 325) {
                return Err(BoardError::whole(
                    &format!("/rules/cages/{i}/sum"),
                    format!("a cage sum is 1 to 325 (all of 1 to 25), found {sum}"),
                ));
            }
        }
        for (i, thermometer) in self.thermometers.iter().enumerate() {
            let at = format!("/rules/thermometers/{i}");
            count_in(
                thermometer.len(),
                2..=MAX_SIZE,
                &at,
                &format!("thermometer {}", i + 1),
                "cells",
            )?;
        }
        Ok(())
    }

    /// The rules as the engine takes them.
    pub fn to_rules(&self) -> Rules {
        Rules {
            box_shape: self.box_shape.map(|b| BoxShape {
                rows: b.rows,
                cols: b.cols,
            }),
            regions: self.regions.clone(),
            diagonals: self
                .diagonals
                .iter()
                .map(|d| match d {
                    DiagonalBody::Main => Diagonal::Main,
                    DiagonalBody::Anti => Diagonal::Anti,
                })
                .collect(),
            extra_regions: self.extra_regions.iter().map(|r| cells(r)).collect(),
            cages: self
                .cages
                .iter()
                .map(|c| sudoku::variant::Cage {
                    sum: c.sum,
                    cells: cells(&c.cells),
                })
                .collect(),
            anti_knight: self.anti_knight,
            anti_king: self.anti_king,
            odd: cells(&self.odd),
            even: cells(&self.even),
            thermometers: self.thermometers.iter().map(|t| cells(t)).collect(),
        }
    }
}

/// The rules as the `"rules"` member says them, with only the members that hold
/// something (an empty object for the classic rules).
pub fn rules_value(rules: &Rules) -> Value {
    let cell = |c: &VariantCell| serde_json::json!({"row": c.row, "col": c.col});
    let list = |cells: &[VariantCell]| Value::Array(cells.iter().map(cell).collect());
    let mut body = serde_json::Map::new();
    if let Some(shape) = rules.box_shape {
        body.insert(
            "box".into(),
            serde_json::json!({"rows": shape.rows, "cols": shape.cols}),
        );
    }
    if let Some(regions) = &rules.regions {
        body.insert("regions".into(), serde_json::json!(regions));
    }
    if !rules.diagonals.is_empty() {
        let names: Vec<&str> = rules
            .diagonals
            .iter()
            .map(|d| match d {
                Diagonal::Main => "main",
                Diagonal::Anti => "anti",
            })
            .collect();
        body.insert("diagonals".into(), serde_json::json!(names));
    }
    if !rules.extra_regions.is_empty() {
        let regions = rules.extra_regions.iter().map(|r| list(r)).collect();
        body.insert("extra_regions".into(), Value::Array(regions));
    }
    if !rules.cages.is_empty() {
        let cages = rules
            .cages
            .iter()
            .map(|cage| {
                let mut member = serde_json::Map::new();
                if let Some(sum) = cage.sum {
                    member.insert("sum".into(), Value::from(sum));
                }
                member.insert("cells".into(), list(&cage.cells));
                Value::Object(member)
            })
            .collect();
        body.insert("cages".into(), Value::Array(cages));
    }
    for (name, on) in [
        ("anti_knight", rules.anti_knight),
        ("anti_king", rules.anti_king),
    ] {
        if on {
            body.insert(name.into(), Value::Bool(true));
        }
    }
    for (name, cells) in [("odd", &rules.odd), ("even", &rules.even)] {
        if !cells.is_empty() {
            body.insert(name.into(), list(cells));
        }
    }
    if !rules.thermometers.is_empty() {
        let thermometers = rules.thermometers.iter().map(|t| list(t)).collect();
        body.insert("thermometers".into(), Value::Array(thermometers));
    }
    Value::Object(body)
}

/// A board of any size read off the wire: its cells, its side and its form.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SizedBoard {
    /// Row-major, 0 empty.
    pub cells: Vec<u8>,
    /// The side.
    pub size: usize,
    /// The caller's form, which the answer uses.
    pub format: BoardFormat,
}

/// Whether a board value is of a side other than 9 (a string of 16, 36, ... 625
/// characters, or 4 to 25 rows but not 9, the first of them not 9 cells long): such a
/// board takes the general engine even without rules. Anything else keeps the classic
/// board's reading and its errors (8 rows of 9 cells is a 9x9 board missing a row).
pub fn is_other_size(value: &Value) -> bool {
    match value {
        Value::String(line) => side_of(line.chars().count()).is_some_and(|side| side != 9),
        Value::Array(rows) => {
            let nine_wide = matches!(rows.first(), Some(Value::Array(first)) if first.len() == 9);
            (MIN_SIZE..=MAX_SIZE).contains(&rows.len()) && rows.len() != 9 && !nine_wide
        }
        _ => false,
    }
}

impl SizedBoard {
    /// Reads a board of any side from the JSON value at `pointer`.
    ///
    /// # Errors
    /// A [`BoardError`] naming the first offending row or cell.
    pub fn from_json(value: &Value, pointer: &str) -> Result<SizedBoard, BoardError> {
        match value {
            Value::String(line) => Self::from_line(line, pointer),
            Value::Array(rows) => Self::from_rows(rows, pointer),
            other => Err(BoardError::whole(
                pointer,
                format!(
                    "a board must be a string of N×N characters or N rows of N cells, for a side N \
                     from {MIN_SIZE} to {MAX_SIZE}; found {}",
                    kind_of(other)
                ),
            )),
        }
    }

    fn from_line(line: &str, pointer: &str) -> Result<SizedBoard, BoardError> {
        let count = line.chars().count();
        let size = side_of(count).ok_or_else(|| {
            BoardError::whole(
                pointer,
                format!(
                    "a board string must have N×N characters for a side N from {MIN_SIZE} to \
                     {MAX_SIZE} (16, 36, 64, 81, ... 625), found {count}"
                ),
            )
        })?;
        let mut cells = Vec::with_capacity(count);
        for (index, c) in line.chars().enumerate() {
            let (row, col) = (index / size, index % size);
            let digit = char_digit(c, size).ok_or_else(|| {
                BoardError::at_cell_of_line(
                    pointer,
                    row,
                    col,
                    format!(
                        "invalid cell {c:?} at {} (character {} of {count}); {}",
                        CellLabel(row, col),
                        index + 1,
                        digits_of(size)
                    ),
                )
            })?;
            cells.push(digit);
        }
        Ok(SizedBoard {
            cells,
            size,
            format: BoardFormat::String,
        })
    }

    fn from_rows(rows: &[Value], pointer: &str) -> Result<SizedBoard, BoardError> {
        let size = rows.len();
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
            return Err(BoardError::whole(
                pointer,
                format!("a board must have {MIN_SIZE} to {MAX_SIZE} rows, found {size}"),
            ));
        }
        let mut cells = Vec::with_capacity(size * size);
        let mut format = None;
        for (row, value) in rows.iter().enumerate() {
            let row_cells = match value {
                Value::Array(row_cells) if row_cells.len() == size => row_cells,
                Value::Array(row_cells) => {
                    return Err(BoardError::at_row(
                        pointer,
                        row,
                        format!(
                            "row {} must have {size} cells, as the board has {size} rows; found {}",
                            row + 1,
                            row_cells.len()
                        ),
                    ));
                }
                other => {
                    return Err(BoardError::at_row(
                        pointer,
                        row,
                        format!(
                            "row {} must be an array of {size} cells, found {}",
                            row + 1,
                            kind_of(other)
                        ),
                    ));
                }
            };
            for (col, cell) in row_cells.iter().enumerate() {
                let at = CellLabel(row, col);
                let bad = |reason: String| {
                    BoardError::at_cell(pointer, row, col, format!("cell {at}: {reason}"))
                };
                let (digit, cell_format) = match cell {
                    Value::Null => (0, None),
                    Value::String(text) => {
                        let mut chars = text.chars();
                        match (chars.next(), chars.next()) {
                            (Some(c), None) => match char_digit(c, size) {
                                Some(digit) => (digit, Some(BoardFormat::Chars)),
                                None => {
                                    return Err(bad(format!(
                                        "{text:?} is not a digit; {}",
                                        digits_of(size)
                                    )));
                                }
                            },
                            _ => {
                                return Err(bad(format!("{text:?} must be exactly one character")));
                            }
                        }
                    }
                    Value::Number(number) => match number.as_u64() {
                        Some(digit) if digit <= size as u64 => {
                            (digit as u8, Some(BoardFormat::Numbers))
                        }
                        _ => {
                            return Err(bad(format!(
                                "{number} is not an integer from 0 to {size}"
                            )));
                        }
                    },
                    other => {
                        return Err(bad(format!(
                            "expected a digit or a one-character string, found {}",
                            kind_of(other)
                        )));
                    }
                };
                match (format, cell_format) {
                    (None, Some(f)) => format = Some(f),
                    (Some(a), Some(b)) if a != b => {
                        return Err(bad(format!(
                            "{} after {}; use one form for the whole board",
                            kind_of(cell),
                            a.cells_are()
                        )));
                    }
                    _ => {}
                }
                cells.push(digit);
            }
        }
        Ok(SizedBoard {
            cells,
            size,
            format: format.unwrap_or(BoardFormat::Numbers),
        })
    }

    /// `cells` (a solution, say) written in this board's form.
    pub fn render(&self, cells: &[u8]) -> Value {
        render_sized(cells, self.size, self.format)
    }
}

/// `cells` of a board of `size`, row-major, written in `format`.
pub fn render_sized(cells: &[u8], size: usize, format: BoardFormat) -> Value {
    let rows = cells.chunks(size);
    match format {
        BoardFormat::String => Value::String(cells.iter().map(|&d| digit_char(d)).collect()),
        BoardFormat::Chars => Value::Array(
            rows.map(|row| {
                row.iter()
                    .map(|&d| Value::String(digit_char(d).to_string()))
                    .collect()
            })
            .collect(),
        ),
        BoardFormat::Numbers => Value::Array(
            rows.map(|row| row.iter().map(|&d| Value::from(d)).collect())
                .collect(),
        ),
    }
}

/// The digits a board of `size` takes, in words.
fn digits_of(size: usize) -> String {
    let top = digit_char(size as u8);
    if size <= 9 {
        format!("a {size}x{size} board takes 1-{top}, \".\" or \"0\"")
    } else {
        format!("a {size}x{size} board takes 1-9 and A-{top} (either case), \".\" or \"0\"")
    }
}

/// A board and its rules, checked: the general engine's input, or what is wrong with it
/// (a board error under `pointer`, a rules error under `/rules`).
///
/// # Errors
/// The [`BoardError`] of the board or of its rules, and which of the two it is.
pub fn read_puzzle(
    board: &SizedBoard,
    rules: &Rules,
    pointer: &str,
) -> Result<Puzzle, (BoardError, RulesFault)> {
    Puzzle::new(board.cells.clone(), rules).map_err(
        |RulesError {
             pointer: at,
             message,
         }| {
            match at.strip_prefix("/board") {
                Some(rest) => (
                    BoardError::whole(&format!("{pointer}{rest}"), message),
                    RulesFault::Board,
                ),
                None => (BoardError::whole(&at, message), RulesFault::Rules),
            }
        },
    )
}

/// Which part of a request a [`read_puzzle`] error is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RulesFault {
    /// The board (its size, a digit past it).
    Board,
    /// The rules.
    Rules,
}

impl From<&VariantConflict> for ConflictBody {
    fn from(conflict: &VariantConflict) -> Self {
        ConflictBody {
            unit: conflict.unit.as_str(),
            index: conflict.index,
            digit: conflict.digit,
            cells: conflict
                .cells
                .iter()
                .map(|c| CellRef {
                    row: c.row,
                    col: c.col,
                })
                .collect(),
            message: Some(conflict.message.clone()),
        }
    }
}

/// Converts the general engine's conflicts to their wire form.
pub fn variant_conflict_bodies(conflicts: &[VariantConflict]) -> Vec<ConflictBody> {
    conflicts.iter().map(ConflictBody::from).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_three_forms_of_a_16x16_read_alike_and_render_back() {
        let line: String = "123456789ABCDEFG".chars().cycle().take(256).collect();
        let lower = line.to_lowercase();
        let board = SizedBoard::from_json(&json!(lower), "/board").unwrap();
        assert_eq!(board.size, 16);
        assert_eq!(board.cells[9..16], [10, 11, 12, 13, 14, 15, 16]);
        assert_eq!(board.render(&board.cells), json!(line));
        for format in [BoardFormat::Chars, BoardFormat::Numbers] {
            let value = SizedBoard {
                format,
                ..board.clone()
            }
            .render(&board.cells);
            assert_eq!(
                SizedBoard::from_json(&value, "/board").unwrap(),
                SizedBoard {
                    format,
                    ..board.clone()
                }
            );
        }
    }

    #[test]
    fn a_bad_board_of_another_size_is_located() {
        let error =
            SizedBoard::from_json(&json!(format!("{}G", ".".repeat(15))), "/board").unwrap_err();
        assert_eq!((error.row, error.col), (Some(3), Some(3)));
        assert!(
            error
                .message
                .starts_with("invalid cell 'G' at r4c4 (character 16 of 16)"),
            "{}",
            error.message
        );
        let error = SizedBoard::from_json(
            &json!([[1, 2, 3, 4], [0, 0, 0, 0], [0, 0, 0], [0, 0, 0, 0]]),
            "/board",
        )
        .unwrap_err();
        assert_eq!(error.pointer, "/board/2");
        assert!(is_other_size(&json!(".".repeat(16))));
        assert!(!is_other_size(&json!(".".repeat(81))));
        assert!(!is_other_size(&json!(".".repeat(80))));
        assert!(
            !is_other_size(&json!(vec![vec![0; 9]; 8])),
            "a 9x9 board missing a row"
        );
        assert!(is_other_size(&json!(vec![vec![0; 4]; 4])));
    }
}
