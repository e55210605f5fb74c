//! Turns each assembly instruction into its decoded form once, at load time. Instructions are
//! identified by their generated [`Opcode`] (from the entry's opcode and sub-operation bytes)
//! and fields by their Format names, so this is the only place that knows how the documents
//! name things. [`execution`] is the list of what the runtime executes.

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
use visa_isa::ast::{ElemType, FieldValue, Instruction, Operand, Span, SrcMod};
use visa_isa::desc::InstrDesc;

use crate::error::LoadError;
use crate::layout::Layout;
use crate::ops::*;

pub use execution::{Execution, execution};
use memory::Oword;
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

    pub(crate) fn get(&self, name: &str) -> Option<&'a FieldValue> {
        let index = self.desc.field_index(name)?;
        self.instr.fields.get(index)
    }

    fn require(&self, name: &str) -> Result<&'a FieldValue, LoadError> {
        self.get(name)
            .ok_or_else(|| self.err(format!("{}: missing field '{name}'", self.desc.name)))
    }

    pub(crate) fn operand(&self, name: &str) -> Result<&'a Operand, LoadError> {
        match self.require(name)? {
            FieldValue::Operand(op) => Ok(op),
            other => Err(self.err(format!(
                "{}: field '{name}' should be an operand, found {other:?}",
                self.desc.name
            ))),
        }
    }

    fn int(&self, name: &str) -> Result<u64, LoadError> {
        match self.require(name)? {
            FieldValue::Int(v) => Ok(*v),
            FieldValue::Absent => Ok(0),
            other => Err(self.err(format!(
                "{}: field '{name}' should be an integer, found {other:?}",
                self.desc.name
            ))),
        }
    }

    /// The text token the table documents for `code` of field `name` (searching its values and
    /// the codes of its sub-fields), if any.
    fn token(&self, name: &str, code: u64) -> Option<&'static str> {
        let field = self.desc.fields.get(self.desc.field_index(name)?)?;
        if let Some(c) = field.values.iter().find(|c| c.code == code) {
            return Some(c.text);
        }
        field.bitfields.iter().find_map(|b| {
            let sub = (code & b.mask()) >> b.lo;
            b.codes.iter().find(|c| c.code == sub).map(|c| c.text)
        })
    }

    /// The token of the code field `name` holds (`LscSFID` 0: `ugm`); an error for a code the
    /// table does not document.
    fn code_token(&self, name: &str) -> Result<&'static str, LoadError> {
        let code = self.int(name)?;
        self.token(name, code)
            .ok_or_else(|| self.err(format!("{name}: undocumented code {code}")))
    }

    /// A count field whose codes are documented as numbers (`0b01: 2 blocks`); without a
    /// documented token the encoding `1 << code` of the vISA documents is used.
    fn count(&self, name: &str, mask: u64) -> Result<u32, LoadError> {
        let code = self.int(name)? & mask;
        match self.token(name, code).and_then(|t| t.parse::<u32>().ok()) {
            Some(n) => Ok(n),
            None if code < 8 => Ok(1 << code),
            None => Err(self.err(format!("{}: bad {name} code {code}", self.desc.name))),
        }
    }

    pub(super) fn exec(&self) -> Result<ExecCtl, LoadError> {
        self.exec_field("Exec_size")
    }

    /// An execution-size-shaped field (lane count plus mask control), such as the `Num_elts`
    /// byte of the legacy gather/scatter.
    pub(super) fn exec_field(&self, name: &str) -> Result<ExecCtl, LoadError> {
        match self.require(name)? {
            FieldValue::Exec(e) => {
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
            other => Err(self.err(format!("Exec_size field holds {other:?}"))),
        }
    }
}

/// The generated opcode of a table entry, found by its opcode and sub-operation bytes (not by
/// its index: [`crate::Program::load_with_table`] accepts other tables). An entry that reuses a
/// known value under another name is not that instruction.
pub(crate) fn opcode_of(desc: &InstrDesc) -> Option<Opcode> {
    Opcode::from_value(desc.opcode, desc.subop)
        .filter(|op| op.name().eq_ignore_ascii_case(desc.name))
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
                self.decode_opcode(opcode, &f).unwrap_or_else(|| {
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
    /// `None` when the decoder has no case for `opcode` (a test checks there is none).
    fn decode_opcode(&mut self, opcode: Opcode, f: &Fields) -> Option<Result<Op, LoadError>> {
        Some(match opcode {
            Opcode::Mov => self.decode_mov(f),
            Opcode::Add => self.alu_op(f, AluOp::Add),
            Opcode::Mul => self.alu_op(f, AluOp::Mul),
            Opcode::Mad => self.alu_op(f, AluOp::Mad),
            Opcode::Mulh => self.alu_op(f, AluOp::Mulh),
            Opcode::Avg => self.alu_op(f, AluOp::Avg),
            Opcode::Sel => self.alu_op(f, AluOp::Sel),
            Opcode::Shl => self.alu_op(f, AluOp::Shl),
            Opcode::Shr => self.alu_op(f, AluOp::Shr),
            Opcode::Asr => self.alu_op(f, AluOp::Asr),
            Opcode::Div => self.alu_op(f, AluOp::Div),
            Opcode::Mod => self.alu_op(f, AluOp::Mod),
            Opcode::Rol => self.alu_op(f, AluOp::Rol),
            Opcode::Ror => self.alu_op(f, AluOp::Ror),
            Opcode::Lzd => self.alu_op(f, AluOp::Lzd),
            Opcode::Fbh => self.alu_op(f, AluOp::Fbh),
            Opcode::Fbl => self.alu_op(f, AluOp::Fbl),
            Opcode::Cbit => self.alu_op(f, AluOp::Cbit),
            Opcode::Bfe => self.alu_op(f, AluOp::Bfe),
            Opcode::Bfi => self.alu_op(f, AluOp::Bfi),
            Opcode::Bfrev => self.alu_op(f, AluOp::Bfrev),
            Opcode::Add3 => self.alu_op(f, AluOp::Add3),
            Opcode::Bfn => self.decode_bfn(f),
            Opcode::Dp4a => self.alu_op(f, AluOp::Dp4a),
            Opcode::Madw => self.alu_op(f, AluOp::Madw),
            Opcode::Frc => self.alu_op(f, AluOp::Frc),
            Opcode::Rndd => self.alu_op(f, AluOp::Rndd),
            Opcode::Rndu => self.alu_op(f, AluOp::Rndu),
            Opcode::Rnde => self.alu_op(f, AluOp::Rnde),
            Opcode::Rndz => self.alu_op(f, AluOp::Rndz),
            Opcode::Inv => self.alu_op(f, AluOp::Inv),
            Opcode::Log => self.alu_op(f, AluOp::Log),
            Opcode::Exp => self.alu_op(f, AluOp::Exp),
            Opcode::Sqrt => self.alu_op(f, AluOp::Sqrt),
            Opcode::Rsqrt => self.alu_op(f, AluOp::Rsqrt),
            Opcode::Sin => self.alu_op(f, AluOp::Sin),
            Opcode::Cos => self.alu_op(f, AluOp::Cos),
            Opcode::Pow => self.alu_op(f, AluOp::Pow),
            Opcode::Lrp => self.alu_op(f, AluOp::Lrp),
            Opcode::And => self.decode_logic(f, PredLogicOp::And),
            Opcode::Or => self.decode_logic(f, PredLogicOp::Or),
            Opcode::Xor => self.decode_logic(f, PredLogicOp::Xor),
            Opcode::Not => self.decode_logic(f, PredLogicOp::Not),
            Opcode::MinMax => self.decode_min_max(f),
            Opcode::Addc => self.decode_carry(f, false),
            Opcode::Subb => self.decode_carry(f, true),
            Opcode::Cmp => self.decode_cmp(f),
            Opcode::Setp => self.decode_setp(f),
            Opcode::AddrAdd => self.decode_addr_add(f),
            Opcode::Jmp => self.decode_jump(f, false),
            Opcode::Goto => self.decode_jump(f, true),
            Opcode::Switchjmp => self.decode_switchjmp(f),
            Opcode::Call => self.decode_call(f),
            Opcode::Fcall => self.decode_fcall(f),
            Opcode::Sad2 => self.decode_sad2(f),
            Opcode::Plane => self.decode_plane(f),
            Opcode::Movs => self.decode_movs(f),
            Opcode::Fcvt => self.decode_fp8(f, false),
            Opcode::Srnd => self.decode_fp8(f, true),
            Opcode::Dpas => self.decode_dpas(f),
            Opcode::Divm => self.decode_ieee_math(f, true),
            Opcode::Sqrtm => self.decode_ieee_math(f, false),
            Opcode::Fret => f.exec().and_then(|exec| {
                let pred = self.pred(f)?;
                Ok(Op::Fret { exec, pred })
            }),
            // The subroutine's start is recorded by the loader (`Program::subroutines`).
            Opcode::Subroutine => Ok(Op::Nop),
            Opcode::Ret => f.exec().and_then(|exec| {
                let pred = self.pred(f)?;
                Ok(Op::Ret { exec, pred })
            }),
            // FENCE orders memory; this machine's accesses are already sequentially visible
            // within a group (one thread at a time) and across groups at launch end. YIELD is
            // a scheduling hint.
            Opcode::Label
            | Opcode::Fence
            | Opcode::LscFence
            | Opcode::Lifetime
            | Opcode::Loc
            | Opcode::File
            | Opcode::Yield => Ok(Op::Nop),
            Opcode::Wait => self.decode_wait(f),
            Opcode::Barrier => Ok(Op::Barrier),
            Opcode::Sbarrier => decode_sbarrier(f),
            Opcode::Nbarrier => self.decode_nbarrier(f),
            Opcode::GatherScaled => self.decode_gather_scaled(f, false),
            Opcode::ScatterScaled => self.decode_gather_scaled(f, true),
            Opcode::OwordLd => self.decode_oword(f, Oword::Load),
            Opcode::OwordLdUnaligned => self.decode_oword(f, Oword::LoadUnaligned),
            Opcode::OwordSt => self.decode_oword(f, Oword::Store),
            Opcode::LscUntyped => self.decode_lsc_untyped(f),
            Opcode::RawSend => self.decode_raw_send(f, false),
            Opcode::RawSends => self.decode_raw_send(f, true),
            Opcode::SvmGather => self.decode_svm_scattered(f, false),
            Opcode::SvmScatter => self.decode_svm_scattered(f, true),
            Opcode::SvmBlockLd => self.decode_svm_block(f, false),
            Opcode::SvmBlockSt => self.decode_svm_block(f, true),
            Opcode::Gather4Scaled => self.decode_gather4(f, false, false),
            Opcode::Scatter4Scaled => self.decode_gather4(f, false, true),
            Opcode::SvmGather4Scaled => self.decode_gather4(f, true, false),
            Opcode::SvmScatter4Scaled => self.decode_gather4(f, true, true),
            Opcode::Gather => self.decode_legacy_scattered(f, false),
            Opcode::Scatter => self.decode_legacy_scattered(f, true),
            Opcode::QwGather => self.decode_qw_scattered(f, false),
            Opcode::QwScatter => self.decode_qw_scattered(f, true),
            Opcode::DwordAtomic => self.decode_atomic(f, false),
            Opcode::SvmAtomic => self.decode_atomic(f, true),
            // Instructions `execution` does not call executed.
            #[allow(unreachable_patterns)]
            _ => return None,
        })
    }

    /// An ALU instruction with the sources its operation reads.
    fn alu_op(&mut self, f: &Fields, op: AluOp) -> Result<Op, LoadError> {
        use AluOp::*;
        let srcs: &[&str] = match op {
            Lzd | Fbh | Fbl | Cbit | Bfrev | Frc | Rndd | Rndu | Rnde | Rndz | Inv | Log | Exp
            | Sqrt | Rsqrt | Sin | Cos => &["Src0"],
            Mad | Bfe | Add3 | Bfn(_) | Dp4a | Lrp | Madw => &["Src0", "Src1", "Src2"],
            Bfi => &["Src0", "Src1", "Src2", "Src3"],
            _ => &["Src0", "Src1"],
        };
        self.alu(f, op, srcs)
    }

    fn decode_bfn(&mut self, f: &Fields) -> Result<Op, LoadError> {
        let table = f.int("BooleanFuncCtrl")?;
        let table = u8::try_from(table)
            .map_err(|_| f.err(format!("bfn truth table {table:#x} exceeds 8 bits")))?;
        self.alu_op(f, AluOp::Bfn(table))
    }

    fn decode_min_max(&mut self, f: &Fields) -> Result<Op, LoadError> {
        let code = f.int("Op")? & 1;
        let op = match f.token("Op", code) {
            Some("max") => AluOp::Max,
            Some("min") => AluOp::Min,
            _ if code == 1 => AluOp::Max,
            _ => AluOp::Min,
        };
        self.alu_op(f, op)
    }

    fn decode_setp(&mut self, f: &Fields) -> Result<Op, LoadError> {
        let exec = f.exec()?;
        let dst = self.predicate_operand(f, f.operand("Dst")?)?;
        let src = self.src(f, f.operand("Src0")?, exec.size, false)?;
        Ok(Op::Setp { exec, dst, src })
    }

    /// `jmp` (uniform) or `goto` (divergent).
    fn decode_jump(&mut self, f: &Fields, goto: bool) -> Result<Op, LoadError> {
        let exec = f.exec()?;
        let pred = self.pred(f)?;
        let target = self.label(f, f.operand("Label")?)?;
        Ok(if goto {
            Op::Goto { exec, pred, target }
        } else {
            Op::Jmp { exec, pred, target }
        })
    }

    fn decode_call(&mut self, f: &Fields) -> Result<Op, LoadError> {
        let exec = f.exec()?;
        let pred = self.pred(f)?;
        let target = self.label(f, f.operand("Label")?)?;
        Ok(Op::Call { exec, pred, target })
    }

    /// WAIT.md: no thread-space dependencies exist on this machine; the mask is still checked
    /// like any scalar operand.
    fn decode_wait(&mut self, f: &Fields) -> Result<Op, LoadError> {
        let mask_op = f.operand("Mask")?;
        let mask = self.src(f, mask_op, 1, true)?;
        if mask.ty != ElemType::Ub {
            return Err(f.err_about(
                mask_op,
                format!("wait: the mask must have type UB, not {}", mask.ty),
            ));
        }
        Ok(Op::Nop)
    }

    fn alu(&mut self, f: &Fields, op: AluOp, src_names: &[&str]) -> Result<Op, LoadError> {
        let exec = f.exec()?;
        // (No `Pred` field reads as no predicate.)
        let pred = self.pred(f)?;
        let dst = self.dst(f, f.operand("Dst")?, exec.size)?;
        let mut srcs = Vec::with_capacity(src_names.len());
        for name in src_names {
            srcs.push(self.src(f, f.operand(name)?, exec.size, false)?);
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

    fn decode_mov(&mut self, f: &Fields) -> Result<Op, LoadError> {
        self.alu(f, AluOp::Mov, &["Src0"])
    }

    /// `and`/`or`/`xor`/`not`: on predicates when the destination is one, else on general
    /// operands.
    fn decode_logic(&mut self, f: &Fields, op: PredLogicOp) -> Result<Op, LoadError> {
        let dst_op = f.operand("Dst")?;
        if self.is_predicate(dst_op, f.instr.span)? {
            let exec = f.exec()?;
            let dst = self.predicate_operand(f, dst_op)?;
            let a = self.predicate_operand(f, f.operand("Src0")?)?;
            let b = match op {
                PredLogicOp::Not => None,
                _ => Some(self.predicate_operand(f, f.operand("Src1")?)?),
            };
            if matches!(f.get("Pred"), Some(FieldValue::Pred(Some(_)))) {
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
        match op {
            PredLogicOp::And => self.alu(f, AluOp::And, &["Src0", "Src1"]),
            PredLogicOp::Or => self.alu(f, AluOp::Or, &["Src0", "Src1"]),
            PredLogicOp::Xor => self.alu(f, AluOp::Xor, &["Src0", "Src1"]),
            PredLogicOp::Not => self.alu(f, AluOp::Not, &["Src0"]),
        }
    }

    fn decode_carry(&mut self, f: &Fields, subtract: bool) -> Result<Op, LoadError> {
        let exec = f.exec()?;
        let pred = self.pred(f)?;
        let dst = self.dst(f, f.operand("Dst")?, exec.size)?;
        let carry_name = if subtract { "Borrow" } else { "Carry" };
        let carry = self.dst(f, f.operand(carry_name)?, exec.size)?;
        let s0 = self.src(f, f.operand("Src0")?, exec.size, false)?;
        let s1 = self.src(f, f.operand("Src1")?, exec.size, false)?;
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

    fn decode_cmp(&mut self, f: &Fields) -> Result<Op, LoadError> {
        let exec = f.exec()?;
        let code = f.int("Rel_op")?;
        let rel = match f.token("Rel_op", code) {
            Some("eq") => RelOp::Eq,
            Some("ne") => RelOp::Ne,
            Some("gt") => RelOp::Gt,
            Some("ge") => RelOp::Ge,
            Some("lt") => RelOp::Lt,
            Some("le") => RelOp::Le,
            Some(other) => return Err(f.err(format!("unknown relation '{other}'"))),
            None => match code {
                0 => RelOp::Eq,
                1 => RelOp::Ne,
                2 => RelOp::Gt,
                3 => RelOp::Ge,
                4 => RelOp::Lt,
                5 => RelOp::Le,
                _ => return Err(f.err(format!("unknown relation code {code}"))),
            },
        };
        let dst_op = f.operand("Dst")?;
        let dst = if self.is_predicate(dst_op, f.instr.span)? {
            CmpDst::Pred(self.predicate_operand(f, dst_op)?)
        } else {
            CmpDst::General(self.dst(f, dst_op, exec.size)?)
        };
        let s0 = self.src(f, f.operand("Src0")?, exec.size, false)?;
        let s1 = self.src(f, f.operand("Src1")?, exec.size, false)?;
        Ok(Op::Cmp {
            rel,
            exec,
            dst,
            srcs: Box::new([s0, s1]),
        })
    }

    fn decode_addr_add(&mut self, f: &Fields) -> Result<Op, LoadError> {
        let exec = f.exec()?;
        let dst = self.dst(f, f.operand("Dst")?, exec.size)?;
        let s0 = self.src(f, f.operand("Src0")?, exec.size, false)?;
        let mut s1 = self.src(f, f.operand("Src1")?, exec.size, false)?;
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

fn decode_sbarrier(f: &Fields) -> Result<Op, LoadError> {
    let signal = match f.int("Mode")? {
        0 => false,
        1 => true,
        other => {
            return Err(f.err(format!(
                "sbarrier: mode {other} is not documented (0 wait, 1 signal)"
            )));
        }
    };
    Ok(Op::SplitBarrier { signal })
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
    pub(super) fn of(token: &str) -> Option<DataSize> {
        let (mem_bytes, slot_bytes, high_half) = match token {
            "d8" => (1, 1, false),
            "d16" => (2, 2, false),
            "d32" => (4, 4, false),
            "d64" => (8, 8, false),
            "d8u32" => (1, 4, false),
            "d16u32" => (2, 4, false),
            "d16u32h" => (2, 4, true),
            _ => return None,
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
