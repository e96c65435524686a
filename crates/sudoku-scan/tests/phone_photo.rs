//! A 12 megapixel phone photo reads as the small photo it was made from: the puzzle seen at
//! an angle on a dark table, a shadow across it, grain, JPEG. The page's edge against the
//! table outlines a larger quadrilateral than the grid; the grid is the one ruled in ninths.

#[path = "../examples/common/dataset.rs"]
mod dataset;
#[path = "../examples/common/phone.rs"]
mod phone;

use sudoku_scan::{Limits, Scanner};

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
