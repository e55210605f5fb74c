//! The launch loop: a kernel whose threads never wait for one another (no barrier of any kind,
//! no shared local memory) runs a task's whole range of threads in order on one thread state,
//! one memory context and whatever the engine keeps between threads (compiled code: its
//! context with the memory windows its messages found, and its fuel), instead of group by
//! group through the scheduler. Threads start as on the group path (`Launch::start_thread`),
//! and a trap stops the task at the same thread, with the same captured values before it.

use std::cell::RefCell;
use std::ops::Range;
use std::sync::atomic::Ordering;

use super::group::{GroupRunner, GroupStop, Task, Worker};
use super::ids::ThreadPlace;
use super::scheduler::ThreadFault;
use crate::error::Fault;
use crate::exec::nbarrier::NamedBarriers;
use crate::exec::sbarrier::GroupBarrier;
use crate::exec::{Fuel, MemCtx, RunEnd};
use crate::machine::Thread;
use crate::machine::lane_pointers::LanePointers;
use crate::ops::Op;
use crate::program::Program;

/// Whether an instruction can stop its thread to wait for others of its group.
fn waits_for_group(op: &Op) -> bool {
    matches!(
        op,
        Op::Barrier | Op::SplitBarrier { .. } | Op::NamedBarrier(_) | Op::GatewayBarrier(_)
    )
}

/// Whether the threads of a launch of `program` with `slm_size` bytes of SLM can run one after
/// another to their end, each on its own: no instruction waits for the group, and no group
/// has memory of its own to start afresh.
pub(super) fn runs_alone(program: &Program, slm_size: usize) -> bool {
    slm_size == 0 && !program.code.iter().any(waits_for_group)
}

impl<'a> GroupRunner<'_, 'a> {
    /// Whether the captured variables include a byte of `bindings`' pointers.
    pub(crate) fn captures_any(&self, bindings: &[LanePointers]) -> bool {
        let layout = &self.launch.program.layout;
        self.captured.iter().any(|name| {
            let Some(var) = layout.top_level_var(name) else {
                return false;
            };
            let (start, end) = (var.offset as usize, (var.offset + var.size) as usize);
            bindings.iter().any(|b| {
                let written = b.written();
                written.start < end && start < written.end
            })
        })
    }

    /// Calls `body` with the worker's thread and the memory of the launch loop (no SLM, no
    /// barrier a thread waits at); a resource that cannot be had stops `task`.
    fn with_loop_memory(
        &self,
        worker: &mut Worker<'a>,
        task: &mut Task,
        body: impl FnOnce(&mut Thread<'a>, &MemCtx<'_>, &mut Task),
    ) {
        let slm = match self.group_slm() {
            Ok(slm) => slm,
            Err(error) => {
                task.stop = Some(GroupStop::Error(error));
                return;
            }
        };
        // (Never used: no instruction of the kernel waits at a barrier.)
        let named_barriers = RefCell::new(NamedBarriers::default());
        let group_barrier = GroupBarrier::default();
        let mem = self.memory(&slm, &named_barriers, &group_barrier);
        if worker.threads.is_empty() {
            worker.threads.push(self.start.template.fresh_copy());
        }
        if let Some(thread) = worker.threads.first_mut() {
            body(thread, &mem, task);
        }
    }

    fn cancelled(&self) -> bool {
        (self.launch.cancel.as_ref()).is_some_and(|flag| flag.load(Ordering::Relaxed))
    }

    /// Runs the threads of `groups` ([`GroupRunner::alone`] must hold) in order with `run`
    /// running one thread (its global number the last argument) to its end, into `task` as
    /// `run_group` would group by group.
    pub(crate) fn run_range(
        &self,
        worker: &mut Worker<'a>,
        fuel: &Fuel<'_>,
        groups: Range<u32>,
        task: &mut Task,
        run: impl FnMut(&mut Thread<'a>, &MemCtx<'_>, &Fuel<'_>, u32) -> RunEnd,
    ) {
        self.with_loop_memory(worker, task, |thread, mem, task| {
            self.range_on(thread, mem, fuel, groups, task, run);
        });
    }

    fn range_on(
        &self,
        thread: &mut Thread<'a>,
        mem: &MemCtx<'_>,
        fuel: &Fuel<'_>,
        groups: Range<u32>,
        task: &mut Task,
        mut run: impl FnMut(&mut Thread<'a>, &MemCtx<'_>, &Fuel<'_>, u32) -> RunEnd,
    ) {
        let launch = self.launch;
        let per_group = launch.threads_per_group;
        for group in groups {
            if self.cancelled() {
                task.stop = Some(GroupStop::Cancelled);
                return;
            }
            let kept = task.captured.len();
            for thread_in_group in 0..per_group {
                let global_thread = group * per_group + thread_in_group;
                launch.start_thread(thread, group, thread_in_group, global_thread, &self.start);
                // A thread without an active lane is not dispatched: it has ended already.
                thread.ended = thread.em == 0;
                if thread.ended {
                    // (Its registers are captured as they started.)
                    self.start.write_deferred(thread, global_thread);
                } else {
                    // (`Stop::Barrier` cannot happen: `runs_alone` excludes every instruction
                    // that stops there.)
                    if let Err((pc, fault)) = run(thread, mem, fuel, global_thread) {
                        task.captured.truncate(kept);
                        let fault = ThreadFault {
                            thread: thread_in_group as usize,
                            pc,
                            fault,
                        };
                        task.stop = Some(self.trap(group, fault));
                        return;
                    }
                }
                task.captured.push(thread, self.captured);
            }
            task.groups += 1;
            if let Some(done) = &launch.progress {
                done.fetch_add(1, Ordering::Relaxed);
            }
        }
    }
}

impl<'a> GroupRunner<'_, 'a> {
    /// [`GroupRunner::run_range`] for threads that start exactly as the previous one ended
    /// but for their ids, which an engine writes itself (`ThreadStart::trivial`): the
    /// first thread is started here, and `run(thread, mem, fuel, first, count)` runs the
    /// `count` threads from the thread at `first` on, returning on a fault the index of the
    /// thread that raised it. Nothing is captured; the cancel flag is read once.
    pub(crate) fn run_batch(
        &self,
        worker: &mut Worker<'a>,
        fuel: &Fuel<'_>,
        groups: Range<u32>,
        task: &mut Task,
        run: impl FnOnce(&mut Thread<'a>, &MemCtx<'_>, &Fuel<'_>, ThreadPlace, u32) -> BatchEnd,
    ) {
        let launch = self.launch;
        if self.cancelled() {
            task.stop = Some(GroupStop::Cancelled);
            return;
        }
        let per_group = launch.threads_per_group;
        let first = groups.start * per_group;
        let count = groups.len() as u32 * per_group;
        if count == 0 {
            return;
        }
        self.with_loop_memory(worker, task, |thread, mem, task| {
            launch.start_thread(thread, groups.start, 0, first, &self.start);
            thread.ended = false;
            let place = ThreadPlace {
                group: groups.start,
                in_group: 0,
                global: first,
            };
            let result = run(thread, mem, fuel, place, count);
            let done = match &result {
                Ok(()) => count,
                Err((index, ..)) => (*index).min(u64::from(count)) as u32,
            };
            let groups_done = done / per_group;
            let threads_done = (groups_done * per_group) as usize;
            task.captured.push_uncaptured(threads_done);
            task.groups += groups_done;
            if let Some(progress) = &launch.progress {
                progress.fetch_add(u64::from(groups_done), Ordering::Relaxed);
            }
            if let Err((index, pc, fault)) = result {
                let global = first + index as u32;
                let fault = ThreadFault {
                    thread: (global % per_group) as usize,
                    pc,
                    fault,
                };
                task.stop = Some(self.trap(global / per_group, fault));
            }
        });
    }
}

/// How a batch of threads ended: on a fault, the index of the thread that raised it in the
/// batch, the pc and the fault.
pub(crate) type BatchEnd = Result<(), (u64, usize, Fault)>;
