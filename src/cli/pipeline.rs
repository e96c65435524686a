//! An ordered parallel pipeline: items read one at a time, worked on by several threads at
//! once, and their results handed on in the order the items were read, with a bounded
//! read-ahead. It knows nothing of what the items are; `solve` and `grade` feed it blocks of
//! lines, `generate` puzzle numbers.
//!
//! Every thread is alike: each takes the next item, works on it, and hands on whatever
//! results are next in order, each step under its own lock, so no core ever waits for
//! another to hand it work. Two designs measured worse for `solve` on the 17-clue set on 2
//! threads: workers spawned afresh for each chunk of 8,192 lines (1.57x one thread: a new
//! thread starts on its parent's core and waited there while the parent read the next
//! chunk), and long-lived workers fed by one thread through channels (1.50-1.67x: it slept
//! and woke up for every block, 2,900 context switches). A rayon pool solving 256 blocks
//! at a time (`par_iter`, then writing them) took 3-5% more CPU and 1.2-1.6 MB more memory,
//! and writes nothing until a whole chunk is solved: a closed output is noticed only a
//! chunk later (the failed-write test failed on it), and a slow block leaves the other
//! cores idle until its chunk ends.

use std::collections::VecDeque;
use std::io;
use std::num::NonZeroUsize;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Barrier, Condvar, Mutex, MutexGuard, PoisonError};

use super::placement;

/// Tells a work function of [`ordered_parallel`] that the run is over (a failed read or
/// write, or a panic in another thread), so that it gives up on its item rather than finish
/// it for nobody.
#[derive(Debug, Clone, Copy)]
pub(super) struct Cancellation<'a>(&'a AtomicBool);

#[cfg(test)]
impl<'a> Cancellation<'a> {
    /// A cancellation raised by setting `flag`, for tests that call a work function
    /// outside the pipeline.
    pub(crate) fn new(flag: &'a AtomicBool) -> Self {
        Cancellation(flag)
    }
}

impl Cancellation<'_> {
    /// Whether the run is over; whatever the work function returns from then on is dropped.
    pub(super) fn is_cancelled(self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// The threads to run on: `asked`, else one per core.
pub(super) fn threads(asked: Option<NonZeroUsize>) -> NonZeroUsize {
    asked
        .or_else(|| std::thread::available_parallelism().ok())
        .unwrap_or(NonZeroUsize::MIN)
}

/// Reads items with `read` until it returns `None`, applies `work` to each on `threads`
/// threads, the calling one among them (one thread: only the calling one), and hands every
/// result to `sink` in the order the items were read.
///
/// Reading stops while `window` items have been read beyond the last result handed on, so
/// that one slow item holds the input back rather than let memory grow. `read` and `sink`
/// are each called by one thread at a time, whichever thread it is; `work` by all at once.
///
/// The first error of `read` or `sink` ends the run and is returned: no thread takes
/// another item, and `work` sees [`Cancellation::is_cancelled`]. A panic anywhere ends the
/// run as well: once every thread has stopped, it is passed on to the caller.
pub(super) fn ordered_parallel<Item, Output>(
    threads: NonZeroUsize,
    window: NonZeroUsize,
    read: impl FnMut() -> io::Result<Option<Item>> + Send,
    work: impl Fn(Item, Cancellation<'_>) -> Output + Sync,
    sink: impl FnMut(Output) -> io::Result<()> + Send,
) -> io::Result<()>
where
    Output: Send,
{
    let shared = Shared {
        reading: Mutex::new(Reading { read, next: 0 }),
        writing: Mutex::new(Writing {
            sink,
            written: 0,
            waiting: VecDeque::new(),
            readers_waiting: 0,
        }),
        window_moved: Condvar::new(),
        window: window.get() as u64,
        work,
        failure: Mutex::new(None),
        cancelled: AtomicBool::new(false),
    };
    let started = Barrier::new(threads.get());
    std::thread::scope(|scope| {
        let parent_cpu = placement::current_cpu();
        let helpers: Vec<_> = (1..threads.get())
            .map(|nth| {
                let (shared, started) = (&shared, &started);
                scope.spawn(move || {
                    placement::start_away_from(parent_cpu, nth);
                    started.wait();
                    shared.work_until_done();
                })
            })
            .collect();
        // The parent waits for its helpers to have moved before it starts: a helper the
        // kernel queued on the parent's busy CPU would otherwise wait there for the
        // scheduler's next balancing, which can outlast a small file's whole run.
        started.wait();
        shared.work_until_done();
        // Joined here rather than by the scope, which would replace the panic with its own.
        for helper in helpers {
            if let Err(panic) = helper.join() {
                std::panic::resume_unwind(panic);
            }
        }
    });
    match lock(&shared.failure).take() {
        None => Ok(()),
        Some(err) => Err(err),
    }
}

/// What the threads of [`ordered_parallel`] share.
struct Shared<Read, Work, Sink, Output> {
    reading: Mutex<Reading<Read>>,
    writing: Mutex<Writing<Sink, Output>>,
    /// Signalled when results are handed on and a thread waits to read ahead.
    window_moved: Condvar,
    window: u64,
    work: Work,
    /// The first reading or writing error.
    failure: Mutex<Option<io::Error>>,
    /// Set with `failure` (`| head` closing the pipe, say), or by a panic, so that the items
    /// in flight are dropped at once.
    cancelled: AtomicBool,
}

struct Reading<Read> {
    read: Read,
    /// The sequence number of the next item read.
    next: u64,
}

struct Writing<Sink, Output> {
    sink: Sink,
    /// Results handed on so far: the sequence number of the next one to hand on.
    written: u64,
    /// The results of items `written..`, as far as they are done.
    waiting: VecDeque<Option<Output>>,
    /// Threads waiting for the window to move: only then is it worth waking them (a
    /// system call each time, even with nobody to wake).
    readers_waiting: usize,
}

impl<Sink, Output> Writing<Sink, Output>
where
    Sink: FnMut(Output) -> io::Result<()>,
{
    /// Files the result of item `sequence` and hands on every result now next in order.
    fn deliver(&mut self, sequence: u64, output: Output) -> io::Result<()> {
        let index = (sequence - self.written) as usize;
        if self.waiting.len() <= index {
            self.waiting.resize_with(index + 1, || None);
        }
        self.waiting[index] = Some(output);
        while let Some(slot) = self.waiting.front_mut() {
            let Some(output) = slot.take() else { break };
            self.waiting.pop_front();
            self.written += 1;
            (self.sink)(output)?;
        }
        Ok(())
    }
}

impl<Item, Output, Read, Work, Sink> Shared<Read, Work, Sink, Output>
where
    Read: FnMut() -> io::Result<Option<Item>>,
    Work: Fn(Item, Cancellation<'_>) -> Output,
    Sink: FnMut(Output) -> io::Result<()>,
{
    /// One thread's loop: take an item, work on it, deliver its result, until the input
    /// ends or the run is cancelled.
    fn work_until_done(&self) {
        // A thread that panics leaves its item undelivered for good: without this the others
        // would wait for it forever once the window is full, instead of ending so that the
        // panic can be passed on.
        let _stop_others = OnUnwind(|| self.cancel());
        while let Some((sequence, item)) = self.next_item() {
            let output = (self.work)(item, Cancellation(&self.cancelled));
            if self.cancelled.load(Ordering::Relaxed) {
                return;
            }
            let mut writing = lock(&self.writing);
            let delivered = writing.deliver(sequence, output);
            let wake = writing.readers_waiting > 0;
            drop(writing);
            if wake {
                self.window_moved.notify_all();
            }
            if let Err(err) = delivered {
                self.fail(err);
                return;
            }
        }
    }

    /// The next item and its sequence number; `None` at the end of the input or once
    /// cancelled. Waits while the window is full.
    fn next_item(&self) -> Option<(u64, Item)> {
        let mut reading = lock(&self.reading);
        let mut writing = lock(&self.writing);
        while reading.next - writing.written >= self.window {
            if self.cancelled.load(Ordering::Relaxed) {
                return None;
            }
            writing.readers_waiting += 1;
            writing = self
                .window_moved
                .wait(writing)
                .unwrap_or_else(PoisonError::into_inner);
            writing.readers_waiting -= 1;
        }
        drop(writing);
        if self.cancelled.load(Ordering::Relaxed) {
            return None;
        }
        match (reading.read)() {
            Ok(Some(item)) => {
                reading.next += 1;
                Some((reading.next - 1, item))
            }
            Ok(None) => None,
            Err(err) => {
                drop(reading);
                self.fail(err);
                None
            }
        }
    }

    fn fail(&self, err: io::Error) {
        lock(&self.failure).get_or_insert(err);
        self.cancel();
    }

    /// Tells every thread to stop before its next item, and its work function to give up.
    fn cancel(&self) {
        self.cancelled.store(true, Ordering::Relaxed);
        // Wakes the threads waiting to read ahead, to see that it is over.
        let _writing = lock(&self.writing);
        self.window_moved.notify_all();
    }
}

/// Runs its closure when dropped while the thread unwinds from a panic.
struct OnUnwind<F: FnMut()>(F);

impl<F: FnMut()> Drop for OnUnwind<F> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            (self.0)();
        }
    }
}

/// A lock whether or not another thread panicked holding it: the panic is passed on once
/// every thread has stopped, and until then the data behind these locks stays consistent.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;
    use std::sync::mpsc::RecvTimeoutError;
    use std::time::{Duration, Instant};

    fn count(n: usize) -> NonZeroUsize {
        NonZeroUsize::new(n).unwrap()
    }

    /// Items `0..total`, then the end of the input.
    fn numbers(total: usize) -> impl FnMut() -> io::Result<Option<usize>> + Send {
        let mut next = 0;
        move || {
            next += 1;
            Ok((next <= total).then_some(next - 1))
        }
    }

    /// The next of `items`, counting it in `read_so_far` and keeping in `most_ahead` the
    /// most items ever read and not yet written, this one included.
    fn counting_ahead(
        items: &mut impl FnMut() -> io::Result<Option<usize>>,
        read_so_far: &AtomicUsize,
        written: &AtomicUsize,
        most_ahead: &AtomicUsize,
    ) -> io::Result<Option<usize>> {
        let item = items()?;
        if item.is_some() {
            let ahead =
                read_so_far.fetch_add(1, Ordering::SeqCst) + 1 - written.load(Ordering::SeqCst);
            most_ahead.fetch_max(ahead, Ordering::SeqCst);
        }
        Ok(item)
    }

    /// `work()` on a thread of its own, so that a pipeline that hangs fails the test instead
    /// of stalling the suite. Only a hang can reach the bound: these runs take milliseconds,
    /// and how long is printed (`--nocapture`).
    fn unless_it_hangs<T: Send + 'static>(work: impl FnOnce() -> T + Send + 'static) -> T {
        let bound = Duration::from_secs(60);
        let (done, finished) = std::sync::mpsc::channel();
        let started = Instant::now();
        let worker = std::thread::spawn(move || {
            let result = work();
            let _ = done.send(());
            result
        });
        // Disconnected, without a message, when `work` panicked: the join passes that on.
        if let Err(RecvTimeoutError::Timeout) = finished.recv_timeout(bound) {
            panic!("still running {bound:?} later: the pipeline hung");
        }
        eprintln!("ran in {:?} (hang bound {bound:?})", started.elapsed());
        worker
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    }

    #[test]
    fn results_come_out_in_input_order_whatever_order_they_finish_in() {
        // A window of 3 on 4 threads: readers wait for the window all the time, and a lost
        // wake-up would hang the run.
        for threads in [1, 2, 4] {
            let (out, most_ahead) = unless_it_hangs(move || {
                let (read_so_far, written) = (AtomicUsize::new(0), AtomicUsize::new(0));
                let most_ahead = AtomicUsize::new(0);
                let mut items = numbers(2_000);
                let mut out = Vec::new();
                let result = ordered_parallel(
                    count(threads),
                    count(3),
                    || counting_ahead(&mut items, &read_so_far, &written, &most_ahead),
                    |item, _| {
                        // Uneven work, so that later items often finish first.
                        for _ in 0..(item * 7_919) % 5_000 {
                            std::hint::black_box(item);
                        }
                        item * 10
                    },
                    |output| {
                        out.push(output);
                        written.fetch_add(1, Ordering::SeqCst);
                        Ok(())
                    },
                );
                result.unwrap();
                (out, most_ahead.into_inner())
            });
            assert_eq!(
                out,
                (0..2_000).map(|i| i * 10).collect::<Vec<_>>(),
                "{threads} threads"
            );
            assert!(
                most_ahead <= 3,
                "{most_ahead} items read ahead of a window of 3"
            );
        }
    }

    #[test]
    fn a_slow_first_item_holds_the_reading_back_to_the_window_then_lets_it_go() {
        // Item 0 is done only once the other thread has read the whole window ahead of it;
        // then that thread must wait for item 0's result, and be woken to go on.
        const WINDOW: usize = 16;
        let (out, most_ahead) = unless_it_hangs(|| {
            let (read_so_far, written) = (AtomicUsize::new(0), AtomicUsize::new(0));
            let most_ahead = AtomicUsize::new(0);
            let mut items = numbers(10 * WINDOW);
            let mut out = Vec::new();
            ordered_parallel(
                count(2),
                count(WINDOW),
                || counting_ahead(&mut items, &read_so_far, &written, &most_ahead),
                |item, _| {
                    while item == 0 && read_so_far.load(Ordering::SeqCst) < WINDOW {
                        std::thread::yield_now();
                    }
                    item
                },
                |output| {
                    out.push(output);
                    written.fetch_add(1, Ordering::SeqCst);
                    Ok(())
                },
            )
            .unwrap();
            (out, most_ahead.into_inner())
        });
        assert_eq!(out, (0..10 * WINDOW).collect::<Vec<_>>());
        // Reached, since item 0 waited for it, and never passed.
        assert_eq!(most_ahead, WINDOW);
    }

    #[test]
    fn a_failed_write_stops_every_thread_within_its_item() {
        // Item 0 is quick and its result cannot be written; every later item would run
        // forever unless told that the run is over, so the run ends only if each thread
        // gives up on the item it holds. Nor may any thread take another item.
        let threads = 3;
        let (result, started, given_up) = unless_it_hangs(move || {
            let (started, given_up) = (AtomicUsize::new(0), AtomicUsize::new(0));
            let result = ordered_parallel(
                count(threads),
                count(64),
                numbers(usize::MAX),
                |item, cancellation| {
                    if item > 0 {
                        started.fetch_add(1, Ordering::SeqCst);
                        while !cancellation.is_cancelled() {
                            std::thread::yield_now();
                        }
                        given_up.fetch_add(1, Ordering::SeqCst);
                    }
                },
                |()| Err(io::ErrorKind::BrokenPipe.into()),
            );
            (result, started.into_inner(), given_up.into_inner())
        });
        assert_eq!(result.unwrap_err().kind(), io::ErrorKind::BrokenPipe);
        assert!(
            started < threads,
            "{started} endless items taken by {} other threads",
            threads - 1
        );
        assert_eq!(given_up, started);
    }

    #[test]
    fn a_failed_read_ends_the_run_with_its_error_after_the_items_before_it() {
        let mut items = numbers(usize::MAX);
        let mut out = Vec::new();
        let result = ordered_parallel(
            count(1),
            count(8),
            || match items()? {
                Some(5) => Err(io::Error::other("disk on fire")),
                item => Ok(item),
            },
            |item, _| item,
            |output| {
                out.push(output);
                Ok(())
            },
        );
        assert_eq!(result.unwrap_err().to_string(), "disk on fire");
        assert_eq!(out, [0, 1, 2, 3, 4]);
    }

    #[test]
    fn a_panicking_thread_ends_the_run_with_its_panic_rather_than_a_hang() {
        // Well over a window of items, so that once one thread has died on its item the
        // others fill the window and would wait for that item forever.
        for threads in [1, 2, 3] {
            let panic = unless_it_hangs(move || {
                std::panic::catch_unwind(|| {
                    ordered_parallel(
                        count(threads),
                        count(8),
                        numbers(1_000),
                        |item, _| {
                            assert_ne!(item, 100, "item 100 panics");
                            item
                        },
                        |_| Ok(()),
                    )
                })
                .expect_err("the panic was swallowed")
            });
            let message = panic
                .downcast_ref::<String>()
                .expect("the panic of the work function, not another");
            assert!(message.contains("item 100 panics"), "{message}");
        }
    }

    #[test]
    fn one_thread_works_on_the_calling_thread_alone() {
        let caller = std::thread::current().id();
        let mut seen = Vec::new();
        ordered_parallel(
            count(1),
            count(4),
            numbers(50),
            |_, _| std::thread::current().id(),
            |worker| {
                seen.push(worker);
                Ok(())
            },
        )
        .unwrap();
        assert_eq!(seen, vec![caller; 50]);
    }
}
