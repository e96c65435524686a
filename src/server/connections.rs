//! Bounds on connections: how many may be open at once on each address, and how long an
//! answer may wait for a client that does not read it.

use std::collections::BTreeMap;
use std::future::Future;
use std::io;
use std::num::NonZeroUsize;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::gauge::Gauge;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::sync::{OwnedSemaphorePermit, Semaphore, oneshot};
use tokio::time::{Instant, Sleep};

/// The public connections' cap when none is configured and the descriptors allow it: each
/// idle connection holds about 9 KB (hyper's read buffer and its task).
pub const DEFAULT_MAX_CONNECTIONS: usize = 10_000;

/// Connections the admin address takes at once: Prometheus and the orchestrator's probes.
pub const ADMIN_CONNECTIONS: usize = 16;

/// Public connections past the cap that are still answered, with one request each: the
/// probes get their answer, every other request a 503 that says to come back.
pub const OVERFLOW_CONNECTIONS: usize = 16;

/// How long an overflow connection has to send its request and read its answer.
pub const OVERFLOW_TIMEOUT: Duration = Duration::from_secs(1);

/// How long a connection must have been silent before its slot may go to a newer one:
/// long past a client's first round trip, so that one whose request is on its way (or
/// whose task has not run yet, in a burst of accepts) is never taken for silent.
pub const SILENT_FOR: Duration = Duration::from_secs(1);

/// File descriptors kept back from the public connections: the admin and overflow
/// connections, the listeners, the runtime's own, the log and the keys file.
pub const RESERVED_DESCRIPTORS: u64 = (ADMIN_CONNECTIONS + OVERFLOW_CONNECTIONS) as u64 + 32;

/// Raises the soft limit on open files to the hard one, as Go's runtime does for every
/// program, and returns the limit then in force (`None`: no limit, or none known).
pub fn raise_descriptor_limit() -> Option<u64> {
    #[cfg(target_os = "linux")]
    {
        use rustix::process::{Resource, Rlimit, getrlimit, setrlimit};
        let limit = getrlimit(Resource::Nofile);
        if limit.current != limit.maximum {
            let raised = Rlimit {
                current: limit.maximum,
                maximum: limit.maximum,
            };
            // An unlimited hard limit is more than the kernel takes for files.
            if setrlimit(Resource::Nofile, raised).is_ok() {
                return limit.maximum;
            }
        }
        limit.current
    }
    #[cfg(not(target_os = "linux"))]
    None
}

/// The public connections' cap: the configured one, or [`DEFAULT_MAX_CONNECTIONS`]; either
/// way no more than the descriptor limit leaves past [`RESERVED_DESCRIPTORS`].
///
/// # Errors
/// When the configured cap, or any cap at all, does not fit in the descriptors, with what
/// to change.
pub fn connection_cap(
    configured: Option<NonZeroUsize>,
    descriptors: Option<u64>,
) -> Result<usize, String> {
    let room = descriptors.map_or(usize::MAX, |limit| {
        usize::try_from(limit.saturating_sub(RESERVED_DESCRIPTORS)).unwrap_or(usize::MAX)
    });
    match configured {
        Some(cap) if cap.get() > room => Err(format!(
            "--max-connections {cap} needs {} file descriptors, and the limit is {}: raise it \
             (ulimit -n) or lower the cap",
            cap.get() as u64 + RESERVED_DESCRIPTORS,
            descriptors.unwrap_or_default(),
        )),
        Some(cap) => Ok(cap.get()),
        None if room == 0 => Err(format!(
            "the file-descriptor limit {} leaves no room for connections past the {} kept \
             back: raise it (ulimit -n)",
            descriptors.unwrap_or_default(),
            RESERVED_DESCRIPTORS
        )),
        None => Ok(DEFAULT_MAX_CONNECTIONS.min(room)),
    }
}

/// A number of connections that may be open at once, and the gauge that shows how many are.
///
/// When every slot is taken, the slot of the oldest connection that has not sent a byte
/// for [`SILENT_FOR`] goes to the new one, and that connection is closed (as nginx reuses
/// idle keep-alive connections when it runs out): a flood of silent connections then only
/// churns among itself, and a client that speaks at once gets in.
pub struct Budget {
    slots: Arc<Semaphore>,
    open: Gauge,
    evicted: Counter,
    silent: Arc<Mutex<Silent>>,
}

/// The connections still waiting for their first byte, oldest first, each with its slot
/// and the way to tell it that it is closed.
#[derive(Default)]
struct Silent {
    next: u64,
    waiting: BTreeMap<u64, Silence>,
}

/// One silent connection's entry: its slot, since when, and how to close it.
struct Silence {
    slot: Slot,
    since: Instant,
    close: oneshot::Sender<()>,
}

/// A slot for a new connection, and whether an older silent one was closed for it (its
/// task then needs to run, to give its file descriptor back).
pub struct Admission {
    /// The new connection's slot.
    pub slot: Slot,
    /// Whether the slot was a silent connection's.
    pub closed_another: bool,
}

impl Budget {
    /// Room for `slots` connections, counted in `open`; those closed to make room are
    /// counted in `evicted`.
    pub fn new(slots: usize, open: Gauge, evicted: Counter) -> Budget {
        Budget {
            slots: Arc::new(Semaphore::new(slots)),
            open,
            evicted,
            silent: Arc::default(),
        }
    }

    /// A slot for one more connection: a free one, or the one of the oldest connection
    /// silent for [`SILENT_FOR`], which is closed; `None` when there is neither.
    pub fn admit(&self) -> Option<Admission> {
        if let Ok(permit) = Arc::clone(&self.slots).try_acquire_owned() {
            self.open.inc();
            let slot = Slot {
                _permit: permit,
                open: self.open.clone(),
            };
            return Some(Admission {
                slot,
                closed_another: false,
            });
        }
        let mut silent = lock(&self.silent);
        let oldest = silent.waiting.first_entry()?;
        if oldest.get().since.elapsed() < SILENT_FOR {
            return None;
        }
        let Silence { slot, close, .. } = oldest.remove();
        drop(silent);
        // Its task may have ended already; the slot is ours either way.
        let _ = close.send(());
        self.evicted.inc();
        Some(Admission {
            slot,
            closed_another: true,
        })
    }

    /// Holds `slot` for a connection that has not spoken yet, where [`Budget::admit`] may
    /// take it.
    pub fn until_first_byte(&self, slot: Slot) -> Waiting {
        let (close, closed) = oneshot::channel();
        let mut silent = lock(&self.silent);
        let id = silent.next;
        silent.next += 1;
        let since = Instant::now();
        silent.waiting.insert(id, Silence { slot, since, close });
        Waiting {
            id,
            closed,
            silent: Arc::clone(&self.silent),
        }
    }
}

/// The set of silent connections, also after a panic elsewhere: every change to it is
/// whole.
fn lock(silent: &Mutex<Silent>) -> std::sync::MutexGuard<'_, Silent> {
    silent
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// A silent connection's claim on its slot (see [`Budget::until_first_byte`]); dropped,
/// it gives the slot back.
pub struct Waiting {
    id: u64,
    closed: oneshot::Receiver<()>,
    silent: Arc<Mutex<Silent>>,
}

impl Waiting {
    /// Completes when the slot has gone to a newer connection.
    pub async fn closed(&mut self) {
        let _ = (&mut self.closed).await;
    }

    /// The slot back for a connection that has spoken; `None` if it went to a newer one.
    pub fn spoke(self) -> Option<Slot> {
        lock(&self.silent)
            .waiting
            .remove(&self.id)
            .map(|silence| silence.slot)
    }
}

impl Drop for Waiting {
    fn drop(&mut self) {
        lock(&self.silent).waiting.remove(&self.id);
    }
}

/// One open connection's place in its [`Budget`], given back when dropped.
pub struct Slot {
    _permit: OwnedSemaphorePermit,
    open: Gauge,
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.open.dec();
    }
}

/// A stream whose writes fail with `TimedOut` once one has waited `limit` for the client
/// to take any byte: hyper has no write timeout, and without one a client that asks and
/// never reads holds its connection (and its answer's memory) for as long as it likes.
/// The clock restarts on every write that makes progress, so a slow reader that keeps
/// reading is never cut off.
pub struct WriteDeadline<S> {
    stream: S,
    limit: Duration,
    timer: Pin<Box<Sleep>>,
    armed: bool,
    expired: bool,
    stalled: Counter,
}

impl<S> WriteDeadline<S> {
    /// `stream` with writes bounded by `limit`; a connection closed so is counted in
    /// `stalled`.
    pub fn new(stream: S, limit: Duration, stalled: Counter) -> WriteDeadline<S> {
        WriteDeadline {
            stream,
            limit,
            timer: Box::pin(tokio::time::sleep(limit)),
            armed: false,
            expired: false,
            stalled,
        }
    }

    /// `polled`, a write's outcome, or `TimedOut` when it has been pending for too long.
    fn bound<T>(
        &mut self,
        cx: &mut Context<'_>,
        polled: Poll<io::Result<T>>,
    ) -> Poll<io::Result<T>> {
        if polled.is_ready() {
            self.armed = false;
            return polled;
        }
        if !self.armed {
            self.armed = true;
            self.timer.as_mut().reset(Instant::now() + self.limit);
        }
        match self.timer.as_mut().poll(cx) {
            Poll::Ready(()) => {
                self.expired = true;
                self.stalled.inc();
                Poll::Ready(Err(timed_out()))
            }
            Poll::Pending => Poll::Pending,
        }
    }
}

fn timed_out() -> io::Error {
    io::Error::new(
        io::ErrorKind::TimedOut,
        "the client did not read its answer in time",
    )
}

impl<S: AsyncRead + Unpin> AsyncRead for WriteDeadline<S> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_read(cx, buf)
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for WriteDeadline<S> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        if this.expired {
            return Poll::Ready(Err(timed_out()));
        }
        let polled = Pin::new(&mut this.stream).poll_write(cx, buf);
        this.bound(cx, polled)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        if this.expired {
            return Poll::Ready(Err(timed_out()));
        }
        let polled = Pin::new(&mut this.stream).poll_write_vectored(cx, bufs);
        this.bound(cx, polled)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        if this.expired {
            return Poll::Ready(Err(timed_out()));
        }
        let polled = Pin::new(&mut this.stream).poll_flush(cx);
        this.bound(cx, polled)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        // Closing never waits for the client: a stalled one is not waited for twice.
        Pin::new(&mut self.get_mut().stream).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::AsyncWriteExt;

    fn cap(configured: usize, descriptors: u64) -> Result<usize, String> {
        connection_cap(NonZeroUsize::new(configured), Some(descriptors))
    }

    #[test]
    fn the_cap_leaves_the_reserved_descriptors_free() {
        assert_eq!(cap(0, 1024), Ok(1024 - 64));
        assert_eq!(cap(0, 1 << 20), Ok(DEFAULT_MAX_CONNECTIONS));
        assert_eq!(
            connection_cap(None, None),
            Ok(DEFAULT_MAX_CONNECTIONS),
            "no limit known"
        );
        assert_eq!(cap(900, 1024), Ok(900));
        assert_eq!(cap(960, 1024), Ok(960));
        let too_many = cap(961, 1024).unwrap_err();
        assert!(
            too_many.contains("needs 1025 file descriptors"),
            "{too_many}"
        );
        let no_room = cap(0, 64).unwrap_err();
        assert!(no_room.contains("leaves no room"), "{no_room}");
    }

    #[test]
    fn a_budget_admits_up_to_its_slots_and_takes_them_back() {
        let open = Gauge::default();
        let budget = Budget::new(2, open.clone(), Counter::default());
        let first = budget.admit().expect("a first slot").slot;
        let second = budget.admit().expect("a second slot").slot;
        assert!(budget.admit().is_none(), "a third past two slots");
        assert_eq!(open.get(), 2);
        drop(first);
        assert_eq!(open.get(), 1);
        let third = budget.admit().expect("the slot given back").slot;
        drop((second, third));
        assert_eq!(open.get(), 0);
    }

    #[tokio::test(start_paused = true)]
    async fn a_full_budget_takes_the_slot_of_the_oldest_connection_silent_long_enough() {
        let (open, evicted) = (Gauge::default(), Counter::default());
        let budget = Budget::new(3, open.clone(), evicted.clone());
        let slot = || budget.admit().unwrap().slot;
        let mut oldest = budget.until_first_byte(slot());
        let newer = budget.until_first_byte(slot());
        let spoken = slot();
        assert!(budget.admit().is_none(), "none silent for long yet");

        tokio::time::advance(SILENT_FOR).await;
        let taken = budget.admit().expect("the oldest silent one's slot");
        assert!(taken.closed_another);
        oldest.closed().await;
        assert!(oldest.spoke().is_none(), "its slot went to the new one");
        assert_eq!((open.get(), evicted.get()), (3, 1));

        let newer = newer.spoke().expect("the newer one spoke in time");
        assert!(budget.admit().is_none(), "every connection has spoken");
        drop((taken, newer, spoken));
        assert_eq!(open.get(), 0);

        // A silent connection that ends (a timeout, the drain) gives its slot back.
        let silent = budget.until_first_byte(slot());
        assert_eq!(open.get(), 1);
        drop(silent);
        assert_eq!(open.get(), 0);
        assert_eq!(evicted.get(), 1);
    }

    #[tokio::test(start_paused = true)]
    async fn a_write_nobody_takes_fails_after_the_limit_and_one_that_progresses_does_not() {
        // A pipe that holds 16 bytes, like a socket whose client does not read.
        let (client, server) = tokio::io::duplex(16);
        let stalled = Counter::default();
        let mut bounded = WriteDeadline::new(server, Duration::from_secs(5), stalled.clone());
        bounded.write_all(&[0; 16]).await.unwrap();
        let started = Instant::now();
        let err = bounded.write_all(&[0; 16]).await.unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::TimedOut);
        assert_eq!(started.elapsed(), Duration::from_secs(5));
        assert_eq!(stalled.get(), 1);
        assert_eq!(
            bounded.write(&[0]).await.unwrap_err().kind(),
            io::ErrorKind::TimedOut,
            "stays failed"
        );
        assert_eq!(stalled.get(), 1, "counted once");
        drop(client);

        // A reader that takes 16 bytes every 4 s keeps a long answer going.
        let (mut client, server) = tokio::io::duplex(16);
        let mut bounded = WriteDeadline::new(server, Duration::from_secs(5), stalled.clone());
        let reader = tokio::spawn(async move {
            use tokio::io::AsyncReadExt;
            let mut taken = 0;
            let mut chunk = [0; 16];
            while taken < 160 {
                tokio::time::sleep(Duration::from_secs(4)).await;
                taken += client.read(&mut chunk).await.unwrap();
            }
            taken
        });
        bounded.write_all(&[1; 160]).await.unwrap();
        assert_eq!(reader.await.unwrap(), 160);
        assert_eq!(stalled.get(), 1);
    }
}
