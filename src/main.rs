//! The `sudoku-service` binary: parses the command line and hands over to the library.

use std::process::ExitCode;

use clap::Parser;
use sudoku_service::cli::{Cli, Command, healthcheck, solve};

fn main() -> ExitCode {
    match Cli::parse().into_command() {
        Command::Serve(config) => sudoku_service::server::run_from_config(&config),
        Command::Solve(args) => solve::run(
            &args,
            std::io::stdin(),
            std::io::stdout(),
            std::io::stderr(),
        ),
        Command::Healthcheck(args) => healthcheck::run(&args),
    }
}
