//! `sad2` (SAD2.md): two-channel sums of absolute byte differences.

use visa_isa::ast::ElemType;

use super::{Decoder, Fields};
use crate::error::LoadError;
use crate::ops::{Op, Sad2};

impl Decoder<'_> {
    pub(super) fn decode_sad2(&mut self, f: &Fields) -> Result<Op, LoadError> {
        let exec = f.exec()?;
        if exec.size < 2 {
            return Err(
                f.err("sad2 works on pairs of channels: the execution size must be at least 2")
            );
        }
        let pred = self.pred(f)?;
        let dst = self.dst(f, f.operand("Dst")?, exec.size)?;
        let srcs = [
            self.src(f, f.operand("Src0")?, exec.size, false)?,
            self.src(f, f.operand("Src1")?, exec.size, false)?,
        ];
        if !matches!(dst.ty, ElemType::W | ElemType::Uw) {
            return Err(f.err(format!(
                "sad2: the destination must be W or UW, not {}",
                dst.ty
            )));
        }
        if let Some(src) = srcs
            .iter()
            .find(|s| !matches!(s.ty, ElemType::B | ElemType::Ub))
        {
            return Err(f.err(format!("sad2: the sources must be B or UB, not {}", src.ty)));
        }
        Ok(Op::Sad2(Box::new(Sad2 {
            exec,
            pred,
            saturate: f.instr.saturate,
            dst,
            srcs,
        })))
    }
}
