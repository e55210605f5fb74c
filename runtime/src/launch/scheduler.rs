//! The barrier phases of one thread group. The threads of a group run cooperatively on one
//! worker: each running thread, in thread order, runs until it reaches the group barrier
//! (`barrier`, `sbarrier.wait`), a named-barrier wait that cannot pass yet, or its end. The
//! group barrier's phase completes once every thread has ended or signalled it; its waiters
//! then continue, with the retried named waits, in thread order. Otherwise only the named waits
//! are retried, and a round of retries that changes no named barrier is a deadlock. (When no
//! named wait is pending, every thread has ended or waits having signalled, so the phase
//! completes unless no thread is left.)
//!
//! The scheduler knows a thread only through [`BarrierParty`] and runs it through a closure,
//! so its order of phases is tested here with scripted threads, apart from any engine or rayon.

use std::cell::RefCell;

use crate::error::{Fault, TrapKind};
use crate::exec::nbarrier::NamedBarriers;
use crate::exec::sbarrier::GroupBarrier;
use crate::exec::{RunEnd, Stop};
use crate::machine::Thread;

/// What the scheduler reads and clears of a thread's barrier state.
pub(crate) trait BarrierParty {
    /// The thread has ended: it takes no part in barriers any more.
    fn has_ended(&self) -> bool;
    /// The group-barrier phase the thread signalled and has not waited for yet.
    fn signalled(&self) -> Option<u32>;
    /// The thread passed the group barrier: its signal is spent.
    fn clear_signal(&mut self);
    /// Whether the thread stopped at a named-barrier wait that could not pass (the flag is
    /// cleared: the thread re-executes the wait when run again).
    fn take_named_wait(&mut self) -> bool;
    /// Where the thread stopped.
    fn pc(&self) -> usize;
}

impl BarrierParty for Thread<'_> {
    fn has_ended(&self) -> bool {
        self.ended
    }

    fn signalled(&self) -> Option<u32> {
        self.sbarrier_signal
    }

    fn clear_signal(&mut self) {
        self.sbarrier_signal = None;
    }

    fn take_named_wait(&mut self) -> bool {
        std::mem::take(&mut self.named_wait)
    }

    fn pc(&self) -> usize {
        self.pc
    }
}

/// A fault of one thread of the group, which stops the group.
#[derive(Debug)]
pub(crate) struct ThreadFault {
    /// The thread's index in its group.
    pub thread: usize,
    pub pc: usize,
    pub fault: Fault,
}

/// The group barrier and named barriers of one group, as the scheduler reads them.
pub(crate) struct GroupSync<'g> {
    pub barrier: &'g GroupBarrier,
    pub named: &'g RefCell<NamedBarriers>,
}

/// Runs the barrier phases of a group. Its buffers are kept across the groups a worker runs,
/// so a group's phases allocate nothing.
#[derive(Default)]
pub(crate) struct GroupScheduler {
    /// Threads (by index) to run in this round.
    running: Vec<usize>,
    /// Threads stopped at the group barrier.
    waiting: Vec<usize>,
    /// Threads to run in the next round.
    next: Vec<usize>,
}

impl GroupScheduler {
    /// Runs the threads of one group, each with `run` (until it ends, reaches a barrier or
    /// faults), phase after phase until every thread has ended. Threads that have ended
    /// already are not run and not waited for. The first fault stops the group.
    pub(crate) fn run_group<T: BarrierParty>(
        &mut self,
        threads: &mut [T],
        sync: &GroupSync<'_>,
        mut run: impl FnMut(&mut T) -> RunEnd,
    ) -> Result<(), ThreadFault> {
        let Self {
            running,
            waiting,
            next,
        } = self;
        running.clear();
        running.extend((0..threads.len()).filter(|&i| !threads[i].has_ended()));
        waiting.clear();
        let mut only_retries = false;
        while !running.is_empty() {
            let version = sync.named.borrow().version;
            next.clear();
            for &index in running.iter() {
                let Some(thread) = threads.get_mut(index) else {
                    continue;
                };
                match run(thread) {
                    Ok(Stop::Finished) => {}
                    Ok(Stop::Barrier) if thread.take_named_wait() => next.push(index),
                    Ok(Stop::Barrier) => waiting.push(index),
                    Err((pc, fault)) => {
                        return Err(ThreadFault {
                            thread: index,
                            pc,
                            fault,
                        });
                    }
                }
            }
            if !waiting.is_empty() && Self::try_complete(threads, sync.barrier) {
                for &index in waiting.iter() {
                    if let Some(thread) = threads.get_mut(index) {
                        thread.clear_signal();
                    }
                }
                next.append(waiting);
                next.sort_unstable();
                only_retries = false;
            } else if !next.is_empty() {
                // A round of nothing but retried waits that changed no barrier would repeat
                // forever.
                if only_retries && sync.named.borrow().version == version {
                    let first = next.first().copied().unwrap_or(0);
                    let kind = TrapKind::NamedBarrierDeadlock {
                        waiting: next.len(),
                    };
                    return Err(ThreadFault {
                        thread: first,
                        pc: threads.get(first).map_or(0, |t| t.pc()),
                        fault: Fault::new(kind),
                    });
                }
                only_retries = true;
            }
            // (Swapped, not moved: the scheduler keeps both buffers for its next groups.)
            std::mem::swap(running, next);
        }
        Ok(())
    }

    /// Completes the group barrier's current phase if every thread has ended or signalled it.
    fn try_complete<T: BarrierParty>(threads: &[T], barrier: &GroupBarrier) -> bool {
        let current = barrier.generation();
        let complete = threads
            .iter()
            .all(|t| t.has_ended() || t.signalled() == Some(current));
        if complete {
            barrier.complete_phase();
        }
        complete
    }
}

#[cfg(test)]
mod tests {
    //! Scripted threads: each runs its steps in order, logging its work, with the barrier rules
    //! of `exec::sbarrier` (signal, wait) and a named wait that passes once enough named-barrier
    //! changes have happened.

    use super::*;

    #[derive(Debug, Clone, Copy)]
    enum Step {
        /// Logged as (thread, name).
        Work(&'static str),
        /// `barrier`: a signal and a wait.
        Barrier,
        /// `sbarrier.signal`.
        Signal,
        /// `sbarrier.wait`.
        Wait,
        /// A named-barrier signal: one change of the named barriers.
        Produce,
        /// A named wait that passes once the named barriers changed this many times.
        WaitNamed(u64),
        /// A trap.
        Trap,
    }

    struct Scripted {
        id: usize,
        steps: Vec<Step>,
        at: usize,
        ended: bool,
        signal: Option<u32>,
        named_wait: bool,
    }

    impl Scripted {
        fn new(id: usize, steps: &[Step]) -> Self {
            Self {
                id,
                steps: steps.to_vec(),
                at: 0,
                ended: false,
                signal: None,
                named_wait: false,
            }
        }
    }

    impl BarrierParty for Scripted {
        fn has_ended(&self) -> bool {
            self.ended
        }
        fn signalled(&self) -> Option<u32> {
            self.signal
        }
        fn clear_signal(&mut self) {
            self.signal = None;
        }
        fn take_named_wait(&mut self) -> bool {
            std::mem::take(&mut self.named_wait)
        }
        fn pc(&self) -> usize {
            self.at
        }
    }

    /// Runs scripted threads as one group; returns the log of their work and the outcome.
    fn schedule(scripts: &[&[Step]]) -> (Vec<String>, Result<(), ThreadFault>) {
        let mut threads: Vec<Scripted> = (0..scripts.len())
            .map(|id| Scripted::new(id, scripts[id]))
            .collect();
        let barrier = GroupBarrier::default();
        let named = RefCell::new(NamedBarriers::default());
        let sync = GroupSync {
            barrier: &barrier,
            named: &named,
        };
        let mut log = Vec::new();
        let outcome = GroupScheduler::default().run_group(&mut threads, &sync, |t| {
            loop {
                let Some(step) = t.steps.get(t.at).copied() else {
                    t.ended = true;
                    return Ok(Stop::Finished);
                };
                match step {
                    Step::Work(name) => log.push(format!("{name}{}", t.id)),
                    Step::Barrier | Step::Signal | Step::Wait => {
                        if !matches!(step, Step::Wait) {
                            assert_eq!(t.signal, None, "a second signal");
                            t.signal = Some(barrier.generation());
                        }
                        if !matches!(step, Step::Signal) {
                            t.at += 1;
                            match t.signal {
                                // The phase signalled is complete: pass.
                                Some(g) if g != barrier.generation() => t.signal = None,
                                _ => return Ok(Stop::Barrier),
                            }
                            continue;
                        }
                    }
                    Step::Produce => named.borrow_mut().version += 1,
                    Step::WaitNamed(changes) => {
                        if named.borrow().version < changes {
                            t.named_wait = true;
                            return Ok(Stop::Barrier);
                        }
                        named.borrow_mut().version += 1;
                    }
                    Step::Trap => {
                        return Err((t.at, Fault::new(TrapKind::OutOfFuel(0))));
                    }
                }
                t.at += 1;
            }
        });
        (log, outcome)
    }

    use Step::*;

    #[test]
    fn barrier_runs_every_thread_up_to_it_before_any_goes_on() {
        let script: &[Step] = &[Work("a"), Barrier, Work("b"), Barrier, Work("c")];
        let (log, outcome) = schedule(&[script, script, script]);
        assert!(outcome.is_ok());
        assert_eq!(log, ["a0", "a1", "a2", "b0", "b1", "b2", "c0", "c1", "c2"]);
    }

    #[test]
    fn ended_threads_are_not_waited_for() {
        let (log, outcome) = schedule(&[
            &[Work("a"), Barrier, Work("b")],
            &[Work("a")],
            &[Work("a"), Barrier, Work("b")],
        ]);
        assert!(outcome.is_ok());
        assert_eq!(log, ["a0", "a1", "a2", "b0", "b2"]);
    }

    #[test]
    fn threads_ended_before_the_group_starts_do_not_run() {
        let mut threads = vec![Scripted::new(0, &[Barrier]), Scripted::new(1, &[Work("x")])];
        threads[1].ended = true;
        let barrier = GroupBarrier::default();
        let named = RefCell::new(NamedBarriers::default());
        let sync = GroupSync {
            barrier: &barrier,
            named: &named,
        };
        let mut runs = 0;
        let outcome = GroupScheduler::default().run_group(&mut threads, &sync, |t| {
            runs += 1;
            assert_eq!(t.steps.len(), 1, "only thread 0 runs");
            if t.at == 0 {
                t.at = 1;
                t.signal = Some(barrier.generation());
                Ok(Stop::Barrier)
            } else {
                t.ended = true;
                Ok(Stop::Finished)
            }
        });
        assert!(outcome.is_ok());
        // Alone in its group, thread 0 passes the barrier after one phase.
        assert_eq!(runs, 2);
        assert_eq!(barrier.generation(), 1);
    }

    #[test]
    fn a_split_barrier_lets_work_between_signal_and_wait() {
        let (log, outcome) = schedule(&[
            &[Signal, Work("between"), Wait, Work("after")],
            &[Work("before"), Barrier, Work("after")],
        ]);
        assert!(outcome.is_ok());
        assert_eq!(log, ["between0", "before1", "after0", "after1"]);
    }

    #[test]
    fn a_wait_on_a_completed_phase_passes_at_once() {
        // Thread 1 signals, then stops at a named wait; the phase completes meanwhile (its
        // signal counts), so its own wait later passes without stopping.
        let (log, outcome) = schedule(&[
            &[Barrier, Produce, Work("x")],
            &[Signal, WaitNamed(1), Wait, Work("passed")],
        ]);
        assert!(outcome.is_ok(), "{outcome:?}");
        assert_eq!(log, ["x0", "passed1"]);
    }

    #[test]
    fn named_waits_are_retried_after_the_others_had_their_turn() {
        let (log, outcome) = schedule(&[
            &[WaitNamed(1), Work("consumer")],
            &[Work("producer"), Produce, Work("done")],
        ]);
        assert!(outcome.is_ok());
        assert_eq!(log, ["producer1", "done1", "consumer0"]);
    }

    #[test]
    fn retries_that_change_the_named_barriers_go_on() {
        // Each retry of thread 0 that passes bumps the version for thread 1's next wait.
        let (log, outcome) = schedule(&[
            &[Produce, WaitNamed(3), Work("a")],
            &[WaitNamed(1), Work("b"), WaitNamed(4), Work("c")],
            &[WaitNamed(2), Work("d")],
        ]);
        assert!(outcome.is_ok(), "{outcome:?}");
        assert_eq!(log, ["b1", "d2", "a0", "c1"]);
    }

    #[test]
    fn named_waits_that_nobody_signals_deadlock() {
        let (log, outcome) = schedule(&[&[Work("a"), WaitNamed(1)], &[WaitNamed(1)]]);
        assert_eq!(log, ["a0"]);
        let fault = outcome.expect_err("a deadlock");
        assert_eq!((fault.thread, fault.pc), (0, 1));
        assert_eq!(
            fault.fault.kind,
            TrapKind::NamedBarrierDeadlock { waiting: 2 }
        );
    }

    #[test]
    fn a_named_waiter_holds_up_the_group_barrier() {
        // Thread 1's producer signal comes after a barrier that thread 0 never reaches.
        let (log, outcome) =
            schedule(&[&[WaitNamed(1), Work("a")], &[Work("p"), Barrier, Produce]]);
        assert_eq!(log, ["p1"]);
        let fault = outcome.expect_err("a deadlock");
        assert_eq!(fault.thread, 0);
        assert_eq!(
            fault.fault.kind,
            TrapKind::NamedBarrierDeadlock { waiting: 1 }
        );
    }

    #[test]
    fn the_first_fault_stops_the_group() {
        let (log, outcome) = schedule(&[
            &[Work("a"), Barrier, Trap],
            &[Work("a"), Barrier, Work("b")],
        ]);
        assert_eq!(log, ["a0", "a1"]);
        let fault = outcome.expect_err("a fault");
        assert_eq!((fault.thread, fault.pc), (0, 2));
    }
}
