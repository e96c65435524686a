//! The command line: `serve` (the default), `solve`, `grade`, `generate`, `booklet`, `scan`
//! and `healthcheck`.

pub mod booklet;
pub mod generate;
pub mod grade;
pub mod healthcheck;
mod input;
mod lines;
mod pipeline;
mod placement;
mod progress;
pub mod scan;
pub mod solve;

use clap::{Parser, Subcommand};

use crate::config::Config;

/// A Sudoku solving service: an HTTP JSON API, and a batch solver, grader, generator and
/// photo reader of puzzle files.
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

/// The subcommands. Each one's options are built only when it is the one run (`defer`):
/// building all of them was a sixth of every command's start-up, paid again by each short
/// `solve` run.
#[derive(Debug, Subcommand)]
#[command(defer = true)]
pub enum Command {
    /// Run the HTTP server (the default).
    Serve(Box<Config>),
    /// Solve puzzle files (or stdin), one puzzle per line, proving uniqueness.
    Solve(solve::SolveArgs),
    /// Grade puzzle files (or stdin), one puzzle per line: the Sudoku Explainer rating and
    /// difficulty a person would meet.
    Grade(grade::GradeArgs),
    /// Generate puzzles of a difficulty, one per line, reproducibly from a seed.
    Generate(generate::GenerateArgs),
    /// Write a PDF booklet of generated puzzles, reproducibly from a seed.
    Booklet(booklet::BookletArgs),
    /// Read puzzles from photos (JPEG, PNG or WebP): one 81-character line of givens per image.
    Scan(scan::ScanArgs),
    /// Probe a local server's /healthz; exit 0 when it answers 200 (for container HEALTHCHECK).
    Healthcheck(healthcheck::HealthcheckArgs),
}

impl Cli {
    /// The server settings, from `serve` or from the top level.
    pub fn into_command(self) -> Command {
        self.command.unwrap_or(Command::Serve(Box::new(self.serve)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn each_subcommand_help_opens_with_the_summary_the_top_level_lists() {
        let top = Cli::command();
        let mut seen = 0;
        for listed in top.get_subcommands() {
            let summary = listed.get_about().map(ToString::to_string);
            assert!(summary.is_some(), "{} has no summary", listed.get_name());
            // Building runs the deferred part: the options, and the doc of their struct.
            let mut built = listed.clone();
            built.build();
            assert!(built.get_arguments().count() > 1, "{}", listed.get_name());
            assert_eq!(
                built.get_about().map(ToString::to_string),
                summary,
                "{}",
                listed.get_name()
            );
            assert_eq!(built.get_long_about(), None, "{}", listed.get_name());
            seen += 1;
        }
        assert_eq!(seen, 7);
    }
}
