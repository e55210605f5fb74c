//! Join points: the instructions where a divergent `goto` parks channels (runtime-semantics
//! §8.3). A forward goto parks the channels that jump at its target; a backward one parks the
//! channels that leave the loop at the instruction after it. Nothing else parks channels.
//!
//! Found once per program at load and numbered in program order, so that a thread keeps one
//! parked mask per join point in a fixed array (`Thread::waiting`), which the interpreter and
//! compiled code share: parking is an OR into a slot, rejoining an OR out of it, and the
//! nearest later point with parked channels is the first non-zero slot after the current one.

use crate::ops::Op;

/// Marks an instruction that is not a join point in [`JoinPoints::index`].
const NONE: u32 = u32::MAX;

/// Where the channels of a goto at `pc` to `target` wait: the target of a forward goto, the
/// next instruction after a backward one (or one to itself).
pub(crate) fn park_point(pc: usize, target: usize) -> usize {
    if target > pc { target } else { pc + 1 }
}

/// A program's join points.
#[derive(Debug, Clone, Default)]
pub(crate) struct JoinPoints {
    /// Their instructions, ascending (the end of the code may be one).
    pcs: Vec<usize>,
    /// Per instruction (and the end of the code): its place in `pcs`, or [`NONE`].
    index: Vec<u32>,
}

impl JoinPoints {
    pub(crate) fn new(code: &[Op]) -> JoinPoints {
        let mut pcs: Vec<usize> = code
            .iter()
            .enumerate()
            .filter_map(|(pc, op)| match op {
                Op::Goto { target, .. } => Some(park_point(pc, *target)),
                _ => None,
            })
            .collect();
        pcs.sort_unstable();
        pcs.dedup();
        let len = pcs.last().map_or(0, |last| last + 1).max(code.len() + 1);
        let mut index = vec![NONE; len];
        for (i, &pc) in pcs.iter().enumerate() {
            index[pc] = i as u32;
        }
        JoinPoints { pcs, index }
    }

    /// How many there are (the length of a thread's `waiting` array).
    pub(crate) fn len(&self) -> usize {
        self.pcs.len()
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.pcs.is_empty()
    }

    /// The join point at instruction `pc`, if it is one.
    #[inline]
    pub(crate) fn index(&self, pc: usize) -> Option<usize> {
        match self.index.get(pc) {
            Some(&i) if i != NONE => Some(i as usize),
            _ => None,
        }
    }

    /// The instruction of join point `i`.
    pub(crate) fn pc(&self, i: usize) -> usize {
        self.pcs[i]
    }

    /// The join points strictly between instructions `from` and `to`, as indices (empty when
    /// `to <= from + 1`).
    pub(crate) fn between(&self, from: usize, to: usize) -> std::ops::Range<usize> {
        let start = self.pcs.partition_point(|&pc| pc <= from);
        let end = self.pcs.partition_point(|&pc| pc < to).max(start);
        start..end
    }

    /// The join points after instruction `pc`, as indices.
    pub(crate) fn after(&self, pc: usize) -> std::ops::Range<usize> {
        self.pcs.partition_point(|&at| at <= pc)..self.pcs.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::ExecCtl;

    fn goto(target: usize) -> Op {
        Op::Goto {
            exec: ExecCtl {
                size: 16,
                offset: 0,
                no_mask: false,
            },
            pred: None,
            target,
        }
    }

    #[test]
    fn forward_targets_and_the_instructions_after_backward_gotos_are_join_points() {
        // 0: goto 3; 1: goto 1 (itself); 2: nop; 3: goto 0; 4: goto 5 (the end).
        let code = [goto(3), goto(1), Op::Nop, goto(0), goto(5)];
        let joins = JoinPoints::new(&code);
        assert_eq!(joins.pcs, [2, 3, 4, 5]);
        let indices: Vec<Option<usize>> = (0..=6).map(|pc| joins.index(pc)).collect();
        assert_eq!(
            indices,
            [None, None, Some(0), Some(1), Some(2), Some(3), None]
        );
        assert_eq!(joins.between(2, 5), 1..3);
        assert_eq!(joins.between(3, 4), 2..2);
        assert_eq!(joins.between(4, 0), 3..3);
        assert_eq!(joins.after(3), 2..4);
        assert_eq!(joins.after(5), 4..4);
    }
}
