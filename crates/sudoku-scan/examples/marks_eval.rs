//! Scans pencil marks and prints how they read, two ways: the network's marks class with the
//! shape of the ink as a second test (as the scanner reads), and the network alone.
//!
//! - `SPLIT` (`v2_train`, `v2_train/held`, ...; the test split only to report): its photos
//!   with a player's marks drawn in, as `tests/pencil_photos.rs` draws them.
//! - `sheets`: every 2,000th 17-clue puzzle drawn by `sudoku-print` with marks in its open
//!   cells of two or more candidates, at four widths (the round-trip test draws other boards).
//!
//! Usage: `cargo run --profile train -p sudoku-scan --example marks_eval -- [MODEL.safetensors] SPLIT|sheets...`

#[path = "common/dataset.rs"]
mod dataset;
#[path = "common/pencil.rs"]
mod pencil;
#[path = "common/random.rs"]
mod random;

use sudoku_scan::{
    Cell, CellNet, Limits, cell_inputs, decode_photo, find_grid, ink_colours, read_board_with_ink,
    read_cells, warp_grid, working_image,
};

/// Both readings of an image, and the grid's corners in its pixels.
fn readings(net: &CellNet, bytes: &[u8]) -> (Vec<Vec<Cell>>, [(f32, f32); 4]) {
    let photo = decode_photo(bytes, &Limits::default()).unwrap();
    let (working, scale) = working_image(&photo.grey);
    let found = find_grid(&working).unwrap();
    let inputs = cell_inputs(&warp_grid(&working, &found));
    let probabilities = net.classify(&inputs);
    let corners = found.map(|(x, y)| (x * scale, y * scale));
    let step = photo.colour_step as f32;
    let inks = ink_colours(&photo.colour, &corners.map(|(x, y)| (x / step, y / step)));
    (
        vec![
            read_cells(&probabilities, &inputs, &inks),
            read_board_with_ink(&probabilities, &inks),
        ],
        corners,
    )
}

fn sheets(net: &CellNet) -> Vec<pencil::MarksTally> {
    let path = format!(
        "{}/../../data/puzzles/puzzles2_17_clue",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap();
    let puzzles = text
        .lines()
        .filter(|line| line.len() >= 81 && !line.starts_with('#'))
        .step_by(2000);
    let mut tallies = vec![(0, 0, 0, 0, 0, 0); 2];
    for puzzle in puzzles {
        let givens: Vec<u8> = puzzle[..81]
            .bytes()
            .map(|c| if c.is_ascii_digit() { c - b'0' } else { 0 })
            .collect();
        for width in [400, 640, 960, 1400] {
            let (png, candidates) = pencil::sheet_with_marks(&givens, 2, width);
            for (tally, cells) in tallies.iter_mut().zip(readings(net, &png).0) {
                pencil::count_reading(tally, &cells, &givens, |cell| candidates[cell] != 0);
            }
        }
    }
    tallies
}

fn main() {
    let mut args = std::env::args().skip(1).peekable();
    let net = match args.next_if(|arg| arg.ends_with(".safetensors")) {
        Some(path) => CellNet::from_safetensors(&std::fs::read(path).unwrap()).unwrap(),
        None => CellNet::committed(),
    };
    println!(
        "| set | reading | images | givens right | cells of marks | read as candidates | read as a digit | other cells read as candidates |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    for set in args {
        let tallies = if set == "sheets" {
            sheets(&net)
        } else {
            let photos = dataset::split(&dataset::root(), &set);
            pencil::tally_with_marks(
                &photos,
                |bytes| readings(&net, bytes).1,
                |bytes| readings(&net, bytes).0,
            )
        };
        for (way, (count, right, marked, found, as_digit, false_marks)) in
            ["network and shape", "network alone"].iter().zip(tallies)
        {
            println!(
                "| {set} | {way} | {count} | {right} ({:.1}%) | {marked} | {found} ({:.1}%) | {as_digit} | {false_marks} |",
                100.0 * right as f64 / count as f64,
                100.0 * found as f64 / marked.max(1) as f64
            );
        }
    }
}
