//! sudoku-service: the HTTP service and command line around the [`sudoku`] core crate.
//!
//! # Layout
//! - [`http`]: the axum adapter: router, wire formats of a board, handlers, errors.
//! - [`server`]: binding, serving and graceful shutdown; [`telemetry`]: logging.
//! - [`config`]: server settings from flags and environment variables.
//! - [`cli`]: the command line (`serve`, `solve`, `grade`, `generate`, `healthcheck`).
//!
//! Dependencies point one way: `sudoku` (its own crate) <- `http` <- `server` <- `main.rs`.

pub mod cli;
pub mod config;
pub mod http;
pub mod server;
pub mod telemetry;
