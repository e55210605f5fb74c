//! `plane` (PLANE.md): `a*u + c`, then `b*v` added to it, two fused multiply-adds each
//! rounded once to F (the compiler's lowering where the hardware has no PLN).

use visa_isa::ast::ElemType;

use super::alu::alt_result;
use super::lane_numbers;
use super::math::float_op;
use super::rounding::{self, Rounding};
use crate::convert::Num;
use crate::error::Fault;
use crate::machine::{MAX_LANES, Thread};
use crate::ops::{AluOp, Plane};

impl Thread<'_> {
    pub(crate) fn exec_plane(&mut self, p: &Plane) -> Result<(), Fault> {
        let enables = self.channel_enables(p.exec, p.pred)?;
        if enables == 0 {
            return Ok(());
        }
        let float_mode = self.float_mode(ElemType::F);
        let flush = float_mode.flush;
        let mode = Rounding::from_cr0(self.cr0());
        let [a, b, c] = [0, 1, 2].map(|k| self.src_value(&p.coefficients[k], 0));
        let (a, b, c) = (a?, b?, c?);
        // Every source is read before the destination is written (it may overlap them).
        let mut u = [Num::Int(0); MAX_LANES];
        let mut v = [Num::Int(0); MAX_LANES];
        self.read_src(&p.u, enables, &mut u)?;
        self.read_src(&p.v, enables, &mut v)?;
        let fma = |x: Num, y: Num, z: Num| match mode {
            Rounding::NearestEven => Ok(float_op(AluOp::Mad, ElemType::F, flush, x, y, z)),
            _ => rounding::float_op(AluOp::Mad, ElemType::F, ElemType::F, flush, mode, x, y, z),
        };
        for lane in lane_numbers(enables) {
            let l = lane as usize;
            let mut t = fma(a, u[l], c)?;
            if float_mode.alt {
                t = alt_result(t);
            }
            let mut result = fma(b, v[l], t)?;
            if float_mode.alt {
                // ALT mode: no infinite F results (an infinite `t` already became ±fmax).
                result = alt_result(result);
            }
            self.write_dst(&p.dst, lane, result, p.saturate)?;
        }
        Ok(())
    }
}
