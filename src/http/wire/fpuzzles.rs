//! The `"fpuzzles"` member: a puzzle as f-puzzles (and `SudokuPad`, which reads its format)
//! share it, read into a board and the rules the general engine takes.
//!
//! The string is the f-puzzles JSON itself, its lz-string `compressToBase64` form (what a
//! share link's `load` parameter holds), or the whole link. Members that only dress the
//! puzzle up (title, author, the rules text, the solution) are ignored; any other constraint
//! the engine does not know is refused by name, so that no answer is about a puzzle with a
//! rule silently dropped.

use serde_json::{Map, Value};

use sudoku::variant::{
    Cage, CellLabel, Diagonal, MAX_SIZE, MIN_SIZE, Rules, VariantCell, default_box,
};

use super::BoardFormat;
use super::lz_string::{LzError, decompress_from_base64};
use super::variant::SizedBoard;

/// The longest f-puzzles JSON decompressed, in UTF-16 units: 16 times the default body
/// limit, and several times the JSON of a 25x25 grid with every cell given, caged and in
/// an extra region; small enough to decode in milliseconds.
pub const MAX_DECOMPRESSED: usize = 1 << 20;

/// Members that carry no rule: shown to a player, or kept for the editor.
const IGNORED: [&str; 8] = [
    "title",
    "author",
    "ruleset",
    "solution",
    "disabledlogic",
    "truecandidatesoptions",
    "highlightConflicts",
    "successMessage",
];

/// Why an `"fpuzzles"` string is not a puzzle the engine can take.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FpuzzlesError {
    /// Not f-puzzles data: broken base64 or JSON, a member of the wrong shape, a cell off
    /// the grid.
    Invalid(String),
    /// Well-formed, with constraints the engine does not know: their names.
    Unsupported(Vec<String>),
}

impl FpuzzlesError {
    fn invalid(message: impl Into<String>) -> FpuzzlesError {
        FpuzzlesError::Invalid(message.into())
    }
}

impl From<LzError> for FpuzzlesError {
    fn from(error: LzError) -> Self {
        FpuzzlesError::Invalid(format!(
            "the f-puzzles data is neither JSON nor an lz-string base64 payload: {error}"
        ))
    }
}

/// An f-puzzles puzzle read: its givens, and its rules in the engine's terms.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fpuzzle {
    /// The givens, in the string form (the answer's form).
    pub board: SizedBoard,
    /// Its rules.
    pub rules: Rules,
}

/// Reads an `"fpuzzles"` string: JSON text, a `compressToBase64` payload, or a share link
/// whose `load` parameter holds one.
///
/// # Errors
/// [`FpuzzlesError::Invalid`] for anything that is not f-puzzles data of a side 4 to 25,
/// [`FpuzzlesError::Unsupported`] naming the constraints the engine does not know.
pub fn read_fpuzzles(text: &str) -> Result<Fpuzzle, FpuzzlesError> {
    let text = text.trim();
    let json = if text.starts_with('{') {
        text.to_owned()
    } else {
        decompress_from_base64(&payload_of(text)?, MAX_DECOMPRESSED)?
    };
    let value: Value = serde_json::from_str(&json).map_err(|err| {
        FpuzzlesError::invalid(format!("the f-puzzles data is not valid JSON: {err}"))
    })?;
    let Value::Object(puzzle) = value else {
        return Err(FpuzzlesError::invalid(
            "the f-puzzles data must be a JSON object",
        ));
    };
    map_puzzle(&puzzle)
}

/// The base64 payload of a share link (its `load` parameter, percent-decoded), or the text
/// itself when it is no link.
fn payload_of(text: &str) -> Result<String, FpuzzlesError> {
    let Some((_, query)) = text.split_once('?') else {
        return Ok(text.to_owned());
    };
    let query = query.split('#').next().unwrap_or_default();
    let load = query
        .split('&')
        .find_map(|pair| pair.strip_prefix("load="))
        .ok_or_else(|| {
            FpuzzlesError::invalid(
                "the f-puzzles link has no \"load\" parameter (an \"?id=\" link must be opened \
                 in f-puzzles and shared again as a \"load\" link)",
            )
        })?;
    percent_decoded(load)
}

fn percent_decoded(text: &str) -> Result<String, FpuzzlesError> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = bytes
                .get(i + 1..i + 3)
                .and_then(|h| std::str::from_utf8(h).ok())
                .and_then(|h| u8::from_str_radix(h, 16).ok())
                .ok_or_else(|| {
                    FpuzzlesError::invalid(format!(
                        "the \"load\" parameter has a broken percent escape at character {}",
                        i + 1
                    ))
                })?;
            out.push(hex);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out)
        .map_err(|_| FpuzzlesError::invalid("the \"load\" parameter is not UTF-8 once decoded"))
}

/// Whether a member's value says nothing: absent, `false`, `null`, `0`, or empty.
fn is_empty(value: &Value) -> bool {
    match value {
        Value::Null | Value::Bool(false) => true,
        Value::Number(n) => n.as_f64() == Some(0.0),
        Value::String(s) => s.is_empty(),
        Value::Array(a) => a.is_empty(),
        Value::Object(o) => o.is_empty(),
        Value::Bool(true) => false,
    }
}

fn map_puzzle(puzzle: &Map<String, Value>) -> Result<Fpuzzle, FpuzzlesError> {
    let known = [
        "size",
        "grid",
        "killercage",
        "diagonal+",
        "diagonal-",
        "antiknight",
        "antiking",
        "extraregion",
        "odd",
        "even",
        "thermometer",
    ];
    let mut unsupported: Vec<String> = puzzle
        .iter()
        .filter(|(name, value)| {
            !known.contains(&name.as_str()) && !IGNORED.contains(&name.as_str()) && !is_empty(value)
        })
        .map(|(name, _)| name.clone())
        .collect();
    let size = match puzzle.get("size").and_then(Value::as_u64) {
        Some(size) if (MIN_SIZE as u64..=MAX_SIZE as u64).contains(&size) => size as usize,
        _ => {
            return Err(FpuzzlesError::invalid(format!(
                "\"size\" must be an integer from {MIN_SIZE} to {MAX_SIZE}, found {}",
                puzzle
                    .get("size")
                    .map_or("nothing".to_owned(), Value::to_string)
            )));
        }
    };
    let grid = read_grid(puzzle.get("grid"), size, &mut unsupported)?;
    if !unsupported.is_empty() {
        return Err(FpuzzlesError::Unsupported(unsupported));
    }
    let flag = |name: &str| puzzle.get(name).is_some_and(|v| !is_empty(v));
    let mut rules = Rules {
        regions: grid.regions,
        anti_knight: flag("antiknight"),
        anti_king: flag("antiking"),
        ..Rules::default()
    };
    // "diagonal-" falls from the top left, "diagonal+" rises from the bottom left.
    if flag("diagonal-") {
        rules.diagonals.push(Diagonal::Main);
    }
    if flag("diagonal+") {
        rules.diagonals.push(Diagonal::Anti);
    }
    for (i, cage) in entries(puzzle, "killercage")?.iter().enumerate() {
        let what = format!("killer cage {}", i + 1);
        rules.cages.push(Cage {
            sum: cage_sum(cage.get("value"), &what)?,
            cells: cell_list(cage.get("cells"), size, &what)?,
        });
    }
    for (i, region) in entries(puzzle, "extraregion")?.iter().enumerate() {
        let what = format!("extra region {}", i + 1);
        rules
            .extra_regions
            .push(cell_list(region.get("cells"), size, &what)?);
    }
    for (name, list) in [("odd", &mut rules.odd), ("even", &mut rules.even)] {
        for (i, entry) in entries(puzzle, name)?.iter().enumerate() {
            let what = format!("{name} cell {}", i + 1);
            list.push(cell_of(entry.get("cell"), size, &what)?);
        }
    }
    for (i, thermometer) in entries(puzzle, "thermometer")?.iter().enumerate() {
        let what = format!("thermometer {}", i + 1);
        let Some(Value::Array(lines)) = thermometer.get("lines") else {
            return Err(FpuzzlesError::invalid(format!(
                "{what} must have \"lines\": an array of lines of cell names"
            )));
        };
        for line in lines {
            let cells = cell_list(Some(line), size, &what)?;
            // A bulb alone orders nothing.
            if cells.len() > 1 {
                rules.thermometers.push(cells);
            }
        }
    }
    Ok(Fpuzzle {
        board: SizedBoard {
            cells: grid.givens,
            size,
            format: BoardFormat::String,
        },
        rules,
    })
}

/// What the grid says: the givens, and the jigsaw regions when any cell's region is not
/// its box.
struct Grid {
    givens: Vec<u8>,
    regions: Option<Vec<Vec<usize>>>,
}

fn read_grid(
    grid: Option<&Value>,
    size: usize,
    unsupported: &mut Vec<String>,
) -> Result<Grid, FpuzzlesError> {
    let rows = match grid {
        Some(Value::Array(rows)) if rows.len() == size => rows,
        _ => {
            return Err(FpuzzlesError::invalid(format!(
                "\"grid\" must be {size} rows of {size} cells, as \"size\" is {size}"
            )));
        }
    };
    let mut givens = Vec::with_capacity(size * size);
    let mut regions = vec![vec![None; size]; size];
    for (r, row) in rows.iter().enumerate() {
        let cells = match row {
            Value::Array(cells) if cells.len() == size => cells,
            _ => {
                return Err(FpuzzlesError::invalid(format!(
                    "row {} of \"grid\" must be an array of {size} cells",
                    r + 1
                )));
            }
        };
        for (c, cell) in cells.iter().enumerate() {
            let at = CellLabel(r, c);
            let empty = Map::new();
            let cell = match cell {
                Value::Object(members) => members,
                Value::Null => &empty,
                _ => {
                    return Err(FpuzzlesError::invalid(format!(
                        "cell {at} of \"grid\" must be an object"
                    )));
                }
            };
            if cell.get("givenPencilMarks").is_some_and(|v| !is_empty(v))
                && !unsupported.iter().any(|name| name == "givenPencilMarks")
            {
                unsupported.push("givenPencilMarks".to_owned());
            }
            let given = cell.get("given") == Some(&Value::Bool(true));
            let value = match cell.get("value") {
                None | Some(Value::Null) => 0,
                Some(value) => match value.as_u64() {
                    Some(digit) if digit <= size as u64 => digit as u8,
                    _ => {
                        return Err(FpuzzlesError::invalid(format!(
                            "cell {at} has value {value}; a {size}x{size} grid takes 1 to {size}"
                        )));
                    }
                },
            };
            // A value without "given" is the player's entry, not part of the puzzle.
            givens.push(if given { value } else { 0 });
            regions[r][c] = match cell.get("region") {
                None | Some(Value::Null) => None,
                Some(region) => match region.as_u64() {
                    Some(region) if region < size as u64 => Some(region as usize),
                    _ => {
                        return Err(FpuzzlesError::invalid(format!(
                            "cell {at} has region {region}; regions are numbered 0 to {}",
                            size - 1
                        )));
                    }
                },
            };
        }
    }
    Ok(Grid {
        givens,
        regions: jigsaw(size, &regions)?,
    })
}

/// The regions when some cell says its own and they are not the boxes; a cell that says
/// none is in its box.
fn jigsaw(
    size: usize,
    regions: &[Vec<Option<usize>>],
) -> Result<Option<Vec<Vec<usize>>>, FpuzzlesError> {
    if regions.iter().flatten().all(Option::is_none) {
        return Ok(None);
    }
    let boxes = default_box(size);
    let mut full = vec![vec![0; size]; size];
    for (r, row) in regions.iter().enumerate() {
        for (c, region) in row.iter().enumerate() {
            let its_box = boxes.map(|b| (r / b.rows) * (size / b.cols) + c / b.cols);
            full[r][c] = region.or(its_box).ok_or_else(|| {
                FpuzzlesError::invalid(format!(
                    "cell {} has no region, and a {size}x{size} grid has no boxes to fall back on",
                    CellLabel(r, c)
                ))
            })?;
        }
    }
    let is_boxes = boxes.is_some_and(|b| {
        (0..size * size).all(|i| {
            let (r, c) = (i / size, i % size);
            full[r][c] == (r / b.rows) * (size / b.cols) + c / b.cols
        })
    });
    Ok((!is_boxes).then_some(full))
}

/// The entries of a list member, each an object; none when it is absent or empty.
fn entries<'a>(
    puzzle: &'a Map<String, Value>,
    name: &str,
) -> Result<Vec<&'a Map<String, Value>>, FpuzzlesError> {
    match puzzle.get(name) {
        None | Some(Value::Null | Value::Bool(false)) => Ok(Vec::new()),
        Some(Value::Array(list)) => list
            .iter()
            .enumerate()
            .map(|(i, entry)| {
                entry.as_object().ok_or_else(|| {
                    FpuzzlesError::invalid(format!(
                        "entry {} of \"{name}\" must be an object",
                        i + 1
                    ))
                })
            })
            .collect(),
        Some(_) => Err(FpuzzlesError::invalid(format!(
            "\"{name}\" must be an array"
        ))),
    }
}

/// A cage's sum: f-puzzles writes it as a string, and leaves it out (or empty) for a cage
/// without one.
fn cage_sum(value: Option<&Value>, what: &str) -> Result<Option<u32>, FpuzzlesError> {
    let sum = match value {
        None | Some(Value::Null) => return Ok(None),
        Some(Value::String(text)) if text.trim().is_empty() => return Ok(None),
        Some(Value::String(text)) => text.trim().parse::<u32>().ok(),
        Some(Value::Number(number)) => number.as_u64().and_then(|n| u32::try_from(n).ok()),
        Some(_) => None,
    };
    match sum {
        Some(sum) if (1..=325).contains(&sum) => Ok(Some(sum)),
        _ => Err(FpuzzlesError::invalid(format!(
            "{what} has sum {}; a cage sum is a whole number from 1 to 325",
            value.map_or_else(String::new, Value::to_string)
        ))),
    }
}

fn cell_list(
    value: Option<&Value>,
    size: usize,
    what: &str,
) -> Result<Vec<VariantCell>, FpuzzlesError> {
    match value {
        Some(Value::Array(names)) => names
            .iter()
            .map(|name| cell_of(Some(name), size, what))
            .collect(),
        _ => Err(FpuzzlesError::invalid(format!(
            "{what} must have \"cells\": an array of cell names such as \"R1C1\""
        ))),
    }
}

/// A cell named as f-puzzles names it: `"R1C1"`, rows and columns from 1.
fn cell_of(value: Option<&Value>, size: usize, what: &str) -> Result<VariantCell, FpuzzlesError> {
    let name = value.and_then(Value::as_str).unwrap_or_default();
    let parsed = name
        .to_ascii_uppercase()
        .strip_prefix('R')
        .and_then(|rest| {
            let (row, col) = rest.split_once('C')?;
            Some((row.parse::<usize>().ok()?, col.parse::<usize>().ok()?))
        });
    match parsed {
        Some((row, col)) if (1..=size).contains(&row) && (1..=size).contains(&col) => {
            Ok(VariantCell {
                row: row - 1,
                col: col - 1,
            })
        }
        Some(_) => Err(FpuzzlesError::invalid(format!(
            "{what}: cell {name:?} is off the {size}x{size} grid"
        ))),
        None => Err(FpuzzlesError::invalid(format!(
            "{what}: {} is no cell name such as \"R1C1\"",
            value.map_or_else(|| "nothing".to_owned(), Value::to_string)
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A real f-puzzles share link's payload: an X-sudoku (both diagonals).
    const X_SUDOKU: &str = "N4IgzglgXgpiBcBOANCA5gJwgEwQbT2AF9ljSQA3AQwBsBXOeAdlTQgpgDsEAXDBkmSGDBlWgwQBmVuy69+MUdXqMArDI7d4fAQF1khMSoQAODXO0KRpa8PLKJSc1p2KbN/YSXjGAJmfyAu6gDowAbAGWQSE+CCzosi5WwbZEnnYZ3sbw0gmagW4x2ep5Fq5ZjhGlSdFpBpnBRo4AjJHlKY2hUm1W6bZNfj219rHwZtUFqSPZACxDhXVeHUUt8xWMKBNRC52jJWz52yJ9y+sI+4mTywNxax71Uw0ZN/BzW+W6+iDYEFRoAPacWgAagKqB+f0BtAAtJMgA===";

    fn cell(row: usize, col: usize) -> VariantCell {
        VariantCell { row, col }
    }

    /// An f-puzzles document of `size` with no givens, and `extra` members beside.
    fn document(size: usize, extra: &Value) -> String {
        let mut puzzle = json!({
            "size": size,
            "grid": vec![vec![json!({}); size]; size],
            "title": "a title",
            "author": "someone",
            "ruleset": "Normal sudoku rules apply.",
            "solution": [],
            "disabledlogic": ["Tuples"],
            "truecandidatesoptions": ["Colored"],
            "highlightConflicts": true,
        });
        for (name, value) in extra.as_object().unwrap() {
            puzzle[name] = value.clone();
        }
        puzzle.to_string()
    }

    fn read(size: usize, extra: &Value) -> Result<Fpuzzle, FpuzzlesError> {
        read_fpuzzles(&document(size, extra))
    }

    fn invalid(size: usize, extra: &Value) -> String {
        match read(size, extra) {
            Err(FpuzzlesError::Invalid(message)) => message,
            other => panic!("expected an invalid puzzle, found {other:?}"),
        }
    }

    #[test]
    fn the_share_link_payload_the_link_and_the_json_read_alike() {
        let json = decompress_from_base64(X_SUDOKU, MAX_DECOMPRESSED).unwrap();
        let from_json = read_fpuzzles(&json).unwrap();
        assert_eq!(read_fpuzzles(X_SUDOKU).unwrap(), from_json);
        let escaped = X_SUDOKU
            .replace('+', "%2B")
            .replace('/', "%2F")
            .replace('=', "%3D");
        for link in [
            format!("https://www.f-puzzles.com/?load={X_SUDOKU}"),
            format!("https://www.f-puzzles.com/?foo=1&load={escaped}#top"),
            format!("  f-puzzles.com/?load={escaped}\n"),
        ] {
            assert_eq!(read_fpuzzles(&link).unwrap(), from_json, "{link}");
        }
        assert_eq!(from_json.board.size, 9);
        assert_eq!(
            from_json.board.render(&from_json.board.cells),
            json!(
                "..7....358.....9...2.67.........356.....1...3..2.8..4....19..5.....5..7.........4"
            )
        );
        assert_eq!(
            from_json.rules,
            Rules {
                diagonals: vec![Diagonal::Main, Diagonal::Anti],
                ..Rules::default()
            }
        );
    }

    #[test]
    fn givens_need_given_true_and_regions_become_jigsaw_regions() {
        let mut grid = vec![vec![json!({}); 4]; 4];
        grid[0][0] = json!({"value": 1, "given": true, "c": "#FFA0A0"});
        grid[0][1] = json!({"value": 2, "cornerPencilMarks": [3]});
        grid[3][3] = json!({"value": 4, "given": false});
        let puzzle = read(4, &json!({ "grid": grid })).unwrap();
        assert_eq!(
            puzzle.board.cells[..2],
            [1, 0],
            "a player's entry is no given"
        );
        assert_eq!(puzzle.board.cells[15], 0);
        assert_eq!(puzzle.rules.regions, None, "no region said: the boxes");

        // Regions 0-3 as f-puzzles numbers them, rows as regions; cells that say none
        // keep their box, and regions that are the boxes are no jigsaw.
        let rows: Vec<Vec<Value>> = (0..4)
            .map(|r| (0..4).map(|_| json!({ "region": r })).collect())
            .collect();
        let puzzle = read(4, &json!({ "grid": rows })).unwrap();
        assert_eq!(
            puzzle.rules.regions,
            Some((0..4).map(|r| vec![r; 4]).collect())
        );
        let mut boxes = vec![vec![json!({}); 4]; 4];
        boxes[3][3] = json!({"region": 3});
        assert_eq!(
            read(4, &json!({ "grid": boxes })).unwrap().rules.regions,
            None
        );
        let mut prime = vec![vec![json!({"region": 0}); 5]; 5];
        prime[2][2] = json!({});
        assert!(invalid(5, &json!({ "grid": prime })).contains("r3c3 has no region"));
    }

    #[test]
    fn every_supported_constraint_is_mapped() {
        let puzzle = read(
            6,
            &json!({
                "killercage": [
                    {"cells": ["R1C1", "r1c2"], "value": "3", "outlineC": "#000"},
                    {"cells": ["R2C1"]},
                    {"cells": ["R3C1"], "value": ""},
                ],
                "diagonal+": true,
                "diagonal-": false,
                "antiknight": true,
                "antiking": true,
                "extraregion": [{"cells": ["R1C4", "R1C5", "R1C6", "R2C4", "R2C5", "R2C6"]}],
                "odd": [{"cell": "R6C6"}],
                "even": [{"cell": "R6C5"}, {"cell": "R5C5"}],
                "thermometer": [
                    {"lines": [["R4C1", "R4C2", "R4C3"], ["R5C1", "R5C2"], ["R6C1"]]},
                ],
                "nonconsecutive": false,
                "arrow": [],
            }),
        )
        .unwrap();
        let rules = puzzle.rules;
        assert_eq!(
            rules.cages,
            [
                Cage {
                    sum: Some(3),
                    cells: vec![cell(0, 0), cell(0, 1)]
                },
                Cage {
                    sum: None,
                    cells: vec![cell(1, 0)]
                },
                Cage {
                    sum: None,
                    cells: vec![cell(2, 0)]
                },
            ]
        );
        assert_eq!(rules.diagonals, [Diagonal::Anti]);
        assert!(rules.anti_knight && rules.anti_king);
        assert_eq!(
            rules.extra_regions,
            [vec![
                cell(0, 3),
                cell(0, 4),
                cell(0, 5),
                cell(1, 3),
                cell(1, 4),
                cell(1, 5)
            ]]
        );
        assert_eq!(rules.odd, [cell(5, 5)]);
        assert_eq!(rules.even, [cell(5, 4), cell(4, 4)]);
        assert_eq!(
            rules.thermometers,
            [
                vec![cell(3, 0), cell(3, 1), cell(3, 2)],
                vec![cell(4, 0), cell(4, 1)]
            ],
            "each line a thermometer, a lone bulb none"
        );
        assert_eq!(rules.regions, None);
        let plain = read(9, &json!({"diagonal-": true})).unwrap().rules;
        assert_eq!(plain.diagonals, [Diagonal::Main]);
        assert!(!plain.anti_knight && !plain.anti_king);
    }

    #[test]
    fn constraints_the_engine_does_not_know_are_named() {
        let mut grid = vec![vec![json!({}); 9]; 9];
        grid[4][4] = json!({"givenPencilMarks": [1, 2]});
        let refused = read(
            9,
            &json!({
                "grid": grid,
                "arrow": [{"lines": [["R1C1", "R1C2"]], "cells": ["R1C1"]}],
                "sandwichsum": [{"cell": "R0C1", "value": "5"}],
                "nonconsecutive": true,
                "killercage": [{"cells": ["R1C1"], "value": "5"}],
                "littlekillersum": [],
            }),
        );
        assert_eq!(
            refused,
            Err(FpuzzlesError::Unsupported(vec![
                "arrow".into(),
                "nonconsecutive".into(),
                "sandwichsum".into(),
                "givenPencilMarks".into(),
            ]))
        );
    }

    #[test]
    fn malformed_data_is_said_in_words() {
        for (text, expected) in [
            ("{\"size\": 9", "not valid JSON"),
            ("[1, 2]", "neither JSON nor an lz-string"),
            ("N4Ig!", "neither JSON nor an lz-string"),
            ("https://f-puzzles.com/?id=abcdef", "no \"load\" parameter"),
            ("https://f-puzzles.com/?load=N4%zz", "broken percent escape"),
            (
                "{\"size\": 3, \"grid\": []}",
                "\"size\" must be an integer from 4 to 25",
            ),
            (
                "{\"size\": 26, \"grid\": []}",
                "\"size\" must be an integer from 4 to 25",
            ),
            (
                "{\"size\": 4, \"grid\": [[]]}",
                "\"grid\" must be 4 rows of 4 cells",
            ),
        ] {
            match read_fpuzzles(text) {
                Err(FpuzzlesError::Invalid(message)) => {
                    assert!(message.contains(expected), "{text}: {message}");
                }
                other => panic!("{text}: {other:?}"),
            }
        }
        let mut grid = vec![vec![json!({}); 4]; 4];
        grid[1][2] = json!({"value": 5, "given": true});
        assert!(invalid(4, &json!({ "grid": grid })).contains("r2c3 has value 5"));
        let mut grid = vec![vec![json!({}); 4]; 4];
        grid[0][0] = json!({"region": 4});
        assert!(invalid(4, &json!({ "grid": grid })).contains("r1c1 has region 4"));
        for (extra, expected) in [
            (
                json!({"killercage": [{"cells": ["R5C1"]}]}),
                "killer cage 1: cell \"R5C1\" is off the 4x4 grid",
            ),
            (
                json!({"killercage": [{"cells": ["R1C1"], "value": "x"}]}),
                "killer cage 1 has sum \"x\"",
            ),
            (
                json!({"extraregion": [{"cells": "R1C1"}]}),
                "extra region 1 must have \"cells\"",
            ),
            (
                json!({"odd": [{"cell": "A1"}]}),
                "odd cell 1: \"A1\" is no cell name",
            ),
            (json!({"even": {}}), "\"even\" must be an array"),
            (
                json!({"thermometer": [{"cells": []}]}),
                "thermometer 1 must have \"lines\"",
            ),
            (json!({"killercage": ["R1C1"]}), "entry 1 of \"killercage\""),
        ] {
            let message = invalid(4, &extra);
            assert!(message.contains(expected), "{extra}: {message}");
        }
    }
}
