//! Where a training split's wrong cells come from: each cell the scanner reads wrong is put
//! down to one cause (a digit misread, a given read as an entry or the reverse, ink read in
//! an empty cell, a digit missed), with the network's own first choice beside the rules'
//! reading, every photo with an error (most first), and the 19-class confusion of the network.
//!
//! Training splits only (`v2_train`, `v2_mixed_train`, or their `/held` part): the test
//! splits are for the final figures alone.
//!
//! Usage: `cargo run --profile train -p sudoku-scan --example scan_errors -- [MODEL.safetensors] SPLIT`

#[path = "common/dataset.rs"]
mod dataset;

use std::collections::BTreeMap;

use sudoku_scan::{
    CLASSES, CellNet, Class, Kind, Limits, cell_inputs, decode_photo, find_grid, ink_colours,
    read_cells, warp_grid, working_image,
};

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let net = if args
        .first()
        .is_some_and(|arg| arg.ends_with(".safetensors"))
    {
        CellNet::from_safetensors(&std::fs::read(args.remove(0)).unwrap()).unwrap()
    } else {
        CellNet::committed()
    };
    let split = args.first().map_or("v2_mixed_train", String::as_str);
    assert!(
        split.starts_with("v2_train") || split.starts_with("v2_mixed_train"),
        "training splits only"
    );
    let mut causes: BTreeMap<&str, usize> = BTreeMap::new();
    let mut causes_fine: BTreeMap<&str, usize> = BTreeMap::new();
    let mut confusion = [[0_usize; CLASSES]; CLASSES];
    let mut per_photo = Vec::new();
    let (mut label_clashes, mut no_grid) = (0, 0);
    for photo in dataset::split(&dataset::root(), split) {
        let name = photo
            .path
            .file_name()
            .unwrap()
            .to_string_lossy()
            .to_string();
        let Some(truth) = photo.classes() else {
            continue;
        };
        // A given of the v2 twin that the mixed photo's file holds as another digit.
        if let Some(givens) = photo.givens {
            label_clashes += (0..81)
                .filter(|&c| givens[c] != 0 && givens[c] != photo.digits[c])
                .count();
        }
        let image = decode_photo(&std::fs::read(&photo.path).unwrap(), &Limits::default()).unwrap();
        let (working, scale) = working_image(&image.grey);
        let Ok(corners) = find_grid(&working) else {
            no_grid += 1;
            *causes.entry("no grid found (81 cells)").or_default() += 81;
            continue;
        };
        let warped = warp_grid(&working, &corners);
        let inputs = cell_inputs(&warped);
        let probabilities = net.classify(&inputs);
        let inks = if std::env::var_os("SCAN_ERRORS_NO_INK").is_some() {
            vec![None; 81]
        } else {
            let step = image.colour_step as f32;
            ink_colours(
                &image.colour,
                &corners.map(|(x, y)| (x * scale / step, y * scale / step)),
            )
        };
        let board = read_cells(&probabilities, &inputs, &inks);
        let mut wrong = 0;
        let mut here: BTreeMap<&str, usize> = BTreeMap::new();
        for cell in 0..81 {
            let first = (0..CLASSES)
                .max_by(|&a, &b| probabilities[cell][a].total_cmp(&probabilities[cell][b]))
                .unwrap();
            confusion[truth[cell].index()][first] += 1;
            let read = board[cell];
            let net_right = Class::from_index(first) == truth[cell];
            let cause = match (truth[cell], read.kind, read.digit) {
                (Class::Empty, Kind::Empty, None) => None,
                (Class::Empty, Kind::Candidates, None) => Some("empty read as pencil marks"),
                (Class::Empty, _, _) => Some("empty read as a digit"),
                (Class::Printed(_), _, None) => Some("given missed (read empty)"),
                (Class::Handwritten(_), _, None) => Some("entry missed (read empty)"),
                (Class::Printed(d), kind, Some(r)) if d != r => Some(if kind == Kind::Given {
                    "given read as another given"
                } else {
                    "given read as another digit, handwritten"
                }),
                (Class::Handwritten(d), kind, Some(r)) if d != r => Some(if kind == Kind::Entry {
                    "entry read as another handwritten digit"
                } else {
                    "entry read as another digit, printed"
                }),
                (Class::Printed(_), Kind::Entry, _) => Some("kind only: given read as entry"),
                (Class::Handwritten(_), Kind::Given, _) => Some("kind only: entry read as given"),
                _ => None,
            };
            if let Some(cause) = cause {
                if !cause.starts_with("kind only") {
                    wrong += 1;
                }
                *here.entry(cause).or_default() += 1;
                if net_right {
                    *here
                        .entry("  (of those, the network's first choice was right)")
                        .or_default() += 1;
                }
            } else if !net_right {
                *here
                    .entry("network wrong, put right by the rules")
                    .or_default() += 1;
            }
        }
        // The causes in all photos, and apart in those read mostly right (a grid cut well).
        for (cause, count) in here {
            *causes.entry(cause).or_default() += count;
            if wrong < 20 {
                *causes_fine.entry(cause).or_default() += count;
            }
        }
        // SCAN_ERRORS_DUMP=DIR: the warped grid of each photo with many errors, to look at.
        if let Some(dir) = std::env::var_os("SCAN_ERRORS_DUMP").filter(|_| wrong >= 20) {
            warped
                .save(std::path::Path::new(&dir).join(&name).with_extension("png"))
                .unwrap();
        }
        per_photo.push((wrong, name));
    }
    println!(
        "{split}: {} photos, {no_grid} without a grid, {label_clashes} given cells whose digit differs from the twin's",
        per_photo.len()
    );
    println!(" all photos | photos with fewer than 20 wrong");
    for (cause, count) in &causes {
        let fine = causes_fine.get(cause).copied().unwrap_or(0);
        println!("{count:6} {fine:6}  {cause}");
    }
    per_photo.sort_by(|a, b| b.cmp(a));
    let wrong: usize = per_photo.iter().map(|(w, _)| w).sum();
    println!("{wrong} cells wrong; the photos with any, most first:");
    for (count, name) in per_photo.iter().take_while(|(wrong, _)| *wrong > 0) {
        println!("{count:4}  {name}");
    }
    let spread = [1, 2, 5, 10, 20].map(|at| per_photo.iter().filter(|(w, _)| *w >= at).count());
    println!("photos with >=1, 2, 5, 10, 20 wrong: {spread:?}");
    let many: usize = per_photo.iter().map(|(w, _)| w).filter(|w| **w >= 20).sum();
    println!(
        "{many} of the wrong cells are in photos with 20 or more (mostly a grid cut off the true one: look with SCAN_ERRORS_DUMP)"
    );
    println!("network's first choice (rows: truth e p1-9 h1-9; columns the same):");
    for (truth, row) in confusion.iter().enumerate() {
        let cells: Vec<String> = row.iter().map(|n| format!("{n:4}")).collect();
        println!("{:>3} {}", label(truth), cells.join(""));
    }
}

fn label(index: usize) -> String {
    match Class::from_index(index) {
        Class::Empty => "e".into(),
        Class::Printed(d) => format!("p{d}"),
        Class::Handwritten(d) => format!("h{d}"),
        Class::Marks => "m".into(),
    }
}
