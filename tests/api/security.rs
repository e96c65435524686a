//! Safe to expose: per-client rate limits, API keys, the admin address, the headers a
//! security scanner looks for, CORS without credentials.
//!
//! Through the router on paused time (tokio's clock drives the limiter): the limit trips at
//! exactly the quota and a unit comes back after exactly one refill, each route costs what
//! the table says, clients are told apart by address, key label and trusted forwarding
//! headers. On the real server on 127.0.0.1 (clients on 127.0.0.2 and 127.0.0.3, real
//! peer addresses): the 429 and its headers, a flood from one client beside another
//! client's solves (both counted, printed), keys over real sockets, the admin address.
//! The SIGHUP reload runs the real binary (`reload.rs`), the flood of a million distinct
//! clients measures memory in a process of its own (`tests/security_flood.rs`).

use std::net::{IpAddr, SocketAddr};
use std::num::NonZeroUsize;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{Method, Request};
use serde_json::{Value, json};
use sudoku_service::config::Config;
use sudoku_service::http::auth::hash_hex;
use sudoku_service::http::page;
use sudoku_service::http::{AppState, router};
use tower::ServiceExt;

use crate::helpers::*;

/// The keys of these tests: one in clear, one given by its hash.
const ALPHA_KEY: &str = "alpha-key-0123456789abcdef";
const BETA_KEY: &str = "beta-key-0123456789abcdef";

/// Request headers, as name and value.
type Headers<'a> = &'a [(&'a str, &'a str)];

/// The CSP of every answer but the page's.
const API_CSP: &str = "default-src 'none'; frame-ancestors 'none'";

fn keys_file() -> TempFile {
    TempFile::with_contents(&format!(
        "# the keys of tests/api/security.rs\nalpha {ALPHA_KEY}\n# by hash:\nbeta sha256:{}\n",
        hash_hex(BETA_KEY)
    ))
}

/// The state of a server with this file's keys on and `config`'s other settings; the
/// keys file lives as long as the file returned beside it.
fn with_keys(config: Config) -> (TempFile, AppState) {
    let file = keys_file();
    let state = AppState::new(&Config {
        api_keys_file: Some(file.path().to_owned()),
        ..config
    });
    (file, state)
}

/// A quota of `quota` units per `window` seconds for each client.
fn limited(quota: u32, window: u64) -> Config {
    Config {
        rate_limit: quota,
        rate_limit_window: window,
        ..Config::default()
    }
}

/// The router over `state`, as if every request came from `peer` (the connection loop of
/// the real server puts the same `ConnectInfo` on each request).
fn from_peer(state: &AppState, peer: &str) -> Router {
    let peer: SocketAddr = peer.parse().unwrap();
    router(state.clone()).layer(axum::Extension(ConnectInfo(peer)))
}

/// Sends one request with these headers through the router.
async fn send(
    app: &Router,
    method: Method,
    path: &str,
    headers: &[(&str, &str)],
    body: Option<&Value>,
) -> Answer {
    let mut request = Request::builder()
        .method(method)
        .uri(path)
        .header("host", "localhost");
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let body = match body {
        Some(json) => {
            request = request.header("content-type", "application/json");
            Body::from(json_bytes(json))
        }
        None => Body::empty(),
    };
    let response = app
        .clone()
        .oneshot(request.body(body).unwrap())
        .await
        .unwrap();
    read_answer(response).await.0
}

async fn solve(app: &Router, headers: &[(&str, &str)]) -> Answer {
    send(
        app,
        Method::POST,
        "/solve",
        headers,
        Some(&json!({ "board": PUZZLE })),
    )
    .await
}

fn header<'a>(answer: &'a Answer, name: &str) -> &'a str {
    answer
        .headers
        .get(name)
        .map_or("", |value| value.to_str().unwrap())
}

#[tokio::test(start_paused = true)]
async fn the_limit_trips_exactly_at_the_quota_and_a_unit_comes_back_after_one_refill() {
    let state = AppState::new(&limited(10, 60));
    let app = from_peer(&state, "192.0.2.1:4000");
    for spent in 1..=10 {
        let answer = solve(&app, &[]).await;
        assert_eq!(answer.status, 200, "solve {spent}: {:?}", answer.body);
        assert_eq!(answer.body["solution"], SOLUTION, "solve {spent}");
        assert_eq!(
            header(&answer, "ratelimit"),
            format!("\"per-client\";r={};t={}", 10 - spent, 6 * spent),
            "solve {spent}"
        );
        assert_eq!(
            header(&answer, "ratelimit-policy"),
            "\"per-client\";q=10;w=60"
        );
    }
    let refused = solve(&app, &[]).await;
    refused.assert_problem(429, "rate_limited", "the 11th solve");
    assert_eq!(
        header(&refused, "retry-after"),
        "6",
        "one refill is 60 s / 10"
    );
    assert_eq!(header(&refused, "ratelimit"), "\"per-client\";r=0;t=60");
    assert_eq!(
        header(&refused, "ratelimit-policy"),
        "\"per-client\";q=10;w=60"
    );
    tokio::time::advance(Duration::from_millis(5_999)).await;
    let early = solve(&app, &[]).await;
    early.assert_problem(429, "rate_limited", "1 ms before the unit is back");
    assert_eq!(header(&early, "retry-after"), "1", "1 ms rounds up to 1 s");
    tokio::time::advance(Duration::from_millis(1)).await;
    assert_eq!(
        solve(&app, &[]).await.status,
        200,
        "the unit is back at 6 s"
    );
    solve(&app, &[])
        .await
        .assert_problem(429, "rate_limited", "and only one unit");
    let metrics = send(&app, Method::GET, "/metrics", &[], None).await;
    assert!(
        metrics
            .body
            .as_str()
            .unwrap()
            .contains("rate_limited_rejections_total 3"),
        "{}",
        metrics.body
    );
}

#[tokio::test(start_paused = true)]
async fn a_batch_costs_one_unit_per_board_and_one_larger_than_the_quota_never_passes() {
    let state = AppState::new(&limited(10, 60));
    let app = from_peer(&state, "192.0.2.1:4000");
    let batch = |n: usize| json!({ "boards": vec![PUZZLE; n] });
    let four = send(&app, Method::POST, "/solve/batch", &[], Some(&batch(4))).await;
    assert_eq!(four.status, 200, "{:?}", four.body);
    assert_eq!(four.body["results"].as_array().unwrap().len(), 4);
    assert_eq!(header(&four, "ratelimit"), "\"per-client\";r=6;t=24");
    let seven = send(&app, Method::POST, "/solve/batch", &[], Some(&batch(7))).await;
    seven.assert_problem(429, "rate_limited", "7 boards, 6 units left");
    assert_eq!(header(&seven, "retry-after"), "6", "one unit short");
    assert_eq!(header(&seven, "ratelimit"), "\"per-client\";r=6;t=24");
    let eleven = send(&app, Method::POST, "/solve/batch", &[], Some(&batch(11))).await;
    eleven.assert_problem(429, "rate_limited", "11 boards, a quota of 10");
    assert!(
        eleven.headers.get("retry-after").is_none(),
        "it can never pass"
    );
    assert!(eleven.body["detail"].as_str().unwrap().contains("never"));
    // A body that is not a batch costs one unit; the handler refuses it as before.
    let broken = send(
        &app,
        Method::POST,
        "/solve/batch",
        &[],
        Some(&json!({ "b": 1 })),
    )
    .await;
    broken.assert_problem(400, "invalid_request", "not a batch");
    assert_eq!(header(&broken, "ratelimit"), "\"per-client\";r=5;t=30");
    let six = send(&app, Method::POST, "/solve/batch", &[], Some(&batch(5))).await;
    assert_eq!(six.status, 200, "the 5 units left are spent whole");
}

#[tokio::test(start_paused = true)]
async fn other_solver_routes_cost_ten_units_and_open_paths_cost_nothing() {
    let state = AppState::new(&limited(10, 60));
    let app = from_peer(&state, "192.0.2.1:4000");
    for path in ["/healthz", "/readyz", "/openapi.yaml", "/", "/app.js"] {
        for _ in 0..20 {
            let answer = send(&app, Method::GET, path, &[], None).await;
            assert_eq!(answer.status, 200, "{path}");
            assert!(
                answer.headers.get("ratelimit").is_none(),
                "{path} is not limited"
            );
        }
    }
    let grade = send(
        &app,
        Method::POST,
        "/grade",
        &[],
        Some(&json!({ "board": PUZZLE })),
    )
    .await;
    assert_eq!(grade.status, 200, "{:?}", grade.body);
    assert_eq!(header(&grade, "ratelimit"), "\"per-client\";r=0;t=60");
    solve(&app, &[])
        .await
        .assert_problem(429, "rate_limited", "after a grade");
    tokio::time::advance(Duration::from_secs(60)).await;
    let unknown = send(&app, Method::GET, "/nope", &[], None).await;
    unknown.assert_problem(404, "not_found", "an unknown path");
    assert_eq!(
        header(&unknown, "ratelimit"),
        "\"per-client\";r=0;t=60",
        "an unknown path costs as much as the other solver routes"
    );
}

#[tokio::test(start_paused = true)]
async fn clients_are_told_apart_by_address_and_forwarding_headers_count_only_from_trusted_proxies()
{
    let state = AppState::new(&Config {
        trusted_proxies: vec!["10.0.0.0/8".parse().unwrap()],
        ..limited(1, 3600)
    });
    let first = from_peer(&state, "192.0.2.1:4000");
    let second = from_peer(&state, "192.0.2.2:4000");
    assert_eq!(solve(&first, &[]).await.status, 200);
    assert_eq!(solve(&second, &[]).await.status, 200, "another address");
    let forged = solve(&first, &[("x-forwarded-for", "198.51.100.7")]).await;
    forged.assert_problem(
        429,
        "rate_limited",
        "a forwarding header from an untrusted peer",
    );

    let proxy = from_peer(&state, "10.1.2.3:5000");
    for client in ["198.51.100.1", "198.51.100.2"] {
        let forwarded = solve(&proxy, &[("x-forwarded-for", client)]).await;
        assert_eq!(forwarded.status, 200, "{client} behind the proxy");
    }
    // The proxy names clients in X-Forwarded-For: a Forwarded of the client's own making
    // picks no bucket, whatever it says.
    for made_up in ["for=203.0.113.50", "for=unknown", "for=_hidden"] {
        solve(
            &proxy,
            &[("forwarded", made_up), ("x-forwarded-for", "198.51.100.1")],
        )
        .await
        .assert_problem(429, "rate_limited", made_up);
    }
    let v6 = solve(&proxy, &[("x-forwarded-for", "2001:db8:1:2::1")]).await;
    assert_eq!(v6.status, 200);
    solve(&proxy, &[("x-forwarded-for", "2001:db8:1:2:ffff::9")])
        .await
        .assert_problem(429, "rate_limited", "the same /64");
    assert_eq!(
        solve(&proxy, &[("x-forwarded-for", "2001:db8:1:3::1")])
            .await
            .status,
        200,
        "the next /64"
    );
}

#[tokio::test]
async fn keys_are_taken_in_both_header_forms_and_their_absence_is_a_401() {
    let (_file, state) = with_keys(Config::default());
    let app = from_peer(&state, "192.0.2.1:4000");
    let alpha = format!("Bearer {ALPHA_KEY}");
    let alpha_lower = format!("bearer {ALPHA_KEY}");
    let accepted: [(&str, &[(&str, &str)]); 3] = [
        ("Bearer, key in clear", &[("authorization", &alpha)]),
        ("bearer in lower case", &[("authorization", &alpha_lower)]),
        ("X-API-Key, key by hash", &[("x-api-key", BETA_KEY)]),
    ];
    for (case, headers) in accepted {
        let answer = solve(&app, headers).await;
        assert_eq!(answer.status, 200, "{case}: {:?}", answer.body);
    }
    let wrong = format!("Bearer {ALPHA_KEY}x");
    let basic = "Basic YWxwaGE6YmV0YQ==".to_owned();
    let refused: [(&str, &[(&str, &str)]); 4] = [
        ("no key", &[]),
        ("a wrong key", &[("authorization", &wrong)]),
        ("another scheme", &[("authorization", &basic)]),
        ("an empty X-API-Key", &[("x-api-key", "")]),
    ];
    for (case, headers) in refused {
        let answer = solve(&app, headers).await;
        answer.assert_problem(401, "unauthorized", case);
        assert_eq!(
            header(&answer, "www-authenticate"),
            "Bearer realm=\"sudoku-service\"",
            "{case}"
        );
        assert!(
            !answer.body.to_string().contains(ALPHA_KEY),
            "{case}: the key is echoed"
        );
    }
    for path in ["/healthz", "/readyz", "/openapi.yaml", "/", "/api.js"] {
        let answer = send(&app, Method::GET, path, &[], None).await;
        assert_eq!(answer.status, 200, "{path} stays open");
    }
    send(&app, Method::GET, "/metrics", &[], None)
        .await
        .assert_problem(401, "unauthorized", "/metrics on the public port");
    let metrics = send(
        &app,
        Method::GET,
        "/metrics",
        &[("x-api-key", BETA_KEY)],
        None,
    )
    .await;
    let text = metrics.body.as_str().unwrap();
    assert!(text.contains("unauthorized_rejections_total 5"), "{text}");
    assert!(
        !text.contains(ALPHA_KEY)
            && !text.contains(BETA_KEY)
            && !text.contains(&hash_hex(BETA_KEY)),
        "a key in the metrics"
    );
}

#[tokio::test(start_paused = true)]
async fn a_key_is_its_own_client_and_wrong_keys_spend_their_address() {
    let (_file, state) = with_keys(limited(3, 3600));
    let app = from_peer(&state, "192.0.2.1:4000");
    let elsewhere = from_peer(&state, "198.51.100.9:4000");
    let alpha = format!("Bearer {ALPHA_KEY}");
    for n in 1..=3 {
        // The same key from two addresses spends one bucket.
        let app = if n == 2 { &elsewhere } else { &app };
        assert_eq!(solve(app, &[("authorization", &alpha)]).await.status, 200);
    }
    solve(&elsewhere, &[("authorization", &alpha)])
        .await
        .assert_problem(429, "rate_limited", "alpha's fourth");
    assert_eq!(
        solve(&app, &[("x-api-key", BETA_KEY)]).await.status,
        200,
        "beta, from the same address as alpha, has its own bucket"
    );
    for n in 1..=3 {
        solve(&app, &[("x-api-key", "not-a-key-at-all-000")])
            .await
            .assert_problem(401, "unauthorized", &format!("wrong key {n}"));
    }
    solve(&app, &[("x-api-key", "not-a-key-at-all-000")])
        .await
        .assert_problem(429, "rate_limited", "the fourth wrong key from one address");
    assert_eq!(
        solve(&app, &[("x-api-key", BETA_KEY)]).await.status,
        200,
        "a valid key from that address still passes"
    );
}

/// Log lines written while `work` runs on this thread.
async fn captured_logs<F: std::future::Future<Output = ()>>(work: F) -> String {
    #[derive(Clone, Default)]
    struct Sink(Arc<Mutex<Vec<u8>>>);
    impl std::io::Write for Sink {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(bytes);
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let sink = Sink::default();
    let writer = sink.clone();
    let subscriber = tracing_subscriber::fmt()
        .with_max_level(tracing::Level::TRACE)
        .with_ansi(false)
        .with_writer(move || writer.clone())
        .finish();
    let _default = tracing::subscriber::set_default(subscriber);
    work.await;
    let bytes = sink.0.lock().unwrap().clone();
    String::from_utf8(bytes).unwrap()
}

#[tokio::test]
async fn logs_carry_a_keys_label_and_never_the_key() {
    let (_file, state) = with_keys(limited(100, 60));
    let app = from_peer(&state, "192.0.2.1:4000");
    let alpha = format!("Bearer {ALPHA_KEY}");
    let logs = captured_logs(async {
        assert_eq!(solve(&app, &[("authorization", &alpha)]).await.status, 200);
        assert_eq!(solve(&app, &[("x-api-key", BETA_KEY)]).await.status, 200);
        let wrong = format!("Bearer {BETA_KEY}-wrong");
        assert_eq!(solve(&app, &[("authorization", &wrong)]).await.status, 401);
    })
    .await;
    let done: Vec<&str> = logs
        .lines()
        .filter(|l| l.contains("request done"))
        .collect();
    assert_eq!(done.len(), 3, "one line per request:\n{logs}");
    assert!(done[0].contains("client=alpha"), "{}", done[0]);
    assert!(done[1].contains("client=beta"), "{}", done[1]);
    assert!(
        !done[2].contains("client="),
        "no label for a wrong key: {}",
        done[2]
    );
    for secret in [ALPHA_KEY, BETA_KEY, &hash_hex(BETA_KEY)] {
        assert!(!logs.contains(secret), "a key in the logs:\n{logs}");
    }
}

#[tokio::test]
async fn every_answer_carries_nosniff_a_policy_no_store_and_no_server_banner() {
    let (_file, keyed) = with_keys(limited(1, 3600));
    let keyed = from_peer(&keyed, "192.0.2.1:4000");
    let open = app();
    let alpha = format!("Bearer {ALPHA_KEY}");
    let board = json!({ "board": PUZZLE });
    let none: Headers = &[];
    let text: Headers = &[("content-type", "text/plain")];
    let preflight = [
        ("origin", "https://example.com"),
        ("access-control-request-method", "POST"),
    ];
    let with_key = [("authorization", alpha.as_str())];
    let (get, post) = (Method::GET, Method::POST);
    // A table: one answer a line.
    #[rustfmt::skip]
    let cases = [
        ("a solve", &open, post.clone(), "/solve", none, Some(&board), 200),
        ("a puzzle", &open, get.clone(), "/generate?seed=1", none, None, 200),
        ("a hint", &open, post.clone(), "/hint", none, Some(&board), 200),
        ("a 404", &open, get.clone(), "/nope", none, None, 404),
        ("a 405", &open, get.clone(), "/solve", none, None, 405),
        ("a 415", &open, post.clone(), "/solve", text, None, 415),
        ("a preflight", &open, Method::OPTIONS, "/solve", &preflight, None, 200),
        ("the metrics", &open, get.clone(), "/metrics", none, None, 200),
        ("the spec", &open, get, "/openapi.yaml", none, None, 200),
        ("a 401", &keyed, post.clone(), "/solve", none, Some(&board), 401),
        ("a 200 with a key", &keyed, post.clone(), "/solve", &with_key, Some(&board), 200),
        ("a 429", &keyed, post, "/solve", &with_key, Some(&board), 429),
    ];
    for (case, app, method, path, headers, body, status) in cases {
        let answer = send(app, method, path, headers, body).await;
        assert_eq!(answer.status, status, "{case}: {:?}", answer.body);
        assert_eq!(
            header(&answer, "x-content-type-options"),
            "nosniff",
            "{case}"
        );
        assert_eq!(
            header(&answer, "content-security-policy"),
            API_CSP,
            "{case}"
        );
        assert_eq!(header(&answer, "cache-control"), "no-store", "{case}");
        assert!(
            answer.headers.get("server").is_none(),
            "{case}: a Server banner"
        );
    }
    for path in page::paths() {
        let answer = send(&open, Method::GET, path, &[], None).await;
        assert_eq!(
            header(&answer, "x-content-type-options"),
            "nosniff",
            "{path}"
        );
        assert_eq!(
            header(&answer, "content-security-policy"),
            page::CONTENT_SECURITY_POLICY,
            "{path} keeps its own, stricter for a page"
        );
        assert_eq!(
            header(&answer, "cache-control"),
            page::CACHE_CONTROL,
            "{path} keeps its own, revalidated by its ETag"
        );
    }
}

#[tokio::test]
async fn cors_takes_keys_as_headers_and_never_allows_credentials() {
    let listed = app_with(&Config {
        cors_origins: vec!["https://app.example".into()],
        ..Config::default()
    });
    for (case, app, origin, allowed) in [
        ("any origin", app(), "https://example.com", "*"),
        (
            "a listed origin",
            listed,
            "https://app.example",
            "https://app.example",
        ),
    ] {
        let preflight = send(
            &app,
            Method::OPTIONS,
            "/solve",
            &[
                ("origin", origin),
                ("access-control-request-method", "POST"),
                (
                    "access-control-request-headers",
                    "authorization, x-api-key, content-type",
                ),
                ("cookie", "session=1"),
            ],
            None,
        )
        .await;
        assert_eq!(
            header(&preflight, "access-control-allow-origin"),
            allowed,
            "{case}"
        );
        let allow_headers = header(&preflight, "access-control-allow-headers").to_lowercase();
        for needed in ["authorization", "x-api-key", "content-type"] {
            assert!(allow_headers.contains(needed), "{case}: {allow_headers}");
        }
        let simple = send(
            &app,
            Method::GET,
            "/healthz",
            &[("origin", origin), ("cookie", "session=1")],
            None,
        )
        .await;
        let exposed = header(&simple, "access-control-expose-headers").to_lowercase();
        for readable in [
            "retry-after",
            "ratelimit",
            "ratelimit-policy",
            "www-authenticate",
        ] {
            assert!(exposed.contains(readable), "{case}: {exposed}");
        }
        for answer in [&preflight, &simple] {
            assert!(
                answer
                    .headers
                    .get("access-control-allow-credentials")
                    .is_none(),
                "{case}: credentials allowed"
            );
        }
    }
}

/// A client of the real server whose connections come from `source` (127.0.0.2, ...: all
/// of 127.0.0.0/8 is loopback), so that the server sees distinct peers.
fn client_from(source: &str) -> reqwest::Client {
    reqwest::Client::builder()
        .local_address(source.parse::<IpAddr>().unwrap())
        .pool_max_idle_per_host(64)
        .build()
        .unwrap()
}

async fn post_solve(
    client: &reqwest::Client,
    server: &TestServer,
    board: &str,
) -> reqwest::Response {
    client
        .post(server.url("/solve"))
        .json(&json!({ "board": board }))
        .send()
        .await
        .expect("the server answers")
}

#[tokio::test]
async fn the_real_server_limits_each_peer_address_and_answers_429_with_its_headers() {
    // One unit back every 1,200 s: nothing refills while the test runs.
    let server = TestServer::start(limited(3, 3600)).await;
    let first = client_from("127.0.0.2");
    let second = client_from("127.0.0.3");
    for n in 1..=3 {
        let response = post_solve(&first, &server, PUZZLE).await;
        assert_eq!(response.status(), 200, "solve {n}");
        assert_eq!(
            response.headers()["ratelimit"],
            format!("\"per-client\";r={};t={}", 3 - n, 1200 * n).as_str()
        );
    }
    let refused = post_solve(&first, &server, PUZZLE).await;
    assert_eq!(refused.status(), 429);
    let headers = refused.headers().clone();
    assert_eq!(headers["content-type"], "application/problem+json");
    assert_eq!(headers["ratelimit-policy"], "\"per-client\";q=3;w=3600");
    assert_eq!(headers["ratelimit"], "\"per-client\";r=0;t=3600");
    let retry_after: u64 = headers["retry-after"].to_str().unwrap().parse().unwrap();
    assert!(
        (1199..=1200).contains(&retry_after),
        "Retry-After {retry_after}"
    );
    assert!(headers.get("server").is_none(), "a Server banner");
    assert_eq!(headers["x-content-type-options"], "nosniff");
    let body: Value = refused.json().await.unwrap();
    assert_eq!(body["code"], "rate_limited");
    assert_eq!(body["status"], 429);
    assert_eq!(
        post_solve(&second, &server, PUZZLE).await.status(),
        200,
        "another address has its own quota"
    );
    server.shutdown().await.unwrap();
}

/// Success and refusal counts of one client's requests.
#[derive(Debug, Default)]
struct Tally {
    solved: usize,
    rate_limited: usize,
    overloaded: usize,
    other: Vec<u16>,
}

impl Tally {
    fn count(&mut self, status: u16) {
        match status {
            200 => self.solved += 1,
            429 => self.rate_limited += 1,
            503 => self.overloaded += 1,
            other => self.other.push(other),
        }
    }
}

/// Client A floods one solver slot (and a line of four) with 120 hard puzzles from
/// 127.0.0.2, in waves of 24 at once, while client B sends three hard puzzles one after
/// another from 127.0.0.3; both tallies come back.
async fn flood_beside_a_client(config: Config) -> (Tally, Tally) {
    const FLOOD: usize = 120;
    const WAVE: usize = 24;
    const B_SOLVES: usize = 3;
    let server = Arc::new(TestServer::start(config).await);
    let flooder = client_from("127.0.0.2");
    let flood = tokio::spawn({
        let server = Arc::clone(&server);
        async move {
            let mut tally = Tally::default();
            for _ in 0..FLOOD / WAVE {
                let wave: Vec<_> = (0..WAVE)
                    .map(|_| {
                        let (client, server) = (flooder.clone(), Arc::clone(&server));
                        tokio::spawn(async move {
                            post_solve(&client, &server, SLOW).await.status().as_u16()
                        })
                    })
                    .collect();
                for shot in wave {
                    tally.count(shot.await.unwrap());
                }
            }
            tally
        }
    });
    // Let the flood fill the slot and the line first.
    tokio::time::sleep(Duration::from_millis(50)).await;
    let other = client_from("127.0.0.3");
    let mut tally = Tally::default();
    for _ in 0..B_SOLVES {
        tally.count(post_solve(&other, &server, SLOW).await.status().as_u16());
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let flood = flood.await.unwrap();
    Arc::into_inner(server).unwrap().shutdown().await.unwrap();
    (flood, tally)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_flood_from_one_client_does_not_stop_another_clients_solves() {
    let one_slot = Config {
        max_concurrent_solves: NonZeroUsize::new(1),
        max_queued_solves: 4,
        ..Config::default()
    };
    let started = Instant::now();
    let (flood, other) = flood_beside_a_client(one_slot.clone()).await;
    println!(
        "without a rate limit ({:?}): flooding client A {flood:?}; client B {other:?}",
        started.elapsed()
    );
    assert!(
        flood.overloaded > 0,
        "the flood fills the slot and the line"
    );
    let started = Instant::now();
    let (flood, other) = flood_beside_a_client(Config {
        rate_limit: 3,
        rate_limit_window: 3600,
        ..one_slot
    })
    .await;
    println!(
        "with 3 units per hour per client ({:?}): flooding client A {flood:?}; client B {other:?}",
        started.elapsed()
    );
    // A's quota (3) takes the slot and two places of the line of four, so B always finds
    // a place: what the limit is for.
    assert_eq!(flood.solved, 3, "A gets its quota through the gate");
    assert_eq!(flood.rate_limited, 117, "and no more");
    assert_eq!(
        other.solved, 3,
        "every one of B's solves is answered: {other:?}"
    );
    assert!(flood.other.is_empty() && other.other.is_empty());
}

#[tokio::test]
async fn keys_work_over_real_sockets_in_both_header_forms() {
    let file = keys_file();
    let server = TestServer::start(Config {
        api_keys_file: Some(file.path().to_owned()),
        ..Config::default()
    })
    .await;
    let client = reqwest::Client::new();
    let board = json!({ "board": PUZZLE });
    let bearer = client
        .post(server.url("/solve"))
        .bearer_auth(ALPHA_KEY)
        .json(&board)
        .send()
        .await
        .unwrap();
    assert_eq!(bearer.status(), 200);
    let api_key = client
        .post(server.url("/solve"))
        .header("x-api-key", BETA_KEY)
        .json(&board)
        .send()
        .await
        .unwrap();
    assert_eq!(api_key.status(), 200);
    let none = client
        .post(server.url("/solve"))
        .json(&board)
        .send()
        .await
        .unwrap();
    assert_eq!(none.status(), 401);
    assert_eq!(
        none.headers()["www-authenticate"],
        "Bearer realm=\"sudoku-service\""
    );
    let health = client.get(server.url("/healthz")).send().await.unwrap();
    assert_eq!(health.status(), 200, "probes need no key");
    server.shutdown().await.unwrap();
}

#[tokio::test]
async fn the_admin_address_serves_metrics_and_probes_while_the_public_one_does_not() {
    let (server, admin) = TestServer::start_with_admin(Config::default()).await;
    let client = reqwest::Client::new();
    let at_admin = |path: &str| format!("http://{admin}{path}");
    let solved = post_solve(&client, &server, PUZZLE).await;
    assert_eq!(solved.status(), 200, "the API is on the public address");
    let metrics = client.get(at_admin("/metrics")).send().await.unwrap();
    assert_eq!(metrics.status(), 200);
    assert_eq!(metrics.headers()["x-content-type-options"], "nosniff");
    assert_eq!(metrics.headers()["cache-control"], "no-store");
    let text = metrics.text().await.unwrap();
    assert!(
        text.contains("http_requests_total{method=\"POST\",route=\"/solve\",status=\"200\"} 1"),
        "the admin address reports the public one's requests:\n{text}"
    );
    for probe in ["/healthz", "/readyz"] {
        let on_admin = client.get(at_admin(probe)).send().await.unwrap();
        assert_eq!(on_admin.status(), 200, "{probe} on the admin address");
        let on_public = client.get(server.url(probe)).send().await.unwrap();
        assert_eq!(on_public.status(), 200, "{probe} on the public address");
    }
    let public_metrics = client.get(server.url("/metrics")).send().await.unwrap();
    assert_eq!(
        public_metrics.status(),
        404,
        "no metrics on the public address"
    );
    let body: Value = public_metrics.json().await.unwrap();
    assert_eq!(body["code"], "not_found");
    let api_on_admin = client
        .post(at_admin("/solve"))
        .json(&json!({ "board": PUZZLE }))
        .send()
        .await
        .unwrap();
    assert_eq!(api_on_admin.status(), 404, "no API on the admin address");
    server.shutdown().await.unwrap();
    let refused = tokio::net::TcpStream::connect(admin).await;
    assert!(refused.is_err(), "the admin address closes at shutdown too");
}

#[test]
fn a_keys_file_that_cannot_be_taken_stops_the_server_from_starting() {
    let mut bad = TempFile::with_contents("alpha short\n");
    let error = AppState::try_new(&Config {
        api_keys_file: Some(bad.path().to_owned()),
        ..Config::default()
    })
    .err()
    .expect("refused");
    let message = error.to_string();
    assert!(
        message.contains("line 1") && !message.contains("short"),
        "{message}"
    );
    bad = TempFile::with_contents("# nothing but a comment\n");
    let empty = AppState::try_new(&Config {
        api_keys_file: Some(bad.path().to_owned()),
        ..Config::default()
    });
    assert!(empty.err().unwrap().to_string().contains("holds no key"));
    let missing = AppState::try_new(&Config {
        api_keys_file: Some("/nonexistent/keys".into()),
        ..Config::default()
    });
    assert!(missing.err().unwrap().to_string().contains("cannot read"));
}
