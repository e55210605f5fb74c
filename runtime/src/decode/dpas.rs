//! `dpas` (DPAS.md): precisions, shape and operand layout resolved and checked at load.

use visa_isa::ast::{ElemType, Operand};
use visa_isa::instrs::view;
use visa_isa::instrs::view::dpas::{A, W};

use super::{Decoder, Fields};
use crate::error::LoadError;
use crate::ops::{Dpas, Op, Precision, Raw};

/// The precision a `W` or `A` code stands for (the two fields share their codes).
macro_rules! precision {
    ($code:expr, $codes:ident) => {{
        let int = |bits, signed| Precision::Int { bits, signed };
        match $code {
            $codes::U1 => int(1, false),
            $codes::S1 => int(1, true),
            $codes::U2 => int(2, false),
            $codes::S2 => int(2, true),
            $codes::U4 => int(4, false),
            $codes::S4 => int(4, true),
            $codes::U8 => int(8, false),
            $codes::S8 => int(8, true),
            $codes::Bf => Precision::Bf,
            $codes::Hf => Precision::Hf,
            $codes::Tf32 => Precision::Tf32,
        }
    }};
}

impl Decoder<'_> {
    /// The element type of the variable a raw (or general) operand names; `None` for `%null`.
    fn dpas_operand_type(
        &mut self,
        f: &Fields,
        op: &Operand,
    ) -> Result<Option<ElemType>, LoadError> {
        let var = match op {
            Operand::Raw { var, .. } | Operand::General { var, .. } | Operand::Name(var) => var,
            other => return Err(f.err(format!("dpas: expected a raw operand, found {other:?}"))),
        };
        if var == "%null" {
            return Ok(None);
        }
        let index = self.general_var(f, var)?;
        Ok(Some(self.layout.vars[index].ty))
    }

    /// A raw operand of `len` bytes starting at a multiple of `align` bytes.
    fn dpas_raw(
        &mut self,
        f: &Fields,
        (name, op): (&str, &Operand),
        len: u32,
        align: u32,
    ) -> Result<Raw, LoadError> {
        let raw = self.raw(f, op, len)?;
        if !raw.null && !raw.base.is_multiple_of(align) {
            return Err(f.err(format!(
                "dpas: {name} must start at a multiple of {align} bytes (register-file byte {})",
                raw.base
            )));
        }
        Ok(raw)
    }

    pub(super) fn decode_dpas(&mut self, f: &Fields, i: &view::Dpas) -> Result<Op, LoadError> {
        let exec = f.exec(i.exec_size)?;
        let grf = self.layout.grf_bytes;
        let expected = grf / 4;
        if exec.size != expected {
            return Err(f.not_executed(format!(
                "dpas: execution size {} does not match the {grf}-byte GRF: it must be {expected} \
                 (8 with 32-byte GRFs, 16 with 64-byte GRFs)",
                exec.size
            )));
        }
        let w = precision!(i.w, W);
        let a = precision!(i.a, A);
        let sd = u32::from(i.sd);
        if ![1, 2, 4, 8].contains(&sd) {
            return Err(f.err(format!("dpas: systolic depth {sd} must be 1, 2, 4 or 8")));
        }
        let rc = u32::from(i.rc);
        if !(1..=8).contains(&rc) {
            return Err(f.err(format!("dpas: repeat count {rc} must be 1 to 8")));
        }
        let dst_ty = self
            .dpas_operand_type(f, i.dst)?
            .ok_or_else(|| f.err("dpas: the destination cannot be %null"))?;
        let src0_ty = self.dpas_operand_type(f, i.src0)?;
        // Messages name the operands as the table does.
        let name = |index| f.field(index).map(|d| d.name);
        let (dst_name, src0_name) = (name(view::Dpas::DST)?, name(view::Dpas::SRC0)?);
        let (src1_name, src2_name) = (name(view::Dpas::SRC1)?, name(view::Dpas::SRC2)?);
        for (name, ty) in [
            (src1_name, self.dpas_operand_type(f, i.src1)?),
            (src2_name, self.dpas_operand_type(f, i.src2)?),
        ] {
            match ty {
                Some(D | Ud) => {}
                Some(other) => {
                    return Err(f.err(format!(
                        "dpas: {name} holds packed elements and must have type d or ud, not {other}"
                    )));
                }
                None => return Err(f.err(format!("dpas: {name} cannot be %null"))),
            }
        }
        use ElemType::{D, F, Ud};
        use Precision::{Int, Tf32};
        let (accumulators, what): (&[ElemType], &str) = match (w, a) {
            (Int { .. }, Int { .. }) => (&[D, Ud], "d or ud"),
            (Precision::Bf, Precision::Bf) => (&[F, ElemType::Bf], "f or bf"),
            (Precision::Hf, Precision::Hf) => (&[F, ElemType::Hf], "f or hf"),
            (Tf32, Tf32) => (&[F], "f"),
            _ => {
                return Err(f.err(format!(
                    "dpas: precisions {} (W) and {} (A) cannot be combined: both must be \
                     integer, or both bf, both hf or both tf32",
                    w.name(),
                    a.name()
                )));
            }
        };
        for (name, ty) in [(dst_name, Some(dst_ty)), (src0_name, src0_ty)] {
            if let Some(ty) = ty
                && !accumulators.contains(&ty)
            {
                return Err(f.err(format!(
                    "dpas: with these precisions {name} must have type {what}, not {ty}"
                )));
            }
        }
        let ops = match (w, a) {
            (Tf32, _) => 1,
            (Precision::Bf | Precision::Hf, _) => 2,
            _ if w.bits() == 8 || a.bits() == 8 => 4,
            _ => 8,
        };
        let w_per_dword = 32 / (ops * w.bits());
        let row_bits = sd * ops * a.bits();
        let src1_grfs = sd.div_ceil(w_per_dword);
        let dst = self.dpas_raw(f, (dst_name, i.dst), rc * exec.size * dst_ty.size(), grf)?;
        let src0_ty = src0_ty.unwrap_or(dst_ty);
        let src0_len = rc * exec.size * src0_ty.size();
        let src0 = self.dpas_raw(f, (src0_name, i.src0), src0_len, grf)?;
        let src1 = self.dpas_raw(f, (src1_name, i.src1), src1_grfs * grf, grf)?;
        let src2_align = (row_bits / 8).max(4);
        let src2_len = (rc * row_bits).div_ceil(8);
        let src2 = self.dpas_raw(f, (src2_name, i.src2), src2_len, src2_align)?;
        Ok(Op::Dpas(Box::new(Dpas {
            exec,
            w,
            a,
            sd,
            rc,
            ops,
            w_per_dword,
            grf_bytes: grf,
            row_bits,
            dst,
            dst_ty,
            src0,
            src0_ty,
            src1,
            src2,
        })))
    }
}
