//! Running a thread on compiled code: the loop around [`Compiled::run`] that draws fuel and
//! hands single instructions to the interpreter when compiled code asks for it, and the bodies
//! of the helpers compiled code calls (the `enter` module only turns pointers into references).

use super::context::JitCtx;
use super::enter::Compiled;
use super::status;
use crate::error::{Fault, TrapKind};
use crate::exec::{FUEL_CHUNK, Fuel, MemCtx, Meter, RunEnd, Stop};
use crate::machine::Thread;

/// What compiled code keeps from one thread to the next on one worker: its context (with the
/// memory windows its messages found, `JitCtx::windows`) and the fuel drawn and not yet
/// used. A launch loop keeps one for a whole range of threads; [`CompiledRun::finish`] gives
/// the fuel back.
pub(crate) struct CompiledRun {
    ctx: JitCtx,
    budget: u64,
}

impl CompiledRun {
    pub(crate) fn new() -> CompiledRun {
        CompiledRun {
            ctx: JitCtx::new(),
            budget: 0,
        }
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
                    if meter.budget < needed
                        && let Some(stop) = self.interpret_one(mem, fuel, meter)?
                    {
                        return Ok(stop);
                    }
                }
                // `INTERPRET` (an entry point compiled code does not have, or the end of the
                // code), or a trap whose fault went missing: the interpreter runs the
                // instruction (and raises the trap again).
                _ => {
                    self.pc = pc;
                    if let Some(stop) = self.interpret_one(mem, fuel, meter)? {
                        return Ok(stop);
                    }
                }
            }
        }
    }
}
