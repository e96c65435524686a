//! The command line: `serve` (the default), `solve`, `grade`, `generate`, and
//! `healthcheck`.

pub mod generate;
pub mod grade;
pub mod healthcheck;
mod input;
mod pipeline;
mod placement;
mod progress;
pub mod solve;

use clap::{Parser, Subcommand};

use crate::config::Config;

/// A 9x9 Sudoku solving service: an HTTP JSON API, and a batch solver, grader and generator
/// of puzzle files.
#[derive(Debug, Parser)]
#[command(
    name = "sudoku-service",
    version,
    about,
    args_conflicts_with_subcommands = true
)]
pub struct Cli {
    /// What to run; the HTTP server when omitted.
    #[command(subcommand)]
    pub command: Option<Command>,

    /// Server settings, used when no subcommand is given.
    #[command(flatten)]
    pub serve: Config,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run the HTTP server (the default).
    Serve(Config),
    /// Solve puzzle files (or stdin), one puzzle per line, proving uniqueness.
    Solve(solve::SolveArgs),
    /// Grade puzzle files (or stdin), one puzzle per line: the Sudoku Explainer rating and
    /// difficulty a person would meet.
    Grade(grade::GradeArgs),
    /// Generate puzzles of a difficulty, one per line, reproducibly from a seed.
    Generate(generate::GenerateArgs),
    /// Probe a local server's /healthz; exit 0 when it answers 200 (for container HEALTHCHECK).
    Healthcheck(healthcheck::HealthcheckArgs),
}

impl Cli {
    /// The server settings, from `serve` or from the top level.
    pub fn into_command(self) -> Command {
        self.command.unwrap_or(Command::Serve(self.serve))
    }
}
