//! The answer of `/grade`: how hard a puzzle is for a person.

use serde::Serialize;

use sudoku::logic::Rating;
use sudoku::{Grade, TechniqueUse};

/// A rating on the wire: Sudoku Explainer's scale, one decimal (`2.3`). The core keeps
/// tenths as an integer, so every value has an exact shortest decimal form.
fn rating_number(rating: Rating) -> f64 {
    rating.value()
}

/// The answer of `/grade`.
#[derive(Debug, Serialize)]
pub struct GradeResponse {
    /// `easy`, `medium`, `hard`, `expert` or `extreme`.
    pub difficulty: &'static str,
    /// The hardest step needed, on SE's scale (a lower bound unless `solved_by_logic`).
    pub rating: f64,
    /// Whether the techniques finished the puzzle within the step budget.
    pub solved_by_logic: bool,
    /// The techniques used, in order of rating.
    pub techniques: Vec<TechniqueBody>,
}

/// One technique of a grade: how often it was used and its hardest rating.
#[derive(Debug, Serialize)]
pub struct TechniqueBody {
    /// The technique's stable `snake_case` name (`naked_single`, `x_wing`, ...).
    pub name: &'static str,
    /// The hardest rating of its steps.
    pub rating: f64,
    /// How many steps used it.
    pub count: usize,
}

impl From<&TechniqueUse> for TechniqueBody {
    fn from(used: &TechniqueUse) -> Self {
        TechniqueBody {
            name: used.name(),
            rating: rating_number(used.rating),
            count: used.count,
        }
    }
}

impl From<&Grade> for GradeResponse {
    fn from(grade: &Grade) -> Self {
        GradeResponse {
            difficulty: grade.difficulty.as_str(),
            rating: rating_number(grade.rating),
            solved_by_logic: grade.solved_by_logic,
            techniques: grade.techniques.iter().map(TechniqueBody::from).collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sudoku::{CLASSIC_PUZZLE, GradeOptions, Grid, grade};

    #[test]
    fn ratings_go_out_with_one_decimal() {
        let grade = grade(
            &Grid::from_line(CLASSIC_PUZZLE).unwrap(),
            &GradeOptions::default(),
        )
        .unwrap();
        let body = serde_json::to_value(GradeResponse::from(&grade)).unwrap();
        assert_eq!(body["difficulty"], "easy");
        assert_eq!(body["rating"].to_string(), grade.rating.to_string());
        for (sent, used) in body["techniques"]
            .as_array()
            .unwrap()
            .iter()
            .zip(&grade.techniques)
        {
            assert_eq!(sent["rating"].to_string(), used.rating.to_string());
            assert_eq!(sent["name"], used.name());
        }
    }
}
