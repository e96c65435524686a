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
