//! `dpas` (DPAS.md): precisions, shape and operand layout resolved and checked at load.

use visa_isa::ast::{ElemType, Operand};

use super::{Decoder, Fields};
use crate::error::LoadError;
use crate::ops::{Dpas, Op, Precision, Raw};

/// The precision a W or A code stands for, by the token the table documents for it.
fn precision(f: &Fields, field: &str) -> Result<Precision, LoadError> {
    let code = f.int(field)?;
    let int = |bits, signed| Precision::Int { bits, signed };
    Ok(match f.token(field, code) {
        Some("u1") => int(1, false),
        Some("s1") => int(1, true),
        Some("u2") => int(2, false),
        Some("s2") => int(2, true),
        Some("u4") => int(4, false),
        Some("s4") => int(4, true),
        Some("u8") => int(8, false),
        Some("s8") => int(8, true),
        Some("bf") => Precision::Bf,
        Some("hf") => Precision::Hf,
        Some("tf32") => Precision::Tf32,
        Some(other) => {
            return Err(f.not_executed(format!(
                "dpas: precision '{other}' ({field}) is not modelled"
            )));
        }
        None => {
            return Err(f.err(format!(
                "dpas: {field} precision code {code:#04x} is not one of the documented \
                 precisions (u1, s1, u2, s2, u4, s4, u8, s8, bf, hf, tf32)"
            )));
        }
    })
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
    fn dpas_raw(&mut self, f: &Fields, name: &str, len: u32, align: u32) -> Result<Raw, LoadError> {
        let raw = self.raw(f, f.operand(name)?, len)?;
        if !raw.null && !raw.base.is_multiple_of(align) {
            return Err(f.err(format!(
                "dpas: {name} must start at a multiple of {align} bytes (register-file byte {})",
                raw.base
            )));
        }
        Ok(raw)
    }

    pub(super) fn decode_dpas(&mut self, f: &Fields) -> Result<Op, LoadError> {
        let exec = f.exec()?;
        let grf = self.layout.grf_bytes;
        let expected = grf / 4;
        if exec.size != expected {
            return Err(f.not_executed(format!(
                "dpas: execution size {} does not match the {grf}-byte GRF: it must be {expected} \
                 (8 with 32-byte GRFs, 16 with 64-byte GRFs)",
                exec.size
            )));
        }
        let w = precision(f, "W")?;
        let a = precision(f, "A")?;
        let sd = u32::try_from(f.int("SD")?).unwrap_or(0);
        if ![1, 2, 4, 8].contains(&sd) {
            return Err(f.err(format!(
                "dpas: systolic depth {} must be 1, 2, 4 or 8",
                f.int("SD")?
            )));
        }
        let rc = u32::try_from(f.int("RC")?).unwrap_or(0);
        if !(1..=8).contains(&rc) {
            return Err(f.err(format!(
                "dpas: repeat count {} must be 1 to 8",
                f.int("RC")?
            )));
        }
        let dst_ty = self
            .dpas_operand_type(f, f.operand("Dst")?)?
            .ok_or_else(|| f.err("dpas: the destination cannot be %null"))?;
        let src0_ty = self.dpas_operand_type(f, f.operand("Src0")?)?;
        for (name, ty) in [
            ("Src1", self.dpas_operand_type(f, f.operand("Src1")?)?),
            ("Src2", self.dpas_operand_type(f, f.operand("Src2")?)?),
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
        for (name, ty) in [("Dst", Some(dst_ty)), ("Src0", src0_ty)] {
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
        let dst = self.dpas_raw(f, "Dst", rc * exec.size * dst_ty.size(), grf)?;
        let src0_ty = src0_ty.unwrap_or(dst_ty);
        let src0 = self.dpas_raw(f, "Src0", rc * exec.size * src0_ty.size(), grf)?;
        let src1 = self.dpas_raw(f, "Src1", src1_grfs * grf, grf)?;
        let src2_align = (row_bits / 8).max(4);
        let src2 = self.dpas_raw(f, "Src2", (rc * row_bits).div_ceil(8), src2_align)?;
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
