//! The load-time pass that replaces the instructions with a fast form (`ops::fast`) by it: an
//! `Op::Alu` / `Op::Cmp` of 32-bit integers whose operands are direct, with a contiguous or
//! scalar region (or contiguous words, or one word per dword), becomes `Op::FastAlu` /
//! `Op::FastCmp`; an F `add`, `mul` or `mad` of such operands becomes `Op::FastFloat`. It runs after decoding, before any
//! engine sees the program.

use visa_isa::ast::{ElemType, SrcMod};

use crate::ops::fast::{CmpTarget, FastAlu, FastCmp, FastFloat, FastSrc, FloatOp, Region};
use crate::ops::int_ops::{IntOp, Operands};
use crate::ops::{AluInstr, AluOp, CmpDst, Dst, DstKind, ExecType, Op, Src, SrcKind};

fn is_dword(ty: ElemType) -> bool {
    matches!(ty, ElemType::D | ElemType::Ud)
}

/// Where the elements of a 32-bit source are: a direct scalar (`<0;1,0>`) or contiguous
/// (`<1;1,0>`) region, or one immediate. `words` (W or UW elements, `signed` for W) admits
/// contiguous words or one word per dword instead, and a word immediate, widened here (a scalar
/// word is rare in IGC's output).
fn region(src: &Src, exec_size: u32, words: bool, signed: bool) -> Option<Region> {
    Some(match &src.kind {
        SrcKind::Direct { base, vs, w, hs } => {
            let element = |i: u32| (i / w) * vs + (i % w) * hs;
            let strided = |stride: u32| (0..exec_size).all(|i| element(i) == stride * i);
            if words {
                if strided(1) {
                    Region::Words(*base)
                } else {
                    strided(2).then_some(Region::WordPerDword(*base))?
                }
            } else if strided(0) {
                Region::Scalar(*base)
            } else {
                strided(1).then_some(Region::Contiguous(*base))?
            }
        }
        SrcKind::Imm(values) if values.len() == 1 => {
            let bits = *values.first()?;
            Region::Imm(match (words, signed) {
                (false, _) => (bits & 0xffff_ffff) as u32,
                (true, true) => i32::from(bits as u16 as i16) as u32,
                (true, false) => u32::from(bits as u16),
            })
        }
        _ => return None,
    })
}

/// The fast form of an integer source, when it has one.
fn fast_src(src: &Src, exec_size: u32) -> Option<FastSrc> {
    let words = matches!(src.ty, ElemType::W | ElemType::Uw);
    if !is_dword(src.ty) && !words {
        return None;
    }
    let signed = matches!(src.ty, ElemType::D | ElemType::W);
    Some(FastSrc {
        region: region(src, exec_size, words, signed)?,
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
    let dst = fast_dst(&a.dst, a.exec.size, is_dword)?;
    let srcs = a
        .srcs
        .iter()
        .map(|s| fast_src(s, a.exec.size))
        .collect::<Option<Vec<_>>>()?;
    // A shift reads a word source at its own width (a W shifted right is not sign-extended
    // first), which the dword forms do not model.
    let words = (a.srcs.iter()).any(|s| matches!(s.ty, ElemType::W | ElemType::Uw));
    if words && op.operands() == Operands::ShiftCount {
        return None;
    }
    Some(FastAlu {
        op,
        dst,
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
        region: region(src, exec_size, false, false)?,
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
                fast_src(&srcs[0], exec.size),
                fast_src(&srcs[1], exec.size),
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
