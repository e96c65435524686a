//! Overload and slow clients. Through the router: a taken slot and no line shed a hard
//! puzzle with 503 `overloaded` + `Retry-After` while easy ones need no slot; on paused
//! time, a full waiting line is shed at once and the line is served in turn, a solve that
//! waits past the deadline gets 408 and gives its place back, and a body that never
//! finishes is cut off at the deadline. On the real server on 127.0.0.1: a flood of hard
//! puzzles against one solver slot and a short line (shed, while `/healthz` keeps
//! answering), and slow clients (a body trickled byte by byte, headers never finished) cut
//! off by the real connection timeouts. Every loop here is bounded.

use std::num::NonZeroUsize;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use axum::body::Bytes;
use axum::http::{Method, StatusCode};
use serde_json::{Value, json};
use sudoku_service::config::Config;
use sudoku_service::http::pool::INLINE_GUESS_BUDGET;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::helpers::*;

/// What a real socket under load may take to shed one request or answer `/healthz`: 5 s,
/// over ten times the slowest seen here (a shed answer in 66-123 ms, `/healthz` in 21-326
/// ms, in a debug build with two other builds on two cores); the figures are printed.
/// That shedding waits for nothing is pinned on paused time above.
const REAL_SOCKET_BOUND: Duration = Duration::from_secs(5);

/// What a real connection timeout of 1 s may take to cut a client off, measured from when
/// the client went quiet: ten times the ~1.0 s seen here.
const REAL_TIMEOUT_BOUND: Duration = Duration::from_secs(10);

/// The settings of the shedding tests through the router: one slot, a line of `waiting`.
fn one_slot(waiting: usize) -> Config {
    Config {
        max_concurrent_solves: NonZeroUsize::new(1),
        max_queued_solves: waiting,
        ..Config::default()
    }
}

/// Turns of the runtime a request through the router may take when nothing holds it up
/// (it takes a handful); past them, it is waiting for something.
const TURNS: usize = 1_000;

/// Spawns a `/solve` of [`SLOW`], which needs a slot.
fn spawn_slow_solve(app: &axum::Router) -> tokio::task::JoinHandle<Answer> {
    let app = app.clone();
    tokio::spawn(async move { post_json(&app, "/solve", &json!({ "board": SLOW })).await })
}

/// Spawns a `/solve` of [`SLOW`] and returns once it stands in the waiting line.
async fn queue_a_slow_solve(
    app: &axum::Router,
    state: &sudoku_service::http::AppState,
) -> tokio::task::JoinHandle<Answer> {
    let before = state.pool.waiting();
    let solve = spawn_slow_solve(app);
    for _ in 0..TURNS {
        if state.pool.waiting() > before {
            return solve;
        }
        tokio::task::yield_now().await;
    }
    panic!("the solve never stood in line");
}

/// The answer of a spawned request that must come without waiting for anything (a slot,
/// a place in line, a timer): within [`TURNS`] turns of the runtime, with no time passing.
/// Awaiting it instead would hang, not fail, if it waited for the slot the test holds.
async fn answered_at_once(request: tokio::task::JoinHandle<Answer>, what: &str) -> Answer {
    let started = tokio::time::Instant::now();
    for _ in 0..TURNS {
        if request.is_finished() {
            assert_eq!(
                started.elapsed(),
                Duration::ZERO,
                "{what}: a timer ran first"
            );
            return request.await.unwrap();
        }
        tokio::task::yield_now().await;
    }
    panic!("{what}: still waiting after {TURNS} turns");
}

#[tokio::test(start_paused = true)]
async fn a_full_line_is_shed_at_once_and_the_line_is_served_in_turn() {
    let (app, state) = app_and_state(&one_slot(2));
    let slot = SlotHolder::take(&state).await;
    let first = queue_a_slow_solve(&app, &state).await;
    let second = queue_a_slow_solve(&app, &state).await;
    let shed = answered_at_once(spawn_slow_solve(&app), "third in a line of two").await;
    shed.assert_problem(503, "overloaded", "third in a line of two");
    assert_eq!(shed.headers["retry-after"], "1");
    assert_eq!(state.pool.waiting(), 2, "the shed request took no place");
    slot.release().await;
    for (name, waiting) in [("first", first), ("second", second)] {
        let answer = waiting.await.unwrap();
        assert_eq!(answer.status, 200, "{name} in line: {:?}", answer.body);
        assert_solves(&grid(SLOW), &answer.body["solution"], name);
    }
    let metrics = get(&app, "/metrics").await.body;
    assert!(
        metrics
            .as_str()
            .unwrap()
            .contains("overloaded_rejections_total 1"),
        "{metrics}"
    );
}

#[tokio::test(start_paused = true)]
async fn a_solve_that_waits_past_the_deadline_gets_408_and_gives_its_place_back() {
    let (app, state) = app_and_state(&Config {
        request_timeout: 1,
        ..one_slot(1)
    });
    let slot = SlotHolder::take(&state).await;
    let late = queue_a_slow_solve(&app, &state).await;
    let shed = answered_at_once(spawn_slow_solve(&app), "second for a line of one").await;
    shed.assert_problem(503, "overloaded", "the line of one is full");
    // The held slot is a blocking job, which stops paused time from moving by itself.
    tokio::time::advance(Duration::from_millis(999)).await;
    assert!(!late.is_finished(), "cut off before the deadline");
    tokio::time::advance(Duration::from_millis(2)).await;
    let answer = answered_at_once(late, "past the deadline").await;
    answer.assert_problem(408, "timeout", "waited past the 1 s deadline");
    assert_eq!(state.pool.waiting(), 0, "the place is given back");
    let next = queue_a_slow_solve(&app, &state).await;
    slot.release().await;
    let answer = next.await.unwrap();
    assert_eq!(answer.status, 200, "{:?}", answer.body);
}

#[tokio::test]
async fn a_full_line_of_waiting_solves_is_shed_with_503_and_retry_after() {
    let config = Config {
        max_concurrent_solves: std::num::NonZeroUsize::new(1),
        max_queued_solves: 0,
        ..Config::default()
    };
    let (app, state) = app_and_state(&config);
    let slot = SlotHolder::take(&state).await;
    // Easy puzzles are answered without a solver slot; this one needs the blocking pool.
    assert!(guesses(&grid(SLOW)) > INLINE_GUESS_BUDGET);
    assert!(guesses(&grid(PUZZLE)) <= INLINE_GUESS_BUDGET);
    let answer = post_json(&app, "/solve", &json!({ "board": SLOW })).await;
    answer.assert_problem(503, "overloaded", "slot taken, no queue");
    assert_eq!(answer.headers["retry-after"], "1");
    let easy = post_json(&app, "/solve", &json!({ "board": PUZZLE })).await;
    assert_eq!(easy.status, StatusCode::OK, "easy puzzles need no slot");
    let health = get(&app, "/healthz").await;
    assert_eq!(
        health.status,
        StatusCode::OK,
        "health answers while solvers are busy"
    );
    slot.release().await;
    let answer = post_json(&app, "/solve", &json!({ "board": SLOW })).await;
    assert_eq!(
        answer.status,
        StatusCode::OK,
        "serves again once the slot is free"
    );
    let metrics = get(&app, "/metrics").await;
    assert!(
        metrics
            .body
            .as_str()
            .unwrap()
            .contains("overloaded_rejections_total 1")
    );
}

/// Paused time: the clock moves only when the runtime has nothing else to do, straight to
/// the next timer, so the deadline is met exactly and no machine is too slow for it.
#[tokio::test(start_paused = true)]
async fn a_body_that_never_finishes_is_cut_off_with_408_at_the_deadline() {
    let config = Config {
        request_timeout: 1,
        ..Config::default()
    };
    let (sender, body) = pending_body();
    sender
        .send(Ok(Bytes::from_static(b"{\"board\": ")))
        .await
        .unwrap();
    let started = tokio::time::Instant::now();
    let answered = tokio::time::timeout(
        Duration::from_secs(60),
        call(
            &app_with(&config),
            Method::POST,
            "/solve",
            Some("application/json"),
            body,
        ),
    )
    .await;
    let waited = started.elapsed();
    let answer = answered.expect("an answer before the 60 s guard");
    answer.assert_problem(408, "timeout", "trickled body");
    assert!(
        answer.body["detail"].as_str().unwrap().contains("1 s"),
        "{:?}",
        answer.body
    );
    assert!(
        (Duration::from_secs(1)..Duration::from_millis(1_010)).contains(&waited),
        "cut off after {waited:?}, not at the 1 s deadline"
    );
    drop(sender);
}

/// One flood answer: status, problem code, whether `Retry-After` came, and how long it took.
#[derive(Debug)]
struct Shot {
    status: u16,
    code: String,
    retry_after: Option<String>,
    elapsed: Duration,
}

async fn shoot(client: &reqwest::Client, url: &str, board: &str) -> Shot {
    let started = Instant::now();
    let response = client
        .post(url)
        .json(&json!({ "board": board }))
        .send()
        .await
        .expect("the server answers every request");
    let status = response.status().as_u16();
    let retry_after = response
        .headers()
        .get("retry-after")
        .map(|v| v.to_str().unwrap().to_owned());
    let body: Value = response.json().await.unwrap_or(Value::Null);
    Shot {
        status,
        code: body["code"].as_str().unwrap_or_default().to_owned(),
        retry_after,
        elapsed: started.elapsed(),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_flood_of_hard_puzzles_is_shed_fast_while_health_answers() {
    const WAVES: usize = 3;
    const PER_WAVE: usize = 48;
    let config = Config {
        max_concurrent_solves: NonZeroUsize::new(1),
        max_queued_solves: 4,
        ..Config::default()
    };
    let server = TestServer::start(config).await;
    let client = reqwest::Client::builder()
        .pool_max_idle_per_host(64)
        .build()
        .unwrap();

    // Probe /healthz every 10 ms for as long as the flood lasts, on its own connection.
    let flooding = Arc::new(AtomicBool::new(true));
    let health = tokio::spawn({
        let url = server.url("/healthz");
        let flooding = Arc::clone(&flooding);
        async move {
            let probe = reqwest::Client::new();
            let mut latencies = Vec::new();
            while flooding.load(Ordering::Relaxed) && latencies.len() < 2_000 {
                let started = Instant::now();
                let response = probe.get(&url).send().await.unwrap();
                assert_eq!(response.status(), 200, "/healthz during the flood");
                latencies.push(started.elapsed());
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
            latencies
        }
    });

    let mut shots = Vec::new();
    let flood_started = Instant::now();
    for _ in 0..WAVES {
        let wave: Vec<_> = (0..PER_WAVE)
            .map(|_| {
                let client = client.clone();
                let url = server.url("/solve");
                tokio::spawn(async move { shoot(&client, &url, SLOW).await })
            })
            .collect();
        for shot in wave {
            shots.push(shot.await.unwrap());
        }
    }
    let flood_took = flood_started.elapsed();
    flooding.store(false, Ordering::Relaxed);
    let health = health.await.unwrap();

    let shed: Vec<&Shot> = shots.iter().filter(|s| s.status == 503).collect();
    let solved = shots.iter().filter(|s| s.status == 200).count();
    let slowest_shed = shed.iter().map(|s| s.elapsed).max().unwrap_or_default();
    let slowest_health = health.iter().max().copied().unwrap_or_default();
    println!(
        "flood of {} hard puzzles in {flood_took:?}: {solved} solved, {} shed (slowest shed \
         {slowest_shed:?}); /healthz answered {} times during it, slowest {slowest_health:?}",
        shots.len(),
        shed.len(),
        health.len()
    );
    for shot in &shots {
        assert!(
            matches!(shot.status, 200 | 503),
            "only solved or shed: {shot:?}"
        );
    }
    assert!(solved >= WAVES, "each wave gets some solved");
    assert!(
        shed.len() >= WAVES * (PER_WAVE - 5) / 2,
        "most are shed: {}",
        shed.len()
    );
    for shot in &shed {
        assert_eq!(shot.code, "overloaded", "{shot:?}");
        assert_eq!(shot.retry_after.as_deref(), Some("1"), "{shot:?}");
        assert!(
            shot.elapsed < REAL_SOCKET_BOUND,
            "a slow shed answer: {shot:?}"
        );
    }
    assert!(!health.is_empty(), "/healthz was probed during the flood");
    assert!(
        slowest_health < REAL_SOCKET_BOUND,
        "/healthz slowed to {slowest_health:?} during the flood"
    );

    // Afterwards the server serves normally, and counted what it shed.
    let after = shoot(&client, &server.url("/solve"), PUZZLE).await;
    assert_eq!(after.status, 200, "{after:?}");
    let solution: Value = client
        .post(server.url("/solve"))
        .json(&json!({ "board": PUZZLE }))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(solution["solution"], SOLUTION);
    let metrics = client
        .get(server.url("/metrics"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let counted = format!("overloaded_rejections_total {}", shed.len());
    assert!(metrics.contains(&counted), "metrics lack {counted:?}");
    assert!(metrics.contains("solves_in_flight 0"));
    server.shutdown().await.unwrap();
}

#[tokio::test]
async fn a_body_trickled_byte_by_byte_is_cut_off_with_408() {
    let server = TestServer::start(Config {
        request_timeout: 1,
        ..Config::default()
    })
    .await;
    let body = json!({ "board": PUZZLE }).to_string();
    let mut stream = TcpStream::connect(server.addr).await.unwrap();
    let head = format!(
        "POST /solve HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\n\r\n",
        body.len()
    );
    // Before the head goes out, so the server's deadline cannot start earlier.
    let started = Instant::now();
    stream.write_all(head.as_bytes()).await.unwrap();
    let (mut reader, mut writer) = stream.into_split();
    // One byte every 100 ms, and never the whole body: only the deadline can answer.
    let trickle = tokio::spawn(async move {
        for byte in body.bytes().take(60) {
            if writer.write_all(&[byte]).await.is_err() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        writer
    });
    let mut received = Vec::new();
    let mut buf = [0u8; 4096];
    let give_up = Instant::now() + REAL_TIMEOUT_BOUND;
    let closed = loop {
        let left = give_up.saturating_duration_since(Instant::now());
        match tokio::time::timeout(left, reader.read(&mut buf)).await {
            Ok(Ok(0) | Err(_)) => break true,
            Ok(Ok(n)) => received.extend_from_slice(&buf[..n]),
            Err(_) => break false,
        }
    };
    let took = started.elapsed();
    trickle.abort();
    let answer = String::from_utf8_lossy(&received);
    println!("trickled body: answered after {took:?}: {answer:?}");
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(answer.contains("application/problem+json"), "{answer}");
    assert!(answer.contains("\"code\":\"timeout\""), "{answer}");
    assert!(closed, "the connection is closed after the 408");
    assert!(
        (Duration::from_secs(1)..REAL_TIMEOUT_BOUND).contains(&took),
        "answered after {took:?}, not once the 1 s deadline had passed"
    );
    server.shutdown().await.unwrap();
}

#[tokio::test]
async fn headers_never_finished_are_cut_off() {
    let server = TestServer::start(Config {
        request_timeout: 1,
        ..Config::default()
    })
    .await;
    // Silent after a partial head, and a head trickled a byte at a time (never finished).
    let mut silent = TcpStream::connect(server.addr).await.unwrap();
    silent
        .write_all(b"POST /solve HTTP/1.1\r\nHost: test\r\n")
        .await
        .unwrap();
    let started = Instant::now();
    let trickled = tokio::spawn({
        let addr = server.addr;
        async move {
            let mut stream = TcpStream::connect(addr).await.unwrap();
            stream
                .write_all(b"GET /healthz HTTP/1.1\r\n")
                .await
                .unwrap();
            for byte in b"X-Slow: ".iter().chain(&[b'a'; 100]) {
                if stream.write_all(&[*byte]).await.is_err() {
                    return true;
                }
                tokio::time::sleep(Duration::from_millis(50)).await;
                // A closed connection shows as a read of 0 (or an error) without blocking.
                let mut probe = [0u8; 256];
                let read = tokio::time::timeout(Duration::from_millis(1), stream.read(&mut probe));
                if let Ok(Ok(0) | Err(_)) = read.await {
                    return true;
                }
            }
            false
        }
    });
    let (answer, closed) = read_until_closed(&mut silent, REAL_TIMEOUT_BOUND).await;
    println!(
        "unfinished headers: closed={closed} after {:?}, answer {answer:?}",
        started.elapsed()
    );
    assert!(closed, "a connection whose headers never end is closed");
    assert!(
        answer.is_empty() || answer.starts_with("HTTP/1.1 408"),
        "{answer}"
    );
    assert!(
        trickled.await.unwrap(),
        "a head trickled a byte at a time is cut off too"
    );
    // A connection that sends nothing at all, and one left idle after a request.
    let mut mute = TcpStream::connect(server.addr).await.unwrap();
    let mut idle = TcpStream::connect(server.addr).await.unwrap();
    idle.write_all(b"GET /healthz HTTP/1.1\r\nHost: test\r\n\r\n")
        .await
        .unwrap();
    let started = Instant::now();
    let (_, mute_closed) = read_until_closed(&mut mute, REAL_TIMEOUT_BOUND).await;
    println!(
        "mute connection: closed={mute_closed} after {:?}",
        started.elapsed()
    );
    assert!(
        mute_closed,
        "a connection that never sends a byte is closed"
    );
    let (answer, idle_closed) = read_until_closed(&mut idle, REAL_TIMEOUT_BOUND).await;
    println!(
        "idle keep-alive connection: closed={idle_closed} after {:?}",
        started.elapsed()
    );
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(idle_closed, "an idle keep-alive connection is closed");

    // The server still serves.
    let health = reqwest::get(server.url("/healthz")).await.unwrap();
    assert_eq!(health.status(), 200);
    server.shutdown().await.unwrap();
}
