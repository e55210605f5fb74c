//! Per-lane SVM pointer bindings (`--svm`, `Launch::bind_svm_lanes`): work-item `i` of a launch
//! holds `base + i * stride` in its lane of the variable. Written by the thread start, or, when
//! compiled code computes the addresses itself, only once something else may read them
//! (`jit::CompiledRun`).

use std::ops::Range;

use super::Thread;

/// A per-lane SVM pointer binding, placed in the register file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct LanePointers {
    /// Register-file byte of lane 0's pointer.
    pub offset: usize,
    /// The pointer of work-item 0.
    pub base: u64,
    /// Bytes from one work-item's pointer to the next's.
    pub stride: u64,
    /// The launch's SIMD width (pointers per thread).
    pub lanes: usize,
}

impl LanePointers {
    /// The bytes [`Thread::write_pointers`] writes.
    pub(crate) fn written(&self) -> Range<usize> {
        self.offset..self.offset + 8 * self.lanes
    }

    /// The pointer of work-item `item` (wrapping).
    pub(crate) fn of_item(&self, item: u64) -> u64 {
        self.base.wrapping_add(item.wrapping_mul(self.stride))
    }
}

impl Thread<'_> {
    /// Writes the pointers of a per-lane SVM binding in place for the thread whose lane 0 is
    /// work-item `first_item`, marking them defined; nothing when they do not fit the register
    /// file.
    pub(crate) fn write_pointers(&mut self, pointers: &LanePointers, first_item: u64) {
        let first = pointers.of_item(first_item);
        let Range { start: offset, end } = pointers.written();
        let Some(dst) = self.grf.get_mut(offset..end) else {
            return;
        };
        // The usual width with a length known at compile time: the loop unrolls.
        match <&mut [u8; 128]>::try_from(&mut *dst) {
            Ok(dst) => fill_pointers(dst, first, pointers.stride),
            Err(_) => fill_pointers(dst, first, pointers.stride),
        }
        // (A thread that does not track definedness has every byte defined already.)
        if self.tracks_defined
            && let Some(defined) = self.defined.get_mut(offset..end)
        {
            defined.fill(true);
        }
    }
}

/// `first + lane * stride` (wrapping) in each 8 bytes of `dst`.
#[inline(always)]
fn fill_pointers(dst: &mut [u8], first: u64, stride: u64) {
    let mut pointer = first;
    for bytes in dst.chunks_exact_mut(8) {
        bytes.copy_from_slice(&pointer.to_le_bytes());
        pointer = pointer.wrapping_add(stride);
    }
}
