//! Call frames: the thread state that `call` and `fcall` save when they enter a subroutine or
//! function and that `ret` and `fret` restore (the instructions are `exec::flow` and
//! `exec::calls`, which states the rules of what a function call saves).

use super::Thread;
use crate::program::Function;

/// One active subroutine call: where to return and the caller's state to restore.
#[derive(Debug, Clone)]
pub(crate) struct CallFrame {
    /// First instruction of the subroutine (to detect recursion).
    pub target: usize,
    pub return_pc: usize,
    pub call_mask: u32,
    pub em: u32,
    /// The caller's channels parked by goto (`Thread::waiting`; empty when none were): each
    /// call starts with none parked.
    pub waiting: Vec<u32>,
    /// Set for an `fcall`: what `fret` hands back and restores.
    pub function: Option<Box<FunctionCall>>,
}

/// Register-file bytes with their defined flags.
#[derive(Debug, Clone, Default)]
struct Saved {
    bytes: Vec<u8>,
    defined: Vec<bool>,
}

/// What an `fcall` frame restores when the function returns.
#[derive(Debug, Clone)]
pub(crate) struct FunctionCall {
    /// Index of the function in `Program::functions`.
    pub function: u16,
    arg_bytes: usize,
    ret_bytes: usize,
    /// The callee's declared variables (in `Function::storage` order) and predicates.
    callee: Saved,
    callee_preds: Vec<(u32, u32)>,
    caller_arg: Saved,
    caller_retval: Saved,
}

impl Thread<'_> {
    fn save(&self, offset: usize, size: usize) -> Saved {
        let range = offset..offset + size;
        Saved {
            bytes: self.grf.get(range.clone()).unwrap_or_default().to_vec(),
            defined: self.defined.get(range).unwrap_or_default().to_vec(),
        }
    }

    fn restore(&mut self, offset: usize, saved: &Saved, from: usize) {
        let end = offset + saved.bytes.len();
        if let (Some(bytes), Some(defined), Some(src), Some(src_defined)) = (
            self.grf.get_mut(offset + from..end),
            self.defined.get_mut(offset + from..end),
            saved.bytes.get(from..),
            saved.defined.get(from..),
        ) {
            bytes.copy_from_slice(src);
            defined.copy_from_slice(src_defined);
        }
    }

    fn poison(&mut self, offset: usize, size: usize) {
        if !self.tracks_defined {
            return;
        }
        if let Some(defined) = self.defined.get_mut(offset..offset + size) {
            defined.fill(false);
        }
    }

    /// Saves what an `fcall` of `callee` (number `function` in `Program::functions`) passing
    /// `arg_size` and returning `ret_size` GRFs restores on return, and leaves the callee's
    /// variables and predicates and the caller's `%arg` registers beyond the passed ones
    /// undefined.
    pub(crate) fn save_for_call(
        &mut self,
        function: u16,
        callee: &Function,
        arg_size: u8,
        ret_size: u8,
    ) -> FunctionCall {
        let program = self.program;
        let grf = program.layout.grf_bytes as usize;
        let (arg, retval) = (program.arg_block, program.retval_block);
        let arg_bytes = usize::from(arg_size) * grf;
        let ret_bytes = usize::from(ret_size) * grf;
        let mut saved_callee = Saved::default();
        for &(offset, size) in &callee.storage {
            let part = self.save(offset, size);
            saved_callee.bytes.extend(part.bytes);
            saved_callee.defined.extend(part.defined);
            self.poison(offset, size);
        }
        // (Compiled code does not track definedness: its predicates stay defined.)
        let cleared = if self.tracks_defined { 0 } else { u32::MAX };
        let callee_preds = callee
            .predicates
            .clone()
            .map(|i| {
                let pair = (
                    self.preds.get(i).copied().unwrap_or(0),
                    self.preds_defined.get(i).copied().unwrap_or(0),
                );
                if let Some(d) = self.preds_defined.get_mut(i) {
                    *d = cleared;
                }
                pair
            })
            .collect();
        let caller_arg = arg.map_or_else(Saved::default, |(o, s)| self.save(o, s));
        let caller_retval = retval.map_or_else(Saved::default, |(o, s)| self.save(o, s));
        if let Some((offset, size)) = arg {
            self.poison(offset + arg_bytes.min(size), size.saturating_sub(arg_bytes));
        }
        FunctionCall {
            function,
            arg_bytes,
            ret_bytes,
            callee: saved_callee,
            callee_preds,
            caller_arg,
            caller_retval,
        }
    }

    /// Restores what [`Thread::save_for_call`] saved; called by `leave_subroutine` once the
    /// frame of an `fcall` is popped.
    pub(crate) fn return_from_function(&mut self, call: &FunctionCall) {
        let program = self.program;
        if let Some(callee) = program.functions.get(usize::from(call.function)) {
            let mut at = 0;
            for &(offset, size) in &callee.storage {
                let end = offset + size;
                if let (Some(bytes), Some(defined), Some(src), Some(src_defined)) = (
                    self.grf.get_mut(offset..end),
                    self.defined.get_mut(offset..end),
                    call.callee.bytes.get(at..at + size),
                    call.callee.defined.get(at..at + size),
                ) {
                    bytes.copy_from_slice(src);
                    defined.copy_from_slice(src_defined);
                }
                at += size;
            }
            for (i, &(value, defined)) in callee.predicates.clone().zip(&call.callee_preds) {
                if let (Some(p), Some(d)) = (self.preds.get_mut(i), self.preds_defined.get_mut(i)) {
                    *p = value;
                    *d = defined;
                }
            }
        }
        if let Some((offset, size)) = program.arg_block {
            self.restore(offset, &call.caller_arg, 0);
            self.poison(offset, call.arg_bytes.min(size));
        }
        if let Some((offset, size)) = program.retval_block {
            self.restore(offset, &call.caller_retval, call.ret_bytes.min(size));
        }
    }
}
