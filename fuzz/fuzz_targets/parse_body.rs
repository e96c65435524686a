//! Arbitrary bytes as the body of `/solve` or `/validate`, read exactly as the server
//! reads them: `parse_json::<BoardRequest>`, then `BoardRequest::board` for a classic
//! board, or the board of any side and its rules for the general engine.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sudoku_service::http::ApiError;
use sudoku_service::http::extract::parse_json;
use sudoku_service::http::wire::{Board, BoardRequest, RulesFault, SizedBoard, read_puzzle};

fuzz_target!(|data: &[u8]| {
    let error = match parse_json::<BoardRequest>(data) {
        Ok(request) if request.is_variant() => {
            let rules = request
                .rules
                .as_ref()
                .map(|r| r.to_rules())
                .unwrap_or_default();
            match request.board.read_sized(|| "/board".to_owned()) {
                Ok(board) => {
                    let rendered = board.render(&board.cells);
                    let again = SizedBoard::from_json(&rendered, "/board")
                        .expect("a rendered board parses");
                    assert_eq!(again, board, "render/parse round trip");
                    match read_puzzle(&board, &rules, "/board") {
                        Ok(_) => return,
                        Err((error, RulesFault::Board)) => ApiError::InvalidBoard(vec![error]),
                        Err((error, RulesFault::Rules)) => ApiError::InvalidRules(error),
                    }
                }
                Err(error) => ApiError::from(error),
            }
        }
        Ok(request) => match request.board() {
            Ok(board) => {
                // What the server would answer in the caller's form reads back the same.
                let rendered = board.render(&board.grid);
                let again = Board::from_json(&rendered, "/board").expect("a rendered board parses");
                assert_eq!(again, board, "render/parse round trip");
                return;
            }
            Err(error) => ApiError::from(error),
        },
        Err(error) => error,
    };
    check_problem(&error);
});

/// Every rejection is a 400 problem with a stable code and a non-empty detail.
fn check_problem(error: &ApiError) {
    assert_eq!(error.status().as_u16(), 400, "{error:?}");
    assert!(
        matches!(
            error.code(),
            "invalid_json" | "invalid_request" | "invalid_board" | "invalid_rules"
        ),
        "{error:?}"
    );
    let problem = error.to_problem();
    assert!(!problem.detail.trim().is_empty(), "{error:?}");
    let json = serde_json::to_vec(&problem).expect("a problem serializes");
    assert!(serde_json::from_slice::<serde_json::Value>(&json).is_ok());
}
