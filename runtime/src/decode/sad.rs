//! `sad2` (SAD2.md): two-channel sums of absolute byte differences.

use visa_isa::ast::ElemType;
use visa_isa::instrs::view;

use super::{Decoder, Fields};
use crate::error::LoadError;
use crate::ops::{Op, Sad2};

impl Decoder<'_> {
    pub(super) fn decode_sad2(&mut self, f: &Fields, i: &view::Sad2) -> Result<Op, LoadError> {
        let exec = f.exec(i.exec_size)?;
        if exec.size < 2 {
            return Err(
                f.err("sad2 works on pairs of channels: the execution size must be at least 2")
            );
        }
        let pred = self.pred(f, i.pred)?;
        let dst = self.dst(f, i.dst, exec.size)?;
        let srcs = [
            self.src(f, i.src0, exec.size, false)?,
            self.src(f, i.src1, exec.size, false)?,
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
