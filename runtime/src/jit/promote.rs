//! Register-file chunks held in SSA variables across blocks (optimised code): the `i32x4`
//! chunks the vector ALU writes inside loops and reads there in other blocks. Their values flow
//! from block to block (through loop headers and join points, where `Known` forgets) as
//! Cranelift variables, so a loop keeps its counters and accumulators out of the register file.
//! A definition is not stored (write-back): the register file gets the chunks where something
//! else reads it (`Emitter::flush_promoted`): before a helper call, a memory message, a load of
//! another shape over the chunk, and on every way out of the compiled code (the exit block).
//! Whatever writes the register file other than by defining the variable (a helper, a message's
//! lane stores, a store of another shape over the chunk) is followed by a reload of the chunks
//! it may have written.
//!
//! The copy of straight-line code run with a full mask (`Plan::full_mask`) holds, in variables
//! of its own, the chunks its vector ALU instructions and dword gathers write before anything
//! reads them ([`held_in_copy`]). A thread's values there never reach the register file unless
//! something else reads it (a slow path, a helper, an exit): the next thread of the batch
//! writes them again before reading them, so they die at the thread's end.

use super::chunks;
use super::plan::{Lowering, Plan};
use crate::ops::Op;
use crate::program::Program;

/// Most chunks held: two 16-lane dword variables. (Each chunk held across a loop takes one of
/// the host's 16 vector registers; once they run out the allocator spills to the stack, which
/// costs what reading the register file costs, plus the spill's store.)
pub(super) const MAX_PROMOTED: usize = 8;

/// The first bytes of the chunks to hold, in ascending order, none overlapping another: chunks
/// the vector ALU writes inside a loop and reads there in another block than the one writing
/// it (within a block, `Known` has the value already), most such reads first. (A chunk the
/// loop only reads is left in memory: held, it would take a register for the whole loop to
/// save one load per read.)
pub(super) fn chosen(program: &Program, plan: &Plan) -> Vec<u32> {
    let in_loop = program.in_loop();
    let mut written_in_loop: Vec<u32> = Vec::new();
    let mut written_in_block: Vec<u32> = Vec::new();
    // (chunk, instructions reading it where their block has not written it)
    let mut reads: Vec<(u32, u32)> = Vec::new();
    for (pc, op) in program.code.iter().enumerate() {
        if plan.leader.get(pc).copied().unwrap_or(true) {
            written_in_block.clear();
        }
        let native = matches!(
            plan.lowering.get(pc),
            Some(Lowering::FastAlu | Lowering::FastCmp)
        );
        if !native || !in_loop.get(pc).copied().unwrap_or(false) {
            continue;
        }
        let chunks = chunks::vector_chunks(op);
        for &at in &chunks.reads {
            if written_in_block.contains(&at) {
                continue;
            }
            match reads.iter_mut().find(|(chunk, _)| *chunk == at) {
                Some((_, n)) => *n += 1,
                None => reads.push((at, 1)),
            }
        }
        written_in_block.extend(&chunks.writes);
        written_in_loop.extend(&chunks.writes);
    }
    reads.retain(|(at, _)| written_in_loop.contains(at));
    reads.sort_by_key(|&(at, n)| (std::cmp::Reverse(n), at));
    let mut picked: Vec<u32> = Vec::new();
    for (at, _) in reads {
        if picked.len() == MAX_PROMOTED {
            break;
        }
        if picked.iter().all(|&p| p.abs_diff(at) >= 16) {
            picked.push(at);
        }
    }
    picked.sort_unstable();
    picked
}

/// The chunks the copy of straight-line code run with the full mask `mask` holds in variables
/// (see the module's doc), at most [`MAX_HELD_IN_COPY`], the first written first: those its
/// vector ALU instructions and dword gathers write ([`written_chunks`]) whose sixteen bytes every
/// thread entering it writes before anything reads them (`first_writes`).
pub(super) fn held_in_copy(program: &Program, mask: u32) -> Vec<u32> {
    let first = crate::first_writes::written_first(program, mask);
    let written_first = |at: u32| {
        let bytes = at as usize..at as usize + 16;
        first
            .get(bytes)
            .is_some_and(|bytes| bytes.iter().all(|&b| b))
    };
    let mut picked: Vec<u32> = Vec::new();
    for op in &program.code {
        for at in written_chunks(op) {
            if picked.len() < MAX_HELD_IN_COPY
                && written_first(at)
                && picked.iter().all(|&p| p.abs_diff(at) >= 16)
            {
                picked.push(at);
            }
        }
    }
    picked.sort_unstable();
    picked
}

/// Of the chunks `held` (see [`held_in_copy`]), those the instruction `op` may write.
pub(super) fn held_written(op: &Op, held: &[(u32, cranelift_frontend::Variable)]) -> Vec<u32> {
    let Some(bytes) = chunks::may_write(op) else {
        return Vec::new();
    };
    (held.iter())
        .map(|&(at, _)| at)
        .filter(|&at| (at as usize) < bytes.end && bytes.start < at as usize + 16)
        .collect()
}

/// The `i32x4` chunks an instruction writes whole (their first bytes): a vector ALU
/// instruction's destination, a dword gather's data.
fn written_chunks(op: &Op) -> Vec<u32> {
    match chunks::gathered_dwords(op) {
        Some((data, lanes)) if lanes % 4 == 0 => (0..lanes / 4).map(|k| data + 16 * k).collect(),
        Some(_) => Vec::new(),
        None => chunks::vector_chunks(op).writes,
    }
}

/// Most chunks the copy run with a full mask holds: two 16-lane dword variables. (A value
/// live across a message, whose slow paths call helpers, may be spilled to the stack at its
/// definition, which costs what the register file's store costs, and a load: with a third,
/// `gather_add_scatter`'s result, 27.0 M host instructions a launch against 26.0 M.)
pub(super) const MAX_HELD_IN_COPY: usize = 8;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{LoadOptions, Program};

    fn program(text: &str) -> Program {
        Program::from_text(text, &LoadOptions::default()).expect("test program")
    }

    /// The loop's counter and accumulator are chosen (16 lanes: four chunks each); not the
    /// variable written before the loop, nor the bound the loop only reads, nor the value read
    /// only in the block that wrote it.
    #[test]
    fn loop_chunks_are_chosen_by_reads_in_other_blocks() {
        let p = program(
            "
.decl K v_type=G type=d num_elts=16 align=GRF
.decl ACC v_type=G type=d num_elts=16 align=GRF
.decl X v_type=G type=d num_elts=16 align=GRF
.decl N v_type=G type=d num_elts=16 align=GRF
.decl T v_type=G type=d num_elts=16 align=GRF
.decl P1 v_type=P num_elts=16
mov (M1, 16) X(0,0)<1> 0x0:d
LOOP:
add (M1, 16) ACC(0,0)<1> ACC(0,0)<1;1,0> K(0,0)<1;1,0>
add (M1_NM, 16) T(0,0)<1> X(0,0)<1;1,0> K(0,0)<1;1,0>
add (M1, 16) K(0,0)<1> T(0,0)<1;1,0> 0x1:d
cmp.lt (M1, 16) P1 K(0,0)<1;1,0> N(0,0)<1;1,0>
(P1) goto (M1, 16) LOOP
",
        );
        let plan = super::super::plan(&p);
        let at = |name: &str| p.layout.top_level_var(name).expect(name).offset;
        let chunks = |name: &str| {
            let base = at(name);
            (0..4).map(move |c| base + 16 * c)
        };
        let chosen = chosen(&p, &plan);
        assert!(
            chunks("K")
                .chain(chunks("ACC"))
                .all(|at| chosen.contains(&at)),
            "{chosen:?}"
        );
        assert_eq!(chosen.len(), 8);
    }

    /// At most [`MAX_PROMOTED`] chunks, the most read first.
    #[test]
    fn the_most_read_chunks_are_chosen() {
        let p = program(
            "
.decl A v_type=G type=d num_elts=16 align=GRF
.decl B v_type=G type=d num_elts=16 align=GRF
.decl C v_type=G type=d num_elts=16 align=GRF
.decl P1 v_type=P num_elts=16
LOOP:
add (M1, 16) A(0,0)<1> A(0,0)<1;1,0> B(0,0)<1;1,0>
add (M1, 16) B(0,0)<1> B(0,0)<1;1,0> C(0,0)<1;1,0>
add (M1, 16) C(0,0)<1> C(0,0)<1;1,0> 0x1:d
cmp.lt (M1, 16) P1 C(0,0)<1;1,0> 0x10:d
(P1) goto (M1, 16) LOOP
",
        );
        let plan = super::super::plan(&p);
        let base = |name: &str| p.layout.top_level_var(name).expect(name).offset;
        // B and C are read by two instructions before their block writes them, A by one.
        let expected: Vec<u32> = ["B", "C"]
            .iter()
            .flat_map(|name| (0..4).map(move |c| base(name) + 16 * c))
            .collect();
        let mut chosen = chosen(&p, &plan);
        chosen.sort_unstable();
        let mut expected = expected;
        expected.sort_unstable();
        assert_eq!(chosen, expected);
    }

    /// The copy run with a full mask holds what its vector ALU instructions and dword gathers
    /// write before anything reads it, the first written first: `A` (gathered) and `S`
    /// (summed), not `B`, which is read before it is written, nor `C`, past the limit.
    #[test]
    fn the_copy_holds_what_it_writes_first() {
        let p = program(
            "
.decl P v_type=G type=uq num_elts=16 align=GRF
.decl A v_type=G type=d num_elts=16 align=GRF
.decl B v_type=G type=d num_elts=16 align=GRF
.decl S v_type=G type=d num_elts=16 align=GRF
.decl C v_type=G type=d num_elts=16 align=GRF
svm_gather.4.1 (M1, 16) P.0 A.0
add (M1, 16) B(0,0)<1> B(0,0)<1;1,0> A(0,0)<1;1,0>
add (M1, 16) S(0,0)<1> A(0,0)<1;1,0> B(0,0)<1;1,0>
add (M1, 16) C(0,0)<1> S(0,0)<1;1,0> 0x1:d
",
        );
        let base = |name: &str| p.layout.top_level_var(name).expect(name).offset;
        let chunks = |name: &str| {
            let first = base(name);
            (0..4).map(move |c| first + 16 * c)
        };
        let mut expected: Vec<u32> = chunks("A").chain(chunks("S")).collect();
        expected.sort_unstable();
        assert_eq!(held_in_copy(&p, 0xffff), expected);
        // Written under part of the mask, `A` is not written first in every channel.
        assert!(
            held_in_copy(&p, 0xff)
                .iter()
                .all(|at| !chunks("A").any(|a| a == *at))
        );
    }
}
