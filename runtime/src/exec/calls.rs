//! Stack-call functions: `fcall` / `fret` (FCALL.md, FRET.md).
//!
//! Every activation owns the variables its function declares and its own `%arg` / `%retval`:
//! `fcall` saves the callee's storage (an earlier activation's, when the call is recursive) and
//! the caller's `%arg` / `%retval`, then starts the callee with its variables undefined and
//! only the first `Arg_size` GRFs of `%arg` defined. `%retval` starts as the caller's (it is
//! one register block on the hardware), so channels a divergent callee does not write keep
//! their values. Leaving restores what was saved, except the first `Return_size` GRFs of
//! `%retval`, which keep the callee's values, and poisons the caller's passed `%arg` registers
//! (the call destroys them). `%sp` / `%fp` are one shared storage, so they pass both ways
//! unchanged.

use crate::error::{Fault, TrapKind};
use crate::exec::flow::Next;
use crate::machine::Thread;
use crate::ops::{ExecCtl, PredCtl};

/// Most function activations a thread may have at once; each saves `%arg` and `%retval`
/// (1.4 KiB with 32-byte GRFs), so runaway recursion stops at a few MiB.
pub(crate) const MAX_FUNCTION_DEPTH: usize = 4096;

/// Register-file bytes with their defined flags.
#[derive(Debug, Clone, Default)]
struct Saved {
    bytes: Vec<u8>,
    defined: Vec<bool>,
}

/// What an `fcall` frame restores when the function returns.
#[derive(Debug, Clone)]
pub(crate) struct FunctionCall {
    function: u16,
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

    pub(crate) fn exec_fcall(
        &mut self,
        exec: ExecCtl,
        pred: Option<PredCtl>,
        function: u16,
        arg_size: u8,
        ret_size: u8,
    ) -> Result<Next, Fault> {
        let program = self.program;
        let Some(callee) = program.functions.get(usize::from(function)) else {
            return Err(Fault::new(TrapKind::FretOutsideFunction));
        };
        for (what, given, declared) in [
            ("argument", arg_size, callee.arg_size),
            ("return", ret_size, callee.ret_size),
        ] {
            if let Some(declared) = declared.filter(|d| *d != u32::from(given)) {
                return Err(Fault::new(TrapKind::CallSizeMismatch {
                    function: callee.name.clone(),
                    what,
                    given: u32::from(given),
                    declared,
                }));
            }
        }
        let Some((call_mask, em)) = self.call_masks(exec, pred)? else {
            return Ok(Next::Goto(self.pc + 1));
        };
        if self.frames.iter().filter(|f| f.function.is_some()).count() >= MAX_FUNCTION_DEPTH {
            return Err(Fault::new(TrapKind::CallTooDeep {
                limit: MAX_FUNCTION_DEPTH,
            }));
        }
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
        let call = FunctionCall {
            function,
            arg_bytes,
            ret_bytes,
            callee: saved_callee,
            callee_preds,
            caller_arg,
            caller_retval,
        };
        self.enter(callee.entry, call_mask, em, Some(Box::new(call)));
        Ok(Next::Goto(callee.entry))
    }

    pub(crate) fn exec_fret(
        &mut self,
        exec: ExecCtl,
        pred: Option<PredCtl>,
    ) -> Result<Next, Fault> {
        match self.frames.last() {
            Some(frame) if frame.function.is_some() => self.return_channels(exec, pred),
            _ => Err(Fault::new(TrapKind::FretOutsideFunction)),
        }
    }

    /// The end marker after a kernel body ends the thread like the end of the code; the one
    /// after a function body traps (a function leaves through `fret`).
    pub(crate) fn end_of_object(&mut self, function: bool) -> Result<Next, Fault> {
        if function {
            let name = self
                .frames
                .iter()
                .rev()
                .find_map(|f| f.function.as_ref())
                .and_then(|call| self.program.functions.get(usize::from(call.function)))
                .map_or_else(String::new, |f| f.name.clone());
            return Err(Fault::new(TrapKind::FunctionWithoutFret { function: name }));
        }
        if let Some((_, mask)) = self.waiting.first() {
            return Err(Fault::new(TrapKind::WaitingAtEnd { mask: *mask }));
        }
        Ok(Next::Finish)
    }

    /// Called by `leave_subroutine` once the frame of an `fcall` is popped.
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
