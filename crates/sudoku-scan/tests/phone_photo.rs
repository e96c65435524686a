//! A 12 megapixel phone photo reads as the small photo it was made from: the puzzle seen at
//! an angle on a dark table, a shadow across it, grain, JPEG. The page's edge against the
//! table outlines a larger quadrilateral than the grid; the grid is the one ruled in ninths.
//! And the same photo with a player's pencil marks in graphite, drawn at the photo's own
//! resolution, reads its givens and its marks.

#[path = "../examples/common/dataset.rs"]
mod dataset;
#[path = "../examples/common/pencil.rs"]
mod pencil;
#[path = "../examples/common/phone.rs"]
mod phone;
#[path = "../examples/common/random.rs"]
mod random;

use sudoku_scan::{Kind, Limits, Scanner};

#[test]
fn a_tilted_shadowed_12_megapixel_photo_on_a_dark_table_reads_its_givens() {
    let (photo, givens) = phone::phone_photo(&dataset::root());
    let scan = Scanner::new().scan(&photo, &Limits::default()).unwrap();
    assert_eq!(scan.givens_line(), givens);
    // The corners are in the big photo's pixels, inside it.
    let (width, height) = phone::PHONE_SIZE;
    for (x, y) in scan.corners {
        assert!((0.0..=width as f32).contains(&x) && (0.0..=height as f32).contains(&y));
    }
}

#[test]
fn the_12_megapixel_photo_with_pencil_marks_reads_its_givens_and_its_marks() {
    let scanner = Scanner::new();
    let source = phone::source_photo(&dataset::root());
    let (photo, givens) = phone::phone_photo(&dataset::root());
    let corners = scanner.scan(&photo, &Limits::default()).unwrap().corners;
    let image = image::load_from_memory(&photo).unwrap();
    let (with_marks, marks) = pencil::photo_with_marks(
        &image,
        &source.digits,
        &corners,
        &pencil::test_faces(),
        &mut random::Random(12),
    );
    let scan = scanner.scan(&with_marks, &Limits::default()).unwrap();
    assert_eq!(scan.givens_line(), givens);
    assert_eq!(scan.entries_line(), ".".repeat(81));
    let read_as_marks = |marked: bool| {
        (0..81)
            .filter(|&cell| {
                (marks[cell] != 0) == marked && scan.cells[cell].kind == Kind::Candidates
            })
            .count()
    };
    let marked = marks.iter().filter(|&&open| open != 0).count();
    assert_eq!(
        (marked, read_as_marks(true), read_as_marks(false)),
        PINNED_MARKS
    );
}

/// Cells of marks, those read as candidates, other cells read as candidates.
const PINNED_MARKS: (usize, usize, usize) = (53, 50, 0);
