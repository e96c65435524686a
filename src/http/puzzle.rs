//! A request's puzzle for the general engine, read and checked: a board and its rules, or
//! f-puzzles data. The handlers, the fuzz targets and the `solve` command's JSON lines read
//! puzzles through here alike, and get the same [`ApiError`] for the same fault.

use serde_json::Value;
use sudoku::variant::{Puzzle, Rules};

use super::error::ApiError;
use super::wire::fpuzzles::{FpuzzlesError, read_fpuzzles};
use super::wire::{
    BoardError, BoardRequest, RulesBody, RulesFault, SizedBoard, WireBoard, read_puzzle,
};

/// The rules of a request, checked for what they must be on any board.
///
/// # Errors
/// `invalid_rules`, naming the member out of its range.
pub fn checked_rules(rules: Option<&RulesBody>) -> Result<Option<Rules>, ApiError> {
    rules
        .map(|rules| {
            rules.check_shape().map_err(ApiError::InvalidRules)?;
            Ok(rules.to_rules())
        })
        .transpose()
}

/// A board of any size and its rules, read and checked for the general engine; board
/// errors are located under `pointer`.
///
/// # Errors
/// `invalid_board` or `invalid_rules`, naming the member at fault.
pub fn variant_input(
    board: &WireBoard,
    rules: &Rules,
    pointer: impl Fn() -> String,
) -> Result<(SizedBoard, Puzzle), ApiError> {
    let sized = board.read_sized(&pointer)?;
    let puzzle = read_puzzle(&sized, rules, &pointer()).map_err(|(error, fault)| match fault {
        RulesFault::Board => ApiError::InvalidBoard(vec![error]),
        RulesFault::Rules => ApiError::InvalidRules(error),
    })?;
    Ok((sized, puzzle))
}

/// An f-puzzles string read and checked for the general engine; its errors point at
/// `pointer`, the member that held it.
///
/// # Errors
/// `invalid_fpuzzles` for data that is no puzzle (rules that do not fit its grid among
/// them), `unsupported_rules` naming the constraints the engine does not know.
pub fn fpuzzles_input(text: &str, pointer: &str) -> Result<(SizedBoard, Puzzle), ApiError> {
    let invalid = |message: String| ApiError::InvalidFpuzzles(BoardError::whole(pointer, message));
    let fpuzzle = read_fpuzzles(text).map_err(|error| match error {
        FpuzzlesError::Invalid(message) => invalid(message),
        FpuzzlesError::Unsupported(names) => ApiError::UnsupportedConstraints(names),
    })?;
    let puzzle = Puzzle::new(fpuzzle.board.cells.clone(), &fpuzzle.rules).map_err(|error| {
        invalid(format!(
            "the f-puzzles rules do not fit its grid: {}",
            error.message
        ))
    })?;
    Ok((fpuzzle.board, puzzle))
}

/// The puzzle of a `/solve` or `/validate` body for the general engine, whichever way it
/// was sent.
///
/// # Errors
/// `invalid_request` for a body with no puzzle or two, then as [`variant_input`] or
/// [`fpuzzles_input`] say.
pub fn request_input(request: &BoardRequest) -> Result<(SizedBoard, Puzzle), ApiError> {
    request.check_members().map_err(ApiError::InvalidRequest)?;
    match (&request.board, request.fpuzzles.as_deref()) {
        (Some(board), _) => {
            let rules = checked_rules(request.rules.as_ref())?.unwrap_or_default();
            variant_input(board, &rules, || "/board".to_owned())
        }
        // check_members has seen to it that the data is there.
        (None, text) => fpuzzles_input(text.unwrap_or_default(), "/fpuzzles"),
    }
}

/// Board `index` of a batch for the general engine: a board under the batch's `rules`, or
/// an entry `{"fpuzzles": F}`, which carries its own.
///
/// # Errors
/// `invalid_request` for an f-puzzles entry with other members, of the wrong type, or in
/// a batch with rules; then as [`variant_input`] or [`fpuzzles_input`] say.
pub fn batch_input(
    board: &WireBoard,
    rules: Option<&Rules>,
    index: usize,
) -> Result<(SizedBoard, Puzzle), ApiError> {
    let pointer = format!("/boards/{index}");
    let Some(entry) = board.fpuzzles_entry() else {
        return variant_input(board, rules.unwrap_or(&Rules::default()), || {
            pointer.clone()
        });
    };
    let wrong = |member: &str, message: String| {
        ApiError::InvalidRequest(BoardError::whole(&format!("{pointer}/{member}"), message))
    };
    if let Some(other) = entry.keys().find(|name| *name != "fpuzzles") {
        return Err(wrong(
            &other.replace('~', "~0").replace('/', "~1"),
            format!("unknown member \"{other}\", expected \"fpuzzles\" alone"),
        ));
    }
    if rules.is_some() {
        return Err(wrong(
            "fpuzzles",
            "an f-puzzles entry carries its own rules; send it in a batch without \"rules\""
                .to_owned(),
        ));
    }
    match &entry["fpuzzles"] {
        Value::String(text) => fpuzzles_input(text, &format!("{pointer}/fpuzzles")),
        _ => Err(wrong(
            "fpuzzles",
            "\"fpuzzles\" must be a string: f-puzzles JSON, its share link or the link's \
             payload"
                .to_owned(),
        )),
    }
}
