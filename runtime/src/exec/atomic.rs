//! Atomic messages: `dword_atomic` on surfaces and SLM, `svm_atomic` on SVM addresses.
//!
//! Each enabled lane performs one indivisible read-modify-write, lanes in increasing order, so
//! lanes of one instruction naming the same location see each other's results (the documents'
//! decision). The memory side is [`crate::memory::Buffer::atomic_update`].

use crate::convert::{f16_to_f64, f64_to_bf16, f64_to_f16};
use crate::error::Fault;
use crate::exec::lane_numbers;
use crate::machine::Thread;
use crate::ops::{AtomicAccess, AtomicOp, AtomicTarget, Raw};

use super::access::{MemCtx, Target, check_align, svm_fault};
use super::math::min_max_num;

/// Where an atomic instruction's lanes go: SVM addresses, or offsets into one resolved surface.
enum Resolved<'m> {
    Svm(Raw),
    Surface(Raw, Target<'m>),
}

impl Thread<'_> {
    fn atomic_operand(&self, raw: &Raw, slot: u32, lane: u32) -> Result<u64, Fault> {
        let mut bytes = [0u8; 8];
        let len = slot as usize;
        self.read_raw(raw, lane * slot, &mut bytes[..len], Some(lane))?;
        Ok(u64::from_le_bytes(bytes))
    }

    pub(crate) fn exec_atomic(&mut self, a: &AtomicAccess, mem: &MemCtx) -> Result<(), Fault> {
        let enables = self.channel_enables(a.exec, a.pred)?;
        let slot = if a.width == 8 { 8 } else { 4 };
        // The surface an access goes to is resolved once per instruction.
        let target = match a.target {
            AtomicTarget::Surface { surface, offsets } => {
                Resolved::Surface(offsets, self.target(surface, mem))
            }
            AtomicTarget::Svm { addresses } => Resolved::Svm(addresses),
        };
        for lane in lane_numbers(enables) {
            let at_lane = |kind| Fault::at_lane(kind, lane);
            let s0 = self.atomic_operand(&a.src0, slot, lane)?;
            let s1 = self.atomic_operand(&a.src1, slot, lane)?;
            let update = |old: u64| apply(a.op, a.width, old, s0, s1);
            let old = match &target {
                Resolved::Svm(addresses) => {
                    let address = self.atomic_operand(addresses, 8, lane)?;
                    check_align(address, a.width, Some(lane))?;
                    Some(
                        mem.svm
                            .atomic_update(address, a.width, update)
                            .map_err(|f| at_lane(svm_fault(f, address, a.width as usize)))?,
                    )
                }
                Resolved::Surface(offsets, target) => {
                    let offset = self.atomic_operand(offsets, 4, lane)?;
                    check_align(offset, a.width, Some(lane))?;
                    mem.atomic(target, offset, a.width, update)
                        .map_err(at_lane)?
                }
            };
            let returned = match old {
                Some(old) if a.op == AtomicOp::Predec => apply(a.op, a.width, old, s0, s1),
                Some(old) => old,
                // A user-surface lane out of bounds returns zero.
                None => 0,
            };
            let bytes = returned.to_le_bytes();
            if a.width == 2 {
                // 16-bit data: the upper half of the returned dword is undefined.
                self.write_raw(&a.dst, lane * 4, &bytes[..2], true)?;
                self.write_raw(&a.dst, lane * 4 + 2, &[0, 0], false)?;
            } else {
                self.write_raw(&a.dst, lane * slot, &bytes[..slot as usize], true)?;
            }
        }
        Ok(())
    }
}

/// The value written back by `op` for memory value `old` and lane operands `s0`, `s1`, all
/// `width` bytes wide (the low bits of each); float operations read IEEE values of that width.
pub(super) fn apply(op: AtomicOp, width: u32, old: u64, s0: u64, s1: u64) -> u64 {
    combine(op, Float::of_width(width), width, old, s0, s1)
}

/// [`apply`] with the float format given (bfloat16 for LSC's `lsc_atomic_bf*`).
pub(super) fn combine(op: AtomicOp, float: Float, width: u32, old: u64, s0: u64, s1: u64) -> u64 {
    let bits = width * 8;
    let mask = if bits == 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    };
    let (old, s0, s1) = (old & mask, s0 & mask, s1 & mask);
    let signed = |v: u64| ((v << (64 - bits)) as i64) >> (64 - bits);
    let new = match op {
        AtomicOp::Add => old.wrapping_add(s0),
        AtomicOp::Sub => old.wrapping_sub(s0),
        AtomicOp::Inc => old.wrapping_add(1),
        AtomicOp::Dec | AtomicOp::Predec => old.wrapping_sub(1),
        AtomicOp::Min => old.min(s0),
        AtomicOp::Max => old.max(s0),
        AtomicOp::Xchg => s0,
        AtomicOp::Load => old,
        AtomicOp::Cmpxchg => {
            if old == s1 {
                s0
            } else {
                old
            }
        }
        AtomicOp::And => old & s0,
        AtomicOp::Or => old | s0,
        AtomicOp::Xor => old ^ s0,
        AtomicOp::Imin => signed(old).min(signed(s0)) as u64,
        AtomicOp::Imax => signed(old).max(signed(s0)) as u64,
        AtomicOp::Fadd => float.add(old, s0),
        AtomicOp::Fsub => float.add(old, float.negate(s0)),
        AtomicOp::Fmax | AtomicOp::Fmin | AtomicOp::Fcmpwr => {
            let (x, y, z) = (float.value(old), float.value(s0), float.value(s1));
            match op {
                AtomicOp::Fmin => float.bits(min_max_num(x, y, false)),
                AtomicOp::Fmax => float.bits(min_max_num(x, y, true)),
                // IEEE equality: NaN never matches, -0 equals +0.
                _ if x == y => float.bits(z),
                _ => old,
            }
        }
    };
    new & mask
}

/// The float format of an atomic's memory location.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Float {
    Half,
    Bf16,
    Single,
    Double,
}

impl Float {
    pub(crate) fn of_width(width: u32) -> Float {
        match width {
            2 => Float::Half,
            8 => Float::Double,
            _ => Float::Single,
        }
    }

    fn value(self, bits: u64) -> f64 {
        match self {
            Float::Half => f16_to_f64(bits as u16),
            Float::Bf16 => f64::from(f32::from_bits((bits as u32 & 0xffff) << 16)),
            Float::Single => f64::from(f32::from_bits(bits as u32)),
            Float::Double => f64::from_bits(bits),
        }
    }

    /// The bits of `value`, rounded to nearest even (exact for the min/max/cas results, which
    /// are one of the operands or a quiet NaN).
    fn bits(self, value: f64) -> u64 {
        match self {
            Float::Half => u64::from(f64_to_f16(value)),
            Float::Bf16 => u64::from(f64_to_bf16(value)),
            Float::Single => u64::from((value as f32).to_bits()),
            Float::Double => value.to_bits(),
        }
    }

    fn negate(self, bits: u64) -> u64 {
        bits ^ match self {
            Float::Half | Float::Bf16 => 0x8000,
            Float::Single => 0x8000_0000,
            Float::Double => 1 << 63,
        }
    }

    /// `a + b` rounded once to the format: natively for `f32`/`f64`; the 16-bit formats add
    /// exactly in `f64` (or close enough that one rounding to 16 bits gives the same result).
    fn add(self, a: u64, b: u64) -> u64 {
        match self {
            Float::Single => {
                u64::from((f32::from_bits(a as u32) + f32::from_bits(b as u32)).to_bits())
            }
            Float::Double => (f64::from_bits(a) + f64::from_bits(b)).to_bits(),
            Float::Half | Float::Bf16 => self.bits(self.value(a) + self.value(b)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operations_follow_the_table() {
        assert_eq!(apply(AtomicOp::Add, 4, u32::MAX.into(), 2, 0), 1);
        assert_eq!(apply(AtomicOp::Dec, 2, 0, 0, 0), 0xffff);
        assert_eq!(apply(AtomicOp::Cmpxchg, 4, 5, 9, 5), 9);
        assert_eq!(apply(AtomicOp::Cmpxchg, 4, 5, 9, 6), 5);
        assert_eq!(apply(AtomicOp::Imin, 4, 0xffff_ffff, 3, 0), 0xffff_ffff);
        assert_eq!(apply(AtomicOp::Min, 4, 0xffff_ffff, 3, 0), 3);
        assert_eq!(apply(AtomicOp::Imax, 8, u64::MAX, 1, 0), 1);
        let f = |v: f32| u64::from(v.to_bits());
        assert_eq!(apply(AtomicOp::Fmax, 4, f(-0.0), f(0.0), 0), f(0.0));
        assert_eq!(apply(AtomicOp::Fmin, 4, f(f32::NAN), f(2.0), 0), f(2.0));
        assert_eq!(apply(AtomicOp::Fmax, 4, f(2.0), f(f32::NAN), 0), f(2.0));
        assert_eq!(apply(AtomicOp::Fmin, 4, f(0.0), f(-0.0), 0), f(-0.0));
        let both = apply(AtomicOp::Fmin, 4, f(f32::NAN), f(-f32::NAN), 0);
        assert!(f32::from_bits(both as u32).is_nan());
        assert_eq!(apply(AtomicOp::Fcmpwr, 4, f(-0.0), f(0.0), f(7.0)), f(7.0));
        assert_eq!(
            apply(AtomicOp::Fcmpwr, 4, f(f32::NAN), f(f32::NAN), f(7.0)),
            f(f32::NAN)
        );
    }
}
