//! The `sudoku-service` binary: parses the command line and hands over to the library.

use std::io::{IsTerminal, LineWriter, Stderr};
use std::process::ExitCode;

use clap::Parser;
use sudoku_service::cli::{Cli, Command, booklet, generate, grade, healthcheck, scan, solve};

fn main() -> ExitCode {
    // First: a reload sent while the server starts must not end it.
    sudoku_service::server::catch_hangups();
    let command = Cli::parse().into_command();
    if !matches!(command, Command::Serve(_)) {
        sudoku_service::server::let_hangups_end_the_process();
    }
    // The long commands draw a progress bar only for a person watching.
    let show_progress = std::io::stderr().is_terminal();
    match command {
        Command::Serve(config) => sudoku_service::server::run_from_config(&config),
        Command::Solve(args) => solve::run(
            &args,
            std::io::stdin(),
            std::io::stdout(),
            diagnostics(),
            show_progress,
        ),
        Command::Grade(args) => grade::run(
            &args,
            std::io::stdin(),
            std::io::stdout(),
            diagnostics(),
            show_progress,
        ),
        Command::Generate(args) => {
            generate::run(&args, std::io::stdout(), diagnostics(), show_progress)
        }
        Command::Booklet(args) => booklet::run(&args, diagnostics()),
        Command::Scan(args) => scan::run(&args, std::io::stdout().lock(), diagnostics()),
        Command::Healthcheck(args) => healthcheck::run(&args),
    }
}

/// Stderr a line at a time: the standard one writes each piece of a formatted line with a
/// system call of its own (the summary line of `solve` took 19).
fn diagnostics() -> LineWriter<Stderr> {
    LineWriter::new(std::io::stderr())
}
