//! Logging: `tracing` to stderr, filtered by `RUST_LOG`, as text or JSON lines.
//!
//! The lines are formatted on the thread that logs them but written by one background
//! thread (`tracing-appender`'s non-blocking writer), so a request does not wait for its
//! log line's `write` to stderr, and lines that come together leave in fewer writes.

use tracing_appender::non_blocking::{NonBlockingBuilder, WorkerGuard};
use tracing_subscriber::EnvFilter;

use crate::config::LogFormat;

/// Log lines formatted but not yet written that the queue holds; a thread that logs when it
/// is full waits.
const LINES_QUEUED: usize = 8192;

/// Installs the global subscriber; the level comes from `RUST_LOG` (default `info`).
/// Does nothing when one is already installed (tests start several servers).
///
/// Keep the guard for as long as the process logs: dropping it writes out the lines still
/// queued and stops the writer thread.
#[must_use = "dropping the guard stops the log writer"]
pub fn init(format: LogFormat) -> Option<WorkerGuard> {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    // Not lossy: a burst waits for the writer rather than losing lines. The queue's slots
    // are allocated up front (the default, 128,000 lines, is 4 MB of resident memory).
    let (writer, guard) = NonBlockingBuilder::default()
        .lossy(false)
        .buffered_lines_limit(LINES_QUEUED)
        .finish(std::io::stderr());
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .with_writer(writer);
    let installed = match format {
        LogFormat::Text => builder.try_init(),
        LogFormat::Json => builder.json().flatten_event(true).try_init(),
    };
    installed.ok().map(|()| guard)
}
