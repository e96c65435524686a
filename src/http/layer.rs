//! The middleware around the routes: deadline, the request head's check, problem bodies for
//! axum's own errors,
//! request logs and ids, CORS, and the headers a security scanner looks for (caching
//! among them).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderName, HeaderValue, Method, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use tower_http::cors::{AllowOrigin, Any, CorsLayer};
use tower_http::request_id::{MakeRequestId, RequestId};

use super::auth::X_API_KEY;
use super::error::{ApiError, PROBLEM_JSON};
use super::extract::BodyLimit;
use super::head;
use super::limit::{RATELIMIT, RATELIMIT_POLICY};
use super::metrics::{Metrics, Tally};
use super::state::{CorsOrigins, Limits};

/// The policy of every answer that sets none of its own (all but the playground's, whose
/// own is stricter for a page): JSON and YAML load nothing and are framed by nobody.
pub(super) const API_CONTENT_SECURITY_POLICY: &str = "default-src 'none'; frame-ancestors 'none'";

/// The caching of every answer that sets none of its own (all but the playground's files,
/// which are revalidated by their `ETag`).
const API_CACHE_CONTROL: &str = "no-store";

/// The header that carries a request's id, taken from the client or made up.
pub(super) const REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

/// Request ids shaped as UUIDs (version 4, lowercase, hyphenated), made without a
/// `getrandom` system call per request (which `MakeRequestUuid` makes, on every request of
/// every endpoint).
///
/// Unique within the process: the low 62 bits are a bijection of a counter that never
/// repeats (2^62 requests), the rest a key drawn once at start (60 random bits), which
/// also tells the ids of different processes apart. Not secret and not meant to be: an id
/// names a request in the logs, and a client may send its own.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct MakeRequestIds;

impl MakeRequestId for MakeRequestIds {
    fn make_request_id<B>(&mut self, _request: &Request<B>) -> Option<RequestId> {
        let mut text = uuid::Uuid::encode_buffer();
        let id = next_request_uuid().hyphenated().encode_lower(&mut text);
        HeaderValue::from_str(id).ok().map(RequestId::new)
    }
}

/// The next request id of this process (see [`MakeRequestIds`]).
fn next_request_uuid() -> uuid::Uuid {
    static KEY: OnceLock<(u64, u64)> = OnceLock::new();
    static COUNT: AtomicU64 = AtomicU64::new(0);
    let (high, low) = *KEY.get_or_init(|| uuid::Uuid::new_v4().as_u64_pair());
    let count = COUNT.fetch_add(1, Ordering::Relaxed);
    // The version (4) in bits 12-15 of the high half, the variant (0b10) in the top two
    // bits of the low half, as in a random UUID.
    let high = (high & !0xf000) | 0x4000;
    let low = (1 << 63) | scramble_62(count ^ low);
    uuid::Uuid::from_u64_pair(high, low)
}

/// A bijection of the numbers below 2^62 (of the low 62 bits of `value`) that looks
/// random: multiplications by odd constants and xor-shifts, each one-to-one modulo 2^62.
/// The constants are those of `SplitMix64`.
fn scramble_62(value: u64) -> u64 {
    const MASK: u64 = (1 << 62) - 1;
    let mut x = value & MASK;
    x = x.wrapping_mul(0x9e37_79b9_7f4a_7c15) & MASK;
    x ^= x >> 31;
    x = x.wrapping_mul(0xbf58_476d_1ce4_e5b9) & MASK;
    x ^= x >> 29;
    x
}

/// The span every request's log lines belong to.
pub(super) fn request_span(request: &Request<Body>) -> tracing::Span {
    let id = request
        .headers()
        .get(&REQUEST_ID)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("-");
    tracing::info_span!(
        "request",
        method = %request.method(),
        path = %LoggedPath(request.uri().path()),
        request_id = %id,
        // The API key's label, once the gate has found a valid key (never the key).
        client = tracing::field::Empty,
    )
}

/// A request's path as the log shows it: each byte outside the characters RFC 3986 allows in
/// a path (letters, digits, `-._~!$&'()*+,;=:@/` and `%`) percent-encoded. hyper lets quotes,
/// braces, backslashes and any UTF-8 through (Unicode spaces and line separators too), which
/// would otherwise forge fields and lines of the text format.
struct LoggedPath<'a>(&'a str);

impl std::fmt::Display for LoggedPath<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let is_kept =
            |byte: u8| byte.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=:@/%".contains(&byte);
        let mut run = 0;
        for (at, &byte) in self.0.as_bytes().iter().enumerate() {
            if !is_kept(byte) {
                // The run before is ASCII, so it starts and ends on character boundaries.
                f.write_str(self.0.get(run..at).unwrap_or_default())?;
                write!(f, "%{byte:02X}")?;
                run = at + 1;
            }
        }
        f.write_str(self.0.get(run..).unwrap_or_default())
    }
}

/// Logs each request once, inside its span: probes and scrapes at DEBUG (they come every
/// few seconds from every orchestrator), everything else at INFO.
pub(super) async fn log_request(request: Request, next: Next) -> Response {
    let started = std::time::Instant::now();
    let quiet = is_quiet(&request);
    let response = next.run(request).await;
    log_done(started, quiet, &response);
    response
}

fn is_quiet(request: &Request) -> bool {
    matches!(request.uri().path(), "/healthz" | "/readyz" | "/metrics")
}

fn log_done(started: std::time::Instant, quiet: bool, response: &Response) {
    let status = response.status().as_u16();
    // Whole microseconds: resolution enough, and an integer is much cheaper to format
    // than a float, on every request.
    let latency_us = u64::try_from(started.elapsed().as_micros()).unwrap_or(u64::MAX);
    if quiet {
        tracing::debug!(status, latency_us, "request done");
    } else {
        tracing::info!(status, latency_us, "request done");
    }
}

/// A client's `x-request-id` is kept only when it is usable in logs: 1 to 128 visible
/// ASCII characters. Otherwise a fresh id is made, as if none had been sent.
pub(super) async fn drop_unusable_request_id(mut request: Request) -> Request {
    let usable = request.headers().get(&REQUEST_ID).map(|id| {
        let bytes = id.as_bytes();
        !bytes.is_empty() && bytes.len() <= 128 && bytes.iter().all(u8::is_ascii_graphic)
    });
    if usable == Some(false) {
        request.headers_mut().remove(&REQUEST_ID);
    }
    request
}

/// Headers a security scanner expects on every answer: `nosniff`, a Content-Security-Policy
/// (the API's, unless the answer has its own), `Cache-Control: no-store` (unless the answer
/// has its own: the playground's files, and `/daily`'s puzzle of the day), and no `Server`
/// banner.
pub(super) async fn security_headers(mut response: Response) -> Response {
    let headers = response.headers_mut();
    headers
        .entry(header::X_CONTENT_TYPE_OPTIONS)
        .or_insert(HeaderValue::from_static("nosniff"));
    headers
        .entry(header::CONTENT_SECURITY_POLICY)
        .or_insert(HeaderValue::from_static(API_CONTENT_SECURITY_POLICY));
    // Solutions, fresh puzzles and live state, each made for its request: none is for a
    // cache to keep or hand to anyone else.
    headers
        .entry(header::CACHE_CONTROL)
        .or_insert(HeaderValue::from_static(API_CACHE_CONTROL));
    headers.remove(header::SERVER);
    response
}

/// CORS for browsers: the configured origins, our methods and headers (an API key comes
/// as a header, which needs no credentials mode: `Access-Control-Allow-Credentials` is
/// never sent, least of all beside `*`), and the headers a page may read (the request
/// id, `Retry-After`, the rate limit's state and the 401 challenge).
pub(super) fn cors(origins: &CorsOrigins) -> CorsLayer {
    let origins = match origins {
        CorsOrigins::Any => AllowOrigin::from(Any),
        CorsOrigins::Only(list) => AllowOrigin::list(list.iter().cloned()),
    };
    CorsLayer::new()
        .allow_origin(origins)
        .allow_methods([Method::GET, Method::POST, Method::OPTIONS])
        .allow_headers([
            header::CONTENT_TYPE,
            REQUEST_ID,
            header::AUTHORIZATION,
            HeaderName::from_static(X_API_KEY),
        ])
        .expose_headers([
            REQUEST_ID,
            header::RETRY_AFTER,
            RATELIMIT,
            RATELIMIT_POLICY,
            header::WWW_AUTHENTICATE,
        ])
        .max_age(Duration::from_secs(24 * 60 * 60))
}

/// Bounds the whole request, reading the body included, so slow clients let go of their
/// solver slot and connection; puts the body limit where error messages can quote it.
async fn within_deadline(limits: Limits, mut request: Request, next: Next) -> Response {
    request.extensions_mut().insert(BodyLimit(limits.body));
    match tokio::time::timeout(limits.request_timeout, next.run(request)).await {
        Ok(response) => response,
        Err(_) => ApiError::Timeout(limits.request_timeout.as_secs()).into_response(),
    }
}

/// Turns the bodiless error answers axum makes itself (405, for one) into problem+json,
/// keeping their status and headers (such as `Allow`).
pub(super) async fn problem_for_bare_errors(request: Request, next: Next) -> Response {
    let method = request.method().clone();
    let response = next.run(request).await;
    problem_for_bare_error(&method, response)
}

fn problem_for_bare_error(method: &Method, response: Response) -> Response {
    let status = response.status();
    let is_problem = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes() == PROBLEM_JSON.as_bytes());
    if !(status.is_client_error() || status.is_server_error()) || is_problem {
        return response;
    }
    let error = match status.as_u16() {
        405 => ApiError::MethodNotAllowed(method.to_string()),
        500 => ApiError::Internal(format!("bare {status} from a lower layer")),
        _ => ApiError::Other(
            status,
            status.canonical_reason().unwrap_or("error").to_owned(),
        ),
    };
    let (parts, _) = response.into_parts();
    let mut replaced = error.into_response();
    for (name, value) in &parts.headers {
        if name != header::CONTENT_TYPE && name != header::CONTENT_LENGTH {
            replaced.headers_mut().insert(name, value.clone());
        }
    }
    replaced
}

/// What every request of the public router goes through under the routing, outermost
/// first: its log line ([`log_request`]), its metrics ([`Tally`]), problem bodies for bare
/// errors ([`problem_for_bare_errors`]), the check of its head ([`head::refusal`]: `Host`
/// and `Transfer-Encoding`) and its deadline ([`within_deadline`]). One middleware
/// rather than four: each `from_fn` clones and boxes the service under it per request.
pub(super) async fn each_request(
    State(around): State<AroundEachRequest>,
    request: Request,
    next: Next,
) -> Response {
    let started = std::time::Instant::now();
    let quiet = is_quiet(&request);
    let tally = Tally::start(&request);
    let method = request.method().clone();
    // Before the gate, so that a request refused for its head spends no quota.
    let response = match head::refusal(&request) {
        Some(refused) => refused,
        None => within_deadline(around.limits, request, next).await,
    };
    let response = problem_for_bare_error(&method, response);
    tally.finish(&around.metrics, &response);
    log_done(started, quiet, &response);
    response
}

/// What [`each_request`] needs: where to count, and the limits to hold requests to.
#[derive(Clone)]
pub(super) struct AroundEachRequest {
    pub(super) metrics: Arc<Metrics>,
    pub(super) limits: Limits,
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn request_ids_do_not_repeat_and_read_as_random_uuids() {
        let ids: HashSet<uuid::Uuid> = (0..200_000).map(|_| next_request_uuid()).collect();
        assert_eq!(ids.len(), 200_000);
        for id in ids.iter().take(1000) {
            assert_eq!(id.get_version_num(), 4, "{id}");
            assert_eq!(id.get_variant(), uuid::Variant::RFC4122, "{id}");
        }
    }

    #[test]
    fn the_scramble_is_one_to_one_below_2_to_the_62() {
        // Consecutive counts, the values next to the top, and the same values with bits
        // above the 62nd set (which the scramble ignores) in place of those.
        let mut seen = HashSet::new();
        for low in (0..50_000).chain(((1 << 62) - 50_000)..(1 << 62)) {
            let scrambled = scramble_62(low);
            assert!(scrambled < 1 << 62);
            assert_eq!(scramble_62(low | (3 << 62)), scrambled);
            assert!(seen.insert(scrambled), "{low} collides");
        }
    }

    #[test]
    fn a_logged_path_keeps_uri_characters_and_encodes_every_other_byte() {
        let logged = |path: &str| LoggedPath(path).to_string();
        assert_eq!(logged("/solve/batch"), "/solve/batch");
        assert_eq!(logged("*"), "*");
        assert_eq!(logged(""), "");
        let uri_characters = "/a-b._~!$&'()*+,;=:@%41/";
        assert_eq!(logged(uri_characters), uri_characters);
        assert_eq!(logged("/x\"}{\\<>^`|"), "/x%22%7D%7B%5C%3C%3E%5E%60%7C");
        // Two- and three-byte characters, next to each other and at both ends.
        assert_eq!(
            logged("\u{e9}/\u{2028}\u{3000}x\u{85}"),
            "%C3%A9/%E2%80%A8%E3%80%80x%C2%85"
        );
    }

    #[test]
    fn a_request_id_is_a_lowercase_hyphenated_uuid() {
        let request = Request::new(Body::empty());
        let id = MakeRequestIds.make_request_id(&request).unwrap();
        let text = id.header_value().to_str().unwrap();
        assert_eq!(text.len(), 36, "{text}");
        assert_eq!(
            uuid::Uuid::parse_str(text)
                .unwrap()
                .hyphenated()
                .to_string(),
            text
        );
    }
}
