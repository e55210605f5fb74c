//! The register-file chunks native ALU instructions read and write as `i32x4` vectors,
//! decided from the operation alone: what the plan (`jit::plan`), the chunks held in variables
//! (`jit::promote`) and the ALU lowering (`jit::lower_alu`) agree on.

use crate::ops::Op;
use crate::ops::fast::{CmpTarget, FastCmp, FastSrc, Region};
use crate::ops::int_ops::{IntOp, Operands};
use visa_isa::ast::SrcMod;

/// Whether the operation has a lane-wise `i32x4` form for these operands.
pub(super) fn vector_form(op: IntOp, srcs: &[FastSrc], lanes: u32) -> bool {
    if lanes < 4 {
        return false;
    }
    match op.operands() {
        Operands::LowBits => true,
        // Vector shifts take one count for all lanes.
        Operands::ShiftCount => srcs
            .get(1)
            .is_some_and(|s| matches!(s.region, Region::Scalar(_) | Region::Imm(_))),
        // Unmodified dwords of one signedness compare as they are.
        Operands::Exact => {
            srcs.iter().all(|s| s.modifier == SrcMod::None)
                && srcs.windows(2).all(|w| w[0].signed == w[1].signed)
        }
    }
}

/// Whether a comparison works on `i32x4` chunks of its sources.
pub(super) fn cmp_vector_form(c: &FastCmp) -> bool {
    let [sx, sy] = c.srcs;
    let plain = sx.modifier == SrcMod::None && sy.modifier == SrcMod::None;
    c.exec.size >= 4 && plain && sx.signed == sy.signed
}

/// The `i32x4` register-file chunks (their first bytes) an ALU instruction or comparison reads
/// and writes as vectors (`jit::promote` holds the busiest in variables). A destination that
/// may be written under a partial mask is read too (merged with the result).
pub(super) struct VectorChunks {
    pub reads: Vec<u32>,
    pub writes: Vec<u32>,
}

pub(super) fn vector_chunks(op: &Op) -> VectorChunks {
    let (srcs, lanes, dst, merged) = match op {
        Op::FastAlu(f) if vector_form(f.op, &f.srcs, f.general.exec.size) => {
            let a = &f.general;
            let merged = !(a.exec.no_mask && a.pred.is_none());
            (&f.srcs[..], a.exec.size, Some(f.dst), merged)
        }
        Op::FastCmp(c) if cmp_vector_form(c) => {
            let dst = match c.dst {
                CmpTarget::Dwords(dst) => Some(dst),
                CmpTarget::Pred(_) => None,
            };
            (&c.srcs[..], c.exec.size, dst, !c.exec.no_mask)
        }
        _ => {
            return VectorChunks {
                reads: Vec::new(),
                writes: Vec::new(),
            };
        }
    };
    let chunks = |base: u32| (0..lanes / 4).map(move |chunk| base + 16 * chunk);
    let sources = srcs.iter().filter_map(|s| match s.region {
        Region::Contiguous(base) => Some(base),
        Region::WordPerDword(base) => Some(base & !3),
        _ => None,
    });
    let read_dst = dst.filter(|_| merged);
    let mut reads: Vec<u32> = sources.chain(read_dst).flat_map(chunks).collect();
    reads.sort_unstable();
    reads.dedup();
    VectorChunks {
        reads,
        writes: dst.into_iter().flat_map(chunks).collect(),
    }
}

/// Whether `next` overwrites the vector chunks `op` writes (the same destination and lanes,
/// dwords; `op` an ALU instruction or a gather of a dword per lane) and reads those bytes only
/// as the same chunks, through the values the block holds: then, where both write every
/// channel, `op`'s store is dead.
pub(super) fn overwritten_by(op: &Op, next: &Op) -> bool {
    let Op::FastAlu(g) = next else {
        return false;
    };
    let ge = g.general.exec;
    let written = match op {
        Op::FastAlu(f) => {
            let fe = f.general.exec;
            let vector = f.dst_bytes == 4 && vector_form(f.op, &f.srcs, fe.size);
            (vector && (fe.size, fe.offset) == (ge.size, ge.offset)).then_some((f.dst, fe.size))
        }
        op => gathered_dwords(op).filter(|&(_, lanes)| lanes == ge.size && lanes % 4 == 0),
    };
    let Some((dst, lanes)) = written else {
        return false;
    };
    let same_write = g.dst == dst
        && g.dst_bytes == 4
        && g.general.pred.is_none()
        && vector_form(g.op, &g.srcs, ge.size);
    let written = dst as usize..(dst + 4 * lanes) as usize;
    same_write
        && g.srcs
            .iter()
            .all(|s| match (s.region, s.region.bytes(ge.size)) {
                (Region::Contiguous(base), _) if base == dst => true,
                (_, None) => true,
                (_, Some(read)) => read.end <= written.start || written.end <= read.start,
            })
}

/// A gather of one dword per lane into its data operand (lane `i`'s at byte `4 * i`): its
/// first byte and lanes.
pub(super) fn gathered_dwords(op: &Op) -> Option<(u32, u32)> {
    let (data, exec) = match op {
        Op::SvmGather(s) if s.blocks == 1 && s.block_bytes == 4 => (&s.data, s.exec),
        Op::GatherScaled(g) if g.bytes == 4 => (&g.data, g.exec),
        Op::Gather4(g) if g.mask == 1 => (&g.data, g.exec),
        _ => return None,
    };
    (!data.null).then_some((data.base, exec.size))
}

/// The register-file bytes a natively lowered ALU instruction, comparison or gather may write
/// (a superset: a message's whole data variable): the known writes of batched threads
/// (`bound_addresses`) and the chunks the full-mask copy defines (`promote::held_written`).
pub(super) fn may_write(op: &Op) -> Option<std::ops::Range<usize>> {
    let dwords = |dst: u32, lanes: u32| Some(dst as usize..(dst + 4 * lanes) as usize);
    match op {
        Op::FastAlu(f) => dwords(f.dst, f.general.exec.size),
        Op::FastFloat(f) => dwords(f.dst, f.general.exec.size),
        Op::FastCmp(c) => match c.dst {
            CmpTarget::Dwords(dst) => dwords(dst, c.exec.size),
            CmpTarget::Pred(_) => None,
        },
        Op::SvmGather(s) => s.data.bytes(),
        Op::GatherScaled(g) => g.data.bytes(),
        Op::Gather4(g) => g.data.bytes(),
        _ => None,
    }
}
