//! The interpreter's representations of the integer operations of `ops::int_ops`: exact values
//! (`i128`, every source type; the general path and the fast path's modified sources) and raw
//! dwords (`u32`, the fast path's unmodified dword sources).

use visa_isa::ast::ElemType;

use crate::convert::type_mask;
use crate::ops::int_ops::IntLanes;

/// Exact integer values of sources of any integer type.
pub(super) struct Exact {
    /// src0's type: the width and the bits that shifts right see.
    pub src0: ElemType,
    /// The width shift counts address: 64 when the destination or src0 is a qword, else 32.
    pub shift_bits: u32,
    /// Products saturate rather than wrap (`.sat`; only a product of two 64-bit values leaves
    /// the `i128` range).
    pub saturate: bool,
    /// SEL's selector, a bit per lane.
    pub sel_mask: u32,
}

impl Exact {
    /// Whether SEL takes src0 in `lane`.
    pub fn picks_src0(&self, lane: usize) -> bool {
        self.sel_mask >> lane & 1 != 0
    }

    /// `a`'s bits in src0's width.
    fn raw(&self, a: i128) -> i128 {
        (a as u128 as u64 & type_mask(self.src0)) as i128
    }
}

impl IntLanes for Exact {
    type V = i128;
    type Count = u32;
    type At = usize;

    fn bits(&self) -> u32 {
        self.shift_bits
    }

    fn add(&mut self, a: i128, b: i128) -> i128 {
        a.wrapping_add(b)
    }

    fn mul(&mut self, a: i128, b: i128) -> i128 {
        if self.saturate {
            a.saturating_mul(b)
        } else {
            a.wrapping_mul(b)
        }
    }

    fn and(&mut self, a: i128, b: i128) -> i128 {
        a & b
    }

    fn or(&mut self, a: i128, b: i128) -> i128 {
        a | b
    }

    fn xor(&mut self, a: i128, b: i128) -> i128 {
        a ^ b
    }

    fn not(&mut self, a: i128) -> i128 {
        !a
    }

    fn count(&mut self, b: i128, mask: u32) -> u32 {
        (b & i128::from(mask)) as u32
    }

    fn shl(&mut self, a: i128, n: u32) -> i128 {
        a << n
    }

    fn ushr(&mut self, a: i128, n: u32) -> i128 {
        self.raw(a) >> n
    }

    fn sshr(&mut self, a: i128, n: u32) -> i128 {
        let bits = self.src0.size() * 8;
        let raw = self.raw(a);
        // The source's bits reinterpreted as signed of the same width.
        let signed = if raw >> (bits - 1) & 1 != 0 {
            raw - (1i128 << bits)
        } else {
            raw
        };
        signed >> n
    }

    fn min(&mut self, a: i128, b: i128) -> i128 {
        a.min(b)
    }

    fn max(&mut self, a: i128, b: i128) -> i128 {
        a.max(b)
    }

    fn select(&mut self, lane: usize, a: i128, b: i128) -> i128 {
        if self.picks_src0(lane) { a } else { b }
    }
}

/// Raw dwords of unmodified D or UD sources: the low 32 bits of every result, and MIN/MAX of
/// sources that all have the signedness `signed`.
pub(super) struct Dwords {
    pub signed: bool,
    /// SEL's selector, a bit per lane.
    pub sel_mask: u32,
}

impl IntLanes for Dwords {
    type V = u32;
    type Count = u32;
    type At = usize;

    #[inline(always)]
    fn bits(&self) -> u32 {
        32
    }

    #[inline(always)]
    fn add(&mut self, a: u32, b: u32) -> u32 {
        a.wrapping_add(b)
    }

    #[inline(always)]
    fn mul(&mut self, a: u32, b: u32) -> u32 {
        a.wrapping_mul(b)
    }

    #[inline(always)]
    fn and(&mut self, a: u32, b: u32) -> u32 {
        a & b
    }

    #[inline(always)]
    fn or(&mut self, a: u32, b: u32) -> u32 {
        a | b
    }

    #[inline(always)]
    fn xor(&mut self, a: u32, b: u32) -> u32 {
        a ^ b
    }

    fn not(&mut self, a: u32) -> u32 {
        !a
    }

    #[inline(always)]
    fn count(&mut self, b: u32, mask: u32) -> u32 {
        b & mask
    }

    #[inline(always)]
    fn shl(&mut self, a: u32, n: u32) -> u32 {
        a << n
    }

    #[inline(always)]
    fn ushr(&mut self, a: u32, n: u32) -> u32 {
        a >> n
    }

    #[inline(always)]
    fn sshr(&mut self, a: u32, n: u32) -> u32 {
        ((a as i32) >> n) as u32
    }

    #[inline(always)]
    fn min(&mut self, a: u32, b: u32) -> u32 {
        if self.signed {
            (a as i32).min(b as i32) as u32
        } else {
            a.min(b)
        }
    }

    #[inline(always)]
    fn max(&mut self, a: u32, b: u32) -> u32 {
        if self.signed {
            (a as i32).max(b as i32) as u32
        } else {
            a.max(b)
        }
    }

    #[inline(always)]
    fn select(&mut self, lane: usize, a: u32, b: u32) -> u32 {
        if self.sel_mask >> lane & 1 != 0 { a } else { b }
    }
}
