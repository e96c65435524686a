//! Arbitrary bytes as an 81-character line: `Grid::from_line` (the command line's and the
//! wire's reader), and the same text as a JSON string board.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sudoku::{Grid, ParseError};
use sudoku_service::http::wire::Board;

fuzz_target!(|data: &[u8]| {
    let Ok(line) = std::str::from_utf8(data) else {
        return;
    };
    match Grid::from_line(line) {
        Ok(grid) => {
            // The canonical form reads back to the same grid.
            assert_eq!(Grid::from_line(&grid.to_line()), Ok(grid));
            assert_eq!(grid.to_line().len(), 81);
        }
        Err(ParseError::WrongLength(n)) => assert_ne!(n, 81),
        Err(ParseError::InvalidCell { row, col, found }) => {
            assert!(row < 9 && col < 9);
            assert!(!matches!(found, '1'..='9' | '.' | '0'));
        }
        Err(other) => panic!("a line cannot give {other:?}"),
    }
    // The wire form takes no surrounding whitespace, but otherwise agrees with from_line.
    let wire = Board::from_json(&serde_json::Value::String(line.to_owned()), "/board");
    if let Ok(board) = &wire {
        assert_eq!(Grid::from_line(line), Ok(board.grid));
    } else if line.trim() == line {
        assert!(Grid::from_line(line).is_err(), "{line:?}");
    }
});
