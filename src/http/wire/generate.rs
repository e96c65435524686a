//! `/generate` on the wire: its query parameters, read strictly, and its answer.
//!
//! Every parameter is optional, may come once, and must be one of the documented names:
//! a typo (`dificulty=hard`) is refused rather than silently ignored, since ignoring it
//! would answer a puzzle of another difficulty than the caller meant.

use serde::Serialize;
use serde_json::Value;

use super::board::{BoardFormat, render};
use sudoku::variant::{GeneratedVariant, VariantKind, VariantOptions};
use sudoku::{Difficulty, GenerateOptions, Generated, Symmetry};

use super::variant::{render_sized, rules_value};

/// Attempts one `/generate` may make: no count bounds the search, the deadline does. The
/// core's default of 1,000 is short of the rarest kinds (one mirror-symmetric extreme
/// puzzle in a hundred takes more), which make an attempt in well under a millisecond.
pub const MAX_ATTEMPTS: u32 = u32::MAX;

/// The names `/generate` takes, in the order the spec lists them.
pub const GENERATE_PARAMETERS: [&str; 7] = [
    "difficulty",
    "seed",
    "symmetry",
    "form",
    "minimal",
    "size",
    "variant",
];

/// The sides `/generate?size=` takes: those with boxes.
pub const GENERATE_SIZES: [usize; 10] = [4, 6, 8, 9, 10, 12, 15, 16, 20, 25];

/// A query parameter that is unknown, repeated, or has a value it cannot take.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParameterError {
    /// The parameter's name, as sent.
    pub parameter: String,
    /// What is wrong with it, in a sentence.
    pub message: String,
}

impl ParameterError {
    /// What makes the error of parameter `name` from its message.
    pub fn of(name: &str) -> impl Fn(String) -> ParameterError + '_ {
        move |message| ParameterError {
            parameter: name.to_owned(),
            message,
        }
    }
}

/// The `name=value` pairs of a query whose parameters must each be one of `known` and come
/// once, as string slices.
///
/// # Errors
/// A [`ParameterError`] naming the first parameter that is unknown or repeated.
pub fn checked_pairs<'p>(
    pairs: &'p [(String, String)],
    known: &[&str],
) -> Result<Vec<(&'p str, &'p str)>, ParameterError> {
    let mut seen: Vec<&str> = Vec::new();
    for (name, _) in pairs {
        let error = ParameterError::of(name);
        if !known.contains(&name.as_str()) {
            return Err(error(format!(
                "unknown parameter {name:?}: expected {}",
                known.join(", ")
            )));
        }
        if seen.contains(&name.as_str()) {
            return Err(error(format!("parameter {name:?} is given more than once")));
        }
        seen.push(name);
    }
    Ok(pairs
        .iter()
        .map(|(name, value)| (name.as_str(), value.as_str()))
        .collect())
}

impl std::fmt::Display for ParameterError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

/// What a `/generate` request asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GenerateQuery {
    /// The difficulty wanted; any when absent.
    pub difficulty: Option<Difficulty>,
    /// The seed; drawn by the server when absent.
    pub seed: Option<u64>,
    /// The symmetry of the clues (default `none`).
    pub symmetry: Symmetry,
    /// The form of `puzzle` and `solution` (default `string`).
    pub form: BoardFormat,
    /// Whether the puzzle must be minimal (default `true`).
    pub minimal: bool,
    /// The side (default 9).
    pub size: usize,
    /// The rules beside rows, columns and boxes (default classic).
    pub variant: VariantKind,
}

impl Default for GenerateQuery {
    fn default() -> Self {
        GenerateQuery {
            difficulty: None,
            seed: None,
            symmetry: Symmetry::None,
            form: BoardFormat::String,
            minimal: true,
            size: 9,
            variant: VariantKind::Classic,
        }
    }
}

impl GenerateQuery {
    /// Reads the decoded `name=value` pairs of a query string.
    ///
    /// # Errors
    /// A [`ParameterError`] naming the first parameter that is unknown, repeated, or whose
    /// value is not one it takes.
    pub fn from_pairs(pairs: &[(String, String)]) -> Result<GenerateQuery, ParameterError> {
        let mut query = GenerateQuery::default();
        let pairs = checked_pairs(pairs, &GENERATE_PARAMETERS)?;
        for &(name, value) in &pairs {
            let error = ParameterError::of(name);
            match name {
                "difficulty" => {
                    query.difficulty = Some(value.parse().map_err(|e| error(format!("{e}")))?);
                }
                "seed" => query.seed = Some(parse_seed(value).map_err(error)?),
                "symmetry" => query.symmetry = value.parse().map_err(|e| error(format!("{e}")))?,
                "form" => query.form = parse_form(value).map_err(error)?,
                "size" => query.size = parse_size(value).map_err(error)?,
                "variant" => query.variant = parse_variant(value).map_err(error)?,
                _ => query.minimal = parse_bool(value).map_err(error)?,
            }
        }
        let seen: Vec<&str> = pairs.iter().map(|&(name, _)| name).collect();
        query.check_combination(&seen)?;
        Ok(query)
    }

    /// Whether this asks for a classic 9x9 puzzle, graded, from the classic generator.
    pub fn is_classic(&self) -> bool {
        self.size == 9 && self.variant == VariantKind::Classic
    }

    /// Variants are 9x9; grading and `minimal` are the classic generator's.
    fn check_combination(&self, seen: &[&str]) -> Result<(), ParameterError> {
        let refuse = |parameter: &str, message: String| ParameterError {
            parameter: parameter.to_owned(),
            message,
        };
        if self.variant != VariantKind::Classic && self.size != 9 {
            return Err(refuse(
                "variant",
                format!(
                    "variant {:?} is 9x9 only; size {} takes variant classic",
                    self.variant.as_str(),
                    self.size
                ),
            ));
        }
        if self.is_classic() {
            return Ok(());
        }
        for parameter in ["difficulty", "minimal"] {
            if seen.contains(&parameter) {
                return Err(refuse(
                    parameter,
                    format!(
                        "{parameter} is for classic 9x9 puzzles only; puzzles of other sizes \
                         and variants are made as sparse as a quick uniqueness check allows, \
                         and are not graded"
                    ),
                ));
            }
        }
        Ok(())
    }

    /// The general generator's options for this query, starting from `seed`.
    pub fn variant_options(&self, seed: u64) -> VariantOptions {
        VariantOptions {
            size: self.size,
            kind: self.variant,
            symmetry: self.symmetry,
            seed,
        }
    }

    /// The generator's options for this query, starting from `seed`.
    pub fn options(&self, seed: u64) -> GenerateOptions {
        GenerateOptions {
            difficulty: self.difficulty,
            symmetry: self.symmetry,
            minimal: self.minimal,
            seed,
            max_attempts: MAX_ATTEMPTS,
        }
    }
}

/// A seed: decimal digits only (no sign, no spaces), at most `u64::MAX`.
pub(super) fn parse_seed(value: &str) -> Result<u64, String> {
    let digits = !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit());
    digits
        .then(|| value.parse().ok())
        .flatten()
        .ok_or_else(|| format!("seed {value:?} is not an integer from 0 to {}", u64::MAX))
}

pub(super) fn parse_form(value: &str) -> Result<BoardFormat, String> {
    BoardFormat::ALL
        .into_iter()
        .find(|form| form.name() == value)
        .ok_or_else(|| format!("unknown form {value:?}: expected one of string, chars, numbers"))
}

fn parse_size(value: &str) -> Result<usize, String> {
    value
        .parse()
        .ok()
        .filter(|size: &usize| GENERATE_SIZES.contains(size) && size.to_string() == value)
        .ok_or_else(|| {
            let sizes: Vec<String> = GENERATE_SIZES.iter().map(ToString::to_string).collect();
            format!("size {value:?} is not one of {}", sizes.join(", "))
        })
}

fn parse_variant(value: &str) -> Result<VariantKind, String> {
    VariantKind::from_name(value).ok_or_else(|| {
        let names: Vec<&str> = VariantKind::ALL.iter().map(|kind| kind.as_str()).collect();
        format!(
            "unknown variant {value:?}: expected one of {}",
            names.join(", ")
        )
    })
}

pub(super) fn parse_bool(value: &str) -> Result<bool, String> {
    match value {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(format!("minimal {value:?} is not true or false")),
    }
}

/// The answer of `/generate`.
#[derive(Debug, Serialize)]
pub struct GenerateResponse {
    /// The puzzle, in the form asked for (empty cells `.`, `"."` or `0`).
    pub puzzle: Value,
    /// Its one solution, in the same form.
    pub solution: Value,
    /// The puzzle's difficulty (classic 9x9 puzzles only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub difficulty: Option<&'static str>,
    /// Its SE rating, one decimal (classic 9x9 puzzles only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rating: Option<f64>,
    /// The seed that makes this puzzle again at once (with the same difficulty, symmetry
    /// and minimal), as a decimal string: 64 bits are more than a JavaScript number holds.
    pub seed: String,
    /// The number of clues.
    pub clues: usize,
    /// The symmetry of the clues.
    pub symmetry: &'static str,
    /// The side of the board.
    pub size: usize,
    /// The rules beside the size's rows, columns and boxes, as `/solve` takes them; absent
    /// for a classic puzzle.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rules: Option<Value>,
}

impl GenerateResponse {
    /// The answer for `made`, its boards written in `form`.
    pub fn new(made: &Generated, form: BoardFormat) -> GenerateResponse {
        GenerateResponse {
            puzzle: render(&made.puzzle, form),
            solution: render(&made.solution, form),
            difficulty: Some(made.grade.difficulty.as_str()),
            rating: Some(made.grade.rating.value()),
            seed: made.seed.to_string(),
            clues: made.clues,
            symmetry: made.symmetry.as_str(),
            size: 9,
            rules: None,
        }
    }

    /// The answer for a puzzle of another size or a variant, made for `query`.
    pub fn of_variant(made: &GeneratedVariant, query: &GenerateQuery) -> GenerateResponse {
        let rules = rules_value(&made.rules);
        GenerateResponse {
            puzzle: render_sized(&made.puzzle, made.size, query.form),
            solution: render_sized(&made.solution, made.size, query.form),
            difficulty: None,
            rating: None,
            seed: made.seed.to_string(),
            clues: made.clues,
            symmetry: query.symmetry.as_str(),
            size: made.size,
            rules: (!rules.as_object().is_some_and(serde_json::Map::is_empty)).then_some(rules),
        }
    }
}

/// A query's pairs from string slices, for the tests of the query readers.
#[cfg(test)]
pub(super) fn test_pairs(query: &[(&str, &str)]) -> Vec<(String, String)> {
    query
        .iter()
        .map(|(n, v)| ((*n).to_owned(), (*v).to_owned()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::test_pairs as pairs;
    use super::*;

    fn refused(query: &[(&str, &str)]) -> ParameterError {
        GenerateQuery::from_pairs(&pairs(query)).expect_err("refused")
    }

    #[test]
    fn every_parameter_is_read_and_the_defaults_fill_the_rest() {
        assert_eq!(
            GenerateQuery::from_pairs(&[]).unwrap(),
            GenerateQuery::default()
        );
        let query = GenerateQuery::from_pairs(&pairs(&[
            ("difficulty", "expert"),
            ("seed", "18446744073709551615"),
            ("symmetry", "diagonal"),
            ("form", "numbers"),
            ("minimal", "false"),
        ]))
        .unwrap();
        assert_eq!(
            query,
            GenerateQuery {
                difficulty: Some(Difficulty::Expert),
                seed: Some(u64::MAX),
                symmetry: Symmetry::Diagonal,
                form: BoardFormat::Numbers,
                minimal: false,
                size: 9,
                variant: VariantKind::Classic,
            }
        );
        let options = query.options(7);
        assert_eq!((options.seed, options.minimal), (7, false));
    }

    #[test]
    fn a_bad_parameter_is_named() {
        for (query, name) in [
            (vec![("difficulty", "Hard")], "difficulty"),
            (vec![("difficulty", "")], "difficulty"),
            (vec![("seed", "-1")], "seed"),
            (vec![("seed", "+1")], "seed"),
            (vec![("seed", "1.0")], "seed"),
            (vec![("seed", "18446744073709551616")], "seed"),
            (vec![("seed", "")], "seed"),
            (vec![("symmetry", "spiral")], "symmetry"),
            (vec![("form", "line")], "form"),
            (vec![("minimal", "1")], "minimal"),
            (vec![("dificulty", "hard")], "dificulty"),
            (vec![("seed", "1"), ("seed", "2")], "seed"),
            (vec![("size", "7")], "size"),
            (vec![("size", "09")], "size"),
            (vec![("size", "26")], "size"),
            (vec![("variant", "sandwich")], "variant"),
            (vec![("variant", "killer"), ("size", "16")], "variant"),
            (vec![("size", "16"), ("difficulty", "easy")], "difficulty"),
            (vec![("variant", "jigsaw"), ("minimal", "true")], "minimal"),
        ] {
            let err = refused(&query);
            assert_eq!(err.parameter, name, "{query:?}: {err}");
            assert!(err.message.contains(name), "{query:?}: {err}");
        }
    }
}
