//! Logging: `tracing` to stderr, filtered by `RUST_LOG`, as text or JSON lines.
//!
//! The lines are formatted on the thread that logs them but written by one background
//! thread (`tracing-appender`'s non-blocking writer), so a request does not wait for its
//! log line's `write` to stderr. That thread writes whatever is queued in one `write`, then
//! pauses for [`WRITER_PAUSE`] ([`Paced`]): under load the lines of that pause leave
//! together, and a request's line does not wake the thread (a futex wake, two context
//! switches and a `write` per line cost /solve more CPU than its solve).
//!
//! Text lines without colours (stderr not a terminal, as in every deployment) are written
//! by [`PlainLines`] and [`PlainFields`]: the same lines as tracing-subscriber's default
//! format, for a fraction of its cost (that format paints every part with an empty style
//! and writes each through `core::fmt`, about 9,000 instructions for a request's line).

use std::fmt::{self, Write as _};
use std::io::{self, BufWriter};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use tracing::field::{Field, Visit};
use tracing::{Event, Level, Subscriber};
use tracing_appender::non_blocking::{NonBlockingBuilder, WorkerGuard};
use tracing_subscriber::EnvFilter;
use tracing_subscriber::field::{RecordFields, VisitOutput};
use tracing_subscriber::fmt::format::{DefaultVisitor, Format, Writer};
use tracing_subscriber::fmt::time::FormatTime;
use tracing_subscriber::fmt::{FmtContext, FormatEvent, FormatFields, FormattedFields};
use tracing_subscriber::registry::LookupSpan;

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
    // Not lossy: a burst waits for the writer rather than losing lines. The queue's slots
    // are allocated up front (the default, 128,000 lines, is 4 MB of resident memory).
    let (writer, guard) = NonBlockingBuilder::default()
        .lossy(false)
        .buffered_lines_limit(LINES_QUEUED)
        .finish(Paced::new(std::io::stderr(), WRITER_PAUSE));
    let ansi = std::io::IsTerminal::is_terminal(&std::io::stderr());
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(ansi)
        .with_writer(writer);
    let installed = match format {
        // A person at a terminal gets the stock format, in colour.
        LogFormat::Text if ansi => builder.try_init(),
        LogFormat::Text => builder
            .fmt_fields(PlainFields)
            .event_format(PlainLines)
            .try_init(),
        LogFormat::Json => builder.json().flatten_event(true).try_init(),
    };
    installed.ok().map(|()| guard)
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

/// Text lines as tracing-subscriber's default (`Full`) format writes them without colours:
/// `2026-12-01T13:55:00.123456Z  INFO request{method=POST path=/solve}: target: message
/// field=value`, each part written directly rather than through `core::fmt`. Events from
/// the `log` crate, and writers that take colours, go to the stock format.
#[derive(Debug, Clone, Copy, Default)]
pub struct PlainLines;

impl<S, N> FormatEvent<S, N> for PlainLines
where
    S: Subscriber + for<'a> LookupSpan<'a>,
    N: for<'a> FormatFields<'a> + 'static,
{
    fn format_event(
        &self,
        ctx: &FmtContext<'_, S, N>,
        mut writer: Writer<'_>,
        event: &Event<'_>,
    ) -> fmt::Result {
        let meta = event.metadata();
        // `log` records carry their real target and level in `log.*` fields, which only
        // the stock format knows how to take out.
        if writer.has_ansi_escapes() || meta.fields().field("log.target").is_some() {
            return Format::default().format_event(ctx, writer, event);
        }
        write_timestamp(&mut writer, SystemTime::now())?;
        writer.write_str(match *meta.level() {
            Level::TRACE => "TRACE ",
            Level::DEBUG => "DEBUG ",
            Level::INFO => " INFO ",
            Level::WARN => " WARN ",
            Level::ERROR => "ERROR ",
        })?;
        if let Some(scope) = ctx.event_scope() {
            let mut seen = false;
            for span in scope.from_root() {
                writer.write_str(span.metadata().name())?;
                seen = true;
                let extensions = span.extensions();
                if let Some(fields) = extensions.get::<FormattedFields<N>>() {
                    if !fields.is_empty() {
                        writer.write_char('{')?;
                        writer.write_str(fields)?;
                        writer.write_char('}')?;
                    }
                }
                writer.write_char(':')?;
            }
            if seen {
                writer.write_char(' ')?;
            }
        }
        writer.write_str(meta.target())?;
        writer.write_str(": ")?;
        ctx.format_fields(writer.by_ref(), event)?;
        writer.write_char('\n')
    }
}

/// `YYYY-MM-DDTHH:MM:SS.ffffffZ ` (UTC, microseconds, a space after), as the stock format
/// writes the time. A clock before 1970 or past 9999, which never comes, is left to the
/// stock timer (which reads the clock itself).
fn write_timestamp(writer: &mut Writer<'_>, now: SystemTime) -> fmt::Result {
    let Some(since_epoch) = now
        .duration_since(UNIX_EPOCH)
        .ok()
        .filter(|elapsed| elapsed.as_secs() < 253_402_300_800)
    else {
        tracing_subscriber::fmt::time::SystemTime.format_time(writer)?;
        return writer.write_char(' ');
    };
    let seconds = since_epoch.as_secs();
    let (year, month, day) = civil_from_days(seconds / 86_400);
    let of_day = seconds % 86_400;
    let mut text = *b"0000-00-00T00:00:00.000000Z ";
    put_digits(&mut text[0..4], year);
    put_digits(&mut text[5..7], month);
    put_digits(&mut text[8..10], day);
    put_digits(&mut text[11..13], of_day / 3600);
    put_digits(&mut text[14..16], of_day / 60 % 60);
    put_digits(&mut text[17..19], of_day % 60);
    put_digits(&mut text[20..26], u64::from(since_epoch.subsec_micros()));
    writer.write_str(std::str::from_utf8(&text).map_err(|_| fmt::Error)?)
}

/// Writes `value`'s last `out.len()` decimal digits into `out`, zero-padded.
fn put_digits(out: &mut [u8], mut value: u64) {
    for byte in out.iter_mut().rev() {
        *byte = b'0' + (value % 10) as u8;
        value /= 10;
    }
}

/// The (year, month, day) of a count of days since 1970-01-01, in the proleptic Gregorian
/// calendar. Howard Hinnant's `civil_from_days` (from his "chrono-Compatible Low-Level Date
/// Algorithms"), for days on or after the epoch.
fn civil_from_days(days: u64) -> (u64, u64, u64) {
    // Counted from 0000-03-01, so that a leap day ends its year.
    let days = days + 719_468;
    let era = days / 146_097;
    let day_of_era = days % 146_097;
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_from_march = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * month_from_march + 2) / 5 + 1;
    let month = if month_from_march < 10 {
        month_from_march + 3
    } else {
        month_from_march - 9
    };
    let year = year_of_era + era * 400 + u64::from(month <= 2);
    (year, month, day)
}

/// Fields as tracing-subscriber's `DefaultFields` writes them without colours (`name=value`
/// separated by spaces, the message bare and escaped, `r#` dropped from names, `log.*`
/// left out), integers and booleans without `core::fmt`. Used for events and spans alike.
#[derive(Debug, Clone, Copy, Default)]
pub struct PlainFields;

impl<'writer> FormatFields<'writer> for PlainFields {
    fn format_fields<R: RecordFields>(
        &self,
        mut writer: Writer<'writer>,
        fields: R,
    ) -> fmt::Result {
        let sanitize = writer.sanitizes_ansi_escapes();
        // Gathered on the stack and handed on in one piece: a span's fields are kept in a
        // `String` of their own, which grew (and was copied) field by field.
        let mut gathered = Gathered {
            bytes: [0; GATHERED],
            len: 0,
            out: &mut writer,
        };
        let mut visitor = PlainVisitor {
            writer: Writer::new(&mut gathered),
            sanitize,
            is_empty: true,
            result: Ok(()),
        };
        fields.record(&mut visitor);
        visitor.result?;
        gathered.flush()
    }
}

/// Bytes of fields [`PlainFields`] gathers before it writes them on.
const GATHERED: usize = 256;

/// Text kept on the stack until it is written on to `out`, in one `write_str` when it fits.
struct Gathered<'a, W: fmt::Write> {
    bytes: [u8; GATHERED],
    len: usize,
    out: &'a mut W,
}

impl<W: fmt::Write> Gathered<'_, W> {
    fn flush(&mut self) -> fmt::Result {
        // Whole `&str`s copied end to end: always UTF-8.
        let text = std::str::from_utf8(&self.bytes[..self.len]).map_err(|_| fmt::Error)?;
        self.out.write_str(text)?;
        self.len = 0;
        Ok(())
    }
}

impl<W: fmt::Write> fmt::Write for Gathered<'_, W> {
    fn write_str(&mut self, text: &str) -> fmt::Result {
        if self.len + text.len() > GATHERED {
            self.flush()?;
            if text.len() > GATHERED {
                return self.out.write_str(text);
            }
        }
        self.bytes[self.len..self.len + text.len()].copy_from_slice(text.as_bytes());
        self.len += text.len();
        Ok(())
    }
}

/// The visitor of [`PlainFields`].
#[derive(Debug)]
pub struct PlainVisitor<'writer> {
    writer: Writer<'writer>,
    /// Whether a message is escaped (the writer's setting, which the stock visitor reads).
    sanitize: bool,
    is_empty: bool,
    result: fmt::Result,
}

impl PlainVisitor<'_> {
    /// Starts a field: the separating space and `name=`; false for a field not written.
    /// The message gets no name, as in the stock format.
    fn start(&mut self, name: &str) -> bool {
        if self.result.is_err() || name.starts_with("log.") {
            return false;
        }
        if self.is_empty {
            self.is_empty = false;
        } else if let Err(err) = self.writer.write_char(' ') {
            self.result = Err(err);
            return false;
        }
        if name == "message" {
            return true;
        }
        let name = name.strip_prefix("r#").unwrap_or(name);
        self.result = self
            .writer
            .write_str(name)
            .and_then(|()| self.writer.write_char('='));
        self.result.is_ok()
    }

    fn record_integer(&mut self, field: &Field, digits: &str) {
        if self.start(field.name()) {
            self.result = self.writer.write_str(digits);
        }
    }
}

impl Visit for PlainVisitor<'_> {
    fn record_i64(&mut self, field: &Field, value: i64) {
        self.record_integer(field, itoa::Buffer::new().format(value));
    }

    fn record_u64(&mut self, field: &Field, value: u64) {
        self.record_integer(field, itoa::Buffer::new().format(value));
    }

    fn record_i128(&mut self, field: &Field, value: i128) {
        self.record_integer(field, itoa::Buffer::new().format(value));
    }

    fn record_u128(&mut self, field: &Field, value: u128) {
        self.record_integer(field, itoa::Buffer::new().format(value));
    }

    fn record_bool(&mut self, field: &Field, value: bool) {
        self.record_integer(field, if value { "true" } else { "false" });
    }

    fn record_str(&mut self, field: &Field, value: &str) {
        if field.name() == "message" {
            self.record_debug(field, &format_args!("{value}"));
        } else {
            self.record_debug(field, &value);
        }
    }

    fn record_error(&mut self, field: &Field, value: &(dyn std::error::Error + 'static)) {
        // Rare, and written with its sources: the stock visitor does it, on our writer.
        if self.result.is_err() || field.name().starts_with("log.") {
            return;
        }
        let mut stock = DefaultVisitor::new(self.writer.by_ref(), self.is_empty);
        stock.record_error(field, value);
        self.result = stock.finish();
        self.is_empty = false;
    }

    fn record_debug(&mut self, field: &Field, value: &dyn fmt::Debug) {
        if !self.start(field.name()) {
            return;
        }
        self.result = if field.name() == "message" && self.sanitize {
            write!(
                Escaping {
                    inner: &mut self.writer
                },
                "{value:?}"
            )
        } else {
            write!(self.writer, "{value:?}")
        };
    }
}

/// Writes through to `inner` with the characters a terminal would act on spelled out, as
/// the stock format escapes a message: ESC, BEL, BS, FF and DEL as `\xNN`, the C1 controls
/// as `\u{NN}`.
struct Escaping<'a, W: fmt::Write> {
    inner: &'a mut W,
}

impl<W: fmt::Write> fmt::Write for Escaping<'_, W> {
    fn write_str(&mut self, text: &str) -> fmt::Result {
        let mut plain = 0;
        for (at, ch) in text.char_indices() {
            let escaped = match ch {
                '\x1b' | '\x07' | '\x08' | '\x0c' | '\x7f' | '\u{80}'..='\u{9f}' => ch as u32,
                _ => continue,
            };
            self.inner.write_str(&text[plain..at])?;
            if ch <= '\x7f' {
                write!(self.inner, "\\x{escaped:02x}")?;
            } else {
                write!(self.inner, "\\u{{{escaped:x}}}")?;
            }
            plain = at + ch.len_utf8();
        }
        self.inner.write_str(&text[plain..])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Mutex};
    use std::time::Duration;
    use tracing_subscriber::fmt::MakeWriter;

    /// Every line written, kept in memory.
    #[derive(Clone, Default)]
    struct Sink(Arc<Mutex<Vec<u8>>>);

    impl std::io::Write for Sink {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(bytes);
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    impl<'a> MakeWriter<'a> for Sink {
        type Writer = Sink;
        fn make_writer(&'a self) -> Sink {
            self.clone()
        }
    }

    impl Sink {
        fn text(&self) -> String {
            String::from_utf8(self.0.lock().unwrap().clone()).unwrap()
        }
    }

    /// Logs a bit of everything: spans nested and recorded late, every kind of field, a
    /// message to escape, an error with a source, a raw identifier.
    fn log_everything() {
        #[derive(Debug, thiserror::Error)]
        #[error("outer \u{1b}[31m")]
        struct Outer(#[source] std::io::Error);

        let outer = tracing::info_span!(
            "request",
            method = %"POST",
            path = %"/solve",
            request_id = %"id-1",
            client = tracing::field::Empty,
        );
        let _outer = outer.enter();
        outer.record("client", "alpha");
        tracing::info!(status = 200_u16, latency_us = 17_u64, "request done");
        let inner = tracing::debug_span!("inner");
        let entered = inner.enter();
        tracing::warn!(
            negative = -5_i64,
            big = u128::MAX,
            small = i128::MIN,
            flag = true,
            ratio = 0.25_f64,
            text = "quoted \"and\" \u{7}",
            shown = %"a\u{1b}b",
            debugged = ?Some([1, 2]),
            r#type = "raw",
            "message \u{1b}[2J with {} and \u{85}",
            "args"
        );
        // Longer than what the field formatter gathers before it writes, in a span and in
        // an event.
        let long = "0123456789".repeat(30);
        let _long_span = tracing::info_span!("long", text = %long, after = 1).entered();
        tracing::info!(text = %long, after = 2, "long");
        let error = Outer(std::io::Error::other("inner cause"));
        tracing::error!(
            error = &error as &(dyn std::error::Error + 'static),
            "failed"
        );
        drop(entered);
        tracing::trace!("{}", "only a message");
        tracing::info!(message = "a message as a field", after = 1);
        tracing::info!(message = 42_u64);
    }

    /// What `log_everything` writes through the stock format and through ours, each line
    /// without its timestamp (the first 28 characters).
    fn both_formats() -> (Vec<String>, Vec<String>, String) {
        let stock = Sink::default();
        let subscriber = tracing_subscriber::fmt()
            .with_max_level(Level::TRACE)
            .with_ansi(false)
            .with_writer(stock.clone())
            .finish();
        tracing::subscriber::with_default(subscriber, log_everything);
        let ours = Sink::default();
        let subscriber = tracing_subscriber::fmt()
            .with_max_level(Level::TRACE)
            .with_ansi(false)
            .with_writer(ours.clone())
            .fmt_fields(PlainFields)
            .event_format(PlainLines)
            .finish();
        tracing::subscriber::with_default(subscriber, log_everything);
        let untimed = |text: String| -> Vec<String> {
            text.lines().map(|line| line[28..].to_owned()).collect()
        };
        (untimed(stock.text()), untimed(ours.text()), ours.text())
    }

    /// Counts the writes that reach it.
    #[derive(Default)]
    struct Writes {
        bytes: Vec<u8>,
        count: usize,
    }

    impl std::io::Write for Writes {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.bytes.extend_from_slice(bytes);
            self.count += 1;
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn the_writer_writes_a_batch_of_lines_in_one_write_when_flushed() {
        use std::io::Write as _;
        let mut paced = Paced::new(Writes::default(), Duration::ZERO);
        for i in 0..100 {
            writeln!(paced, "line {i}").unwrap();
        }
        assert_eq!(
            paced.buffer.get_ref().count,
            0,
            "held until the queue is empty"
        );
        paced.flush().unwrap();
        let out = paced.buffer.get_ref();
        assert_eq!(out.count, 1);
        let mut expected = String::new();
        for i in 0..100 {
            writeln!(expected, "line {i}").unwrap();
        }
        assert_eq!(String::from_utf8(out.bytes.clone()).unwrap(), expected);
    }

    #[test]
    fn lines_are_the_stock_formats_lines() {
        let (stock, ours, _) = both_formats();
        assert_eq!(stock.len(), 7, "{stock:#?}");
        assert_eq!(ours, stock);
    }

    #[test]
    fn every_line_starts_with_its_utc_time_in_microseconds() {
        let (_, _, text) = both_formats();
        for line in text.lines() {
            let stamp = line.as_bytes();
            let shape = b"dddd-dd-ddTdd:dd:dd.ddddddZ ";
            let fits = shape.iter().zip(stamp).all(|(&want, &got)| {
                if want == b'd' {
                    got.is_ascii_digit()
                } else {
                    want == got
                }
            });
            assert!(fits, "{line}");
        }
    }

    fn timestamp_at(seconds: u64, micros: u32) -> String {
        let mut text = String::new();
        let at = UNIX_EPOCH + Duration::new(seconds, micros * 1000);
        write_timestamp(&mut Writer::new(&mut text), at).unwrap();
        text
    }

    #[test]
    fn timestamps_fall_on_the_right_calendar_day() {
        // (seconds since the epoch, microseconds, the time as written)
        let cases = [
            (0, 0, "1970-01-01T00:00:00.000000Z "),
            (951_782_400, 5, "2000-02-29T00:00:00.000005Z "),
            (951_868_799, 999_999, "2000-02-29T23:59:59.999999Z "),
            (1_735_689_599, 123_456, "2024-12-31T23:59:59.123456Z "),
            (1_798_761_600, 0, "2027-01-01T00:00:00.000000Z "),
            (4_107_542_400, 0, "2100-03-01T00:00:00.000000Z "),
            (253_402_300_799, 0, "9999-12-31T23:59:59.000000Z "),
        ];
        for (seconds, micros, expected) in cases {
            assert_eq!(timestamp_at(seconds, micros), expected, "{seconds}");
        }
    }
}
