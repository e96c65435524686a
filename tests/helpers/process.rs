//! The built binary as a child process: the command-line suite, and the API tests that run
//! the real `serve` command.

use std::io::Write;
use std::process::{Child, Command, Output, Stdio};

/// The `sudoku-service` binary this test build made.
pub(crate) fn binary() -> Command {
    Command::new(env!("CARGO_BIN_EXE_sudoku-service"))
}

/// The binary started with `args`, all three standard streams piped.
pub(crate) fn spawn(args: &[&str]) -> Child {
    binary()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// The binary run with `args` and `input` on stdin, to its end.
pub(crate) fn run_with_stdin(args: &[&str], input: &str) -> Output {
    let mut child = spawn(args);
    // Feed stdin from another thread: the child writes answers while it still reads, and
    // both pipes filling up at once would deadlock.
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_owned();
    let feeder = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let output = child.wait_with_output().unwrap();
    feeder.join().unwrap().unwrap();
    output
}

/// Output bytes as text (the binary writes UTF-8 only).
pub(crate) fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

/// Whether process `pid` runs the binary with `arg` among its arguments (not the forked
/// test process before its `exec`, whose handlers are the suite's) and catches SIGHUP now:
/// bit 0 of `SigCgt` in its status, rather than the default action, which ends it.
pub(crate) fn catches_sighup(pid: u32, arg: &str) -> bool {
    let proc = format!("/proc/{pid}");
    let cmdline = std::fs::read(format!("{proc}/cmdline")).unwrap_or_default();
    if !cmdline
        .split(|&byte| byte == 0)
        .any(|a| a == arg.as_bytes())
    {
        return false;
    }
    let status = std::fs::read_to_string(format!("{proc}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|line| line.strip_prefix("SigCgt:"))
        .and_then(|mask| u64::from_str_radix(mask.trim(), 16).ok())
        .is_some_and(|mask| mask & 1 != 0)
}

/// Waits, a bounded number of short polls, until [`catches_sighup`].
pub(crate) fn wait_until_sighup_is_caught(pid: u32, arg: &str) {
    for _ in 0..20_000 {
        if catches_sighup(pid, arg) {
            return;
        }
        std::thread::sleep(std::time::Duration::from_micros(100));
    }
    panic!("process {pid} never caught SIGHUP");
}

/// Writes `request` on an open keep-alive connection and reads the answer: its status and
/// body. Panics if the server means to close the connection.
pub(crate) fn exchange(
    connection: &mut std::io::BufReader<std::net::TcpStream>,
    request: &str,
) -> (u16, String) {
    use std::io::{BufRead, Read};
    connection.get_mut().write_all(request.as_bytes()).unwrap();
    let mut status_line = String::new();
    connection.read_line(&mut status_line).unwrap();
    let status = status_line
        .split_whitespace()
        .nth(1)
        .and_then(|code| code.parse().ok())
        .unwrap_or_else(|| panic!("no status line: {status_line:?} (connection closed?)"));
    let mut length = 0;
    loop {
        let mut line = String::new();
        connection.read_line(&mut line).unwrap();
        if line.trim().is_empty() {
            break;
        }
        if let Some((name, value)) = line.split_once(':') {
            assert!(!name.eq_ignore_ascii_case("connection") || !value.contains("close"));
            if name.eq_ignore_ascii_case("content-length") {
                length = value.trim().parse().unwrap();
            }
        }
    }
    let mut body = vec![0; length];
    connection.read_exact(&mut body).unwrap();
    (status, String::from_utf8(body).unwrap())
}

/// The binary started with `args` and `envs`, stdin and stdout closed, and its stderr lines
/// as they come (see [`log_lines`]).
pub(crate) fn spawn_logging(
    args: &[&str],
    envs: &[(&str, &str)],
) -> (Child, std::sync::mpsc::Receiver<String>) {
    let mut command = binary();
    command.args(args).envs(envs.iter().copied());
    spawn_reading_stderr(command)
}

/// `command` started with stdin and stdout closed, and its stderr lines as they come.
pub(crate) fn spawn_reading_stderr(
    mut command: Command,
) -> (Child, std::sync::mpsc::Receiver<String>) {
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let lines = log_lines(&mut child);
    (child, lines)
}

/// The lines of `child`'s piped stderr as they come, read by a thread of their own, so
/// the pipe never fills.
pub(crate) fn log_lines(child: &mut Child) -> std::sync::mpsc::Receiver<String> {
    use std::io::BufRead;
    let stderr = std::io::BufReader::new(child.stderr.take().unwrap());
    let (sender, lines) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in stderr.lines().map_while(Result::ok) {
            if sender.send(line).is_err() {
                break;
            }
        }
    });
    lines
}

/// Sends the signal `name` (`HUP`, `TERM`, ...) to process `pid`, by `kill`.
pub(crate) fn send_signal(pid: u32, name: &str) {
    let status = Command::new("kill")
        .args([&format!("-{name}"), &pid.to_string()])
        .status()
        .unwrap();
    assert!(status.success(), "kill -{name} {pid}");
}

/// The address a text-format log line names in its `addr=` field.
pub(crate) fn logged_address(line: &str) -> std::net::SocketAddr {
    line.split("addr=")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|addr| addr.parse().ok())
        .unwrap_or_else(|| panic!("no address in {line:?}"))
}

/// The next log line that holds `text`.
pub(crate) fn wait_for(lines: &std::sync::mpsc::Receiver<String>, text: &str) -> String {
    loop {
        let line = lines
            .recv_timeout(std::time::Duration::from_secs(20))
            .unwrap_or_else(|_| panic!("no {text:?} in the log"));
        if line.contains(text) {
            return line;
        }
    }
}

/// A connection asked for far more than the socket buffers hold (the 90 KB spec, 400
/// times) and never read: the server is left writing to it.
pub(crate) fn a_client_that_never_reads(addr: std::net::SocketAddr) -> std::net::TcpStream {
    use std::io::BufRead;
    let mut stream = std::net::TcpStream::connect(addr).unwrap();
    let requests = "GET /openapi.yaml HTTP/1.1\r\nHost: localhost\r\n\r\n".repeat(400);
    stream.write_all(requests.as_bytes()).unwrap();
    // The first answer's status line: the server is answering, and then nothing more is
    // read. It fills the socket buffers within milliseconds; a pause lets it get there.
    let mut reader = std::io::BufReader::new(stream.try_clone().unwrap());
    let mut status_line = String::new();
    reader.read_line(&mut status_line).unwrap();
    assert!(status_line.starts_with("HTTP/1.1 200"), "{status_line}");
    std::thread::sleep(std::time::Duration::from_millis(300));
    stream
}

/// The exit status, if the process ends within `polls` tenths of a second.
pub(crate) fn exit_within(child: &mut Child, polls: u32) -> Option<std::process::ExitStatus> {
    for _ in 0..polls {
        if let Some(status) = child.try_wait().unwrap() {
            return Some(status);
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    None
}

/// The exit status if the process ends within `polls` tenths of a second; else it is
/// killed (so that no test leaves it running) and `None`.
pub(crate) fn exit_within_or_kill(
    child: &mut Child,
    polls: u32,
) -> Option<std::process::ExitStatus> {
    let status = exit_within(child, polls);
    if status.is_none() {
        child.kill().unwrap();
    }
    status
}
