//! The group barrier shared by `barrier` and `sbarrier` (SBARRIER.md): `sbarrier.signal`
//! records the thread's arrival in the current phase, `sbarrier.wait` blocks until the phase
//! is complete, and `barrier` is a signal followed by a wait. The threads of a group run
//! cooperatively on one worker, so the phase is a generation number behind a `Cell`; the
//! group scheduler (`launch::scheduler`) completes it once every thread has ended or
//! signalled it, and then resumes the threads blocked on it after their wait.

use std::cell::Cell;

use crate::error::{Fault, TrapKind};
use crate::exec::flow::Next;
use crate::machine::Thread;

/// The barrier of one thread group.
#[derive(Debug, Default)]
pub(crate) struct GroupBarrier {
    /// Completed phases; a thread that signalled generation `g` may pass its wait once this
    /// exceeds `g`.
    generation: Cell<u32>,
}

impl GroupBarrier {
    /// The current phase: the number of completed phases.
    pub(crate) fn generation(&self) -> u32 {
        self.generation.get()
    }

    /// Completes the current phase (the group scheduler does, once every thread of the group
    /// has ended or signalled it).
    pub(crate) fn complete_phase(&self) {
        self.generation.set(self.generation.get().wrapping_add(1));
    }
}

impl Thread<'_> {
    /// `sbarrier.signal` (`signal`), `sbarrier.wait`, or `barrier` (both, `signal` and `wait`)
    /// on the barrier of this thread's group.
    pub(crate) fn exec_group_barrier(
        &mut self,
        signal: bool,
        wait: bool,
        barrier: &GroupBarrier,
    ) -> Result<Next, Fault> {
        if let Some((_, mask)) = self.first_waiting() {
            return Err(Fault::new(TrapKind::DivergentBarrier { mask }));
        }
        let current = barrier.generation.get();
        let fail = |problem: &str| {
            Fault::new(TrapKind::SplitBarrier {
                problem: problem.to_string(),
            })
        };
        if signal {
            if self.sbarrier_signal.is_some() {
                return Err(fail(if wait {
                    "barrier while this thread's sbarrier.signal has not been waited for"
                } else {
                    "second signal before waiting for the first"
                }));
            }
            self.sbarrier_signal = Some(current);
        }
        if !wait {
            return Ok(Next::Goto(self.pc + 1));
        }
        match self.sbarrier_signal {
            None => Err(fail(
                "wait without a preceding sbarrier.signal by this thread",
            )),
            // The phase signalled is already complete.
            Some(signalled) if signalled != current => {
                self.sbarrier_signal = None;
                Ok(Next::Goto(self.pc + 1))
            }
            // Blocked: the group scheduler resumes the thread after this instruction once the phase
            // completes, and clears its signal then.
            Some(_) => Ok(Next::Barrier(self.pc + 1)),
        }
    }
}
