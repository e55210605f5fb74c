//! The fast forms of the most common instruction shapes (`Op::FastAlu`, `Op::FastCmp`,
//! `Op::FastFloat`): 32-bit integer ALU operations and comparisons, and F `add`/`mul`/`mad`,
//! whose operands are direct, with a contiguous (`<1;1,0>`, `<1>`) or scalar (`<0;1,0>`, one
//! immediate) region; an integer source may also be of words (contiguous, one per dword, an
//! immediate), widened. The pass `specialise` picks them at load time; `exec::fast` runs them and the JIT compiles them. Each keeps the general
//! form, which runs whenever the fast path does not apply.

use visa_isa::ast::SrcMod;

use super::int_ops::IntOp;
use super::{AluInstr, CmpDst, ExecCtl, RelOp, Src};

/// Where the elements of a fast-path source are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Region {
    /// Element `i` at register-file byte `base + 4 * i`.
    Contiguous(u32),
    /// Element `i` the word (W or UW) at register-file byte `base + 2 * i`, sign- or
    /// zero-extended to a dword by [`FastSrc::signed`] (IGC's widening moves and address
    /// arithmetic on the local ids).
    Words(u32),
    /// Element `i` the word at register-file byte `base + 4 * i`, widened as [`Region::Words`]:
    /// one half of each dword, as IGC reads the high halves with `(0,1)<16;8,2>` (its `x >> 16`).
    WordPerDword(u32),
    /// Element `i` the byte (B or UB) at register-file byte `base + i`, widened as
    /// [`Region::Words`] (IGC's widening of bytes it loaded).
    Bytes(u32),
    /// Element `i` the byte at register-file byte `base + 4 * i` (`<4;1,0>`), widened as
    /// [`Region::Words`]: the bytes a byte gather leaves one per dword.
    BytePerDword(u32),
    /// Every element is the dword at this register-file byte.
    Scalar(u32),
    /// Every element is this immediate.
    Imm(u32),
}

impl Region {
    /// Bytes from one element to the next (0 for a scalar or an immediate).
    pub fn step(self) -> u32 {
        match self {
            Region::Contiguous(_) | Region::WordPerDword(_) | Region::BytePerDword(_) => 4,
            Region::Words(_) => 2,
            Region::Bytes(_) => 1,
            Region::Scalar(_) | Region::Imm(_) => 0,
        }
    }

    /// The register-file bytes `lanes` elements may be read from (`None` for an immediate):
    /// one word per dword counts the whole dwords, which compiled code loads.
    pub fn bytes(self, lanes: u32) -> Option<std::ops::Range<usize>> {
        let (start, len) = match self {
            Region::Contiguous(base) => (base, 4 * lanes),
            Region::Words(base) => (base, 2 * lanes),
            Region::WordPerDword(base) => (base & !3, 4 * lanes),
            Region::Bytes(base) => (base, lanes),
            Region::BytePerDword(base) => (base, 4 * lanes.saturating_sub(1) + 1),
            Region::Scalar(base) => (base, 4),
            Region::Imm(_) => return None,
        };
        let start = start as usize;
        Some(start..start + len as usize)
    }

    /// Whether the elements are bytes (compiled code takes dwords and words only).
    pub fn of_bytes(self) -> bool {
        matches!(self, Region::Bytes(_) | Region::BytePerDword(_))
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct FastSrc {
    pub region: Region,
    /// D, W or B (sign-extended) rather than UD, UW or UB (zero-extended) when widened.
    pub signed: bool,
    pub modifier: SrcMod,
}

/// A 32-bit integer ALU instruction with direct, contiguous destination.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct FastAlu {
    pub op: IntOp,
    /// Register-file byte of destination element 0.
    pub dst: u32,
    /// Bytes of a destination element: 4 (D, UD), 2 (W, UW) or 1 (B, UB). A narrower
    /// destination takes the low bits of the 32-bit result, which `specialise` allows only for
    /// operations whose low bits are those of the exact result.
    pub dst_bytes: u32,
    pub srcs: Vec<FastSrc>,
    /// The general form, run when the fast path does not apply.
    pub general: AluInstr,
}

/// Where a fast comparison writes its result.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum CmpTarget {
    /// A lane's bit of this predicate.
    Pred(u16),
    /// A lane's dword from this register-file byte on (a D or UD destination written
    /// contiguously): all ones where the relation holds, zero elsewhere (IGC's masks for
    /// `select` through `bfn`).
    Dwords(u32),
}

/// A 32-bit integer comparison writing a predicate or a register.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct FastCmp {
    pub rel: RelOp,
    pub exec: ExecCtl,
    pub dst: CmpTarget,
    pub srcs: [FastSrc; 2],
    /// The general form's operands, for the fallback.
    pub general_dst: CmpDst,
    pub general_srcs: Box<[Src; 2]>,
}

/// The F (32-bit float) operations with a fast form.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum FloatOp {
    Add,
    Mul,
    /// `src0 * src1 + src2`, rounded once.
    Mad,
}

impl FloatOp {
    pub(crate) fn arity(self) -> usize {
        match self {
            FloatOp::Add | FloatOp::Mul => 2,
            FloatOp::Mad => 3,
        }
    }
}

/// An F ALU instruction (F sources and destination, no saturation) with a direct, contiguous
/// destination. (A source's `signed` is unused.)
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct FastFloat {
    pub op: FloatOp,
    /// Register-file byte of destination element 0.
    pub dst: u32,
    pub srcs: Vec<FastSrc>,
    /// The general form, run when the fast path does not apply.
    pub general: AluInstr,
}
