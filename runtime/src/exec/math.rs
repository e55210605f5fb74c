//! The integer bit operations and floating-point functions of the extended ALU set (division,
//! rotates, bit fields, rounding, the math unit). Each function states the document rule it
//! follows where the rule is a decision of ours.

use visa_isa::ast::ElemType;

use crate::convert::{Num, decode, encode, is_denormal, type_mask};
use crate::ops::AluOp;

/// The bit pattern of an integer value of type `ty` (two's complement, `ty`'s width).
fn bits(value: i128, ty: ElemType) -> u64 {
    (value as u128 as u64) & type_mask(ty)
}

/// The low 32 bits of a value widened by its own signedness (the UD view of a source).
fn dword(value: i128) -> u32 {
    value as u128 as u32
}

/// Integer operations of the extended set. `v` holds the sources after their modifiers,
/// `tys` their types, `dst` the destination type; the result is exact and is brought to the
/// destination type by the caller.
pub(super) fn int_op(op: AluOp, tys: [ElemType; 4], dst: ElemType, v: [i128; 4]) -> i128 {
    let [a, b, c, d] = v;
    match op {
        // DIV.md: a zero divisor gives all ones of the destination width.
        AluOp::Div if b == 0 => i128::from(type_mask(dst)),
        // i128 division truncates toward zero; sources are at most 64 bits, so no overflow.
        AluOp::Div => a / b,
        // MOD.md: a zero divisor gives the dividend; the remainder has the dividend's sign.
        AluOp::Mod if b == 0 => a,
        AluOp::Mod => a % b,
        AluOp::Rol | AluOp::Ror => {
            let width = tys[0].size() * 8;
            let x = bits(a, tys[0]);
            let n = (b as u128 as u32) & (width - 1);
            let left = if op == AluOp::Rol {
                n
            } else {
                (width - n) % width
            };
            let rotated = if left == 0 {
                x
            } else {
                ((x << left) | (x >> (width - left))) & type_mask(tys[0])
            };
            // The rotated pattern is a value of src0's type.
            decode(rotated, tys[0]).as_int()
        }
        AluOp::Lzd => i128::from(dword(a).leading_zeros()),
        AluOp::Fbh => {
            let mut x = dword(a);
            if is_signed(tys[0]) && x & 0x8000_0000 != 0 {
                x = !x;
            }
            if x == 0 {
                0xFFFF_FFFF
            } else {
                i128::from(x.leading_zeros())
            }
        }
        AluOp::Fbl => match dword(a) {
            0 => 0xFFFF_FFFF,
            x => i128::from(x.trailing_zeros()),
        },
        AluOp::Cbit => i128::from(bits(a, tys[0]).count_ones()),
        AluOp::Bfe => {
            let width = dword(a) & 0x1f;
            let offset = dword(b) & 0x1f;
            let avail = width.min(32 - offset);
            let mask = ((1u64 << avail) - 1) as u32;
            let field = (dword(c) >> offset) & mask;
            let negative = avail != 0 && (field >> (avail - 1)) & 1 != 0;
            if is_signed(dst) && negative {
                i128::from((field | !mask) as i32)
            } else {
                i128::from(field)
            }
        }
        AluOp::Bfi => {
            let width = dword(a) & 0x1f;
            let offset = dword(b) & 0x1f;
            // 32-bit arithmetic: field bits pushed past bit 31 are lost.
            let mask = (((1u64 << width) - 1) << offset) as u32;
            i128::from(((dword(c) << offset) & mask) | (dword(d) & !mask))
        }
        AluOp::Bfrev => i128::from(dword(a).reverse_bits()),
        AluOp::Add3 => a + b + c,
        AluOp::Bfn(table) => {
            let (x, y, z) = (dword(a), dword(b), dword(c));
            let mut result = 0u32;
            for bit in 0..32 {
                let row = (x >> bit & 1) | (y >> bit & 1) << 1 | (z >> bit & 1) << 2;
                result |= u32::from(table >> row & 1) << bit;
            }
            i128::from(result)
        }
        AluOp::Dp4a => {
            // DP4A.md: the bytes of a D source are signed, those of a UD source unsigned.
            let byte = |value: i128, ty: ElemType, k: u32| {
                let raw = (dword(value) >> (8 * k)) as u8;
                if is_signed(ty) {
                    i128::from(raw as i8)
                } else {
                    i128::from(raw)
                }
            };
            a + (0..4)
                .map(|k| byte(b, tys[1], k) * byte(c, tys[2], k))
                .sum::<i128>()
        }
        AluOp::Madw => a * b + c,
        _ => a,
    }
}

fn is_signed(ty: ElemType) -> bool {
    matches!(
        ty,
        ElemType::B | ElemType::W | ElemType::D | ElemType::Q | ElemType::V
    )
}

/// `v` rounded to the float type `ty` (to nearest even).
pub(super) fn round_to(v: f64, ty: ElemType) -> f64 {
    decode(encode(Num::Float(v), ty, false), ty).as_f64()
}

/// Floating-point operations of the extended set on inputs already flushed; [`float_op`] rounds
/// the result to `ty` once and flushes it.
///
/// Results are computed in f64 and rounded to `ty` once. Division, reciprocal and square root
/// of F/HF values are therefore correctly rounded (f64 carries more than twice their precision,
/// so the double rounding is innocuous); for DF they are IEEE f64 operations. The transcendental
/// functions use Rust's `std` (the platform libm), whose f64 results are within 1 ulp of the
/// exact value: rounded to F or HF that is within 1 ulp of the correctly rounded result and exact
/// where the exact result is representable (log2(8) = 3, exp2(3) = 8, sin(0) = 0).
fn extended_float_op(op: AluOp, ty: ElemType, a: f64, b: f64, c: f64) -> f64 {
    match op {
        AluOp::Div => a / b,
        AluOp::Frc => a - a.floor(),
        AluOp::Rndd => a.floor(),
        AluOp::Rndu => a.ceil(),
        AluOp::Rnde => a.round_ties_even(),
        AluOp::Rndz => a.trunc(),
        AluOp::Inv => 1.0 / a,
        AluOp::Log => a.log2(),
        AluOp::Exp => a.exp2(),
        AluOp::Sqrt => a.sqrt(),
        // One rounding for F/HF (the f64 value carries far more precision than the result).
        AluOp::Rsqrt => 1.0 / a.sqrt(),
        AluOp::Sin => a.sin(),
        AluOp::Cos => a.cos(),
        AluOp::Pow => a.powf(b),
        // LRP.md: evaluated step by step, each step rounded to the execution type.
        AluOp::Lrp => {
            let t = round_to(1.0 - a, ty);
            let p = round_to(b * a, ty);
            let q = round_to(c * t, ty);
            p + q
        }
        _ => a,
    }
}

/// `v`, or a zero of its sign when it is a denormal of `ty` and flushing is `enabled`.
pub(super) fn flush(v: f64, ty: ElemType, enabled: bool) -> f64 {
    if enabled && is_denormal(v, ty) {
        0.0f64.copysign(v)
    } else {
        v
    }
}

/// A float ALU operation of execution type `ty` rounded to nearest even: denormal sources and
/// results flushed when `flush_denormals`, the result rounded to `ty` once (the conversion to
/// the destination type happens when it is written). The directed modes of `%cr0` are
/// `rounding::float_op`, which falls back to this for the operations that round the same way
/// in every mode.
pub(super) fn float_op(
    op: AluOp,
    ty: ElemType,
    flush_denormals: bool,
    x: Num,
    y: Num,
    z: Num,
) -> Num {
    let f = |n: Num| flush(n.as_f64(), ty, flush_denormals);
    let (a, b, c) = (f(x), f(y), f(z));
    let result = match op {
        // Sums and products of two F (or HF) values are exact in f64 or rounded once; the single
        // rounding to the destination type happens when the result is encoded.
        AluOp::Add => a + b,
        AluOp::Mul => a * b,
        AluOp::Mad => match ty {
            ElemType::Df => a.mul_add(b, c),
            ElemType::Hf | ElemType::Bf => a.mul_add(b, c),
            _ => f64::from((a as f32).mul_add(b as f32, c as f32)),
        },
        AluOp::Min => min_max_num(a, b, false),
        AluOp::Max => min_max_num(a, b, true),
        AluOp::Mov | AluOp::Sel => a,
        other => extended_float_op(other, ty, a, b, c),
    };
    // Round to the execution type before flushing the result.
    let rounded = round_to(result, ty);
    Num::Float(flush(rounded, ty, flush_denormals))
}

/// IEEE minNum (`larger` false) or maxNum (`larger` true), for MIN/MAX and the float atomics
/// `fmin`/`fmax` (MIN_MAX.md, DWORD_ATOMIC.md): one NaN operand gives the other operand, two
/// give the second (a NaN, as it is); -0 orders below +0.
pub(crate) fn min_max_num(a: f64, b: f64, larger: bool) -> f64 {
    if a.is_nan() {
        return b;
    }
    if b.is_nan() {
        return a;
    }
    let below = |x: f64, y: f64| x < y || (x == y && x.is_sign_negative() && !y.is_sign_negative());
    let b_wins = if larger { below(a, b) } else { below(b, a) };
    if b_wins { b } else { a }
}

#[cfg(test)]
mod tests {
    use super::*;

    const UD: [ElemType; 4] = [ElemType::Ud; 4];

    #[test]
    fn rotates_wrap_the_count() {
        let ud = |op, a: u32, n: i128| int_op(op, UD, ElemType::Ud, [i128::from(a), n, 0, 0]);
        assert_eq!(ud(AluOp::Rol, 0x8000_0001, 1), 0x0000_0003);
        assert_eq!(ud(AluOp::Rol, 0x8000_0001, 33), 0x0000_0003);
        assert_eq!(ud(AluOp::Ror, 0x8000_0001, -1), 0x0000_0003);
        assert_eq!(ud(AluOp::Ror, 0x1234_5678, 32), 0x1234_5678);
    }

    #[test]
    fn min_max_num_follow_ieee() {
        let min = |a, b| min_max_num(a, b, false);
        let max = |a, b| min_max_num(a, b, true);
        assert_eq!(min(f64::NAN, 2.0), 2.0);
        assert_eq!(max(2.0, f64::NAN), 2.0);
        assert!(min(0.0, -0.0).is_sign_negative());
        assert!(min(-0.0, 0.0).is_sign_negative());
        assert!(max(-0.0, 0.0).is_sign_positive());
        assert!(max(0.0, -0.0).is_sign_positive());
        assert_eq!(min(-1.0, 3.0), -1.0);
        assert_eq!(max(-1.0, 3.0), 3.0);
        assert_eq!(max(f64::NEG_INFINITY, -1e300), -1e300);
        // Two NaNs: the second source, sign and all.
        let second = -f64::NAN;
        assert_eq!(max(f64::NAN, second).to_bits(), second.to_bits());
        assert_eq!(min(f64::NAN, second).to_bits(), second.to_bits());
    }

    #[test]
    fn bfe_sign_extends_for_d() {
        let tys = [ElemType::Ud; 4];
        assert_eq!(int_op(AluOp::Bfe, tys, ElemType::D, [4, 4, 0xA0, 0]), -6);
        assert_eq!(int_op(AluOp::Bfe, tys, ElemType::Ud, [4, 4, 0xA0, 0]), 10);
    }
}
