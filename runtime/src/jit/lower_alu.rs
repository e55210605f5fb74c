//! Native code for the 32-bit integer fast forms (`ops::fast`): ALU operations and
//! comparisons on dword, word or byte sources (contiguous, one per dword, scalar, or an
//! immediate; words and bytes widened to 32 bits) into dword destinations, or word and byte
//! destinations that take each result's low bits (written lane by lane).
//!
//! The operations are built from their one definition in `ops::int_ops`, so the results are
//! those of `exec::fast::compute` and `compare_lanes`, lane for lane: every
//! source element is read before any destination element is written, and only enabled
//! channels are written. Whole groups of four lanes use `i32x4` vectors when the operation
//! has a lane-wise vector form; anything else (modified MIN/MAX, per-lane shift counts,
//! execution sizes below four, mixed signedness in comparisons) is computed one lane at a time
//! on exact 64-bit values.

use cranelift_codegen::ir::condcodes::IntCC;
use std::mem::offset_of;

use cranelift_codegen::ir::{BlockArg, InstBuilder, MemFlagsData, Type, Value, types};

use super::chunks::{cmp_vector_form, vector_form};
use super::context::JitCtx;
use super::emitter::{Emitter, Enables, field, grf_flags, lanes_in_order};
use crate::ops::fast::{CmpTarget, FastAlu, FastCmp, FastSrc, Region};
use crate::ops::int_ops::{self, IntLanes, IntOp, Operands};
use crate::ops::{ExecCtl, Op, PredLogicOp, RelOp};
use crate::program::Program;
use visa_isa::ast::SrcMod;

/// Whether every register-file and predicate access of a fast-form instruction lies inside
/// the thread's buffers (proven here, once, so the emitted accesses need no checks).
pub(super) fn fits(program: &Program, op: &Op) -> bool {
    let file = u64::from(program.layout.file_size);
    let predicates = program.layout.predicates.len();
    let src_fits = |s: &FastSrc, lanes: u64| {
        let bytes = s.region.bytes(lanes as u32);
        bytes.is_none_or(|bytes| bytes.end as u64 <= file)
    };
    // An ALU form: its general form (execution size, predicate), destination and sources.
    let alu_fits = |a: &crate::ops::AluInstr, dst: u32, dst_bytes: u32, srcs: &[FastSrc]| {
        let lanes = u64::from(a.exec.size);
        lanes <= 32
            && u64::from(dst) + u64::from(dst_bytes) * lanes <= file
            && srcs.iter().all(|s| src_fits(s, lanes))
            && a.pred.is_none_or(|p| usize::from(p.index) < predicates)
    };
    match op {
        Op::FastAlu(f) => {
            matches!(f.dst_bytes, 1 | 2 | 4) && alu_fits(&f.general, f.dst, f.dst_bytes, &f.srcs)
        }
        // (F sources are never of words or bytes, `specialise`.)
        Op::FastFloat(f) => {
            f.srcs.iter().all(|s| !s.region.of_bytes()) && alu_fits(&f.general, f.dst, 4, &f.srcs)
        }
        Op::FastCmp(c) => {
            let lanes = u64::from(c.exec.size);
            let dst_fits = match c.dst {
                CmpTarget::Pred(pred) => usize::from(pred) < predicates,
                CmpTarget::Dwords(dst) => u64::from(dst) + 4 * lanes <= file,
            };
            lanes <= 32 && c.srcs.iter().all(|s| src_fits(s, lanes)) && dst_fits
        }
        _ => false,
    }
}

/// A lane mask as `i32x4` masks of four lanes each (all ones or zero per lane): expanded from
/// its bits (splatted once per instruction, `Emitter::lane_group`), or the execution mask's,
/// kept expanded in the context (`JitCtx::em_lanes`) from the group given on.
enum LaneMasks {
    Bits(Value),
    Em(u32),
}

impl LaneMasks {
    fn new(e: &mut Emitter, bits: Value) -> LaneMasks {
        LaneMasks::Bits(e.b.ins().splat(types::I32X4, bits))
    }

    /// The masks of `enables`.
    fn of(e: &mut Emitter, enables: Enables) -> LaneMasks {
        match enables.em_group {
            Some(group) => LaneMasks::Em(group),
            None => LaneMasks::new(e, enables.bits),
        }
    }

    /// Lanes `4 * chunk .. 4 * chunk + 4` (`chunk` < 8: `fits` allows at most 32 lanes).
    fn chunk(&self, e: &mut Emitter, chunk: u32) -> Value {
        match *self {
            LaneMasks::Bits(splat) => e.lane_group(splat, chunk),
            LaneMasks::Em(first) => {
                let at = offset_of!(JitCtx, em_lanes) + 16 * (first + chunk) as usize;
                (e.b.ins()).load(types::I32X4, MemFlagsData::trusted(), e.ctx, field(at))
            }
        }
    }
}

/// The dword of lane `lane` of a source, as read from the register file (no modifier).
fn raw_lane(e: &mut Emitter, src: &FastSrc, lane: u32) -> Value {
    match src.region {
        Region::Contiguous(base) => e.load_grf(types::I32, base + 4 * lane),
        Region::Words(base)
        | Region::WordPerDword(base)
        | Region::Bytes(base)
        | Region::BytePerDword(base) => {
            let ty = if src.region.of_bytes() {
                types::I8
            } else {
                types::I16
            };
            let narrow = e.load_grf(ty, base + src.region.step() * lane);
            if src.signed {
                e.b.ins().sextend(types::I32, narrow)
            } else {
                e.b.ins().uextend(types::I32, narrow)
            }
        }
        Region::Scalar(base) => e.load_grf(types::I32, base),
        Region::Imm(bits) => e.const32(bits),
    }
}

/// Lanes `4 * chunk .. 4 * chunk + 4` of a per-lane source (dwords, or words widened) as an
/// `i32x4`; `None` for a scalar or an immediate.
fn lane_vector(e: &mut Emitter, src: &FastSrc, chunk: u32) -> Option<Value> {
    Some(match src.region {
        Region::Contiguous(base) => e.load_grf(types::I32X4, base + 16 * chunk),
        Region::Words(base) => {
            let at = base + 8 * chunk;
            e.flush_promoted(at..at + 8);
            let at = field(at as usize);
            if src.signed {
                e.b.ins().sload16x4(grf_flags(), e.grf, at)
            } else {
                e.b.ins().uload16x4(grf_flags(), e.grf, at)
            }
        }
        Region::WordPerDword(base) => {
            // The dwords holding the words (a chunk `jit::promote` may hold), then their low
            // or high halves widened.
            let dwords = e.load_grf(types::I32X4, (base & !3) + 16 * chunk);
            let high = base % 4 == 2;
            match (high, src.signed) {
                (true, true) => e.b.ins().sshr_imm_u(dwords, 16),
                (true, false) => e.b.ins().ushr_imm_u(dwords, 16),
                (false, true) => {
                    let up = e.b.ins().ishl_imm_u(dwords, 16);
                    e.b.ins().sshr_imm_u(up, 16)
                }
                (false, false) => {
                    let low = e.const32(0xffff);
                    let low = e.b.ins().splat(types::I32X4, low);
                    e.b.ins().band(dwords, low)
                }
            }
        }
        Region::Bytes(base) => {
            // Four bytes, widened twice.
            let bytes = e.load_grf(types::I32, base + 4 * chunk);
            let v = e.b.ins().scalar_to_vector(types::I32X4, bytes);
            let v = e.b.ins().bitcast(types::I8X16, lanes_in_order(), v);
            if src.signed {
                let v = e.b.ins().swiden_low(v);
                e.b.ins().swiden_low(v)
            } else {
                let v = e.b.ins().uwiden_low(v);
                e.b.ins().uwiden_low(v)
            }
        }
        Region::BytePerDword(base) => {
            // The dwords holding the bytes, shifted up to the top byte and back.
            let dwords = e.load_grf(types::I32X4, (base & !3) + 16 * chunk);
            let up = e.b.ins().ishl_imm_u(dwords, i64::from(24 - 8 * (base % 4)));
            if src.signed {
                e.b.ins().sshr_imm_u(up, 24)
            } else {
                e.b.ins().ushr_imm_u(up, 24)
            }
        }
        Region::Scalar(_) | Region::Imm(_) => return None,
    })
}

/// The exact value of a source element with its modifier (`exec::fast::widen`).
fn widen(e: &mut Emitter, raw: Value, src: &FastSrc) -> Value {
    let v = if src.signed {
        e.b.ins().sextend(types::I64, raw)
    } else {
        e.b.ins().uextend(types::I64, raw)
    };
    modify(e, v, src.modifier)
}

fn modify(e: &mut Emitter, v: Value, modifier: SrcMod) -> Value {
    match modifier {
        SrcMod::None => v,
        SrcMod::Neg => e.b.ins().ineg(v),
        SrcMod::Abs => e.b.ins().iabs(v),
        SrcMod::NegAbs => {
            let abs = e.b.ins().iabs(v);
            e.b.ins().ineg(abs)
        }
        SrcMod::Not => e.b.ins().bnot(v),
    }
}

/// The low 32 bits of a modified source element (`exec::fast::low_bits`), for an `i32` or an
/// `i32x4` value: ABS of an unsigned value is the value.
fn low_bits(e: &mut Emitter, v: Value, src: &FastSrc) -> Value {
    match (src.modifier, src.signed) {
        (SrcMod::Abs, false) => v,
        (SrcMod::NegAbs, false) => e.b.ins().ineg(v),
        (modifier, _) => modify(e, v, modifier),
    }
}

/// Emits a fast-form ALU instruction or comparison.
pub(super) fn emit(e: &mut Emitter, op: &Op) {
    match op {
        Op::FastAlu(f) => emit_alu(e, f),
        Op::FastCmp(c) => emit_cmp(e, c),
        &Op::PredLogic {
            op,
            exec,
            dst,
            a,
            b,
        } => emit_pred_logic(e, op, exec, dst, a, b),
        _ => {}
    }
}

/// `exec::alu::exec_pred_logic`: the enabled channels of predicate `dst` set to `a` op `b`.
fn emit_pred_logic(
    e: &mut Emitter,
    op: PredLogicOp,
    exec: ExecCtl,
    dst: u16,
    a: u16,
    b: Option<u16>,
) {
    let enables = e.channel_enables(exec, None);
    let mask = e.b.ins().ishl_imm_u(enables, i64::from(exec.offset));
    let x = e.load_pred(a);
    let y = match b {
        Some(b) => e.load_pred(b),
        None => e.const32(0),
    };
    let result = match op {
        PredLogicOp::And => e.b.ins().band(x, y),
        PredLogicOp::Or => e.b.ins().bor(x, y),
        PredLogicOp::Xor => e.b.ins().bxor(x, y),
        PredLogicOp::Not => e.b.ins().bnot(x),
    };
    set_pred_bits(e, dst, mask, result);
}

/// `Thread::set_pred_bits`: the bits of `mask` of predicate `index` set to those of `bits`.
fn set_pred_bits(e: &mut Emitter, index: u16, mask: Value, bits: Value) {
    let old = e.load_pred(index);
    let kept = e.b.ins().band_not(old, mask);
    let set = e.b.ins().band(bits, mask);
    let new = e.b.ins().bor(kept, set);
    e.store_pred(index, new);
}

fn emit_alu(e: &mut Emitter, f: &FastAlu) {
    let a = &f.general;
    let lanes = a.exec.size;
    // Channel enables and the SEL selector as `Thread::alu_channels` computes them.
    let (enables, selector) = if f.op == IntOp::Sel {
        let enables = e.enables(a.exec, None);
        let selector = match a.pred {
            Some(p) => e.pred_mask(a.exec, p),
            None => e.const32(u32::MAX),
        };
        (enables, selector)
    } else {
        (e.enables(a.exec, a.pred), e.const32(0))
    };
    let vector = vector_form(f.op, &f.srcs, lanes);
    // (A source that is the destination is read through the known values, so a partial
    // store below merges with its chunks as read rather than loading them again.)
    let results = if vector {
        alu_vectors(e, f, selector)
    } else {
        alu_lanes(e, f, selector)
    };
    // Every source element has been read: write the enabled channels.
    match f.dst_bytes {
        4 => write_results(e, a.exec.lanes(), f.dst, &results, enables),
        narrow => write_narrow(e, (f.dst, narrow), &results, enables),
    }
}

/// Writes the low `bytes` bytes (2 or 1) of each lane's result at register-file byte `dst`
/// onwards, one element per lane: the channels of `enables`.
fn write_narrow(e: &mut Emitter, (dst, bytes): (u32, u32), results: &[Value], enables: Enables) {
    // `i32x4` results are written sixteen bytes at a time: two chunks make eight words, four
    // make sixteen bytes.
    if (results.iter()).all(|&r| e.b.func.dfg.value_type(r).is_vector()) {
        let masks = (!enables.all).then(|| LaneMasks::of(e, enables));
        match (bytes, results.as_chunks::<2>(), results.as_chunks::<4>()) {
            (2, (pairs, []), _) => {
                for (group, &[a, b]) in (0..).zip(pairs) {
                    let words = low_halves(e, a, b, 4);
                    let mask = (masks.as_ref()).map(|m| {
                        let [x, y] = [m.chunk(e, 2 * group), m.chunk(e, 2 * group + 1)];
                        e.b.ins().snarrow(x, y)
                    });
                    store_merged(e, dst + 16 * group, words, mask);
                }
                return;
            }
            (1, _, (quads, [])) => {
                for (group, &[a, b, c, d]) in (0..).zip(quads) {
                    let low = low_halves(e, a, b, 4);
                    let high = low_halves(e, c, d, 4);
                    let bytes = low_halves(e, low, high, 2);
                    let mask = (masks.as_ref()).map(|m| {
                        let chunks = std::array::from_fn(|k| m.chunk(e, 4 * group + k as u32));
                        lane_masks_to_bytes(e, chunks)
                    });
                    store_merged(e, dst + 16 * group, bytes, mask);
                }
                return;
            }
            _ => {}
        }
    }
    let ty = if bytes == 2 { types::I16 } else { types::I8 };
    let mut lanes = Vec::with_capacity(4 * results.len());
    for &result in results {
        if e.b.func.dfg.value_type(result).is_vector() {
            lanes.extend((0..4).map(|k| e.b.ins().extractlane(result, k)));
        } else {
            lanes.push(result);
        }
    }
    for (lane, value) in (0..).zip(lanes) {
        let at = dst + bytes * lane;
        let mut stored = e.b.ins().ireduce(ty, value);
        if !enables.all {
            let old = e.load_grf(ty, at);
            let bit = (e.b.ins()).band_imm_u(enables.bits, i64::from(1u32 << lane));
            stored = e.b.ins().select(bit, stored, old);
        }
        e.store_grf(stored, at);
    }
}

/// Writes an instruction's results (`i32x4` chunks, or `i32` lanes) at register-file byte
/// `dst`: the channels of `enables` (of `all`). With every channel enabled (always when
/// `enables.all`; otherwise checked here) the results are stored as they are, without loading
/// the old destination to merge with.
pub(super) fn write_results(
    e: &mut Emitter,
    all: u32,
    dst: u32,
    results: &[Value],
    enables: Enables,
) {
    let vector = results
        .first()
        .is_some_and(|&v| e.b.func.dfg.value_type(v).is_vector());
    if enables.all {
        store_results(e, dst, results, vector, None);
        return;
    }
    let full = e.b.create_block();
    let partial = e.b.create_block();
    let done = e.b.create_block();
    let every = e.every_enabled(enables, all);
    e.b.ins().brif(every, full, &[], partial, &[]);
    // Both paths write only the destination; in optimised code what they stored is known
    // after them (block parameters), unless the program holds chunks in variables
    // (`jit::promote`): those live through the whole function in host vector registers, and
    // values carried past every merge pushed them to the stack (`divergent`'s accumulator: 7 %
    // more host instructions a launch). There the next reader loads what was stored (forwarded
    // from the store), except the next instruction when it reads the destination
    // (`Plan::feeds_next`: `divergent`'s `and` into its `cmp`, 2.8 % fewer host instructions).
    let ty = if vector { types::I32X4 } else { types::I32 };
    let chunks = 0..results.len() as u32;
    let carry = e.carries()
        && (e.promoted.is_empty()
            || (e.plan.feeds_next.get(e.pc) == Some(&true)
                && chunks
                    .clone()
                    .all(|i| !e.is_promoted(ty, dst + ty.bytes() * i))));
    let before = e.known_state();
    for (path, merge) in [(full, None), (partial, Some(enables))] {
        e.switch_knowing(path, before.clone());
        let stored = store_results(e, dst, results, vector, merge);
        let args: Vec<BlockArg> = if carry {
            stored.into_iter().map(BlockArg::from).collect()
        } else {
            Vec::new()
        };
        e.b.ins().jump(done, &args);
    }
    e.b.switch_to_block(done);
    if e.carries() {
        // (Entries of what was known before that the destination overlaps are dropped.)
        let mut state = before.without(dst, ty.bytes() * results.len() as u32);
        if carry {
            for at in chunks.map(|i| dst + ty.bytes() * i) {
                let value = e.b.append_block_param(done, ty);
                state = e.state_with(state, at, value);
            }
        }
        e.know_state(state);
    }
}

/// Stores an ALU result at register-file byte `dst`: `i32x4` chunks or single lanes, only the
/// channels of `enables` (merged with the old destination) when given. Returns what it stored.
fn store_results(
    e: &mut Emitter,
    dst: u32,
    results: &[Value],
    vector: bool,
    enables: Option<Enables>,
) -> Vec<Value> {
    let mut stored_values = Vec::with_capacity(results.len());
    if vector {
        let masks = enables.map(|enables| LaneMasks::of(e, enables));
        for (chunk, &value) in (0..).zip(results) {
            let at = dst + 16 * chunk;
            let stored = match &masks {
                Some(masks) => {
                    let old = e.load_grf(types::I32X4, at);
                    let mask = masks.chunk(e, chunk);
                    e.select_lanes(mask, value, old)
                }
                None => value,
            };
            if enables.is_none() && e.write_is_dead() {
                // (The next instruction reads this chunk as this value and overwrites it.)
                e.know_unstored(stored, at);
            } else {
                e.store_grf(stored, at);
            }
            stored_values.push(stored);
        }
    } else {
        for (lane, &value) in (0..).zip(results) {
            let at = dst + 4 * lane;
            let stored = match enables {
                Some(enables) => {
                    let old = e.load_grf(types::I32, at);
                    let bit = (e.b.ins()).band_imm_u(enables.bits, i64::from(1u32 << lane));
                    e.b.ins().select(bit, value, old)
                }
                None => value,
            };
            e.store_grf(stored, at);
            stored_values.push(stored);
        }
    }
    stored_values
}

/// The low half of each lane of `a` then of `b` (lanes of `lane_bytes` bytes, 4 or 2), as one
/// vector of lanes half as wide: a byte shuffle, the truncating counterpart of `snarrow`.
fn low_halves(e: &mut Emitter, a: Value, b: Value, lane_bytes: u8) -> Value {
    let half = lane_bytes / 2;
    let picks: [u8; 16] = std::array::from_fn(|i| {
        let i = i as u8;
        (i / half) * lane_bytes + i % half
    });
    let [a, b] = [a, b].map(|v| as_bytes(e, v));
    let picks = e.b.func.dfg.immediates.push(picks.to_vec().into());
    e.b.ins().shuffle(a, b, picks)
}

/// A 16-byte vector as `i8x16` (lanes in order).
fn as_bytes(e: &mut Emitter, v: Value) -> Value {
    match e.b.func.dfg.value_type(v) {
        types::I8X16 => v,
        _ => e.b.ins().bitcast(types::I8X16, lanes_in_order(), v),
    }
}

/// Sixteen lane masks (all ones or zero, four `i32x4` chunks) as one byte each, in order: a
/// saturating narrow keeps all-ones and zero lanes as they are.
fn lane_masks_to_bytes(e: &mut Emitter, [a, b, c, d]: [Value; 4]) -> Value {
    let low = e.b.ins().snarrow(a, b);
    let high = e.b.ins().snarrow(c, d);
    e.b.ins().snarrow(low, high)
}

/// Stores sixteen bytes at register-file byte `at`: merged with the old ones under `mask`
/// (its lanes all ones or zero, any lane width) when given.
fn store_merged(e: &mut Emitter, at: u32, value: Value, mask: Option<Value>) {
    let value = as_bytes(e, value);
    let stored = match mask {
        Some(mask) => {
            let mask = as_bytes(e, mask);
            let old = e.load_grf(types::I8X16, at);
            e.select_lanes(mask, value, old)
        }
        None => value,
    };
    e.store_grf(stored, at);
}

/// The Cranelift values the operations of `ops::int_ops` are built on: `i32x4` vectors of
/// four lanes, or single lanes as `i32` low bits or exact `i64` values.
struct Build<'e, 'a, 'f> {
    e: &'e mut Emitter<'a, 'f>,
    /// `I32X4`, `I32` or `I64`.
    ty: Type,
    /// Whether the sources are signed (all alike where vectors and `i32` lanes compare).
    signed: bool,
    /// SEL's selector, a bit per lane, and its vector masks once needed.
    selector: Value,
    masks: Option<LaneMasks>,
    /// The scalar behind each splatted vector source (a vector shift takes a scalar count).
    splats: Vec<(Value, Value)>,
    /// The vector shift count of a splatted source, once computed (the same for every chunk).
    count: Option<(Value, Value)>,
}

impl IntLanes for Build<'_, '_, '_> {
    type V = Value;
    type Count = Value;
    type At = u32;

    fn bits(&self) -> u32 {
        32
    }

    fn add(&mut self, a: Value, b: Value) -> Value {
        self.e.b.ins().iadd(a, b)
    }

    fn mul(&mut self, a: Value, b: Value) -> Value {
        self.e.b.ins().imul(a, b)
    }

    fn and(&mut self, a: Value, b: Value) -> Value {
        self.e.b.ins().band(a, b)
    }

    fn or(&mut self, a: Value, b: Value) -> Value {
        self.e.b.ins().bor(a, b)
    }

    fn xor(&mut self, a: Value, b: Value) -> Value {
        self.e.b.ins().bxor(a, b)
    }

    fn not(&mut self, a: Value) -> Value {
        self.e.b.ins().bnot(a)
    }

    fn count(&mut self, b: Value, mask: u32) -> Value {
        if !self.ty.is_vector() {
            return self.e.b.ins().band_imm_u(b, i64::from(mask));
        }
        if let Some((splat, count)) = self.count
            && splat == b
        {
            return count;
        }
        // `vector_form` admits vector shifts by splatted counts only.
        let scalar = match self.splats.iter().find(|(splat, _)| *splat == b) {
            Some((_, scalar)) => *scalar,
            None => self.e.b.ins().extractlane(b, 0),
        };
        let count = self.e.b.ins().band_imm_u(scalar, i64::from(mask));
        self.count = Some((b, count));
        count
    }

    fn shl(&mut self, a: Value, n: Value) -> Value {
        self.e.b.ins().ishl(a, n)
    }

    fn ushr(&mut self, a: Value, n: Value) -> Value {
        self.shift_right(a, n, false)
    }

    fn sshr(&mut self, a: Value, n: Value) -> Value {
        self.shift_right(a, n, true)
    }

    fn min(&mut self, a: Value, b: Value) -> Value {
        if self.signed || self.ty == types::I64 {
            self.e.b.ins().smin(a, b)
        } else {
            self.e.b.ins().umin(a, b)
        }
    }

    fn max(&mut self, a: Value, b: Value) -> Value {
        if self.signed || self.ty == types::I64 {
            self.e.b.ins().smax(a, b)
        } else {
            self.e.b.ins().umax(a, b)
        }
    }

    fn select(&mut self, at: u32, a: Value, b: Value) -> Value {
        if self.ty.is_vector() {
            let masks = match self.masks.take() {
                Some(masks) => masks,
                None => LaneMasks::new(self.e, self.selector),
            };
            let mask = masks.chunk(self.e, at);
            self.masks = Some(masks);
            self.e.b.ins().bitselect(mask, a, b)
        } else {
            let bit = self
                .e
                .b
                .ins()
                .band_imm_u(self.selector, i64::from(1u32 << at));
            self.e.b.ins().select(bit, a, b)
        }
    }
}

impl Build<'_, '_, '_> {
    /// `a` shifted right by `n`, copies of the sign bit (`arithmetic`) or zeros shifted in: for
    /// exact `i64` values, on their low 32 bits (the dword source's bits).
    fn shift_right(&mut self, a: Value, n: Value, arithmetic: bool) -> Value {
        let exact = self.ty == types::I64;
        let ins = &mut self.e.b;
        let bits = if exact {
            ins.ins().ireduce(types::I32, a)
        } else {
            a
        };
        let shifted = if arithmetic {
            ins.ins().sshr(bits, n)
        } else {
            ins.ins().ushr(bits, n)
        };
        match (exact, arithmetic) {
            (false, _) => shifted,
            (true, true) => ins.ins().sextend(types::I64, shifted),
            (true, false) => ins.ins().uextend(types::I64, shifted),
        }
    }
}

/// One `i32x4` result per group of four lanes, and the chunks as read of a source that is the
/// destination, if one is.
fn alu_vectors(e: &mut Emitter, f: &FastAlu, selector: Value) -> Vec<Value> {
    let chunks = f.general.exec.size / 4;
    // Scalar and immediate sources are read once.
    let mut splats = Vec::with_capacity(f.srcs.len());
    for src in &f.srcs {
        if matches!(src.region, Region::Scalar(_) | Region::Imm(_)) {
            let raw = raw_lane(e, src, 0);
            let scalar = low_bits(e, raw, src);
            splats.push((e.b.ins().splat(types::I32X4, scalar), scalar));
        }
    }
    let mut build = Build {
        e,
        ty: types::I32X4,
        signed: f.srcs.first().is_some_and(|s| s.signed),
        selector,
        masks: None,
        splats,
        count: None,
    };
    let mut out = Vec::with_capacity(chunks as usize);
    for chunk in 0..chunks {
        let mut splat = build.splats.iter();
        let mut v = Vec::with_capacity(3);
        for src in &f.srcs {
            v.push(match lane_vector(build.e, src, chunk) {
                Some(raw) => low_bits(build.e, raw, src),
                None => splat.next().map_or(selector, |(splat, _)| *splat),
            });
        }
        out.push(int_ops::eval(
            f.op,
            &mut build,
            chunk,
            sources(&v, selector),
        ));
    }
    out
}

/// The three sources of `eval`: those past the operation's arity, never read, are `spare`.
fn sources(v: &[Value], spare: Value) -> [Value; 3] {
    let at = |k: usize| v.get(k).copied().unwrap_or(spare);
    [at(0), at(1), at(2)]
}

/// One `i32` result per lane, computed on the low bits of the sources or, where the operation
/// needs them, on their exact values.
fn alu_lanes(e: &mut Emitter, f: &FastAlu, selector: Value) -> Vec<Value> {
    let lanes = f.general.exec.size;
    let exact = f.op.operands() == Operands::Exact;
    let mut build = Build {
        e,
        ty: if exact { types::I64 } else { types::I32 },
        signed: f.srcs.first().is_some_and(|s| s.signed),
        selector,
        masks: None,
        splats: Vec::new(),
        count: None,
    };
    let mut out = Vec::with_capacity(lanes as usize);
    for lane in 0..lanes {
        let mut v = Vec::with_capacity(3);
        for src in &f.srcs {
            let raw = raw_lane(build.e, src, lane);
            v.push(if exact {
                widen(build.e, raw, src)
            } else {
                low_bits(build.e, raw, src)
            });
        }
        let value = int_ops::eval(f.op, &mut build, lane, sources(&v, selector));
        out.push(if exact {
            build.e.b.ins().ireduce(types::I32, value)
        } else {
            value
        });
    }
    out
}

fn condition(rel: RelOp, signed: bool) -> IntCC {
    match (rel, signed) {
        (RelOp::Eq, _) => IntCC::Equal,
        (RelOp::Ne, _) => IntCC::NotEqual,
        (RelOp::Gt, true) => IntCC::SignedGreaterThan,
        (RelOp::Ge, true) => IntCC::SignedGreaterThanOrEqual,
        (RelOp::Lt, true) => IntCC::SignedLessThan,
        (RelOp::Le, true) => IntCC::SignedLessThanOrEqual,
        (RelOp::Gt, false) => IntCC::UnsignedGreaterThan,
        (RelOp::Ge, false) => IntCC::UnsignedGreaterThanOrEqual,
        (RelOp::Lt, false) => IntCC::UnsignedLessThan,
        (RelOp::Le, false) => IntCC::UnsignedLessThanOrEqual,
    }
}

/// A comparison's source as `i32x4` chunks: loaded chunk by chunk from a contiguous region,
/// or one splat of a scalar or an immediate.
enum ChunkSource {
    /// Dwords or widened words, one per lane ([`lane_vector`]).
    PerLane(FastSrc),
    Splat(Value),
}

impl ChunkSource {
    fn new(e: &mut Emitter, src: &FastSrc) -> ChunkSource {
        match src.region {
            Region::Contiguous(_)
            | Region::Words(_)
            | Region::WordPerDword(_)
            | Region::Bytes(_)
            | Region::BytePerDword(_) => ChunkSource::PerLane(*src),
            Region::Scalar(_) | Region::Imm(_) => {
                let raw = raw_lane(e, src, 0);
                ChunkSource::Splat(e.b.ins().splat(types::I32X4, raw))
            }
        }
    }

    /// Lanes `4 * chunk .. 4 * chunk + 4`.
    fn chunk(&self, e: &mut Emitter, chunk: u32) -> Value {
        match self {
            ChunkSource::PerLane(src) => match lane_vector(e, src, chunk) {
                Some(lanes) => lanes,
                None => {
                    let raw = raw_lane(e, src, 0);
                    e.b.ins().splat(types::I32X4, raw)
                }
            },
            ChunkSource::Splat(v) => *v,
        }
    }
}

fn emit_cmp(e: &mut Emitter, c: &FastCmp) {
    let lanes = c.exec.size;
    let enables = e.enables(c.exec, None);
    let [sx, sy] = c.srcs;
    let mut result = e.const32(0);
    if cmp_vector_form(c) {
        let cc = condition(c.rel, sx.signed);
        // A scalar or immediate source is splatted once for every chunk.
        let (x, y) = (ChunkSource::new(e, &sx), ChunkSource::new(e, &sy));
        let holds: Vec<Value> = (0..lanes / 4)
            .map(|chunk| {
                let x = x.chunk(e, chunk);
                let y = y.chunk(e, chunk);
                e.b.ins().icmp(cc, x, y)
            })
            .collect();
        if let CmpTarget::Dwords(dst) = c.dst {
            // The lanes of the compares are the masks to write.
            write_results(e, c.exec.lanes(), dst, &holds, enables);
            return;
        }
        // Sixteen lanes at a time: the all-ones or zero lanes narrowed (saturating, so they
        // stay all ones or zero) to one byte each, whose top bits are the lanes' bits in order.
        for (group, holds) in (0..).zip(holds.chunks(4)) {
            let bits = match *holds {
                [a, b, c, d] => {
                    let bytes = lane_masks_to_bytes(e, [a, b, c, d]);
                    e.b.ins().vhigh_bits(types::I32, bytes)
                }
                _ => {
                    let mut bits = e.const32(0);
                    for (chunk, &h) in (0..).zip(holds) {
                        let chunk_bits = e.b.ins().vhigh_bits(types::I32, h);
                        let chunk_bits = e.b.ins().ishl_imm_u(chunk_bits, i64::from(4 * chunk));
                        bits = e.b.ins().bor(bits, chunk_bits);
                    }
                    bits
                }
            };
            let bits = e.b.ins().ishl_imm_u(bits, i64::from(16 * group));
            result = e.b.ins().bor(result, bits);
        }
    } else {
        // Exact values compared as signed 64-bit integers.
        let cc = condition(c.rel, true);
        let mut masks = Vec::with_capacity(lanes as usize);
        for lane in 0..lanes {
            let rx = raw_lane(e, &sx, lane);
            let ry = raw_lane(e, &sy, lane);
            let wx = widen(e, rx, &sx);
            let wy = widen(e, ry, &sy);
            let holds = e.b.ins().icmp(cc, wx, wy);
            if matches!(c.dst, CmpTarget::Dwords(_)) {
                masks.push(e.b.ins().bmask(types::I32, holds));
                continue;
            }
            let bit = e.b.ins().uextend(types::I32, holds);
            let bit = e.b.ins().ishl_imm_u(bit, i64::from(lane));
            result = e.b.ins().bor(result, bit);
        }
        if let CmpTarget::Dwords(dst) = c.dst {
            write_results(e, c.exec.lanes(), dst, &masks, enables);
            return;
        }
    }
    let CmpTarget::Pred(pred) = c.dst else {
        return;
    };
    // `set_pred_bits(pred, enables << offset, (result & enables) << offset)`.
    let shift = i64::from(c.exec.offset);
    let mask = e.b.ins().ishl_imm_u(enables.bits, shift);
    let bits = e.b.ins().band(result, enables.bits);
    let bits = e.b.ins().ishl_imm_u(bits, shift);
    set_pred_bits(e, pred, mask, bits);
}
