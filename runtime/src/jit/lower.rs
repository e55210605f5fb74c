//! Cranelift IR for a whole program: one function with a block per instruction, entered at a
//! block leader through a dispatch on `JitCtx::pc`, with fuel charged per block and an exit
//! block that records where and why compiled code stopped.

use std::mem::offset_of;
use std::sync::OnceLock;

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{
    AbiParam, Block, BlockArg, InstBuilder, MemFlagsData, Type, UserFuncName, Value, types,
};
use cranelift_codegen::isa::OwnedTargetIsa;
use cranelift_codegen::settings::{self, Configurable};
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext, Switch, Variable};
use cranelift_jit::{JITBuilder, JITModule};
use cranelift_module::{FuncId, Linkage, Module, default_libcall_names};

use super::context::JitCtx;
use super::emitter::{Emitter, Held, Known, field, grf_flags};
use super::enter;
use super::plan::{Lowering, Plan, ends_block};
use super::{Tier, lower_alu, lower_float, lower_mem, lower_state, native_kind, promote, status};
use crate::joins::park_point;
use crate::launch::ids::{IdValue, ThreadIds};
use crate::ops::{ExecCtl, Op, PredCtl};
use crate::program::Program;

/// How an instruction is compiled, once its operands are known to be in range.
pub(super) fn lowering(program: &Program, op: &Op) -> Lowering {
    let predicates = program.layout.predicates.len();
    let pred_ok = |p: &Option<PredCtl>| p.is_none_or(|p| usize::from(p.index) < predicates);
    match native_kind(op) {
        Lowering::FastAlu | Lowering::FastCmp if !lower_alu::fits(program, op) => Lowering::Handler,
        Lowering::FastFloat if !lower_float::fits(program, op) => Lowering::Handler,
        Lowering::Memory if !lower_mem::fits(program, op) => Lowering::Handler,
        Lowering::StateMove if !lower_state::fits(program, op) => Lowering::Handler,
        // (Without calls a thread has no frames: every `ret` is at kernel level.)
        Lowering::Ret => match op {
            Op::Ret { exec, pred } if exec.size == 1 && pred_ok(pred) && !program.calls() => {
                Lowering::Ret
            }
            _ => Lowering::Handler,
        },
        Lowering::PredLogic => match *op {
            Op::PredLogic { dst, a, b, .. }
                if [Some(dst), Some(a), b]
                    .iter()
                    .flatten()
                    .all(|&p| usize::from(p) < predicates) =>
            {
                Lowering::PredLogic
            }
            _ => Lowering::Handler,
        },
        Lowering::Jmp | Lowering::Goto => match op {
            Op::Jmp { pred, .. } | Op::Goto { pred, .. } if pred_ok(pred) => native_kind(op),
            _ => Lowering::Handler,
        },
        kind => kind,
    }
}

/// The stores of an id element of `size` bytes, low bytes first: (byte within it, type); one
/// store for the usual sizes 1, 2, 4 and 8.
fn id_pieces(size: usize) -> Vec<(usize, cranelift_codegen::ir::Type)> {
    match size {
        8 => vec![(0, types::I64)],
        4 => vec![(0, types::I32)],
        2 => vec![(0, types::I16)],
        size => (0..size.min(8)).map(|at| (at, types::I8)).collect(),
    }
}

/// Most join points compiled code checks inline for parked channels (a jump that skips more
/// calls the handler; a goto searching further, a helper), so that code size stays linear in
/// the program's length.
const MAX_JOIN_CHECKS: usize = 16;

/// Most join points whose parked masks compiled code holds in variables (each takes a general
/// register where it is live).
const MAX_JOIN_VARIABLES: usize = 4;

fn cranelift(e: &dyn std::fmt::Display) -> String {
    format!("cranelift: {e}")
}

/// The host's code generator with the settings of `tier`, made once per process (detecting
/// the host's features and building the settings is a fixed cost a small program's compile
/// would otherwise pay every time).
fn host_isa(tier: Tier) -> Result<OwnedTargetIsa, String> {
    static QUICK: OnceLock<Result<OwnedTargetIsa, String>> = OnceLock::new();
    static OPTIMIZED: OnceLock<Result<OwnedTargetIsa, String>> = OnceLock::new();
    let (slot, opt_level, regalloc) = match tier {
        // No e-graph pass, and the single-pass allocator: a quarter of the compile time.
        Tier::Quick => (&QUICK, "none", "single_pass"),
        Tier::Optimized => (&OPTIMIZED, "speed", "backtracking"),
    };
    slot.get_or_init(|| {
        let mut flags = settings::builder();
        let verify = if cfg!(debug_assertions) {
            "true"
        } else {
            "false"
        };
        for (name, value) in [
            ("opt_level", opt_level),
            ("regalloc_algorithm", regalloc),
            ("is_pic", "false"),
            ("use_colocated_libcalls", "false"),
            ("enable_verifier", verify),
        ] {
            flags.set(name, value).map_err(|e| cranelift(&e))?;
        }
        cranelift_native::builder()
            .map_err(|reason| format!("host not supported by Cranelift: {reason}"))?
            .finish(settings::Flags::new(flags))
            .map_err(|e| cranelift(&e))
    })
    .clone()
}

/// Builds the program's function in a new JIT module.
pub(super) fn compile(
    program: &Program,
    plan: &Plan,
    tier: Tier,
) -> Result<(JITModule, FuncId), String> {
    let isa = host_isa(tier)?;
    // (Lane selects are made on `i32x4` lanes and on bytes: `lower_alu::store_merged`.)
    let blendv = [types::I32X4, types::I8X16]
        .into_iter()
        .all(|ty| isa.has_blendv_lowering(ty));
    let mut module = JITModule::new(JITBuilder::with_isa(isa, default_libcall_names()));
    let ptr = module.target_config().pointer_type();
    let mut sig = module.make_signature();
    sig.params.push(AbiParam::new(ptr));
    sig.returns.push(AbiParam::new(types::I64));
    let mut helper_sig = module.make_signature();
    helper_sig.params.push(AbiParam::new(ptr));
    helper_sig.params.push(AbiParam::new(types::I64));
    helper_sig.returns.push(AbiParam::new(types::I64));
    let func = module
        .declare_function("visa_program", Linkage::Local, &sig)
        .map_err(|e| cranelift(&e))?;
    let frontend = module.target_config();
    let mut ctx = module.make_context();
    ctx.func.signature = sig;
    ctx.func.name = UserFuncName::user(0, func.as_u32());
    let mut fctx = FunctionBuilderContext::new();
    {
        let mut b = FunctionBuilder::new(&mut ctx.func, &mut fctx);
        let helper = b.import_signature(helper_sig);
        let n = program.code.len();
        let entry = b.create_block();
        b.append_block_params_for_function_params(entry);
        let blocks: Vec<Block> = (0..=n).map(|_| b.create_block()).collect();
        // The copy of straight-line code run with a full mask (`Plan::full_mask`): its own
        // blocks, and its own end (`emit_copy_end`).
        let full_copy = match (tier, plan.full_mask) {
            (Tier::Optimized, Some(mask)) => {
                let copy = (0..=n).map(|_| b.create_block());
                Some((copy.collect::<Vec<Block>>(), mask))
            }
            _ => None,
        };
        let dispatch = b.create_block();
        b.append_block_param(dispatch, types::I64);
        let exit = b.create_block();
        for _ in 0..3 {
            b.append_block_param(exit, types::I64);
        }
        // (The start of a batch's next thread and, past the check that one is left, where it
        // goes on with the threads left.)
        let next_thread = plan.batches(program).then(|| {
            let go_on = b.create_block();
            b.append_block_param(go_on, types::I64);
            (b.create_block(), go_on)
        });
        // (And, from the end of the copy run with a full mask, straight into that copy.)
        let copy_next = (next_thread.is_some() && full_copy.is_some()).then(|| {
            let go_on = b.create_block();
            b.append_block_param(go_on, types::I64);
            go_on
        });
        b.switch_to_block(entry);
        let ctx_ptr = b.block_params(entry)[0];
        // (The context's fields, read once on entry.)
        let load_field = |b: &mut FunctionBuilder, ty: Type, offset: usize| {
            b.ins()
                .load(ty, MemFlagsData::trusted(), ctx_ptr, field(offset))
        };
        let grf = load_field(&mut b, ptr, offset_of!(JitCtx, grf));
        let preds = load_field(&mut b, ptr, offset_of!(JitCtx, preds));
        let waiting = load_field(&mut b, ptr, offset_of!(JitCtx, waiting));
        let states = load_field(&mut b, ptr, offset_of!(JitCtx, states));
        let windows = load_field(&mut b, ptr, offset_of!(JitCtx, windows));
        let pc = load_field(&mut b, types::I64, offset_of!(JitCtx, pc));
        // The fuel left is a variable, stored back on the way out (`emit_exit`): through the
        // context, each block's charge would wait for the previous block's store.
        let budget = b.declare_var(types::I64);
        let drawn = load_field(&mut b, types::I64, offset_of!(JitCtx, budget));
        b.def_var(budget, drawn);
        // (The execution mask and the parked masks held in variables are read on entry
        // below, as after a helper call.)
        let em = b.declare_var(types::I32);
        let joins = program.joins.len();
        let parked: Vec<Variable> = match joins <= MAX_JOIN_VARIABLES {
            true => (0..joins).map(|_| b.declare_var(types::I32)).collect(),
            false => Vec::new(),
        };
        // (The chunks held in variables are read on entry below, as after a helper call.)
        let promoted: Vec<(u32, Variable)> = match tier {
            Tier::Optimized => promote::chosen(program, plan),
            Tier::Quick => Vec::new(),
        }
        .into_iter()
        .map(|at| (at, b.declare_var(types::I32X4)))
        .collect();
        let mut e = Emitter {
            b,
            program,
            plan,
            ptr,
            ctx: ctx_ptr,
            grf,
            preds,
            waiting,
            states,
            windows,
            blocks,
            dispatch,
            exit,
            next_thread,
            copy_next,
            helper,
            tier,
            known: Known::default(),
            promoted,
            budget,
            em,
            parked,
            handover: false,
            blendv,
            pc: 0,
            em_full: false,
            full_entry: full_copy.as_ref().map(|(copy, mask)| (copy[0], *mask)),
            held: None,
        };
        e.reload_thread_state();
        e.reload_promoted(0..u32::MAX);
        e.b.ins().jump(dispatch, &[BlockArg::from(pc)]);
        e.emit_dispatch();
        e.emit_exit();
        for pc in 0..n {
            e.emit_instruction(pc);
        }
        if let Some((copy, mask)) = full_copy {
            let general = std::mem::replace(&mut e.blocks, copy);
            // (The copy holds chunks in variables of its own.)
            let held: Vec<(u32, Variable)> = (promote::held_in_copy(program, mask).into_iter())
                .map(|at| (at, e.b.declare_var(types::I32X4)))
                .collect();
            let general_promoted = std::mem::replace(&mut e.promoted, held);
            e.held = Some(Held::default());
            e.em_full = true;
            e.handover = false;
            for pc in 0..n {
                let own = promote::held_written(&program.code[pc], &e.promoted);
                if let Some(held) = &mut e.held {
                    held.next_instruction(own);
                }
                e.emit_instruction(pc);
            }
            if let Some(held) = &mut e.held {
                held.next_instruction(Vec::new());
            }
            e.emit_copy_end(general[n]);
            e.em_full = false;
            e.handover = false;
            e.held = None;
            e.promoted = general_promoted;
            e.blocks = general;
        }
        e.emit_end();
        e.emit_next_thread();
        e.b.seal_all_blocks();
        e.b.finalize(frontend);
    }
    module
        .define_function(func, &mut ctx)
        .map_err(|e| format!("cranelift: {e:?}"))?;
    module.clear_context(&mut ctx);
    Ok((module, func))
}

impl Emitter<'_, '_> {
    /// A thread ends at `pc` with `refund` fuel charged for instructions it did not run: the
    /// next thread of a batch starts when the program's threads run in batches
    /// (`emit_next_thread`); otherwise compiled code leaves.
    fn finish_thread(&mut self, pc: usize, refund: u32) {
        let Some((next_thread, _)) = self.next_thread else {
            self.exit_with(status::FINISHED, pc, refund);
            return;
        };
        let budget = self.b.use_var(self.budget);
        let budget = self.b.ins().iadd_imm_s(budget, i64::from(refund));
        self.b.def_var(self.budget, budget);
        self.b.ins().jump(next_thread, &[]);
    }

    /// Where a thread of a batch that ended goes (`JitCtx::threads_left`): the next thread
    /// starts at the first instruction with its first work-item, its pending pointers and
    /// execution mask; in a program with control flow also its registers restored from the
    /// template (`JitCtx::restore`), the template's predicates and state slots, and no channel
    /// parked, as `Thread::restart` restarts a thread. Without a template (`run_threads`) the
    /// driver starts it.
    fn emit_next_thread(&mut self) {
        let Some((block, next)) = self.next_thread else {
            return;
        };
        self.b.switch_to_block(block);
        let n = self.program.code.len();
        let left = self.load_ctx(types::I64, offset_of!(JitCtx, threads_left));
        let done = self.b.create_block();
        self.b
            .ins()
            .brif(left, next, &[BlockArg::from(left)], done, &[]);
        self.b.switch_to_block(done);
        self.exit_with(status::FINISHED, n, 0);
        self.emit_advance(next, done, false);
        if let Some(copy_next) = self.copy_next {
            // (A thread that ran the copy run with a full mask had every bit it asks for, and
            // every thread of a batch starts with the same mask: the next thread runs it too.)
            self.emit_advance(copy_next, done, true);
        }
    }

    /// The next thread of a batch from `next` (whose parameter is the count of threads left,
    /// not zero): its place, pointers and mask, into the copy run with a full mask when
    /// `into_copy`, else through the test that chooses it.
    fn emit_advance(&mut self, next: Block, done: Block, into_copy: bool) {
        self.b.switch_to_block(next);
        // (The chunks held in variables stay there: the next thread reads them as the
        // register file it starts with, as it reads the bytes held nowhere else.)
        let left = self.b.block_params(next)[0];
        self.emit_restore_chunks(done);
        let straight = self.plan.straight_line(self.program);
        let left = self.b.ins().iadd_imm_s(left, -1);
        self.store_ctx(left, offset_of!(JitCtx, threads_left));
        let item = self.load_ctx(types::I64, offset_of!(JitCtx, first_item));
        let step = self.load_ctx(types::I64, offset_of!(JitCtx, item_step));
        let item = self.b.ins().iadd(item, step);
        self.store_ctx(item, offset_of!(JitCtx, first_item));
        let pending = self.load_ctx(types::I64, offset_of!(JitCtx, next_pending));
        self.store_ctx(pending, offset_of!(JitCtx, pending));
        if !straight {
            self.emit_restore_thread_state();
        }
        let em = self.load_ctx(types::I32, offset_of!(JitCtx, start_em));
        self.restore_em(em);
        self.emit_next_ids();
        if straight {
            // (Straight-line code never changes the mask, and the batch's first thread entered
            // with `start_em`: the lane masks written at the entry still hold.)
            match self.full_entry {
                Some((copy, _)) if into_copy => {
                    self.b.ins().jump(copy, &[]);
                }
                _ => self.enter_first(),
            }
        } else {
            // (The dispatch writes the mask's lane masks when they are stale.)
            let zero = self.const64(0);
            self.b.ins().jump(self.dispatch, &[BlockArg::from(zero)]);
        }
    }

    /// The end of the copy run with a full mask: the next thread of a batch when there is one
    /// (the chunks the copy holds die: that thread writes them before reading them), otherwise
    /// the chunks written back and the general end.
    fn emit_copy_end(&mut self, end: Block) {
        let n = self.program.code.len();
        self.b.switch_to_block(self.blocks[n]);
        if let Some(next_thread) = self.copy_next {
            let left = self.load_ctx(types::I64, offset_of!(JitCtx, threads_left));
            let last = self.b.create_block();
            (self.b.ins()).brif(left, next_thread, &[BlockArg::from(left)], last, &[]);
            self.b.switch_to_block(last);
        }
        self.flush_promoted(0..u32::MAX);
        self.b.ins().jump(end, &[]);
    }

    /// Copies the register-file chunks at the offsets `JitCtx::restore` lists from the
    /// template's register file (`JitCtx::template_grf`), the chunks held in variables written
    /// back before and read again after. Goes to `no_template` when there is none
    /// (`JitCtx::restores` all ones).
    fn emit_restore_chunks(&mut self, no_template: Block) {
        let count = self.load_ctx(types::I64, offset_of!(JitCtx, restores));
        let some = self.b.create_block();
        let copy = self.b.create_block();
        let copied = self.b.create_block();
        let zero = self.const64(0);
        self.b.ins().brif(count, some, &[], copied, &[]);
        self.b.switch_to_block(some);
        let missing = self.b.ins().icmp_imm_s(IntCC::Equal, count, -1);
        self.b.ins().brif(missing, no_template, &[], copy, &[]);
        self.b.switch_to_block(copy);
        self.flush_promoted(0..u32::MAX);
        let template = self.load_ctx(self.ptr, offset_of!(JitCtx, template_grf));
        let offsets = self.load_ctx(self.ptr, offset_of!(JitCtx, restore));
        let chunk = self.b.create_block();
        let index = self.b.append_block_param(chunk, types::I64);
        self.b.ins().jump(chunk, &[BlockArg::from(zero)]);
        self.b.switch_to_block(chunk);
        let flags = MemFlagsData::trusted();
        let at = self.b.ins().ishl_imm_u(index, 2);
        let at = self.b.ins().iadd(offsets, at);
        let offset = self.b.ins().load(types::I32, flags, at, 0);
        let offset = self.b.ins().uextend(types::I64, offset);
        let from = self.b.ins().iadd(template, offset);
        let value = self.b.ins().load(types::I32X4, grf_flags(), from, 0);
        let to = self.b.ins().iadd(self.grf, offset);
        self.b.ins().store(grf_flags(), value, to, 0);
        let index = self.b.ins().iadd_imm_s(index, 1);
        let more = self.b.ins().icmp(IntCC::UnsignedLessThan, index, count);
        let reload = self.b.create_block();
        self.b
            .ins()
            .brif(more, chunk, &[BlockArg::from(index)], reload, &[]);
        self.b.switch_to_block(reload);
        self.reload_promoted(0..u32::MAX);
        self.b.ins().jump(copied, &[]);
        self.b.switch_to_block(copied);
    }

    /// The template's predicate words and (where the program moves any) state slots, and no
    /// channel parked.
    fn emit_restore_thread_state(&mut self) {
        let flags = MemFlagsData::trusted();
        let preds = self.program.layout.predicates.len();
        if preds > 0 {
            let template = self.load_ctx(self.ptr, offset_of!(JitCtx, template_preds));
            for index in 0..preds {
                let word = (self.b.ins()).load(types::I32, flags, template, field(4 * index));
                self.store_pred(index as u16, word);
            }
        }
        if self.plan.lowering.contains(&Lowering::StateMove) {
            let template = self.load_ctx(self.ptr, offset_of!(JitCtx, template_states));
            for slot in 0..self.program.layout.state_slots as usize {
                let at = field(size_of::<crate::machine::StateSlot>() * slot);
                let value = self.b.ins().load(types::I64, flags, template, at);
                self.b.ins().store(flags, value, self.states, at);
            }
        }
        let none = self.const32(0);
        for join in 0..self.program.joins.len() {
            self.store_parked(join, none);
        }
    }

    /// The next thread's place in the grid (`ThreadPlace::next`) and the ids the program uses
    /// written from it (`ThreadIds`), as the thread start writes them.
    fn emit_next_ids(&mut self) {
        let ids = ThreadIds::new(self.program);
        if !ids.any() {
            return;
        }
        let in_group = self.load_ctx(types::I64, offset_of!(JitCtx, in_group));
        let in_group = self.b.ins().iadd_imm_s(in_group, 1);
        let per_group = self.load_ctx(types::I64, offset_of!(JitCtx, per_group));
        let wrap = self.b.ins().icmp(IntCC::Equal, in_group, per_group);
        let zero = self.const64(0);
        let in_group = self.b.ins().select(wrap, zero, in_group);
        let wrap = self.b.ins().uextend(types::I64, wrap);
        let group = self.load_ctx(types::I64, offset_of!(JitCtx, group));
        let group = self.b.ins().iadd(group, wrap);
        let global = self.load_ctx(types::I64, offset_of!(JitCtx, global));
        let global = self.b.ins().iadd_imm_s(global, 1);
        self.store_ctx(in_group, offset_of!(JitCtx, in_group));
        self.store_ctx(group, offset_of!(JitCtx, group));
        self.store_ctx(global, offset_of!(JitCtx, global));
        let simd = self.load_ctx(types::I64, offset_of!(JitCtx, simd));
        let local_item = self.b.ins().imul(in_group, simd);
        let file = self.program.layout.file_size as usize;
        for store in ids.stores() {
            let value = match store.value {
                IdValue::Group => group,
                IdValue::LocalItem => local_item,
                IdValue::InGroup => in_group,
                IdValue::Global => global,
                IdValue::Zero => zero,
            };
            // (The ids are variables of the file: every store lies inside it.)
            if store.offset + store.size > file {
                continue;
            }
            let start = u32::try_from(store.offset).unwrap_or(u32::MAX);
            let end = u32::try_from(store.offset + store.size).unwrap_or(u32::MAX);
            self.flush_promoted(start..end);
            for (at, ty) in id_pieces(store.size) {
                let piece = match at {
                    0 => value,
                    _ => self.b.ins().ushr_imm_u(value, 8 * at as i64),
                };
                let piece = match ty {
                    types::I64 => piece,
                    ty => self.b.ins().ireduce(ty, piece),
                };
                let offset = field(store.offset + at);
                self.b.ins().store(grf_flags(), piece, self.grf, offset);
            }
            self.reload_promoted(start..end);
        }
    }

    /// Leader instructions get an entry in the dispatch; any other pc leaves for the
    /// interpreter.
    fn emit_dispatch(&mut self) {
        self.b.switch_to_block(self.dispatch);
        let pc = self.b.block_params(self.dispatch)[0];
        // The mask may have been set outside (by the thread's start, a helper, the
        // interpreter): its lane masks are written again unless they are of the same mask.
        if self.plan.em_groups > 0 {
            let em = self.load_em();
            let of = self.load_ctx(types::I32, offset_of!(JitCtx, em_lanes_of));
            let stale = self.b.ins().icmp(IntCC::NotEqual, em, of);
            let expand = self.b.create_block();
            let switch = self.b.create_block();
            self.b.ins().brif(stale, expand, &[], switch, &[]);
            self.b.switch_to_block(expand);
            self.expand_em(em);
            self.b.ins().jump(switch, &[]);
            self.b.switch_to_block(switch);
        }
        let otherwise = self.b.create_block();
        let mut switch = Switch::new();
        // (A block that does not check the fuel itself is entered through a check of its
        // reach.)
        let mut checked_entries = Vec::new();
        for (pc, &leader) in self.plan.leader.iter().enumerate() {
            if leader && let Some(&block) = self.blocks.get(pc) {
                // (The end, past the last instruction, has no fuel to check.)
                let unchecked = self.plan.fuel_check.get(pc) == Some(&false);
                let entry = match unchecked || (pc == 0 && self.full_entry.is_some()) {
                    false => block,
                    true => {
                        let entry = self.b.create_block();
                        checked_entries.push((entry, pc, unchecked));
                        entry
                    }
                };
                switch.set_entry(pc as u128, entry);
            }
        }
        switch.emit(&mut self.b, pc, otherwise);
        for (entry, pc, unchecked) in checked_entries {
            self.b.switch_to_block(entry);
            if unchecked {
                self.check_fuel(pc);
            }
            match pc {
                0 => self.enter_first(),
                _ => self.jump_to(pc),
            }
        }
        self.b.switch_to_block(otherwise);
        let interpret = self.const64(status::INTERPRET);
        let zero = self.const64(0);
        self.b.ins().jump(
            self.exit,
            &[
                BlockArg::from(interpret),
                BlockArg::from(pc),
                BlockArg::from(zero),
            ],
        );
    }

    /// `exit(status, pc, refund)`: gives back fuel charged for instructions not executed,
    /// records where the code stopped, returns the status.
    fn emit_exit(&mut self) {
        self.b.switch_to_block(self.exit);
        let params = self.b.block_params(self.exit).to_vec();
        let [status, pc, refund] = params[..] else {
            return;
        };
        // (Every way out passes here: the register file gets the chunks held in variables.)
        self.flush_promoted(0..u32::MAX);
        self.flush_thread_state();
        let budget = self.b.use_var(self.budget);
        let budget = self.b.ins().iadd(budget, refund);
        self.store_ctx(budget, offset_of!(JitCtx, budget));
        self.store_ctx(pc, offset_of!(JitCtx, pc));
        self.b.ins().return_(&[status]);
    }

    fn emit_instruction(&mut self, pc: usize) {
        let block = self.blocks[pc];
        if self.plan.lowering[pc] == Lowering::Cold {
            // (The driver runs the block on the interpreter and notes it was entered.)
            self.handover = false;
            self.b.switch_to_block(block);
            self.exit_with(status::INTERPRET, pc, 0);
            return;
        }
        // What the previous instruction knew of the register file holds here when it alone
        // jumps here.
        if std::mem::take(&mut self.handover) && !self.plan.leader[pc] && self.carries() {
            self.switch_carrying(block);
        } else {
            self.b.switch_to_block(block);
        }
        if self.plan.leader[pc] {
            self.emit_block_entry(pc);
        }
        if let Some(offset) = self.program.ce0_offset {
            // `%ce0` holds the execution mask before each instruction.
            let em = self.load_em();
            self.store_grf(em, u32::try_from(offset).unwrap_or(u32::MAX));
        }
        let Some(op) = self.program.code.get(pc) else {
            return;
        };
        self.pc = pc;
        match self.plan.lowering[pc] {
            Lowering::Nop => {
                self.handover = true;
                self.jump_to(pc + 1);
            }
            Lowering::FastAlu | Lowering::FastCmp | Lowering::PredLogic => {
                lower_alu::emit(self, op);
                self.handover = true;
                self.jump_to(pc + 1);
            }
            Lowering::StateMove => {
                lower_state::emit(self, op);
                self.handover = true;
                self.jump_to(pc + 1);
            }
            Lowering::FastFloat => match op {
                Op::FastFloat(f) => lower_float::emit(self, pc, f),
                _ => self.emit_handler(pc, false),
            },
            Lowering::Memory => lower_mem::emit(self, pc, op, self.plan.window_slot[pc]),
            Lowering::Jmp => self.emit_jmp(pc, op),
            Lowering::Ret => self.emit_ret(pc, op),
            Lowering::Goto => self.emit_goto(pc, op),
            Lowering::Handler => self.emit_handler(pc, ends_block(op)),
            Lowering::Cold => {}
        }
    }

    /// Jumps to the first instruction: in the copy run with a full mask when there is one and
    /// the execution mask has every bit it asks for (`Plan::full_mask`).
    fn enter_first(&mut self) {
        let Some((copy, mask)) = self.full_entry else {
            self.jump_to(0);
            return;
        };
        let em = self.load_em();
        let enabled = self.b.ins().band_imm_u(em, i64::from(mask));
        let full = (self.b.ins()).icmp_imm_u(IntCC::Equal, enabled, i64::from(mask));
        let general = self.blocks[0];
        self.b.ins().brif(full, copy, &[], general, &[]);
    }

    /// Jumps to the instruction at `pc` (ends the current block).
    pub(super) fn jump_to(&mut self, pc: usize) {
        let block = self.blocks[pc.min(self.blocks.len() - 1)];
        self.b.ins().jump(block, &[]);
    }

    /// Leaves for more fuel unless enough is left for the longest run of native code from the
    /// block at `pc` to the next check (`Plan::reach`); continues in a new block.
    fn check_fuel(&mut self, pc: usize) {
        let reach = self.plan.reach[pc];
        let budget = self.b.use_var(self.budget);
        let short = self
            .b
            .ins()
            .icmp_imm_s(IntCC::SignedLessThan, budget, i64::from(reach));
        let refuel = self.b.create_block();
        let go_on = self.b.create_block();
        self.b.ins().brif(short, refuel, &[], go_on, &[]);
        self.b.switch_to_block(refuel);
        let needed = self.const64(i64::from(reach));
        self.store_ctx(needed, offset_of!(JitCtx, needed));
        self.exit_with(status::FUEL, pc, 0);
        self.b.switch_to_block(go_on);
    }

    /// Fuel for the whole block (checked where `Plan::fuel_check` says), rejoining parked
    /// channels, and the check that a subroutine was entered by a call.
    fn emit_block_entry(&mut self, pc: usize) {
        let len = self.plan.block_len[pc];
        if self.plan.fuel_check[pc] {
            self.check_fuel(pc);
        }
        let budget = self.b.use_var(self.budget);
        let budget = self.b.ins().iadd_imm_s(budget, -i64::from(len));
        self.b.def_var(self.budget, budget);
        let rest = self.plan.rest[pc];
        self.emit_rejoin(pc);
        if self.plan.call_target[pc] {
            let result = self.call_helper(enter::helper_enter, pc);
            // The check comes before the instruction is counted, as in the interpreter.
            self.exit_if_negative(result, pc, rest + 1);
        }
    }

    /// A call of the interpreter's handler; a control-flow instruction continues wherever the
    /// handler says.
    pub(super) fn emit_handler(&mut self, pc: usize, control: bool) {
        let result = self.call_helper(enter::helper_step, pc);
        self.exit_if_negative(result, pc, self.plan.rest[pc]);
        if control {
            self.b.ins().jump(self.dispatch, &[BlockArg::from(result)]);
        } else {
            self.jump_to(pc + 1);
        }
    }

    /// Fills `slow` (a block no code has been emitted to) with the handler call of `pc`: the
    /// slow path of a native branch. Called once the current block is filled.
    fn fill_handler(&mut self, slow: Block, pc: usize) {
        self.b.switch_to_block(slow);
        self.emit_handler(pc, true);
    }

    /// At a join point (`Program::joins`): the channels parked there join the execution mask
    /// (`Thread::rejoin`); nothing is written when none are.
    fn emit_rejoin(&mut self, pc: usize) {
        let Some(join) = self.program.joins.index(pc) else {
            return;
        };
        let parked = self.load_parked(join);
        let rejoin = self.b.create_block();
        let go_on = self.b.create_block();
        self.b.ins().brif(parked, rejoin, &[], go_on, &[]);
        self.b.switch_to_block(rejoin);
        let em = self.load_em();
        let em = self.b.ins().bor(em, parked);
        self.store_em(em);
        let none = self.const32(0);
        self.store_parked(join, none);
        self.b.ins().jump(go_on, &[]);
        self.b.switch_to_block(go_on);
    }

    /// The end of the code: parked channels there rejoin, and the thread ends when no channel
    /// is parked anywhere else (and no subroutine starts there); otherwise the interpreter
    /// decides (a trap).
    fn emit_end(&mut self) {
        let n = self.program.code.len();
        let end = self.blocks[n];
        self.b.switch_to_block(end);
        self.emit_rejoin(n);
        let joins = self.program.joins.len();
        if self.program.subroutines.binary_search(&n).is_err() && joins <= MAX_JOIN_CHECKS {
            let waiting = self.any_parked(0..joins);
            let parked = self.b.create_block();
            let finished = self.b.create_block();
            self.b.ins().brif(waiting, parked, &[], finished, &[]);
            self.b.switch_to_block(finished);
            self.finish_thread(n, 0);
            self.b.switch_to_block(parked);
        }
        self.exit_with(status::INTERPRET, n, 0);
    }

    /// The OR of the masks parked at `joins` (indices of `Program::joins`; zero when empty).
    fn any_parked(&mut self, joins: std::ops::Range<usize>) -> Value {
        let mut any = self.const32(0);
        for join in joins {
            let parked = self.load_parked(join);
            any = self.b.ins().bor(any, parked);
        }
        any
    }

    /// `jmp` (`Thread::exec_jmp`): uniform; the handler runs when channels are parked at an
    /// instruction the jump skips (it traps), or when it skips more join points than are
    /// checked inline.
    fn emit_jmp(&mut self, pc: usize, op: &Op) {
        let Op::Jmp { exec, pred, target } = *op else {
            return;
        };
        let slow = self.b.create_block();
        self.when_uniform(pc, exec, pred);
        let target_block = self.blocks[target.min(self.blocks.len() - 1)];
        let skipped = self.program.joins.between(pc, target);
        if skipped.len() > MAX_JOIN_CHECKS {
            self.b.ins().jump(slow, &[]);
        } else if skipped.is_empty() {
            self.b.ins().jump(target_block, &[]);
        } else {
            let waiting = self.any_parked(skipped);
            self.b.ins().brif(waiting, slow, &[], target_block, &[]);
        }
        self.fill_handler(slow, pc);
    }

    /// Continues in a new block when the uniform branch at `pc` is taken (the first channel of
    /// PMask set, always without a predicate); otherwise at the next instruction.
    fn when_uniform(&mut self, pc: usize, exec: ExecCtl, pred: Option<PredCtl>) {
        let taken = self.b.create_block();
        match self.uniform_condition(exec, pred) {
            Some(condition) => {
                let next = self.blocks[pc + 1];
                self.b.ins().brif(condition, taken, &[], next, &[]);
            }
            None => {
                self.b.ins().jump(taken, &[]);
            }
        }
        self.b.switch_to_block(taken);
    }

    /// Scalar `ret` at kernel level (`Thread::exec_ret`): the thread ends when the first
    /// channel of PMask is set (always without a predicate), else execution goes on.
    fn emit_ret(&mut self, pc: usize, op: &Op) {
        let Op::Ret { exec, pred } = *op else {
            return;
        };
        self.when_uniform(pc, exec, pred);
        self.finish_thread(pc, self.plan.rest[pc]);
    }

    /// `goto` (`Thread::exec_goto`): the channels that do not continue at the next instruction
    /// are parked (a forward goto's that jump, at its target; a backward one's that leave the
    /// loop, after it). When a forward goto leaves no channel active, execution continues at
    /// the nearest later join point where channels wait: the join points before the target are
    /// checked in order, then the target, where the channels that jumped wait. (A goto whose
    /// channels all go one way parks none of them when it can: they would rejoin at once.)
    fn emit_goto(&mut self, pc: usize, op: &Op) {
        let Op::Goto { exec, pred, target } = *op else {
            return;
        };
        let joins = &self.program.joins;
        let Some(park) = joins.index(park_point(pc, target)) else {
            // (Every goto's park point is a join point.)
            self.emit_handler(pc, true);
            return;
        };
        let skipped = joins.between(pc, target);
        let next = self.blocks[pc + 1];
        let target_block = self.blocks[target.min(self.blocks.len() - 1)];
        let em = self.load_em();
        let (take, stay) = self.goto_channels(exec, pred, em);
        let jumping = self.b.create_block();
        if target <= pc {
            // Backward: nothing changes unless some channel jumps; those that stay wait after
            // the goto.
            // (Only the condition crosses blocks, the masks are computed again where needed:
            // quick code spills every value live across blocks.)
            let some_stay = match pred {
                // (Some channel stays when not every active one jumps: one compare, where
                // testing the channels that stay takes their mask's complement first.)
                Some(_) if exec.size > 1 => {
                    let window = exec.lanes() << exec.offset;
                    let active = self.b.ins().band_imm_u(em, i64::from(window));
                    self.b.ins().icmp(IntCC::NotEqual, take, active)
                }
                _ => self.b.ins().icmp_imm_u(IntCC::NotEqual, stay, 0),
            };
            self.b.ins().brif(take, jumping, &[], next, &[]);
            self.b.switch_to_block(jumping);
            let diverging = self.b.create_block();
            self.b
                .ins()
                .brif(some_stay, diverging, &[], target_block, &[]);
            self.b.switch_to_block(diverging);
            let em = self.load_em();
            let (_, stay) = self.goto_channels(exec, pred, em);
            let em = self.b.ins().band_not(em, stay);
            self.store_em(em);
            self.park(park, stay);
            self.b.ins().jump(target_block, &[]);
            return;
        }
        // Forward: the channels that jump wait at the target.
        let none_jump = self.b.create_block();
        let resume = self.b.create_block();
        let all = self.b.ins().icmp(IntCC::Equal, take, em);
        self.b.ins().brif(take, jumping, &[], none_jump, &[]);
        // No channel jumps: the mask is unchanged (an empty one resumes parked channels).
        self.b.switch_to_block(none_jump);
        let em_now = self.load_em();
        self.b.ins().brif(em_now, next, &[], resume, &[]);
        self.b.switch_to_block(jumping);
        let uniform = self.b.create_block();
        let split = self.b.create_block();
        self.b.ins().brif(all, uniform, &[], split, &[]);
        // Some channels stay (the mask keeps them): the others wait at the target.
        self.b.switch_to_block(split);
        let em = self.load_em();
        let (take, _) = self.goto_channels(exec, pred, em);
        let rest = self.b.ins().band_not(em, take);
        self.store_em(rest);
        self.park(park, take);
        self.b.ins().jump(next, &[]);
        // Every channel jumps: execution continues at the first join point before the target
        // where channels wait (the jumping ones parked at the target), or at the target with
        // the mask as it is (the target's rejoin adds the channels parked there).
        self.b.switch_to_block(uniform);
        if skipped.len() > MAX_JOIN_CHECKS {
            self.leave_for_join(park);
            self.b.ins().jump(resume, &[]);
        } else {
            for join in skipped {
                let parked = self.load_parked(join);
                let found = self.b.create_block();
                let later = self.b.create_block();
                self.b.ins().brif(parked, found, &[], later, &[]);
                self.b.switch_to_block(found);
                self.leave_for_join(park);
                let at = self.blocks[self.program.joins.pc(join)];
                self.b.ins().jump(at, &[]);
                self.b.switch_to_block(later);
            }
            self.b.ins().jump(target_block, &[]);
        }
        // The nearest later join point where channels wait, or the trap.
        self.b.switch_to_block(resume);
        let result = self.call_helper(enter::helper_resume, pc);
        self.exit_if_negative(result, pc, self.plan.rest[pc]);
        self.b.ins().jump(self.dispatch, &[BlockArg::from(result)]);
    }

    /// Every active channel (all jumped) waits at join point `park`: none is left active.
    fn leave_for_join(&mut self, park: usize) {
        let em = self.load_em();
        self.park(park, em);
        let none = self.const32(0);
        self.store_em(none);
    }

    /// The channels of a goto that jump and those that stay (`Thread::exec_goto`), from the
    /// execution mask `em`.
    fn goto_channels(&mut self, exec: ExecCtl, pred: Option<PredCtl>, em: Value) -> (Value, Value) {
        let window = exec.lanes() << exec.offset;
        match pred {
            Some(p) if exec.size > 1 => {
                let active = self.b.ins().band_imm_u(em, i64::from(window));
                let mask = self.pred_mask(exec, p);
                let mask = self.b.ins().ishl_imm_u(mask, i64::from(exec.offset));
                let take = self.b.ins().band(active, mask);
                let stay = self.b.ins().band_not(active, mask);
                (take, stay)
            }
            _ => {
                let zero = self.const32(0);
                match self.uniform_condition(exec, pred) {
                    Some(c) => {
                        let take = self.b.ins().select(c, em, zero);
                        let stay = self.b.ins().select(c, zero, em);
                        (take, stay)
                    }
                    None => (em, zero),
                }
            }
        }
    }

    /// `parked[join] |= channels`.
    fn park(&mut self, join: usize, channels: Value) {
        let parked = self.load_parked(join);
        let parked = self.b.ins().bor(parked, channels);
        self.store_parked(join, parked);
    }
}
