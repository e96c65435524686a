//! The command-line suite: the `sudoku-service` binary run as a child process, one module
//! per command.

#[path = "../helpers/mod.rs"]
mod helpers;

mod generate;
mod grade;
mod scan;
mod solve;
