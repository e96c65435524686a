//! The grid's corners found in each photo of a training split, one photo a line (path and
//! the four corners in the working image's pixels, its scale, the cells read wrong), to draw over the photos.
//!
//! Usage: `cargo run --release -p sudoku-scan --example grid_corners -- SPLIT`

#[path = "common/dataset.rs"]
mod dataset;

use sudoku_scan::{
    CellNet, Class, Limits, cell_inputs, decode, find_grid, read_board, warp_grid, working_image,
};

fn main() {
    let split = std::env::args().nth(1).unwrap_or("v2_mixed_train".into());
    assert!(
        split.starts_with("v2_train") || split.starts_with("v2_mixed_train"),
        "training splits only"
    );
    let net = CellNet::committed();
    for photo in dataset::split(&dataset::root(), &split) {
        let image = decode(&std::fs::read(&photo.path).unwrap(), &Limits::default()).unwrap();
        let (working, scale) = working_image(&image);
        let found = find_grid(&working);
        let wrong = found.clone().map_or(81, |corners| {
            let board = read_board(&net.classify(&cell_inputs(&warp_grid(&working, &corners))));
            let truth = photo.classes().unwrap_or([Class::Empty; 81]);
            (0..81)
                .filter(|&cell| {
                    let digit = match truth[cell] {
                        Class::Empty | Class::Marks => None,
                        Class::Printed(digit) | Class::Handwritten(digit) => Some(digit),
                    };
                    board[cell].digit != digit
                })
                .count()
        });
        let corners = found.map_or(String::from("none"), |corners| {
            corners
                .iter()
                .map(|(x, y)| format!("{x:.1} {y:.1}"))
                .collect::<Vec<_>>()
                .join(" ")
        });
        println!("{} {corners} {scale} {wrong}", photo.path.display());
    }
}
