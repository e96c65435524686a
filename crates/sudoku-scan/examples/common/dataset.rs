#![allow(dead_code)] // Each example and test uses a part of the dataset helpers.
//! The committed photos of `data/photos` (Wicht and Hennebert's Sudoku dataset, v2 and
//! mixed), their splits and what each cell holds.

use std::fs;
use std::path::{Path, PathBuf};

use sudoku_scan::Class;

/// A photo and what its cells hold.
pub(crate) struct Photo {
    /// The image file.
    pub path: PathBuf,
    /// The printed givens, 0 for none; unknown for the one mixed photo without a v2 twin.
    pub givens: Option<[u8; 81]>,
    /// Every digit in the photo, printed or handwritten, 0 for none.
    pub digits: [u8; 81],
}

impl Photo {
    /// The class of each cell, when the givens are known.
    pub(crate) fn classes(&self) -> Option<[Class; 81]> {
        let givens = self.givens?;
        Some(std::array::from_fn(|cell| {
            match (givens[cell], self.digits[cell]) {
                (0, 0) => Class::Empty,
                (0, digit) => Class::Handwritten(digit),
                (given, _) => Class::Printed(given),
            }
        }))
    }

    /// Whether the photo is of the mixed version (filled in by hand).
    pub(crate) fn is_mixed(&self) -> bool {
        self.path.parent().and_then(|folder| folder.file_name()) == Some("mixed".as_ref())
    }
}

/// The repository's `data/photos`, found from the crate's folder.
pub(crate) fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/photos")
}

/// One photo in this many of a training split is held out when comparing training options
/// (`v2_train/held`, `v2_mixed_train/held`; the training leaves them out under `SCAN_HOLDOUT`).
pub(crate) const HOLDOUT_EVERY: usize = 5;

/// Whether the photo at this place in its split's list is one of the held-out ones.
pub(crate) fn held_out(index: usize) -> bool {
    index % HOLDOUT_EVERY == HOLDOUT_EVERY - 1
}

/// The photos of one split: `v2_train`, `v2_test`, `v2_mixed_train` or `v2_mixed_test`; a
/// training split's held-out part as `v2_train/held` or `v2_mixed_train/held` (32 photos), the
/// rest as `v2_train/kept`.
pub(crate) fn split(root: &Path, name: &str) -> Vec<Photo> {
    let (file, part) = name.split_once('/').unwrap_or((name, ""));
    assert!(
        part.is_empty() || file.ends_with("_train"),
        "only a training split has a held-out part"
    );
    let list = fs::read_to_string(root.join("datasets").join(format!("{file}.desc")))
        .unwrap_or_else(|error| panic!("the split {file}: {error}"));
    list.lines()
        .filter(|line| !line.trim().is_empty())
        .enumerate()
        .filter(|(index, _)| match part {
            "held" => held_out(*index),
            "kept" => !held_out(*index),
            _ => true,
        })
        .map(|(_, line)| line)
        .map(|line| {
            let path = root.join(line.trim());
            let digits = read_dat(&path.with_extension("dat"));
            // A mixed photo's givens are those of its v2 twin, the same puzzle unfilled.
            let twin = root
                .join("images")
                .join(path.file_name().unwrap())
                .with_extension("dat");
            let givens = if line.starts_with("mixed/") {
                twin.exists().then(|| read_dat(&twin))
            } else {
                Some(digits)
            };
            Photo {
                path,
                givens,
                digits,
            }
        })
        .collect()
}

fn read_dat(path: &Path) -> [u8; 81] {
    let text =
        fs::read_to_string(path).unwrap_or_else(|error| panic!("{}: {error}", path.display()));
    let digits: Vec<u8> = text
        .lines()
        .skip(2)
        .flat_map(|line| {
            line.split_whitespace()
                .map(|word| word.parse::<u8>().unwrap())
        })
        .collect();
    digits
        .try_into()
        .unwrap_or_else(|_| panic!("{}: not 81 digits", path.display()))
}

/// The ground-truth corners of the v2 photos (`outlines_sorted.csv`), by file name.
pub(crate) fn outlines(root: &Path) -> Vec<(String, [(f32, f32); 4])> {
    let text = fs::read_to_string(root.join("outlines_sorted.csv")).unwrap();
    text.lines()
        .skip(1)
        .filter_map(|line| {
            let fields: Vec<&str> = line.split(',').collect();
            let name = Path::new(fields.first()?)
                .file_name()?
                .to_str()?
                .to_string();
            let n: Vec<f32> = fields[1..]
                .iter()
                .filter_map(|f| f.trim().parse().ok())
                .collect();
            (n.len() == 8).then(|| {
                (
                    name,
                    [(n[0], n[1]), (n[2], n[3]), (n[4], n[5]), (n[6], n[7])],
                )
            })
        })
        .collect()
}
