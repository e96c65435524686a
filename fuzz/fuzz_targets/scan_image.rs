//! Arbitrary bytes as a `/scan` body: decoding within limits, the grid finder, the warp,
//! the classifier and the decoding with the rules must answer or refuse, never panic.
#![no_main]

use std::sync::LazyLock;

use libfuzzer_sys::fuzz_target;
use sudoku_scan::{Limits, ScanError, Scanner};

static SCANNER: LazyLock<Scanner> = LazyLock::new(Scanner::new);

fuzz_target!(|data: &[u8]| {
    // A small pixel limit keeps each run short; the limit itself is part of what is tested.
    let limits = Limits { max_pixels: 1 << 20 };
    match SCANNER.scan(data, &limits) {
        Ok(scan) => {
            assert_eq!(scan.cells.len(), 81);
            assert_eq!(scan.givens_line().len(), 81);
            assert!(scan.cells.iter().all(|cell| (0.0..=1.0).contains(&cell.confidence)));
        }
        Err(ScanError::TooManyPixels { width, height, limit }) => {
            assert!(u64::from(width) * u64::from(height) > limit);
        }
        Err(_) => {}
    }
});
