//! Per-client rate limits: a token bucket per client (governor's keyed GCRA), its memory
//! bounded, its state told to the client in the `RateLimit` and `RateLimit-Policy` fields.
//!
//! The fields follow draft-ietf-httpapi-ratelimit-headers-09 (March 2025), sections 3 and
//! 4: `RateLimit-Policy: "per-client";q=QUOTA;w=WINDOW` and `RateLimit:
//! "per-client";r=REMAINING;t=RESET`, where `r` is the units left and `t` the seconds until
//! the bucket is full again. A bucket holds `q` units and refills `q` every `w` seconds,
//! evenly (one unit every `w/q` seconds), so a client may spend a whole quota at once and
//! then one unit per `w/q` seconds.

use std::cell::Cell;
use std::hash::Hash;
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use axum::http::{HeaderName, HeaderValue};
use governor::clock::Clock;
use governor::middleware::StateInformationMiddleware;
use governor::nanos::Nanos;
use governor::state::StateStore;
use governor::state::keyed::{DashMapStateStore, ShrinkableKeyedStateStore};
use governor::{Quota, RateLimiter};

/// The `RateLimit` field.
pub const RATELIMIT: HeaderName = HeaderName::from_static("ratelimit");
/// The `RateLimit-Policy` field.
pub const RATELIMIT_POLICY: HeaderName = HeaderName::from_static("ratelimit-policy");

/// The name of our one policy in both fields.
const POLICY_NAME: &str = "per-client";

/// Whose bucket a request spends.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum ClientKey {
    /// A client without a key: its address, grouped (see [`super::caller::group`]).
    Addr(IpAddr),
    /// The holder of an API key, by the key's label.
    Label(Arc<str>),
    /// Every new client while the store is full: they share one bucket.
    Overflow,
}

/// Governor's clock on tokio's: the real monotonic clock in a server, and paused time in
/// tests, which makes "the limit trips at exactly this instant" a test that no machine's
/// speed can fail.
///
/// Its time counts from its first reading, which `RateLimiter::new` takes as the limiter's
/// start: so the instants governor keeps in the buckets, counted from that start, are
/// readings of this clock.
#[derive(Debug, Clone, Default)]
pub struct TokioClock {
    start: OnceLock<tokio::time::Instant>,
}

impl Clock for TokioClock {
    type Instant = Duration;

    fn now(&self) -> Duration {
        self.start.get_or_init(tokio::time::Instant::now).elapsed()
    }
}

thread_local! {
    /// When the bucket that the last decision on this thread let a request through is full
    /// again, on the limiter's clock: governor keeps it in the bucket and tells it to no
    /// one, but the store it writes it to is ours, and the decision is made on the caller's
    /// thread.
    static FULL_AT: Cell<Option<Nanos>> = const { Cell::new(None) };
}

/// Governor's `DashMap` store with a cap on the clients it holds. Once full, a client it
/// does not know spends the one [`ClientKey::Overflow`] bucket, so a flood of new
/// addresses costs a bounded amount of memory and shares one quota, while the clients
/// already held keep theirs. [`RateLimits::sweep`] forgets clients whose bucket is full
/// again, which makes room.
#[derive(Debug)]
pub struct BoundedStore {
    map: DashMapStateStore<ClientKey>,
    max_clients: usize,
    /// The clients held, counted as they come (a close race may count one twice until
    /// the next sweep recounts).
    clients: AtomicUsize,
}

impl BoundedStore {
    fn new(max_clients: usize) -> BoundedStore {
        BoundedStore {
            map: DashMapStateStore::default(),
            max_clients,
            clients: AtomicUsize::new(0),
        }
    }
}

impl StateStore for BoundedStore {
    type Key = ClientKey;

    fn measure_and_replace<T, F, E>(&self, key: &ClientKey, f: F) -> Result<T, E>
    where
        F: Fn(Option<Nanos>) -> Result<(T, Nanos), E>,
    {
        // The state a request let through leaves is the instant its bucket is full again
        // (GCRA's theoretical arrival time).
        let decide = |held: Option<Nanos>| {
            let decided = f(held);
            if let Ok((_, full_at)) = &decided {
                FULL_AT.set(Some(*full_at));
            }
            decided
        };
        if !self.map.contains_key(key)
            && self.clients.fetch_add(1, Ordering::Relaxed) >= self.max_clients
        {
            self.clients.fetch_sub(1, Ordering::Relaxed);
            return self.map.measure_and_replace(&ClientKey::Overflow, decide);
        }
        self.map.measure_and_replace(key, decide)
    }
}

impl ShrinkableKeyedStateStore<ClientKey> for BoundedStore {
    fn retain_recent(&self, drop_below: Nanos) {
        ShrinkableKeyedStateStore::retain_recent(&self.map, drop_below);
        self.clients.store(self.map.len(), Ordering::Relaxed);
    }

    fn shrink_to_fit(&self) {
        self.map.shrink_to_fit();
    }

    fn len(&self) -> usize {
        self.map.len()
    }

    fn is_empty(&self) -> bool {
        self.map.is_empty()
    }
}

/// The limiter of one server.
pub struct RateLimits {
    limiter: RateLimiter<ClientKey, BoundedStore, TokioClock, StateInformationMiddleware>,
    quota: u32,
    /// Time one unit takes to come back.
    refill: Duration,
    policy: HeaderValue,
}

/// A request let through: the fields to answer with.
#[derive(Debug, Clone)]
pub struct Allowance {
    /// `RateLimit`.
    pub state: HeaderValue,
    /// `RateLimit-Policy`.
    pub policy: HeaderValue,
}

/// A request refused.
#[derive(Debug, Clone)]
pub struct Refusal {
    /// Seconds until it would pass, `None` when it never can (it costs more than the quota).
    pub retry_after: Option<u64>,
    /// `RateLimit`, when the state is known.
    pub state: Option<HeaderValue>,
    /// `RateLimit-Policy`.
    pub policy: HeaderValue,
    /// What to tell the client.
    pub detail: String,
}

impl RateLimits {
    /// `quota` units per `window` for each client, at most `max_clients` clients held
    /// apart. A window under a millisecond is taken as one.
    pub fn new(quota: NonZeroU32, window: Duration, max_clients: usize) -> RateLimits {
        let window = window.max(Duration::from_millis(1));
        let refill = (window / quota.get()).max(Duration::from_nanos(1));
        let rate = Quota::with_period(refill)
            .unwrap_or_else(|| Quota::per_second(quota))
            .allow_burst(quota);
        let policy = format!(
            "\"{POLICY_NAME}\";q={};w={}",
            quota.get(),
            window.as_secs().max(1)
        );
        RateLimits {
            limiter: RateLimiter::new(rate, BoundedStore::new(max_clients), TokioClock::default()),
            quota: quota.get(),
            refill,
            policy: header_value(&policy),
        }
    }

    /// Spends `cost` units of `client`'s bucket, if it holds them.
    ///
    /// # Errors
    /// [`Refusal`] when the bucket holds fewer, or the quota itself is smaller.
    pub fn check(&self, client: &ClientKey, cost: NonZeroU32) -> Result<Allowance, Refusal> {
        FULL_AT.set(None);
        match self.limiter.check_key_n(client, cost) {
            Ok(Ok(snapshot)) => {
                let left = snapshot.remaining_burst_capacity();
                // Counted from the bucket's own state, so that the part of a unit already
                // back counts too; whole units only if the store did not see the decision.
                let full_in = FULL_AT.take().map_or_else(
                    || self.refill * (self.quota - left.min(self.quota)),
                    |full_at| Duration::from(full_at).saturating_sub(self.limiter_now()),
                );
                Ok(Allowance {
                    state: Self::state(left, full_in),
                    policy: self.policy.clone(),
                })
            }
            Ok(Err(not_until)) => {
                let wait = not_until.wait_time_from(self.limiter_now());
                // The bucket holds `cost` minus what `wait` brings back.
                let short = wait.as_nanos().div_ceil(self.refill.as_nanos().max(1));
                let left = u128::from(cost.get()).saturating_sub(short);
                let left = u32::try_from(left).unwrap_or(0);
                let full_in = wait + self.refill * (self.quota - cost.get().min(self.quota));
                let retry_after = ceil_secs(wait).max(1);
                Err(Refusal {
                    retry_after: Some(retry_after),
                    state: Some(Self::state(left, full_in)),
                    policy: self.policy.clone(),
                    detail: format!(
                        "too many requests from this client: this one costs {cost}, and the \
                         quota is {} per {} s; retry after {retry_after} s",
                        self.quota,
                        self.window_secs()
                    ),
                })
            }
            Err(_) => Err(Refusal {
                retry_after: None,
                state: None,
                policy: self.policy.clone(),
                detail: format!(
                    "this request costs {cost}, more than the whole quota of {} per {} s: \
                     it can never pass; split it (a batch costs one per board)",
                    self.quota,
                    self.window_secs()
                ),
            }),
        }
    }

    /// Forgets the clients whose bucket is full again (they are as good as new) and gives
    /// back the memory; to be called every few seconds.
    pub fn sweep(&self) {
        self.limiter.retain_recent();
        self.limiter.shrink_to_fit();
    }

    /// Clients held apart now (the shared overflow bucket counts as one).
    pub fn clients(&self) -> usize {
        self.limiter.len()
    }

    fn limiter_now(&self) -> Duration {
        self.limiter.clock().now()
    }

    fn window_secs(&self) -> u64 {
        ceil_secs(self.refill * self.quota)
    }

    fn state(left: u32, full_in: Duration) -> HeaderValue {
        header_value(&format!(
            "\"{POLICY_NAME}\";r={left};t={}",
            ceil_secs(full_in)
        ))
    }
}

/// Whole seconds, rounded up: a client told to wait 1 s for 0.2 s is early by nothing.
fn ceil_secs(duration: Duration) -> u64 {
    duration.as_secs() + u64::from(duration.subsec_nanos() > 0)
}

fn header_value(text: &str) -> HeaderValue {
    // Quotes, letters, digits, `;` and `=`: always a valid header value.
    HeaderValue::from_str(text).unwrap_or_else(|_| HeaderValue::from_static(""))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::Ipv4Addr;

    fn client(n: u8) -> ClientKey {
        ClientKey::Addr(IpAddr::V4(Ipv4Addr::new(192, 0, 2, n)))
    }

    const ONE: NonZeroU32 = NonZeroU32::MIN;

    #[tokio::test(start_paused = true)]
    async fn a_client_spends_its_quota_then_waits_one_refill_per_unit() {
        let limits = RateLimits::new(NonZeroU32::new(10).unwrap(), Duration::from_secs(60), 100);
        for spent in 1..=10 {
            let allowed = limits.check(&client(1), ONE).expect("within the quota");
            assert_eq!(
                allowed.state,
                format!("\"per-client\";r={};t={}", 10 - spent, 6 * spent)
            );
            assert_eq!(allowed.policy, "\"per-client\";q=10;w=60");
        }
        let refused = limits.check(&client(1), ONE).expect_err("the 11th");
        assert_eq!(refused.retry_after, Some(6));
        assert_eq!(refused.state.unwrap(), "\"per-client\";r=0;t=60");
        assert!(
            limits.check(&client(2), ONE).is_ok(),
            "another client has its own"
        );
        tokio::time::advance(Duration::from_millis(5_999)).await;
        let refused = limits
            .check(&client(1), ONE)
            .expect_err("a unit not yet back");
        assert_eq!(refused.retry_after, Some(1), "0.001 s rounds up to 1");
        tokio::time::advance(Duration::from_millis(1)).await;
        assert!(
            limits.check(&client(1), ONE).is_ok(),
            "one unit back after 6 s"
        );
        assert!(limits.check(&client(1), ONE).is_err(), "and only one");
    }

    #[tokio::test(start_paused = true)]
    async fn the_reset_counts_the_part_of_a_unit_already_back() {
        // One unit every 6 s.
        let limits = RateLimits::new(NonZeroU32::new(10).unwrap(), Duration::from_secs(60), 100);
        let spend = |cost: u32| {
            limits
                .check(&client(1), NonZeroU32::new(cost).unwrap())
                .expect("within the quota")
                .state
        };
        assert_eq!(spend(1), "\"per-client\";r=9;t=6");
        // Half a unit is back: 8.5 units held, full in 9 s (not the 12 of two whole units).
        tokio::time::advance(Duration::from_secs(3)).await;
        assert_eq!(spend(1), "\"per-client\";r=8;t=9");
        // Full at 18 s; 12.5 s from 5.5 s, rounded up.
        tokio::time::advance(Duration::from_millis(2_500)).await;
        assert_eq!(spend(1), "\"per-client\";r=7;t=13");
        // A cost of several units: 8.17 held, 5.17 left, full at 36 s, 29 s from 7 s.
        tokio::time::advance(Duration::from_millis(1_500)).await;
        assert_eq!(spend(3), "\"per-client\";r=5;t=29");
        // 0.001 s short of full, one unit spent: 6.001 s to go, rounded up.
        tokio::time::advance(Duration::from_millis(28_999)).await;
        assert_eq!(spend(1), "\"per-client\";r=8;t=7");
        // Full again after all of it.
        tokio::time::advance(Duration::from_secs(60)).await;
        assert_eq!(spend(1), "\"per-client\";r=9;t=6");
    }

    #[tokio::test(start_paused = true)]
    async fn a_cost_is_spent_whole_or_not_at_all() {
        let limits = RateLimits::new(NonZeroU32::new(10).unwrap(), Duration::from_secs(10), 100);
        let seven = NonZeroU32::new(7).unwrap();
        assert!(limits.check(&client(1), seven).is_ok());
        let refused = limits
            .check(&client(1), seven)
            .expect_err("3 left, 7 asked");
        assert_eq!(refused.retry_after, Some(4), "4 units at 1 s each");
        assert_eq!(refused.state.unwrap(), "\"per-client\";r=3;t=7");
        let three = NonZeroU32::new(3).unwrap();
        assert!(
            limits.check(&client(1), three).is_ok(),
            "the 3 left were kept"
        );
        let never = limits
            .check(&client(2), NonZeroU32::new(11).unwrap())
            .expect_err("more than the quota");
        assert_eq!(never.retry_after, None);
        assert!(never.detail.contains("never"), "{}", never.detail);
    }

    #[tokio::test(start_paused = true)]
    async fn a_full_store_sends_new_clients_to_one_shared_bucket() {
        let limits = RateLimits::new(NonZeroU32::new(2).unwrap(), Duration::from_secs(60), 3);
        for n in 1..=3 {
            assert!(limits.check(&client(n), ONE).is_ok());
        }
        assert_eq!(limits.clients(), 3);
        // Clients 4 and 5 share the overflow bucket of 2 units.
        assert!(limits.check(&client(4), ONE).is_ok());
        assert!(limits.check(&client(5), ONE).is_ok());
        assert!(
            limits.check(&client(6), ONE).is_err(),
            "the shared bucket is empty"
        );
        assert!(
            limits.check(&client(1), ONE).is_ok(),
            "a held client keeps its own"
        );
        assert_eq!(limits.clients(), 4, "three clients and the overflow");
        // Governor forgets a bucket one refill (30 s) after it is full again: clients 2 and
        // 3 spent one unit (full at 30 s), client 1 and the overflow two (full at 60 s).
        tokio::time::advance(Duration::from_secs(60)).await;
        limits.sweep();
        assert_eq!(
            limits.clients(),
            2,
            "the buckets spent twice are still held"
        );
        tokio::time::advance(Duration::from_secs(30)).await;
        limits.sweep();
        assert_eq!(
            limits.clients(),
            0,
            "every bucket is full again: all forgotten"
        );
        assert!(limits.check(&client(6), ONE).is_ok(), "room again");
    }
}
