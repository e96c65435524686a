//! The wall clock, as the handlers that need the calendar read it: the system's in a
//! server, one a test sets, so that a test can say which day "today" is.

use std::fmt;
use std::sync::Arc;
use std::time::SystemTime;

/// Where "now" comes from; cloning it clones a handle.
#[derive(Clone)]
pub struct Clock(Arc<dyn Fn() -> SystemTime + Send + Sync>);

impl Clock {
    /// The operating system's clock.
    pub fn system() -> Clock {
        Clock(Arc::new(SystemTime::now))
    }

    /// A clock that always reads `at`.
    pub fn fixed(at: SystemTime) -> Clock {
        Clock(Arc::new(move || at))
    }

    /// A clock that reads whatever `now` answers (a test's clock that moves on).
    pub fn from_fn(now: impl Fn() -> SystemTime + Send + Sync + 'static) -> Clock {
        Clock(Arc::new(now))
    }

    /// The time now.
    pub fn now(&self) -> SystemTime {
        (self.0)()
    }
}

impl Default for Clock {
    fn default() -> Self {
        Clock::system()
    }
}

impl fmt::Debug for Clock {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Clock").field(&self.now()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn a_fixed_clock_stands_still_and_the_system_clock_does_not_go_back() {
        let at = SystemTime::UNIX_EPOCH + Duration::from_secs(1_700_000_000);
        let fixed = Clock::fixed(at);
        assert_eq!((fixed.now(), fixed.clone().now()), (at, at));
        let system = Clock::system();
        let first = system.now();
        assert!(system.now() >= first);
        assert!(first > at);
    }
}
