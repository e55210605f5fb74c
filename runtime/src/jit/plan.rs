//! What the compiled tier does with each instruction, decided once per program before any IR
//! is built: which instructions start a block (fuel is charged per block, and checked where
//! loops close), which compile to native code and which call the interpreter's handler, and
//! where parked channels may rejoin.

use super::chunks;
use crate::joins::park_point;
use crate::ops::{ExecCtl, Op};
use crate::program::Program;

/// How one instruction is compiled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Lowering {
    /// Native code for an integer ALU instruction computed in 32 bits (`ops::fast::FastAlu`).
    FastAlu,
    /// Native code for a 32-bit integer comparison into a predicate.
    FastCmp,
    /// Native code for an F `add`/`mul`/`mad` (`ops::fast::FastFloat`) in IGC's float mode;
    /// the handler in any other mode or on a NaN.
    FastFloat,
    /// Native uniform `jmp`; calls the handler when parked channels could be skipped.
    Jmp,
    /// Native predicate logic (`and`/`or`/`xor`/`not` of predicates).
    PredLogic,
    /// Native `goto`, divergent or not (the parked masks are `Thread::waiting`).
    Goto,
    /// Native scattered memory message (`lower_mem`); the handler when an address is not
    /// inside the memory or misaligned.
    Memory,
    /// Native scalar `ret` at kernel level (the program calls nothing): the thread ends.
    Ret,
    /// Native `movs` of an immediate binding-table number into a state slot (`lower_state`).
    StateMove,
    /// Nothing to do (labels, hints).
    Nop,
    /// A call of the interpreter's handler for the instruction.
    Handler,
    /// An instruction of a block no thread had entered when the code was built
    /// ([`crate::JitTier::Lazy`]): compiled code leaves for the interpreter there, which runs
    /// the block and notes it for the program's next build.
    Cold,
}

impl Lowering {
    /// Whether the instruction compiles to native code.
    pub(crate) fn is_native(self) -> bool {
        !matches!(self, Lowering::Handler | Lowering::Cold)
    }
}

/// Whether an instruction can change the pc to anything but the next instruction (or stop the
/// thread): it ends a block.
pub(crate) fn ends_block(op: &Op) -> bool {
    matches!(
        op,
        Op::Jmp { .. }
            | Op::Goto { .. }
            | Op::SwitchJmp(_)
            | Op::Ret { .. }
            | Op::Call { .. }
            | Op::Fcall { .. }
            | Op::Fret { .. }
            | Op::EndOfObject { .. }
            | Op::NamedBarrier(_)
            | Op::GatewayBarrier(_)
            | Op::Barrier
            | Op::SplitBarrier { .. }
    )
}

/// The per-instruction facts the code generator needs.
#[derive(Debug, Clone)]
pub(crate) struct Plan {
    pub lowering: Vec<Lowering>,
    /// Block leaders: the only instructions compiled code can be entered at or jump to.
    pub leader: Vec<bool>,
    /// Per instruction: how many instructions of its block follow it (fuel refunded when the
    /// block is left early at this instruction).
    pub rest: Vec<u32>,
    /// Per leader: the number of instructions of its block (fuel charged on entry).
    pub block_len: Vec<u32>,
    /// Per leader: whether entering its block checks the fuel left (see [`fuel_checks`]).
    pub fuel_check: Vec<bool>,
    /// Per leader: the most instructions compiled code can run from its block's start before
    /// it reaches a block that checks the fuel again (or leaves): what the check asks for.
    pub reach: Vec<u32>,
    /// Subroutine and function starts and call targets: where the interpreter's check that
    /// execution arrived through a call runs.
    pub call_target: Vec<bool>,
    /// Per native memory message: its slot among the windows compiled code keeps
    /// (`JitCtx::windows`), numbered from 0 in program order.
    pub window_slot: Vec<u32>,
    /// How many window slots the messages use.
    pub windows: usize,
    /// How many groups of four lanes of the execution mask compiled code keeps as lane masks
    /// (`JitCtx::em_lanes`): enough for every native ALU instruction the mask enables.
    pub em_groups: u32,
    /// Per instruction: whether the next one, reached from it alone, reads a vector chunk it
    /// writes (`chunks::vector_chunks`): what a masked write stored is then handed to the
    /// next instruction as a value, not loaded again (`lower_alu::write_results`).
    pub feeds_next: Vec<bool>,
    /// Per instruction: whether the next one, reached from it alone, overwrites what it writes
    /// and reads it only as the values it wrote (`chunks::overwritten_by`): in the copy run
    /// with a full mask ([`Plan::full_mask`]), where both write every channel, the first
    /// write is not stored (`gather_add_scatter`'s `mad` and `max`; `permute`'s index gather,
    /// shifted in place, on its block copy path).
    pub overwritten_next: Vec<bool>,
    /// For straight-line code (`Plan::straight_line`) of at most [`MAX_FULL_MASK_COPY`]
    /// instructions: the execution-mask bits of every channel its instructions may enable
    /// under the mask. Optimised code has a second copy of such a program, entered when a
    /// thread's mask has all these bits (`lower::compile`): there every instruction knows its
    /// channels all enabled, so writes store without a test or a merge and messages test no
    /// lane (the mask of straight-line code never changes).
    pub full_mask: Option<u32>,
}

/// The most instructions of straight-line code compiled twice (see [`Plan::full_mask`]): the
/// copy doubles the compile time.
pub(crate) const MAX_FULL_MASK_COPY: usize = 512;

impl Plan {
    /// Whether every thread of the program runs its instructions in order on compiled code
    /// and changes nothing of its state but registers: native ALU instructions and messages
    /// only (no control flow, no predicates, no subroutines), so the next thread of a batch
    /// needs no predicate, state slot or parked mask reset, and the lane masks of its execution
    /// mask still hold (`lower::emit_next_thread`).
    pub(crate) fn straight_line(&self, program: &Program) -> bool {
        program.layout.predicates.is_empty()
            && program.subroutines.is_empty()
            && program.functions.is_empty()
            && (self.lowering.iter())
                .all(|l| matches!(l, Lowering::FastAlu | Lowering::Memory | Lowering::Nop))
    }

    /// Whether every thread of the program runs on compiled code from its start to its end,
    /// changing nothing of its state but registers, predicates, state slots, the execution
    /// mask and parked masks, each written only by native instructions (no subroutines, no
    /// instruction left to the interpreter but the slow paths of branches, which write no
    /// register): then every register byte a thread may write is known
    /// (`BoundAddresses::writes`), and a thread can start where the previous one ended, its
    /// registers restored, its predicates and masks set afresh (`CompiledRun::run_threads`).
    /// Cold blocks, left to the interpreter, may write any register: code with one runs in
    /// batches too, but without the known writes (`Compiled::known_writes`), so a thread gets
    /// back every byte it may read before writing it.
    pub(crate) fn batches(&self, program: &Program) -> bool {
        program.subroutines.is_empty()
            && program.functions.is_empty()
            && self.lowering.iter().all(|l| {
                matches!(
                    l,
                    Lowering::FastAlu
                        | Lowering::FastCmp
                        | Lowering::FastFloat
                        | Lowering::Memory
                        | Lowering::Nop
                        | Lowering::Jmp
                        | Lowering::Goto
                        | Lowering::PredLogic
                        | Lowering::StateMove
                        | Lowering::Ret
                        | Lowering::Cold
                )
            })
    }

    pub(crate) fn new(program: &Program, lower: impl Fn(&Op) -> Lowering) -> Plan {
        Plan::leaving_cold(program, lower, |_| true)
    }

    /// [`Plan::new`] for code that compiles only the blocks whose first instruction is
    /// `entered`: the others are [`Lowering::Cold`].
    pub(crate) fn leaving_cold(
        program: &Program,
        lower: impl Fn(&Op) -> Lowering,
        entered: impl Fn(usize) -> bool,
    ) -> Plan {
        let n = program.code.len();
        let mut lowering: Vec<Lowering> = program.code.iter().map(lower).collect();
        let mut leader = vec![false; n + 1];
        let mut call_target = vec![false; n + 1];
        let mark = |v: &mut Vec<bool>, pc: usize| {
            if let Some(slot) = v.get_mut(pc) {
                *slot = true;
            }
        };
        mark(&mut leader, 0);
        for &pc in &program.subroutines {
            mark(&mut leader, pc);
            mark(&mut call_target, pc);
        }
        for f in &program.functions {
            mark(&mut leader, f.entry);
            mark(&mut call_target, f.entry);
        }
        for (pc, op) in program.code.iter().enumerate() {
            if ends_block(op) {
                mark(&mut leader, pc + 1);
            }
            match op {
                Op::Jmp { target, .. } => mark(&mut leader, *target),
                Op::Call { target, .. } => {
                    mark(&mut leader, *target);
                    mark(&mut call_target, *target);
                }
                Op::Goto { target, .. } => {
                    mark(&mut leader, *target);
                    // Where parked channels rejoin (`Program::joins`).
                    mark(&mut leader, park_point(pc, *target));
                }
                Op::SwitchJmp(s) => {
                    for &t in s.targets.iter() {
                        mark(&mut leader, t);
                    }
                }
                _ => {}
            }
        }
        let mut rest = vec![0u32; n];
        let mut block_len = vec![0u32; n];
        let mut pc = 0;
        while pc < n {
            let start = pc;
            let mut end = pc + 1;
            while end < n && !leader[end] && !ends_block(&program.code[end - 1]) {
                end += 1;
            }
            let len = (end - start) as u32;
            block_len[start] = len;
            for (k, slot) in rest[start..end].iter_mut().enumerate() {
                *slot = len - 1 - k as u32;
            }
            // Every block start is a leader (the ones after a fall-through into a new block
            // are marked here).
            leader[start] = true;
            if !entered(start) {
                lowering[start..end].fill(Lowering::Cold);
            }
            pc = end;
        }
        let mut window_slot = vec![0u32; n];
        let mut windows = 0;
        for (slot, lowering) in window_slot.iter_mut().zip(&lowering) {
            if *lowering == Lowering::Memory {
                *slot = windows as u32;
                windows += 1;
            }
        }
        let em_groups = (program.code.iter().zip(&lowering))
            .filter(|(_, l)| {
                matches!(
                    l,
                    Lowering::FastAlu | Lowering::FastCmp | Lowering::FastFloat
                )
            })
            .map(|(op, _)| masked_groups(op))
            .max()
            .unwrap_or(0);
        let (fuel_check, reach) = fuel_checks(program, &lowering, &leader, &block_len);
        // (Facts about an instruction and the next, reached from it alone.)
        let with_next = |fact: fn(&Op, &Op) -> bool| -> Vec<bool> {
            (0..n)
                .map(|pc| {
                    pc + 1 < n && !leader[pc + 1] && fact(&program.code[pc], &program.code[pc + 1])
                })
                .collect()
        };
        let feeds_next = with_next(|op, next| {
            let written = chunks::vector_chunks(op).writes;
            let read = chunks::vector_chunks(next).reads;
            written.iter().any(|at| read.contains(at))
        });
        let overwritten_next = with_next(chunks::overwritten_by);
        let mut plan = Plan {
            lowering,
            leader,
            rest,
            block_len,
            fuel_check,
            reach,
            call_target,
            window_slot,
            windows,
            em_groups,
            feeds_next,
            overwritten_next,
            full_mask: None,
        };
        plan.full_mask = full_mask(program, &plan);
        plan
    }
}

/// Where compiled code checks the fuel left, and for how much: every block is charged its
/// length on entry, but only the blocks where a loop can close (the targets of jumps to the
/// same or an earlier block) and the first check that enough is left for `reach`, the longest
/// run of native code from there to the next check. Between two checks code only runs
/// forward, so the run is bounded. Entries through the dispatch check for the entered block's
/// reach. Returns `(fuel_check, reach)` per instruction (meaningful at leaders).
fn fuel_checks(
    program: &Program,
    lowering: &[Lowering],
    leader: &[bool],
    block_len: &[u32],
) -> (Vec<bool>, Vec<u32>) {
    let n = program.code.len();
    let mut fuel_check = vec![false; n];
    let mut successors: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut start = 0;
    while start < n {
        let end = start + block_len[start].max(1) as usize;
        let last = end - 1;
        let native = lowering[last].is_native();
        let next: Vec<usize> = match &program.code[last] {
            // (Compiled code leaves at a cold block's start.)
            _ if lowering[start] == Lowering::Cold => Vec::new(),
            // (A forward goto may go on at any join point up to its target.)
            Op::Goto { target, .. } if native && *target > last => {
                (end..=(*target).min(n)).filter(|&pc| leader[pc]).collect()
            }
            Op::Goto { target, .. } | Op::Jmp { target, .. } if native => vec![end, *target],
            // (`ret`'s channels that do not end the thread go on.)
            Op::Ret { .. } if native => vec![end],
            op if ends_block(op) => Vec::new(),
            _ => vec![end],
        };
        for &to in &next {
            if to <= start && to < n {
                fuel_check[to] = true;
            }
        }
        successors[start] = next;
        start = end;
    }
    if n > 0 {
        fuel_check[0] = true;
    }
    let mut reach = vec![0u32; n];
    let mut starts: Vec<usize> = (0..n).filter(|&pc| leader[pc]).collect();
    starts.reverse();
    for start in starts {
        let further = (successors[start].iter())
            .filter(|&&to| to < n && !fuel_check[to])
            .map(|&to| reach[to])
            .max()
            .unwrap_or(0);
        reach[start] = match lowering[start] {
            Lowering::Cold => 0,
            _ => block_len[start].saturating_add(further),
        };
    }
    (fuel_check, reach)
}

/// [`Plan::full_mask`]: the mask bits of the channels each natively lowered instruction takes
/// from the execution mask; none when some instruction's channels are not such bits.
fn full_mask(program: &Program, plan: &Plan) -> Option<u32> {
    if !plan.straight_line(program) || program.code.len() > MAX_FULL_MASK_COPY {
        return None;
    }
    let mut bits = 0u64;
    for (op, lowering) in program.code.iter().zip(&plan.lowering) {
        let exec = match lowering {
            Lowering::Nop => continue,
            _ => native_exec(op)?,
        };
        if !exec.no_mask {
            bits |= u64::from(exec.lanes()) << exec.offset;
        }
    }
    u32::try_from(bits).ok().filter(|&bits| bits != 0)
}

/// The execution control of a fast-form ALU instruction, comparison or memory message.
fn native_exec(op: &Op) -> Option<ExecCtl> {
    match op {
        Op::FastAlu(f) => Some(f.general.exec),
        Op::FastFloat(f) => Some(f.general.exec),
        Op::FastCmp(c) => Some(c.exec),
        Op::SvmGather(s) | Op::SvmScatter(s) => Some(s.exec),
        Op::GatherScaled(g) | Op::ScatterScaled(g) => Some(g.exec),
        Op::Gather4(g) | Op::Scatter4(g) => Some(g.exec),
        _ => None,
    }
}

/// The groups of four execution-mask lanes an instruction's channels fall in when the mask
/// enables them (0 for NoMask; the plan asks for fast-form ALU instructions only).
fn masked_groups(op: &Op) -> u32 {
    match native_exec(op) {
        Some(exec) if !exec.no_mask => (exec.offset + exec.size).div_ceil(4).min(8),
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use crate::{LoadOptions, Program};

    fn program(text: &str) -> Program {
        Program::from_text(text, &LoadOptions::default()).expect("test program")
    }

    const DECLS: &str = "
.decl A v_type=G type=d num_elts=16 align=GRF
.decl B v_type=G type=d num_elts=16 align=GRF
";

    /// Straight-line code asks for the mask bits of every channel it takes from the mask:
    /// SIMD16 from channel 0, SIMD8 from channel 0 and from channel 8 (`M3`); NoMask none.
    #[test]
    fn straight_line_code_asks_for_the_channels_it_enables() {
        let full_mask =
            |body: &str| super::super::plan(&program(&format!("{DECLS}{body}"))).full_mask;
        assert_eq!(
            full_mask("add (M1, 16) A(0,0)<1> A(0,0)<1;1,0> 0x1:d\n"),
            Some(0xffff)
        );
        assert_eq!(
            full_mask("add (M1, 8) A(0,0)<1> A(0,0)<1;1,0> 0x1:d\n"),
            Some(0xff)
        );
        assert_eq!(
            full_mask(
                "add (M1, 8) A(0,0)<1> A(0,0)<1;1,0> 0x1:d\nadd (M3, 8) B(0,0)<1> B(0,0)<1;1,0> 0x1:d\n"
            ),
            Some(0xffff)
        );
        // Nothing depends on the mask: no copy.
        assert_eq!(
            full_mask("add (M1_NM, 16) A(0,0)<1> A(0,0)<1;1,0> 0x1:d\n"),
            None
        );
        // Control flow and predicates change the mask or the channels: no copy.
        assert_eq!(
            full_mask(
                ".decl P1 v_type=P num_elts=16\ncmp.lt (M1, 16) P1 A(0,0)<1;1,0> 0x4:d\n(P1) goto (M1, 16) END\n\
                 add (M1, 16) A(0,0)<1> A(0,0)<1;1,0> 0x1:d\nEND:\n"
            ),
            None
        );
        let long =
            "add (M1, 16) A(0,0)<1> A(0,0)<1;1,0> 0x1:d\n".repeat(super::MAX_FULL_MASK_COPY + 1);
        assert_eq!(full_mask(&long), None);
    }

    /// An instruction feeds the next when the next reads what it wrote in the same block.
    #[test]
    fn a_write_feeds_the_next_reader_of_its_block() {
        let p = program(&format!(
            "{DECLS}.decl P1 v_type=P num_elts=16
and (M1, 16) A(0,0)<1> B(0,0)<1;1,0> 0x1:d
cmp.eq (M1, 16) P1 A(0,0)<1;1,0> 0x0:d
add (M1, 16) B(0,0)<1> B(0,0)<1;1,0> 0x1:d
(P1) goto (M1, 16) END
add (M1, 16) B(0,0)<1> B(0,0)<1;1,0> 0x1:d
add (M1, 16) A(0,0)<1> B(0,0)<1;1,0> 0x1:d
END:
"
        ));
        let plan = super::super::plan(&p);
        // `and` -> `cmp` (reads A), `cmp` writes a predicate, `add B` -> `goto` (no vector
        // read), `add B` after the goto -> `add A` (reads B), the last one -> nothing.
        assert_eq!(
            plan.feeds_next[..6],
            [true, false, false, false, true, false]
        );
    }
}
