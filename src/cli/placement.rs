//! Where a new worker thread starts: on another CPU than the thread that spawned it.
//!
//! Linux often starts a new thread on its parent's CPU, and with the parent busy it waits
//! there until the scheduler's next balancing moves it: on a small file that is a large
//! part of the run, and `solve -t 2` then runs at one core's speed. So each helper first
//! restricts itself to one CPU of its own, which moves it there at once, then allows itself
//! every CPU it could use before, so that from then on the scheduler places it as it places
//! any thread.

/// The CPU the calling thread runs on, to pass to [`start_away_from`] (which ignores it
/// where it cannot set affinity, and where it reads 0).
pub(super) fn current_cpu() -> usize {
    imp::current_cpu()
}

/// Moves the calling thread, the `nth` helper (from 1) of a parent that ran on
/// `parent_cpu`, to a CPU of its own among those it may use, then allows it every one of
/// them again. Does nothing where affinity cannot be set, or with a single CPU allowed.
pub(super) fn start_away_from(parent_cpu: usize, nth: usize) {
    imp::start_away_from(parent_cpu, nth);
}

/// The CPU for the `nth` helper (from 1) among `allowed`, the parent's CPU coming last:
/// each helper its own CPU while there are enough, then round again. `None` when the
/// parent's is the only one allowed.
fn own_cpu(allowed: impl Iterator<Item = usize>, parent_cpu: usize, nth: usize) -> Option<usize> {
    let mut others: Vec<usize> = allowed.filter(|&cpu| cpu != parent_cpu).collect();
    if others.is_empty() {
        return None;
    }
    others.push(parent_cpu);
    Some(others[(nth - 1) % others.len()])
}

#[cfg(target_os = "linux")]
mod imp {
    use rustix::thread::{CpuSet, sched_getaffinity, sched_getcpu, sched_setaffinity};

    pub(super) fn current_cpu() -> usize {
        sched_getcpu()
    }

    pub(super) fn allowed_cpus(set: &CpuSet) -> impl Iterator<Item = usize> + '_ {
        (0..CpuSet::MAX_CPU).filter(|&cpu| set.is_set(cpu))
    }

    pub(super) fn start_away_from(parent_cpu: usize, nth: usize) {
        let Ok(allowed) = sched_getaffinity(None) else {
            return;
        };
        let Some(cpu) = super::own_cpu(allowed_cpus(&allowed), parent_cpu, nth) else {
            return;
        };
        let mut own = CpuSet::new();
        own.set(cpu);
        // A failure of either call leaves the thread where the kernel put it, which is only
        // slower, never wrong.
        if sched_setaffinity(None, &own).is_ok() {
            let _ = sched_setaffinity(None, &allowed);
        }
    }
}

#[cfg(not(target_os = "linux"))]
mod imp {
    pub(super) fn current_cpu() -> usize {
        0
    }

    pub(super) fn start_away_from(_parent_cpu: usize, _nth: usize) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_helper_gets_a_cpu_of_its_own_and_the_parents_comes_last() {
        let picks: Vec<_> = (1..=4)
            .map(|nth| own_cpu([0, 1, 2].into_iter(), 1, nth))
            .collect();
        assert_eq!(picks, [Some(0), Some(2), Some(1), Some(0)]);
        assert_eq!(own_cpu([3].into_iter(), 3, 1), None);
        assert_eq!(own_cpu(std::iter::empty(), 3, 1), None);
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_moved_thread_is_allowed_every_cpu_again() {
        use rustix::thread::sched_getaffinity;
        let before = sched_getaffinity(None).unwrap();
        let parent_cpu = current_cpu();
        let after = std::thread::spawn(move || {
            start_away_from(parent_cpu, 1);
            sched_getaffinity(None).unwrap()
        })
        .join()
        .unwrap();
        let cpus = |set| imp::allowed_cpus(&set).collect::<Vec<_>>();
        assert_eq!(cpus(after), cpus(before));
        assert!(!cpus(before).is_empty());
    }
}
