//! The API suite: the HTTP service through its router in-process and as the real server
//! on 127.0.0.1, one module per topic. The shared boards and clients are in
//! `tests/helpers/`, which the command-line suite (`tests/cli/`) includes too.

#[path = "../helpers/mod.rs"]
mod helpers;

mod adversarial;
mod batch;
mod connections;
mod daily;
mod errors;
mod fpuzzles;
mod fuzz;
mod generate;
mod grade;
mod head;
mod hint;
mod hostile;
mod log_sink;
mod ops;
mod overload;
mod page;
mod reload;
mod render;
mod scan;
mod security;
mod server;
mod shutdown;
mod solve;
mod validate;
mod variants;
