//! The API keys file read again on SIGHUP, by the real binary: a key taken out stops
//! working and a new one starts, on a keep-alive connection opened before the reload and
//! still open after it; a file that cannot be taken keeps the old keys; no key ever
//! appears in the logs (at debug level), the label does. A SIGHUP while the server starts,
//! or without a keys file, is logged and ends nothing.

use std::io::BufReader;
use std::net::{SocketAddr, TcpStream};
use std::process::Child;
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use serde_json::Value;
use sudoku_service::http::auth::hash_hex;

use crate::helpers::*;

const ALPHA_KEY: &str = "alpha-reload-key-0123456789";
const BETA_KEY: &str = "beta-reload-key-0123456789";

/// How long the server may take to start or to log a reload: far over the milliseconds
/// either takes.
const PATIENCE: Duration = Duration::from_secs(20);

/// The server process, its address, and its stderr lines as they come.
struct Server {
    child: Child,
    addr: SocketAddr,
    lines: Receiver<String>,
    log: Vec<String>,
}

impl Server {
    fn start(keys: &TempFile) -> Server {
        let mut server = Server::spawn(Some(keys));
        server.wait_until_listening();
        server
    }

    /// The binary, started with `keys` as its keys file (none when `None`), not yet waited
    /// for.
    fn spawn(keys: Option<&TempFile>) -> Server {
        let keys_file = keys.map(|keys| keys.path().to_string_lossy().into_owned());
        let mut envs = vec![("SUDOKU_LOG_FORMAT", "json"), ("RUST_LOG", "debug")];
        if let Some(path) = &keys_file {
            envs.push(("SUDOKU_API_KEYS_FILE", path));
        }
        let (child, lines) = spawn_logging(&["serve", "--listen", "127.0.0.1:0"], &envs);
        Server {
            child,
            addr: "0.0.0.0:0".parse().unwrap(),
            lines,
            log: Vec::new(),
        }
    }

    fn wait_until_listening(&mut self) {
        let listening = self.wait_for("listening");
        self.addr = serde_json::from_str::<Value>(&listening).unwrap()["addr"]
            .as_str()
            .unwrap()
            .parse()
            .unwrap();
    }

    /// The next log line whose message is `message`, every line kept.
    fn wait_for(&mut self, message: &str) -> String {
        let deadline = Instant::now() + PATIENCE;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    self.log.push(line.clone());
                    let parsed: Value = serde_json::from_str(&line).unwrap_or(Value::Null);
                    if parsed["message"] == message {
                        return line;
                    }
                }
                Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => {
                    panic!("no {message:?} in the log:\n{}", self.log.join("\n"))
                }
            }
        }
    }

    fn signal(&self, name: &str) {
        send_signal(self.child.id(), name);
    }

    /// Stops the server with SIGTERM; its exit status, and the whole log.
    fn stop(mut self) -> (std::process::ExitStatus, String) {
        self.signal("TERM");
        let status = self.child.wait().unwrap();
        self.log.extend(self.lines.iter());
        (status, self.log.join("\n"))
    }
}

/// One `POST /solve` on an open keep-alive connection, with `key` in `X-API-Key` or as a
/// bearer token; the answer's status.
fn solve(connection: &mut BufReader<TcpStream>, key: &str, bearer: bool) -> u16 {
    let body = format!("{{\"board\":\"{PUZZLE}\"}}");
    let credential = if bearer {
        format!("Authorization: Bearer {key}")
    } else {
        format!("X-API-Key: {key}")
    };
    let request = format!(
        "POST /solve HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\n{credential}\r\n\r\n{body}",
        body.len()
    );
    exchange(connection, &request).0
}

#[test]
fn sighup_swaps_the_keys_without_dropping_an_open_connection() {
    let keys = TempFile::with_contents(&format!("alpha {ALPHA_KEY}\n"));
    let mut server = Server::start(&keys);
    let stream = TcpStream::connect(server.addr).unwrap();
    stream.set_read_timeout(Some(PATIENCE)).unwrap();
    let mut connection = BufReader::new(stream);
    assert_eq!(solve(&mut connection, ALPHA_KEY, true), 200, "alpha before");
    assert_eq!(solve(&mut connection, BETA_KEY, false), 401, "beta before");

    // Alpha out, beta in (by its hash).
    std::fs::write(keys.path(), format!("beta sha256:{}\n", hash_hex(BETA_KEY))).unwrap();
    server.signal("HUP");
    server.wait_for("API keys reloaded");
    assert_eq!(solve(&mut connection, ALPHA_KEY, true), 401, "alpha after");
    assert_eq!(solve(&mut connection, BETA_KEY, false), 200, "beta after");
    assert_eq!(
        solve(&mut connection, BETA_KEY, true),
        200,
        "beta as a bearer token"
    );

    // A broken file keeps the keys in force.
    std::fs::write(keys.path(), format!("beta {BETA_KEY} and more\n")).unwrap();
    server.signal("HUP");
    let refused = server.wait_for("API keys not reloaded: the old ones stay");
    assert!(refused.contains("line 1"), "{refused}");
    assert_eq!(solve(&mut connection, BETA_KEY, false), 200, "beta still");
    assert_eq!(
        solve(&mut connection, ALPHA_KEY, false),
        401,
        "alpha still out"
    );

    let (status, log) = server.stop();
    assert!(status.success(), "exit {status:?} after SIGTERM:\n{log}");
    assert!(
        log.contains("\"beta\""),
        "the label is in the request logs:\n{log}"
    );
    for secret in [ALPHA_KEY, BETA_KEY] {
        assert!(!log.contains(secret), "a key in the log:\n{log}");
    }
    println!("{} log lines, none with a key", log.lines().count());
}

#[test]
fn a_sighup_while_starting_or_without_a_keys_file_is_logged_and_the_server_serves_on() {
    let mut server = Server::spawn(None);
    // As early as the process catches it, long before it listens: the default action
    // would end it there (exit 129).
    wait_until_sighup_is_caught(server.child.id(), "serve");
    server.signal("HUP");
    server.wait_until_listening();
    // The early one is answered when the server starts listening for SIGHUP, which may be
    // on either side of the "listening" line.
    let nothing_to_reload = "SIGHUP: no API keys file is set, nothing to reload";
    if !server
        .log
        .iter()
        .any(|line| line.contains(nothing_to_reload))
    {
        server.wait_for(nothing_to_reload);
    }
    server.signal("HUP");
    server.wait_for(nothing_to_reload);
    let mut connection = BufReader::new(TcpStream::connect(server.addr).unwrap());
    assert_eq!(solve(&mut connection, "no key needed", false), 200);
    let (status, _) = server.stop();
    assert!(status.success(), "{status:?}");
}
