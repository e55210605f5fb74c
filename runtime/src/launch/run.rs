//! Running a launch: validation, the engine chosen, groups in tasks on rayon, and the results
//! gathered in group order.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError};

use super::engine::{CompiledCode, Engine, Interpreter, TaskRun, Tiering};
use super::group::{GroupRunner, GroupStop, Task, Worker};
use super::result::{Captured, Captures, LaunchResult};
use super::{Binding, Launch};
use crate::error::{LaunchError, TrapKind};
use crate::exec::{Fuel, FuelPool};
use crate::jit::CodeChoice;
use crate::memory::{Buffer, Svm};

/// The most threads a task runs (see `Launch::run_on`).
const MAX_TASK_THREADS: u32 = 1024;

impl<'a> Launch<'a> {
    /// Runs every thread of the grid. Groups run in parallel; the threads of a group run one
    /// after another. The first trap (lowest group, then thread) is returned.
    pub fn run(self) -> Result<LaunchResult, LaunchError> {
        let resolved = self.resolve()?;
        let program = self.program;
        let dynamic = program.repoints_surfaces() || self.svm_table.is_some();
        let table = self.binding_table(dynamic)?;
        // Without `movs` re-pointing surfaces, each surface variable keeps its initial number:
        // its buffer is looked up here once instead of at every access.
        let fixed: Vec<Option<&Buffer>> = if dynamic {
            Vec::new()
        } else {
            program
                .layout
                .states
                .iter()
                .map(|state| {
                    let number = state.initial.filter(|_| !state.sampler)?;
                    crate::exec::table_entry(&table, number)
                })
                .collect()
        };
        // Compiled code, when the program's engine is the JIT (compiled here on first launch):
        // optimised when the launch is large (its loops counted several trips).
        let work = u64::from(self.groups)
            .saturating_mul(u64::from(self.threads_per_group))
            .saturating_mul(program.expected_steps());
        let prepared = Prepared {
            resolved: &resolved,
            table: &table,
            fixed: &fixed,
        };
        match program.code_for(work) {
            CodeChoice::Ready(code) => self.run_on(&CompiledCode { program, code }, prepared),
            CodeChoice::Interpret => {
                let tracks_defined = program.engine == crate::Engine::Interpreter;
                let notes_reached = !tracks_defined && program.jit_tier == crate::JitTier::Lazy;
                let engine = Interpreter {
                    tracks_defined,
                    notes_reached,
                };
                self.run_on(&engine, prepared)
            }
            CodeChoice::Behind { tier, interim } => {
                // One worker compiles while the others start the launch; a pool of one thread
                // compiles first and runs every task on the new code. Without code to run
                // meanwhile or blocks noted yet, the first task runs on the interpreter first,
                // noting them (`Tiering::build`).
                let engine = Tiering::new(program, tier, interim);
                let ((), result) = rayon::join(
                    || {
                        if interim.is_some() || program.reached.any() {
                            engine.build();
                        }
                    },
                    || self.run_on(&engine, prepared),
                );
                result
            }
        }
    }

    /// [`Launch::run`] once the launch is validated and its engine chosen.
    fn run_on<E: Engine>(
        &self,
        engine: &E,
        prepared: Prepared<'_>,
    ) -> Result<LaunchResult, LaunchError> {
        let program = self.program;
        let empty_svm = Svm::new();
        let svm = self.svm.unwrap_or(&empty_svm);
        let slm_size = self.slm_size.or(program.slm_size).unwrap_or(0);
        let used = self.steps.clone().unwrap_or_default();
        used.store(0, Ordering::Relaxed);
        let pool = FuelPool::new(
            self.fuel,
            used,
            self.cancel.clone(),
            rayon::current_num_threads(),
        );
        let mut captured: Vec<String> = self
            .bindings
            .iter()
            .filter(|(n, b)| matches!(b, Binding::Lanes { .. }) && !self.input_only.contains(n))
            .map(|(n, _)| n.clone())
            .collect();
        captured.extend(self.capture.iter().cloned());
        self.check_memory(slm_size, &captured)?;
        let alone = super::range::runs_alone(program, slm_size);
        let runner = GroupRunner {
            launch: self,
            start: self.thread_start(
                self.thread_template(
                    prepared.resolved,
                    engine.tracks_defined() && self.trap_undefined,
                ),
                prepared.resolved,
                engine.restores_partly(),
                // (Only the launch loop leaves pointers to the engine.)
                |binding| alone && engine.computes_pointers(binding),
                engine.known_writes(),
            ),
            svm,
            slm_size,
            table: prepared.table,
            fixed: prepared.fixed,
            captured: &captured,
            alone,
        };
        // Groups run in tasks of consecutive groups, in group order within a task, which stops
        // at its first trap: a task per group would cost a result vector per group, the main
        // cost of a launch of many one-thread groups. Sixteen tasks a worker at least, for
        // balance, of at most `MAX_TASK_THREADS` threads: a task's start and end (its engine
        // context, its results) cost about 1,200 host instructions, a fifth of what 64 threads
        // of `svm_add` take on compiled code.
        let most = (MAX_TASK_THREADS / self.threads_per_group.max(1)).max(1);
        let per_task =
            (self.groups / (16 * rayon::current_num_threads().max(1) as u32)).clamp(1, most);
        let tasks = self.groups.div_ceil(per_task);
        let run_task = |(worker, fuel): &mut (Worker<'a>, Fuel<'_>), task: u32| -> Task {
            let first = task * per_task;
            let groups = first..(first + per_task).min(self.groups);
            let mut done = Task {
                captured: Captures::new(&captured),
                groups: 0,
                stop: None,
            };
            let threads = groups.len() * self.threads_per_group as usize;
            if done.captured.reserve(threads).is_err() {
                done.stop = Some(GroupStop::Error(LaunchError::OutOfMemory {
                    what: "the results of the threads",
                    bytes: (threads * std::mem::size_of::<Captured>()) as u64,
                }));
                return done;
            }
            engine.run_groups(TaskRun {
                runner: &runner,
                worker,
                fuel,
                groups,
                task: &mut done,
            });
            fuel.flush();
            done
        };
        // Each worker runs a job that takes its own share of consecutive tasks in order, then
        // what is left of the others' (`Shares`), so the workers end within a task of each
        // other and a worker woken late takes fewer, while each streams through consecutive
        // memory. (A parallel iterator splits the range in halves up front: a worker started
        // late ended late, and one that had finished slept. One counter for all: the workers
        // took alternate tasks, and the memory each streamed through jumped at every task.)
        let slots = Mutex::new(empty_slots(tasks)?);
        let jobs = rayon::current_num_threads().max(1);
        let shares = Shares::new(tasks, jobs);
        let (run_task, shares, slots_ref, pool) = (&run_task, &shares, &slots, &pool);
        rayon::scope(|scope| {
            for job in 0..jobs {
                scope.spawn(move |_| {
                    let mut state = (Worker::default(), Fuel::new(pool));
                    let mut share = 0;
                    while let Some(task) = shares.take(job, &mut share) {
                        let done = run_task(&mut state, task);
                        lock(slots_ref)[task as usize] = Some(done);
                    }
                });
            }
        });
        // (Every slot is filled: each task number below `tasks` was taken once.)
        let results = slots.into_inner().unwrap_or_else(PoisonError::into_inner);
        let steps = pool.used.load(Ordering::Relaxed);
        engine.launched(steps);
        self.gather(results, steps, &captured)
    }

    /// The launch's result from its tasks' (in group order): the first trap in group order,
    /// or where the threads stopped when the launch was cancelled, or every thread's values.
    fn gather(
        &self,
        results: Vec<Option<Task>>,
        steps: u64,
        captured: &[String],
    ) -> Result<LaunchResult, LaunchError> {
        let stopped_by_cancel = |stop: &Option<GroupStop>| match stop {
            Some(GroupStop::Cancelled) => true,
            Some(GroupStop::Trap(trap)) => trap.kind == TrapKind::Cancelled,
            _ => false,
        };
        if results
            .iter()
            .flatten()
            .any(|task| stopped_by_cancel(&task.stop))
        {
            let done: u64 = results.iter().flatten().map(|t| u64::from(t.groups)).sum();
            let stopped = results
                .into_iter()
                .flatten()
                .filter_map(|task| match task.stop {
                    Some(GroupStop::Trap(trap)) if trap.kind == TrapKind::Cancelled => Some(*trap),
                    _ => None,
                })
                .collect();
            return Err(LaunchError::Cancelled {
                groups_done: u32::try_from(done).unwrap_or(u32::MAX),
                groups: self.groups,
                stopped,
            });
        }
        let count = self.groups as usize * self.threads_per_group as usize;
        let mut threads = Captures::new(captured);
        threads
            .reserve(count)
            .map_err(|_| LaunchError::OutOfMemory {
                what: "the results of the threads",
                bytes: (count * std::mem::size_of::<Captured>()) as u64,
            })?;
        for task in results.into_iter().flatten() {
            threads.append(task.captured);
            match task.stop {
                Some(GroupStop::Trap(trap)) => return Err(LaunchError::Trap(trap)),
                Some(GroupStop::Error(error)) => return Err(error),
                Some(GroupStop::Cancelled) | None => {}
            }
        }
        // Without an entry mask every lane started active: nothing to keep.
        let entry_masks = match self.active {
            Some(_) => (0..threads.len() as u32)
                .map(|thread| self.entry_mask(thread))
                .collect(),
            None => Vec::new(),
        };
        Ok(LaunchResult {
            simd: self.simd,
            threads,
            entry_masks,
            steps,
        })
    }
}

/// What validation leaves for the run: the bindings resolved to variables and the binding
/// table.
struct Prepared<'p> {
    resolved: &'p [(usize, &'p Binding)],
    table: &'p [(u32, &'p Buffer)],
    fixed: &'p [Option<&'p Buffer>],
}

/// A launch's tasks cut into one share of consecutive tasks per job, each with a counter of
/// its next task. A job takes the tasks of its own share, then of the next shares in turn,
/// sharing each counter with the jobs still on that share.
struct Shares {
    /// Per share: its next task (64 bits: each job counts once past a share's end, which must
    /// not wrap), and its end.
    next: Vec<(AtomicU64, u64)>,
}

impl Shares {
    fn new(tasks: u32, jobs: usize) -> Shares {
        let (tasks, jobs) = (u64::from(tasks), jobs.max(1) as u64);
        let bound = |share: u64| share * tasks / jobs;
        Shares {
            next: (0..jobs)
                .map(|share| (AtomicU64::new(bound(share)), bound(share + 1)))
                .collect(),
        }
    }

    /// The next task for job `job`, whose `share`-th share (counted from its own) is the one
    /// it is on; `None` once every share is done.
    fn take(&self, job: usize, share: &mut usize) -> Option<u32> {
        while *share < self.next.len() {
            let (next, end) = &self.next[(job + *share) % self.next.len()];
            let task = next.fetch_add(1, Ordering::Relaxed);
            if task < *end {
                // (Below the end, which is at most the u32 number of tasks.)
                return u32::try_from(task).ok();
            }
            *share += 1;
        }
        None
    }
}

/// A result slot for each of `tasks` tasks, or the error of a launch whose slots do not fit in
/// memory.
fn empty_slots(tasks: u32) -> Result<Vec<Option<Task>>, LaunchError> {
    let mut slots = Vec::new();
    slots
        .try_reserve_exact(tasks as usize)
        .map_err(|_| LaunchError::OutOfMemory {
            what: "the results of the tasks",
            bytes: u64::from(tasks) * std::mem::size_of::<Option<Task>>() as u64,
        })?;
    slots.resize_with(tasks as usize, || None);
    Ok(slots)
}

/// The guard of `mutex`, also when a worker panicked holding it (the panic ends the launch
/// anyway, re-raised by the scope).
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use super::Shares;

    /// The tasks of `tasks` that `jobs` jobs take, one task each in turn (job 0 first) in the
    /// rounds where `active` says a job runs, until three rounds pass without a task taken:
    /// the tasks each job took, in order.
    fn taken(tasks: u32, jobs: usize, active: impl Fn(usize, usize) -> bool) -> Vec<Vec<u32>> {
        let shares = Shares::new(tasks, jobs);
        let mut on = vec![0; jobs];
        let mut took = vec![Vec::new(); jobs];
        let mut idle = 0;
        for round in 0.. {
            if idle == 3 {
                break;
            }
            idle += 1;
            for job in (0..jobs).filter(|&job| active(round, job)) {
                if let Some(task) = shares.take(job, &mut on[job]) {
                    took[job].push(task);
                    idle = 0;
                }
            }
        }
        took
    }

    fn every_task_once(took: &[Vec<u32>], tasks: u32) {
        let mut all: Vec<u32> = took.concat();
        all.sort_unstable();
        assert_eq!(all, (0..tasks).collect::<Vec<_>>());
    }

    #[test]
    fn each_job_takes_its_own_consecutive_share_first() {
        let took = taken(10, 2, |_, _| true);
        assert_eq!(took, [vec![0, 1, 2, 3, 4], vec![5, 6, 7, 8, 9]]);
        // Shares of unequal length: job 0, done with its own first, takes the longest's last.
        let took = taken(7, 3, |_, _| true);
        assert_eq!(took, [vec![0, 1, 6], vec![2, 3], vec![4, 5]]);
        // A job alone takes every share, its own first.
        assert_eq!(taken(7, 3, |_, job| job == 1)[1], [2, 3, 4, 5, 6, 0, 1]);
    }

    #[test]
    fn a_job_that_starts_late_finds_the_rest_shared() {
        // Job 1 starts after job 0 has taken six tasks, four of them from job 1's share.
        let took = taken(10, 2, |round, job| job == 0 || round >= 6);
        every_task_once(&took, 10);
        assert_eq!(took[0][..6], [0, 1, 2, 3, 4, 5]);
        // From then on the two take job 1's remaining tasks in turn.
        assert_eq!(took[0][6..], [6, 8]);
        assert_eq!(took[1], [7, 9]);
    }

    #[test]
    fn every_task_is_taken_once_whatever_the_counts() {
        for tasks in [0, 1, 2, 5, 16, 33] {
            for jobs in 1..=5 {
                let took = taken(tasks, jobs, |round, job| (round + job) % 3 != 0);
                every_task_once(&took, tasks);
            }
        }
    }
}
