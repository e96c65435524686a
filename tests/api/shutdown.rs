//! Shutdown has a deadline, by the real binary: a client that never reads its answers keeps
//! a connection busy, and SIGTERM still ends the process, with exit 0, once the drain time is
//! up, or at once on a second signal.

use std::net::SocketAddr;
use std::process::Child;
use std::sync::mpsc::Receiver;

use crate::helpers::*;

/// The server with its drain limited to `drain_seconds`, its address and its log lines.
fn start(drain_seconds: &str) -> (Child, SocketAddr, Receiver<String>) {
    let (child, lines) = spawn_logging(
        &[
            "serve",
            "--listen",
            "127.0.0.1:0",
            "--shutdown-timeout",
            drain_seconds,
        ],
        &[("RUST_LOG", "info"), ("SUDOKU_LOG_FORMAT", "text")],
    );
    let addr = logged_address(&wait_for(&lines, "listening"));
    (child, addr, lines)
}

#[test]
fn sigterm_ends_the_drain_when_its_time_is_up_even_with_a_client_that_never_reads() {
    let (mut child, addr, lines) = start("1");
    let _stuck = a_client_that_never_reads(addr);
    send_signal(child.id(), "TERM");
    wait_for(&lines, "drain time is up");
    let status = exit_within_or_kill(&mut child, 100);
    assert!(status.is_some_and(|s| s.success()), "{status:?}");
}

#[test]
fn a_second_signal_ends_the_drain_at_once() {
    let (mut child, addr, lines) = start("600");
    let _stuck = a_client_that_never_reads(addr);
    send_signal(child.id(), "TERM");
    wait_for(&lines, "shutting down");
    // Still draining: the client holds its connection and the limit is ten minutes away.
    assert!(
        exit_within(&mut child, 5).is_none(),
        "ended without a second signal"
    );
    send_signal(child.id(), "INT");
    wait_for(&lines, "a second signal");
    let status = exit_within_or_kill(&mut child, 100);
    assert!(status.is_some_and(|s| s.success()), "{status:?}");
}
