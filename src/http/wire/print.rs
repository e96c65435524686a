//! The bodies and queries of `/render` and `/booklet`: what picture or booklet is asked
//! for, read strictly, each fault named by its member or parameter.

use serde::Deserialize;
use serde_json::Value;
use sudoku::Difficulty;
use sudoku::variant::char_digit;
use sudoku_print::{Booklet, Paper, Show, Solutions};

use super::board::kind_of;
use super::generate::{checked_pairs, parse_bool, parse_seed};
use super::variant::present;
use super::{BoardError, BoardRequest, ParameterError, RulesBody, WireBoard};

/// The narrowest picture `/render` draws, in pixels.
pub const MIN_SIZE_PX: u32 = 100;
/// The widest picture `/render` draws, in pixels: a PNG of two boards this wide is some
/// 13 MB of pixels while it is drawn.
pub const MAX_SIZE_PX: u32 = 2400;
/// The width of a picture when the request names none.
pub const DEFAULT_SIZE_PX: u32 = 600;
/// The longest title, in characters.
pub const MAX_TITLE_CHARS: usize = 200;
/// Most puzzles a `GET /booklet` generates.
pub const MAX_BOOKLET_COUNT: usize = 200;
/// Most boards a `POST /booklet` may carry: each is solved and graded.
pub const MAX_BOOKLET_BOARDS: usize = 100;

/// The picture's format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RenderFormat {
    /// `image/svg+xml`.
    Svg,
    /// `image/png`.
    Png,
    /// `application/pdf`, one page.
    Pdf,
}

impl RenderFormat {
    /// The content type of the answer.
    pub fn content_type(self) -> &'static str {
        match self {
            RenderFormat::Svg => "image/svg+xml",
            RenderFormat::Png => "image/png",
            RenderFormat::Pdf => "application/pdf",
        }
    }
}

/// What the picture shows, on the wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ShowBody {
    /// The puzzle.
    #[default]
    Puzzle,
    /// Its solution.
    Solution,
    /// Both, side by side.
    Both,
}

impl From<ShowBody> for Show {
    fn from(show: ShowBody) -> Show {
        match show {
            ShowBody::Puzzle => Show::Puzzle,
            ShowBody::Solution => Show::Solution,
            ShowBody::Both => Show::Both,
        }
    }
}

/// The body of `POST /render`: a puzzle as `/solve` takes it, and how to draw it.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RenderRequest {
    /// The board in any wire form and size.
    #[serde(default, deserialize_with = "present")]
    pub board: Option<WireBoard>,
    /// Its rules, when any.
    #[serde(default, deserialize_with = "present")]
    pub rules: Option<RulesBody>,
    /// The puzzle as f-puzzles shares it, instead of `board` and `rules`.
    #[serde(default, deserialize_with = "present")]
    pub fpuzzles: Option<String>,
    /// SVG, PNG or PDF.
    pub format: RenderFormat,
    /// The picture's width in pixels (PDF: in points).
    #[serde(default, deserialize_with = "present")]
    pub size_px: Option<u32>,
    /// What it shows (default the puzzle).
    #[serde(default, deserialize_with = "present")]
    pub show: Option<ShowBody>,
    /// Pencil marks to draw in the empty cells.
    #[serde(default, deserialize_with = "present")]
    pub candidates: Option<Value>,
    /// A line above the board.
    #[serde(default, deserialize_with = "present")]
    pub title: Option<String>,
}

/// How a checked `/render` request draws its puzzle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RenderOptions {
    /// The format.
    pub format: RenderFormat,
    /// The width in pixels.
    pub size_px: u32,
    /// What it shows.
    pub show: Show,
    /// The title, trimmed, when there is one.
    pub title: Option<String>,
}

impl RenderRequest {
    /// Splits the request into the puzzle, read as `/solve` reads it, and how to draw it.
    ///
    /// # Errors
    /// `invalid_request` naming `/size_px` or `/title` out of their bounds.
    pub fn split(self) -> Result<(BoardRequest, RenderOptions, Option<Value>), BoardError> {
        let size_px = self.size_px.unwrap_or(DEFAULT_SIZE_PX);
        if !(MIN_SIZE_PX..=MAX_SIZE_PX).contains(&size_px) {
            return Err(BoardError::whole(
                "/size_px",
                format!("size_px must be from {MIN_SIZE_PX} to {MAX_SIZE_PX}, found {size_px}"),
            ));
        }
        let title = read_title(self.title.as_deref(), "/title")?;
        Ok((
            BoardRequest {
                board: self.board,
                rules: self.rules,
                fpuzzles: self.fpuzzles,
            },
            RenderOptions {
                format: self.format,
                size_px,
                show: self.show.unwrap_or_default().into(),
                title,
            },
            self.candidates,
        ))
    }
}

fn read_title(title: Option<&str>, pointer: &str) -> Result<Option<String>, BoardError> {
    let Some(title) = title.map(str::trim).filter(|t| !t.is_empty()) else {
        return Ok(None);
    };
    let length = title.chars().count();
    if length > MAX_TITLE_CHARS {
        return Err(BoardError::whole(
            pointer,
            format!("a title may have up to {MAX_TITLE_CHARS} characters, found {length}"),
        ));
    }
    Ok(Some(title.to_owned()))
}

/// Reads pencil marks for a board of `size`: `size * size` entries row by row, or `size`
/// rows of `size`; each entry a list of digits (numbers 1 to `size`, or their characters
/// as strings, `"A"` for 10) or `null` for a cell with none.
///
/// # Errors
/// A [`BoardError`] at `/candidates`, or at the entry or digit at fault.
pub fn read_render_candidates(value: &Value, size: usize) -> Result<Vec<u32>, BoardError> {
    const POINTER: &str = "/candidates";
    let cells = size * size;
    let shape = format!(
        "candidates must be {cells} lists of digits (row by row) or {size} rows of {size} lists"
    );
    let Value::Array(entries) = value else {
        return Err(BoardError::whole(
            POINTER,
            format!("{shape}; found {}", kind_of(value)),
        ));
    };
    let mut marks = vec![0u32; cells];
    if entries.len() == cells {
        for (cell, entry) in entries.iter().enumerate() {
            marks[cell] = read_marks(entry, &format!("{POINTER}/{cell}"), size)?;
        }
    } else if entries.len() == size {
        for (row, cells) in entries.iter().enumerate() {
            let pointer = format!("{POINTER}/{row}");
            let cells = match cells {
                Value::Array(cells) if cells.len() == size => cells,
                other => {
                    return Err(BoardError::whole(
                        &pointer,
                        format!(
                            "candidates row {} must be {size} lists of digits, found {}",
                            row + 1,
                            kind_of(other)
                        ),
                    ));
                }
            };
            for (col, entry) in cells.iter().enumerate() {
                marks[row * size + col] = read_marks(entry, &format!("{pointer}/{col}"), size)?;
            }
        }
    } else {
        return Err(BoardError::whole(
            POINTER,
            format!("{shape}; found {} entries", entries.len()),
        ));
    }
    Ok(marks)
}

fn read_marks(entry: &Value, pointer: &str, size: usize) -> Result<u32, BoardError> {
    let digits = match entry {
        Value::Null => return Ok(0),
        Value::Array(digits) => digits,
        other => {
            return Err(BoardError::whole(
                pointer,
                format!(
                    "a cell's candidates must be a list of digits or null, found {}",
                    kind_of(other)
                ),
            ));
        }
    };
    let mut mask = 0;
    for (i, digit) in digits.iter().enumerate() {
        let value = match digit {
            Value::Number(n) => n.as_u64().filter(|&d| (1..=size as u64).contains(&d)),
            Value::String(s) => {
                let mut chars = s.chars();
                match (chars.next(), chars.next()) {
                    (Some(c), None) => char_digit(c, size).filter(|&d| d != 0).map(u64::from),
                    _ => None,
                }
            }
            _ => None,
        };
        let Some(value) = value else {
            return Err(BoardError::whole(
                &format!("{pointer}/{i}"),
                format!("a candidate must be a digit from 1 to {size}, found {digit}"),
            ));
        };
        mask |= 1 << value;
    }
    Ok(mask)
}

/// The query of `GET /booklet`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BookletQuery {
    /// Puzzles to generate, 1 to [`MAX_BOOKLET_COUNT`].
    pub count: usize,
    /// Their difficulty; any when absent.
    pub difficulty: Option<Difficulty>,
    /// The seed of the first; drawn when absent.
    pub seed: Option<u64>,
    /// The layout.
    pub booklet: Booklet,
}

const BOOKLET_PARAMETERS: [&str; 8] = [
    "count",
    "difficulty",
    "seed",
    "per_page",
    "paper",
    "large_print",
    "solutions",
    "title",
];

impl BookletQuery {
    /// Reads the decoded `name=value` pairs of a query string.
    ///
    /// # Errors
    /// A [`ParameterError`] naming the first parameter that is unknown, repeated, or whose
    /// value is not one it takes.
    pub fn from_pairs(pairs: &[(String, String)]) -> Result<BookletQuery, ParameterError> {
        let mut query = BookletQuery {
            count: 10,
            difficulty: None,
            seed: None,
            booklet: Booklet::default(),
        };
        for (name, value) in checked_pairs(pairs, &BOOKLET_PARAMETERS)? {
            let error = ParameterError::of(name);
            match name {
                "count" => {
                    query.count = value
                        .parse()
                        .ok()
                        .filter(|n| (1..=MAX_BOOKLET_COUNT).contains(n))
                        .ok_or_else(|| {
                            error(format!(
                                "count {value:?} is not a whole number from 1 to {MAX_BOOKLET_COUNT}"
                            ))
                        })?;
                }
                "difficulty" => {
                    query.difficulty = Some(value.parse().map_err(|e| error(format!("{e}")))?);
                }
                "seed" => query.seed = Some(parse_seed(value).map_err(error)?),
                "large_print" => query.booklet.large_print = parse_bool(value).map_err(error)?,
                "title" => {
                    query.booklet.title = read_title(Some(value), "title")
                        .map_err(|e| error(e.message))?
                        .unwrap_or_else(|| Booklet::default().title);
                }
                other => apply_layout(&mut query.booklet, other, value).map_err(error)?,
            }
        }
        Ok(query)
    }
}

/// Sets `per_page`, `paper` or `solutions` of `booklet` from its text.
fn apply_layout(booklet: &mut Booklet, name: &str, value: &str) -> Result<(), String> {
    match name {
        "per_page" => {
            booklet.per_page = match value {
                "1" => 1,
                "2" => 2,
                "4" => 4,
                "6" => 6,
                _ => return Err(format!("per_page {value:?} must be 1, 2, 4 or 6")),
            };
        }
        "paper" => {
            booklet.paper = match value {
                "a4" => Paper::A4,
                "letter" => Paper::Letter,
                _ => return Err(format!("paper {value:?} must be a4 or letter")),
            };
        }
        _ => {
            booklet.solutions = match value {
                "back" => Solutions::Back,
                "none" => Solutions::None,
                _ => return Err(format!("solutions {value:?} must be back or none")),
            };
        }
    }
    Ok(())
}

/// The body of `POST /booklet`: boards, the rules they share, and the layout.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BookletRequest {
    /// 1 to [`MAX_BOOKLET_BOARDS`] boards in any wire form (or f-puzzles entries).
    pub boards: Vec<WireBoard>,
    /// Rules for every board, when there are any.
    #[serde(default, deserialize_with = "present")]
    pub rules: Option<RulesBody>,
    /// 1, 2, 4 or 6 (default 4).
    #[serde(default, deserialize_with = "present")]
    pub per_page: Option<u8>,
    /// `a4` or `letter` (default `a4`).
    #[serde(default, deserialize_with = "present")]
    pub paper: Option<String>,
    /// Bigger print (default false).
    #[serde(default, deserialize_with = "present")]
    pub large_print: Option<bool>,
    /// `back` or `none` (default `back`).
    #[serde(default, deserialize_with = "present")]
    pub solutions: Option<String>,
    /// The heading of the puzzle pages (default "Sudoku").
    #[serde(default, deserialize_with = "present")]
    pub title: Option<String>,
}

impl BookletRequest {
    /// The layout the body asks for.
    ///
    /// # Errors
    /// `invalid_request` naming the member out of its values, or a count of boards out of
    /// bounds.
    pub fn booklet(&self) -> Result<Booklet, BoardError> {
        let count = self.boards.len();
        if count == 0 || count > MAX_BOOKLET_BOARDS {
            return Err(BoardError::whole(
                "/boards",
                format!("\"boards\" must hold 1 to {MAX_BOOKLET_BOARDS} boards, found {count}"),
            ));
        }
        let mut booklet = Booklet::default();
        let members = [
            ("per_page", self.per_page.map(|n| n.to_string())),
            ("paper", self.paper.clone()),
            ("solutions", self.solutions.clone()),
        ];
        for (name, value) in members {
            if let Some(value) = value {
                apply_layout(&mut booklet, name, &value)
                    .map_err(|message| BoardError::whole(&format!("/{name}"), message))?;
            }
        }
        booklet.large_print = self.large_print.unwrap_or(false);
        if let Some(title) = read_title(self.title.as_deref(), "/title")? {
            booklet.title = title;
        }
        Ok(booklet)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::http::wire::generate::test_pairs as pairs;
    use serde_json::json;

    #[test]
    fn a_booklet_query_reads_every_parameter() {
        let query = BookletQuery::from_pairs(&pairs(&[
            ("count", "12"),
            ("difficulty", "hard"),
            ("seed", "7"),
            ("per_page", "6"),
            ("paper", "letter"),
            ("large_print", "true"),
            ("solutions", "none"),
        ]))
        .unwrap();
        assert_eq!(query.count, 12);
        assert_eq!(query.difficulty, Some(Difficulty::Hard));
        assert_eq!(query.seed, Some(7));
        assert_eq!(query.booklet.per_page, 6);
        assert_eq!(query.booklet.paper, Paper::Letter);
        assert!(query.booklet.large_print);
        assert_eq!(query.booklet.solutions, Solutions::None);
    }

    #[test]
    fn a_booklet_query_names_the_parameter_at_fault() {
        for (query, parameter) in [
            (vec![("count", "0")], "count"),
            (vec![("count", "201")], "count"),
            (vec![("per_page", "3")], "per_page"),
            (vec![("paper", "a3")], "paper"),
            (vec![("solutions", "front")], "solutions"),
            (vec![("difficulty", "tough")], "difficulty"),
            (vec![("colour", "red")], "colour"),
            (vec![("seed", "1"), ("seed", "2")], "seed"),
        ] {
            let error = BookletQuery::from_pairs(&pairs(&query)).unwrap_err();
            assert_eq!(error.parameter, parameter, "{query:?}");
        }
    }

    #[test]
    fn candidates_read_for_any_size_as_lists_or_rows() {
        let mut flat = vec![Value::Null; 16];
        flat[5] = json!([1, "4"]);
        let marks = read_render_candidates(&Value::Array(flat), 4).unwrap();
        assert_eq!(marks[5], (1 << 1) | (1 << 4));
        let rows: Vec<Value> = (0..16).map(|_| json!(vec![json!(["A", 16]); 16])).collect();
        let marks = read_render_candidates(&Value::Array(rows), 16).unwrap();
        assert!(marks.iter().all(|&m| m == (1 << 10) | (1 << 16)));
    }

    #[test]
    fn a_candidate_past_the_side_is_located() {
        let mut flat = vec![Value::Null; 81];
        flat[3] = json!([2, 10]);
        let error = read_render_candidates(&Value::Array(flat), 9).unwrap_err();
        assert_eq!(error.pointer, "/candidates/3/1");
    }
}
