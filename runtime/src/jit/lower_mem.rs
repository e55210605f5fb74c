//! Native code for scattered memory messages of one 4- or 8-byte block per lane: SVM gathers and
//! scatters (`svm_gather`, `svm_scatter`, and the LSC loads and stores decoded to them) and
//! dword `gather_scaled`/`scatter_scaled` on a bound surface.
//!
//! A helper finds the memory the message addresses and returns the host address of its bytes:
//! for SVM the allocation holding the first enabled lane's address (`helper_svm_window`), for
//! a surface its buffer and the message's global offset (`helper_surface_window`). Every enabled
//! lane's address is then checked inline (inside that memory, aligned to the block size) before
//! any byte moves. A message that fails the check (unmapped, out of bounds, misaligned, lanes
//! in several allocations, an unbound surface) calls the interpreter's handler instead, which
//! runs it from the start with its exact rules (a trap, or a surface's zeros and dropped
//! writes); so does one on memory of fewer than 8 bytes.

use std::mem::offset_of;

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{BlockArg, InstBuilder, MemFlagsData, Value, types};

use super::context::JitCtx;
use super::emitter::{Emitter, grf_flags};
use super::enter;
use crate::ops::{ExecCtl, GatherScaled, Op, PredCtl, Raw, SurfaceRef, SvmScattered};
use crate::program::Program;

/// The facts of a message the emitted code needs.
struct Message<'o> {
    exec: ExecCtl,
    pred: Option<PredCtl>,
    /// Bytes per lane.
    size: u64,
    scatter: bool,
    data: &'o Raw,
    /// Where each lane's address comes from.
    addresses: Addresses<'o>,
}

enum Addresses<'o> {
    /// A 64-bit operand per lane, scaled and offset (`SvmScattered::lane_address`).
    Svm(&'o SvmScattered),
    /// The global offset plus a 32-bit byte offset per lane.
    Surface(&'o Raw),
}

fn message(op: &Op) -> Option<Message<'_>> {
    fn svm(s: &SvmScattered, scatter: bool) -> Message<'_> {
        Message {
            exec: s.exec,
            pred: s.pred,
            size: u64::from(s.block_bytes),
            scatter,
            data: &s.data,
            addresses: Addresses::Svm(s),
        }
    }
    fn surface(g: &GatherScaled, scatter: bool) -> Message<'_> {
        Message {
            exec: g.exec,
            pred: g.pred,
            size: u64::from(g.bytes),
            scatter,
            data: &g.data,
            addresses: Addresses::Surface(&g.element_offset),
        }
    }
    match op {
        Op::SvmGather(s) if s.blocks == 1 => Some(svm(s, false)),
        Op::SvmScatter(s) if s.blocks == 1 => Some(svm(s, true)),
        Op::GatherScaled(g) if matches!(g.surface, SurfaceRef::Var(_)) => Some(surface(g, false)),
        Op::ScatterScaled(g) if matches!(g.surface, SurfaceRef::Var(_)) => Some(surface(g, true)),
        _ => None,
    }
}

/// Whether `op` is a message this module compiles, with its register-file operands proven
/// inside the file (the emitted accesses need no checks).
pub(super) fn fits(program: &Program, op: &Op) -> bool {
    let Some(m) = message(op) else {
        return false;
    };
    let file = u64::from(program.layout.file_size);
    let lanes = u64::from(m.exec.size);
    let inside = |raw: &Raw, len: u64| {
        !raw.null && u64::from(raw.base) + len <= u64::from(raw.end).min(file)
    };
    let (addresses, address_bytes) = match m.addresses {
        Addresses::Svm(s) => (&s.addresses, 8),
        Addresses::Surface(offsets) => (offsets, 4),
    };
    // The data loop reads each lane's address again: a gather may write its data over its
    // addresses only lane for lane (the same start, each lane's data no wider than its
    // address), or not at all.
    let (a, d) = (u64::from(addresses.base), u64::from(m.data.base));
    let apart = m.scatter
        || (a == d && m.size <= address_bytes)
        || a + address_bytes * lanes <= d
        || d + m.size * lanes <= a;
    let addresses_fit =
        inside(addresses, address_bytes * lanes) && apart && (address_bytes == 8 || m.size == 4);
    let predicates = program.layout.predicates.len();
    // Host memory is read as the little-endian words the buffers hold.
    cfg!(target_endian = "little")
        && !program.general_only
        && matches!(m.size, 4 | 8)
        && (1..=32).contains(&lanes)
        && addresses_fit
        && inside(m.data, m.size * lanes)
        && m.pred.is_none_or(|p| usize::from(p.index) < predicates)
}

/// Flags of memory accesses: inside the memory (checked first), maybe unaligned on the host.
fn host_flags() -> MemFlagsData {
    MemFlagsData::new().with_notrap()
}

fn offset(byte: u64) -> i32 {
    i32::try_from(byte).unwrap_or(i32::MAX)
}

/// The address of lane `lane` (an `i64`): SVM operands scaled and offset, surface offsets
/// added to the global offset `global`.
fn address_of(e: &mut Emitter, addresses: &Addresses, lane: Value, global: Value) -> Value {
    let (raw, bytes) = match addresses {
        Addresses::Svm(s) => (&s.addresses, 8),
        Addresses::Surface(offsets) => (*offsets, 4),
    };
    let scaled = e.b.ins().imul_imm_u(lane, bytes as i64);
    let (at, constant) = (e.b.ins().iadd(e.grf, scaled), u64::from(raw.base));
    match addresses {
        Addresses::Svm(s) => {
            let operand =
                e.b.ins()
                    .load(types::I64, grf_flags(), at, offset(constant));
            let scaled = match s.address_scale {
                1 => operand,
                scale => e.b.ins().imul_imm_u(operand, scale as i64),
            };
            match s.address_offset {
                0 => scaled,
                by => e.b.ins().iadd_imm_s(scaled, by),
            }
        }
        Addresses::Surface(_) => {
            let operand =
                e.b.ins()
                    .load(types::I32, grf_flags(), at, offset(constant));
            let operand = e.b.ins().uextend(types::I64, operand);
            e.b.ins().iadd(global, operand)
        }
    }
}

/// Lane `lane`'s data slot in the register file.
fn data_slot(e: &mut Emitter, m: &Message, lane: Value) -> Value {
    let scaled = e.b.ins().imul_imm_u(lane, m.size as i64);
    e.b.ins().iadd(e.grf, scaled)
}

/// The message as two loops over its enabled lanes (compact code: a program's compile time
/// grows with its IR): one reads and checks every address, the other moves the data.
pub(super) fn emit(e: &mut Emitter, pc: usize, op: &Op) {
    let Some(m) = message(op) else {
        return;
    };
    let ty = if m.size == 8 { types::I64 } else { types::I32 };
    let next = e.blocks[pc + 1];
    let enables = e.channel_enables(m.exec, m.pred);
    // No enabled channel: nothing moves.
    let some = e.b.create_block();
    e.b.ins().brif(enables, some, &[], next, &[]);
    e.b.switch_to_block(some);
    // The memory: its host address, first address and length.
    let zero = e.const64(0);
    let host = match &m.addresses {
        Addresses::Svm(_) => {
            let first = e.b.ins().ctz(enables);
            let first = e.b.ins().uextend(types::I64, first);
            let address = address_of(e, &m.addresses, first, zero);
            e.call_helper_with(enter::helper_svm_window, address)
        }
        Addresses::Surface(_) => e.call_helper(enter::helper_surface_window, pc),
    };
    let slow = e.b.create_block();
    let found = e.b.create_block();
    e.b.ins().brif(host, found, &[], slow, &[]);
    e.b.switch_to_block(found);
    let base = e.load_ctx(types::I64, offset_of!(JitCtx, window_base));
    let len = e.load_ctx(types::I64, offset_of!(JitCtx, window_len));
    let global = e.load_ctx(types::I64, offset_of!(JitCtx, global_offset));
    // (The helpers find only memory of at least 8 bytes.)
    let limit = e.b.ins().iadd_imm_s(len, -(m.size as i64));
    // A loop over the enabled lanes: `remaining` holds the lanes still to do, the lowest
    // first.
    let lane_loop = |e: &mut Emitter, extra: &[Value]| {
        let head = e.b.create_block();
        e.b.append_block_param(head, types::I32);
        for value in extra {
            let ty = e.b.func.dfg.value_type(*value);
            e.b.append_block_param(head, ty);
        }
        let mut args = vec![BlockArg::from(enables)];
        args.extend(extra.iter().map(|v| BlockArg::from(*v)));
        e.b.ins().jump(head, &args);
        e.b.switch_to_block(head);
        head
    };
    // The lane's address and its offset into the memory; the rest of the lanes.
    let locate = |e: &mut Emitter, remaining: Value| {
        let lane = e.b.ins().ctz(remaining);
        let lane = e.b.ins().uextend(types::I64, lane);
        let address = address_of(e, &m.addresses, lane, global);
        let off = e.b.ins().isub(address, base);
        let lower = e.b.ins().iadd_imm_s(remaining, -1);
        let rest = e.b.ins().band(remaining, lower);
        (lane, address, off, rest)
    };

    // Every enabled lane's address is checked before anything moves.
    let clean = e.b.ins().iconst(types::I8, 0);
    let check = lane_loop(e, &[clean]);
    let (remaining, bad) = (e.b.block_params(check)[0], e.b.block_params(check)[1]);
    let check_lane = e.b.create_block();
    let checked = e.b.create_block();
    e.b.append_block_param(checked, types::I8);
    e.b.ins()
        .brif(remaining, check_lane, &[], checked, &[BlockArg::from(bad)]);
    e.b.switch_to_block(check_lane);
    let (_, address, off, rest) = locate(e, remaining);
    let outside = e.b.ins().icmp(IntCC::UnsignedGreaterThan, off, limit);
    let low_bits = e.b.ins().band_imm_u(address, (m.size - 1) as i64);
    let misaligned = e.b.ins().icmp_imm_u(IntCC::NotEqual, low_bits, 0);
    let wrong = e.b.ins().bor(outside, misaligned);
    let bad = e.b.ins().bor(bad, wrong);
    e.b.ins()
        .jump(check, &[BlockArg::from(rest), BlockArg::from(bad)]);
    e.b.switch_to_block(checked);
    let bad = e.b.block_params(checked)[0];
    let start = e.b.create_block();
    e.b.ins().brif(bad, slow, &[], start, &[]);

    // The data, lane by lane (the addresses are read again: `fits` made sure a gather's data
    // does not overwrite an address it has not used yet).
    e.b.switch_to_block(start);
    let access = lane_loop(e, &[]);
    let remaining = e.b.block_params(access)[0];
    let access_lane = e.b.create_block();
    e.b.ins().brif(remaining, access_lane, &[], next, &[]);
    e.b.switch_to_block(access_lane);
    let (lane, _, off, rest) = locate(e, remaining);
    let slot = data_slot(e, &m, lane);
    let memory = e.b.ins().iadd(host, off);
    let data = offset(u64::from(m.data.base));
    if m.scatter {
        let value = e.b.ins().load(ty, grf_flags(), slot, data);
        e.b.ins().store(host_flags(), value, memory, 0);
    } else {
        let value = e.b.ins().load(ty, host_flags(), memory, 0);
        e.b.ins().store(grf_flags(), value, slot, data);
    }
    e.b.ins().jump(access, &[BlockArg::from(rest)]);

    e.b.switch_to_block(slow);
    e.emit_handler(pc, false);
}
