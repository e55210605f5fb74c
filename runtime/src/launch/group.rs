//! One group of a launch: its SLM and barriers, its threads started from the launch's template,
//! run phase after phase by the [`GroupScheduler`], and their captured values.

use std::cell::RefCell;
use std::sync::atomic::Ordering;

use super::Launch;
use super::result::Captures;
use super::scheduler::{GroupScheduler, GroupSync, ThreadFault};
use super::start::ThreadStart;
use crate::error::{LaunchError, Trap};
use crate::exec::nbarrier::NamedBarriers;
use crate::exec::sbarrier::GroupBarrier;
use crate::exec::{Fuel, MemCtx, RunEnd};
use crate::jit::CompiledRun;
use crate::machine::Thread;
use crate::memory::{Buffer, Svm};

/// Why a group stopped early.
pub(crate) enum GroupStop {
    Trap(Box<Trap>),
    /// The cancel flag was set before it started.
    Cancelled,
    /// Its resources could not be allocated.
    Error(LaunchError),
}

impl From<LaunchError> for GroupStop {
    fn from(error: LaunchError) -> Self {
        GroupStop::Error(error)
    }
}

/// What a task of consecutive groups leaves behind.
pub(crate) struct Task {
    /// The captured variables of the threads of its groups that finished.
    pub(super) captured: Captures,
    /// How many of its groups finished.
    pub(super) groups: u32,
    /// Why its last group stopped early, if it did (the task then stopped).
    pub(super) stop: Option<GroupStop>,
}

/// Buffers a rayon worker keeps across the groups it runs, so a group allocates nothing for
/// its threads or its barrier phases.
#[derive(Default)]
pub(crate) struct Worker<'a> {
    /// The threads of the group running, started afresh for each group (in place: a thread
    /// is large, and its register file is reused).
    pub(super) threads: Vec<Thread<'a>>,
    scheduler: GroupScheduler,
    /// The compiled-code context of its last task (`engine`), for the next.
    pub(super) compiled: Option<KeptRun>,
}

/// A compiled-code context a worker keeps between tasks of one launch, with the code it ran
/// (its address) and whether it wrote pending pointers at the end of each thread.
pub(crate) struct KeptRun {
    pub(super) code: usize,
    pub(super) captured: bool,
    /// (Boxed: the context is large, and moves in and out of the worker once per task.)
    pub(super) run: Box<CompiledRun>,
}

/// What every group of a launch shares, prepared once per launch.
pub(crate) struct GroupRunner<'l, 'a> {
    pub(super) launch: &'l Launch<'a>,
    pub(super) start: ThreadStart<'a, 'l>,
    pub(super) svm: &'l Svm,
    pub(super) slm_size: usize,
    /// The binding table, sorted by number.
    pub(super) table: &'l [(u32, &'l Buffer)],
    /// The buffer of each surface variable when no `movs` re-points one (`MemCtx::fixed`).
    pub(super) fixed: &'l [Option<&'l Buffer>],
    /// The variables read back from every thread.
    pub(super) captured: &'l [String],
    /// Whether its threads never wait for one another ([`super::range::runs_alone`]): an
    /// engine may run them in a launch loop ([`GroupRunner::run_range`]).
    pub(crate) alone: bool,
}

impl<'a> GroupRunner<'_, 'a> {
    /// A group's shared local memory, zeroed.
    pub(super) fn group_slm(&self) -> Result<Buffer, LaunchError> {
        Buffer::try_zeroed(self.slm_size).ok_or(LaunchError::OutOfMemory {
            what: "shared local memory",
            bytes: self.slm_size as u64,
        })
    }

    /// What a group's threads address: the launch's SVM and surfaces, and the group's own
    /// SLM and barriers.
    pub(super) fn memory<'m>(
        &'m self,
        slm: &'m Buffer,
        named_barriers: &'m RefCell<NamedBarriers>,
        group_barrier: &'m GroupBarrier,
    ) -> MemCtx<'m> {
        MemCtx {
            svm: self.svm,
            slm,
            table: self.table,
            fixed: self.fixed,
            svm_table: self.launch.svm_table.as_deref(),
            slm_mask: self.launch.slm_mask,
            named_barriers,
            group_barrier,
        }
    }

    /// Runs group `group` with `run` running one thread until it ends, reaches a barrier or
    /// faults, and appends what its threads leave behind to `out`.
    pub(crate) fn run_group(
        &self,
        worker: &mut Worker<'a>,
        fuel: &Fuel<'_>,
        group: u32,
        out: &mut Captures,
        mut run: impl FnMut(&mut Thread<'a>, &MemCtx<'_>, &Fuel<'_>) -> RunEnd,
    ) -> Result<(), GroupStop> {
        let launch = self.launch;
        if launch
            .cancel
            .as_ref()
            .is_some_and(|flag| flag.load(Ordering::Relaxed))
        {
            return Err(GroupStop::Cancelled);
        }
        let Worker {
            threads, scheduler, ..
        } = worker;
        let slm = self.group_slm()?;
        let named_barriers = RefCell::new(NamedBarriers::default());
        let group_barrier = GroupBarrier::default();
        let mem = self.memory(&slm, &named_barriers, &group_barrier);
        // (The same count for every group of the launch: the threads are made once.)
        let count = launch.threads_per_group as usize;
        threads.resize_with(count, || self.start.template.fresh_copy());
        for (thread_in_group, thread) in (0..launch.threads_per_group).zip(threads.iter_mut()) {
            let global_thread = group * launch.threads_per_group + thread_in_group;
            launch.start_thread(thread, group, thread_in_group, global_thread, &self.start);
            // A thread without an active lane is not dispatched: it has ended already.
            thread.ended = thread.em == 0;
        }
        let sync = GroupSync {
            barrier: &group_barrier,
            named: &named_barriers,
        };
        scheduler
            .run_group(threads, &sync, |thread| run(thread, &mem, fuel))
            .map_err(|fault| self.trap(group, fault))?;
        for thread in threads.iter() {
            out.push(thread, self.captured);
        }
        if let Some(done) = &launch.progress {
            done.fetch_add(1, Ordering::Relaxed);
        }
        Ok(())
    }

    /// The trap of a thread's fault, located in the program's source.
    pub(super) fn trap(&self, group: u32, fault: ThreadFault) -> GroupStop {
        let program = self.launch.program;
        let ThreadFault { thread, pc, fault } = fault;
        let instr = program.sources.get(pc);
        GroupStop::Trap(Box::new(Trap {
            kernel: program.kernel.clone(),
            group,
            thread: thread as u32,
            pc,
            span: instr.map(|i| i.span).unwrap_or_default(),
            instruction: instr.map(|i| i.text.clone()).unwrap_or_default(),
            lane: fault.lane,
            kind: fault.kind,
        }))
    }
}
