//! Arbitrary bytes as the body of `/solve/batch`: `parse_json::<BatchRequest>`, then each
//! board read as the handler reads it (`WireBoard::read`), which must agree with
//! `Board::from_json` on the same value.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sudoku_service::http::extract::parse_json;
use sudoku_service::http::wire::{BatchRequest, Board, WireBoard};

fuzz_target!(|data: &[u8]| {
    match parse_json::<BatchRequest>(data) {
        Ok(request) => {
            for (i, wire) in request.boards.iter().enumerate() {
                let pointer = format!("/boards/{i}");
                let read = wire.read(|| pointer.clone());
                if let WireBoard::Other(value) = wire {
                    assert_eq!(read, Board::from_json(value, &pointer));
                }
                match read {
                    Ok(board) => {
                        let again = Board::from_json(&board.render(&board.grid), &pointer)
                            .expect("a rendered board parses");
                        assert_eq!(again, board);
                    }
                    Err(error) => {
                        assert!(error.pointer.starts_with(&pointer), "{error:?}");
                        assert!(!error.message.is_empty(), "{error:?}");
                    }
                }
            }
        }
        Err(error) => {
            assert_eq!(error.status().as_u16(), 400, "{error:?}");
            assert!(!error.to_problem().detail.trim().is_empty(), "{error:?}");
        }
    }
});
