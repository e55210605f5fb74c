//! The load-time pass that replaces the instructions with a fast form (`ops::fast`) by it: an
//! `Op::Alu` / `Op::Cmp` of 32-bit integers whose operands are direct, with a contiguous or
//! scalar region (or contiguous words), becomes `Op::FastAlu` / `Op::FastCmp`. It runs after decoding, before any
//! engine sees the program.

use visa_isa::ast::ElemType;

use crate::ops::fast::{FastAlu, FastCmp, FastSrc, Region};
use crate::ops::int_ops::{IntOp, Operands};
use crate::ops::{AluInstr, CmpDst, Dst, DstKind, ExecType, Op, Src, SrcKind};

fn is_dword(ty: ElemType) -> bool {
    matches!(ty, ElemType::D | ElemType::Ud)
}

/// The fast form of a source, when it has one.
fn fast_src(src: &Src, exec_size: u32) -> Option<FastSrc> {
    let words = matches!(src.ty, ElemType::W | ElemType::Uw);
    if !is_dword(src.ty) && !words {
        return None;
    }
    let region = match &src.kind {
        SrcKind::Direct { base, vs, w, hs } => {
            let element = |i: u32| (i / w) * vs + (i % w) * hs;
            if words {
                // Only contiguous words: a scalar word is rare in IGC's output.
                if !(0..exec_size).all(|i| element(i) == i) {
                    return None;
                }
                Region::Words(*base)
            } else if (0..exec_size).all(|i| element(i) == 0) {
                Region::Scalar(*base)
            } else if (0..exec_size).all(|i| element(i) == i) {
                Region::Contiguous(*base)
            } else {
                return None;
            }
        }
        SrcKind::Imm(values) if values.len() == 1 && !words => {
            Region::Imm((*values.first()? & 0xffff_ffff) as u32)
        }
        _ => return None,
    };
    Some(FastSrc {
        region,
        signed: matches!(src.ty, ElemType::D | ElemType::W),
        modifier: src.modifier,
    })
}

/// Register-file byte of element 0 of a destination written contiguously.
fn fast_dst(dst: &Dst, exec_size: u32) -> Option<u32> {
    match dst.kind {
        DstKind::Direct { base, hs } if is_dword(dst.ty) && (hs == 1 || exec_size == 1) => {
            Some(base)
        }
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
    let dst = fast_dst(&a.dst, a.exec.size)?;
    let srcs = a
        .srcs
        .iter()
        .map(|s| fast_src(s, a.exec.size))
        .collect::<Option<Vec<_>>>()?;
    // A shift reads a word source at its own width (a W shifted right is not sign-extended
    // first), which the dword forms do not model.
    let words = srcs.iter().any(|s| matches!(s.region, Region::Words(_)));
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

/// Replaces an instruction by its fast form when it has one.
pub(crate) fn specialise(op: &mut Op) {
    let fast = match op {
        Op::Alu(a) => fast_alu(a).map(|f| Op::FastAlu(Box::new(f))),
        Op::Cmp {
            rel,
            exec,
            dst: CmpDst::Pred(pred),
            srcs,
        } => match (fast_src(&srcs[0], exec.size), fast_src(&srcs[1], exec.size)) {
            (Some(x), Some(y)) => Some(Op::FastCmp(Box::new(FastCmp {
                rel: *rel,
                exec: *exec,
                pred: *pred,
                srcs: [x, y],
                general_dst: CmpDst::Pred(*pred),
                general_srcs: srcs.clone(),
            }))),
            _ => None,
        },
        _ => None,
    };
    if let Some(fast) = fast {
        *op = fast;
    }
}
