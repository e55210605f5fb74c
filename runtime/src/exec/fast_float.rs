//! The fast path of F `add`, `mul` and `mad` (`Op::FastFloat`): sources read as slices of
//! dwords, each lane computed in `f32`, the destination written as one slice.
//!
//! In the default float mode (round to nearest even, not ALT) the general path computes in
//! `f64` and rounds to F once; for a sum or a product of two F values that is the `f32`
//! operation's result (f64 carries more than twice F's precision, so rounding twice changes
//! nothing), and for `mad` the general path is `f32::mul_add` already. Denormal sources and
//! results are flushed to a zero of their sign when `%cr0` says so, as there. A lane whose
//! sources or result is a NaN is computed by the general path's own function, so that NaN bits
//! are its bits on every host. Another float mode, an undefined source byte or a region outside
//! the file: the general path runs the whole instruction.

use visa_isa::ast::{ElemType, SrcMod};

use super::math;
use super::rounding::Rounding;
use crate::convert::{self, Num};
use crate::error::Fault;
use crate::machine::{MAX_LANES, Thread};
use crate::ops::AluOp;
use crate::ops::fast::{FastFloat, FastSrc, FloatOp};

impl Thread<'_> {
    pub(crate) fn exec_fast_float(&mut self, f: &FastFloat) -> Result<(), Fault> {
        let a = &f.general;
        let (enables, _) = self.alu_channels(a)?;
        if enables == 0 {
            return Ok(());
        }
        let mode = self.float_mode(ElemType::F);
        if mode.alt || Rounding::from_cr0(self.cr0()) != Rounding::NearestEven {
            return self.exec_alu(a);
        }
        let lanes = a.exec.size as usize;
        let mut values = [[0u32; MAX_LANES]; 3];
        for (src, out) in f.srcs.iter().zip(values.iter_mut()) {
            if self.read_fast(src, lanes, enables, out).is_none() {
                return self.exec_alu(a);
            }
        }
        let mut out = [0u32; MAX_LANES];
        for (lane, result) in out.iter_mut().enumerate().take(lanes.min(MAX_LANES)) {
            let bits = [values[0][lane], values[1][lane], values[2][lane]];
            *result = lane_result(f.op, &f.srcs, mode.flush, bits);
        }
        match self.write_fast(f.dst as usize, 4, (lanes, enables), &out) {
            Some(()) => Ok(()),
            None => self.exec_alu(a),
        }
    }
}

/// A source element with its modifier.
fn modified(bits: u32, src: &FastSrc) -> f32 {
    let v = f32::from_bits(bits);
    match src.modifier {
        SrcMod::Neg => -v,
        SrcMod::Abs => v.abs(),
        SrcMod::NegAbs => -v.abs(),
        // (`specialise` leaves NOT to the general path.)
        SrcMod::None | SrcMod::Not => v,
    }
}

/// `v`, or a zero of its sign when it is denormal and `flush` is set.
fn flushed(v: f32, flush: bool) -> f32 {
    if flush && v.is_subnormal() {
        0.0f32.copysign(v)
    } else {
        v
    }
}

/// One lane's result bits.
pub(super) fn lane_result(op: FloatOp, srcs: &[FastSrc], flush: bool, bits: [u32; 3]) -> u32 {
    let mut v = [0f32; 3];
    for ((value, bits), src) in v.iter_mut().zip(bits).zip(srcs) {
        *value = modified(bits, src);
    }
    let used = &v[..op.arity()];
    if used.iter().any(|x| x.is_nan()) {
        return general_lane(op, flush, v);
    }
    let [x, y, z] = v.map(|x| flushed(x, flush));
    let result = match op {
        FloatOp::Add => x + y,
        FloatOp::Mul => x * y,
        FloatOp::Mad => x.mul_add(y, z),
    };
    if result.is_nan() {
        return general_lane(op, flush, v);
    }
    flushed(result, flush).to_bits()
}

/// The general path's result for one lane of modified sources `v`.
fn general_lane(op: FloatOp, flush: bool, v: [f32; 3]) -> u32 {
    let alu = match op {
        FloatOp::Add => AluOp::Add,
        FloatOp::Mul => AluOp::Mul,
        FloatOp::Mad => AluOp::Mad,
    };
    let [x, y, z] = v.map(|x| Num::Float(f64::from(x)));
    let result = math::float_op(alu, ElemType::F, flush, x, y, z);
    convert::encode(result, ElemType::F, false) as u32
}
