//! Which loops' channels are likely to leave at different trips: a guess, from the data that
//! decides each backward `goto`, of where compiled code should not branch on whether channels
//! leave (optimised code only; the guess changes speed, never results).
//!
//! A backward `goto` whose predicate comes from data that may differ from lane to lane (loaded
//! from memory, bound per work-item, derived from such data) lets some channels leave on one
//! trip and others later, at trips no branch predictor foresees: `divergent`'s loop, whose
//! trip counts are gathered, mispredicts once per distinct trip count (about 15 times per
//! SIMD16 thread of 58 trips). There the goto updates the execution mask and the parked
//! channels without a branch, whether or not a channel left (`lower::emit_goto`). A loop whose
//! predicate comes from counters that move alike in every lane (the ALU kernel's) keeps the
//! branch: every channel leaves at the same trip, and the update, taken only then, costs
//! nothing the other trips.
//!
//! The guess follows register-file chunks through the vector ALU instructions (the only ones
//! whose sources and destinations [`lower_alu::vector_chunks`] knows): a chunk varies when a
//! message writes it, when no such instruction writes it (an input, a binding, what another
//! instruction writes), or when an instruction writing it reads a varying chunk or is predicated
//! by a varying predicate. Scalar sources and immediates are the same in every lane. A
//! predicate varies when a compare of a varying chunk writes it, or anything but such a compare
//! does. (Writes under a divergent mask are not followed: a counter a divergent branch
//! increments is taken to be uniform.)

use super::lower_alu;
use crate::ops::fast::CmpTarget;
use crate::ops::{CmpDst, Op};
use crate::program::Program;

/// Per instruction: whether it is a backward `goto` whose channels are likely to leave the loop
/// at different trips.
pub(super) fn divergent_exits(program: &Program) -> Vec<bool> {
    let code = &program.code;
    let mut varying_chunks = message_chunks(program);
    let alu_written: Vec<u32> = code
        .iter()
        .flat_map(|op| lower_alu::vector_chunks(op).writes)
        .collect();
    for op in code {
        let reads = lower_alu::vector_chunks(op).reads;
        varying_chunks.extend(reads.into_iter().filter(|at| !alu_written.contains(at)));
    }
    let mut varying_preds: Vec<u16> = Vec::new();
    // Until nothing changes: each pass marks at least one more chunk or predicate, and there
    // are finitely many.
    loop {
        let mut changed = false;
        for op in code {
            let chunks = lower_alu::vector_chunks(op);
            let varies = chunks.reads.iter().any(|at| varying_chunks.contains(at))
                || predicate(op).is_some_and(|p| varying_preds.contains(&p));
            for at in chunks.writes {
                if varies && !varying_chunks.contains(&at) {
                    varying_chunks.push(at);
                    changed = true;
                }
            }
            if let Some(dst) = written_predicate(op)
                && !varying_preds.contains(&dst)
                && (varies || !followed_compare(op))
            {
                varying_preds.push(dst);
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    (0..code.len())
        .map(|pc| match code[pc] {
            Op::Goto {
                pred: Some(p),
                target,
                ..
            } => target <= pc && varying_preds.contains(&p.index),
            _ => false,
        })
        .collect()
}

/// The chunks (16-byte offsets) the program's gathers write.
fn message_chunks(program: &Program) -> Vec<u32> {
    let mut chunks = Vec::new();
    for op in &program.code {
        let bytes: Vec<std::ops::Range<usize>> = match op {
            Op::SvmGather(s) => s.data.bytes().into_iter().collect(),
            Op::GatherScaled(g) => g.data.bytes().into_iter().collect(),
            Op::Gather4(g) => g.data.bytes().into_iter().collect(),
            _ => continue,
        };
        for range in bytes {
            let first = range.start / 16 * 16;
            chunks.extend((first..range.end).step_by(16).map(|at| at as u32));
        }
    }
    chunks
}

/// The predicate an instruction is predicated by.
fn predicate(op: &Op) -> Option<u16> {
    match op {
        Op::FastAlu(f) => f.general.pred.map(|p| p.index),
        _ => None,
    }
}

/// Whether `op` is a compare whose sources the guess follows (its vector form).
fn followed_compare(op: &Op) -> bool {
    matches!(op, Op::FastCmp(c) if lower_alu::cmp_vector_form(c))
}

/// The predicate an instruction writes, if any.
fn written_predicate(op: &Op) -> Option<u16> {
    match op {
        Op::FastCmp(c) => match c.dst {
            CmpTarget::Pred(index) => Some(index),
            CmpTarget::Dwords(_) => None,
        },
        Op::Cmp {
            dst: CmpDst::Pred(index),
            ..
        } => Some(*index),
        Op::PredLogic { dst, .. } | Op::Setp { dst, .. } => Some(*dst),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{LoadOptions, Program};

    fn exits(text: &str) -> Vec<usize> {
        let program = Program::from_text(text, &LoadOptions::default()).expect("test program");
        let flags = divergent_exits(&program);
        (0..flags.len()).filter(|&pc| flags[pc]).collect()
    }

    const DECLS: &str = "
.decl N v_type=G type=d num_elts=16 align=GRF
.decl K v_type=G type=d num_elts=16 align=GRF
.decl ACC v_type=G type=d num_elts=16 align=GRF
.decl TRIPS v_type=G type=d num_elts=1
.decl P1 v_type=P num_elts=16
";

    /// A loop bounded by gathered trip counts is divergent; its forward goto is not a loop.
    #[test]
    fn a_loop_bounded_by_loaded_data_is_divergent() {
        let body = "
gather_scaled.4 (M1, 16) T8 0x0:ud K.0 N.0
mov (M1, 16) K(0,0)<1> 0x0:d
LOOP:
cmp.eq (M1, 16) P1 K(0,0)<1;1,0> 0x3:d
(P1) goto (M1, 16) SKIP
add (M1, 16) ACC(0,0)<1> ACC(0,0)<1;1,0> K(0,0)<1;1,0>
SKIP:
add (M1, 16) K(0,0)<1> K(0,0)<1;1,0> 0x1:d
cmp.lt (M1, 16) P1 K(0,0)<1;1,0> N(0,0)<1;1,0>
(P1) goto (M1, 16) LOOP
";
        let found = exits(&format!("{DECLS}{body}"));
        assert_eq!(found.len(), 1, "{found:?}");
    }

    /// A counter that starts at an immediate and steps by one, against a scalar bound: every
    /// channel leaves at the same trip.
    #[test]
    fn a_loop_counted_alike_in_every_lane_is_not() {
        let body = "
mov (M1, 16) K(0,0)<1> 0x0:d
LOOP:
add (M1, 16) ACC(0,0)<1> ACC(0,0)<1;1,0> K(0,0)<1;1,0>
add (M1, 16) K(0,0)<1> K(0,0)<1;1,0> 0x1:d
cmp.lt (M1, 16) P1 K(0,0)<1;1,0> TRIPS(0,0)<0;1,0>
(P1) goto (M1, 16) LOOP
";
        assert_eq!(exits(&format!("{DECLS}{body}")), Vec::<usize>::new());
    }

    /// Variance flows through the ALU: a counter the loop derives from a never-written input
    /// (a binding), and a chunk the ALU and a gather both write.
    #[test]
    fn variance_flows_from_inputs_and_messages_through_the_alu() {
        let from_input = "
add (M1, 16) K(0,0)<1> N(0,0)<1;1,0> 0x1:d
LOOP:
add (M1, 16) K(0,0)<1> K(0,0)<1;1,0> 0x1:d
cmp.lt (M1, 16) P1 K(0,0)<1;1,0> TRIPS(0,0)<0;1,0>
(P1) goto (M1, 16) LOOP
";
        assert_eq!(exits(&format!("{DECLS}{from_input}")).len(), 1);
        let from_gather = "
mov (M1, 16) N(0,0)<1> 0x0:d
gather_scaled.4 (M1, 16) T8 0x0:ud K.0 N.0
mov (M1, 16) K(0,0)<1> 0x0:d
LOOP:
add (M1, 16) K(0,0)<1> K(0,0)<1;1,0> 0x1:d
cmp.lt (M1, 16) P1 K(0,0)<1;1,0> N(0,0)<1;1,0>
(P1) goto (M1, 16) LOOP
";
        assert_eq!(exits(&format!("{DECLS}{from_gather}")).len(), 1);
    }
}
