//! Whole-instruction fast paths for the most common instruction shapes: 32-bit integer ALU
//! operations and comparisons whose operands are direct, with a contiguous (`<1;1,0>`, `<1>`)
//! or scalar (`<0;1,0>`, one immediate) region.
//!
//! At load time `specialise` replaces such an `Op::Alu` / `Op::Cmp` by `Op::FastAlu` /
//! `Op::FastCmp` (the forms of `ops::fast`), which keep the general form. At run time each
//! source is read as one slice of dwords (definedness checked once for the region), the
//! operation (defined once in `ops::int_ops`) runs element-wise on `u32` (or on exact values
//! where modifiers or signedness matter) and the destination is written as one slice. Whenever
//! anything is unusual (a source byte undefined, a region outside the file) nothing has been
//! written yet, and the general path runs instead, so traps and their lane numbers are exactly
//! those of the general path.

use visa_isa::ast::{ElemType, SrcMod};

use super::int_lanes::{Dwords, Exact};
use crate::error::Fault;
use crate::machine::{MAX_LANES, Thread};
use crate::ops::RelOp;
use crate::ops::fast::{CmpTarget, FastAlu, FastCmp, FastSrc, Region};
use crate::ops::int_ops::{self, IntOp, Operands};

/// Elements of a source as raw dwords; `lanes` lanes, `enables` those that must be defined.
pub(super) type Lanes = [u32; MAX_LANES];

fn full_mask(lanes: usize) -> u32 {
    if lanes >= 32 {
        u32::MAX
    } else {
        (1u32 << lanes) - 1
    }
}

impl Thread<'_> {
    /// Whether the elements of `size` bytes at `byte + size * lane` are defined for every lane
    /// in `enables` (of `lanes`).
    pub(super) fn elements_defined(
        &self,
        byte: usize,
        size: usize,
        lanes: usize,
        enables: u32,
    ) -> bool {
        let Some(flags) = self.defined.get(byte..byte + size * lanes) else {
            return false;
        };
        if enables == full_mask(lanes) {
            // A fold without early exit, so the compiler can vectorise it.
            return flags.iter().fold(true, |all, &d| all & d);
        }
        flags
            .chunks_exact(size)
            .enumerate()
            .all(|(lane, d)| enables >> lane & 1 == 0 || d.iter().all(|d| *d))
    }

    fn dwords_defined(&self, byte: usize, lanes: usize, enables: u32) -> bool {
        self.elements_defined(byte, 4, lanes, enables)
    }

    /// Reads the raw dwords of a fast source; `None` when the general path must run.
    pub(super) fn read_fast(
        &self,
        src: &FastSrc,
        lanes: usize,
        enables: u32,
        out: &mut Lanes,
    ) -> Option<()> {
        match src.region {
            Region::Imm(bits) => out.fill(bits),
            Region::Scalar(byte) => {
                let byte = byte as usize;
                if !self.dwords_defined(byte, 1, 1) {
                    return None;
                }
                let b = self.grf.get(byte..byte + 4)?;
                out.fill(u32::from_le_bytes([b[0], b[1], b[2], b[3]]));
            }
            Region::Contiguous(byte) => {
                let byte = byte as usize;
                if !self.dwords_defined(byte, lanes, enables) {
                    return None;
                }
                let bytes = self.grf.get(byte..byte + 4 * lanes)?;
                for (value, b) in out.iter_mut().zip(bytes.chunks_exact(4)) {
                    *value = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
                }
            }
            Region::Bytes(byte)
            | Region::BytePerDword(byte)
            | Region::Words(byte)
            | Region::WordPerDword(byte) => {
                let byte = byte as usize;
                let step = src.region.step() as usize;
                // (One element per dword: each lane's dword from its element on is checked,
                // the element and the bytes after it; the last lane's may end past the file.)
                if !self.elements_defined(byte, step, lanes, enables) {
                    return None;
                }
                let bytes = self.grf.get(byte..byte + step * lanes)?;
                let words = !src.region.of_bytes();
                for (value, b) in out.iter_mut().zip(bytes.chunks_exact(step)) {
                    *value = match (words, src.signed) {
                        (true, true) => i32::from(i16::from_le_bytes([b[0], b[1]])) as u32,
                        (true, false) => u32::from(u16::from_le_bytes([b[0], b[1]])),
                        (false, true) => i32::from(b[0] as i8) as u32,
                        (false, false) => u32::from(b[0]),
                    };
                }
            }
        }
        Some(())
    }

    /// Writes the low `size` bytes (4, 2 or 1) of `values` to the enabled lanes of the
    /// elements at `byte`; `None` (nothing written) when the region is outside the file.
    pub(super) fn write_fast(
        &mut self,
        byte: usize,
        size: usize,
        (lanes, enables): (usize, u32),
        values: &Lanes,
    ) -> Option<()> {
        let end = byte + size * lanes;
        let (bytes, flags) = (
            self.grf.get_mut(byte..end)?,
            self.defined.get_mut(byte..end)?,
        );
        match size {
            1 => write_elements::<1>(bytes, flags, enables, values),
            2 => write_elements::<2>(bytes, flags, enables, values),
            _ => write_elements::<4>(bytes, flags, enables, values),
        }
        Some(())
    }

    pub(crate) fn exec_fast_alu(&mut self, f: &FastAlu) -> Result<(), Fault> {
        let a = &f.general;
        // Channel enables and the SEL selector exactly as the general path computes them.
        let (enables, sel_mask) = self.alu_channels(a)?;
        if enables == 0 {
            return Ok(());
        }
        let lanes = a.exec.size as usize;
        let mut values = [[0u32; MAX_LANES]; 3];
        for (src, out) in f.srcs.iter().zip(values.iter_mut()) {
            if self.read_fast(src, lanes, enables, out).is_none() {
                return self.exec_alu(a);
            }
        }
        let [x, y, z] = &values;
        let mut out = [0u32; MAX_LANES];
        let n = lanes.min(MAX_LANES);
        compute(
            f.op,
            &f.srcs,
            sel_mask,
            (&x[..n], &y[..n], &z[..n]),
            &mut out[..n],
        );
        match self.write_fast(f.dst as usize, f.dst_bytes as usize, (lanes, enables), &out) {
            Some(()) => Ok(()),
            None => self.exec_alu(a),
        }
    }

    pub(crate) fn exec_fast_cmp(&mut self, c: &FastCmp) -> Result<(), Fault> {
        let enables = self.channel_enables(c.exec, None)?;
        let lanes = c.exec.size as usize;
        let mut values = [[0u32; MAX_LANES]; 2];
        for (src, out) in c.srcs.iter().zip(values.iter_mut()) {
            if enables != 0 && self.read_fast(src, lanes, enables, out).is_none() {
                return self.exec_cmp(c.rel, c.exec, &c.general_dst, &c.general_srcs);
            }
        }
        let [x, y] = &values;
        let (sx, sy) = (&c.srcs[0], &c.srcs[1]);
        let n = lanes.min(MAX_LANES);
        let (x, y) = (&x[..n], &y[..n]);
        let result = match c.rel {
            RelOp::Eq => compare_lanes(x, y, sx, sy, |a, b| a == b),
            RelOp::Ne => compare_lanes(x, y, sx, sy, |a, b| a != b),
            RelOp::Gt => compare_lanes(x, y, sx, sy, |a, b| a > b),
            RelOp::Ge => compare_lanes(x, y, sx, sy, |a, b| a >= b),
            RelOp::Lt => compare_lanes(x, y, sx, sy, |a, b| a < b),
            RelOp::Le => compare_lanes(x, y, sx, sy, |a, b| a <= b),
        };
        match c.dst {
            CmpTarget::Pred(pred) => {
                let shift = c.exec.offset;
                self.set_pred_bits(pred, enables << shift, (result & enables) << shift);
            }
            CmpTarget::Dwords(byte) => {
                let mut masks: Lanes = [0; MAX_LANES];
                for (lane, mask) in masks.iter_mut().enumerate().take(n) {
                    *mask = 0u32.wrapping_sub(result >> lane & 1);
                }
                if self
                    .write_fast(byte as usize, 4, (lanes, enables), &masks)
                    .is_none()
                {
                    return self.exec_cmp(c.rel, c.exec, &c.general_dst, &c.general_srcs);
                }
            }
        }
        Ok(())
    }
}

/// The low `N` bytes of each value into the enabled lanes' elements of `bytes`, marked defined
/// (a fixed-size copy per element, and one pass without a lane test when every lane is
/// enabled).
fn write_elements<const N: usize>(
    bytes: &mut [u8],
    flags: &mut [bool],
    enables: u32,
    values: &Lanes,
) {
    let lanes = bytes.len() / N;
    let elements = bytes.chunks_exact_mut(N).zip(values);
    if enables == full_mask(lanes) {
        for (b, v) in elements {
            let low: [u8; N] = std::array::from_fn(|i| v.to_le_bytes()[i]);
            b.copy_from_slice(&low);
        }
        flags.fill(true);
        return;
    }
    for (lane, ((b, v), d)) in elements.zip(flags.chunks_exact_mut(N)).enumerate() {
        if enables >> lane & 1 != 0 {
            let low: [u8; N] = std::array::from_fn(|i| v.to_le_bytes()[i]);
            b.copy_from_slice(&low);
            d.fill(true);
        }
    }
}

/// A source element as an exact integer with its modifier applied (as the general path's
/// `i128`, which never leaves this range for dword sources).
fn widen(bits: u32, src: &FastSrc) -> i64 {
    let v = if src.signed {
        i64::from(bits as i32)
    } else {
        i64::from(bits)
    };
    match src.modifier {
        SrcMod::None => v,
        SrcMod::Neg => -v,
        SrcMod::Abs => v.abs(),
        SrcMod::NegAbs => -v.abs(),
        SrcMod::Not => !v,
    }
}

/// Bit `i` set when `holds` for lane `i`'s exact source values.
fn compare_lanes(
    x: &[u32],
    y: &[u32],
    sx: &FastSrc,
    sy: &FastSrc,
    holds: impl Fn(i64, i64) -> bool,
) -> u32 {
    // The common unmodified cases get a loop without a per-lane choice of widening.
    match (sx.modifier, sy.modifier, sx.signed, sy.signed) {
        (SrcMod::None, SrcMod::None, true, true) => {
            pack(x, y, |a, b| holds(i64::from(a as i32), i64::from(b as i32)))
        }
        (SrcMod::None, SrcMod::None, false, false) => {
            pack(x, y, |a, b| holds(i64::from(a), i64::from(b)))
        }
        _ => pack(x, y, |a, b| holds(widen(a, sx), widen(b, sy))),
    }
}

/// Bit `i` set when `value` holds for lane `i`.
fn pack(x: &[u32], y: &[u32], value: impl Fn(u32, u32) -> bool) -> u32 {
    let mut result = 0u32;
    for (lane, (a, b)) in x.iter().zip(y).enumerate() {
        result |= u32::from(value(*a, *b)) << lane;
    }
    result
}

/// Computes every lane (enabled or not: only enabled lanes are written) by the operation's
/// definition in `ops::int_ops`: on the raw dwords when no source has a modifier and the
/// result needs only their low bits or all sources share a signedness, otherwise on exact
/// values.
fn compute(
    op: IntOp,
    srcs: &[FastSrc],
    sel_mask: u32,
    (x, y, z): (&[u32], &[u32], &[u32]),
    out: &mut [u32],
) {
    let signed = srcs.first().is_some_and(|s| s.signed);
    let plain = srcs.iter().all(|s| s.modifier == SrcMod::None);
    if plain && (op.operands() != Operands::Exact || srcs.iter().all(|s| s.signed == signed)) {
        let mut lanes = Dwords { signed, sel_mask };
        return int_ops::map_lanes(op, &mut lanes, (x, y, z), out);
    }
    let n = out.len();
    let mut exact = [[0i128; MAX_LANES]; 3];
    for ((k, raw), wide) in [x, y, z].into_iter().enumerate().zip(exact.iter_mut()) {
        if let Some(src) = srcs.get(k) {
            for (w, bits) in wide.iter_mut().zip(raw) {
                *w = i128::from(widen(*bits, src));
            }
        }
    }
    let mut lanes = Exact {
        src0: if signed { ElemType::D } else { ElemType::Ud },
        shift_bits: 32,
        saturate: false,
        sel_mask,
    };
    let mut result = [0i128; MAX_LANES];
    let [a, b, c] = &exact;
    int_ops::map_lanes(
        op,
        &mut lanes,
        (&a[..n], &b[..n], &c[..n]),
        &mut result[..n],
    );
    for (o, r) in out.iter_mut().zip(result) {
        *o = r as u32;
    }
}
