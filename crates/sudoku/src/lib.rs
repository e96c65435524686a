//! The pure core of sudoku-service: grids, validation, the search, the logical solver,
//! grading, generation, and hints with their explanations in words. No I/O, no async, no
//! wire formats, no clock; the service and its command line are adapters around it.

/// `Display` and `FromStr` for an enum whose `ALL` variants are named by `as_str`; a name
/// that is none of them is `$error { name }`, whose message lists the valid ones.
macro_rules! named_by_as_str {
    ($type:ident, $error:ident) => {
        impl std::fmt::Display for $type {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl std::str::FromStr for $type {
            type Err = $error;

            /// Parses a lowercase name as `as_str` writes it.
            fn from_str(name: &str) -> Result<Self, Self::Err> {
                $type::ALL
                    .into_iter()
                    .find(|value| value.as_str() == name)
                    .ok_or_else(|| $error {
                        name: name.to_owned(),
                    })
            }
        }
    };
}

pub mod generate;
pub mod grade;
mod grid;
pub mod hint;
pub mod logic;
pub mod messages;
mod report;
mod solver;
mod validate;
pub mod variant;

#[cfg(any(test, feature = "puzzle-sets"))]
pub mod puzzle_sets;

pub use generate::{
    GenerateError, GenerateOptions, Generated, Symmetry, UnknownSymmetry, generate,
};
pub use grade::{
    Difficulty, Grade, GradeError, GradeOptions, TechniqueUse, UnknownDifficulty, grade,
};
pub use grid::{
    CELLS, CLASSIC_PUZZLE, CLASSIC_SOLUTION, CellName, Grid, ParseError, cell_value,
    is_blank_or_comment, puzzle_lines,
};
pub use hint::{Explanation, Hint, HintError, HintOptions, PencilMarks, explain, hint};
pub use report::Report;
pub use solver::{BudgetExhausted, Count, DEFAULT_GUESS_BUDGET, SolveError, Solver, Verdict};
pub use validate::{Conflict, Unit, find_conflicts, is_solved, is_valid};
