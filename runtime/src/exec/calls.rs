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

impl Thread<'_> {
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
        let call = self.save_for_call(function, callee, arg_size, ret_size);
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
        if let Some((_, mask)) = self.first_waiting() {
            return Err(Fault::new(TrapKind::WaitingAtEnd { mask }));
        }
        Ok(Next::Finish)
    }
}
