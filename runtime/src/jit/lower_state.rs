//! `movs` setting a surface variable's state slot to an immediate binding-table number (IGC
//! points its surface at the buffer before each message this way): one store of the slot
//! (`JitCtx::states`), conditional on the channel's enable unless NoMask.

use cranelift_codegen::ir::{InstBuilder, MemFlagsData, types};

use super::emitter::{Emitter, field};
use crate::convert::decode;
use crate::exec::movs::state_number;
use crate::machine::{StateSlot, apply_modifier};
use crate::ops::{Movs, MovsDst, MovsSrc, Op, SrcKind};
use crate::program::Program;

/// The slot a one-channel `movs` of an immediate into a state variable sets, and the slot's
/// value after it; `None` for any other `movs` (the handler runs it).
fn state_move(program: &Program, op: &Op) -> Option<(u32, StateSlot)> {
    let Op::Movs(m) = op else {
        return None;
    };
    let Movs {
        exec,
        dst: MovsDst::State { first, .. },
        src: MovsSrc::Value(src),
    } = &**m
    else {
        return None;
    };
    let SrcKind::Imm(bits) = &src.kind else {
        return None;
    };
    let [bits] = bits[..] else {
        return None;
    };
    let number = state_number(apply_modifier(decode(bits, src.ty), src.modifier));
    (exec.size == 1 && *first < program.layout.state_slots)
        .then_some((*first, StateSlot::new(Some(number))))
}

pub(super) fn fits(program: &Program, op: &Op) -> bool {
    state_move(program, op).is_some()
}

pub(super) fn emit(e: &mut Emitter, op: &Op) {
    let (Some((first, slot)), Op::Movs(m)) = (state_move(e.program, op), op) else {
        return;
    };
    let at = field(first as usize * size_of::<StateSlot>());
    let flags = MemFlagsData::trusted();
    let value = e.const64(slot.0 as i64);
    let value = match m.exec.no_mask {
        true => value,
        false => {
            let enabled = e.channel_enables(m.exec, None);
            let old = e.b.ins().load(types::I64, flags, e.states, at);
            e.b.ins().select(enabled, value, old)
        }
    };
    e.b.ins().store(flags, value, e.states, at);
}
