//! `/daily` on the wire: its query parameters, read as strictly as `/generate`'s, and its
//! answer, `/generate`'s with the date beside it.

use serde::Serialize;
use time::{Date, Month};

use super::board::BoardFormat;
use super::generate::{GenerateResponse, ParameterError, checked_pairs};
use sudoku::Difficulty;

/// The names `/daily` takes, in the order the spec lists them.
pub const DAILY_PARAMETERS: [&str; 3] = ["difficulty", "date", "form"];

/// The difficulty of a request that names none.
pub const DEFAULT_DAILY_DIFFICULTY: Difficulty = Difficulty::Medium;

/// The first day with a daily puzzle: the archive has to start somewhere, and a date before
/// this one is more likely a typo than a wish.
pub const FIRST_DAILY_DATE: Date = match Date::from_calendar_date(2000, Month::January, 1) {
    Ok(date) => date,
    Err(_) => panic!("2000-01-01 is a date"),
};

/// What a `/daily` request asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DailyQuery {
    /// The difficulty (default medium).
    pub difficulty: Difficulty,
    /// The day, UTC; today when absent.
    pub date: Option<Date>,
    /// The form of `puzzle` and `solution` (default `string`).
    pub form: BoardFormat,
}

impl DailyQuery {
    /// Reads the decoded `name=value` pairs of a query string.
    ///
    /// # Errors
    /// A [`ParameterError`] naming the first parameter that is unknown, repeated, or whose
    /// value is not one it takes (a date that is not `YYYY-MM-DD`, not a day of the
    /// calendar, or before [`FIRST_DAILY_DATE`]).
    pub fn from_pairs(pairs: &[(String, String)]) -> Result<DailyQuery, ParameterError> {
        let mut query = DailyQuery {
            difficulty: DEFAULT_DAILY_DIFFICULTY,
            date: None,
            form: BoardFormat::String,
        };
        for (name, value) in checked_pairs(pairs, &DAILY_PARAMETERS)? {
            let error = ParameterError::of(name);
            match name {
                "difficulty" => {
                    query.difficulty = value.parse().map_err(|e| error(format!("{e}")))?;
                }
                "date" => query.date = Some(parse_date(value).map_err(error)?),
                _ => {
                    query.form = BoardFormat::ALL
                        .into_iter()
                        .find(|form| form.name() == value)
                        .ok_or_else(|| {
                            error(format!(
                                "unknown form {value:?}: expected one of string, chars, numbers"
                            ))
                        })?;
                }
            }
        }
        Ok(query)
    }
}

/// A day as `YYYY-MM-DD` (ISO 8601's calendar date, four-digit year), from
/// [`FIRST_DAILY_DATE`] on.
///
/// # Errors
/// A sentence saying what is wrong with `value`.
pub fn parse_date(value: &str) -> Result<Date, String> {
    let bytes = value.as_bytes();
    let shaped = bytes.len() == 10
        && bytes.iter().enumerate().all(|(i, byte)| match i {
            4 | 7 => *byte == b'-',
            _ => byte.is_ascii_digit(),
        });
    if !shaped {
        return Err(format!("date {value:?} is not a day written YYYY-MM-DD"));
    }
    // Only ASCII digits are left in each field, so each parses.
    let field = |range: std::ops::Range<usize>| value[range].parse::<u16>().unwrap_or(0);
    let date = Month::try_from(field(5..7) as u8)
        .ok()
        .and_then(|month| {
            Date::from_calendar_date(i32::from(field(0..4)), month, field(8..10) as u8).ok()
        })
        .ok_or_else(|| format!("date {value:?} is not a day of the calendar"))?;
    if date < FIRST_DAILY_DATE {
        return Err(format!(
            "date {value:?} is before {FIRST_DAILY_DATE}, the first day with a daily puzzle"
        ));
    }
    Ok(date)
}

/// The answer of `/daily`: the puzzle as `/generate` answers it, and its day.
#[derive(Debug, Serialize)]
pub struct DailyResponse {
    /// The day, `YYYY-MM-DD`, UTC.
    pub date: String,
    /// The puzzle, its solution, difficulty, rating, seed, clues, symmetry and size.
    #[serde(flatten)]
    pub puzzle: GenerateResponse,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::http::wire::generate::test_pairs as pairs;

    #[test]
    fn the_defaults_are_a_medium_puzzle_of_today_as_a_string() {
        let query = DailyQuery::from_pairs(&[]).unwrap();
        assert_eq!(
            query,
            DailyQuery {
                difficulty: Difficulty::Medium,
                date: None,
                form: BoardFormat::String,
            }
        );
        let query = DailyQuery::from_pairs(&pairs(&[
            ("date", "2024-02-29"),
            ("difficulty", "expert"),
            ("form", "numbers"),
        ]))
        .unwrap();
        assert_eq!(query.difficulty, Difficulty::Expert);
        assert_eq!(
            query.date.map(|date| date.to_string()).unwrap(),
            "2024-02-29"
        );
        assert_eq!(query.form, BoardFormat::Numbers);
    }

    #[test]
    fn a_bad_parameter_is_named() {
        for (query, name) in [
            (vec![("date", "2024-2-29")], "date"),
            (vec![("date", "2023-02-29")], "date"),
            (vec![("date", "2024-13-01")], "date"),
            (vec![("date", "2024-00-10")], "date"),
            (vec![("date", "2024-01-32")], "date"),
            (vec![("date", "+2024-01-01")], "date"),
            (vec![("date", "2024-01-01T00:00")], "date"),
            (vec![("date", "today")], "date"),
            (vec![("date", "")], "date"),
            (vec![("date", "1999-12-31")], "date"),
            (vec![("difficulty", "Hard")], "difficulty"),
            (vec![("form", "line")], "form"),
            (vec![("seed", "1")], "seed"),
            (vec![("date", "2024-01-01"), ("date", "2024-01-02")], "date"),
        ] {
            let err = DailyQuery::from_pairs(&pairs(&query)).expect_err("refused");
            assert_eq!(err.parameter, name, "{query:?}: {err}");
            assert!(err.message.contains(name), "{query:?}: {err}");
        }
    }

    #[test]
    fn the_first_day_is_the_first_accepted() {
        assert_eq!(parse_date("2000-01-01"), Ok(FIRST_DAILY_DATE));
    }
}
