//! Which register-file bytes a program writes, in every channel, before anything reads them:
//! a dataflow fact of its first instructions, which run in order on every thread with the
//! entry mask. The launch loop restores the other bytes from the template between threads
//! (`launch::fresh`); compiled straight-line code keeps the values of such bytes in host
//! registers without storing them at a thread's end (`jit::promote`).

use std::ops::Range;
use std::sync::Arc;

use crate::ops::fast::{CmpTarget, FastSrc};
use crate::ops::{AluInstr, ExecCtl, Op, PredCtl, Raw, Src, SrcKind};
use crate::program::Program;

/// Per register-file byte: whether every thread of a launch whose threads start with the
/// execution mask `lanes` writes it, in every channel, before anything reads it. Found once
/// per program and mask (`Program::first_writes`): each launch of the launch loop asks.
pub(crate) fn written_first(program: &Program, lanes: u32) -> Arc<[bool]> {
    program
        .first_writes
        .get_or(lanes, || find_written_first(program, lanes))
}

/// [`written_first`], found.
fn find_written_first(program: &Program, lanes: u32) -> Vec<bool> {
    let size = program.layout.file_size as usize;
    let mut written = vec![false; size];
    // Bytes read before being written: never written first, whatever comes later.
    let mut read = vec![false; size];
    for op in &program.code {
        let Some(access) = accesses(op, lanes) else {
            break;
        };
        for range in access.reads {
            let range = range.start.min(size)..range.end.min(size);
            for byte in range {
                if !written[byte] {
                    read[byte] = true;
                }
            }
        }
        for range in access.writes {
            let range = range.start.min(size)..range.end.min(size);
            for byte in range {
                if !read[byte] {
                    written[byte] = true;
                }
            }
        }
    }
    written
}

/// The register bytes an instruction may read, and those it writes in every channel.
#[derive(Default)]
struct Accesses {
    reads: Vec<Range<usize>>,
    /// Written completely whenever the instruction runs on a thread with the entry mask.
    writes: Vec<Range<usize>>,
}

/// What `op` accesses in the register file when it runs at the start of a thread whose
/// execution mask is `lanes`; `None` when that is not known here (the analysis stops there).
fn accesses(op: &Op, lanes: u32) -> Option<Accesses> {
    let mut access = Accesses::default();
    match op {
        Op::Nop => {}
        Op::FastAlu(alu) => {
            let dst = (alu.dst, alu.dst_bytes);
            fast_accesses(&alu.general, &alu.srcs, dst, lanes, &mut access);
        }
        Op::FastFloat(alu) => {
            fast_accesses(&alu.general, &alu.srcs, (alu.dst, 4), lanes, &mut access);
        }
        Op::FastCmp(cmp) => {
            // (A predicate it writes every thread gets afresh.)
            for src in &cmp.srcs {
                access.reads.extend(src.region.bytes(cmp.exec.size));
            }
            if let CmpTarget::Dwords(dst) = cmp.dst
                && every_channel(cmp.exec, None, lanes)
            {
                let dst = dst as usize;
                access.writes.push(dst..dst + 4 * cmp.exec.size as usize);
            }
        }
        Op::SvmGather(s) | Op::SvmScatter(s) => {
            access.reads.extend(s.addresses.bytes());
            if matches!(op, Op::SvmScatter(_)) {
                access.reads.extend(s.data.bytes());
            } else if matches!(s.block_bytes, 4 | 8)
                && every_channel(s.exec, s.pred, lanes)
                && !s.data.null
            {
                // Block-major: block `j` of lane `i` at `(j * slots + i) * block size`.
                let slots = if s.exec.size <= 8 { 8 } else { 16 };
                let bs = s.block_bytes;
                for block in 0..s.blocks {
                    for lane in 0..s.exec.size {
                        let start = (s.data.base + (block * slots + lane) * bs) as usize;
                        access
                            .writes
                            .extend(within(&s.data, start..start + bs as usize));
                    }
                }
            }
        }
        Op::GatherScaled(g) | Op::ScatterScaled(g) => {
            access.reads.extend(src_bytes(&g.offset, 1)?);
            access.reads.extend(g.element_offset.bytes());
            if matches!(op, Op::ScatterScaled(_)) {
                access.reads.extend(g.data.bytes());
            } else if every_channel(g.exec, g.pred, lanes) && !g.data.null {
                // Each lane's dword (1- and 2-byte gathers fill its upper bytes too).
                let start = g.data.base as usize;
                access
                    .writes
                    .extend(within(&g.data, start..start + 4 * g.exec.size as usize));
            }
        }
        _ => return None,
    }
    Some(access)
}

/// Whether an instruction with `exec` and `pred` runs every one of its channels on a thread
/// whose execution mask is `lanes`.
fn every_channel(exec: ExecCtl, pred: Option<PredCtl>, lanes: u32) -> bool {
    let channels = exec.lanes();
    pred.is_none()
        && (exec.no_mask || (lanes.checked_shr(exec.offset).unwrap_or(0) & channels) == channels)
}

/// The bytes of a fast-form source region of `size` elements.
/// The accesses of a fast-form ALU instruction (`general` its general form): its sources'
/// regions, and its destination `(first byte, bytes per element)` when every channel writes.
fn fast_accesses(
    general: &AluInstr,
    srcs: &[FastSrc],
    (dst, size): (u32, u32),
    lanes: u32,
    access: &mut Accesses,
) {
    let exec = general.exec;
    for src in srcs {
        access.reads.extend(src.region.bytes(exec.size));
    }
    if every_channel(exec, general.pred, lanes) {
        let dst = dst as usize;
        access.writes.push(dst..dst + (size * exec.size) as usize);
    }
}

/// `range` when it lies inside the variable `raw` names (a message traps otherwise).
fn within(raw: &Raw, range: Range<usize>) -> Option<Range<usize>> {
    (range.end <= raw.end as usize).then_some(range)
}

/// The bytes a general source of `size` elements may read; `None` (unknown) when indirect.
fn src_bytes(src: &Src, size: u32) -> Option<Option<Range<usize>>> {
    let element = src.ty.size();
    match src.kind {
        SrcKind::Direct { base, vs, w, hs } => {
            let w = w.max(1);
            let last = (0..size)
                .map(|i| ((i / w) * vs + (i % w) * hs) * element)
                .max()
                .unwrap_or(0);
            Some(Some(base as usize..(base + last + element) as usize))
        }
        SrcKind::Indirect { .. } | SrcKind::MultiIndirect { .. } => None,
        SrcKind::Imm(_) | SrcKind::Pred(..) | SrcKind::Null => Some(None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::program::LoadOptions;

    const DECLS: &str = ".decl P v_type=G type=uq num_elts=16 align=GRF\n\
        .decl A v_type=G type=d num_elts=16 align=GRF\n\
        .decl B v_type=G type=d num_elts=16 align=GRF\n\
        .decl F v_type=P num_elts=16\n";

    /// The bytes of variable `name` that every thread of a SIMD16 launch writes first.
    fn written(body: &str, name: &str) -> Vec<bool> {
        let program = Program::from_text(&format!("{DECLS}{body}"), &LoadOptions::default())
            .unwrap_or_else(|e| panic!("{e}"));
        let first = written_first(&program, 0xffff);
        let layout = &program.layout;
        let var = &layout.vars[layout.top_level[name]];
        first[var.offset as usize..(var.offset + var.size) as usize].to_vec()
    }

    fn all(value: bool) -> Vec<bool> {
        vec![value; 64]
    }

    #[test]
    fn a_gathered_register_is_written_first() {
        let body = "svm_gather.4.1 (M1, 16) P.0 A.0\n\
                    add (M1, 16) B(0,0)<1> A(0,0)<1;1,0> A(0,0)<1;1,0>\n";
        assert_eq!(written(body, "A"), all(true));
        assert_eq!(written(body, "B"), all(true));
        // The addresses are read, never written.
        assert_eq!(written(body, "P"), vec![false; 128]);
    }

    #[test]
    fn a_register_read_before_its_write_is_not() {
        let body = "add (M1, 16) A(0,0)<1> A(0,0)<1;1,0> 0x1:d\n";
        assert_eq!(written(body, "A"), all(false));
        // Read by the second instruction, after the first wrote it.
        let body = "mov (M1, 16) A(0,0)<1> 0x1:d\n\
                    add (M1, 16) A(0,0)<1> A(0,0)<1;1,0> 0x1:d\n";
        assert_eq!(written(body, "A"), all(true));
    }

    #[test]
    fn only_writes_of_every_channel_count() {
        // Eight channels of sixteen: the first 32 bytes.
        let half: Vec<bool> = (0..64).map(|byte| byte < 32).collect();
        assert_eq!(written("mov (M1, 8) A(0,0)<1> 0x1:d\n", "A"), half);
        assert_eq!(written("mov (M1_NM, 8) A(0,0)<1> 0x1:d\n", "A"), half);
        // Channels 8..16 of a 16-channel instruction.
        let upper: Vec<bool> = (0..64).map(|byte| byte >= 32).collect();
        assert_eq!(written("mov (M3, 8) A(0,8)<1> 0x1:d\n", "A"), upper);
        // A predicate may switch channels off.
        let predicated = "cmp.lt (M1, 16) F B(0,0)<1;1,0> 0x0:d\n\
                          (F) mov (M1, 16) A(0,0)<1> 0x1:d\n";
        assert_eq!(written(predicated, "A"), all(false));
    }

    #[test]
    fn the_analysis_stops_at_an_instruction_it_does_not_know() {
        let body = "mov (M1, 8) B(0,0)<2> 0x1:d\n\
                    mov (M1, 16) A(0,0)<1> 0x1:d\n";
        assert_eq!(written(body, "A"), all(false));
        assert_eq!(written(body, "B"), all(false));
    }

    #[test]
    fn a_program_finds_the_bytes_once_per_mask() {
        let body = "mov (M1, 16) A(0,0)<1> 0x1:d\n";
        let program = Program::from_text(&format!("{DECLS}{body}"), &LoadOptions::default())
            .unwrap_or_else(|e| panic!("{e}"));
        let wide = written_first(&program, 0xffff);
        // Found again for another mask (eight channels write half of `A`), kept for each.
        let narrow = written_first(&program, 0xff);
        assert_ne!(wide, narrow);
        assert!(Arc::ptr_eq(&wide, &written_first(&program, 0xffff)));
        assert!(Arc::ptr_eq(&narrow, &written_first(&program, 0xff)));
        // A clone (which may be changed before it runs) finds them afresh, the same.
        let clone = program.clone();
        let again = written_first(&clone, 0xffff);
        assert!(!Arc::ptr_eq(&wide, &again));
        assert_eq!(wide, again);
        // Past the masks kept, the bytes are found each time, still right.
        for lanes in 1..=16u32 {
            let first = written_first(&program, lanes);
            assert_eq!(first, written_first(&program, lanes));
        }
        let last = written_first(&program, 16);
        assert!(!Arc::ptr_eq(&last, &written_first(&program, 16)));
        assert_eq!(&*last, &find_written_first(&program, 16)[..]);
    }
}
