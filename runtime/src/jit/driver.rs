//! Running a thread on compiled code: the loop around [`Compiled::run`] that draws fuel and
//! hands single instructions to the interpreter when compiled code asks for it, and the bodies
//! of the helpers compiled code calls (the `enter` module only turns pointers into references).

use std::ops::Range;

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

/// What the next thread of a batch gets from the launch's thread template: the register
/// ranges a thread of the launch loop restores (`ThreadStart::restored`), as the 16-byte
/// chunks compiled code copies, and the template's predicates and state slots. Copying a
/// byte more than the ranges hold is harmless: any register byte a thread starts with is the
/// template's, written afresh by the start after (ids; pointers are pending), or written by
/// every thread before it is read.
pub(crate) struct BatchStart<'t, 'a> {
    template: &'t Thread<'a>,
    restored: &'t [Range<usize>],
    chunks: Vec<u32>,
}

/// Steps compiled code draws at a time, as far as its worker holds them already (`Fuel::draw_held`):
/// each draw is a way out of compiled code and back in, which costs about as much as a loop
/// trip of a small kernel, so it draws more than the interpreter (what it does not use goes
/// back at the end of the task, `CompiledRun::finish`).
const COMPILED_DRAW: u64 = 16 * FUEL_CHUNK;

impl<'t, 'a> BatchStart<'t, 'a> {
    /// `None` when a chunk would leave the template's register file or the template lacks a
    /// predicate word or state slot of its program (a thread started from it has them all).
    pub(crate) fn new(
        template: &'t Thread<'a>,
        restored: &'t [Range<usize>],
    ) -> Option<BatchStart<'t, 'a>> {
        let layout = &template.program.layout;
        if template.preds.len() != layout.predicates.len()
            || template.states.len() < layout.state_slots as usize
        {
            return None;
        }
        let mut chunks: Vec<u32> = Vec::new();
        for range in restored {
            let mut at = range.start & !15;
            while at < range.end {
                if at + 16 > template.grf.len() {
                    return None;
                }
                if chunks.last() != Some(&(at as u32)) {
                    chunks.push(u32::try_from(at).ok()?);
                }
                at += 16;
            }
        }
        Some(BatchStart {
            template,
            restored,
            chunks,
        })
    }
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
    /// each next one the next thread of the grid. Only for code whose threads run in batches
    /// (`Compiled::batches`) and threads whose start writes nothing but their ids and what
    /// `start` restores ([`Launch`](crate::Launch)'s thread start without per-lane values or
    /// written pointers): each starts with `thread`'s execution mask, its registers restored,
    /// its predicates and state slots the template's, no channel parked, its pointers pending
    /// and its ids written. On a fault, the index of the thread that raised it with the pc and
    /// the fault.
    pub(crate) fn run_threads<'a>(
        &mut self,
        thread: &mut Thread<'a>,
        code: &Compiled,
        (mem, fuel): (&MemCtx<'_>, &Fuel),
        (first, per_group, simd, count): (ThreadPlace, u32, u32, u64),
        start: &BatchStart<'_, 'a>,
    ) -> Result<(), (u64, usize, Fault)> {
        let item_step = u64::from(simd);
        let first_item = u64::from(first.global) * item_step;
        self.start_thread(first_item);
        let ctx = &mut self.ctx;
        // `BatchStart::new` checked the chunks and counts against the template, which a
        // thread started from it matches (`Thread::restart`); otherwise compiled code leaves
        // each next start to `next_in_batch` (`JitCtx::restores` all ones, `lower`).
        let template = start.template;
        let fits = thread.grf.len() == template.grf.len()
            && thread.preds.len() == template.preds.len()
            && thread.states.len() <= template.states.len();
        ctx.restores = u64::MAX;
        if fits {
            ctx.template_grf = template.grf.as_ptr();
            ctx.template_preds = template.preds.as_ptr();
            ctx.template_states = template.states.as_ptr().cast::<u64>();
            ctx.restore = start.chunks.as_ptr();
            ctx.restores = start.chunks.len() as u64;
        }
        ctx.threads_left = count.saturating_sub(1);
        ctx.item_step = item_step;
        ctx.next_pending = self.deferred_bits;
        ctx.start_em = thread.em;
        ctx.group = u64::from(first.group);
        ctx.in_group = u64::from(first.in_group);
        ctx.global = u64::from(first.global);
        ctx.per_group = u64::from(per_group);
        ctx.simd = u64::from(simd);
        let result = thread.run_compiled_with(code, mem, fuel, self, Some(start));
        let ctx = &mut self.ctx;
        ctx.threads_left = 0;
        ctx.template_grf = std::ptr::null();
        ctx.template_preds = std::ptr::null();
        ctx.template_states = std::ptr::null();
        ctx.restore = std::ptr::null();
        ctx.restores = 0;
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

impl<'p> Thread<'p> {
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
        self.run_compiled_with(code, mem, fuel, run, None)
    }

    /// [`Thread::run_compiled_in`], for the threads of a batch when `batch` is given
    /// (`CompiledRun::run_threads`).
    fn run_compiled_with(
        &mut self,
        code: &Compiled,
        mem: &MemCtx<'_>,
        fuel: &Fuel,
        run: &mut CompiledRun,
        batch: Option<&BatchStart<'_, 'p>>,
    ) -> RunEnd {
        let mut meter = Meter {
            budget: run.budget,
            steps: self.executed,
        };
        let result = self.compiled_loop(code, (mem, fuel), &mut run.ctx, &mut meter, batch);
        run.budget = meter.budget;
        result
    }

    fn compiled_loop(
        &mut self,
        code: &Compiled,
        (mem, fuel): (&MemCtx<'_>, &Fuel),
        ctx: &mut JitCtx,
        meter: &mut Meter,
        batch: Option<&BatchStart<'_, 'p>>,
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
                    // (Compiled code starts a batch's next thread itself unless it had no
                    // template to restore from, `run_threads`.)
                    if self.next_in_batch(code, ctx, batch, Stop::Finished) {
                        continue;
                    }
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
                        meter.budget += fuel.draw_held(COMPILED_DRAW.saturating_sub(meter.budget));
                    }
                    // Too little fuel for the whole block: the interpreter runs it one
                    // instruction at a time and traps exactly where the fuel runs out.
                    if meter.budget < needed {
                        materialise(ctx, self);
                        if let Some(stop) = self.interpret_one(mem, fuel, meter)?
                            && !self.next_in_batch(code, ctx, batch, stop)
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
                    if code.is_cold(pc) {
                        if let Some(stop) = self.run_cold(code, mem, fuel, meter)?
                            && !self.next_in_batch(code, ctx, batch, stop)
                        {
                            return Ok(stop);
                        }
                        continue;
                    }
                    if let Some(stop) = self.interpret_one(mem, fuel, meter)?
                        && !self.next_in_batch(code, ctx, batch, stop)
                    {
                        return Ok(stop);
                    }
                }
            }
        }
    }
}

impl<'p> Thread<'p> {
    /// Runs on the interpreter the instructions of the blocks `code` left to it (lazy blocks,
    /// `Lowering::Cold`) from `self.pc` until the thread leaves them or stops, noting each as
    /// reached for the program's next build, which `code.missed` asks for.
    fn run_cold(
        &mut self,
        code: &Compiled,
        mem: &MemCtx<'_>,
        fuel: &Fuel,
        meter: &mut Meter,
    ) -> Result<Option<Stop>, (usize, Fault)> {
        code.note_missed();
        while code.is_cold(self.pc) {
            self.program.note_reached(self.pc);
            if let Some(stop) = self.interpret_one(mem, fuel, meter)? {
                return Ok(Some(stop));
            }
        }
        Ok(None)
    }

    /// After a thread of a batch ended outside compiled code's own start of the next one (the
    /// interpreter ended it, or compiled code had no template) with threads left: the next
    /// thread starts, as compiled code starts it (`lower`). Whether it did.
    fn next_in_batch(
        &mut self,
        code: &Compiled,
        ctx: &mut JitCtx,
        batch: Option<&BatchStart<'_, 'p>>,
        stop: Stop,
    ) -> bool {
        let Some(start) = batch else {
            return false;
        };
        if !matches!(stop, Stop::Finished) || ctx.threads_left == 0 {
            return false;
        }
        ctx.threads_left -= 1;
        ctx.first_item = ctx.first_item.wrapping_add(ctx.item_step);
        ctx.pending = ctx.next_pending;
        self.restart(start.template, start.restored);
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
