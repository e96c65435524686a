//! The JSON body and query extractors: our own errors instead of axum's plain-text
//! rejections.

use axum::body::Bytes;
use axum::extract::{FromRequest, FromRequestParts, Multipart, Query, Request};
use axum::http::request::Parts;
use axum::http::{StatusCode, header};
use serde::de::DeserializeOwned;

use super::error::ApiError;
use super::wire::{BoardError, ParameterError};

/// The query string as decoded `name=value` pairs, in order, repeats kept, for handlers
/// that read their parameters strictly (see [`super::wire::GenerateQuery`]).
#[derive(Debug)]
pub struct QueryPairs(pub Vec<(String, String)>);

impl<S: Send + Sync> FromRequestParts<S> for QueryPairs {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        // Percent-decoding is lossy (bad UTF-8 becomes U+FFFD), so this is not expected to
        // fail; if it does, the query as a whole is the parameter at fault.
        Query::<Vec<(String, String)>>::try_from_uri(&parts.uri)
            .map(|Query(pairs)| QueryPairs(pairs))
            .map_err(|rejection| {
                ApiError::InvalidParameter(ParameterError {
                    parameter: "query".into(),
                    message: format!("the query string cannot be read: {}", rejection.body_text()),
                })
            })
    }
}

/// A JSON request body of type `T`. Rejects a missing or non-JSON content type (415), a
/// body over the limit (413), malformed JSON (400 `invalid_json`) and JSON of the wrong
/// shape (400 `invalid_request`, with a JSON pointer to the member at fault), each as
/// problem+json.
#[derive(Debug)]
pub struct JsonBody<T>(pub T);

impl<S, T> FromRequest<S> for JsonBody<T>
where
    S: Send + Sync,
    T: DeserializeOwned,
{
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        check_json_content_type(req.headers().get(header::CONTENT_TYPE))?;
        let limit = req
            .extensions()
            .get::<BodyLimit>()
            .map_or(usize::MAX, |l| l.0);
        let bytes = Bytes::from_request(req, state).await.map_err(|rejection| {
            if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
                ApiError::PayloadTooLarge(limit)
            } else {
                ApiError::Other(rejection.status(), rejection.body_text())
            }
        })?;
        parse_json(&bytes).map(JsonBody)
    }
}

/// The image of a `/scan` request: the body itself (`image/jpeg`, `image/png`,
/// `image/webp`), or the `image` field of a `multipart/form-data` body (a browser form's
/// upload). Rejects another content type (415), a body over the limit (413) and a form
/// without the field (400 `invalid_image`).
#[derive(Debug)]
pub struct ImageBody(pub Bytes);

/// The image types `/scan` takes as a whole body.
const IMAGE_TYPES: [&str; 3] = ["image/jpeg", "image/png", "image/webp"];

impl<S: Send + Sync> FromRequest<S> for ImageBody {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let essence = req
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|value| value.to_str().ok())
            .and_then(|value| value.split(';').next())
            .map(|essence| essence.trim().to_ascii_lowercase())
            .unwrap_or_default();
        let limit = req
            .extensions()
            .get::<BodyLimit>()
            .map_or(usize::MAX, |l| l.0);
        let too_large = |status: StatusCode, text: String| {
            if status == StatusCode::PAYLOAD_TOO_LARGE {
                ApiError::PayloadTooLarge(limit)
            } else {
                ApiError::InvalidImage(text)
            }
        };
        if IMAGE_TYPES.contains(&essence.as_str()) {
            let bytes = Bytes::from_request(req, state)
                .await
                .map_err(|rejection| too_large(rejection.status(), rejection.body_text()))?;
            return Ok(ImageBody(bytes));
        }
        if essence == "multipart/form-data" {
            let mut form = Multipart::from_request(req, state)
                .await
                .map_err(|rejection| too_large(rejection.status(), rejection.body_text()))?;
            while let Some(field) = form
                .next_field()
                .await
                .map_err(|error| too_large(error.status(), error.body_text()))?
            {
                if field.name() == Some("image") {
                    let bytes = field
                        .bytes()
                        .await
                        .map_err(|error| too_large(error.status(), error.body_text()))?;
                    return Ok(ImageBody(bytes));
                }
            }
            return Err(ApiError::InvalidImage(
                "the form has no field named \"image\"".into(),
            ));
        }
        let sent = if essence.is_empty() {
            "missing Content-Type".to_owned()
        } else {
            format!("Content-Type {essence:?} is not supported")
        };
        Err(ApiError::UnsupportedMediaType(format!(
            "{sent}; send the photo as image/jpeg, image/png or image/webp, or as the field \
             \"image\" of multipart/form-data"
        )))
    }
}

/// The configured body limit, put into request extensions so errors can quote it.
#[derive(Debug, Clone, Copy)]
pub struct BodyLimit(pub usize);

/// Accepts `application/json` and any `application/*+json`, with parameters, any case.
fn check_json_content_type(value: Option<&header::HeaderValue>) -> Result<(), ApiError> {
    let Some(value) = value else {
        return Err(ApiError::UnsupportedMediaType(
            "missing Content-Type; send the body as application/json".into(),
        ));
    };
    // Compared without case and without a lowercased copy: this runs on every JSON request.
    let essence = value
        .to_str()
        .unwrap_or_default()
        .split(';')
        .next()
        .unwrap_or_default()
        .trim()
        .as_bytes();
    let (kind, subtype) = essence.split_at(essence.len().min(b"application/".len()));
    let is_json = kind.eq_ignore_ascii_case(b"application/")
        && (subtype.eq_ignore_ascii_case(b"json") || ends_with_ignoring_case(subtype, b"+json"));
    if is_json {
        Ok(())
    } else {
        Err(ApiError::UnsupportedMediaType(format!(
            "Content-Type {:?} is not supported; send the body as application/json",
            value.to_str().unwrap_or("<not text>")
        )))
    }
}

fn ends_with_ignoring_case(text: &[u8], suffix: &[u8]) -> bool {
    text.len() >= suffix.len() && text[text.len() - suffix.len()..].eq_ignore_ascii_case(suffix)
}

/// Parses JSON, telling broken JSON apart from JSON of the wrong shape.
///
/// # Errors
/// [`ApiError::InvalidJson`] for broken JSON, [`ApiError::InvalidRequest`] for JSON of the
/// wrong shape (a body that is not an object, among others), located by a JSON pointer.
pub fn parse_json<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    // serde would read a struct from an array (`["..."]` as `{"board": "..."}`): refuse that.
    let first = bytes.iter().find(|b| !b.is_ascii_whitespace());
    // A body that is not an object is broken JSON or the wrong shape as a whole.
    if let Some(&first) = first.filter(|&&b| b != b'{') {
        return Err(
            match serde_json::from_slice::<serde::de::IgnoredAny>(bytes) {
                Ok(_) => ApiError::InvalidRequest(BoardError::whole(
                    "",
                    format!("the body must be a JSON object, found {}", json_kind(first)),
                )),
                // The typed parse says why deep nesting fails (its recursion limit).
                Err(err) => match serde_json::from_slice::<T>(bytes) {
                    Err(typed) if !typed.is_data() => ApiError::InvalidJson(typed.to_string()),
                    _ => ApiError::InvalidJson(err.to_string()),
                },
            },
        );
    }
    let mut deserializer = serde_json::Deserializer::from_slice(bytes);
    let value = serde_path_to_error::deserialize(&mut deserializer).map_err(|err| {
        let pointer = json_pointer(err.path());
        shape_error(pointer, err.inner())
    })?;
    // Trailing bytes after the object are broken JSON, as serde_json::from_slice says.
    deserializer
        .end()
        .map_err(|err| ApiError::InvalidJson(err.to_string()))?;
    Ok(value)
}

/// The kind of JSON value that starts with `first`, for "found an array".
fn json_kind(first: u8) -> &'static str {
    match first {
        b'[' => "an array",
        b'"' => "a string",
        b't' | b'f' => "a boolean",
        b'n' => "null",
        _ => "a number",
    }
}

/// The JSON pointer (RFC 6901) of a serde path: `boards[3]` is `/boards/3`.
fn json_pointer(path: &serde_path_to_error::Path) -> String {
    use serde_path_to_error::Segment;
    let mut pointer = String::new();
    for segment in path {
        pointer.push('/');
        match segment {
            Segment::Seq { index } => pointer.push_str(&index.to_string()),
            Segment::Map { key } | Segment::Enum { variant: key } => {
                pointer.push_str(&key.replace('~', "~0").replace('/', "~1"));
            }
            Segment::Unknown => pointer.push('-'),
        }
    }
    pointer
}

/// The error of a body that failed to parse at `pointer`: broken JSON as the parser says it,
/// the wrong shape in the API's own words (serde's messages name Rust types and quote with
/// backticks; a client needs the member and what it should be).
fn shape_error(pointer: String, err: &serde_json::Error) -> ApiError {
    use serde_json::error::Category;
    if !matches!(err.classify(), Category::Data) {
        return ApiError::InvalidJson(err.to_string());
    }
    let full = err.to_string();
    // serde_json appends the place in the text; the pointer says it better.
    let location = format!(" at line {} column {}", err.line(), err.column());
    let message = full.strip_suffix(&location).unwrap_or(&full);
    let quoted = |text: &str| text.replace('`', "\"");
    let named = |text: &str| text.split('`').nth(1).unwrap_or_default().to_owned();
    let (pointer, message) = if let Some(rest) = message.strip_prefix("unknown field ") {
        // The path already ends at the unknown member.
        (
            pointer,
            format!(
                "unknown member {}",
                quoted(rest).replace("there are no fields", "none")
            ),
        )
    } else if let Some(rest) = message.strip_prefix("missing field ") {
        (
            format!("{pointer}/{}", named(rest)),
            format!("missing member {}", quoted(rest)),
        )
    } else if let Some(rest) = message.strip_prefix("duplicate field ") {
        (
            format!("{pointer}/{}", named(rest)),
            format!("member {} appears more than once", quoted(rest)),
        )
    } else if let Some((found, expected)) = message
        .strip_prefix("invalid type: ")
        .and_then(|rest| rest.rsplit_once(", expected "))
    {
        (
            pointer.clone(),
            format!(
                "{} must be {}, found {}",
                member_of(&pointer),
                json_expected(expected),
                json_found(found)
            ),
        )
    } else if let Some((found, expected)) = message
        .strip_prefix("invalid value: ")
        .and_then(|rest| rest.rsplit_once(", expected "))
    {
        // "integer `-1`": the value itself says more than its kind.
        let value = found.split('`').nth(1).unwrap_or(found);
        (
            pointer.clone(),
            format!(
                "{} must be {}, found {value}",
                member_of(&pointer),
                json_expected(expected)
            ),
        )
    } else {
        (pointer, quoted(message))
    };
    ApiError::InvalidRequest(BoardError::whole(&pointer, message))
}

/// The member a pointer ends at, quoted, as a sentence names it.
fn member_of(pointer: &str) -> String {
    match pointer.rsplit_once('/') {
        Some((_, member)) => format!("\"{member}\""),
        None => "the body".to_owned(),
    }
}

/// serde's "expected ..." in JSON's words.
fn json_expected(expected: &str) -> &str {
    match expected {
        "a sequence" => "an array",
        "a map" => "an object",
        "u8" | "u16" | "u32" | "u64" | "usize" => "an integer of 0 or more",
        "a boolean" | "boolean" => "true or false",
        other if other.starts_with("struct ") => "an object",
        other => other,
    }
}

/// serde's "invalid type: ..." subject (a string, an integer) in JSON's words.
fn json_found(found: &str) -> &'static str {
    match found.split([' ', '`']).next().unwrap_or_default() {
        "string" => "a string",
        "integer" | "floating" => "a number",
        "boolean" => "a boolean",
        "null" | "unit" => "null",
        "sequence" => "an array",
        "map" => "an object",
        _ => "another value",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    #[test]
    fn json_content_types_are_recognised() {
        for ok in [
            "application/json",
            "Application/JSON; charset=utf-8",
            "application/problem+json",
            "APPLICATION/Vnd.Api+JSON ; q=1",
            "application/+json",
        ] {
            assert!(
                check_json_content_type(Some(&HeaderValue::from_static(ok))).is_ok(),
                "{ok}"
            );
        }
        for bad in [
            "text/plain",
            "application/jsonx",
            "multipart/form-data",
            "",
            "text/json",
            "application/xml",
            "applicatio/json",
            "text/application/json",
        ] {
            assert!(
                check_json_content_type(Some(&HeaderValue::from_static(bad))).is_err(),
                "{bad:?}"
            );
        }
        assert!(check_json_content_type(None).is_err());
    }

    #[test]
    fn a_wrong_shape_points_at_its_member_escaped_as_rfc_6901_says() {
        let Err(ApiError::InvalidRequest(error)) =
            parse_json::<crate::http::wire::BoardRequest>(br#"{"a/b~": 1}"#)
        else {
            panic!("expected invalid_request");
        };
        assert_eq!(error.pointer, "/a~1b~0");
        assert_eq!(
            error.message,
            r#"unknown member "a/b~", expected one of "board", "rules", "fpuzzles""#
        );
        let Err(ApiError::InvalidRequest(error)) =
            parse_json::<crate::http::wire::BatchRequest>(br#"{"boards": 5}"#)
        else {
            panic!("expected invalid_request");
        };
        assert_eq!(error.pointer, "/boards");
        assert_eq!(
            error.message,
            r#""boards" must be an array, found a number"#
        );
        assert!(matches!(
            parse_json::<crate::http::wire::BoardRequest>(b"falsefa"),
            Err(ApiError::InvalidJson(_))
        ));
    }
}
