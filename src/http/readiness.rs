//! Whether the server takes traffic: true from the start until shutdown begins.

use std::sync::atomic::{AtomicBool, Ordering};

/// The answer of `/readyz`. Turned off once, when shutdown begins, so load balancers stop
/// sending requests while the ones in flight finish.
#[derive(Debug)]
pub struct Readiness(AtomicBool);

impl Default for Readiness {
    fn default() -> Self {
        Readiness(AtomicBool::new(true))
    }
}

impl Readiness {
    /// True until [`Readiness::set_not_ready`] is called.
    pub fn is_ready(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    /// Marks the server as going away, so readiness probes fail while it drains.
    pub fn set_not_ready(&self) {
        self.0.store(false, Ordering::Relaxed);
    }
}
