//! Named barriers (NBARRIER.md). The threads of a group run cooperatively on one worker, so
//! the 32 barriers of a group are plain state behind a `RefCell` that every thread of the
//! group reaches through its memory context (`MemCtx`). A wait whose producers have not all arrived
//! stops the thread (as a `barrier` does) with `Thread::named_wait` set; the group scheduler runs
//! it again, re-executing the wait, after the other threads had their turn, and reports a
//! deadlock when a round of retries changes nothing ([`NamedBarriers::version`]).

use std::cell::RefCell;

use crate::error::{Fault, TrapKind};
use crate::exec::flow::Next;
use crate::machine::Thread;
use crate::ops::NamedBarrier;

/// Named barriers per thread group.
pub(crate) const NAMED_BARRIERS: usize = 32;

/// The current phase of one named barrier.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Phase {
    /// Counts announced by the first signal of the phase (0: the barrier is free).
    producers: u32,
    consumers: u32,
    /// Producer signals so far.
    arrived: u32,
    /// Consumer signals so far.
    joined: u32,
}

/// The named barriers of one thread group.
#[derive(Debug, Default)]
pub(crate) struct NamedBarriers {
    phases: [Phase; NAMED_BARRIERS],
    /// Completed phases per barrier: a consumer that joined generation `g` may pass its wait
    /// once the barrier's generation exceeds `g`.
    generations: [u32; NAMED_BARRIERS],
    /// Bumped by every signal and every completed wait, so the group scheduler can tell whether a
    /// round of retried waits made progress.
    pub version: u64,
}

impl Thread<'_> {
    /// `nbarrier` on the named barriers of this thread's group.
    pub(crate) fn exec_nbarrier(
        &mut self,
        b: &NamedBarrier,
        barriers: &RefCell<NamedBarriers>,
    ) -> Result<Next, Fault> {
        let id = self.scalar_u64(&b.id)?;
        let signal = if b.signal {
            let read = |src: &Option<crate::ops::Src>| -> Result<Option<u64>, Fault> {
                src.as_ref().map(|s| self.scalar_u64(s)).transpose()
            };
            let producers = read(&b.producers)?.unwrap_or(0);
            Some((
                read(&b.role)?.unwrap_or(0),
                producers,
                read(&b.consumers)?.unwrap_or(producers),
            ))
        } else {
            None
        };
        self.nbarrier_step(id, signal, barriers)
    }

    /// A signal of barrier `id` with (type, producers, consumers), or a wait (`None`): what
    /// `nbarrier` and a gateway barrier message (`raw_send`) do.
    pub(crate) fn nbarrier_step(
        &mut self,
        id: u64,
        signal: Option<(u64, u64, u64)>,
        barriers: &RefCell<NamedBarriers>,
    ) -> Result<Next, Fault> {
        let index = usize::try_from(id)
            .ok()
            .filter(|i| *i < NAMED_BARRIERS)
            .ok_or(Fault::new(TrapKind::NamedBarrier {
                id,
                problem: format!("the id must be below {NAMED_BARRIERS}"),
            }))?;
        let fail = |problem: String| Fault::new(TrapKind::NamedBarrier { id, problem });
        let mut barriers = barriers.borrow_mut();
        let bit = 1u32 << index;
        let NamedBarriers {
            phases,
            generations,
            version,
        } = &mut *barriers;
        let (Some(phase), Some(generation)) = (phases.get_mut(index), generations.get_mut(index))
        else {
            return Err(fail(String::from("no such barrier")));
        };
        if let Some((role, producers, consumers)) = signal {
            if role > 2 {
                return Err(fail(format!("type {role} is not 0, 1 or 2")));
            }
            let (Ok(producers @ 1..), Ok(consumers @ 1..)) =
                (u32::try_from(producers), u32::try_from(consumers))
            else {
                return Err(fail(format!(
                    "producer and consumer counts must be at least 1 (got {producers}, {consumers})"
                )));
            };
            if phase.producers == 0 {
                *phase = Phase {
                    producers,
                    consumers,
                    ..Phase::default()
                };
            } else if (phase.producers, phase.consumers) != (producers, consumers) {
                return Err(fail(format!(
                    "signal announces {producers} producers / {consumers} consumers, the \
                     current phase {} / {}",
                    phase.producers, phase.consumers
                )));
            }
            if role != 2 {
                phase.arrived += 1;
            }
            if role != 1 {
                if self.nbarrier_consumer & bit != 0 {
                    return Err(fail(String::from(
                        "the thread signals as a consumer again before waiting",
                    )));
                }
                phase.joined += 1;
                if phase.joined > phase.consumers {
                    return Err(fail(format!(
                        "more consumer signals than the {} announced",
                        phase.consumers
                    )));
                }
                self.nbarrier_consumer |= bit;
                if let Some(joined) = self.nbarrier_joined.get_mut(index) {
                    *joined = *generation;
                }
            }
            // The last producer completes the phase: its consumers are released and the
            // barrier is free for the next phase.
            if phase.arrived == phase.producers {
                *phase = Phase::default();
                *generation = generation.wrapping_add(1);
            }
            *version += 1;
            return Ok(Next::Goto(self.pc + 1));
        }
        if self.nbarrier_consumer & bit == 0 {
            return Err(fail(String::from(
                "wait by a thread that has not signalled it as a consumer",
            )));
        }
        if self.nbarrier_joined.get(index) == Some(generation) {
            self.named_wait = true;
            return Ok(Next::Barrier(self.pc));
        }
        self.nbarrier_consumer &= !bit;
        *version += 1;
        Ok(Next::Goto(self.pc + 1))
    }
}
