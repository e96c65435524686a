//! `/hint` and `/explain` on the wire: their requests, read strictly, and the one step
//! shape both answer with.
//!
//! Fields are 0-based (`row`, `col`, unit `index`), as everywhere on the wire; the
//! explanation's words are 1-based, as players say them (`r3c5`, `row 3`).

use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;

use super::board::{Board, BoardError, BoardFormat, kind_of};
use super::conflict::CellRef;
use super::generate::ParameterError;
use sudoku::logic::{ALL_DIGITS, Step, bit};
use sudoku::messages::{Language, Stage, technique_name};
use sudoku::{CELLS, CellName, Explanation, Hint, PencilMarks};

/// `{"board", "givens"?, "candidates"?}`: the body of `/hint`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HintRequest {
    /// The player's board, in any wire form.
    pub board: Value,
    /// The puzzle as it was given, in any wire form.
    #[serde(default, deserialize_with = "present")]
    pub givens: Option<Value>,
    /// The player's pencil marks: 81 lists of digits row by row, or 9 rows of 9.
    #[serde(default, deserialize_with = "present")]
    pub candidates: Option<Value>,
    /// Variant rules, which hints do not take yet: their presence is answered 422.
    #[serde(default, deserialize_with = "present")]
    pub rules: Option<Value>,
}

/// `{"board", "max_steps"?}`: the body of `/explain`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExplainRequest {
    /// The puzzle, in any wire form.
    pub board: Value,
    /// The most steps to explain; read by [`read_max_steps`].
    #[serde(default, deserialize_with = "present")]
    pub max_steps: Option<Value>,
    /// Variant rules, which explanations do not take yet: their presence is answered 422.
    #[serde(default, deserialize_with = "present")]
    pub rules: Option<Value>,
}

/// An optional field that, when present, is kept as sent: `null` included, which the
/// spec does not allow for these fields and is refused like any other wrong value (serde
/// would read it as absent).
fn present<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<Value>, D::Error> {
    Value::deserialize(deserializer).map(Some)
}

/// What a `/hint` request asks about, read into core types.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HintInput {
    /// The player's board.
    pub board: Board,
    /// The puzzle's givens, when sent.
    pub givens: Option<Board>,
    /// The player's pencil marks, when sent.
    pub marks: Option<PencilMarks>,
}

impl HintRequest {
    /// The board, givens and pencil marks of the request.
    ///
    /// # Errors
    /// Every [`BoardError`] found, each pointing at its field, row, cell or digit.
    pub fn read(&self) -> Result<HintInput, Vec<BoardError>> {
        let board = Board::from_json(&self.board, "/board");
        let givens = self
            .givens
            .as_ref()
            .map(|givens| Board::from_json(givens, "/givens"))
            .transpose();
        let marks = self.candidates.as_ref().map(read_candidates).transpose();
        match (board, givens, marks) {
            (Ok(board), Ok(givens), Ok(marks)) => Ok(HintInput {
                board,
                givens,
                marks,
            }),
            (board, givens, marks) => Err([board.err(), givens.err(), marks.err()]
                .into_iter()
                .flatten()
                .collect()),
        }
    }
}

/// Why a board does not fit its givens: the first given it changes or erases, pointed at
/// in the board as the board's form points at a cell.
pub fn given_changed(input: &HintInput, cell: usize) -> BoardError {
    let (row, col) = (cell / 9, cell % 9);
    let given = input.givens.map_or(0, |givens| givens.grid.cells()[cell]);
    let found = input.board.grid.cells()[cell];
    let pointer = match input.board.format {
        BoardFormat::String => "/board".to_owned(),
        BoardFormat::Chars | BoardFormat::Numbers => format!("/board/{row}/{col}"),
    };
    let change = if found == 0 {
        "leaves it empty".to_owned()
    } else {
        format!("has {found} there")
    };
    BoardError {
        pointer,
        row: Some(row),
        col: Some(col),
        message: format!(
            "the board does not keep the given {given} at {} (it {change}); \
             send the puzzle's givens unchanged",
            CellName(row * 9 + col)
        ),
    }
}

/// A cell's entry in `candidates`: `null` for a cell the player has not pencilled (every
/// digit), else the digits pencilled.
const NOT_PENCILLED: u16 = ALL_DIGITS;

/// Reads the player's pencil marks: 81 entries row by row, or 9 rows of 9; each entry a
/// list of digits 1-9 (repeats ignored, `[]` for a cell whose every mark was crossed out)
/// or `null` for a cell not pencilled at all.
///
/// # Errors
/// A [`BoardError`] at `/candidates`, or at the offending entry or digit.
pub fn read_candidates(value: &Value) -> Result<PencilMarks, BoardError> {
    const POINTER: &str = "/candidates";
    let shape = "candidates must be 81 lists of digits (row by row) or 9 rows of 9 lists";
    let Value::Array(entries) = value else {
        return Err(whole(POINTER, format!("{shape}; found {}", kind_of(value))));
    };
    let mut marks = [0u16; CELLS];
    match entries.len() {
        CELLS => {
            for (cell, entry) in entries.iter().enumerate() {
                marks[cell] = read_entry(entry, &format!("{POINTER}/{cell}"), cell)?;
            }
        }
        9 => {
            for (row, cells) in entries.iter().enumerate() {
                let pointer = format!("{POINTER}/{row}");
                let cells = match cells {
                    Value::Array(cells) if cells.len() == 9 => cells,
                    other => {
                        return Err(BoardError {
                            pointer,
                            row: Some(row),
                            col: None,
                            message: format!(
                                "candidates row {} must be 9 lists of digits, found {}",
                                row + 1,
                                describe_row(other)
                            ),
                        });
                    }
                };
                for (col, entry) in cells.iter().enumerate() {
                    let cell = row * 9 + col;
                    marks[cell] = read_entry(entry, &format!("{pointer}/{col}"), cell)?;
                }
            }
        }
        count => {
            return Err(whole(POINTER, format!("{shape}; found {count} entries")));
        }
    }
    Ok(marks)
}

fn read_entry(entry: &Value, pointer: &str, cell: usize) -> Result<u16, BoardError> {
    let (row, col) = (cell / 9, cell % 9);
    let name = CellName(cell);
    let at = |pointer: String, message: String| BoardError {
        pointer,
        row: Some(row),
        col: Some(col),
        message,
    };
    let digits = match entry {
        Value::Null => return Ok(NOT_PENCILLED),
        Value::Array(digits) => digits,
        other => {
            return Err(at(
                pointer.to_owned(),
                format!(
                    "candidates of {name} must be a list of digits 1-9 or null, found {}",
                    kind_of(other)
                ),
            ));
        }
    };
    let mut mask = 0;
    for (i, digit) in digits.iter().enumerate() {
        // Whole floats are integers in JSON, as in a board.
        let value = digit.as_u64().or_else(|| {
            digit
                .as_f64()
                .filter(|f| f.fract() == 0.0 && (1.0..=9.0).contains(f))
                .map(|f| f as u64)
        });
        match value {
            Some(d @ 1..=9) => mask |= bit(d as u8),
            _ => {
                return Err(at(
                    format!("{pointer}/{i}"),
                    format!("candidates of {name}: {digit} is not a digit from 1 to 9"),
                ));
            }
        }
    }
    Ok(mask)
}

fn whole(pointer: &str, message: String) -> BoardError {
    BoardError {
        pointer: pointer.to_owned(),
        row: None,
        col: None,
        message,
    }
}

fn describe_row(value: &Value) -> String {
    match value {
        Value::Array(cells) => format!("{} entries", cells.len()),
        other => kind_of(other).to_owned(),
    }
}

/// The steps `/explain` takes unless told otherwise, and the most it takes: the grader's
/// step budget, which no puzzle needs all of.
///
/// # Errors
/// A [`ParameterError`] for `max_steps` when it is not an integer from 1 to `limit`.
pub fn read_max_steps(value: Option<&Value>, limit: usize) -> Result<usize, ParameterError> {
    let Some(value) = value else {
        return Ok(limit);
    };
    let steps = value.as_u64().or_else(|| {
        value
            .as_f64()
            .filter(|f| f.fract() == 0.0 && *f >= 0.0 && *f <= u64::MAX as f64)
            .map(|f| f as u64)
    });
    match steps {
        Some(steps @ 1..) if usize::try_from(steps).is_ok_and(|s| s <= limit) => Ok(steps as usize),
        _ => Err(ParameterError {
            parameter: "max_steps".into(),
            message: format!("max_steps {value} is not an integer from 1 to {limit}"),
        }),
    }
}

/// A candidate on the wire: a cell and a digit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct CandidateRef {
    /// 0-based row.
    pub row: usize,
    /// 0-based column.
    pub col: usize,
    /// The digit, 1-9.
    pub digit: u8,
}

impl From<(usize, u8)> for CandidateRef {
    fn from((cell, digit): (usize, u8)) -> Self {
        CandidateRef {
            row: cell / 9,
            col: cell % 9,
            digit,
        }
    }
}

/// A unit on the wire, named as conflicts name theirs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct UnitRef {
    /// `row`, `column` or `box`.
    pub unit: &'static str,
    /// Which one, 0-8 (boxes row by row from the top left).
    pub index: usize,
}

impl UnitRef {
    /// The wire form of a core unit number (0..9 rows, 9..18 columns, 18..27 boxes).
    pub fn of(unit: usize) -> UnitRef {
        let kinds = ["row", "column", "box"];
        UnitRef {
            unit: kinds[unit / 9 % 3],
            index: unit % 9,
        }
    }
}

/// What to highlight: the cells a step looks at, and the units it reasons about.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Highlights {
    /// Cells, in the step's order, without repeats.
    pub cells: Vec<CellRef>,
    /// Units.
    pub units: Vec<UnitRef>,
}

/// One stage of a hint: what a page shows at one press, giving away a little more than the
/// stage before it.
#[derive(Debug, Clone, Serialize)]
pub struct StageBody {
    /// `nudge`, `technique`, `cells` or `answer`.
    pub kind: &'static str,
    /// The sentence to show.
    pub text: String,
    /// Cells and units to highlight with it.
    pub highlights: Highlights,
}

impl StageBody {
    /// The body of a stage before the answer, with its sentence.
    pub fn of(stage: &Stage, text: String) -> StageBody {
        StageBody {
            kind: stage.kind.name(),
            text,
            highlights: Highlights {
                cells: cells_of(&stage.cells),
                units: stage.units.iter().copied().map(UnitRef::of).collect(),
            },
        }
    }
}

/// The words of a hint in one language: its sentence, one for each of its reasons, and
/// its stages before the answer.
#[derive(Debug, Clone)]
pub struct HintWords {
    /// The language they are in.
    pub language: Language,
    /// The hint's sentence.
    pub explanation: String,
    /// One sentence for each reason (see [`sudoku::messages::describe_reasons`]).
    pub reasons: Vec<String>,
    /// The stages before the answer (see [`sudoku::messages::describe_stages`]).
    pub stages: Vec<StageBody>,
}

/// The answer of `/hint`, and one step of `/explain`.
#[derive(Debug, Clone, Serialize)]
pub struct StepBody {
    /// `step`, `mistake`, `pencil_marks`, `solved` or `stuck`.
    pub kind: &'static str,
    /// The technique's stable name, for a step; `null` otherwise.
    pub technique: Option<&'static str>,
    /// The technique's name as people say it, for a step; `null` otherwise.
    pub technique_name: Option<&'static str>,
    /// The step's SE rating, for a step; `null` otherwise.
    pub rating: Option<f64>,
    /// Digits placed (for `stuck`, the one revealed).
    pub placements: Vec<CandidateRef>,
    /// Candidates removed.
    pub eliminations: Vec<CandidateRef>,
    /// Cells and units to highlight.
    pub highlights: Highlights,
    /// The sentence to show.
    pub explanation: String,
    /// For a player without pencil marks: the eliminations the placement needs, each a
    /// step with its sentence; left out when there are none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub because: Vec<StepBody>,
    /// For a hint: what to show one press after another, the answer last; left out of
    /// `/explain`'s steps.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub stages: Vec<StageBody>,
}

impl StepBody {
    /// The body of `hint` in `words`, its stages ending with the answer: its sentence and
    /// its highlights.
    pub fn of_hint(hint: &Hint, words: HintWords) -> StepBody {
        let HintWords {
            language,
            explanation,
            reasons,
            mut stages,
        } = words;
        let plain = |kind, cells: Vec<usize>, placements: Vec<(usize, u8)>| StepBody {
            kind,
            technique: None,
            technique_name: None,
            rating: None,
            placements: placements.into_iter().map(CandidateRef::from).collect(),
            eliminations: Vec::new(),
            highlights: Highlights {
                cells: cells_of(&cells),
                units: Vec::new(),
            },
            explanation: explanation.clone(),
            because: Vec::new(),
            stages: Vec::new(),
        };
        let mut body = match hint {
            Hint::Step(step) => StepBody::of_step(step, explanation.clone(), language),
            Hint::Deduction { because, placement } => {
                // The whole argument in one text, for a client that shows only that.
                let mut whole = reasons.join(" ");
                whole.push(' ');
                whole.push_str(&explanation);
                StepBody {
                    because: because
                        .iter()
                        .zip(reasons)
                        .map(|(step, sentence)| StepBody::of_step(step, sentence, language))
                        .collect(),
                    ..StepBody::of_step(placement, whole, language)
                }
            }
            Hint::Solved => plain("solved", Vec::new(), Vec::new()),
            Hint::WrongDigit { cell } => plain("mistake", vec![*cell], Vec::new()),
            Hint::WrongPencilMarks { cell } => plain("pencil_marks", vec![*cell], Vec::new()),
            Hint::Stuck { reveal } => plain("stuck", vec![reveal.0], vec![*reveal]),
        };
        stages.push(StageBody {
            kind: "answer",
            text: body.explanation.clone(),
            highlights: body.highlights.clone(),
        });
        body.stages = stages;
        body
    }

    /// The body of one logical step, with its sentence, the technique named in `language`.
    pub fn of_step(step: &Step, explanation: String, language: Language) -> StepBody {
        StepBody {
            kind: "step",
            technique: Some(step.technique.name()),
            technique_name: Some(technique_name(step.technique, language)),
            rating: Some(step.rating.value()),
            placements: step
                .placements
                .iter()
                .copied()
                .map(CandidateRef::from)
                .collect(),
            eliminations: step
                .eliminations
                .iter()
                .copied()
                .map(CandidateRef::from)
                .collect(),
            highlights: Highlights {
                cells: cells_of(&step.cells),
                units: step.units.iter().copied().map(UnitRef::of).collect(),
            },
            explanation,
            because: Vec::new(),
            stages: Vec::new(),
        }
    }
}

/// Cells on the wire, first occurrence kept (a chain visits a cell twice).
fn cells_of(cells: &[usize]) -> Vec<CellRef> {
    let mut seen = 0u128;
    cells
        .iter()
        .filter(|&&c| {
            let new = seen >> c & 1 == 0;
            seen |= 1 << c;
            new
        })
        .map(|&c| CellRef {
            row: c / 9,
            col: c % 9,
        })
        .collect()
}

/// The answer of `/explain`.
#[derive(Debug, Serialize)]
pub struct ExplainResponse {
    /// The hardest step's SE rating (a lower bound when not `solved`).
    pub rating: f64,
    /// The difficulty `/grade` gives.
    pub difficulty: &'static str,
    /// Whether the steps fill the grid.
    pub solved: bool,
    /// The steps, in order.
    pub steps: Vec<StepBody>,
}

impl ExplainResponse {
    /// The answer for `explanation`, with one sentence per step in `language`.
    pub fn new(
        explanation: &Explanation,
        sentences: Vec<String>,
        language: Language,
    ) -> ExplainResponse {
        ExplainResponse {
            rating: explanation.rating.value(),
            difficulty: explanation.difficulty.as_str(),
            solved: explanation.solved,
            steps: explanation
                .steps
                .iter()
                .zip(sentences)
                .map(|(step, sentence)| StepBody::of_step(step, sentence, language))
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn refused(value: &Value) -> BoardError {
        read_candidates(value).expect_err("refused")
    }

    #[test]
    fn candidates_come_flat_or_in_rows_and_null_means_not_pencilled() {
        let mut flat = vec![json!(null); 81];
        flat[10] = json!([3, 1, 3]);
        flat[80] = json!([]);
        let marks = read_candidates(&Value::Array(flat.clone())).unwrap();
        assert_eq!(marks[10], bit(1) | bit(3));
        assert_eq!(marks[80], 0);
        assert_eq!(marks[0], ALL_DIGITS);
        let rows: Vec<Value> = flat
            .chunks(9)
            .map(|row| Value::Array(row.to_vec()))
            .collect();
        assert_eq!(read_candidates(&Value::Array(rows)).unwrap(), marks);
        let mut floats = vec![json!([]); 81];
        floats[0] = json!([5.0]);
        assert_eq!(read_candidates(&Value::Array(floats)).unwrap()[0], bit(5));
    }

    #[test]
    fn bad_candidates_are_pointed_at() {
        let mut digits = vec![json!([]); 81];
        digits[20] = json!([1, 10]);
        let cases = [
            (json!("123"), "/candidates", None, None),
            (json!(vec![json!([]); 80]), "/candidates", None, None),
            (Value::Array(digits), "/candidates/20/1", Some(2), Some(2)),
            (
                json!(
                    vec![vec![json!([]); 9]; 8]
                        .into_iter()
                        .chain([vec![json!([]); 8]])
                        .collect::<Vec<_>>()
                ),
                "/candidates/8",
                Some(8),
                None,
            ),
        ];
        for (value, pointer, row, col) in cases {
            let err = refused(&value);
            assert_eq!(
                (err.pointer.as_str(), err.row, err.col),
                (pointer, row, col),
                "{value}: {err}"
            );
        }
        for bad in [json!(0), json!(-1), json!(1.5), json!("1"), json!(null)] {
            let mut entries = vec![json!([]); 81];
            entries[0] = json!([bad]);
            let err = refused(&Value::Array(entries));
            assert_eq!(err.pointer, "/candidates/0/0", "{bad}");
        }
        let mut entries = vec![json!([]); 81];
        entries[5] = json!({"a": 1});
        assert_eq!(refused(&Value::Array(entries)).pointer, "/candidates/5");
    }

    #[test]
    fn max_steps_defaults_to_the_limit_and_is_bounded_by_it() {
        assert_eq!(read_max_steps(None, 1000), Ok(1000));
        assert_eq!(read_max_steps(Some(&json!(7)), 1000), Ok(7));
        assert_eq!(read_max_steps(Some(&json!(7.0)), 1000), Ok(7));
        for bad in [
            json!(0),
            json!(1001),
            json!(-3),
            json!(2.5),
            json!("5"),
            json!(null),
        ] {
            // (null reaches here: a field sent as null is present, see `present`.)
            let err = read_max_steps(Some(&bad), 1000).expect_err("refused");
            assert_eq!(err.parameter, "max_steps", "{bad}");
            assert!(err.message.contains("1 to 1000"), "{bad}: {err}");
        }
    }

    #[test]
    fn a_field_sent_as_null_is_present_not_absent() {
        let request: HintRequest =
            serde_json::from_value(json!({"board": "x", "givens": null})).unwrap();
        assert_eq!(request.givens, Some(Value::Null));
        assert_eq!(request.candidates, None);
        let request: ExplainRequest =
            serde_json::from_value(json!({"board": "x", "max_steps": null})).unwrap();
        assert_eq!(request.max_steps, Some(Value::Null));
    }

    #[test]
    fn units_are_named_as_conflicts_name_them() {
        assert_eq!(
            UnitRef::of(2),
            UnitRef {
                unit: "row",
                index: 2
            }
        );
        assert_eq!(
            UnitRef::of(13),
            UnitRef {
                unit: "column",
                index: 4
            }
        );
        assert_eq!(
            UnitRef::of(26),
            UnitRef {
                unit: "box",
                index: 8
            }
        );
        assert_eq!(
            sudoku::Unit::ALL.map(sudoku::Unit::name),
            ["row", "column", "box"]
        );
    }
}
