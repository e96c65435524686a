//! Logging: `tracing` to stderr, filtered by `RUST_LOG`, as text or JSON lines.
//!
//! The lines are formatted by tracing-subscriber on the thread that logs them but written
//! by one background thread (`tracing-appender`'s non-blocking writer), so a request does
//! not wait for its log line's `write` to stderr. That thread writes whatever is queued in
//! one `write`, then pauses for [`WRITER_PAUSE`] ([`Paced`]): under load the lines of that
//! pause leave together, and a request's line does not wake the thread (a futex wake, two
//! context switches and a `write` per line cost /solve more CPU than its solve).
//!
//! When stderr stops draining (a stalled collector, a full pipe or disk) and the queue is
//! full, lines are dropped rather than waited for: counted in `/metrics`
//! (`log_lines_dropped_total`) and told in the log once a line reaches it again.

use std::io::{self, BufWriter};
use std::sync::LazyLock;
use std::time::Duration;

use prometheus_client::metrics::counter::Counter;

use tracing_appender::non_blocking::{ErrorCounter, NonBlockingBuilder, WorkerGuard};
use tracing_subscriber::EnvFilter;

use crate::config::LogFormat;

/// Log lines formatted but not yet written that the queue holds; a thread that logs when it
/// is full waits.
const LINES_QUEUED: usize = 8192;

/// How long the writer thread rests after writing out what was queued: how late a line
/// may reach stderr, and at most how often the thread wakes while lines keep coming.
pub const WRITER_PAUSE: Duration = Duration::from_millis(1);

/// Bytes of lines gathered before they are written (sooner when the queue runs empty).
const WRITE_BUFFER: usize = 64 * 1024;

/// Installs the global subscriber; the level comes from `RUST_LOG` (default `info`).
/// Does nothing when one is already installed (tests start several servers).
///
/// Keep the guard for as long as the process logs: dropping it writes out the lines still
/// queued and stops the writer thread.
#[must_use = "dropping the guard stops the log writer"]
pub fn init(format: LogFormat) -> Option<WorkerGuard> {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    // Lossy: a log sink that stops draining (a stalled collector, a full pipe) must never
    // stop serving; what is dropped is counted. The queue's slots are allocated up front
    // (the default, 128,000 lines, is 4 MB of resident memory).
    let (writer, guard) = NonBlockingBuilder::default()
        .lossy(true)
        .buffered_lines_limit(LINES_QUEUED)
        .finish(Paced::new(std::io::stderr(), WRITER_PAUSE));
    let dropped = writer.error_counter();
    let ansi = std::io::IsTerminal::is_terminal(&std::io::stderr());
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(ansi)
        .with_writer(writer);
    // tracing-subscriber's own formats: a hand-written text one gained nothing measurable.
    let installed = match format {
        LogFormat::Text => builder.try_init(),
        LogFormat::Json => builder.json().flatten_event(true).try_init(),
    };
    installed.ok()?;
    let reporter = std::thread::Builder::new().name("log-drops".into());
    // Without the thread the drops are still counted, only not told in the log.
    let _ = reporter.spawn(move || report_drops(&dropped));
    Some(guard)
}

/// Log lines dropped because the log output was not draining, since the start; also in
/// `/metrics`.
pub fn dropped_log_lines() -> Counter {
    DROPPED_LOG_LINES.clone()
}

static DROPPED_LOG_LINES: LazyLock<Counter> = LazyLock::new(Counter::default);

/// How often the drops are looked at: how late `/metrics` and the log hear of them.
const DROP_CHECK_INTERVAL: Duration = Duration::from_secs(1);

/// Forever: copies the writer's count of dropped lines into [`dropped_log_lines`], and tells
/// the log how many went once a line can reach it again (a line that is itself dropped is
/// counted and told with the next).
fn report_drops(dropped: &ErrorCounter) {
    let mut counted = 0;
    let mut told = 0;
    loop {
        std::thread::sleep(DROP_CHECK_INTERVAL);
        let now = dropped.dropped_lines() as u64;
        DROPPED_LOG_LINES.inc_by(now - counted);
        counted = now;
        if now > told {
            tracing::warn!(
                dropped = now - told,
                "log lines dropped while the log output was not draining"
            );
            if dropped.dropped_lines() as u64 == now {
                told = now;
            }
        }
    }
}

/// The log writer thread's output: lines gathered in a buffer, written out when the thread
/// has emptied its queue (it flushes then), after which the thread rests for `pause`, so
/// that the lines logged meanwhile are queued without waking it and leave in one write.
#[derive(Debug)]
pub struct Paced<W: io::Write> {
    buffer: BufWriter<W>,
    pause: Duration,
}

impl<W: io::Write> Paced<W> {
    /// `out`, written in batches, with a rest of `pause` after each.
    pub fn new(out: W, pause: Duration) -> Paced<W> {
        Paced {
            buffer: BufWriter::with_capacity(WRITE_BUFFER, out),
            pause,
        }
    }
}

impl<W: io::Write> io::Write for Paced<W> {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.buffer.write(bytes)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.buffer.flush()?;
        std::thread::sleep(self.pause);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write as _;

    /// Counts the writes that reach it.
    #[derive(Default)]
    struct Writes {
        bytes: Vec<u8>,
        count: usize,
    }

    impl io::Write for Writes {
        fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
            self.bytes.extend_from_slice(bytes);
            self.count += 1;
            Ok(bytes.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn the_writer_writes_a_batch_of_lines_in_one_write_when_flushed() {
        let mut paced = Paced::new(Writes::default(), Duration::ZERO);
        let mut expected = Vec::new();
        for i in 0..100 {
            writeln!(paced, "line {i}").unwrap();
            writeln!(expected, "line {i}").unwrap();
        }
        assert_eq!(
            paced.buffer.get_ref().count,
            0,
            "held until the queue is empty"
        );
        paced.flush().unwrap();
        let out = paced.buffer.get_ref();
        assert_eq!(out.count, 1);
        assert_eq!(out.bytes, expected);
    }
}
