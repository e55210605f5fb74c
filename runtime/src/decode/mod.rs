//! Turns each assembly instruction into its decoded form once, at load time. Instructions are
//! identified by their generated [`Opcode`] (from the entry's opcode and sub-operation bytes)
//! and read through the generated typed view ([`view::Instr::lift`]): fields are members and
//! codes are generated enums matched exhaustively, so a field renamed or a code added in
//! `spec/` is a compile error here, never a failure at load. [`execution`] is the list of what
//! the runtime executes.

mod calls;
mod dpas;
mod execution;
mod fp8;
mod lsc;
mod lsc_block2d;
mod memory;
mod memory_gather;
mod movs;
mod operand;
mod plane;
mod raw_send;
mod sad;
mod switch;
mod sync;
mod unsupported;

use std::collections::HashMap;

use visa_isa::Opcode;
use visa_isa::ast::{
    ElemType, ExecSize, FieldValue, Instruction, Operand, Predicate, Span, SrcMod,
};
use visa_isa::desc::{FieldDesc, InstrDesc};
use visa_isa::instrs::view;

use crate::error::LoadError;
use crate::layout::Layout;
use crate::ops::*;

pub use execution::{Execution, execution};
use memory::{Atomic, Oword, ScaledForm};
use memory_gather::Gather4Base;
pub use unsupported::NoCpuSemantics;

pub(crate) struct Decoder<'a> {
    pub layout: &'a mut Layout,
    pub labels: &'a HashMap<String, usize>,
    /// Stack-call function name -> index in `Program::functions`.
    pub functions: &'a HashMap<String, u16>,
}

/// The fields of one instruction, looked up by their Format names.
pub(crate) struct Fields<'a> {
    pub desc: &'a InstrDesc,
    pub instr: &'a Instruction,
}

/// The operands of a four-channel message (`gather4_scaled`, its store and SVM forms), read
/// from typed instruction `$i`: it loads or (`$store`) stores its operand `$data` at `$base`.
macro_rules! four_channel {
    ($decoder:ident, $f:ident, $i:ident, $store:literal, $base:expr, $data:ident) => {
        $decoder.decode_gather4(
            $f,
            $store,
            ($i.exec_size, $i.pred, $i.channels),
            $base,
            $i.element_offset,
            $i.$data,
        )
    };
}

/// The [`ScaledForm`] of a typed `gather_scaled`/`scatter_scaled`, whose data operand is `$data`.
macro_rules! scaled_form {
    ($i:ident, $data:ident) => {
        ScaledForm {
            exec: $i.exec_size,
            pred: $i.pred,
            num_blocks: $i.num_blocks,
            surface: $i.surface,
            offset: $i.offset,
            element_offset: $i.element_offset,
            data: $i.$data,
        }
    };
}

/// The execution control of a typed `raw_send`/`raw_sends`.
macro_rules! send_control {
    ($i:ident) => {
        raw_send::SendControl {
            exec: $i.exec_size,
            pred: $i.pred,
        }
    };
}

impl<'a> Fields<'a> {
    pub(crate) fn err(&self, message: impl Into<String>) -> LoadError {
        LoadError::new(self.instr.span, message)
    }

    /// Valid vISA this runtime does not execute.
    pub(crate) fn not_executed(&self, message: impl Into<String>) -> LoadError {
        LoadError::not_executed(self.instr.span, message)
    }

    /// Where `op` (an operand of this instruction, found by address) is written; the
    /// instruction's position when it is not one of its operands or the text did not say.
    fn span_of(&self, op: &Operand) -> Span {
        let is_op =
            |value: &FieldValue| matches!(value, FieldValue::Operand(o) if std::ptr::eq(o, op));
        let found = self
            .instr
            .fields
            .iter()
            .enumerate()
            .find_map(|(index, value)| {
                if is_op(value) {
                    return self.instr.field_span(index);
                }
                match value {
                    FieldValue::List(items) => items
                        .iter()
                        .position(is_op)
                        .and_then(|element| self.instr.element_span(index, element)),
                    _ => None,
                }
            });
        found.unwrap_or(self.instr.span)
    }

    /// An error about operand `op`, at the operand.
    pub(crate) fn err_about(&self, op: &Operand, message: impl Into<String>) -> LoadError {
        LoadError::new(self.span_of(op), message)
    }

    /// Valid vISA this runtime does not execute, because of operand `op`: at the operand.
    pub(crate) fn not_executed_about(&self, op: &Operand, message: impl Into<String>) -> LoadError {
        LoadError::not_executed(self.span_of(op), message)
    }

    /// The table entry of field `index` (a generated index, `view::Switchjmp::INDEX`): the
    /// entry's layout is the generated one ([`opcode_of`]).
    pub(crate) fn field(&self, index: usize) -> Result<&'a FieldDesc, LoadError> {
        self.desc
            .fields
            .get(index)
            .ok_or_else(|| self.err(format!("{}: no field {index}", self.desc.name)))
    }

    /// The lanes and mask control of an execution-size field, checked.
    pub(super) fn exec(&self, e: ExecSize) -> Result<ExecCtl, LoadError> {
        let exec = ExecCtl {
            size: e.size,
            offset: u32::from(e.mask_offset) * 4,
            no_mask: e.no_mask,
        };
        if ![1, 2, 4, 8, 16, 32].contains(&exec.size) {
            return Err(self.err(format!(
                "execution size {} is not 1, 2, 4, 8, 16 or 32",
                exec.size
            )));
        }
        if exec.offset + exec.size > 32 {
            return Err(self.err("mask offset plus execution size exceeds 32 channels"));
        }
        if !exec.offset.is_multiple_of(exec.size) && exec.size > 4 {
            return Err(self.err(format!(
                "mask offset {} is not aligned to execution size {}",
                exec.offset, exec.size
            )));
        }
        Ok(exec)
    }
}

/// The generated opcode of a table entry, found by its opcode and sub-operation bytes (not by
/// its index: [`crate::Program::load_with_table`] accepts other tables). An entry that reuses a
/// known value under another name is not that instruction.
/// The entry's fields must also be the generated ones, in the same order: the decoder reads
/// them by their generated index ([`view::Instr::lift`]).
pub(crate) fn opcode_of(desc: &InstrDesc) -> Option<Opcode> {
    Opcode::from_value(desc.opcode, desc.subop).filter(|op| {
        let generated = op.desc();
        std::ptr::eq(generated, desc)
            || (op.name().eq_ignore_ascii_case(desc.name)
                && generated.fields.len() == desc.fields.len()
                && generated
                    .fields
                    .iter()
                    .zip(desc.fields)
                    .all(|(g, d)| g.name == d.name && g.kind == d.kind))
    })
}

impl Decoder<'_> {
    pub(crate) fn decode(
        &mut self,
        desc: &InstrDesc,
        instr: &Instruction,
    ) -> Result<Op, LoadError> {
        let f = Fields { desc, instr };
        let opcode = opcode_of(desc);
        let verdict = opcode.map_or_else(|| execution::without_verdict(desc), execution);
        // The mnemonic the instruction is written with: the template whose mnemonic selects a
        // code the instruction holds (`lsc_store` of LSC_UNTYPED), else the first.
        let mnemonic = || {
            let selects = |s: &&visa_isa::desc::SyntaxDesc| {
                s.mnemonic_sets.is_some_and(|(b, code)| {
                    let Some(FieldValue::Int(v)) = instr.fields.get(b.field) else {
                        return false;
                    };
                    match b
                        .bitfield
                        .and_then(|j| desc.fields.get(b.field)?.bitfields.get(j))
                    {
                        Some(bf) => (v & bf.mask()) >> bf.lo == code,
                        None => *v == code,
                    }
                })
            };
            desc.syntax
                .iter()
                .find(selects)
                .or(desc.syntax.first())
                .map_or_else(
                    || desc.name.to_ascii_lowercase(),
                    |s| s.mnemonic.to_string(),
                )
        };
        match (opcode, verdict) {
            (Some(opcode), Execution::Executed | Execution::NoEffect) => {
                let typed = view::Instr::lift(opcode, instr).map_err(|e| f.err(e.to_string()))?;
                self.decode_typed(typed, &f).unwrap_or_else(|| {
                    Err(f.not_executed(format!(
                        "unsupported instruction '{}': the decoder has no case for {opcode}",
                        mnemonic()
                    )))
                })
            }
            (_, Execution::NotExecuted(class)) => Err(f.not_executed(format!(
                "unsupported instruction '{}': {}",
                mnemonic(),
                class.reason()
            ))),
            (None, _) => Err(f.not_executed(format!("unsupported instruction '{}'", mnemonic()))),
        }
    }

    /// The decoded form of an instruction that [`execution`] says this runtime executes, or
    /// `None` when the decoder has no case for it (`tests/execution_list.rs` loads a kernel of
    /// every executed instruction). Fields are the typed view's members and codes its enums, so
    /// a field renamed or a code added in `spec/` does not compile here.
    fn decode_typed(&mut self, instr: view::Instr, f: &Fields) -> Option<Result<Op, LoadError>> {
        use view::Instr as I;
        // An ALU instruction: its operation, destination and the sources it reads.
        macro_rules! alu {
            ($i:ident, $op:expr, [$($src:ident),*]) => {
                self.alu(f, $op, $i.exec_size, $i.pred, $i.dst, &[$($i.$src),*])
            };
        }
        Some(match instr {
            I::Mov(i) => alu!(i, AluOp::Mov, [src0]),
            I::Add(i) => alu!(i, AluOp::Add, [src0, src1]),
            I::Mul(i) => alu!(i, AluOp::Mul, [src0, src1]),
            I::Mad(i) => alu!(i, AluOp::Mad, [src0, src1, src2]),
            I::Mulh(i) => alu!(i, AluOp::Mulh, [src0, src1]),
            I::Avg(i) => alu!(i, AluOp::Avg, [src0, src1]),
            I::Sel(i) => alu!(i, AluOp::Sel, [src0, src1]),
            I::Shl(i) => alu!(i, AluOp::Shl, [src0, src1]),
            I::Shr(i) => alu!(i, AluOp::Shr, [src0, src1]),
            I::Asr(i) => alu!(i, AluOp::Asr, [src0, src1]),
            I::Div(i) => alu!(i, AluOp::Div, [src0, src1]),
            I::Mod(i) => alu!(i, AluOp::Mod, [src0, src1]),
            I::Rol(i) => alu!(i, AluOp::Rol, [src0, src1]),
            I::Ror(i) => alu!(i, AluOp::Ror, [src0, src1]),
            I::Lzd(i) => alu!(i, AluOp::Lzd, [src0]),
            I::Fbh(i) => alu!(i, AluOp::Fbh, [src0]),
            I::Fbl(i) => alu!(i, AluOp::Fbl, [src0]),
            I::Cbit(i) => alu!(i, AluOp::Cbit, [src0]),
            I::Bfe(i) => alu!(i, AluOp::Bfe, [src0, src1, src2]),
            I::Bfi(i) => alu!(i, AluOp::Bfi, [src0, src1, src2, src3]),
            I::Bfrev(i) => alu!(i, AluOp::Bfrev, [src0]),
            I::Add3(i) => alu!(i, AluOp::Add3, [src0, src1, src2]),
            I::Bfn(i) => alu!(i, AluOp::Bfn(i.boolean_func_ctrl), [src0, src1, src2]),
            I::Dp4a(i) => alu!(i, AluOp::Dp4a, [src0, src1, src2]),
            I::Madw(i) => alu!(i, AluOp::Madw, [src0, src1, src2]),
            I::Frc(i) => alu!(i, AluOp::Frc, [src0]),
            I::Rndd(i) => alu!(i, AluOp::Rndd, [src0]),
            I::Rndu(i) => alu!(i, AluOp::Rndu, [src0]),
            I::Rnde(i) => alu!(i, AluOp::Rnde, [src0]),
            I::Rndz(i) => alu!(i, AluOp::Rndz, [src0]),
            I::Inv(i) => alu!(i, AluOp::Inv, [src0]),
            I::Log(i) => alu!(i, AluOp::Log, [src0]),
            I::Exp(i) => alu!(i, AluOp::Exp, [src0]),
            I::Sqrt(i) => alu!(i, AluOp::Sqrt, [src0]),
            I::Rsqrt(i) => alu!(i, AluOp::Rsqrt, [src0]),
            I::Sin(i) => alu!(i, AluOp::Sin, [src0]),
            I::Cos(i) => alu!(i, AluOp::Cos, [src0]),
            I::Pow(i) => alu!(i, AluOp::Pow, [src0, src1]),
            I::Lrp(i) => alu!(i, AluOp::Lrp, [src0, src1, src2]),
            I::And(i) => {
                let logic = Logic::of(i.exec_size, i.pred, i.dst, i.src0, Some(i.src1));
                self.decode_logic(f, PredLogicOp::And, logic)
            }
            I::Or(i) => {
                let logic = Logic::of(i.exec_size, i.pred, i.dst, i.src0, Some(i.src1));
                self.decode_logic(f, PredLogicOp::Or, logic)
            }
            I::Xor(i) => {
                let logic = Logic::of(i.exec_size, i.pred, i.dst, i.src0, Some(i.src1));
                self.decode_logic(f, PredLogicOp::Xor, logic)
            }
            I::Not(i) => {
                let logic = Logic::of(i.exec_size, i.pred, i.dst, i.src0, None);
                self.decode_logic(f, PredLogicOp::Not, logic)
            }
            I::MinMax(i) => {
                let op = match i.op {
                    view::min_max::Op::Min => AluOp::Min,
                    view::min_max::Op::Max => AluOp::Max,
                };
                self.alu(f, op, i.exec_size, None, i.dst, &[i.src0, i.src1])
            }
            I::Addc(i) => self.decode_carry(
                f,
                false,
                i.exec_size,
                i.pred,
                [i.dst, i.carry, i.src0, i.src1],
            ),
            I::Subb(i) => self.decode_carry(
                f,
                true,
                i.exec_size,
                i.pred,
                [i.dst, i.borrow, i.src0, i.src1],
            ),
            I::Cmp(i) => self.decode_cmp(f, &i),
            I::Setp(i) => self.decode_setp(f, &i),
            I::AddrAdd(i) => self.decode_addr_add(f, &i),
            I::Jmp(i) => self.decode_jump(f, false, i.exec_size, i.pred, i.label),
            I::Goto(i) => self.decode_jump(f, true, i.exec_size, i.pred, i.label),
            I::Call(i) => self.decode_call(f, &i),
            I::Switchjmp(i) => self.decode_switchjmp(f, &i),
            I::Fcall(i) => self.decode_fcall(f, &i),
            I::Sad2(i) => self.decode_sad2(f, &i),
            I::Plane(i) => self.decode_plane(f, &i),
            I::Movs(i) => self.decode_movs(f, &i),
            I::Fcvt(i) => self.decode_fp8(f, i.exec_size, None, i.dst, &[i.src0]),
            I::Srnd(i) => self.decode_fp8(f, i.exec_size, i.pred, i.dst, &[i.src0, i.src1]),
            I::Dpas(i) => self.decode_dpas(f, &i),
            I::Divm(i) => self.decode_ieee_math(f, i.exec_size, i.pred, i.dst, &[i.src0, i.src1]),
            I::Sqrtm(i) => self.decode_ieee_math(f, i.exec_size, i.pred, i.dst, &[i.src0]),
            I::Fret(i) => f.exec(i.exec_size).and_then(|exec| {
                let pred = self.pred(f, i.pred)?;
                Ok(Op::Fret { exec, pred })
            }),
            // The subroutine's start is recorded by the loader (`Program::subroutines`).
            I::Subroutine(_) => Ok(Op::Nop),
            I::Ret(i) => f.exec(i.exec_size).and_then(|exec| {
                let pred = self.pred(f, i.pred)?;
                Ok(Op::Ret { exec, pred })
            }),
            // FENCE orders memory; this machine's accesses are already sequentially visible
            // within a group (one thread at a time) and across groups at launch end. YIELD is
            // a scheduling hint.
            I::Label(_)
            | I::Fence(_)
            | I::LscFence(_)
            | I::Lifetime(_)
            | I::Loc(_)
            | I::File(_)
            | I::Yield(_) => Ok(Op::Nop),
            I::Wait(i) => self.decode_wait(f, i.mask),
            I::Barrier(_) => Ok(Op::Barrier),
            I::Sbarrier(i) => Ok(Op::SplitBarrier {
                signal: matches!(i.mode, view::sbarrier::Mode::Signal),
            }),
            I::Nbarrier(i) => self.decode_nbarrier(f, &i),
            I::GatherScaled(i) => self.decode_gather_scaled(f, false, scaled_form!(i, dst)),
            I::ScatterScaled(i) => self.decode_gather_scaled(f, true, scaled_form!(i, src)),
            I::OwordLd(i) => {
                self.decode_oword(f, Oword::Load, i.size, [i.surface, i.offset, i.dst])
            }
            I::OwordLdUnaligned(i) => {
                let operands = [i.surface, i.offset, i.dst];
                self.decode_oword(f, Oword::LoadUnaligned, i.size, operands)
            }
            I::OwordSt(i) => {
                self.decode_oword(f, Oword::Store, i.size, [i.surface, i.offset, i.src])
            }
            I::LscUntyped(i) => self.decode_lsc_untyped(f, &i),
            I::RawSend(i) => self.decode_raw_send(f, false, send_control!(i)),
            I::RawSends(i) => self.decode_raw_send(f, true, send_control!(i)),
            I::SvmGather(i) => self.decode_svm_scattered(
                f,
                false,
                i.exec_size,
                i.pred,
                (i.block_size, i.num_blocks),
                [i.addresses, i.dst],
            ),
            I::SvmScatter(i) => self.decode_svm_scattered(
                f,
                true,
                i.exec_size,
                i.pred,
                (i.block_size, i.num_blocks),
                [i.addresses, i.src],
            ),
            I::SvmBlockLd(i) => {
                let unaligned =
                    i.properties.alignment == view::svm_block_ld::PropertiesAlignment::Unaligned;
                self.decode_svm_block(f, false, (i.properties.size, unaligned), [i.address, i.dst])
            }
            // A store's alignment code does not change how it writes.
            I::SvmBlockSt(i) => {
                self.decode_svm_block(f, true, (i.properties.size, false), [i.address, i.src])
            }
            I::Gather4Scaled(i) => four_channel!(
                self,
                f,
                i,
                false,
                Gather4Base::Surface(i.surface, i.offset),
                dst
            ),
            I::Scatter4Scaled(i) => four_channel!(
                self,
                f,
                i,
                true,
                Gather4Base::Surface(i.surface, i.offset),
                src
            ),
            I::SvmGather4Scaled(i) => {
                four_channel!(self, f, i, false, Gather4Base::Svm(i.address), dst)
            }
            I::SvmScatter4Scaled(i) => {
                four_channel!(self, f, i, true, Gather4Base::Svm(i.address), src)
            }
            I::Gather(i) => self.decode_legacy_scattered(
                f,
                false,
                (i.elt_size, i.num_elts),
                [i.surface, i.global_offset, i.element_offset, i.dst],
            ),
            I::Scatter(i) => self.decode_legacy_scattered(
                f,
                true,
                (i.elt_size, i.num_elts),
                [i.surface, i.global_offset, i.element_offset, i.src],
            ),
            // One 8-byte block per lane is the only count documented.
            I::QwGather(i) => {
                let view::qw_gather::NumBlocks::N1Block = i.num_blocks;
                self.decode_qw_scattered(
                    f,
                    false,
                    (i.exec_size, i.pred),
                    [i.surface, i.offset, i.dst],
                )
            }
            I::QwScatter(i) => {
                let view::qw_scatter::NumBlocks::N1Block = i.num_blocks;
                self.decode_qw_scattered(
                    f,
                    true,
                    (i.exec_size, i.pred),
                    [i.surface, i.offset, i.src],
                )
            }
            I::DwordAtomic(i) => self.decode_atomic(f, Atomic::Dword(&i)),
            I::SvmAtomic(i) => self.decode_atomic(f, Atomic::Svm(&i)),
            // Instructions `execution` does not call executed.
            #[allow(unreachable_patterns)]
            _ => return None,
        })
    }

    fn decode_setp(&mut self, f: &Fields, i: &view::Setp) -> Result<Op, LoadError> {
        let exec = f.exec(i.exec_size)?;
        let dst = self.predicate_operand(f, i.dst)?;
        let src = self.src(f, i.src0, exec.size, false)?;
        Ok(Op::Setp { exec, dst, src })
    }

    /// `jmp` (uniform) or `goto` (divergent).
    fn decode_jump(
        &mut self,
        f: &Fields,
        goto: bool,
        exec: ExecSize,
        pred: Option<&Predicate>,
        label: &Operand,
    ) -> Result<Op, LoadError> {
        let exec = f.exec(exec)?;
        let pred = self.pred(f, pred)?;
        let target = self.label(f, label)?;
        Ok(if goto {
            Op::Goto { exec, pred, target }
        } else {
            Op::Jmp { exec, pred, target }
        })
    }

    fn decode_call(&mut self, f: &Fields, i: &view::Call) -> Result<Op, LoadError> {
        let exec = f.exec(i.exec_size)?;
        let pred = self.pred(f, i.pred)?;
        let target = self.label(f, i.label)?;
        Ok(Op::Call { exec, pred, target })
    }

    /// WAIT.md: no thread-space dependencies exist on this machine; the mask is still checked
    /// like any scalar operand.
    fn decode_wait(&mut self, f: &Fields, mask_op: &Operand) -> Result<Op, LoadError> {
        let mask = self.src(f, mask_op, 1, true)?;
        if mask.ty != ElemType::Ub {
            return Err(f.err_about(
                mask_op,
                format!("wait: the mask must have type UB, not {}", mask.ty),
            ));
        }
        Ok(Op::Nop)
    }

    fn alu(
        &mut self,
        f: &Fields,
        op: AluOp,
        exec: ExecSize,
        pred: Option<&Predicate>,
        dst: &Operand,
        sources: &[&Operand],
    ) -> Result<Op, LoadError> {
        let exec = f.exec(exec)?;
        let pred = self.pred(f, pred)?;
        let dst = self.dst(f, dst, exec.size)?;
        let mut srcs = Vec::with_capacity(sources.len());
        for src in sources {
            srcs.push(self.src(f, src, exec.size, false)?);
        }
        let exec_type = exec_type(dst.ty, &srcs);
        let mnemonic = f.desc.name.to_ascii_lowercase();
        if op.integer_only() && exec_type != ExecType::Int {
            return Err(f.err(format!(
                "{mnemonic} does not accept floating-point operands"
            )));
        }
        if op == AluOp::Div && exec_type == ExecType::Int && f.instr.saturate {
            return Err(f.err("div.sat is only allowed with floating-point types"));
        }
        if op.float_only() && exec_type == ExecType::Int {
            return Err(f.not_executed(format!(
                "{mnemonic} on integer operands: no documented meaning (F, HF or DF)"
            )));
        }
        for src in &srcs {
            if src.modifier == SrcMod::Not
                && !matches!(op, AluOp::And | AluOp::Or | AluOp::Xor | AluOp::Not)
            {
                return Err(f.not_executed(format!(
                    "the (~) modifier on {mnemonic}: this runtime applies it to and/or/xor/not only"
                )));
            }
            if src.modifier != SrcMod::None && op.bitwise_sources() {
                return Err(f.not_executed(format!(
                    "{mnemonic} with a source modifier (its sources are bit patterns here)"
                )));
            }
        }
        let dst_high = if op == AluOp::Madw {
            Some(self.madw_high_block(f, &dst, exec.size)?)
        } else {
            None
        };
        let streaming = dst_high.is_none() && independent(&dst, &srcs, exec.size);
        Ok(Op::Alu(Box::new(AluInstr {
            op,
            exec,
            pred,
            saturate: f.instr.saturate,
            exec_type,
            dst,
            dst_high,
            srcs,
            streaming,
        })))
    }

    /// The high block of a `madw` destination: it starts at the first GRF boundary at or after
    /// the end of the low block (MADW.md) and must lie inside the destination variable.
    fn madw_high_block(&mut self, f: &Fields, low: &Dst, exec_size: u32) -> Result<Dst, LoadError> {
        let DstKind::Direct { base, hs } = low.kind else {
            return Err(f.err("madw needs a direct (or %null) destination"));
        };
        if exec_size > 16 {
            return Err(f.err("madw execution size must be at most 16"));
        }
        let grf = self.layout.grf_bytes;
        if !base.is_multiple_of(grf) {
            return Err(f.err("madw destination must start on a GRF boundary"));
        }
        let low_end = base + ((exec_size - 1) * hs + 1) * low.ty.size();
        let high_base = low_end.next_multiple_of(grf);
        let high_end = high_base + ((exec_size - 1) * hs + 1) * low.ty.size();
        let inside = self
            .layout
            .vars
            .iter()
            .any(|v| v.offset <= base && high_end <= v.offset + v.size);
        if !inside {
            return Err(
                f.err("madw destination variable is too small for the high block of the results")
            );
        }
        Ok(Dst {
            kind: DstKind::Direct {
                base: high_base,
                hs,
            },
            ty: low.ty,
        })
    }

    /// `and`/`or`/`xor`/`not`: on predicates when the destination is one, else on general
    /// operands.
    fn decode_logic(&mut self, f: &Fields, op: PredLogicOp, l: Logic) -> Result<Op, LoadError> {
        if self.is_predicate(l.dst, f.instr.span)? {
            let exec = f.exec(l.exec)?;
            let dst = self.predicate_operand(f, l.dst)?;
            let a = self.predicate_operand(f, l.src0)?;
            let b = match l.src1 {
                Some(src1) => Some(self.predicate_operand(f, src1)?),
                None => None,
            };
            if l.pred.is_some() {
                return Err(f.err("a logic operation on predicates cannot be predicated"));
            }
            return Ok(Op::PredLogic {
                op,
                exec,
                dst,
                a,
                b,
            });
        }
        let alu = match op {
            PredLogicOp::And => AluOp::And,
            PredLogicOp::Or => AluOp::Or,
            PredLogicOp::Xor => AluOp::Xor,
            PredLogicOp::Not => AluOp::Not,
        };
        match l.src1 {
            Some(src1) => self.alu(f, alu, l.exec, l.pred, l.dst, &[l.src0, src1]),
            None => self.alu(f, alu, l.exec, l.pred, l.dst, &[l.src0]),
        }
    }

    /// `addc` / `subb`: `[dst, carry or borrow, src0, src1]`.
    fn decode_carry(
        &mut self,
        f: &Fields,
        subtract: bool,
        exec: ExecSize,
        pred: Option<&Predicate>,
        [dst, carry, src0, src1]: [&Operand; 4],
    ) -> Result<Op, LoadError> {
        let exec = f.exec(exec)?;
        let pred = self.pred(f, pred)?;
        let dst = self.dst(f, dst, exec.size)?;
        let carry = self.dst(f, carry, exec.size)?;
        let s0 = self.src(f, src0, exec.size, false)?;
        let s1 = self.src(f, src1, exec.size, false)?;
        for ty in [dst.ty, carry.ty, s0.ty, s1.ty] {
            if ty != ElemType::Ud {
                return Err(f.err(format!(
                    "{} operands must have type ud, found {ty}",
                    if subtract { "subb" } else { "addc" }
                )));
            }
        }
        Ok(Op::AddCarry(Box::new(AddCarry {
            subtract,
            exec,
            pred,
            dst,
            carry,
            srcs: [s0, s1],
        })))
    }

    fn decode_cmp(&mut self, f: &Fields, i: &view::Cmp) -> Result<Op, LoadError> {
        let exec = f.exec(i.exec_size)?;
        let rel = match i.rel_op {
            view::cmp::RelOp::Eq => RelOp::Eq,
            view::cmp::RelOp::Ne => RelOp::Ne,
            view::cmp::RelOp::Gt => RelOp::Gt,
            view::cmp::RelOp::Ge => RelOp::Ge,
            view::cmp::RelOp::Lt => RelOp::Lt,
            view::cmp::RelOp::Le => RelOp::Le,
        };
        let dst = if self.is_predicate(i.dst, f.instr.span)? {
            CmpDst::Pred(self.predicate_operand(f, i.dst)?)
        } else {
            CmpDst::General(self.dst(f, i.dst, exec.size)?)
        };
        let s0 = self.src(f, i.src0, exec.size, false)?;
        let s1 = self.src(f, i.src1, exec.size, false)?;
        Ok(Op::Cmp {
            rel,
            exec,
            dst,
            srcs: Box::new([s0, s1]),
        })
    }

    fn decode_addr_add(&mut self, f: &Fields, i: &view::AddrAdd) -> Result<Op, LoadError> {
        let exec = f.exec(i.exec_size)?;
        let dst = self.dst(f, i.dst, exec.size)?;
        let s0 = self.src(f, i.src0, exec.size, false)?;
        let mut s1 = self.src(f, i.src1, exec.size, false)?;
        if s1.ty.is_float() {
            return Err(f.err("addr_add offsets must be integers"));
        }
        // Offsets are UW byte counts; negative immediates wrap like the hardware's 16-bit adder.
        if let SrcKind::Imm(_) = s1.kind {
            s1.ty = match s1.ty {
                ElemType::D | ElemType::W | ElemType::B => ElemType::W,
                _ => ElemType::Uw,
            };
        }
        let dst = Dst {
            kind: dst.kind,
            ty: ElemType::Uw,
        };
        let srcs = vec![s0, s1];
        Ok(Op::Alu(Box::new(AluInstr {
            op: AluOp::Add,
            exec,
            pred: None,
            saturate: false,
            exec_type: ExecType::Int,
            streaming: independent(&dst, &srcs, exec.size),
            dst,
            dst_high: None,
            srcs,
        })))
    }
}

/// The operands of `and`/`or`/`xor`/`not` (`not` has no `src1`).
struct Logic<'v> {
    exec: ExecSize,
    pred: Option<&'v Predicate>,
    dst: &'v Operand,
    src0: &'v Operand,
    src1: Option<&'v Operand>,
}

impl<'v> Logic<'v> {
    fn of(
        exec: ExecSize,
        pred: Option<&'v Predicate>,
        dst: &'v Operand,
        src0: &'v Operand,
        src1: Option<&'v Operand>,
    ) -> Self {
        Logic {
            exec,
            pred,
            dst,
            src0,
            src1,
        }
    }
}

fn exec_type(dst: ElemType, srcs: &[Src]) -> ExecType {
    if dst.is_float() {
        return ExecType::Float(dst);
    }
    match srcs.iter().find(|s| s.ty.is_float()) {
        Some(s) if s.ty == ElemType::Vf => ExecType::Float(ElemType::F),
        Some(s) => ExecType::Float(s.ty),
        None => ExecType::Int,
    }
}

/// An LSC `DataSize`: how many bytes an element takes in memory and in its register slot, and
/// whether it sits in the slot's upper half.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct DataSize {
    pub mem_bytes: u32,
    pub slot_bytes: u32,
    pub high_half: bool,
}

impl DataSize {
    pub(super) fn of(size: view::lsc_untyped::DataSize) -> Option<DataSize> {
        use view::lsc_untyped::DataSize as S;
        let (mem_bytes, slot_bytes, high_half) = match size {
            S::D8 => (1, 1, false),
            S::D16 => (2, 2, false),
            S::D32 => (4, 4, false),
            S::D64 => (8, 8, false),
            S::D8u32 => (1, 4, false),
            S::D16u32 => (2, 4, false),
            S::D16u32h => (2, 4, true),
            S::Invalid => return None,
        };
        Some(DataSize {
            mem_bytes,
            slot_bytes,
            high_half,
        })
    }

    /// The same size in memory and in registers (`d8` to `d64`).
    pub(super) fn plain(self) -> bool {
        self.mem_bytes == self.slot_bytes
    }
}
