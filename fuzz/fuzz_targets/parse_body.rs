//! Arbitrary bytes as the body of `/solve` or `/validate`, read exactly as the server
//! reads them: `parse_json::<BoardRequest>`, then `BoardRequest::board` for a classic
//! board, or `http::puzzle::request_input` for the general engine (a board of any side and
//! its rules, or f-puzzles data).
#![no_main]

use libfuzzer_sys::fuzz_target;
use sudoku_service::http::ApiError;
use sudoku_service::http::extract::parse_json;
use sudoku_service::http::puzzle::request_input;
use sudoku_service::http::wire::{Board, BoardRequest, SizedBoard};

fuzz_target!(|data: &[u8]| {
    let error = match parse_json::<BoardRequest>(data) {
        Ok(request) if request.is_variant() => match request_input(&request) {
            Ok((board, _)) => {
                let rendered = board.render(&board.cells);
                let again =
                    SizedBoard::from_json(&rendered, "/board").expect("a rendered board parses");
                assert_eq!(again, board, "render/parse round trip");
                return;
            }
            Err(error) => error,
        },
        Ok(request) => match request
            .check_members()
            .map_err(ApiError::InvalidRequest)
            .and_then(|()| request.board().map_err(ApiError::from))
        {
            Ok(board) => {
                // What the server would answer in the caller's form reads back the same.
                let rendered = board.render(&board.grid);
                let again = Board::from_json(&rendered, "/board").expect("a rendered board parses");
                assert_eq!(again, board, "render/parse round trip");
                return;
            }
            Err(error) => error,
        },
        Err(error) => error,
    };
    check_problem(&error);
});

/// Every rejection is a documented problem with a stable code and a non-empty detail: a
/// 400, or a 422 for f-puzzles constraints the engine does not know.
fn check_problem(error: &ApiError) {
    assert!(
        matches!(
            (error.status().as_u16(), error.code()),
            (
                400,
                "invalid_json"
                    | "invalid_request"
                    | "invalid_board"
                    | "invalid_rules"
                    | "invalid_fpuzzles"
            ) | (422, "unsupported_rules")
        ),
        "{error:?}"
    );
    let problem = error.to_problem();
    assert!(!problem.detail.trim().is_empty(), "{error:?}");
    let json = serde_json::to_vec(&problem).expect("a problem serializes");
    assert!(serde_json::from_slice::<serde_json::Value>(&json).is_ok());
}
