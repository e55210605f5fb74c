//! Control flow: `jmp`, SIMD-divergent `goto` with reconvergence, kernel-level `ret`.
//!
//! Per thread, `waiting` holds the channels parked by a goto at each join point of the program
//! (`crate::joins`); the interpreter ORs them back into the execution mask whenever it reaches
//! that instruction (runtime-semantics §8.3). Where channels wait at several points, traps
//! name the earliest.

use crate::error::{Fault, TrapKind};
use crate::machine::Thread;
use crate::machine::frames::{CallFrame, FunctionCall};
use crate::ops::{ExecCtl, PredCtl, SwitchJmp};

/// What the interpreter does after a control-flow instruction.
pub(crate) enum Next {
    Goto(usize),
    Finish,
    /// Continue at the given instruction once the group's barrier is released.
    Barrier(usize),
}

impl Thread<'_> {
    /// Parks `channels` at instruction `pc`, a join point of the program.
    fn park(&mut self, pc: usize, channels: u32) {
        let slot = self.program.joins.index(pc);
        debug_assert!(slot.is_some(), "goto parks at {pc}, not a join point");
        if let Some(mask) = slot.and_then(|i| self.waiting.get_mut(i)) {
            *mask |= channels;
        }
    }

    /// Channels parked at instruction `pc` join the execution mask.
    #[inline]
    pub(crate) fn rejoin(&mut self, pc: usize) {
        if let Some(mask) = self
            .program
            .joins
            .index(pc)
            .and_then(|i| self.waiting.get_mut(i))
        {
            self.em |= std::mem::take(mask);
        }
    }

    /// The first join point among `slots` (indices of `Program::joins`) where channels wait:
    /// its instruction and mask.
    fn first_waiting_in(&self, slots: std::ops::Range<usize>) -> Option<(usize, u32)> {
        let joins = &self.program.joins;
        let masks = self.waiting.get(slots.clone()).unwrap_or_default();
        slots
            .zip(masks)
            .find(|(_, mask)| **mask != 0)
            .map(|(i, mask)| (joins.pc(i), *mask))
    }

    /// The earliest instruction where channels wait, and their mask.
    pub(crate) fn first_waiting(&self) -> Option<(usize, u32)> {
        self.first_waiting_in(0..self.waiting.len())
    }

    /// The nearest later instruction where channels wait.
    pub(crate) fn next_waiting_after(&self, pc: usize) -> Option<usize> {
        self.first_waiting_in(self.program.joins.after(pc))
            .map(|(at, _)| at)
    }

    /// Whether a uniform branch is taken: the first channel of PMask, or always without a
    /// predicate.
    fn uniform_condition(&self, exec: ExecCtl, pred: Option<PredCtl>) -> Result<bool, Fault> {
        match pred {
            Some(p) => Ok(self.pred_mask(exec, p)? & 1 != 0),
            None => Ok(true),
        }
    }

    pub(crate) fn exec_jmp(
        &mut self,
        exec: ExecCtl,
        pred: Option<PredCtl>,
        target: usize,
    ) -> Result<Next, Fault> {
        if !self.uniform_condition(exec, pred)? {
            return Ok(Next::Goto(self.pc + 1));
        }
        self.uniform_jump(target)
    }

    /// `switchjmp`: jumps to the label its index selects; an index past the table traps.
    pub(crate) fn exec_switchjmp(&mut self, s: &SwitchJmp) -> Result<Next, Fault> {
        let index = self.scalar_u64(&s.index)?;
        let target = usize::try_from(index)
            .ok()
            .and_then(|i| s.targets.get(i))
            .ok_or(Fault::new(TrapKind::SwitchIndex {
                index,
                labels: s.targets.len(),
            }))?;
        self.uniform_jump(*target)
    }

    /// The whole thread continues at `target`, unless that skips an instruction where channels
    /// parked by a goto wait to rejoin.
    fn uniform_jump(&self, target: usize) -> Result<Next, Fault> {
        if let Some((skipped, mask)) =
            self.first_waiting_in(self.program.joins.between(self.pc, target))
        {
            return Err(Fault::new(TrapKind::JumpOverWaiting { skipped, mask }));
        }
        Ok(Next::Goto(target))
    }

    pub(crate) fn exec_goto(
        &mut self,
        exec: ExecCtl,
        pred: Option<PredCtl>,
        target: usize,
    ) -> Result<Next, Fault> {
        let window = exec.lanes() << exec.offset;
        let active = self.em & window;
        let (take, stay) = match pred {
            Some(p) if exec.size > 1 => {
                let pmask = self.pred_mask_checked(exec, p, active >> exec.offset)? << exec.offset;
                (active & pmask, active & !pmask)
            }
            _ => {
                // Uniform goto: every active channel follows the (first) predicate bit.
                if self.uniform_condition(exec, pred)? {
                    (self.em, 0)
                } else {
                    (0, self.em)
                }
            }
        };
        if target > self.pc {
            self.em &= !take;
            self.park(target, take);
            if self.em != 0 {
                return Ok(Next::Goto(self.pc + 1));
            }
            return match self.next_waiting_after(self.pc) {
                Some(at) => Ok(Next::Goto(at)),
                None => Err(Fault::new(TrapKind::NoReconvergencePoint)),
            };
        }
        if take == 0 {
            return Ok(Next::Goto(self.pc + 1));
        }
        self.em &= !stay;
        self.park(self.pc + 1, stay);
        Ok(Next::Goto(target))
    }

    /// `call` (CALL.md): a scalar call keeps the execution mask and sets an all-ones call mask;
    /// a wider one enters with the active, predicated channels (and is skipped without any).
    pub(crate) fn exec_call(
        &mut self,
        exec: ExecCtl,
        pred: Option<PredCtl>,
        target: usize,
    ) -> Result<Next, Fault> {
        // Subroutines of the current function activation (a recursive function has its own).
        if self
            .frames
            .iter()
            .rev()
            .take_while(|frame| frame.function.is_none())
            .any(|frame| frame.target == target)
        {
            return Err(Fault::new(TrapKind::RecursiveCall { target }));
        }
        let Some((call_mask, em)) = self.call_masks(exec, pred)? else {
            return Ok(Next::Goto(self.pc + 1));
        };
        self.enter(target, call_mask, em, None);
        Ok(Next::Goto(target))
    }

    /// The call and execution masks a `call`/`fcall` enters with, or `None` when it is not
    /// taken (CALL.md, FCALL.md).
    pub(crate) fn call_masks(
        &self,
        exec: ExecCtl,
        pred: Option<PredCtl>,
    ) -> Result<Option<(u32, u32)>, Fault> {
        if exec.size == 1 {
            return Ok(self
                .uniform_condition(exec, pred)?
                .then_some((u32::MAX, self.em)));
        }
        let entering = self.channel_enables(exec, pred)? << exec.offset;
        Ok((entering != 0).then_some((entering, entering)))
    }

    /// The channels parked so far, for a call frame (empty when none are); none are parked
    /// afterwards. The table itself stays in place (compiled code holds its address).
    fn take_waiting(&mut self) -> Vec<u32> {
        if self.waiting.iter().all(|mask| *mask == 0) {
            return Vec::new();
        }
        let saved = self.waiting.clone();
        self.waiting.fill(0);
        saved
    }

    /// Pushes a frame returning after the current instruction and enters `target`.
    pub(crate) fn enter(
        &mut self,
        target: usize,
        call_mask: u32,
        em: u32,
        function: Option<Box<FunctionCall>>,
    ) {
        let waiting = self.take_waiting();
        self.frames.push(CallFrame {
            target,
            return_pc: self.pc + 1,
            call_mask: self.call_mask,
            em: self.em,
            waiting,
            function,
        });
        self.call_mask = call_mask;
        self.em = em;
        self.entered_by_call = true;
    }

    /// Leaves the innermost subroutine or function, restoring the caller's masks (RET.md) and,
    /// for a function, its storage and `%arg` / `%retval` (FRET.md).
    pub(crate) fn leave_subroutine(&mut self) -> Result<Next, Fault> {
        if let Some((_, mask)) = self.first_waiting() {
            return Err(Fault::new(TrapKind::WaitingAtEnd { mask }));
        }
        let Some(frame) = self.frames.pop() else {
            return Ok(Next::Finish);
        };
        self.call_mask = frame.call_mask;
        self.em = frame.em;
        // Nothing waits in the callee (checked above): the caller's table comes back.
        if frame.waiting.len() == self.waiting.len() {
            self.waiting.copy_from_slice(&frame.waiting);
        }
        if let Some(call) = frame.function {
            self.return_from_function(&call);
        }
        Ok(Next::Goto(frame.return_pc))
    }

    /// The channel bookkeeping shared by `ret` in a subroutine and `fret`: scalar returns are
    /// uniform; wider ones retire their channels and return when the call mask is empty.
    pub(crate) fn return_channels(
        &mut self,
        exec: ExecCtl,
        pred: Option<PredCtl>,
    ) -> Result<Next, Fault> {
        if exec.size == 1 {
            return if self.uniform_condition(exec, pred)? {
                self.leave_subroutine()
            } else {
                Ok(Next::Goto(self.pc + 1))
            };
        }
        let leaving = self.channel_enables(exec, pred)? << exec.offset;
        self.call_mask &= !leaving;
        self.em &= !leaving;
        if self.call_mask == 0 {
            return self.leave_subroutine();
        }
        if self.em != 0 {
            return Ok(Next::Goto(self.pc + 1));
        }
        // No channel is active: resume parked ones, or return when none is left.
        match self.next_waiting_after(self.pc) {
            Some(at) => Ok(Next::Goto(at)),
            None => self.leave_subroutine(),
        }
    }

    pub(crate) fn exec_ret(&mut self, exec: ExecCtl, pred: Option<PredCtl>) -> Result<Next, Fault> {
        if let Some(frame) = self.frames.last() {
            if frame.function.is_some() {
                return Err(Fault::new(TrapKind::RetInFunction));
            }
            return self.return_channels(exec, pred);
        }
        if exec.size == 1 {
            return Ok(if self.uniform_condition(exec, pred)? {
                Next::Finish
            } else {
                Next::Goto(self.pc + 1)
            });
        }
        let leaving = self.channel_enables(exec, pred)? << exec.offset;
        self.em &= !leaving;
        if self.em != 0 {
            return Ok(Next::Goto(self.pc + 1));
        }
        Ok(match self.next_waiting_after(self.pc) {
            Some(at) => Next::Goto(at),
            None => Next::Finish,
        })
    }
}
