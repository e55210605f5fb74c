//! The bodies of the helpers compiled code calls (`enter` turns the context's pointers into
//! the references these take): the interpreter's handler for one instruction, where a goto that
//! left no channel active continues, and the check that a subroutine was entered by a call.

use super::context::JitCtx;
use super::status;
use crate::error::{Fault, TrapKind};
use crate::exec::MemCtx;
use crate::exec::Target;
use crate::exec::flow::Next;
use crate::machine::Thread;
use crate::memory::Buffer;
use crate::ops::{Gather4Target, Op, Src, SrcKind, SurfaceRef};

/// Copies the thread's execution mask back into the context after a handler ran (the parked
/// masks are shared: `JitCtx::waiting`).
fn sync(ctx: &mut JitCtx, thread: &Thread<'_>) {
    ctx.em = thread.em;
}

/// Helper body: executes instruction `pc` with the interpreter's handler. Returns the next pc,
/// or an exit status (`FINISHED`, `BARRIER` with the resume point in `thread.pc`, `TRAP` with
/// the fault in `ctx.fault`).
pub(super) fn step(ctx: &mut JitCtx, thread: &mut Thread<'_>, mem: &MemCtx<'_>, pc: i64) -> i64 {
    let program = thread.program;
    let Some(decoded) = usize::try_from(pc).ok().and_then(|pc| program.code.get(pc)) else {
        return status::INTERPRET;
    };
    thread.em = ctx.em;
    thread.pc = pc as usize;
    let result = thread.step(decoded, mem);
    sync(ctx, thread);
    match result {
        Ok(Next::Goto(target)) => i64::try_from(target).unwrap_or(status::INTERPRET),
        Ok(Next::Finish) => status::FINISHED,
        Ok(Next::Barrier(resume)) => {
            thread.pc = resume;
            status::BARRIER
        }
        Err(fault) => {
            ctx.fault = Some(fault);
            status::TRAP
        }
    }
}

/// Helper body: where a goto at `pc` that left no channel active continues (the nearest later
/// instruction where channels wait, as `Thread::exec_goto` decides), or the trap when none
/// does.
pub(super) fn resume(ctx: &mut JitCtx, thread: &Thread<'_>, pc: i64) -> i64 {
    let pc = usize::try_from(pc).unwrap_or(usize::MAX);
    match thread.next_waiting_after(pc) {
        Some(at) => i64::try_from(at).unwrap_or(status::INTERPRET),
        None => {
            ctx.fault = Some(Fault::new(TrapKind::NoReconvergencePoint));
            status::TRAP
        }
    }
}

/// Helper body at a subroutine's first instruction or a call target: the interpreter's check
/// that execution arrived there through a call.
pub(super) fn enter(ctx: &mut JitCtx, thread: &mut Thread<'_>, pc: i64) -> i64 {
    if thread.entered_by_call {
        thread.entered_by_call = false;
        return 0;
    }
    let pc = usize::try_from(pc).unwrap_or(usize::MAX);
    if thread.program.subroutines.binary_search(&pc).is_ok() {
        ctx.fault = Some(Fault::new(TrapKind::SubroutineWithoutCall { pc }));
        return status::TRAP;
    }
    0
}

/// Helper body: the SVM allocation holding `address` (the first enabled lane's, of a native SVM
/// message): its first address and length go to the context and the host address of its bytes
/// is returned; 0 when no allocation of at least 8 bytes holds the address (the message then
/// runs in the interpreter's handler).
pub(super) fn svm_window(ctx: &mut JitCtx, mem: &MemCtx<'_>, address: u64) -> i64 {
    match mem.svm.find(address) {
        Some((base, buffer)) => window(ctx, buffer, base, 0, true),
        None => 0,
    }
}

/// The surface and global offset of a native surface message.
pub(super) fn surface_operands(op: &Op) -> Option<(SurfaceRef, &Src)> {
    match op {
        Op::GatherScaled(g) | Op::ScatterScaled(g) => Some((g.surface, &g.offset)),
        Op::Gather4(g) | Op::Scatter4(g) => match &g.target {
            Gather4Target::Surface {
                surface, offset, ..
            } => Some((*surface, offset)),
            Gather4Target::Svm { .. } => None,
        },
        _ => None,
    }
}

/// Helper body: the memory of the surface message at `pc` (`gather_scaled`, `scatter_scaled`,
/// or a four-channel one) and its global offset, as [`svm_window`] gives an allocation: a bound
/// buffer, or the binding-table range of SVM an OpenCL buffer's surface index names (as far
/// as its allocation reaches); 0 when there is none of at least 8 bytes or the offset cannot be
/// read.
pub(super) fn surface_window(
    ctx: &mut JitCtx,
    thread: &Thread<'_>,
    mem: &MemCtx<'_>,
    pc: i64,
) -> i64 {
    let op = usize::try_from(pc)
        .ok()
        .and_then(|pc| thread.program.code.get(pc));
    let Some((surface, offset)) = op.and_then(surface_operands) else {
        return 0;
    };
    let Ok(global) = thread.scalar_u64(offset) else {
        return 0;
    };
    let global = global & 0xffff_ffff;
    // The window holds for any later run of the message that finds the same number in the
    // variable's state slot (the launch's tables stay as they are) when the offset is fixed.
    ctx.window_state = match (surface, &offset.kind) {
        (SurfaceRef::Var(var), SrcKind::Imm(_)) => (thread.program.layout.state_slot(var))
            .and_then(|first| thread.states.get(first as usize))
            .map_or(0, |slot| slot.0),
        _ => 0,
    };
    match thread.target(surface, mem) {
        Target::Buffer(buffer) => {
            // The same buffer and offset for every thread of the launch: the surface is not
            // re-pointed (`MemCtx::fixed`) and the offset is an immediate.
            let fixed = match surface {
                SurfaceRef::Var(var) => matches!(mem.fixed.get(usize::from(var)), Some(Some(_))),
                _ => false,
            };
            let reusable = fixed && matches!(offset.kind, SrcKind::Imm(_));
            window(ctx, buffer, 0, global, reusable)
        }
        // A lane outside the range leaves for the handler, which traps as the interpreter
        // does; the range is looked up again at each message (`movs` may re-point it).
        Target::SvmRange { base, len } => {
            let Some((start, buffer)) = mem.svm.find(base) else {
                return 0;
            };
            let skip = base - start;
            let len = len.min((buffer.len() as u64).saturating_sub(skip));
            if len < 8 {
                return 0;
            }
            ctx.window_base = 0;
            ctx.window_len = len;
            ctx.global_offset = global;
            ctx.window_reusable = 0;
            (buffer.host_address() as u64).wrapping_add(skip) as i64
        }
        _ => 0,
    }
}

fn window(ctx: &mut JitCtx, buffer: &Buffer, base: u64, global: u64, reusable: bool) -> i64 {
    if buffer.len() < 8 {
        return 0;
    }
    ctx.window_base = base;
    ctx.window_len = buffer.len() as u64;
    ctx.global_offset = global;
    ctx.window_reusable = u64::from(reusable);
    buffer.host_address() as i64
}
