//! The gate in front of the API, when a deployment turns it on: the API key check and the
//! per-client rate limit. Off (no keys, no limit), the router does not even carry it.
//!
//! Each route declares its [`Cost`] where it is registered ([`super::router`]); the routes
//! open to all (probes, `/openapi.yaml`, the playground's files) go without the gate. Every
//! other path needs a key when keys are on, and spends its cost of its client's bucket when
//! limits are on: the client is the key's label when a valid key is sent, else its address
//! (see [`super::caller`]).

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::num::NonZeroU32;
use std::sync::Arc;

use axum::body::Body;
use axum::extract::{ConnectInfo, Request, State};
use axum::http::StatusCode;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use http_body_util::{BodyExt, LengthLimitError, Limited};
use serde::de::{IgnoredAny, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer};

use super::auth::{ApiKeys, presented_key};
use super::caller::TrustedProxies;
use super::error::ApiError;
use super::limit::{ClientKey, RATELIMIT, RATELIMIT_POLICY, RateLimits, Refusal};
use super::metrics::Metrics;
use super::wire::MAX_BATCH_BOARDS;

/// What a request to a route spends of its client's bucket.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cost {
    /// Nothing (a key is still needed when keys are on).
    Free,
    /// This many units.
    Units(NonZeroU32),
    /// One unit per board of the body (`/solve/batch`): a batch of n boards is n solves.
    PerBoard,
}

impl Cost {
    /// One unit: a solve, or anything as cheap.
    pub const SOLVE: Cost = Cost::Units(ONE);
    /// Ten units: the logical solver or a search of up to seconds (grading, generating,
    /// hints, explanations), some ten solves' worth or more.
    pub const HEAVY: Cost = Cost::Units(NonZeroU32::new(10).unwrap());
}

const ONE: NonZeroU32 = NonZeroU32::MIN;

/// The keys, the limits and whom to believe about addresses.
pub struct Gate {
    keys: ApiKeys,
    limits: Option<RateLimits>,
    proxies: TrustedProxies,
    metrics: Arc<Metrics>,
    /// The `/solve/batch` body limit, to read a batch once for its board count.
    batch_body: usize,
}

impl Gate {
    /// A gate with these parts; `limits` is `None` when rate limits are off.
    pub fn new(
        keys: ApiKeys,
        limits: Option<RateLimits>,
        proxies: TrustedProxies,
        metrics: Arc<Metrics>,
        batch_body: usize,
    ) -> Gate {
        Gate {
            keys,
            limits,
            proxies,
            metrics,
            batch_body,
        }
    }

    /// True when keys or limits are on, so that the router needs the gate.
    pub fn is_on(&self) -> bool {
        self.keys.is_on() || self.limits.is_some()
    }

    /// The API keys (to reload them).
    pub fn keys(&self) -> &ApiKeys {
        &self.keys
    }

    /// The rate limits, when on (to sweep them).
    pub fn limits(&self) -> Option<&RateLimits> {
        self.limits.as_ref()
    }

    /// Whose request this is; refused when keys are on and it carries no valid one (or
    /// when it comes from an address that keeps sending wrong keys).
    fn caller(&self, request: &Request) -> Result<ClientKey, Denial> {
        if !self.keys.is_on() {
            return Ok(self.address(request));
        }
        let presented = presented_key(request.headers());
        if let Some(label) = presented.and_then(|key| self.keys.label_of(key)) {
            tracing::Span::current().record("client", tracing::field::display(&label));
            return Ok(ClientKey::Label(label));
        }
        // A refused key costs its address a unit, so keys cannot be guessed at full speed.
        if let Some(limits) = &self.limits {
            limits
                .check(&self.address(request), ONE)
                .map_err(Denial::Limited)?;
        }
        Err(Denial::Unauthorized(if presented.is_some() {
            "the API key is not valid"
        } else {
            "this API needs a key: send it as `Authorization: Bearer KEY` or `X-API-Key: KEY`"
        }))
    }

    fn deny(&self, denial: Denial) -> Response {
        match denial {
            Denial::Unauthorized(detail) => {
                self.metrics.count_unauthorized();
                ApiError::Unauthorized(detail.into()).into_response()
            }
            Denial::Limited(refusal) => self.refuse(refusal),
        }
    }

    /// The client address of a request: its peer's, or the one a trusted proxy forwarded.
    /// Requests that did not come over a socket (tests through the router) share one.
    fn address(&self, request: &Request) -> ClientKey {
        let peer = request
            .extensions()
            .get::<ConnectInfo<SocketAddr>>()
            .map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |info| info.0.ip());
        ClientKey::Addr(self.proxies.caller_of(peer, request.headers()))
    }

    fn refuse(&self, refusal: Refusal) -> Response {
        self.metrics.count_rate_limited();
        let mut response = ApiError::RateLimited {
            detail: refusal.detail,
            retry_after: refusal.retry_after,
        }
        .into_response();
        let headers = response.headers_mut();
        headers.insert(RATELIMIT_POLICY, refusal.policy);
        if let Some(state) = refusal.state {
            headers.insert(RATELIMIT, state);
        }
        response
    }
}

/// Why a request goes no further than the gate.
enum Denial {
    /// No valid key: 401, with this detail.
    Unauthorized(&'static str),
    /// The client's bucket is short: 429.
    Limited(Refusal),
}

/// Middleware, under the routing and inside the deadline, over a route that costs `cost`:
/// lets a request through when its key is valid (when keys are on) and its client's bucket
/// holds the cost (when limits are on), and adds the `RateLimit` fields to the answer.
pub async fn check(
    State((gate, cost)): State<(Arc<Gate>, Cost)>,
    request: Request,
    next: Next,
) -> Response {
    let client = match gate.caller(&request) {
        Ok(client) => client,
        Err(denial) => return gate.deny(denial),
    };
    let Some(limits) = &gate.limits else {
        return next.run(request).await;
    };
    let (request, units) = match cost {
        Cost::Free => return next.run(request).await,
        Cost::Units(units) => (request, units),
        Cost::PerBoard => match read_batch(request, gate.batch_body).await {
            Ok(read) => read,
            Err(error) => return error.into_response(),
        },
    };
    match limits.check(&client, units) {
        Ok(allowance) => {
            let mut response = next.run(request).await;
            let headers = response.headers_mut();
            headers.insert(RATELIMIT, allowance.state);
            headers.insert(RATELIMIT_POLICY, allowance.policy);
            response
        }
        Err(refusal) => gate.refuse(refusal),
    }
}

/// Reads a batch body (within `limit`) to count its boards, and gives the request back
/// with the same bytes. A body that is not a batch costs one unit: the handler refuses it
/// without solving anything, as it does a batch of more than [`MAX_BATCH_BOARDS`].
async fn read_batch(request: Request, limit: usize) -> Result<(Request, NonZeroU32), ApiError> {
    let (parts, body) = request.into_parts();
    let bytes = match Limited::new(body, limit).collect().await {
        Ok(collected) => collected.to_bytes(),
        Err(error) if error.downcast_ref::<LengthLimitError>().is_some() => {
            return Err(ApiError::PayloadTooLarge(limit));
        }
        Err(error) => {
            return Err(ApiError::Other(
                StatusCode::BAD_REQUEST,
                format!("the request body could not be read: {error}"),
            ));
        }
    };
    let boards = board_count(&bytes).filter(|n| (1..=MAX_BATCH_BOARDS).contains(n));
    let units = boards
        .and_then(|n| u32::try_from(n).ok())
        .and_then(NonZeroU32::new)
        .unwrap_or(ONE);
    Ok((Request::from_parts(parts, Body::from(bytes)), units))
}

/// The length of the `boards` array of a batch body, counted without building the boards.
fn board_count(bytes: &[u8]) -> Option<usize> {
    #[derive(Deserialize)]
    struct Batch {
        boards: Count,
    }
    struct Count(usize);
    struct CountVisitor;
    impl<'de> Visitor<'de> for CountVisitor {
        type Value = Count;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("an array")
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Count, A::Error> {
            let mut count = 0;
            while seq.next_element::<IgnoredAny>()?.is_some() {
                count += 1;
            }
            Ok(Count(count))
        }
    }
    impl<'de> Deserialize<'de> for Count {
        fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Count, D::Error> {
            deserializer.deserialize_seq(CountVisitor)
        }
    }
    serde_json::from_slice::<Batch>(bytes)
        .ok()
        .map(|batch| batch.boards.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_batch_is_counted_by_its_boards_without_parsing_them() {
        assert_eq!(board_count(br#"{"boards":["x", [[1]], 3, null]}"#), Some(4));
        assert_eq!(board_count(br#"{"boards":[]}"#), Some(0));
        assert_eq!(board_count(br#"{"boards":"no"}"#), None);
        assert_eq!(board_count(b"not json"), None);
    }
}
