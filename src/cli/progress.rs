//! The progress bar of the long commands (`solve`, `grade`, `generate`), drawn on the
//! process's stderr when it is a terminal, and hidden otherwise, so that pipes, logs and
//! tests see no bar.

use std::fmt;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};

/// A bar of puzzles done (`total` known) or a counter (`total` unknown, when reading
/// input). Cleared when dropped, so that the summary after it stands alone.
pub(super) struct Progress(ProgressBar);

impl Progress {
    /// A bar drawn on stderr when `shown`, else one that draws nothing and costs next to
    /// nothing.
    pub(super) fn new(shown: bool, total: Option<u64>) -> Progress {
        if !shown {
            return Progress(ProgressBar::hidden());
        }
        let template = match total {
            Some(_) => {
                "{elapsed_precise} [{wide_bar}] {human_pos}/{human_len} puzzles \
                 ({rate}, {eta} left)"
            }
            None => "{spinner} {human_pos} puzzles in {elapsed} ({rate})",
        };
        let bar = ProgressBar::with_draw_target(total, ProgressDrawTarget::stderr());
        if let Ok(style) = ProgressStyle::with_template(template) {
            // indicatif's own `{per_sec}` has four decimals: noise for whole puzzles.
            let rate = |state: &ProgressState, out: &mut dyn fmt::Write| {
                let _ = write!(out, "{:.0}/s", state.per_sec());
            };
            bar.set_style(style.progress_chars("=> ").with_key("rate", rate));
        }
        // The elapsed time and rate move even while one slow puzzle holds the count back.
        bar.enable_steady_tick(Duration::from_millis(200));
        Progress(bar)
    }

    /// Counts `done` more puzzles.
    pub(super) fn inc(&self, done: u64) {
        self.0.inc(done);
    }

    /// Runs `write` with the bar out of the way, for a line of diagnostics on stderr.
    pub(super) fn suspend<R>(&self, write: impl FnOnce() -> R) -> R {
        self.0.suspend(write)
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.0.finish_and_clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bar_not_shown_is_hidden_and_still_counts() {
        let progress = Progress::new(false, Some(10));
        assert!(progress.0.is_hidden());
        progress.inc(3);
        assert_eq!(progress.0.position(), 3);
        assert_eq!(progress.suspend(|| 7), 7);
    }
}
