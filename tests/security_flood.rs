//! Its own process: it reads the process's resident memory, which any other test would add to.
//!
//! A flood of a million distinct clients (IPv6 /64s, as one attacker with a /32 could
//! send) against the rate limiter: the store holds at most its cap, the rest share one
//! bucket, and its memory stays bounded. The process's resident memory before and after is
//! printed, beside the same flood on a store without a cap.

use std::net::{IpAddr, Ipv6Addr};
use std::num::NonZeroU32;
use std::time::Duration;

use sudoku_service::config::DEFAULT_RATE_LIMIT_CLIENTS;
use sudoku_service::http::limit::{ClientKey, RateLimits};

const CLIENTS: u64 = 1_000_000;
const QUOTA: u32 = 10;

/// This process's resident memory in KiB (`VmRSS` of /proc/self/status).
fn rss_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))
        .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmRSS in /proc/self/status")
}

/// The `n`-th /64 of `2001:db8::/32`.
fn client(n: u64) -> ClientKey {
    let prefix = (0x2001_0db8_u128 << 96) | (u128::from(n) << 64);
    ClientKey::Addr(IpAddr::V6(Ipv6Addr::from(prefix)))
}

/// Sends one request of each of the flood's clients; returns how many were let through.
fn flood(limits: &RateLimits) -> u64 {
    (0..CLIENTS)
        .filter(|&n| limits.check(&client(n), NonZeroU32::MIN).is_ok())
        .count() as u64
}

#[tokio::test(start_paused = true)]
async fn a_million_distinct_clients_cost_a_bounded_store() {
    let quota = NonZeroU32::new(QUOTA).unwrap();
    let window = Duration::from_secs(60);
    let cap = DEFAULT_RATE_LIMIT_CLIENTS;

    let before = rss_kib();
    let bounded = RateLimits::new(quota, window, cap);
    let allowed = flood(&bounded);
    let after = rss_kib();
    let held = bounded.clients();
    // Governor forgets a bucket one refill after it is full again.
    tokio::time::advance(window + window / QUOTA).await;
    bounded.sweep();
    let swept = rss_kib();
    println!(
        "capped at {cap} clients: {CLIENTS} distinct clients, {allowed} let through, {held} \
         held; RSS {before} KiB before, {after} KiB after (+{} KiB), {swept} KiB once swept \
         ({} clients left)",
        after - before,
        bounded.clients()
    );
    // The cap's clients each spent one unit of their own, the rest shared one bucket.
    assert_eq!(allowed, cap as u64 + u64::from(QUOTA));
    assert_eq!(held, cap + 1, "the cap, and the shared bucket");
    assert_eq!(
        bounded.clients(),
        0,
        "every bucket full again: all forgotten"
    );
    drop(bounded);

    let before_uncapped = rss_kib();
    let uncapped = RateLimits::new(quota, window, usize::MAX);
    let allowed_uncapped = flood(&uncapped);
    let after_uncapped = rss_kib();
    println!(
        "without a cap: {allowed_uncapped} let through, {} held; RSS {before_uncapped} KiB \
         before, {after_uncapped} KiB after (+{} KiB)",
        uncapped.clients(),
        after_uncapped.saturating_sub(before_uncapped)
    );
    assert_eq!(allowed_uncapped, CLIENTS);
    // What the cap bounds: the capped store grew by a fraction of what a store that holds
    // every client grows by (ten times fewer clients; a third leaves room for the
    // allocator's rounding and the map's doubling).
    let capped_growth = after - before;
    let uncapped_growth = after_uncapped.saturating_sub(before_uncapped);
    assert!(
        capped_growth * 3 < uncapped_growth,
        "capped +{capped_growth} KiB, uncapped +{uncapped_growth} KiB"
    );
}
