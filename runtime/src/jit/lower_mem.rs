//! Native code for SVM gathers and scatters of one 4- or 8-byte block per lane (`svm_gather`,
//! `svm_scatter`, and the LSC loads and stores decoded to them).
//!
//! The allocation holding the first enabled lane's address is found by a helper
//! (`helper_svm_window`), which returns the host address of its bytes; every enabled lane's
//! address is then checked inline (inside that allocation, aligned to the block size) before any
//! byte moves. A message that fails the check (unmapped, out of bounds, misaligned, lanes in
//! several allocations) calls the interpreter's handler instead, which runs it from the start
//! and reports the same trap as on the interpreter; so does one on an allocation of fewer than 8
//! bytes.

use std::mem::offset_of;

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{InstBuilder, MemFlagsData, Value, types};

use super::context::JitCtx;
use super::emitter::{Emitter, grf_flags};
use super::enter;
use crate::ops::{Op, SvmScattered};
use crate::program::Program;

/// Whether `op` is an SVM message this module compiles, with its register-file operands proven
/// inside the file (the emitted accesses need no checks).
pub(super) fn fits(program: &Program, op: &Op) -> bool {
    let (Op::SvmGather(s) | Op::SvmScatter(s)) = op else {
        return false;
    };
    let file = u64::from(program.layout.file_size);
    let lanes = u64::from(s.exec.size);
    let bytes = u64::from(s.block_bytes);
    let inside = |base: u32, end: u32, len: u64| u64::from(base) + len <= u64::from(end).min(file);
    let predicates = program.layout.predicates.len();
    // Host memory is read as the little-endian words the SVM buffers hold.
    cfg!(target_endian = "little")
        && !program.general_only
        && matches!(s.block_bytes, 4 | 8)
        && s.blocks == 1
        && (1..=32).contains(&lanes)
        && !s.addresses.null
        && !s.data.null
        && inside(s.addresses.base, s.addresses.end, 8 * lanes)
        && inside(s.data.base, s.data.end, bytes * lanes)
        && s.pred.is_none_or(|p| usize::from(p.index) < predicates)
}

/// Flags of SVM accesses: inside the allocation (checked first), maybe unaligned on the host.
fn host_flags() -> MemFlagsData {
    MemFlagsData::new().with_notrap()
}

fn offset(byte: u64) -> i32 {
    i32::try_from(byte).unwrap_or(i32::MAX)
}

/// A lane's address: `scale * operand + offset`, wrapping.
fn lane_address(e: &mut Emitter, s: &SvmScattered, operand: Value) -> Value {
    let scaled = match s.address_scale {
        1 => operand,
        scale => e.b.ins().imul_imm_u(operand, scale as i64),
    };
    match s.address_offset {
        0 => scaled,
        by => e.b.ins().iadd_imm_s(scaled, by),
    }
}

pub(super) fn emit(e: &mut Emitter, pc: usize, op: &Op) {
    let (s, scatter) = match op {
        Op::SvmGather(s) => (s, false),
        Op::SvmScatter(s) => (s, true),
        _ => return,
    };
    let lanes = s.exec.size;
    let size = u64::from(s.block_bytes);
    let ty = if size == 8 { types::I64 } else { types::I32 };
    let next = e.blocks[pc + 1];
    let enables = e.channel_enables(s.exec, s.pred);
    // No enabled channel: nothing moves.
    let some = e.b.create_block();
    e.b.ins().brif(enables, some, &[], next, &[]);
    e.b.switch_to_block(some);
    // The allocation of the first enabled lane's address.
    let first = e.b.ins().ctz(enables);
    let first = e.b.ins().uextend(types::I64, first);
    let first = e.b.ins().ishl_imm_u(first, 3);
    let at = e.b.ins().iadd(e.grf, first);
    let operand = e.b.ins().load(
        types::I64,
        grf_flags(),
        at,
        offset(u64::from(s.addresses.base)),
    );
    let address = lane_address(e, s, operand);
    let host = e.call_helper_with(enter::helper_svm_window, address);
    let slow = e.b.create_block();
    let found = e.b.create_block();
    e.b.ins().brif(host, found, &[], slow, &[]);
    e.b.switch_to_block(found);
    let base = e.load_ctx(types::I64, offset_of!(JitCtx, svm_base));
    let len = e.load_ctx(types::I64, offset_of!(JitCtx, svm_len));
    // (The helper finds only allocations of at least 8 bytes.)
    let limit = e.b.ins().iadd_imm_s(len, -(size as i64));
    // Every address is read and checked before anything is written.
    let mut lane_on = Vec::with_capacity(lanes as usize);
    let mut offsets = Vec::with_capacity(lanes as usize);
    let mut bad = e.b.ins().iconst(types::I8, 0);
    for lane in 0..lanes {
        let at = offset(u64::from(s.addresses.base) + 8 * u64::from(lane));
        let operand = e.b.ins().load(types::I64, grf_flags(), e.grf, at);
        let address = lane_address(e, s, operand);
        let off = e.b.ins().isub(address, base);
        let outside = e.b.ins().icmp(IntCC::UnsignedGreaterThan, off, limit);
        let low_bits = e.b.ins().band_imm_u(address, (size - 1) as i64);
        let misaligned = e.b.ins().icmp_imm_u(IntCC::NotEqual, low_bits, 0);
        let wrong = e.b.ins().bor(outside, misaligned);
        let bit = e.b.ins().band_imm_u(enables, 1 << lane);
        let on = e.b.ins().icmp_imm_u(IntCC::NotEqual, bit, 0);
        let wrong = e.b.ins().band(wrong, on);
        bad = e.b.ins().bor(bad, wrong);
        lane_on.push(on);
        offsets.push(off);
    }
    let ok = e.b.create_block();
    e.b.ins().brif(bad, slow, &[], ok, &[]);
    e.b.switch_to_block(ok);
    let zero = e.const64(0);
    for (lane, (on, off)) in (0u64..).zip(lane_on.into_iter().zip(offsets)) {
        let slot = offset(u64::from(s.data.base) + size * lane);
        if scatter {
            let write = e.b.create_block();
            let done = e.b.create_block();
            e.b.ins().brif(on, write, &[], done, &[]);
            e.b.switch_to_block(write);
            let value = e.b.ins().load(ty, grf_flags(), e.grf, slot);
            let target = e.b.ins().iadd(host, off);
            e.b.ins().store(host_flags(), value, target, 0);
            e.b.ins().jump(done, &[]);
            e.b.switch_to_block(done);
        } else {
            // A disabled lane reads the allocation's first block (always inside) and keeps
            // its register.
            let off = e.b.ins().select(on, off, zero);
            let source = e.b.ins().iadd(host, off);
            let value = e.b.ins().load(ty, host_flags(), source, 0);
            let old = e.b.ins().load(ty, grf_flags(), e.grf, slot);
            let merged = e.b.ins().select(on, value, old);
            e.b.ins().store(grf_flags(), merged, e.grf, slot);
        }
    }
    e.b.ins().jump(next, &[]);
    e.b.switch_to_block(slow);
    e.emit_handler(pc, false);
}
