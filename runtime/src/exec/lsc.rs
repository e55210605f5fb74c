//! The LSC messages `decode::lsc` builds an [`LscAccess`] for: loads and stores of a vector of
//! elements per address (non-transposed, transposed, strided and quad forms) and atomics, on
//! SVM (flat `ugm`/`ugml`), the group's SLM (flat `slm`) or a binding-table surface (`bti`).
//!
//! The memory side goes through [`MemCtx`] and [`Target`], so each kind of memory keeps its
//! own bounds rule: a surface element not wholly inside reads 0 and is not written, SLM and SVM
//! accesses outside trap. Atomics use the same indivisible update as `dword_atomic` and
//! `svm_atomic` (lanes in increasing order, [`combine`]).

use crate::error::Fault;
use crate::machine::Thread;
use crate::ops::{AtomicOp, LscAccess, LscAddresses, LscKind};

use super::access::{MemCtx, Target, check_align};
use super::atomic::{Float, combine};
use super::lanes_of;

impl Thread<'_> {
    pub(crate) fn exec_lsc(&mut self, l: &LscAccess, mem: &MemCtx) -> Result<(), Fault> {
        let enables = self.channel_enables(l.exec, l.pred)?;
        // A load to `%null` is a prefetch: nothing to do on this machine.
        if enables == 0 || (l.kind == LscKind::Load && l.data.null) {
            return Ok(());
        }
        let base = match &l.base {
            Some(base) => self.scalar_u64(base)?,
            None => 0,
        };
        // Every lane's address is read before any data moves (a load may overwrite them).
        let mut addresses = [0u64; 32];
        // Strided: the first address and the pitch, read once (as the first enabled lane).
        let strided = match &l.addresses {
            LscAddresses::Strided { base: raw, pitch } => {
                let first = enables.trailing_zeros();
                let start = l.address(self.address_operand(l, raw, 0, first)?, base);
                Some((start, self.scalar_u64(pitch)? & 0xffff_ffff))
            }
            LscAddresses::Lanes(_) => None,
        };
        for lane in lanes_of(enables) {
            let address = match &l.addresses {
                LscAddresses::Lanes(raw) => {
                    let lane = lane as u32;
                    l.address(self.address_operand(l, raw, lane, lane)?, base)
                }
                LscAddresses::Strided { .. } => {
                    let (start, pitch) = strided.unwrap_or_default();
                    start.wrapping_add(pitch.wrapping_mul(lane as u64))
                }
            };
            if let Some(slot) = addresses.get_mut(lane) {
                *slot = address;
            }
        }
        let target = self.target(l.space, mem);
        if let LscKind::Atomic { op, bf16 } = l.kind {
            return self.lsc_atomic(l, mem, &target, &addresses, enables, op, bf16);
        }
        let store = l.kind == LscKind::Store;
        let mem_bytes = l.mem_bytes as usize;
        for lane in lanes_of(enables) {
            let address = addresses.get(lane).copied().unwrap_or_default();
            let lane = lane as u32;
            let at_lane = |kind| Fault::at_lane(kind, lane);
            let moved = (0..64u32).filter(|e| l.elements >> e & 1 != 0);
            for (block, element) in (0u32..).zip(moved) {
                let at = address.wrapping_add(u64::from(element * l.mem_bytes));
                check_align(at, l.mem_bytes, Some(lane))?;
                let slot = if l.transposed {
                    block * l.slot_bytes
                } else {
                    block * l.block_pitch + lane * l.slot_bytes
                };
                let mut bytes = [0u8; 8];
                let slot_len = l.slot_bytes as usize;
                // Where the element sits in its register slot.
                let shift = if l.high_half { 2 } else { 0 };
                if store {
                    self.read_raw(&l.data, slot, &mut bytes[..slot_len], Some(lane))?;
                    let element = &bytes[shift..shift + mem_bytes];
                    mem.write_element(&target, at, element).map_err(at_lane)?;
                } else {
                    let mut element = [0u8; 8];
                    mem.read_element(&target, at, &mut element[..mem_bytes])
                        .map_err(at_lane)?;
                    bytes[shift..shift + mem_bytes].copy_from_slice(&element[..mem_bytes]);
                    self.write_raw(&l.data, slot, &bytes[..slot_len], true)?;
                }
            }
        }
        Ok(())
    }

    /// Element `index` of an address operand, extended to 64 bits as its size says.
    fn address_operand(
        &self,
        l: &LscAccess,
        raw: &crate::ops::Raw,
        index: u32,
        lane: u32,
    ) -> Result<u64, Fault> {
        if l.address_bytes() == 8 {
            self.raw_u64(raw, index, lane)
        } else {
            self.raw_u32(raw, index, lane).map(u64::from)
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn lsc_atomic(
        &mut self,
        l: &LscAccess,
        mem: &MemCtx,
        target: &Target,
        addresses: &[u64; 32],
        enables: u32,
        op: AtomicOp,
        bf16: bool,
    ) -> Result<(), Fault> {
        let width = l.mem_bytes;
        let slot = l.slot_bytes;
        let float = if bf16 {
            Float::Bf16
        } else {
            Float::of_width(width)
        };
        let operand = |thread: &Self, raw: &crate::ops::Raw, lane: u32| -> Result<u64, Fault> {
            let mut bytes = [0u8; 8];
            thread.read_raw(raw, lane * slot, &mut bytes[..slot as usize], Some(lane))?;
            Ok(u64::from_le_bytes(bytes))
        };
        for lane in lanes_of(enables) {
            let address = addresses.get(lane).copied().unwrap_or_default();
            let lane = lane as u32;
            check_align(address, width, Some(lane))?;
            let s0 = operand(self, &l.src0, lane)?;
            let s1 = operand(self, &l.src1, lane)?;
            let update = |old: u64| combine(op, float, width, old, s0, s1);
            let old = mem
                .atomic(target, address, width, update)
                .map_err(|kind| Fault::at_lane(kind, lane))?
                // A surface lane out of bounds returns zero.
                .unwrap_or(0);
            // `d16u32`: the old value zero-extended to the lane's dword.
            let bytes = old.to_le_bytes();
            self.write_raw(&l.data, lane * slot, &bytes[..slot as usize], true)?;
        }
        Ok(())
    }
}
