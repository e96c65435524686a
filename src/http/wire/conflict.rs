//! Clashing givens on the wire: the `conflicts` of `/validate` and of a 422 `no_solution`.

use serde::Serialize;

use sudoku::Conflict;

/// A cell on the wire: 0-based row and column.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct CellRef {
    /// 0-based row.
    pub row: usize,
    /// 0-based column.
    pub col: usize,
}

/// A conflict on the wire.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ConflictBody {
    /// `row`, `column` or `box`; under other rules also `region`, `diagonal`,
    /// `extra_region`, `cage`, `knight`, `king`, `parity` or `thermometer`.
    pub unit: &'static str,
    /// Which unit, 0-based (boxes row-major from the top-left).
    pub index: usize,
    /// The repeated digit; none for a cage's sum or a thermometer.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub digit: Option<u8>,
    /// The cells holding it.
    pub cells: Vec<CellRef>,
    /// What is wrong, in words: given under rules other than the classic ones.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

impl From<&Conflict> for ConflictBody {
    fn from(conflict: &Conflict) -> Self {
        ConflictBody {
            unit: conflict.unit.name(),
            index: conflict.index,
            digit: Some(conflict.digit),
            message: None,
            cells: conflict
                .cells
                .iter()
                .map(|&(row, col)| CellRef { row, col })
                .collect(),
        }
    }
}

/// Converts the core's conflicts to their wire form.
pub fn conflict_bodies(conflicts: &[Conflict]) -> Vec<ConflictBody> {
    conflicts.iter().map(ConflictBody::from).collect()
}
