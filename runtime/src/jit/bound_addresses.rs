//! SVM addresses compiled code computes from the launch's per-lane pointer bindings instead of
//! reading them from the register file.
//!
//! A per-lane SVM binding (`Launch::bind_svm_lanes`) gives work-item `i` the pointer
//! `base + i * stride`. When no native instruction of the program but the messages that use
//! them as addresses touches a binding's bytes, the launch loop need not write them for every
//! thread: a native SVM message whose address operand lies in the binding computes lane 0's
//! address from the thread's first work-item (`JitCtx::first_item`) and the binding (kept in
//! the message's window slot), and with every lane enabled and a stride equal to the block
//! size it moves one block after one range check. Whatever else could look at the pointers
//! sees them written first (`JitCtx::pending`, [`materialise`]): every helper (the
//! interpreter's handlers among them), the driver before it interprets an instruction, and the
//! end of a thread whose captured variables include them. These facts are per program; which
//! bindings are deferred, and their values, are per launch (`CompiledRun::with_pointers`).

use std::ops::Range;

use super::Tier;
use super::chunks;
use super::context::{JitCtx, Window};
use super::plan::{Lowering, Plan};
use crate::machine::Thread;
use crate::machine::lane_pointers::LanePointers;
use crate::ops::{Op, SvmScattered};
use crate::program::Program;

/// The SVM message `op` when compiled code of `tier` can compute its addresses from a binding:
/// one 4- or 8-byte block per lane, the operands the addresses themselves (scale 1), optimised
/// code (the only code with the block path).
pub(super) fn computable(op: &Op, tier: Tier) -> Option<&SvmScattered> {
    match op {
        Op::SvmGather(s) | Op::SvmScatter(s)
            if s.blocks == 1 && s.address_scale == 1 && tier == Tier::Optimized =>
        {
            Some(s)
        }
        _ => None,
    }
}

/// A native message whose addresses compiled code can compute.
#[derive(Debug, Clone)]
struct AddressRead {
    /// Its window slot (`Plan::window_slot`), which holds the binding it reads.
    slot: u32,
    /// The bytes of its address operand: one 8-byte pointer per lane.
    bytes: Range<usize>,
    /// Its block size.
    size: u64,
}

/// What a program's compiled code reads and writes natively, for the choice of the bindings
/// whose pointers need not be written ([`BoundAddresses::computes`]).
#[derive(Debug, Clone, Default)]
pub(crate) struct BoundAddresses {
    reads: Vec<AddressRead>,
    /// Every other register byte range a native instruction may read or write.
    touched: Vec<Range<usize>>,
    /// Every byte range a native instruction (or the handler its message falls back to) may
    /// write: all the program writes when its threads run in batches (`Plan::batches`).
    pub(crate) writes: Vec<Range<usize>>,
}

fn overlap(a: &Range<usize>, b: &Range<usize>) -> bool {
    a.start < b.end && b.start < a.end
}

impl BoundAddresses {
    pub(super) fn new(program: &Program, plan: &Plan, tier: Tier) -> BoundAddresses {
        let mut facts = BoundAddresses::default();
        let touched = &mut facts.touched;
        let writes = &mut facts.writes;
        if let Some(offset) = program.ce0_offset {
            touched.push(offset..offset + 4);
            writes.push(offset..offset + 4);
        }
        for (pc, op) in program.code.iter().enumerate() {
            let native_writes = match plan.lowering[pc] {
                Lowering::Memory | Lowering::FastAlu | Lowering::FastCmp | Lowering::FastFloat => {
                    chunks::may_write(op)
                }
                _ => None,
            };
            writes.extend(native_writes.clone());
            match plan.lowering[pc] {
                Lowering::Handler
                | Lowering::Cold
                | Lowering::Nop
                | Lowering::Jmp
                | Lowering::Goto
                | Lowering::PredLogic
                | Lowering::StateMove
                | Lowering::Ret => {}
                Lowering::FastAlu | Lowering::FastCmp | Lowering::FastFloat => {
                    // (An ALU form writes its dwords from `dst`, `chunks::may_write`.)
                    touched.extend(native_writes);
                    let (srcs, size) = match op {
                        Op::FastAlu(a) => (&a.srcs[..], a.general.exec.size),
                        Op::FastFloat(a) => (&a.srcs[..], a.general.exec.size),
                        Op::FastCmp(c) => (&c.srcs[..], c.exec.size),
                        _ => (&[][..], 0),
                    };
                    for src in srcs {
                        touched.extend(src.region.bytes(size));
                    }
                }
                Lowering::Memory => match (op, computable(op, tier)) {
                    (_, Some(s)) => {
                        let start = s.addresses.base as usize;
                        facts.reads.push(AddressRead {
                            slot: plan.window_slot[pc],
                            bytes: start..start + 8 * s.exec.size as usize,
                            size: u64::from(s.block_bytes),
                        });
                        touched.extend(s.data.bytes());
                    }
                    (Op::SvmGather(s) | Op::SvmScatter(s), None) => {
                        touched.extend(s.addresses.bytes());
                        touched.extend(s.data.bytes());
                    }
                    (Op::GatherScaled(g) | Op::ScatterScaled(g), None) => {
                        touched.extend(g.element_offset.bytes());
                        touched.extend(g.data.bytes());
                    }
                    (Op::Gather4(g) | Op::Scatter4(g), None) => {
                        if let crate::ops::Gather4Target::Surface { offsets, .. } = &g.target {
                            touched.extend(offsets.bytes());
                        }
                        touched.extend(g.data.bytes());
                    }
                    // (Every native message is one of the above.)
                    _ => touched.push(0..usize::MAX),
                },
            }
        }
        facts
    }

    /// Whether compiled code computes the pointers of `binding` wherever it reads them natively,
    /// as one block copy per message with every lane enabled: no other native access touches
    /// them, each message reading them lies inside them on a pointer boundary and has the
    /// binding's stride as its block size.
    pub(crate) fn computes(&self, binding: &LanePointers) -> bool {
        let written = binding.written();
        !self.touched.iter().any(|t| overlap(t, &written))
            && self
                .reads
                .iter()
                .filter(|r| overlap(&r.bytes, &written))
                .all(|r| {
                    written.start <= r.bytes.start
                        && r.bytes.end <= written.end
                        && (r.bytes.start - written.start).is_multiple_of(8)
                        && r.size == binding.stride
                })
    }

    /// Marks in `windows` (one per window slot) the messages that read `deferred` (bindings
    /// [`BoundAddresses::computes`] accepted; at most 64): the binding's bit in
    /// `JitCtx::pending`, the pointer of the work-item the message's lane 0 reads relative to
    /// the thread's first (`pointer_first`), and the stride.
    pub(super) fn describe(&self, deferred: &[LanePointers], windows: &mut [Window]) {
        for read in &self.reads {
            let Some(window) = windows.get_mut(read.slot as usize) else {
                continue;
            };
            *window = Window::default();
            let binding = deferred.iter().take(64).enumerate().find(|(_, b)| {
                let written = b.written();
                written.start <= read.bytes.start && read.bytes.end <= written.end
            });
            if let Some((bit, binding)) = binding {
                let lane = ((read.bytes.start - binding.offset) / 8) as u64;
                window.pointer_bit = 1 << bit;
                window.pointer_first = binding.of_item(lane);
                window.pointer_stride = binding.stride;
            }
        }
    }
}

/// Writes the pointers of the thread's pending bindings (`JitCtx::pending`) into its register
/// file, where the interpreter, a handler or the captured values can see them.
pub(super) fn materialise(ctx: &mut JitCtx, thread: &mut Thread<'_>) {
    let mut pending = std::mem::take(&mut ctx.pending);
    while pending != 0 {
        let bit = pending.trailing_zeros() as usize;
        pending &= pending - 1;
        if let Some(pointers) = ctx.deferred.get(bit) {
            thread.write_pointers(pointers, ctx.first_item);
        }
    }
}
