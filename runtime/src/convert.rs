//! Element values and the conversions between element types (2_datatypes.md § Type Conversion).
//!
//! Integers are widened to `i128` (exact for every vISA integer type and for every sum/product of
//! two of them) and floats to `f64`; results are converted back to the destination type at the
//! end of the operation, by truncation or, with `.sat`, by clamping.

use visa_isa::ast::ElemType;

/// One element value during an operation.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Num {
    Int(i128),
    Float(f64),
}

impl Num {
    pub(crate) fn as_f64(self) -> f64 {
        match self {
            Num::Int(v) => v as f64,
            Num::Float(v) => v,
        }
    }

    pub(crate) fn as_int(self) -> i128 {
        match self {
            Num::Int(v) => v,
            Num::Float(v) => float_to_int(v, i128::MIN, i128::MAX),
        }
    }
}

/// Decodes the bits of one element (low bits of `bits`) of type `ty`.
pub(crate) fn decode(bits: u64, ty: ElemType) -> Num {
    match ty {
        ElemType::Ub | ElemType::Bool => Num::Int(i128::from(bits as u8)),
        ElemType::B => Num::Int(i128::from(bits as u8 as i8)),
        ElemType::Uw | ElemType::Uv => Num::Int(i128::from(bits as u16)),
        ElemType::W | ElemType::V => Num::Int(i128::from(bits as u16 as i16)),
        ElemType::Ud => Num::Int(i128::from(bits as u32)),
        ElemType::D => Num::Int(i128::from(bits as u32 as i32)),
        ElemType::Uq => Num::Int(i128::from(bits)),
        ElemType::Q => Num::Int(i128::from(bits as i64)),
        ElemType::F | ElemType::Vf => Num::Float(f64::from(f32::from_bits(bits as u32))),
        ElemType::Df => Num::Float(f64::from_bits(bits)),
        ElemType::Hf => Num::Float(f16_to_f64(bits as u16)),
        ElemType::Bf => Num::Float(f64::from(f32::from_bits(u32::from(bits as u16) << 16))),
    }
}

/// Inclusive integer range of an integer type.
pub(crate) fn int_range(ty: ElemType) -> (i128, i128) {
    match ty {
        ElemType::Ub | ElemType::Bool => (0, u8::MAX.into()),
        ElemType::B => (i8::MIN.into(), i8::MAX.into()),
        ElemType::Uw | ElemType::Uv => (0, u16::MAX.into()),
        ElemType::W | ElemType::V => (i16::MIN.into(), i16::MAX.into()),
        ElemType::Ud => (0, u32::MAX.into()),
        ElemType::D => (i32::MIN.into(), i32::MAX.into()),
        ElemType::Uq => (0, u64::MAX.into()),
        ElemType::Q => (i64::MIN.into(), i64::MAX.into()),
        _ => (i128::MIN, i128::MAX),
    }
}

/// Float to integer: round toward zero, clamp to the range, NaN to 0.
fn float_to_int(v: f64, min: i128, max: i128) -> i128 {
    if v.is_nan() {
        0
    } else {
        // `as` saturates and truncates toward zero.
        (v as i128).clamp(min, max)
    }
}

/// Encodes `value` as an element of type `ty`, converting as a MOV would; `saturate` clamps to the
/// saturation range of `ty` (integers: the type's range; floats: [0.0, 1.0], NaN to 0).
pub(crate) fn encode(value: Num, ty: ElemType, saturate: bool) -> u64 {
    if ty.is_float() {
        let mut v = match value {
            Num::Int(i) => int_to_float(i, ty),
            Num::Float(f) => f,
        };
        if saturate {
            v = if v.is_nan() { 0.0 } else { v.clamp(0.0, 1.0) };
        }
        encode_float(v, ty)
    } else {
        let (min, max) = int_range(ty);
        let i = match value {
            // Float to integer conversion always clamps (the doc's conversion table).
            Num::Float(f) => float_to_int(f, min, max),
            Num::Int(i) if saturate => i.clamp(min, max),
            Num::Int(i) => i,
        };
        (i as u128 as u64) & type_mask(ty)
    }
}

/// An integer converted to the float type `ty`, rounded once (to nearest even).
fn int_to_float(i: i128, ty: ElemType) -> f64 {
    match ty {
        ElemType::F | ElemType::Vf => f64::from(i as f32),
        ElemType::Df => i as f64,
        // HF/BF: an i128 -> f64 rounding is exact for every value a 16-bit float can round to
        // differently only above 2^53, far beyond their ranges, so rounding through f64 is exact
        // enough: values that large become infinity either way.
        _ => i as f64,
    }
}

fn encode_float(v: f64, ty: ElemType) -> u64 {
    match ty {
        ElemType::Df => v.to_bits(),
        ElemType::Hf => u64::from(f64_to_f16(v)),
        ElemType::Bf => u64::from(f64_to_bf16(v)),
        _ => u64::from((v as f32).to_bits()),
    }
}

/// All-ones mask of the width of `ty`.
pub(crate) fn type_mask(ty: ElemType) -> u64 {
    match ty.size() {
        1 => 0xff,
        2 => 0xffff,
        4 => 0xffff_ffff,
        _ => u64::MAX,
    }
}

/// IEEE binary16 bits to a value.
pub(crate) fn f16_to_f64(bits: u16) -> f64 {
    let sign = if bits & 0x8000 != 0 { -1.0 } else { 1.0 };
    let exponent = i32::from((bits >> 10) & 0x1f);
    let mantissa = f64::from(bits & 0x3ff);
    match exponent {
        0 => sign * mantissa * 2f64.powi(-24),
        0x1f if mantissa == 0.0 => sign * f64::INFINITY,
        0x1f => f64::NAN,
        e => sign * (1.0 + mantissa / 1024.0) * 2f64.powi(e - 15),
    }
}

/// Rounds `v` to a binary float with `mantissa_bits` explicit mantissa bits, exponent bias
/// `bias` and `exponent_bits` exponent bits (round to nearest even, overflow to infinity,
/// gradual underflow), returning the encoded bits.
fn round_to_small_float(v: f64, mantissa_bits: u32, exponent_bits: u32) -> u32 {
    let bias = (1i32 << (exponent_bits - 1)) - 1;
    let sign = if v.is_sign_negative() {
        1u32 << (mantissa_bits + exponent_bits)
    } else {
        0
    };
    let max_exponent = (1u32 << exponent_bits) - 1;
    if v.is_nan() {
        return sign | (max_exponent << mantissa_bits) | (1 << (mantissa_bits - 1));
    }
    let a = v.abs();
    if a.is_infinite() {
        return sign | (max_exponent << mantissa_bits);
    }
    // Quantum at the smallest exponent (denormal step).
    let min_normal_exp = 1 - bias;
    let (exp, _) = frexp(a);
    // frexp gives a = m * 2^exp with m in [0.5, 1): the unbiased exponent is exp - 1.
    let unbiased = (exp - 1).max(min_normal_exp);
    let quantum = 2f64.powi(unbiased - mantissa_bits as i32);
    let scaled = a / quantum; // exact: power-of-two scaling
    let rounded = round_half_even(scaled);
    let value = rounded * quantum;
    if value == 0.0 {
        return sign;
    }
    let (exp2, _) = frexp(value);
    let unbiased2 = exp2 - 1;
    if unbiased2 > bias {
        return sign | (max_exponent << mantissa_bits);
    }
    if unbiased2 < min_normal_exp {
        // Denormal: mantissa = value / 2^(min_normal_exp - mantissa_bits).
        let m = (value / 2f64.powi(min_normal_exp - mantissa_bits as i32)) as u32;
        return sign | m;
    }
    let m =
        ((value / 2f64.powi(unbiased2 - mantissa_bits as i32)) as u32) & ((1 << mantissa_bits) - 1);
    sign | (((unbiased2 + bias) as u32) << mantissa_bits) | m
}

fn frexp(a: f64) -> (i32, f64) {
    if a == 0.0 || !a.is_finite() {
        return (0, a);
    }
    let bits = a.to_bits();
    let raw_exp = ((bits >> 52) & 0x7ff) as i32;
    if raw_exp == 0 {
        // f64 denormal: scale up first.
        let (e, m) = frexp(a * 2f64.powi(64));
        return (e - 64, m);
    }
    let e = raw_exp - 1022;
    (e, a / 2f64.powi(e))
}

fn round_half_even(x: f64) -> f64 {
    let floor = x.floor();
    let diff = x - floor;
    if diff > 0.5 || (diff == 0.5 && floor % 2.0 != 0.0) {
        floor + 1.0
    } else {
        floor
    }
}

/// A value rounded to IEEE binary16 bits.
pub(crate) fn f64_to_f16(v: f64) -> u16 {
    round_to_small_float(v, 10, 5) as u16
}

/// A value rounded to bfloat16 bits.
pub(crate) fn f64_to_bf16(v: f64) -> u16 {
    // bfloat16 is binary32 with 16 fewer mantissa bits: round to nearest even on the f32 bits.
    let f = v as f32;
    if f.is_nan() {
        return ((f.to_bits() >> 16) as u16) | 0x40;
    }
    let bits = f.to_bits();
    let rounding = 0x7fff + ((bits >> 16) & 1);
    (bits.wrapping_add(rounding) >> 16) as u16
}

/// The 8-bit restricted float of packed `VF` immediates: sign, 3-bit exponent (bias 3), 4-bit
/// mantissa; exponent 0 with mantissa 0 is ±0.
pub(crate) fn vf_to_f32(byte: u8) -> f32 {
    let sign = if byte & 0x80 != 0 { -1.0 } else { 1.0 };
    let exponent = i32::from((byte >> 4) & 0x7);
    let mantissa = f32::from(byte & 0xf);
    if exponent == 0 && mantissa == 0.0 {
        return sign * 0.0;
    }
    sign * (1.0 + mantissa / 16.0) * 2f32.powi(exponent - 3)
}

/// Whether the float value is a denormal of type `ty`.
pub(crate) fn is_denormal(v: f64, ty: ElemType) -> bool {
    let min_normal = match ty {
        ElemType::Hf => 2f64.powi(-14),
        ElemType::Df => f64::MIN_POSITIVE,
        ElemType::Bf | ElemType::F => f64::from(f32::MIN_POSITIVE),
        _ => return false,
    };
    v != 0.0 && v.abs() < min_normal
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn half_precision_round_trips_and_rounds_to_even() {
        assert_eq!(f64_to_f16(1.0), 0x3c00);
        assert_eq!(f64_to_f16(-2.0), 0xc000);
        assert_eq!(f64_to_f16(65504.0), 0x7bff);
        assert_eq!(f64_to_f16(65520.0), 0x7c00); // rounds up to infinity
        assert_eq!(f64_to_f16(2f64.powi(-24)), 0x0001); // smallest denormal
        assert_eq!(f64_to_f16(2f64.powi(-26)), 0x0000); // below half the smallest: 0
        assert_eq!(f64_to_f16(1.0 + 2f64.powi(-11)), 0x3c00); // tie to even
        assert_eq!(f64_to_f16(1.0 + 3.0 * 2f64.powi(-11)), 0x3c02); // tie to even (up)
        assert_eq!(f16_to_f64(0x3555), 0.333_251_953_125);
        assert!(f16_to_f64(0x7e00).is_nan());
    }

    #[test]
    fn float_to_int_truncates_and_clamps() {
        assert_eq!(
            encode(Num::Float(-1.7), ElemType::D, false),
            (-1i32) as u32 as u64
        );
        assert_eq!(
            encode(Num::Float(3e10), ElemType::D, false),
            i32::MAX as u64
        );
        assert_eq!(encode(Num::Float(-5.0), ElemType::Ud, false), 0);
        assert_eq!(encode(Num::Float(f64::NAN), ElemType::W, false), 0);
        assert_eq!(encode(Num::Int(300), ElemType::Ub, false), 44);
        assert_eq!(encode(Num::Int(300), ElemType::Ub, true), 255);
        assert_eq!(encode(Num::Int(-3), ElemType::Uw, true), 0);
        assert_eq!(
            encode(Num::Float(1.5), ElemType::F, true),
            1.0f32.to_bits() as u64
        );
        assert_eq!(encode(Num::Float(f64::NAN), ElemType::F, true), 0);
    }

    #[test]
    fn restricted_floats_decode() {
        assert_eq!(vf_to_f32(0x30), 1.0);
        assert_eq!(vf_to_f32(0x00), 0.0);
        assert_eq!(vf_to_f32(0xc8), -3.0);
        assert_eq!(vf_to_f32(0x7f), 31.0);
        assert_eq!(vf_to_f32(0x01), 0.1328125);
    }
}
