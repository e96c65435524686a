//! The problem body (RFC 9457) every error answer carries, alone or inside a batch result.

use serde::Serialize;

use super::board::BoardError;
use super::conflict::ConflictBody;

/// The RFC 9457 body, plus `code` and, where they help, `errors`, `conflicts` or
/// `parameter`.
#[derive(Debug, Clone, Serialize)]
pub struct Problem {
    /// A URI naming the kind of problem.
    #[serde(rename = "type")]
    pub type_uri: String,
    /// The status's reason phrase.
    pub title: String,
    /// The HTTP status.
    pub status: u16,
    /// What went wrong in this request.
    pub detail: String,
    /// The stable machine-readable code.
    pub code: &'static str,
    /// Where a board is malformed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub errors: Option<Vec<BoardError>>,
    /// The clashing givens of an unsolvable board.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub conflicts: Option<Vec<ConflictBody>>,
    /// The query parameter at fault, with `invalid_parameter`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parameter: Option<String>,
}
