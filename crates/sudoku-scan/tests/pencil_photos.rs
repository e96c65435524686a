//! Photos with pencil marks: every photo of the v2 test split, with a player's candidates
//! drawn in graphite into each open cell of two or more (in Comic Neue, a hand the
//! classifier's training never saw; one height, darkness and layout a photo, seeded), is
//! scanned, and the counts are pinned: a change to the model or the reading that reads one
//! cell differently shows here. 37 of the 40 grids read every given right, against 38 of
//! the same photos without marks (`tests/accuracy.rs`); 88% of the cells of marks read as
//! candidates and 11 as a digit.

#[path = "../examples/common/dataset.rs"]
mod dataset;
#[path = "../examples/common/pencil.rs"]
mod pencil;
#[path = "../examples/common/random.rs"]
mod random;

use sudoku_scan::Scanner;

#[test]
fn the_v2_test_split_with_pencil_marks_reads_as_pinned() {
    let photos = dataset::split(&dataset::root(), "v2_test");
    assert_eq!(
        pencil::scan_with_marks(&Scanner::new(), &photos),
        PINNED_V2_TEST_WITH_MARKS
    );
}

const PINNED_V2_TEST_WITH_MARKS: (usize, usize, usize, usize, usize, usize) =
    (40, 37, 1997, 1759, 11, 8);
