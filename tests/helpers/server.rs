//! The real server on a free 127.0.0.1 port, and reading a connection until the server
//! closes it.

use std::time::{Duration, Instant};

use sudoku_service::config::Config;
use tokio::io::AsyncReadExt;
use tokio::net::TcpStream;

/// Reads from `stream` until EOF, an error, or `limit`; returns what came, whether the
/// server closed the connection (EOF or reset) within the limit.
pub(crate) async fn read_until_closed(stream: &mut TcpStream, limit: Duration) -> (String, bool) {
    let mut received = Vec::new();
    let deadline = Instant::now() + limit;
    let mut buf = [0u8; 4096];
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match tokio::time::timeout(left, stream.read(&mut buf)).await {
            Ok(Ok(0) | Err(_)) => return (String::from_utf8_lossy(&received).into(), true),
            Ok(Ok(n)) => received.extend_from_slice(&buf[..n]),
            Err(_) => return (String::from_utf8_lossy(&received).into(), false),
        }
    }
}

/// The real server on a free 127.0.0.1 port, stopped by [`TestServer::shutdown`].
pub(crate) struct TestServer {
    pub addr: std::net::SocketAddr,
    pub stop: Option<tokio::sync::oneshot::Sender<()>>,
    pub task: tokio::task::JoinHandle<std::io::Result<()>>,
}

impl TestServer {
    /// Binds 127.0.0.1:0 and serves `config` until shut down.
    pub(crate) async fn start(config: Config) -> TestServer {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let task = tokio::spawn(async move {
            sudoku_service::server::serve(listener, &config, async {
                let _ = stopped.await;
            })
            .await
        });
        TestServer {
            addr,
            stop: Some(stop),
            task,
        }
    }

    /// Binds 127.0.0.1:0 twice and serves `config`, with the admin router (`/metrics` and
    /// the probes) on the second address, which is returned beside the server.
    pub(crate) async fn start_with_admin(config: Config) -> (TestServer, std::net::SocketAddr) {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let admin = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let admin_addr = admin.local_addr().unwrap();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let task = tokio::spawn(async move {
            sudoku_service::server::serve_with_admin(listener, Some(admin), &config, async {
                let _ = stopped.await;
            })
            .await
        });
        let server = TestServer {
            addr,
            stop: Some(stop),
            task,
        };
        (server, admin_addr)
    }

    /// The URL of `path` on this server.
    pub(crate) fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    /// Asks the server to stop and waits (at most 10 s) until it has.
    pub(crate) async fn shutdown(mut self) -> std::io::Result<()> {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        tokio::time::timeout(std::time::Duration::from_secs(10), self.task)
            .await
            .expect("server stopped within 10 s")
            .expect("server task did not panic")
    }
}
