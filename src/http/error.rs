//! Every failure of the API, answered as `application/problem+json` (RFC 9457): its
//! status, its stable code, and the [`Problem`] body it is sent as.

use std::sync::LazyLock;

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use prometheus_client::metrics::counter::Counter;

use super::wire::{BoardError, ConflictBody, ParameterError, Problem};
use crate::config::RETRY_AFTER_SECS;
use sudoku::GenerateError;
use sudoku::variant::VariantGenerateError;

/// The media type of every error body.
pub const PROBLEM_JSON: &str = "application/problem+json";

/// The `WWW-Authenticate` challenge of a 401 (RFC 6750, section 3).
pub const CHALLENGE: &str = "Bearer realm=\"sudoku-service\"";

/// An error answer. The `code` of each variant is stable and documented in `openapi.yaml`.
#[derive(Debug, Clone, thiserror::Error)]
pub enum ApiError {
    /// The body is not JSON (or not UTF-8, or nested too deep).
    #[error("the request body is not valid JSON: {0}")]
    InvalidJson(String),
    /// The JSON has the wrong shape: a missing or unknown member, or a wrong type; the
    /// error points at the member (a JSON pointer, empty for the whole body).
    #[error("{0}")]
    InvalidRequest(BoardError),
    /// The board itself is malformed; each error points at a row or cell.
    #[error("{}", .0.iter().map(ToString::to_string).collect::<Vec<_>>().join("; "))]
    InvalidBoard(Vec<BoardError>),
    /// The `rules` are malformed (a region of the wrong size, a cage off the board, ...);
    /// the error points at the member.
    #[error("{0}")]
    InvalidRules(BoardError),
    /// The endpoint answers only classic 9x9 boards for now, and the request has rules or
    /// another size; the answer named, as in "grading".
    #[error(
        "{0} is for classic 9x9 boards for now; /solve, /solve/batch and /validate take every \
         size from 4x4 to 25x25 and the variant rules"
    )]
    UnsupportedRules(&'static str),
    /// The `fpuzzles` member is no f-puzzles data (broken JSON or base64, a member of the
    /// wrong shape, rules that do not fit the grid); the error points at the member.
    #[error("{0}")]
    InvalidFpuzzles(BoardError),
    /// The f-puzzles data has constraints the general engine does not know: their names.
    #[error(
        "the f-puzzles constraints {} are not supported; the general engine takes killer cages, \
         jigsaw regions, diagonals, extra regions, anti-knight, anti-king, odd and even cells \
         and thermometers",
        .0.join(", ")
    )]
    UnsupportedConstraints(Vec<String>),
    /// A query parameter (or a body field such as `/explain`'s `max_steps`) is unknown,
    /// repeated, or has a value it cannot take.
    #[error("{0}")]
    InvalidParameter(ParameterError),
    /// The body is not declared as JSON.
    #[error("{0}")]
    UnsupportedMediaType(String),
    /// The request's `Host` breaks HTTP/1.1's rules (RFC 9112, section 3.2): none on an
    /// HTTP/1.1 request, more than one, or one that is not a host with an optional port.
    #[error("{0}")]
    InvalidHost(String),
    /// The body comes in a transfer coding this server does not decode (all but `chunked`).
    #[error("{0}")]
    UnsupportedTransferCoding(String),
    /// The body is over the configured limit.
    #[error("the request body is larger than the limit of {0} bytes")]
    PayloadTooLarge(usize),
    /// `/scan`: the body is no image, or a truncated or corrupt one.
    #[error("{0}")]
    InvalidImage(String),
    /// `/scan`: the image's header declares more pixels than the limit; nothing was decoded.
    #[error("{0}")]
    ImageTooLarge(String),
    /// `/scan`: no Sudoku grid was found in the photo.
    #[error("no Sudoku grid was found in the image; photograph the whole grid, flat and in focus")]
    NoGridFound,
    /// No route at that path.
    #[error("no resource at {0}")]
    NotFound(String),
    /// The route exists, but not for that method.
    #[error("method {0} is not allowed here")]
    MethodNotAllowed(String),
    /// The puzzle has no solution; `conflicts` lists clashing givens, if any.
    #[error("the puzzle has no solution")]
    NoSolution(Vec<ConflictBody>),
    /// The puzzle has more than one solution, and the answer needs exactly one (a grade, a
    /// hint or an explanation: a person's path and the uniqueness techniques both assume
    /// one); the answer named, as in "grading needs exactly one".
    #[error("the puzzle has more than one solution; {0} needs exactly one")]
    MultipleSolutions(&'static str),
    /// `/hint`: the board does not keep the puzzle's givens (one is changed or erased);
    /// the error points at the board's cell.
    #[error("{}", .0.iter().map(ToString::to_string).collect::<Vec<_>>().join("; "))]
    GivensChanged(Vec<BoardError>),
    /// The generator found no puzzle of the difficulty asked for within its deadline or
    /// attempts; another try (without a seed, or with another one) may find one.
    #[error("{0}; retry without a seed (or with another one), or ask for another difficulty")]
    GenerateLimit(GenerateError),
    /// The day's puzzle was not made within the deadline; every try makes the same one, so
    /// only a less busy server makes it sooner.
    #[error("{0}; the daily puzzle is the same on every try: retry in a moment")]
    DailyLimit(GenerateError),
    /// `/daily` was asked for a day that has not begun yet (UTC): its puzzle is not out.
    #[error("no daily puzzle for {0} yet: it is a day after today ({1}, UTC)")]
    DateInFuture(String, String),
    /// A puzzle of another size or a variant was not finished within the deadline.
    #[error("{0}; retry, or ask for a smaller size")]
    VariantGenerateLimit(VariantGenerateError),
    /// The solver's safety budget ran out: this is not a proof that no solution exists.
    #[error("the search gave up after {0} guesses; this does not prove the puzzle unsolvable")]
    SearchLimit(u64),
    /// Every solver slot is busy and the waiting line is full.
    #[error("the server is busy; retry after {RETRY_AFTER_SECS} s")]
    Overloaded,
    /// The public address holds as many connections as it may: this one gets this answer
    /// and is closed.
    #[error("the server holds as many connections as it may; retry after {RETRY_AFTER_SECS} s")]
    ConnectionsFull,
    /// API keys are configured and the request carries no valid one.
    #[error("{0}")]
    Unauthorized(String),
    /// This client has spent its quota; `retry_after` is when the request would pass, or
    /// `None` when it never can (it costs more than the whole quota).
    #[error("{detail}")]
    RateLimited {
        /// What was spent and when to come back.
        detail: String,
        /// Seconds until this request would pass.
        retry_after: Option<u64>,
    },
    /// The request took longer than the configured deadline.
    #[error("the request did not complete within {0} s")]
    Timeout(u64),
    /// Shutdown has begun; the load balancer should send traffic elsewhere.
    #[error("the server is shutting down")]
    NotReady,
    /// A bug; details are logged, never sent.
    #[error("internal error")]
    Internal(String),
    /// Any other client error produced below the handlers, kept with its status.
    #[error("{1}")]
    Other(StatusCode, String),
}

impl ApiError {
    /// The HTTP status of this error.
    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::InvalidJson(_)
            | ApiError::InvalidRequest(_)
            | ApiError::InvalidBoard(_)
            | ApiError::InvalidRules(_)
            | ApiError::InvalidFpuzzles(_)
            | ApiError::InvalidParameter(_)
            | ApiError::InvalidImage(_)
            | ApiError::InvalidHost(_) => StatusCode::BAD_REQUEST,
            ApiError::UnsupportedTransferCoding(_) => StatusCode::NOT_IMPLEMENTED,
            ApiError::UnsupportedMediaType(_) => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            ApiError::PayloadTooLarge(_) | ApiError::ImageTooLarge(_) => {
                StatusCode::PAYLOAD_TOO_LARGE
            }
            ApiError::NotFound(_) | ApiError::DateInFuture(..) => StatusCode::NOT_FOUND,
            ApiError::MethodNotAllowed(_) => StatusCode::METHOD_NOT_ALLOWED,
            ApiError::Unauthorized(_) => StatusCode::UNAUTHORIZED,
            ApiError::RateLimited { .. } => StatusCode::TOO_MANY_REQUESTS,
            ApiError::NoSolution(_)
            | ApiError::MultipleSolutions(_)
            | ApiError::UnsupportedRules(_)
            | ApiError::UnsupportedConstraints(_)
            | ApiError::GivensChanged(_)
            | ApiError::NoGridFound => StatusCode::UNPROCESSABLE_ENTITY,
            ApiError::SearchLimit(_)
            | ApiError::GenerateLimit(_)
            | ApiError::DailyLimit(_)
            | ApiError::VariantGenerateLimit(_)
            | ApiError::Overloaded
            | ApiError::ConnectionsFull
            | ApiError::NotReady => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::Timeout(_) => StatusCode::REQUEST_TIMEOUT,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
            ApiError::Other(status, _) => *status,
        }
    }

    /// The stable, machine-readable code.
    pub fn code(&self) -> &'static str {
        match self {
            ApiError::InvalidJson(_) => "invalid_json",
            ApiError::InvalidRequest(_) => "invalid_request",
            ApiError::InvalidBoard(_) => "invalid_board",
            ApiError::InvalidRules(_) => "invalid_rules",
            ApiError::UnsupportedRules(_) | ApiError::UnsupportedConstraints(_) => {
                "unsupported_rules"
            }
            ApiError::InvalidFpuzzles(_) => "invalid_fpuzzles",
            ApiError::InvalidParameter(_) => "invalid_parameter",
            ApiError::InvalidHost(_) => "invalid_host",
            ApiError::UnsupportedTransferCoding(_) => "unsupported_transfer_coding",
            ApiError::UnsupportedMediaType(_) => "unsupported_media_type",
            ApiError::PayloadTooLarge(_) => "payload_too_large",
            ApiError::InvalidImage(_) => "invalid_image",
            ApiError::ImageTooLarge(_) => "image_too_large",
            ApiError::NoGridFound => "no_grid_found",
            ApiError::NotFound(_) => "not_found",
            ApiError::DateInFuture(..) => "date_in_future",
            ApiError::MethodNotAllowed(_) => "method_not_allowed",
            ApiError::NoSolution(_) => "no_solution",
            ApiError::MultipleSolutions(_) => "multiple_solutions",
            ApiError::GivensChanged(_) => "givens_changed",
            ApiError::SearchLimit(_)
            | ApiError::GenerateLimit(_)
            | ApiError::DailyLimit(_)
            | ApiError::VariantGenerateLimit(_) => "search_limit",
            ApiError::Overloaded | ApiError::ConnectionsFull => "overloaded",
            ApiError::Unauthorized(_) => "unauthorized",
            ApiError::RateLimited { .. } => "rate_limited",
            ApiError::Timeout(_) => "timeout",
            ApiError::NotReady => "not_ready",
            ApiError::Internal(_) => "internal",
            ApiError::Other(..) => "bad_request",
        }
    }

    /// The problem object, as sent.
    pub fn to_problem(&self) -> Problem {
        let status = self.status();
        let code = self.code();
        Problem {
            type_uri: format!("urn:sudoku-service:problem:{code}"),
            title: status.canonical_reason().unwrap_or("Error").to_owned(),
            status: status.as_u16(),
            detail: self.to_string(),
            code,
            errors: match self {
                ApiError::InvalidBoard(errors) | ApiError::GivensChanged(errors) => {
                    Some(errors.clone())
                }
                ApiError::InvalidRequest(error)
                | ApiError::InvalidRules(error)
                | ApiError::InvalidFpuzzles(error) => Some(vec![error.clone()]),
                _ => None,
            },
            conflicts: match self {
                ApiError::NoSolution(conflicts) => Some(conflicts.clone()),
                _ => None,
            },
            parameter: match self {
                ApiError::InvalidParameter(error) => Some(error.parameter.clone()),
                _ => None,
            },
        }
    }
}

impl From<BoardError> for ApiError {
    fn from(error: BoardError) -> Self {
        ApiError::InvalidBoard(vec![error])
    }
}

impl From<ParameterError> for ApiError {
    fn from(error: ParameterError) -> Self {
        ApiError::InvalidParameter(error)
    }
}

impl From<sudoku_scan::ScanError> for ApiError {
    fn from(error: sudoku_scan::ScanError) -> Self {
        use sudoku_scan::ScanError;
        match error {
            ScanError::InvalidImage(_) => ApiError::InvalidImage(error.to_string()),
            ScanError::UnsupportedFormat(_) => ApiError::UnsupportedMediaType(error.to_string()),
            ScanError::TooManyPixels { .. } => ApiError::ImageTooLarge(error.to_string()),
            ScanError::NoGridFound => ApiError::NoGridFound,
        }
    }
}

impl From<VariantGenerateError> for ApiError {
    fn from(error: VariantGenerateError) -> Self {
        match error {
            // The query is checked first, so no size or variant the generator refuses
            // reaches it; should one, the caller hears which parameter.
            VariantGenerateError::Unsupported(message) => {
                ApiError::InvalidParameter(ParameterError {
                    parameter: "size".to_owned(),
                    message,
                })
            }
            VariantGenerateError::Stopped => ApiError::VariantGenerateLimit(error),
        }
    }
}

impl From<GenerateError> for ApiError {
    fn from(error: GenerateError) -> Self {
        ApiError::GenerateLimit(error)
    }
}

/// Answers (whole or a batch's board) of 503 `search_limit` because a search ran out of
/// its guess budget, since the start; also in `/metrics`. Counted here, where every such
/// answer is made from the solver's [`sudoku::BudgetExhausted`].
pub fn search_limit_answers() -> Counter {
    SEARCH_LIMIT_ANSWERS.clone()
}

static SEARCH_LIMIT_ANSWERS: LazyLock<Counter> = LazyLock::new(Counter::default);

impl From<sudoku::BudgetExhausted> for ApiError {
    fn from(exhausted: sudoku::BudgetExhausted) -> Self {
        SEARCH_LIMIT_ANSWERS.inc();
        ApiError::SearchLimit(exhausted.guesses)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        if let ApiError::Internal(reason) = &self {
            // Logged once here; the client only learns that it was our fault.
            tracing::error!(%reason, "internal error");
        }
        let status = self.status();
        let body = serde_json::to_vec(&self.to_problem()).unwrap_or_default();
        let mut response = (status, body).into_response();
        let headers = response.headers_mut();
        headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(PROBLEM_JSON));
        // A generator that ran out of time may well find a puzzle on the next try, and a
        // full pool frees up within a second or so: both say when to come back.
        match self {
            ApiError::Overloaded
            | ApiError::ConnectionsFull
            | ApiError::GenerateLimit(_)
            | ApiError::DailyLimit(_)
            | ApiError::VariantGenerateLimit(_) => {
                headers.insert(header::RETRY_AFTER, HeaderValue::from(RETRY_AFTER_SECS));
            }
            ApiError::RateLimited {
                retry_after: Some(seconds),
                ..
            } => {
                headers.insert(header::RETRY_AFTER, HeaderValue::from(seconds));
            }
            ApiError::Unauthorized(_) => {
                headers.insert(
                    header::WWW_AUTHENTICATE,
                    HeaderValue::from_static(CHALLENGE),
                );
            }
            _ => {}
        }
        response
    }
}
