//! `dpas` (DPAS.md): `Dst = Src0 + Src2 x Src1`, row by row and channel by channel, in `sd`
//! systolic stages. Integer stages add exact products to a 32-bit accumulator that wraps; float
//! stages add their exact products to the F accumulator and round the exact sum once to F
//! (nearest even), see [`round_sum_to_f32`]. All sources are read before `Dst` is written.

use visa_isa::ast::ElemType;

use crate::convert::{self, Num};
use crate::error::Fault;
use crate::machine::{MAX_LANES, Thread, lane_numbers};
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

/// A mask of the `bits` low bits (`bits` <= 32).
fn low_bits(bits: u32) -> u32 {
    u32::MAX.checked_shr(32 - bits).unwrap_or(0)
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

/// Most elements of one row of A or one column of B over all stages (depth 8, at most 8
/// elements per stage).
const MAX_DEPTH: usize = 64;

/// Most bytes of A: 8 rows of [`MAX_DEPTH`] elements of at most 8 bits.
const MAX_A_BYTES: usize = 8 * MAX_DEPTH;

/// Most bytes of Src1 (8 registers of at most 64 bytes) and of Src0 (8 rows of 32 dwords).
const MAX_OPERAND_BYTES: usize = 1024;

/// Src1 and Src0 as read for the enabled channels: whole, when every byte read at once is
/// defined and in bounds, or element by element as the channels ask (so that a fault is
/// reported for the channel and element that reads it first, and a disabled channel's bytes
/// are never read).
struct DpasSources {
    src1: Option<[u8; MAX_OPERAND_BYTES]>,
    src0: Option<[u8; MAX_OPERAND_BYTES]>,
}

impl Thread<'_> {
    fn dpas_sources(&self, d: &Dpas) -> DpasSources {
        let whole = |raw: &crate::ops::Raw, len: u32| {
            let mut bytes = [0u8; MAX_OPERAND_BYTES];
            let part = bytes.get_mut(..len as usize)?;
            self.read_raw(raw, 0, part, None).ok()?;
            Some(bytes)
        };
        DpasSources {
            src1: whole(&d.src1, d.sd.div_ceil(d.w_per_dword) * d.grf_bytes),
            src0: whole(&d.src0, d.rc * d.exec.size * d.src0_ty.size()),
        }
    }

    /// The dword of `raw` at byte `from` for channel `ch`: from the whole copy, or read now.
    fn dpas_read(
        &self,
        raw: &crate::ops::Raw,
        whole: Option<&[u8; MAX_OPERAND_BYTES]>,
        from: u32,
        ch: u32,
    ) -> Result<u32, Fault> {
        let mut bytes = [0u8; 4];
        match whole.and_then(|w| w.get(from as usize..from as usize + 4)) {
            Some(held) => bytes.copy_from_slice(held),
            None => self.read_raw(raw, from, &mut bytes, Some(ch))?,
        }
        Ok(u32::from_le_bytes(bytes))
    }

    /// The raw bits of element `k` (stage `k / ops`, element `k % ops`) of column `ch` of B,
    /// for every `k` below the depth, into `out`.
    fn dpas_column(
        &self,
        d: &Dpas,
        sources: &DpasSources,
        ch: u32,
        out: &mut [u32],
    ) -> Result<(), Fault> {
        let w_bits = d.w.bits();
        let mask = low_bits(w_bits);
        let ops = (d.ops as usize).max(1);
        for (stage, elements) in (0u32..).zip(out.chunks_mut(ops)) {
            let from = stage / d.w_per_dword * d.grf_bytes + ch * 4;
            let dword = self.dpas_read(&d.src1, sources.src1.as_ref(), from, ch)?;
            // (`w_per_dword * ops` elements of `w_bits` fill the dword exactly.)
            let first = (stage % d.w_per_dword) * d.ops * w_bits;
            for (j, slot) in (0u32..).zip(elements.iter_mut()) {
                *slot = dword.checked_shr(first + j * w_bits).unwrap_or(0) & mask;
            }
        }
        Ok(())
    }

    /// Src0's element of row `row` and channel `ch` (its raw bits).
    fn dpas_accumulator(
        &self,
        d: &Dpas,
        sources: &DpasSources,
        row: u32,
        ch: u32,
    ) -> Result<u64, Fault> {
        let size = d.src0_ty.size();
        let from = (row * d.exec.size + ch) * size;
        let value = match sources.src0.as_ref().and_then(|w| w.get(from as usize..)) {
            Some(held) if size == 4 && held.len() >= 4 => {
                u32::from_le_bytes([held[0], held[1], held[2], held[3]])
            }
            _ => {
                let mut bytes = [0u8; 4];
                let slot = bytes.get_mut(..size as usize).unwrap_or_default();
                self.read_raw(&d.src0, from, slot, Some(ch))?;
                u32::from_le_bytes(bytes)
            }
        };
        Ok(u64::from(value))
    }

    pub(crate) fn exec_dpas(&mut self, d: &Dpas) -> Result<(), Fault> {
        let enables = self.channel_enables(d.exec, None)?;
        if enables == 0 {
            return Ok(());
        }
        // The decoder allows depth 8 and at most 8 elements per stage, so both bounds hold.
        let depth = ((d.sd * d.ops) as usize).min(MAX_DEPTH);
        let rows = (d.rc as usize).min(8);
        let mut a_bytes = [0u8; MAX_A_BYTES];
        let a_len = ((d.rc * d.row_bits).div_ceil(8) as usize).min(MAX_A_BYTES);
        self.read_raw(&d.src2, 0, &mut a_bytes[..a_len], None)?;
        let a_raw = |row: usize, k: usize| {
            let offset = row as u32 * d.row_bits + k as u32 * d.a.bits();
            match d.a.bits() {
                8 => u32::from(a_bytes.get(offset as usize / 8).copied().unwrap_or(0)),
                bits => bits_at(&a_bytes[..a_len], offset, bits),
            }
        };
        let sources = self.dpas_sources(d);
        // A's elements as values, decoded once for every channel; each channel decodes its
        // column of B once for every row.
        let mut results = [[0u32; MAX_LANES]; 8];
        let mut b_raw = [0u32; MAX_DEPTH];
        match (d.w, d.a) {
            (
                Precision::Int {
                    bits: w_bits,
                    signed: w_signed,
                },
                Precision::Int {
                    bits: a_bits,
                    signed: a_signed,
                },
            ) => {
                // Elements of at most 8 bits: as i16, each product fits an i32, and so does
                // the sum of at most 64 of them.
                let mut a = [[0i16; MAX_DEPTH]; 8];
                for (row, values) in a.iter_mut().enumerate().take(rows) {
                    for (k, value) in values.iter_mut().enumerate().take(depth) {
                        *value = int_value(a_raw(row, k), a_bits, a_signed) as i16;
                    }
                }
                let mut b = [0i16; MAX_DEPTH];
                for ch in lane_numbers(enables) {
                    self.dpas_column(d, &sources, ch, &mut b_raw[..depth])?;
                    for (value, &raw) in b.iter_mut().zip(&b_raw[..depth]) {
                        *value = int_value(raw, w_bits, w_signed) as i16;
                    }
                    for (row, values) in a.iter().enumerate().take(rows) {
                        let c = self.dpas_accumulator(d, &sources, row as u32, ch)?;
                        // Adding the whole sum once wraps as adding each stage's sum would.
                        let sum: i32 = values[..depth]
                            .iter()
                            .zip(&b[..depth])
                            .map(|(&x, &y)| i32::from(x) * i32::from(y))
                            .sum();
                        results[row][ch as usize] = (c as u32).wrapping_add(sum as u32);
                    }
                }
            }
            _ => {
                let mut a = [[0f64; MAX_DEPTH]; 8];
                for (row, values) in a.iter_mut().enumerate().take(rows) {
                    for (k, value) in values.iter_mut().enumerate().take(depth) {
                        *value = float_value(a_raw(row, k), d.a);
                    }
                }
                let mut b = [0f64; MAX_DEPTH];
                let ops = (d.ops as usize).clamp(1, MAX_DEPTH);
                let mut terms = [0f64; MAX_DEPTH + 1];
                for ch in lane_numbers(enables) {
                    self.dpas_column(d, &sources, ch, &mut b_raw[..depth])?;
                    for (value, &raw) in b.iter_mut().zip(&b_raw[..depth]) {
                        *value = float_value(raw, d.w);
                    }
                    for (row, values) in a.iter().enumerate().take(rows) {
                        let c = self.dpas_accumulator(d, &sources, row as u32, ch)?;
                        let mut acc = convert::decode(c, d.src0_ty).as_f64() as f32;
                        for (stage_a, stage_b) in values[..depth]
                            .chunks_exact(ops)
                            .zip(b[..depth].chunks_exact(ops))
                        {
                            terms[0] = f64::from(acc);
                            for (term, (x, y)) in
                                terms[1..].iter_mut().zip(stage_a.iter().zip(stage_b))
                            {
                                // At most 11 significant bits each: the product is exact.
                                *term = x * y;
                            }
                            acc = round_sum_to_f32(&terms[..=ops]);
                        }
                        results[row][ch as usize] = if d.dst_ty == ElemType::F {
                            acc.to_bits()
                        } else {
                            convert::encode(Num::Float(f64::from(acc)), d.dst_ty, false) as u32
                        };
                    }
                }
            }
        }
        let size = d.dst_ty.size();
        let n = d.exec.size;
        // Every channel enabled: Dst is written whole, at once.
        if enables.count_ones() == n && size == 4 {
            let mut image = [0u8; MAX_OPERAND_BYTES];
            let len = (d.rc * n * size) as usize;
            let rows_out = image.chunks_exact_mut((n * size) as usize);
            for (bytes, values) in rows_out.zip(results.iter().take(rows)) {
                for (dword, value) in bytes.chunks_exact_mut(4).zip(values) {
                    dword.copy_from_slice(&value.to_le_bytes());
                }
            }
            if let Some(data) = image.get(..len) {
                return self.write_raw(&d.dst, 0, data, true);
            }
        }
        for ch in lane_numbers(enables) {
            for (row, values) in (0u32..).zip(results.iter().take(rows)) {
                let bytes = values[ch as usize].to_le_bytes();
                let data = bytes.get(..size as usize).unwrap_or_default();
                self.write_raw(&d.dst, (row * n + ch) * size, data, true)?;
            }
        }
        Ok(())
    }
}
