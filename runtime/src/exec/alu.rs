//! Arithmetic, logic, comparison and predicate instructions.

use visa_isa::ast::ElemType;

use super::int_lanes::Exact;
use super::lane_numbers;
use super::math;
use super::rounding::{self, Rounding};
use crate::convert::{Num, type_mask};
use crate::error::Fault;
use crate::machine::{MAX_LANES, Thread};
use crate::ops::int_ops::{self, IntOp};
use crate::ops::{
    AluInstr, AluOp, CmpDst, Dst, ExecCtl, ExecType, PredLogicOp, RelOp, Src, SrcKind,
};

/// `%cr0` bit of the single-precision ALT mode (2_datatypes.md, "ALT Single Floating Point
/// Mode"): F results never become infinite, and `log`/`rsqrt`/`sqrt` work on |src|.
pub(crate) const CR0_ALT_MODE: u32 = 0b1;
const CR0_KEEP_DF_DENORMS: u32 = 1 << 6;
pub(crate) const CR0_KEEP_F_DENORMS: u32 = 1 << 7;
const CR0_KEEP_HF_DENORMS: u32 = 1 << 10;

impl Thread<'_> {
    pub(super) fn cr0(&self) -> u32 {
        match self.program.cr0_offset {
            Some(offset) => self
                .grf
                .get(offset..offset + 4)
                .map_or(0, |b| u32::from_le_bytes([b[0], b[1], b[2], b[3]])),
            None => self.initial_cr0,
        }
    }

    /// The `%cr0` float mode of arithmetic of type `ty`: whether denormals are flushed to zero,
    /// and whether ALT mode applies (it exists for F only; other types keep IEEE behaviour).
    pub(super) fn float_mode(&self, ty: ElemType) -> FloatMode {
        let cr0 = self.cr0();
        let keep = match ty {
            ElemType::Df => CR0_KEEP_DF_DENORMS,
            ElemType::Hf => CR0_KEEP_HF_DENORMS,
            _ => CR0_KEEP_F_DENORMS,
        };
        FloatMode {
            flush: cr0 & keep == 0,
            alt: ty == ElemType::F && cr0 & CR0_ALT_MODE != 0,
        }
    }

    /// The channels an ALU instruction writes and, for SEL, the channels that take src0 (for
    /// SEL the predicate selects rather than masks).
    pub(crate) fn alu_channels(&self, a: &AluInstr) -> Result<(u32, u32), Fault> {
        let sel_mask = match (a.op, a.pred) {
            (AluOp::Sel, Some(p)) => {
                let enabled = self.channel_enables(a.exec, None)?;
                self.pred_mask_checked(a.exec, p, enabled)?
            }
            // Without a predicate SEL has no selector: every channel takes src0.
            (AluOp::Sel, None) => u32::MAX,
            _ => 0,
        };
        let pred = if a.op == AluOp::Sel { None } else { a.pred };
        Ok((self.channel_enables(a.exec, pred)?, sel_mask))
    }

    pub(crate) fn exec_alu(&mut self, a: &AluInstr) -> Result<(), Fault> {
        let (enables, sel_mask) = self.alu_channels(a)?;
        if enables == 0 {
            return Ok(());
        }
        let float = match a.exec_type {
            ExecType::Float(ty) if a.op != AluOp::Mov && a.op != AluOp::Sel => {
                Some((ty, self.float_mode(ty)))
            }
            _ => None,
        };
        // Directed rounding (`%cr0` bits 5:4) for float arithmetic and float conversions.
        let rounding = match (float, a.op) {
            (Some(_), _) => Rounding::from_cr0(self.cr0()),
            // Float and integer sources alike: integer to float conversions round in the mode.
            (None, AluOp::Mov) if a.dst.ty.is_float() => Rounding::from_cr0(self.cr0()),
            _ => Rounding::NearestEven,
        };
        let shift_bits = if a.dst.ty.size() == 8 || a.srcs.first().is_some_and(|s| s.ty.size() == 8)
        {
            64
        } else {
            32
        };
        let mut src_tys = [ElemType::Ud; 4];
        for (src, ty) in a.srcs.iter().zip(src_tys.iter_mut()) {
            *ty = src.ty;
        }
        // When the destination cannot overlap a source, each channel is read, computed and
        // written in turn; otherwise every source is read first.
        // Buffered sources live in a per-thread scratch vector (taken out so `self` stays
        // borrowable), so no per-instruction buffer is allocated or cleared.
        let mut values = std::mem::take(&mut self.scratch);
        if !a.streaming {
            values.resize(4 * MAX_LANES, Num::Int(0));
            for (src, out) in a.srcs.iter().zip(values.chunks_mut(MAX_LANES)) {
                if let Err(fault) = self.read_src(src, enables, out) {
                    self.scratch = values;
                    return Err(fault);
                }
            }
        }
        let mut lanes = Exact {
            src0: src_tys[0],
            shift_bits,
            saturate: a.saturate,
            sel_mask,
        };
        let result = self.alu_lanes(a, enables, float, rounding, &mut lanes, src_tys, &values);
        self.scratch = values;
        result
    }

    #[allow(clippy::too_many_arguments)]
    fn alu_lanes(
        &mut self,
        a: &AluInstr,
        enables: u32,
        float: Option<(ElemType, FloatMode)>,
        rounding: Rounding,
        lanes: &mut Exact,
        src_tys: [ElemType; 4],
        values: &[Num],
    ) -> Result<(), Fault> {
        let buffered = |k: usize, l: usize| {
            values
                .get(k * MAX_LANES + l)
                .copied()
                .unwrap_or(Num::Int(0))
        };
        for lane in lane_numbers(enables) {
            let l = lane as usize;
            let (x, y, z, w) = if a.streaming {
                let mut v = [Num::Int(0); 4];
                for (src, slot) in a.srcs.iter().zip(v.iter_mut()) {
                    *slot = self.src_value(src, lane)?;
                }
                (v[0], v[1], v[2], v[3])
            } else {
                (
                    buffered(0, l),
                    buffered(1, l),
                    buffered(2, l),
                    buffered(3, l),
                )
            };
            let result = match float {
                Some((ty, mode)) => {
                    let x = if mode.alt { alt_source(a.op, x) } else { x };
                    let result = if rounding == Rounding::NearestEven {
                        math::float_op(a.op, ty, mode.flush, x, y, z)
                    } else {
                        rounding::float_op(a.op, ty, a.dst.ty, mode.flush, rounding, x, y, z)?
                    };
                    if mode.alt { alt_result(result) } else { result }
                }
                None => match a.op {
                    AluOp::Mov if rounding != Rounding::NearestEven => {
                        rounding::convert(x, a.dst.ty, rounding)
                    }
                    AluOp::Mov => x,
                    // Values of any type: SEL picks one whole (the table's SEL on integers).
                    AluOp::Sel => {
                        if lanes.picks_src0(l) {
                            x
                        } else {
                            y
                        }
                    }
                    op => Num::Int(int_op(
                        op,
                        lanes,
                        l,
                        src_tys,
                        a.dst.ty,
                        [x.as_int(), y.as_int(), z.as_int(), w.as_int()],
                    )),
                },
            };
            if let Some(high) = &a.dst_high {
                // madw: the 64-bit result is split into its low and high dwords.
                let wide = result.as_int();
                self.write_dst(&a.dst, lane, Num::Int(wide & 0xffff_ffff), false)?;
                self.write_dst(high, lane, Num::Int((wide >> 32) & 0xffff_ffff), false)?;
                continue;
            }
            self.write_dst(&a.dst, lane, result, a.saturate)?;
        }
        Ok(())
    }

    pub(crate) fn exec_carry(
        &mut self,
        subtract: bool,
        exec: ExecCtl,
        pred: Option<crate::ops::PredCtl>,
        dst: &Dst,
        carry: &Dst,
        srcs: &[Src; 2],
    ) -> Result<(), Fault> {
        let enables = self.channel_enables(exec, pred)?;
        let mut values = [[Num::Int(0); MAX_LANES]; 2];
        for (src, out) in srcs.iter().zip(values.iter_mut()) {
            self.read_src(src, enables, out)?;
        }
        for lane in lane_numbers(enables) {
            let a = values[0][lane as usize].as_int() & 0xffff_ffff;
            let b = values[1][lane as usize].as_int() & 0xffff_ffff;
            let (result, flag) = if subtract {
                (a - b, i128::from(a < b))
            } else {
                (a + b, (a + b) >> 32)
            };
            self.write_dst(dst, lane, Num::Int(result), false)?;
            self.write_dst(carry, lane, Num::Int(flag), false)?;
        }
        Ok(())
    }

    pub(crate) fn exec_cmp(
        &mut self,
        rel: RelOp,
        exec: ExecCtl,
        dst: &CmpDst,
        srcs: &[Src; 2],
    ) -> Result<(), Fault> {
        let enables = self.channel_enables(exec, None)?;
        let float = srcs.iter().any(|s| s.ty.is_float());
        // Every comparison is made before any destination element is written.
        let mut result = 0u32;
        for lane in lane_numbers(enables) {
            let x = self.src_value(&srcs[0], lane)?;
            let y = self.src_value(&srcs[1], lane)?;
            let holds = if float {
                compare(rel, x.as_f64(), y.as_f64())
            } else {
                compare(rel, x.as_int(), y.as_int())
            };
            result |= u32::from(holds) << lane;
        }
        if let CmpDst::General(d) = dst {
            for lane in lane_numbers(enables) {
                let value = if result >> lane & 1 != 0 {
                    type_mask(d.ty)
                } else {
                    0
                };
                self.write_dst_bits(d, lane, value)?;
            }
        }
        if let CmpDst::Pred(index) = dst {
            self.set_pred_bits(*index, enables << exec.offset, result << exec.offset);
        }
        Ok(())
    }

    pub(crate) fn exec_setp(&mut self, exec: ExecCtl, dst: u16, src: &Src) -> Result<(), Fault> {
        let enables = self.channel_enables(exec, None)?;
        let scalar = match src.kind {
            SrcKind::Imm(ref v) => v.len() == 1,
            SrcKind::Direct { vs, w, hs, .. } | SrcKind::Indirect { vs, w, hs, .. } => {
                vs == 0 && (w == 1 || hs == 0)
            }
            _ => false,
        };
        let bits = if scalar {
            (self.src_value(src, 0)?.as_int() as u64 as u32) & enables
        } else {
            let mut values = [Num::Int(0); MAX_LANES];
            self.read_src(src, enables, &mut values)?;
            let mut bits = 0;
            for (lane, v) in values.iter().enumerate().take(exec.size as usize) {
                bits |= ((v.as_int() & 1) as u32) << lane;
            }
            bits & enables
        };
        self.set_pred_bits(dst, enables << exec.offset, bits << exec.offset);
        Ok(())
    }

    pub(crate) fn exec_pred_logic(
        &mut self,
        op: PredLogicOp,
        exec: ExecCtl,
        dst: u16,
        a: u16,
        b: Option<u16>,
    ) -> Result<(), Fault> {
        let mask = self.channel_enables(exec, None)? << exec.offset;
        let x = self.pred_bits(a, mask)?;
        let y = match b {
            Some(b) => self.pred_bits(b, mask)?,
            None => 0,
        };
        let result = match op {
            PredLogicOp::And => x & y,
            PredLogicOp::Or => x | y,
            PredLogicOp::Xor => x ^ y,
            PredLogicOp::Not => !x,
        };
        self.set_pred_bits(dst, mask, result);
        Ok(())
    }
}

/// An integer ALU operation on exact values (`v`, after the source modifiers); the result is
/// brought to the destination type by the caller.
fn int_op(
    op: AluOp,
    lanes: &mut Exact,
    lane: usize,
    src_tys: [ElemType; 4],
    dst_ty: ElemType,
    v: [i128; 4],
) -> i128 {
    let [a, b, c, _] = v;
    if let Some(op) = IntOp::of(op) {
        return int_ops::eval(op, lanes, lane, [a, b, c]);
    }
    match op {
        AluOp::Mulh => a.wrapping_mul(b) >> 32,
        AluOp::Avg => (a + b + 1) >> 1,
        AluOp::Not => !a,
        other => math::int_op(other, src_tys, dst_ty, v),
    }
}

/// How `%cr0` asks float arithmetic of one type to behave.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct FloatMode {
    /// Denormal inputs and results become signed zeros.
    pub flush: bool,
    /// ALT mode (F only).
    pub alt: bool,
}

/// ALT mode: `log`, `rsqrt` and `sqrt` take the absolute value of their source, so they give
/// no NaN for negative inputs.
fn alt_source(op: AluOp, x: Num) -> Num {
    match op {
        AluOp::Log | AluOp::Rsqrt | AluOp::Sqrt => Num::Float(x.as_f64().abs()),
        _ => x,
    }
}

/// ALT mode: an infinite F result is the largest finite F of its sign.
pub(super) fn alt_result(result: Num) -> Num {
    match result {
        Num::Float(v) if v.is_infinite() => Num::Float(f64::from(f32::MAX).copysign(v)),
        other => other,
    }
}

/// `a rel b`: integers exactly, floats by IEEE order (a NaN is unordered: only `ne` holds).
fn compare<T: PartialOrd>(rel: RelOp, a: T, b: T) -> bool {
    match rel {
        RelOp::Eq => a == b,
        RelOp::Ne => a != b,
        RelOp::Gt => a > b,
        RelOp::Ge => a >= b,
        RelOp::Lt => a < b,
        RelOp::Le => a <= b,
    }
}
