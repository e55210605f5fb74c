//! The interpreter loop of one thread.

mod access;
pub(crate) mod alu;
pub(crate) mod atomic;
mod block2d;
pub(crate) mod calls;
mod dpas;
pub(crate) mod fast;
mod fast_float;
#[cfg(test)]
mod fast_float_tests;
mod fast_mem;
#[cfg(test)]
mod fast_mem_tests;
#[cfg(test)]
mod fast_tests;
pub(crate) mod flow;
mod fp8;
mod int_lanes;
#[cfg(test)]
mod int_ops_tests;
mod lsc;
pub(crate) mod math;
pub(crate) mod mem;
mod mem_gather;
pub(crate) mod movs;
pub(crate) mod nbarrier;
mod plane;
pub(crate) mod rounding;
mod sad;
pub(crate) mod sbarrier;

use std::sync::atomic::{AtomicU64, Ordering};

use crate::error::{Fault, TrapKind};
use crate::machine::Thread;
use crate::ops::Op;
pub(crate) use access::{MemCtx, Target, table_entry};
use flow::Next;

pub(crate) use crate::machine::{lane_numbers, lanes_of};

/// The instruction budget of a launch, shared by its threads through each rayon worker's
/// [`Fuel`].
pub(crate) struct FuelPool {
    pub limit: u64,
    /// Steps drawn so far (shared with a progress display, [`crate::Launch::steps_counter`]).
    pub used: std::sync::Arc<AtomicU64>,
    /// The launch's cancel flag ([`crate::Launch::cancel_flag`]): once set, no more fuel is
    /// granted, so running threads stop within a chunk of instructions.
    pub cancel: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
    /// Steps a worker takes from the pool at a time.
    pub refill: u64,
}

/// Steps a thread draws at a time.
pub(crate) const FUEL_CHUNK: u64 = 1024;

impl FuelPool {
    /// A pool of `limit` steps for `workers` workers: each takes up to a 64th of its share at a
    /// time (at least [`FUEL_CHUNK`], at most 64 chunks), so a thread can run out at most that
    /// much early while other workers hold steps they have not used.
    pub(crate) fn new(
        limit: u64,
        used: std::sync::Arc<AtomicU64>,
        cancel: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
        workers: usize,
    ) -> FuelPool {
        let share = limit / 64 / (workers.max(1) as u64);
        FuelPool {
            limit,
            used,
            cancel,
            refill: share.clamp(FUEL_CHUNK, 64 * FUEL_CHUNK),
        }
    }

    /// Takes up to `steps` from the pool; returns how many were granted.
    fn take(&self, steps: u64) -> u64 {
        let previous = self
            .used
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |used| {
                (used < self.limit).then(|| used + steps.min(self.limit - used))
            });
        match previous {
            Ok(used) => steps.min(self.limit - used),
            Err(_) => 0,
        }
    }

    fn cancelled(&self) -> bool {
        self.cancel
            .as_ref()
            .is_some_and(|flag| flag.load(Ordering::Relaxed))
    }
}

/// A rayon worker's share of a launch's fuel. Its threads draw from its reserve, which takes
/// steps from the [`FuelPool`] [`FuelPool::refill`] at a time: a pool counter touched by every
/// thread would cost two contended atomic operations per thread on every core.
pub(crate) struct Fuel<'p> {
    pool: &'p FuelPool,
    reserve: std::cell::Cell<u64>,
}

impl<'p> Fuel<'p> {
    pub(crate) fn new(pool: &'p FuelPool) -> Fuel<'p> {
        Fuel {
            pool,
            reserve: std::cell::Cell::new(0),
        }
    }

    /// Takes up to `steps` from the budget; returns how many were granted (0: exhausted or
    /// cancelled, see [`Fuel::out`]).
    pub(crate) fn draw(&self, steps: u64) -> u64 {
        if self.pool.cancelled() {
            return 0;
        }
        let mut reserve = self.reserve.get();
        if reserve < steps {
            reserve += self.pool.take(self.pool.refill.max(steps - reserve));
        }
        let granted = steps.min(reserve);
        self.reserve.set(reserve - granted);
        granted
    }

    /// Takes up to `steps` of what the reserve holds, never from the pool (so another worker
    /// is not left short by more than a refill); returns how many were granted.
    pub(crate) fn draw_held(&self, steps: u64) -> u64 {
        if self.pool.cancelled() {
            return 0;
        }
        let reserve = self.reserve.get();
        let granted = steps.min(reserve);
        self.reserve.set(reserve - granted);
        granted
    }

    /// Why no fuel was granted: the launch was cancelled, or the budget is spent.
    pub(crate) fn out(&self) -> TrapKind {
        if self.pool.cancelled() {
            TrapKind::Cancelled
        } else {
            TrapKind::OutOfFuel(self.pool.limit)
        }
    }

    /// Gives back steps drawn but not executed.
    pub(crate) fn refund(&self, steps: u64) {
        self.reserve.set(self.reserve.get() + steps);
    }

    /// Returns the reserve to the pool (at the end of a worker's task), so that the pool
    /// counts executed instructions once every task has ended.
    pub(crate) fn flush(&self) {
        self.pool
            .used
            .fetch_sub(self.reserve.take(), Ordering::Relaxed);
    }
}

/// Why [`Thread::run`] returned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Stop {
    /// The thread ended.
    Finished,
    /// The thread reached a `barrier`; it resumes after it when run again.
    Barrier,
}

/// How a thread's run ended: why it returned, or the fault that stopped it and the pc of the
/// instruction that raised it.
pub(crate) type RunEnd = Result<Stop, (usize, Fault)>;

/// Fuel drawn from the launch's [`Fuel`] and not yet used, and the thread's executed-instruction
/// count, carried across the instructions of one [`Thread::run`].
pub(crate) struct Meter {
    pub budget: u64,
    pub steps: u64,
}

impl Thread<'_> {
    /// Runs until the thread ends or reaches a barrier; on a fault returns the pc it happened
    /// at.
    pub(crate) fn run(&mut self, mem: &MemCtx, fuel: &Fuel) -> RunEnd {
        self.run_seeing(mem, fuel, |_| {})
    }

    /// [`Thread::run`], noting every instruction executed in `Program::reached` (the blocks
    /// the compiled tier's lazy builds compile).
    pub(crate) fn run_noting(&mut self, mem: &MemCtx, fuel: &Fuel) -> RunEnd {
        let program = self.program;
        self.run_seeing(mem, fuel, |pc| program.note_reached(pc))
    }

    /// [`Thread::run`], showing `see` each instruction's pc before it runs.
    fn run_seeing(&mut self, mem: &MemCtx, fuel: &Fuel, mut see: impl FnMut(usize)) -> RunEnd {
        let mut meter = Meter {
            budget: 0,
            steps: self.executed,
        };
        loop {
            see(self.pc);
            if let Some(stop) = self.interpret_one(mem, fuel, &mut meter)? {
                return Ok(stop);
            }
        }
    }

    /// Executes the instruction at `self.pc` (rejoining parked channels first, drawing fuel
    /// as needed); `Some` when the thread stopped. On a stop or a fault the unused fuel goes
    /// back to the launch.
    #[inline(always)]
    pub(crate) fn interpret_one(
        &mut self,
        mem: &MemCtx,
        fuel: &Fuel,
        meter: &mut Meter,
    ) -> Result<Option<Stop>, (usize, Fault)> {
        let program = self.program;
        if !program.joins.is_empty() {
            self.rejoin(self.pc);
        }
        let pc = self.pc;
        if self.entered_by_call {
            self.entered_by_call = false;
        } else if !program.subroutines.is_empty() && program.subroutines.binary_search(&pc).is_ok()
        {
            fuel.refund(std::mem::take(&mut meter.budget));
            return Err((pc, Fault::new(TrapKind::SubroutineWithoutCall { pc })));
        }
        let Some(instr) = program.code.get(pc) else {
            if let Some((_, mask)) = self.first_waiting() {
                fuel.refund(std::mem::take(&mut meter.budget));
                return Err((
                    pc.saturating_sub(1),
                    Fault::new(TrapKind::WaitingAtEnd { mask }),
                ));
            }
            fuel.refund(std::mem::take(&mut meter.budget));
            self.executed = meter.steps;
            self.ended = true;
            return Ok(Some(Stop::Finished));
        };
        if meter.budget == 0 {
            meter.budget = fuel.draw(FUEL_CHUNK);
            if meter.budget == 0 {
                return Err((pc, Fault::new(fuel.out())));
            }
        }
        meter.budget -= 1;
        meter.steps += 1;
        if let Some(offset) = program.ce0_offset {
            let em = self.em;
            let _ = self.store(offset, 4, u64::from(em), 0);
        }
        if let Some(offset) = program.tsc_offset {
            let steps = meter.steps;
            let _ = self.store(offset, 4, steps & 0xffff_ffff, 0);
            let _ = self.store(offset + 4, 4, steps >> 32, 0);
        }
        let next = match self.step(instr, mem) {
            Ok(next) => next,
            Err(fault) => {
                fuel.refund(std::mem::take(&mut meter.budget));
                return Err((pc, fault));
            }
        };
        match next {
            Next::Goto(target) => {
                self.pc = target;
                Ok(None)
            }
            Next::Finish => {
                fuel.refund(std::mem::take(&mut meter.budget));
                self.executed = meter.steps;
                self.ended = true;
                Ok(Some(Stop::Finished))
            }
            Next::Barrier(resume) => {
                fuel.refund(std::mem::take(&mut meter.budget));
                self.executed = meter.steps;
                self.pc = resume;
                Ok(Some(Stop::Barrier))
            }
        }
    }

    pub(crate) fn step(&mut self, op: &Op, mem: &MemCtx) -> Result<Next, Fault> {
        let next = Next::Goto(self.pc + 1);
        match op {
            Op::Alu(a) => self.exec_alu(a)?,
            Op::FastAlu(f) => self.exec_fast_alu(f)?,
            Op::FastCmp(c) => self.exec_fast_cmp(c)?,
            Op::FastFloat(f) => self.exec_fast_float(f)?,
            Op::AddCarry(c) => {
                self.exec_carry(c.subtract, c.exec, c.pred, &c.dst, &c.carry, &c.srcs)?
            }
            Op::Cmp {
                rel,
                exec,
                dst,
                srcs,
            } => self.exec_cmp(*rel, *exec, dst, srcs)?,
            Op::Setp { exec, dst, src } => self.exec_setp(*exec, *dst, src)?,
            Op::PredLogic {
                op,
                exec,
                dst,
                a,
                b,
            } => self.exec_pred_logic(*op, *exec, *dst, *a, *b)?,
            Op::Jmp { exec, pred, target } => return self.exec_jmp(*exec, *pred, *target),
            Op::Goto { exec, pred, target } => return self.exec_goto(*exec, *pred, *target),
            Op::SwitchJmp(s) => return self.exec_switchjmp(s),
            Op::Ret { exec, pred } => return self.exec_ret(*exec, *pred),
            Op::Call { exec, pred, target } => return self.exec_call(*exec, *pred, *target),
            Op::Fcall {
                exec,
                pred,
                function,
                arg_size,
                ret_size,
            } => return self.exec_fcall(*exec, *pred, *function, *arg_size, *ret_size),
            Op::Fret { exec, pred } => return self.exec_fret(*exec, *pred),
            Op::EndOfObject { function } => return self.end_of_object(*function),
            Op::NamedBarrier(b) => return self.exec_nbarrier(b, mem.named_barriers),
            Op::Sad2(s) => self.exec_sad2(s)?,
            Op::Plane(p) => self.exec_plane(p)?,
            Op::Movs(m) => self.exec_movs(m)?,
            Op::Fp8(c) => self.exec_fp8(c)?,
            Op::Dpas(d) => self.exec_dpas(d)?,
            Op::GatherScaled(g) => self.exec_gather_scaled(g, mem, false)?,
            Op::ScatterScaled(g) => self.exec_gather_scaled(g, mem, true)?,
            Op::OwordLd(o) => self.exec_oword(o, mem, false)?,
            Op::OwordSt(o) => self.exec_oword(o, mem, true)?,
            Op::SvmGather(s) => self.exec_svm_scattered(s, mem, false)?,
            Op::SvmScatter(s) => self.exec_svm_scattered(s, mem, true)?,
            Op::SvmBlockLd(b) => self.exec_svm_block(b, mem, false)?,
            Op::SvmBlockSt(b) => self.exec_svm_block(b, mem, true)?,
            Op::Gather4(g) => self.exec_gather4(g, mem, false)?,
            Op::Scatter4(g) => self.exec_gather4(g, mem, true)?,
            Op::Gather(g) => self.exec_legacy_scattered(g, mem, false)?,
            Op::Scatter(g) => self.exec_legacy_scattered(g, mem, true)?,
            Op::QwGather(q) => self.exec_qw_scattered(q, mem, false)?,
            Op::QwScatter(q) => self.exec_qw_scattered(q, mem, true)?,
            Op::Atomic(a) => self.exec_atomic(a, mem)?,
            Op::Block2d(b) => self.exec_block2d(b, mem)?,
            Op::Block2dPayload(b) => self.exec_block2d_payload(b, mem)?,
            Op::GatewayBarrier(payload) => {
                // Only the bytes the payload fields cover are read (a kernel writes only those).
                let mut bytes = [0u8; 32];
                let (lo, hi) = visa_isa::messages::gateway::FIELDS
                    .iter()
                    .filter(|f| f.word == visa_isa::messages::Word::Payload)
                    .fold((u32::MAX, 0), |(lo, hi), f| {
                        (lo.min(f.lo / 8), hi.max(f.hi / 8 + 1))
                    });
                if let Some(span) = bytes.get_mut(lo as usize..hi as usize) {
                    self.read_raw(payload, lo, span, None)?;
                }
                let p = visa_isa::messages::gateway::Payload(&bytes);
                let signal =
                    (|| Some((p.barrier_type()?.code(), p.producers()?, p.consumers()?)))();
                return self.nbarrier_step(p.barrier_id().unwrap_or(0), signal, mem.named_barriers);
            }
            Op::Lsc(l) => self.exec_lsc(l, mem)?,
            Op::Barrier => return self.exec_group_barrier(true, true, mem.group_barrier),
            Op::SplitBarrier { signal } => {
                return self.exec_group_barrier(*signal, !*signal, mem.group_barrier);
            }
            Op::Nop => {}
        }
        Ok(next)
    }
}
