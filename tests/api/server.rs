//! The real server on a local port: request ids, CORS from a browser origin, graceful shutdown.

use std::time::{Duration, Instant};

use serde_json::{Value, json};
use sudoku_service::config::Config;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::helpers::*;

#[tokio::test]
async fn solves_over_a_real_socket_with_a_request_id() {
    let server = TestServer::start(Config::default()).await;
    let client = reqwest::Client::new();
    let response = client
        .post(server.url("/solve"))
        .json(&json!({ "board": PUZZLE }))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    assert!(response.headers().contains_key("x-request-id"));
    let body: Value = response.json().await.unwrap();
    assert_eq!(body, json!({"solution": SOLUTION, "unique": true}));

    let response = client
        .get(server.url("/healthz"))
        .header("x-request-id", "trace-me-42")
        .send()
        .await
        .unwrap();
    assert_eq!(response.headers()["x-request-id"], "trace-me-42");
    server.shutdown().await.unwrap();
}

#[tokio::test]
async fn a_browser_preflight_is_allowed_from_any_origin_by_default() {
    let server = TestServer::start(Config::default()).await;
    let client = reqwest::Client::new();
    let preflight = client
        .request(reqwest::Method::OPTIONS, server.url("/solve"))
        .header("origin", "http://localhost:5173")
        .header("access-control-request-method", "POST")
        .header("access-control-request-headers", "content-type")
        .send()
        .await
        .unwrap();
    assert!(preflight.status().is_success(), "{}", preflight.status());
    let headers = preflight.headers();
    assert_eq!(headers["access-control-allow-origin"], "*");
    let methods = headers["access-control-allow-methods"].to_str().unwrap();
    assert!(methods.contains("POST"), "{methods}");
    let allowed = headers["access-control-allow-headers"].to_str().unwrap();
    assert!(allowed.contains("content-type"), "{allowed}");

    // Error answers carry CORS headers too, so a page can read the problem body.
    let problem = client
        .post(server.url("/solve"))
        .header("origin", "http://localhost:5173")
        .json(&json!({"board": "nope"}))
        .send()
        .await
        .unwrap();
    assert_eq!(problem.status(), 400);
    assert_eq!(problem.headers()["access-control-allow-origin"], "*");
    server.shutdown().await.unwrap();
}

#[tokio::test]
async fn only_listed_origins_are_allowed_when_configured() {
    let config = Config {
        cors_origins: vec!["https://app.example".into()],
        ..Config::default()
    };
    let server = TestServer::start(config).await;
    let client = reqwest::Client::new();
    for (origin, allowed) in [
        ("https://app.example", true),
        ("https://evil.example", false),
    ] {
        let preflight = client
            .request(reqwest::Method::OPTIONS, server.url("/solve"))
            .header("origin", origin)
            .header("access-control-request-method", "POST")
            .send()
            .await
            .unwrap();
        let header = preflight.headers().get("access-control-allow-origin");
        assert_eq!(header.is_some(), allowed, "{origin}");
        if allowed {
            assert_eq!(header.unwrap(), origin);
        }
    }
    server.shutdown().await.unwrap();
}

/// How long each step of the shutdown test may take on the real clock: far over ten times
/// the slowest seen (the answer after the body's end: 30 ms; the listener closing: at the
/// first try, 0.1 ms). Only a hang reaches it.
const STEP_BOUND: Duration = Duration::from_secs(10);

#[tokio::test]
async fn shutdown_lets_an_in_flight_request_finish_then_stops() {
    let server = TestServer::start(Config::default()).await;
    let body = json!({ "board": PUZZLE }).to_string();
    let (head, tail) = body.split_at(10);
    // With `Expect: 100-continue` the server says `100 Continue` once the handler reads the
    // body: from then on the request is in flight, with no sleep to guess when.
    let mut stream = TcpStream::connect(server.addr).await.unwrap();
    let request = format!(
        "POST /solve HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nContent-Length: {}\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut interim = Vec::new();
    while !interim.ends_with(b"\r\n\r\n") {
        let mut byte = [0u8; 1];
        tokio::time::timeout(STEP_BOUND, stream.read_exact(&mut byte))
            .await
            .expect("100 Continue in time")
            .unwrap();
        interim.push(byte[0]);
    }
    let interim = String::from_utf8_lossy(&interim);
    assert!(interim.starts_with("HTTP/1.1 100"), "{interim}");
    stream.write_all(head.as_bytes()).await.unwrap();

    let addr = server.addr;
    let mut server = server;
    let _ = server.stop.take().unwrap().send(());
    let stopping = Instant::now();
    let mut tries = 0;
    while TcpStream::connect(addr).await.is_ok() {
        tries += 1;
        assert!(
            stopping.elapsed() < STEP_BOUND,
            "still accepting connections {:?} after shutdown began",
            stopping.elapsed()
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    println!(
        "listener closed {:?} after shutdown began ({tries} connections before)",
        stopping.elapsed()
    );
    // Only waiting can show that it does not stop: a server that did not wait would stop
    // at once, and one that waits cannot stop while the body is unfinished.
    assert!(
        tokio::time::timeout(Duration::from_millis(100), &mut server.task)
            .await
            .is_err(),
        "waits for the request in flight"
    );

    let finishing = Instant::now();
    stream.write_all(tail.as_bytes()).await.unwrap();
    let mut answer = String::new();
    tokio::time::timeout(STEP_BOUND, stream.read_to_string(&mut answer))
        .await
        .expect("an answer in time")
        .unwrap();
    println!("answered {:?} after the body's end", finishing.elapsed());
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(answer.contains(SOLUTION), "{answer}");
    tokio::time::timeout(STEP_BOUND, server.task)
        .await
        .expect("server stops once the request is done")
        .unwrap()
        .unwrap();
}
