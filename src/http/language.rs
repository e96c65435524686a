//! `Accept-Language` (RFC 9110, 12.5.4): which table the explanations are written from.
//!
//! Language ranges are matched by their primary subtag (`de-CH` picks German), as RFC
//! 4647's lookup falls back from a longer tag to a shorter one; `q=0` refuses a language,
//! `*` takes any not refused; the highest weight wins, the earlier range among equals.
//! Anything unreadable or unmatched falls back to English: a header never fails a request.
//!
//! Why not the `accept-language` crate: it keeps ranges of `q=0` as acceptable and matches
//! tags only whole (`de-CH` is not `de`), which are the two things this needs.

use std::convert::Infallible;

use axum::extract::FromRequestParts;
use axum::http::header::{self, HeaderValue};
use axum::http::request::Parts;
use axum::response::{IntoResponse, IntoResponseParts, Response, ResponseParts};

use sudoku::messages::Language;

/// The language a request's `Accept-Language` picks among those with a table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AcceptLanguage(pub Language);

impl<S: Send + Sync> FromRequestParts<S> for AcceptLanguage {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        // Several header lines are one comma-separated list (RFC 9110, 5.3).
        let header = parts
            .headers
            .get_all(header::ACCEPT_LANGUAGE)
            .iter()
            .filter_map(|value| value.to_str().ok())
            .collect::<Vec<_>>()
            .join(",");
        Ok(AcceptLanguage(negotiate(&header)))
    }
}

/// Marks an answer as written in a language: `Content-Language`, and `Vary:
/// Accept-Language` so that a cache keeps one copy per language.
#[derive(Debug, Clone, Copy)]
pub struct ContentLanguage(pub Language);

impl IntoResponseParts for ContentLanguage {
    type Error = Infallible;

    fn into_response_parts(self, mut parts: ResponseParts) -> Result<ResponseParts, Infallible> {
        let headers = parts.headers_mut();
        headers.insert(
            header::CONTENT_LANGUAGE,
            HeaderValue::from_static(self.0.tag()),
        );
        headers.append(header::VARY, HeaderValue::from_static("accept-language"));
        Ok(parts)
    }
}

impl IntoResponse for ContentLanguage {
    fn into_response(self) -> Response {
        (self, ()).into_response()
    }
}

/// The language `header` (an `Accept-Language` value) prefers among [`Language::ALL`];
/// English when it prefers none of them.
pub fn negotiate(header: &str) -> Language {
    let ranges: Vec<(&str, u16)> = header.split(',').filter_map(weighed_range).collect();
    let refused = |language: Language| {
        ranges
            .iter()
            .any(|&(range, q)| q == 0 && primary(range).eq_ignore_ascii_case(language.tag()))
    };
    let mut best: Option<(u16, Language)> = None;
    for &(range, q) in &ranges {
        if q == 0 {
            continue;
        }
        let language = if range == "*" {
            Language::ALL.into_iter().find(|&l| !refused(l))
        } else {
            Language::from_tag(primary(range)).filter(|&l| !refused(l))
        };
        if let Some(language) = language {
            // Strictly higher only: among equal weights the earlier range wins.
            if best.is_none_or(|(top, _)| q > top) {
                best = Some((q, language));
            }
        }
    }
    best.map_or(Language::English, |(_, language)| language)
}

/// One element of the list: its range and its weight in thousandths; `None` when it is
/// empty or malformed (an unreadable weight, a range that is not letters, digits and
/// hyphens).
fn weighed_range(element: &str) -> Option<(&str, u16)> {
    let mut parts = element.split(';').map(str::trim);
    let range = parts.next().filter(|r| !r.is_empty())?;
    let well_formed = range == "*"
        || range.split('-').all(|tag| {
            (1..=8).contains(&tag.len()) && tag.bytes().all(|b| b.is_ascii_alphanumeric())
        });
    if !well_formed {
        return None;
    }
    let mut weight = 1000;
    for parameter in parts {
        let (name, value) = parameter.split_once('=')?;
        if name.trim().eq_ignore_ascii_case("q") {
            weight = qvalue(value.trim())?;
        }
    }
    Some((range, weight))
}

/// A weight as RFC 9110 writes one: `0` to `1` with at most three decimals, in
/// thousandths.
fn qvalue(text: &str) -> Option<u16> {
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    if fraction.len() > 3 || !fraction.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let thousandths: u16 = format!("{fraction:0<3}").parse().ok()?;
    match whole {
        "0" => Some(thousandths),
        "1" if thousandths == 0 => Some(1000),
        _ => None,
    }
}

/// The primary subtag of a range: `de` of `de-CH`.
fn primary(range: &str) -> &str {
    range.split('-').next().unwrap_or(range)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_highest_weight_among_the_tables_wins() {
        for (header, expected) in [
            ("de", Language::German),
            ("de-CH", Language::German),
            ("DE-de", Language::German),
            ("fr, de;q=0.5, en;q=0.4", Language::German),
            ("en;q=0.8, de;q=0.9", Language::German),
            ("de;q=0.5, en", Language::English),
            ("fr-FR, fr;q=0.9", Language::English),
            ("", Language::English),
            ("*", Language::English),
            ("en;q=0, *", Language::German),
            ("de;q=0, *;q=0.5", Language::English),
            ("de;q=0", Language::English),
            // Equal weights: the earlier range.
            ("de;q=0.7, en;q=0.7", Language::German),
            ("en, de", Language::English),
        ] {
            assert_eq!(negotiate(header), expected, "{header:?}");
        }
    }

    #[test]
    fn malformed_elements_are_skipped_not_fatal() {
        for (header, expected) in [
            ("de;q=2, en;q=0.1", Language::English),
            ("de;q=abc", Language::English),
            ("de;q=0.1234, en;q=0.1", Language::English),
            ("d e, de;q=0.3", Language::German),
            (",,de,,", Language::German),
            ("de;q", Language::English),
            ("toolongtag-de, de;q=0.2", Language::German),
            ("de ; q = 0.5", Language::German),
        ] {
            assert_eq!(negotiate(header), expected, "{header:?}");
        }
    }

    #[test]
    fn weights_are_read_in_thousandths() {
        assert_eq!(qvalue("1"), Some(1000));
        assert_eq!(qvalue("1.000"), Some(1000));
        assert_eq!(qvalue("0.5"), Some(500));
        assert_eq!(qvalue("0.05"), Some(50));
        assert_eq!(qvalue("0"), Some(0));
        for bad in ["1.001", "2", "-0.5", "0.", ".5", "0.5x", ""] {
            // "0." is allowed by the grammar; the rest are not.
            let expected = (bad == "0.").then_some(0);
            assert_eq!(qvalue(bad), expected, "{bad:?}");
        }
    }
}
