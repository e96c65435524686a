//! The JSON body and query extractors: our own errors instead of axum's plain-text
//! rejections.

use axum::body::Bytes;
use axum::extract::{FromRequest, FromRequestParts, Query, Request};
use axum::http::request::Parts;
use axum::http::{StatusCode, header};
use serde::de::DeserializeOwned;

use super::error::ApiError;
use super::wire::ParameterError;

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
/// shape (400 `invalid_board`), each as problem+json.
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
/// wrong shape (a body that is not an object, among others).
pub fn parse_json<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    // serde would read a struct from an array (`["..."]` as `{"board": "..."}`): refuse that.
    let first = bytes.iter().find(|b| !b.is_ascii_whitespace());
    if first.is_some_and(|&b| b != b'{')
        && serde_json::from_slice::<serde::de::IgnoredAny>(bytes).is_ok()
    {
        return Err(ApiError::InvalidRequest(
            "invalid request: the body must be a JSON object".into(),
        ));
    }
    serde_json::from_slice(bytes).map_err(|err| {
        use serde_json::error::Category;
        match err.classify() {
            Category::Data => ApiError::InvalidRequest(format!("invalid request: {err}")),
            Category::Syntax | Category::Eof | Category::Io => {
                ApiError::InvalidJson(err.to_string())
            }
        }
    })
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
}
