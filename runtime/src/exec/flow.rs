//! Control flow: `jmp`, SIMD-divergent `goto` with reconvergence, kernel-level `ret`.
//!
//! Per thread, `waiting` holds channels parked by a goto together with the instruction at which
//! they become active again; the interpreter ORs them back into the execution mask whenever it
//! reaches that instruction (runtime-semantics §8.3).

use crate::error::{Fault, TrapKind};
use crate::machine::Thread;
use crate::ops::{ExecCtl, PredCtl};

/// One active subroutine call: where to return and the caller's state to restore.
#[derive(Debug, Clone)]
pub(crate) struct CallFrame {
    /// First instruction of the subroutine (to detect recursion).
    pub target: usize,
    pub return_pc: usize,
    pub call_mask: u32,
    pub em: u32,
    /// The caller's channels parked by goto; each frame has its own table.
    pub waiting: Vec<(usize, u32)>,
}

/// What the interpreter does after a control-flow instruction.
pub(crate) enum Next {
    Goto(usize),
    Finish,
    /// Continue at the given instruction once the group's barrier is released.
    Barrier(usize),
}

impl Thread<'_> {
    fn park(&mut self, pc: usize, channels: u32) {
        if channels == 0 {
            return;
        }
        match self.waiting.iter_mut().find(|(at, _)| *at == pc) {
            Some((_, mask)) => *mask |= channels,
            None => self.waiting.push((pc, channels)),
        }
    }

    /// The nearest later instruction where channels wait.
    fn next_waiting_after(&self, pc: usize) -> Option<usize> {
        self.waiting
            .iter()
            .map(|(at, _)| *at)
            .filter(|at| *at > pc)
            .min()
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
        if let Some(&(skipped, mask)) = self
            .waiting
            .iter()
            .find(|(at, _)| *at > self.pc && *at < target)
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
        if self.frames.iter().any(|frame| frame.target == target) {
            return Err(Fault::new(TrapKind::RecursiveCall { target }));
        }
        let (call_mask, em) = if exec.size == 1 {
            if !self.uniform_condition(exec, pred)? {
                return Ok(Next::Goto(self.pc + 1));
            }
            (u32::MAX, self.em)
        } else {
            let entering = self.channel_enables(exec, pred)? << exec.offset;
            if entering == 0 {
                return Ok(Next::Goto(self.pc + 1));
            }
            (entering, entering)
        };
        self.frames.push(CallFrame {
            target,
            return_pc: self.pc + 1,
            call_mask: self.call_mask,
            em: self.em,
            waiting: std::mem::take(&mut self.waiting),
        });
        self.call_mask = call_mask;
        self.em = em;
        self.entered_by_call = true;
        Ok(Next::Goto(target))
    }

    /// Leaves the innermost subroutine, restoring the caller's masks (RET.md).
    fn leave_subroutine(&mut self) -> Result<Next, Fault> {
        if let Some((_, mask)) = self.waiting.first() {
            return Err(Fault::new(TrapKind::WaitingAtEnd { mask: *mask }));
        }
        let Some(frame) = self.frames.pop() else {
            return Ok(Next::Finish);
        };
        self.call_mask = frame.call_mask;
        self.em = frame.em;
        self.waiting = frame.waiting;
        Ok(Next::Goto(frame.return_pc))
    }

    pub(crate) fn exec_ret(&mut self, exec: ExecCtl, pred: Option<PredCtl>) -> Result<Next, Fault> {
        if !self.frames.is_empty() {
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
            return match self.next_waiting_after(self.pc) {
                Some(at) => Ok(Next::Goto(at)),
                None => self.leave_subroutine(),
            };
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
