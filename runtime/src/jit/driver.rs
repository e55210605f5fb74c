//! Running a thread on compiled code: the loop around [`Compiled::run`] that draws fuel and
//! hands single instructions to the interpreter when compiled code asks for it, and the bodies
//! of the helpers compiled code calls (the `enter` module only turns pointers into references).

use super::bound_addresses::materialise;
use super::context::{JitCtx, Window};
use super::enter::Compiled;
use super::status;
use crate::error::{Fault, TrapKind};
use crate::exec::{FUEL_CHUNK, Fuel, MemCtx, Meter, RunEnd, Stop};
use crate::launch::ids::ThreadPlace;
use crate::machine::Thread;
use crate::machine::lane_pointers::LanePointers;

/// What compiled code keeps from one thread to the next on one worker: its context (with the
/// memory windows its messages found, `JitCtx::windows`) and the fuel drawn and not yet
/// used. A launch loop keeps one for a whole range of threads; [`CompiledRun::finish`] gives
/// the fuel back.
pub(crate) struct CompiledRun {
    ctx: JitCtx,
    budget: u64,
    /// `JitCtx::pending` of a starting thread: one bit per deferred binding.
    deferred_bits: u64,
}

impl CompiledRun {
    pub(crate) fn new() -> CompiledRun {
        CompiledRun {
            ctx: JitCtx::new(),
            budget: 0,
            deferred_bits: 0,
        }
    }

    /// A run of `code` whose threads start without the per-lane SVM pointers of `deferred`
    /// written (bindings `code.addresses` computes, at most 64): its messages compute them,
    /// and they are written when anything else may read them (`bound_addresses`), or at the
    /// thread's end when they are `captured`.
    pub(crate) fn with_pointers(
        code: &Compiled,
        deferred: &[LanePointers],
        captured: bool,
    ) -> CompiledRun {
        let mut run = CompiledRun::new();
        let deferred = &deferred[..deferred.len().min(64)];
        let ctx = &mut run.ctx;
        ctx.window_cache.resize(code.windows, Window::default());
        code.addresses.describe(deferred, &mut ctx.window_cache);
        ctx.deferred = deferred.to_vec();
        ctx.capture_pointers = captured;
        run.deferred_bits = u64::MAX
            .checked_shr(64 - deferred.len() as u32)
            .unwrap_or(0);
        run
    }

    /// Runs `count` threads one after another on `thread`, started as the first of them (at
    /// `first` in a grid of `per_group` threads per group and `simd` channels per thread),
    /// each next one the next thread of the grid. Only for code whose threads change nothing
    /// but registers and the execution mask (`Compiled::straight`) and threads that start with
    /// the same registers the previous one left but for their ids ([`Launch`](crate::Launch)'s
    /// trivial thread start): each starts with `thread`'s execution mask, its pointers pending
    /// and its ids written. On a fault, the index of the thread that raised it with the pc and
    /// the fault.
    pub(crate) fn run_threads(
        &mut self,
        thread: &mut Thread<'_>,
        code: &Compiled,
        (mem, fuel): (&MemCtx<'_>, &Fuel),
        (first, per_group, simd, count): (ThreadPlace, u32, u32, u64),
    ) -> Result<(), (u64, usize, Fault)> {
        let item_step = u64::from(simd);
        let first_item = u64::from(first.global) * item_step;
        self.start_thread(first_item);
        let ctx = &mut self.ctx;
        ctx.threads_left = count.saturating_sub(1);
        ctx.item_step = item_step;
        ctx.next_pending = self.deferred_bits;
        ctx.start_em = thread.em;
        ctx.group = u64::from(first.group);
        ctx.in_group = u64::from(first.in_group);
        ctx.global = u64::from(first.global);
        ctx.per_group = u64::from(per_group);
        ctx.simd = u64::from(simd);
        let result = thread.run_compiled_in(code, mem, fuel, self);
        let ctx = &mut self.ctx;
        ctx.threads_left = 0;
        let index = (ctx.first_item - first_item)
            .checked_div(item_step)
            .unwrap_or(0);
        result.map(|_| ()).map_err(|(pc, fault)| (index, pc, fault))
    }

    /// Prepares the run for the thread whose lane 0 is work-item `first_item`: its deferred
    /// pointers are pending.
    pub(crate) fn start_thread(&mut self, first_item: u64) {
        self.ctx.first_item = first_item;
        self.ctx.pending = self.deferred_bits;
    }

    /// Returns the fuel drawn and not used to `fuel`.
    pub(crate) fn finish(&mut self, fuel: &Fuel) {
        fuel.refund(std::mem::take(&mut self.budget));
    }
}

impl Thread<'_> {
    /// [`Thread::run`] on compiled code.
    pub(crate) fn run_compiled(
        &mut self,
        code: &Compiled,
        mem: &MemCtx<'_>,
        fuel: &Fuel,
    ) -> RunEnd {
        let mut run = CompiledRun::new();
        let result = self.run_compiled_in(code, mem, fuel, &mut run);
        run.finish(fuel);
        result
    }

    /// [`Thread::run_compiled`] with the context and fuel `run` kept from earlier threads
    /// (the fuel left stays in `run`).
    pub(crate) fn run_compiled_in(
        &mut self,
        code: &Compiled,
        mem: &MemCtx<'_>,
        fuel: &Fuel,
        run: &mut CompiledRun,
    ) -> RunEnd {
        let mut meter = Meter {
            budget: run.budget,
            steps: self.executed,
        };
        let result = self.compiled_loop(code, mem, fuel, &mut run.ctx, &mut meter);
        run.budget = meter.budget;
        result
    }

    fn compiled_loop(
        &mut self,
        code: &Compiled,
        mem: &MemCtx<'_>,
        fuel: &Fuel,
        ctx: &mut JitCtx,
        meter: &mut Meter,
    ) -> RunEnd {
        ctx.fault = None;
        loop {
            ctx.pc = self.pc as i64;
            ctx.em = self.em;
            ctx.budget = meter.budget as i64;
            let exit = code.run(ctx, self, mem);
            // Compiled code only charges fuel it was given, and refunds only what it charged.
            let left = u64::try_from(ctx.budget).unwrap_or(0).min(meter.budget);
            meter.steps += meter.budget - left;
            meter.budget = left;
            self.em = ctx.em;
            let pc = usize::try_from(ctx.pc).unwrap_or(usize::MAX);
            match exit {
                status::FINISHED => {
                    if ctx.capture_pointers && ctx.pending != 0 {
                        materialise(ctx, self);
                    }
                    self.executed = meter.steps;
                    self.ended = true;
                    return Ok(Stop::Finished);
                }
                status::BARRIER => {
                    // (The handler left the resume point in `self.pc`.)
                    self.executed = meter.steps;
                    return Ok(Stop::Barrier);
                }
                status::TRAP if ctx.fault.is_some() => {
                    let fault = ctx
                        .fault
                        .take()
                        .unwrap_or(Fault::new(TrapKind::OutOfFuel(0)));
                    return Err((pc, fault));
                }
                status::FUEL => {
                    self.pc = pc;
                    let needed = u64::try_from(ctx.needed).unwrap_or(0);
                    if meter.budget < needed {
                        meter.budget += fuel.draw(FUEL_CHUNK.max(needed - meter.budget));
                    }
                    // Too little fuel for the whole block: the interpreter runs it one
                    // instruction at a time and traps exactly where the fuel runs out.
                    if meter.budget < needed {
                        materialise(ctx, self);
                        if let Some(stop) = self.interpret_one(mem, fuel, meter)?
                            && !self.next_in_batch(code, ctx, stop)
                        {
                            return Ok(stop);
                        }
                    }
                }
                // `INTERPRET` (an entry point compiled code does not have, or the end of the
                // code), or a trap whose fault went missing: the interpreter runs the
                // instruction (and raises the trap again).
                _ => {
                    self.pc = pc;
                    materialise(ctx, self);
                    if let Some(stop) = self.interpret_one(mem, fuel, meter)?
                        && !self.next_in_batch(code, ctx, stop)
                    {
                        return Ok(stop);
                    }
                }
            }
        }
    }
}

impl Thread<'_> {
    /// After the interpreter ended a thread of a batch with threads left: the next thread
    /// starts (as compiled code starts it at the end of the code, `lower`). Whether it did.
    fn next_in_batch(&mut self, code: &Compiled, ctx: &mut JitCtx, stop: Stop) -> bool {
        if !matches!(stop, Stop::Finished) || ctx.threads_left == 0 {
            return false;
        }
        ctx.threads_left -= 1;
        ctx.first_item = ctx.first_item.wrapping_add(ctx.item_step);
        ctx.pending = ctx.next_pending;
        self.em = ctx.start_em;
        self.pc = 0;
        self.ended = false;
        if code.ids.any() {
            let place = ThreadPlace {
                group: ctx.group as u32,
                in_group: ctx.in_group as u32,
                global: ctx.global as u32,
            }
            .next(ctx.per_group as u32);
            ctx.group = u64::from(place.group);
            ctx.in_group = u64::from(place.in_group);
            ctx.global = u64::from(place.global);
            code.ids.write(self, place, ctx.simd as u32);
        }
        true
    }
}
