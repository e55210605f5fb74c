//! The state of IR emission for one program and the primitives every lowering uses: context
//! fields, the execution mask, predicate masks and channel enables, helper calls and exits.

use std::mem::offset_of;

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{
    Block, BlockArg, InstBuilder, MemFlagsData, SigRef, Type, Value, types,
};
use cranelift_frontend::{FunctionBuilder, Variable};

use super::Tier;
use super::context::JitCtx;
use super::enter::Helper;
use super::plan::Plan;
use crate::ops::{ExecCtl, PredCtl};
use crate::program::Program;
use visa_isa::ast::PredControl;

/// A field offset as the `Offset32` of a load or store.
pub(super) fn field(offset: usize) -> i32 {
    i32::try_from(offset).unwrap_or(i32::MAX)
}

/// Flags of register-file accesses: in bounds (proven at compile time), maybe unaligned.
pub(super) fn grf_flags() -> MemFlagsData {
    MemFlagsData::new().with_notrap()
}

/// Flags of a bitcast between vector types (little-endian lane order).
pub(super) fn lanes_in_order() -> MemFlagsData {
    MemFlagsData::new().with_endianness(cranelift_codegen::ir::Endianness::Little)
}

pub(super) struct Emitter<'a, 'f> {
    pub b: FunctionBuilder<'f>,
    pub program: &'a Program,
    pub plan: &'a Plan,
    pub ptr: Type,
    /// The `JitCtx` pointer.
    pub ctx: Value,
    /// Base of the register file.
    pub grf: Value,
    /// Base of the predicate words.
    pub preds: Value,
    /// Base of the parked masks, one per join point (`JitCtx::waiting`).
    pub waiting: Value,
    /// Base of the state slots (`JitCtx::states`).
    pub states: Value,
    /// Base of the messages' window slots (`JitCtx::windows`).
    pub windows: Value,
    /// Per instruction (and one for the end of the code): its block.
    pub blocks: Vec<Block>,
    pub dispatch: Block,
    pub exit: Block,
    /// Where a thread that ended goes when the program's threads run in batches
    /// (`Plan::batches`): the start of the batch's next thread (`lower::emit_next_thread`), and
    /// where it goes on once a next thread is known to be left.
    pub next_thread: Option<(Block, Block)>,
    /// With a copy run with a full mask: where its end goes on with the threads left, straight
    /// into the copy (`lower::emit_advance`).
    pub copy_next: Option<Block>,
    pub helper: SigRef,
    /// The code generator the program is compiled for.
    pub tier: Tier,
    /// Register-file bytes whose values the current block holds (see [`Known`]).
    pub known: Known,
    /// The register-file chunks held in variables (`jit::promote`): `(first byte, variable)`,
    /// in ascending order; none in quick code.
    pub promoted: Vec<(u32, Variable)>,
    /// The fuel drawn and not yet charged (`JitCtx::budget`, stored on exit).
    pub budget: Variable,
    /// The execution mask (`JitCtx::em`, stored before helper calls and on exit, read again
    /// after a helper call).
    pub em: Variable,
    /// The masks parked at the join points, held in variables the same way when there are
    /// few join points; empty otherwise (they stay in `waiting`).
    pub parked: Vec<Variable>,
    /// Set by the lowering of an instruction whose only edge into the next instruction's block
    /// is its last jump: what was known there is known at the next instruction when nothing
    /// else jumps there (it is no leader).
    pub handover: bool,
    /// Whether the host has a lane select by the top bit of each lane (x86's `blendv`).
    pub blendv: bool,
    /// The instruction being lowered.
    pub pc: usize,
    /// Whether the code being emitted is the copy of straight-line code entered only when the
    /// execution mask enables every channel the program's instructions may enable
    /// (`Plan::full_mask`): there channel enables under the mask are all ones, known when the
    /// code is compiled, so writes store without merging and messages test no lane.
    pub em_full: bool,
    /// The first block of that copy and the mask bits that enter it, when there is one.
    pub full_entry: Option<(Block, u32)>,
    /// While the copy run with a full mask is emitted: which of the chunks it holds in its own
    /// variables (`promoted`, swapped in for the copy: `promote::held_in_copy`) have a value.
    pub held: Option<Held>,
}

/// The chunks held in the copy run with a full mask that have a value where code is emitted:
/// each is written by some instruction before anything reads it, so at an instruction those
/// written by the instructions before it (`defined`), and those the instruction writes once
/// it wrote them (`own`). Only those are written back (before a helper, on the way out) or
/// read again; the others are dead there.
///
/// Those written back at a point every later point passes through (the start of a message,
/// which reads its addresses from the register file) stay `clean`, not written back again,
/// until defined again.
#[derive(Default)]
pub(super) struct Held {
    pub defined: Vec<u32>,
    pub own: Vec<u32>,
    pub clean: Vec<u32>,
}

impl Held {
    /// The next instruction, which writes the chunks `own`, is emitted: the last one's are
    /// defined.
    pub fn next_instruction(&mut self, own: Vec<u32>) {
        for written in std::mem::replace(&mut self.own, own) {
            if !self.defined.contains(&written) {
                self.defined.push(written);
            }
        }
    }
}

/// An instruction's channel enables: a bit per channel, and, when the execution mask alone
/// enables the channels (no predicate, not NoMask), the group of `JitCtx::em_lanes` holding
/// the lane masks of its first four channels, which a partial vector write reads.
#[derive(Debug, Clone, Copy)]
pub(super) struct Enables {
    pub bits: Value,
    pub em_group: Option<u32>,
    /// The execution mask, when it alone enables the channels from channel 0.
    pub em_from_first: Option<Value>,
    /// Every channel is enabled, known when the code is compiled: NoMask without a predicate,
    /// or the mask alone in the copy of code run with a full mask ([`Emitter::em_full`]).
    pub all: bool,
}

/// Values of register-file bytes held in SSA so that an instruction reading what an earlier one
/// wrote (or read) in the same block uses the value instead of loading it again: a block load's
/// data read by the ALU, an ALU result by the next instruction or the scatter. Every store of
/// an entry is still emitted, so an entry only saves a load, except a write the next
/// instruction overwrites ([`Emitter::know_unstored`]). (Chunks held in variables,
/// `jit::promote`, are never entries: their variables have their values everywhere.) An
/// entry is valid in `block` only: a new block starts with nothing known, except where
/// the lowering carries what it knows into a block that the current one dominates with no write
/// on the way ([`Emitter::switch_carrying`]). A store through [`Emitter::store_grf`] replaces the
/// entries it overlaps; a helper call, which may write any byte, drops them all. The execution
/// mask (`JitCtx::em`) is held the same way.
#[derive(Default)]
pub(super) struct Known {
    block: Option<Block>,
    state: KnownState,
}

/// What is known of the register file and the execution mask at a point of the code.
#[derive(Default, Clone)]
pub(super) struct KnownState {
    /// `(first byte, type, value)`.
    entries: Vec<(u32, Type, Value)>,
    em: Option<Value>,
}

impl KnownState {
    /// The state without the entries that overlap `bytes` bytes from `at`.
    pub fn without(mut self, at: u32, bytes: u32) -> KnownState {
        self.overlapping(at, bytes);
        self
    }

    fn overlapping(&mut self, at: u32, bytes: u32) {
        let (at, end) = (u64::from(at), u64::from(at) + u64::from(bytes));
        self.entries.retain(|&(a, ty, _)| {
            u64::from(a) + u64::from(ty.bytes()) <= at || end <= u64::from(a)
        });
    }
}

impl Emitter<'_, '_> {
    /// An `i32` constant with the bits of `v`.
    pub fn const32(&mut self, v: u32) -> Value {
        self.b.ins().iconst(types::I32, i64::from(v))
    }

    pub fn const64(&mut self, v: i64) -> Value {
        self.b.ins().iconst(types::I64, v)
    }

    pub fn load_ctx(&mut self, ty: Type, offset: usize) -> Value {
        self.b
            .ins()
            .load(ty, MemFlagsData::trusted(), self.ctx, field(offset))
    }

    /// Stores a context field (the execution mask through [`Emitter::store_em`]).
    pub fn store_ctx(&mut self, value: Value, offset: usize) {
        if offset == offset_of!(JitCtx, em) {
            self.store_em(value);
            return;
        }
        self.b
            .ins()
            .store(MemFlagsData::trusted(), value, self.ctx, field(offset));
    }

    /// Jumps to the exit block (ends the current block).
    pub fn exit_with(&mut self, status: i64, pc: usize, refund: u32) {
        let status = self.const64(status);
        self.exit_with_value(status, pc, refund);
    }

    pub fn exit_with_value(&mut self, status: Value, pc: usize, refund: u32) {
        if self.held.is_some() {
            // (The exit block writes back the chunks the general code holds; the copy's own
            // are written back on its ways out.)
            self.flush_promoted(0..u32::MAX);
        }
        let pc = self.const64(pc as i64);
        let refund = self.const64(i64::from(refund));
        self.b.ins().jump(
            self.exit,
            &[
                BlockArg::from(status),
                BlockArg::from(pc),
                BlockArg::from(refund),
            ],
        );
    }

    /// Calls a helper with `(ctx, pc)`; returns its result.
    pub fn call_helper(&mut self, helper: Helper, pc: usize) -> Value {
        let pc = self.const64(pc as i64);
        self.call_helper_with(helper, pc)
    }

    /// What [`Known`] holds valid in the current block (nothing in a block other than the
    /// one it was found in).
    fn known_here(&mut self) -> &mut KnownState {
        let here = self.b.current_block();
        if self.known.block != here {
            self.known = Known {
                block: here,
                state: KnownState::default(),
            };
        }
        &mut self.known.state
    }

    /// The variable holding the `ty` at register-file byte `at`, if one does.
    fn promoted_var(&self, ty: Type, at: u32) -> Option<Variable> {
        if ty != types::I32X4 {
            return None;
        }
        (self
            .promoted
            .binary_search_by_key(&at, |&(chunk, _)| chunk)
            .ok())
        .map(|i| self.promoted[i].1)
    }

    /// The `ty` at register-file byte `at`: the value held when known, else loaded (and then
    /// known).
    pub fn load_grf(&mut self, ty: Type, at: u32) -> Value {
        if let Some(var) = self.promoted_var(ty, at) {
            return self.b.use_var(var);
        }
        let found = (self.known_here().entries.iter())
            .find(|&&(a, t, _)| a == at && t == ty)
            .map(|&(_, _, v)| v);
        if let Some(value) = found {
            return value;
        }
        self.flush_promoted(at..at.saturating_add(ty.bytes()));
        let value = self
            .b
            .ins()
            .load(ty, grf_flags(), self.grf, field(at as usize));
        self.known_here().entries.push((at, ty, value));
        value
    }

    /// Stores `value` at register-file byte `at` (which then holds it). A chunk held in a
    /// variable is only defined: the register file gets it when flushed.
    pub fn store_grf(&mut self, value: Value, at: u32) {
        let ty = self.b.func.dfg.value_type(value);
        self.known_here().overlapping(at, ty.bytes());
        if let Some(var) = self.promoted_var(ty, at) {
            self.define_promoted(var, at, value);
            return;
        }
        let bytes = at..at.saturating_add(ty.bytes());
        self.flush_promoted(bytes.clone());
        self.b
            .ins()
            .store(grf_flags(), value, self.grf, field(at as usize));
        self.known_here().entries.push((at, ty, value));
        self.reload_promoted(bytes);
    }

    /// Whether what the instruction being lowered writes in every channel need not be stored:
    /// in the copy run with a full mask, the next instruction overwrites it and reads it only
    /// as the values written (`Plan::overwritten_next`).
    pub fn write_is_dead(&self) -> bool {
        self.em_full && self.plan.overwritten_next.get(self.pc) == Some(&true)
    }

    /// Holds `value` as the register-file bytes at `at` onwards without storing it: only for
    /// a write the next instruction overwrites and reads as this very value
    /// (`Plan::overwritten_next`).
    pub fn know_unstored(&mut self, value: Value, at: u32) {
        let ty = self.b.func.dfg.value_type(value);
        self.known_here().overlapping(at, ty.bytes());
        match self.promoted_var(ty, at) {
            // (A chunk held in a variable is stored only where something reads the file.)
            Some(var) => self.define_promoted(var, at, value),
            None => self.known_here().entries.push((at, ty, value)),
        }
    }

    /// Whether register-file byte `at` is the first of a chunk held in a variable.
    pub fn is_promoted(&self, ty: Type, at: u32) -> bool {
        self.promoted_var(ty, at).is_some()
    }

    /// The chunks held in variables that overlap `bytes`: `(first byte, variable)`; in the copy
    /// run with a full mask those with a value (see [`Held`]), with `own` those the current
    /// instruction writes too.
    fn promoted_in(&self, bytes: std::ops::Range<u32>, own: bool) -> Vec<(u32, Variable)> {
        let valued = |at: &u32| match &self.held {
            None => true,
            Some(held) if own => held.defined.contains(at) || held.own.contains(at),
            Some(held) => held.defined.contains(at) && !held.clean.contains(at),
        };
        (self.promoted.iter())
            .filter(|&&(at, _)| at < bytes.end && bytes.start < at + 16 && valued(&at))
            .copied()
            .collect()
    }

    /// [`Emitter::flush_promoted`] where every later point of the code is reached through the
    /// current one: in the copy run with a full mask the chunks stay written back (`clean`)
    /// until defined again.
    pub fn flush_promoted_for_good(&mut self, bytes: std::ops::Range<u32>) {
        let flushed = self.promoted_in(bytes.clone(), false);
        self.flush_promoted(bytes);
        if let Some(held) = &mut self.held {
            held.clean.extend(flushed.into_iter().map(|(at, _)| at));
        }
    }

    /// A chunk held in a variable is defined: in the copy run with a full mask it is no
    /// longer written back.
    fn define_promoted(&mut self, var: Variable, at: u32, value: Value) {
        self.b.def_var(var, value);
        if let Some(held) = &mut self.held {
            held.clean.retain(|&clean| clean != at);
        }
    }

    /// Writes the chunks held in variables that overlap `bytes` to the register file, before
    /// code that reads (or partly writes) those bytes there.
    pub fn flush_promoted(&mut self, bytes: std::ops::Range<u32>) {
        for (at, var) in self.promoted_in(bytes, false) {
            let value = self.b.use_var(var);
            self.b
                .ins()
                .store(grf_flags(), value, self.grf, field(at as usize));
        }
    }

    /// Reads again, from the register file, the chunks held in variables that overlap `bytes`
    /// (written there by something other than [`Emitter::store_grf`] of the chunk, after
    /// [`Emitter::flush_promoted`]).
    pub fn reload_promoted(&mut self, bytes: std::ops::Range<u32>) {
        for (at, var) in self.promoted_in(bytes, true) {
            let value = self
                .b
                .ins()
                .load(types::I32X4, grf_flags(), self.grf, field(at as usize));
            self.b.def_var(var, value);
        }
    }

    /// Registers `bytes` were written by stores this module cannot place (the chunks held
    /// there were flushed before): nothing of the register file is known any more, and the
    /// chunks held there are read again.
    pub fn forget_grf(&mut self, bytes: std::ops::Range<u32>) {
        self.known_here().entries.clear();
        self.reload_promoted(bytes);
    }

    /// What the current block knows, as it stands.
    pub fn known_state(&mut self) -> KnownState {
        self.known_here().clone()
    }

    /// Whether values are carried from block to block: in optimised code only (quick code's
    /// allocator spills every value live across blocks, a store and a load where the register
    /// file costs one load).
    pub fn carries(&self) -> bool {
        self.tier == Tier::Optimized
    }

    /// Switches to `block` knowing `state` (values that dominate it and still hold there: the
    /// caller's proof); nothing in quick code.
    pub fn switch_knowing(&mut self, block: Block, state: KnownState) {
        self.b.switch_to_block(block);
        self.known = Known {
            block: Some(block),
            state: if self.carries() {
                state
            } else {
                KnownState::default()
            },
        };
    }

    /// Switches to `block`, which only the current block jumps to, with no register-file or
    /// execution-mask write between: what is known here is known there.
    pub fn switch_carrying(&mut self, block: Block) {
        let state = self.known_state();
        self.switch_knowing(block, state);
    }

    /// The register-file pieces the current block knows: `(first byte, type)`.
    pub fn known_pieces(&mut self) -> Vec<(u32, Type)> {
        (self.known_here().entries.iter())
            .map(|&(at, ty, _)| (at, ty))
            .collect()
    }

    /// Marks the current block as knowing `entries` (`(first byte, type, value)`) and the
    /// execution mask `em`, and nothing else.
    pub fn know(&mut self, entries: Vec<(u32, Type, Value)>, em: Value) {
        self.known = Known {
            block: self.b.current_block(),
            state: KnownState {
                entries,
                em: Some(em),
            },
        };
    }

    /// `state` with `value` at register-file byte `at`, the entries it overlaps dropped. (A
    /// chunk held in a variable is no entry: its variable has the value.)
    pub fn state_with(&self, mut state: KnownState, at: u32, value: Value) -> KnownState {
        let ty = self.b.func.dfg.value_type(value);
        state.overlapping(at, ty.bytes());
        if !self.is_promoted(ty, at) {
            state.entries.push((at, ty, value));
        }
        state
    }

    /// Marks the current block as knowing `state`.
    pub fn know_state(&mut self, state: KnownState) {
        self.known = Known {
            block: self.b.current_block(),
            state,
        };
    }

    /// Calls a helper with `(ctx, argument)`; returns its result. (A helper may read and write
    /// any register and the thread's masks: the chunks, the execution mask and the parked masks
    /// held in variables are flushed before and read again after, nothing else stays known.)
    pub fn call_helper_with(&mut self, helper: Helper, argument: Value) -> Value {
        *self.known_here() = KnownState::default();
        self.flush_promoted(0..u32::MAX);
        self.flush_thread_state();
        let callee = self.b.ins().iconst(self.ptr, helper as usize as i64);
        let call = self
            .b
            .ins()
            .call_indirect(self.helper, callee, &[self.ctx, argument]);
        let result = self.b.inst_results(call)[0];
        self.reload_promoted(0..u32::MAX);
        self.reload_thread_state();
        result
    }

    /// Leaves through the exit block when `result` is a (negative) exit status; otherwise
    /// continues in a new block, which becomes current.
    pub fn exit_if_negative(&mut self, result: Value, pc: usize, refund: u32) {
        let negative = self.b.ins().icmp_imm_s(IntCC::SignedLessThan, result, 0);
        let failed = self.b.create_block();
        let go_on = self.b.create_block();
        self.b.ins().brif(negative, failed, &[], go_on, &[]);
        self.b.switch_to_block(failed);
        self.exit_with_value(result, pc, refund);
        self.b.switch_to_block(go_on);
    }

    /// The execution mask: held when known (see [`Known`]), else its variable's value.
    pub fn load_em(&mut self) -> Value {
        if let Some(em) = self.known_here().em {
            return em;
        }
        let em = self.b.use_var(self.em);
        self.known_here().em = Some(em);
        em
    }

    /// Stores the execution mask in the context, for a helper or the caller to read.
    fn flush_em(&mut self) {
        let em = self.b.use_var(self.em);
        self.b.ins().store(
            MemFlagsData::trusted(),
            em,
            self.ctx,
            field(offset_of!(JitCtx, em)),
        );
    }

    /// Reads the execution mask from the context again (a helper may have set it).
    fn reload_em(&mut self) {
        let em = self.load_ctx(types::I32, offset_of!(JitCtx, em));
        self.b.def_var(self.em, em);
    }

    /// Sets the execution mask, and its lane masks (`JitCtx::em_lanes`).
    pub fn store_em(&mut self, em: Value) {
        self.restore_em(em);
        self.expand_em(em);
    }

    /// Sets the execution mask to one whose lane masks `JitCtx::em_lanes` already holds.
    pub fn restore_em(&mut self, em: Value) {
        self.b.def_var(self.em, em);
        self.known_here().em = Some(em);
    }

    /// Writes `JitCtx::em_lanes` from the execution mask `em` (and `em_lanes_of`): where it is
    /// set, and where compiled code is entered.
    pub fn expand_em(&mut self, em: Value) {
        let groups = self.plan.em_groups;
        if groups == 0 {
            return;
        }
        self.store_ctx(em, offset_of!(JitCtx, em_lanes_of));
        let splat = self.b.ins().splat(types::I32X4, em);
        for group in 0..groups {
            let lanes = self.lane_group(splat, group);
            let at = offset_of!(JitCtx, em_lanes) + 16 * group as usize;
            (self.b.ins()).store(MemFlagsData::trusted(), lanes, self.ctx, field(at));
        }
    }

    /// `x` in the lanes of `mask` (an `i32x4` of all-ones or zero lanes), `y` in the others.
    /// (Cranelift selects by the top bit itself only where it sees the compare making the
    /// mask; a mask loaded from memory would cost three bitwise operations.)
    pub fn select_lanes(&mut self, mask: Value, x: Value, y: Value) -> Value {
        match self.blendv {
            true => self.b.ins().blendv(mask, x, y),
            false => self.b.ins().bitselect(mask, x, y),
        }
    }

    /// Lanes `4 * group .. 4 * group + 4` of the mask `splat` (its bits in every lane) as lane
    /// masks, all ones or zero (`group` < 8): a lane is enabled when its selector bit survives
    /// an AND (one equality compare, where a compare with zero would need its result
    /// inverted). The selector bits are read from the context where they are used
    /// (`JitCtx::lane_bits`), each read an operand of the instruction using it: as constants,
    /// the optimiser would hoist them to the function's entry, where they would be spilled and
    /// reloaded at every use.
    pub fn lane_group(&mut self, splat: Value, group: u32) -> Value {
        let at = field(offset_of!(JitCtx, lane_bits) + 16 * group as usize);
        let flags = MemFlagsData::trusted().with_readonly();
        let selectors = self.b.ins().load(types::I32X4, flags, self.ctx, at);
        let picked = self.b.ins().band(splat, selectors);
        let selectors = self.b.ins().load(types::I32X4, flags, self.ctx, at);
        self.b.ins().icmp(IntCC::Equal, picked, selectors)
    }

    /// The channels parked at join point `join` (an index of `Program::joins`, so inside the
    /// thread's `waiting`).
    pub fn load_parked(&mut self, join: usize) -> Value {
        if let Some(&var) = self.parked.get(join) {
            return self.b.use_var(var);
        }
        self.b.ins().load(
            types::I32,
            MemFlagsData::trusted(),
            self.waiting,
            field(join * 4),
        )
    }

    pub fn store_parked(&mut self, join: usize, mask: Value) {
        if let Some(&var) = self.parked.get(join) {
            self.b.def_var(var, mask);
            return;
        }
        self.b
            .ins()
            .store(MemFlagsData::trusted(), mask, self.waiting, field(join * 4));
    }

    /// The bits of predicate `index` (inside the program's predicates).
    pub fn load_pred(&mut self, index: u16) -> Value {
        let at = field(usize::from(index) * 4);
        (self.b.ins()).load(types::I32, MemFlagsData::trusted(), self.preds, at)
    }

    pub fn store_pred(&mut self, index: u16, bits: Value) {
        let at = field(usize::from(index) * 4);
        (self.b.ins()).store(MemFlagsData::trusted(), bits, self.preds, at);
    }

    /// Stores the state held in variables (the execution mask, the parked masks) where helpers
    /// and the caller read it.
    pub fn flush_thread_state(&mut self) {
        self.flush_em();
        self.flush_parked();
    }

    /// Reads the state held in variables (again, after a helper that may have changed it; on
    /// entry, for the first time).
    pub fn reload_thread_state(&mut self) {
        self.reload_em();
        self.reload_parked();
    }

    /// Stores the parked masks held in variables in the thread's `waiting`.
    fn flush_parked(&mut self) {
        for join in 0..self.parked.len() {
            let mask = self.b.use_var(self.parked[join]);
            let at = field(join * 4);
            (self.b.ins()).store(MemFlagsData::trusted(), mask, self.waiting, at);
        }
    }

    /// Reads the parked masks held in variables from the thread's `waiting` again.
    fn reload_parked(&mut self) {
        for join in 0..self.parked.len() {
            let at = field(join * 4);
            let flags = MemFlagsData::trusted();
            let mask = self.b.ins().load(types::I32, flags, self.waiting, at);
            self.b.def_var(self.parked[join], mask);
        }
    }

    /// PMask of a predicate (`Thread::pred_mask`): its bits from the mask offset, combined
    /// with any/all, then inverted.
    pub fn pred_mask(&mut self, exec: ExecCtl, p: PredCtl) -> Value {
        let lanes = exec.lanes();
        let raw = self.load_pred(p.index);
        let shifted = self.shift_right(raw, exec.offset);
        let bits = self.b.ins().band_imm_u(shifted, i64::from(lanes));
        let all = self.const32(lanes);
        let none = self.const32(0);
        let combined = match p.control {
            PredControl::None => bits,
            PredControl::Any => {
                let any = self.b.ins().icmp_imm_u(IntCC::NotEqual, bits, 0);
                self.b.ins().select(any, all, none)
            }
            PredControl::All => {
                let every = self
                    .b
                    .ins()
                    .icmp_imm_u(IntCC::Equal, bits, i64::from(lanes));
                self.b.ins().select(every, all, none)
            }
        };
        if p.inverse {
            self.b.ins().bxor_imm_u(combined, i64::from(lanes))
        } else {
            combined
        }
    }

    /// `v >> by` (no instruction when `by` is 0: most instructions start at channel 0).
    fn shift_right(&mut self, v: Value, by: u32) -> Value {
        match by {
            0 => v,
            _ => self.b.ins().ushr_imm_u(v, i64::from(by)),
        }
    }

    /// The channel enables of an instruction (`Thread::channel_enables`).
    pub fn channel_enables(&mut self, exec: ExecCtl, pred: Option<PredCtl>) -> Value {
        let lanes = exec.lanes();
        let enables = if exec.no_mask || self.em_full {
            self.const32(lanes)
        } else {
            let em = self.load_em();
            let shifted = self.shift_right(em, exec.offset);
            self.b.ins().band_imm_u(shifted, i64::from(lanes))
        };
        match pred {
            Some(p) => {
                let mask = self.pred_mask(exec, p);
                self.b.ins().band(enables, mask)
            }
            None => enables,
        }
    }

    /// The channel enables of an instruction, and where their lane masks are kept when the
    /// execution mask alone enables the channels (see [`Enables`]).
    pub fn enables(&mut self, exec: ExecCtl, pred: Option<PredCtl>) -> Enables {
        let bits = self.channel_enables(exec, pred);
        let by_em = pred.is_none() && !exec.no_mask;
        let kept = by_em
            && exec.offset.is_multiple_of(4)
            && (exec.offset + exec.size).div_ceil(4) <= self.plan.em_groups;
        let em_from_first = (by_em && exec.offset == 0).then(|| self.load_em());
        Enables {
            bits,
            em_group: kept.then_some(exec.offset / 4),
            em_from_first,
            all: self.all_enabled(exec, pred),
        }
    }

    /// Whether every channel of an instruction is enabled, known when the code is compiled
    /// (see [`Enables::all`]).
    pub fn all_enabled(&self, exec: ExecCtl, pred: Option<PredCtl>) -> bool {
        pred.is_none() && (exec.no_mask || self.em_full)
    }

    /// Whether every one of the `all` channels is enabled. When the execution mask alone
    /// enables 8, 16 or 32 channels from the first, its low byte, word or dword is compared
    /// with all ones (the enables' AND with `all` is not needed).
    pub fn every_enabled(&mut self, enables: Enables, all: u32) -> Value {
        let narrow = match all {
            0xff => Some(types::I8),
            0xffff => Some(types::I16),
            u32::MAX => Some(types::I32),
            _ => None,
        };
        match (enables.em_from_first, narrow) {
            (Some(em), Some(ty)) => {
                let low = match ty {
                    types::I32 => em,
                    ty => self.b.ins().ireduce(ty, em),
                };
                (self.b.ins()).icmp_imm_u(IntCC::Equal, low, i64::from(all))
            }
            _ => (self.b.ins()).icmp_imm_u(IntCC::Equal, enables.bits, i64::from(all)),
        }
    }

    /// Whether a uniform branch is taken: the first channel of PMask.
    pub fn uniform_condition(&mut self, exec: ExecCtl, pred: Option<PredCtl>) -> Option<Value> {
        let p = pred?;
        let mask = self.pred_mask(exec, p);
        let first = self.b.ins().band_imm_u(mask, 1);
        Some(self.b.ins().icmp_imm_u(IntCC::NotEqual, first, 0))
    }
}
