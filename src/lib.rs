//! sudoku-service: solves and checks 9x9 Sudoku puzzles, over HTTP and on the command line.
//!
//! # Layout
//! - [`sudoku`]: the pure core (grid, validation, solver, logic, grading, generation).
//!   Depends on std, thiserror, `rand_chacha` for the generator's seeded random numbers, and
//!   `wide` for the solver's SIMD.
//! - [`http`]: the axum adapter: router, wire formats of a board, handlers, errors.
//! - [`server`]: binding, serving and graceful shutdown; [`telemetry`]: logging.
//! - [`config`]: server settings from flags and environment variables.
//! - [`cli`]: the command line (`serve`, `solve`, `grade`, `generate`, `healthcheck`).
//! - [`puzzle_sets`]: the committed puzzle sets, read by the tests, benches and examples.
//!
//! Dependencies point one way: `sudoku` <- `http` <- `server` <- `main.rs`.

pub mod cli;
pub mod config;
pub mod http;
pub mod puzzle_sets;
pub mod server;
pub mod sudoku;
pub mod telemetry;
