//! `dpas` (DPAS.md): `Dst = Src0 + Src2 x Src1`, row by row and channel by channel, in `sd`
//! systolic stages. Integer stages add exact products to a 32-bit accumulator that wraps; float
//! stages add their exact products to the F accumulator and round the exact sum once to F
//! (nearest even), see [`round_sum_to_f32`]. All sources are read before `Dst` is written.

use visa_isa::ast::ElemType;

use crate::convert::{self, Num};
use crate::error::Fault;
use crate::machine::{MAX_LANES, Thread};
use crate::ops::{Dpas, Precision};

/// The F NaN every invalid float stage gives.
const QUIET_NAN: u32 = 0x7fc0_0000;

/// Bits `[offset, offset + bits)` of a little-endian byte string (`bits` <= 32).
fn bits_at(bytes: &[u8], offset: u32, bits: u32) -> u32 {
    let first = (offset / 8) as usize;
    let mut window = 0u64;
    for (i, byte) in bytes.iter().skip(first).take(5).enumerate() {
        window |= u64::from(*byte) << (8 * i);
    }
    let mask = if bits >= 32 {
        u64::from(u32::MAX)
    } else {
        (1u64 << bits) - 1
    };
    ((window >> (offset % 8)) & mask) as u32
}

/// An integer element of `bits` bits, sign-extended when `signed`.
fn int_value(raw: u32, bits: u32, signed: bool) -> i64 {
    let value = i64::from(raw);
    if signed && bits < 64 && value & (1 << (bits - 1)) != 0 {
        value - (1 << bits)
    } else {
        value
    }
}

/// The exact value of a float element.
fn float_value(raw: u32, precision: Precision) -> f64 {
    match precision {
        Precision::Bf => convert::decode(u64::from(raw & 0xffff), ElemType::Bf).as_f64(),
        Precision::Hf => convert::decode(u64::from(raw & 0xffff), ElemType::Hf).as_f64(),
        // TF32 keeps sign, exponent and the 10 leading mantissa bits of an F pattern.
        _ => f64::from(f32::from_bits(raw & 0xffff_e000)),
    }
}

/// Limbs of the fixed-point accumulator of [`round_sum_to_f32`]: bit 0 weighs 2^-BIAS, so every
/// finite f64 (down to 2^-1074, below 2^1024) and the carries of a few of them fit.
const LIMBS: usize = 36;
const BIAS: i32 = 1100;

/// Adds (or subtracts) `m * 2^(pos - BIAS)` to a two's-complement fixed-point number.
fn add_shifted(acc: &mut [u64; LIMBS], m: u64, pos: u32, negative: bool) {
    let limb = (pos / 64) as usize;
    let shift = pos % 64;
    let low = m << shift;
    let high = if shift == 0 { 0 } else { m >> (64 - shift) };
    let mut carry = false;
    for (i, slot) in acc.iter_mut().enumerate().skip(limb) {
        let part = match i - limb {
            0 => low,
            1 => high,
            _ => 0,
        };
        if negative {
            let (d, b1) = slot.overflowing_sub(part);
            let (d, b2) = d.overflowing_sub(u64::from(carry));
            *slot = d;
            carry = b1 || b2;
        } else {
            let (s, c1) = slot.overflowing_add(part);
            let (s, c2) = s.overflowing_add(u64::from(carry));
            *slot = s;
            carry = c1 || c2;
        }
        if i > limb && !carry {
            break;
        }
    }
}

/// The exact sum of `terms` rounded once to F, to nearest with ties to even. A NaN term, or
/// infinities of both signs, give [`QUIET_NAN`]; an exact zero sum gives +0.
pub(crate) fn round_sum_to_f32(terms: &[f64]) -> f32 {
    if terms.iter().any(|t| t.is_nan()) {
        return f32::from_bits(QUIET_NAN);
    }
    let positive_inf = terms.contains(&f64::INFINITY);
    let negative_inf = terms.contains(&f64::NEG_INFINITY);
    match (positive_inf, negative_inf) {
        (true, true) => return f32::from_bits(QUIET_NAN),
        (true, false) => return f32::INFINITY,
        (false, true) => return f32::NEG_INFINITY,
        (false, false) => {}
    }
    let mut acc = [0u64; LIMBS];
    for &t in terms {
        if t == 0.0 {
            continue;
        }
        let bits = t.to_bits();
        let exponent = ((bits >> 52) & 0x7ff) as i32;
        let fraction = bits & ((1 << 52) - 1);
        let (m, e) = if exponent == 0 {
            (fraction, -1074)
        } else {
            (fraction | (1 << 52), exponent - 1075)
        };
        // e >= -1074 and e + 53 <= 1024, so the position lies inside the accumulator.
        add_shifted(&mut acc, m, (e + BIAS) as u32, t < 0.0);
    }
    let negative = acc[LIMBS - 1] >> 63 == 1;
    if negative {
        // Two's-complement negation.
        let mut carry = true;
        for slot in acc.iter_mut() {
            let (v, c) = (!*slot).overflowing_add(u64::from(carry));
            *slot = v;
            carry = c;
        }
    }
    let Some(top_limb) = acc.iter().rposition(|&l| l != 0) else {
        return 0.0;
    };
    let top = top_limb as i32 * 64 + 63 - acc[top_limb].leading_zeros() as i32;
    let bit = |i: i32| -> u64 {
        if i < 0 {
            return 0;
        }
        acc.get((i / 64) as usize)
            .map_or(0, |l| (l >> (i % 64)) & 1)
    };
    // The weight of the last kept bit: 24 significant bits, but not below F's denormal step.
    let quantum = (top - BIAS - 23).max(-149);
    let shift = quantum + BIAS;
    let mut mantissa = 0u64;
    for i in (shift..=top).rev() {
        mantissa = (mantissa << 1) | bit(i);
    }
    let round = bit(shift - 1) == 1;
    let sticky = (0..shift - 1).any(|i| bit(i) == 1);
    if round && (sticky || mantissa & 1 == 1) {
        mantissa += 1;
    }
    // mantissa <= 2^24 and -149 <= quantum <= 1001: the product is exact in f64, and the
    // conversion to f32 is exact or overflows to infinity as rounding to nearest requires.
    let scale = f64::from_bits(((quantum + 1023) as u64) << 52);
    let magnitude = (mantissa as f64 * scale) as f32;
    if negative { -magnitude } else { magnitude }
}

impl Thread<'_> {
    /// The dword of Src1 for `stage` and channel `ch`.
    fn dpas_weights(&self, d: &Dpas, stage: u32, ch: u32) -> Result<u32, Fault> {
        let grf = stage / d.w_per_dword;
        let mut bytes = [0u8; 4];
        self.read_raw(&d.src1, grf * d.grf_bytes + ch * 4, &mut bytes, Some(ch))?;
        Ok(u32::from_le_bytes(bytes))
    }

    pub(crate) fn exec_dpas(&mut self, d: &Dpas) -> Result<(), Fault> {
        let enables = self.channel_enables(d.exec, None)?;
        if enables == 0 {
            return Ok(());
        }
        let mut activations = vec![0u8; (d.rc * d.row_bits).div_ceil(8) as usize];
        self.read_raw(&d.src2, 0, &mut activations, None)?;
        let n = d.exec.size;
        let mut results = [[0u32; MAX_LANES]; 8];
        let (w_bits, a_bits) = (d.w.bits(), d.a.bits());
        let mut lanes = enables;
        while lanes != 0 {
            let ch = lanes.trailing_zeros();
            lanes &= lanes - 1;
            let mut weights = Vec::with_capacity(d.sd as usize);
            for stage in 0..d.sd {
                weights.push(self.dpas_weights(d, stage, ch)?);
            }
            for row in 0..d.rc {
                let size = d.src0_ty.size();
                let mut bytes = [0u8; 4];
                let slot = bytes.get_mut(..size as usize).unwrap_or_default();
                self.read_raw(&d.src0, (row * n + ch) * size, slot, Some(ch))?;
                let c = u64::from(u32::from_le_bytes(bytes));
                // One element of column `ch` of B and one of row `row` of A.
                let b_elt = |stage: u32, j: u32| {
                    let w = weights.get(stage as usize).copied().unwrap_or(0);
                    let index = (stage % d.w_per_dword) * d.ops + j;
                    bits_at(&w.to_le_bytes(), index * w_bits, w_bits)
                };
                let a_elt = |stage: u32, j: u32| {
                    let offset = row * d.row_bits + (stage * d.ops + j) * a_bits;
                    bits_at(&activations, offset, a_bits)
                };
                let result = match (d.w, d.a) {
                    (
                        Precision::Int {
                            signed: w_signed, ..
                        },
                        Precision::Int {
                            signed: a_signed, ..
                        },
                    ) => {
                        let mut acc = c as u32;
                        for stage in 0..d.sd {
                            let mut sum = 0i64;
                            for j in 0..d.ops {
                                let b = int_value(b_elt(stage, j), w_bits, w_signed);
                                let a = int_value(a_elt(stage, j), a_bits, a_signed);
                                sum += a * b;
                            }
                            acc = acc.wrapping_add(sum as u32);
                        }
                        acc
                    }
                    _ => {
                        let mut acc = convert::decode(c, d.src0_ty).as_f64() as f32;
                        let mut terms = Vec::with_capacity(d.ops as usize + 1);
                        for stage in 0..d.sd {
                            terms.clear();
                            terms.push(f64::from(acc));
                            for j in 0..d.ops {
                                let b = float_value(b_elt(stage, j), d.w);
                                let a = float_value(a_elt(stage, j), d.a);
                                // At most 11 significant bits each: the product is exact.
                                terms.push(a * b);
                            }
                            acc = round_sum_to_f32(&terms);
                        }
                        if d.dst_ty == ElemType::F {
                            acc.to_bits()
                        } else {
                            convert::encode(Num::Float(f64::from(acc)), d.dst_ty, false) as u32
                        }
                    }
                };
                if let Some(slot) = results
                    .get_mut(row as usize)
                    .and_then(|r| r.get_mut(ch as usize))
                {
                    *slot = result;
                }
            }
        }
        let size = d.dst_ty.size();
        let mut lanes = enables;
        while lanes != 0 {
            let ch = lanes.trailing_zeros();
            lanes &= lanes - 1;
            for row in 0..d.rc {
                let value = results
                    .get(row as usize)
                    .and_then(|r| r.get(ch as usize))
                    .copied()
                    .unwrap_or(0);
                let bytes = value.to_le_bytes();
                let data = bytes.get(..size as usize).unwrap_or_default();
                self.write_raw(&d.dst, (row * n + ch) * size, data, true)?;
            }
        }
        Ok(())
    }
}
