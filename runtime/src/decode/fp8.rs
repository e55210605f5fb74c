//! `fcvt` and `srnd` (FCVT.md, SRND.md): the operand types choose the conversion.

use visa_isa::ast::{ElemType, ExecSize, Operand, Predicate, SrcMod};

use super::{Decoder, Fields};
use crate::error::LoadError;
use crate::ops::{Fp8Convert, Fp8Kind, Op, SrcKind};

impl Decoder<'_> {
    /// `fcvt` (one source, no predicate) or `srnd` (the value and the random bits).
    pub(super) fn decode_fp8(
        &mut self,
        f: &Fields,
        exec: ExecSize,
        pred: Option<&Predicate>,
        dst: &Operand,
        sources: &[&Operand],
    ) -> Result<Op, LoadError> {
        let srnd = sources.len() == 2;
        let mnemonic = if srnd { "srnd" } else { "fcvt" };
        let exec = f.exec(exec)?;
        let pred = self.pred(f, pred)?;
        let dst = self.dst(f, dst, exec.size)?;
        let mut srcs = Vec::with_capacity(sources.len());
        for op in sources {
            let src = self.src(f, op, exec.size, false)?;
            if src.modifier != SrcMod::None {
                return Err(f.err(format!("{mnemonic} does not allow source modifiers")));
            }
            if matches!(src.kind, SrcKind::Pred(..)) {
                return Err(f.err(format!("{mnemonic} does not take a predicate as a source")));
            }
            srcs.push(src);
        }
        use ElemType::*;
        let kind = if srnd {
            match (dst.ty, srcs[0].ty, srcs[1].ty) {
                (Ub, Hf, Ub) => Fp8Kind::SrndHfToBf8,
                (Hf, F, Uw) => Fp8Kind::SrndFToHf,
                (Ub, Hf, other) | (Hf, F, other) => {
                    let want = if dst.ty == Ub { "ub" } else { "uw" };
                    return Err(f.not_executed(format!(
                        "srnd: the random numbers (src1) must have type {want} for a {} result, \
                         not {other}",
                        if dst.ty == Ub { "bf8 (ub)" } else { "hf" }
                    )));
                }
                (B | Ub, Hf | Bf, _) => {
                    return Err(f.not_executed(format!(
                        "srnd: rounding {} to {} is not modelled: the documents do not say how \
                         the 8 random bits line up with the dropped mantissa bits (only hf to \
                         bf8 (ub) and f to hf are executed)",
                        srcs[0].ty,
                        if dst.ty == B { "hf8 (b)" } else { "bf8 (ub)" }
                    )));
                }
                (d, s, _) => {
                    return Err(f.err(format!(
                        "srnd: no rounding from {s} to {d}: use hf to ub (bf8) or f to hf"
                    )));
                }
            }
        } else {
            match (dst.ty, srcs[0].ty) {
                (Hf, Ub) => Fp8Kind::Bf8ToHf,
                (Ub, Hf) => Fp8Kind::HfToBf8,
                (Hf, B) => Fp8Kind::Hf8ToHf,
                (B, Hf) => Fp8Kind::HfToHf8,
                (F, Ud) => Fp8Kind::Tf32ToF,
                (Ud, F) => Fp8Kind::FToTf32,
                (d, s) => {
                    return Err(f.err(format!(
                        "fcvt: no conversion from {s} to {d}: the pairs are hf/ub (bf8), hf/b \
                         (hf8) and f/ud (tf32), in either direction"
                    )));
                }
            }
        };
        // FCVT.md: an FP8 destination is written in every channel, so NoMask is required.
        if matches!(kind, Fp8Kind::HfToBf8 | Fp8Kind::HfToHf8) && !exec.no_mask {
            return Err(f.err(
                "fcvt to an fp8 type (ub or b destination) must use a NoMask mask control \
                 (M1_NM ... M8_NM)",
            ));
        }
        Ok(Op::Fp8(Box::new(Fp8Convert {
            kind,
            exec,
            pred,
            saturate: f.instr.saturate,
            dst,
            srcs,
        })))
    }
}
