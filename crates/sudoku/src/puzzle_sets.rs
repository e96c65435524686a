//! The puzzle sets committed in `data/puzzles/` (sources, counts and licences in its README),
//! and reading any puzzle file: the one loader of the repository's tests, benches and
//! examples. Only in test builds and behind the `puzzle-sets` feature, as it reads files;
//! the parsing is the core's [`puzzle_lines`].

use std::path::{Path, PathBuf};

use crate::{Grid, ParseError, puzzle_lines};

/// The folder of the committed sets, in this checkout.
pub const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/puzzles");

/// The sets whose every puzzle has exactly one solution.
pub const PROPER: [&str; 5] = [
    "puzzles2_17_clue",
    "puzzles3_magictour_top1465",
    "puzzles5_forum_hardest_1905_11+",
    "msolve_hardest_to_solve",
    "sudoku_exchange_diabolical",
];

/// Serg's benchmark: no puzzle of it has a unique solution.
pub const IMPROPER: &str = "puzzles7_serg_benchmark";

/// Every committed set, proper ones first.
pub const ALL: [&str; 6] = [
    PROPER[0], PROPER[1], PROPER[2], PROPER[3], PROPER[4], IMPROPER,
];

/// Why a puzzle file could not be read.
#[derive(Debug, thiserror::Error)]
pub enum PuzzleFileError {
    /// The file could not be read.
    #[error("{}: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// What reading it said.
        source: std::io::Error,
    },
    /// A line that is neither blank, a `#` comment, nor a puzzle.
    #[error("{}:{line}: {source}", path.display())]
    Line {
        /// The file.
        path: PathBuf,
        /// 1-based line number.
        line: usize,
        /// What is wrong with the line.
        source: ParseError,
    },
}

/// The path of a committed set.
pub fn path(name: &str) -> PathBuf {
    Path::new(DIR).join(name)
}

/// Every puzzle of a puzzle file with its 1-based line number, in file order.
///
/// # Errors
/// [`PuzzleFileError`] when the file cannot be read or a line is not a puzzle.
pub fn read(path: impl AsRef<Path>) -> Result<Vec<(usize, Grid)>, PuzzleFileError> {
    let path = path.as_ref();
    let text = std::fs::read_to_string(path).map_err(|source| PuzzleFileError::Read {
        path: path.to_owned(),
        source,
    })?;
    puzzle_lines(&text)
        .map(|(line, grid)| {
            grid.map(|grid| (line, grid))
                .map_err(|source| PuzzleFileError::Line {
                    path: path.to_owned(),
                    line,
                    source,
                })
        })
        .collect()
}

/// Every puzzle of a committed set.
///
/// # Panics
/// When the set cannot be read, naming the file and line: a broken checkout.
pub fn load(name: &str) -> Vec<Grid> {
    every(name, 1)
}

/// Every `step`-th puzzle of a committed set, from the first.
///
/// # Panics
/// As [`load`]; and when `step` is 0.
pub fn every(name: &str, step: usize) -> Vec<Grid> {
    read(path(name))
        .unwrap_or_else(|err| panic!("{err}"))
        .into_iter()
        .step_by(step)
        .map(|(_, grid)| grid)
        .collect()
}

/// `count` puzzles spread evenly over a committed set (all of it when it is smaller).
///
/// # Panics
/// As [`load`].
pub fn spread(name: &str, count: usize) -> Vec<Grid> {
    let all = load(name);
    let step = (all.len() / count.max(1)).max(1);
    all.into_iter().step_by(step).take(count).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_committed_set_reads_with_the_count_its_readme_gives() {
        let counts = [49_158, 1_465, 48_766, 1_000, 39_719, 10_000];
        for (name, count) in ALL.into_iter().zip(counts) {
            assert_eq!(load(name).len(), count, "{name}");
        }
    }

    #[test]
    fn a_bad_line_is_named_by_file_and_line() {
        let dir = std::env::temp_dir().join(format!("puzzle-sets-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("bad.txt");
        std::fs::write(
            &file,
            format!("# header\n{}\n\nnot a puzzle\n", crate::CLASSIC_PUZZLE),
        )
        .unwrap();
        let err = read(&file).unwrap_err();
        assert!(
            matches!(err, PuzzleFileError::Line { line: 4, .. }),
            "{err}"
        );
        assert!(err.to_string().contains("bad.txt:4:"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(matches!(read(&file), Err(PuzzleFileError::Read { .. })));
    }

    #[test]
    fn spread_takes_the_count_asked_for_evenly() {
        let sample = spread("msolve_hardest_to_solve", 100);
        let all = load("msolve_hardest_to_solve");
        assert_eq!(sample.len(), 100);
        assert_eq!(sample[1], all[10]);
        assert_eq!(every("msolve_hardest_to_solve", 10), sample);
    }
}
