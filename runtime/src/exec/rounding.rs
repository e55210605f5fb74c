//! Directed rounding (`%cr0` bits 5:4: 00 RTNE, 01 RU, 10 RD, 11 RTZ) for the float
//! operations that round: `add`, `mul`, `mad`, `div`, `inv`, `sqrt`, `frc`, `lrp` and
//! float-to-float conversions.
//!
//! Each result is first obtained exactly as an f64 `head` (the f64 nearest to the exact value)
//! plus the sign of the remainder `exact - head`, using error-free transformations: TwoSum for
//! sums (always exact) and a fused multiply-add for the remainder of products, quotients and
//! square roots (exact when the remainder does not underflow, which holds for F and HF
//! operands and for DF results of magnitude at least 2^-968). It is then rounded to the
//! nearest value of the target type, and stepped one unit in the last place when the mode
//! asks for the other neighbour; that value is exact in the target type, so the later
//! encoding does not change it. DF `mad` and DF results where the remainder could underflow
//! trap rather than risk an off-by-one-ulp result. Transcendental functions keep their
//! round-to-nearest results (their stated accuracy is 1 ulp in any case), and integer to float
//! conversions always round to nearest even (2_datatypes.md).

use visa_isa::ast::ElemType;

use super::math::{self, flush};
use crate::convert::{Num, decode, f64_to_bf16, f64_to_f16};
use crate::error::{Fault, TrapKind};
use crate::ops::AluOp;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Rounding {
    NearestEven,
    Up,
    Down,
    TowardZero,
}

/// The `%cr0` bits of the rounding mode (5:4); 0 is round to nearest even.
pub(crate) const CR0_ROUNDING: u32 = 0b11 << 4;

impl Rounding {
    pub(crate) fn from_cr0(cr0: u32) -> Self {
        match (cr0 & CR0_ROUNDING) >> 4 {
            0b00 => Self::NearestEven,
            0b01 => Self::Up,
            0b10 => Self::Down,
            _ => Self::TowardZero,
        }
    }
}

/// An exact real value: `head` is the f64 nearest to it, `tail` the sign of `exact - head`.
#[derive(Debug, Clone, Copy)]
struct Exact {
    head: f64,
    tail: i8,
}

fn sign(v: f64) -> i8 {
    if v > 0.0 {
        1
    } else if v < 0.0 {
        -1
    } else {
        0
    }
}

impl Exact {
    fn of(v: f64) -> Self {
        Self { head: v, tail: 0 }
    }

    /// A finite exact value whose f64 rounding overflowed lies on the finite side of the
    /// infinity.
    fn overflowed(head: f64) -> Self {
        Self {
            head,
            tail: -sign(head),
        }
    }
}

/// `a + b` for a mode: an exact zero sum is -0 when rounding down unless both operands are
/// +0 (IEEE-754 6.3); f64 arithmetic gives the round-to-nearest sign.
fn add_in(a: f64, b: f64, mode: Rounding) -> Exact {
    let sum = add(a, b);
    let both_positive_zeros = a == 0.0 && b == 0.0 && a.is_sign_positive() && b.is_sign_positive();
    if mode == Rounding::Down && sum.head == 0.0 && sum.tail == 0 && !both_positive_zeros {
        return Exact::of(-0.0);
    }
    sum
}

fn add(a: f64, b: f64) -> Exact {
    let s = a + b;
    if !s.is_finite() {
        return if a.is_finite() && b.is_finite() {
            Exact::overflowed(s)
        } else {
            Exact::of(s)
        };
    }
    // TwoSum (Knuth): exact error of the rounded sum.
    let bb = s - a;
    let error = (a - (s - bb)) + (b - bb);
    Exact {
        head: s,
        tail: sign(error),
    }
}

/// Smallest magnitude for which the fma remainders of DF products, quotients and square roots
/// are exact.
const DF_EXACT_REMAINDER: f64 = f64::from_bits(55 << 52);

fn remainder_is_exact(head: f64, ty: ElemType) -> bool {
    ty != ElemType::Df || head == 0.0 || !head.is_finite() || head.abs() >= DF_EXACT_REMAINDER
}

fn mul(a: f64, b: f64) -> Exact {
    let p = a * b;
    if !p.is_finite() {
        return if a.is_finite() && b.is_finite() {
            Exact::overflowed(p)
        } else {
            Exact::of(p)
        };
    }
    Exact {
        head: p,
        tail: sign(a.mul_add(b, -p)),
    }
}

fn div(a: f64, b: f64) -> Exact {
    let q = a / b;
    if !q.is_finite() || q == 0.0 || !b.is_finite() {
        return if a.is_finite() && b.is_finite() && b != 0.0 && q.is_infinite() {
            Exact::overflowed(q)
        } else {
            Exact::of(q)
        };
    }
    // a - q*b has the sign of (a/b - q) * b.
    let r = (-q).mul_add(b, a);
    Exact {
        head: q,
        tail: sign(r) * sign(b),
    }
}

fn sqrt(a: f64) -> Exact {
    let s = a.sqrt();
    if !s.is_finite() || s == 0.0 {
        return Exact::of(s);
    }
    Exact {
        head: s,
        tail: sign((-s).mul_add(s, a)),
    }
}

/// The neighbour of `x` (a value of `ty`) towards +infinity.
fn next_up(x: f64, ty: ElemType) -> f64 {
    if x.is_nan() || x == f64::INFINITY {
        return x;
    }
    if x == f64::NEG_INFINITY {
        return -largest(ty);
    }
    match ty {
        ElemType::Df => x.next_up(),
        ElemType::Hf | ElemType::Bf => {
            let bits = if ty == ElemType::Hf {
                f64_to_f16(x)
            } else {
                f64_to_bf16(x)
            };
            let stepped = if x == 0.0 {
                1
            } else if x > 0.0 {
                bits.wrapping_add(1)
            } else {
                bits.wrapping_sub(1)
            };
            decode(u64::from(stepped), ty).as_f64()
        }
        _ => f64::from((x as f32).next_up()),
    }
}

/// The largest finite value of `ty`.
fn largest(ty: ElemType) -> f64 {
    match ty {
        ElemType::Df => f64::MAX,
        ElemType::Hf => 65504.0,
        ElemType::Bf => decode(0x7f7f, ElemType::Bf).as_f64(),
        _ => f64::from(f32::MAX),
    }
}

fn next_down(x: f64, ty: ElemType) -> f64 {
    if x == f64::NEG_INFINITY || x.is_nan() {
        return x;
    }
    if x == f64::INFINITY {
        return largest(ty);
    }
    -next_up(-x, ty)
}

/// `x` rounded to `ty` in `mode`.
fn round(x: Exact, ty: ElemType, mode: Rounding) -> f64 {
    let nearest = math::round_to(x.head, ty);
    if x.head.is_nan() || mode == Rounding::NearestEven {
        return nearest;
    }
    // Sign of exact - nearest: when the head itself is not representable its difference to
    // `nearest` is at least one f64 ulp, larger than the remainder.
    let side = if nearest == x.head {
        x.tail
    } else if x.head > nearest {
        1
    } else {
        -1
    };
    if side == 0 {
        return nearest;
    }
    let up = match mode {
        Rounding::Up => side > 0,
        Rounding::Down => {
            return if side < 0 {
                next_down(nearest, ty)
            } else {
                nearest
            };
        }
        Rounding::TowardZero => {
            if nearest > 0.0 && side < 0 {
                return next_down(nearest, ty);
            }
            nearest < 0.0 && side > 0
        }
        Rounding::NearestEven => false,
    };
    if up { next_up(nearest, ty) } else { nearest }
}

/// A float ALU operation of execution type `ty` in a directed `mode`, rounded to `ty` and then
/// (conversion on write) to the destination type `dst` when that is a narrower float.
#[allow(clippy::too_many_arguments)]
pub(crate) fn float_op(
    op: AluOp,
    ty: ElemType,
    dst: ElemType,
    flush_denormals: bool,
    mode: Rounding,
    x: Num,
    y: Num,
    z: Num,
) -> Result<Num, Fault> {
    let f = |n: Num| flush(n.as_f64(), ty, flush_denormals);
    let (a, b, c) = (f(x), f(y), f(z));
    let unsupported = || {
        Fault::new(TrapKind::UnsupportedRounding {
            op: format!("{op:?}").to_ascii_lowercase(),
            ty: ty.to_string(),
        })
    };
    let exact = match op {
        AluOp::Add => add_in(a, b, mode),
        AluOp::Mul => mul(a, b),
        // F and HF products are exact in f64, so the sum's TwoSum gives the fused result.
        AluOp::Mad if ty != ElemType::Df => add_in(a * b, c, mode),
        // FRC.md: x - floor(x), rounded in the mode (1 - |x| for small negative x).
        AluOp::Frc if a.is_finite() => add_in(a, -a.floor(), mode),
        AluOp::Div => div(a, b),
        AluOp::Inv => div(1.0, a),
        AluOp::Sqrt => sqrt(a),
        // LRP.md: each step rounded to the execution type, here in the selected mode.
        AluOp::Lrp if ty != ElemType::Df => {
            let t = round(add_in(1.0, -a, mode), ty, mode);
            let p = round(mul(b, a), ty, mode);
            let q = round(mul(c, t), ty, mode);
            add_in(p, q, mode)
        }
        AluOp::Mad | AluOp::Lrp => return Err(unsupported()),
        // Exact operations and the transcendental functions (1 ulp accuracy in any mode).
        _ => Exact::of(math::float_op(op, ty, flush_denormals, x, y, z).as_f64()),
    };
    let fma_remainder = matches!(op, AluOp::Mul | AluOp::Div | AluOp::Inv | AluOp::Sqrt);
    if fma_remainder && !remainder_is_exact(exact.head, ty) {
        return Err(unsupported());
    }
    let rounded = flush(round(exact, ty, mode), ty, flush_denormals);
    Ok(Num::Float(convert_value(rounded, dst, mode)))
}

/// A float value converted to the float type `dst` in `mode` (unchanged for wider types).
fn convert_value(v: f64, dst: ElemType, mode: Rounding) -> f64 {
    if dst.is_float() {
        round(Exact::of(v), dst, mode)
    } else {
        v
    }
}

/// An integer as an exact value: the nearest f64 and the sign of what it leaves out (exact for
/// every i128: an f64 below 2^127 converts back to i128 exactly).
fn exact_int(i: i128) -> Exact {
    let head = i as f64;
    let tail = if head.abs() >= 2f64.powi(127) {
        -sign(head)
    } else {
        match i.cmp(&(head as i128)) {
            std::cmp::Ordering::Greater => 1,
            std::cmp::Ordering::Less => -1,
            std::cmp::Ordering::Equal => 0,
        }
    };
    Exact { head, tail }
}

/// `mov` of a float or integer source to a float destination in `mode` (IGC's integer
/// division sequences convert integers to float with round-toward-zero and recover the
/// conversion's error exactly).
pub(crate) fn convert(x: Num, dst: ElemType, mode: Rounding) -> Num {
    match x {
        Num::Float(v) if dst.is_float() => Num::Float(convert_value(v, dst, mode)),
        Num::Int(i) if dst.is_float() => Num::Float(round(exact_int(i), dst, mode)),
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_df_remainder_threshold_is_two_to_the_minus_968() {
        assert_eq!(DF_EXACT_REMAINDER, 2f64.powi(-968));
    }

    #[test]
    fn neighbours_step_one_unit_in_each_type() {
        assert_eq!(next_up(1.0, ElemType::F), 1.0 + 2f64.powi(-23));
        assert_eq!(next_up(1.0, ElemType::Hf), 1.0 + 2f64.powi(-10));
        assert_eq!(next_up(1.0, ElemType::Bf), 1.0 + 2f64.powi(-7));
        assert_eq!(next_up(1.0, ElemType::Df), 1.0 + 2f64.powi(-52));
        assert_eq!(next_up(0.0, ElemType::Hf), 2f64.powi(-24));
        assert_eq!(next_up(-0.0, ElemType::F), 2f64.powi(-149));
        assert_eq!(next_up(-1.0, ElemType::Hf), -(1.0 - 2f64.powi(-11)));
        assert_eq!(next_down(f64::INFINITY, ElemType::Hf), 65504.0);
        assert_eq!(
            next_up(f64::NEG_INFINITY, ElemType::F),
            -f64::from(f32::MAX)
        );
    }
}
