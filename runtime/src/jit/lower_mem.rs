//! Native code for scattered memory messages of one 4- or 8-byte block per lane: SVM gathers and
//! scatters (`svm_gather`, `svm_scatter`, and the LSC loads and stores decoded to them), and
//! `gather_scaled`/`scatter_scaled` of bytes, words or dwords on a bound surface (a byte or word
//! in the low bytes of its lane's dword: a gather zero-extends it, as the interpreter does).
//!
//! A helper finds the memory the message addresses and returns the host address of its bytes:
//! for SVM the allocation holding the first enabled lane's address (`helper_svm_window`), for
//! a surface its buffer and the message's global offset (`helper_surface_window`). Every enabled
//! lane's address is then checked inline (inside that memory, aligned to the block size) before
//! any byte moves. A message that fails the check (unmapped, out of bounds, misaligned, lanes
//! in several allocations, an unbound surface) calls the interpreter's handler instead, which
//! runs it from the start with its exact rules (a trap, or a surface's zeros and dropped
//! writes); so does one on memory of fewer than 8 bytes.
//!
//! The memory a message found is kept in its window slot (`JitCtx::windows`) for its next run
//! with the same context (the next thread of a launch loop): an SVM allocation is used again
//! when the first enabled lane's address is inside it, a surface when the helper said its
//! buffer and global offset are the same for every thread. In optimised code, with every lane
//! enabled, a message whose lanes' addresses are consecutive (`lane 0's + lane * size`), inside
//! the memory and (SVM) aligned moves as one block copy instead of the lane loops, and a dword
//! surface message with offsets in any order moves lane by lane without loops once the greatest
//! offset is inside the memory; one found not consecutive once (`Window::scattered`) goes
//! straight to its lanes on the later runs of its context.

use std::mem::offset_of;

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{
    Block, BlockArg, ConstantData, InstBuilder, MemFlagsData, Type, Value, types,
};

use super::context::{JitCtx, Window as CachedWindow};
use super::emitter::{Emitter, field, grf_flags};
use super::plan::Lowering;
use super::{Tier, bound_addresses, enter, handlers};
use crate::machine::StateSlot;
use crate::ops::{
    ExecCtl, Gather4, Gather4Target, GatherScaled, Op, PredCtl, Raw, SurfaceRef, SvmScattered,
};
use crate::program::Program;

/// The facts of a message the emitted code needs.
struct Message<'o> {
    exec: ExecCtl,
    pred: Option<PredCtl>,
    /// Bytes per lane in memory.
    size: u64,
    /// Bytes per lane in the register file: `size`, or a dword for a byte or word
    /// `gather_scaled`/`scatter_scaled`.
    slot: u64,
    scatter: bool,
    data: &'o Raw,
    /// Where each lane's address comes from.
    addresses: Addresses<'o>,
    /// Whether a lane's address must be a multiple of its size (else the handler traps): the
    /// four-channel messages; `gather_scaled` moves misaligned dwords.
    aligned: bool,
}

impl Message<'_> {
    /// The register-file bytes of the message's addresses (64-bit SVM addresses or 32-bit
    /// surface offsets, a lane's at `lane * size`).
    fn address_bytes(&self) -> std::ops::Range<u32> {
        let (raw, bytes) = self.addresses.operand();
        let len = bytes.saturating_mul(u64::from(self.exec.size));
        let start = raw.base;
        start..u32::try_from(u64::from(start) + len).unwrap_or(u32::MAX)
    }

    /// The register-file bytes of the message's data (`fits` checked them against the file).
    fn data_bytes(&self) -> std::ops::Range<u32> {
        let len = self.slot.saturating_mul(u64::from(self.exec.size));
        let start = self.data.base;
        start..u32::try_from(u64::from(start) + len).unwrap_or(u32::MAX)
    }
}

enum Addresses<'o> {
    /// A 64-bit operand per lane, scaled and offset (`SvmScattered::lane_address`).
    Svm(&'o SvmScattered),
    /// The global offset plus a 32-bit byte offset per lane.
    Surface(&'o Raw),
}

impl<'o> Addresses<'o> {
    /// The register operand holding the lanes' addresses or offsets, and its bytes a lane.
    fn operand(&self) -> (&'o Raw, u64) {
        match *self {
            Addresses::Svm(s) => (&s.addresses, 8),
            Addresses::Surface(offsets) => (offsets, 4),
        }
    }
}

fn message(op: &Op) -> Option<Message<'_>> {
    fn svm(s: &SvmScattered, scatter: bool) -> Message<'_> {
        Message {
            exec: s.exec,
            pred: s.pred,
            size: u64::from(s.block_bytes),
            slot: u64::from(s.block_bytes),
            scatter,
            data: &s.data,
            addresses: Addresses::Svm(s),
            aligned: true,
        }
    }
    fn surface(g: &GatherScaled, scatter: bool) -> Message<'_> {
        Message {
            exec: g.exec,
            pred: g.pred,
            size: u64::from(g.bytes),
            slot: 4,
            scatter,
            data: &g.data,
            addresses: Addresses::Surface(&g.element_offset),
            aligned: false,
        }
    }
    // A four-channel surface message of the red channel alone is a dword `gather_scaled`:
    // lane i's dword at data byte 4 * i (IGC's OpenCL buffer accesses).
    fn surface4(g: &Gather4, scatter: bool) -> Option<Message<'_>> {
        match &g.target {
            Gather4Target::Surface {
                surface: SurfaceRef::Var(_),
                offsets,
                ..
            } if g.mask == 1 => Some(Message {
                exec: g.exec,
                pred: g.pred,
                size: 4,
                slot: 4,
                scatter,
                data: &g.data,
                addresses: Addresses::Surface(offsets),
                aligned: true,
            }),
            _ => None,
        }
    }
    match op {
        Op::Gather4(g) => surface4(g, false),
        Op::Scatter4(g) => surface4(g, true),
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
        || (a == d && m.slot <= address_bytes)
        || a + address_bytes * lanes <= d
        || d + m.slot * lanes <= a;
    let addresses_fit =
        inside(addresses, address_bytes * lanes) && apart && (address_bytes == 8 || m.slot == 4);
    // A block per lane as wide as its register slot, or a surface's byte or word in a dword.
    let sizes = match m.size {
        4 | 8 => m.slot == m.size,
        1 | 2 => m.slot == 4 && address_bytes == 4,
        _ => false,
    };
    let predicates = program.layout.predicates.len();
    // Host memory is read as the little-endian words the buffers hold.
    cfg!(target_endian = "little")
        && !program.general_only
        && sizes
        && (1..=32).contains(&lanes)
        && addresses_fit
        && inside(m.data, m.slot * lanes)
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
    let (raw, bytes) = addresses.operand();
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
    let scaled = e.b.ins().imul_imm_u(lane, m.slot as i64);
    e.b.ins().iadd(e.grf, scaled)
}

/// The type of a lane's register slot.
fn slot_type(m: &Message) -> Type {
    if m.slot == 8 { types::I64 } else { types::I32 }
}

/// A lane's block read from memory at `memory`, as its register slot holds it (a byte or word
/// zero-extended to a dword).
fn load_lane(e: &mut Emitter, m: &Message, memory: Value) -> Value {
    let ty = slot_type(m);
    match m.size {
        1 => e.b.ins().uload8(ty, host_flags(), memory, 0),
        2 => e.b.ins().uload16(ty, host_flags(), memory, 0),
        _ => e.b.ins().load(ty, host_flags(), memory, 0),
    }
}

/// A lane's register slot `value` written to memory at `memory` (a byte or word: its low bytes).
fn store_lane(e: &mut Emitter, m: &Message, value: Value, memory: Value) {
    match m.size {
        1 => e.b.ins().istore8(host_flags(), value, memory, 0),
        2 => e.b.ins().istore16(host_flags(), value, memory, 0),
        _ => e.b.ins().store(host_flags(), value, memory, 0),
    };
}

/// The memory of the message (its window slot `slot` when it still holds, else a helper's,
/// kept in the slot): the host address of its bytes, its first address, its length and the
/// global offset. Leaves for `slow` when no memory is found; `some` is current and ends.
fn find_window(
    e: &mut Emitter,
    pc: usize,
    (m, computed): (&Message, Option<&SvmScattered>),
    enables: Value,
    slot: u32,
) -> Window {
    let windows = e.windows;
    let at = |f: usize| field(slot as usize * size_of::<CachedWindow>() + f);
    let load = |e: &mut Emitter, f: usize| {
        e.b.ins()
            .load(types::I64, MemFlagsData::trusted(), windows, at(f))
    };
    let miss = e.b.create_block();
    let fill = e.b.create_block();
    let found = e.b.create_block();
    let slow = e.b.create_block();
    let zero = e.const64(0);
    let argument = match &m.addresses {
        // An allocation holds for any address inside it.
        Addresses::Svm(_) => {
            let first = e.b.ins().ctz(enables);
            let first = e.b.ins().uextend(types::I64, first);
            let address = address_of(e, &m.addresses, first, zero);
            let base = load(e, offset_of!(CachedWindow, base));
            let len = load(e, offset_of!(CachedWindow, len));
            let inside = e.b.ins().isub(address, base);
            let hit = e.b.ins().icmp(IntCC::UnsignedLessThan, inside, len);
            e.b.ins().brif(hit, found, &[], miss, &[]);
            address
        }
        Addresses::Surface(_) => {
            let pc_value = e.const64(pc as i64);
            let reusable = load(e, offset_of!(CachedWindow, reusable));
            match state_slot(e.program, pc) {
                Some(first) => {
                    // Found for the number the variable's state slot holds now.
                    let keyed = e.b.create_block();
                    e.b.ins().brif(reusable, found, &[], keyed, &[]);
                    e.b.switch_to_block(keyed);
                    let key = load(e, offset_of!(CachedWindow, state));
                    let at = field(first as usize * size_of::<StateSlot>());
                    let flags = MemFlagsData::trusted();
                    let now = e.b.ins().load(types::I64, flags, e.states, at);
                    let same = e.b.ins().icmp(IntCC::Equal, key, now);
                    let set = e.b.ins().icmp_imm_u(IntCC::NotEqual, key, 0);
                    let hit = e.b.ins().band(same, set);
                    e.b.ins().brif(hit, found, &[], miss, &[]);
                }
                None => {
                    e.b.ins().brif(reusable, found, &[], miss, &[]);
                }
            }
            pc_value
        }
    };
    e.b.switch_to_block(miss);
    let helper = match &m.addresses {
        Addresses::Svm(_) => enter::helper_svm_window as enter::Helper,
        Addresses::Surface(_) => enter::helper_surface_window,
    };
    let host = e.call_helper_with(helper, argument);
    e.b.ins().brif(host, fill, &[], slow, &[]);
    e.b.switch_to_block(fill);
    let store = |e: &mut Emitter, value: Value, f: usize| {
        e.b.ins()
            .store(MemFlagsData::trusted(), value, windows, at(f));
    };
    store(e, host, offset_of!(CachedWindow, host));
    for (from, to) in [
        (
            offset_of!(JitCtx, window_base),
            offset_of!(CachedWindow, base),
        ),
        (
            offset_of!(JitCtx, window_len),
            offset_of!(CachedWindow, len),
        ),
        (
            offset_of!(JitCtx, global_offset),
            offset_of!(CachedWindow, global),
        ),
        (
            offset_of!(JitCtx, window_reusable),
            offset_of!(CachedWindow, reusable),
        ),
        (
            offset_of!(JitCtx, window_state),
            offset_of!(CachedWindow, state),
        ),
    ] {
        let value = e.load_ctx(types::I64, from);
        store(e, value, to);
    }
    if let Some(s) = computed {
        prepare_block(e, m, s, slot);
    }
    e.b.ins().jump(found, &[]);
    e.b.switch_to_block(found);
    Window {
        host: load(e, offset_of!(CachedWindow, host)),
        base: load(e, offset_of!(CachedWindow, base)),
        len: load(e, offset_of!(CachedWindow, len)),
        global: load(e, offset_of!(CachedWindow, global)),
        slow,
        windows,
        slot,
    }
}

/// The state slot (`JitCtx::states`) a surface message's variable reads its binding-table
/// number from; `None` for SVM, the SLM and stateless messages.
fn state_slot(program: &Program, pc: usize) -> Option<u32> {
    let (surface, _) = handlers::surface_operands(program.code.get(pc)?)?;
    let SurfaceRef::Var(var) = surface else {
        return None;
    };
    program.layout.state_slot(var)
}

/// What [`find_window`] found.
struct Window {
    host: Value,
    base: Value,
    len: Value,
    global: Value,
    /// The block that runs the interpreter's handler (filled last).
    slow: Block,
    /// The window slots (`JitCtx::windows`) and the message's.
    windows: Value,
    slot: u32,
}

impl Window {
    /// The offset of field `f` of the message's slot from `windows`.
    fn field(&self, f: usize) -> i32 {
        field(self.slot as usize * size_of::<CachedWindow>() + f)
    }
}

/// Whether the message can move as one block when its lanes' addresses are consecutive: SVM
/// operands that are the addresses (scale 1), or surface offsets; in optimised code only (the
/// check and the copy are about 60 IR instructions more per message, which a program's first,
/// small launches on quick code would pay in compile time and not win back).
fn block_shape(e: &Emitter, m: &Message) -> bool {
    let shape = match m.addresses {
        Addresses::Svm(s) => s.address_scale == 1,
        Addresses::Surface(_) => true,
    };
    // (Bytes or words widen or narrow 16 bytes of memory at a time.)
    let pieces = m.size == m.slot || (u64::from(m.exec.size) * m.size).is_multiple_of(16);
    shape && pieces && e.tier == Tier::Optimized
}

/// Vector lanes of 16 bytes holding `bytes`-byte elements.
fn vector_of(bytes: u64) -> Type {
    if bytes == 8 {
        types::I64X2
    } else {
        types::I32X4
    }
}

/// With every lane enabled: whether lane `i`'s address is lane 0's plus `i * size` (checked
/// 16 bytes of address operands at a time), inside the memory and (SVM) aligned, so the whole
/// message moves as one block copy. Returns that condition and lane 0's offset into the
/// memory. The address operands are read before any data moves.
fn consecutive(e: &mut Emitter, m: &Message, w: &Window) -> (Value, Value) {
    let (raw, bytes) = m.addresses.operand();
    let lanes = u64::from(m.exec.size);
    let int = if bytes == 8 { types::I64 } else { types::I32 };
    let base = u64::from(raw.base);
    let first = e.b.ins().load(int, grf_flags(), e.grf, offset(base));
    // Each lane's operand minus `lane * size` must equal lane 0's: any difference is kept.
    let per = 16 / bytes;
    let vector = vector_of(bytes);
    let splat = e.b.ins().splat(vector, first);
    let mut differ: Option<Value> = None;
    let mut lane = 0;
    while lane + per <= lanes {
        let v =
            e.b.ins()
                .load(vector, grf_flags(), e.grf, offset(base + lane * bytes));
        let steps: Vec<u8> = (lane..lane + per)
            .flat_map(|l| {
                let step = l * m.size;
                if bytes == 8 {
                    step.to_le_bytes().to_vec()
                } else {
                    (step as u32).to_le_bytes().to_vec()
                }
            })
            .collect();
        let constant = e.b.func.dfg.constants.insert(ConstantData::from(steps));
        let steps = e.b.ins().vconst(vector, constant);
        let shifted = e.b.ins().isub(v, steps);
        let diff = e.b.ins().bxor(shifted, splat);
        differ = Some(match differ {
            Some(d) => e.b.ins().bor(d, diff),
            None => diff,
        });
        lane += per;
    }
    let mut mismatch = match differ {
        Some(d) => e.b.ins().vany_true(d),
        None => e.b.ins().iconst(types::I8, 0),
    };
    // (Fewer lanes than a vector: at most two dword offsets, compared one by one.)
    while lane < lanes {
        let v =
            e.b.ins()
                .load(int, grf_flags(), e.grf, offset(base + lane * bytes));
        let expected = e.b.ins().iadd_imm_s(first, (lane * m.size) as i64);
        let ne = e.b.ins().icmp(IntCC::NotEqual, v, expected);
        mismatch = e.b.ins().bor(mismatch, ne);
        lane += 1;
    }
    let total = lanes * m.size;
    let (address, wraps) = match m.addresses {
        Addresses::Svm(s) => (e.b.ins().iadd_imm_s(first, s.address_offset), None),
        Addresses::Surface(_) => {
            // The offsets are 32-bit: lane 0's plus the block must not wrap.
            let wide = e.b.ins().uextend(types::I64, first);
            let wraps = e.b.ins().icmp_imm_u(
                IntCC::UnsignedGreaterThan,
                wide,
                ((1u64 << 32) - total) as i64,
            );
            (e.b.ins().iadd(w.global, wide), Some(wraps))
        }
    };
    let off = e.b.ins().isub(address, w.base);
    let room = e.b.ins().iadd_imm_s(w.len, -(total as i64));
    let short =
        e.b.ins()
            .icmp_imm_u(IntCC::UnsignedLessThan, w.len, total as i64);
    let beyond = e.b.ins().icmp(IntCC::UnsignedGreaterThan, off, room);
    let mut bad = e.b.ins().bor(mismatch, short);
    bad = e.b.ins().bor(bad, beyond);
    if let Some(wraps) = wraps {
        bad = e.b.ins().bor(bad, wraps);
    }
    // (A `gather_scaled` dword needs no alignment, as in `every_lane`; an SVM block and a
    // four-channel message do.)
    if m.aligned {
        let low_bits = e.b.ins().band_imm_u(address, (m.size - 1) as i64);
        let misaligned = e.b.ins().icmp_imm_u(IntCC::NotEqual, low_bits, 0);
        bad = e.b.ins().bor(bad, misaligned);
    }
    (bad, off)
}

/// Whether a message with every lane enabled whose addresses are not consecutive moves lane
/// by lane without loops ([`every_lane`]): surface offsets, four lanes or more.
fn unrolls(m: &Message) -> bool {
    matches!(m.addresses, Addresses::Surface(_)) && m.exec.size.is_multiple_of(4)
}

/// With every lane enabled, surface offsets in any order ([`unrolls`]): the offsets read four at
/// a time for their greatest, checked against the memory, then every lane's block moved; no
/// loop, no lane mask. (A `gather_scaled` dword needs no alignment: the interpreter
/// moves its four bytes wherever they are; a four-channel message's must be aligned,
/// `Message::aligned`.) A message with a lane outside the memory leaves for the handler before
/// anything moves.
fn every_lane(e: &mut Emitter, m: &Message, w: &Window) {
    let Addresses::Surface(offsets) = m.addresses else {
        return;
    };
    if m.scatter {
        // (A gather writes every lane's dword here; a scatter reads them.)
        e.flush_promoted(m.data_bytes());
    }
    let base = u64::from(offsets.base);
    let vectors: Vec<Value> = (0..u64::from(m.exec.size) / 4)
        .map(|k| {
            e.b.ins()
                .load(types::I32X4, grf_flags(), e.grf, offset(base + 16 * k))
        })
        .collect();
    let (mut high, mut any) = (vectors[0], vectors[0]);
    for &v in &vectors[1..] {
        high = e.b.ins().umax(high, v);
        any = e.b.ins().bor(any, v);
    }
    let mut greatest = e.b.ins().extractlane(high, 0);
    for lane in 1..4u8 {
        let x = e.b.ins().extractlane(high, lane);
        greatest = e.b.ins().umax(greatest, x);
    }
    let greatest = e.b.ins().uextend(types::I64, greatest);
    // A lane's offset into the memory is `global - base + its offset`. With that shift below
    // 2^32 (a surface window starts at 0, its global offset is 32-bit) no sum wraps, and the
    // greatest offset inside the memory puts every other inside too.
    let shift = e.b.ins().isub(w.global, w.base);
    let limit = e.b.ins().iadd_imm_s(w.len, -(m.size as i64));
    let off = e.b.ins().iadd(shift, greatest);
    let outside = e.b.ins().icmp(IntCC::UnsignedGreaterThan, off, limit);
    let wide =
        e.b.ins()
            .icmp_imm_u(IntCC::UnsignedGreaterThan, shift, i64::from(u32::MAX));
    let mut bad = e.b.ins().bor(outside, wide);
    // A four-channel message traps on a misaligned lane: the global offset and every offset a
    // multiple of four, or the handler decides.
    if m.aligned {
        let mut bits = e.b.ins().extractlane(any, 0);
        for lane in 1..4u8 {
            let x = e.b.ins().extractlane(any, lane);
            bits = e.b.ins().bor(bits, x);
        }
        let bits = e.b.ins().uextend(types::I64, bits);
        let bits = e.b.ins().bor(bits, w.global);
        let low_bits = e.b.ins().band_imm_u(bits, (m.size - 1) as i64);
        let misaligned = e.b.ins().icmp_imm_u(IntCC::NotEqual, low_bits, 0);
        bad = e.b.ins().bor(bad, misaligned);
    }
    let good = e.b.create_block();
    e.b.ins().brif(bad, w.slow, &[], good, &[]);
    e.b.switch_to_block(good);
    let start = e.b.ins().iadd(w.host, shift);
    let data = u64::from(m.data.base);
    for lane in 0..u64::from(m.exec.size) {
        let dword =
            e.b.ins()
                .load(types::I32, grf_flags(), e.grf, offset(base + 4 * lane));
        let dword = e.b.ins().uextend(types::I64, dword);
        let memory = e.b.ins().iadd(start, dword);
        let slot = offset(data + 4 * lane);
        if m.scatter {
            let value = e.b.ins().load(types::I32, grf_flags(), e.grf, slot);
            store_lane(e, m, value, memory);
        } else {
            let value = load_lane(e, m, memory);
            e.b.ins().store(grf_flags(), value, e.grf, slot);
        }
    }
    // (Registers this module does not place were written.)
    e.forget_grf(m.data_bytes());
}

/// Goes to `every` when the message's `enables` are all of its channels (without a test where
/// that is known, `Enables::all`), otherwise to `some`.
fn every_lane_or(e: &mut Emitter, m: &Message, enables: Value, (every, some): (Block, Block)) {
    if e.all_enabled(m.exec, m.pred) {
        e.b.ins().jump(every, &[]);
    } else {
        let full = (e.b.ins()).icmp_imm_u(IntCC::Equal, enables, i64::from(m.exec.lanes()));
        e.b.ins().brif(full, every, &[], some, &[]);
    }
}

/// With the message's addresses pending from a binding (its bit of `JitCtx::pending` set in its
/// window slot, `bound_addresses`), every lane enabled and the binding's stride its block size:
/// lane 0's address is the binding's pointer of the thread's first work-item, and the message
/// moves as one block when it lies inside the window kept in the slot and is aligned. Otherwise
/// (or without a pending binding) the pointers are written and the message continues at `read`,
/// which reads them from the register file; after the block, at `next`.
fn computed_block(
    e: &mut Emitter,
    m: &Message,
    enables: Value,
    slot: u32,
    (read, leave): (Block, &Leave),
) {
    let windows = e.windows;
    let at = |f: usize| field(slot as usize * size_of::<CachedWindow>() + f);
    let load = |e: &mut Emitter, f: usize| {
        e.b.ins()
            .load(types::I64, MemFlagsData::trusted(), windows, at(f))
    };
    let pending = e.load_ctx(types::I64, offset_of!(JitCtx, pending));
    let bit = load(e, offset_of!(CachedWindow, pointer_bit));
    let mine = e.b.ins().band(pending, bit);
    let computed = e.b.create_block();
    let copy = e.b.create_block();
    let written = e.b.create_block();
    e.b.ins().brif(mine, computed, &[], read, &[]);

    // (Nothing on the way writes registers: what is known at the message's start holds.)
    // Lane 0's offset into the memory is the slot's offset for work-item 0 plus the thread's
    // first work-item's steps; the range, the stride and the alignment were checked when the
    // memory was found (`prepare_block`), so one compare is left.
    // (Two branches: cheaper than combining the conditions.)
    e.switch_carrying(computed);
    let in_range = e.b.create_block();
    every_lane_or(e, m, enables, (in_range, written));
    e.switch_carrying(in_range);
    let item = e.load_ctx(types::I64, offset_of!(JitCtx, first_item));
    let step = e.b.ins().imul_imm_u(item, m.size as i64);
    let first = load(e, offset_of!(CachedWindow, block_offset));
    let off = e.b.ins().iadd(first, step);
    let room = load(e, offset_of!(CachedWindow, block_room));
    let inside = e.b.ins().icmp(IntCC::UnsignedLessThan, off, room);
    e.b.ins().brif(inside, copy, &[], written, &[]);

    e.switch_carrying(copy);
    let host = load(e, offset_of!(CachedWindow, block_host));
    let memory = e.b.ins().iadd(host, step);
    let moved = block_copy(e, m, memory);
    leave.moved(e, &moved);

    e.b.switch_to_block(written);
    let zero = e.const64(0);
    e.call_helper_with(enter::helper_materialise, zero);
    e.b.ins().jump(read, &[]);
}

/// Once a message whose addresses a binding gives (`bound_addresses::computable`) has found
/// its memory (window slot `slot` just filled): the slot's block fields
/// (`CachedWindow::block_offset`, `block_host`, `block_room`). Lane 0's address on the thread
/// whose first work-item is `i` is `pointer_first + i * size + address_offset`; with a stride
/// equal to the block size the lanes are consecutive, and since `size` is a power of two the
/// address's alignment does not depend on `i`. The message fits when its offset into the
/// memory is at most `len - lanes * size`.
fn prepare_block(e: &mut Emitter, m: &Message, s: &SvmScattered, slot: u32) {
    let windows = e.windows;
    let at = |f: usize| field(slot as usize * size_of::<CachedWindow>() + f);
    let load = |e: &mut Emitter, f: usize| {
        e.b.ins()
            .load(types::I64, MemFlagsData::trusted(), windows, at(f))
    };
    let first = load(e, offset_of!(CachedWindow, pointer_first));
    let stride = load(e, offset_of!(CachedWindow, pointer_stride));
    let base = load(e, offset_of!(CachedWindow, base));
    let len = load(e, offset_of!(CachedWindow, len));
    let host = load(e, offset_of!(CachedWindow, host));
    let total = u64::from(m.exec.size) * m.size;
    let address = e.b.ins().iadd_imm_s(first, s.address_offset);
    let offset = e.b.ins().isub(address, base);
    let host = e.b.ins().iadd(host, offset);
    let low_bits = e.b.ins().band_imm_u(address, (m.size - 1) as i64);
    let aligned = e.b.ins().icmp_imm_u(IntCC::Equal, low_bits, 0);
    let dense = e.b.ins().icmp_imm_u(IntCC::Equal, stride, m.size as i64);
    let long =
        e.b.ins()
            .icmp_imm_u(IntCC::UnsignedGreaterThanOrEqual, len, total as i64);
    let fits = e.b.ins().band(aligned, dense);
    let fits = e.b.ins().band(fits, long);
    let room = e.b.ins().iadd_imm_s(len, 1 - total as i64);
    let none = e.const64(0);
    let room = e.b.ins().select(fits, room, none);
    for (value, f) in [
        (offset, offset_of!(CachedWindow, block_offset)),
        (host, offset_of!(CachedWindow, block_host)),
        (room, offset_of!(CachedWindow, block_room)),
    ] {
        e.b.ins()
            .store(MemFlagsData::trusted(), value, windows, at(f));
    }
}

/// The pieces a whole message's data (`lanes * slot` bytes of registers) moves in: 16 bytes
/// at a time (as the `i32x4` the ALU reads), then 8 and 4. Their offsets into the data, and
/// types.
fn pieces(m: &Message) -> Vec<(u32, Type)> {
    let total = m.exec.size * m.slot as u32;
    let mut pieces = Vec::new();
    let mut at = 0;
    while at < total {
        let ty = match total - at {
            16.. => types::I32X4,
            8.. => types::I64,
            _ => types::I32,
        };
        pieces.push((at, ty));
        at += ty.bytes();
    }
    pieces
}

/// Moves the whole message between the memory at `memory` and the data operand
/// ([`pieces`]); returns the values moved, which the data operand holds after it.
fn block_copy(e: &mut Emitter, m: &Message, memory: Value) -> Vec<Value> {
    if m.size != m.slot {
        return converting_copy(e, m, memory);
    }
    let data = m.data.base;
    let mut moved = Vec::new();
    for (at, ty) in pieces(m) {
        let value = if m.scatter {
            let value = e.load_grf(ty, data + at);
            e.b.ins()
                .store(host_flags(), value, memory, offset(u64::from(at)));
            value
        } else {
            let value =
                e.b.ins()
                    .load(ty, host_flags(), memory, offset(u64::from(at)));
            if e.write_is_dead() && block_shape(e, m) {
                // (The next instruction overwrites these chunks and reads them as these
                // values, which the paths' meeting hands it: a block-shaped message before an
                // ALU instruction reached from it alone carries them, `Leave`. Every other
                // path of the message stores them.)
                e.know_unstored(value, data + at);
            } else {
                e.store_grf(value, data + at);
            }
            value
        };
        moved.push(value);
    }
    moved
}

/// [`block_copy`] of a byte or word message ([`block_shape`]: whole 16-byte pieces of memory):
/// a gather's bytes or words zero-extended to its lanes' dwords, a scatter's dwords cut to their
/// low bytes (masked, so that the saturating narrowing keeps them whole). Returns the `i32x4`
/// register pieces in order, as [`pieces`] lists them.
fn converting_copy(e: &mut Emitter, m: &Message, memory: Value) -> Vec<Value> {
    let narrow = if m.size == 1 {
        types::I8X16
    } else {
        types::I16X8
    };
    // Each 16 bytes of memory are 16 / size lanes, their dwords 64 / size register bytes.
    let registers = 64 / m.size as u32;
    let memory_bytes = m.exec.size * m.size as u32;
    let mut moved = Vec::new();
    for piece in 0..memory_bytes / 16 {
        let at = offset(u64::from(16 * piece));
        let first = m.data.base + piece * registers;
        if m.scatter {
            let dwords: Vec<Value> = (0..registers / 16)
                .map(|k| e.load_grf(types::I32X4, first + 16 * k))
                .collect();
            moved.extend(&dwords);
            let low = e.b.ins().iconst(types::I32, (1i64 << (8 * m.size)) - 1);
            let low = e.b.ins().splat(types::I32X4, low);
            let mut parts: Vec<Value> = dwords.iter().map(|&v| e.b.ins().band(v, low)).collect();
            while parts.len() > 1 {
                parts = parts
                    .chunks(2)
                    .map(|pair| e.b.ins().unarrow(pair[0], pair[1]))
                    .collect();
            }
            e.b.ins().store(host_flags(), parts[0], memory, at);
        } else {
            let mut parts = vec![e.b.ins().load(narrow, host_flags(), memory, at)];
            while e.b.func.dfg.value_type(parts[0]) != types::I32X4 {
                parts = parts
                    .iter()
                    .flat_map(|&v| [e.b.ins().uwiden_low(v), e.b.ins().uwiden_high(v)])
                    .collect();
            }
            for (k, &v) in (0..).zip(&parts) {
                e.store_grf(v, first + 16 * k);
            }
            moved.extend(parts);
        }
    }
    moved
}

/// Where the paths of a message meet before the next instruction. With a block path, what the
/// next instruction would otherwise load meets there as block parameters: the data operand,
/// the register pieces known at the message's start that it does not write (at most
/// [`MAX_CARRIED`]) and the execution mask. A path that moved the block passes the values it
/// holds (loading any it does not), any other path loads them all after whatever it did, so
/// the next instruction knows them without a load on the fast path. Without a block path the
/// paths jump to the next instruction directly.
struct Leave {
    next: Block,
    meet: Option<Meet>,
}

/// The blocks where a message's paths meet ([`Leave`]).
struct Meet {
    block: Block,
    /// The block that loads what meets, for the paths that do not hold it.
    reload: Block,
    /// The register pieces passed, `(first byte, type)`: the data's first.
    passed: Vec<(u32, Type)>,
    /// Per piece of the data ([`pieces`]): whether it is passed (a chunk held in a variable
    /// is not: the variable carries it).
    data_passed: Vec<bool>,
}

/// Most register pieces known before a message that are carried past it (each is a value live
/// across the message).
const MAX_CARRIED: usize = 8;

impl Leave {
    fn new(e: &mut Emitter, pc: usize, m: &Message, block_path: bool) -> Leave {
        let next = e.blocks[pc + 1];
        let meet = block_path.then(|| {
            let data = m.data.base;
            let end = u64::from(data) + u64::from(m.exec.size) * m.slot;
            let data_pieces: Vec<(u32, Type)> = pieces(m)
                .into_iter()
                .map(|(at, ty)| (data + at, ty))
                .collect();
            let data_passed: Vec<bool> = (data_pieces.iter())
                .map(|&(at, ty)| !e.is_promoted(ty, at))
                .collect();
            let mut passed: Vec<(u32, Type)> = (data_pieces.iter().zip(&data_passed))
                .filter(|(_, passed)| **passed)
                .map(|(piece, _)| *piece)
                .collect();
            let apart = |&(at, ty): &(u32, Type)| {
                u64::from(at) + u64::from(ty.bytes()) <= u64::from(data) || end <= u64::from(at)
            };
            let known: Vec<(u32, Type)> = e.known_pieces().into_iter().filter(apart).collect();
            passed.extend(known.iter().rev().take(MAX_CARRIED).rev());
            let block = e.b.create_block();
            for &(_, ty) in &passed {
                e.b.append_block_param(block, ty);
            }
            e.b.append_block_param(block, types::I32);
            Meet {
                block,
                reload: e.b.create_block(),
                passed,
                data_passed,
            }
        });
        Leave { next, meet }
    }

    /// Where a path goes that has not the data's values at hand.
    fn plain(&self) -> Block {
        self.meet.as_ref().map_or(self.next, |meet| meet.reload)
    }

    /// The arguments of the meeting block on the current path: `data` for the data operand
    /// (loaded when not given), the rest as known or loaded.
    fn arguments(e: &mut Emitter, passed: &[(u32, Type)], data: &[Value]) -> Vec<BlockArg> {
        let mut args: Vec<BlockArg> = data.iter().map(|&v| BlockArg::from(v)).collect();
        for &(at, ty) in &passed[data.len()..] {
            args.push(BlockArg::from(e.load_grf(ty, at)));
        }
        args.push(BlockArg::from(e.load_em()));
        args
    }

    /// Ends a path that moved the whole block: `moved`, from [`block_copy`].
    fn moved(&self, e: &mut Emitter, moved: &[Value]) {
        match &self.meet {
            Some(meet) => {
                let moved: Vec<Value> = (moved.iter().zip(&meet.data_passed))
                    .filter(|(_, passed)| **passed)
                    .map(|(value, _)| *value)
                    .collect();
                let args = Leave::arguments(e, &meet.passed, &moved);
                e.b.ins().jump(meet.block, &args);
            }
            None => {
                e.b.ins().jump(self.next, &[]);
            }
        }
    }

    /// Fills the reload and meeting blocks (once every path is emitted): the next instruction
    /// knows what met there.
    fn finish(self, e: &mut Emitter) {
        let Some(Meet {
            block: meet,
            reload,
            passed,
            ..
        }) = self.meet
        else {
            return;
        };
        e.b.switch_to_block(reload);
        let args = Leave::arguments(e, &passed, &[]);
        e.b.ins().jump(meet, &args);
        e.b.switch_to_block(meet);
        let params = e.b.block_params(meet).to_vec();
        let entries = (passed.iter().zip(&params))
            .map(|(&(at, ty), &value)| (at, ty, value))
            .collect();
        e.know(entries, params[passed.len()]);
        e.b.ins().jump(self.next, &[]);
        e.handover = true;
    }
}

/// Whether the instruction at `pc`, after a message with a block path, would use what the
/// message's paths meet with ([`Leave`]): it is reached from the message alone (no leader) and
/// reads registers where they are known (an ALU instruction or comparison), or is a message
/// whose addresses a binding gives, whose block path reads its data and passes on what it
/// knows. (Other messages read their operands after a window look-up, where nothing is
/// known: the values would only live across them.)
fn reads_known(e: &Emitter, pc: usize) -> bool {
    let Some(op) = e.program.code.get(pc) else {
        return false;
    };
    !e.plan.leader[pc]
        && match e.plan.lowering[pc] {
            Lowering::FastAlu | Lowering::FastCmp | Lowering::FastFloat => true,
            Lowering::Memory => bound_addresses::computable(op, e.tier).is_some(),
            _ => false,
        }
}

/// The message: the memory found (kept in window slot `slot` for its next run); with every
/// lane enabled and consecutive addresses one block copy; otherwise two loops over its
/// enabled lanes (compact code: a program's compile time grows with its IR), one reading and
/// checking every address, the other moving the data.
pub(super) fn emit(e: &mut Emitter, pc: usize, op: &Op, slot: u32) {
    let Some(m) = message(op) else {
        return;
    };
    // (The paths below read the message's addresses from the register file; those moving lane
    // by lane its data too, written back where they start: the block copy reads and writes
    // the data as chunks, `Emitter::load_grf` and `store_grf`.)
    e.flush_promoted_for_good(m.address_bytes());
    let carry = block_shape(e, &m) && e.carries() && reads_known(e, pc + 1);
    let leave = Leave::new(e, pc, &m, carry);
    let next = leave.plain();
    let enables = e.channel_enables(m.exec, m.pred);
    // No enabled channel: nothing moves.
    let some = e.b.create_block();
    if e.all_enabled(m.exec, m.pred) {
        e.b.ins().jump(some, &[]);
    } else {
        e.b.ins().brif(enables, some, &[], next, &[]);
    }
    e.switch_carrying(some);
    let computed = bound_addresses::computable(op, e.tier);
    if computed.is_some() {
        let read = e.b.create_block();
        computed_block(e, &m, enables, slot, (read, &leave));
        e.b.switch_to_block(read);
    }
    let w = find_window(e, pc, (&m, computed), enables, slot);
    let (host, base, global, slow) = (w.host, w.base, w.global, w.slow);
    let lanes_path = e.b.create_block();
    if e.tier == Tier::Optimized && (block_shape(e, &m) || unrolls(&m)) {
        // Every lane enabled: one block copy when the addresses are consecutive, otherwise
        // (dword surface offsets) every lane unrolled, otherwise the lane loops.
        let all_lanes = e.b.create_block();
        every_lane_or(e, &m, enables, (all_lanes, lanes_path));
        e.b.switch_to_block(all_lanes);
        let unrolled = if unrolls(&m) {
            e.b.create_block()
        } else {
            lanes_path
        };
        if block_shape(e, &m) {
            // Found not consecutive before: straight to the lanes (`Window::scattered`).
            let marks = unrolled != lanes_path;
            let not_consecutive = if marks {
                let seen = e.b.ins().load(
                    types::I64,
                    MemFlagsData::trusted(),
                    w.windows,
                    w.field(offset_of!(CachedWindow, scattered)),
                );
                let try_block = e.b.create_block();
                e.b.ins().brif(seen, unrolled, &[], try_block, &[]);
                e.b.switch_to_block(try_block);
                e.b.create_block()
            } else {
                lanes_path
            };
            let (bad, off) = consecutive(e, &m, &w);
            let copy = e.b.create_block();
            e.b.ins().brif(bad, not_consecutive, &[], copy, &[]);
            e.b.switch_to_block(copy);
            let memory = e.b.ins().iadd(host, off);
            let moved = block_copy(e, &m, memory);
            leave.moved(e, &moved);
            if marks {
                e.b.switch_to_block(not_consecutive);
                let one = e.const64(1);
                let at = w.field(offset_of!(CachedWindow, scattered));
                e.b.ins().store(MemFlagsData::trusted(), one, w.windows, at);
                e.b.ins().jump(unrolled, &[]);
            }
        } else {
            e.b.ins().jump(unrolled, &[]);
        }
        if unrolled != lanes_path {
            e.b.switch_to_block(unrolled);
            every_lane(e, &m, &w);
            e.b.ins().jump(next, &[]);
        }
    } else {
        e.b.ins().jump(lanes_path, &[]);
    }
    e.b.switch_to_block(lanes_path);
    e.flush_promoted(m.data_bytes());
    if !m.scatter {
        // (The data's chunks held in variables get their value on this path whether or not a
        // lane moves: otherwise the variables would live on from the thread before.)
        e.reload_promoted(m.data_bytes());
    }
    let len = w.len;
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
        let value = e.b.ins().load(slot_type(&m), grf_flags(), slot, data);
        store_lane(e, &m, value, memory);
    } else {
        let value = load_lane(e, &m, memory);
        e.b.ins().store(grf_flags(), value, slot, data);
        // (A register this module does not place was written.)
        e.forget_grf(m.data_bytes());
    }
    e.b.ins().jump(access, &[BlockArg::from(rest)]);

    e.b.switch_to_block(slow);
    let result = e.call_helper(enter::helper_step, pc);
    e.exit_if_negative(result, pc, e.plan.rest[pc]);
    e.b.ins().jump(next, &[]);
    leave.finish(e);
}
