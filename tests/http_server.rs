//! The real server on a local port: request ids, CORS from a browser origin, graceful shutdown.

mod common;

use std::time::Duration;

use common::{PUZZLE, SOLUTION, TestServer};
use serde_json::{Value, json};
use sudoku_service::config::Config;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

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

#[tokio::test]
async fn shutdown_lets_an_in_flight_request_finish_then_stops() {
    let server = TestServer::start(Config::default()).await;
    let body = json!({ "board": PUZZLE }).to_string();
    let (head, tail) = body.split_at(10);
    // Start a request and hold back the end of its body, so it is in flight at shutdown.
    let mut stream = TcpStream::connect(server.addr).await.unwrap();
    let request = format!(
        "POST /solve HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{head}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    tokio::time::sleep(Duration::from_millis(100)).await;

    let addr = server.addr;
    let mut server = server;
    let _ = server.stop.take().unwrap().send(());
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert!(
        TcpStream::connect(addr).await.is_err(),
        "no new connections once shutdown has begun"
    );
    assert!(
        !server.task.is_finished(),
        "waits for the request in flight"
    );

    stream.write_all(tail.as_bytes()).await.unwrap();
    let mut answer = String::new();
    tokio::time::timeout(Duration::from_secs(5), stream.read_to_string(&mut answer))
        .await
        .expect("answer within 5 s")
        .unwrap();
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(answer.contains(SOLUTION), "{answer}");
    tokio::time::timeout(Duration::from_secs(5), server.task)
        .await
        .expect("server stops once the request is done")
        .unwrap()
        .unwrap();
}
