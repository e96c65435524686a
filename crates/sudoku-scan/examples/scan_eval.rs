//! Scans the committed photos of every split and prints the accuracy table.
//!
//! v2 photos carry printed givens only: a grid counts as right when every given is read
//! and nothing is read elsewhere. Mixed photos are filled in by hand: a grid counts as
//! right when all 81 digits are; and each cell's kind (printed given or handwritten entry)
//! is checked against the v2 twin's givens.
//!
//! Usage: `cargo run --release -p sudoku-scan --example scan_eval [-- [MODEL.safetensors] [SPLIT...]]`
//! (a training split's held-out part: `v2_train/held`, `v2_mixed_train/held`)

#[path = "common/dataset.rs"]
mod dataset;

use std::time::Instant;

use sudoku_scan::{CellNet, Kind, Limits, Scanner};

fn main() {
    let mut args = std::env::args().skip(1).peekable();
    // The model is optional: a first argument that is no model is a split (it used to be
    // dropped, and every split scanned).
    let scanner = match args.next_if(|arg| arg.ends_with(".safetensors")) {
        Some(path) => {
            Scanner::with_net(CellNet::from_safetensors(&std::fs::read(path).unwrap()).unwrap())
        }
        None => Scanner::new(),
    };
    let mut splits: Vec<String> = args.collect();
    if splits.is_empty() {
        splits = ["v2_train", "v2_test", "v2_mixed_train", "v2_mixed_test"]
            .map(String::from)
            .to_vec();
    }
    let root = dataset::root();
    println!(
        "| split | photos | grid found | grids right | cells wrong | cell error | kind right | ms per photo |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    let mut totals = [Tally::default(), Tally::default()];
    for split in &splits {
        let mut tally = Tally::default();
        for photo in dataset::split(&root, split) {
            let bytes = std::fs::read(&photo.path).unwrap();
            let start = Instant::now();
            let scan = scanner.scan(&bytes, &Limits::default());
            tally.millis += start.elapsed().as_secs_f64() * 1000.0;
            tally.add(
                &photo,
                scan.ok().as_ref(),
                std::env::var_os("SCAN_EVAL_VERBOSE").is_some(),
            );
        }
        println!("{}", tally.row(split));
        totals[usize::from(split.contains("mixed"))].merge(&tally);
    }
    if splits.len() == 4 {
        println!("{}", totals[0].row("v2 whole"));
        println!("{}", totals[1].row("mixed whole"));
    }
}

#[derive(Default)]
struct Tally {
    photos: usize,
    found: usize,
    right: usize,
    cells_wrong: usize,
    kinds_right: usize,
    kind_cells: usize,
    millis: f64,
}

impl Tally {
    fn add(&mut self, photo: &dataset::Photo, scan: Option<&sudoku_scan::Scan>, verbose: bool) {
        self.photos += 1;
        let Some(scan) = scan else {
            self.cells_wrong += 81;
            self.kind_cells += 81;
            if verbose {
                println!("{}: no grid", photo.path.display());
            }
            return;
        };
        self.found += 1;
        let mut wrong = 0;
        for (cell, read) in scan.cells.iter().enumerate() {
            if read.digit.unwrap_or(0) != photo.digits[cell] {
                wrong += 1;
            }
            let Some(givens) = photo.givens else { continue };
            self.kind_cells += 1;
            let kind = match (givens[cell], photo.digits[cell]) {
                (0, 0) => Kind::Empty,
                (0, _) => Kind::Entry,
                _ => Kind::Given,
            };
            if read.kind == kind {
                self.kinds_right += 1;
            }
        }
        if verbose && wrong > 0 {
            println!("{}: {wrong} cells wrong", photo.path.display());
        }
        self.cells_wrong += wrong;
        if wrong == 0 {
            self.right += 1;
        }
    }

    fn merge(&mut self, other: &Tally) {
        self.photos += other.photos;
        self.found += other.found;
        self.right += other.right;
        self.cells_wrong += other.cells_wrong;
        self.kinds_right += other.kinds_right;
        self.kind_cells += other.kind_cells;
        self.millis += other.millis;
    }

    fn row(&self, name: &str) -> String {
        let cells = (self.photos * 81) as f64;
        format!(
            "| {name} | {} | {} | {} ({:.1}%) | {} | {:.2}% | {:.2}% | {:.0} |",
            self.photos,
            self.found,
            self.right,
            100.0 * self.right as f64 / self.photos as f64,
            self.cells_wrong,
            100.0 * self.cells_wrong as f64 / cells,
            100.0 * self.kinds_right as f64 / self.kind_cells.max(1) as f64,
            self.millis / self.photos as f64
        )
    }
}
