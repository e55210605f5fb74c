//! The engines that run a launch's threads: the interpreter and the compiled tier (Cranelift).
//! Both run one thread at a time until it ends, reaches a barrier or faults; the launch asks
//! an engine to run a task's range of groups, which by default goes group by group through
//! the [`GroupScheduler`](super::scheduler::GroupScheduler). An engine that can run a whole
//! range of threads at once (a compiled launch loop for a kernel without barriers) overrides
//! [`Engine::run_groups`].

use std::ops::Range;
use std::sync::atomic::{AtomicBool, Ordering};

use super::group::{GroupRunner, KeptRun, Task, Worker};
use super::ids::ThreadPlace;
use crate::exec::{Fuel, MemCtx, RunEnd};
use crate::jit::{BatchStart, CodeTier, Compiled, CompiledRun};
use crate::machine::Thread;
use crate::machine::lane_pointers::LanePointers;
use crate::program::Program;

/// Runs the threads of a launch.
pub(crate) trait Engine: Sync {
    /// Whether the threads it runs track undefined register bytes (only the interpreter does:
    /// on compiled code every byte starts defined).
    fn tracks_defined(&self) -> bool;

    /// Whether its threads start from the part of the template they may read before writing
    /// (`fresh::restored_ranges`, a per-launch analysis) rather than the whole of it: only
    /// where nothing tracks undefined bytes, and not on the interpreter, whose launches of
    /// compiled-tier programs are those too small to repay compiling, nor the analysis.
    fn restores_partly(&self) -> bool {
        !self.tracks_defined()
    }

    /// Runs `thread` until it ends or reaches a barrier; on a fault, the pc it happened at.
    fn run_thread(&self, thread: &mut Thread<'_>, mem: &MemCtx<'_>, fuel: &Fuel<'_>) -> RunEnd;

    /// Runs a task's groups (see [`TaskRun`]).
    fn run_groups(&self, run: TaskRun<'_, '_>) {
        group_by_group(self, run);
    }

    /// Whether, in a launch loop, its threads compute the per-lane SVM pointers of `binding`
    /// where they read them, so the thread start need not write them (compiled code,
    /// `jit::CompiledRun::with_pointers`).
    fn computes_pointers(&self, _binding: &LanePointers) -> bool {
        false
    }

    /// Every register byte range its threads may write, when that is known (compiled code
    /// whose threads run in batches): a thread never changes the others.
    fn known_writes(&self) -> Option<&[Range<usize>]> {
        None
    }

    /// Called once the launch has ended with the instructions it executed.
    fn launched(&self, _steps: u64) {}
}

/// A task of a launch: the consecutive groups `groups` to run on one worker, in order, into
/// `task` (the captured values of their threads and how many finished), stopping at the first
/// group that stops early.
pub(crate) struct TaskRun<'t, 'a> {
    pub runner: &'t GroupRunner<'t, 'a>,
    pub worker: &'t mut Worker<'a>,
    pub fuel: &'t Fuel<'t>,
    pub groups: Range<u32>,
    pub task: &'t mut Task,
}

/// [`Engine::run_groups`] group by group through the scheduler.
fn group_by_group<'a, E: Engine + ?Sized>(engine: &E, run: TaskRun<'_, 'a>) {
    let task = run.task;
    for group in run.groups {
        let thread_run = |thread: &mut Thread<'a>, mem: &MemCtx<'_>, fuel: &Fuel<'_>| {
            engine.run_thread(thread, mem, fuel)
        };
        let ran = run
            .runner
            .run_group(run.worker, run.fuel, group, &mut task.captured, thread_run);
        match ran {
            Ok(()) => task.groups += 1,
            Err(stop) => {
                task.stop = Some(stop);
                break;
            }
        }
    }
}

/// The interpreter: runs the decoded program instruction by instruction.
pub(crate) struct Interpreter {
    /// Whether reads of never-written bytes trap: on a program loaded for the interpreter; not
    /// on one loaded for the compiled tier that a launch interprets (a launch too small to
    /// repay compiling, or a program the compiled tier declines), which behaves as compiled
    /// code would.
    pub tracks_defined: bool,
    /// Whether it notes the instructions its threads execute, for the compiled tier's lazy
    /// builds (`Program::reached`; a program loaded for [`crate::JitTier::Lazy`]).
    pub notes_reached: bool,
}

impl Engine for Interpreter {
    fn tracks_defined(&self) -> bool {
        self.tracks_defined
    }

    fn restores_partly(&self) -> bool {
        false
    }

    fn run_thread(&self, thread: &mut Thread<'_>, mem: &MemCtx<'_>, fuel: &Fuel<'_>) -> RunEnd {
        match self.notes_reached {
            true => thread.run_noting(mem, fuel),
            false => thread.run(mem, fuel),
        }
    }
}

/// The compiled tier: the program's Cranelift code, which hands the instructions it does not
/// compile to the interpreter's handlers.
pub(crate) struct CompiledCode<'p> {
    pub program: &'p Program,
    pub code: &'p Compiled,
}

impl Engine for CompiledCode<'_> {
    fn tracks_defined(&self) -> bool {
        false
    }

    fn run_thread(&self, thread: &mut Thread<'_>, mem: &MemCtx<'_>, fuel: &Fuel<'_>) -> RunEnd {
        thread.run_compiled(self.code, mem, fuel)
    }

    /// The launch loop ([`GroupRunner::run_range`]) when the threads never wait for one
    /// another: one compiled-code context for the whole range, so each message's memory
    /// window and the fuel drawn carry over from thread to thread.
    fn run_groups<'a>(&self, run: TaskRun<'_, 'a>) {
        if !run.runner.alone {
            group_by_group(self, run);
            return;
        }
        let runner = run.runner;
        let deferred = &runner.start.deferred;
        let batch = (runner.start.batch_restored())
            .filter(|_| self.code.batches && runner.captured.is_empty())
            .and_then(|restored| BatchStart::new(&runner.start.template, restored));
        if let Some(start) = batch {
            let mut context = kept_run(run.worker, self.code, deferred, false);
            let (simd, per_group) = (runner.launch.simd, runner.launch.threads_per_group);
            let threads = |thread: &mut Thread<'a>,
                           mem: &MemCtx<'_>,
                           fuel: &Fuel<'_>,
                           first: ThreadPlace,
                           count: u32| {
                let batch = (first, per_group, simd, u64::from(count));
                context.run_threads(thread, self.code, (mem, fuel), batch, &start)
            };
            runner.run_batch(run.worker, run.fuel, run.groups, run.task, threads);
            context.finish(run.fuel);
            keep_run(run.worker, self.code, false, context);
            return;
        }
        let captured = runner.captures_any(deferred);
        let mut context = kept_run(run.worker, self.code, deferred, captured);
        let simd = u64::from(runner.launch.simd);
        let threads = |thread: &mut Thread<'_>, mem: &MemCtx<'_>, fuel: &Fuel<'_>, id: u32| {
            context.start_thread(u64::from(id) * simd);
            thread.run_compiled_in(self.code, mem, fuel, &mut context)
        };
        (run.runner).run_range(run.worker, run.fuel, run.groups, run.task, threads);
        context.finish(run.fuel);
        keep_run(run.worker, self.code, captured, context);
    }

    fn computes_pointers(&self, binding: &LanePointers) -> bool {
        self.code.addresses.computes(binding)
    }

    fn known_writes(&self) -> Option<&[Range<usize>]> {
        self.code.known_writes()
    }

    /// Counts the steps run on this code, for the adaptive tier's choice of optimised code.
    fn launched(&self, steps: u64) {
        self.program.count_steps(self.code, steps);
    }
}

/// The compiled-code context the worker kept from its last task when that ran on `code` with
/// the same `captured` flag (the deferred bindings are the launch's, the same for every task):
/// its windows still hold, and making a context (its window slots, the bindings described)
/// costs about as much as a few threads; otherwise a new one.
fn kept_run(
    worker: &mut Worker<'_>,
    code: &Compiled,
    deferred: &[LanePointers],
    captured: bool,
) -> Box<CompiledRun> {
    match worker.compiled.take() {
        Some(kept)
            if kept.code == std::ptr::from_ref(code) as usize && kept.captured == captured =>
        {
            kept.run
        }
        _ => Box::new(CompiledRun::with_pointers(code, deferred, captured)),
    }
}

/// Keeps `run` (its fuel given back) in the worker for its next task ([`kept_run`]).
fn keep_run(worker: &mut Worker<'_>, code: &Compiled, captured: bool, run: Box<CompiledRun>) {
    worker.compiled = Some(KeptRun {
        code: std::ptr::from_ref(code) as usize,
        captured,
        run,
    });
}

/// A launch that starts while its compiled code is being built (`JitTier::Lazy`): each task
/// runs on the code of `tier` once it is there, until then on `interim` (quick code, or the
/// build being replaced) or on the interpreter. They agree on every result; none tracks
/// undefined bytes.
pub(crate) struct Tiering<'p> {
    pub program: &'p Program,
    pub tier: CodeTier,
    pub interim: Option<&'p Compiled>,
    /// Whether a worker has taken the build on.
    pub building: AtomicBool,
}

impl<'p> Tiering<'p> {
    pub(crate) fn new(program: &'p Program, tier: CodeTier, interim: Option<&'p Compiled>) -> Self {
        Tiering {
            program,
            tier,
            interim,
            building: AtomicBool::new(false),
        }
    }

    /// The code a task starting now runs on (`None`: the interpreter).
    pub(crate) fn current(&self) -> Option<&Compiled> {
        self.program.built(self.tier).or(self.interim)
    }

    /// Builds the code unless a worker has taken that on. The launch's first worker calls it
    /// before any task when the program knows which blocks run (`Program::reached`: noted by
    /// earlier launches); otherwise the first worker to end a task does, once the
    /// interpreter has run that task's threads noting the blocks they entered, so the build
    /// compiles those (lazy blocks).
    pub(crate) fn build(&self) {
        // (Read first: every task on the interpreter asks.)
        if !self.building.load(Ordering::Acquire) && !self.building.swap(true, Ordering::AcqRel) {
            self.program.compile_tier(self.tier);
        }
    }
}

impl Engine for Tiering<'_> {
    fn tracks_defined(&self) -> bool {
        false
    }

    fn run_thread(&self, thread: &mut Thread<'_>, mem: &MemCtx<'_>, fuel: &Fuel<'_>) -> RunEnd {
        match self.current() {
            Some(code) => thread.run_compiled(code, mem, fuel),
            None => thread.run(mem, fuel),
        }
    }

    fn run_groups(&self, run: TaskRun<'_, '_>) {
        match self.current() {
            Some(code) => CompiledCode {
                program: self.program,
                code,
            }
            .run_groups(run),
            None => {
                let interpreter = Interpreter {
                    tracks_defined: false,
                    notes_reached: true,
                };
                group_by_group(&interpreter, run);
                self.build();
            }
        }
    }

    /// Counts the launch's steps as run on the code it ends with (the adaptive choice of
    /// optimised code is an estimate).
    fn launched(&self, steps: u64) {
        if let Some(code) = self.current() {
            self.program.count_steps(code, steps);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Tiering;
    use crate::jit::lazy_tier_tests::{KERNEL, program};
    use crate::jit::{COLD_EXECUTIONS, CodeChoice, CodeTier as Tier, HOT_EXECUTIONS};
    use crate::{Engine, JitTier, LoadOptions, Program};

    /// Above the cold threshold a lazy program's launch builds its code beside the run: the
    /// choice names the tier to build and what to run meanwhile.
    #[test]
    fn a_lazy_launch_builds_its_code_beside_the_run() {
        let lazy = program(JitTier::Lazy);
        let len = lazy.code.len() as u64;
        let cold = COLD_EXECUTIONS * len;
        assert!(matches!(lazy.code_for(cold - 1), CodeChoice::Interpret));
        let CodeChoice::Behind { tier, interim } = lazy.code_for(cold) else {
            panic!("not built beside the launch");
        };
        assert_eq!((tier, interim.is_none()), (Tier::Quick, true));
        let tiering = Tiering::new(&lazy, tier, interim);
        assert!(tiering.current().is_none(), "interpreted until built");
        assert!(lazy.compile_tier(Tier::Quick).is_some());
        assert!(tiering.current().is_some(), "the new code once built");
        assert!(matches!(lazy.code_for(1), CodeChoice::Ready(_)));
        // A hot launch builds optimised code and runs on the quick code meanwhile.
        let CodeChoice::Behind { tier, interim } = lazy.code_for(HOT_EXECUTIONS * len) else {
            panic!("optimised code not built beside the launch");
        };
        assert_eq!((tier, interim.is_some()), (Tier::Optimized, true));
        // The other tiers compile before the launch.
        let adaptive = program(JitTier::Adaptive);
        assert!(matches!(adaptive.code_for(cold), CodeChoice::Ready(_)));
        let interpreted =
            Program::from_text(KERNEL, &LoadOptions::default().engine(Engine::Interpreter))
                .expect("loads");
        assert!(matches!(interpreted.code_for(cold), CodeChoice::Interpret));
    }
}
