//! The load-time pass that replaces the instructions with a fast form (`ops::fast`) by it: an
//! `Op::Alu` / `Op::Cmp` of 32-bit integers whose operands are direct, with a contiguous or
//! scalar region (or contiguous words, or one word per dword), becomes `Op::FastAlu` /
//! `Op::FastCmp`; an ALU operation may also read bytes (contiguous, or one per dword) and
//! write words or bytes where its result's low bits are exact. An F `add`, `mul` or `mad` of
//! such operands becomes `Op::FastFloat`. It runs after decoding, before any engine sees the
//! program.

use visa_isa::ast::{ElemType, SrcMod};

use crate::ops::fast::{CmpTarget, FastAlu, FastCmp, FastFloat, FastSrc, FloatOp, Region};
use crate::ops::int_ops::{IntOp, Operands};
use crate::ops::{AluInstr, AluOp, CmpDst, Dst, DstKind, ExecType, Op, Src, SrcKind};

fn is_dword(ty: ElemType) -> bool {
    matches!(ty, ElemType::D | ElemType::Ud)
}

/// Bits of an integer element of `ty` the fast forms take (dwords, words, bytes).
fn int_bits(ty: ElemType) -> Option<u32> {
    match ty {
        ElemType::D | ElemType::Ud => Some(32),
        ElemType::W | ElemType::Uw => Some(16),
        ElemType::B | ElemType::Ub => Some(8),
        _ => None,
    }
}

/// Where the elements of an integer source of `bits`-bit elements are: for dwords a direct
/// scalar (`<0;1,0>`) or contiguous (`<1;1,0>`) region; for words or bytes contiguous
/// elements or one per dword (a scalar word or byte is rare in IGC's output); or one
/// immediate, widened here (`signed` for W and B).
fn region(src: &Src, exec_size: u32, bits: u32, signed: bool) -> Option<Region> {
    Some(match &src.kind {
        SrcKind::Direct { base, vs, w, hs } => {
            let element = |i: u32| (i / w) * vs + (i % w) * hs;
            let strided = |stride: u32| (0..exec_size).all(|i| element(i) == stride * i);
            match bits {
                16 if strided(1) => Region::Words(*base),
                16 => strided(2).then_some(Region::WordPerDword(*base))?,
                8 if strided(1) => Region::Bytes(*base),
                8 => strided(4).then_some(Region::BytePerDword(*base))?,
                _ if strided(0) => Region::Scalar(*base),
                _ => strided(1).then_some(Region::Contiguous(*base))?,
            }
        }
        SrcKind::Imm(values) if values.len() == 1 => {
            let raw = *values.first()?;
            Region::Imm(match (bits, signed) {
                (16, true) => i32::from(raw as u16 as i16) as u32,
                (16, false) => u32::from(raw as u16),
                (8, true) => i32::from(raw as u8 as i8) as u32,
                (8, false) => u32::from(raw as u8),
                _ => (raw & 0xffff_ffff) as u32,
            })
        }
        _ => return None,
    })
}

/// The fast form of an integer source, when it has one (of bytes only where `bytes`: the
/// comparisons take dwords and words).
fn fast_src(src: &Src, exec_size: u32, bytes: bool) -> Option<FastSrc> {
    let bits = int_bits(src.ty).filter(|&bits| bits > 8 || bytes)?;
    let signed = matches!(src.ty, ElemType::D | ElemType::W | ElemType::B);
    Some(FastSrc {
        region: region(src, exec_size, bits, signed)?,
        signed,
        modifier: src.modifier,
    })
}

/// Register-file byte of element 0 of a destination of type `ty` written contiguously.
fn fast_dst(dst: &Dst, exec_size: u32, ty: impl Fn(ElemType) -> bool) -> Option<u32> {
    match dst.kind {
        DstKind::Direct { base, hs } if ty(dst.ty) && (hs == 1 || exec_size == 1) => Some(base),
        _ => None,
    }
}

fn fast_alu(a: &AluInstr) -> Option<FastAlu> {
    let op = IntOp::of(a.op)?;
    if a.exec_type != ExecType::Int
        || a.saturate
        || a.dst_high.is_some()
        || a.srcs.len() != op.arity()
    {
        return None;
    }
    let dst_bits = int_bits(a.dst.ty)?;
    let dst = fast_dst(&a.dst, a.exec.size, |_| true)?;
    let srcs = a
        .srcs
        .iter()
        .map(|s| fast_src(s, a.exec.size, true))
        .collect::<Option<Vec<_>>>()?;
    let narrow_source = (a.srcs.iter()).any(|s| int_bits(s.ty).is_some_and(|bits| bits < 32));
    let allowed = match op.operands() {
        // A shift reads a narrow source at its own width (a W shifted right is not
        // sign-extended first), which the 32-bit forms do not model; except a left shift by an
        // immediate below the destination's width into a destination no wider than the
        // shifted source, whose bits are the same at any width.
        Operands::ShiftCount => {
            let shifted = a.srcs.first().and_then(|s| int_bits(s.ty)).unwrap_or(0);
            let count = srcs.get(1).map(|s| s.region);
            !narrow_source
                || (op == IntOp::Shl
                    && dst_bits < 32
                    && shifted >= dst_bits
                    && matches!(count, Some(Region::Imm(c)) if c < dst_bits))
        }
        // The low bits of a sum, product or bitwise result are those of the exact one, and a
        // minimum or maximum is one of the exact sources: a narrower destination keeps the low
        // bits as the general path's truncation does.
        Operands::LowBits | Operands::Exact => true,
    };
    if !allowed {
        return None;
    }
    Some(FastAlu {
        op,
        dst,
        dst_bytes: dst_bits / 8,
        srcs,
        general: a.clone(),
    })
}

/// The fast form of an F source: a direct contiguous or scalar region of F elements, or one
/// immediate, with a sign modifier at most.
fn fast_float_src(src: &Src, exec_size: u32) -> Option<FastSrc> {
    if src.ty != ElemType::F || src.modifier == SrcMod::Not {
        return None;
    }
    Some(FastSrc {
        region: region(src, exec_size, 32, false)?,
        signed: false,
        modifier: src.modifier,
    })
}

fn fast_float(a: &AluInstr) -> Option<FastFloat> {
    let op = match a.op {
        AluOp::Add => FloatOp::Add,
        AluOp::Mul => FloatOp::Mul,
        AluOp::Mad => FloatOp::Mad,
        _ => return None,
    };
    if a.exec_type != ExecType::Float(ElemType::F)
        || a.saturate
        || a.dst_high.is_some()
        || a.srcs.len() != op.arity()
    {
        return None;
    }
    let dst = fast_dst(&a.dst, a.exec.size, |ty| ty == ElemType::F)?;
    let srcs = (a.srcs.iter())
        .map(|s| fast_float_src(s, a.exec.size))
        .collect::<Option<Vec<_>>>()?;
    Some(FastFloat {
        op,
        dst,
        srcs,
        general: a.clone(),
    })
}

/// Replaces an instruction by its fast form when it has one.
pub(crate) fn specialise(op: &mut Op) {
    let fast = match op {
        Op::Alu(a) => match fast_alu(a) {
            Some(f) => Some(Op::FastAlu(Box::new(f))),
            None => fast_float(a).map(|f| Op::FastFloat(Box::new(f))),
        },
        Op::Cmp {
            rel,
            exec,
            dst,
            srcs,
        } => {
            let target = match dst {
                CmpDst::Pred(pred) => Some(CmpTarget::Pred(*pred)),
                CmpDst::General(d) => fast_dst(d, exec.size, is_dword).map(CmpTarget::Dwords),
            };
            match (
                target,
                fast_src(&srcs[0], exec.size, false),
                fast_src(&srcs[1], exec.size, false),
            ) {
                (Some(target), Some(x), Some(y)) => Some(Op::FastCmp(Box::new(FastCmp {
                    rel: *rel,
                    exec: *exec,
                    dst: target,
                    srcs: [x, y],
                    general_dst: dst.clone(),
                    general_srcs: srcs.clone(),
                }))),
                _ => None,
            }
        }
        _ => None,
    };
    if let Some(fast) = fast {
        *op = fast;
    }
}
